/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * net_ipoib's bursts: lib/ipoib's interface bursts (rte_ipoib_if.h), plus
 * packet and byte counts, plus the control flush. No allocation, no
 * syscall; the only lock is tx queue 0's, which rx never waits for.
 */

#include <rte_mbuf.h>

#include "ipoib_ethdev.h"

/*
 * Control packets (ARP and ND answers, packets a resolved path releases)
 * leave only through tx queue 0 (rte_ipoib_if_tx_burst() with any count).
 * An application such as testpmd's io engine sends only what it
 * received, so rx flushes them on every call: with nothing queued the
 * flush costs two loads and no locked instruction
 * (rte_ipoib_if_tx0_pending(); doc/guides/nics/ipoib.rst, "Control
 * packets"). Another lcore may be sending on queue 0: then it flushes
 * them itself, and rx does not wait.
 */
static inline void
ctrl_flush(struct ipoib_priv *priv)
{
	if (!rte_ipoib_if_tx0_pending(priv->ifp))
		return;
	if (rte_spinlock_trylock(&priv->tx0_lock)) {
		rte_ipoib_if_tx_burst(priv->ifp, 0, NULL, 0);
		rte_spinlock_unlock(&priv->tx0_lock);
	}
}

uint16_t
ipoib_rx_burst(void *arg, struct rte_mbuf **pkts, uint16_t nb)
{
	struct ipoib_queue *q = arg;
	struct ipoib_priv *priv = q->priv;
	uint64_t bytes = 0;
	uint16_t n, i;

	n = rte_ipoib_if_rx_burst(priv->ifp, q->qid, pkts, nb);
	for (i = 0; i < n; i++)
		bytes += pkts[i]->pkt_len;
	q->st.pkts += n;
	q->st.bytes += bytes;
	if (q->qid == 0)
		ctrl_flush(priv);
	return n;
}

uint16_t
ipoib_tx_burst(void *arg, struct rte_mbuf **pkts, uint16_t nb)
{
	struct ipoib_queue *q = arg;
	struct ipoib_priv *priv = q->priv;
	uint64_t bytes = 0;
	uint16_t n, i;

	/* Lengths first: what the library consumes may be freed by then. */
	for (i = 0; i < nb; i++)
		bytes += pkts[i]->pkt_len;
	if (q->qid == 0) {
		rte_spinlock_lock(&priv->tx0_lock);
		n = rte_ipoib_if_tx_burst(priv->ifp, 0, pkts, nb);
		rte_spinlock_unlock(&priv->tx0_lock);
	} else {
		n = rte_ipoib_if_tx_burst(priv->ifp, q->qid, pkts, nb);
	}
	/* The caller keeps [n, nb): still ours to read. */
	for (i = n; i < nb; i++)
		bytes -= pkts[i]->pkt_len;
	q->st.pkts += n;
	q->st.bytes += bytes;
	return n;
}
