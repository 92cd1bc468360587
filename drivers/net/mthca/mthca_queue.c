/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Queue control: a CQ and a UD QP per queue (Linux's kernel ULPs do the
 * same with ib_create_cq / ib_create_qp), receive WQEs of one scatter
 * entry that covers the 40-byte GRH slot in the mbuf headroom and the
 * data room, send WQEs of up to MTHCA_TX_MAX_SEGS gather entries.
 *
 * Memory: every receive mempool handed in is registered as an MTT region
 * over its memory (start = the memory's virtual address, one MTT entry per
 * 4 KiB page, IOVAs from DPDK), so receive WQEs carry mbuf virtual
 * addresses. A mempool in several memory chunks gets the driver PD's
 * physical region instead (bus addresses = IOVAs). Sends gather through
 * the physical region: their mbufs may come from any pool.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include <rte_alarm.h>
#include <rte_ib_dev.h>
#include <rte_malloc.h>
#include <rte_mempool.h>

#include "mthca.h"
#include "mthca_queue.h"
#include "mthca_rxtx.h"

#define RX_MAX_GS	1

/* ---- mempool regions --------------------------------------------------- */

struct pool_chunks {
	unsigned int n;
	uintptr_t va;
	size_t len;
};

static void
pool_chunk(struct rte_mempool *mp, void *opaque, struct rte_mempool_memhdr *memhdr,
	   unsigned int idx)
{
	struct pool_chunks *c = opaque;

	RTE_SET_USED(mp);
	RTE_SET_USED(idx);
	c->n++;
	c->va = (uintptr_t)memhdr->addr;
	c->len = memhdr->len;
}

static int
rxq_register_pool(struct mthca_rxq *rxq)
{
	struct mthca_dev *dev = rxq->priv->dev;
	struct pool_chunks c = { 0, 0, 0 };
	uintptr_t start;
	uint32_t npages, i;
	uint64_t *iovas;
	int ret;

	rte_mempool_mem_iter(rxq->mp, pool_chunk, &c);
	if (c.n != 1) {
		rxq->lkey = dev->ntmr.lkey;
		rxq->addr_va = false;
		MTHCA_LOG(INFO, "%s: mempool %s has %u memory chunks: receives use bus addresses",
			  dev->name, rxq->mp->name, c.n);
		return 0;
	}
	start = RTE_ALIGN_FLOOR(c.va, (uintptr_t)MTHCA_ICM_PAGE_SIZE);
	npages = (uint32_t)((RTE_ALIGN_CEIL(c.va + c.len, (uintptr_t)MTHCA_ICM_PAGE_SIZE) - start) /
			    MTHCA_ICM_PAGE_SIZE);
	iovas = malloc(sizeof(*iovas) * npages);
	if (iovas == NULL)
		return -ENOMEM;
	for (i = 0; i < npages; i++) {
		rte_iova_t io = rte_mem_virt2iova((void *)(start + (uintptr_t)i *
							   MTHCA_ICM_PAGE_SIZE));

		if (io == RTE_BAD_IOVA) {
			free(iovas);
			MTHCA_LOG(ERR, "%s: mempool %s: no IOVA for page %u", dev->name,
				  rxq->mp->name, i);
			return -EINVAL;
		}
		iovas[i] = io;
	}
	ret = mthca_mr_pages(dev, &rxq->mr, start, iovas, npages, MTHCA_MPT_F_LOCAL_WRITE);
	free(iovas);
	if (ret != 0)
		return ret;
	rxq->lkey = rxq->mr.lkey;
	rxq->addr_va = true;
	MTHCA_LOG(DEBUG, "%s: mempool %s: region 0x%x over %u pages", dev->name, rxq->mp->name,
		  rxq->lkey, npages);
	return 0;
}

/* ---- the hardware of a queue: a CQ and a UD QP on it ------------------------ */

static int
queue_hw_create(struct mthca_port *p, struct mthca_cq *cq, struct mthca_qp *qp,
		struct mthca_cq_ring *ring, uint32_t sq_depth, uint32_t rq_depth,
		uint32_t rq_gs, uint32_t sq_gs)
{
	struct mthca_dev *dev = p->dev;
	int64_t qpn;
	int ret;

	ret = mthca_cq_create(dev, cq, RTE_MAX(sq_depth, rq_depth));
	if (ret != 0)
		return ret;
	qpn = mthca_qpn_alloc(dev);
	if (qpn < 0)
		return -ENOSPC;
	ret = mthca_qp_create(dev, qp, (uint32_t)qpn, MTHCA_QPST_UD, p->port, cq, cq,
			      sq_depth, rq_depth, rq_gs, sq_gs);
	if (ret != 0) {
		mthca_qpn_free(dev, (uint32_t)qpn);
		return ret;
	}
	qp->qkey = mthca_port_qkey(p);
	qp->pkey_index = p->pkey_index;
	ring->cqes = cq->buf.va;
	ring->mask = cq->nent - 1;
	ring->set_ci_rec = cq->set_ci_rec;
	return 0;
}

static void
queue_hw_destroy(struct mthca_dev *dev, struct mthca_cq *cq, struct mthca_qp *qp)
{
	if (qp->buf.mz != NULL) {
		uint32_t qpn = qp->qpn;

		mthca_qp_destroy(dev, qp);
		mthca_qpn_free(dev, qpn);
	}
	mthca_cq_destroy(dev, cq);
}

/* ---- receive queues ------------------------------------------------------ */

int
mthca_rx_queue_setup(struct rte_eth_dev *eth, uint16_t idx, uint16_t nb_desc,
		     unsigned int socket, const struct rte_eth_rxconf *conf,
		     struct rte_mempool *mp)
{
	struct mthca_port *p = eth->data->dev_private;
	struct mthca_rxq *rxq;
	uint16_t room;
	int ret;

	RTE_SET_USED(conf);
	if (!rte_is_power_of_2(nb_desc) || nb_desc < MTHCA_MIN_DESC || nb_desc > MTHCA_MAX_DESC) {
		MTHCA_LOG(ERR, "port %u rxq %u: %u descriptors: a power of two in %u..%u",
			  p->port_id, idx, nb_desc, MTHCA_MIN_DESC, MTHCA_MAX_DESC);
		return -EINVAL;
	}
	if (RTE_PKTMBUF_HEADROOM < MTHCA_GRH_SIZE) {
		MTHCA_LOG(ERR, "port %u rxq %u: mbuf headroom %u < the 40-byte GRH slot",
			  p->port_id, idx, RTE_PKTMBUF_HEADROOM);
		return -EINVAL;
	}
	room = rte_pktmbuf_data_room_size(mp);
	if (room < RTE_PKTMBUF_HEADROOM + eth->data->mtu) {
		MTHCA_LOG(ERR, "port %u rxq %u: mempool %s data room %u < headroom %u + MTU %u "
			  "(no receive scatter)", p->port_id, idx, mp->name, room,
			  RTE_PKTMBUF_HEADROOM, eth->data->mtu);
		return -EINVAL;
	}
	mthca_rx_queue_release(eth, idx);
	rxq = rte_zmalloc_socket("mthca_rxq", sizeof(*rxq), RTE_CACHE_LINE_SIZE, socket);
	if (rxq == NULL)
		return -ENOMEM;
	rxq->priv = p;
	rxq->idx = idx;
	rxq->nb_desc = nb_desc;
	rxq->mp = mp;
	rxq->port_id = p->port_id;
	rxq->ib_port = p->port;
	rxq->elts = rte_zmalloc_socket("mthca_rxq_elts", sizeof(*rxq->elts) * nb_desc, 0, socket);
	if (rxq->elts == NULL) {
		ret = -ENOMEM;
		goto err;
	}
	ret = rxq_register_pool(rxq);
	if (ret != 0)
		goto err;
	/* a receive-only UD QP: one send WQE slot the ring needs, never posted */
	ret = queue_hw_create(p, &rxq->hwcq, &rxq->qp, &rxq->cq, 1, nb_desc, RX_MAX_GS, 1);
	if (ret != 0)
		goto err;
	rxq->wqes = rxq->qp.buf.va;
	rxq->mask = rxq->qp.rq_max - 1;
	rxq->rq_rec = rxq->qp.rq_rec;
	eth->data->rx_queues[idx] = rxq;
	MTHCA_LOG(DEBUG, "port %u rxq %u: QPN 0x%x, CQN 0x%x, %u WQEs", p->port_id, idx,
		  rxq->qp.qpn, rxq->hwcq.cqn, nb_desc);
	return 0;
err:
	mthca_rxq_release(rxq);
	return ret;
}

static void
rxq_post(struct mthca_rxq *rxq, uint32_t slot, struct rte_mbuf *m)
{
	struct mthca_data_seg *d = (void *)(rxq->wqes + ((size_t)slot << 6) + 16);
	uint64_t a = *(const uint64_t *)RTE_PTR_ADD(m, rxq->addr_field);

	rxq->elts[slot] = m;
	mthca_dseg_set(d, MTHCA_GRH_SIZE + m->buf_len - RTE_PKTMBUF_HEADROOM, rxq->lkey,
		       a + rxq->buf_off);
}

/* What the receive burst needs to fill mbufs without rte_pktmbuf_reset(). */
static int
rxq_mbuf_template(struct mthca_rxq *rxq)
{
	struct rte_mbuf t;
	int off = rte_ib_mbuf_dynfield_register();

	if (off < 0) {
		MTHCA_LOG(ERR, "port %u rxq %u: no rte_ib mbuf dynfield: %s", rxq->port_id,
			  rxq->idx, rte_strerror(rte_errno));
		return -rte_errno;
	}
	rxq->dynoff = off;
	memset(&t, 0, sizeof(t));
	t.data_off = RTE_PKTMBUF_HEADROOM;
	rte_mbuf_refcnt_set(&t, 1);
	t.nb_segs = 1;
	t.port = rxq->port_id;
	rxq->mbuf_init = *(const uint64_t *)(uintptr_t)&t.rearm_data;
	/* the GRH slot: the 40 bytes of headroom just before the payload */
	rxq->buf_off = RTE_PKTMBUF_HEADROOM - MTHCA_GRH_SIZE;
	/* the address a WQE takes: virtual in the pool's MTT region, else the bus address */
	rxq->addr_field = rxq->addr_va ? offsetof(struct rte_mbuf, buf_addr) :
					 offsetof(struct rte_mbuf, buf_iova);
	return 0;
}

int
mthca_rxq_start(struct mthca_rxq *rxq)
{
	struct mthca_dev *dev = rxq->priv->dev;
	uint32_t i, n = rxq->qp.rq_max;
	int ret;

	rxq->qp.qkey = mthca_port_qkey(rxq->priv);
	rxq->qp.pkey_index = rxq->priv->pkey_index;
	ret = rxq_mbuf_template(rxq);
	if (ret != 0)
		return ret;
	if (rte_pktmbuf_alloc_bulk(rxq->mp, rxq->elts, n) != 0) {
		MTHCA_LOG(ERR, "port %u rxq %u: mempool %s cannot fill %u receive WQEs",
			  rxq->port_id, rxq->idx, rxq->mp->name, n);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		rxq_post(rxq, i, rxq->elts[i]);
	rxq->head = n;
	ret = mthca_qp_up(dev, &rxq->qp);
	if (ret != 0) {
		rte_pktmbuf_free_bulk(rxq->elts, n);
		memset(rxq->elts, 0, sizeof(*rxq->elts) * n);
		return ret;
	}
	/* the WQEs before the record that publishes them (Linux mthca_arbel_post_receive) */
	rte_io_wmb();
	mthca_put32((void *)(uintptr_t)rxq->rq_rec, 0, rxq->head & 0xffff);
	return 0;
}

/* Give back every CQE still in the ring (the QP is in RESET: no more come). */
static void
cq_drain(struct mthca_cq_ring *cq)
{
	for (;;) {
		uint8_t *e = cq->cqes + (size_t)(cq->cons & cq->mask) * MTHCA_CQE_SIZE;

		if (e[MTHCA_CQE_SIZE - 1] & MTHCA_OWNER_HW)
			break;
		e[MTHCA_CQE_SIZE - 1] = MTHCA_OWNER_HW;
		cq->cons++;
	}
	rte_io_wmb();
	mthca_put32((void *)(uintptr_t)cq->set_ci_rec, 0, cq->cons);
}

void
mthca_rxq_stop(struct mthca_rxq *rxq)
{
	uint32_t i;

	if (rxq == NULL || !rxq->qp.live)
		return;
	mthca_qp_reset(rxq->priv->dev, &rxq->qp);
	cq_drain(&rxq->cq);
	for (i = 0; i < rxq->qp.rq_max; i++)
		if (rxq->elts[i] != NULL) {
			rte_pktmbuf_free(rxq->elts[i]);
			rxq->elts[i] = NULL;
		}
	rxq->head = 0;
}

void
mthca_rxq_release(struct mthca_rxq *rxq)
{
	struct mthca_dev *dev;

	if (rxq == NULL)
		return;
	dev = rxq->priv->dev;
	mthca_rxq_stop(rxq);
	queue_hw_destroy(dev, &rxq->hwcq, &rxq->qp);
	mthca_mr_free(dev, &rxq->mr);
	rte_free(rxq->elts);
	rte_free(rxq);
}

void
mthca_rx_queue_release(struct rte_eth_dev *eth, uint16_t idx)
{
	mthca_rxq_release(eth->data->rx_queues[idx]);
	eth->data->rx_queues[idx] = NULL;
}

/* ---- send queues --------------------------------------------------------- */

int
mthca_tx_queue_setup(struct rte_eth_dev *eth, uint16_t idx, uint16_t nb_desc,
		     unsigned int socket, const struct rte_eth_txconf *conf)
{
	struct mthca_port *p = eth->data->dev_private;
	struct mthca_dev *dev = p->dev;
	struct mthca_txq *txq;
	uint64_t offloads;
	int ret;

	if (!rte_is_power_of_2(nb_desc) || nb_desc < MTHCA_MIN_DESC || nb_desc > MTHCA_MAX_DESC) {
		MTHCA_LOG(ERR, "port %u txq %u: %u descriptors: a power of two in %u..%u",
			  p->port_id, idx, nb_desc, MTHCA_MIN_DESC, MTHCA_MAX_DESC);
		return -EINVAL;
	}
	offloads = eth->data->dev_conf.txmode.offloads | (conf != NULL ? conf->offloads : 0);
	if (offloads & ~MTHCA_TX_OFFLOADS) {
		MTHCA_LOG(ERR, "port %u txq %u: tx offloads 0x%" PRIx64 " not supported",
			  p->port_id, idx, offloads & ~MTHCA_TX_OFFLOADS);
		return -ENOTSUP;
	}
	mthca_tx_queue_release(eth, idx);
	txq = rte_zmalloc_socket("mthca_txq", sizeof(*txq), RTE_CACHE_LINE_SIZE, socket);
	if (txq == NULL)
		return -ENOMEM;
	txq->priv = p;
	txq->idx = idx;
	txq->nb_desc = nb_desc;
	txq->elts = rte_zmalloc_socket("mthca_txq_elts", sizeof(*txq->elts) * nb_desc, 0, socket);
	if (txq->elts == NULL) {
		ret = -ENOMEM;
		goto err;
	}
	ret = queue_hw_create(p, &txq->hwcq, &txq->qp, &txq->cq, nb_desc, 0, 1, MTHCA_TX_MAX_SEGS);
	if (ret != 0)
		goto err;
	txq->wqes = txq->qp.buf.va + txq->qp.send_off;
	txq->send_off = txq->qp.send_off;
	txq->mask = txq->qp.sq_max - 1;
	if (txq->qp.sq_shift != MTHCA_TX_WQE_SHIFT) {
		/* the burst's constant stride and the QP's must agree */
		MTHCA_LOG(ERR, "port %u txq %u: send WQE stride 2^%u, not 2^%u", p->port_id, idx,
			  txq->qp.sq_shift, MTHCA_TX_WQE_SHIFT);
		ret = -EINVAL;
		goto err;
	}
	txq->sq_rec = txq->qp.sq_rec;
	txq->db = txq->qp.uar.page + MTHCA_UAR_SEND_DB;
	txq->qpn = txq->qp.qpn;
	txq->lkey_be = rte_cpu_to_be_32(dev->ntmr.lkey);
	txq->fast_free = (offloads & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE) != 0;
	txq->prefetchw = mthca_cpu_has_prfchw();
	eth->data->tx_queues[idx] = txq;
	MTHCA_LOG(DEBUG, "port %u txq %u: QPN 0x%x, CQN 0x%x, %u WQEs", p->port_id, idx,
		  txq->qp.qpn, txq->hwcq.cqn, nb_desc);
	return 0;
err:
	mthca_txq_release(txq);
	return ret;
}

/* An empty ring from WQE 0 on, for a QP just out of RESET. */
static void
txq_ring_init(struct mthca_txq *txq)
{
	txq->head = txq->tail = 0;
	txq->chains = 0;
	txq->last_comp = txq->mask;	/* the first CQE, for WQE 0, retires one */
	txq->err_seen = false;
}

int
mthca_txq_start(struct mthca_txq *txq)
{
	int off = rte_ib_mbuf_dynfield_register();

	if (off < 0) {
		MTHCA_LOG(ERR, "port %u txq %u: no rte_ib mbuf dynfield: %s",
			  txq->priv->port_id, txq->idx, rte_strerror(rte_errno));
		return -rte_errno;
	}
	txq->dynoff = off;
	txq_ring_init(txq);
	txq->stalled = 0;
	txq->recover_failed = false;
	txq->qp.qkey = mthca_port_qkey(txq->priv);
	txq->qp.pkey_index = txq->priv->pkey_index;
	return mthca_qp_up(txq->priv->dev, &txq->qp);
}

void
mthca_txq_stop(struct mthca_txq *txq)
{
	uint32_t i;

	if (txq == NULL || !txq->qp.live)
		return;
	mthca_qp_reset(txq->priv->dev, &txq->qp);
	cq_drain(&txq->cq);
	/* the QP is in RESET: what was posted and not yet retired is ours again */
	for (; txq->tail != txq->head; txq->tail++)
		rte_pktmbuf_free(mthca_tx_elt(txq->elts[txq->tail & txq->mask]));
	txq->head = txq->tail = 0;
	txq->chains = 0;
	/* the ring of next pointers restarts from WQE 0 (Linux mthca_wq_reset) */
	for (i = 0; i <= txq->mask; i++)
		mthca_put32(txq->wqes + ((size_t)i << MTHCA_TX_WQE_SHIFT), 4, 0);
}

/*
 * Recover a send queue whose burst handed it over after an error
 * completion (struct mthca_txq): the QP goes ERR -> RESET (2RST from any
 * state, so an SQE QP too), which ends its completions; the CQEs left are
 * flushes of WQEs in [tail, head), given back unread; the mbufs of those
 * WQEs are freed here, once, as the burst freed those before tail; then
 * RESET -> INIT -> RTR -> RTS with the port's Q_Key and the QP's P_Key index,
 * an empty ring, and the queue back to the burst. Linux mthca leaves this
 * to the ULP (ipoib_ib_dev_stop() / ipoib_ib_dev_open()); here the
 * transmit watch does it. On failure the queue stays stalled and the next
 * pass tries again.
 */
static void
txq_recover(struct mthca_txq *txq)
{
	struct mthca_dev *dev = txq->priv->dev;
	uint32_t lost = txq->head - txq->tail;
	int ret;

	/* ERR -> RESET, CQ drained, [tail, head) freed, next links cleared */
	mthca_txq_stop(txq);
	txq->flushed += lost;
	txq->errors += lost;
	txq_ring_init(txq);
	/* the port's Q_Key: a change that failed on the QP in ERR takes effect now */
	txq->qp.qkey = mthca_port_qkey(txq->priv);
	ret = mthca_qp_up(dev, &txq->qp);
	if (ret != 0) {
		if (!txq->recover_failed)
			MTHCA_LOG(ERR, "port %u txq %u: QP 0x%x back to RTS: %s; retrying",
				  txq->priv->port_id, txq->idx, txq->qpn, strerror(-ret));
		txq->recover_failed = true;
		mthca_qp_reset(dev, &txq->qp);
		return;
	}
	txq->recover_failed = false;
	txq->recoveries++;
	/* rate-limited: the 1st, 2nd, 4th, 8th ... recovery of the queue */
	if (rte_is_power_of_2((uint32_t)RTE_MIN(txq->recoveries, (uint64_t)UINT32_MAX)))
		MTHCA_LOG(WARNING, "port %u txq %u: QP 0x%x recovered after a send error "
			  "(%u WQEs flushed, %" PRIu64 " recoveries)", txq->priv->port_id,
			  txq->idx, txq->qpn, lost, txq->recoveries);
	/* the reset ring and the QP in RTS before the burst may use them */
	__atomic_store_n(&txq->stalled, 0, __ATOMIC_RELEASE);
}

/*
 * The transmit watch of a started port: every MTHCA_TX_WATCH_US on the
 * EAL alarm thread, a look at each send queue's stalled flag (a load, no
 * command unless one is set). The burst cannot wake a thread without a
 * system call, and a send error raises no asynchronous event (IBA
 * 11.6.3: it is reported by its completion alone), so the watch polls.
 */
static void
tx_watch(void *arg)
{
	struct rte_eth_dev *eth = arg;
	struct mthca_port *p = eth->data->dev_private;
	uint16_t i;

	for (i = 0; i < eth->data->nb_tx_queues; i++) {
		struct mthca_txq *txq = eth->data->tx_queues[i];

		/* acquire: what the burst wrote before it handed the queue over */
		if (txq != NULL && __atomic_load_n(&txq->stalled, __ATOMIC_ACQUIRE) != 0)
			txq_recover(txq);
	}
	if (p->started && rte_eal_alarm_set(MTHCA_TX_WATCH_US, tx_watch, eth) != 0)
		MTHCA_LOG(ERR, "port %u: transmit watch not rescheduled: %s", p->port_id,
			  rte_strerror(rte_errno));
}

int
mthca_tx_watch_start(struct rte_eth_dev *eth)
{
	struct mthca_port *p = eth->data->dev_private;

	if (rte_eal_alarm_set(MTHCA_TX_WATCH_US, tx_watch, eth) != 0) {
		MTHCA_LOG(ERR, "port %u: transmit watch: %s", p->port_id, rte_strerror(rte_errno));
		return -rte_errno;
	}
	return 0;
}

void
mthca_tx_watch_stop(struct rte_eth_dev *eth)
{
	/* waits for a pass running on the alarm thread, and drops what it re-armed */
	rte_eal_alarm_cancel(tx_watch, eth);
}

void
mthca_txq_release(struct mthca_txq *txq)
{
	struct mthca_dev *dev;

	if (txq == NULL)
		return;
	dev = txq->priv->dev;
	mthca_txq_stop(txq);
	queue_hw_destroy(dev, &txq->hwcq, &txq->qp);
	rte_free(txq->elts);
	rte_free(txq);
}

void
mthca_tx_queue_release(struct rte_eth_dev *eth, uint16_t idx)
{
	mthca_txq_release(eth->data->tx_queues[idx]);
	eth->data->tx_queues[idx] = NULL;
}

/* ---- what rte_ib reports of the queues and sets on them ------------------- */

/* The QP of rx or tx queue @p idx, or NULL when it is not set up. */
static struct mthca_qp *
queue_qp(struct rte_eth_dev *eth, uint16_t idx, bool tx)
{
	if (tx) {
		struct mthca_txq *q = idx < eth->data->nb_tx_queues ?
				      eth->data->tx_queues[idx] : NULL;

		return q != NULL ? &q->qp : NULL;
	} else {
		struct mthca_rxq *q = idx < eth->data->nb_rx_queues ?
				      eth->data->rx_queues[idx] : NULL;

		return q != NULL ? &q->qp : NULL;
	}
}

int
mthca_queue_info(struct rte_eth_dev *eth, uint16_t idx, bool tx, struct rte_ib_ud_queue_info *info)
{
	struct mthca_port *p = eth->data->dev_private;
	struct mthca_qp *qp = queue_qp(eth, idx, tx);

	if (qp == NULL) {
		MTHCA_LOG(ERR, "port %u: no %s queue %u set up", p->port_id, tx ? "tx" : "rx", idx);
		return -EINVAL;
	}
	info->qpn = qp->qpn;
	info->ib_port = p->port;
	info->live = qp->live;
	/* a started queue's context, else what its next start takes */
	info->qkey = qp->live ? qp->qkey : mthca_port_qkey(p);
	info->pkey_index = qp->live ? qp->pkey_index : p->pkey_index;
	return 0;
}

int
mthca_queues_qkey_set(struct rte_eth_dev *eth, uint32_t qkey)
{
	struct mthca_port *p = eth->data->dev_private;
	uint16_t i;
	int ret = 0;

	p->qkey = qkey;
	for (i = 0; i < eth->data->nb_rx_queues && ret == 0; i++)
		if (eth->data->rx_queues[i] != NULL)
			ret = mthca_qp_qkey_set(p->dev, queue_qp(eth, i, false), qkey);
	for (i = 0; i < eth->data->nb_tx_queues && ret == 0; i++)
		if (eth->data->tx_queues[i] != NULL)
			ret = mthca_qp_qkey_set(p->dev, queue_qp(eth, i, true), qkey);
	if (ret != 0)
		MTHCA_LOG(ERR, "port %u: Q_Key 0x%08x: %s", p->port_id, qkey, strerror(-ret));
	return ret;
}
