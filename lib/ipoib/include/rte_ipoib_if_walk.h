/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _RTE_IPOIB_IF_WALK_H_
#define _RTE_IPOIB_IF_WALK_H_

/**
 * @file
 * Read-only views of an IPoIB interface's control state, what Linux
 * IPoIB's debugfs files (ipoib_path_iter / ipoib_mcast_iter) and
 * "ip neigh" show: its neighbours, its paths (SA PathRecords) and its
 * multicast groups, as snapshots handed to a callback one entry at a
 * time; and a way to start resolving an IP next hop of the L3 view
 * before any packet needs it.
 *
 * Threading: control side. Each walk holds the interface's lock while it
 * runs, so the callback must be short and must not call back into the
 * interface (rte_ipoib_if_*), which would be served by the same lock but
 * see the walk half done.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_compat.h>

#include <rte_ib_types.h>

#include "rte_ipoib.h"
#include "rte_ipoib_table.h"

#ifdef __cplusplus
extern "C" {
#endif

struct rte_ipoib_if;

/** A neighbour, as rte_ipoib_if_neigh_walk() sees it. */
struct rte_ipoib_neigh_info {
	struct rte_ipoib_hwaddr hw;   /**< Its IPoIB address (QPN, GID). */
	uint8_t nb_ip;                /**< Bound IP addresses in @c ip, oldest first. */
	/** Bound IP addresses (IPv4 as ::ffff:a.b.c.d). */
	uint8_t ip[RTE_IPOIB_NEIGH_MAX_IP][16];
	bool has_path;                /**< A path is attached. */
	bool has_ah;                  /**< The path is resolved: packets go out. */
	uint64_t idle_ms;             /**< Since a burst last used it. */
};

/** State of a path (Linux IPoIB: a query in flight, or a valid AH). */
enum rte_ipoib_path_state {
	RTE_IPOIB_PATH_QUERYING,      /**< First PathRecord query in flight. */
	RTE_IPOIB_PATH_RESOLVED,      /**< An address handle is published. */
	RTE_IPOIB_PATH_REFRESHING,    /**< Resolved, queried again after an event. */
	RTE_IPOIB_PATH_FAILED,        /**< Last query failed; retried later. */
};

/** A path, as rte_ipoib_if_path_walk() sees it. */
struct rte_ipoib_path_info {
	struct rte_ib_gid dgid;       /**< Destination GID. */
	uint16_t pkey;                /**< P_Key of the query. */
	uint16_t dlid;                /**< From the PathRecord (0 before one). */
	uint8_t sl;                   /**< Service level. */
	uint8_t mtu;                  /**< enum rte_ib_mtu code. */
	uint8_t rate;                 /**< IBA rate code. */
	enum rte_ipoib_path_state state; /**< See the enum. */
	uint32_t queued;              /**< Packets held until it resolves. */
	uint32_t failures;            /**< Failed queries in a row. */
};

/** Join state of a multicast group. */
enum rte_ipoib_mcast_state {
	RTE_IPOIB_MCAST_IDLE,         /**< Not asked yet, or waiting to retry. */
	RTE_IPOIB_MCAST_JOINING,      /**< Asked the SA, no answer yet. */
	RTE_IPOIB_MCAST_JOINED,       /**< Joined: MLID known, QP attached if full member. */
};

/** A multicast group, as rte_ipoib_if_mcast_walk() sees it. */
struct rte_ipoib_mcast_info {
	struct rte_ib_gid mgid;       /**< Its MGID (RFC 4391 4). */
	uint8_t ip[16];               /**< The IP group; all zero for broadcast. */
	bool bcast;                   /**< The partition's broadcast group. */
	bool sendonly;                /**< Joined send-only (no local member). */
	enum rte_ipoib_mcast_state state; /**< See the enum. */
	uint8_t join_state;           /**< MCMemberRecord JoinState asked. */
	uint16_t mlid;                /**< MLID once joined. */
	uint32_t refs;                /**< Local full-member users. */
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Call @p fn for every neighbour of @p ifp, in no particular order,
 * until it returns non-zero. Control side; see the file's threading note.
 *
 * @return
 *   The last value @p fn returned (0 if never called), or -1 with
 *   rte_errno EINVAL (@p ifp or @p fn NULL).
 */
__rte_experimental
int rte_ipoib_if_neigh_walk(struct rte_ipoib_if *ifp,
			    int (*fn)(const struct rte_ipoib_neigh_info *n, void *arg),
			    void *arg);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Call @p fn for every path of @p ifp, oldest first, until it returns
 * non-zero. Control side.
 *
 * @return As rte_ipoib_if_neigh_walk().
 */
__rte_experimental
int rte_ipoib_if_path_walk(struct rte_ipoib_if *ifp,
			   int (*fn)(const struct rte_ipoib_path_info *p, void *arg),
			   void *arg);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Call @p fn for every multicast group of @p ifp (the broadcast group
 * first once joined), until it returns non-zero. Control side.
 *
 * @return As rte_ipoib_if_neigh_walk().
 */
__rte_experimental
int rte_ipoib_if_mcast_walk(struct rte_ipoib_if *ifp,
			    int (*fn)(const struct rte_ipoib_mcast_info *g, void *arg),
			    void *arg);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Where the L3 view stands on next hop @p ip (IPv4 as ::ffff:a.b.c.d),
 * and if it has no neighbour for it, start resolving it: an ARP request
 * on the broadcast group, or a Neighbour Solicitation on the
 * solicited-node group (RFC 4391 5, RFC 4861 7.2.2), at most one a
 * second per address, as the L3 view does for a packet with no
 * neighbour. An application calls it again until it returns 1, so that
 * no data packet waits on a path or is dropped for want of one.
 * Control side.
 *
 * @return
 *   1: a neighbour with a resolved path; 0: resolution under way;
 *   -1 with rte_errno EINVAL (@p ifp or @p ip NULL, or a multicast or
 *   unspecified address), ENOTSUP (the interface has the Ethernet view,
 *   whose ARP/ND is the application's), ENETDOWN (link down).
 */
__rte_experimental
int rte_ipoib_if_resolve(struct rte_ipoib_if *ifp, const uint8_t ip[16]);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_IPOIB_IF_WALK_H_ */
