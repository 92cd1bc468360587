/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * MT25208 model, data path: what mt25208_dp_recv.c offers the files above
 * it (the fabric's packets to their QP).
 */

#ifndef _IBFABRIC_MT25208_DP_RECV_H_
#define _IBFABRIC_MT25208_DP_RECV_H_

struct fabric;
struct fab_hdrs;
struct fab_pkt;
struct fab_port;
struct mt25208;

/** fabric.hca_recv: every packet reaching an active HCA. */
void dp_fab_recv(struct fabric *f, struct fab_port *in, struct fab_pkt *p,
		 const struct fab_hdrs *h);

/**
 * A packet @p p, parsed and CRC-checked into @p h, arrived at @p in, a
 * port of @p dev's node (dp_fab_recv() calls this for every packet reaching an
 * active HCA, QP0/QP1 included). Takes ownership of @p p.
 */
void mt25208_port_recv(struct mt25208 *dev, struct fab_port *in, struct fab_pkt *p,
		       const struct fab_hdrs *h);

#endif /* _IBFABRIC_MT25208_DP_RECV_H_ */
