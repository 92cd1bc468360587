/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The Ethernet view's ARP and ND rewrites: RFC 826 ARP with 6-byte
 * addresses to and from the IPoIB form (RFC 4391 9.1.1, 20-byte
 * addresses), and ND link-layer address options of the Ethernet form
 * (RFC 2464 6, 8 bytes) to and from the IPoIB form (RFC 4391 9.1.2,
 * 24 bytes), in place in the mbuf.
 */

#include <string.h>

#include <rte_arp.h>

#include "ipoib_dp.h"

#define ETH_LLA_LEN 8
#define LLA_GROWTH (RTE_IPOIB_ND_OPT_LLA_LEN - ETH_LLA_LEN)

/* Move a one-segment packet's start by @p delta bytes and set its length. */
static inline int
mbuf_reshape(struct rte_mbuf *m, int delta, uint32_t len)
{
	int off = (int)m->data_off + delta;

	if (m->nb_segs != 1 || off < 0 || (uint32_t)off + len > m->buf_len)
		return -1;
	m->data_off = (uint16_t)off;
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	return 0;
}

/* A 6-byte address of the Ethernet view to the 20-byte one. */
static inline const struct rte_ipoib_hwaddr *
mac_to_hw(struct rte_ipoib_dp *dp, const uint8_t *mac)
{
	struct rte_ipoib_neigh *n;

	if (memcmp(mac, dp->local_mac.addr_bytes, RTE_ETHER_ADDR_LEN) == 0)
		return &dp->conf.local;
	n = ipoib_neigh_by_mac(dp->conf.tbl, mac);
	return n != NULL ? &n->hw : NULL;
}

static inline bool
is_zero(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != 0)
			return false;
	return true;
}

/*
 * An ND message of the L3 view passes as it is: it must already be right
 * for IPoIB, checksum and link-layer options in the form of RFC 4391
 * 9.1.2.
 */
enum rte_ipoib_drop_reason
ipoib_nd_check_ipoib_form(const uint8_t *ip6, size_t len)
{
	struct ipoib_nd_msg msg;
	enum rte_ipoib_drop_reason r;
	unsigned int i;

	r = ipoib_nd_check(ip6, len, true, &msg);
	if (r != RTE_IPOIB_DROP_NONE)
		return r;
	for (i = 0; i < msg.nb_lla; i++)
		if (ip6[IPOIB_IP6_HDR_LEN + msg.lla_off[i] + 1] != RTE_IPOIB_ND_OPT_LLA_LEN / 8)
			return RTE_IPOIB_DROP_BAD_ND;
	return RTE_IPOIB_DROP_NONE;
}

/* A rewritten ND message: its new ICMPv6 length, then its checksum. */
static void
nd_set_len_cksum(uint8_t *ip6, size_t icmp_len)
{
	uint8_t *icmp = ip6 + IPOIB_IP6_HDR_LEN;
	uint16_t ck;

	ip6[4] = icmp_len >> 8;
	ip6[5] = icmp_len & 0xff;
	icmp[2] = 0;
	icmp[3] = 0;
	ck = ipoib_icmp6_cksum(ip6, icmp, icmp_len);
	memcpy(icmp + 2, &ck, 2);
}

/* An Ethernet ARP (RFC 826, 6-byte addresses) to the IPoIB form. */
enum rte_ipoib_drop_reason
ipoib_arp_eth_to_ib(struct rte_ipoib_dp *dp, struct rte_mbuf *m)
{
	const uint8_t *a = rte_pktmbuf_mtod_offset(m, const uint8_t *, RTE_ETHER_HDR_LEN);
	const struct rte_ipoib_hwaddr *sha, *tha = NULL;
	struct rte_ipoib_arp out;
	uint8_t *p;
	uint16_t op;
	rte_be32_t spa, tpa;

	if (m->nb_segs != 1)
		return RTE_IPOIB_DROP_NO_ROOM;
	if (m->data_len < RTE_ETHER_HDR_LEN + IPOIB_ETH_ARP_LEN)
		return RTE_IPOIB_DROP_BAD_LENGTH;
	op = (uint16_t)(a[6] << 8 | a[7]);
	if (a[0] != 0 || a[1] != RTE_ARP_HRD_ETHER || a[2] != 0x08 || a[3] != 0x00 ||
	    a[4] != RTE_ETHER_ADDR_LEN || a[5] != 4 ||
	    (op != RTE_ARP_OP_REQUEST && op != RTE_ARP_OP_REPLY))
		return RTE_IPOIB_DROP_BAD_ARP;
	sha = mac_to_hw(dp, a + 8);
	if (sha == NULL)
		return RTE_IPOIB_DROP_NO_NEIGH;
	if (!is_zero(a + 18, 6) && !rte_is_broadcast_ether_addr((const void *)(a + 18))) {
		tha = mac_to_hw(dp, a + 18);
		/* A request's target hardware address is ignored (RFC 826). */
		if (tha == NULL && op == RTE_ARP_OP_REPLY)
			return RTE_IPOIB_DROP_NO_NEIGH;
	}
	memcpy(&spa, a + 14, 4);
	memcpy(&tpa, a + 24, 4);
	rte_ipoib_arp_build(&out, op, sha, spa, tha, tpa);
	if (mbuf_reshape(m, RTE_ETHER_HDR_LEN - RTE_IPOIB_ENCAP_LEN,
			 RTE_IPOIB_ENCAP_LEN + sizeof(out)) != 0)
		return RTE_IPOIB_DROP_NO_ROOM;
	p = rte_pktmbuf_mtod(m, uint8_t *);
	ipoib_hdr_write(p, RTE_ETHER_TYPE_ARP);
	memcpy(p + RTE_IPOIB_ENCAP_LEN, &out, sizeof(out));
	dp->st.arp_rewritten++;
	return RTE_IPOIB_DROP_NONE;
}

/* ND options of the Ethernet form (RFC 2464 6) to the IPoIB form, in place. */
enum rte_ipoib_drop_reason
ipoib_nd_eth_to_ib(struct rte_ipoib_dp *dp, struct rte_mbuf *m)
{
	const struct rte_ipoib_hwaddr *hw[IPOIB_ND_MAX_LLA];
	uint8_t *ip6, *icmp;
	struct ipoib_nd_msg msg;
	enum rte_ipoib_drop_reason r;
	size_t grow, new_len, end;
	unsigned int i;

	if (m->nb_segs != 1)
		return RTE_IPOIB_DROP_NO_ROOM;
	ip6 = rte_pktmbuf_mtod_offset(m, uint8_t *, RTE_ETHER_HDR_LEN);
	icmp = ip6 + IPOIB_IP6_HDR_LEN;
	r = ipoib_nd_check(ip6, m->data_len - RTE_ETHER_HDR_LEN, true, &msg);
	if (r != RTE_IPOIB_DROP_NONE)
		return r;
	for (i = 0; i < msg.nb_lla; i++) {
		const uint8_t *o = icmp + msg.lla_off[i];

		if (o[1] != ETH_LLA_LEN / 8)
			return RTE_IPOIB_DROP_BAD_ND;
		hw[i] = mac_to_hw(dp, o + 2);
		if (hw[i] == NULL)
			return RTE_IPOIB_DROP_NO_NEIGH;
	}
	grow = (size_t)LLA_GROWTH * msg.nb_lla;
	new_len = msg.icmp_len + grow;
	if (new_len > dp->conf.mtu - IPOIB_IP6_HDR_LEN)
		return RTE_IPOIB_DROP_OVERSIZE;
	if (m->data_off + RTE_ETHER_HDR_LEN + IPOIB_IP6_HDR_LEN + new_len > m->buf_len)
		return RTE_IPOIB_DROP_NO_ROOM;
	/* Back to front, so that every move is towards higher addresses. */
	end = msg.icmp_len;
	for (i = msg.nb_lla; i-- > 0; ) {
		size_t o = msg.lla_off[i], shift = (size_t)LLA_GROWTH * (i + 1);
		struct rte_ipoib_nd_opt_lla opt;

		memmove(icmp + o + ETH_LLA_LEN + shift, icmp + o + ETH_LLA_LEN,
			end - o - ETH_LLA_LEN);
		rte_ipoib_nd_opt_lla_build(&opt, icmp[o], hw[i]);
		memcpy(icmp + o + shift - LLA_GROWTH, &opt, sizeof(opt));
		end = o;
	}
	nd_set_len_cksum(ip6, new_len);
	if (mbuf_reshape(m, RTE_ETHER_HDR_LEN - RTE_IPOIB_ENCAP_LEN,
			 RTE_IPOIB_ENCAP_LEN + IPOIB_IP6_HDR_LEN + new_len) != 0)
		return RTE_IPOIB_DROP_NO_ROOM;
	ipoib_hdr_write(rte_pktmbuf_mtod(m, uint8_t *), RTE_ETHER_TYPE_IPV6);
	dp->st.nd_rewritten++;
	return RTE_IPOIB_DROP_NONE;
}

enum rte_ipoib_drop_reason
ipoib_arp_ib_to_eth(struct rte_ipoib_dp *dp, struct rte_mbuf *m, const uint8_t *dst_mac,
	      const struct rte_ipoib_arp *a)
{
	uint8_t *p;

	if (mbuf_reshape(m, RTE_IPOIB_ENCAP_LEN - RTE_ETHER_HDR_LEN,
			 RTE_ETHER_HDR_LEN + IPOIB_ETH_ARP_LEN) != 0)
		return RTE_IPOIB_DROP_NO_ROOM;
	p = rte_pktmbuf_mtod(m, uint8_t *);
	memcpy(p, dst_mac, RTE_ETHER_ADDR_LEN);
	ipoib_hw_to_mac(dp, &a->sha, p + 6);
	p[12] = RTE_ETHER_TYPE_ARP >> 8;
	p[13] = RTE_ETHER_TYPE_ARP & 0xff;
	p += RTE_ETHER_HDR_LEN;
	p[0] = 0;
	p[1] = RTE_ARP_HRD_ETHER;
	p[2] = 0x08;
	p[3] = 0x00;
	p[4] = RTE_ETHER_ADDR_LEN;
	p[5] = 4;
	memcpy(p + 6, &a->oper, 2);
	ipoib_hw_to_mac(dp, &a->sha, p + 8);
	memcpy(p + 14, &a->spa, 4);
	if (is_zero((const uint8_t *)&a->tha, RTE_IPOIB_ALEN))
		memset(p + 18, 0, 6);
	else
		ipoib_hw_to_mac(dp, &a->tha, p + 18);
	memcpy(p + 24, &a->tpa, 4);
	dp->st.arp_rewritten++;
	return RTE_IPOIB_DROP_NONE;
}

/* ND options of the IPoIB form to the Ethernet form, in place. */
enum rte_ipoib_drop_reason
ipoib_nd_ib_to_eth(struct rte_ipoib_dp *dp, struct rte_mbuf *m, const struct ipoib_nd_msg *msg,
	     const uint8_t *dst_mac, const uint8_t *src_mac)
{
	uint8_t *ip6 = rte_pktmbuf_mtod_offset(m, uint8_t *, RTE_IPOIB_ENCAP_LEN);
	uint8_t *icmp = ip6 + IPOIB_IP6_HDR_LEN, *p;
	size_t new_len = msg->icmp_len - (size_t)LLA_GROWTH * msg->nb_lla, end;
	unsigned int i;

	if (m->nb_segs != 1)
		return RTE_IPOIB_DROP_NO_ROOM;
	for (i = 0; i < msg->nb_lla; i++)
		if (icmp[msg->lla_off[i] + 1] != RTE_IPOIB_ND_OPT_LLA_LEN / 8 ||
		    icmp[msg->lla_off[i] + 2] != 0 || icmp[msg->lla_off[i] + 3] != 0)
			return RTE_IPOIB_DROP_BAD_ND;
	/* Front to back, so that every move is towards lower addresses. */
	for (i = 0; i < msg->nb_lla; i++) {
		size_t o = msg->lla_off[i], shift = (size_t)LLA_GROWTH * i;
		struct rte_ipoib_hwaddr hw;

		end = i + 1 < msg->nb_lla ? msg->lla_off[i + 1] : msg->icmp_len;
		memcpy(&hw, icmp + o + 4, RTE_IPOIB_ALEN);
		icmp[o - shift] = icmp[o];
		icmp[o - shift + 1] = ETH_LLA_LEN / 8;
		ipoib_hw_to_mac(dp, &hw, icmp + o - shift + 2);
		memmove(icmp + o - shift + ETH_LLA_LEN, icmp + o + RTE_IPOIB_ND_OPT_LLA_LEN,
			end - o - RTE_IPOIB_ND_OPT_LLA_LEN);
	}
	nd_set_len_cksum(ip6, new_len);
	if (mbuf_reshape(m, RTE_IPOIB_ENCAP_LEN - RTE_ETHER_HDR_LEN,
			 RTE_ETHER_HDR_LEN + IPOIB_IP6_HDR_LEN + new_len) != 0)
		return RTE_IPOIB_DROP_NO_ROOM;
	p = rte_pktmbuf_mtod(m, uint8_t *);
	memcpy(p, dst_mac, RTE_ETHER_ADDR_LEN);
	memcpy(p + 6, src_mac, RTE_ETHER_ADDR_LEN);
	p[12] = RTE_ETHER_TYPE_IPV6 >> 8;
	p[13] = RTE_ETHER_TYPE_IPV6 & 0xff;
	dp->st.nd_rewritten++;
	return RTE_IPOIB_DROP_NONE;
}
