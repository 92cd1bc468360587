/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/* rxonly: receive, count, free. */

#include "ipoib_fwd.h"

static uint16_t
rxonly_run(struct fwd_stream *fs)
{
	struct rte_mbuf *pkts[FWD_MAX_BURST];
	uint16_t n;

	n = rte_eth_rx_burst(fs->rxp->port_id, fs->rxq, pkts, fwd_cfg.burst);
	if (n == 0)
		return 0;
	fwd_count(&fs->rx_pkts, n);
	rte_pktmbuf_free_bulk(pkts, n);
	return n;
}

const struct fwd_engine fwd_engine_rxonly = {
	.name = "rxonly",
	.run = rxonly_run,
};
