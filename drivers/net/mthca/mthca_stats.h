/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Statistics and xstats of a port (ethdev callbacks), in the primary and
 * in secondary processes (dpdk-proc-info): the queue counters live in the
 * queues (shared memory), the IB port's PMA and MAD counters are read by
 * the primary, which answers a secondary through mthca_mp.c.
 */

#ifndef _MTHCA_STATS_H_
#define _MTHCA_STATS_H_

#include <ethdev_driver.h>

#include "mthca.h"
#include "mthca_port.h"

/** The IB counters of a port: the PMA's PortCounters, then the MAD core's. */
#define MTHCA_IB_COUNTERS	(MTHCA_PMA_NUM_COUNTERS + MTHCA_MAD_XSTATS)

int mthca_dev_stats_get(struct rte_eth_dev *eth, struct rte_eth_stats *stats);
int mthca_dev_stats_reset(struct rte_eth_dev *eth);
int mthca_dev_xstats_get(struct rte_eth_dev *eth, struct rte_eth_xstat *xs, unsigned int n);
int mthca_dev_xstats_get_names(struct rte_eth_dev *eth, struct rte_eth_xstat_name *names,
			       unsigned int n);

/**
 * The raw IB counters of @p p (PMA PortCounters as the PMA counts them,
 * then the MAD core's), read from the HCA: primary process only.
 * 0, or a negative errno when the firmware did not answer (@p v zeroed).
 */
int mthca_stats_ib_read(const struct mthca_port *p, uint64_t v[MTHCA_IB_COUNTERS]);

/**
 * mthca_stats_ib_read() of ethdev @p port_id, for a secondary's request
 * (mthca_mp.c): -ENODEV when @p port_id is not a port of net_mthca.
 */
int mthca_stats_ib_read_port(uint16_t port_id, uint64_t v[MTHCA_IB_COUNTERS]);

#endif /* _MTHCA_STATS_H_ */
