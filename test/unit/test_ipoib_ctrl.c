/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * lib/ipoib's control side, its pure parts (ipoib_ctrl_check.h): ARP and
 * ND input of the L3 view, PathRecord answers, IGMP/MLD reports seen on
 * transmit. One row per rule; the base vectors are written out byte by
 * byte from the RFCs (RFC 826 with RFC 4391 9.1.1 for ARP; RFC 4861 4.3
 * with RFC 4391 9.1.2 for ND, built by rte_ipoib_nd_build() whose bytes
 * test_ipoib_addr checks; RFC 2236, 3376, 3810 for the reports), then
 * broken one field at a time.
 */

#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>

#include <rte_ipoib.h>

#include "ipoib_ctrl_check.h"
#include "test.h"

/* Port GID fe80::2:c903:0:2, QPN 0x48. */
static const uint8_t peer_gid[16] = {
	0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x00, 0x02, 0xc9, 0x03, 0, 0, 0, 0x02 };

/* An ARP request 10.0.0.2 -> who has 10.0.0.3, 56 bytes (RFC 4391 9.1.1). */
static void
arp_base(uint8_t a[56])
{
	memset(a, 0, 56);
	a[0] = 0x00; a[1] = 0x20;      /* hardware type 32 */
	a[2] = 0x08; a[3] = 0x00;      /* IPv4 */
	a[4] = 20; a[5] = 4;           /* lengths */
	a[6] = 0; a[7] = 1;            /* request */
	a[8] = 0; a[9] = 0; a[10] = 0; a[11] = 0x48;   /* sender QPN */
	memcpy(a + 12, peer_gid, 16);
	a[28] = 10; a[29] = 0; a[30] = 0; a[31] = 2;   /* sender IP */
	a[52] = 10; a[53] = 0; a[54] = 0; a[55] = 3;   /* target IP */
}

static int
test_arp_decode(void)
{
	static const struct {
		unsigned int off;
		uint8_t val;
		const char *why;     /* NULL: accepted */
	} rows[] = {
		{ 0, 0x00, NULL },                      /* the base */
		{ 1, 0x01, "arp_header" },              /* hardware type 1 */
		{ 4, 6, "arp_header" },                 /* hardware length 6 */
		{ 7, 3, "arp_header" },                 /* operation 3 */
		{ 28, 224, "arp_sender_ip_group" },     /* sender 224.0.0.2 */
		{ 52, 239, "arp_target_ip" },           /* target 239.0.0.3 */
		{ 9, 0xff, "arp_sender_qpn" },          /* QPN 0xff0048 -> below */
	};
	struct ipoib_ctrl_arp out;
	const char *why;
	uint8_t a[56];
	unsigned int i;

	for (i = 0; i < RTE_DIM(rows); i++) {
		arp_base(a);
		a[rows[i].off] = rows[i].val;
		if (rows[i].off == 9)
			a[10] = 0xff, a[11] = 0xff;
		why = NULL;
		if (rows[i].why == NULL) {
			TEST_ASSERT_SUCCESS(ipoib_ctrl_arp_decode(a, 56, &out, &why),
					    "row %u refused: %s", i, why);
			TEST_ASSERT(out.oper == 1 && rte_ipoib_hwaddr_qpn(&out.sha) == 0x48 &&
				    out.sip[10] == 0xff && out.sip[15] == 2 && out.tip[15] == 3,
				    "row %u decoded", i);
		} else {
			TEST_ASSERT_EQUAL(ipoib_ctrl_arp_decode(a, 56, &out, &why), -1,
					  "row %u accepted", i);
			TEST_ASSERT(strcmp(why, rows[i].why) == 0, "row %u: %s, not %s", i, why,
				    rows[i].why);
		}
	}
	arp_base(a);
	TEST_ASSERT_EQUAL(ipoib_ctrl_arp_decode(a, 55, &out, &why), -1, "55 bytes");
	/* RFC 5227 2.1.1: a probe (sender IP 0) is a request; a reply may not. */
	memset(a + 28, 0, 4);
	TEST_ASSERT_SUCCESS(ipoib_ctrl_arp_decode(a, 56, &out, &why), "probe: %s", why);
	a[7] = 2;
	TEST_ASSERT_EQUAL(ipoib_ctrl_arp_decode(a, 56, &out, &why), -1, "reply from 0.0.0.0");
	TEST_ASSERT(strcmp(why, "arp_sender_ip_zero") == 0, "why: %s", why);
	TEST_ASSERT_EQUAL(ipoib_ctrl_arp_decode(NULL, 56, &out, &why), -1, "NULL");
	return TEST_SUCCESS;
}

static const uint8_t ip6_a[16] = { 0xfe, 0x80, [8] = 0x02, 0x02, 0xc9, 0x03, [15] = 0x02 };
static const uint8_t ip6_b[16] = { 0xfe, 0x80, [8] = 0x02, 0x02, 0xc9, 0x03, [15] = 0x03 };
static const uint8_t snm_b[16] = { 0xff, 0x02, [11] = 0x01, 0xff, 0x00, 0x00, 0x03 };
static const uint8_t all_nodes[16] = { 0xff, 0x02, [15] = 1 };
static const uint8_t unspec[16];

static int
nd(uint8_t *buf, uint8_t type, const uint8_t *src, const uint8_t *dst, const uint8_t *target,
   struct rte_ipoib_hwaddr *hw)
{
	return rte_ipoib_nd_build(buf, 88, type, src, dst, target, hw);
}

static int
test_nd_decode(void)
{
	struct rte_ipoib_hwaddr hw;
	struct rte_ib_gid gid;
	struct ipoib_ctrl_nd out;
	const char *why = NULL;
	uint8_t b[88];

	memcpy(gid.raw, peer_gid, 16);
	rte_ipoib_hwaddr_set(&hw, 0, 0x48, &gid);
	/* A: who has B, to B's solicited-node group: accepted, option learned. */
	TEST_ASSERT_EQUAL(nd(b, 135, ip6_a, snm_b, ip6_b, &hw), 88, "build NS");
	TEST_ASSERT_SUCCESS(ipoib_ctrl_nd_decode(b, 88, &out, &why), "NS: %s", why);
	TEST_ASSERT(out.type == 135 && out.has_lla && rte_ipoib_hwaddr_equal(&out.lla, &hw) &&
		    memcmp(out.target, ip6_b, 16) == 0 && memcmp(out.src, ip6_a, 16) == 0,
		    "NS decoded");
	/* RFC 4861 7.1.1: hop limit 255. */
	b[7] = 254;
	TEST_ASSERT_EQUAL(ipoib_ctrl_nd_decode(b, 88, &out, &why), -1, "hop limit 254");
	b[7] = 255;
	TEST_ASSERT_EQUAL(ipoib_ctrl_nd_decode(b, 63, &out, &why), -1, "63 bytes");
	TEST_ASSERT(strcmp(why, "nd_short") == 0, "why: %s", why);
	TEST_ASSERT_EQUAL(ipoib_ctrl_nd_decode(b, 87, &out, &why), -1, "cut option");
	/* A target that is a group (RFC 4861 7.1.1). */
	nd(b, 135, ip6_a, snm_b, all_nodes, &hw);
	TEST_ASSERT_EQUAL(ipoib_ctrl_nd_decode(b, 88, &out, &why), -1, "group target");
	TEST_ASSERT(strcmp(why, "nd_target_group") == 0, "why: %s", why);
	/* DAD (source ::) carries no source option (RFC 4861 7.1.1). */
	nd(b, 135, unspec, snm_b, ip6_b, &hw);
	TEST_ASSERT_EQUAL(ipoib_ctrl_nd_decode(b, 88, &out, &why), -1, "DAD with option");
	TEST_ASSERT(strcmp(why, "nd_dad_with_option") == 0, "why: %s", why);
	/* A solicited NA to a group (RFC 4861 7.1.2); unicast is fine. */
	nd(b, 136, ip6_b, all_nodes, ip6_b, &hw);
	TEST_ASSERT_EQUAL(ipoib_ctrl_nd_decode(b, 88, &out, &why), -1, "solicited NA to group");
	TEST_ASSERT(strcmp(why, "nd_solicited_to_group") == 0, "why: %s", why);
	nd(b, 136, ip6_b, ip6_a, ip6_b, &hw);
	TEST_ASSERT_SUCCESS(ipoib_ctrl_nd_decode(b, 88, &out, &why), "NA: %s", why);
	TEST_ASSERT(out.type == 136 && out.solicited && out.has_lla, "NA decoded");
	/* The multicast QPN in the option. */
	rte_ipoib_hwaddr_set(&hw, 0, RTE_IPOIB_QPN_MCAST, &gid);
	nd(b, 136, ip6_b, ip6_a, ip6_b, &hw);
	TEST_ASSERT_EQUAL(ipoib_ctrl_nd_decode(b, 88, &out, &why), -1, "QPN 0xffffff");
	TEST_ASSERT(strcmp(why, "nd_option_qpn") == 0, "why: %s", why);
	/* Another ICMPv6 type (router advertisement, 134): not ours. */
	nd(b, 135, ip6_a, snm_b, ip6_b, &hw);
	b[40] = 134;
	TEST_ASSERT_EQUAL(ipoib_ctrl_nd_decode(b, 88, &out, &why), -1, "type 134");
	TEST_ASSERT(strcmp(why, "nd_type") == 0, "why: %s", why);
	return TEST_SUCCESS;
}

static void
path_base(struct rte_ib_sa_path_rec *r, const struct rte_ib_gid *dgid)
{
	memset(r, 0, sizeof(*r));
	r->dgid = *dgid;
	r->dlid = 5;
	r->pkey = 0xffff;
	r->sl = 0;
	r->mtu = 4;      /* 2048 */
	r->rate = 6;     /* 20 Gb/s, 4x DDR */
}

static int
test_path_pick(void)
{
	static const struct {
		const char *field;
		unsigned int val;
		const char *why;
	} rows[] = {
		{ "none", 0, NULL },
		{ "mtu", 0, "path_mtu" }, { "mtu", 6, "path_mtu" }, { "mtu", 5, NULL },
		{ "mtu", 1, NULL },
		{ "rate", 1, "path_rate" }, { "rate", 11, "path_rate" }, { "rate", 2, NULL },
		{ "dlid", 0, "path_dlid" }, { "dlid", 0xc000, "path_dlid" },
		{ "dlid", 0xbfff, NULL },
		{ "sl", 16, "path_sl" }, { "sl", 15, NULL },
		{ "pkey", 0x8001, "path_other_pkey" }, { "pkey", 0x7fff, NULL },
		{ "dgid", 0, "path_other_dgid" },
	};
	struct rte_ib_sa_path_rec r[2];
	struct rte_ib_gid dgid;
	const char *why;
	unsigned int i;

	memcpy(dgid.raw, peer_gid, 16);
	for (i = 0; i < RTE_DIM(rows); i++) {
		path_base(&r[0], &dgid);
		if (strcmp(rows[i].field, "mtu") == 0)
			r[0].mtu = rows[i].val;
		else if (strcmp(rows[i].field, "rate") == 0)
			r[0].rate = rows[i].val;
		else if (strcmp(rows[i].field, "dlid") == 0)
			r[0].dlid = rows[i].val;
		else if (strcmp(rows[i].field, "sl") == 0)
			r[0].sl = rows[i].val;
		else if (strcmp(rows[i].field, "pkey") == 0)
			r[0].pkey = rows[i].val;
		else if (strcmp(rows[i].field, "dgid") == 0)
			r[0].dgid.raw[15] ^= 1;
		why = NULL;
		if (rows[i].why == NULL) {
			TEST_ASSERT_EQUAL(ipoib_ctrl_path_pick(r, 1, &dgid, 0xffff, &why), 0,
					  "row %u (%s=%u) refused: %s", i, rows[i].field,
					  rows[i].val, why);
		} else {
			TEST_ASSERT_EQUAL(ipoib_ctrl_path_pick(r, 1, &dgid, 0xffff, &why), -1,
					  "row %u (%s=%u) accepted", i, rows[i].field, rows[i].val);
			TEST_ASSERT(strcmp(why, rows[i].why) == 0, "row %u: %s, not %s", i, why,
				    rows[i].why);
		}
	}
	/* The first usable record of several; none at all. */
	path_base(&r[0], &dgid);
	r[0].mtu = 7;
	path_base(&r[1], &dgid);
	TEST_ASSERT_EQUAL(ipoib_ctrl_path_pick(r, 2, &dgid, 0xffff, &why), 1, "second record");
	TEST_ASSERT_EQUAL(ipoib_ctrl_path_pick(r, 0, &dgid, 0xffff, &why), -1, "no record");
	TEST_ASSERT(strcmp(why, "no_record") == 0, "why: %s", why);
	return TEST_SUCCESS;
}

/* An IPv4 header with Router Alert (IHL 6, RFC 2113) and protocol 2. */
static size_t
ip4_igmp(uint8_t *p, const uint8_t *igmp, size_t len)
{
	memset(p, 0, 24);
	p[0] = 0x46;
	p[3] = (uint8_t)(24 + len);
	p[8] = 1;
	p[9] = 2;
	p[12] = 10; p[15] = 2;
	p[16] = 224; p[19] = 22;
	p[20] = 0x94; p[21] = 0x04;
	memcpy(p + 24, igmp, len);
	return 24 + len;
}

static int
test_mc_report(void)
{
	static const uint8_t v2_report[8] = { 0x16, 0, 0, 0, 239, 1, 2, 3 };
	static const uint8_t v2_leave[8] = { 0x17, 0, 0, 0, 239, 1, 2, 3 };
	static const uint8_t query[8] = { 0x11, 0, 0, 0, 0, 0, 0, 0 };
	/* v3: CHANGE_TO_EXCLUDE({}) of 239.1.1.1, CHANGE_TO_INCLUDE({}) of 239.2.2.2. */
	static const uint8_t v3[24] = { 0x22, 0, 0, 0, 0, 0, 0, 2,
		4, 0, 0, 0, 239, 1, 1, 1,
		3, 0, 0, 0, 239, 2, 2, 2 };
	uint8_t p[128], g[4][16];
	bool join[4];
	size_t l;

	l = ip4_igmp(p, v2_report, 8);
	TEST_ASSERT_EQUAL(ipoib_ctrl_mc_report(p, l, g, join, 4), 1, "IGMPv2 report");
	TEST_ASSERT(join[0] && g[0][10] == 0xff && g[0][12] == 239 && g[0][15] == 3,
		    "joins ::ffff:239.1.2.3");
	l = ip4_igmp(p, v2_leave, 8);
	TEST_ASSERT_EQUAL(ipoib_ctrl_mc_report(p, l, g, join, 4), 1, "IGMPv2 leave");
	TEST_ASSERT(!join[0], "a leave");
	l = ip4_igmp(p, query, 8);
	TEST_ASSERT_EQUAL(ipoib_ctrl_mc_report(p, l, g, join, 4), 0, "a query names none");
	l = ip4_igmp(p, v3, 24);
	TEST_ASSERT_EQUAL(ipoib_ctrl_mc_report(p, l, g, join, 4), 2, "IGMPv3, two records");
	TEST_ASSERT(join[0] && g[0][15] == 1 && !join[1] && g[1][15] == 2, "join, leave");
	/* Five records announced, two present: two, nothing read beyond. */
	p[24 + 7] = 5;
	TEST_ASSERT_EQUAL(ipoib_ctrl_mc_report(p, l, g, join, 4), 2, "count beyond the data");
	/* The protocol is not IGMP. */
	p[9] = 17;
	TEST_ASSERT_EQUAL(ipoib_ctrl_mc_report(p, l, g, join, 4), 0, "UDP");
	/* MLDv2 after a Hop-by-Hop header: CHANGE_TO_EXCLUDE({}) of ff02::1:ff00:1234. */
	memset(p, 0, sizeof(p));
	p[0] = 0x60;
	p[5] = 8 + 28;
	p[6] = 0;          /* Hop-by-Hop */
	p[7] = 1;
	p[40] = 58;        /* then ICMPv6 */
	p[42] = 5; p[43] = 2;   /* Router Alert, MLD */
	p[48] = 143;
	p[55] = 1;
	p[56] = 4;
	p[60] = 0xff; p[61] = 0x02; p[71] = 1; p[72] = 0xff; p[74] = 0x12; p[75] = 0x34;
	TEST_ASSERT_EQUAL(ipoib_ctrl_mc_report(p, 76, g, join, 4), 1, "MLDv2 report");
	TEST_ASSERT(join[0] && g[0][0] == 0xff && g[0][15] == 0x34, "joins ff02::1:ff00:1234");
	TEST_ASSERT_EQUAL(ipoib_ctrl_mc_report(p, 75, g, join, 4), 0, "MLDv2 record cut");
	return TEST_SUCCESS;
}

static struct unit_test_suite ipoib_ctrl_suite = {
	.suite_name = "lib/ipoib control side: input checks",
	.unit_test_cases = {
		TEST_CASE(test_arp_decode),
		TEST_CASE(test_nd_decode),
		TEST_CASE(test_path_pick),
		TEST_CASE(test_mc_report),
		TEST_CASES_END()
	}
};

int
main(void)
{
	return unit_test_suite_runner(&ipoib_ctrl_suite);
}
