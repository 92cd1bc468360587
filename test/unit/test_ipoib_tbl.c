/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * lib/ipoib neighbour and path tables, single-threaded: indexes, paths
 * and their address handles, deferred frees with a QSBR grace period,
 * every error return. No EAL needed (the tables use libc memory).
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include <rte_ipoib_table.h>

#include "test.h"

/* Stand-ins for address handles: the table never dereferences them. */
static int ah_store[8];
static int ah_freed[8];

static void
ah_free(void *ctx, struct rte_ib_ah *ah)
{
	if (ctx != ah_freed)
		return;
	ah_freed[(int *)(void *)ah - ah_store]++;
}

#define AH(i) ((struct rte_ib_ah *)(void *)&ah_store[i])

static void
peer(struct rte_ipoib_hwaddr *hw, uint64_t guid, uint32_t qpn)
{
	struct rte_ib_gid gid;

	rte_ib_gid_set(&gid, RTE_IB_GID_DEFAULT_PREFIX, guid);
	rte_ipoib_hwaddr_set(hw, 0, qpn, &gid);
}

static int
test_conf_errors(void)
{
	struct rte_ipoib_tbl_conf c = { .max_neigh = 16, .max_path = 16 };

	c.max_neigh = 0;
	TEST_ASSERT(rte_ipoib_tbl_create(&c) == NULL && rte_errno == EINVAL, "max_neigh 0");
	c.max_neigh = 16;
	c.max_path = 0;
	TEST_ASSERT(rte_ipoib_tbl_create(&c) == NULL, "max_path 0");
	c.max_path = 16;
	c.queue_len = 1025;
	TEST_ASSERT(rte_ipoib_tbl_create(&c) == NULL, "queue_len 1025");
	c.queue_len = 2048;
	TEST_ASSERT(rte_ipoib_tbl_create(&c) == NULL, "queue_len 2048");
	TEST_ASSERT(rte_ipoib_tbl_create(NULL) == NULL, "NULL");
	rte_ipoib_tbl_free(NULL);
	return TEST_SUCCESS;
}

static int
test_mac_derivation(void)
{
	/*
	 * rte_ipoib_table.h: 02, then the GUID's low 40 bits xor QPN << 16.
	 * GUID 0x0002c90300001234, QPN 0x48: 0x0300001234 ^ 0x0000480000 =
	 * 0x0300481234, so 02:03:00:48:12:34.
	 */
	static const uint8_t want[6] = { 0x02, 0x03, 0x00, 0x48, 0x12, 0x34 };
	struct rte_ipoib_hwaddr hw;
	struct rte_ether_addr mac;

	peer(&hw, UINT64_C(0x0002c90300001234), 0x48);
	rte_ipoib_mac_from_hwaddr(&hw, &mac);
	TEST_ASSERT_BUFFERS_EQUAL(mac.addr_bytes, want, 6, "mac");
	TEST_ASSERT(rte_is_unicast_ether_addr(&mac) && !rte_is_universal_ether_addr(&mac),
		    "locally administered unicast");
	return TEST_SUCCESS;
}

static int
test_neigh_path(void)
{
	struct rte_ipoib_tbl_conf c = {
		.max_neigh = 64, .max_path = 8, .queue_len = 4,
		.ah_free = ah_free, .ah_free_ctx = ah_freed,
	};
	struct rte_ipoib_hwaddr a, b, clash, mc;
	struct rte_ipoib_neigh *na, *nb, *nm;
	struct rte_ipoib_path *pa, *pm;
	struct rte_ipoib_tbl_stats st;
	struct rte_ether_addr mac;
	struct rte_ipoib_tbl *t;
	struct rte_ib_gid g, mgid;
	uint8_t ip[16] = { [10] = 0xff, [11] = 0xff, 10, 0, 0, 2 };

	memset(ah_freed, 0, sizeof(ah_freed));
	t = rte_ipoib_tbl_create(&c);
	TEST_ASSERT(t != NULL, "create");
	peer(&a, 0x0002c90300000002, 0x48);
	peer(&b, 0x0002c90300000003, 0x49);
	rte_ipoib_hwaddr_gid(&a, &g);

	pa = rte_ipoib_path_add(t, &g, 0xffff);
	TEST_ASSERT(pa != NULL, "path");
	TEST_ASSERT(rte_ipoib_path_add(t, &g, 0xffff) == NULL && rte_errno == EEXIST, "dup");
	TEST_ASSERT(rte_ipoib_path_lookup(t, &g, 0xffff) == pa, "lookup");
	TEST_ASSERT(rte_ipoib_path_lookup(t, &g, 0x8001) == NULL && rte_errno == ENOENT,
		    "other P_Key is another path");
	na = rte_ipoib_neigh_add(t, &a, pa);
	TEST_ASSERT(na != NULL, "neigh a");
	TEST_ASSERT(rte_ipoib_neigh_add(t, &a, NULL) == NULL && rte_errno == EEXIST, "dup");
	nb = rte_ipoib_neigh_add(t, &b, NULL);
	TEST_ASSERT(nb != NULL, "neigh b");
	/* Same MAC as a: GUID bit 16 cancels the QPN's: 0x...02 ^ (0x49 ^ 0x48) << 16. */
	peer(&clash, 0x0002c90300010002, 0x49);
	TEST_ASSERT(rte_ipoib_neigh_add(t, &clash, NULL) == NULL && rte_errno == EEXIST,
		    "MAC collision refused");

	TEST_ASSERT(rte_ipoib_neigh_lookup(t, &a) == na, "by hw");
	a.flags_qpn |= RTE_BE32(0x80000000);
	TEST_ASSERT(rte_ipoib_neigh_lookup(t, &a) == na, "flags ignored");
	rte_ipoib_neigh_mac(na, &mac);
	TEST_ASSERT(rte_ipoib_neigh_lookup_mac(t, &mac) == na, "by mac");
	rte_ipoib_neigh_mac(nb, &mac);
	TEST_ASSERT(rte_ipoib_neigh_lookup_mac(t, &mac) == nb, "by mac b");
	TEST_ASSERT(rte_ipoib_neigh_path(na) == pa && rte_ipoib_neigh_path(nb) == NULL, "paths");
	TEST_ASSERT(rte_ipoib_neigh_lookup_src(t, 5, 0x48) == NULL, "no DLID yet");

	/* Resolve: handle and DLID; the source index follows. */
	TEST_ASSERT_SUCCESS(rte_ipoib_path_set_ah(t, pa, AH(1), 5), "set ah");
	TEST_ASSERT(rte_ipoib_neigh_lookup_src(t, 5, 0x48) == na, "by (slid, qpn)");
	TEST_ASSERT(rte_ipoib_neigh_lookup_src(t, 5, 0x49) == NULL, "other qpn");
	TEST_ASSERT_SUCCESS(rte_ipoib_path_set_ah(t, pa, AH(2), 7), "new ah, new dlid");
	TEST_ASSERT_EQUAL(ah_freed[1], 1, "old handle freed at once without QSBR");
	TEST_ASSERT(rte_ipoib_neigh_lookup_src(t, 5, 0x48) == NULL, "old dlid gone");
	TEST_ASSERT(rte_ipoib_neigh_lookup_src(t, 7, 0x48) == na, "new dlid");

	/* IP binding, and its move to another neighbour. */
	TEST_ASSERT_SUCCESS(rte_ipoib_neigh_bind_ip(t, na, ip), "bind");
	TEST_ASSERT(rte_ipoib_neigh_lookup_ip(t, ip) == na, "by ip");
	TEST_ASSERT_SUCCESS(rte_ipoib_neigh_bind_ip(t, nb, ip), "rebind");
	TEST_ASSERT(rte_ipoib_neigh_lookup_ip(t, ip) == nb, "moved");

	/* Multicast neighbour: no MAC index, no source index. */
	TEST_ASSERT_SUCCESS(rte_ipoib_bcast_mgid(0xffff, 2, &mgid), "mgid");
	rte_ipoib_mcast_hwaddr(&mgid, &mc);
	pm = rte_ipoib_path_add(t, &mgid, 0xffff);
	nm = rte_ipoib_neigh_add(t, &mc, pm);
	TEST_ASSERT(nm != NULL && rte_ipoib_neigh_lookup(t, &mc) == nm, "mcast");
	TEST_ASSERT_SUCCESS(rte_ipoib_path_set_ah(t, pm, AH(3), 0xc000), "mcast ah");
	TEST_ASSERT(rte_ipoib_neigh_lookup_src(t, 0xc000, 0xffffff) == NULL, "no src index");

	TEST_ASSERT_EQUAL(rte_ipoib_path_del(t, pa), -1, "busy");
	TEST_ASSERT_EQUAL(rte_errno, EBUSY, "errno");
	TEST_ASSERT_SUCCESS(rte_ipoib_neigh_del(t, na), "del a");
	TEST_ASSERT(rte_ipoib_neigh_lookup(t, &a) == NULL, "gone");
	TEST_ASSERT(rte_ipoib_neigh_lookup_src(t, 7, 0x48) == NULL, "src gone");
	TEST_ASSERT_SUCCESS(rte_ipoib_path_del(t, pa), "path del");
	TEST_ASSERT_EQUAL(ah_freed[2], 1, "its handle freed");
	TEST_ASSERT(rte_ipoib_path_lookup(t, &g, 0xffff) == NULL, "path gone");
	TEST_ASSERT_SUCCESS(rte_ipoib_tbl_stats_get(t, &st), "stats");
	TEST_ASSERT(st.nb_neigh == 2 && st.nb_path == 1 && st.nb_deferred == 0, "counts");
	rte_ipoib_tbl_free(t);
	TEST_ASSERT_EQUAL(ah_freed[3], 1, "free releases the handles in use");
	return TEST_SUCCESS;
}

/*
 * A neighbour keeps its IPv4 and IPv6 addresses side by side (a
 * dual-stack peer in the L3 view: binding one must not unbind the
 * other), up to RTE_IPOIB_NEIGH_MAX_IP; one more replaces its oldest;
 * an address moves between neighbours; a table holds twice max_neigh
 * addresses; deleting a neighbour unbinds them all.
 */
static int
test_neigh_ips(void)
{
	struct rte_ipoib_tbl_conf c = { .max_neigh = 2, .max_path = 2, .queue_len = 4 };
	uint8_t v4[16] = { [10] = 0xff, [11] = 0xff, 10, 0, 0, 3 };
	uint8_t ll[16] = { 0xfe, 0x80, [15] = 3 }, gl[16] = { 0xfd, 0x00, [15] = 3 };
	uint8_t v4b[16] = { [10] = 0xff, [11] = 0xff, 10, 0, 0, 4 };
	struct rte_ipoib_neigh *na, *nb, *nc;
	struct rte_ipoib_tbl_stats st;
	struct rte_ipoib_hwaddr a, b;
	struct rte_ipoib_tbl *t;
	unsigned int i;

	t = rte_ipoib_tbl_create(&c);
	TEST_ASSERT(t != NULL, "create");
	peer(&a, 0x0002c90300000003, 0x49);
	peer(&b, 0x0002c90300000004, 0x4a);
	na = rte_ipoib_neigh_add(t, &a, NULL);
	nb = rte_ipoib_neigh_add(t, &b, NULL);
	TEST_ASSERT(na != NULL && nb != NULL, "neighbours");
	TEST_ASSERT_SUCCESS(rte_ipoib_neigh_bind_ip(t, na, v4), "IPv4");
	TEST_ASSERT_SUCCESS(rte_ipoib_neigh_bind_ip(t, na, ll), "IPv6 link-local");
	TEST_ASSERT_SUCCESS(rte_ipoib_neigh_bind_ip(t, na, gl), "IPv6 global");
	TEST_ASSERT(rte_ipoib_neigh_lookup_ip(t, v4) == na && rte_ipoib_neigh_lookup_ip(t, ll) == na &&
		    rte_ipoib_neigh_lookup_ip(t, gl) == na, "all three at once");
	TEST_ASSERT_SUCCESS(rte_ipoib_neigh_bind_ip(t, na, v4), "bound again");
	TEST_ASSERT(rte_ipoib_neigh_lookup_ip(t, v4) == na && rte_ipoib_neigh_lookup_ip(t, gl) == na,
		    "binding one already bound changes nothing");
	/* A fourth: the oldest (10.0.0.3) goes. */
	TEST_ASSERT_SUCCESS(rte_ipoib_neigh_bind_ip(t, na, v4b), "a fourth");
	TEST_ASSERT(rte_ipoib_neigh_lookup_ip(t, v4) == NULL && rte_ipoib_neigh_lookup_ip(t, ll) == na &&
		    rte_ipoib_neigh_lookup_ip(t, v4b) == na, "the oldest replaced");
	/* An address moves: off A, onto B; A keeps its others. */
	TEST_ASSERT_SUCCESS(rte_ipoib_neigh_bind_ip(t, nb, ll), "move fe80::3");
	TEST_ASSERT(rte_ipoib_neigh_lookup_ip(t, ll) == nb && rte_ipoib_neigh_lookup_ip(t, gl) == na &&
		    rte_ipoib_neigh_lookup_ip(t, v4b) == na, "moved, the rest kept");
	/*
	 * The table's 4 (twice max_neigh) are taken: A with 2, B with 2.
	 * One more for B replaces B's oldest, A's stay.
	 */
	TEST_ASSERT_SUCCESS(rte_ipoib_neigh_bind_ip(t, nb, v4), "B: 10.0.0.3");
	TEST_ASSERT_SUCCESS(rte_ipoib_neigh_bind_ip(t, nb, (const uint8_t[16]){ 0xfd, [15] = 5 }),
			    "B: a third, the table full");
	TEST_ASSERT(rte_ipoib_neigh_lookup_ip(t, ll) == NULL && rte_ipoib_neigh_lookup_ip(t, v4) == nb &&
		    rte_ipoib_neigh_lookup_ip(t, gl) == na && rte_ipoib_neigh_lookup_ip(t, v4b) == na,
		    "B's oldest replaced, A's kept");
	TEST_ASSERT_SUCCESS(rte_ipoib_neigh_del(t, na), "del A");
	TEST_ASSERT(rte_ipoib_neigh_lookup_ip(t, gl) == NULL && rte_ipoib_neigh_lookup_ip(t, v4b) == NULL,
		    "A's addresses gone with it");
	TEST_ASSERT(rte_ipoib_neigh_lookup_ip(t, v4) == nb, "B's kept");
	TEST_ASSERT_SUCCESS(rte_ipoib_neigh_bind_ip(t, nb, gl), "room again");
	TEST_ASSERT_SUCCESS(rte_ipoib_tbl_stats_get(t, &st), "stats");
	TEST_ASSERT_EQUAL(st.nb_neigh, 1, "one neighbour");
	rte_ipoib_tbl_free(t);

	/*
	 * Three neighbours: A and B take the table's 6 addresses, three
	 * each; C, with none of its own to replace, is refused (ENOSPC) and
	 * takes none of theirs.
	 */
	c.max_neigh = 3;
	t = rte_ipoib_tbl_create(&c);
	TEST_ASSERT(t != NULL, "create");
	na = rte_ipoib_neigh_add(t, &a, NULL);
	nb = rte_ipoib_neigh_add(t, &b, NULL);
	peer(&a, 0x0002c90300000005, 0x4b);
	nc = rte_ipoib_neigh_add(t, &a, NULL);
	TEST_ASSERT(na != NULL && nb != NULL && nc != NULL, "neighbours");
	for (i = 0; i < 6; i++) {
		uint8_t ip[16] = { [10] = 0xff, [11] = 0xff, 10, 0, 1, (uint8_t)i };

		TEST_ASSERT_SUCCESS(rte_ipoib_neigh_bind_ip(t, i < 3 ? na : nb, ip), "ip %u", i);
	}
	TEST_ASSERT_EQUAL(rte_ipoib_neigh_bind_ip(t, nc, v4), -1, "C refused");
	TEST_ASSERT_EQUAL(rte_errno, ENOSPC, "ENOSPC");
	for (i = 0; i < 6; i++) {
		uint8_t ip[16] = { [10] = 0xff, [11] = 0xff, 10, 0, 1, (uint8_t)i };

		TEST_ASSERT(rte_ipoib_neigh_lookup_ip(t, ip) == (i < 3 ? na : nb), "ip %u kept", i);
	}
	rte_ipoib_tbl_free(t);
	return TEST_SUCCESS;
}

static int
test_capacity(void)
{
	struct rte_ipoib_tbl_conf c = { .max_neigh = 1000, .max_path = 1 };
	struct rte_ipoib_hwaddr hw;
	struct rte_ipoib_tbl *t;
	struct rte_ib_gid g;
	unsigned int i;

	t = rte_ipoib_tbl_create(&c);
	TEST_ASSERT(t != NULL, "create");
	for (i = 0; i < 1000; i++) {
		peer(&hw, 0x0002c90300000000ull + i * 7919, 0x48);
		TEST_ASSERT(rte_ipoib_neigh_add(t, &hw, NULL) != NULL, "add %u: %d", i, rte_errno);
	}
	peer(&hw, 0x0002c903ffffffffull, 0x48);
	TEST_ASSERT(rte_ipoib_neigh_add(t, &hw, NULL) == NULL && rte_errno == ENOSPC, "full");
	for (i = 0; i < 1000; i++) {
		peer(&hw, 0x0002c90300000000ull + i * 7919, 0x48);
		TEST_ASSERT(rte_ipoib_neigh_lookup(t, &hw) != NULL, "lookup %u", i);
	}
	rte_ib_gid_set(&g, RTE_IB_GID_DEFAULT_PREFIX, 1);
	TEST_ASSERT(rte_ipoib_path_add(t, &g, 0xffff) != NULL, "path");
	rte_ib_gid_set(&g, RTE_IB_GID_DEFAULT_PREFIX, 2);
	TEST_ASSERT(rte_ipoib_path_add(t, &g, 0xffff) == NULL && rte_errno == ENOSPC, "full");
	rte_ipoib_tbl_free(t);
	return TEST_SUCCESS;
}

/*
 * Entries that share a front slot (ipoib_private.h: a direct-mapped
 * index by the MAC's low GUID bits and by the source LID, in front of
 * the hash index): with 16 neighbours the fronts have 64 slots, so GUIDs
 * (and LIDs) 64 apart share a home slot. Six of them: four take the
 * slot set, two wait; each is found by every lookup whatever its place,
 * deletes free and refill slots, and nothing deleted is found again.
 */
#define CLASH 6

static int
check_clash(struct rte_ipoib_tbl *t, struct rte_ipoib_neigh *const *n, const bool *live)
{
	struct rte_ether_addr mac[CLASH];
	struct rte_ipoib_neigh *out[CLASH];
	unsigned int i, nb_live = 0;

	for (i = 0; i < CLASH; i++) {
		struct rte_ipoib_neigh *want = live[i] ? n[i] : NULL;
		struct rte_ipoib_hwaddr hw;

		peer(&hw, 0x0002c90300000005ull + 64 * i, 0x48);
		rte_ipoib_mac_from_hwaddr(&hw, &mac[i]);
		TEST_ASSERT(rte_ipoib_neigh_lookup(t, &hw) == want, "by hw %u", i);
		TEST_ASSERT(rte_ipoib_neigh_lookup_mac(t, &mac[i]) == want, "by mac %u", i);
		TEST_ASSERT(rte_ipoib_neigh_lookup_src(t, 5 + 64 * i, 0x48) == want,
			    "by (slid, qpn) %u", i);
		nb_live += live[i];
	}
	TEST_ASSERT_EQUAL(rte_ipoib_neigh_lookup_mac_bulk(t, mac, CLASH, out), nb_live,
			  "bulk found");
	for (i = 0; i < CLASH; i++)
		TEST_ASSERT(out[i] == (live[i] ? n[i] : NULL), "bulk %u", i);
	return TEST_SUCCESS;
}

static int
test_front_clash(void)
{
	struct rte_ipoib_tbl_conf c = { .max_neigh = 16, .max_path = 16 };
	struct rte_ipoib_neigh *n[CLASH];
	struct rte_ipoib_path *p[CLASH];
	bool live[CLASH] = { false };
	struct rte_ipoib_tbl *t;
	unsigned int i, round;

	t = rte_ipoib_tbl_create(&c);
	TEST_ASSERT(t != NULL, "create");
	for (i = 0; i < CLASH; i++) {
		struct rte_ib_gid g;

		rte_ib_gid_set(&g, RTE_IB_GID_DEFAULT_PREFIX, 0x100 + i);
		p[i] = rte_ipoib_path_add(t, &g, 0xffff);
		TEST_ASSERT(p[i] != NULL, "path %u", i);
		/* DLIDs 5, 69, 133, ...: one home slot for their sources too. */
		TEST_ASSERT_SUCCESS(rte_ipoib_path_set_ah(t, p[i], AH(1), 5 + 64 * i), "ah");
	}
	/* Twice: slots are given back and taken again. */
	for (round = 0; round < 2; round++) {
		for (i = 0; i < CLASH; i++) {
			struct rte_ipoib_hwaddr hw;

			peer(&hw, 0x0002c90300000005ull + 64 * i, 0x48);
			n[i] = rte_ipoib_neigh_add(t, &hw, p[i]);
			TEST_ASSERT(n[i] != NULL, "add %u", i);
			live[i] = true;
			TEST_ASSERT_SUCCESS(check_clash(t, n, live), "after add %u", i);
		}
		/* In the slot set or waiting, in an order that changes by round. */
		for (i = 0; i < CLASH; i++) {
			unsigned int k = (i * 5 + round) % CLASH;  /* 5 and CLASH coprime: each once */

			TEST_ASSERT_SUCCESS(rte_ipoib_neigh_del(t, n[k]), "del %u", k);
			live[k] = false;
			TEST_ASSERT_SUCCESS(check_clash(t, n, live), "after del %u", k);
		}
	}
	rte_ipoib_tbl_free(t);
	return TEST_SUCCESS;
}

static int
count_cb(struct rte_ipoib_neigh *n, void *arg)
{
	RTE_SET_USED(n);
	(*(unsigned int *)arg)++;
	return 0;
}

static int
test_grace_period(void)
{
	struct rte_ipoib_tbl_conf c = {
		.max_neigh = 16, .max_path = 4,
		.ah_free = ah_free, .ah_free_ctx = ah_freed,
	};
	struct rte_ipoib_tbl_stats st;
	struct rte_ipoib_hwaddr hw;
	struct rte_ipoib_neigh *n;
	struct rte_ipoib_path *p;
	struct rte_ipoib_tbl *t;
	struct rte_rcu_qsbr *v;
	struct rte_ib_gid g;
	unsigned int cnt = 0;
	size_t sz;

	memset(ah_freed, 0, sizeof(ah_freed));
	sz = rte_rcu_qsbr_get_memsize(2);
	v = aligned_alloc(RTE_CACHE_LINE_SIZE, RTE_ALIGN_CEIL(sz, RTE_CACHE_LINE_SIZE));
	TEST_ASSERT(v != NULL && rte_rcu_qsbr_init(v, 2) == 0, "qsbr");
	TEST_ASSERT_SUCCESS(rte_rcu_qsbr_thread_register(v, 1), "register reader");
	rte_rcu_qsbr_thread_online(v, 1);
	c.qsbr = v;
	t = rte_ipoib_tbl_create(&c);
	TEST_ASSERT(t != NULL, "create");
	peer(&hw, 0x0002c90300000002, 0x48);
	rte_ipoib_hwaddr_gid(&hw, &g);
	p = rte_ipoib_path_add(t, &g, 0xffff);
	n = rte_ipoib_neigh_add(t, &hw, p);
	rte_ipoib_neigh_walk(t, count_cb, &cnt);
	TEST_ASSERT_EQUAL(cnt, 1, "walk");
	TEST_ASSERT_SUCCESS(rte_ipoib_path_set_ah(t, p, AH(4), 3), "ah 4");
	TEST_ASSERT_SUCCESS(rte_ipoib_path_set_ah(t, p, AH(5), 3), "ah 5");
	TEST_ASSERT_SUCCESS(rte_ipoib_neigh_del(t, n), "del");
	TEST_ASSERT_SUCCESS(rte_ipoib_path_del(t, p), "path del");
	/* The reader has not been quiescent: nothing may be freed. */
	TEST_ASSERT(rte_ipoib_tbl_reclaim(t) > 0, "waiting");
	TEST_ASSERT_EQUAL(ah_freed[4] + ah_freed[5], 0, "handles kept");
	TEST_ASSERT_SUCCESS(rte_ipoib_tbl_stats_get(t, &st), "stats");
	TEST_ASSERT(st.nb_deferred >= 4 && st.nb_freed == 0, "deferred %u", st.nb_deferred);
	rte_rcu_qsbr_quiescent(v, 1);
	TEST_ASSERT_EQUAL(rte_ipoib_tbl_reclaim(t), 0, "all due");
	TEST_ASSERT(ah_freed[4] == 1 && ah_freed[5] == 1, "handles freed once each");
	rte_ipoib_tbl_free(t);
	free(v);
	return TEST_SUCCESS;
}

/*
 * A table filled to max_neigh with random addresses, every neighbour on
 * its own resolved path (LID, so a source binding) with an IP bound:
 * every add succeeds and every lookup finds its neighbour, then again
 * after half are deleted and others added in their place. max_neigh a
 * power of two is the hash indexes' fullest (half their slots): with one
 * window per key and a fixed CRC, random keys were refused with ENOSPC
 * from about three quarters of max_neigh (bench_ipoib with random GUIDs,
 * 76,202 of 100,000); each table draws its own hash keys, so three
 * tables of each size.
 */
#define FILL_LIDS 40000u

static uint64_t
fill_rand(uint64_t *st)
{
	uint64_t x = (*st += 0x9e3779b97f4a7c15ull);

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* What neighbour @p i is known by, from its draw @p r (fill_peer()). */
struct fill_addr {
	struct rte_ipoib_hwaddr hw;
	struct rte_ib_gid gid;
	uint16_t lid;
	uint8_t ip[16];
};

static void
fill_peer(uint32_t i, uint64_t r, struct fill_addr *a)
{
	/*
	 * Random low 24 GUID bits (the MAC front's index: its slots clash as
	 * they would in a fabric), @p i above them (distinct GIDs and MACs:
	 * the QPN, below 256, changes bits 16-23 of the MAC only), distinct
	 * (LID, QPN) by the group i / FILL_LIDS in the QPN.
	 */
	peer(&a->hw, 0x0002c90000000000ull | (uint64_t)i << 24 | (r & 0xffffff),
	     0x48 + i / FILL_LIDS);
	rte_ipoib_hwaddr_gid(&a->hw, &a->gid);
	a->lid = (uint16_t)(1 + i % FILL_LIDS);
	memset(a->ip, 0, 16);
	memcpy(a->ip, &r, 8);
	memcpy(a->ip + 8, &i, 4);
}

static int
fill_one(struct rte_ipoib_tbl *t, uint32_t i, uint64_t r, struct rte_ipoib_neigh **np)
{
	struct rte_ipoib_path *p;
	struct fill_addr a;

	fill_peer(i, r, &a);
	p = rte_ipoib_path_add(t, &a.gid, 0xffff);
	TEST_ASSERT(p != NULL, "path %u: %s", i, rte_strerror(rte_errno));
	TEST_ASSERT_SUCCESS(rte_ipoib_path_set_ah(t, p, AH(0), a.lid), "ah %u", i);
	*np = rte_ipoib_neigh_add(t, &a.hw, p);
	TEST_ASSERT(*np != NULL, "neighbour %u: %s", i, rte_strerror(rte_errno));
	TEST_ASSERT_SUCCESS(rte_ipoib_neigh_bind_ip(t, *np, a.ip), "ip %u: %s", i,
			    rte_strerror(rte_errno));
	return TEST_SUCCESS;
}

static int
fill_check(struct rte_ipoib_tbl *t, uint32_t i, uint64_t r, struct rte_ipoib_neigh *want)
{
	struct rte_ether_addr mac;
	struct rte_ipoib_path *p;
	struct fill_addr a;

	fill_peer(i, r, &a);
	rte_ipoib_mac_from_hwaddr(&a.hw, &mac);
	TEST_ASSERT(rte_ipoib_neigh_lookup(t, &a.hw) == want, "by hw %u", i);
	TEST_ASSERT(rte_ipoib_neigh_lookup_mac(t, &mac) == want, "by mac %u", i);
	TEST_ASSERT(rte_ipoib_neigh_lookup_src(t, a.lid, rte_ipoib_hwaddr_qpn(&a.hw)) == want,
		    "by source %u", i);
	TEST_ASSERT(rte_ipoib_neigh_lookup_ip(t, a.ip) == want, "by ip %u", i);
	p = rte_ipoib_path_lookup(t, &a.gid, 0xffff);
	TEST_ASSERT(want == NULL ? p == NULL : p != NULL, "path %u", i);
	return TEST_SUCCESS;
}

/* Every neighbour found (fill_check()), @p n[i] drawn as @p r[i]. */
static int
fill_check_all(struct rte_ipoib_tbl *t, uint32_t max, const uint64_t *r,
	       struct rte_ipoib_neigh *const *n)
{
	uint32_t i;

	for (i = 0; i < max; i++)
		if (fill_check(t, i, r[i], n[i]) != TEST_SUCCESS)
			return TEST_FAILED;
	return TEST_SUCCESS;
}

static int
fill_round(uint32_t max, uint64_t seed)
{
	struct rte_ipoib_tbl_conf c = { .max_neigh = max, .max_path = max };
	struct rte_ipoib_neigh **n = calloc(max, sizeof(*n));
	uint64_t *r = calloc(max, sizeof(*r)), st = seed;
	struct rte_ipoib_tbl *t = rte_ipoib_tbl_create(&c);
	int rc = TEST_FAILED;
	uint32_t i;

	if (t == NULL || n == NULL || r == NULL)
		goto out;
	for (i = 0; i < max; i++) {
		r[i] = fill_rand(&st);
		if (fill_one(t, i, r[i], &n[i]) != TEST_SUCCESS)
			goto out;
	}
	if (fill_check_all(t, max, r, n) != TEST_SUCCESS)
		goto out;
	/* Every other one out (its path too), then others in their place. */
	for (i = 0; i < max; i += 2) {
		struct rte_ipoib_path *p = rte_ipoib_neigh_path(n[i]);

		if (rte_ipoib_neigh_del(t, n[i]) != 0 || rte_ipoib_path_del(t, p) != 0)
			goto out;
		if (fill_check(t, i, r[i], NULL) != TEST_SUCCESS)
			goto out;
		r[i] = fill_rand(&st);
		if (fill_one(t, i, r[i], &n[i]) != TEST_SUCCESS)
			goto out;
	}
	rc = fill_check_all(t, max, r, n);
out:
	rte_ipoib_tbl_free(t);
	free(n);
	free(r);
	return rc;
}

static int
test_fill_random(void)
{
	static const uint32_t sizes[] = { 4096, 65536 };
	unsigned int k, round;

	for (k = 0; k < RTE_DIM(sizes); k++)
		for (round = 0; round < 3; round++)
			TEST_ASSERT_SUCCESS(fill_round(sizes[k], 0x1b40 + 977 * round + k),
					    "%u neighbours, round %u", sizes[k], round);
	return TEST_SUCCESS;
}

/*
 * The invalid P_Key: base 0, 0x0000 and its full-member form 0x8000,
 * names no partition (IBA 10.9.1.2; Linux's ipoib create_child() refuses
 * both): a path for it is refused, EINVAL, and nothing is counted. The
 * lowest valid ones (0x0001, 0x8001) and the default 0xffff are taken.
 */
static int
test_path_pkey(void)
{
	static const uint16_t bad[] = { 0x0000, 0x8000 };
	static const uint16_t good[] = { 0x0001, 0x8001, 0x7fff, 0xffff };
	struct rte_ipoib_tbl_conf c = { .max_neigh = 16, .max_path = 16 };
	struct rte_ipoib_tbl_stats st;
	struct rte_ipoib_hwaddr a;
	struct rte_ipoib_tbl *t;
	struct rte_ib_gid g;
	unsigned int i;

	t = rte_ipoib_tbl_create(&c);
	TEST_ASSERT(t != NULL, "create");
	peer(&a, 0x0002c90300000002, 0x48);
	rte_ipoib_hwaddr_gid(&a, &g);
	for (i = 0; i < RTE_DIM(bad); i++) {
		rte_errno = 0;
		TEST_ASSERT(rte_ipoib_path_add(t, &g, bad[i]) == NULL && rte_errno == EINVAL,
			    "path_add P_Key 0x%04x", bad[i]);
		rte_errno = 0;
		TEST_ASSERT(rte_ipoib_path_lookup(t, &g, bad[i]) == NULL && rte_errno == EINVAL,
			    "path_lookup P_Key 0x%04x", bad[i]);
	}
	TEST_ASSERT_SUCCESS(rte_ipoib_tbl_stats_get(t, &st), "stats");
	TEST_ASSERT_EQUAL(st.nb_path, 0u, "a refused path counted");
	for (i = 0; i < RTE_DIM(good); i++)
		TEST_ASSERT(rte_ipoib_path_add(t, &g, good[i]) != NULL, "path_add P_Key 0x%04x",
			    good[i]);
	rte_ipoib_tbl_free(t);
	return TEST_SUCCESS;
}

/* Every public function of rte_ipoib_table.h given NULL: EINVAL, as its header says. */
static int
test_null_args(void)
{
	struct rte_ipoib_tbl_conf c = { .max_neigh = 16, .max_path = 16 };
	struct rte_ipoib_neigh *out[1];
	struct rte_ipoib_tbl_stats st;
	struct rte_ipoib_hwaddr a;
	struct rte_ether_addr mac;
	struct rte_ipoib_neigh *n;
	struct rte_ipoib_path *p;
	struct rte_ipoib_tbl *t;
	uint8_t ip[16] = { 0 };
	struct rte_ib_gid g;

#define NULL_EINVAL(expr, fail) do { \
	rte_errno = 0; \
	TEST_ASSERT((expr) == (fail) && rte_errno == EINVAL, "%s", #expr); \
} while (0)
#define VOID_EINVAL(expr) do { \
	rte_errno = 0; \
	expr; \
	TEST_ASSERT(rte_errno == EINVAL, "%s", #expr); \
} while (0)
	t = rte_ipoib_tbl_create(&c);
	TEST_ASSERT(t != NULL, "create");
	peer(&a, 0x0002c90300000002, 0x48);
	rte_ipoib_hwaddr_gid(&a, &g);
	p = rte_ipoib_path_add(t, &g, 0xffff);
	n = rte_ipoib_neigh_add(t, &a, p);
	TEST_ASSERT(p != NULL && n != NULL, "path and neighbour");
	memset(&mac, 0xaa, sizeof(mac));

	NULL_EINVAL(rte_ipoib_tbl_create(NULL), NULL);
	NULL_EINVAL(rte_ipoib_tbl_reclaim(NULL), 0u);
	NULL_EINVAL(rte_ipoib_tbl_stats_get(NULL, &st), -1);
	NULL_EINVAL(rte_ipoib_tbl_stats_get(t, NULL), -1);
	NULL_EINVAL(rte_ipoib_path_add(NULL, &g, 0xffff), NULL);
	NULL_EINVAL(rte_ipoib_path_add(t, NULL, 0xffff), NULL);
	NULL_EINVAL(rte_ipoib_path_lookup(NULL, &g, 0xffff), NULL);
	NULL_EINVAL(rte_ipoib_path_lookup(t, NULL, 0xffff), NULL);
	NULL_EINVAL(rte_ipoib_path_set_ah(NULL, p, NULL, 1), -1);
	NULL_EINVAL(rte_ipoib_path_set_ah(t, NULL, NULL, 1), -1);
	NULL_EINVAL(rte_ipoib_path_drain(NULL, p, (struct rte_mbuf **)out, 1), 0u);
	NULL_EINVAL(rte_ipoib_path_drain(t, NULL, (struct rte_mbuf **)out, 1), 0u);
	NULL_EINVAL(rte_ipoib_path_drain(t, p, NULL, 1), 0u);
	NULL_EINVAL(rte_ipoib_path_del(NULL, p), -1);
	NULL_EINVAL(rte_ipoib_path_del(t, NULL), -1);
	NULL_EINVAL(rte_ipoib_neigh_add(NULL, &a, p), NULL);
	NULL_EINVAL(rte_ipoib_neigh_add(t, NULL, p), NULL);
	NULL_EINVAL(rte_ipoib_neigh_set_path(NULL, n, p), -1);
	NULL_EINVAL(rte_ipoib_neigh_set_path(t, NULL, p), -1);
	NULL_EINVAL(rte_ipoib_neigh_bind_ip(NULL, n, ip), -1);
	NULL_EINVAL(rte_ipoib_neigh_bind_ip(t, NULL, ip), -1);
	NULL_EINVAL(rte_ipoib_neigh_bind_ip(t, n, NULL), -1);
	NULL_EINVAL(rte_ipoib_neigh_del(NULL, n), -1);
	NULL_EINVAL(rte_ipoib_neigh_del(t, NULL), -1);
	NULL_EINVAL(rte_ipoib_neigh_lookup(NULL, &a), NULL);
	NULL_EINVAL(rte_ipoib_neigh_lookup(t, NULL), NULL);
	NULL_EINVAL(rte_ipoib_neigh_lookup_mac(NULL, &mac), NULL);
	NULL_EINVAL(rte_ipoib_neigh_lookup_mac(t, NULL), NULL);
	NULL_EINVAL(rte_ipoib_neigh_lookup_mac_bulk(NULL, &mac, 1, out), 0u);
	NULL_EINVAL(rte_ipoib_neigh_lookup_mac_bulk(t, NULL, 1, out), 0u);
	NULL_EINVAL(rte_ipoib_neigh_lookup_mac_bulk(t, &mac, 1, NULL), 0u);
	NULL_EINVAL(rte_ipoib_neigh_lookup_ip(NULL, ip), NULL);
	NULL_EINVAL(rte_ipoib_neigh_lookup_ip(t, NULL), NULL);
	NULL_EINVAL(rte_ipoib_neigh_lookup_src(NULL, 1, 0x48), NULL);
	NULL_EINVAL(rte_ipoib_neigh_hwaddr(NULL), NULL);
	NULL_EINVAL(rte_ipoib_neigh_last_used(NULL), 0u);
	NULL_EINVAL(rte_ipoib_neigh_path(NULL), NULL);
	NULL_EINVAL(rte_ipoib_neigh_walk(NULL, NULL, NULL), -1);
	VOID_EINVAL(rte_ipoib_neigh_mac(NULL, &mac));
	VOID_EINVAL(rte_ipoib_neigh_mac(n, NULL));
	VOID_EINVAL(rte_ipoib_mac_from_hwaddr(NULL, &mac));
	VOID_EINVAL(rte_ipoib_mac_from_hwaddr(&a, NULL));
	TEST_ASSERT(mac.addr_bytes[0] == 0xaa, "a failed accessor wrote its output");
#undef NULL_EINVAL
#undef VOID_EINVAL
	/* A miss is NULL, rte_errno untouched (data lcores). */
	rte_errno = 0;
	TEST_ASSERT(rte_ipoib_neigh_lookup_mac(t, &mac) == NULL && rte_errno == 0, "miss");
	rte_ipoib_tbl_free(NULL);
	rte_ipoib_tbl_free(t);
	return TEST_SUCCESS;
}

static struct unit_test_suite ipoib_tbl_suite = {
	.suite_name = "lib/ipoib tables",
	.unit_test_cases = {
		TEST_CASE(test_conf_errors),
		TEST_CASE(test_mac_derivation),
		TEST_CASE(test_neigh_path),
		TEST_CASE(test_neigh_ips),
		TEST_CASE(test_capacity),
		TEST_CASE(test_front_clash),
		TEST_CASE(test_grace_period),
		TEST_CASE(test_fill_random),
		TEST_CASE(test_path_pkey),
		TEST_CASE(test_null_args),
		TEST_CASES_END()
	}
};

int
main(void)
{
	return unit_test_suite_runner(&ipoib_tbl_suite);
}
