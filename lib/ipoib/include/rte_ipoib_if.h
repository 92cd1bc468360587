/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _RTE_IPOIB_IF_H_
#define _RTE_IPOIB_IF_H_

/**
 * @file
 * IPoIB interfaces: the object that binds an IB port, a P_Key and a view
 * (Ethernet or L3) into a link an application sends IP over.
 *
 * An interface owns:
 * - a UD ethdev below it: the IB port's own ethdev for a parent (P_Key
 *   index 0), a UD port made by rte_ib_ud_port_create() for a child
 *   (P_Key given); it configures, starts and stops it;
 * - one data-path context (rte_ipoib_encap.h) per queue, and the
 *   neighbour/path table they share;
 * - its control side, which runs in the MAD core's passes (rte_ibmad.h:
 *   the control thread, or rte_ibmad_poll() on a control lcore the
 *   application chooses), never on a data lcore: the broadcast join and
 *   the other multicast groups (rte_ibmad_mcast.h), SA PathRecord
 *   queries, neighbour learning and ageing, ARP and ND for the L3 view,
 *   port events (LID, SM, P_Key changes, client reregister).
 *
 * Data lcores call rte_ipoib_if_rx_burst() and rte_ipoib_if_tx_burst()
 * for their queue; these take no lock, make no syscall and allocate
 * nothing. They talk to the control side only through the event ring
 * and the table (rte_ipoib_table.h).
 *
 * Link state: up when the IB port is ACTIVE and the broadcast group is
 * joined (its Q_Key, MTU, SL and rate known), down otherwise; every change
 * is reported to the link callback.
 *
 * Threading: the functions not marked "data lcore" are control-side
 * calls: from the application's main thread, the MAD core's control
 * thread or callbacks; they are serialised by the interface's lock.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_compat.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <rte_ib_dev.h>

#include "rte_ipoib.h"
#include "rte_ipoib_encap.h"
#include "rte_ipoib_table.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Longest interface name, NUL included ("ib0.8001"). */
#define RTE_IPOIB_IF_NAMESIZE 32
/** Most queues of an interface. */
#define RTE_IPOIB_IF_MAX_QUEUES 16
/** Ring size of each queue of the UD ethdev when the configuration gives 0. */
#define RTE_IPOIB_IF_DEFAULT_DESC 1024
/** Packets queued per unresolved path (IPOIB_MAX_PATH_REC_QUEUE). */
#define RTE_IPOIB_PATH_QUEUE_MAX 3
/** Most local addresses of an interface (rte_ipoib_if_addr_set()). */
#define RTE_IPOIB_IF_MAX_ADDRS 8
/** A neighbour unused this long is removed (Linux's gc, 60 s). */
#define RTE_IPOIB_NEIGH_TIMEOUT_MS 60000

/** An interface (opaque). */
struct rte_ipoib_if;

/** Called on the control side when the link state changes. */
typedef void (*rte_ipoib_if_link_cb)(struct rte_ipoib_if *ifp, bool up, void *arg);

/** Configuration of an interface. */
struct rte_ipoib_if_conf {
	/** Name; NULL gives "ib<N>" for a parent, "<parent>.<pkey>" for a child. */
	const char *name;
	/** Ethdev of the IB port (the PMD's port, e.g. net_mthca's). */
	uint16_t ib_port_id;
	/**
	 * 0 for a parent (the P_Key at index 0); otherwise a child's P_Key
	 * (the full-member bit is added, RFC 4391 4.1).
	 */
	uint16_t pkey;
	enum rte_ipoib_mode mode;       /**< View presented. */
	uint16_t nb_rx_queues;          /**< 1 (the QPN peers address is one QP's). */
	uint16_t nb_tx_queues;          /**< 1..RTE_IPOIB_IF_MAX_QUEUES. */
	uint16_t nb_rx_desc;            /**< Receive ring size; 0: RTE_IPOIB_IF_DEFAULT_DESC. */
	uint16_t nb_tx_desc;            /**< Send ring size; 0: RTE_IPOIB_IF_DEFAULT_DESC. */
	struct rte_mempool *mp;         /**< Receive buffers (and control packets). */
	uint8_t scope;                  /**< Multicast scope, 0: link (RFC 4391 4). */
	/** IP MTU wanted, 0: the UD MTU of the broadcast group. */
	uint32_t mtu;
	rte_ipoib_if_link_cb link_cb;   /**< Link changes, or NULL. */
	void *link_cb_arg;              /**< Passed to @c link_cb. */
};

/** What rte_ipoib_if_info_get() returns. */
struct rte_ipoib_if_info {
	char name[RTE_IPOIB_IF_NAMESIZE];
	struct rte_ib_device *dev;       /**< The IB device. */
	uint8_t ib_port;                 /**< Its port, 1-based. */
	uint16_t lower_port_id;          /**< The UD ethdev under the interface. */
	uint16_t pkey;                   /**< P_Key, full-member bit set. */
	uint16_t pkey_index;             /**< Its index, or 0xffff: not in the table. */
	uint16_t lid;                    /**< Port LID. */
	uint32_t qkey;                   /**< Broadcast group's Q_Key (0 before the join). */
	uint32_t ud_mtu;                 /**< UD MTU of the broadcast group. */
	uint32_t mtu;                    /**< IP MTU in use. */
	struct rte_ipoib_hwaddr hwaddr;  /**< Our IPoIB address. */
	struct rte_ipoib_hwaddr bcast;   /**< The broadcast address. */
	struct rte_ether_addr mac;       /**< Our MAC in the Ethernet view. */
	bool link_up;                    /**< Port ACTIVE and broadcast joined. */
	enum rte_ipoib_mode mode;        /**< View presented (conf.mode). */
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Create an interface (down until rte_ipoib_if_start()).
 *
 * @return
 *   The interface, or NULL with rte_errno: EINVAL (a field of @p conf,
 *   named in the log), ENODEV (not an IB port's ethdev), EEXIST (an
 *   interface with this name, or with this P_Key on this port), ENOMEM,
 *   or the errors of rte_ib_ud_port_create() for a child.
 */
__rte_experimental
struct rte_ipoib_if *rte_ipoib_if_create(const struct rte_ipoib_if_conf *conf);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Stop (if started) and free an interface: leave its groups, free its
 * paths, neighbours and address handles, destroy a child's UD port.
 * NULL accepted.
 */
__rte_experimental
void rte_ipoib_if_destroy(struct rte_ipoib_if *ifp);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Start: start the UD ethdev, join the broadcast group, begin control
 * work. The link comes up later (link callback). A child whose P_Key is
 * not in the port's table yet waits for the SM to program it.
 *
 * @return 0, or -1 with rte_errno.
 */
__rte_experimental
int rte_ipoib_if_start(struct rte_ipoib_if *ifp);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Stop: link down, leave the groups, stop the UD ethdev. Data lcores must
 * have stopped calling the bursts.
 *
 * @return 0, or -1 with rte_errno.
 */
__rte_experimental
int rte_ipoib_if_stop(struct rte_ipoib_if *ifp);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Receive a burst on queue @p qid. Data lcore.
 *
 * @return Packets delivered to @p pkts, in the interface's view.
 */
__rte_experimental
uint16_t rte_ipoib_if_rx_burst(struct rte_ipoib_if *ifp, uint16_t qid,
			       struct rte_mbuf **pkts, uint16_t nb_pkts);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Send a burst on queue @p qid. Data lcore.
 *
 * @return Packets consumed (sent, queued on a path or dropped and
 *   counted); the caller keeps the rest, as with rte_eth_tx_burst().
 */
__rte_experimental
uint16_t rte_ipoib_if_tx_burst(struct rte_ipoib_if *ifp, uint16_t qid,
			       struct rte_mbuf **pkts, uint16_t nb_pkts);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Whether rte_ipoib_if_tx_burst() on tx queue 0 with no packet has work
 * to do: control packets queued (ARP and ND answers, packets a resolved
 * path releases) or packets the device refused. Read without the
 * queue's lock, as a hint for a receive path that flushes queue 0 (a
 * PMD whose application sends only what it receives): false may be
 * stale by a packet queued meanwhile, which the next call sees.
 *
 * @return true when a flush would send something.
 */
__rte_experimental
bool rte_ipoib_if_tx0_pending(const struct rte_ipoib_if *ifp);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Fill @p info.
 *
 * @return 0, or -1 with rte_errno EINVAL.
 */
__rte_experimental
int rte_ipoib_if_info_get(const struct rte_ipoib_if *ifp, struct rte_ipoib_if_info *info);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Set the IP MTU: 68..the broadcast group's UD MTU.
 *
 * @return 0, or -1 with rte_errno EINVAL.
 */
__rte_experimental
int rte_ipoib_if_mtu_set(struct rte_ipoib_if *ifp, uint32_t mtu);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Subscribe to an IP multicast group (IPv4 as ::ffff:a.b.c.d): joined
 * as a full member, the QP attached, until rte_ipoib_if_mcast_del().
 * Groups are counted: two adds need two dels.
 *
 * @return 0, or -1 with rte_errno EINVAL (not a multicast address), ENOMEM.
 */
__rte_experimental
int rte_ipoib_if_mcast_add(struct rte_ipoib_if *ifp, const uint8_t ip[16]);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Unsubscribe from a group added with rte_ipoib_if_mcast_add().
 *
 * @return 0, or -1 with rte_errno ENOENT.
 */
__rte_experimental
int rte_ipoib_if_mcast_del(struct rte_ipoib_if *ifp, const uint8_t ip[16]);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Add (or with @p del remove) a local IP address of the interface: the
 * L3 view answers ARP and Neighbour Solicitations for it, and joins its
 * solicited-node group (IPv6). IPv4 as ::ffff:a.b.c.d.
 *
 * @return 0, or -1 with rte_errno EINVAL, ENOENT, ENOSPC.
 */
__rte_experimental
int rte_ipoib_if_addr_set(struct rte_ipoib_if *ifp, const uint8_t ip[16], bool del);

/** Counters of an interface (data path summed over queues, control side). */
struct rte_ipoib_if_stats {
	struct rte_ipoib_dp_stats dp;    /**< Sum of the queues' contexts. */
	uint64_t path_queries;           /**< PathRecord queries sent. */
	uint64_t path_errors;            /**< Queries failed or refused. */
	uint64_t path_refreshes;         /**< Paths refreshed after events. */
	uint64_t neigh_added;            /**< Neighbours learned. */
	uint64_t neigh_aged;             /**< Neighbours removed unused. */
	uint64_t arp_answered;           /**< ARP requests answered (L3 view). */
	uint64_t nd_answered;            /**< Solicitations answered (L3 view). */
	uint64_t ctrl_drops;             /**< Control packets dropped (rate, malformed). */
	uint64_t mcast_joins;            /**< Multicast joins made. */
	uint64_t mcast_errors;           /**< Multicast joins failed. */
	uint64_t link_changes;           /**< Link state changes. */
	uint64_t path_refused;           /**< SA answers refused (other DGID, bad MTU...). */
	uint64_t path_drops;             /**< Packets queued on a path whose query failed. */
	uint64_t events;                 /**< Events taken from the data lcores' ring. */
	uint64_t ctrl_tx;                /**< Control packets sent (through tx queue 0). */
	uint64_t ctrl_tx_lost;           /**< Control packets dropped: ring full. */
	uint64_t tx_dev_full;            /**< Bursts that found the UD ethdev full. */
	uint64_t held_sent;              /**< Held packets sent once their neighbour came. */
	uint64_t held_drops;             /**< Held packets dropped: bounds, time, join failed. */
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Copy the counters.
 *
 * @return 0, or -1 with rte_errno EINVAL.
 */
__rte_experimental
int rte_ipoib_if_stats_get(const struct rte_ipoib_if *ifp, struct rte_ipoib_if_stats *st);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Copy the data-path counters of one direction: the receive contexts
 * (@p tx false: decapsulation, receive drops) or the send contexts
 * (@p tx true: encapsulation, send drops), summed over the queues and
 * over contexts replaced since creation. rte_ipoib_if_stats_get()'s
 * @c dp is the sum of both.
 *
 * @return 0, or -1 with rte_errno EINVAL.
 */
__rte_experimental
int rte_ipoib_if_dir_stats_get(const struct rte_ipoib_if *ifp, bool tx,
			       struct rte_ipoib_dp_stats *st);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Find an interface by name.
 *
 * @return The interface, or NULL with rte_errno ENOENT.
 */
__rte_experimental
struct rte_ipoib_if *rte_ipoib_if_find(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_IPOIB_IF_H_ */
