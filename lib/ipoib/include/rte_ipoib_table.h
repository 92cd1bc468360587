/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _RTE_IPOIB_TABLE_H_
#define _RTE_IPOIB_TABLE_H_

/**
 * @file
 * The IPoIB data-path tables: neighbours and paths.
 *
 * A neighbour is an IPoIB link-layer address (RFC 4391 9.1: QPN and GID,
 * a unicast peer or a multicast group) together with the Ethernet MAC the
 * Ethernet view presents for it (rte_ipoib_mac_from_hwaddr()) and,
 * optionally, one IP address (the L3 view). A neighbour points to a path.
 * A path is keyed by (destination GID, P_Key) and holds the address
 * handle the control side created for it (struct rte_ib_ah, opaque here)
 * and the DLID it resolved to; until it has an address handle it holds a
 * small bounded queue of packets waiting for it.
 *
 * Threads: one table is written by the control side only (every function
 * marked "control side"; they serialise on an internal lock, so several
 * control threads may call them) and read by any number of data lcores
 * without locks (rte_ipoib_neigh_lookup*() and the bursts of
 * rte_ipoib_encap.h). Entries that are replaced or removed are freed only
 * after every reader registered with the table's QSBR variable
 * (rte_rcu_qsbr) has reported a quiescent state since; so is an address
 * handle that a path stops using, through the ah_free callback. A data
 * lcore must report its quiescent state (rte_rcu_qsbr_quiescent()) only
 * when it holds no pointer from the table any more: after the mbufs it
 * encapsulated have been handed to the device (their dynfield carries the
 * address handle). rte_ipoib_tbl_reclaim() frees what is due.
 *
 * Ageing: the data path stamps each neighbour it uses with the TSC
 * (coarsely: at most RTE_IPOIB_NEIGH_STAMP_HZ times a second); the
 * control side reads the stamp with rte_ipoib_neigh_last_used() and
 * removes neighbours it judges stale, as Linux's ipoib_reap_neigh() does.
 *
 * NULL arguments: a function given NULL where it needs an object (the
 * table, an entry, a key, an output) fails the one way its return type
 * allows, with rte_errno EINVAL: NULL, -1, 0 (counts and
 * rte_ipoib_neigh_last_used()), or, for a void function, nothing done.
 * rte_ipoib_tbl_free() takes NULL as a no-op. A lookup that finds
 * nothing returns NULL and leaves rte_errno alone (data lcores).
 */

#include <stdint.h>

#include <rte_compat.h>
#include <rte_ether.h>
#include <rte_rcu_qsbr.h>

/**
 * How often a second, at most, the data path stamps a neighbour it uses
 * (rte_ipoib_neigh_last_used() is that coarse: up to 250 ms late). Linux
 * reaps a neighbour idle for two ARP garbage-collection intervals (60 s
 * by default, __ipoib_reap_neigh()), which this resolves 240 times over;
 * each stamp is a store that dirties a line the burst otherwise only
 * reads, which with 100,000 neighbours in use costs a cycle or two per
 * packet at 16 a second and more at 1,024.
 */
#define RTE_IPOIB_NEIGH_STAMP_HZ 4

#include "rte_ipoib.h"

#ifdef __cplusplus
extern "C" {
#endif

struct rte_ib_ah;
struct rte_mbuf;

/** A table of neighbours and paths (opaque). */
struct rte_ipoib_tbl;
/** A neighbour (opaque handle, valid until rte_ipoib_neigh_del()). */
struct rte_ipoib_neigh;
/** A path (opaque handle, valid until rte_ipoib_path_del()). */
struct rte_ipoib_path;

/**
 * The most neighbours (max_neigh) and paths (max_path) a table takes.
 *
 * Memory bound: a table takes its memory up front, from the C heap (not
 * the EAL's): at most RTE_IPOIB_TBL_MEM_NEIGH bytes per neighbour, the
 * count rounded up to a power of two and at least 16, plus
 * RTE_IPOIB_TBL_MEM_PATH bytes per path, the count rounded up to a power
 * of two, plus 4 KiB, plus up to 2 MiB for each of its arrays of 2 MiB
 * or more (rounded up to whole huge pages; 11 at most). At the limits:
 * 1.25 GiB + 64 MiB + 22 MiB. Each path added takes its own memory besides:
 * 128 bytes and its queue (rte_ring_get_memsize() of queue_len).
 */
#define RTE_IPOIB_TBL_MAX_NEIGH (UINT32_C(1) << 20)
/** See RTE_IPOIB_TBL_MAX_NEIGH. */
#define RTE_IPOIB_TBL_MAX_PATH (UINT32_C(1) << 20)
/**
 * The IP addresses one neighbour has bound at most (an IPv4 address, an
 * IPv6 link-local and a global one: a dual-stack peer's); a table holds
 * up to twice max_neigh of them in all (rte_ipoib_neigh_bind_ip()).
 */
#define RTE_IPOIB_NEIGH_MAX_IP 3
/** Bytes per neighbour of max_neigh, rounded (RTE_IPOIB_TBL_MAX_NEIGH). */
#define RTE_IPOIB_TBL_MEM_NEIGH 1280
/** Bytes per path of max_path, rounded (RTE_IPOIB_TBL_MAX_NEIGH). */
#define RTE_IPOIB_TBL_MEM_PATH 64

/** Table configuration. */
struct rte_ipoib_tbl_conf {
	uint32_t max_neigh;     /**< Neighbours the table holds, 1 to
				 *   RTE_IPOIB_TBL_MAX_NEIGH. */
	uint32_t max_path;      /**< Paths the table holds, 1 to
				 *   RTE_IPOIB_TBL_MAX_PATH. */
	uint32_t queue_len;     /**< Packets queued per unresolved path:
				 *   0 for the default 8, at most 1024
				 *   (IPoIB interfaces use 3). */
	/**
	 * QSBR variable the data lcores that read the table are registered
	 * with; NULL when the table is used by one thread only (then
	 * entries are freed at once).
	 */
	struct rte_rcu_qsbr *qsbr;
	/**
	 * Called on the control side, after the grace period, for every
	 * address handle a path stopped using (replaced, cleared, or path
	 * deleted). NULL: handles are the caller's to track.
	 */
	void (*ah_free)(void *ctx, struct rte_ib_ah *ah);
	void *ah_free_ctx;      /**< First argument of ah_free. */
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Create a table. Control side.
 *
 * @param conf
 *   Configuration, copied.
 * @return
 *   The table, or NULL with rte_errno EINVAL (@p conf NULL, or a field
 *   of it out of range: logged with field and value) or ENOMEM (an
 *   allocation failed: whatever was allocated is freed, once).
 */
__rte_experimental
struct rte_ipoib_tbl *rte_ipoib_tbl_create(const struct rte_ipoib_tbl_conf *conf);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Free a table, its entries, every queued packet, and (through ah_free)
 * every address handle still in use. No reader may use the table any
 * more. NULL is accepted.
 */
__rte_experimental
void rte_ipoib_tbl_free(struct rte_ipoib_tbl *tbl);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Free the entries and address handles whose grace period is over.
 * Control side; call it periodically.
 *
 * @return
 *   Number of objects still waiting for their grace period.
 */
__rte_experimental
unsigned int rte_ipoib_tbl_reclaim(struct rte_ipoib_tbl *tbl);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The Ethernet MAC the Ethernet view gives an IPoIB address: a locally
 * administered unicast MAC (first byte 0x02) whose other five bytes are
 * the low 40 bits of the GID's interface ID (the port GUID), exclusive-or
 * the QPN shifted left by 16. It is a pure function of the address; the
 * way back is the neighbour table (rte_ipoib_neigh_lookup_mac()), which
 * refuses a second address with the same MAC. On one subnet GUIDs of one
 * vendor differ in their low 40 bits, so collisions need two ports whose
 * GUIDs differ only above bit 39, or QPNs chosen to cancel GUID bits.
 *
 * @param hw
 *   IPoIB address (unicast).
 * @param mac
 *   MAC to fill.
 */
__rte_experimental
void rte_ipoib_mac_from_hwaddr(const struct rte_ipoib_hwaddr *hw,
			       struct rte_ether_addr *mac);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Add a path for (@p dgid, @p pkey), unresolved (no address handle):
 * packets for it are queued until rte_ipoib_path_set_ah(). Control side.
 *
 * @return
 *   The path, or NULL with rte_errno EEXIST (already there; see
 *   rte_ipoib_path_lookup()), ENOSPC (table full), ENOMEM or EINVAL.
 */
__rte_experimental
struct rte_ipoib_path *rte_ipoib_path_add(struct rte_ipoib_tbl *tbl,
					  const struct rte_ib_gid *dgid,
					  uint16_t pkey);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Find a path. Control side.
 *
 * @return
 *   The path, or NULL with rte_errno ENOENT.
 */
__rte_experimental
struct rte_ipoib_path *rte_ipoib_path_lookup(struct rte_ipoib_tbl *tbl,
					     const struct rte_ib_gid *dgid,
					     uint16_t pkey);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Publish the address handle of a path (or clear it with NULL, making the
 * path unresolved again, as when the SM changes). The handle it replaces
 * goes to ah_free after the grace period. Control side.
 *
 * @param tbl
 *   Table.
 * @param path
 *   Path.
 * @param ah
 *   New address handle, or NULL.
 * @param dlid
 *   The DLID the handle sends to (used to recognise the path's
 *   neighbours as sources of packets without a GRH), 0 if none.
 * @return
 *   0, or -1 with rte_errno EINVAL.
 */
__rte_experimental
int rte_ipoib_path_set_ah(struct rte_ipoib_tbl *tbl, struct rte_ipoib_path *path,
			  struct rte_ib_ah *ah, uint16_t dlid);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Take the packets queued on a path while it was unresolved, oldest
 * first. Once the path has an address handle, their rte_ib dynfield gets
 * it: they are ready for the device's transmit burst. With no handle they
 * are returned as queued (the caller frees them, e.g. on path failure).
 * Control side (the queue has a single consumer).
 *
 * @return
 *   Number of packets stored in @p pkts.
 */
__rte_experimental
unsigned int rte_ipoib_path_drain(struct rte_ipoib_tbl *tbl, struct rte_ipoib_path *path,
				  struct rte_mbuf **pkts, unsigned int n);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Remove a path that no neighbour uses any more; its queued packets are
 * freed, its address handle goes to ah_free, its memory is freed after
 * the grace period. Control side.
 *
 * @return
 *   0, or -1 with rte_errno EBUSY (neighbours still use it) or EINVAL.
 */
__rte_experimental
int rte_ipoib_path_del(struct rte_ipoib_tbl *tbl, struct rte_ipoib_path *path);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Add a neighbour. A unicast neighbour is also indexed by its MAC
 * (rte_ipoib_mac_from_hwaddr()); a multicast one (MGID) is not. Control
 * side.
 *
 * @param tbl
 *   Table.
 * @param hw
 *   The address; its flags byte is kept but is not part of the key.
 * @param path
 *   Its path, or NULL (packets for it are then dropped as "no path").
 * @return
 *   The neighbour, or NULL with rte_errno EEXIST (the address is there,
 *   or another address has the same MAC), ENOSPC, ENOMEM or EINVAL.
 */
__rte_experimental
struct rte_ipoib_neigh *rte_ipoib_neigh_add(struct rte_ipoib_tbl *tbl,
					    const struct rte_ipoib_hwaddr *hw,
					    struct rte_ipoib_path *path);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Point a neighbour at another path (or none). Control side.
 *
 * @return
 *   0, or -1 with rte_errno EINVAL.
 */
__rte_experimental
int rte_ipoib_neigh_set_path(struct rte_ipoib_tbl *tbl, struct rte_ipoib_neigh *neigh,
			     struct rte_ipoib_path *path);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Bind an IP address to a neighbour (the result of ARP or ND), for the L3
 * view. A neighbour keeps up to RTE_IPOIB_NEIGH_MAX_IP addresses (a
 * dual-stack peer's IPv4 and IPv6 ones side by side); one more replaces
 * its oldest, as does one more when the table holds twice max_neigh
 * addresses. An address bound to another neighbour moves here; binding
 * one already bound here changes nothing. Control side.
 *
 * @param ip
 *   16 bytes: an IPv6 address, or an IPv4 one as ::ffff:a.b.c.d.
 * @return
 *   0, or -1 with rte_errno ENOSPC (the table's addresses all taken and
 *   none of this neighbour's to replace), ENOMEM or EINVAL.
 */
__rte_experimental
int rte_ipoib_neigh_bind_ip(struct rte_ipoib_tbl *tbl, struct rte_ipoib_neigh *neigh,
			    const uint8_t ip[16]);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Remove a neighbour; its memory is freed after the grace period. Control
 * side.
 *
 * @return
 *   0, or -1 with rte_errno EINVAL.
 */
__rte_experimental
int rte_ipoib_neigh_del(struct rte_ipoib_tbl *tbl, struct rte_ipoib_neigh *neigh);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Find a neighbour by IPoIB address (QPN and GID). Any lcore, lock-free;
 * the result is valid until the caller's next quiescent state.
 *
 * @return
 *   The neighbour, or NULL.
 */
__rte_experimental
struct rte_ipoib_neigh *rte_ipoib_neigh_lookup(const struct rte_ipoib_tbl *tbl,
					       const struct rte_ipoib_hwaddr *hw);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Find a unicast neighbour by the MAC of the Ethernet view. Any lcore,
 * lock-free, as rte_ipoib_neigh_lookup().
 */
__rte_experimental
struct rte_ipoib_neigh *rte_ipoib_neigh_lookup_mac(const struct rte_ipoib_tbl *tbl,
						   const struct rte_ether_addr *mac);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Find many unicast neighbours by MAC at once: the lookups proceed in
 * stages (all index slots, then all entries) so that their cache misses
 * overlap. Any lcore, lock-free, as rte_ipoib_neigh_lookup().
 *
 * @param tbl
 *   Table.
 * @param macs
 *   @p n MACs.
 * @param n
 *   Number of MACs.
 * @param out
 *   @p n results, NULL where no neighbour has the MAC.
 * @return
 *   Number of neighbours found.
 */
__rte_experimental
unsigned int rte_ipoib_neigh_lookup_mac_bulk(const struct rte_ipoib_tbl *tbl,
					     const struct rte_ether_addr *macs, unsigned int n,
					     struct rte_ipoib_neigh **out);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Find a neighbour by its bound IP address (16 bytes, IPv4 as
 * ::ffff:a.b.c.d). Any lcore, lock-free.
 */
__rte_experimental
struct rte_ipoib_neigh *rte_ipoib_neigh_lookup_ip(const struct rte_ipoib_tbl *tbl,
						  const uint8_t ip[16]);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Find the unicast neighbour that sends from (@p slid, @p qpn): a
 * neighbour whose path has an address handle for DLID @p slid. Any lcore,
 * lock-free.
 */
__rte_experimental
struct rte_ipoib_neigh *rte_ipoib_neigh_lookup_src(const struct rte_ipoib_tbl *tbl,
						   uint16_t slid, uint32_t qpn);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The address of a neighbour (flags byte as added). Any lcore.
 */
__rte_experimental
const struct rte_ipoib_hwaddr *rte_ipoib_neigh_hwaddr(const struct rte_ipoib_neigh *neigh);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The MAC of a neighbour in the Ethernet view. Any lcore.
 */
__rte_experimental
void rte_ipoib_neigh_mac(const struct rte_ipoib_neigh *neigh, struct rte_ether_addr *mac);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   The TSC value of the last use of @p neigh by a data lcore, or of its
 *   creation if none.
 */
__rte_experimental
uint64_t rte_ipoib_neigh_last_used(const struct rte_ipoib_neigh *neigh);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The path of a neighbour (NULL if none). Any lcore.
 */
__rte_experimental
struct rte_ipoib_path *rte_ipoib_neigh_path(const struct rte_ipoib_neigh *neigh);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Call @p fn for every neighbour, in no particular order; @p fn may
 * delete the neighbour it is given. Control side. Stops early when @p fn
 * returns non-zero.
 *
 * @return
 *   The last value @p fn returned, 0 if it was never called; -1 with
 *   rte_errno EINVAL when @p tbl or @p fn is NULL.
 */
__rte_experimental
int rte_ipoib_neigh_walk(struct rte_ipoib_tbl *tbl,
			 int (*fn)(struct rte_ipoib_neigh *neigh, void *arg), void *arg);

/** Counts of a table (control side snapshot). */
struct rte_ipoib_tbl_stats {
	uint32_t nb_neigh;       /**< Neighbours in the table. */
	uint32_t nb_path;        /**< Paths in the table. */
	uint32_t nb_deferred;    /**< Objects waiting for their grace period. */
	uint64_t nb_freed;       /**< Objects freed after their grace period. */
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Read the table's counts. Control side.
 *
 * @return
 *   0, or -1 with rte_errno EINVAL.
 */
__rte_experimental
int rte_ipoib_tbl_stats_get(struct rte_ipoib_tbl *tbl, struct rte_ipoib_tbl_stats *st);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_IPOIB_TABLE_H_ */
