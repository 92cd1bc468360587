/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * Directed-route SMP rules of IBA 14.2.2 as pure functions (dr.c), and the
 * few DR header helpers they need. Private to ibfabric's forwarding
 * code (switch.c, node_io.c); nothing here touches the fabric.
 *
 * The directed-route SMP layout (IBA 14.2.1.2) is in mad.h.
 */

#ifndef _IBFABRIC_DR_H_
#define _IBFABRIC_DR_H_

#include <stdbool.h>
#include <stdint.h>

#include "ib_proto.h"
#include "mad.h"

#define DR_MAX_HOPS		63	/**< paths are 64 bytes, entry 0 unused */

/** Whether the SMP travels (HANDLE) or is discarded, IBA 14.2.2. */
enum dr_verdict {
	DR_DISCARD = 0,
	DR_HANDLE,
};

/** What a node does with an SMP it handles. */
enum dr_action {
	DR_LOCAL = 0,	/**< give it to this node's SMA (D=0) or SM (D=1) */
	DR_FORWARD,	/**< send it out @c port, directed route (LRH LIDs permissive) */
	DR_SEND,	/**< LID-route it to @c lid; 0: as already addressed */
};

/** Result of one DR step. */
struct dr_result {
	enum dr_verdict verdict;
	enum dr_action action;
	uint8_t port;		/**< DR_FORWARD: egress port */
	uint16_t lid;		/**< DR_SEND: destination LID (0 = unchanged) */
	const char *rule;	/**< compliance statement that decided, e.g. "C14-9:2" */
};

static inline bool
dr_is_returning(const uint8_t *smp)
{
	return mad_dr_is_return(smp) != 0;
}

static inline bool
dr_slid_is_permissive(const uint8_t *smp)
{
	return mad_get16(smp, MAD_DR_SLID) == IB_LID_PERMISSIVE;
}

static inline bool
dr_dlid_is_permissive(const uint8_t *smp)
{
	return mad_get16(smp, MAD_DR_DLID) == IB_LID_PERMISSIVE;
}

/** Set the D bit: the responder turns a request around (IBA 14.2.2.3). */
static inline void
dr_set_returning(uint8_t *smp)
{
	mad_set16(smp, MAD_STATUS, mad_get16(smp, MAD_STATUS) | MAD_STATUS_DR_D);
}

/** Whether HopCount is usable at all (C14-6: at most 63 hops). */
bool dr_hop_count_valid(const uint8_t *smp);

/**
 * Rules at the node that originates @p smp (an SM's request with D=0, or
 * a responder's reply with D=1), IBA 14.2.2.2 / 14.2.2.4 / C14-9, C14-13.
 * Updates HopPointer in place.
 *
 * @param is_switch  the node is a switch (paths index its ports)
 * @param nports     its number of physical ports
 */
void dr_originate(uint8_t *smp, bool is_switch, uint8_t nports, struct dr_result *r);

/**
 * Rules at a node that received @p smp on @p in_port (C14-9 outgoing,
 * C14-13 returning): records ReturnPath[HopPointer] for outgoing SMPs,
 * advances (outgoing) or backs up (returning) HopPointer in place, and
 * says where the SMP goes next.
 */
void dr_receive(uint8_t *smp, bool is_switch, uint8_t in_port, uint8_t nports,
		struct dr_result *r);

#endif /* _IBFABRIC_DR_H_ */
