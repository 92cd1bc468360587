/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * rx_burst and tx_burst: no locks, no system calls, no allocation beyond
 * mbufs, no logs. One CQ per queue, polled; receive WQEs reposted in
 * ring order and published with one doorbell-record write per burst
 * (mem-free receives have no MMIO doorbell: Linux
 * mthca_arbel_post_receive); send WQEs chained through their
 * predecessor's next segment and rung with one send doorbell per 255
 * WQEs (Linux mthca_arbel_post_send, MTHCA_ARBEL_MAX_WQES_PER_SEND_DB).
 */

#include <rte_branch_prediction.h>
#include <rte_prefetch.h>

#include "mthca_rxtx.h"

static __rte_always_inline struct mthca_cqe *
cqe_at(const struct mthca_cq_ring *cq, uint32_t i)
{
	return (struct mthca_cqe *)(cq->cqes + (size_t)(i & cq->mask) * MTHCA_CQE_SIZE);
}

static __rte_always_inline bool
cqe_sw_owned(const struct mthca_cqe *c)
{
	return !(__atomic_load_n(&c->owner, __ATOMIC_RELAXED) & MTHCA_OWNER_HW);
}

static __rte_always_inline bool
cqe_is_error(const struct mthca_cqe *c)
{
	return (c->opcode & MTHCA_CQE_ERR_OPCODE_MASK) == MTHCA_CQE_ERR_OPCODE_MASK;
}

/* Give @p n consumed CQEs back and publish the consumer index once. */
static __rte_always_inline void
cq_release(struct mthca_cq_ring *cq, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		cqe_at(cq, cq->cons + i)->owner = MTHCA_OWNER_HW;
	cq->cons += n;
	/* owner bytes before the set-CI record that lets the HCA reuse them */
	rte_io_wmb();
	*(volatile uint32_t *)cq->set_ci_rec = rte_cpu_to_be_32(cq->cons);
}

static __rte_always_inline void
rx_fill(struct mthca_rxq *rxq, struct rte_mbuf *m, const struct mthca_cqe *c)
{
	struct rte_ib_mbuf_addr *a = rte_ib_mbuf_addr(m);
	uint32_t len = rte_be_to_cpu_32(c->byte_cnt) - MTHCA_GRH_SIZE;

	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	m->port = rxq->port_id;
	m->nb_segs = 1;
	m->next = NULL;
	m->ol_flags = 0;
	m->packet_type = 0;
	a->rx.src_qpn = rte_be_to_cpu_32(c->rqpn) & 0xffffff;
	a->rx.slid = rte_be_to_cpu_16(c->rlid);
	a->rx.pkey_index = (uint16_t)(rte_be_to_cpu_32(c->imm_pkey) >> 16);
	a->rx.sl = c->sl_ipok >> 4;
	a->rx.path_bits = c->g_mlpath & 0x7f;
	a->rx.flags = (c->g_mlpath & 0x80) ? RTE_IB_MBUF_F_GRH : 0;
	a->rx.port = rxq->ib_port;
}

static __rte_always_inline void
rx_post(struct mthca_rxq *rxq, uint32_t slot, struct rte_mbuf *m)
{
	struct mthca_data_seg *d = (void *)(rxq->wqes + ((size_t)slot << 6) + 16);
	uint64_t a = rxq->addr_va ? (uint64_t)(uintptr_t)m->buf_addr : m->buf_iova;

	rxq->elts[slot] = m;
	/* the GRH slot goes into the 40 bytes of headroom before the payload */
	mthca_dseg_set(d, MTHCA_GRH_SIZE + m->buf_len - m->data_off, rxq->lkey,
		       a + m->data_off - MTHCA_GRH_SIZE);
}

uint16_t
mthca_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mthca_rxq *rxq = q;
	struct mthca_cq_ring *cq = &rxq->cq;
	struct rte_mbuf *fresh[MTHCA_RX_BURST_MAX];
	uint32_t done, i, used = 0, got = 0;
	uint64_t bytes = 0;
	bool have;

	if (n > MTHCA_RX_BURST_MAX)
		n = MTHCA_RX_BURST_MAX;
	for (done = 0; done < n; done++)
		if (!cqe_sw_owned(cqe_at(cq, cq->cons + done)))
			break;
	if (done == 0)
		return 0;
	/* owner bytes before the CQE bodies */
	rte_io_rmb();
	have = rte_pktmbuf_alloc_bulk(rxq->mp, fresh, done) == 0;
	if (unlikely(!have))
		rxq->nombuf += done;
	for (i = 0; i < done; i++) {
		const struct mthca_cqe *c = cqe_at(cq, cq->cons + i);
		uint32_t slot = (rxq->head + i) & rxq->mask;
		struct rte_mbuf *m = rxq->elts[slot];

		if (unlikely(cqe_is_error(c) || !have)) {
			/* drop: the same mbuf goes back to the ring */
			rxq->errors += cqe_is_error(c);
			rx_post(rxq, slot, m);
			continue;
		}
		rx_fill(rxq, m, c);
		bytes += m->pkt_len;
		pkts[got++] = m;
		rx_post(rxq, slot, fresh[used++]);
	}
	if (unlikely(have && used < done))
		rte_pktmbuf_free_bulk(fresh + used, done - used);
	rxq->head += done;
	rxq->packets += got;
	rxq->bytes += bytes;
	cq_release(cq, done);
	/* receive WQEs before the RQ record that publishes them */
	rte_io_wmb();
	*(volatile uint32_t *)rxq->rq_rec = rte_cpu_to_be_32(rxq->head & 0xffff);
	return (uint16_t)got;
}

/* Retire send WQEs up to each completion (Linux mthca_poll_one tail accounting). */
static __rte_always_inline void
tx_complete(struct mthca_txq *txq)
{
	struct mthca_cq_ring *cq = &txq->cq;
	uint32_t n = 0, tail = txq->tail;

	for (;;) {
		const struct mthca_cqe *c = cqe_at(cq, cq->cons + n);
		uint32_t index;

		if (!cqe_sw_owned(c))
			break;
		rte_io_rmb();
		index = ((rte_be_to_cpu_32(c->wqe) - txq->send_off) >> txq->shift) & txq->mask;
		if (unlikely(cqe_is_error(c)))
			txq->errors++;
		tail += ((index - txq->last_comp) & txq->mask) ?
			((index - txq->last_comp) & txq->mask) : txq->mask + 1;
		txq->last_comp = index;
		n++;
	}
	if (n == 0)
		return;
	cq_release(cq, n);
	/* the retired run, freed in bulk up to where the ring wraps */
	while (txq->tail != tail) {
		uint32_t slot = txq->tail & txq->mask;
		uint32_t run = RTE_MIN(tail - txq->tail, txq->mask + 1 - slot);

		rte_pktmbuf_free_bulk(&txq->elts[slot], run);
		memset(&txq->elts[slot], 0, sizeof(txq->elts[0]) * run);
		txq->tail += run;
	}
}

static __rte_always_inline struct mthca_next_seg *
sq_wqe(struct mthca_txq *txq, uint32_t ind)
{
	return (struct mthca_next_seg *)(txq->wqes + ((size_t)(ind & txq->mask) << txq->shift));
}

static __rte_always_inline void
tx_ring(struct mthca_txq *txq, uint32_t start, uint32_t nreq, uint32_t size0)
{
	/* WQEs before the SQ record, the record before the doorbell */
	rte_io_wmb();
	*(volatile uint32_t *)txq->sq_rec = rte_cpu_to_be_32(txq->head & 0xffff);
	rte_io_wmb();
	mthca_doorbell64(txq->db, mthca_send_db_hi(nreq, start, MTHCA_OPCODE_SEND),
			 mthca_send_db_lo(txq->qpn, size0));
}

uint16_t
mthca_tx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mthca_txq *txq = q;
	uint32_t room, i, nreq = 0, start = txq->head, size0 = 0;
	struct mthca_next_seg *last = NULL;
	uint64_t bytes = 0;
	uint32_t first;

	tx_complete(txq);
	first = txq->head;
	room = txq->mask + 1 - (txq->head - txq->tail);
	if (n > room)
		n = (uint16_t)room;
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i], *s;
		const struct rte_ib_mbuf_addr *a = rte_ib_mbuf_addr(m);
		const struct mthca_ah *ah = (const struct mthca_ah *)a->tx.ah;
		struct mthca_next_seg *w, *prev;
		struct mthca_data_seg *d;
		uint32_t size, ind = txq->head;

		if (unlikely(ah == NULL || m->nb_segs > MTHCA_TX_MAX_SEGS)) {
			/* never sent: counted and freed */
			txq->errors++;
			txq->no_ah += ah == NULL;
			rte_pktmbuf_free(m);
			continue;
		}
		w = sq_wqe(txq, ind);
		mthca_next_set_flags(w, MTHCA_NEXT_ALWAYS1);
		mthca_ud_seg_set((struct mthca_ud_seg *)(w + 1), ah->av, a->tx.dest_qpn,
				 a->tx.qkey);
		d = (struct mthca_data_seg *)((uint8_t *)(w + 1) + sizeof(struct mthca_ud_seg));
		for (s = m; s != NULL; s = s->next, d++)
			mthca_dseg_set(d, s->data_len, txq->lkey, rte_mbuf_data_iova(s));
		size = (sizeof(struct mthca_next_seg) + sizeof(struct mthca_ud_seg)) / 16 +
		       m->nb_segs;
		txq->elts[ind & txq->mask] = m;
		bytes += m->pkt_len;
		/* opcode and address first, then DBD and size (Linux mthca_arbel_post_send) */
		prev = sq_wqe(txq, ind - 1);
		mthca_next_set_op(prev, txq->send_off + ((ind & txq->mask) << txq->shift),
				  MTHCA_OPCODE_SEND);
		rte_io_wmb();
		mthca_next_set_nds(prev, size);
		if (nreq == 0)
			size0 = size;
		last = w;
		txq->head++;
		if (++nreq == MTHCA_MAX_WQES_PER_DB) {
			mthca_next_set_flags(last, MTHCA_NEXT_ALWAYS1 | MTHCA_NEXT_CQ_UPDATE);
			tx_ring(txq, start, nreq, size0);
			start = txq->head;
			nreq = 0;
			last = NULL;
		}
	}
	if (nreq != 0) {
		/* one completion per batch retires all of it */
		mthca_next_set_flags(last, MTHCA_NEXT_ALWAYS1 | MTHCA_NEXT_CQ_UPDATE);
		tx_ring(txq, start, nreq, size0);
	}
	txq->packets += txq->head - first;
	txq->bytes += bytes;
	return (uint16_t)i;
}
