/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * io: what a port receives goes out unchanged on its peer. A raw IB
 * port's datagram carries its address beside the payload (the rte_ib
 * mbuf dynfield), and the receive view of that field is no transmit view:
 * onto a raw IB port each datagram is addressed to --txonly-dest.
 */

#include <errno.h>

#include <rte_ib_mbuf.h>

#include "ipoib_fwd.h"

static int
io_prepare(void)
{
	unsigned int s;

	for (s = 0; s < fwd_nb_streams; s++)
		if (fwd_streams[s].txp->ibdev != NULL && !fwd_cfg.dest_set) {
			FWD_LOG(ERR, "--forward-mode=io: port %u is an IB port: its datagrams "
				"need --txonly-dest=LID:QPN", fwd_streams[s].txp->port_id);
			return -EINVAL;
		}
	return fwd_cfg.dest_set ? fwd_ports_dest_ah() : 0;
}

static uint16_t
io_run(struct fwd_stream *fs)
{
	struct rte_mbuf *pkts[FWD_MAX_BURST];
	struct fwd_port *txp = fs->txp;
	uint16_t n, i;

	n = rte_eth_rx_burst(fs->rxp->port_id, fs->rxq, pkts, fwd_cfg.burst);
	if (n == 0)
		return 0;
	fwd_count(&fs->rx_pkts, n);
	if (txp->ibdev != NULL) {
		uint32_t qkey = fwd_cfg.dest_qkey_set ? fwd_cfg.dest_qkey : txp->tx_qkey;

		for (i = 0; i < n; i++) {
			struct rte_ib_mbuf_addr *a = rte_ib_mbuf_addr(pkts[i]);

			a->tx.ah = txp->dest_ah;
			a->tx.dest_qpn = fwd_cfg.dest_qpn;
			a->tx.qkey = qkey;
		}
	}
	fwd_tx(fs, pkts, n);
	return n;
}

const struct fwd_engine fwd_engine_io = {
	.name = "io",
	.prepare = io_prepare,
	.run = io_run,
};
