/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * route: IP forwarding between the two ports of each --route=ETH:L3.
 * One stream per route and queue runs both directions, so that the
 * Ethernet port's tx queue, which carries both the forwarded packets and
 * the proxy answers (route_proxy.c), has a single writer.
 *
 * Ethernet -> L3: ARP requests and Neighbour Solicitations are answered;
 * IPv4 and IPv6 unicast lose their Ethernet header, their TTL or hop
 * limit is decremented (RFC 1812 5.3.1, RFC 8200 3) and the IPv4 header
 * checksum updated (RFC 1624), then go to the L3 port, where net_ipoib's
 * L3 view resolves the IB next hop (lib/ipoib). The source MAC of every
 * frame is the peer's MAC, learned for the other direction.
 *
 * L3 -> Ethernet: the same checks and decrement, then an Ethernet header
 * from the Ethernet port's MAC to the learned peer; to the broadcast
 * address while none is learned (a host on the link answers our ARP
 * proxy before it receives anything, so that is a start-up case).
 *
 * What cannot be routed is dropped and counted by reason
 * (enum fwd_route_drop); nothing is sent back (no ICMP errors).
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>

#include "fwd_route.h"

/* Each Ethernet port's peer MAC (bits 0..47) with bit 63 set once learned. */
#define PEER_VALID (1ULL << 63)
static uint64_t peer_mac[FWD_MAX_PORTS];

static const char *const drop_names[FWD_RDROP_COUNT] = {
	[FWD_RDROP_MALFORMED] = "malformed",
	[FWD_RDROP_NOT_IP] = "not_ip",
	[FWD_RDROP_NOT_ROUTABLE] = "not_routable",
	[FWD_RDROP_TTL] = "ttl_exceeded",
	[FWD_RDROP_ARP_NOT_OURS] = "arp_not_proxied",
	[FWD_RDROP_ND_NOT_OURS] = "nd_not_proxied",
	[FWD_RDROP_NO_HEADROOM] = "no_headroom",
	[FWD_RDROP_TX_FULL] = "tx_full",
};

const char *
fwd_route_drop_name(enum fwd_route_drop r)
{
	return r < FWD_RDROP_COUNT ? drop_names[r] : "?";
}

static inline uint64_t
mac_u64(const struct rte_ether_addr *a)
{
	uint64_t v = 0;

	memcpy(&v, a->addr_bytes, RTE_ETHER_ADDR_LEN);
	return v;
}

/* The sender of a frame is the peer; written only when it changes. */
static inline void
peer_learn(unsigned int eth_idx, const struct rte_ether_addr *src)
{
	uint64_t v;

	if (!rte_is_unicast_ether_addr(src) || rte_is_zero_ether_addr(src))
		return;
	v = mac_u64(src) | PEER_VALID;
	if (__atomic_load_n(&peer_mac[eth_idx], __ATOMIC_RELAXED) != v)
		__atomic_store_n(&peer_mac[eth_idx], v, __ATOMIC_RELAXED);
}

/*
 * Check an IPv4 header of @p avail bytes and decrement its TTL: the
 * packet's length (total_length), or -1 with the drop reason in *@p why.
 */
static int
ip4_hop(struct rte_ipv4_hdr *ip, uint32_t avail, enum fwd_route_drop *why)
{
	uint32_t hlen, tot, src, dst, c;

	if (avail < sizeof(*ip) || (ip->version_ihl >> 4) != 4)
		goto malformed;
	hlen = (ip->version_ihl & 0xf) * 4u;
	tot = rte_be_to_cpu_16(ip->total_length);
	if (hlen < sizeof(*ip) || tot < hlen || tot > avail || avail < hlen ||
	    rte_raw_cksum(ip, hlen) != 0xffff)
		goto malformed;
	src = rte_be_to_cpu_32(ip->src_addr);
	dst = rte_be_to_cpu_32(ip->dst_addr);
	/* RFC 1812 5.3.7: no forwarding of these sources or destinations */
	if ((dst >> 28) == 0xe || dst == 0xffffffff || (dst >> 24) == 0 || (dst >> 24) == 127 ||
	    (src >> 28) >= 0xe || (src >> 24) == 0 || (src >> 24) == 127) {
		*why = FWD_RDROP_NOT_ROUTABLE;
		return -1;
	}
	if (ip->time_to_live <= 1) {
		*why = FWD_RDROP_TTL;
		return -1;
	}
	ip->time_to_live--;
	/*
	 * RFC 1624 3: the word holding the TTL went down by 0x0100, so the
	 * one's complement checksum goes up by as much, end-around carry
	 * folded back in.
	 */
	c = ip->hdr_checksum + (uint32_t)rte_cpu_to_be_16(0x0100);
	ip->hdr_checksum = (uint16_t)(c + (c >> 16));
	return (int)tot;
malformed:
	*why = FWD_RDROP_MALFORMED;
	return -1;
}

/* As ip4_hop() for IPv6 (RFC 8200 3: hop limit). */
static int
ip6_hop(struct rte_ipv6_hdr *ip, uint32_t avail, enum fwd_route_drop *why)
{
	static const uint8_t zero[15];
	uint32_t tot;

	if (avail < sizeof(*ip) || (rte_be_to_cpu_32(ip->vtc_flow) >> 28) != 6) {
		*why = FWD_RDROP_MALFORMED;
		return -1;
	}
	tot = sizeof(*ip) + rte_be_to_cpu_16(ip->payload_len);
	if (tot > avail) {
		*why = FWD_RDROP_MALFORMED;
		return -1;
	}
	/* multicast, link-local, unspecified and loopback stay where they are */
	if (ip->dst_addr[0] == 0xff || ip->src_addr[0] == 0xff ||
	    route_ip6_is_link_local(ip->dst_addr) || route_ip6_is_link_local(ip->src_addr) ||
	    memcmp(ip->dst_addr, zero, 15) == 0 || memcmp(ip->src_addr, zero, 15) == 0) {
		*why = FWD_RDROP_NOT_ROUTABLE;
		return -1;
	}
	if (ip->hop_limits <= 1) {
		*why = FWD_RDROP_TTL;
		return -1;
	}
	ip->hop_limits--;
	return (int)tot;
}

/* A frame from the Ethernet port of @p fs. */
static enum route_verdict
from_eth(struct fwd_stream *fs, struct rte_mbuf *m, enum fwd_route_drop *why)
{
	struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	uint32_t avail;
	int len;

	if (m->data_len < RTE_ETHER_HDR_LEN) {
		*why = FWD_RDROP_MALFORMED;
		return ROUTE_DROP;
	}
	peer_learn(fs->rxp - fwd_ports, &eh->src_addr);
	avail = m->data_len - RTE_ETHER_HDR_LEN;
	switch (rte_be_to_cpu_16(eh->ether_type)) {
	case RTE_ETHER_TYPE_ARP:
		return route_arp(m, &fs->rxp->mac, why);
	case RTE_ETHER_TYPE_IPV4:
		len = ip4_hop((struct rte_ipv4_hdr *)(eh + 1), avail, why);
		m->packet_type = RTE_PTYPE_L3_IPV4;
		break;
	case RTE_ETHER_TYPE_IPV6: {
		struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(eh + 1);
		const uint8_t *l4 = (const uint8_t *)(ip + 1);

		/* a Neighbour Solicitation: to the solicited-node group or to us */
		if (avail >= sizeof(*ip) + 1 && ip->proto == IPPROTO_ICMPV6 && l4[0] == 135)
			return route_ns(m, RTE_ETHER_HDR_LEN + sizeof(*ip), &fs->rxp->mac, why);
		len = ip6_hop(ip, avail, why);
		m->packet_type = RTE_PTYPE_L3_IPV6;
		break;
	}
	default:
		*why = FWD_RDROP_NOT_IP;
		return ROUTE_DROP;
	}
	if (len < 0)
		return ROUTE_DROP;
	/* the IP packet alone: no Ethernet header, no padding after it */
	rte_pktmbuf_adj(m, RTE_ETHER_HDR_LEN);
	if (m->pkt_len > (uint32_t)len)
		rte_pktmbuf_trim(m, m->pkt_len - len);
	m->ol_flags = 0;
	return ROUTE_TO_L3;
}

/* A packet from the L3 port of @p fs: 0 to send on the Ethernet port, -1 to drop. */
static int
from_l3(struct fwd_stream *fs, struct rte_mbuf *m, enum fwd_route_drop *why)
{
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
	uint64_t peer = __atomic_load_n(&peer_mac[fs->rxp - fwd_ports], __ATOMIC_RELAXED);
	struct rte_ether_hdr *eh;
	uint16_t type;
	int len;

	if (m->data_len < 1) {
		*why = FWD_RDROP_MALFORMED;
		return -1;
	}
	if ((p[0] >> 4) == 4) {
		len = ip4_hop((struct rte_ipv4_hdr *)p, m->data_len, why);
		type = RTE_ETHER_TYPE_IPV4;
	} else if ((p[0] >> 4) == 6) {
		len = ip6_hop((struct rte_ipv6_hdr *)p, m->data_len, why);
		type = RTE_ETHER_TYPE_IPV6;
	} else {
		*why = FWD_RDROP_NOT_IP;
		return -1;
	}
	if (len < 0)
		return -1;
	if (m->pkt_len > (uint32_t)len)
		rte_pktmbuf_trim(m, m->pkt_len - len);
	eh = (struct rte_ether_hdr *)rte_pktmbuf_prepend(m, RTE_ETHER_HDR_LEN);
	if (eh == NULL) {
		*why = FWD_RDROP_NO_HEADROOM;
		return -1;
	}
	if (peer & PEER_VALID) {
		memcpy(eh->dst_addr.addr_bytes, &peer, RTE_ETHER_ADDR_LEN);
	} else {
		memset(&eh->dst_addr, 0xff, sizeof(eh->dst_addr));
		fwd_count(&fs->flooded, 1);
	}
	eh->src_addr = fs->rxp->mac;
	eh->ether_type = rte_cpu_to_be_16(type);
	m->ol_flags = 0;
	m->packet_type = RTE_PTYPE_L2_ETHER;
	return 0;
}

/* Send @p n on @p port's queue @p q; the rest is freed and counted on @p side. */
static uint16_t
route_tx(struct fwd_stream *fs, const struct fwd_port *port, int side,
	 struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t k;

	if (n == 0)
		return 0;
	k = rte_eth_tx_burst(port->port_id, fs->txq, pkts, n);
	fwd_count(&fs->tx_pkts, k);
	if (unlikely(k < n)) {
		fwd_count(&fs->rdrop[side][FWD_RDROP_TX_FULL], n - k);
		rte_pktmbuf_free_bulk(pkts + k, n - k);
	}
	return k;
}

static uint16_t
route_run(struct fwd_stream *fs)
{
	/* back and drop take from both directions: two bursts' worth */
	struct rte_mbuf *in[FWD_MAX_BURST], *fwd[FWD_MAX_BURST], *back[2 * FWD_MAX_BURST];
	struct rte_mbuf *drop[2 * FWD_MAX_BURST];
	uint16_t n, n2, i, nf = 0, nb = 0, nd = 0, answers = 0, na = 0;
	enum fwd_route_drop why = FWD_RDROP_MALFORMED;

	/* Ethernet -> L3, and the answers back to the Ethernet side */
	n = rte_eth_rx_burst(fs->rxp->port_id, fs->rxq, in, fwd_cfg.burst);
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = in[i];

		switch (from_eth(fs, m, &why)) {
		case ROUTE_TO_L3:
			fwd[nf++] = m;
			break;
		case ROUTE_TO_ETH:
			back[nb++] = m;
			if (rte_pktmbuf_mtod(m, struct rte_ether_hdr *)->ether_type ==
			    rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP))
				answers++;
			else
				na++;
			break;
		default:
			fwd_count(&fs->rdrop[0][why], 1);
			drop[nd++] = m;
			break;
		}
	}
	if (answers != 0)
		fwd_count(&fs->arp_replies, answers);
	if (na != 0)
		fwd_count(&fs->na_sent, na);
	route_tx(fs, fs->txp, 1, fwd, nf);

	/* L3 -> Ethernet */
	n2 = rte_eth_rx_burst(fs->txp->port_id, fs->rxq, in, fwd_cfg.burst);
	for (i = 0; i < n2; i++) {
		if (from_l3(fs, in[i], &why) == 0) {
			back[nb++] = in[i];
		} else {
			fwd_count(&fs->rdrop[1][why], 1);
			drop[nd++] = in[i];
		}
	}
	route_tx(fs, fs->rxp, 0, back, nb);
	if (nd != 0)
		rte_pktmbuf_free_bulk(drop, nd);
	if (n + n2 != 0)
		fwd_count(&fs->rx_pkts, n + n2);
	return n + n2;
}

/* Forget the peers of a previous start: the link may have another host now. */
static int
route_prepare(void)
{
	unsigned int r;

	for (r = 0; r < fwd_cfg.nb_routes; r++) {
		struct fwd_port *eth = fwd_port_by_id(fwd_cfg.routes[r].eth);

		if (eth != NULL)
			__atomic_store_n(&peer_mac[eth - fwd_ports], 0, __ATOMIC_RELAXED);
	}
	return 0;
}

void
fwd_route_stats(void)
{
	unsigned int r, s;

	for (r = 0; r < fwd_cfg.nb_routes; r++) {
		struct fwd_port *eth = fwd_port_by_id(fwd_cfg.routes[r].eth);
		uint64_t arp = 0, na = 0, flood = 0, peer;
		char mac[RTE_ETHER_ADDR_FMT_SIZE] = "none";

		if (eth == NULL)
			continue;
		for (s = 0; s < fwd_nb_streams; s++)
			if (fwd_streams[s].rxp == eth) {
				arp += __atomic_load_n(&fwd_streams[s].arp_replies,
						       __ATOMIC_RELAXED);
				na += __atomic_load_n(&fwd_streams[s].na_sent, __ATOMIC_RELAXED);
				flood += __atomic_load_n(&fwd_streams[s].flooded,
							 __ATOMIC_RELAXED);
			}
		peer = __atomic_load_n(&peer_mac[eth - fwd_ports], __ATOMIC_RELAXED);
		if (peer & PEER_VALID) {
			struct rte_ether_addr a;

			memcpy(a.addr_bytes, &peer, RTE_ETHER_ADDR_LEN);
			rte_ether_format_addr(mac, sizeof(mac), &a);
		}
		printf("Route %u: port %u <-> port %u: peer_mac=%s arp_replies=%" PRIu64
		       " na_sent=%" PRIu64 " flooded=%" PRIu64 "\n", r, fwd_cfg.routes[r].eth,
		       fwd_cfg.routes[r].l3, mac, arp, na, flood);
	}
}

const struct fwd_engine fwd_engine_route = {
	.name = "route",
	.prepare = route_prepare,
	.run = route_run,
};
