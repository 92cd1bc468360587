/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _RTE_IPOIB_ENCAP_H_
#define _RTE_IPOIB_ENCAP_H_

/**
 * @file
 * IPoIB encapsulation and decapsulation of mbuf bursts, for data lcores.
 *
 * Two views of an IPoIB interface:
 * - Ethernet (RTE_IPOIB_MODE_ETH): the application sends and receives
 *   Ethernet frames. Unicast MACs are rte_ipoib_mac_from_hwaddr() of the
 *   peers' IPoIB addresses, found back through the neighbour table;
 *   ff:ff:ff:ff:ff:ff is the partition's broadcast group, 01:00:5e:... and
 *   33:33:... the IPv4 and IPv6 multicast groups of the packet's
 *   destination IP (RFC 4391 4). ARP (6-byte addresses) and the ND
 *   link-layer address options (RFC 2464 6 form) are rewritten to and
 *   from their IPoIB forms (RFC 4391 9.1.1, 9.1.2) with the ICMPv6
 *   checksum recomputed.
 * - L3 (RTE_IPOIB_MODE_L3): the application sends and receives IP packets
 *   (TUN style); the next hop is the neighbour bound to the destination
 *   IP address (rte_ipoib_neigh_bind_ip()) or a multicast group. ARP in
 *   its IPoIB form passes through both ways (packet_type
 *   RTE_PTYPE_L2_ETHER_ARP) for the control side to handle.
 *
 * On transmit a packet leaves with the 4-byte IPoIB header and its
 * rte_ib dynfield (rte_ib_mbuf.h) tx view filled: address handle of the
 * neighbour's path, the neighbour's QPN and the interface's Q_Key. A
 * packet for a path still unresolved is queued on the path (bounded; see
 * rte_ipoib_path_drain()). On receive the rx view (P_Key index, SLID,
 * source QPN, GRH) is checked and the source neighbour is found in the
 * table; one that is not there is reported on the event ring.
 *
 * Every packet is checked and either forwarded intact or dropped (freed)
 * and counted under its rte_ipoib_drop_reason; nothing in a burst logs,
 * locks or allocates. One rte_ipoib_dp belongs to one lcore; several
 * share a table.
 *
 * NULL arguments: as rte_ipoib_table.h says (rte_errno EINVAL, NULL, -1
 * or nothing done; rte_ipoib_dp_free() takes NULL as a no-op), except
 * the bursts, which take a context and never check it.
 */

#include <stdint.h>

#include <rte_compat.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "rte_ipoib.h"
#include "rte_ipoib_table.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What the application sees. */
enum rte_ipoib_mode {
	RTE_IPOIB_MODE_ETH = 0, /**< Ethernet frames. */
	RTE_IPOIB_MODE_L3,      /**< IP packets. */
};

/** Event types on the control ring. */
enum rte_ipoib_event_type {
	/** A source address not in the table (from a GRH, ARP or ND). */
	RTE_IPOIB_EV_SRC_NEW = 1,
	/** A packet without GRH from a (SLID, QPN) no neighbour matches. */
	RTE_IPOIB_EV_SRC_UNKNOWN,
	/** No neighbour for a destination: a multicast group (hw) or an IP. */
	RTE_IPOIB_EV_DST_MISS,
	/**
	 * An IGMP or MLD report sent by the application: it listens to the
	 * group in @c ip (IPv4 as ::ffff:a.b.c.d).
	 */
	RTE_IPOIB_EV_MC_REPORT,
	/** An IGMP leave or MLD done (or a report of an empty INCLUDE): @c ip. */
	RTE_IPOIB_EV_MC_LEAVE,
};

/**
 * An event for the control side; the event ring holds these by value
 * (create it with rte_ring_create_elem(name, sizeof(struct
 * rte_ipoib_event), ...), single consumer).
 */
struct rte_ipoib_event {
	uint8_t type;                      /**< enum rte_ipoib_event_type. */
	uint8_t is_ip;                     /**< 1: @c ip is set, 0: @c hw. */
	uint16_t slid;                     /**< Source LID (received packets). */
	uint32_t qpn;                      /**< Source QPN (received packets). */
	union {
		struct rte_ipoib_hwaddr hw; /**< The address. */
		uint8_t ip[16];             /**< The IP (IPv4 as ::ffff:a.b.c.d). */
	};
	uint32_t reserved;                 /**< Zero. */
};

static_assert(sizeof(struct rte_ipoib_event) == 32, "event is 32 bytes");

/** What the key of a held packet (struct rte_ipoib_held) is. */
enum rte_ipoib_held_kind {
	RTE_IPOIB_HELD_MAC = 1, /**< An Ethernet view's unicast MAC (6 bytes). */
	RTE_IPOIB_HELD_HW,      /**< A 20-byte address: a group's or an ARP target's. */
	RTE_IPOIB_HELD_IP,      /**< An L3 view's next hop (IPv4 as ::ffff:a.b.c.d). */
};

/**
 * A packet the transmit burst found no neighbour for, handed to the
 * control side to wait for it (rte_ipoib_dp_conf's @c held; create the
 * ring with rte_ring_create_elem(name, sizeof(struct rte_ipoib_held),
 * ..., RING_F_SC_DEQ)). The packet is as the application gave it.
 */
struct rte_ipoib_held {
	struct rte_mbuf *m;                /**< The packet, not encapsulated. */
	uint8_t kind;                      /**< enum rte_ipoib_held_kind. */
	uint8_t reserved[3];               /**< Zero. */
	uint8_t key[20];                   /**< The destination, by @c kind. */
};

static_assert(sizeof(struct rte_ipoib_held) == 32, "held packet is 32 bytes");

/** Most tx QPNs a data-path context knows as its own (rte_ipoib_dp_conf). */
#define RTE_IPOIB_DP_MAX_TX_QPN 16

/** Configuration of a data-path context. */
struct rte_ipoib_dp_conf {
	enum rte_ipoib_mode mode;          /**< View presented. */
	struct rte_ipoib_tbl *tbl;         /**< Neighbour/path table. */
	struct rte_ipoib_hwaddr local;     /**< Our QPN and port GID. */
	uint16_t local_lid;                /**< Our LID (own multicast echo). */
	uint16_t pkey;                     /**< Interface P_Key. */
	uint16_t pkey_index;               /**< Its index: received packets must match. */
	uint8_t scope;                     /**< Multicast scope (RTE_IPOIB_SCOPE_*). */
	uint32_t qkey;                     /**< Q_Key of the broadcast group. */
	uint32_t mtu;                      /**< IP MTU, 68..RTE_IPOIB_UD_MTU_MAX. */
	struct rte_ring *events;           /**< Event ring, or NULL. */
	/**
	 * Packets without a neighbour yet (struct rte_ipoib_held), or NULL:
	 * such packets are dropped (RTE_IPOIB_DROP_NO_NEIGH), as they are
	 * when the ring is full.
	 */
	struct rte_ring *held;
	/**
	 * QPNs our datagrams leave from (the tx QPs, which differ from the
	 * receive QP of @c local): a packet from one of them with our LID
	 * as source is our own multicast come back, dropped as looped.
	 */
	uint32_t tx_qpn[RTE_IPOIB_DP_MAX_TX_QPN];
	uint16_t nb_tx_qpn;                /**< Entries of @c tx_qpn used. */
};

/** Counters of a data-path context. */
struct rte_ipoib_dp_stats {
	uint64_t encap_pkts;               /**< Packets encapsulated and ready. */
	uint64_t queued;                   /**< Packets queued on unresolved paths. */
	uint64_t held;                     /**< Packets put on the held ring. */
	uint64_t decap_pkts;               /**< Packets decapsulated. */
	uint64_t arp_rewritten;            /**< ARP packets rewritten (eth view). */
	uint64_t nd_rewritten;             /**< ND messages rewritten (eth view). */
	uint64_t events;                   /**< Events put on the ring. */
	uint64_t events_lost;              /**< Events lost: ring full. */
	uint64_t drops[RTE_IPOIB_DROP_MAX]; /**< Drops by reason. */
};

/** A data-path context (opaque), one per lcore. */
struct rte_ipoib_dp;

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Create a data-path context. Control side. Registers the rte_ib mbuf
 * dynfield.
 *
 * @return
 *   The context, or NULL with rte_errno EINVAL (a field of @p conf),
 *   ENOMEM, or the dynfield registration's error.
 */
__rte_experimental
struct rte_ipoib_dp *rte_ipoib_dp_create(const struct rte_ipoib_dp_conf *conf);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Free a context (NULL accepted). Control side, once its lcore stopped.
 */
__rte_experimental
void rte_ipoib_dp_free(struct rte_ipoib_dp *dp);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The MAC of this interface in the Ethernet view.
 */
__rte_experimental
void rte_ipoib_dp_local_mac(const struct rte_ipoib_dp *dp, struct rte_ether_addr *mac);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Encapsulate a burst for transmission. The lcore must be a reader of the
 * table (rte_ipoib_table.h) and stay non-quiescent until the packets were
 * handed to the device.
 *
 * @param dp
 *   This lcore's context.
 * @param pkts
 *   In: packets as the view has them. Out: the first (return value)
 *   entries are the packets ready for the device, in their original
 *   order; the others were dropped (freed) or queued on their path.
 * @param nb_pkts
 *   Number of packets.
 * @return
 *   Number of packets ready.
 */
__rte_experimental
uint16_t rte_ipoib_encap_burst(struct rte_ipoib_dp *dp, struct rte_mbuf **pkts,
			       uint16_t nb_pkts);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Decapsulate a burst received from an IB PMD (rx dynfield filled).
 *
 * @param dp
 *   This lcore's context.
 * @param pkts
 *   In: received packets. Out: the first (return value) entries are the
 *   packets for the application, in order; the others were dropped.
 * @param nb_pkts
 *   Number of packets.
 * @return
 *   Number of packets delivered.
 */
__rte_experimental
uint16_t rte_ipoib_decap_burst(struct rte_ipoib_dp *dp, struct rte_mbuf **pkts,
			       uint16_t nb_pkts);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Copy the counters of @p dp. Control side; the values are read without
 * synchronisation (each one 64-bit, never torn on 64-bit CPUs).
 *
 * @return
 *   0, or -1 with rte_errno EINVAL.
 */
__rte_experimental
int rte_ipoib_dp_stats_get(const struct rte_ipoib_dp *dp, struct rte_ipoib_dp_stats *st);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   A short name of @p reason ("no_neigh", ...), "unknown" if out of range.
 */
__rte_experimental
const char *rte_ipoib_drop_reason_name(enum rte_ipoib_drop_reason reason);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_IPOIB_ENCAP_H_ */
