/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * lib/ipoib bursts on mbufs: two hosts, A and B, each with its own table
 * and data-path context; what A's encapsulation sends is carried "over
 * the wire" into B's decapsulation the way an IB PMD presents it (rx
 * dynfield from the sender's QPN and LID, the GRH in the headroom for
 * multicast), and comes out as the frame A's application sent. Every
 * drop reason is provoked and counted.
 *
 * Frames are written by hand from RFC 791/8200/826/4861 and RFC 4391;
 * the ICMPv6 checksums are checked with a separate RFC 1071 sum.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ib_dev.h>
#include <rte_ib_mbuf.h>
#include <rte_mbuf.h>
#include <rte_ring_elem.h>

#include <rte_ipoib_encap.h>

#include "ipoib_ref.h"
#include "test.h"

#define QKEY 0x0b1b
#define LID_A 2
#define LID_B 3

struct host {
	struct rte_ipoib_hwaddr hw;
	struct rte_ether_addr mac;
	struct rte_ipoib_tbl *tbl;
	struct rte_ipoib_dp *dp;
	struct rte_ring *ev;
	uint16_t lid;
};

static struct rte_mempool *pool;
static struct host A, B;
/* Address handles as a device would return them; the wire reads attr. */
static struct rte_ib_ah ah_to_a, ah_to_b, ah_bcast, ah_mc4, ah_snm_b, ah_late;

static const uint8_t ip_a[4] = { 10, 0, 0, 2 }, ip_b[4] = { 10, 0, 0, 3 };
static const uint8_t ip6_a[16] = { 0xfe, 0x80, [15] = 2 };
static const uint8_t ip6_b[16] = { 0xfe, 0x80, [15] = 3 };
static const uint8_t snm_b[16] = { 0xff, 0x02, [11] = 1, [12] = 0xff, [15] = 3 };
static const uint8_t group4[4] = { 224, 0, 0, 251 };

static void
peer_hw(struct rte_ipoib_hwaddr *hw, uint64_t guid, uint32_t qpn)
{
	struct rte_ib_gid gid;

	rte_ib_gid_set(&gid, RTE_IB_GID_DEFAULT_PREFIX, guid);
	rte_ipoib_hwaddr_set(hw, 0, qpn, &gid);
}

static struct rte_ipoib_neigh *
add_neigh(struct host *h, const struct rte_ipoib_hwaddr *hw, struct rte_ib_ah *ah,
	  bool resolved)
{
	struct rte_ipoib_path *p;
	struct rte_ib_gid g;

	rte_ipoib_hwaddr_gid(hw, &g);
	p = rte_ipoib_path_lookup(h->tbl, &g, 0xffff);
	if (p == NULL)
		p = rte_ipoib_path_add(h->tbl, &g, 0xffff);
	if (p == NULL)
		return NULL;
	if (resolved && rte_ipoib_path_set_ah(h->tbl, p, ah, ah->attr.dlid) != 0)
		return NULL;
	return rte_ipoib_neigh_add(h->tbl, hw, p);
}

static struct rte_ipoib_neigh *
add_group(struct host *h, const struct rte_ib_gid *mgid, struct rte_ib_ah *ah)
{
	struct rte_ipoib_hwaddr hw;

	ah->attr.ah_flags = RTE_IB_AH_GRH;
	ah->attr.grh.dgid = *mgid;
	rte_ipoib_mcast_hwaddr(mgid, &hw);
	return add_neigh(h, &hw, ah, true);
}

/*
 * Table capacity: 64, the bursts' one pass over a table the caches hold;
 * the _big cases 4,096, the two passes (slot copies prefetched, then
 * read) of a big table (ipoib_tx.c and ipoib_rx.c, IPOIB_FRONT_SMALL_SLOTS).
 */
#define TBL_SMALL 64
#define TBL_BIG 4096
static uint32_t tbl_neigh = TBL_SMALL;

/* A host's tx QPN: its address's QPN plus this (rx and tx are separate QPs). */
#define TX_QPN_OFF 0x100

static int
host_init(struct host *h, const char *name, uint64_t guid, uint32_t qpn, uint16_t lid,
	  enum rte_ipoib_mode mode)
{
	struct rte_ipoib_tbl_conf tc = {
		.max_neigh = tbl_neigh, .max_path = 16, .queue_len = 4,
	};
	struct rte_ipoib_dp_conf dc = {
		.mode = mode, .local_lid = lid, .pkey = 0xffff, .pkey_index = 0,
		.scope = RTE_IPOIB_SCOPE_LINK, .qkey = QKEY, .mtu = 2044,
	};

	peer_hw(&h->hw, guid, qpn);
	rte_ipoib_mac_from_hwaddr(&h->hw, &h->mac);
	h->lid = lid;
	h->tbl = rte_ipoib_tbl_create(&tc);
	h->ev = rte_ring_create_elem(name, sizeof(struct rte_ipoib_event), 64,
				     SOCKET_ID_ANY, RING_F_SC_DEQ);
	if (h->tbl == NULL || h->ev == NULL)
		return -1;
	dc.tbl = h->tbl;
	dc.local = h->hw;
	dc.events = h->ev;
	/* Its datagrams leave from another QP than its address names. */
	dc.nb_tx_qpn = 1;
	dc.tx_qpn[0] = qpn + TX_QPN_OFF;
	h->dp = rte_ipoib_dp_create(&dc);
	return h->dp == NULL ? -1 : 0;
}

static void
host_fini(struct host *h)
{
	rte_ipoib_dp_free(h->dp);
	rte_ipoib_tbl_free(h->tbl);
	rte_ring_free(h->ev);
	memset(h, 0, sizeof(*h));
}

/* A and B know each other, the broadcast group, 224.0.0.251, B's SNM. */
static int
hosts_setup(enum rte_ipoib_mode mode)
{
	struct rte_ib_gid mgid;

	memset(&ah_to_a, 0, sizeof(ah_to_a));
	memset(&ah_to_b, 0, sizeof(ah_to_b));
	ah_to_a.attr.dlid = LID_A;
	ah_to_b.attr.dlid = LID_B;
	if (host_init(&A, "ev_a", 0x0002c90300000002, 0x48, LID_A, mode) != 0 ||
	    host_init(&B, "ev_b", 0x0002c90300000003, 0x49, LID_B, mode) != 0)
		return -1;
	if (add_neigh(&A, &B.hw, &ah_to_b, true) == NULL ||
	    add_neigh(&B, &A.hw, &ah_to_a, true) == NULL)
		return -1;
	ah_bcast.attr.dlid = 0xc000;
	ah_mc4.attr.dlid = 0xc001;
	ah_snm_b.attr.dlid = 0xc002;
	rte_ipoib_bcast_mgid(0xffff, 2, &mgid);
	if (add_group(&A, &mgid, &ah_bcast) == NULL || add_group(&B, &mgid, &ah_bcast) == NULL)
		return -1;
	rte_ipoib_ipv4_mc_mgid(RTE_BE32(0xe00000fb), 0xffff, 2, &mgid);
	if (add_group(&A, &mgid, &ah_mc4) == NULL)
		return -1;
	rte_ipoib_ipv6_mc_mgid(snm_b, 0xffff, 2, &mgid);
	if (add_group(&A, &mgid, &ah_snm_b) == NULL)
		return -1;
	return 0;
}

static int
hosts_setup_eth(void)
{
	return hosts_setup(RTE_IPOIB_MODE_ETH) == 0 ? TEST_SUCCESS : TEST_FAILED;
}

static int
hosts_setup_l3(void)
{
	uint8_t key[16] = { [10] = 0xff, [11] = 0xff };
	struct rte_ipoib_neigh *n;

	if (hosts_setup(RTE_IPOIB_MODE_L3) != 0)
		return TEST_FAILED;
	memcpy(key + 12, ip_b, 4);
	n = rte_ipoib_neigh_lookup(A.tbl, &B.hw);
	return n != NULL && rte_ipoib_neigh_bind_ip(A.tbl, n, key) == 0 ?
		TEST_SUCCESS : TEST_FAILED;
}

static void
hosts_teardown(void)
{
	host_fini(&A);
	host_fini(&B);
	tbl_neigh = TBL_SMALL;
}

static int
hosts_setup_eth_big(void)
{
	tbl_neigh = TBL_BIG;
	return hosts_setup_eth();
}

static int
hosts_setup_l3_big(void)
{
	tbl_neigh = TBL_BIG;
	return hosts_setup_l3();
}

static struct rte_mbuf *
mk(const void *data, size_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);

	if (m == NULL)
		return NULL;
	memcpy(rte_pktmbuf_append(m, len), data, len);
	return m;
}

/* An Ethernet frame: dst, src, type, then @p len bytes of @p l3. */
static size_t
eth_frame(uint8_t *buf, const uint8_t *dst, const uint8_t *src, uint16_t type,
	  const uint8_t *l3, size_t len)
{
	memcpy(buf, dst, 6);
	memcpy(buf + 6, src, 6);
	buf[12] = type >> 8;
	buf[13] = type & 0xff;
	memcpy(buf + 14, l3, len);
	return 14 + len;
}

/* UDP (RFC 768) from and to port 53, checksum 0, @p plen payload bytes. */
static void
udp_dgram(uint8_t *u, size_t plen)
{
	size_t i;

	memset(u, 0, 8);
	u[1] = 0x35;
	u[3] = 0x35;
	u[4] = (8 + plen) >> 8;
	u[5] = (8 + plen) & 0xff;
	for (i = 0; i < plen; i++)
		u[8 + i] = (uint8_t)i;
}

/* IPv4 + UDP with @p plen payload bytes (RFC 791, RFC 768). */
static size_t
ipv4_udp(uint8_t *p, const uint8_t *src, const uint8_t *dst, size_t plen)
{
	size_t tot = 28 + plen;

	memset(p, 0, 20);
	p[0] = 0x45;
	p[2] = tot >> 8;
	p[3] = tot & 0xff;
	p[8] = 64;
	p[9] = 17;
	memcpy(p + 12, src, 4);
	memcpy(p + 16, dst, 4);
	udp_dgram(p + 20, plen);
	return tot;
}

/* An Ethernet ARP (RFC 826): 6-byte addresses. */
static size_t
eth_arp(uint8_t *p, uint16_t op, const uint8_t *sha, const uint8_t *spa,
	const uint8_t *tha, const uint8_t *tpa)
{
	static const uint8_t zero[6];

	p[0] = 0;
	p[1] = 1;
	p[2] = 0x08;
	p[3] = 0;
	p[4] = 6;
	p[5] = 4;
	p[6] = 0;
	p[7] = op;
	memcpy(p + 8, sha, 6);
	memcpy(p + 14, spa, 4);
	memcpy(p + 18, tha != NULL ? tha : zero, 6);
	memcpy(p + 24, tpa, 4);
	return 28;
}

/* An IPv6 header (RFC 8200 3): payload @p plen, next header @p nh, hop limit @p hops. */
static void
ip6_hdr(uint8_t *p, const uint8_t *src, const uint8_t *dst, size_t plen, uint8_t nh,
	uint8_t hops)
{
	memset(p, 0, 40);
	p[0] = 0x60;
	p[4] = plen >> 8;
	p[5] = plen & 0xff;
	p[6] = nh;
	p[7] = hops;
	memcpy(p + 8, src, 16);
	memcpy(p + 24, dst, 16);
}

/* An NS (or NA) with one Ethernet-form LLA option (RFC 2464 6). */
static size_t
eth_nd(uint8_t *p, uint8_t type, const uint8_t *src, const uint8_t *dst,
       const uint8_t *target, const uint8_t *mac)
{
	uint16_t ck;

	memset(p, 0, 72);
	ip6_hdr(p, src, dst, 32, 58, 255);
	p[40] = type;
	if (type == 136)
		p[44] = 0x60;
	memcpy(p + 48, target, 16);
	p[64] = type == 135 ? 1 : 2;
	p[65] = 1;
	memcpy(p + 66, mac, 6);
	ck = ref_cksum(p, p + 40, 32);
	p[42] = ck >> 8;
	p[43] = ck & 0xff;
	return 72;
}

/*
 * Carry a packet A (or B) sent to the other host: the PMD of the
 * receiver fills the rx view from the LRH/DETH and puts the GRH (present
 * when the handle had one) in the 40 bytes before the payload.
 */
static void
wire(struct rte_mbuf *m, const struct host *from)
{
	struct rte_ib_mbuf_addr *a = rte_ib_mbuf_addr(m);
	const struct rte_ib_ah *ah = a->tx.ah;
	uint8_t *grh = rte_pktmbuf_mtod(m, uint8_t *) - RTE_IB_GRH_LEN;

	memset(a, 0, sizeof(*a));
	a->rx.src_qpn = rte_ipoib_hwaddr_qpn(&from->hw);
	a->rx.slid = from->lid;
	a->rx.port = 1;
	if (ah->attr.ah_flags & RTE_IB_AH_GRH) {
		a->rx.flags = RTE_IB_MBUF_F_GRH;
		memset(grh, 0, RTE_IB_GRH_LEN);
		grh[0] = 0x60;
		grh[6] = 0x1b;
		grh[7] = 1;
		memcpy(grh + 8, from->hw.gid, 16);
		memcpy(grh + 24, ah->attr.grh.dgid.raw, 16);
	}
}

static int
drops(const struct host *h, enum rte_ipoib_drop_reason r)
{
	struct rte_ipoib_dp_stats st;

	rte_ipoib_dp_stats_get(h->dp, &st);
	return (int)st.drops[r];
}

/* Send @p f (len) from A, check what leaves, carry to B, compare. */
static int
round_trip(const uint8_t *f, size_t len, const struct rte_ib_ah *want_ah,
	   const uint8_t *want_wire, size_t wire_len)
{
	struct rte_mbuf *m = mk(f, len);
	struct rte_ib_mbuf_addr *a;

	TEST_ASSERT(m != NULL, "alloc");
	TEST_ASSERT_EQUAL(rte_ipoib_encap_burst(A.dp, &m, 1), 1, "encap");
	a = rte_ib_mbuf_addr(m);
	TEST_ASSERT(a->tx.ah == want_ah, "address handle");
	TEST_ASSERT_EQUAL(a->tx.dest_qpn, (want_ah->attr.ah_flags & RTE_IB_AH_GRH) ?
			  0xffffff : rte_ipoib_hwaddr_qpn(&B.hw), "dest qpn");
	TEST_ASSERT_EQUAL(a->tx.qkey, QKEY, "qkey");
	if (want_wire != NULL) {
		TEST_ASSERT_EQUAL(rte_pktmbuf_pkt_len(m), wire_len, "wire length");
		TEST_ASSERT_BUFFERS_EQUAL(rte_pktmbuf_mtod(m, uint8_t *), want_wire, wire_len,
					  "wire bytes");
	}
	wire(m, &A);
	TEST_ASSERT_EQUAL(rte_ipoib_decap_burst(B.dp, &m, 1), 1, "decap");
	TEST_ASSERT_EQUAL(rte_pktmbuf_pkt_len(m), len, "length back");
	TEST_ASSERT_BUFFERS_EQUAL(rte_pktmbuf_mtod(m, uint8_t *), f, len, "frame back");
	rte_pktmbuf_free(m);
	return TEST_SUCCESS;
}

static int
test_ipv4_unicast(void)
{
	uint8_t ip[128], f[160], w[160];
	size_t il = ipv4_udp(ip, ip_a, ip_b, 64), fl;

	fl = eth_frame(f, B.mac.addr_bytes, A.mac.addr_bytes, 0x0800, ip, il);
	/* RFC 4391 6: 08 00, two reserved zero bytes, the IP packet. */
	w[0] = 0x08;
	w[1] = 0;
	w[2] = 0;
	w[3] = 0;
	memcpy(w + 4, ip, il);
	return round_trip(f, fl, &ah_to_b, w, il + 4);
}

static int
test_ipv4_mcast(void)
{
	static const uint8_t mc_mac[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0xfb };
	uint8_t ip[128], f[160];
	size_t il = ipv4_udp(ip, ip_a, group4, 16), fl;
	struct rte_ib_gid mgid;

	/* B listens to the group too, for the way back. */
	rte_ipoib_ipv4_mc_mgid(RTE_BE32(0xe00000fb), 0xffff, 2, &mgid);
	TEST_ASSERT(add_group(&B, &mgid, &ah_mc4) != NULL, "B joins");
	fl = eth_frame(f, mc_mac, A.mac.addr_bytes, 0x0800, ip, il);
	return round_trip(f, fl, &ah_mc4, NULL, 0);
}

static int
test_arp_request_reply(void)
{
	static const uint8_t bc[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	uint8_t arp[28], f[64], w[60], rf[64];
	size_t fl;
	int rc;

	eth_arp(arp, 1, A.mac.addr_bytes, ip_a, NULL, ip_b);
	fl = eth_frame(f, bc, A.mac.addr_bytes, 0x0806, arp, 28);
	/* What leaves: 08 06 00 00, then RFC 4391 9.1.1's 56-byte ARP. */
	memset(w, 0, sizeof(w));
	w[0] = 0x08;
	w[1] = 0x06;
	w[5] = 32;
	w[6] = 0x08;
	w[8] = 20;
	w[9] = 4;
	w[11] = 1;
	memcpy(w + 12, &A.hw, 20);
	memcpy(w + 32, ip_a, 4);
	memcpy(w + 56, ip_b, 4);
	rc = round_trip(f, fl, &ah_bcast, w, 60);
	if (rc != TEST_SUCCESS)
		return rc;
	/* B's reply to A's MAC: both addresses translate through the tables. */
	eth_arp(arp, 2, B.mac.addr_bytes, ip_b, A.mac.addr_bytes, ip_a);
	fl = eth_frame(rf, A.mac.addr_bytes, B.mac.addr_bytes, 0x0806, arp, 28);
	{
		struct host t = A;

		A = B;
		B = t;
		rc = round_trip(rf, fl, &ah_to_a, NULL, 0);
		B = A;
		A = t;
	}
	return rc;
}

static int
test_nd_round_trip(void)
{
	static const uint8_t snm_mac[6] = { 0x33, 0x33, 0xff, 0x00, 0x00, 0x03 };
	uint8_t nd[80], f[100];
	size_t fl;
	struct rte_mbuf *m;
	const uint8_t *p;
	struct rte_ipoib_hwaddr hw;

	eth_nd(nd, 135, ip6_a, snm_b, ip6_b, A.mac.addr_bytes);
	fl = eth_frame(f, snm_mac, A.mac.addr_bytes, 0x86dd, nd, 72);
	/* Look at the IPoIB form on the wire first. */
	m = mk(f, fl);
	TEST_ASSERT_EQUAL(rte_ipoib_encap_burst(A.dp, &m, 1), 1, "encap");
	p = rte_pktmbuf_mtod(m, const uint8_t *);
	TEST_ASSERT_EQUAL(rte_pktmbuf_pkt_len(m), 4 + 40 + 48, "grown by 16");
	TEST_ASSERT(p[0] == 0x86 && p[1] == 0xdd, "type");
	TEST_ASSERT(p[4 + 5] == 48, "payload length 48");
	TEST_ASSERT(p[4 + 64] == 1 && p[4 + 65] == 3 && p[4 + 66] == 0 && p[4 + 67] == 0,
		    "option type 1, length 3, padding (RFC 4391 9.1.2)");
	TEST_ASSERT_BUFFERS_EQUAL(p + 4 + 68, &A.hw, 20, "A's IPoIB address");
	TEST_ASSERT_EQUAL(ref_cksum(p + 4, p + 44, 48), 0, "checksum right (RFC 1071)");
	TEST_ASSERT_EQUAL(rte_ipoib_nd_find_lla(p + 4, 88, 1, &hw), 1, "library agrees");
	TEST_ASSERT(rte_ib_mbuf_addr(m)->tx.ah == &ah_snm_b, "to B's solicited-node group");
	rte_pktmbuf_free(m);
	/* And back on B as the frame A's application wrote. */
	{
		struct rte_ib_gid mgid;

		rte_ipoib_ipv6_mc_mgid(snm_b, 0xffff, 2, &mgid);
		TEST_ASSERT(add_group(&B, &mgid, &ah_snm_b) != NULL, "B's group");
	}
	return round_trip(f, fl, &ah_snm_b, NULL, 0);
}

static int
test_na_unicast(void)
{
	uint8_t nd[80], f[100];
	size_t fl;
	struct host t = A;
	int rc;

	/* B answers A with its own MAC as target link-layer address. */
	eth_nd(nd, 136, ip6_b, ip6_a, ip6_b, B.mac.addr_bytes);
	fl = eth_frame(f, A.mac.addr_bytes, B.mac.addr_bytes, 0x86dd, nd, 72);
	A = B;
	B = t;
	rc = round_trip(f, fl, &ah_to_a, NULL, 0);
	B = A;
	A = t;
	return rc;
}

/* Encapsulate one frame on A and expect it dropped for @p r. */
static int
encap_drop(const uint8_t *f, size_t len, enum rte_ipoib_drop_reason r, const char *what)
{
	struct rte_mbuf *m = mk(f, len);
	int before = drops(&A, r);

	TEST_ASSERT(m != NULL, "alloc");
	TEST_ASSERT_EQUAL(rte_ipoib_encap_burst(A.dp, &m, 1), 0, "%s: not dropped", what);
	TEST_ASSERT_EQUAL(drops(&A, r), before + 1, "%s: counted as %s", what,
			  rte_ipoib_drop_reason_name(r));
	return TEST_SUCCESS;
}

#define ENCAP_DROP(f, l, r, w) do { \
	if (encap_drop(f, l, r, w) != TEST_SUCCESS) \
		return TEST_FAILED; \
} while (0)

static int
test_encap_drops(void)
{
	static const uint8_t bc[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t stray[6] = { 0x02, 0x99, 0x99, 0x99, 0x99, 0x99 };
	static const uint8_t mc_bad[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0xfc };
	static const uint8_t mc_99[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x63 };
	static const uint8_t stp[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x00 };
	static const uint8_t g99[4] = { 224, 0, 0, 99 };
	uint8_t ip[2100], f[2200], arp[28], nd[80];
	struct rte_ipoib_event ev;
	size_t il, fl;

	il = ipv4_udp(ip, ip_a, ip_b, 32);
	fl = eth_frame(f, B.mac.addr_bytes, A.mac.addr_bytes, 0x0800, ip, il);
	ENCAP_DROP(f, 10, RTE_IPOIB_DROP_BAD_LENGTH, "10-byte frame");
	ENCAP_DROP(f, 14 + 19, RTE_IPOIB_DROP_BAD_LENGTH, "IPv4 header cut");
	ENCAP_DROP(f, fl - 1, RTE_IPOIB_DROP_BAD_LENGTH, "IPv4 total length past the frame");
	f[14] = 0x44;
	ENCAP_DROP(f, fl, RTE_IPOIB_DROP_BAD_LENGTH, "IHL 4");
	f[14] = 0x65;
	ENCAP_DROP(f, fl, RTE_IPOIB_DROP_BAD_ETHERTYPE, "version 6 under 0x0800");
	f[14] = 0x45;
	f[12] = 0x81;
	ENCAP_DROP(f, fl, RTE_IPOIB_DROP_BAD_ETHERTYPE, "VLAN tag");
	f[12] = 0x88;
	f[13] = 0xcc;
	ENCAP_DROP(f, fl, RTE_IPOIB_DROP_BAD_ETHERTYPE, "LLDP");
	fl = eth_frame(f, stray, A.mac.addr_bytes, 0x0800, ip, il);
	ENCAP_DROP(f, fl, RTE_IPOIB_DROP_NO_NEIGH, "unknown unicast MAC");
	fl = eth_frame(f, stp, A.mac.addr_bytes, 0x0800, ip, il);
	ENCAP_DROP(f, fl, RTE_IPOIB_DROP_BAD_MCAST, "non-IP multicast MAC");
	il = ipv4_udp(ip, ip_a, group4, 16);
	fl = eth_frame(f, mc_bad, A.mac.addr_bytes, 0x0800, ip, il);
	ENCAP_DROP(f, fl, RTE_IPOIB_DROP_BAD_MCAST, "MAC of another group");
	fl = eth_frame(f, mc_99, A.mac.addr_bytes, 0x86dd, ip, il);
	ENCAP_DROP(f, fl, RTE_IPOIB_DROP_BAD_ETHERTYPE, "IPv4 bytes under 0x86dd");
	/* A group not joined: dropped, and the control side is told. */
	while (rte_ring_dequeue_elem(A.ev, &ev, sizeof(ev)) == 0)
		;
	il = ipv4_udp(ip, ip_a, g99, 16);
	fl = eth_frame(f, mc_99, A.mac.addr_bytes, 0x0800, ip, il);
	ENCAP_DROP(f, fl, RTE_IPOIB_DROP_NO_NEIGH, "group not joined");
	TEST_ASSERT_SUCCESS(rte_ring_dequeue_elem(A.ev, &ev, sizeof(ev)), "event");
	TEST_ASSERT(ev.type == RTE_IPOIB_EV_DST_MISS && ev.hw.gid[15] == 99 &&
		    ev.hw.gid[2] == 0x40 && rte_ipoib_hwaddr_qpn(&ev.hw) == 0xffffff,
		    "DST_MISS for the group's MGID");
	/* Oversize: an IP MTU of 2044 (RFC 4391 7). */
	il = ipv4_udp(ip, ip_a, ip_b, 2044 - 28 + 1);
	fl = eth_frame(f, B.mac.addr_bytes, A.mac.addr_bytes, 0x0800, ip, il);
	ENCAP_DROP(f, fl, RTE_IPOIB_DROP_OVERSIZE, "2045-byte IP packet");
	il = ipv4_udp(ip, ip_a, ip_b, 2044 - 28);
	fl = eth_frame(f, B.mac.addr_bytes, A.mac.addr_bytes, 0x0800, ip, il);
	{
		struct rte_mbuf *m = mk(f, fl);

		TEST_ASSERT_EQUAL(rte_ipoib_encap_burst(A.dp, &m, 1), 1, "2044 bytes pass");
		rte_pktmbuf_free(m);
	}
	/* ARP: every field of RFC 826 for Ethernet. */
	eth_arp(arp, 1, A.mac.addr_bytes, ip_a, NULL, ip_b);
	fl = eth_frame(f, bc, A.mac.addr_bytes, 0x0806, arp, 28);
	ENCAP_DROP(f, fl - 1, RTE_IPOIB_DROP_BAD_LENGTH, "ARP cut");
	{
		static const struct { unsigned int off; uint8_t v; } rows[] = {
			{ 14 + 1, 6 }, { 14 + 2, 0x86 }, { 14 + 4, 20 }, { 14 + 5, 16 },
			{ 14 + 7, 3 }, { 14 + 6, 1 },
		};
		unsigned int i;

		for (i = 0; i < RTE_DIM(rows); i++) {
			uint8_t save = f[rows[i].off];

			f[rows[i].off] = rows[i].v;
			ENCAP_DROP(f, fl, RTE_IPOIB_DROP_BAD_ARP, "ARP field");
			f[rows[i].off] = save;
		}
	}
	eth_arp(arp, 1, stray, ip_a, NULL, ip_b);
	fl = eth_frame(f, bc, A.mac.addr_bytes, 0x0806, arp, 28);
	ENCAP_DROP(f, fl, RTE_IPOIB_DROP_NO_NEIGH, "ARP from an unknown MAC");
	eth_arp(arp, 2, A.mac.addr_bytes, ip_a, stray, ip_b);
	fl = eth_frame(f, B.mac.addr_bytes, A.mac.addr_bytes, 0x0806, arp, 28);
	ENCAP_DROP(f, fl, RTE_IPOIB_DROP_NO_NEIGH, "ARP reply to an unknown MAC");
	/* ND: bad checksum, IPoIB-form option from the Ethernet side. */
	eth_nd(nd, 135, ip6_a, ip6_b, ip6_b, A.mac.addr_bytes);
	fl = eth_frame(f, B.mac.addr_bytes, A.mac.addr_bytes, 0x86dd, nd, 72);
	f[14 + 43] ^= 1;
	ENCAP_DROP(f, fl, RTE_IPOIB_DROP_BAD_ND, "NS checksum");
	f[14 + 43] ^= 1;
	f[14 + 7] = 64;
	ENCAP_DROP(f, fl, RTE_IPOIB_DROP_BAD_ND, "NS hop limit 64");
	f[14 + 7] = 255;
	f[14 + 65] = 3;
	ENCAP_DROP(f, fl, RTE_IPOIB_DROP_BAD_ND, "option length 3 from Ethernet");
	eth_nd(nd, 135, ip6_a, ip6_b, ip6_b, stray);
	fl = eth_frame(f, B.mac.addr_bytes, A.mac.addr_bytes, 0x86dd, nd, 72);
	ENCAP_DROP(f, fl, RTE_IPOIB_DROP_NO_NEIGH, "SLLAO of an unknown MAC");
	return TEST_SUCCESS;
}

/*
 * Packets without a neighbour go on the held ring with their destination
 * (issue 26: queued, not dropped, while the control side learns the
 * neighbour or joins the group); a full ring drops them as no_neigh.
 */
static int
test_encap_held(void)
{
	static const uint8_t stray[6] = { 0x02, 0x99, 0x99, 0x99, 0x99, 0x99 };
	static const uint8_t mc_99[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x63 };
	static const uint8_t g99[4] = { 224, 0, 0, 99 };
	struct rte_ipoib_dp_conf dc = {
		.mode = RTE_IPOIB_MODE_ETH, .local_lid = LID_A, .pkey = 0xffff,
		.scope = RTE_IPOIB_SCOPE_LINK, .qkey = QKEY, .mtu = 2044,
	};
	struct rte_ipoib_dp_stats st;
	struct rte_ipoib_hwaddr ghw;
	struct rte_ipoib_held e;
	struct rte_ib_gid mgid;
	struct rte_mbuf *m, *m1, *m2;
	struct rte_ipoib_dp *dp;
	struct rte_ring *held;
	uint8_t ip[200], f[300];
	size_t il, fl;

	/* Room for 3 (a ring of 4). */
	held = rte_ring_create_elem("held_a", sizeof(struct rte_ipoib_held), 4, SOCKET_ID_ANY,
				    RING_F_SC_DEQ);
	TEST_ASSERT(held != NULL, "held ring");
	dc.tbl = A.tbl;
	dc.local = A.hw;
	dc.held = held;
	dp = rte_ipoib_dp_create(&dc);
	TEST_ASSERT(dp != NULL, "context with a held ring");
	il = ipv4_udp(ip, ip_a, ip_b, 32);
	fl = eth_frame(f, stray, A.mac.addr_bytes, 0x0800, ip, il);
	m1 = mk(f, fl);
	TEST_ASSERT_EQUAL(rte_ipoib_encap_burst(dp, &m1, 1), 0, "unknown MAC: not ready");
	il = ipv4_udp(ip, ip_a, g99, 16);
	fl = eth_frame(f, mc_99, A.mac.addr_bytes, 0x0800, ip, il);
	m2 = mk(f, fl);
	TEST_ASSERT_EQUAL(rte_ipoib_encap_burst(dp, &m2, 1), 0, "group not joined: not ready");
	TEST_ASSERT_SUCCESS(rte_ipoib_dp_stats_get(dp, &st), "stats");
	TEST_ASSERT(st.held == 2 && st.drops[RTE_IPOIB_DROP_NO_NEIGH] == 0,
		    "held 2, dropped none: held %" PRIu64, st.held);
	TEST_ASSERT_SUCCESS(rte_ring_dequeue_elem(held, &e, sizeof(e)), "first held");
	TEST_ASSERT(e.m == m1 && e.kind == RTE_IPOIB_HELD_MAC &&
		    memcmp(e.key, stray, 6) == 0 && e.m->data_len == 14 + 20 + 8 + 32 &&
		    memcmp(rte_pktmbuf_mtod(e.m, uint8_t *), stray, 6) == 0,
		    "the frame, untouched, under its MAC");
	rte_pktmbuf_free(e.m);
	rte_ipoib_ipv4_mc_mgid(RTE_BE32(0xe0000063), 0xffff, 2, &mgid);
	rte_ipoib_mcast_hwaddr(&mgid, &ghw);
	TEST_ASSERT_SUCCESS(rte_ring_dequeue_elem(held, &e, sizeof(e)), "second held");
	TEST_ASSERT(e.m == m2 && e.kind == RTE_IPOIB_HELD_HW && memcmp(e.key, &ghw, 20) == 0,
		    "the datagram under its group's address");
	rte_pktmbuf_free(e.m);
	/* Three fill the ring; the fourth is dropped and counted. */
	while (rte_ring_count(held) < 3) {
		m = mk(f, fl);
		TEST_ASSERT_EQUAL(rte_ipoib_encap_burst(dp, &m, 1), 0, "held");
	}
	m = mk(f, fl);
	TEST_ASSERT_EQUAL(rte_ipoib_encap_burst(dp, &m, 1), 0, "ring full");
	TEST_ASSERT_SUCCESS(rte_ipoib_dp_stats_get(dp, &st), "stats");
	TEST_ASSERT(st.held == 5 && st.drops[RTE_IPOIB_DROP_NO_NEIGH] == 1,
		    "a full ring drops as no_neigh");
	while (rte_ring_dequeue_elem(held, &e, sizeof(e)) == 0)
		rte_pktmbuf_free(e.m);
	rte_ipoib_dp_free(dp);
	rte_ring_free(held);
	return TEST_SUCCESS;
}

static int
test_paths_and_queue(void)
{
	struct rte_ipoib_hwaddr c, d;
	struct rte_ipoib_path *pd;
	struct rte_mbuf *q[8], *m;
	struct rte_ib_gid g;
	uint8_t ip[128], f[160];
	struct rte_ether_addr mac;
	size_t fl;
	unsigned int i;
	struct rte_ipoib_dp_stats st;

	/* C: a neighbour without a path. */
	peer_hw(&c, 0x0002c90300000004, 0x50);
	TEST_ASSERT(rte_ipoib_neigh_add(A.tbl, &c, NULL) != NULL, "C");
	rte_ipoib_mac_from_hwaddr(&c, &mac);
	fl = eth_frame(f, mac.addr_bytes, A.mac.addr_bytes, 0x0800, ip,
		       ipv4_udp(ip, ip_a, ip_b, 8));
	ENCAP_DROP(f, fl, RTE_IPOIB_DROP_NO_PATH, "no path");
	/* D: a path being resolved; the queue holds 4 (queue_len). */
	peer_hw(&d, 0x0002c90300000005, 0x51);
	TEST_ASSERT(add_neigh(&A, &d, NULL, false) != NULL, "D");
	rte_ipoib_mac_from_hwaddr(&d, &mac);
	fl = eth_frame(f, mac.addr_bytes, A.mac.addr_bytes, 0x0800, ip,
		       ipv4_udp(ip, ip_a, ip_b, 8));
	for (i = 0; i < 4; i++) {
		m = mk(f, fl);
		TEST_ASSERT_EQUAL(rte_ipoib_encap_burst(A.dp, &m, 1), 0, "queued, not ready");
	}
	ENCAP_DROP(f, fl, RTE_IPOIB_DROP_QUEUE_FULL, "fifth");
	rte_ipoib_dp_stats_get(A.dp, &st);
	TEST_ASSERT_EQUAL(st.queued, 4, "queued");
	rte_ipoib_hwaddr_gid(&d, &g);
	pd = rte_ipoib_path_lookup(A.tbl, &g, 0xffff);
	TEST_ASSERT_EQUAL(rte_ipoib_path_drain(A.tbl, pd, q, 1), 1, "drain unresolved");
	TEST_ASSERT(rte_ib_mbuf_addr(q[0])->tx.ah == NULL, "no handle yet");
	rte_pktmbuf_free(q[0]);
	memset(&ah_late, 0, sizeof(ah_late));
	ah_late.attr.dlid = 9;
	TEST_ASSERT_SUCCESS(rte_ipoib_path_set_ah(A.tbl, pd, &ah_late, 9), "resolved");
	TEST_ASSERT_EQUAL(rte_ipoib_path_drain(A.tbl, pd, q, 8), 3, "the rest");
	for (i = 0; i < 3; i++) {
		struct rte_ib_mbuf_addr *a = rte_ib_mbuf_addr(q[i]);

		TEST_ASSERT(a->tx.ah == &ah_late && a->tx.dest_qpn == 0x51 &&
			    a->tx.qkey == QKEY, "ready to send");
		TEST_ASSERT_EQUAL(rte_pktmbuf_mtod(q[i], uint8_t *)[0], 0x08, "encapsulated");
	}
	rte_pktmbuf_free_bulk(q, 3);
	/* A whole burst: order kept, drops compacted out. */
	{
		struct rte_mbuf *b[4];
		uint8_t g2[160];
		size_t l2 = eth_frame(g2, B.mac.addr_bytes, A.mac.addr_bytes, 0x0800, ip,
				      ipv4_udp(ip, ip_a, ip_b, 8));

		b[0] = mk(g2, l2);
		b[1] = mk(g2, 5);
		b[2] = mk(g2, l2);
		b[3] = mk(f, fl);
		TEST_ASSERT_EQUAL(rte_ipoib_encap_burst(A.dp, b, 4), 3, "3 of 4");
		rte_pktmbuf_free_bulk(b, 3);
	}
	return TEST_SUCCESS;
}

/* Decapsulate one packet on B as coming from @p slid/@p qpn. */
static int
decap_drop(const uint8_t *w, size_t len, uint16_t pkey_index, uint16_t slid, uint32_t qpn,
	   enum rte_ipoib_drop_reason r, const char *what)
{
	struct rte_mbuf *m = mk(w, len);
	struct rte_ib_mbuf_addr *a;
	int before = drops(&B, r);

	TEST_ASSERT(m != NULL, "alloc");
	a = rte_ib_mbuf_addr(m);
	memset(a, 0, sizeof(*a));
	a->rx.pkey_index = pkey_index;
	a->rx.slid = slid;
	a->rx.src_qpn = qpn;
	TEST_ASSERT_EQUAL(rte_ipoib_decap_burst(B.dp, &m, 1), 0, "%s: delivered", what);
	TEST_ASSERT_EQUAL(drops(&B, r), before + 1, "%s: counted as %s", what,
			  rte_ipoib_drop_reason_name(r));
	return TEST_SUCCESS;
}

#define DECAP_DROP(w, l, pk, s, q, r, what) do { \
	if (decap_drop(w, l, pk, s, q, r, what) != TEST_SUCCESS) \
		return TEST_FAILED; \
} while (0)

static int
test_decap_drops(void)
{
	uint8_t w[2200], ip[2200];
	struct rte_ipoib_arp arp;
	struct rte_ipoib_event ev;
	size_t il;

	il = ipv4_udp(ip, ip_a, ip_b, 32);
	w[0] = 0x08;
	w[1] = 0;
	w[2] = 0;
	w[3] = 0;
	memcpy(w + 4, ip, il);
	DECAP_DROP(w, il + 4, 1, LID_A, 0x48, RTE_IPOIB_DROP_WRONG_PKEY, "P_Key index 1");
	DECAP_DROP(w, 3, 0, LID_A, 0x48, RTE_IPOIB_DROP_BAD_LENGTH, "3 bytes");
	DECAP_DROP(w, il + 3, 0, LID_A, 0x48, RTE_IPOIB_DROP_BAD_LENGTH, "IPv4 cut");
	DECAP_DROP(w, il + 4, 0, LID_B, 0x49, RTE_IPOIB_DROP_LOOPED, "our own");
	w[1] = 0x01;
	DECAP_DROP(w, il + 4, 0, LID_A, 0x48, RTE_IPOIB_DROP_BAD_ETHERTYPE, "0x0801");
	w[1] = 0;
	while (rte_ring_dequeue_elem(B.ev, &ev, sizeof(ev)) == 0)
		;
	/* Our own multicast echo from one of our tx QPs (decision 2 of ipoib_lib.rst). */
	DECAP_DROP(w, il + 4, 0, LID_B, 0x49 + TX_QPN_OFF, RTE_IPOIB_DROP_LOOPED,
		   "our own, from our tx QP");
	/*
	 * From an unknown (SLID, QPN) without GRH (a peer's tx QP): delivered
	 * with the MAC derived from SLID and QPN, and reported.
	 */
	{
		static const uint8_t derived[6] = { 0x06, 0x00, 77, 0x00, 0x00, 0x77 };
		struct rte_mbuf *m[8];
		unsigned int i;
		const uint8_t *e;

		for (i = 0; i < RTE_DIM(m); i++) {
			struct rte_ib_mbuf_addr *a;

			m[i] = mk(w, il + 4);
			TEST_ASSERT(m[i] != NULL, "alloc");
			a = rte_ib_mbuf_addr(m[i]);
			memset(a, 0, sizeof(*a));
			/* the last one from another port (SLID 78) */
			a->rx.slid = i == RTE_DIM(m) - 1 ? 78 : 77;
			a->rx.src_qpn = 0x77;
		}
		TEST_ASSERT_EQUAL(rte_ipoib_decap_burst(B.dp, m, RTE_DIM(m)), RTE_DIM(m),
				  "unknown sources, no GRH: delivered");
		e = rte_pktmbuf_mtod(m[0], const uint8_t *);
		TEST_ASSERT(memcmp(e, B.mac.addr_bytes, 6) == 0 && memcmp(e + 6, derived, 6) == 0,
			    "unknown source: to us, from 06:00:4d:00:00:77");
		rte_pktmbuf_free_bulk(m, RTE_DIM(m));
	}
	/* Seven datagrams from (77, 0x77), one report; one from (78, 0x77). */
	TEST_ASSERT_SUCCESS(rte_ring_dequeue_elem(B.ev, &ev, sizeof(ev)), "event");
	TEST_ASSERT(ev.type == RTE_IPOIB_EV_SRC_UNKNOWN && ev.slid == 77 && ev.qpn == 0x77,
		    "SRC_UNKNOWN (77, 0x77)");
	TEST_ASSERT_SUCCESS(rte_ring_dequeue_elem(B.ev, &ev, sizeof(ev)), "second event");
	TEST_ASSERT(ev.type == RTE_IPOIB_EV_SRC_UNKNOWN && ev.slid == 78 && ev.qpn == 0x77,
		    "SRC_UNKNOWN (78, 0x77), not (77, 0x77) again: %u (%u, 0x%x)", ev.type,
		    ev.slid, ev.qpn);
	TEST_ASSERT(rte_ring_count(B.ev) == 0, "%u more events: an unknown source reported "
		    "more than once a second", rte_ring_count(B.ev));
	il = ipv4_udp(ip, ip_a, ip_b, 2044 - 28 + 1);
	memcpy(w + 4, ip, il);
	DECAP_DROP(w, il + 4, 0, LID_A, 0x48, RTE_IPOIB_DROP_OVERSIZE, "2045 bytes");
	/* ARP in the IPoIB form, field by field. */
	rte_ipoib_arp_build(&arp, 1, &A.hw, RTE_BE32(0x0a000002), NULL, RTE_BE32(0x0a000003));
	w[1] = 0x06;
	memcpy(w + 4, &arp, 56);
	DECAP_DROP(w, 4 + 55, 0, LID_A, 0x48, RTE_IPOIB_DROP_BAD_LENGTH, "ARP cut");
	w[4 + 1] = 1;
	DECAP_DROP(w, 60, 0, LID_A, 0x48, RTE_IPOIB_DROP_BAD_ARP, "ARP htype 1");
	w[4 + 1] = 32;
	w[4 + 4] = 6;
	DECAP_DROP(w, 60, 0, LID_A, 0x48, RTE_IPOIB_DROP_BAD_ARP, "ARP hlen 6");
	w[4 + 4] = 20;
	w[4 + 7] = 9;
	DECAP_DROP(w, 60, 0, LID_A, 0x48, RTE_IPOIB_DROP_BAD_ARP, "ARP oper 9");
	/* ND with the Ethernet-form option arriving from IB. */
	w[0] = 0x86;
	w[1] = 0xdd;
	eth_nd(w + 4, 135, ip6_a, ip6_b, ip6_b, A.mac.addr_bytes);
	DECAP_DROP(w, 4 + 72, 0, LID_A, 0x48, RTE_IPOIB_DROP_BAD_ND, "Ethernet-form option");
	return TEST_SUCCESS;
}

/* IPv6 + UDP with @p plen payload bytes (RFC 8200 3, RFC 768). */
static size_t
ipv6_udp(uint8_t *p, const uint8_t *src, const uint8_t *dst, size_t plen)
{
	ip6_hdr(p, src, dst, 8 + plen, 17, 64);
	udp_dgram(p + 40, plen);
	return 48 + plen;
}

/*
 * The bursts' fast paths (known neighbour or source, plain IP) against
 * the cases that must still leave them: each one would pass every other
 * fast-path condition. The vectors are the frames of the tests above.
 */
static int
test_fast_path_edges(void)
{
	struct rte_ipoib_path *p;
	struct rte_ib_ah ah_self;
	struct rte_ipoib_neigh *self;
	struct rte_mbuf *m;
	struct rte_ib_mbuf_addr *a;
	struct rte_ib_gid g;
	uint8_t ip[128], f[160], w[160];
	size_t il, fl;
	int before;

	/* IPv6, not ND: RFC 4391 6 header 86 dd 00 00, both ways. */
	il = ipv6_udp(ip, ip6_a, ip6_b, 24);
	fl = eth_frame(f, B.mac.addr_bytes, A.mac.addr_bytes, 0x86dd, ip, il);
	memcpy(w, "\x86\xdd\x00\x00", 4);
	memcpy(w + 4, ip, il);
	if (round_trip(f, fl, &ah_to_b, w, il + 4) != TEST_SUCCESS)
		return TEST_FAILED;
	/* IPv6 payload length past the frame, from a known source: bad length. */
	w[4 + 5] += 1;
	DECAP_DROP(w, il + 4, 0, LID_A, 0x48, RTE_IPOIB_DROP_BAD_LENGTH, "IPv6 cut");
	w[4 + 5] -= 1;
	/* Our own (SLID, QPN) while B knows itself as a neighbour: still looped. */
	memset(&ah_self, 0, sizeof(ah_self));
	ah_self.attr.dlid = LID_B;
	self = add_neigh(&B, &B.hw, &ah_self, true);
	TEST_ASSERT(self != NULL && rte_ipoib_neigh_lookup_src(B.tbl, LID_B, 0x49) == self,
		    "B indexed by its own (SLID, QPN)");
	w[1] = 0xdd;
	DECAP_DROP(w, il + 4, 0, LID_B, 0x49, RTE_IPOIB_DROP_LOOPED, "own, known");
	TEST_ASSERT_SUCCESS(rte_ipoib_neigh_del(B.tbl, self), "del self");
	/* Headroom under 10 bytes: no room for the Ethernet header. */
	m = rte_pktmbuf_alloc(pool);
	TEST_ASSERT(m != NULL, "alloc");
	m->data_off = 6;
	memcpy(rte_pktmbuf_append(m, il + 4), w, il + 4);
	a = rte_ib_mbuf_addr(m);
	memset(a, 0, sizeof(*a));
	a->rx.slid = LID_A;
	a->rx.src_qpn = 0x48;
	before = drops(&B, RTE_IPOIB_DROP_NO_ROOM);
	TEST_ASSERT_EQUAL(rte_ipoib_decap_burst(B.dp, &m, 1), 0, "6 bytes of headroom");
	TEST_ASSERT_EQUAL(drops(&B, RTE_IPOIB_DROP_NO_ROOM), before + 1, "no_room");
	/* A handle withdrawn from a known neighbour's path: queued, not sent. */
	rte_ipoib_hwaddr_gid(&B.hw, &g);
	p = rte_ipoib_path_lookup(A.tbl, &g, 0xffff);
	TEST_ASSERT(p != NULL, "B's path");
	TEST_ASSERT_SUCCESS(rte_ipoib_path_set_ah(A.tbl, p, NULL, 0), "withdraw");
	m = mk(f, fl);
	TEST_ASSERT(m != NULL, "alloc");
	TEST_ASSERT_EQUAL(rte_ipoib_encap_burst(A.dp, &m, 1), 0, "queued");
	TEST_ASSERT_SUCCESS(rte_ipoib_path_set_ah(A.tbl, p, &ah_to_b, LID_B), "back");
	TEST_ASSERT_EQUAL(rte_ipoib_path_drain(A.tbl, p, &m, 1), 1, "drained");
	TEST_ASSERT(rte_ib_mbuf_addr(m)->tx.ah == &ah_to_b, "sent with the new handle");
	rte_pktmbuf_free(m);
	/* A neighbour moved off its path: no path, though its MAC is known. */
	TEST_ASSERT_SUCCESS(rte_ipoib_neigh_set_path(A.tbl,
		rte_ipoib_neigh_lookup(A.tbl, &B.hw), NULL), "unlink");
	ENCAP_DROP(f, fl, RTE_IPOIB_DROP_NO_PATH, "no path any more");
	TEST_ASSERT_SUCCESS(rte_ipoib_neigh_set_path(A.tbl,
		rte_ipoib_neigh_lookup(A.tbl, &B.hw), p), "relink");
	return round_trip(f, fl, &ah_to_b, NULL, 0);
}

/*
 * Multicast groups whose high bits are set, both directions (issue 29).
 * The vectors by hand:
 * - 239.255.255.250 (0xeffffffa). Ethernet (RFC 1112 6.4): 01:00:5e and
 *   the group's low 23 bits, 0x7ffffa: 01:00:5e:7f:ff:fa (bit 23, the
 *   0x80 of 255, is not carried). MGID (RFC 4391 4): ff1<scope>:401b,
 *   the P_Key (0xffff), 6 zero bytes, the group's low 28 bits
 *   0x0ffffffa: ff12:401b:ffff:0000:0000:0000:0fff:fffa (scope 2, link).
 * - ff02::1:ff12:3456. Ethernet (RFC 2464 7): 33:33 and the group's low
 *   32 bits: 33:33:ff:12:34:56. MGID (RFC 4391 4): ff1<scope>:601b, the
 *   P_Key, then the group's low 80 bits 0000:0000:0001:ff12:3456:
 *   ff12:601b:ffff:0000:0000:0001:ff12:3456.
 * A sends the Ethernet frame; it must leave for the group whose MGID is
 * the hand-made one (its handle), and B must give back the same frame,
 * destination MAC rebuilt from the GRH's DGID and the IP destination.
 */
static struct rte_ib_ah ah_hi4, ah_hi6;

static int
test_mcast_high_bits(void)
{
	static const uint8_t g4[4] = { 239, 255, 255, 250 };
	static const uint8_t mac4[6] = { 0x01, 0x00, 0x5e, 0x7f, 0xff, 0xfa };
	static const uint8_t mgid4[16] = { 0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0,
					   0, 0, 0, 0, 0x0f, 0xff, 0xff, 0xfa };
	static const uint8_t g6[16] = { 0xff, 0x02, [11] = 0x01, 0xff, 0x12, 0x34, 0x56 };
	static const uint8_t mac6[6] = { 0x33, 0x33, 0xff, 0x12, 0x34, 0x56 };
	static const uint8_t mgid6[16] = { 0xff, 0x12, 0x60, 0x1b, 0xff, 0xff, 0, 0,
					   0, 0, 0x00, 0x01, 0xff, 0x12, 0x34, 0x56 };
	/* 01:00:5e with bit 23 set, and one low bit off: both not the group's MAC. */
	static const uint8_t bad4[2][6] = { { 0x01, 0x00, 0x5e, 0xff, 0xff, 0xfa },
					    { 0x01, 0x00, 0x5e, 0x7f, 0xff, 0xfb } };
	uint8_t ip[128], f[160];
	struct rte_ib_gid mgid;
	size_t il, fl;
	unsigned int i;
	int rc;

	memset(&ah_hi4, 0, sizeof(ah_hi4));
	memset(&ah_hi6, 0, sizeof(ah_hi6));
	ah_hi4.attr.dlid = 0xc010;
	ah_hi6.attr.dlid = 0xc011;
	memcpy(mgid.raw, mgid4, 16);
	TEST_ASSERT(add_group(&A, &mgid, &ah_hi4) != NULL && add_group(&B, &mgid, &ah_hi4) != NULL,
		    "239.255.255.250 joined");
	memcpy(mgid.raw, mgid6, 16);
	TEST_ASSERT(add_group(&A, &mgid, &ah_hi6) != NULL && add_group(&B, &mgid, &ah_hi6) != NULL,
		    "ff02::1:ff12:3456 joined");

	il = ipv4_udp(ip, ip_a, g4, 16);
	fl = eth_frame(f, mac4, A.mac.addr_bytes, 0x0800, ip, il);
	rc = round_trip(f, fl, &ah_hi4, NULL, 0);
	if (rc != TEST_SUCCESS)
		return rc;
	for (i = 0; i < RTE_DIM(bad4); i++) {
		fl = eth_frame(f, bad4[i], A.mac.addr_bytes, 0x0800, ip, il);
		ENCAP_DROP(f, fl, RTE_IPOIB_DROP_BAD_MCAST, "MAC not the group's");
	}
	il = ipv6_udp(ip, ip6_a, g6, 16);
	fl = eth_frame(f, mac6, A.mac.addr_bytes, 0x86dd, ip, il);
	return round_trip(f, fl, &ah_hi6, NULL, 0);
}

/*
 * An NS from A to B (unicast), source LLA option first, then one option
 * of @p type whose length field is @p units and of which @p bytes are
 * there (two zero bytes after the header, then 0xa5); in the Ethernet
 * form (@p ib false: 8-byte LLA, RFC 2464 6) or the IPoIB form (24-byte
 * LLA, RFC 4391 9.1.2). Checksum right. Returns the IPv6 packet's length.
 */
static size_t
nd_opt_msg(uint8_t *p, bool ib, uint8_t type, uint8_t units, size_t bytes)
{
	size_t lla = ib ? 24 : 8, icmp_len = 24 + lla + bytes, o = 40 + 24 + lla;
	uint16_t ck;

	memset(p, 0, 40 + icmp_len);
	ip6_hdr(p, ip6_a, ip6_b, icmp_len, 58, 255);
	p[40] = 135;
	memcpy(p + 48, ip6_b, 16);
	p[64] = 1;
	if (ib) {
		p[65] = 3;
		memcpy(p + 68, &A.hw, 20);
	} else {
		p[65] = 1;
		memcpy(p + 66, A.mac.addr_bytes, 6);
	}
	p[o] = type;
	p[o + 1] = units;
	/* Two zero bytes, as an IPoIB LLA option's padding, then a pattern. */
	memset(p + o + 4, 0xa5, bytes - 4);
	ck = ref_cksum(p, p + 40, icmp_len);
	p[42] = ck >> 8;
	p[43] = ck & 0xff;
	return 40 + icmp_len;
}

/*
 * ND options of every type (1 SLLA, 2 TLLA, 3 prefix, 4 redirected
 * header, 5 MTU, 14 nonce, and unassigned 200) with a zero length (RFC
 * 4861 4.6: the packet is invalid) or a length past the message's end,
 * in both rewrite directions: dropped as bad_nd, counted. An LLA option
 * of the other form's length is dropped likewise; any other option of a
 * proper length passes both ways untouched.
 */
static int
test_nd_option_lengths(void)
{
	static const struct { uint8_t type, units; } opts[] = {
		{ 1, 1 }, { 2, 1 }, { 3, 4 }, { 4, 1 }, { 5, 1 }, { 14, 1 }, { 200, 1 },
	};
	uint8_t nd[200], f[220], w[220];
	size_t nl, fl;
	unsigned int i;
	int rc;

	for (i = 0; i < RTE_DIM(opts); i++) {
		uint8_t t = opts[i].type;
		size_t good = (size_t)opts[i].units * 8;

		/* Length 0, 8 bytes there. */
		nl = nd_opt_msg(nd, false, t, 0, 8);
		fl = eth_frame(f, B.mac.addr_bytes, A.mac.addr_bytes, 0x86dd, nd, nl);
		ENCAP_DROP(f, fl, RTE_IPOIB_DROP_BAD_ND, "Ethernet form, length 0");
		nl = nd_opt_msg(w + 4, true, t, 0, 8);
		w[0] = 0x86;
		w[1] = 0xdd;
		w[2] = 0;
		w[3] = 0;
		DECAP_DROP(w, 4 + nl, 0, LID_A, 0x48, RTE_IPOIB_DROP_BAD_ND, "IPoIB form, length 0");
		/* A length past the end: one unit more than there is. */
		nl = nd_opt_msg(nd, false, t, opts[i].units + 1, good);
		fl = eth_frame(f, B.mac.addr_bytes, A.mac.addr_bytes, 0x86dd, nd, nl);
		ENCAP_DROP(f, fl, RTE_IPOIB_DROP_BAD_ND, "Ethernet form, past the end");
		nl = nd_opt_msg(w + 4, true, t, opts[i].units + 1, good);
		DECAP_DROP(w, 4 + nl, 0, LID_A, 0x48, RTE_IPOIB_DROP_BAD_ND,
			   "IPoIB form, past the end");
		if (t == 1 || t == 2) {
			/* An LLA of the IPoIB length (3) from the Ethernet side, and back. */
			nl = nd_opt_msg(nd, false, t, 3, 24);
			fl = eth_frame(f, B.mac.addr_bytes, A.mac.addr_bytes, 0x86dd, nd, nl);
			ENCAP_DROP(f, fl, RTE_IPOIB_DROP_BAD_ND, "Ethernet form, LLA length 3");
			nl = nd_opt_msg(w + 4, true, t, 1, 8);
			DECAP_DROP(w, 4 + nl, 0, LID_A, 0x48, RTE_IPOIB_DROP_BAD_ND,
				   "IPoIB form, LLA length 1");
			continue;
		}
		/* Its proper length: through and back, the option untouched. */
		nl = nd_opt_msg(nd, false, t, opts[i].units, good);
		fl = eth_frame(f, B.mac.addr_bytes, A.mac.addr_bytes, 0x86dd, nd, nl);
		rc = round_trip(f, fl, &ah_to_b, NULL, 0);
		if (rc != TEST_SUCCESS) {
			printf("option type %u, length %u\n", t, opts[i].units);
			return rc;
		}
	}
	return TEST_SUCCESS;
}

static int
test_decap_learning(void)
{
	/* A stranger E with a GRH: delivered, reported as SRC_NEW. */
	struct rte_ipoib_hwaddr e;
	struct rte_ipoib_event ev;
	struct rte_ib_mbuf_addr *a;
	struct rte_ether_addr emac;
	struct rte_mbuf *m;
	uint8_t w[200], ip[200], *grh;
	size_t il = ipv4_udp(ip, ip_a, ip_b, 16);

	peer_hw(&e, 0x0002c903000000ee, 0x60);
	rte_ipoib_mac_from_hwaddr(&e, &emac);
	w[0] = 0x08;
	w[1] = w[2] = w[3] = 0;
	memcpy(w + 4, ip, il);
	m = mk(w, il + 4);
	a = rte_ib_mbuf_addr(m);
	memset(a, 0, sizeof(*a));
	a->rx.src_qpn = 0x60;
	a->rx.slid = 0x40;
	a->rx.flags = RTE_IB_MBUF_F_GRH;
	grh = rte_pktmbuf_mtod(m, uint8_t *) - 40;
	memset(grh, 0, 40);
	memcpy(grh + 8, e.gid, 16);
	memcpy(grh + 24, B.hw.gid, 16);
	while (rte_ring_dequeue_elem(B.ev, &ev, sizeof(ev)) == 0)
		;
	TEST_ASSERT_EQUAL(rte_ipoib_decap_burst(B.dp, &m, 1), 1, "delivered");
	TEST_ASSERT_BUFFERS_EQUAL(rte_pktmbuf_mtod(m, uint8_t *) + 6, emac.addr_bytes, 6,
				  "source MAC derived from the GRH's address");
	TEST_ASSERT_BUFFERS_EQUAL(rte_pktmbuf_mtod(m, uint8_t *), B.mac.addr_bytes, 6,
				  "destination: us");
	rte_pktmbuf_free(m);
	/* The GRH's QPN is the QP E sent from, maybe not its address's: not learned. */
	TEST_ASSERT(rte_ring_dequeue_elem(B.ev, &ev, sizeof(ev)) != 0,
		    "no SRC_NEW from a GRH alone");
	/* ARP names E's address (QPN 0x61) while it sends from QP 0x60. */
	{
		struct rte_ipoib_arp arp;
		struct rte_ipoib_hwaddr e_addr;
		struct rte_ib_gid egid;

		memcpy(egid.raw, e.gid, 16);
		rte_ipoib_hwaddr_set(&e_addr, 0, 0x61, &egid);
		rte_ipoib_arp_build(&arp, 1, &e_addr, RTE_BE32(0x0a000009), NULL,
				    RTE_BE32(0x0a000003));
		w[1] = 0x06;
		memcpy(w + 4, &arp, sizeof(arp));
		m = mk(w, 4 + sizeof(arp));
		a = rte_ib_mbuf_addr(m);
		memset(a, 0, sizeof(*a));
		a->rx.src_qpn = 0x60;
		a->rx.slid = 0x40;
		a->rx.flags = RTE_IB_MBUF_F_GRH;
		grh = rte_pktmbuf_mtod(m, uint8_t *) - 40;
		memset(grh, 0, 40);
		memcpy(grh + 8, e.gid, 16);
		memcpy(grh + 24, B.hw.gid, 16);
		TEST_ASSERT_EQUAL(rte_ipoib_decap_burst(B.dp, &m, 1), 1, "ARP delivered");
		rte_pktmbuf_free(m);
		TEST_ASSERT_SUCCESS(rte_ring_dequeue_elem(B.ev, &ev, sizeof(ev)), "event");
		TEST_ASSERT(ev.type == RTE_IPOIB_EV_SRC_NEW && rte_ipoib_hwaddr_equal(&ev.hw, &e_addr) &&
			    ev.slid == 0x40, "SRC_NEW with the address ARP names (QPN 0x61)");
	}
	return TEST_SUCCESS;
}

static int
test_l3_mode(void)
{
	uint8_t ip[200], key[16] = { [10] = 0xff, [11] = 0xff, 10, 0, 0, 9 };
	static const uint8_t nine[4] = { 10, 0, 0, 9 };
	struct rte_ipoib_event ev;
	struct rte_ipoib_arp arp;
	struct rte_mbuf *m;
	size_t il = ipv4_udp(ip, ip_a, ip_b, 16);

	m = mk(ip, il);
	TEST_ASSERT_EQUAL(rte_ipoib_encap_burst(A.dp, &m, 1), 1, "to the bound IP");
	TEST_ASSERT(rte_ib_mbuf_addr(m)->tx.ah == &ah_to_b, "B's handle");
	TEST_ASSERT(rte_pktmbuf_mtod(m, uint8_t *)[0] == 0x08, "header");
	wire(m, &A);
	TEST_ASSERT_EQUAL(rte_ipoib_decap_burst(B.dp, &m, 1), 1, "decap");
	TEST_ASSERT_EQUAL(m->packet_type, RTE_PTYPE_L3_IPV4, "ptype");
	TEST_ASSERT_EQUAL(rte_pktmbuf_pkt_len(m), il, "length");
	TEST_ASSERT_BUFFERS_EQUAL(rte_pktmbuf_mtod(m, uint8_t *), ip, il, "IP back");
	rte_pktmbuf_free(m);
	/* Unbound IP: dropped and reported for ARP resolution. */
	while (rte_ring_dequeue_elem(A.ev, &ev, sizeof(ev)) == 0)
		;
	il = ipv4_udp(ip, ip_a, nine, 16);
	m = mk(ip, il);
	TEST_ASSERT_EQUAL(rte_ipoib_encap_burst(A.dp, &m, 1), 0, "miss");
	TEST_ASSERT_SUCCESS(rte_ring_dequeue_elem(A.ev, &ev, sizeof(ev)), "event");
	TEST_ASSERT(ev.type == RTE_IPOIB_EV_DST_MISS && ev.is_ip &&
		    memcmp(ev.ip, key, 16) == 0, "DST_MISS 10.0.0.9");
	/*
	 * An ND message passes the L3 view as it is, so it must already be
	 * in the IPoIB form: an Ethernet-form option is dropped (found by
	 * fuzz_ipoib_encap, corpus l3_nd_ethernet_form.bin).
	 */
	{
		uint8_t nd[80];
		int before = drops(&A, RTE_IPOIB_DROP_BAD_ND);

		eth_nd(nd, 135, ip6_a, ip6_b, ip6_b, A.mac.addr_bytes);
		m = mk(nd, 72);
		TEST_ASSERT_EQUAL(rte_ipoib_encap_burst(A.dp, &m, 1), 0, "Ethernet-form ND");
		TEST_ASSERT_EQUAL(drops(&A, RTE_IPOIB_DROP_BAD_ND), before + 1, "bad_nd");
		m = rte_pktmbuf_alloc(pool);
		TEST_ASSERT_EQUAL(rte_ipoib_nd_build(rte_pktmbuf_append(m, 88), 88, 135, ip6_a,
						     ip6_b, ip6_b, &A.hw), 88, "IPoIB form");
		TEST_ASSERT_EQUAL(rte_ipoib_encap_burst(A.dp, &m, 1), 0, "no neighbour for fe80::3");
		TEST_ASSERT_EQUAL(drops(&A, RTE_IPOIB_DROP_BAD_ND), before + 1, "not bad_nd");
	}
	/* ARP from the control side, broadcast. */
	rte_ipoib_arp_build(&arp, 1, &A.hw, RTE_BE32(0x0a000002), NULL, RTE_BE32(0x0a000009));
	m = mk(&arp, sizeof(arp));
	m->packet_type = RTE_PTYPE_L2_ETHER_ARP;
	TEST_ASSERT_EQUAL(rte_ipoib_encap_burst(A.dp, &m, 1), 1, "ARP");
	TEST_ASSERT(rte_ib_mbuf_addr(m)->tx.ah == &ah_bcast, "broadcast");
	wire(m, &A);
	TEST_ASSERT_EQUAL(rte_ipoib_decap_burst(B.dp, &m, 1), 1, "ARP in");
	TEST_ASSERT_EQUAL(m->packet_type, RTE_PTYPE_L2_ETHER_ARP, "ARP ptype");
	TEST_ASSERT_BUFFERS_EQUAL(rte_pktmbuf_mtod(m, uint8_t *), &arp, 56, "ARP untouched");
	rte_pktmbuf_free(m);
	return TEST_SUCCESS;
}

/*
 * The L3 view's transmit burst (ipoib_tx.c encap_burst_l3()): unicast IP
 * to a neighbour with a handle is sent by the fast path, the neighbour
 * found for one packet serving the next ones to the same address; every
 * other packet of the same burst takes the general path and comes out as
 * it would alone: sent, queued or dropped with its reason, the sent ones
 * in order.
 */
static struct rte_ib_ah ah_to_c;

static int
test_l3_fast_path(void)
{
	static const uint8_t ip_c[4] = { 10, 0, 0, 4 }, nine[4] = { 10, 0, 0, 9 };
	static const uint8_t ip6_c[16] = { 0xfd, 0x00, [15] = 4 };
	uint8_t key[16] = { [10] = 0xff, [11] = 0xff }, ip[2100], ip6[100];
	struct rte_ipoib_hwaddr c_hw;
	struct rte_ipoib_neigh *nb, *nc;
	struct rte_ipoib_path *pb;
	struct rte_ib_mbuf_addr *a;
	struct rte_mbuf *m[12], *sent[12];
	struct rte_ib_gid g;
	uint64_t t0;
	size_t il4, il6;
	int before[RTE_IPOIB_DROP_MAX];
	unsigned int i, n;

	/* C: 10.0.0.4 here; a second neighbour whose IPv6 address is bound. */
	peer_hw(&c_hw, 0x0002c90300000004, 0x4a);
	memset(&ah_to_c, 0, sizeof(ah_to_c));
	ah_to_c.attr.dlid = 4;
	nc = add_neigh(&A, &c_hw, &ah_to_c, true);
	TEST_ASSERT(nc != NULL, "C added");
	memcpy(key + 12, ip_c, 4);
	TEST_ASSERT_SUCCESS(rte_ipoib_neigh_bind_ip(A.tbl, nc, key), "10.0.0.4 bound");
	nb = rte_ipoib_neigh_lookup(A.tbl, &B.hw);
	TEST_ASSERT(nb != NULL, "B known");
	for (i = 0; i < RTE_IPOIB_DROP_MAX; i++)
		before[i] = drops(&A, i);

	il4 = ipv4_udp(ip, ip_a, ip_b, 32);
	il6 = 40 + 8 + 16;
	ip6_hdr(ip6, ip6_a, ip6_c, 24, 17, 64);
	udp_dgram(ip6 + 40, 16);
	n = 0;
	m[n++] = mk(ip, il4);                           /* 0: B, fast */
	m[n++] = mk(ip, il4);                           /* 1: B again */
	ipv4_udp(ip, ip_a, ip_c, 32);
	m[n++] = mk(ip, il4);                           /* 2: C */
	ipv4_udp(ip, ip_a, ip_b, 32);
	m[n++] = mk(ip, il4);                           /* 3: B after C */
	ipv4_udp(ip, ip_a, nine, 32);
	m[n++] = mk(ip, il4);                           /* 4: unbound: no_neigh */
	ipv4_udp(ip, ip_a, group4, 32);
	m[n++] = mk(ip, il4);                           /* 5: group: general, sent */
	ipv4_udp(ip, ip_a, ip_b, 32);
	ip[3] += 1;
	m[n++] = mk(ip, il4);                           /* 6: total length past the end */
	ip[3] -= 1;
	m[n] = rte_pktmbuf_alloc(pool);                 /* 7: 2 bytes of headroom */
	if (m[n] != NULL) {
		m[n]->data_off = 2;
		memcpy(rte_pktmbuf_append(m[n], il4), ip, il4);
	}
	n++;
	ipv4_udp(ip, ip_a, ip_b, 2100 - 28);
	m[n++] = mk(ip, 2100);                          /* 8: over the MTU */
	ipv4_udp(ip, ip_a, ip_b, 32);
	m[n++] = mk(ip, il4);                           /* 9: ARP by ptype: general */
	m[n++] = mk(ip6, il6);                          /* 10: IPv6 to C: no binding */
	m[n++] = mk(ip, il4);                           /* 11: B, fast */
	for (i = 0; i < n; i++)
		TEST_ASSERT(m[i] != NULL, "alloc %u", i);
	m[9]->packet_type = RTE_PTYPE_L2_ETHER_ARP;
	memcpy(sent, m, sizeof(m));
	/* B and C older than an age tick, so that the burst stamps them. */
	rte_delay_us_block(US_PER_S / RTE_IPOIB_NEIGH_STAMP_HZ + 2000);
	t0 = rte_rdtsc();
	TEST_ASSERT_EQUAL(rte_ipoib_encap_burst(A.dp, m, n), 6, "six of twelve sent");
	/* Sent, in order: 0, 1, 2, 3, 5, 11. */
	TEST_ASSERT(m[0] == sent[0] && m[1] == sent[1] && m[2] == sent[2] && m[3] == sent[3] &&
		    m[4] == sent[5] && m[5] == sent[11], "the sent ones in order");
	for (i = 0; i < 6; i++) {
		const uint8_t *w = rte_pktmbuf_mtod(m[i], const uint8_t *);
		const struct rte_ib_ah *want = i == 2 ? &ah_to_c : i == 4 ? &ah_mc4 : &ah_to_b;

		a = rte_ib_mbuf_addr(m[i]);
		TEST_ASSERT(a->tx.ah == want, "packet %u: its handle", i);
		TEST_ASSERT_EQUAL(a->tx.dest_qpn, i == 2 ? 0x4a : i == 4 ? 0xffffff : 0x49,
				  "packet %u: QPN", i);
		TEST_ASSERT_EQUAL(a->tx.qkey, QKEY, "packet %u: Q_Key", i);
		TEST_ASSERT_EQUAL(rte_pktmbuf_pkt_len(m[i]), il4 + 4, "packet %u: length", i);
		TEST_ASSERT_EQUAL(m[i]->data_len, il4 + 4, "packet %u: data_len", i);
		TEST_ASSERT(w[0] == 0x08 && w[1] == 0 && w[2] == 0 && w[3] == 0 && w[4] == 0x45,
			    "packet %u: RFC 4391 header before the IP one", i);
	}
	rte_pktmbuf_free_bulk(m, 6);
	TEST_ASSERT_EQUAL(drops(&A, RTE_IPOIB_DROP_NO_NEIGH), before[RTE_IPOIB_DROP_NO_NEIGH] + 2,
			  "10.0.0.9 and the IPv6 packet: no_neigh");
	TEST_ASSERT_EQUAL(drops(&A, RTE_IPOIB_DROP_BAD_LENGTH),
			  before[RTE_IPOIB_DROP_BAD_LENGTH] + 1, "bad_length");
	TEST_ASSERT_EQUAL(drops(&A, RTE_IPOIB_DROP_NO_ROOM), before[RTE_IPOIB_DROP_NO_ROOM] + 1,
			  "no_room");
	TEST_ASSERT_EQUAL(drops(&A, RTE_IPOIB_DROP_OVERSIZE), before[RTE_IPOIB_DROP_OVERSIZE] + 1,
			  "oversize");
	TEST_ASSERT(drops(&A, RTE_IPOIB_DROP_BAD_ARP) == before[RTE_IPOIB_DROP_BAD_ARP] + 1,
		    "an IPv4 packet flagged ARP: bad_arp, as the general path has it");
	TEST_ASSERT(rte_ipoib_neigh_last_used(nb) >= t0 && rte_ipoib_neigh_last_used(nc) >= t0,
		    "B and C stamped as used");

	/* IPv6 to C once C's IPv6 address is bound: the fast path, C's handle. */
	memcpy(key, ip6_c, 16);
	TEST_ASSERT_SUCCESS(rte_ipoib_neigh_bind_ip(A.tbl, nc, key), "fd00::4 bound");
	m[0] = mk(ip6, il6);
	/* then fe80::4, bound to nobody: the same low 8 bytes, another address */
	ip6[24] = 0xfe;
	ip6[25] = 0x80;
	m[1] = mk(ip6, il6);
	TEST_ASSERT(m[0] != NULL && m[1] != NULL, "alloc");
	before[RTE_IPOIB_DROP_NO_NEIGH] = drops(&A, RTE_IPOIB_DROP_NO_NEIGH);
	TEST_ASSERT_EQUAL(rte_ipoib_encap_burst(A.dp, m, 2), 1, "IPv6 to fd00::4 sent");
	TEST_ASSERT(rte_ib_mbuf_addr(m[0])->tx.ah == &ah_to_c, "C's handle");
	TEST_ASSERT_BUFFERS_EQUAL(rte_pktmbuf_mtod(m[0], uint8_t *), "\x86\xdd\x00\x00", 4,
				  "IPv6 header type");
	TEST_ASSERT_EQUAL(drops(&A, RTE_IPOIB_DROP_NO_NEIGH), before[RTE_IPOIB_DROP_NO_NEIGH] + 1,
			  "fe80::4: no_neigh, not C");
	rte_pktmbuf_free(m[0]);
	ip6[24] = 0xfd;
	ip6[25] = 0x00;

	/* B's handle withdrawn: B's packets are queued on its path, C's still sent. */
	rte_ipoib_hwaddr_gid(&B.hw, &g);
	pb = rte_ipoib_path_lookup(A.tbl, &g, 0xffff);
	TEST_ASSERT(pb != NULL, "B's path");
	TEST_ASSERT_SUCCESS(rte_ipoib_path_set_ah(A.tbl, pb, NULL, 0), "withdraw");
	ipv4_udp(ip, ip_a, ip_b, 32);
	m[0] = mk(ip, il4);
	m[1] = mk(ip6, il6);
	m[2] = mk(ip, il4);
	TEST_ASSERT(m[0] != NULL && m[1] != NULL && m[2] != NULL, "alloc");
	sent[1] = m[1];
	TEST_ASSERT_EQUAL(rte_ipoib_encap_burst(A.dp, m, 3), 1, "only C's sent");
	TEST_ASSERT(m[0] == sent[1], "C's packet");
	rte_pktmbuf_free(m[0]);
	TEST_ASSERT_SUCCESS(rte_ipoib_path_set_ah(A.tbl, pb, &ah_to_b, LID_B), "back");
	TEST_ASSERT_EQUAL(rte_ipoib_path_drain(A.tbl, pb, m, 4), 2, "B's two queued");
	TEST_ASSERT(rte_ib_mbuf_addr(m[0])->tx.ah == &ah_to_b &&
		    rte_ib_mbuf_addr(m[1])->tx.ah == &ah_to_b, "sent with the new handle");
	rte_pktmbuf_free_bulk(m, 2);
	return TEST_SUCCESS;
}

static int
test_dp_conf_errors(void)
{
	struct rte_ipoib_dp_conf c = {
		.mode = RTE_IPOIB_MODE_ETH, .tbl = A.tbl, .pkey = 0xffff, .scope = 2,
		.mtu = 2044, .local = A.hw,
	};
	struct rte_ipoib_dp *dp;

	c.mtu = 4093;
	TEST_ASSERT(rte_ipoib_dp_create(&c) == NULL && rte_errno == EINVAL, "mtu 4093");
	c.mtu = 2044;
	c.scope = 0;
	TEST_ASSERT(rte_ipoib_dp_create(&c) == NULL, "scope 0");
	c.scope = 2;
	c.tbl = NULL;
	TEST_ASSERT(rte_ipoib_dp_create(&c) == NULL, "no table");
	c.tbl = A.tbl;
	c.mode = 7;
	TEST_ASSERT(rte_ipoib_dp_create(&c) == NULL, "mode 7");
	c.mode = RTE_IPOIB_MODE_ETH;
	dp = rte_ipoib_dp_create(&c);
	TEST_ASSERT(dp != NULL, "valid");
	rte_ipoib_dp_free(dp);
	TEST_ASSERT(strcmp(rte_ipoib_drop_reason_name(RTE_IPOIB_DROP_QUEUE_FULL),
			   "queue_full") == 0, "name");
	TEST_ASSERT(strcmp(rte_ipoib_drop_reason_name(RTE_IPOIB_DROP_MAX), "unknown") == 0,
		    "out of range");
	return TEST_SUCCESS;
}

static int
suite_setup(void)
{
	char *argv[] = {
		(char *)"test_ipoib_dp", (char *)"--no-huge", (char *)"-m", (char *)"64",
		(char *)"--no-pci", (char *)"--no-shconf", (char *)"--file-prefix=test_ipoib_dp",
		(char *)"--log-level=lib.eal:error", NULL,
	};

	if (rte_eal_init(RTE_DIM(argv) - 1, argv) < 0)
		return -1;
	pool = rte_pktmbuf_pool_create("ipoib_dp", 256, 0, 0, 4096 + RTE_PKTMBUF_HEADROOM,
				       SOCKET_ID_ANY);
	return pool == NULL ? -1 : 0;
}

static void
suite_teardown(void)
{
	rte_mempool_free(pool);
	rte_eal_cleanup();
}

static struct unit_test_suite ipoib_dp_suite = {
	.suite_name = "lib/ipoib bursts",
	.setup = suite_setup,
	.teardown = suite_teardown,
	.unit_test_cases = {
		TEST_CASE_ST(hosts_setup_eth, hosts_teardown, test_ipv4_unicast),
		TEST_CASE_ST(hosts_setup_eth, hosts_teardown, test_ipv4_mcast),
		TEST_CASE_ST(hosts_setup_eth, hosts_teardown, test_arp_request_reply),
		TEST_CASE_ST(hosts_setup_eth, hosts_teardown, test_nd_round_trip),
		TEST_CASE_ST(hosts_setup_eth, hosts_teardown, test_na_unicast),
		TEST_CASE_ST(hosts_setup_eth, hosts_teardown, test_encap_drops),
		TEST_CASE_ST(hosts_setup_eth, hosts_teardown, test_encap_held),
		TEST_CASE_ST(hosts_setup_eth, hosts_teardown, test_paths_and_queue),
		TEST_CASE_ST(hosts_setup_eth, hosts_teardown, test_decap_drops),
		TEST_CASE_ST(hosts_setup_eth, hosts_teardown, test_decap_learning),
		TEST_CASE_ST(hosts_setup_eth, hosts_teardown, test_fast_path_edges),
		TEST_CASE_ST(hosts_setup_eth, hosts_teardown, test_mcast_high_bits),
		TEST_CASE_ST(hosts_setup_eth, hosts_teardown, test_nd_option_lengths),
		TEST_CASE_ST(hosts_setup_l3, hosts_teardown, test_l3_mode),
		TEST_CASE_ST(hosts_setup_l3, hosts_teardown, test_l3_fast_path),
		TEST_CASE_ST(hosts_setup_eth, hosts_teardown, test_dp_conf_errors),
		TEST_CASE_ST(hosts_setup_eth_big, hosts_teardown, test_ipv4_unicast),
		TEST_CASE_ST(hosts_setup_eth_big, hosts_teardown, test_ipv4_mcast),
		TEST_CASE_ST(hosts_setup_eth_big, hosts_teardown, test_arp_request_reply),
		TEST_CASE_ST(hosts_setup_eth_big, hosts_teardown, test_nd_round_trip),
		TEST_CASE_ST(hosts_setup_eth_big, hosts_teardown, test_encap_drops),
		TEST_CASE_ST(hosts_setup_eth_big, hosts_teardown, test_paths_and_queue),
		TEST_CASE_ST(hosts_setup_eth_big, hosts_teardown, test_decap_drops),
		TEST_CASE_ST(hosts_setup_eth_big, hosts_teardown, test_decap_learning),
		TEST_CASE_ST(hosts_setup_eth_big, hosts_teardown, test_fast_path_edges),
		TEST_CASE_ST(hosts_setup_eth_big, hosts_teardown, test_mcast_high_bits),
		TEST_CASE_ST(hosts_setup_eth_big, hosts_teardown, test_nd_option_lengths),
		TEST_CASE_ST(hosts_setup_l3_big, hosts_teardown, test_l3_mode),
		TEST_CASE_ST(hosts_setup_l3_big, hosts_teardown, test_l3_fast_path),
		TEST_CASES_END()
	}
};

int
main(void)
{
	return unit_test_suite_runner(&ipoib_dp_suite);
}
