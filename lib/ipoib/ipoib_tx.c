/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The transmit burst (rte_ipoib_encap_burst()): the Ethernet view's fast
 * path over the MAC front index's copies, and the general transmit of
 * both views (groups, ARP and ND through the rewrites, unresolved paths).
 */

#include <string.h>

#include <rte_arp.h>
#include <rte_cycles.h>
#include <rte_ring.h>

#include "ipoib_ctrl_check.h"
#include "ipoib_dp.h"

/*
 * The groups an IGMP/MLD message to a group names, as events: the
 * control side joins (or leaves) them as a full member.
 */
static void
report_listening(struct rte_ipoib_dp *dp, const uint8_t *l3, uint32_t seg)
{
	uint8_t groups[4][16];
	bool join[4];
	unsigned int n, i;

	n = ipoib_ctrl_mc_report(l3, seg, groups, join, RTE_DIM(join));
	for (i = 0; i < n; i++)
		ipoib_dp_report(dp, join[i] ? RTE_IPOIB_EV_MC_REPORT : RTE_IPOIB_EV_MC_LEAVE,
				NULL, groups[i], 0, 0);
}

/* The group's neighbour; a group not joined yet is reported. */
static enum rte_ipoib_drop_reason
mcast_neigh(struct rte_ipoib_dp *dp, const struct rte_ib_gid *mgid,
	    struct rte_ipoib_neigh **np)
{
	struct rte_ipoib_hwaddr hw;

	rte_ipoib_mcast_hwaddr(mgid, &hw);
	*np = ipoib_neigh_by_hw(dp->conf.tbl, &hw);
	if (*np != NULL)
		return RTE_IPOIB_DROP_NONE;
	ipoib_dp_report(dp, RTE_IPOIB_EV_DST_MISS, &hw, NULL, 0, 0);
	ipoib_dp_miss(dp, RTE_IPOIB_HELD_HW, &hw, sizeof(hw));
	return RTE_IPOIB_DROP_NO_NEIGH;
}

static inline enum rte_ipoib_drop_reason
bcast_neigh(struct rte_ipoib_dp *dp, struct rte_ipoib_neigh **np)
{
	*np = ipoib_htab_lookup(&dp->conf.tbl->by_hw, &dp->bcast_hw, dp->bcast_sig,
				ipoib_neigh_hw_match);
	if (*np != NULL)
		return RTE_IPOIB_DROP_NONE;
	ipoib_dp_report(dp, RTE_IPOIB_EV_DST_MISS, &dp->bcast_hw, NULL, 0, 0);
	ipoib_dp_miss(dp, RTE_IPOIB_HELD_HW, &dp->bcast_hw, sizeof(dp->bcast_hw));
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

/* The destination of an Ethernet multicast or broadcast frame. */
static enum rte_ipoib_drop_reason
eth_mcast_neigh(struct rte_ipoib_dp *dp, const uint8_t *dst, uint16_t type,
		const uint8_t *l3, struct rte_ipoib_neigh **np)
{
	if (rte_is_broadcast_ether_addr((const void *)dst))
		return bcast_neigh(dp, np);
	/* RFC 1112 6.4: 01:00:5e and the group's low 23 bits. */
	if (dst[0] == 0x01 && dst[1] == 0x00 && dst[2] == 0x5e) {
		const uint8_t *g = l3 + IPOIB_IP4_DST_OFF;

		if (type != RTE_ETHER_TYPE_IPV4 || (g[0] & 0xf0) != 0xe0 ||
		    dst[3] != (g[1] & 0x7f) || dst[4] != g[2] || dst[5] != g[3])
			return RTE_IPOIB_DROP_BAD_MCAST;
		return ip4_group_neigh(dp, g, np);
	}
	/* RFC 2464 7: 33:33 and the group's low 32 bits. */
	if (dst[0] == 0x33 && dst[1] == 0x33) {
		const uint8_t *g = l3 + IPOIB_IP6_DST_OFF;

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
		r = ipoib_check_ipv4(l3, seg, len);
		break;
	case RTE_ETHER_TYPE_IPV6:
		r = ipoib_check_ipv6(l3, seg, len);
		nd = r == RTE_IPOIB_DROP_NONE && ipoib_ip6_is_nd(l3, seg);
		break;
	case RTE_ETHER_TYPE_ARP:
		r = seg < IPOIB_ETH_ARP_LEN ? RTE_IPOIB_DROP_BAD_LENGTH : RTE_IPOIB_DROP_NONE;
		break;
	default:
		r = RTE_IPOIB_DROP_BAD_ETHERTYPE;
		break;
	}
	if (r != RTE_IPOIB_DROP_NONE)
		return r;
	if ((p[0] & 1) == 0) {
		*np = hint != NULL ? hint : ipoib_neigh_by_mac(dp->conf.tbl, p);
		if (*np == NULL) {
			/*
			 * The control side may not have learned it yet: the
			 * kernel answers an ARP/ND from a new sender before
			 * the sender's SRC_NEW event reached the tick.
			 */
			ipoib_dp_miss(dp, RTE_IPOIB_HELD_MAC, p, RTE_ETHER_ADDR_LEN);
			return RTE_IPOIB_DROP_NO_NEIGH;
		}
	} else {
		if (type != RTE_ETHER_TYPE_ARP)
			report_listening(dp, l3, seg);
		r = eth_mcast_neigh(dp, p, type, l3, np);
		if (r != RTE_IPOIB_DROP_NONE)
			return r;
	}
	if (type == RTE_ETHER_TYPE_ARP)
		return ipoib_arp_eth_to_ib(dp, m);
	if (nd)
		return ipoib_nd_eth_to_ib(dp, m);
	if (len > dp->conf.mtu)
		return RTE_IPOIB_DROP_OVERSIZE;
	rte_pktmbuf_adj(m, RTE_ETHER_HDR_LEN - RTE_IPOIB_ENCAP_LEN);
	ipoib_hdr_write(rte_pktmbuf_mtod(m, uint8_t *), type);
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
			*np = ipoib_neigh_by_hw(dp->conf.tbl, &a->tha);
			r = RTE_IPOIB_DROP_NONE;
			if (*np == NULL) {
				ipoib_dp_miss(dp, RTE_IPOIB_HELD_HW, &a->tha, sizeof(a->tha));
				r = RTE_IPOIB_DROP_NO_NEIGH;
			}
		}
		type = RTE_ETHER_TYPE_ARP;
	} else if (m->data_len >= 1 && (p[0] >> 4) == 4) {
		r = ipoib_check_ipv4(p, m->data_len, m->pkt_len);
		if (r != RTE_IPOIB_DROP_NONE)
			return r;
		if ((p[IPOIB_IP4_DST_OFF] & 0xf0) == 0xe0 ||
		    memcmp(p + IPOIB_IP4_DST_OFF, "\xff\xff\xff\xff", 4) == 0) {
			report_listening(dp, p, m->data_len);
			r = ip4_group_neigh(dp, p + IPOIB_IP4_DST_OFF, np);
		} else {
			memset(key, 0, 10);
			key[10] = 0xff;
			key[11] = 0xff;
			memcpy(key + 12, p + IPOIB_IP4_DST_OFF, 4);
			*np = rte_ipoib_neigh_lookup_ip(dp->conf.tbl, key);
			r = RTE_IPOIB_DROP_NONE;
		}
		type = RTE_ETHER_TYPE_IPV4;
	} else if (m->data_len >= 1 && (p[0] >> 4) == 6) {
		r = ipoib_check_ipv6(p, m->data_len, m->pkt_len);
		if (r == RTE_IPOIB_DROP_NONE && ipoib_ip6_is_nd(p, m->data_len))
			r = ipoib_nd_check_ipoib_form(p, m->data_len);
		if (r != RTE_IPOIB_DROP_NONE)
			return r;
		if (p[IPOIB_IP6_DST_OFF] == 0xff) {
			report_listening(dp, p, m->data_len);
			r = ip6_group_neigh(dp, p + IPOIB_IP6_DST_OFF, np);
		} else {
			memcpy(key, p + IPOIB_IP6_DST_OFF, 16);
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
		ipoib_dp_report(dp, RTE_IPOIB_EV_DST_MISS, NULL, key, 0, 0);
		ipoib_dp_miss(dp, RTE_IPOIB_HELD_IP, key, sizeof(key));
		return RTE_IPOIB_DROP_NO_NEIGH;
	}
	if (m->pkt_len > dp->conf.mtu)
		return RTE_IPOIB_DROP_OVERSIZE;
	if (rte_pktmbuf_prepend(m, RTE_IPOIB_ENCAP_LEN) == NULL)
		return RTE_IPOIB_DROP_NO_ROOM;
	ipoib_hdr_write(rte_pktmbuf_mtod(m, uint8_t *), type);
	return RTE_IPOIB_DROP_NONE;
}

/* Stamp @p n as used, at most once per age tick (one store per tick). */
static __rte_always_inline void
neigh_touch(const struct rte_ipoib_dp *dp, struct rte_ipoib_neigh *n)
{
	if (dp->now - __atomic_load_n(&n->last_used, __ATOMIC_RELAXED) > dp->age_tick)
		__atomic_store_n(&n->last_used, dp->now, __ATOMIC_RELAXED);
}

/*
 * The IPoIB header (RFC 4391 6) of a type as it is on the wire: the
 * type, then 16 reserved zero bits, as one 32-bit word.
 */
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
#define TYPE_HDR(t) ((uint32_t)(t))
#else
#define TYPE_HDR(t) ((uint32_t)(t) << 16)
#endif

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
 * (not ND) @p p, of lengths @p lens (ipoib_lens_get()), whose first segment
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
	uint32_t pkt_len = IPOIB_LENS_PKT(lens), hdr;
	uint16_t type;
	uint64_t dw;

	type = ipoib_fast_ip_type(p, 12, RTE_ETHER_HDR_LEN, IPOIB_LENS_DATA(lens), pkt_len);
	if (type == 0)
		return false;
	if (pkt_len > c->max_pkt_len || ah == NULL)
		return false;
	/* Stamp the neighbour as used, at most once per age tick. */
	if (unlikely(__atomic_load_n(stamp, __ATOMIC_RELAXED) < c->stale))
		__atomic_store_n(stamp, c->now, __ATOMIC_RELAXED);
	m->data_off += shrink;
	ipoib_lens_set(m, lens - IPOIB_LENS_BY(shrink));
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

	dp->miss.kind = 0;
	r = dp->conf.mode == RTE_IPOIB_MODE_ETH ? encap_eth(dp, m, &n, hint) :
		encap_l3(dp, m, &n);
	if (r == RTE_IPOIB_DROP_NO_NEIGH)
		return ipoib_dp_hold(dp, m);
	if (r != RTE_IPOIB_DROP_NONE)
		return r;
	neigh_touch(dp, n);
	/* Acquire: the path and its handle are complete when seen. */
	path = __atomic_load_n(&n->path, __ATOMIC_ACQUIRE);
	if (path == NULL)
		return RTE_IPOIB_DROP_NO_PATH;
	a = ipoib_dyn_addr(m, off);
	a->tx.ah = __atomic_load_n(&path->ah, __ATOMIC_ACQUIRE);
	a->tx.dest_qpn = n->qpn;
	a->tx.qkey = dp->conf.qkey;
	if (a->tx.ah != NULL)
		return RTE_IPOIB_DROP_NONE;
	if (rte_ring_mp_enqueue(path->queue, m) != 0)
		return RTE_IPOIB_DROP_QUEUE_FULL;
	dp->st.queued++;
	return IPOIB_ENCAP_QUEUED;
}

/*
 * The key of the L3 view's fast path for a packet @p p (of lengths
 * @p lens, ipoib_lens_get()) that is not ARP: the destination as the
 * IP index keys it (IPv4 mapped into IPv6, RFC 4291 2.5.5.2) in @p k,
 * and the type as it is on the wire; 0 for a packet the general path
 * takes: IPv4 with options or whose header is not in the first segment,
 * a group or broadcast destination, IPv6 ND, anything else, and every
 * bad header (which the general path drops with its reason).
 */
static __rte_always_inline uint16_t
encap_l3_key(const uint8_t *p, uint64_t lens, uint64_t k[2])
{
	uint32_t data_len = IPOIB_LENS_DATA(lens), pkt_len = IPOIB_LENS_PKT(lens);
	uint16_t be_tot;
	uint32_t dst;

	if (unlikely(data_len < 20))
		return 0;
	if (likely(p[0] == 0x45)) {
		memcpy(&be_tot, p + 2, 2);
		memcpy(&dst, p + IPOIB_IP4_DST_OFF, 4);
		/*
		 * 20 <= total length <= pkt_len; 224/4 (groups) and 240/4
		 * (the broadcast) go the general way
		 */
		if ((uint32_t)rte_be_to_cpu_16(be_tot) - 20 > pkt_len - 20 ||
		    p[IPOIB_IP4_DST_OFF] >= 0xe0)
			return 0;
		/* bytes 8 to 15 of the key: 0, 0, 0xff, 0xff, the address */
		k[0] = 0;
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
		k[1] = UINT64_C(0xffff) << 16 | (uint64_t)dst << 32;
#else
		k[1] = UINT64_C(0xffff) << 32 | dst;
#endif
		return RTE_BE16(RTE_ETHER_TYPE_IPV4);
	}
	if ((p[0] >> 4) == 6 && data_len >= IPOIB_IP6_HDR_LEN &&
	    p[IPOIB_IP6_DST_OFF] != 0xff && ipoib_fast_ip6_ok(p, data_len, pkt_len)) {
		memcpy(k, p + IPOIB_IP6_DST_OFF, 16);
		return RTE_BE16(RTE_ETHER_TYPE_IPV6);
	}
	return 0;
}

/*
 * The L3 view's transmit: a unicast IP packet (encap_l3_key()) to a
 * neighbour whose path has its handle is sent here; the neighbour found
 * for one packet serves the packets after it to the same destination (a
 * burst's packets mostly go to a few), and it and its handle stay
 * readable until the burst's end (the caller's quiescent state). The
 * handle is the neighbour's mirror of its path's (struct
 * rte_ipoib_neigh), on the line that also holds the QPN and the stamp.
 * Anything else, and a packet that would not fit the MTU or the
 * headroom, goes the general way (encap_one()), which makes every check
 * again and drops with the reason or holds the packet for its path.
 */
static uint16_t
encap_burst_l3(struct rte_ipoib_dp *dp, struct rte_mbuf **pkts, uint16_t nb_pkts,
	       const struct encap_ctx *c)
{
	const struct ipoib_htab *by_ip = &dp->conf.tbl->by_ip;
	struct rte_mbuf *dropped[IPOIB_STAGE_MAX];
	unsigned int nb_ok = 0, nb_drop = 0;
	struct rte_ipoib_neigh *n = NULL;
	struct rte_ib_ah *ah = NULL;
	uint64_t last[2] = { 0, 0 };
	uint32_t mtu = dp->conf.mtu;
	uint16_t i;

	for (i = 0; i < nb_pkts; i++) {
		struct rte_mbuf *m = pkts[i];
		uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
		uint64_t lens = ipoib_lens_get(m), k[2], dw;
		unsigned int r = RTE_IPOIB_DROP_NONE;
		uint8_t *dyn = (uint8_t *)m + c->off;
		uint32_t hdr;
		uint16_t type;

		type = (m->packet_type & RTE_PTYPE_L2_MASK) == RTE_PTYPE_L2_ETHER_ARP ? 0 :
			encap_l3_key(p, lens, k);
		if (unlikely(type == 0))
			goto general;
		if (n == NULL || k[0] != last[0] || k[1] != last[1]) {
			const struct ipoib_bind *b = ipoib_htab_lookup(by_ip, k,
				ipoib_hash_16(by_ip, (const uint8_t *)k), ipoib_bind_match);

			n = b != NULL ? b->neigh : NULL;
			if (n == NULL)
				goto general;
			ah = __atomic_load_n(&n->ah, __ATOMIC_ACQUIRE);
			last[0] = k[0];
			last[1] = k[1];
			if (__atomic_load_n(&n->last_used, __ATOMIC_RELAXED) < c->stale)
				__atomic_store_n(&n->last_used, c->now, __ATOMIC_RELAXED);
		}
		if (unlikely(ah == NULL || IPOIB_LENS_PKT(lens) > mtu ||
			     m->data_off < RTE_IPOIB_ENCAP_LEN))
			goto general;
		m->data_off -= RTE_IPOIB_ENCAP_LEN;
		ipoib_lens_set(m, lens + IPOIB_LENS_BY(RTE_IPOIB_ENCAP_LEN));
		hdr = TYPE_HDR(type);
		memcpy(p - RTE_IPOIB_ENCAP_LEN, &hdr, 4);
		memcpy(dyn, &ah, sizeof(ah));
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
		dw = n->qpn | c->qkey_hi;
#else
		dw = (uint64_t)n->qpn << 32 | c->qkey_hi;
#endif
		memcpy(dyn + 8, &dw, 8);
		pkts[nb_ok++] = m;
		continue;
general:
		r = encap_one(dp, m, NULL, c->off);
		IPOIB_BURST_KEEP(r, m, pkts, nb_ok, dropped, nb_drop, dp);
	}
	return ipoib_burst_done(dropped, nb_drop, nb_ok, &dp->st.encap_pkts);
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

	cp = ipoib_fcopy_find(cp, first, 0, key, &ah, &qpn);
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
		return ipoib_burst_in_chunks(dp, pkts, nb_pkts, rte_ipoib_encap_burst);
	c.now = rte_rdtsc();
	dp->now = c.now;
	c.stale = c.now - dp->age_tick;
	c.max_pkt_len = dp->conf.mtu + RTE_ETHER_HDR_LEN;
	c.off = rte_ib_mbuf_dynfield_offset;
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	c.qkey_hi = (uint64_t)dp->conf.qkey << 32;
#else
	c.qkey_hi = dp->conf.qkey;
#endif
	if (dp->conf.mode != RTE_IPOIB_MODE_ETH)
		return encap_burst_l3(dp, pkts, nb_pkts, &c);
	if (mask < IPOIB_FRONT_SMALL_SLOTS) {
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
			unsigned int r = encap_eth_copy(dp, m, p, ipoib_lens_get(m),
				&copy[ipoib_mac_front_idx(k, mask)], k, &c, true);

			IPOIB_BURST_KEEP(r, m, pkts, nb_ok, dropped, nb_drop, dp);
		}
		return ipoib_burst_done(dropped, nb_drop, nb_ok, &dp->st.encap_pkts);
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
						ipoib_lens_get(m), cp[i], key[i], &c, false);

		IPOIB_BURST_KEEP(r, m, pkts, nb_ok, dropped, nb_drop, dp);
	}
	return ipoib_burst_done(dropped, nb_drop, nb_ok, &dp->st.encap_pkts);
}
