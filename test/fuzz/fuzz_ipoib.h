/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Shared by the lib/ipoib fuzz targets: one EAL (no hugepages), a mempool
 * and a table set up once per process, the same host as the seeds of
 * test/fuzz/gen_ipoib_corpus.py:
 *   local: GUID 0x0002c90300000002, QPN 0x48, LID 2, MAC 02:03:00:48:00:02
 *   peer P: GUID 0x0002c90300000003, QPN 0x49, path DLID 3,
 *           MAC 02:03:00:49:00:03, IPv4 10.0.0.3 bound
 *   groups: broadcast (P_Key 0xffff), 224.0.0.251, ff02::1:ff00:3
 * and the invariants the bursts promise: what they let through is well
 * formed. A violation aborts (a crash for the fuzzer and the replay).
 */

#ifndef _FUZZ_IPOIB_H_
#define _FUZZ_IPOIB_H_

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_ib_dev.h>
#include <rte_ib_mbuf.h>
#include <rte_mbuf.h>

#include <rte_ipoib_encap.h>

struct fuzz_ipoib {
	struct rte_mempool *pool;
	struct rte_ipoib_tbl *tbl;
	struct rte_ipoib_dp *dp[2];     /* [0] Ethernet view, [1] L3 view */
	struct rte_ipoib_hwaddr local, peer;
	struct rte_ib_ah ah_peer, ah_group[3];
};

static struct fuzz_ipoib fz;

#define FUZZ_CHECK(cond) do { if (!(cond)) abort(); } while (0)

static void
fuzz_hw(struct rte_ipoib_hwaddr *hw, uint64_t guid, uint32_t qpn)
{
	struct rte_ib_gid g;

	rte_ib_gid_set(&g, RTE_IB_GID_DEFAULT_PREFIX, guid);
	rte_ipoib_hwaddr_set(hw, 0, qpn, &g);
}

static void
fuzz_neigh(const struct rte_ipoib_hwaddr *hw, struct rte_ib_ah *ah, uint16_t dlid)
{
	struct rte_ipoib_path *p;
	struct rte_ib_gid g;

	rte_ipoib_hwaddr_gid(hw, &g);
	p = rte_ipoib_path_add(fz.tbl, &g, 0xffff);
	FUZZ_CHECK(p != NULL);
	ah->attr.dlid = dlid;
	FUZZ_CHECK(rte_ipoib_path_set_ah(fz.tbl, p, ah, dlid) == 0);
	FUZZ_CHECK(rte_ipoib_neigh_add(fz.tbl, hw, p) != NULL);
}

static void
fuzz_group(const struct rte_ib_gid *mgid, struct rte_ib_ah *ah, uint16_t mlid)
{
	struct rte_ipoib_hwaddr hw;

	ah->attr.ah_flags = RTE_IB_AH_GRH;
	ah->attr.grh.dgid = *mgid;
	rte_ipoib_mcast_hwaddr(mgid, &hw);
	fuzz_neigh(&hw, ah, mlid);
}

/* FUZZ_IPOIB_STATS=1: print the contexts' counters at exit (seed check). */
static void
fuzz_ipoib_stats(void)
{
	struct rte_ipoib_dp_stats st;
	int i, r;

	for (i = 0; i < 2; i++) {
		rte_ipoib_dp_stats_get(fz.dp[i], &st);
		printf("%s view: encap %lu queued %lu decap %lu arp %lu nd %lu drops:",
		       i == 0 ? "eth" : "l3", (unsigned long)st.encap_pkts,
		       (unsigned long)st.queued, (unsigned long)st.decap_pkts,
		       (unsigned long)st.arp_rewritten, (unsigned long)st.nd_rewritten);
		for (r = 1; r < RTE_IPOIB_DROP_MAX; r++)
			if (st.drops[r] != 0)
				printf(" %s=%lu", rte_ipoib_drop_reason_name(r),
				       (unsigned long)st.drops[r]);
		printf("\n");
	}
}

static void
fuzz_ipoib_init(void)
{
	char prefix[64];
	char *argv[] = {
		(char *)"fuzz_ipoib", (char *)"--no-huge", (char *)"-m", (char *)"64",
		(char *)"--no-pci", (char *)"--no-shconf", prefix,
		(char *)"--log-level=lib.eal:error", NULL,
	};
	struct rte_ipoib_tbl_conf tc = { .max_neigh = 64, .max_path = 16, .queue_len = 4 };
	struct rte_ipoib_dp_conf dc = {
		.local_lid = 2, .pkey = 0xffff, .pkey_index = 0, .scope = 2,
		.qkey = 0x0b1b, .mtu = 2044,
	};
	static const uint8_t snm[16] = { 0xff, 0x02, [11] = 1, [12] = 0xff, [15] = 3 };
	uint8_t ip[16] = { [10] = 0xff, [11] = 0xff, 10, 0, 0, 3 };
	struct rte_ib_gid mgid;
	int i;

	if (fz.pool != NULL)
		return;
	/* one runtime directory for all: --no-shconf writes nothing into it */
	snprintf(prefix, sizeof(prefix), "--file-prefix=fuzz_ipoib");
	FUZZ_CHECK(rte_eal_init(RTE_DIM(argv) - 1, argv) >= 0);
	fz.pool = rte_pktmbuf_pool_create("fuzz_ipoib", 64, 0, 0,
					  4096 + RTE_PKTMBUF_HEADROOM, SOCKET_ID_ANY);
	fz.tbl = rte_ipoib_tbl_create(&tc);
	FUZZ_CHECK(fz.pool != NULL && fz.tbl != NULL);
	fuzz_hw(&fz.local, 0x0002c90300000002ull, 0x48);
	fuzz_hw(&fz.peer, 0x0002c90300000003ull, 0x49);
	fuzz_neigh(&fz.peer, &fz.ah_peer, 3);
	FUZZ_CHECK(rte_ipoib_neigh_bind_ip(fz.tbl, rte_ipoib_neigh_lookup(fz.tbl, &fz.peer),
					   ip) == 0);
	rte_ipoib_bcast_mgid(0xffff, 2, &mgid);
	fuzz_group(&mgid, &fz.ah_group[0], 0xc000);
	rte_ipoib_ipv4_mc_mgid(RTE_BE32(0xe00000fb), 0xffff, 2, &mgid);
	fuzz_group(&mgid, &fz.ah_group[1], 0xc001);
	rte_ipoib_ipv6_mc_mgid(snm, 0xffff, 2, &mgid);
	fuzz_group(&mgid, &fz.ah_group[2], 0xc002);
	dc.tbl = fz.tbl;
	dc.local = fz.local;
	for (i = 0; i < 2; i++) {
		dc.mode = i == 0 ? RTE_IPOIB_MODE_ETH : RTE_IPOIB_MODE_L3;
		fz.dp[i] = rte_ipoib_dp_create(&dc);
		FUZZ_CHECK(fz.dp[i] != NULL);
	}
	if (getenv("FUZZ_IPOIB_STATS") != NULL)
		atexit(fuzz_ipoib_stats);
}

/* RFC 1071 sum of an ICMPv6 message, 0 when its checksum is right. */
static uint16_t
fuzz_icmp6_sum(const uint8_t *ip6, uint32_t len)
{
	uint32_t sum = len + 58, i;

	for (i = 8; i < 40; i += 2)
		sum += (uint32_t)ip6[i] << 8 | ip6[i + 1];
	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)ip6[40 + i] << 8 | ip6[40 + i + 1];
	if (len & 1)
		sum += (uint32_t)ip6[40 + len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* Is @p ip6 (@p len bytes) an ND message (RFC 4861 types 133..137)? */
static int
fuzz_is_nd(const uint8_t *ip6, uint32_t len)
{
	return len > 40 && ip6[6] == 58 && ip6[40] >= 133 && ip6[40] <= 137;
}

/* Check the link-layer options of an ND message have length @p olen. */
static void
fuzz_check_nd(const uint8_t *ip6, uint32_t len, uint8_t olen)
{
	static const uint8_t fixed[] = { 8, 16, 24, 24, 40 };
	uint32_t plen = (uint32_t)ip6[4] << 8 | ip6[5], off;

	FUZZ_CHECK(40 + plen <= len);
	FUZZ_CHECK(fuzz_icmp6_sum(ip6, plen) == 0);
	for (off = fixed[ip6[40] - 133]; off < plen; off += ip6[40 + off + 1] * 8u) {
		FUZZ_CHECK(off + 2 <= plen && ip6[40 + off + 1] != 0);
		if (ip6[40 + off] == 1 || ip6[40 + off] == 2)
			FUZZ_CHECK(ip6[40 + off + 1] == olen);
	}
	FUZZ_CHECK(off == plen);
}

#endif /* _FUZZ_IPOIB_H_ */
