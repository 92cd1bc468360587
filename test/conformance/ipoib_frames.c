/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Packets built by lib/ipoib, for test_ipoib_tshark.py to wrap in IB
 * headers and have tshark decode: a host (GUID 0x0002c90300000002, QPN
 * 0x48) in the Ethernet view sends ARP (request and reply), IPv4
 * unicast and multicast, an IPv6 neighbour solicitation to a
 * solicited-node group and an advertisement, through
 * rte_ipoib_encap_burst(); plus the ARP and NS the control side builds
 * with rte_ipoib_arp_build() and rte_ipoib_nd_build().
 *
 * Output, one line per packet:
 *   <name> <dlid> <dest qpn> <q_key> <dgid hex or -> <payload hex>
 * where the payload starts at the IPoIB header (what follows the DETH).
 */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_ib_dev.h>
#include <rte_ib_mbuf.h>
#include <rte_mbuf.h>

#include <rte_ipoib_encap.h>

#define QKEY 0x0b1b

static struct rte_mempool *pool;
static struct rte_ipoib_tbl *tbl;
static struct rte_ipoib_dp *dp;
static struct rte_ib_ah ah_peer, ah_bcast, ah_mc4, ah_snm;
static struct rte_ipoib_hwaddr local, peer;
static struct rte_ether_addr local_mac, peer_mac;

static const uint8_t ip_l[4] = { 10, 0, 0, 2 }, ip_p[4] = { 10, 0, 0, 3 };
static const uint8_t ip6_l[16] = { 0xfe, 0x80, [8] = 0x02, 0x02, 0xc9, 0x03, 0, 0, 0, 0x02 };
static const uint8_t ip6_p[16] = { 0xfe, 0x80, [8] = 0x02, 0x02, 0xc9, 0x03, 0, 0, 0, 0x03 };
static const uint8_t snm_p[16] = { 0xff, 0x02, [11] = 1, [12] = 0xff, 0, 0, 0x03 };

static void
hex(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		printf("%02x", p[i]);
}

static void
emit(const char *name, const struct rte_ib_ah *ah, uint32_t qpn, const uint8_t *p, size_t n)
{
	printf("%s %u %u %u ", name, ah->attr.dlid, qpn, QKEY);
	if (ah->attr.ah_flags & RTE_IB_AH_GRH)
		hex(ah->attr.grh.dgid.raw, 16);
	else
		printf("-");
	printf(" ");
	hex(p, n);
	printf("\n");
}

static int
send_frame(const char *name, const uint8_t *f, size_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	struct rte_ib_mbuf_addr *a;

	if (m == NULL)
		return -1;
	memcpy(rte_pktmbuf_append(m, len), f, len);
	if (rte_ipoib_encap_burst(dp, &m, 1) != 1) {
		fprintf(stderr, "%s: not encapsulated\n", name);
		return -1;
	}
	a = rte_ib_mbuf_addr(m);
	emit(name, a->tx.ah, a->tx.dest_qpn, rte_pktmbuf_mtod(m, uint8_t *), m->pkt_len);
	rte_pktmbuf_free(m);
	return 0;
}

static int
add(const struct rte_ipoib_hwaddr *hw, struct rte_ib_ah *ah, uint16_t dlid)
{
	struct rte_ipoib_path *p;
	struct rte_ib_gid g;

	rte_ipoib_hwaddr_gid(hw, &g);
	p = rte_ipoib_path_add(tbl, &g, 0xffff);
	ah->attr.dlid = dlid;
	if (p == NULL || rte_ipoib_path_set_ah(tbl, p, ah, dlid) != 0)
		return -1;
	return rte_ipoib_neigh_add(tbl, hw, p) == NULL ? -1 : 0;
}

static int
add_group(const struct rte_ib_gid *mgid, struct rte_ib_ah *ah, uint16_t mlid)
{
	struct rte_ipoib_hwaddr hw;

	ah->attr.ah_flags = RTE_IB_AH_GRH;
	ah->attr.grh.dgid = *mgid;
	rte_ipoib_mcast_hwaddr(mgid, &hw);
	return add(&hw, ah, mlid);
}

static size_t
frame(uint8_t *f, const uint8_t *dst, uint16_t type, const uint8_t *l3, size_t n)
{
	memcpy(f, dst, 6);
	memcpy(f + 6, local_mac.addr_bytes, 6);
	f[12] = type >> 8;
	f[13] = type & 0xff;
	memcpy(f + 14, l3, n);
	return 14 + n;
}

static size_t
udp4(uint8_t *p, const uint8_t *dst, size_t n)
{
	uint32_t sum = 0;
	size_t i;

	memset(p, 0, 28);
	p[0] = 0x45;
	p[2] = (28 + n) >> 8;
	p[3] = (28 + n) & 0xff;
	p[8] = 1;
	p[9] = 17;
	memcpy(p + 12, ip_l, 4);
	memcpy(p + 16, dst, 4);
	for (i = 0; i < 20; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	p[10] = (uint8_t)(~sum >> 8);
	p[11] = (uint8_t)~sum;
	p[20] = 0x30;
	p[21] = 0x39;
	p[22] = 0x30;
	p[23] = 0x39;
	p[24] = (8 + n) >> 8;
	p[25] = (8 + n) & 0xff;
	for (i = 0; i < n; i++)
		p[28 + i] = 'a' + i % 26;
	return 28 + n;
}

/* An ND message in the Ethernet form (RFC 2464 6 option), checksummed. */
static size_t
nd_eth(uint8_t *p, uint8_t type, const uint8_t *dst, const uint8_t *target)
{
	uint32_t sum = 32 + 58, i;

	memset(p, 0, 72);
	p[0] = 0x60;
	p[5] = 32;
	p[6] = 58;
	p[7] = 255;
	memcpy(p + 8, ip6_l, 16);
	memcpy(p + 24, dst, 16);
	p[40] = type;
	if (type == 136)
		p[44] = 0x60;
	memcpy(p + 48, target, 16);
	p[64] = type == 135 ? 1 : 2;
	p[65] = 1;
	memcpy(p + 66, local_mac.addr_bytes, 6);
	for (i = 8; i < 72; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	p[42] = (uint8_t)(~sum >> 8);
	p[43] = (uint8_t)~sum;
	return 72;
}

int
main(int argc, char **argv)
{
	static const uint8_t bc[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t mc4_mac[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0xfb };
	static const uint8_t snm_mac[6] = { 0x33, 0x33, 0xff, 0x00, 0x00, 0x03 };
	static const uint8_t g4[4] = { 224, 0, 0, 251 };
	char *eal[] = {
		argv[0], (char *)"--no-huge", (char *)"-m", (char *)"64", (char *)"--no-pci",
		(char *)"--no-shconf", (char *)"--file-prefix=ipoib_frames",
		(char *)"--log-level=lib.eal:error", NULL,
	};
	struct rte_ipoib_tbl_conf tc = { .max_neigh = 16, .max_path = 16 };
	struct rte_ipoib_dp_conf dc = {
		.mode = RTE_IPOIB_MODE_ETH, .local_lid = 2, .pkey = 0xffff, .scope = 2,
		.qkey = QKEY, .mtu = 2044,
	};
	uint8_t f[256], l3[128], pkt[128];
	struct rte_ipoib_arp arp;
	struct rte_ib_gid g;
	int n;

	RTE_SET_USED(argc);
	if (rte_eal_init(RTE_DIM(eal) - 1, eal) < 0)
		return 1;
	pool = rte_pktmbuf_pool_create("frames", 64, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				       SOCKET_ID_ANY);
	tbl = rte_ipoib_tbl_create(&tc);
	if (pool == NULL || tbl == NULL)
		return 1;
	rte_ib_gid_set(&g, RTE_IB_GID_DEFAULT_PREFIX, 0x0002c90300000002ull);
	rte_ipoib_hwaddr_set(&local, 0, 0x48, &g);
	rte_ib_gid_set(&g, RTE_IB_GID_DEFAULT_PREFIX, 0x0002c90300000003ull);
	rte_ipoib_hwaddr_set(&peer, 0, 0x49, &g);
	rte_ipoib_mac_from_hwaddr(&local, &local_mac);
	rte_ipoib_mac_from_hwaddr(&peer, &peer_mac);
	if (add(&peer, &ah_peer, 3) != 0)
		return 1;
	rte_ipoib_bcast_mgid(0xffff, 2, &g);
	if (add_group(&g, &ah_bcast, 0xc000) != 0)
		return 1;
	rte_ipoib_ipv4_mc_mgid(RTE_BE32(0xe00000fb), 0xffff, 2, &g);
	if (add_group(&g, &ah_mc4, 0xc001) != 0)
		return 1;
	rte_ipoib_ipv6_mc_mgid(snm_p, 0xffff, 2, &g);
	if (add_group(&g, &ah_snm, 0xc002) != 0)
		return 1;
	dc.tbl = tbl;
	dc.local = local;
	dp = rte_ipoib_dp_create(&dc);
	if (dp == NULL)
		return 1;

	/* ARP request and reply (RFC 826, Ethernet form, from the app). */
	memcpy(l3, "\x00\x01\x08\x00\x06\x04\x00\x01", 8);
	memcpy(l3 + 8, local_mac.addr_bytes, 6);
	memcpy(l3 + 14, ip_l, 4);
	memset(l3 + 18, 0, 6);
	memcpy(l3 + 24, ip_p, 4);
	if (send_frame("arp_request", f, frame(f, bc, 0x0806, l3, 28)) != 0)
		return 1;
	l3[7] = 2;
	memcpy(l3 + 18, peer_mac.addr_bytes, 6);
	if (send_frame("arp_reply", f, frame(f, peer_mac.addr_bytes, 0x0806, l3, 28)) != 0)
		return 1;
	if (send_frame("ipv4_unicast", f, frame(f, peer_mac.addr_bytes, 0x0800, l3,
						udp4(l3, ip_p, 32))) != 0)
		return 1;
	if (send_frame("ipv4_mcast", f, frame(f, mc4_mac, 0x0800, l3, udp4(l3, g4, 16))) != 0)
		return 1;
	if (send_frame("nd_ns", f, frame(f, snm_mac, 0x86dd, l3,
					 nd_eth(l3, 135, snm_p, ip6_p))) != 0)
		return 1;
	if (send_frame("nd_na", f, frame(f, peer_mac.addr_bytes, 0x86dd, l3,
					 nd_eth(l3, 136, ip6_p, ip6_l))) != 0)
		return 1;
	/* What the control side builds itself. */
	pkt[0] = 0x08;
	pkt[1] = 0x06;
	pkt[2] = pkt[3] = 0;
	rte_ipoib_arp_build(&arp, 1, &local, RTE_BE32(0x0a000002), NULL, RTE_BE32(0x0a000009));
	memcpy(pkt + 4, &arp, sizeof(arp));
	emit("ctl_arp", &ah_bcast, 0xffffff, pkt, 4 + sizeof(arp));
	pkt[0] = 0x86;
	pkt[1] = 0xdd;
	n = rte_ipoib_nd_build(pkt + 4, sizeof(pkt) - 4, 135, ip6_l, snm_p, ip6_p, &local);
	if (n < 0)
		return 1;
	emit("ctl_ns", &ah_snm, 0xffffff, pkt, 4 + (size_t)n);
	rte_ipoib_dp_free(dp);
	rte_ipoib_tbl_free(tbl);
	rte_mempool_free(pool);
	rte_eal_cleanup();
	return 0;
}
