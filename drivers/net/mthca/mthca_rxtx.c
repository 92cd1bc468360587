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
#include <rte_ethdev.h>
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

/*
 * Fill the mbuf of a good receive completion. Its header lines were
 * prefetched; next, nb_segs and refcnt are what every mbuf in a mempool
 * has (rte_pktmbuf_prefree_seg() resets them), so one 64-bit store of
 * the queue's template sets data_off, refcnt, nb_segs and port
 * (DPDK's rearm_data, as i40e's and mlx5's receive paths do).
 */
static __rte_always_inline uint32_t
rx_fill(const struct mthca_rxq *rxq, struct rte_mbuf *m, const struct mthca_cqe *c)
{
	struct rte_ib_mbuf_addr *a = RTE_MBUF_DYNFIELD(m, rxq->dynoff, struct rte_ib_mbuf_addr *);
	uint32_t len = rte_be_to_cpu_32(c->byte_cnt) - MTHCA_GRH_SIZE;
	uint8_t g = c->g_mlpath;

	*(uint64_t *)RTE_PTR_ADD(m, offsetof(struct rte_mbuf, rearm_data)) = rxq->mbuf_init;
	m->ol_flags = 0;
	m->packet_type = 0;
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	a->rx.src_qpn = rte_be_to_cpu_32(c->rqpn) & 0xffffff;
	a->rx.slid = rte_be_to_cpu_16(c->rlid);
	a->rx.pkey_index = (uint16_t)(rte_be_to_cpu_32(c->imm_pkey) >> 16);
	a->rx.sl = c->sl_ipok >> 4;
	a->rx.path_bits = g & 0x7f;
	a->rx.flags = (g & 0x80) ? RTE_IB_MBUF_F_GRH : 0;
	a->rx.port = rxq->ib_port;
	return len;
}

/*
 * Post a fresh mbuf in receive WQE @p slot. Only the address changes:
 * byte count and L_Key are the same for every mbuf of the queue's pool
 * and were written when the queue started (mthca_rxq_start); the GRH
 * goes into the 40 bytes of headroom before the payload.
 */
static __rte_always_inline void
rx_post(struct mthca_rxq *rxq, uint32_t slot, struct rte_mbuf *m)
{
	struct mthca_data_seg *d = (void *)(rxq->wqes + ((size_t)slot << 6) + 16);
	uint64_t a = rxq->addr_va ? (uint64_t)(uintptr_t)m->buf_addr : m->buf_iova;

	rxq->elts[slot] = m;
	d->addr = rte_cpu_to_be_64(a + rxq->buf_off);
}

/* Out of mbufs: drop the @p done completions, their mbufs stay in the ring. */
static __rte_noinline __rte_cold void
rx_drop_all(struct mthca_rxq *rxq, uint32_t done)
{
	uint32_t i;

	rxq->nombuf += done;
	for (i = 0; i < done; i++)
		rxq->errors += cqe_is_error(cqe_at(&rxq->cq, rxq->cq.cons + i));
}

#define RX_PREFETCH	4	/* mbufs prefetched ahead of the one being filled */

uint16_t
mthca_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mthca_rxq *rxq = q;
	struct mthca_cq_ring *cq = &rxq->cq;
	struct rte_mbuf *fresh[MTHCA_RX_BURST_MAX];
	uint32_t done, i, got = 0, cons = cq->cons, head = rxq->head, mask = rxq->mask;
	uint64_t bytes = 0;

	if (n > MTHCA_RX_BURST_MAX)
		n = MTHCA_RX_BURST_MAX;
	for (done = 0; done < n; done++)
		if (!cqe_sw_owned(cqe_at(cq, cons + done)))
			break;
	if (done == 0)
		return 0;
	/* owner bytes before the CQE bodies */
	rte_io_rmb();
	for (i = 0; i < RTE_MIN(done, (uint32_t)RX_PREFETCH); i++) {
		struct rte_mbuf *m = rxq->elts[(head + i) & mask];

		rte_prefetch0(m);
		rte_prefetch0(RTE_PTR_ADD(m, RTE_CACHE_LINE_SIZE));
	}
	/* raw objects: rx_fill() writes what rte_pktmbuf_reset() would */
	if (unlikely(rte_mempool_get_bulk(rxq->mp, (void **)fresh, done) != 0)) {
		rx_drop_all(rxq, done);
		goto release;
	}
	for (i = 0; i < done; i++) {
		const struct mthca_cqe *c = cqe_at(cq, cons + i);
		uint32_t slot = (head + i) & mask;
		struct rte_mbuf *m = rxq->elts[slot];

		if (i + RX_PREFETCH < done) {
			struct rte_mbuf *p = rxq->elts[(slot + RX_PREFETCH) & mask];

			rte_prefetch0(p);
			rte_prefetch0(RTE_PTR_ADD(p, RTE_CACHE_LINE_SIZE));
		}
		if (unlikely(cqe_is_error(c))) {
			/* flushed or failed: the same mbuf goes back to the ring */
			rxq->errors++;
			rte_mempool_put(rxq->mp, fresh[i]);
			continue;
		}
		bytes += rx_fill(rxq, m, c);
		pkts[got++] = m;
		rx_post(rxq, slot, fresh[i]);
	}
	rxq->packets += got;
	rxq->bytes += bytes;
release:
	rxq->head = head + done;
	cq_release(cq, done);
	/* receive WQEs before the RQ record that publishes them */
	rte_io_wmb();
	*(volatile uint32_t *)rxq->rq_rec = rte_cpu_to_be_32(rxq->head & 0xffff);
	return (uint16_t)got;
}

int
mthca_rx_descriptor_status(void *q, uint16_t offset)
{
	struct mthca_rxq *rxq = q;

	if (unlikely(offset > rxq->mask))
		return -EINVAL;
	/* every RQ slot holds a posted WQE: done once its completion is ours */
	if (cqe_sw_owned(cqe_at(&rxq->cq, rxq->cq.cons + offset)))
		return RTE_ETH_RX_DESC_DONE;
	return RTE_ETH_RX_DESC_AVAIL;
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

		/* slots outside [tail, head) hold stale pointers nobody reads */
		rte_pktmbuf_free_bulk(&txq->elts[slot], run);
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
