/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * lib/ipoib formats and mappings: the 20-byte address, multicast GIDs,
 * the IPv6 interface identifier, the UD MTU, ARP and ND in their IPoIB
 * forms. Every vector is written out by hand here, from the source named
 * beside it, never produced by the library under test. No EAL needed.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <rte_errno.h>

#include <rte_ipoib.h>

#include "ipoib_ref.h"
#include "test.h"

/* The port of the examples: a Mellanox GUID (OUI 00:02:c9), QPN 0x48. */
#define GUID UINT64_C(0x0002c90300001234)

static void
example_gid(struct rte_ib_gid *gid)
{
	rte_ib_gid_set(gid, RTE_IB_GID_DEFAULT_PREFIX, GUID);
}

static int
test_hwaddr_layout(void)
{
	/*
	 * RFC 4391 9.1: 1 reserved/flags byte, 24-bit QPN, 128-bit GID; the
	 * RC flag is bit 7 of the first byte (Linux IPOIB_FLAGS_RC 0x80, the
	 * "80:00:00:48:fe:80:..." addresses of connected-mode interfaces).
	 */
	static const uint8_t want[20] = {
		0x80, 0x00, 0x00, 0x48, 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
		0x00, 0x02, 0xc9, 0x03, 0x00, 0x00, 0x12, 0x34 };
	const char *text = "80:00:00:48:fe:80:00:00:00:00:00:00:00:02:c9:03:00:00:12:34";
	struct rte_ipoib_hwaddr hw, back;
	struct rte_ib_gid gid, g2;
	char buf[RTE_IPOIB_HWADDR_FMT_SIZE];

	example_gid(&gid);
	rte_ipoib_hwaddr_set(&hw, RTE_IPOIB_HWADDR_F_RC, 0x48, &gid);
	TEST_ASSERT_BUFFERS_EQUAL(&hw, want, 20, "wire bytes");
	TEST_ASSERT_EQUAL(rte_ipoib_hwaddr_qpn(&hw), 0x48, "qpn");
	TEST_ASSERT_EQUAL(rte_ipoib_hwaddr_flags(&hw), 0x80, "flags");
	rte_ipoib_hwaddr_gid(&hw, &g2);
	TEST_ASSERT(rte_ib_gid_equal(&gid, &g2), "gid");
	TEST_ASSERT(!rte_ipoib_hwaddr_is_mcast(&hw), "unicast");
	/* QPN bits above 23 are not part of the address. */
	rte_ipoib_hwaddr_set(&back, 0, 0x7f000048, &gid);
	TEST_ASSERT_EQUAL(rte_ipoib_hwaddr_qpn(&back), 0x48, "qpn masked");
	TEST_ASSERT(rte_ipoib_hwaddr_equal(&hw, &back), "flags not part of identity");

	TEST_ASSERT_EQUAL(rte_ipoib_hwaddr_format(&hw, buf, sizeof(buf)), 59, "length");
	TEST_ASSERT(strcmp(buf, text) == 0, "text %s", buf);
	TEST_ASSERT_EQUAL(rte_ipoib_hwaddr_format(&hw, buf, 59), -1, "short buffer");
	TEST_ASSERT_EQUAL(rte_errno, ENOSPC, "errno");
	memset(&back, 0, sizeof(back));
	TEST_ASSERT_SUCCESS(rte_ipoib_hwaddr_parse(text, &back), "parse");
	TEST_ASSERT_BUFFERS_EQUAL(&back, want, 20, "round trip");
	/* Upper case and single digits are accepted (ip link accepts them). */
	TEST_ASSERT_SUCCESS(rte_ipoib_hwaddr_parse(
		"80:0:0:48:FE:80:0:0:0:0:0:0:0:2:C9:3:0:0:12:34", &back), "short form");
	TEST_ASSERT_BUFFERS_EQUAL(&back, want, 20, "short form value");
	return TEST_SUCCESS;
}

/*
 * The tables' IP key in text: IPv4 mapped (RFC 4291 2.5.5.2) as dotted
 * decimal, the rest as RFC 5952 writes them (zeros compressed, lower
 * case); a key of IPv6 whose 12 first bytes are not the mapped prefix
 * is IPv6 even when it looks close.
 */
static int
test_ip_format(void)
{
	static const uint8_t v4[16] = { [10] = 0xff, [11] = 0xff, 192, 0, 2, 1 };
	static const uint8_t ll[16] = { 0xfe, 0x80, [8] = 0x02, 0x02, 0xc9, 0x03, 0, 0, 0x12, 0x34 };
	static const uint8_t compat[16] = { [11] = 0xff, 192, 0, 2, 1 };
	char buf[RTE_IPOIB_IP_FMT_SIZE];

	TEST_ASSERT_EQUAL(rte_ipoib_ip_format(v4, buf, sizeof(buf)), 9, "IPv4 length");
	TEST_ASSERT(strcmp(buf, "192.0.2.1") == 0, "IPv4: %s", buf);
	TEST_ASSERT_EQUAL(rte_ipoib_ip_format(ll, buf, sizeof(buf)), 21, "IPv6 length");
	TEST_ASSERT(strcmp(buf, "fe80::202:c903:0:1234") == 0, "IPv6: %s", buf);
	TEST_ASSERT(rte_ipoib_ip_format(compat, buf, sizeof(buf)) > 0 && strchr(buf, ':') != NULL,
		    "not the mapped prefix: IPv6 (%s)", buf);
	TEST_ASSERT_EQUAL(rte_ipoib_ip_format(v4, buf, RTE_IPOIB_IP_FMT_SIZE - 1), -1, "short");
	TEST_ASSERT_EQUAL(rte_errno, ENOSPC, "errno");
	TEST_ASSERT_EQUAL(rte_ipoib_ip_format(NULL, buf, sizeof(buf)), -1, "NULL ip");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno");
	TEST_ASSERT_EQUAL(rte_ipoib_ip_format(v4, NULL, sizeof(buf)), -1, "NULL buf");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno");
	return TEST_SUCCESS;
}

static int
test_hwaddr_parse_errors(void)
{
	static const char *const bad[] = {
		"",
		"80:00:00:48:fe:80:00:00:00:00:00:00:00:02:c9:03:00:00:12",      /* 19 */
		"80:00:00:48:fe:80:00:00:00:00:00:00:00:02:c9:03:00:00:12:34:56",/* 21 */
		"80:00:00:48:fe:80:00:00:00:00:00:00:00:02:c9:03:00:00:12:34:",  /* trailing */
		"80:00:00:48:fe:80:00:00:00:00:00:00:00:02:c9:03:00:00:12:3g",   /* digit */
		"80:00:00:48:fe:80:00:00:00:00:00:00:00:02:c9:03:00:00:12:345",  /* 3 digits */
		"80-00-00-48-fe-80-00-00-00-00-00-00-00-02-c9-03-00-00-12-34",   /* separator */
		"80:00:00:48:fe:80:00:00:00:00::00:00:02:c9:03:00:00:12:34",     /* empty */
		" 80:00:00:48:fe:80:00:00:00:00:00:00:00:02:c9:03:00:00:12:34",  /* space */
	};
	struct rte_ipoib_hwaddr hw, before;
	unsigned int i;

	memset(&hw, 0xa5, sizeof(hw));
	before = hw;
	for (i = 0; i < RTE_DIM(bad); i++) {
		rte_errno = 0;
		TEST_ASSERT_EQUAL(rte_ipoib_hwaddr_parse(bad[i], &hw), -1, "'%s'", bad[i]);
		TEST_ASSERT_EQUAL(rte_errno, EINVAL, "'%s'", bad[i]);
		TEST_ASSERT_BUFFERS_EQUAL(&hw, &before, 20, "untouched on error");
	}
	TEST_ASSERT_EQUAL(rte_ipoib_hwaddr_parse(NULL, &hw), -1, "NULL");
	return TEST_SUCCESS;
}

static int
test_bcast_mgid(void)
{
	/*
	 * Linux's default ib0 broadcast address, as "ip link" prints it:
	 * 00:ff:ff:ff:ff:12:40:1b:ff:ff:00:00:00:00:00:00:ff:ff:ff:ff; its
	 * last 16 bytes are the MGID (RFC 4391 4.1, P_Key 0xffff, scope 2).
	 */
	static const uint8_t linux_brd[20] = {
		0x00, 0xff, 0xff, 0xff, 0xff, 0x12, 0x40, 0x1b, 0xff, 0xff,
		0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff };
	/* P_Key 0x8001 (partition 1), site scope: ff15:401b:8001::ffff:ffff. */
	static const uint8_t site[16] = {
		0xff, 0x15, 0x40, 0x1b, 0x80, 0x01, 0, 0, 0, 0, 0, 0,
		0xff, 0xff, 0xff, 0xff };
	struct rte_ipoib_hwaddr hw;
	struct rte_ib_gid mgid;

	TEST_ASSERT_SUCCESS(rte_ipoib_bcast_mgid(0xffff, RTE_IPOIB_SCOPE_LINK, &mgid), "ok");
	rte_ipoib_mcast_hwaddr(&mgid, &hw);
	TEST_ASSERT_EQUAL(rte_ipoib_hwaddr_qpn(&hw), 0xffffff, "multicast QPN");
	/* Linux's first byte is 0; the QPN bytes are ff ff ff. */
	TEST_ASSERT_BUFFERS_EQUAL(&hw, linux_brd, 20, "Linux broadcast address");
	TEST_ASSERT(rte_ipoib_hwaddr_is_mcast(&hw), "multicast");
	/* The limited member 0x7fff joins with the full-member bit set. */
	TEST_ASSERT_SUCCESS(rte_ipoib_bcast_mgid(0x7fff, RTE_IPOIB_SCOPE_LINK, &mgid), "ok");
	TEST_ASSERT_BUFFERS_EQUAL(mgid.raw, linux_brd + 4, 16, "0x7fff -> ffff");
	TEST_ASSERT_SUCCESS(rte_ipoib_bcast_mgid(0x0001, RTE_IPOIB_SCOPE_SITE, &mgid), "ok");
	TEST_ASSERT_BUFFERS_EQUAL(mgid.raw, site, 16, "partition 1 site scope");
	/* Scope 0 and 15 are reserved (RFC 4291 2.7), P_Key 0 is invalid. */
	TEST_ASSERT_EQUAL(rte_ipoib_bcast_mgid(0xffff, 0, &mgid), -1, "scope 0");
	TEST_ASSERT_EQUAL(rte_ipoib_bcast_mgid(0xffff, 0xf, &mgid), -1, "scope 15");
	TEST_ASSERT_EQUAL(rte_ipoib_bcast_mgid(0x8000, 2, &mgid), -1, "pkey 0");
	TEST_ASSERT_EQUAL(rte_ipoib_bcast_mgid(0xffff, 2, NULL), -1, "NULL");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno");
	return TEST_SUCCESS;
}

static int
test_ipv4_mc_mgid(void)
{
	/*
	 * Read off the seed's ip_ib_mc_map() by hand: bytes 4..7 of the
	 * address ff 12 40 1b, 8..9 the P_Key, 10..15 zero, 16 the group's
	 * bits 27..24 (addr & 0x0f after three shifts), 17..19 its low 24.
	 */
	static const struct {
		uint32_t group;
		uint16_t pkey;
		uint8_t scope;
		uint8_t mgid[16];
	} rows[] = {
		/* 224.0.0.1, all hosts */
		{ 0xe0000001, 0xffff, 2, { 0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0, 0, 0,
			0, 0, 0x00, 0x00, 0x00, 0x01 } },
		/* 239.255.255.250 (SSDP): 0xefffffff's low 28 bits 0x0ffffffa */
		{ 0xeffffffa, 0xffff, 2, { 0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0, 0, 0,
			0, 0, 0x0f, 0xff, 0xff, 0xfa } },
		/* 232.1.2.3 on partition 0x0005, global scope: 0x8005 */
		{ 0xe8010203, 0x0005, 0xe, { 0xff, 0x1e, 0x40, 0x1b, 0x80, 0x05, 0, 0, 0, 0,
			0, 0, 0x08, 0x01, 0x02, 0x03 } },
	};
	struct rte_ib_gid mgid;
	unsigned int i;

	for (i = 0; i < RTE_DIM(rows); i++) {
		TEST_ASSERT_SUCCESS(rte_ipoib_ipv4_mc_mgid(rte_cpu_to_be_32(rows[i].group),
			rows[i].pkey, rows[i].scope, &mgid), "row %u", i);
		TEST_ASSERT_BUFFERS_EQUAL(mgid.raw, rows[i].mgid, 16, "row %u", i);
	}
	/* Not class D: 10.0.0.1, 240.0.0.1, 223.255.255.255. */
	TEST_ASSERT_EQUAL(rte_ipoib_ipv4_mc_mgid(RTE_BE32(0x0a000001), 0xffff, 2, &mgid),
			  -1, "unicast");
	TEST_ASSERT_EQUAL(rte_ipoib_ipv4_mc_mgid(RTE_BE32(0xf0000001), 0xffff, 2, &mgid),
			  -1, "class E");
	TEST_ASSERT_EQUAL(rte_ipoib_ipv4_mc_mgid(RTE_BE32(0xdfffffff), 0xffff, 2, &mgid),
			  -1, "class C");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno");
	return TEST_SUCCESS;
}

static int
test_ipv6_mc_mgid(void)
{
	/*
	 * The seed's ipv6_ib_mc_map(): ff 12 60 1b, P_Key, then bytes 6..15
	 * of the group (its low 80 bits).
	 */
	static const uint8_t all_nodes[16] = { 0xff, 0x02, [15] = 0x01 };
	static const uint8_t want_all[16] = {
		0xff, 0x12, 0x60, 0x1b, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01 };
	/* Solicited-node ff02::1:ff00:1234 (RFC 4291 2.7.1). */
	static const uint8_t snm[16] = { 0xff, 0x02, [11] = 0x01, [12] = 0xff,
		[13] = 0x00, [14] = 0x12, [15] = 0x34 };
	static const uint8_t want_snm[16] = {
		0xff, 0x12, 0x60, 0x1b, 0xff, 0xff, 0, 0, 0, 0, 0, 0x01, 0xff, 0x00, 0x12, 0x34 };
	/* High bytes 2..5 of the group are not in the MGID. */
	static const uint8_t odd[16] = { 0xff, 0x05, 0xde, 0xad, 0xbe, 0xef, 0x11, 0x22,
		0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa };
	static const uint8_t want_odd[16] = {
		0xff, 0x18, 0x60, 0x1b, 0x80, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66,
		0x77, 0x88, 0x99, 0xaa };
	static const uint8_t unicast[16] = { 0xfe, 0x80, [15] = 1 };
	struct rte_ib_gid mgid;

	TEST_ASSERT_SUCCESS(rte_ipoib_ipv6_mc_mgid(all_nodes, 0xffff, 2, &mgid), "ok");
	TEST_ASSERT_BUFFERS_EQUAL(mgid.raw, want_all, 16, "all nodes");
	TEST_ASSERT_SUCCESS(rte_ipoib_ipv6_mc_mgid(snm, 0xffff, 2, &mgid), "ok");
	TEST_ASSERT_BUFFERS_EQUAL(mgid.raw, want_snm, 16, "solicited node");
	TEST_ASSERT_SUCCESS(rte_ipoib_ipv6_mc_mgid(odd, 0x0002, 8, &mgid), "ok");
	TEST_ASSERT_BUFFERS_EQUAL(mgid.raw, want_odd, 16, "low 80 bits, org scope");
	TEST_ASSERT_EQUAL(rte_ipoib_ipv6_mc_mgid(unicast, 0xffff, 2, &mgid), -1, "unicast");
	TEST_ASSERT_EQUAL(rte_ipoib_ipv6_mc_mgid(NULL, 0xffff, 2, &mgid), -1, "NULL");
	return TEST_SUCCESS;
}

static int
test_ipv6_iid(void)
{
	/*
	 * RFC 4391 8 and RFC 4291 appendix A: the GUID with the U/L bit
	 * (0x02 of the first byte) inverted. GUID 00:02:c9:03:00:00:12:34
	 * gives 02:02:c9:03:00:00:12:34, the fe80::202:c903:0:1234 Linux
	 * shows on such a port (addrconf_ifid_infiniband() sets the bit,
	 * the same result for a universal GUID).
	 */
	static const uint8_t want[8] = { 0x02, 0x02, 0xc9, 0x03, 0x00, 0x00, 0x12, 0x34 };
	static const uint8_t want_ll[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
		0x02, 0x02, 0xc9, 0x03, 0x00, 0x00, 0x12, 0x34 };
	/* A locally administered GUID (bit set) gets it cleared: inverted. */
	static const uint8_t want_local[8] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77 };
	uint8_t iid[8], ll[16];

	rte_ipoib_ipv6_iid(GUID, iid);
	TEST_ASSERT_BUFFERS_EQUAL(iid, want, 8, "iid");
	rte_ipoib_ipv6_link_local(GUID, ll);
	TEST_ASSERT_BUFFERS_EQUAL(ll, want_ll, 16, "link local");
	rte_ipoib_ipv6_iid(UINT64_C(0x0211223344556677), iid);
	TEST_ASSERT_BUFFERS_EQUAL(iid, want_local, 8, "U/L inverted");
	return TEST_SUCCESS;
}

static int
test_ud_mtu(void)
{
	/* RFC 4391 7: IB MTU less the 4-byte header; IBA MTUs 256..4096. */
	static const uint32_t rows[][2] = {
		{ 256, 252 }, { 512, 508 }, { 1024, 1020 }, { 2048, 2044 }, { 4096, 4092 },
		{ 0, 0 }, { 128, 0 }, { 1500, 0 }, { 2047, 0 }, { 8192, 0 }, { 4095, 0 },
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(rows); i++)
		TEST_ASSERT_EQUAL(rte_ipoib_ud_mtu(rows[i][0]), rows[i][1], "mtu %u", rows[i][0]);
	return TEST_SUCCESS;
}

/* ARP request of 10.0.0.1 for 10.0.0.2, from the example port. */
static const uint8_t arp_req[56] __rte_aligned(4) = {
	0x00, 0x20, 0x08, 0x00, 20, 4, 0x00, 0x01,             /* RFC 826 + 4391 9.1.1 */
	0x00, 0x00, 0x00, 0x48, 0xfe, 0x80, 0, 0, 0, 0, 0, 0,   /* sha */
	0x00, 0x02, 0xc9, 0x03, 0x00, 0x00, 0x12, 0x34,
	10, 0, 0, 1,                                            /* spa */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* tha */
	10, 0, 0, 2,                                            /* tpa */
};

static int
test_arp_build_parse(void)
{
	struct rte_ipoib_arp arp;
	struct rte_ipoib_hwaddr sha;
	struct rte_ib_gid gid;
	const struct rte_ipoib_arp *p;
	uint8_t buf[64] __rte_aligned(4);

	example_gid(&gid);
	rte_ipoib_hwaddr_set(&sha, 0, 0x48, &gid);
	TEST_ASSERT_SUCCESS(rte_ipoib_arp_build(&arp, 1, &sha, RTE_BE32(0x0a000001), NULL,
						RTE_BE32(0x0a000002)), "build");
	TEST_ASSERT_BUFFERS_EQUAL(&arp, arp_req, 56, "bytes");
	p = rte_ipoib_arp_parse(arp_req, 56);
	TEST_ASSERT(p != NULL, "parse");
	TEST_ASSERT(p->spa == RTE_BE32(0x0a000001) && p->tpa == RTE_BE32(0x0a000002), "ips");
	/* Link padding after the 56 bytes is ignored. */
	memcpy(buf, arp_req, 56);
	memset(buf + 56, 0xee, 8);
	TEST_ASSERT(rte_ipoib_arp_parse(buf, 64) != NULL, "padded");
	TEST_ASSERT_EQUAL(rte_ipoib_arp_build(&arp, 3, &sha, 0, NULL, 0), -1, "oper 3");
	TEST_ASSERT_EQUAL(rte_ipoib_arp_build(NULL, 1, &sha, 0, NULL, 0), -1, "NULL");
	return TEST_SUCCESS;
}

static int
test_arp_checks(void)
{
	/* One row per field RFC 826 / RFC 4391 9.1.1 fix: offset, bad value. */
	static const struct { unsigned int off; uint8_t val; const char *what; } rows[] = {
		{ 1, 0x01, "htype 1 (Ethernet)" },
		{ 0, 0x01, "htype 0x0120" },
		{ 2, 0x86, "ptype 0x86dd" },
		{ 3, 0x06, "ptype 0x0806" },
		{ 4, 6, "hlen 6" },
		{ 4, 21, "hlen 21" },
		{ 5, 16, "plen 16" },
		{ 7, 0x00, "oper 0" },
		{ 7, 0x03, "oper 3 (RARP)" },
		{ 6, 0x01, "oper 0x0101" },
		{ 12, 0xff, "multicast sender GID" },
	};
	uint8_t buf[56] __rte_aligned(4);
	uint8_t odd[60] __rte_aligned(4);
	unsigned int i, len;

	for (i = 0; i < RTE_DIM(rows); i++) {
		memcpy(buf, arp_req, 56);
		buf[rows[i].off] = rows[i].val;
		rte_errno = 0;
		TEST_ASSERT(rte_ipoib_arp_parse(buf, 56) == NULL, "%s accepted", rows[i].what);
		TEST_ASSERT_EQUAL(rte_errno, EINVAL, "%s", rows[i].what);
	}
	for (len = 0; len < 56; len++) {
		TEST_ASSERT(rte_ipoib_arp_parse(arp_req, len) == NULL, "len %u", len);
		TEST_ASSERT_EQUAL(rte_errno, EMSGSIZE, "len %u", len);
	}
	memcpy(odd + 1, arp_req, 56);
	TEST_ASSERT(rte_ipoib_arp_parse(odd + 1, 56) == NULL, "misaligned");
	TEST_ASSERT(rte_ipoib_arp_parse(NULL, 56) == NULL, "NULL");
	/* A reply (oper 2) is fine. */
	memcpy(buf, arp_req, 56);
	buf[7] = 2;
	TEST_ASSERT(rte_ipoib_arp_parse(buf, 56) != NULL, "reply");
	return TEST_SUCCESS;
}

/* fe80::1 soliciting fe80::2 (dst its solicited-node group), example port. */
static const uint8_t ns_src[16] = { 0xfe, 0x80, [15] = 1 };
static const uint8_t ns_tgt[16] = { 0xfe, 0x80, [15] = 2 };
static const uint8_t ns_dst[16] = { 0xff, 0x02, [11] = 1, [12] = 0xff, [15] = 2 };

static int
build_ns(uint8_t *buf, size_t size)
{
	struct rte_ipoib_hwaddr hw;
	struct rte_ib_gid gid;

	example_gid(&gid);
	rte_ipoib_hwaddr_set(&hw, 0, 0x48, &gid);
	return rte_ipoib_nd_build(buf, size, 135, ns_src, ns_dst, ns_tgt, &hw);
}

static void
fix_cksum(uint8_t *p, uint32_t icmp_len)
{
	uint16_t ck;

	p[42] = 0;
	p[43] = 0;
	ck = ref_cksum(p, p + 40, icmp_len);
	p[42] = ck >> 8;
	p[43] = ck & 0xff;
}

static int
test_nd_build_find(void)
{
	/*
	 * RFC 4861 4.3 with the option of RFC 4391 9.1.2: 24 bytes of NS
	 * (type 135, code 0, checksum, reserved, target), then 01 03 00 00
	 * and the 20-byte address; payload length 48, hop limit 255.
	 */
	static const uint8_t opt[24] = { 0x01, 0x03, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x48, 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
		0x00, 0x02, 0xc9, 0x03, 0x00, 0x00, 0x12, 0x34 };
	struct rte_ipoib_hwaddr hw;
	uint8_t p[128];
	uint16_t ck;

	TEST_ASSERT_EQUAL(build_ns(p, sizeof(p)), 88, "length");
	TEST_ASSERT_EQUAL(p[0], 0x60, "version");
	TEST_ASSERT(p[4] == 0 && p[5] == 48 && p[6] == 58 && p[7] == 255, "ip6 fields");
	TEST_ASSERT_BUFFERS_EQUAL(p + 8, ns_src, 16, "src");
	TEST_ASSERT_BUFFERS_EQUAL(p + 24, ns_dst, 16, "dst");
	TEST_ASSERT(p[40] == 135 && p[41] == 0, "type/code");
	TEST_ASSERT_BUFFERS_EQUAL(p + 48, ns_tgt, 16, "target");
	TEST_ASSERT_BUFFERS_EQUAL(p + 64, opt, 24, "option");
	ck = (uint16_t)(p[42] << 8 | p[43]);
	p[42] = p[43] = 0;
	TEST_ASSERT_EQUAL(ck, ref_cksum(p, p + 40, 48), "checksum (RFC 1071 by hand)");
	p[42] = ck >> 8;
	p[43] = ck & 0xff;
	TEST_ASSERT_EQUAL(rte_ipoib_nd_find_lla(p, 88, 1, &hw), 1, "found");
	TEST_ASSERT_BUFFERS_EQUAL(&hw, opt + 4, 20, "address");
	TEST_ASSERT_EQUAL(rte_ipoib_nd_find_lla(p, 88, 2, &hw), 0, "no target option");
	/* NA: target option, flags S and O. */
	TEST_ASSERT_EQUAL(rte_ipoib_nd_build(p, sizeof(p), 136, ns_tgt, ns_src, ns_tgt, &hw),
			  88, "NA");
	TEST_ASSERT(p[40] == 136 && p[44] == 0x60 && p[64] == 2 && p[65] == 3, "NA fields");
	TEST_ASSERT_EQUAL(rte_ipoib_nd_find_lla(p, 88, 2, NULL), 1, "NA option");
	TEST_ASSERT_EQUAL(rte_ipoib_nd_build(p, 87, 135, ns_src, ns_dst, ns_tgt, &hw), -1,
			  "no room");
	TEST_ASSERT_EQUAL(rte_errno, ENOSPC, "errno");
	TEST_ASSERT_EQUAL(rte_ipoib_nd_build(p, 88, 134, ns_src, ns_dst, ns_tgt, &hw), -1,
			  "type 134");
	return TEST_SUCCESS;
}

static int
test_nd_checks(void)
{
	uint8_t p[128];
	unsigned int len;

	/* Truncated anywhere: EMSGSIZE or, inside the options, EINVAL. */
	build_ns(p, sizeof(p));
	for (len = 0; len < 88; len++) {
		TEST_ASSERT_EQUAL(rte_ipoib_nd_find_lla(p, len, 1, NULL), -1, "len %u", len);
		TEST_ASSERT(rte_errno == EMSGSIZE, "len %u errno %d", len, rte_errno);
	}
	/* Each RFC 4861 7.1.1 rule alone, checksum kept right. */
	build_ns(p, sizeof(p));
	p[7] = 254;
	fix_cksum(p, 48);
	TEST_ASSERT_EQUAL(rte_ipoib_nd_find_lla(p, 88, 1, NULL), -1, "hop limit 254");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno");
	build_ns(p, sizeof(p));
	p[41] = 1;
	fix_cksum(p, 48);
	TEST_ASSERT_EQUAL(rte_ipoib_nd_find_lla(p, 88, 1, NULL), -1, "code 1");
	build_ns(p, sizeof(p));
	p[40] = 128;
	fix_cksum(p, 48);
	TEST_ASSERT_EQUAL(rte_ipoib_nd_find_lla(p, 88, 1, NULL), -1, "echo request");
	build_ns(p, sizeof(p));
	p[6] = 17;
	TEST_ASSERT_EQUAL(rte_ipoib_nd_find_lla(p, 88, 1, NULL), -1, "next header UDP");
	build_ns(p, sizeof(p));
	p[0] = 0x40;
	TEST_ASSERT_EQUAL(rte_ipoib_nd_find_lla(p, 88, 1, NULL), -1, "version 4");
	/* RFC 4861 4.6: a zero option length invalidates the message. */
	build_ns(p, sizeof(p));
	p[65] = 0;
	fix_cksum(p, 48);
	TEST_ASSERT_EQUAL(rte_ipoib_nd_find_lla(p, 88, 1, NULL), -1, "option length 0");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno");
	/* An option running past the message. */
	build_ns(p, sizeof(p));
	p[65] = 4;
	fix_cksum(p, 48);
	TEST_ASSERT_EQUAL(rte_ipoib_nd_find_lla(p, 88, 1, NULL), -1, "option too long");
	/* The Ethernet form (length 1) where the IPoIB form is due: EPROTO. */
	build_ns(p, sizeof(p));
	p[65] = 1;
	p[69] = 58; /* an unknown option (type 58, length 2) fills the rest */
	p[72] = 58;
	p[73] = 2;
	fix_cksum(p, 48);
	TEST_ASSERT_EQUAL(rte_ipoib_nd_find_lla(p, 88, 1, NULL), -1, "Ethernet form");
	TEST_ASSERT_EQUAL(rte_errno, EPROTO, "errno");
	/* A wrong checksum: EBADMSG. */
	build_ns(p, sizeof(p));
	p[43] ^= 1;
	TEST_ASSERT_EQUAL(rte_ipoib_nd_find_lla(p, 88, 1, NULL), -1, "checksum");
	TEST_ASSERT_EQUAL(rte_errno, EBADMSG, "errno");
	/* Payload length past the buffer. */
	build_ns(p, sizeof(p));
	p[5] = 49;
	TEST_ASSERT_EQUAL(rte_ipoib_nd_find_lla(p, 88, 1, NULL), -1, "payload length");
	TEST_ASSERT_EQUAL(rte_errno, EMSGSIZE, "errno");
	TEST_ASSERT_EQUAL(rte_ipoib_nd_find_lla(p, 88, 3, NULL), -1, "option type 3");
	return TEST_SUCCESS;
}

static struct unit_test_suite ipoib_addr_suite = {
	.suite_name = "lib/ipoib formats and mappings",
	.unit_test_cases = {
		TEST_CASE(test_hwaddr_layout),
		TEST_CASE(test_hwaddr_parse_errors),
		TEST_CASE(test_ip_format),
		TEST_CASE(test_bcast_mgid),
		TEST_CASE(test_ipv4_mc_mgid),
		TEST_CASE(test_ipv6_mc_mgid),
		TEST_CASE(test_ipv6_iid),
		TEST_CASE(test_ud_mtu),
		TEST_CASE(test_arp_build_parse),
		TEST_CASE(test_arp_checks),
		TEST_CASE(test_nd_build_find),
		TEST_CASE(test_nd_checks),
		TEST_CASES_END()
	}
};

int
main(void)
{
	return unit_test_suite_runner(&ipoib_addr_suite);
}
