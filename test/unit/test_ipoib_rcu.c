/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * lib/ipoib tables under concurrency: one data thread encapsulates and
 * decapsulates bursts (lock-free lookups through every index) while the
 * control thread adds, deletes, re-paths and rebinds neighbours and
 * replaces address handles as fast as it can, reclaiming after QSBR
 * grace periods. Bounded in time.
 *
 * What would show: a torn entry (a neighbour found under one key whose
 * address, MAC or QPN is another's; a handle from the wrong path), a
 * use after free (handles are poisoned, then freed: ASan reports any
 * late read, and the poison is checked without ASan), a leak (every
 * handle created is freed exactly once, by the end).
 *
 * test_torn_slot aims at the front slots' copies (struct ipoib_fcopy in
 * ipoib_private.h; both bursts read them over a big table, the transmit
 * over a small one too, so both sizes): a few identities that share one
 * MAC slot set are added and deleted in turn while the data thread sends
 * to them only, so that the set's copies change hands all the time under
 * the reader; a copy read without its sequence count would pair one
 * identity's key with another's QPN, or a source key with a MAC that is
 * not its neighbour's, which the reader's checks count.
 */

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ib_dev.h>
#include <rte_ib_mbuf.h>
#include <rte_mbuf.h>

#include <rte_ipoib_encap.h>

#include "test.h"
/* test_copy_midway() puts a front slot's copy where a writer leaves it. */
#include "ipoib_private.h"

#define NB_ID 2048          /* neighbour identities */
#define NB_PATH 32          /* neighbour id -> path id % NB_PATH */
#define RUN_MS 1500
#define BURST 32
#define LIVE 0x4c495645u
#define DEAD 0xdeadbeefu

/* An address handle as a device would embed it; the tag is checked. */
struct test_ah {
	struct rte_ib_ah ah;
	uint32_t magic;
	uint32_t path;
};

static struct rte_mempool *pool;
static struct rte_ipoib_tbl *tbl;
static struct rte_ipoib_dp *dp_tx, *dp_rx;
static struct rte_rcu_qsbr *qsbr;
static struct rte_ipoib_hwaddr local;
static volatile int stop;
/* The identities the reader draws from: all NB_ID, or these nb_pick. */
static const uint32_t *pick;
static uint32_t nb_pick;
/* The reader sleeps this long after each round (test_torn_slot). */
static long reader_nap_ns;
static uint64_t ah_made, ah_freed;
static uint64_t bad_reads;

static uint32_t
id_qpn(uint32_t id)
{
	return 0x100 + id;
}

static uint16_t
path_lid(uint32_t p)
{
	return (uint16_t)(0x10 + p);
}

static void
id_hw(uint32_t id, struct rte_ipoib_hwaddr *hw)
{
	struct rte_ib_gid g;

	rte_ib_gid_set(&g, RTE_IB_GID_DEFAULT_PREFIX, 0x0002c90300000000ull + id % NB_PATH);
	/* Several identities share a port GID (one path), each its own QPN. */
	rte_ipoib_hwaddr_set(hw, 0, id_qpn(id), &g);
}

static void
ah_free_cb(void *ctx, struct rte_ib_ah *ah)
{
	struct test_ah *t = (struct test_ah *)ah;

	RTE_SET_USED(ctx);
	if (t->magic != LIVE)
		__atomic_fetch_add(&bad_reads, 1, __ATOMIC_RELAXED);
	t->magic = DEAD;
	free(t);
	ah_freed++;
}

static struct rte_ib_ah *
ah_new(uint32_t p)
{
	struct test_ah *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return NULL;
	t->magic = LIVE;
	t->path = p;
	t->ah.attr.dlid = path_lid(p);
	ah_made++;
	return &t->ah;
}

struct reader_counts {
	uint64_t bursts, sent, hits, lookups;
};

static uint32_t
draw_id(uint32_t *seed)
{
	*seed = *seed * 1103515245 + 12345;
	return pick == NULL ? (*seed >> 8) % NB_ID : pick[(*seed >> 8) % nb_pick];
}

/*
 * An Ethernet frame from @p src to identity @p id's MAC, IPv4 of 20
 * bytes; the identity rides in the IP ID, to check what comes out. False
 * when the mbuf has no room.
 */
static bool
eth_frame(struct rte_mbuf *m, uint32_t id, const struct rte_ether_addr *src)
{
	uint8_t *p = (uint8_t *)rte_pktmbuf_append(m, 14 + 20);
	struct rte_ipoib_hwaddr hw;
	struct rte_ether_addr mac;

	if (p == NULL)
		return false;
	id_hw(id, &hw);
	rte_ipoib_mac_from_hwaddr(&hw, &mac);
	memcpy(p, mac.addr_bytes, 6);
	memcpy(p + 6, src->addr_bytes, 6);
	p[12] = 0x08;
	p[13] = 0x00;
	memset(p + 14, 0, 20);
	p[14] = 0x45;
	p[17] = 20;
	p[18] = id >> 8;
	p[19] = id & 0xff;
	return true;
}

/* An IPoIB packet from identity @p id, without GRH, as eth_frame(). */
static bool
ipoib_frame(struct rte_mbuf *m, uint32_t id)
{
	struct rte_ib_mbuf_addr *a = rte_ib_mbuf_addr(m);
	uint8_t *p = (uint8_t *)rte_pktmbuf_append(m, 4 + 20);

	if (p == NULL)
		return false;
	memset(p, 0, 24);
	p[0] = 0x08;
	p[4] = 0x45;
	p[7] = 20;
	p[8] = id >> 8;
	p[9] = id & 0xff;
	memset(a, 0, sizeof(*a));
	a->rx.src_qpn = id_qpn(id);
	a->rx.slid = path_lid(id % NB_PATH);
	return true;
}

static void *
reader(void *arg)
{
	struct reader_counts *c = arg;
	struct rte_ether_addr src_mac;
	struct rte_mbuf *m[BURST];
	uint32_t ids[BURST], seed = 12345;
	unsigned int i, n;

	rte_rcu_qsbr_thread_register(qsbr, 0);
	rte_rcu_qsbr_thread_online(qsbr, 0);
	rte_ipoib_dp_local_mac(dp_tx, &src_mac);
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		/* Transmit: Ethernet frames to random identities' MACs. */
		if (rte_pktmbuf_alloc_bulk(pool, m, BURST) != 0)
			break;
		for (i = 0; i < BURST; i++) {
			ids[i] = draw_id(&seed);
			eth_frame(m[i], ids[i], &src_mac);
		}
		n = rte_ipoib_encap_burst(dp_tx, m, BURST);
		for (i = 0; i < n; i++) {
			const uint8_t *p = rte_pktmbuf_mtod(m[i], const uint8_t *);
			struct rte_ib_mbuf_addr *a = rte_ib_mbuf_addr(m[i]);
			const struct test_ah *t = (const struct test_ah *)a->tx.ah;
			uint32_t id = (uint32_t)p[4 + 4] << 8 | p[4 + 5];

			/* The "device": reads the handle before quiescence. */
			if (t->magic != LIVE || t->path != id % NB_PATH ||
			    a->tx.dest_qpn != id_qpn(id))
				__atomic_fetch_add(&bad_reads, 1, __ATOMIC_RELAXED);
		}
		c->sent += n;
		rte_pktmbuf_free_bulk(m, n);
		/* Receive: IPoIB packets without GRH from random (SLID, QPN). */
		if (rte_pktmbuf_alloc_bulk(pool, m, BURST) != 0)
			break;
		for (i = 0; i < BURST; i++) {
			ids[i] = draw_id(&seed);
			ipoib_frame(m[i], ids[i]);
		}
		n = rte_ipoib_decap_burst(dp_rx, m, BURST);
		for (i = 0; i < n; i++) {
			/* Delivered: the source MAC must be its QPN's identity's. */
			const uint8_t *p = rte_pktmbuf_mtod(m[i], const uint8_t *);
			struct rte_ipoib_hwaddr hw;
			struct rte_ether_addr want;
			uint32_t id = (uint32_t)p[14 + 4] << 8 | p[14 + 5];

			id_hw(id, &hw);
			rte_ipoib_mac_from_hwaddr(&hw, &want);
			/*
			 * A source not in the table (deleted meanwhile) comes
			 * with the MAC derived from its SLID and QPN (06:...).
			 */
			if (p[6] != 0x06 && memcmp(want.addr_bytes, p + 6, 6) != 0)
				__atomic_fetch_add(&bad_reads, 1, __ATOMIC_RELAXED);
		}
		c->hits += n;
		rte_pktmbuf_free_bulk(m, n);
		/* Direct lookups: the entry found must be the key's. */
		for (i = 0; i < BURST; i++) {
			struct rte_ipoib_hwaddr hw;
			struct rte_ipoib_neigh *nb;

			id_hw(ids[i], &hw);
			nb = rte_ipoib_neigh_lookup(tbl, &hw);
			if (nb != NULL && !rte_ipoib_hwaddr_equal(rte_ipoib_neigh_hwaddr(nb), &hw))
				__atomic_fetch_add(&bad_reads, 1, __ATOMIC_RELAXED);
			c->lookups++;
		}
		c->bursts++;
		/* Every pointer from the table is dropped: quiescent. */
		rte_rcu_qsbr_quiescent(qsbr, 0);
		if (reader_nap_ns != 0) {
			struct timespec ts = { 0, reader_nap_ns };

			nanosleep(&ts, NULL);
		}
	}
	rte_rcu_qsbr_thread_offline(qsbr, 0);
	rte_rcu_qsbr_thread_unregister(qsbr, 0);
	return NULL;
}

/*
 * test_churn's control side for RUN_MS: adds, deletes, re-paths and
 * rebinds neighbours and replaces handles at random, counting @p ops.
 * Returns at the first failure, so that the caller stops the reader
 * before it reports it: a failed add must not leave the data thread
 * reading tables that the teardown frees.
 */
static int
churn_control(struct rte_ipoib_path **paths, struct rte_ipoib_neigh **neigh, uint64_t *ops)
{
	uint32_t seed = 777, p;
	uint64_t end;

	end = rte_get_timer_cycles() + rte_get_timer_hz() * RUN_MS / 1000;
	while (rte_get_timer_cycles() < end) {
		uint32_t id, op;

		seed = seed * 1103515245 + 12345;
		id = (seed >> 8) % NB_ID;
		op = (seed >> 24) % 8;
		p = id % NB_PATH;
		if (op < 3) {
			if (neigh[id] == NULL) {
				struct rte_ipoib_hwaddr hw;

				id_hw(id, &hw);
				neigh[id] = rte_ipoib_neigh_add(tbl, &hw, paths[p]);
				TEST_ASSERT(neigh[id] != NULL, "add %u: %d", id, rte_errno);
			} else {
				TEST_ASSERT_SUCCESS(rte_ipoib_neigh_del(tbl, neigh[id]), "del");
				neigh[id] = NULL;
			}
		} else if (op < 5) {
			/* A new handle for the path (SM change, path re-query). */
			TEST_ASSERT_SUCCESS(rte_ipoib_path_set_ah(tbl, paths[p], ah_new(p),
								  path_lid(p)), "set ah");
		} else if (op == 5 && neigh[id] != NULL) {
			/* Re-point at the same path: unlink and relink, rebind source. */
			TEST_ASSERT_SUCCESS(rte_ipoib_neigh_set_path(tbl, neigh[id], NULL), "none");
			TEST_ASSERT_SUCCESS(rte_ipoib_neigh_set_path(tbl, neigh[id], paths[p]),
					    "back");
		} else if (op == 6 && neigh[id] != NULL) {
			uint8_t ip[16] = { [10] = 0xff, [11] = 0xff, 10, 1, id >> 8, id & 0xff };

			TEST_ASSERT_SUCCESS(rte_ipoib_neigh_bind_ip(tbl, neigh[id], ip), "bind");
		} else {
			rte_ipoib_tbl_reclaim(tbl);
		}
		*ops += 1;
	}
	return TEST_SUCCESS;
}

static int
test_churn(void)
{
	struct rte_ipoib_path *paths[NB_PATH];
	struct rte_ipoib_neigh *neigh[NB_ID] = { NULL };
	struct reader_counts rc = { 0 };
	struct rte_ipoib_tbl_stats st;
	uint64_t ops = 0;
	int rc_ctl;
	uint32_t p;
	pthread_t th;

	for (p = 0; p < NB_PATH; p++) {
		struct rte_ipoib_hwaddr hw;
		struct rte_ib_gid g;

		id_hw(p, &hw);
		rte_ipoib_hwaddr_gid(&hw, &g);
		paths[p] = rte_ipoib_path_add(tbl, &g, 0xffff);
		TEST_ASSERT(paths[p] != NULL, "path %u", p);
		TEST_ASSERT_SUCCESS(rte_ipoib_path_set_ah(tbl, paths[p], ah_new(p), path_lid(p)),
				    "ah");
	}
	TEST_ASSERT_SUCCESS(pthread_create(&th, NULL, reader, &rc), "reader");
	rc_ctl = churn_control(paths, neigh, &ops);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	TEST_ASSERT_SUCCESS(rc_ctl, "control side");
	TEST_ASSERT_EQUAL(rte_ipoib_tbl_reclaim(tbl), 0, "everything due once the reader left");
	TEST_ASSERT_SUCCESS(rte_ipoib_tbl_stats_get(tbl, &st), "stats");
	printf("  %lu control operations, %lu bursts, %lu sent, %lu delivered, %lu lookups,"
	       " %lu objects freed after grace periods\n", (unsigned long)ops,
	       (unsigned long)rc.bursts, (unsigned long)rc.sent, (unsigned long)rc.hits,
	       (unsigned long)rc.lookups, (unsigned long)st.nb_freed);
	TEST_ASSERT_EQUAL(__atomic_load_n(&bad_reads, __ATOMIC_RELAXED), 0, "torn or stale reads");
	TEST_ASSERT(ops > 10000, "control side too slow to mean anything: %lu",
		    (unsigned long)ops);
	TEST_ASSERT(rc.bursts > 100 && rc.sent > 0 && rc.hits > 0,
		    "data side too slow to mean anything");
	TEST_ASSERT(rc.sent < rc.bursts * BURST, "some destinations were missing, as they must");
	rte_ipoib_tbl_free(tbl);
	tbl = NULL;
	TEST_ASSERT_EQUAL(ah_freed, ah_made, "every handle freed exactly once");
	return TEST_SUCCESS;
}

/* Path 0 (identities 0, NB_PATH, ...), with a handle; NULL on failure. */
static struct rte_ipoib_path *
path0_add(void)
{
	struct rte_ipoib_path *path;
	struct rte_ipoib_hwaddr hw;
	struct rte_ib_gid g;

	id_hw(0, &hw);
	rte_ipoib_hwaddr_gid(&hw, &g);
	path = rte_ipoib_path_add(tbl, &g, 0xffff);
	if (path == NULL || rte_ipoib_path_set_ah(tbl, path, ah_new(0), path_lid(0)) != 0)
		return NULL;
	return path;
}

/*
 * Identities 0, NB_PATH, 2 * NB_PATH, ...: one port GID (path 0), QPNs
 * that differ above bit 16 of the MAC's low bits, so that their MACs'
 * front slots are one pair (ipoib_mac_front_idx()); four for two slots,
 * so that a deleted one's slot goes to one that waits. The control side
 * adds and deletes them in turn (and now and then gives the path a new
 * handle) as fast as it can, while the reader sends to and receives from
 * them only.
 */
#define TORN_IDS 4
static const uint32_t torn_ids[TORN_IDS] = { 0, NB_PATH, 2 * NB_PATH, 3 * NB_PATH };

/*
 * test_torn_slot's control side for RUN_MS: the identities torn_ids added
 * and deleted in turn, the path's handle replaced now and then. Returns
 * at the first failure, as churn_control().
 */
static int
torn_control(struct rte_ipoib_path *path, struct rte_ipoib_neigh **neigh, uint64_t *ops)
{
	struct rte_ipoib_hwaddr hw;
	uint32_t seed = 4242, k;
	uint64_t end;

	end = rte_get_timer_cycles() + rte_get_timer_hz() * RUN_MS / 1000;
	while (rte_get_timer_cycles() < end) {
		seed = seed * 1103515245 + 12345;
		k = (seed >> 8) % TORN_IDS;
		if ((seed >> 24) % 64 == 0) {
			TEST_ASSERT_SUCCESS(rte_ipoib_path_set_ah(tbl, path, ah_new(0),
								  path_lid(0)), "set ah");
			rte_ipoib_tbl_reclaim(tbl);
		} else if (neigh[k] == NULL) {
			id_hw(torn_ids[k], &hw);
			neigh[k] = rte_ipoib_neigh_add(tbl, &hw, path);
			TEST_ASSERT(neigh[k] != NULL, "add %u: %d", k, rte_errno);
		} else {
			TEST_ASSERT_SUCCESS(rte_ipoib_neigh_del(tbl, neigh[k]), "del");
			neigh[k] = NULL;
		}
		*ops += 1;
	}
	return TEST_SUCCESS;
}

static int
test_torn_slot(void)
{
	struct rte_ipoib_neigh *neigh[TORN_IDS] = { NULL };
	struct reader_counts rc = { 0 };
	struct rte_ipoib_path *path;
	uint64_t ops = 0;
	int rc_ctl;
	uint32_t k;
	cpu_set_t one_cpu;
	bool pinned;
	pthread_t th;

	path = path0_add();
	TEST_ASSERT(path != NULL, "path");
	pick = torn_ids;
	nb_pick = TORN_IDS;
	reader_nap_ns = 20000;
	TEST_ASSERT_SUCCESS(pthread_create(&th, NULL, reader, &rc), "reader");
	/*
	 * Both threads on one CPU, the reader napping after each round: each
	 * time it wakes up it preempts the control side wherever that is,
	 * in the middle of a copy's rewrite too, and reads the half-written
	 * copy (on two CPUs the stores of one rewrite are a few cycles
	 * apart, and x86 keeps them in order: a reader that ignores the
	 * count was caught in one run out of three or four).
	 */
	CPU_ZERO(&one_cpu);
	CPU_SET(sched_getcpu() >= 0 ? sched_getcpu() : 0, &one_cpu);
	pinned = pthread_setaffinity_np(th, sizeof(one_cpu), &one_cpu) == 0 &&
		pthread_setaffinity_np(pthread_self(), sizeof(one_cpu), &one_cpu) == 0;
	rc_ctl = torn_control(path, neigh, &ops);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	pick = NULL;
	nb_pick = 0;
	reader_nap_ns = 0;
	if (pinned) {
		/* The other tests' threads run on every CPU again. */
		CPU_ZERO(&one_cpu);
		for (k = 0; k < CPU_SETSIZE; k++)
			CPU_SET(k, &one_cpu);
		pthread_setaffinity_np(pthread_self(), sizeof(one_cpu), &one_cpu);
	}
	TEST_ASSERT_SUCCESS(rc_ctl, "control side");
	TEST_ASSERT_EQUAL(rte_ipoib_tbl_reclaim(tbl), 0, "everything due once the reader left");
	printf("  %lu control operations, %lu bursts, %lu sent, %lu delivered\n",
	       (unsigned long)ops, (unsigned long)rc.bursts, (unsigned long)rc.sent,
	       (unsigned long)rc.hits);
	TEST_ASSERT_EQUAL(__atomic_load_n(&bad_reads, __ATOMIC_RELAXED), 0,
			  "torn reads: a key paired with another's QPN or MAC");
	TEST_ASSERT(ops > 10000 && rc.bursts > 100 && rc.sent > 0 && rc.hits > 0,
		    "too slow to mean anything");
	rte_ipoib_tbl_free(tbl);
	tbl = NULL;
	TEST_ASSERT_EQUAL(ah_freed, ah_made, "every handle freed exactly once");
	return TEST_SUCCESS;
}

/*
 * What a reader must do with a copy the control side is rewriting, made
 * deterministic: identities 0 and NB_PATH share a MAC slot set (see
 * TORN_IDS); 0's copy is left as a writer moving NB_PATH into that slot
 * would leave it midway (count odd, key still 0's, QPN already
 * NB_PATH's), and 0's source copy with its count odd and another MAC.
 * A frame to 0 must still go to 0's QPN and a packet from 0 still carry
 * 0's MAC: the bursts take the general way, through the entries. A
 * reader that ignores the count sends to NB_PATH's QPN.
 */
static int
test_copy_midway(void)
{
	struct rte_ipoib_neigh *a, *b;
	struct rte_ipoib_hwaddr hw, hw_b;
	struct rte_ether_addr mac, src_mac, want;
	struct rte_ipoib_path *path;
	struct ipoib_fcopy *ca, *cs, save_a, save_s;
	struct rte_ib_mbuf_addr *d;
	struct rte_mbuf *m;
	uint64_t key;
	uint8_t *p;

	id_hw(0, &hw);
	id_hw(NB_PATH, &hw_b);
	path = path0_add();
	TEST_ASSERT(path != NULL, "path");
	a = rte_ipoib_neigh_add(tbl, &hw, path);
	b = rte_ipoib_neigh_add(tbl, &hw_b, path);
	TEST_ASSERT(a != NULL && b != NULL, "neighbours");
	rte_ipoib_neigh_mac(a, &mac);
	key = ipoib_mac_key(mac.addr_bytes);
	ca = &tbl->mac_front.copy[ipoib_mac_front_idx(key, tbl->mac_front.mask)];
	TEST_ASSERT(ca->key == key && ca->qpn == id_qpn(0), "0 in its home slot");
	key = ipoib_src_key_w(path_lid(0), id_qpn(0));
	cs = &tbl->src_front.copy[ipoib_src_front_idx(key, tbl->src_front.mask)];
	TEST_ASSERT(cs->key == key, "0's source in its home slot");
	save_a = *ca;
	save_s = *cs;
	ca->seq++;
	ca->qpn = id_qpn(NB_PATH);
	cs->seq++;
	rte_ipoib_neigh_mac(b, &want);
	memcpy(&cs->val, want.addr_bytes, 6);

	/* Transmit to 0. */
	m = rte_pktmbuf_alloc(pool);
	TEST_ASSERT(m != NULL, "mbuf");
	rte_ipoib_dp_local_mac(dp_tx, &src_mac);
	TEST_ASSERT(eth_frame(m, 0, &src_mac), "room");
	TEST_ASSERT_EQUAL(rte_ipoib_encap_burst(dp_tx, &m, 1), 1, "sent");
	d = rte_ib_mbuf_addr(m);
	TEST_ASSERT_EQUAL(d->tx.dest_qpn, id_qpn(0), "a copy being rewritten was used");
	rte_pktmbuf_free(m);

	/* Receive from 0. */
	m = rte_pktmbuf_alloc(pool);
	TEST_ASSERT(m != NULL, "mbuf");
	TEST_ASSERT(ipoib_frame(m, 0), "room");
	TEST_ASSERT_EQUAL(rte_ipoib_decap_burst(dp_rx, &m, 1), 1, "delivered");
	p = rte_pktmbuf_mtod(m, uint8_t *);
	rte_ipoib_neigh_mac(a, &want);
	TEST_ASSERT_BUFFERS_EQUAL(p + 6, want.addr_bytes, 6,
				  "a source copy being rewritten was used");
	rte_pktmbuf_free(m);

	/* Back as the control side left them; the table frees cleanly. */
	*ca = save_a;
	*cs = save_s;
	return TEST_SUCCESS;
}

/*
 * A transmit stamps its neighbour for ageing: in the entry with a small
 * table, in the front slot's copy with a big one, where
 * rte_ipoib_neigh_last_used() finds it too, and which the neighbour takes
 * with it when it leaves the slot (deleted here; read before the grace
 * period ends, as the control side may).
 */
static int
test_last_used(void)
{
	struct rte_ether_addr src_mac;
	struct rte_ipoib_path *path;
	struct rte_ipoib_neigh *n;
	struct rte_ipoib_hwaddr hw;
	struct rte_mbuf *m;
	uint64_t t0;

	path = path0_add();
	TEST_ASSERT(path != NULL, "path");
	id_hw(0, &hw);
	n = rte_ipoib_neigh_add(tbl, &hw, path);
	TEST_ASSERT(n != NULL, "neighbour");
	/* Older than an age tick, so that the next send stamps it. */
	rte_delay_us_block(US_PER_S / RTE_IPOIB_NEIGH_STAMP_HZ + 2000);
	t0 = rte_rdtsc();
	TEST_ASSERT(rte_ipoib_neigh_last_used(n) < t0, "stamped at creation");
	m = rte_pktmbuf_alloc(pool);
	TEST_ASSERT(m != NULL, "mbuf");
	rte_ipoib_dp_local_mac(dp_tx, &src_mac);
	TEST_ASSERT(eth_frame(m, 0, &src_mac), "room");
	TEST_ASSERT_EQUAL(rte_ipoib_encap_burst(dp_tx, &m, 1), 1, "sent");
	rte_pktmbuf_free(m);
	TEST_ASSERT(rte_ipoib_neigh_last_used(n) >= t0, "stamped by the send");
	TEST_ASSERT_SUCCESS(rte_ipoib_neigh_del(tbl, n), "del");
	TEST_ASSERT(rte_ipoib_neigh_last_used(n) >= t0, "the stamp left with it");
	return TEST_SUCCESS;
}

static int
suite_setup(void)
{
	char *argv[] = {
		(char *)"test_ipoib_rcu", (char *)"--no-huge", (char *)"-m", (char *)"128",
		(char *)"--no-pci", (char *)"--no-shconf", (char *)"--file-prefix=test_ipoib_rcu",
		(char *)"--log-level=lib.eal:error", NULL,
	};
	size_t sz;

	if (rte_eal_init(RTE_DIM(argv) - 1, argv) < 0)
		return -1;
	pool = rte_pktmbuf_pool_create("ipoib_rcu", 1024, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				       SOCKET_ID_ANY);
	sz = rte_rcu_qsbr_get_memsize(1);
	qsbr = aligned_alloc(RTE_CACHE_LINE_SIZE, RTE_ALIGN_CEIL(sz, RTE_CACHE_LINE_SIZE));
	if (pool == NULL || qsbr == NULL || rte_rcu_qsbr_init(qsbr, 1) != 0)
		return -1;
	return 0;
}

static void
suite_teardown(void)
{
	free(qsbr);
	rte_mempool_free(pool);
	rte_eal_cleanup();
}

/*
 * The table and the two data-path contexts, for @p max_neigh entries:
 * NB_ID, the bursts' one pass over a table the caches hold; 4 * NB_ID,
 * their two passes over a big one (ipoib_tx.c and ipoib_rx.c, IPOIB_FRONT_SMALL_SLOTS).
 */
static int
tables_setup(uint32_t max_neigh)
{
	struct rte_ipoib_tbl_conf tc = {
		.max_neigh = max_neigh, .max_path = NB_PATH, .ah_free = ah_free_cb,
		.qsbr = qsbr,
	};
	struct rte_ipoib_dp_conf dc = {
		.mode = RTE_IPOIB_MODE_ETH, .local_lid = 1, .pkey = 0xffff, .scope = 2,
		.qkey = 0x0b1b, .mtu = 2044,
	};
	struct rte_ib_gid g;

	ah_made = 0;
	ah_freed = 0;
	bad_reads = 0;
	stop = 0;
	tbl = rte_ipoib_tbl_create(&tc);
	rte_ib_gid_set(&g, RTE_IB_GID_DEFAULT_PREFIX, 0x0002c903ffff0001ull);
	rte_ipoib_hwaddr_set(&local, 0, 0x48, &g);
	dc.tbl = tbl;
	dc.local = local;
	dp_tx = rte_ipoib_dp_create(&dc);
	dp_rx = rte_ipoib_dp_create(&dc);
	return tbl == NULL || dp_tx == NULL || dp_rx == NULL ? TEST_FAILED : TEST_SUCCESS;
}

static int
tables_setup_small(void)
{
	return tables_setup(NB_ID);
}

static int
tables_setup_big(void)
{
	return tables_setup(4 * NB_ID);
}

static void
tables_teardown(void)
{
	rte_ipoib_dp_free(dp_tx);
	rte_ipoib_dp_free(dp_rx);
	rte_ipoib_tbl_free(tbl);
	dp_tx = NULL;
	dp_rx = NULL;
	tbl = NULL;
}

static struct unit_test_suite ipoib_rcu_suite = {
	.suite_name = "lib/ipoib tables under concurrency",
	.setup = suite_setup,
	.teardown = suite_teardown,
	.unit_test_cases = {
		TEST_CASE_ST(tables_setup_small, tables_teardown, test_churn),
		TEST_CASE_ST(tables_setup_big, tables_teardown, test_churn),
		TEST_CASE_ST(tables_setup_small, tables_teardown, test_torn_slot),
		TEST_CASE_ST(tables_setup_big, tables_teardown, test_torn_slot),
		TEST_CASE_ST(tables_setup_small, tables_teardown, test_copy_midway),
		TEST_CASE_ST(tables_setup_big, tables_teardown, test_copy_midway),
		TEST_CASE_ST(tables_setup_small, tables_teardown, test_last_used),
		TEST_CASE_ST(tables_setup_big, tables_teardown, test_last_used),
		TEST_CASES_END()
	}
};

int
main(void)
{
	return unit_test_suite_runner(&ipoib_rcu_suite);
}
