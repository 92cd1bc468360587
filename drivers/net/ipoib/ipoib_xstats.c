/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * net_ipoib's statistics: the bursts' own packet and byte counts, and
 * lib/ipoib's counters (rte_ipoib_if_dir_stats_get(),
 * rte_ipoib_if_stats_get()) split by direction and drop reason.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ipoib_ethdev.h"

/* Counters after the drops: name, and where in rte_ipoib_if_stats. */
static const struct {
	const char *name;
	size_t off;
} ctrl_xstats[] = {
	{ "tx_path_queued_packets", offsetof(struct rte_ipoib_if_stats, dp.queued) },
	{ "tx_ctrl_packets", offsetof(struct rte_ipoib_if_stats, ctrl_tx) },
	{ "tx_ctrl_ring_full_drops", offsetof(struct rte_ipoib_if_stats, ctrl_tx_lost) },
	{ "tx_dev_full_bursts", offsetof(struct rte_ipoib_if_stats, tx_dev_full) },
	{ "rx_ctrl_drops", offsetof(struct rte_ipoib_if_stats, ctrl_drops) },
	/*
	 * Packets held for a neighbour or a group's join (issue 26); before
	 * tx_path_failed_drops, which the test beds read up to.
	 */
	{ "tx_held_packets", offsetof(struct rte_ipoib_if_stats, dp.held) },
	{ "tx_held_sent", offsetof(struct rte_ipoib_if_stats, held_sent) },
	{ "tx_held_drops", offsetof(struct rte_ipoib_if_stats, held_drops) },
	{ "tx_path_failed_drops", offsetof(struct rte_ipoib_if_stats, path_drops) },
	/* The control side's work towards the SA and the SM (issue 26's
	 * economy and fault tests read them in dpdk-testpmd's xstats).
	 */
	{ "ctrl_path_queries", offsetof(struct rte_ipoib_if_stats, path_queries) },
	{ "ctrl_path_refreshes", offsetof(struct rte_ipoib_if_stats, path_refreshes) },
	{ "ctrl_mcast_joins", offsetof(struct rte_ipoib_if_stats, mcast_joins) },
	{ "ctrl_link_changes", offsetof(struct rte_ipoib_if_stats, link_changes) },
};

/* Drop reasons start at 1 (0 is "not dropped"). */
#define NB_REASONS (RTE_IPOIB_DROP_MAX - 1)
#define NB_XSTATS (2 * NB_REASONS + RTE_DIM(ctrl_xstats))

static_assert(NB_XSTATS <= IPOIB_XSTATS_MAX, "IPOIB_XSTATS_MAX too small");

/* The raw values, in the order of the names; 0 on failure. */
static int
raw_values(const struct ipoib_priv *priv, uint64_t *v, uint64_t *opackets)
{
	struct rte_ipoib_dp_stats dir[2];
	struct rte_ipoib_if_stats st;
	unsigned int r, k = 0, d;

	if (rte_ipoib_if_dir_stats_get(priv->ifp, false, &dir[0]) != 0 ||
	    rte_ipoib_if_dir_stats_get(priv->ifp, true, &dir[1]) != 0 ||
	    rte_ipoib_if_stats_get(priv->ifp, &st) != 0)
		return -rte_errno;
	for (d = 0; d < 2; d++)
		for (r = 1; r < RTE_IPOIB_DROP_MAX; r++)
			v[k++] = dir[d].drops[r];
	for (r = 0; r < RTE_DIM(ctrl_xstats); r++) {
		uint64_t x;

		memcpy(&x, (const uint8_t *)&st + ctrl_xstats[r].off, sizeof(x));
		v[k++] = x;
	}
	*opackets = dir[1].encap_pkts;
	return 0;
}

int
ipoib_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st)
{
	struct ipoib_priv *priv = dev->data->dev_private;
	uint64_t v[IPOIB_XSTATS_MAX], opackets;
	unsigned int q, r;
	int rc;

	rc = raw_values(priv, v, &opackets);
	if (rc != 0)
		return rc;
	st->ipackets = priv->rxq[0].st.pkts;
	st->ibytes = priv->rxq[0].st.bytes;
	st->q_ipackets[0] = st->ipackets;
	st->q_ibytes[0] = st->ibytes;
	st->opackets = opackets - priv->opackets_base;
	for (q = 0; q < priv->args.txq; q++) {
		st->obytes += priv->txq[q].st.bytes;
		if (q < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			st->q_opackets[q] = priv->txq[q].st.pkts;
			st->q_obytes[q] = priv->txq[q].st.bytes;
		}
	}
	for (r = 0; r < NB_REASONS; r++) {
		st->imissed += v[r] - priv->xbase[r];
		st->oerrors += v[NB_REASONS + r] - priv->xbase[NB_REASONS + r];
	}
	return 0;
}

int
ipoib_stats_reset(struct rte_eth_dev *dev)
{
	struct ipoib_priv *priv = dev->data->dev_private;
	uint64_t v[IPOIB_XSTATS_MAX], opackets;
	unsigned int q;
	int rc;

	rc = raw_values(priv, v, &opackets);
	if (rc != 0)
		return rc;
	memcpy(priv->xbase, v, sizeof(v[0]) * NB_XSTATS);
	priv->opackets_base = opackets;
	memset(&priv->rxq[0].st, 0, sizeof(priv->rxq[0].st));
	for (q = 0; q < RTE_IPOIB_IF_MAX_QUEUES; q++)
		memset(&priv->txq[q].st, 0, sizeof(priv->txq[q].st));
	return 0;
}

int
ipoib_xstats_get_names(struct rte_eth_dev *dev, struct rte_eth_xstat_name *names,
		       unsigned int n)
{
	unsigned int d, r, k = 0;

	RTE_SET_USED(dev);
	if (names == NULL || n < NB_XSTATS)
		return NB_XSTATS;
	/* DPDK's style: direction first, snake_case ("rx_no_neigh_drops"). */
	for (d = 0; d < 2; d++)
		for (r = 1; r < RTE_IPOIB_DROP_MAX; r++)
			snprintf(names[k++].name, sizeof(names[0].name), "%s_%s_drops",
				 d == 0 ? "rx" : "tx", rte_ipoib_drop_reason_name(r));
	for (r = 0; r < RTE_DIM(ctrl_xstats); r++)
		snprintf(names[k++].name, sizeof(names[0].name), "%s", ctrl_xstats[r].name);
	return NB_XSTATS;
}

int
ipoib_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xs, unsigned int n)
{
	struct ipoib_priv *priv = dev->data->dev_private;
	uint64_t v[IPOIB_XSTATS_MAX], opackets;
	unsigned int k;
	int rc;

	if (xs == NULL || n < NB_XSTATS)
		return NB_XSTATS;
	rc = raw_values(priv, v, &opackets);
	if (rc != 0)
		return rc;
	for (k = 0; k < NB_XSTATS; k++) {
		xs[k].id = k;
		xs[k].value = v[k] - priv->xbase[k];
	}
	return NB_XSTATS;
}
