/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Statistics and xstats (doc/guides/nics/mthca.rst, "Statistics"). Names
 * follow DPDK's: rx_/tx_ by direction, snake_case, rx_qN_/tx_qN_ per
 * queue, then the IB port's PMA PortCounters (mthca_pma_xstats[]) and
 * the MAD core's counters of the HCA. The queue counters are plain
 * fields of the queues, in shared memory, so a secondary process reads
 * them as the primary does; the IB counters come from the HCA's
 * firmware, which only the primary can ask (mthca_mp.c forwards). The
 * PMA's and the MAD core's counters are the fabric's and the HCA's, not
 * the port's to clear: a reset records them, and xstats report the
 * difference, so that a reset clears every counter.
 */

#include <errno.h>
#include <string.h>

#include <rte_ibmad.h>

#include "mthca.h"
#include "mthca_mp.h"
#include "mthca_port.h"
#include "mthca_rxtx.h"
#include "mthca_stats.h"

int
mthca_dev_stats_get(struct rte_eth_dev *eth, struct rte_eth_stats *s)
{
	uint16_t i;

	for (i = 0; i < eth->data->nb_rx_queues; i++) {
		struct mthca_rxq *q = eth->data->rx_queues[i];

		if (q == NULL)
			continue;
		s->ipackets += q->packets;
		s->ibytes += q->bytes;
		s->ierrors += q->errors;
		s->rx_nombuf += q->nombuf;
		if (i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			s->q_ipackets[i] = q->packets;
			s->q_ibytes[i] = q->bytes;
			s->q_errors[i] = q->errors;
		}
	}
	for (i = 0; i < eth->data->nb_tx_queues; i++) {
		struct mthca_txq *q = eth->data->tx_queues[i];

		if (q == NULL)
			continue;
		s->opackets += q->packets;
		s->obytes += q->bytes;
		s->oerrors += q->errors;
		if (i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			s->q_opackets[i] = q->packets;
			s->q_obytes[i] = q->bytes;
		}
	}
	return 0;
}

/* The MAD core's counters of the HCA (both ports), after the PMA's. */
#define MAD_XSTAT(n, f) { n, offsetof(struct rte_ibmad_stats, f) }
static const struct {
	const char *name;
	size_t off;
} mad_xstats[] = {
	MAD_XSTAT("rx_mad_packets", rx),
	MAD_XSTAT("rx_mad_local", rx_local),
	MAD_XSTAT("rx_mad_smi_discards", rx_smi_discard),
	MAD_XSTAT("rx_mad_invalid", rx_invalid),
	MAD_XSTAT("rx_mad_agent", rx_agent),
	MAD_XSTAT("rx_mad_responses", rx_response),
	MAD_XSTAT("tx_mad_packets", tx),
	MAD_XSTAT("tx_mad_errors", tx_error),
	MAD_XSTAT("tx_mad_timeouts", timeouts),
	MAD_XSTAT("rx_mad_port_events", events),
};
static_assert(RTE_DIM(mad_xstats) == MTHCA_MAD_XSTATS, "mthca_port.mad_base");

/* The MAD core's counters of @p p's HCA, in mad_xstats order; zeros when not served. */
static void
mad_snapshot(const struct mthca_port *p, uint64_t *v)
{
	struct rte_ibmad_stats mad;
	unsigned int j;

	memset(&mad, 0, sizeof(mad));
	if (p->dev->ibdev != NULL)
		rte_ibmad_stats_get(p->dev->ibdev, &mad);
	for (j = 0; j < RTE_DIM(mad_xstats); j++)
		v[j] = *(const uint64_t *)((const uint8_t *)&mad + mad_xstats[j].off);
}

int
mthca_stats_ib_read(const struct mthca_port *p, uint64_t v[MTHCA_IB_COUNTERS])
{
	int ret;

	ret = mthca_port_counters(p->dev, p->port, v);
	if (ret != 0)
		memset(v, 0, sizeof(*v) * MTHCA_PMA_NUM_COUNTERS);
	mad_snapshot(p, v + MTHCA_PMA_NUM_COUNTERS);
	return ret;
}

/* The raw IB counters of @p eth, from the HCA or through the primary. */
static int
ib_counters(struct rte_eth_dev *eth, uint64_t v[MTHCA_IB_COUNTERS])
{
	if (rte_eal_process_type() == RTE_PROC_PRIMARY)
		return mthca_stats_ib_read(eth->data->dev_private, v);
	return mthca_mp_ib_counters(eth->data->port_id, v);
}

int
mthca_dev_stats_reset(struct rte_eth_dev *eth)
{
	struct mthca_port *p = eth->data->dev_private;
	uint64_t ib[MTHCA_IB_COUNTERS];
	uint16_t i;

	for (i = 0; i < eth->data->nb_rx_queues; i++) {
		struct mthca_rxq *q = eth->data->rx_queues[i];

		if (q != NULL)
			q->packets = q->bytes = q->errors = q->nombuf = 0;
	}
	for (i = 0; i < eth->data->nb_tx_queues; i++) {
		struct mthca_txq *q = eth->data->tx_queues[i];

		if (q != NULL) {
			q->packets = q->bytes = q->errors = q->no_ah = 0;
			memset(q->err_cqe, 0, sizeof(q->err_cqe));
			q->flushed = q->recoveries = 0;
		}
	}
	/* the IB counters are the fabric's and the HCA's: reported relative to now */
	if (ib_counters(eth, ib) != 0 && rte_eal_process_type() != RTE_PROC_PRIMARY)
		return -EIO;	/* the primary did not answer: bases unchanged */
	memcpy(p->pma_base, ib, sizeof(p->pma_base));
	memcpy(p->mad_base, ib + MTHCA_PMA_NUM_COUNTERS, sizeof(p->mad_base));
	return 0;
}

/*
 * Per rx queue, in rxq_values() order; nombuf as struct rte_eth_stats'
 * rx_nombuf (the word dpdk-ipoib-fwd's drop reasons look for).
 */
static const char *const rxq_names[] = { "packets", "bytes", "errors", "nombuf" };
static const char *const txq_names[] = {
	"packets", "bytes", "errors", "no_ah",
	/* enum mthca_tx_err order */
	"err_local_length", "err_local_qp_op", "err_local_prot", "err_local_access", "err_other",
	"flushed", "recoveries",
};
static_assert(RTE_DIM(txq_names) == 4 + MTHCA_TX_ERR_NUM + 2, "txq_names, txq_values()");

/* The values of @p q's xstats, in rxq_names order; zeros for a queue not set up. */
static void
rxq_values(const struct mthca_rxq *q, uint64_t *v)
{
	memset(v, 0, sizeof(*v) * RTE_DIM(rxq_names));
	if (q == NULL)
		return;
	v[0] = q->packets;
	v[1] = q->bytes;
	v[2] = q->errors;
	v[3] = q->nombuf;
}

/* The values of @p q's xstats, in txq_names order; zeros for a queue not set up. */
static void
txq_values(const struct mthca_txq *q, uint64_t *v)
{
	unsigned int j;

	memset(v, 0, sizeof(*v) * RTE_DIM(txq_names));
	if (q == NULL)
		return;
	v[0] = q->packets;
	v[1] = q->bytes;
	v[2] = q->errors;
	v[3] = q->no_ah;
	for (j = 0; j < MTHCA_TX_ERR_NUM; j++)
		v[4 + j] = q->err_cqe[j];
	v[4 + MTHCA_TX_ERR_NUM] = q->flushed;
	v[5 + MTHCA_TX_ERR_NUM] = q->recoveries;
}

static unsigned int
xstats_count(const struct rte_eth_dev *eth)
{
	return eth->data->nb_rx_queues * RTE_DIM(rxq_names) +
	       eth->data->nb_tx_queues * RTE_DIM(txq_names) + MTHCA_IB_COUNTERS;
}

int
mthca_dev_xstats_get_names(struct rte_eth_dev *eth, struct rte_eth_xstat_name *names,
			   unsigned int n)
{
	unsigned int cnt = xstats_count(eth), k = 0, i, j;

	if (names == NULL || n < cnt)
		return (int)cnt;
	for (i = 0; i < eth->data->nb_rx_queues; i++)
		for (j = 0; j < RTE_DIM(rxq_names); j++)
			snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE, "rx_q%u_%s", i,
				 rxq_names[j]);
	for (i = 0; i < eth->data->nb_tx_queues; i++)
		for (j = 0; j < RTE_DIM(txq_names); j++)
			snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE, "tx_q%u_%s", i,
				 txq_names[j]);
	for (j = 0; j < MTHCA_PMA_NUM_COUNTERS; j++)
		snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE, "%s", mthca_pma_xstats[j].name);
	for (j = 0; j < RTE_DIM(mad_xstats); j++)
		snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE, "%s", mad_xstats[j].name);
	return (int)cnt;
}

static void
xs_put(struct rte_eth_xstat *xs, unsigned int *k, uint64_t v)
{
	xs[*k].id = *k;
	xs[*k].value = v;
	(*k)++;
}

int
mthca_dev_xstats_get(struct rte_eth_dev *eth, struct rte_eth_xstat *xs, unsigned int n)
{
	struct mthca_port *p = eth->data->dev_private;
	unsigned int cnt = xstats_count(eth), k = 0, i, j;
	uint64_t ib[MTHCA_IB_COUNTERS], base;

	if (xs == NULL || n < cnt)
		return (int)cnt;
	for (i = 0; i < eth->data->nb_rx_queues; i++) {
		uint64_t v[RTE_DIM(rxq_names)];

		rxq_values(eth->data->rx_queues[i], v);
		for (j = 0; j < RTE_DIM(v); j++)
			xs_put(xs, &k, v[j]);
	}
	for (i = 0; i < eth->data->nb_tx_queues; i++) {
		uint64_t v[RTE_DIM(txq_names)];

		txq_values(eth->data->tx_queues[i], v);
		for (j = 0; j < RTE_DIM(v); j++)
			xs_put(xs, &k, v[j]);
	}
	/* unread (no firmware, no primary): the values of the last reset, so 0 */
	if (ib_counters(eth, ib) != 0) {
		memcpy(ib, p->pma_base, sizeof(p->pma_base));
		memcpy(ib + MTHCA_PMA_NUM_COUNTERS, p->mad_base, sizeof(p->mad_base));
	}
	for (j = 0; j < MTHCA_IB_COUNTERS; j++) {
		base = j < MTHCA_PMA_NUM_COUNTERS ? p->pma_base[j] :
		       p->mad_base[j - MTHCA_PMA_NUM_COUNTERS];
		/* a counter below its base was cleared behind us (perfquery -R) */
		ib[j] = ib[j] >= base ? ib[j] - base : ib[j];
		xs_put(xs, &k, j < MTHCA_PMA_NUM_COUNTERS ? ib[j] * mthca_pma_xstats[j].scale : ib[j]);
	}
	return (int)cnt;
}

int
mthca_stats_ib_read_port(uint16_t port_id, uint64_t v[MTHCA_IB_COUNTERS])
{
	struct rte_eth_dev *eth = &rte_eth_devices[port_id];

	if (!rte_eth_dev_is_valid_port(port_id) || eth->dev_ops == NULL ||
	    eth->dev_ops->xstats_get != mthca_dev_xstats_get || eth->data->dev_private == NULL) {
		MTHCA_LOG(ERR, "ethdev %u is not a net_mthca port", port_id);
		return -ENODEV;
	}
	return mthca_stats_ib_read(eth->data->dev_private, v);
}
