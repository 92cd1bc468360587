/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Encapsulation and decapsulation bursts (rte_ipoib_encap.h): the
 * Ethernet and L3 views over RFC 4391 datagram mode.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_arp.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ip.h>

#include "ipoib_private.h"
#include "ipoib_dp.h"

/* Offsets of the IP destination in IPv4 and IPv6 headers. */
#define IP4_DST_OFF 16
#define IP6_DST_OFF 24
#define ETH_ARP_LEN 28
#define ETH_LLA_LEN 8
#define LLA_GROWTH (RTE_IPOIB_ND_OPT_LLA_LEN - ETH_LLA_LEN)

static const char *const drop_names[RTE_IPOIB_DROP_MAX] = {
	[RTE_IPOIB_DROP_NONE] = "none",
	[RTE_IPOIB_DROP_NO_NEIGH] = "no_neigh",
	[RTE_IPOIB_DROP_NO_PATH] = "no_path",
	[RTE_IPOIB_DROP_QUEUE_FULL] = "queue_full",
	[RTE_IPOIB_DROP_BAD_LENGTH] = "bad_length",
	[RTE_IPOIB_DROP_BAD_ETHERTYPE] = "bad_ethertype",
	[RTE_IPOIB_DROP_WRONG_PKEY] = "wrong_pkey",
	[RTE_IPOIB_DROP_OVERSIZE] = "oversize",
	[RTE_IPOIB_DROP_BAD_ARP] = "bad_arp",
	[RTE_IPOIB_DROP_BAD_ND] = "bad_nd",
	[RTE_IPOIB_DROP_BAD_MCAST] = "bad_mcast",
	[RTE_IPOIB_DROP_NO_ROOM] = "no_room",
	[RTE_IPOIB_DROP_LOOPED] = "looped",
};

const char *
rte_ipoib_drop_reason_name(enum rte_ipoib_drop_reason reason)
{
	if ((unsigned int)reason >= RTE_IPOIB_DROP_MAX)
		return "unknown";
	return drop_names[reason];
}

struct rte_ipoib_dp *
rte_ipoib_dp_create(const struct rte_ipoib_dp_conf *conf)
{
	struct rte_ib_gid mgid;
	struct rte_ipoib_dp *dp;

	if (conf == NULL || conf->tbl == NULL ||
	    (conf->mode != RTE_IPOIB_MODE_ETH && conf->mode != RTE_IPOIB_MODE_L3) ||
	    conf->mtu < 68 || conf->mtu > RTE_IPOIB_UD_MTU_MAX ||
	    rte_ipoib_hwaddr_is_mcast(&conf->local) ||
	    rte_ipoib_bcast_mgid(conf->pkey, conf->scope, &mgid) != 0)
		return ipoib_null(EINVAL);
	if (rte_ib_mbuf_dynfield_register() < 0)
		return NULL;
	dp = aligned_alloc(RTE_CACHE_LINE_SIZE, sizeof(*dp));
	if (dp == NULL)
		return ipoib_null(ENOMEM);
	memset(dp, 0, sizeof(*dp));
	dp->conf = *conf;
	rte_ipoib_mac_from_hwaddr(&conf->local, &dp->local_mac);
	rte_ipoib_mcast_hwaddr(&mgid, &dp->bcast_hw);
	dp->bcast_sig = ipoib_hash_hw(&conf->tbl->by_hw, &dp->bcast_hw);
	memcpy(&dp->local_mac_word, dp->local_mac.addr_bytes, RTE_ETHER_ADDR_LEN);
	dp->local_qpn = rte_ipoib_hwaddr_qpn(&conf->local);
	dp->local_src_key = ipoib_src_key_w(conf->local_lid, dp->local_qpn);
	dp->age_tick = rte_get_tsc_hz() / RTE_IPOIB_NEIGH_STAMP_HZ;
	return dp;
}

void
rte_ipoib_dp_free(struct rte_ipoib_dp *dp)
{
	free(dp);
}

void
rte_ipoib_dp_local_mac(const struct rte_ipoib_dp *dp, struct rte_ether_addr *mac)
{
	*mac = dp->local_mac;
}

int
rte_ipoib_dp_stats_get(const struct rte_ipoib_dp *dp, struct rte_ipoib_dp_stats *st)
{
	if (dp == NULL || st == NULL)
		return ipoib_err(EINVAL);
	*st = dp->st;
	return 0;
}

/* ---- helpers ---- */

/* A burst longer than the staged lookups take, in chunks, kept in order. */
static __rte_noinline uint16_t
burst_in_chunks(struct rte_ipoib_dp *dp, struct rte_mbuf **pkts, uint16_t nb,
		uint16_t (*fn)(struct rte_ipoib_dp *, struct rte_mbuf **, uint16_t))
{
	uint16_t done, ok = 0;

	for (done = 0; done < nb; done += IPOIB_STAGE_MAX) {
		uint16_t k = RTE_MIN(nb - done, IPOIB_STAGE_MAX);
		uint16_t n = fn(dp, pkts + done, k);

		memmove(pkts + ok, pkts + done, n * sizeof(*pkts));
		ok += n;
	}
	return ok;
}

static void
report(struct rte_ipoib_dp *dp, uint8_t type, const struct rte_ipoib_hwaddr *hw,
       const uint8_t *ip, uint16_t slid, uint32_t qpn)
{
	struct rte_ipoib_event ev;

	if (dp->conf.events == NULL)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	ev.slid = slid;
	ev.qpn = qpn;
	if (hw != NULL) {
		ev.hw = *hw;
	} else if (ip != NULL) {
		ev.is_ip = 1;
		memcpy(ev.ip, ip, 16);
	}
	if (rte_ring_enqueue_elem(dp->conf.events, &ev, sizeof(ev)) == 0)
		dp->st.events++;
	else
		dp->st.events_lost++;
}

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

static inline enum rte_ipoib_drop_reason
check_ipv4(const uint8_t *ip, uint32_t seg_len, uint32_t len)
{
	uint32_t ihl, tot;

	if (seg_len < 20)
		return RTE_IPOIB_DROP_BAD_LENGTH;
	if ((ip[0] >> 4) != 4)
		return RTE_IPOIB_DROP_BAD_ETHERTYPE;
	ihl = (ip[0] & 0xf) * 4u;
	tot = (uint32_t)ip[2] << 8 | ip[3];
	if (ihl < 20 || ihl > seg_len || tot < ihl || tot > len)
		return RTE_IPOIB_DROP_BAD_LENGTH;
	return RTE_IPOIB_DROP_NONE;
}

static inline enum rte_ipoib_drop_reason
check_ipv6(const uint8_t *ip, uint32_t seg_len, uint32_t len)
{
	if (seg_len < IPOIB_IP6_HDR_LEN)
		return RTE_IPOIB_DROP_BAD_LENGTH;
	if ((ip[0] >> 4) != 6)
		return RTE_IPOIB_DROP_BAD_ETHERTYPE;
	if (IPOIB_IP6_HDR_LEN + ((uint32_t)ip[4] << 8 | ip[5]) > len)
		return RTE_IPOIB_DROP_BAD_LENGTH;
	return RTE_IPOIB_DROP_NONE;
}

static inline struct rte_ipoib_neigh *
lookup_mac(const struct rte_ipoib_tbl *tbl, const uint8_t *mac)
{
	return ipoib_mac_lookup(tbl, ipoib_mac_key(mac));
}

static inline struct rte_ipoib_neigh *
lookup_hw(const struct rte_ipoib_tbl *tbl, const struct rte_ipoib_hwaddr *hw)
{
	return ipoib_htab_lookup(&tbl->by_hw, hw, ipoib_hash_hw(&tbl->by_hw, hw),
				 ipoib_neigh_hw_match);
}

static inline const struct ipoib_bind *
lookup_src(const struct rte_ipoib_tbl *tbl, uint16_t slid, uint32_t qpn)
{
	return ipoib_src_lookup(tbl, ipoib_src_key_w(slid, qpn));
}

/* The group's neighbour; a group not joined yet is reported. */
static enum rte_ipoib_drop_reason
mcast_neigh(struct rte_ipoib_dp *dp, const struct rte_ib_gid *mgid,
	    struct rte_ipoib_neigh **np)
{
	struct rte_ipoib_hwaddr hw;

	rte_ipoib_mcast_hwaddr(mgid, &hw);
	*np = lookup_hw(dp->conf.tbl, &hw);
	if (*np != NULL)
		return RTE_IPOIB_DROP_NONE;
	report(dp, RTE_IPOIB_EV_DST_MISS, &hw, NULL, 0, 0);
	return RTE_IPOIB_DROP_NO_NEIGH;
}

static inline enum rte_ipoib_drop_reason
bcast_neigh(struct rte_ipoib_dp *dp, struct rte_ipoib_neigh **np)
{
	*np = ipoib_htab_lookup(&dp->conf.tbl->by_hw, &dp->bcast_hw, dp->bcast_sig,
				ipoib_neigh_hw_match);
	if (*np != NULL)
		return RTE_IPOIB_DROP_NONE;
	report(dp, RTE_IPOIB_EV_DST_MISS, &dp->bcast_hw, NULL, 0, 0);
	return RTE_IPOIB_DROP_NO_NEIGH;
}

static enum rte_ipoib_drop_reason
ip4_group_neigh(struct rte_ipoib_dp *dp, const uint8_t *dst, struct rte_ipoib_neigh **np)
{
	struct rte_ib_gid mgid;
	rte_be32_t g;

	memcpy(&g, dst, 4);
	if (g == RTE_BE32(0xffffffff))
		return bcast_neigh(dp, np);
	if (rte_ipoib_ipv4_mc_mgid(g, dp->conf.pkey, dp->conf.scope, &mgid) != 0)
		return RTE_IPOIB_DROP_BAD_MCAST;
	return mcast_neigh(dp, &mgid, np);
}

static enum rte_ipoib_drop_reason
ip6_group_neigh(struct rte_ipoib_dp *dp, const uint8_t *dst, struct rte_ipoib_neigh **np)
{
	struct rte_ib_gid mgid;

	if (rte_ipoib_ipv6_mc_mgid(dst, dp->conf.pkey, dp->conf.scope, &mgid) != 0)
		return RTE_IPOIB_DROP_BAD_MCAST;
	return mcast_neigh(dp, &mgid, np);
}

/* A 6-byte address of the Ethernet view to the 20-byte one. */
static inline const struct rte_ipoib_hwaddr *
mac_to_hw(struct rte_ipoib_dp *dp, const uint8_t *mac)
{
	struct rte_ipoib_neigh *n;

	if (memcmp(mac, dp->local_mac.addr_bytes, RTE_ETHER_ADDR_LEN) == 0)
		return &dp->conf.local;
	n = lookup_mac(dp->conf.tbl, mac);
	return n != NULL ? &n->hw : NULL;
}

/* The 20-byte address to the Ethernet view's 6 bytes. */
static inline void
hw_to_mac(struct rte_ipoib_dp *dp, const struct rte_ipoib_hwaddr *hw, uint8_t *mac)
{
	struct rte_ether_addr a;

	if (rte_ipoib_hwaddr_equal(hw, &dp->conf.local)) {
		memcpy(mac, dp->local_mac.addr_bytes, RTE_ETHER_ADDR_LEN);
		return;
	}
	rte_ipoib_mac_from_hwaddr(hw, &a);
	memcpy(mac, a.addr_bytes, RTE_ETHER_ADDR_LEN);
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

static inline void
write_ipoib_hdr(uint8_t *p, uint16_t type)
{
	p[0] = type >> 8;
	p[1] = type & 0xff;
	p[2] = 0;
	p[3] = 0;
}

/*
 * An ND message of the L3 view passes as it is: it must already be right
 * for IPoIB, checksum and link-layer options in the form of RFC 4391
 * 9.1.2.
 */
static enum rte_ipoib_drop_reason
nd_check_ipoib_form(const uint8_t *ip6, size_t len)
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

/* ---- Ethernet view, transmit: rewrites ---- */

/* An Ethernet ARP (RFC 826, 6-byte addresses) to the IPoIB form. */
static enum rte_ipoib_drop_reason
arp_eth_to_ib(struct rte_ipoib_dp *dp, struct rte_mbuf *m)
{
	const uint8_t *a = rte_pktmbuf_mtod_offset(m, const uint8_t *, RTE_ETHER_HDR_LEN);
	const struct rte_ipoib_hwaddr *sha, *tha = NULL;
	struct rte_ipoib_arp out;
	uint8_t *p;
	uint16_t op;
	rte_be32_t spa, tpa;

	if (m->nb_segs != 1)
		return RTE_IPOIB_DROP_NO_ROOM;
	if (m->data_len < RTE_ETHER_HDR_LEN + ETH_ARP_LEN)
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
	write_ipoib_hdr(p, RTE_ETHER_TYPE_ARP);
	memcpy(p + RTE_IPOIB_ENCAP_LEN, &out, sizeof(out));
	dp->st.arp_rewritten++;
	return RTE_IPOIB_DROP_NONE;
}

/* ND options of the Ethernet form (RFC 2464 6) to the IPoIB form, in place. */
static enum rte_ipoib_drop_reason
nd_eth_to_ib(struct rte_ipoib_dp *dp, struct rte_mbuf *m)
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
	write_ipoib_hdr(rte_pktmbuf_mtod(m, uint8_t *), RTE_ETHER_TYPE_IPV6);
	dp->st.nd_rewritten++;
	return RTE_IPOIB_DROP_NONE;
}

/* The destination of an Ethernet multicast or broadcast frame. */
static enum rte_ipoib_drop_reason
eth_mcast_neigh(struct rte_ipoib_dp *dp, const uint8_t *dst, uint16_t type,
		const uint8_t *l3, struct rte_ipoib_neigh **np)
{
	if (rte_is_broadcast_ether_addr((const void *)dst))
		return bcast_neigh(dp, np);
	/* RFC 1112 6.4: 01:00:5e and the group's low 23 bits. */
	if (dst[0] == 0x01 && dst[1] == 0x00 && dst[2] == 0x5e) {
		const uint8_t *g = l3 + IP4_DST_OFF;

		if (type != RTE_ETHER_TYPE_IPV4 || (g[0] & 0xf0) != 0xe0 ||
		    dst[3] != (g[1] & 0x7f) || dst[4] != g[2] || dst[5] != g[3])
			return RTE_IPOIB_DROP_BAD_MCAST;
		return ip4_group_neigh(dp, g, np);
	}
	/* RFC 2464 7: 33:33 and the group's low 32 bits. */
	if (dst[0] == 0x33 && dst[1] == 0x33) {
		const uint8_t *g = l3 + IP6_DST_OFF;

		if (type != RTE_ETHER_TYPE_IPV6 || g[0] != 0xff ||
		    memcmp(dst + 2, g + 12, 4) != 0)
			return RTE_IPOIB_DROP_BAD_MCAST;
		return ip6_group_neigh(dp, g, np);
	}
	return RTE_IPOIB_DROP_BAD_MCAST;
}

static enum rte_ipoib_drop_reason
encap_eth(struct rte_ipoib_dp *dp, struct rte_mbuf *m, struct rte_ipoib_neigh **np,
	  struct rte_ipoib_neigh *hint)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	const uint8_t *l3 = p + RTE_ETHER_HDR_LEN;
	enum rte_ipoib_drop_reason r;
	uint32_t seg, len;
	uint16_t type;
	bool nd = false;

	if (m->data_len < RTE_ETHER_HDR_LEN)
		return RTE_IPOIB_DROP_BAD_LENGTH;
	type = (uint16_t)(p[12] << 8 | p[13]);
	seg = m->data_len - RTE_ETHER_HDR_LEN;
	len = m->pkt_len - RTE_ETHER_HDR_LEN;
	switch (type) {
	case RTE_ETHER_TYPE_IPV4:
		r = check_ipv4(l3, seg, len);
		break;
	case RTE_ETHER_TYPE_IPV6:
		r = check_ipv6(l3, seg, len);
		nd = r == RTE_IPOIB_DROP_NONE && ipoib_ip6_is_nd(l3, seg);
		break;
	case RTE_ETHER_TYPE_ARP:
		r = seg < ETH_ARP_LEN ? RTE_IPOIB_DROP_BAD_LENGTH : RTE_IPOIB_DROP_NONE;
		break;
	default:
		r = RTE_IPOIB_DROP_BAD_ETHERTYPE;
		break;
	}
	if (r != RTE_IPOIB_DROP_NONE)
		return r;
	if ((p[0] & 1) == 0) {
		*np = hint != NULL ? hint : lookup_mac(dp->conf.tbl, p);
		if (*np == NULL)
			return RTE_IPOIB_DROP_NO_NEIGH;
	} else {
		r = eth_mcast_neigh(dp, p, type, l3, np);
		if (r != RTE_IPOIB_DROP_NONE)
			return r;
	}
	if (type == RTE_ETHER_TYPE_ARP)
		return arp_eth_to_ib(dp, m);
	if (nd)
		return nd_eth_to_ib(dp, m);
	if (len > dp->conf.mtu)
		return RTE_IPOIB_DROP_OVERSIZE;
	rte_pktmbuf_adj(m, RTE_ETHER_HDR_LEN - RTE_IPOIB_ENCAP_LEN);
	write_ipoib_hdr(rte_pktmbuf_mtod(m, uint8_t *), type);
	return RTE_IPOIB_DROP_NONE;
}

static enum rte_ipoib_drop_reason
encap_l3(struct rte_ipoib_dp *dp, struct rte_mbuf *m, struct rte_ipoib_neigh **np)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	enum rte_ipoib_drop_reason r;
	uint8_t key[16];
	uint16_t type;

	if ((m->packet_type & RTE_PTYPE_L2_MASK) == RTE_PTYPE_L2_ETHER_ARP) {
		uint8_t buf[sizeof(struct rte_ipoib_arp)];
		const struct rte_ipoib_arp *a = (const void *)buf;

		if (m->data_len < sizeof(buf))
			return RTE_IPOIB_DROP_BAD_LENGTH;
		memcpy(buf, p, sizeof(buf));
		r = ipoib_arp_check(buf, m->data_len);
		if (r != RTE_IPOIB_DROP_NONE)
			return r;
		if (a->oper == RTE_BE16(RTE_ARP_OP_REQUEST)) {
			r = bcast_neigh(dp, np);
		} else {
			*np = lookup_hw(dp->conf.tbl, &a->tha);
			r = *np != NULL ? RTE_IPOIB_DROP_NONE : RTE_IPOIB_DROP_NO_NEIGH;
		}
		type = RTE_ETHER_TYPE_ARP;
	} else if (m->data_len >= 1 && (p[0] >> 4) == 4) {
		r = check_ipv4(p, m->data_len, m->pkt_len);
		if (r != RTE_IPOIB_DROP_NONE)
			return r;
		if ((p[IP4_DST_OFF] & 0xf0) == 0xe0 ||
		    memcmp(p + IP4_DST_OFF, "\xff\xff\xff\xff", 4) == 0) {
			r = ip4_group_neigh(dp, p + IP4_DST_OFF, np);
		} else {
			memset(key, 0, 10);
			key[10] = 0xff;
			key[11] = 0xff;
			memcpy(key + 12, p + IP4_DST_OFF, 4);
			*np = rte_ipoib_neigh_lookup_ip(dp->conf.tbl, key);
			r = RTE_IPOIB_DROP_NONE;
		}
		type = RTE_ETHER_TYPE_IPV4;
	} else if (m->data_len >= 1 && (p[0] >> 4) == 6) {
		r = check_ipv6(p, m->data_len, m->pkt_len);
		if (r == RTE_IPOIB_DROP_NONE && ipoib_ip6_is_nd(p, m->data_len))
			r = nd_check_ipoib_form(p, m->data_len);
		if (r != RTE_IPOIB_DROP_NONE)
			return r;
		if (p[IP6_DST_OFF] == 0xff) {
			r = ip6_group_neigh(dp, p + IP6_DST_OFF, np);
		} else {
			memcpy(key, p + IP6_DST_OFF, 16);
			*np = rte_ipoib_neigh_lookup_ip(dp->conf.tbl, key);
			r = RTE_IPOIB_DROP_NONE;
		}
		type = RTE_ETHER_TYPE_IPV6;
	} else {
		return m->data_len < 1 ? RTE_IPOIB_DROP_BAD_LENGTH :
			RTE_IPOIB_DROP_BAD_ETHERTYPE;
	}
	if (r != RTE_IPOIB_DROP_NONE)
		return r;
	if (*np == NULL) {
		report(dp, RTE_IPOIB_EV_DST_MISS, NULL, key, 0, 0);
		return RTE_IPOIB_DROP_NO_NEIGH;
	}
	if (m->pkt_len > dp->conf.mtu)
		return RTE_IPOIB_DROP_OVERSIZE;
	if (rte_pktmbuf_prepend(m, RTE_IPOIB_ENCAP_LEN) == NULL)
		return RTE_IPOIB_DROP_NO_ROOM;
	write_ipoib_hdr(rte_pktmbuf_mtod(m, uint8_t *), type);
	return RTE_IPOIB_DROP_NONE;
}

/* The dynfield at offset @p off of @p m (the offset read once per burst). */
static __rte_always_inline struct rte_ib_mbuf_addr *
dyn_addr(struct rte_mbuf *m, int off)
{
	return RTE_MBUF_DYNFIELD(m, off, struct rte_ib_mbuf_addr *);
}

/* Stamp @p n as used, at most once per age tick (one store per tick). */
static __rte_always_inline void
neigh_touch(const struct rte_ipoib_dp *dp, struct rte_ipoib_neigh *n)
{
	if (dp->now - __atomic_load_n(&n->last_used, __ATOMIC_RELAXED) > dp->age_tick)
		__atomic_store_n(&n->last_used, dp->now, __ATOMIC_RELAXED);
}

/*
 * The IPv6 check of the fast paths: an IPv6 packet that is not ND and
 * that check_ipv6() accepts. IPv4 is checked inline by the bursts;
 * anything else (ARP, ND, another type, a bad header, IPv4 with options)
 * goes the general way, which drops it with its reason or rewrites it.
 */
static __rte_always_inline bool
fast_ip6_ok(const uint8_t *l3, uint32_t seg, uint32_t len)
{
	return check_ipv6(l3, seg, len) == RTE_IPOIB_DROP_NONE && !ipoib_ip6_is_nd(l3, seg);
}

/*
 * The fast paths read a packet's lengths, pkt_len and data_len (with
 * vlan_tci after them), as one word, and write them back as one: one
 * load and one store instead of three of each, as DPDK's PMDs write an
 * mbuf's rearm_data at once. Both lengths move by the same amount.
 */
static_assert(offsetof(struct rte_mbuf, data_len) == offsetof(struct rte_mbuf, pkt_len) + 4,
	      "pkt_len and data_len are one word");

static __rte_always_inline uint64_t
lens_get(const struct rte_mbuf *m)
{
	uint64_t l;

	memcpy(&l, &m->pkt_len, 8);
	return l;
}

static __rte_always_inline void
lens_set(struct rte_mbuf *m, uint64_t l)
{
	memcpy(&m->pkt_len, &l, 8);
}

#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
#define LENS_PKT(l) ((uint32_t)(l))
#define LENS_DATA(l) ((uint16_t)((l) >> 32))
/* What moves both lengths by @p d (no borrow: both are at least @p d). */
#define LENS_BY(d) ((uint64_t)(d) | (uint64_t)(d) << 32)
#else
#define LENS_PKT(l) ((uint32_t)((l) >> 32))
#define LENS_DATA(l) ((uint16_t)((l) >> 16))
#define LENS_BY(d) ((uint64_t)(d) << 32 | (uint64_t)(d) << 16)
#endif

/*
 * The IPoIB header (RFC 4391 6) of a type as it is on the wire: the
 * type, then 16 reserved zero bits, as one 32-bit word.
 */
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
#define TYPE_HDR(t) ((uint32_t)(t))
#else
#define TYPE_HDR(t) ((uint32_t)(t) << 16)
#endif

/*
 * An IPv4 header without options (version 4, IHL 5) whose total length
 * @p tot is at least its header and at most the @p len bytes there are:
 * check_ipv4() with IHL 20 known, one unsigned compare for both bounds
 * (@p len >= 20 is known).
 */
static __rte_always_inline bool
ip4_tot_ok(uint32_t tot, uint32_t len)
{
	return tot - 20 <= len - 20;
}

/*
 * The IP checks of both fast paths on a frame @p p whose type is at
 * @p typ_off and whose IP header at @p hdr_len, of which the caller
 * found @p hdr_len + 20 bytes (an IPv4 header's) in the first segment:
 * the type as it is on the wire when the header passes, else 0 (the
 * packet goes the general way). IPv4 without options: the type, then
 * the version and IHL in one byte compare (4 and 5), then 20 <= total
 * length <= what follows the header in one unsigned compare; the
 * constant type returned lets the caller's IPv4 code fold. IPv6 checks
 * its own length.
 */
static __rte_always_inline uint16_t
fast_ip_type(const uint8_t *p, unsigned int typ_off, uint32_t hdr_len, uint32_t data_len,
	     uint32_t pkt_len)
{
	uint16_t type, be_tot;

	memcpy(&type, p + typ_off, 2);
	if (likely(type == RTE_BE16(RTE_ETHER_TYPE_IPV4) && p[hdr_len] == 0x45)) {
		memcpy(&be_tot, p + hdr_len + 2, 2);
		return (uint32_t)rte_be_to_cpu_16(be_tot) - 20 <= pkt_len - (hdr_len + 20) ?
			RTE_BE16(RTE_ETHER_TYPE_IPV4) : 0;
	}
	return type == RTE_BE16(RTE_ETHER_TYPE_IPV6) &&
		fast_ip6_ok(p + hdr_len, data_len - hdr_len, pkt_len - hdr_len) ? type : 0;
}

/* What the transmit fast path needs, computed once per burst. */
struct encap_ctx {
	uint64_t stale;        /**< A stamp older than this is rewritten. */
	uint64_t now;          /**< TSC at the start of the burst. */
	uint64_t qkey_hi;      /**< The Q_Key where the dynfield's second word has it. */
	uint32_t max_pkt_len;  /**< MTU + the Ethernet header. */
	int off;               /**< The dynfield's offset. */
};

/*
 * The common transmit of the Ethernet view in one go: a unicast IP frame
 * (not ND) @p p, of lengths @p lens (lens_get()), whose first segment
 * holds the Ethernet header and 20 bytes (encap_key() found it a key), to
 * the neighbour whose front slot copy gave handle @p ah (the mirror of its
 * path's), QPN @p qpn and ageing stamp @p stamp, within the MTU. True
 * when done; false, with @p m untouched, sends the packet the general way
 * (encap_eth()), which makes every check again and drops with the
 * reason. The 14-byte Ethernet header becomes the 4-byte IPoIB one by
 * moving the data offset (no rte_pktmbuf_adj() checks: the length checks
 * cover them); the header is one 32-bit store, the lengths one 64-bit
 * store, the dynfield two.
 */
static __rte_always_inline bool
encap_eth_fast(struct rte_mbuf *m, uint8_t *p, uint64_t lens, struct rte_ib_ah *ah,
	       uint32_t qpn, uint64_t *stamp, const struct encap_ctx *c)
{
	const unsigned int shrink = RTE_ETHER_HDR_LEN - RTE_IPOIB_ENCAP_LEN;
	uint8_t *dyn = (uint8_t *)m + c->off;
	uint32_t pkt_len = LENS_PKT(lens), hdr;
	uint16_t type;
	uint64_t dw;

	type = fast_ip_type(p, 12, RTE_ETHER_HDR_LEN, LENS_DATA(lens), pkt_len);
	if (type == 0)
		return false;
	if (pkt_len > c->max_pkt_len || ah == NULL)
		return false;
	/* Stamp the neighbour as used, at most once per age tick. */
	if (unlikely(__atomic_load_n(stamp, __ATOMIC_RELAXED) < c->stale))
		__atomic_store_n(stamp, c->now, __ATOMIC_RELAXED);
	m->data_off += shrink;
	lens_set(m, lens - LENS_BY(shrink));
	hdr = TYPE_HDR(type);
	memcpy(p + shrink, &hdr, 4);
	/* The tx view: handle, then destination QPN and Q_Key in one word. */
	memcpy(dyn, &ah, sizeof(ah));
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	dw = qpn | c->qkey_hi;
#else
	dw = (uint64_t)qpn << 32 | c->qkey_hi;
#endif
	memcpy(dyn + 8, &dw, 8);
	return true;
}

/*
 * The key of the MAC front index for a frame @p p (of mbuf @p m) of the
 * Ethernet view: its destination MAC (one load, masked to 6 bytes),
 * or 0 for a frame whose first segment is too short for the fast path
 * (an Ethernet header and an IPv4 header's 20 bytes), which the general
 * path takes. A group MAC (bit 0 set) is not tested for here: it matches
 * no neighbour's key (02:..., see rte_ipoib_mac_from_hwaddr()), so that
 * the general path takes the frame and looks the group up.
 */
static __rte_always_inline uint64_t
encap_key(const struct rte_mbuf *m, const uint8_t *p)
{
	uint64_t k;

	/* data_len from memory: a compare with it is one instruction. */
	if (unlikely(m->data_len < RTE_ETHER_HDR_LEN + 20))
		return 0;
	memcpy(&k, p, 8);
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	return k & UINT64_C(0x0000ffffffffffff);
#else
	return k & UINT64_C(0xffffffffffff0000);
#endif
}

/* encap_one()'s result for a packet queued on its unresolved path. */
#define ENCAP_QUEUED RTE_IPOIB_DROP_MAX

/*
 * The general transmit of one packet: every view, every frame type, the
 * queue of an unresolved path. Out of line, so that the fast loop keeps
 * its registers.
 */
static __rte_noinline unsigned int
encap_one(struct rte_ipoib_dp *dp, struct rte_mbuf *m, struct rte_ipoib_neigh *hint, int off)
{
	struct rte_ipoib_neigh *n = NULL;
	struct rte_ipoib_path *path;
	struct rte_ib_mbuf_addr *a;
	enum rte_ipoib_drop_reason r;

	r = dp->conf.mode == RTE_IPOIB_MODE_ETH ? encap_eth(dp, m, &n, hint) :
		encap_l3(dp, m, &n);
	if (r != RTE_IPOIB_DROP_NONE)
		return r;
	neigh_touch(dp, n);
	/* Acquire: the path and its handle are complete when seen. */
	path = __atomic_load_n(&n->path, __ATOMIC_ACQUIRE);
	if (path == NULL)
		return RTE_IPOIB_DROP_NO_PATH;
	a = dyn_addr(m, off);
	a->tx.ah = __atomic_load_n(&path->ah, __ATOMIC_ACQUIRE);
	a->tx.dest_qpn = n->qpn;
	a->tx.qkey = dp->conf.qkey;
	if (a->tx.ah != NULL)
		return RTE_IPOIB_DROP_NONE;
	if (rte_ring_mp_enqueue(path->queue, m) != 0)
		return RTE_IPOIB_DROP_QUEUE_FULL;
	dp->st.queued++;
	return ENCAP_QUEUED;
}

/*
 * Keep @p m (compacted to the front of @p pkts), or count and hold it for
 * freeing, by @p r (as encap_one() returns).
 */
#define BURST_KEEP(r, m, pkts, nb_ok, dropped, nb_drop, dp) do { \
	if (likely((r) == RTE_IPOIB_DROP_NONE)) { \
		(pkts)[(nb_ok)++] = (m); \
	} else if ((r) != ENCAP_QUEUED) { \
		(dp)->st.drops[(r)]++; \
		(dropped)[(nb_drop)++] = (m); \
	} \
} while (0)

static __rte_always_inline uint16_t
burst_done(struct rte_mbuf **dropped, unsigned int nb_drop, unsigned int nb_ok,
	   uint64_t *counter)
{
	if (nb_drop != 0)
		rte_pktmbuf_free_bulk(dropped, nb_drop);
	*counter += nb_ok;
	return (uint16_t)nb_ok;
}

/* The general transmit of every packet of a burst (the L3 view). */
static uint16_t
encap_burst_general(struct rte_ipoib_dp *dp, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	struct rte_mbuf *dropped[IPOIB_STAGE_MAX];
	const int off = rte_ib_mbuf_dynfield_offset;
	unsigned int nb_ok = 0, nb_drop = 0;
	uint16_t i;

	for (i = 0; i < nb_pkts; i++) {
		unsigned int r = encap_one(dp, pkts[i], NULL, off);

		BURST_KEEP(r, pkts[i], pkts, nb_ok, dropped, nb_drop, dp);
	}
	return burst_done(dropped, nb_drop, nb_ok, &dp->st.encap_pkts);
}

/*
 * The copy among slots (cp ^ @p first) to (cp ^ 3) of @p cp's front set
 * whose key word, with @p or_bits set, is @p want, read consistently (its
 * value and, when @p qpn is not NULL, QPN given back), or NULL. A key is
 * in at most one slot of its set. For the out-of-line rest of the
 * bursts: the loops that find keys in their home slot keep their
 * registers.
 */
static __rte_always_inline struct ipoib_fcopy *
fcopy_find(const struct ipoib_fcopy *cp, unsigned int first, uint64_t or_bits, uint64_t want,
	   uint64_t *val, uint32_t *qpn)
{
	unsigned int w;

	for (w = first; w < IPOIB_FRONT_WAYS; w++) {
		struct ipoib_fcopy *o = ipoib_fcopy_way(cp, w);
		uint64_t k;

		if (ipoib_fcopy_read(o, &k, val, qpn) && (k | or_bits) == want)
			return o;
	}
	return NULL;
}

/*
 * The rest of encap_eth_copy() for a packet whose neighbour is not in
 * the copy @p cp it read first: the set's slots (cp ^ @p first) to
 * (cp ^ 3), else the general way.
 */
static __rte_noinline unsigned int
encap_eth_set(struct rte_ipoib_dp *dp, struct rte_mbuf *m, uint8_t *p, uint64_t lens,
	      struct ipoib_fcopy *cp, uint64_t key, const struct encap_ctx *c, unsigned int first)
{
	uint64_t ah;
	uint32_t qpn;

	cp = fcopy_find(cp, first, 0, key, &ah, &qpn);
	if (cp != NULL && encap_eth_fast(m, p, lens, (struct rte_ib_ah *)(uintptr_t)ah, qpn,
					 &cp->stamp, c))
		return RTE_IPOIB_DROP_NONE;
	return encap_one(dp, m, NULL, c->off);
}

/*
 * One packet of the Ethernet view whose destination MAC key is @p key,
 * from its home front slot's copy @p cp (struct ipoib_fcopy: key,
 * handle, QPN, stamp; the neighbour itself is not read): sent by the
 * fast path when that copy, or that of another slot of its set, is
 * consistent and its key is @p key, else the general way (encap_one()
 * looks the MAC up). Returns as encap_one().
 */
static __rte_always_inline unsigned int
encap_eth_copy(struct rte_ipoib_dp *dp, struct rte_mbuf *m, uint8_t *p, uint64_t lens,
	       struct ipoib_fcopy *cp, uint64_t key, const struct encap_ctx *c, bool pick)
{
	uint64_t k, ah;
	uint32_t qpn;

	/*
	 * The handle is complete when seen: the count's acquire read pairs
	 * with the release store that ended the copy's rewrite. A neighbour
	 * whose home slot was taken sits in another slot of the set: with
	 * @p pick (a constant once inlined), the other of the line is picked
	 * without a branch, then the next line is tried.
	 */
	if (pick)
		cp = ipoib_fcopy_pick(cp, key);
	if (unlikely(!ipoib_fcopy_read(cp, &k, &ah, &qpn) || k != key))
		return encap_eth_set(dp, m, p, lens, cp, key, c, pick ? 2 : 1);
	if (likely(encap_eth_fast(m, p, lens, (struct rte_ib_ah *)(uintptr_t)ah, qpn,
				  &cp->stamp, c)))
		return RTE_IPOIB_DROP_NONE;
	return encap_one(dp, m, NULL, c->off);
}

/*
 * Front indexes of up to this many slots (up to 2,048 neighbours, whose
 * copies, 256 KiB, the L2 holds) are read in one pass, without
 * prefetching ahead: the loads hit the caches.
 */
#define FRONT_SMALL_SLOTS 8192u

uint16_t
rte_ipoib_encap_burst(struct rte_ipoib_dp *dp, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	const struct ipoib_front *f = &dp->conf.tbl->mac_front;
	struct ipoib_fcopy *const copy = f->copy;
	struct ipoib_fcopy *cp[IPOIB_STAGE_MAX];
	uint64_t key[IPOIB_STAGE_MAX];
	const uint32_t mask = f->mask;
	struct rte_mbuf *dropped[IPOIB_STAGE_MAX];
	unsigned int i, nb_ok = 0, nb_drop = 0;
	struct encap_ctx c;

	if (unlikely(nb_pkts > IPOIB_STAGE_MAX))
		return burst_in_chunks(dp, pkts, nb_pkts, rte_ipoib_encap_burst);
	c.now = rte_rdtsc();
	dp->now = c.now;
	if (dp->conf.mode != RTE_IPOIB_MODE_ETH)
		return encap_burst_general(dp, pkts, nb_pkts);
	c.stale = c.now - dp->age_tick;
	c.max_pkt_len = dp->conf.mtu + RTE_ETHER_HDR_LEN;
	c.off = rte_ib_mbuf_dynfield_offset;
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	c.qkey_hi = (uint64_t)dp->conf.qkey << 32;
#else
	c.qkey_hi = dp->conf.qkey;
#endif
	if (mask < FRONT_SMALL_SLOTS) {
		/*
		 * A table that the caches hold: one pass, the copy read as
		 * each packet is taken (its set's copies rather than the slot
		 * and its entry: a line instead of two, and which slot of the
		 * line holds the key is picked without a branch).
		 */
		for (i = 0; i < nb_pkts; i++) {
			struct rte_mbuf *m = pkts[i];
			uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
			uint64_t k = encap_key(m, p);
			unsigned int r = encap_eth_copy(dp, m, p, lens_get(m),
				&copy[ipoib_mac_front_idx(k, mask)], k, &c, true);

			BURST_KEEP(r, m, pkts, nb_ok, dropped, nb_drop, dp);
		}
		return burst_done(dropped, nb_drop, nb_ok, &dp->st.encap_pkts);
	}
	/*
	 * A big table: two passes, each over the whole burst so that the
	 * misses of its packets overlap: each frame's destination MAC as a
	 * key, its front slot's copy prefetched; each copy read and the
	 * frame sent. The copy holds what the send needs, so that the
	 * neighbour itself is not read (struct ipoib_fcopy).
	 */
	for (i = 0; i < nb_pkts; i++) {
		key[i] = encap_key(pkts[i], rte_pktmbuf_mtod(pkts[i], const uint8_t *));
		cp[i] = &copy[ipoib_mac_front_idx(key[i], mask)];
		rte_prefetch0(cp[i]);
	}
	for (i = 0; i < nb_pkts; i++) {
		struct rte_mbuf *m = pkts[i];
		unsigned int r = encap_eth_copy(dp, m, rte_pktmbuf_mtod(m, uint8_t *),
						lens_get(m), cp[i], key[i], &c, false);

		BURST_KEEP(r, m, pkts, nb_ok, dropped, nb_drop, dp);
	}
	return burst_done(dropped, nb_drop, nb_ok, &dp->st.encap_pkts);
}

/* ---- Ethernet view, receive ---- */

static enum rte_ipoib_drop_reason
arp_ib_to_eth(struct rte_ipoib_dp *dp, struct rte_mbuf *m, const uint8_t *dst_mac,
	      const struct rte_ipoib_arp *a)
{
	uint8_t *p;

	if (mbuf_reshape(m, RTE_IPOIB_ENCAP_LEN - RTE_ETHER_HDR_LEN,
			 RTE_ETHER_HDR_LEN + ETH_ARP_LEN) != 0)
		return RTE_IPOIB_DROP_NO_ROOM;
	p = rte_pktmbuf_mtod(m, uint8_t *);
	memcpy(p, dst_mac, RTE_ETHER_ADDR_LEN);
	hw_to_mac(dp, &a->sha, p + 6);
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
	hw_to_mac(dp, &a->sha, p + 8);
	memcpy(p + 14, &a->spa, 4);
	if (is_zero((const uint8_t *)&a->tha, RTE_IPOIB_ALEN))
		memset(p + 18, 0, 6);
	else
		hw_to_mac(dp, &a->tha, p + 18);
	memcpy(p + 24, &a->tpa, 4);
	dp->st.arp_rewritten++;
	return RTE_IPOIB_DROP_NONE;
}

/* ND options of the IPoIB form to the Ethernet form, in place. */
static enum rte_ipoib_drop_reason
nd_ib_to_eth(struct rte_ipoib_dp *dp, struct rte_mbuf *m, const struct ipoib_nd_msg *msg,
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
		hw_to_mac(dp, &hw, icmp + o - shift + 2);
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

/* The source's IPoIB address carried by ARP or an ND source option. */
static bool
payload_src_hw(uint16_t type, const uint8_t *l3, const struct ipoib_nd_msg *msg,
	       bool nd, struct rte_ipoib_hwaddr *hw)
{
	unsigned int i;

	if (type == RTE_ETHER_TYPE_ARP) {
		memcpy(hw, l3 + 8, RTE_IPOIB_ALEN);
		return true;
	}
	if (!nd)
		return false;
	for (i = 0; i < msg->nb_lla; i++) {
		const uint8_t *o = l3 + IPOIB_IP6_HDR_LEN + msg->lla_off[i];

		if (o[0] == IPOIB_ND_OPT_SLLA && o[1] == RTE_IPOIB_ND_OPT_LLA_LEN / 8) {
			memcpy(hw, o + 4, RTE_IPOIB_ALEN);
			return true;
		}
	}
	return false;
}

/*
 * The general receive of one packet: GRH, ARP, ND, unknown sources,
 * every drop. Out of line, so that the fast loop keeps its registers.
 */
static __rte_noinline enum rte_ipoib_drop_reason
decap_one(struct rte_ipoib_dp *dp, struct rte_mbuf *m, const struct ipoib_bind *hint)
{
	const struct rte_ib_mbuf_addr *a = rte_ib_mbuf_addr(m);
	const bool eth = dp->conf.mode == RTE_IPOIB_MODE_ETH;
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *), *l3, *grh = NULL;
	uint8_t arp_buf[sizeof(struct rte_ipoib_arp)];
	const struct rte_ipoib_arp *arp = (const void *)arp_buf;
	uint8_t dst_buf[RTE_ETHER_ADDR_LEN], src_buf[RTE_ETHER_ADDR_LEN];
	const uint8_t *dst_mac, *src_mac;
	struct rte_ipoib_hwaddr src_hw;
	struct rte_ipoib_neigh *n;
	const uint8_t *known_mac = NULL;
	struct ipoib_nd_msg msg;
	enum rte_ipoib_drop_reason r;
	uint32_t seg, len, qpn = a->rx.src_qpn & RTE_IPOIB_QPN_MASK;
	uint16_t type;
	bool nd = false, have_src;

	msg.nb_lla = 0;
	if (a->rx.pkey_index != dp->conf.pkey_index)
		return RTE_IPOIB_DROP_WRONG_PKEY;
	if (m->data_len < RTE_IPOIB_ENCAP_LEN)
		return RTE_IPOIB_DROP_BAD_LENGTH;
	if ((a->rx.flags & RTE_IB_MBUF_F_GRH) != 0) {
		if (rte_pktmbuf_headroom(m) < RTE_IB_GRH_LEN)
			return RTE_IPOIB_DROP_BAD_LENGTH;
		grh = p - RTE_IB_GRH_LEN;
	}
	/* Our own multicast, replicated back (Linux ipoib_ib_handle_rx_wc). */
	if (qpn == rte_ipoib_hwaddr_qpn(&dp->conf.local) &&
	    (grh != NULL ? memcmp(grh + 8, dp->conf.local.gid, RTE_IB_GID_LEN) == 0 :
	     a->rx.slid == dp->conf.local_lid))
		return RTE_IPOIB_DROP_LOOPED;
	type = (uint16_t)(p[0] << 8 | p[1]);
	l3 = p + RTE_IPOIB_ENCAP_LEN;
	seg = m->data_len - RTE_IPOIB_ENCAP_LEN;
	len = m->pkt_len - RTE_IPOIB_ENCAP_LEN;
	if (len > dp->conf.mtu)
		return RTE_IPOIB_DROP_OVERSIZE;
	switch (type) {
	case RTE_ETHER_TYPE_IPV4:
		r = check_ipv4(l3, seg, len);
		break;
	case RTE_ETHER_TYPE_IPV6:
		r = check_ipv6(l3, seg, len);
		if (r == RTE_IPOIB_DROP_NONE && ipoib_ip6_is_nd(l3, seg)) {
			nd = true;
			r = ipoib_nd_check(l3, seg, true, &msg);
		}
		break;
	case RTE_ETHER_TYPE_ARP:
		if (seg < sizeof(arp_buf)) {
			r = RTE_IPOIB_DROP_BAD_LENGTH;
			break;
		}
		memcpy(arp_buf, l3, sizeof(arp_buf));
		r = ipoib_arp_check(arp_buf, seg);
		break;
	default:
		r = RTE_IPOIB_DROP_BAD_ETHERTYPE;
		break;
	}
	if (r != RTE_IPOIB_DROP_NONE)
		return r;

	/* Source: from the GRH, else by (SLID, QPN), else from the payload. */
	if (grh != NULL) {
		struct rte_ib_gid sgid;

		memcpy(sgid.raw, grh + 8, RTE_IB_GID_LEN);
		rte_ipoib_hwaddr_set(&src_hw, 0, qpn, &sgid);
		n = lookup_hw(dp->conf.tbl, &src_hw);
		have_src = true;
		if (n != NULL)
			known_mac = n->mackey;
	} else {
		if (hint == NULL)
			hint = lookup_src(dp->conf.tbl, a->rx.slid, qpn);
		/* The binding holds the neighbour's MAC: no need to read it. */
		n = hint != NULL ? hint->neigh : NULL;
		if (hint != NULL)
			known_mac = hint->mac;
		have_src = n != NULL || payload_src_hw(type, l3, &msg, nd, &src_hw);
		if (n == NULL && have_src) {
			n = lookup_hw(dp->conf.tbl, &src_hw);
			if (n != NULL)
				known_mac = n->mackey;
		}
	}
	if (!have_src) {
		report(dp, RTE_IPOIB_EV_SRC_UNKNOWN, NULL, NULL, a->rx.slid, qpn);
		if (eth)
			return RTE_IPOIB_DROP_NO_NEIGH;
	} else if (n == NULL) {
		report(dp, RTE_IPOIB_EV_SRC_NEW, &src_hw, NULL, a->rx.slid, qpn);
	}

	if (!eth) {
		if (nd && nd_check_ipoib_form(l3, seg) != RTE_IPOIB_DROP_NONE)
			return RTE_IPOIB_DROP_BAD_ND;
		rte_pktmbuf_adj(m, RTE_IPOIB_ENCAP_LEN);
		m->packet_type = type == RTE_ETHER_TYPE_ARP ? RTE_PTYPE_L2_ETHER_ARP :
			type == RTE_ETHER_TYPE_IPV4 ? RTE_PTYPE_L3_IPV4 : RTE_PTYPE_L3_IPV6;
		return RTE_IPOIB_DROP_NONE;
	}
	/* Pointers to the MACs, not copies: the common case copies once. */
	src_mac = known_mac;
	if (src_mac == NULL) {
		hw_to_mac(dp, &src_hw, src_buf);
		src_mac = src_buf;
	}
	/* Destination: a group by its GRH's DGID (IBA 10.5), else us. */
	dst_mac = dp->local_mac.addr_bytes;
	if (grh != NULL && grh[24] == 0xff) {
		dst_mac = dst_buf;
		if (memcmp(grh + 24, dp->bcast_hw.gid, RTE_IB_GID_LEN) == 0 ||
		    type == RTE_ETHER_TYPE_ARP) {
			memset(dst_buf, 0xff, RTE_ETHER_ADDR_LEN);
		} else if (type == RTE_ETHER_TYPE_IPV4) {
			dst_buf[0] = 0x01;
			dst_buf[1] = 0x00;
			dst_buf[2] = 0x5e;
			dst_buf[3] = l3[IP4_DST_OFF + 1] & 0x7f;
			dst_buf[4] = l3[IP4_DST_OFF + 2];
			dst_buf[5] = l3[IP4_DST_OFF + 3];
		} else {
			dst_buf[0] = 0x33;
			dst_buf[1] = 0x33;
			memcpy(dst_buf + 2, l3 + IP6_DST_OFF + 12, 4);
		}
	}
	if (type == RTE_ETHER_TYPE_ARP)
		return arp_ib_to_eth(dp, m, dst_mac, arp);
	if (nd)
		return nd_ib_to_eth(dp, m, &msg, dst_mac, src_mac);
	{
		uint8_t *e = (uint8_t *)rte_pktmbuf_prepend(m, RTE_ETHER_HDR_LEN -
							   RTE_IPOIB_ENCAP_LEN);

		if (e == NULL)
			return RTE_IPOIB_DROP_NO_ROOM;
		memcpy(e, dst_mac, RTE_ETHER_ADDR_LEN);
		memcpy(e + 6, src_mac, RTE_ETHER_ADDR_LEN);
		e[12] = type >> 8;
		e[13] = type & 0xff;
	}
	return RTE_IPOIB_DROP_NONE;
}

/* What the receive fast path needs, computed once per burst. */
struct decap_ctx {
	uint64_t pkey_hi;      /**< Our P_Key index where the dynfield's word has it. */
	uint64_t local_key;    /**< Our own source, with pkey_hi. */
	uint64_t local_mac;    /**< Our MAC, 2 zero bytes, as a word. */
	uint32_t max_pkt_len;  /**< MTU + the IPoIB header. */
	int off;               /**< The dynfield's offset. */
};

/*
 * The common receive in one go: a packet without GRH on our P_Key from a
 * known source (binding @p b, found for its SLID and QPN: the caller
 * compared the dynfield's word, P_Key index included, with the binding's
 * key; or, with @p b NULL, a constant once inlined, the front slot's copy
 * of that binding, whose MAC word is @p src), not our own, carrying IP
 * that is not ND, within the MTU. True
 * when done; false, with @p m untouched, decapsulates it the general way
 * (decap_one()), which makes every check again and drops with the
 * reason. The Ethernet view's header is two overlapping word stores:
 * destination (us) and two zero bytes, then the source MAC and the type
 * over those two bytes; the lengths are one word store (lens_set()).
 */
static __rte_always_inline bool
decap_fast(struct rte_mbuf *m, const struct ipoib_bind *b, uint64_t src, uint64_t key,
	   const struct decap_ctx *c, bool eth)
{
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
	uint64_t lens = lens_get(m);
	uint32_t pkt_len = LENS_PKT(lens);
	const int grow = RTE_ETHER_HDR_LEN - RTE_IPOIB_ENCAP_LEN;
	uint64_t w1;
	uint16_t type;

	/*
	 * The IPoIB header and an IPv4 header's 20 bytes in the first
	 * segment (data_len from memory: one compare).
	 */
	if (unlikely(m->data_len < RTE_IPOIB_ENCAP_LEN + 20))
		return false;
	type = fast_ip_type(p, 0, RTE_IPOIB_ENCAP_LEN, LENS_DATA(lens), pkt_len);
	if (type == 0)
		return false;
	/* Within the MTU, not our own multicast come back. */
	if (pkt_len > c->max_pkt_len || key == c->local_key)
		return false;
	if (!eth) {
		m->data_off += RTE_IPOIB_ENCAP_LEN;
		lens_set(m, lens - LENS_BY(RTE_IPOIB_ENCAP_LEN));
		m->packet_type = type == RTE_BE16(RTE_ETHER_TYPE_IPV4) ?
			RTE_PTYPE_L3_IPV4 : RTE_PTYPE_L3_IPV6;
		return true;
	}
	if (unlikely(m->data_off < grow))
		return false;
	if (b != NULL)
		memcpy(&src, b->mac, 8);
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	w1 = src | (uint64_t)type << 48;
#else
	w1 = src | type;
#endif
	p -= grow;
	/* The second store overwrites the first's two zero bytes. */
	memcpy(p, &c->local_mac, 8);
	memcpy(p + 6, &w1, 8);
	m->data_off -= grow;
	lens_set(m, lens + LENS_BY(grow));
	return true;
}

/* A P_Key index where the dynfield rx view's first word has it. */
static __rte_always_inline uint64_t
ipoib_pkey_hi(uint16_t pkey_index)
{
	struct rte_ib_mbuf_addr a;
	uint64_t w;

	memset(&a, 0, sizeof(a));
	a.rx.pkey_index = pkey_index;
	memcpy(&w, &a, 8);
	return w;
}

/*
 * The dynfield rx view's first word of a packet, source QPN's reserved
 * bits cleared (source key and P_Key index, see ipoib_src_key_w()), or 0
 * (none) when it has a GRH. Never 0 otherwise: LID 0 is not a unicast
 * LID.
 */
#define DECAP_WORD_MASK (IPOIB_SRC_KEY_MASK | ipoib_pkey_hi(UINT16_MAX))


static __rte_always_inline uint64_t
decap_word(struct rte_mbuf *m, int off)
{
	const struct rte_ib_mbuf_addr *a = dyn_addr(m, off);
	uint64_t w;

	memcpy(&w, a, 8);
	return (a->rx.flags & RTE_IB_MBUF_F_GRH) != 0 ? 0 : w & DECAP_WORD_MASK;
}

/*
 * One packet whose dynfield word (decap_word()) is @p word and whose home
 * front slot is @p idx of @p slot: taken by the fast path when that slot
 * or another of its set holds its source's binding and our P_Key
 * index is in the word, else the general way (decap_one(), which looks
 * the source up again when it was found in neither).
 */
static __rte_always_inline unsigned int
decap_pkt(struct rte_ipoib_dp *dp, struct rte_mbuf *m, void *const *slot, uint32_t idx,
	  uint64_t word, const struct decap_ctx *c, bool eth)
{
	const struct ipoib_bind *b = ipoib_slot_get(slot, idx);
	uint64_t k;

	/* One compare: the binding's key and our P_Key index. 0 (a GRH) matches none. */
	memcpy(&k, b->key, 8);
	if (unlikely((k | c->pkey_hi) != word)) {
		unsigned int w;

		/* The other slots of the set, on the same line of the slot array. */
		for (w = 1; w < IPOIB_FRONT_WAYS && k != (word & IPOIB_SRC_KEY_MASK); w++) {
			b = ipoib_slot_get(slot, idx ^ w);
			memcpy(&k, b->key, 8);
		}
		if ((k | c->pkey_hi) != word)
			return decap_one(dp, m, k == (word & IPOIB_SRC_KEY_MASK) ? b : NULL);
	}
	if (likely(decap_fast(m, b, 0, word, c, eth)))
		return RTE_IPOIB_DROP_NONE;
	return decap_one(dp, m, b);
}

/*
 * The rest of decap_copy() for a packet whose source is not in the copy
 * @p cp it read first: the other slots of the set, else the general way.
 * Out of line, as on transmit (encap_eth_set()).
 */
static __rte_noinline unsigned int
decap_set(struct rte_ipoib_dp *dp, struct rte_mbuf *m, const struct ipoib_fcopy *cp,
	  uint64_t word, const struct decap_ctx *c, bool eth)
{
	uint64_t mac;

	if (fcopy_find(cp, 1, c->pkey_hi, word, &mac, NULL) != NULL &&
	    decap_fast(m, NULL, mac, word, c, eth))
		return RTE_IPOIB_DROP_NONE;
	return decap_one(dp, m, NULL);
}

/*
 * The same for a big table, from the front slot's copy @p cp (the
 * binding's key and its neighbour's MAC) instead of the slot's binding:
 * taken by the fast path when the copy, or that of another slot of
 * its set, is consistent and matches, else the general way (decap_one()
 * looks the source up).
 */
static __rte_always_inline unsigned int
decap_copy(struct rte_ipoib_dp *dp, struct rte_mbuf *m, const struct ipoib_fcopy *cp,
	   uint64_t word, const struct decap_ctx *c, bool eth)
{
	uint64_t k, mac;

	if (unlikely(!ipoib_fcopy_read(cp, &k, &mac, NULL) || (k | c->pkey_hi) != word))
		return decap_set(dp, m, cp, word, c, eth);
	if (likely(decap_fast(m, NULL, mac, word, c, eth)))
		return RTE_IPOIB_DROP_NONE;
	return decap_one(dp, m, NULL);
}

/* The passes of rte_ipoib_decap_burst() for one view, as on transmit. */
static __rte_always_inline uint16_t
decap_passes(struct rte_ipoib_dp *dp, struct rte_mbuf **pkts, unsigned int nb,
	     const struct ipoib_front *f, const struct decap_ctx *c, bool eth)
{
	struct rte_mbuf *dropped[IPOIB_STAGE_MAX];
	const struct ipoib_fcopy *const copy = f->copy;
	const struct ipoib_fcopy *cp[IPOIB_STAGE_MAX];
	uint64_t word[IPOIB_STAGE_MAX];
	const uint32_t mask = f->mask;
	void *const *slot = f->slot;
	unsigned int i, nb_ok = 0, nb_drop = 0;

	if (mask < FRONT_SMALL_SLOTS) {
		for (i = 0; i < nb; i++) {
			struct rte_mbuf *m = pkts[i];
			uint64_t w = decap_word(m, c->off);
			unsigned int r = decap_pkt(dp, m, slot, ipoib_src_front_idx(w, mask), w,
						   c, eth);

			BURST_KEEP(r, m, pkts, nb_ok, dropped, nb_drop, dp);
		}
		return burst_done(dropped, nb_drop, nb_ok, &dp->st.decap_pkts);
	}
	/* A big table: two passes over the slots' copies, as on transmit. */
	for (i = 0; i < nb; i++) {
		word[i] = decap_word(pkts[i], c->off);
		cp[i] = &copy[ipoib_src_front_idx(word[i], mask)];
		rte_prefetch0(cp[i]);
	}
	for (i = 0; i < nb; i++) {
		unsigned int r = decap_copy(dp, pkts[i], cp[i], word[i], c, eth);

		BURST_KEEP(r, pkts[i], pkts, nb_ok, dropped, nb_drop, dp);
	}
	return burst_done(dropped, nb_drop, nb_ok, &dp->st.decap_pkts);
}

uint16_t
rte_ipoib_decap_burst(struct rte_ipoib_dp *dp, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	const struct ipoib_front *f = &dp->conf.tbl->src_front;
	struct decap_ctx c;

	if (unlikely(nb_pkts > IPOIB_STAGE_MAX))
		return burst_in_chunks(dp, pkts, nb_pkts, rte_ipoib_decap_burst);
	c.off = rte_ib_mbuf_dynfield_offset;
	c.pkey_hi = ipoib_pkey_hi(dp->conf.pkey_index);
	c.local_key = dp->local_src_key | c.pkey_hi;
	c.local_mac = dp->local_mac_word;
	c.max_pkt_len = dp->conf.mtu + RTE_IPOIB_ENCAP_LEN;
	/*
	 * Sources without GRH by (SLID, QPN), in one pass or two as on
	 * transmit; the view is a constant in each copy of the loop.
	 */
	if (dp->conf.mode == RTE_IPOIB_MODE_ETH)
		return decap_passes(dp, pkts, nb_pkts, f, &c, true);
	return decap_passes(dp, pkts, nb_pkts, f, &c, false);
}
