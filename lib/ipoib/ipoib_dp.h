/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _IPOIB_DP_H_
#define _IPOIB_DP_H_

/*
 * Private to librte_ipoib: the data-path context and the rte_ib mbuf
 * dynfield helpers shared by the bursts and the tables.
 */

#include <rte_ether.h>
#include <rte_ib_mbuf.h>
#include <rte_mbuf.h>

#include "rte_ipoib_encap.h"

/*
 * One lcore's context: configuration and precomputed values written at
 * creation, counters written by its lcore only.
 */
struct rte_ipoib_dp {
	struct rte_ipoib_dp_conf conf;
	struct rte_ether_addr local_mac;
	struct rte_ipoib_hwaddr bcast_hw;    /**< Broadcast group's address. */
	uint32_t bcast_sig;                  /**< Its hash. */
	uint64_t local_mac_word;             /**< local_mac, 2 zero bytes, as a word. */
	uint32_t local_qpn;                  /**< conf.local's QPN, host order. */
	uint64_t local_src_key;              /**< Our (LID, QPN) as a source key. */
	uint64_t now;                        /**< TSC at the start of the burst. */
	uint64_t age_tick;                   /**< Stamp neighbours at most this often. */
	struct rte_ipoib_dp_stats st;
} __rte_cache_aligned;

static inline void
ipoib_mbuf_set_ah(struct rte_mbuf *m, struct rte_ib_ah *ah)
{
	rte_ib_mbuf_addr(m)->tx.ah = ah;
}

#endif /* _IPOIB_DP_H_ */
