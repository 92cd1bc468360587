/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _RTE_IB_MBUF_H_
#define _RTE_IB_MBUF_H_

/**
 * @file
 * InfiniBand addressing of an mbuf: a 16-byte mbuf dynamic field shared by
 * every IB PMD and by the libraries above it (rte_ipoib, applications).
 *
 * On transmit the sender fills the @c tx view (address handle, destination
 * QPN, Q_Key) before handing the mbuf to an IB PMD's tx_burst; on receive
 * the PMD fills the @c rx view from the completion (source QPN, SLID, SL,
 * path bits, P_Key index, GRH present, port).
 *
 * GRH on receive: an IB PMD scatters the first 40 bytes of every UD
 * receive (the GRH slot, IBA 11.4.1.2, present or not) into the mbuf's
 * headroom, so the payload starts at rte_pktmbuf_mtod() and, when the
 * @c RTE_IB_MBUF_F_GRH flag is set, the GRH is the 40 bytes just before
 * it (rte_ib_mbuf_grh()). Receive mempools therefore need a headroom of
 * at least RTE_IB_GRH_LEN bytes.
 *
 * Threading: rte_ib_mbuf_dynfield_register() is a control-path call (it
 * takes the EAL's dynfield lock), made once at init by any PMD or library
 * that uses the field; the accessors are lock-free inlines for data lcores.
 */

#include <stdint.h>

#include <rte_common.h>
#include <rte_compat.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include <rte_ib_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rte_ib_ah;

/** Name under which the field is registered with rte_mbuf_dynfield_register(). */
#define RTE_IB_MBUF_DYNFIELD_NAME "rte_ib_dynfield_addr"

/** rx flags: a 40-byte GRH precedes the payload (see rte_ib_mbuf_grh()). */
#define RTE_IB_MBUF_F_GRH 0x01

/**
 * IB address of an mbuf. 16 bytes, 8-byte aligned (the whole dynfield
 * area of an mbuf is 36 bytes, so the field is kept small).
 */
struct rte_ib_mbuf_addr {
	union {
		/** Transmit view, written by the sender before tx_burst. */
		struct {
			/**
			 * Address handle from rte_ib_ah_create(); NULL makes
			 * the PMD count an error and free the mbuf unsent.
			 */
			struct rte_ib_ah *ah;
			uint32_t dest_qpn;  /**< Destination QPN, 24 bits. */
			uint32_t qkey;      /**< Q_Key of the destination QP. */
		} tx;
		/** Receive view, written by the PMD in rx_burst. */
		struct {
			uint32_t src_qpn;    /**< Source QPN (DETH), 24 bits. */
			uint16_t slid;       /**< Source LID (LRH), host order. */
			uint16_t pkey_index; /**< P_Key index the packet matched. */
			uint8_t sl;          /**< Service level (LRH:SL). */
			uint8_t path_bits;   /**< DLID path bits (low LMC bits). */
			uint8_t flags;       /**< RTE_IB_MBUF_F_*. */
			uint8_t port;        /**< IB port number, 1-based. */
		} rx;
	};
};

static_assert(sizeof(struct rte_ib_mbuf_addr) == 16,
	      "struct rte_ib_mbuf_addr is 16 bytes");

/**
 * Offset of the field in struct rte_mbuf, set by
 * rte_ib_mbuf_dynfield_register(); -1 until then.
 */
extern int rte_ib_mbuf_dynfield_offset;

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Register the IB address dynfield (or find it when another component
 * already did) and set rte_ib_mbuf_dynfield_offset. Idempotent: every call
 * in a process, and in its secondary processes, returns the same offset.
 * Control path only (it takes the EAL's dynfield lock); call it at init,
 * before any lcore uses rte_ib_mbuf_addr().
 *
 * @return
 *   The field's offset in struct rte_mbuf (>= 0), or -1 with rte_errno
 *   set by rte_mbuf_dynfield_register(): ENOMEM (no room left in the
 *   mbuf's dynfield area), EEXIST (the name is registered with another
 *   size or alignment).
 */
__rte_experimental
int rte_ib_mbuf_dynfield_register(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The IB address of @p m. Valid only after rte_ib_mbuf_dynfield_register()
 * succeeded. Any lcore, lock-free.
 *
 * @param m
 *   The mbuf (first segment of a packet).
 * @return
 *   Pointer to the field inside @p m.
 */
__rte_experimental
static inline struct rte_ib_mbuf_addr *
rte_ib_mbuf_addr(struct rte_mbuf *m)
{
	return RTE_MBUF_DYNFIELD(m, rte_ib_mbuf_dynfield_offset,
				 struct rte_ib_mbuf_addr *);
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The GRH of a received mbuf. The PMD writes the GRH slot of the receive
 * into the 40 bytes of headroom just before the payload; the GRH is
 * meaningful only when the rx flags say the packet carried one.
 * Any lcore, lock-free.
 *
 * @param m
 *   An mbuf returned by an IB PMD's rx_burst, data offset not moved back
 *   by more than its headroom minus 40 bytes since.
 * @return
 *   The GRH, or NULL when the packet had none (or the headroom no longer
 *   holds it).
 */
__rte_experimental
static inline const struct rte_ib_grh *
rte_ib_mbuf_grh(struct rte_mbuf *m)
{
	if ((rte_ib_mbuf_addr(m)->rx.flags & RTE_IB_MBUF_F_GRH) == 0 ||
	    rte_pktmbuf_headroom(m) < RTE_IB_GRH_LEN)
		return NULL;
	return (const struct rte_ib_grh *)
		(rte_pktmbuf_mtod(m, const uint8_t *) - RTE_IB_GRH_LEN);
}

#ifdef __cplusplus
}
#endif

#endif /* _RTE_IB_MBUF_H_ */
