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

#include <assert.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_ethdev.h>
#include <rte_prefetch.h>

#include "mthca_rxtx.h"

#if defined(RTE_ARCH_X86) && defined(__SSSE3__)
#include <tmmintrin.h>
/* the first rte_ib receive word as one byte shuffle of CQE bytes 8..23 */
#define MTHCA_RX_SHUFFLE 1
#endif

#if defined(RTE_ARCH_X86_64)
#include <cpuid.h>
#endif

bool
mthca_cpu_has_prfchw(void)
{
#if defined(RTE_ARCH_X86_64)
	unsigned int eax, ebx, ecx, edx;

	/* CPUID 80000001h ECX bit 8 ("3dnowprefetch" in /proc/cpuinfo) */
	return __get_cpuid(0x80000001, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_PRFCHW) != 0;
#else
	return false;
#endif
}

static __rte_always_inline struct mthca_cqe *
cqe_at(const struct mthca_cq_ring *cq, uint32_t i)
{
	return (struct mthca_cqe *)(cq->cqes + (size_t)(i & cq->mask) * MTHCA_CQE_SIZE);
}

/* Give @p n consumed CQEs back and publish the consumer index once. */
static __rte_always_inline void
cq_release(struct mthca_cq_ring *cq, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		mthca_cqe_set_hw(cqe_at(cq, cq->cons + i));
	cq->cons += n;
	/* owner bytes before the set-CI record that lets the HCA reuse them */
	rte_io_wmb();
	*(volatile uint32_t *)cq->set_ci_rec = rte_cpu_to_be_32(cq->cons);
}

/* The rte_ib receive fields are built as two little-endian words from the CQE. */
static_assert(offsetof(struct mthca_cqe, rqpn) == 8 && offsetof(struct mthca_cqe, sl_ipok) == 12 &&
	      offsetof(struct mthca_cqe, g_mlpath) == 13 && offsetof(struct mthca_cqe, rlid) == 14,
	      "CQE bytes 8..15: rqpn, sl_ipok, g_mlpath, rlid (Linux struct mthca_cqe)");
static_assert(offsetof(struct rte_ib_mbuf_addr, rx.slid) == 4 &&
	      offsetof(struct rte_ib_mbuf_addr, rx.pkey_index) == 6 &&
	      offsetof(struct rte_ib_mbuf_addr, rx.sl) == 8 &&
	      offsetof(struct rte_ib_mbuf_addr, rx.path_bits) == 9 &&
	      offsetof(struct rte_ib_mbuf_addr, rx.flags) == 10 &&
	      offsetof(struct rte_ib_mbuf_addr, rx.port) == 11 && RTE_IB_MBUF_F_GRH == 1,
	      "rte_ib_mbuf_addr.rx layout");

/*
 * Fill the mbuf of a good receive completion. next, nb_segs and refcnt
 * are what every mbuf in a mempool has (rte_pktmbuf_prefree_seg() resets
 * them), so one 64-bit store of the queue's template sets data_off,
 * refcnt, nb_segs and port (DPDK's rearm_data, as i40e's and mlx5's
 * receive paths do). The rte_ib fields are two 64-bit stores computed
 * from one 64-bit load of CQE bytes 8..15 (source QPN, SL, G and path
 * bits, SLID) and the P_Key index: byte stores into the mbuf would alias
 * the queue's fields for the compiler and make it reload them for every
 * packet. @p w1 holds the port in byte 3. The packet's bytes are not
 * read: a GRH, when the CQE's G bit says one came, stays in the 40 bytes
 * before the payload (rte_ib_mbuf_grh()).
 */
static __rte_always_inline uint32_t
rx_fill(struct rte_mbuf *m, const struct mthca_cqe *c, int dynoff, uint64_t mbuf_init,
	uint64_t w1)
{
	uint64_t *dyn = RTE_MBUF_DYNFIELD(m, dynoff, uint64_t *);
	uint32_t len = rte_be_to_cpu_32(c->byte_cnt) - MTHCA_GRH_SIZE;
	uint64_t q;

	memcpy(&q, &c->rqpn, sizeof(q));
	/* 63..32 source QPN, 31..28 SL, 23 G, 22..16 path bits, 15..0 SLID */
	q = rte_be_to_cpu_64(q);
	*(uint64_t *)RTE_PTR_ADD(m, offsetof(struct rte_mbuf, rearm_data)) = mbuf_init;
	m->ol_flags = 0;
	m->packet_type = 0;
	m->pkt_len = len;
	m->data_len = (uint16_t)len;
#if defined(MTHCA_RX_SHUFFLE)
	/*
	 * Source QPN (CQE bytes 11, 10, 9, then 0), SLID (15, 14) and P_Key
	 * index (17, 16): byte moves only, one shuffle of bytes 8..23.
	 */
	_mm_storel_epi64((__m128i *)dyn,
			 _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)&c->rqpn),
					  _mm_setr_epi8(3, 2, 1, -1, 7, 6, 9, 8,
							-1, -1, -1, -1, -1, -1, -1, -1)));
	dyn[1] = w1 | ((q >> 28) & 0xf) | ((q >> 8) & 0x7f00) | ((q >> 7) & 0x10000);
#elif RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	dyn[0] = ((q >> 32) & 0xffffff) | ((q & 0xffff) << 32) |
		 ((uint64_t)(rte_be_to_cpu_32(c->imm_pkey) >> 16) << 48);
	dyn[1] = w1 | ((q >> 28) & 0xf) | ((q >> 8) & 0x7f00) | ((q >> 7) & 0x10000);
#else
	{
		struct rte_ib_mbuf_addr *a = (struct rte_ib_mbuf_addr *)dyn;

		a->rx.src_qpn = (uint32_t)(q >> 32) & 0xffffff;
		a->rx.slid = (uint16_t)q;
		a->rx.pkey_index = mthca_cqe_pkey_index(c);
		a->rx.sl = (uint8_t)(q >> 28) & 0xf;
		a->rx.path_bits = (uint8_t)(q >> 16) & 0x7f;
		a->rx.flags = (uint8_t)(q >> 23) & 1;
		a->rx.port = (uint8_t)(w1 >> 24);
	}
#endif
	return len;
}

/* Out of mbufs: drop the @p done completions, their mbufs stay in the ring. */
static __rte_noinline __rte_cold void
rx_drop_all(struct mthca_rxq *rxq, uint32_t done)
{
	uint32_t i;

	rxq->nombuf += done;
	for (i = 0; i < done; i++)
		rxq->errors += mthca_cqe_is_error(cqe_at(&rxq->cq, rxq->cq.cons + i));
}

/* Post fresh mbuf @p f in receive WQE @p slot: only the address changes (mthca_rxq_start). */
static __rte_always_inline void
rx_post(struct mthca_rxq *rxq, uint32_t slot, struct rte_mbuf *f)
{
	struct mthca_data_seg *d = (void *)(rxq->wqes + ((size_t)slot << 6) + 16);

	rxq->elts[slot] = f;
	d->addr = rte_cpu_to_be_64(*(const uint64_t *)RTE_PTR_ADD(f, rxq->addr_field) +
				   rxq->buf_off);
}

/*
 * A burst with an error completion in it (a flushed or failed receive),
 * done again one completion at a time: the error's mbuf stays in its slot
 * and its fresh mbuf goes back to the pool.
 */
static __rte_noinline __rte_cold uint32_t
rx_burst_errors(struct mthca_rxq *rxq, struct rte_mbuf **pkts, struct rte_mbuf **fresh,
		uint32_t done, uint64_t *bytes)
{
	uint64_t w1 = (uint64_t)rxq->ib_port << 24;
	uint32_t i, got = 0;

	*bytes = 0;
	for (i = 0; i < done; i++) {
		struct mthca_cqe *c = cqe_at(&rxq->cq, rxq->cq.cons + i);
		uint32_t slot = (rxq->head + i) & rxq->mask;

		mthca_cqe_set_hw(c);
		if (mthca_cqe_is_error(c)) {
			rxq->errors++;
			rte_mempool_put(rxq->mp, fresh[i]);
			continue;
		}
		*bytes += rx_fill(rxq->elts[slot], c, rxq->dynoff, rxq->mbuf_init, w1);
		pkts[got++] = rxq->elts[slot];
		rx_post(rxq, slot, fresh[i]);
	}
	return got;
}

/* Both header lines of the @p n mbufs at @p e. */
static __rte_always_inline void
rx_prefetch_mbufs(struct rte_mbuf **e, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		rte_prefetch0(e[i]);
		rte_prefetch0(RTE_PTR_ADD(e[i], RTE_CACHE_LINE_SIZE));
	}
}

/*
 * A burst stops at the end of the CQ ring or of the RQ ring, whichever
 * comes first (the next call goes on from their start): within a burst
 * the CQEs, the ring slots and the WQEs are then consecutive, and the
 * loops walk them with pointers instead of masking an index for each.
 * The mbufs a receive burst fills were posted a ring earlier and are
 * cold. The model's core writes the CQEs and reads the WQEs, so those
 * lines are never prefetched (that would take them from the model before
 * it is done with them); the mbufs' header lines are, for the next burst
 * at the end of this one, as many as this one took: the time until the
 * next call hides their latency.
 */
uint16_t
mthca_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mthca_rxq *rxq = q;
	struct mthca_cq_ring *cq = &rxq->cq;
	struct rte_mbuf *fresh[MTHCA_RX_BURST_MAX];
	struct rte_mbuf **elts = rxq->elts, **ep;
	const uint32_t mask = rxq->mask, cq_mask = cq->mask;
	const uint32_t cons = cq->cons, head = rxq->head;
	struct mthca_cqe *c0 = (struct mthca_cqe *)(cq->cqes +
						    (size_t)(cons & cq_mask) * MTHCA_CQE_SIZE);
	uint32_t done, i, lim;
	uint64_t bytes = 0;

	lim = RTE_MIN(RTE_MIN((uint32_t)n, (uint32_t)MTHCA_RX_BURST_MAX),
		      RTE_MIN(cq_mask + 1 - (cons & cq_mask), mask + 1 - (head & mask)));
	for (done = 0; done < lim; done++)
		if (!mthca_cqe_sw_owned(c0 + done))
			break;
	if (done == 0)
		return 0;
	/* owner bytes before the CQE bodies */
	rte_io_rmb();
	/* raw objects: rx_fill() writes what rte_pktmbuf_reset() would */
	if (unlikely(rte_mempool_get_bulk(rxq->mp, (void **)fresh, done) != 0)) {
		rx_drop_all(rxq, done);
		cq_release(cq, done);
		n = 0;
		goto publish;
	}
	ep = elts + (head & mask);
	{
		const uint64_t mbuf_init = rxq->mbuf_init, w1 = (uint64_t)rxq->ib_port << 24;
		const int dynoff = rxq->dynoff;

		for (i = 0; i < done; i++) {
			struct mthca_cqe *c = c0 + i;
			struct rte_mbuf *m = ep[i];

			if (unlikely(mthca_cqe_is_error(c)))
				break;
			bytes += rx_fill(m, c, dynoff, mbuf_init, w1);
			pkts[i] = m;
			/* read: back to the HCA, published by the set-CI record below */
			mthca_cqe_set_hw(c);
		}
	}
	if (likely(i == done)) {
		struct mthca_data_seg *d = (void *)(rxq->wqes + ((size_t)(head & mask) << 6) + 16);
		const uint32_t buf_off = rxq->buf_off, addr_field = rxq->addr_field;

		/* one 64-byte WQE per slot: its data segment at byte 16 (mthca_rxq_start) */
		for (i = 0; i < done; i++, d = RTE_PTR_ADD(d, 64)) {
			struct rte_mbuf *f = fresh[i];

			ep[i] = f;
			d->addr = rte_cpu_to_be_64(*(const uint64_t *)RTE_PTR_ADD(f, addr_field) +
						   buf_off);
		}
		n = (uint16_t)done;
	} else {
		n = (uint16_t)rx_burst_errors(rxq, pkts, fresh, done, &bytes);
	}
	rxq->packets += n;
	rxq->bytes += bytes;
	cq->cons = cons + done;
	/* owner bytes before the set-CI record that lets the HCA reuse them */
	rte_io_wmb();
	*(volatile uint32_t *)cq->set_ci_rec = rte_cpu_to_be_32(cq->cons);
	/* the mbufs the next burst fills: the next done slots, wrapping at the ring's end */
	i = (head + done) & mask;
	lim = RTE_MIN(done, mask + 1 - i);
	rx_prefetch_mbufs(elts + i, lim);
	rx_prefetch_mbufs(elts, done - lim);
publish:
	rxq->head = head + done;
	/* receive WQEs before the RQ record that publishes them */
	rte_io_wmb();
	*(volatile uint32_t *)rxq->rq_rec = rte_cpu_to_be_32(rxq->head & 0xffff);
	return n;
}

int
mthca_rx_descriptor_status(void *q, uint16_t offset)
{
	struct mthca_rxq *rxq = q;

	if (unlikely(offset > rxq->mask))
		return -EINVAL;
	/* every RQ slot holds a posted WQE: done once its completion is ours */
	if (mthca_cqe_sw_owned(cqe_at(&rxq->cq, rxq->cq.cons + offset)))
		return RTE_ETH_RX_DESC_DONE;
	return RTE_ETH_RX_DESC_AVAIL;
}

/*
 * Give a retired run of SQ slots back. Under fast free the whole run goes
 * to the first mbuf's mempool in one call while no chain is in the ring
 * (txq->chains, slots tagged MTHCA_TX_ELT_CHAIN); otherwise
 * rte_pktmbuf_free_bulk() checks every segment's reference count and pool.
 */
static __rte_always_inline void
tx_free(struct mthca_txq *txq, struct rte_mbuf **e, uint32_t n)
{
	uint32_t i;

	if (txq->fast_free) {
		if (likely(txq->chains == 0)) {
			rte_mempool_put_bulk(e[0]->pool, (void **)e, n);
			return;
		}
		for (i = 0; i < n; i++) {
			txq->chains -= ((uintptr_t)e[i] & MTHCA_TX_ELT_CHAIN) != 0;
			e[i] = mthca_tx_elt(e[i]);
		}
	}
	rte_pktmbuf_free_bulk(e, n);
}

/*
 * An error completion of a send WQE: counted by syndrome, or as a flush
 * (every WQE behind the failed one completes WR_FLUSH_ERR, IBA 10.3.1).
 * Its mbuf is freed with the run it retires. The QP is in ERR now: the
 * burst hands the queue to the transmit watch when it ends.
 */
static __rte_noinline __rte_cold void
tx_error_cqe(struct mthca_txq *txq, const struct mthca_cqe *c)
{
	unsigned int k;

	txq->errors++;
	txq->err_seen = true;
	switch (mthca_cqe_syndrome(c)) {
	case MTHCA_SYND_WR_FLUSH:
		txq->flushed++;
		return;
	case MTHCA_SYND_LOCAL_LENGTH:
		k = MTHCA_TX_ERR_LOCAL_LENGTH;
		break;
	case MTHCA_SYND_LOCAL_QP_OP:
		k = MTHCA_TX_ERR_LOCAL_QP_OP;
		break;
	case MTHCA_SYND_LOCAL_PROT:
		k = MTHCA_TX_ERR_LOCAL_PROT;
		break;
	case MTHCA_SYND_LOCAL_ACCESS:
		k = MTHCA_TX_ERR_LOCAL_ACCESS;
		break;
	default:
		k = MTHCA_TX_ERR_OTHER;
		break;
	}
	txq->err_cqe[k]++;
}

/*
 * The burst that reaped an error completion ends here: the ring, its
 * mbufs and the counters go to the transmit watch, which recovers the QP
 * (struct mthca_txq). A plain store with release order: no lock, no call.
 */
static __rte_noinline __rte_cold void
tx_stall(struct mthca_txq *txq)
{
	/* everything this burst wrote to the queue before the hand-over */
	__atomic_store_n(&txq->stalled, 1, __ATOMIC_RELEASE);
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

		if (!mthca_cqe_sw_owned(c))
			break;
		rte_io_rmb();
		index = ((mthca_cqe_wqe(c) - txq->send_off) >> MTHCA_TX_WQE_SHIFT) &
			txq->mask;
		if (unlikely(mthca_cqe_is_error(c)))
			tx_error_cqe(txq, c);
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
		tx_free(txq, &txq->elts[slot], run);
		txq->tail += run;
	}
}

static __rte_always_inline void
tx_ring(struct mthca_txq *txq, uint32_t head, uint32_t start, uint32_t nreq, uint32_t size0)
{
	/* WQEs before the SQ record, the record before the doorbell */
	rte_io_wmb();
	*(volatile uint32_t *)txq->sq_rec = rte_cpu_to_be_32(head & 0xffff);
	rte_io_wmb();
	mthca_doorbell64(txq->db, mthca_send_db_hi(nreq, start, MTHCA_OPCODE_SEND),
			 mthca_send_db_lo(txq->qpn, size0));
}

/* The largest UD WQE fills the stride exactly: two lines per slot. */
static_assert(sizeof(struct mthca_next_seg) + sizeof(struct mthca_ud_seg) +
	      MTHCA_TX_MAX_SEGS * sizeof(struct mthca_data_seg) == 1u << MTHCA_TX_WQE_SHIFT &&
	      (1u << MTHCA_TX_WQE_SHIFT) == 2 * RTE_CACHE_LINE_SIZE, "send WQE stride");

/* Send slots free with the ring's head at @p head: none in [tail, head). */
static __rte_always_inline uint32_t
tx_free_slots(const struct mthca_txq *txq, uint32_t head)
{
	return txq->mask + 1 - (head - txq->tail);
}

/*
 * Prefetch for writing the @p len bytes at @p p, two lines per step (len:
 * a multiple of 128). rte_prefetch0_write() is __builtin_prefetch(p, 1,
 * 3), which GCC makes a PREFETCHW only for a target with PRFCHW; under
 * Debian's libdpdk flags (-march=corei7) it is a PREFETCHT0, which brings
 * the line in shared, so that each WQE store still waited for the model's
 * core to give up its copy (doc/guides/nics/mthca.rst, "Performance").
 * So on x86-64 the queue says whether the CPU reports PRFCHW, and the
 * instruction is written out; elsewhere the builtin stays.
 */
static __rte_always_inline void
tx_prefetch_line(const uint8_t *p, bool prefetchw)
{
#if defined(RTE_ARCH_X86_64)
	if (prefetchw) {
		__asm__ volatile("prefetchw %0" : : "m" (*(const volatile uint8_t *)p));
		return;
	}
#else
	RTE_SET_USED(prefetchw);
#endif
	rte_prefetch0_write(p);
}

static __rte_always_inline void
tx_prefetch_range(uint8_t *p, uint32_t len, bool prefetchw)
{
	uint8_t *end = p + len;

	for (; p < end; p += 2 * RTE_CACHE_LINE_SIZE) {
		tx_prefetch_line(p, prefetchw);
		tx_prefetch_line(p + RTE_CACHE_LINE_SIZE, prefetchw);
	}
}

/*
 * The lines of the WQEs the next burst writes, as many as this one wrote,
 * prefetched for writing: free slots, which the HCA reads only after the
 * doorbell that names them, and whose lines it read a ring earlier (the
 * store would otherwise wait for them inside the next call).
 */
static __rte_always_inline void
tx_prefetch_next(const struct mthca_txq *txq, uint32_t head, uint32_t n)
{
	uint32_t free_slots = tx_free_slots(txq, head);
	uint32_t ring = (txq->mask + 1) << MTHCA_TX_WQE_SHIFT;
	uint32_t first = (head & txq->mask) << MTHCA_TX_WQE_SHIFT, len, wrapped;

	if (n > free_slots)
		n = free_slots;
	/* the slots are consecutive bytes of the ring, wrapping at its end */
	len = n << MTHCA_TX_WQE_SHIFT;
	wrapped = first + len > ring ? first + len - ring : 0;
	tx_prefetch_range(txq->wqes + first, len - wrapped, txq->prefetchw);
	tx_prefetch_range(txq->wqes, wrapped, txq->prefetchw);
}

/* The send WQE of ring slot @p slot. */
static __rte_always_inline struct mthca_next_seg *
tx_wqe(uint8_t *wqes, uint32_t slot)
{
	return (struct mthca_next_seg *)(wqes + ((size_t)slot << MTHCA_TX_WQE_SHIFT));
}

/* A packet tx_burst does not send: counted and freed. */
static __rte_noinline __rte_cold void
tx_reject(struct mthca_txq *txq, struct rte_mbuf *m, bool no_ah)
{
	txq->errors++;
	txq->no_ah += no_ah;
	rte_pktmbuf_free(m);
}

/*
 * One UD WQE per packet (Linux mthca_arbel_post_send): the next segment's
 * flags, the UD segment (the AH's address vector, DQPN, Q_Key), one data
 * segment per mbuf segment; then the predecessor's next segment links it,
 * opcode and address first, DBD and size after a barrier. The packets go
 * in batches of at most MTHCA_MAX_WQES_PER_DB, one doorbell each, so that
 * the per-packet loop counts nothing but the packet; the doorbell's size
 * of the batch's first WQE is read back from the link to it. The queue's
 * fields live in locals for the loop: the WQE stores would otherwise make
 * the compiler reload them for every packet.
 */
uint16_t
mthca_tx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mthca_txq *txq = q;
	struct rte_mbuf **elts;
	uint8_t *wqes = txq->wqes;
	const uint32_t mask = txq->mask, send_off = txq->send_off;
	const rte_be32_t lkey = txq->lkey_be;
	const int dynoff = txq->dynoff;
	const bool fast_free = txq->fast_free;
	uint32_t room, i, head, start_all, chains = 0;
	struct mthca_next_seg *prev;
	uint64_t bytes = 0;

	/* the transmit watch recovers the queue: the application retries (mthca.rst) */
	if (unlikely(__atomic_load_n(&txq->stalled, __ATOMIC_ACQUIRE) != 0))
		return 0;
	/*
	 * Completions are reaped after the doorbell, not before: reading the
	 * CQE line the HCA wrote is a miss, and paid first it delayed the
	 * doorbell by as much (bench_mthca: the pair ratio at 64 bytes rose
	 * by about 6%, doc/guides/nics/mthca.rst, Performance). Only a burst
	 * the ring has no room for reaps first.
	 */
	rte_prefetch0(cqe_at(&txq->cq, txq->cq.cons));
	elts = txq->elts;
	head = start_all = txq->head;
	room = tx_free_slots(txq, head);
	if (unlikely(n > room)) {
		tx_complete(txq);
		room = tx_free_slots(txq, head);
		if (n > room)
			n = (uint16_t)room;
		/* the QP is in ERR: whatever is posted now only flushes */
		if (unlikely(txq->err_seen))
			n = 0;
	}
	prev = tx_wqe(wqes, (head - 1) & mask);
	for (i = 0; i < n; ) {
		const uint32_t end = RTE_MIN((uint32_t)n, i + MTHCA_MAX_WQES_PER_DB);
		struct mthca_next_seg *link0 = prev;
		const uint32_t start = head;

		for (; i < end; i++) {
			struct rte_mbuf *m = pkts[i], *s;
			const struct rte_ib_mbuf_addr *a =
				RTE_MBUF_DYNFIELD(m, dynoff, struct rte_ib_mbuf_addr *);
			const struct mthca_ah *ah = (const struct mthca_ah *)a->tx.ah;
			uint32_t slot = head & mask, nseg = m->nb_segs;
			struct mthca_next_seg *w = tx_wqe(wqes, slot);
			struct mthca_ud_seg *u = (struct mthca_ud_seg *)(w + 1);
			struct mthca_data_seg *d = (struct mthca_data_seg *)(u + 1);

			if (unlikely(ah == NULL || nseg > MTHCA_TX_MAX_SEGS)) {
				tx_reject(txq, m, ah == NULL);
				continue;
			}
			mthca_next_set_flags(w, MTHCA_NEXT_ALWAYS1);
			mthca_ud_seg_set(u, ah->av, a->tx.dest_qpn, a->tx.qkey);
			d->byte_count = rte_cpu_to_be_32(m->data_len);
			d->lkey = lkey;
			d->addr = rte_cpu_to_be_64(rte_mbuf_data_iova(m));
			elts[slot] = m;
			if (unlikely(nseg > 1)) {
				for (s = m->next, d++; s != NULL; s = s->next, d++)
					mthca_dseg_set(d, s->data_len, rte_be_to_cpu_32(lkey),
						       rte_mbuf_data_iova(s));
				if (fast_free) {
					elts[slot] = (struct rte_mbuf *)((uintptr_t)m |
									 MTHCA_TX_ELT_CHAIN);
					chains++;
				}
			}
			bytes += m->pkt_len;
			/* opcode and address, then DBD and size (Linux mthca_arbel_post_send) */
			mthca_next_set_op(prev, send_off + (slot << MTHCA_TX_WQE_SHIFT),
					  MTHCA_OPCODE_SEND);
			rte_io_wmb();
			mthca_next_set_nds(prev, (sizeof(struct mthca_next_seg) +
						  sizeof(struct mthca_ud_seg)) / 16 + nseg);
			prev = w;
			head++;
		}
		if (head != start) {
			/* one completion per batch retires all of it */
			mthca_next_set_flags(prev, MTHCA_NEXT_ALWAYS1 | MTHCA_NEXT_CQ_UPDATE);
			tx_ring(txq, head, start, head - start, mthca_next_size(link0));
		}
	}
	txq->packets += head - txq->head;
	txq->head = head;
	txq->bytes += bytes;
	txq->chains += chains;
	tx_complete(txq);
	if (unlikely(txq->err_seen)) {
		tx_stall(txq);
		return (uint16_t)i;
	}
	tx_prefetch_next(txq, head, head - start_all);
	return (uint16_t)i;
}
