/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The receive burst (rte_ipoib_decap_burst()): the fast path over the
 * source front index (its slots, or their copies over a big table), and
 * the general receive (GRH, ARP and ND through the rewrites, unknown
 * sources, every drop).
 */

#include <string.h>

#include <rte_cycles.h>
#include <rte_mbuf.h>

#include "ipoib_dp.h"

static inline const struct ipoib_bind *
lookup_src(const struct rte_ipoib_tbl *tbl, uint16_t slid, uint32_t qpn)
{
	return ipoib_src_lookup(tbl, ipoib_src_key_w(slid, qpn));
}

/* @p qpn is one of the QPNs our datagrams leave from. */
static inline bool
own_tx_qpn(const struct rte_ipoib_dp *dp, uint32_t qpn)
{
	unsigned int i;

	for (i = 0; i < dp->conf.nb_tx_qpn; i++)
		if (dp->conf.tx_qpn[i] == qpn)
			return true;
	return false;
}

/*
 * The Ethernet view's source MAC of a packet from (@p slid, @p qpn) that
 * no neighbour matches: 06 (locally administered, unicast, apart from the
 * 02 of rte_ipoib_mac_from_hwaddr()), the SLID and the QPN.
 */
static inline void
ipoib_src_mac_derive(uint16_t slid, uint32_t qpn, uint8_t *mac)
{
	mac[0] = 0x06;
	mac[1] = slid >> 8;
	mac[2] = slid & 0xff;
	mac[3] = (qpn >> 16) & 0xff;
	mac[4] = (qpn >> 8) & 0xff;
	mac[5] = qpn & 0xff;
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
 * An unknown source is reported once a second at most. A peer whose tx
 * QPs are not its address's QP (another net_ipoib port) sends every
 * datagram from one: a report each would keep the event ring, which the
 * other events share, full. One slot per source hash: sources that share
 * a slot are reported as often as they alternate, no more than packets.
 */
static void
report_unknown(struct rte_ipoib_dp *dp, uint16_t slid, uint32_t qpn)
{
	uint64_t key = (uint64_t)slid << 32 | qpn, now = rte_rdtsc();
	struct ipoib_unknown_src *u;

	u = &dp->unknown[(slid ^ qpn ^ qpn >> 8) & (IPOIB_UNKNOWN_SLOTS - 1)];
	if (u->key == key && now - u->tsc < dp->unknown_gap)
		return;
	u->key = key;
	u->tsc = now;
	ipoib_dp_report(dp, RTE_IPOIB_EV_SRC_UNKNOWN, NULL, NULL, slid, qpn);
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
	bool nd = false, have_src, grh_only = false;

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
	/*
	 * Our own multicast, replicated back (Linux ipoib_ib_handle_rx_wc):
	 * our LID and one of the QPNs we send from (our tx QPs differ from
	 * the receive QP our address names), or the address's own QPN.
	 */
	if ((qpn == rte_ipoib_hwaddr_qpn(&dp->conf.local) &&
	     (grh != NULL ? memcmp(grh + 8, dp->conf.local.gid, RTE_IB_GID_LEN) == 0 :
	      a->rx.slid == dp->conf.local_lid)) ||
	    (a->rx.slid == dp->conf.local_lid && own_tx_qpn(dp, qpn)))
		return RTE_IPOIB_DROP_LOOPED;
	type = (uint16_t)(p[0] << 8 | p[1]);
	l3 = p + RTE_IPOIB_ENCAP_LEN;
	seg = m->data_len - RTE_IPOIB_ENCAP_LEN;
	len = m->pkt_len - RTE_IPOIB_ENCAP_LEN;
	if (len > dp->conf.mtu)
		return RTE_IPOIB_DROP_OVERSIZE;
	switch (type) {
	case RTE_ETHER_TYPE_IPV4:
		r = ipoib_check_ipv4(l3, seg, len);
		break;
	case RTE_ETHER_TYPE_IPV6:
		r = ipoib_check_ipv6(l3, seg, len);
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

	/*
	 * Source: ARP and ND name the sender's address; else the GRH's SGID
	 * with the source QPN, which is the QP the peer sent from and may
	 * not be the one its address names (its tx QPs are not its rx QP):
	 * such a source is not reported as new. Without GRH, by (SLID, QPN),
	 * else from the payload.
	 */
	if (grh != NULL) {
		struct rte_ib_gid sgid;

		if (!payload_src_hw(type, l3, &msg, nd, &src_hw)) {
			memcpy(sgid.raw, grh + 8, RTE_IB_GID_LEN);
			rte_ipoib_hwaddr_set(&src_hw, 0, qpn, &sgid);
			grh_only = true;
		}
		n = ipoib_neigh_by_hw(dp->conf.tbl, &src_hw);
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
			n = ipoib_neigh_by_hw(dp->conf.tbl, &src_hw);
			if (n != NULL)
				known_mac = n->mackey;
		}
	}
	/*
	 * A peer sends from a tx QP whose QPN is not the one of its address,
	 * so (SLID, QPN) may match no neighbour: the packet is delivered all
	 * the same (with a MAC derived from SLID and QPN in the Ethernet
	 * view) and the source reported.
	 */
	if (!have_src) {
		report_unknown(dp, a->rx.slid, qpn);
	} else if (n == NULL && !grh_only) {
		ipoib_dp_report(dp, RTE_IPOIB_EV_SRC_NEW, &src_hw, NULL, a->rx.slid, qpn);
	}

	if (!eth) {
		if (nd && ipoib_nd_check_ipoib_form(l3, seg) != RTE_IPOIB_DROP_NONE)
			return RTE_IPOIB_DROP_BAD_ND;
		rte_pktmbuf_adj(m, RTE_IPOIB_ENCAP_LEN);
		m->packet_type = type == RTE_ETHER_TYPE_ARP ? RTE_PTYPE_L2_ETHER_ARP :
			type == RTE_ETHER_TYPE_IPV4 ? RTE_PTYPE_L3_IPV4 : RTE_PTYPE_L3_IPV6;
		return RTE_IPOIB_DROP_NONE;
	}
	/* Pointers to the MACs, not copies: the common case copies once. */
	src_mac = known_mac;
	if (src_mac == NULL) {
		if (have_src)
			ipoib_hw_to_mac(dp, &src_hw, src_buf);
		else
			ipoib_src_mac_derive(a->rx.slid, qpn, src_buf);
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
			dst_buf[3] = l3[IPOIB_IP4_DST_OFF + 1] & 0x7f;
			dst_buf[4] = l3[IPOIB_IP4_DST_OFF + 2];
			dst_buf[5] = l3[IPOIB_IP4_DST_OFF + 3];
		} else {
			dst_buf[0] = 0x33;
			dst_buf[1] = 0x33;
			memcpy(dst_buf + 2, l3 + IPOIB_IP6_DST_OFF + 12, 4);
		}
	}
	if (type == RTE_ETHER_TYPE_ARP)
		return ipoib_arp_ib_to_eth(dp, m, dst_mac, arp);
	if (nd)
		return ipoib_nd_ib_to_eth(dp, m, &msg, dst_mac, src_mac);
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
 * over those two bytes; the lengths are one word store (ipoib_lens_set()).
 */
static __rte_always_inline bool
decap_fast(struct rte_mbuf *m, const struct ipoib_bind *b, uint64_t src, uint64_t key,
	   const struct decap_ctx *c, bool eth)
{
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
	uint64_t lens = ipoib_lens_get(m);
	uint32_t pkt_len = IPOIB_LENS_PKT(lens);
	const int grow = RTE_ETHER_HDR_LEN - RTE_IPOIB_ENCAP_LEN;
	uint64_t w1;
	uint16_t type;

	/*
	 * The IPoIB header and an IPv4 header's 20 bytes in the first
	 * segment (data_len from memory: one compare).
	 */
	if (unlikely(m->data_len < RTE_IPOIB_ENCAP_LEN + 20))
		return false;
	type = ipoib_fast_ip_type(p, 0, RTE_IPOIB_ENCAP_LEN, IPOIB_LENS_DATA(lens), pkt_len);
	if (type == 0)
		return false;
	/* Within the MTU, not our own multicast come back. */
	if (pkt_len > c->max_pkt_len || key == c->local_key)
		return false;
	if (!eth) {
		m->data_off += RTE_IPOIB_ENCAP_LEN;
		ipoib_lens_set(m, lens - IPOIB_LENS_BY(RTE_IPOIB_ENCAP_LEN));
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
	ipoib_lens_set(m, lens + IPOIB_LENS_BY(grow));
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
	const struct rte_ib_mbuf_addr *a = ipoib_dyn_addr(m, off);
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

	if (ipoib_fcopy_find(cp, 1, c->pkey_hi, word, &mac, NULL) != NULL &&
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

	if (mask < IPOIB_FRONT_SMALL_SLOTS) {
		for (i = 0; i < nb; i++) {
			struct rte_mbuf *m = pkts[i];
			uint64_t w = decap_word(m, c->off);
			unsigned int r = decap_pkt(dp, m, slot, ipoib_src_front_idx(w, mask), w,
						   c, eth);

			IPOIB_BURST_KEEP(r, m, pkts, nb_ok, dropped, nb_drop, dp);
		}
		return ipoib_burst_done(dropped, nb_drop, nb_ok, &dp->st.decap_pkts);
	}
	/* A big table: two passes over the slots' copies, as on transmit. */
	for (i = 0; i < nb; i++) {
		word[i] = decap_word(pkts[i], c->off);
		cp[i] = &copy[ipoib_src_front_idx(word[i], mask)];
		rte_prefetch0(cp[i]);
	}
	for (i = 0; i < nb; i++) {
		unsigned int r = decap_copy(dp, pkts[i], cp[i], word[i], c, eth);

		IPOIB_BURST_KEEP(r, pkts[i], pkts, nb_ok, dropped, nb_drop, dp);
	}
	return ipoib_burst_done(dropped, nb_drop, nb_ok, &dp->st.decap_pkts);
}

uint16_t
rte_ipoib_decap_burst(struct rte_ipoib_dp *dp, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	const struct ipoib_front *f = &dp->conf.tbl->src_front;
	struct decap_ctx c;

	if (unlikely(nb_pkts > IPOIB_STAGE_MAX))
		return ipoib_burst_in_chunks(dp, pkts, nb_pkts, rte_ipoib_decap_burst);
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
