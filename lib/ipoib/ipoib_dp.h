/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _IPOIB_DP_H_
#define _IPOIB_DP_H_

/*
 * Private to librte_ipoib: the data-path context, and what the transmit
 * (ipoib_tx.c), receive (ipoib_rx.c) and rewrite (ipoib_rewrite.c) files
 * share: inline helpers of the fast paths, out-of-line helpers of the
 * general paths.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_ether.h>
#include <rte_ib_mbuf.h>
#include <rte_mbuf.h>

#include "rte_ipoib_encap.h"
#include "ipoib_private.h"

/* Unknown sources remembered per context, a power of 2 (report_unknown()). */
#define IPOIB_UNKNOWN_SLOTS 8

/*
 * One lcore's context: configuration and precomputed values written at
 * creation, counters written by its lcore only.
 */
struct rte_ipoib_dp {
	struct rte_ipoib_dp_conf conf;
	struct rte_ether_addr local_mac;
	struct rte_ipoib_hwaddr bcast_hw;    /**< Broadcast group's address. */
	uint32_t bcast_sig;                  /**< Its hash. */
	uint64_t local_mac_word;             /**< local_mac, 2 zero bytes, as a word. */
	uint32_t local_qpn;                  /**< conf.local's QPN, host order. */
	uint64_t local_src_key;              /**< Our (LID, QPN) as a source key. */
	uint64_t now;                        /**< TSC at the start of the burst. */
	uint64_t age_tick;                   /**< Stamp neighbours at most this often. */
	struct rte_ipoib_dp_stats st;
	struct rte_ipoib_held miss;          /**< The last miss's destination. */
	uint64_t unknown_gap;                /**< TSC ticks between reports of a source. */
	/** Unknown sources last reported (ipoib_rx.c, report_unknown()). */
	struct ipoib_unknown_src {
		uint64_t key;                /**< SLID << 32 | QPN; 0: none. */
		uint64_t tsc;                /**< When it was reported. */
	} unknown[IPOIB_UNKNOWN_SLOTS];
} __rte_cache_aligned;

static inline void
ipoib_mbuf_set_ah(struct rte_mbuf *m, struct rte_ib_ah *ah)
{
	rte_ib_mbuf_addr(m)->tx.ah = ah;
}

/* Offset of the IP destination in an IPv4 header; an Ethernet ARP's length. */
#define IPOIB_IP4_DST_OFF 16
#define IPOIB_ETH_ARP_LEN 28

/* A burst longer than IPOIB_STAGE_MAX, in chunks of it (ipoib_dp.c). */
uint16_t ipoib_burst_in_chunks(struct rte_ipoib_dp *dp, struct rte_mbuf **pkts, uint16_t nb,
			       uint16_t (*fn)(struct rte_ipoib_dp *, struct rte_mbuf **, uint16_t));

/* An event to the control side's ring, counted (ipoib_dp.c). */
void ipoib_dp_report(struct rte_ipoib_dp *dp, uint8_t type, const struct rte_ipoib_hwaddr *hw,
		     const uint8_t *ip, uint16_t slid, uint32_t qpn);

/*
 * The destination a packet found no neighbour for (ipoib_dp.c), then
 * the packet put on the held ring for the control side: the encap
 * result, IPOIB_ENCAP_QUEUED or RTE_IPOIB_DROP_NO_NEIGH (no ring, ring
 * full, no destination noted).
 */
void ipoib_dp_miss(struct rte_ipoib_dp *dp, uint8_t kind, const void *key, size_t len);
unsigned int ipoib_dp_hold(struct rte_ipoib_dp *dp, struct rte_mbuf *m);

/* The rewrites (ipoib_rewrite.c); each returns the drop reason, or none. */
enum rte_ipoib_drop_reason ipoib_nd_check_ipoib_form(const uint8_t *ip6, size_t len);
enum rte_ipoib_drop_reason ipoib_arp_eth_to_ib(struct rte_ipoib_dp *dp, struct rte_mbuf *m);
enum rte_ipoib_drop_reason ipoib_nd_eth_to_ib(struct rte_ipoib_dp *dp, struct rte_mbuf *m);
enum rte_ipoib_drop_reason ipoib_arp_ib_to_eth(struct rte_ipoib_dp *dp, struct rte_mbuf *m,
					       const uint8_t *dst_mac,
					       const struct rte_ipoib_arp *a);
enum rte_ipoib_drop_reason ipoib_nd_ib_to_eth(struct rte_ipoib_dp *dp, struct rte_mbuf *m,
					      const struct ipoib_nd_msg *msg,
					      const uint8_t *dst_mac, const uint8_t *src_mac);

static inline enum rte_ipoib_drop_reason
ipoib_check_ipv4(const uint8_t *ip, uint32_t seg_len, uint32_t len)
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
ipoib_check_ipv6(const uint8_t *ip, uint32_t seg_len, uint32_t len)
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
ipoib_neigh_by_mac(const struct rte_ipoib_tbl *tbl, const uint8_t *mac)
{
	return ipoib_mac_lookup(tbl, ipoib_mac_key(mac));
}

static inline struct rte_ipoib_neigh *
ipoib_neigh_by_hw(const struct rte_ipoib_tbl *tbl, const struct rte_ipoib_hwaddr *hw)
{
	return ipoib_htab_lookup(&tbl->by_hw, hw, ipoib_hash_hw(&tbl->by_hw, hw),
				 ipoib_neigh_hw_match);
}

/* The 20-byte address to the Ethernet view's 6 bytes. */
static inline void
ipoib_hw_to_mac(struct rte_ipoib_dp *dp, const struct rte_ipoib_hwaddr *hw, uint8_t *mac)
{
	struct rte_ether_addr a;

	if (rte_ipoib_hwaddr_equal(hw, &dp->conf.local)) {
		memcpy(mac, dp->local_mac.addr_bytes, RTE_ETHER_ADDR_LEN);
		return;
	}
	rte_ipoib_mac_from_hwaddr(hw, &a);
	memcpy(mac, a.addr_bytes, RTE_ETHER_ADDR_LEN);
}

static inline void
ipoib_hdr_write(uint8_t *p, uint16_t type)
{
	p[0] = type >> 8;
	p[1] = type & 0xff;
	p[2] = 0;
	p[3] = 0;
}

/* The dynfield at offset @p off of @p m (the offset read once per burst). */
static __rte_always_inline struct rte_ib_mbuf_addr *
ipoib_dyn_addr(struct rte_mbuf *m, int off)
{
	return RTE_MBUF_DYNFIELD(m, off, struct rte_ib_mbuf_addr *);
}

/*
 * The IPv6 check of the fast paths: an IPv6 packet that is not ND and
 * that ipoib_check_ipv6() accepts. IPv4 is checked inline by the bursts;
 * anything else (ARP, ND, another type, a bad header, IPv4 with options)
 * goes the general way, which drops it with its reason or rewrites it.
 */
static __rte_always_inline bool
ipoib_fast_ip6_ok(const uint8_t *l3, uint32_t seg, uint32_t len)
{
	return ipoib_check_ipv6(l3, seg, len) == RTE_IPOIB_DROP_NONE && !ipoib_ip6_is_nd(l3, seg);
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
ipoib_lens_get(const struct rte_mbuf *m)
{
	uint64_t l;

	memcpy(&l, &m->pkt_len, 8);
	return l;
}

static __rte_always_inline void
ipoib_lens_set(struct rte_mbuf *m, uint64_t l)
{
	memcpy(&m->pkt_len, &l, 8);
}

#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
#define IPOIB_LENS_PKT(l) ((uint32_t)(l))
#define IPOIB_LENS_DATA(l) ((uint16_t)((l) >> 32))
/* What moves both lengths by @p d (no borrow: both are at least @p d). */
#define IPOIB_LENS_BY(d) ((uint64_t)(d) | (uint64_t)(d) << 32)
#else
#define IPOIB_LENS_PKT(l) ((uint32_t)((l) >> 32))
#define IPOIB_LENS_DATA(l) ((uint16_t)((l) >> 16))
#define IPOIB_LENS_BY(d) ((uint64_t)(d) << 32 | (uint64_t)(d) << 16)
#endif

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
ipoib_fast_ip_type(const uint8_t *p, unsigned int typ_off, uint32_t hdr_len, uint32_t data_len,
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
		ipoib_fast_ip6_ok(p + hdr_len, data_len - hdr_len, pkt_len - hdr_len) ? type : 0;
}

/* encap_one()'s result for a packet queued on its unresolved path. */
#define IPOIB_ENCAP_QUEUED RTE_IPOIB_DROP_MAX

/*
 * Keep @p m (compacted to the front of @p pkts), or count and hold it for
 * freeing, by @p r (as encap_one() returns).
 */
#define IPOIB_BURST_KEEP(r, m, pkts, nb_ok, dropped, nb_drop, dp) do { \
	if (likely((r) == RTE_IPOIB_DROP_NONE)) { \
		(pkts)[(nb_ok)++] = (m); \
	} else if ((r) != IPOIB_ENCAP_QUEUED) { \
		(dp)->st.drops[(r)]++; \
		(dropped)[(nb_drop)++] = (m); \
	} \
} while (0)

static __rte_always_inline uint16_t
ipoib_burst_done(struct rte_mbuf **dropped, unsigned int nb_drop, unsigned int nb_ok,
	   uint64_t *counter)
{
	if (nb_drop != 0)
		rte_pktmbuf_free_bulk(dropped, nb_drop);
	*counter += nb_ok;
	return (uint16_t)nb_ok;
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
ipoib_fcopy_find(const struct ipoib_fcopy *cp, unsigned int first, uint64_t or_bits, uint64_t want,
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
 * Front indexes of up to this many slots (up to 2,048 neighbours, whose
 * copies, 256 KiB, the L2 holds) are read in one pass, without
 * prefetching ahead: the loads hit the caches.
 */
#define IPOIB_FRONT_SMALL_SLOTS 8192u

#endif /* _IPOIB_DP_H_ */
