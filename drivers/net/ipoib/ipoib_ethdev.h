/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _IPOIB_ETHDEV_H_
#define _IPOIB_ETHDEV_H_

/*
 * net_ipoib's private header, shared by its files: ipoib_probe.c
 * (probe/remove, ownership of the IB port's ethdev), ipoib_ops.c
 * (dev_ops), ipoib_rxtx.c (bursts), ipoib_xstats.c (stats, xstats).
 */

#include <stdbool.h>
#include <stdint.h>

#include <ethdev_driver.h>
#include <rte_log.h>
#include <rte_spinlock.h>

#include <rte_ipoib_if.h>

#include "ipoib_args.h"

extern int ipoib_logtype;
#define IPOIB_PMD_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, ipoib_logtype, "%s(): " fmt "\n", __func__, ##__VA_ARGS__)

/** Receive buffers of the PMD's own pool (ipoib.rst, "Receive buffers"). */
#define IPOIB_POOL_MBUFS 4095
/** Data room: headroom + a 4092-byte UD MTU + GRH (40) + IPoIB header (4), rounded. */
#define IPOIB_POOL_DATA_ROOM (RTE_PKTMBUF_HEADROOM + 4224)
/** Multicast MACs the application may list (set_mc_addr_list). */
#define IPOIB_MC_MAX 64

/** Counters a queue keeps itself (lib/ipoib counts the rest). */
struct ipoib_queue_stats {
	uint64_t pkts;   /**< rx: delivered; tx: accepted by tx_burst. */
	uint64_t bytes;  /**< Their bytes. */
};

/** A queue as the ethdev sees it: its index and the port's private data. */
struct ipoib_queue {
	struct ipoib_priv *priv;
	uint16_t qid;
	struct ipoib_queue_stats st;
};

/** Room for the xstats (ipoib_xstats.c): drops by reason both ways, a few more. */
#define IPOIB_XSTATS_MAX (2 * RTE_IPOIB_DROP_MAX + 16)

/** dev_private of a net_ipoib port. */
struct ipoib_priv {
	struct rte_ipoib_if *ifp;       /**< The interface (lib/ipoib). */
	struct rte_mempool *pool;       /**< Its receive and control buffers. */
	struct ipoib_args args;         /**< The devargs. */
	uint16_t port_id;               /**< This ethdev. */
	uint16_t lower_port_id;         /**< The IB port's ethdev, owned. */
	uint64_t owner_id;              /**< Our ethdev owner id. */
	struct ipoib_queue rxq[1];
	struct ipoib_queue txq[RTE_IPOIB_IF_MAX_QUEUES];
	/**
	 * Held while tx queue 0 sends: rx_burst of queue 0 flushes the
	 * control packets through it only when it can take it at once.
	 */
	rte_spinlock_t tx0_lock;
	bool lsc_pending;               /**< An LSC alarm is armed. */
	bool closing;                   /**< Closing: no more LSC alarms. */
	struct rte_ether_addr mc[IPOIB_MC_MAX]; /**< set_mc_addr_list's last list. */
	uint32_t nb_mc;
	/* lib/ipoib never resets its counters: stats_reset keeps their values. */
	uint64_t xbase[IPOIB_XSTATS_MAX]; /**< xstats at the last reset. */
	uint64_t opackets_base;         /**< opackets at the last reset. */
};

extern const struct eth_dev_ops ipoib_ops;

/** Receive burst (ipoib_rxtx.c). */
uint16_t ipoib_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t nb);
/** Send burst (ipoib_rxtx.c). */
uint16_t ipoib_tx_burst(void *q, struct rte_mbuf **pkts, uint16_t nb);

/** dev_ops stats_get (ipoib_xstats.c). */
int ipoib_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st);
/** dev_ops stats_reset (ipoib_xstats.c). */
int ipoib_stats_reset(struct rte_eth_dev *dev);
/** dev_ops xstats_get (ipoib_xstats.c). */
int ipoib_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xs, unsigned int n);
/** dev_ops xstats_get_names (ipoib_xstats.c). */
int ipoib_xstats_get_names(struct rte_eth_dev *dev, struct rte_eth_xstat_name *names,
			   unsigned int n);

/**
 * Free what the port holds: the interface, the pool, the ownership of
 * the IB port's ethdev (ipoib_probe.c). Safe on a half-built port.
 */
void ipoib_priv_release(struct ipoib_priv *priv);

/**
 * A port attached in a secondary process: dev_ops that read the shared
 * data only, bursts that move nothing (ipoib_ops.c).
 */
void ipoib_secondary_setup(struct rte_eth_dev *eth);

/** lib/ipoib's link callback: an LSC event soon, from an EAL alarm (ipoib_ops.c). */
void ipoib_link_cb(struct rte_ipoib_if *ifp, bool up, void *arg);
/** Cancel a pending LSC alarm of @p port_id (ipoib_ops.c). */
void ipoib_lsc_cancel(uint16_t port_id);

/**
 * The IP group a multicast MAC names (RFC 1112 6.4, RFC 2464 7), for
 * set_mc_addr_list (ipoib_ops.c).
 *
 * @return 0, or -1 for a MAC that is not an IPv4 or IPv6 multicast MAC.
 */
int ipoib_mac_group(const struct rte_ether_addr *mac, uint8_t ip[16]);

#endif /* _IPOIB_ETHDEV_H_ */
