/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Proxy ARP and proxy ND on the Ethernet side of a route. The host on the
 * Ethernet link reaches the far side through us, so we answer for every
 * address it asks about except its own: an ARP probe (sender 0.0.0.0,
 * RFC 5227 2.1.1) or a gratuitous ARP (target = sender) is its duplicate
 * address detection or announcement, and so is a Neighbour Solicitation
 * from the unspecified address (RFC 4862 5.4.2). Link-local targets stay
 * on the link (RFC 4291 2.5.6). Answers are built in the request's mbuf.
 */

#include <string.h>

#include <rte_arp.h>
#include <rte_byteorder.h>
#include <rte_ip.h>

#include "fwd_route.h"

#define ND_NS		135	/* RFC 4861 4.3 */
#define ND_NA		136	/* RFC 4861 4.4 */
#define ND_OPT_TLLA	2	/* Target Link-Layer Address (RFC 4861 4.6.1) */
#define NA_FLAG_SOLICITED 0x40
/* ICMPv6 header (4) + reserved/flags (4) + target (16) */
#define ND_LEN		24
/* the NA: one Target Link-Layer Address option of 8 bytes */
#define NA_FRAME_LEN	(RTE_ETHER_HDR_LEN + sizeof(struct rte_ipv6_hdr) + ND_LEN + 8)

static bool
ip4_answerable(uint32_t be_ip)
{
	uint8_t first = (uint8_t)(rte_be_to_cpu_32(be_ip) >> 24);

	/* this network, loopback, multicast and reserved: never proxied */
	return first != 0 && first != 127 && first < 224;
}

enum route_verdict
route_arp(struct rte_mbuf *m, const struct rte_ether_addr *mac, enum fwd_route_drop *why)
{
	struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_arp_hdr *arp = (struct rte_arp_hdr *)(eh + 1);
	struct rte_arp_ipv4 *d = &arp->arp_data;
	uint32_t sip, tip;

	if (m->data_len < RTE_ETHER_HDR_LEN + sizeof(*arp)) {
		*why = FWD_RDROP_MALFORMED;
		return ROUTE_DROP;
	}
	sip = d->arp_sip;
	tip = d->arp_tip;
	if (arp->arp_hardware != rte_cpu_to_be_16(RTE_ARP_HRD_ETHER) ||
	    arp->arp_protocol != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) ||
	    arp->arp_hlen != RTE_ETHER_ADDR_LEN || arp->arp_plen != 4 ||
	    arp->arp_opcode != rte_cpu_to_be_16(RTE_ARP_OP_REQUEST) ||
	    sip == 0 || sip == tip || !ip4_answerable(tip)) {
		*why = FWD_RDROP_ARP_NOT_OURS;
		return ROUTE_DROP;
	}
	/* RFC 826: swap the addresses, fill in ours, reply */
	arp->arp_opcode = rte_cpu_to_be_16(RTE_ARP_OP_REPLY);
	d->arp_tha = d->arp_sha;
	d->arp_tip = sip;
	d->arp_sha = *mac;
	d->arp_sip = tip;
	eh->dst_addr = eh->src_addr;
	eh->src_addr = *mac;
	return ROUTE_TO_ETH;
}

enum route_verdict
route_ns(struct rte_mbuf *m, uint32_t l4off, const struct rte_ether_addr *mac,
	 enum fwd_route_drop *why)
{
	struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(eh + 1);
	uint8_t *icmp = rte_pktmbuf_mtod_offset(m, uint8_t *, l4off);
	uint8_t src[16], target[16];
	struct rte_ether_addr asker;
	static const uint8_t zero[16];

	if (m->data_len < l4off + ND_LEN || rte_be_to_cpu_16(ip->payload_len) < ND_LEN ||
	    m->nb_segs != 1 || (size_t)(m->buf_len - m->data_off) < NA_FRAME_LEN) {
		*why = FWD_RDROP_MALFORMED;
		return ROUTE_DROP;
	}
	memcpy(src, ip->src_addr, 16);
	memcpy(target, icmp + 8, 16);
	/* RFC 4861 7.1.1: hop limit 255 and code 0, or not a valid NS */
	if (ip->hop_limits != 255 || icmp[1] != 0 || memcmp(src, zero, 16) == 0 ||
	    target[0] == 0xff || route_ip6_is_link_local(target) ||
	    memcmp(target, zero, 16) == 0 || memcmp(target, src, 16) == 0) {
		*why = FWD_RDROP_ND_NOT_OURS;
		return ROUTE_DROP;
	}
	asker = eh->src_addr;
	/* the NA of RFC 4861 4.4, Override clear as a proxy's (7.2.8) */
	eh->dst_addr = asker;
	eh->src_addr = *mac;
	eh->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6);
	ip->vtc_flow = rte_cpu_to_be_32(6u << 28);
	ip->payload_len = rte_cpu_to_be_16(ND_LEN + 8);
	ip->proto = IPPROTO_ICMPV6;
	ip->hop_limits = 255;
	memcpy(ip->src_addr, target, 16);
	memcpy(ip->dst_addr, src, 16);
	icmp = (uint8_t *)(ip + 1);
	memset(icmp, 0, ND_LEN + 8);
	icmp[0] = ND_NA;
	icmp[4] = NA_FLAG_SOLICITED;
	memcpy(icmp + 8, target, 16);
	icmp[ND_LEN] = ND_OPT_TLLA;
	icmp[ND_LEN + 1] = 1;	/* length in units of 8 bytes */
	memcpy(icmp + ND_LEN + 2, mac, RTE_ETHER_ADDR_LEN);
	*(uint16_t *)(icmp + 2) = rte_ipv6_udptcp_cksum(ip, icmp);
	m->data_len = m->pkt_len = NA_FRAME_LEN;
	return ROUTE_TO_ETH;
}
