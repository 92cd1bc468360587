/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * net_mthca's bursts (drivers/net/mthca/mthca_rxtx.c) on queues laid out
 * in memory as the HCA sees them: CQEs written here in the format the
 * HCA writes (Linux struct mthca_cqe), WQEs and doorbell records read
 * back in the format the HCA reads (PRM wqe_segment_next / ud / data,
 * send_doorbell). What the fabric tests cannot reach: error completions
 * in the middle of a receive burst, an empty mempool, every rte_ib
 * receive field with values other than 0, CQ and RQ rings that wrap
 * (together or one first: a burst stops at the first ring's end), the
 * transmit retire paths (fast free with and without a chain among the
 * retired, rte_pktmbuf_free_bulk without fast free), a send burst that
 * finds the ring full and reaps before it posts, and a send burst of
 * more WQEs than one doorbell may name, send error completions (counted
 * by syndrome, the queue handed to the transmit watch).
 * No mempool cache: rte_mempool_avail_count() is exact, so every mbuf
 * is accounted for after each case.
 */

#include <string.h>

#include <rte_eal.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include <rte_ib_mbuf.h>

#include "mthca_rxtx.h"
#include "test.h"

#define NB	16	/* ring size of every queue here */
#define POOL	512

static struct rte_mempool *pool;
static int dynoff;

/* ---- receive ------------------------------------------------------------ */

static struct {
	struct mthca_rxq *q;
	uint8_t *cqes, *wqes;
	uint32_t set_ci, rq_rec;
} rx;

static uint64_t
wqe_addr(uint32_t slot)
{
	const struct mthca_data_seg *d = (const void *)(rx.wqes + slot * 64 + 16);

	return rte_be_to_cpu_64(d->addr);
}

static int
rx_setup(void)
{
	struct rte_mbuf t;
	uint32_t i;

	rx.q = rte_zmalloc(NULL, sizeof(*rx.q), RTE_CACHE_LINE_SIZE);
	rx.cqes = rte_zmalloc(NULL, NB * MTHCA_CQE_SIZE, 64);
	rx.wqes = rte_zmalloc(NULL, NB * 64, 64);
	TEST_ASSERT(rx.q != NULL && rx.cqes != NULL && rx.wqes != NULL, "rte_zmalloc");
	rx.q->elts = rte_zmalloc(NULL, NB * sizeof(*rx.q->elts), 0);
	TEST_ASSERT(rx.q->elts != NULL, "rte_zmalloc");
	for (i = 0; i < NB; i++)
		rx.cqes[i * MTHCA_CQE_SIZE + 31] = MTHCA_OWNER_HW;
	rx.q->cq.cqes = rx.cqes;
	rx.q->cq.mask = NB - 1;
	rx.q->cq.set_ci_rec = (volatile uint8_t *)&rx.set_ci;
	rx.q->wqes = rx.wqes;
	rx.q->mask = NB - 1;
	rx.q->rq_rec = (volatile uint8_t *)&rx.rq_rec;
	rx.q->mp = pool;
	rx.q->ib_port = 2;
	rx.q->port_id = 7;
	rx.q->dynoff = dynoff;
	rx.q->buf_off = RTE_PKTMBUF_HEADROOM - MTHCA_GRH_SIZE;
	rx.q->addr_field = offsetof(struct rte_mbuf, buf_iova);
	memset(&t, 0, sizeof(t));
	t.data_off = RTE_PKTMBUF_HEADROOM;
	rte_mbuf_refcnt_set(&t, 1);
	t.nb_segs = 1;
	t.port = 7;
	rx.q->mbuf_init = *(const uint64_t *)(uintptr_t)&t.rearm_data;
	/* as mthca_rxq_start() leaves the ring: every slot posted */
	TEST_ASSERT_SUCCESS(rte_pktmbuf_alloc_bulk(pool, rx.q->elts, NB), "ring mbufs");
	for (i = 0; i < NB; i++) {
		struct mthca_data_seg *d = (void *)(rx.wqes + i * 64 + 16);

		d->addr = rte_cpu_to_be_64(rx.q->elts[i]->buf_iova + rx.q->buf_off);
	}
	rx.q->head = NB;
	return TEST_SUCCESS;
}

static void
rx_teardown(void)
{
	if (rx.q != NULL && rx.q->elts != NULL) {
		rte_pktmbuf_free_bulk(rx.q->elts, NB);
		rte_free(rx.q->elts);
	}
	rte_free(rx.q);
	rte_free(rx.cqes);
	rte_free(rx.wqes);
	memset(&rx, 0, sizeof(rx));
}

/* A receive CQE in slot @p i as the HCA writes it, software-owned. */
static void
rx_cqe(uint32_t i, uint32_t rqpn, uint8_t sl, uint8_t g_path, uint16_t rlid, uint16_t pkey_ix,
       uint32_t payload, bool error)
{
	struct mthca_cqe *c = (void *)(rx.cqes + (i & (NB - 1)) * MTHCA_CQE_SIZE);

	memset(c, 0, sizeof(*c));
	c->my_qpn = rte_cpu_to_be_32(0x48);
	c->rqpn = rte_cpu_to_be_32(rqpn);
	c->sl_ipok = (uint8_t)(sl << 4);
	c->g_mlpath = g_path;
	c->rlid = rte_cpu_to_be_16(rlid);
	c->imm_pkey = rte_cpu_to_be_32((uint32_t)pkey_ix << 16);
	c->byte_cnt = rte_cpu_to_be_32(MTHCA_GRH_SIZE + payload);
	c->opcode = error ? 0xfe : 0;
	rte_io_wmb();
	c->owner = 0;
}

static int
check_rx_mbuf(struct rte_mbuf *m, uint32_t qpn, uint8_t sl, uint8_t path, bool grh,
	      uint16_t slid, uint16_t pkey_ix, uint32_t len)
{
	const struct rte_ib_mbuf_addr *a = rte_ib_mbuf_addr(m);

	TEST_ASSERT_EQUAL(m->pkt_len, len, "pkt_len");
	TEST_ASSERT_EQUAL(m->data_len, len, "data_len");
	TEST_ASSERT_EQUAL(m->data_off, RTE_PKTMBUF_HEADROOM, "data_off");
	TEST_ASSERT_EQUAL(m->nb_segs, 1, "nb_segs");
	TEST_ASSERT_EQUAL(m->port, 7, "port");
	TEST_ASSERT_EQUAL(rte_mbuf_refcnt_read(m), 1, "refcnt");
	TEST_ASSERT(m->ol_flags == 0 && m->packet_type == 0 && m->next == NULL, "clean mbuf");
	TEST_ASSERT_EQUAL(a->rx.src_qpn, qpn, "src_qpn");
	TEST_ASSERT_EQUAL(a->rx.slid, slid, "slid");
	TEST_ASSERT_EQUAL(a->rx.pkey_index, pkey_ix, "pkey_index");
	TEST_ASSERT_EQUAL(a->rx.sl, sl, "sl");
	TEST_ASSERT_EQUAL(a->rx.path_bits, path, "path_bits");
	TEST_ASSERT_EQUAL(a->rx.flags, grh ? RTE_IB_MBUF_F_GRH : 0, "flags");
	TEST_ASSERT_EQUAL(a->rx.port, 2, "IB port");
	TEST_ASSERT((rte_ib_mbuf_grh(m) != NULL) == grh, "rte_ib_mbuf_grh()");
	return TEST_SUCCESS;
}

/* Every field of every good completion; an error's slot keeps its mbuf and WQE. */
static int
test_rx_fields_and_error(void)
{
	struct rte_mbuf *pkts[32], *old[NB];
	unsigned int avail = rte_mempool_avail_count(pool);
	uint32_t i;

	memcpy(old, rx.q->elts, sizeof(old));
	TEST_ASSERT_EQUAL(mthca_rx_burst(rx.q, pkts, 32), 0, "empty CQ");
	rx_cqe(0, 0x00abcdef, 0, 0x00, 0x0001, 0, 64, false);
	rx_cqe(1, 0xff123456, 15, 0x7f, 0xbfff, 0xffff, 2044, false);
	rx_cqe(2, 0, 0, 0, 0, 0, 0, true);
	rx_cqe(3, 0x000001, 5, 0x83, 0x1234, 2, 0, false);
	rx_cqe(4, 0x800002, 9, 0x80, 0xc000, 0x7f, 1, false);
	TEST_ASSERT_EQUAL(mthca_rx_burst(rx.q, pkts, 32), 4, "4 good of 5 completions");
	TEST_ASSERT_EQUAL(rx.q->errors, 1, "errors");
	TEST_ASSERT_EQUAL(rx.q->packets, 4, "packets");
	TEST_ASSERT_EQUAL(rx.q->bytes, 64 + 2044 + 0 + 1, "bytes");
	if (check_rx_mbuf(pkts[0], 0xabcdef, 0, 0, false, 1, 0, 64) != TEST_SUCCESS ||
	    check_rx_mbuf(pkts[1], 0x123456, 15, 0x7f, false, 0xbfff, 0xffff, 2044) !=
	    TEST_SUCCESS ||
	    check_rx_mbuf(pkts[2], 1, 5, 3, true, 0x1234, 2, 0) != TEST_SUCCESS ||
	    check_rx_mbuf(pkts[3], 0x800002, 9, 0, true, 0xc000, 0x7f, 1) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT(pkts[0] == old[0] && pkts[1] == old[1] && pkts[2] == old[3] &&
		    pkts[3] == old[4], "the ring's mbufs, in order");
	for (i = 0; i < 5; i++) {
		struct rte_mbuf *m = rx.q->elts[i];

		TEST_ASSERT_EQUAL(rx.cqes[i * MTHCA_CQE_SIZE + 31], MTHCA_OWNER_HW,
				  "CQE %u back to the HCA", i);
		TEST_ASSERT((i == 2) == (m == old[i]), "slot %u: fresh mbuf unless it failed", i);
		TEST_ASSERT_EQUAL(wqe_addr(i), m->buf_iova + RTE_PKTMBUF_HEADROOM - MTHCA_GRH_SIZE,
				  "slot %u: WQE address", i);
	}
	TEST_ASSERT_EQUAL(rx.q->cq.cons, 5, "consumer index");
	TEST_ASSERT_EQUAL(rx.set_ci, rte_cpu_to_be_32(5), "set-CI record");
	TEST_ASSERT_EQUAL(rx.q->head, NB + 5, "RQ head");
	TEST_ASSERT_EQUAL(rx.rq_rec, rte_cpu_to_be_32(NB + 5), "RQ record");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(pool), avail - 4, "4 fresh mbufs taken");
	rte_pktmbuf_free_bulk(pkts, 4);
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(pool), avail, "no mbuf lost");
	return TEST_SUCCESS;
}

/* A burst that wraps the CQ and the RQ; a smaller request takes only what it asks. */
/*
 * 8 completions from CQ slot @p cons on, the RQ at @p head: each burst
 * stops where the first of the two rings ends (the first after @p first
 * completions), the next goes on from there; all 8 in at most 3 calls.
 */
static int
rx_wrap_case(uint32_t cons, uint32_t head, uint32_t first)
{
	struct rte_mbuf *pkts[32];
	unsigned int avail = rte_mempool_avail_count(pool);
	uint32_t i, got, calls = 1;
	uint16_t k;

	rx.q->cq.cons = cons;
	rx.q->head = head;
	for (i = 0; i < 8; i++)
		rx_cqe(cons + i, 0x100 + i, 1, 0, 0x20 + i, 0, 100 + i, false);
	got = mthca_rx_burst(rx.q, pkts, 32);
	TEST_ASSERT_EQUAL(got, first, "up to the first ring's end");
	for (; got < 8 && calls < 3; got += k, calls++) {
		k = mthca_rx_burst(rx.q, pkts + got, 32);
		TEST_ASSERT(k > 0, "call %u: more", calls + 1);
	}
	TEST_ASSERT_EQUAL(got, 8, "all 8 in %u calls", calls);
	TEST_ASSERT_EQUAL(mthca_rx_burst(rx.q, pkts + got, 32), 0, "no more");
	for (i = 0; i < 8; i++)
		if (check_rx_mbuf(pkts[i], 0x100 + i, 1, 0, false, 0x20 + i, 0, 100 + i) !=
		    TEST_SUCCESS)
			return TEST_FAILED;
	for (i = 0; i < 8; i++) {
		uint32_t slot = (head + i) & (NB - 1);

		TEST_ASSERT_EQUAL(wqe_addr(slot), rx.q->elts[slot]->buf_iova + rx.q->buf_off,
				  "WQE %u: its fresh mbuf's address", i);
	}
	TEST_ASSERT_EQUAL(rx.q->cq.cons, cons + 8, "consumer index");
	TEST_ASSERT_EQUAL(rx.set_ci, rte_cpu_to_be_32(cons + 8), "set-CI record");
	TEST_ASSERT_EQUAL(rx.rq_rec, rte_cpu_to_be_32(head + 8), "RQ record");
	for (i = 0; i < NB; i++)
		TEST_ASSERT_EQUAL(rx.cqes[i * MTHCA_CQE_SIZE + 31], MTHCA_OWNER_HW, "CQE %u", i);
	rte_pktmbuf_free_bulk(pkts, 8);
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(pool), avail, "no mbuf lost");
	return TEST_SUCCESS;
}

/* Both rings wrap inside 8 completions: together, the CQ first, the RQ first. */
static int
test_rx_wrap(void)
{
	if (rx_wrap_case(NB - 3, 2 * NB - 3, 3) != TEST_SUCCESS ||
	    rx_wrap_case(3 * NB - 5, 4 * NB - 2, 2) != TEST_SUCCESS ||
	    rx_wrap_case(4 * NB - 2, 5 * NB - 6, 2) != TEST_SUCCESS)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

/* No mbuf to refill: the completions are dropped and counted, the ring keeps its mbufs. */
static int
test_rx_nombuf(void)
{
	struct rte_mbuf *pkts[32], *old[NB];
	void *all[POOL];
	unsigned int n = rte_mempool_avail_count(pool);

	memcpy(old, rx.q->elts, sizeof(old));
	TEST_ASSERT_SUCCESS(rte_mempool_get_bulk(pool, all, n), "empty the pool");
	rx_cqe(0, 1, 0, 0, 1, 0, 10, false);
	rx_cqe(1, 1, 0, 0, 1, 0, 10, true);
	TEST_ASSERT_EQUAL(mthca_rx_burst(rx.q, pkts, 32), 0, "nothing without mbufs");
	TEST_ASSERT_EQUAL(rx.q->nombuf, 2, "nombuf");
	TEST_ASSERT_EQUAL(rx.q->errors, 1, "errors");
	TEST_ASSERT(memcmp(old, rx.q->elts, sizeof(old)) == 0, "ring unchanged");
	TEST_ASSERT_EQUAL(rx.q->cq.cons, 2, "completions consumed");
	TEST_ASSERT(rx.cqes[31] == MTHCA_OWNER_HW && rx.cqes[MTHCA_CQE_SIZE + 31] == MTHCA_OWNER_HW,
		    "CQEs back to the HCA");
	TEST_ASSERT_EQUAL(rx.rq_rec, rte_cpu_to_be_32(NB + 2), "WQEs posted again");
	rte_mempool_put_bulk(pool, all, n);
	rx_cqe(2, 1, 0, 0, 1, 0, 10, false);
	TEST_ASSERT_EQUAL(mthca_rx_burst(rx.q, pkts, 32), 1, "traffic resumes");
	rte_pktmbuf_free(pkts[0]);
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(pool), n, "no mbuf lost");
	return TEST_SUCCESS;
}

/* ---- transmit ----------------------------------------------------------- */

#define SQ_SHIFT	MTHCA_TX_WQE_SHIFT
#define SEND_OFF	0x1000
#define QPN		0x4a

static struct {
	struct mthca_txq *q;
	struct mthca_ah *ah;
	uint8_t *cqes, *wqes;
	uint32_t set_ci, sq_rec;
	uint64_t db;
} tx;

static int
tx_setup_n(bool fast_free, uint32_t nb)
{
	uint32_t i;

	tx.q = rte_zmalloc(NULL, sizeof(*tx.q), RTE_CACHE_LINE_SIZE);
	tx.ah = rte_zmalloc(NULL, sizeof(*tx.ah), 16);
	tx.cqes = rte_zmalloc(NULL, nb * MTHCA_CQE_SIZE, 64);
	tx.wqes = rte_zmalloc(NULL, (size_t)nb << SQ_SHIFT, 64);
	TEST_ASSERT(tx.q != NULL && tx.ah != NULL && tx.cqes != NULL && tx.wqes != NULL,
		    "rte_zmalloc");
	tx.q->elts = rte_zmalloc(NULL, nb * sizeof(*tx.q->elts), 0);
	TEST_ASSERT(tx.q->elts != NULL, "rte_zmalloc");
	for (i = 0; i < nb; i++)
		tx.cqes[i * MTHCA_CQE_SIZE + 31] = MTHCA_OWNER_HW;
	for (i = 0; i < MTHCA_AV_SIZE; i++)
		tx.ah->av[i] = (uint8_t)(0xa0 + i);
	tx.q->cq.cqes = tx.cqes;
	tx.q->cq.mask = nb - 1;
	tx.q->cq.set_ci_rec = (volatile uint8_t *)&tx.set_ci;
	tx.q->wqes = tx.wqes;
	tx.q->mask = nb - 1;
	tx.q->send_off = SEND_OFF;
	tx.q->last_comp = nb - 1;	/* as mthca_txq_start() */
	tx.q->sq_rec = (volatile uint8_t *)&tx.sq_rec;
	tx.q->db = (volatile uint8_t *)&tx.db;
	tx.q->qpn = QPN;
	tx.q->lkey_be = rte_cpu_to_be_32(0x1234);
	tx.q->dynoff = dynoff;
	tx.q->fast_free = fast_free;
	tx.q->prefetchw = mthca_cpu_has_prfchw();	/* as mthca_tx_queue_setup() */
	return TEST_SUCCESS;
}

static int
tx_setup(bool fast_free)
{
	return tx_setup_n(fast_free, NB);
}

static int
tx_setup_fast_free(void)
{
	return tx_setup(true);
}

static int
tx_setup_plain(void)
{
	return tx_setup(false);
}

static void
tx_teardown(void)
{
	if (tx.q != NULL && tx.q->elts != NULL) {
		for (; tx.q->tail != tx.q->head; tx.q->tail++)
			rte_pktmbuf_free(mthca_tx_elt(tx.q->elts[tx.q->tail & tx.q->mask]));
		rte_free(tx.q->elts);
	}
	rte_free(tx.q);
	rte_free(tx.ah);
	rte_free(tx.cqes);
	rte_free(tx.wqes);
	memset(&tx, 0, sizeof(tx));
}

/* A packet of @p nseg segments of @p len bytes each, addressed through tx.ah (or none). */
static struct rte_mbuf *
tx_pkt(unsigned int nseg, uint16_t len, bool ah)
{
	struct rte_mbuf *m = NULL, *s;
	unsigned int i;

	for (i = 0; i < nseg; i++) {
		s = rte_pktmbuf_alloc(pool);
		if (s == NULL || rte_pktmbuf_append(s, len) == NULL)
			return NULL;
		if (m == NULL)
			m = s;
		else if (rte_pktmbuf_chain(m, s) != 0)
			return NULL;
	}
	rte_ib_mbuf_addr(m)->tx.ah = ah ? &tx.ah->ib : NULL;
	rte_ib_mbuf_addr(m)->tx.dest_qpn = 0xff000000 | (QPN + 1);
	rte_ib_mbuf_addr(m)->tx.qkey = 0x80010000;
	return m;
}

static const struct mthca_next_seg *
sq_wqe(uint32_t i)
{
	return (const void *)(tx.wqes + ((i & tx.q->mask) << SQ_SHIFT));
}

/* The WQE of slot @p i for @p m, and its predecessor's link to it. */
static int
check_wqe(uint32_t i, struct rte_mbuf *m, bool signalled)
{
	const struct mthca_next_seg *w = sq_wqe(i), *prev = sq_wqe(i - 1);
	const struct mthca_ud_seg *u = (const void *)(w + 1);
	const struct mthca_data_seg *d = (const void *)(u + 1);
	uint32_t size = 4 + m->nb_segs;
	struct rte_mbuf *s;

	TEST_ASSERT_EQUAL(rte_be_to_cpu_32(w->flags), MTHCA_NEXT_ALWAYS1 |
			  (signalled ? MTHCA_NEXT_CQ_UPDATE : 0), "WQE %u flags", i);
	TEST_ASSERT_BUFFERS_EQUAL(u->av, tx.ah->av, MTHCA_AV_SIZE, "WQE %u address vector", i);
	TEST_ASSERT_EQUAL(rte_be_to_cpu_32(u->dqpn), QPN + 1, "WQE %u DQPN, 24 bits", i);
	TEST_ASSERT_EQUAL(rte_be_to_cpu_32(u->qkey), 0x80010000, "WQE %u Q_Key", i);
	TEST_ASSERT(u->reserved[0] == 0 && u->reserved[1] == 0, "WQE %u reserved", i);
	for (s = m; s != NULL; s = s->next, d++) {
		TEST_ASSERT_EQUAL(rte_be_to_cpu_32(d->byte_count), s->data_len, "byte count");
		TEST_ASSERT_EQUAL(rte_be_to_cpu_32(d->lkey), 0x1234, "L_Key");
		TEST_ASSERT_EQUAL(rte_be_to_cpu_64(d->addr), rte_mbuf_data_iova(s), "address");
	}
	TEST_ASSERT_EQUAL(rte_be_to_cpu_32(prev->nda_op),
			  (SEND_OFF + ((i & tx.q->mask) << SQ_SHIFT)) | MTHCA_OPCODE_SEND,
			  "WQE %u linked from its predecessor", i);
	TEST_ASSERT_EQUAL(rte_be_to_cpu_32(prev->ee_nds), MTHCA_NEXT_DBD | size,
			  "WQE %u size in its predecessor", i);
	return TEST_SUCCESS;
}

/* The send completion of WQE @p i in CQ slot @p c. */
static void
tx_cqe(uint32_t c, uint32_t i)
{
	struct mthca_cqe *e = (void *)(tx.cqes + (c & tx.q->cq.mask) * MTHCA_CQE_SIZE);

	memset(e, 0, sizeof(*e));
	e->my_qpn = rte_cpu_to_be_32(QPN);
	e->wqe = rte_cpu_to_be_32(SEND_OFF + ((i & tx.q->mask) << SQ_SHIFT));
	e->is_send = 0x80;
	rte_io_wmb();
	e->owner = 0;
}

/*
 * One burst: a packet, one without an AH (counted, freed), a chain of 3;
 * WQEs, doorbell record and doorbell; then the one completion retires both.
 */
static int
test_tx_burst_and_retire(void)
{
	unsigned int avail = rte_mempool_avail_count(pool);
	struct rte_mbuf *p[3];
	uint64_t hi, lo;

	p[0] = tx_pkt(1, 60, true);
	p[1] = tx_pkt(1, 60, false);
	p[2] = tx_pkt(3, 100, true);
	TEST_ASSERT(p[0] != NULL && p[1] != NULL && p[2] != NULL, "packets");
	TEST_ASSERT_EQUAL(mthca_tx_burst(tx.q, p, 3), 3, "all 3 taken");
	TEST_ASSERT_EQUAL(tx.q->head, 2, "2 WQEs");
	TEST_ASSERT(tx.q->errors == 1 && tx.q->no_ah == 1, "the one without an AH counted");
	TEST_ASSERT(tx.q->packets == 2 && tx.q->bytes == 60 + 300, "packets, bytes");
	if (check_wqe(0, p[0], false) != TEST_SUCCESS || check_wqe(1, p[2], true) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_EQUAL(tx.sq_rec, rte_cpu_to_be_32(2), "SQ record");
	hi = rte_be_to_cpu_64(tx.db) >> 32;
	lo = rte_be_to_cpu_64(tx.db) & 0xffffffff;
	TEST_ASSERT_EQUAL(hi, (2u << 24) | (0u << 8) | MTHCA_OPCODE_SEND,
			  "doorbell: 2 WQEs from counter 0, SEND");
	TEST_ASSERT_EQUAL(lo, (QPN << 8) | 5u, "doorbell: QPN, first WQE's size");
	TEST_ASSERT(tx.q->elts[0] == p[0], "slot 0");
	TEST_ASSERT(mthca_tx_elt(tx.q->elts[1]) == p[2] &&
		    (((uintptr_t)tx.q->elts[1] & MTHCA_TX_ELT_CHAIN) != 0) == tx.q->fast_free,
		    "slot 1: the chain, tagged under fast free");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(pool), avail - 4, "4 mbufs in flight");
	TEST_ASSERT_EQUAL(tx.q->chains, tx.q->fast_free ? 1u : 0u, "chains in flight counted");
	tx_cqe(0, 1);
	TEST_ASSERT_EQUAL(mthca_tx_burst(tx.q, NULL, 0), 0, "retire only");
	TEST_ASSERT_EQUAL(tx.q->tail, 2, "both retired by one completion");
	TEST_ASSERT_EQUAL(tx.set_ci, rte_cpu_to_be_32(1), "set-CI record");
	TEST_ASSERT_EQUAL(tx.cqes[31], MTHCA_OWNER_HW, "CQE back to the HCA");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(pool), avail, "every segment freed");
	TEST_ASSERT_EQUAL(tx.q->chains, 0, "no chain in flight");
	return TEST_SUCCESS;
}

/* An error completion of send WQE @p i in CQ slot @p c, syndrome @p synd (opcode 0xff). */
static void
tx_err_cqe(uint32_t c, uint32_t i, uint8_t synd)
{
	struct mthca_cqe *e = (void *)(tx.cqes + (c & tx.q->cq.mask) * MTHCA_CQE_SIZE);

	memset(e, 0, sizeof(*e));
	e->my_qpn = rte_cpu_to_be_32(QPN);
	e->wqe = rte_cpu_to_be_32(SEND_OFF + ((i & tx.q->mask) << SQ_SHIFT));
	e->opcode = 0xff;
	((uint8_t *)e)[MTHCA_CQE_SYNDROME] = synd;
	rte_io_wmb();
	e->owner = 0;
}

/*
 * An error completion (IBA 10.3.1: the QP is in ERR now): WQE 0 went
 * unsignalled before it, WQE 1 failed (local protection), WQEs 2 and 3
 * flushed. The burst that reaps them counts each by syndrome, frees every
 * mbuf once, and hands the queue over (stalled); later bursts take
 * nothing and touch neither the ring, its record nor the doorbell.
 */
static int
test_tx_error_stalls(void)
{
	unsigned int avail = rte_mempool_avail_count(pool), i;
	struct rte_mbuf *p[4];
	uint32_t sq_rec;
	uint64_t db;

	for (i = 0; i < RTE_DIM(p); i++) {
		p[i] = tx_pkt(1, 64, true);
		TEST_ASSERT(p[i] != NULL, "packet");
	}
	TEST_ASSERT_EQUAL(mthca_tx_burst(tx.q, p, 4), 4, "4 posted");
	tx_err_cqe(0, 1, MTHCA_SYND_LOCAL_PROT);
	tx_err_cqe(1, 2, MTHCA_SYND_WR_FLUSH);
	tx_err_cqe(2, 3, MTHCA_SYND_WR_FLUSH);
	TEST_ASSERT_EQUAL(mthca_tx_burst(tx.q, NULL, 0), 0, "retire only");
	TEST_ASSERT_EQUAL(tx.q->tail, 4, "all 4 retired");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(pool), avail, "every mbuf freed once");
	TEST_ASSERT_EQUAL(tx.q->err_cqe[MTHCA_TX_ERR_LOCAL_PROT], 1, "local protection error");
	for (i = 0; i < MTHCA_TX_ERR_NUM; i++)
		if (i != MTHCA_TX_ERR_LOCAL_PROT)
			TEST_ASSERT_EQUAL(tx.q->err_cqe[i], 0, "syndrome class %u", i);
	TEST_ASSERT_EQUAL(tx.q->flushed, 2, "2 flushed");
	TEST_ASSERT_EQUAL(tx.q->errors, 3, "errors: the failed and the flushed");
	TEST_ASSERT_EQUAL(tx.q->stalled, 1, "the queue handed over");
	TEST_ASSERT_EQUAL(tx.set_ci, rte_cpu_to_be_32(3), "set-CI record");
	sq_rec = tx.sq_rec;
	db = tx.db;
	p[0] = tx_pkt(1, 64, true);
	TEST_ASSERT(p[0] != NULL, "packet");
	TEST_ASSERT_EQUAL(mthca_tx_burst(tx.q, p, 1), 0, "nothing taken while stalled");
	TEST_ASSERT_EQUAL(tx.q->head, 4, "no WQE posted");
	TEST_ASSERT(tx.sq_rec == sq_rec && tx.db == db, "no record, no doorbell");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(pool), avail - 1, "the packet is the caller's");
	rte_pktmbuf_free(p[0]);
	return TEST_SUCCESS;
}

#define NB_BIG		512
#define BIG_BURST	300

static int
tx_setup_big(void)
{
	return tx_setup_n(true, NB_BIG);
}

/*
 * More WQEs in one call than a doorbell may name: two batches, each rung
 * with its own doorbell and signalled on its last WQE, linked as one chain.
 */
static int
test_tx_two_doorbells(void)
{
	unsigned int avail = rte_mempool_avail_count(pool), i;
	struct rte_mbuf *p[BIG_BURST];
	uint64_t hi, lo;

	for (i = 0; i < BIG_BURST; i++) {
		p[i] = tx_pkt(1, (uint16_t)(8 + i % 50), true);
		TEST_ASSERT(p[i] != NULL, "packet %u", i);
	}
	TEST_ASSERT_EQUAL(mthca_tx_burst(tx.q, p, BIG_BURST), BIG_BURST, "all taken");
	for (i = 0; i < BIG_BURST; i++)
		if (check_wqe(i, p[i], i == MTHCA_MAX_WQES_PER_DB - 1 || i == BIG_BURST - 1) !=
		    TEST_SUCCESS)
			return TEST_FAILED;
	TEST_ASSERT_EQUAL(tx.sq_rec, rte_cpu_to_be_32(BIG_BURST), "SQ record");
	hi = rte_be_to_cpu_64(tx.db) >> 32;
	lo = rte_be_to_cpu_64(tx.db) & 0xffffffff;
	TEST_ASSERT_EQUAL(hi, ((uint64_t)(BIG_BURST - MTHCA_MAX_WQES_PER_DB) << 24) |
			  (MTHCA_MAX_WQES_PER_DB << 8) | MTHCA_OPCODE_SEND,
			  "last doorbell: the second batch, from counter 255");
	TEST_ASSERT_EQUAL(lo, (QPN << 8) | 5u, "last doorbell: QPN, first WQE's size");
	tx_cqe(0, MTHCA_MAX_WQES_PER_DB - 1);
	tx_cqe(1, BIG_BURST - 1);
	TEST_ASSERT_EQUAL(mthca_tx_burst(tx.q, NULL, 0), 0, "retire only");
	TEST_ASSERT_EQUAL(tx.q->tail, BIG_BURST, "both batches retired");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(pool), avail, "every mbuf freed");
	return TEST_SUCCESS;
}

/* Retired runs of single mbufs across the ring's end, several completions at once. */
static int
test_tx_wrap(void)
{
	unsigned int avail = rte_mempool_avail_count(pool), r, i;
	struct rte_mbuf *p[12];

	for (r = 0; r < 3; r++) {
		for (i = 0; i < RTE_DIM(p); i++) {
			p[i] = tx_pkt(1, (uint16_t)(20 + i), true);
			TEST_ASSERT(p[i] != NULL, "packet");
		}
		TEST_ASSERT_EQUAL(mthca_tx_burst(tx.q, p, 6), 6, "round %u: 6", r);
		TEST_ASSERT_EQUAL(mthca_tx_burst(tx.q, p + 6, 6), 6, "round %u: 6 more", r);
		for (i = 0; i < RTE_DIM(p); i++)
			if (check_wqe(r * 12 + i, p[i], i == 5 || i == 11) != TEST_SUCCESS)
				return TEST_FAILED;
		tx_cqe(2 * r, r * 12 + 5);
		tx_cqe(2 * r + 1, r * 12 + 11);
		TEST_ASSERT_EQUAL(mthca_tx_burst(tx.q, NULL, 0), 0, "retire");
		TEST_ASSERT_EQUAL(tx.q->tail, (r + 1) * 12, "round %u retired", r);
		TEST_ASSERT_EQUAL(rte_mempool_avail_count(pool), avail, "round %u freed", r);
	}
	/* a full ring takes no more until a completion comes */
	for (i = 0; i < NB; i++) {
		struct rte_mbuf *m = tx_pkt(1, 8, true);

		TEST_ASSERT(m != NULL, "packet");
		TEST_ASSERT_EQUAL(mthca_tx_burst(tx.q, &m, 1), 1, "slot %u", i);
	}
	p[0] = tx_pkt(1, 8, true);
	TEST_ASSERT_EQUAL(mthca_tx_burst(tx.q, p, 1), 0, "ring full");
	/*
	 * A completion for the first 4 while the ring is full: the next
	 * burst has no room, so it reaps before it posts, and takes 4 of 5.
	 */
	tx_cqe(6, 36 + 3);
	for (i = 1; i < 5; i++) {
		p[i] = tx_pkt(1, 8, true);
		TEST_ASSERT(p[i] != NULL, "packet");
	}
	TEST_ASSERT_EQUAL(mthca_tx_burst(tx.q, p, 5), 4, "4 taken once 4 retired");
	TEST_ASSERT_EQUAL(tx.q->tail, 36 + 4, "the 4 retired first");
	TEST_ASSERT_EQUAL(tx.q->head, 36 + NB + 4, "ring full again");
	for (i = 0; i < 4; i++)
		if (check_wqe(36 + NB + i, p[i], i == 3) != TEST_SUCCESS)
			return TEST_FAILED;
	rte_pktmbuf_free(p[4]);
	return TEST_SUCCESS;
}

static int
suite_setup(void)
{
	char *argv[] = {
		(char *)"test_mthca_rxtx", (char *)"--no-huge", (char *)"-m", (char *)"64",
		(char *)"--no-pci", (char *)"--no-shconf", (char *)"--file-prefix=test_mthca_rxtx",
		(char *)"--log-level=lib.eal:error", NULL,
	};

	if (rte_eal_init(RTE_DIM(argv) - 1, argv) < 0)
		return -1;
	pool = rte_pktmbuf_pool_create("mthca_rxtx", POOL, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				       SOCKET_ID_ANY);
	dynoff = rte_ib_mbuf_dynfield_register();
	return pool == NULL || dynoff < 0 ? -1 : 0;
}

static void
suite_teardown(void)
{
	rte_mempool_free(pool);
	rte_eal_cleanup();
}

/*
 * tx_burst prefetches the next WQE lines with PREFETCHW only where the CPU
 * reports PRFCHW: the answer must be the kernel's ("3dnowprefetch"), or
 * the burst either falls back to PREFETCHT0 for nothing or runs an
 * opcode the CPU may not have (doc/guides/nics/mthca.rst, "Performance").
 */
static int
test_cpu_prfchw(void)
{
#if defined(RTE_ARCH_X86_64)
	char line[4096];
	bool flag = false, seen = false;
	FILE *f = fopen("/proc/cpuinfo", "r");

	TEST_ASSERT(f != NULL, "/proc/cpuinfo");
	while (!seen && fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		seen = true;
		flag = strstr(line, " 3dnowprefetch") != NULL;
	}
	fclose(f);
	TEST_ASSERT(seen, "a flags line in /proc/cpuinfo");
	TEST_ASSERT_EQUAL(mthca_cpu_has_prfchw(), flag, "PRFCHW as the kernel sees it");
#else
	TEST_ASSERT(!mthca_cpu_has_prfchw(), "no PREFETCHW off x86-64");
#endif
	return TEST_SUCCESS;
}

static struct unit_test_suite mthca_rxtx_suite = {
	.suite_name = "net_mthca bursts on hand-written CQEs",
	.setup = suite_setup,
	.teardown = suite_teardown,
	.unit_test_cases = {
		TEST_CASE_ST(rx_setup, rx_teardown, test_rx_fields_and_error),
		TEST_CASE_ST(rx_setup, rx_teardown, test_rx_wrap),
		TEST_CASE_ST(rx_setup, rx_teardown, test_rx_nombuf),
		TEST_CASE_ST(tx_setup_fast_free, tx_teardown, test_tx_burst_and_retire),
		TEST_CASE_ST(tx_setup_plain, tx_teardown, test_tx_burst_and_retire),
		TEST_CASE_ST(tx_setup_fast_free, tx_teardown, test_tx_wrap),
		TEST_CASE_ST(tx_setup_plain, tx_teardown, test_tx_wrap),
		TEST_CASE_ST(tx_setup_big, tx_teardown, test_tx_two_doorbells),
		TEST_CASE_ST(tx_setup_fast_free, tx_teardown, test_tx_error_stalls),
		TEST_CASE_ST(tx_setup_plain, tx_teardown, test_tx_error_stalls),
		TEST_CASE(test_cpu_prfchw),
		TEST_CASES_END()
	}
};

int
main(void)
{
	return unit_test_suite_runner(&mthca_rxtx_suite);
}
