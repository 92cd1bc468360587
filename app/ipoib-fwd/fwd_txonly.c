/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * txonly: IPv4/UDP datagrams of --txonly-len bytes. On a raw IB port the
 * payload is IPoIB's: the 4-byte encapsulation header (RFC 4391 6.: type
 * 0x0800, 16 reserved bits) then IPv4 and UDP, addressed through the
 * rte_ib mbuf dynfield to --txonly-dest (an AH for its LID, its QPN, its
 * Q_Key or the queue's). On an Ethernet port it is an Ethernet frame to
 * the broadcast address with the same IPv4/UDP datagram. On an L3 port
 * (net_ipoib mode=l3, net_tun) it is the bare IP datagram, IPv4 or IPv6,
 * to --txonly-dest-ip, which lib/ipoib resolved on a net_ipoib port
 * before the start (ipoib_show.c). The stream also
 * drains its rx queue, so that what comes back (addrswap on the peer) is
 * counted.
 */

#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_ib_mbuf.h>
#include <rte_ip.h>
#include <rte_memcpy.h>
#include <rte_udp.h>

#include "ipoib_fwd.h"

#define IPOIB_HDR_LEN 4
#define TMPL_MAX (RTE_ETHER_HDR_LEN + 4096)

/* one template per port, written by txonly_prepare() before the workers start */
static uint8_t tmpl[FWD_MAX_PORTS][TMPL_MAX];
static uint16_t tmpl_len[FWD_MAX_PORTS];

/* IPv4 + UDP of @p ip_len bytes at @p p. */
static void
ip_udp_build(uint8_t *p, uint16_t ip_len)
{
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)p;
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	uint16_t i;

	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(ip_len);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = fwd_cfg.ip_src;
	ip->dst_addr = fwd_cfg.ip_dst;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp->src_port = rte_cpu_to_be_16(FWD_UDP_PORT);
	udp->dst_port = rte_cpu_to_be_16(FWD_UDP_PORT);
	udp->dgram_len = rte_cpu_to_be_16(ip_len - sizeof(*ip));
	udp->dgram_cksum = 0;	/* none: allowed over IPv4 (RFC 768) */
	for (i = sizeof(*ip) + sizeof(*udp); i < ip_len; i++)
		p[i] = (uint8_t)i;
}

/* IPv6 + UDP of @p ip_len bytes at @p p; the UDP checksum is mandatory (RFC 8200 8.1). */
static void
ip6_udp_build(uint8_t *p, uint16_t ip_len)
{
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)p;
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	uint16_t i;

	memset(ip, 0, sizeof(*ip));
	ip->vtc_flow = rte_cpu_to_be_32(6u << 28);
	ip->payload_len = rte_cpu_to_be_16(ip_len - sizeof(*ip));
	ip->proto = IPPROTO_UDP;
	ip->hop_limits = 64;
	memcpy(ip->src_addr, fwd_cfg.ip6_src, 16);
	memcpy(ip->dst_addr, fwd_cfg.ip6_dst, 16);
	udp->src_port = rte_cpu_to_be_16(FWD_UDP_PORT);
	udp->dst_port = rte_cpu_to_be_16(FWD_UDP_PORT);
	udp->dgram_len = ip->payload_len;
	udp->dgram_cksum = 0;
	for (i = sizeof(*ip) + sizeof(*udp); i < ip_len; i++)
		p[i] = (uint8_t)i;
	udp->dgram_cksum = rte_ipv6_udptcp_cksum(ip, udp);
}

/* The bare IP template of an L3 port: 0, or -EINVAL naming what is wrong. */
static int
l3_build(struct fwd_port *txp, uint8_t *t, uint16_t ip_len)
{
	if (!fwd_cfg.dest_ip_set && txp->ipoib != NULL) {
		FWD_LOG(ERR, "--forward-mode=txonly: port %u is a net_ipoib L3 port: give "
			"--txonly-dest-ip=IP", txp->port_id);
		return -EINVAL;
	}
	if (fwd_cfg.ip6) {
		if (ip_len < sizeof(struct rte_ipv6_hdr) + sizeof(struct rte_udp_hdr)) {
			FWD_LOG(ERR, "--txonly-len=%u: IPv6 needs %zu bytes or more",
				fwd_cfg.txonly_len, IPOIB_HDR_LEN + sizeof(struct rte_ipv6_hdr) +
				sizeof(struct rte_udp_hdr));
			return -EINVAL;
		}
		ip6_udp_build(t, ip_len);
	} else {
		ip_udp_build(t, ip_len);
	}
	return 0;
}

static int
txonly_prepare(void)
{
	uint16_t ip_len = fwd_cfg.txonly_len - IPOIB_HDR_LEN;
	unsigned int s;
	int ret;

	for (s = 0; s < fwd_nb_streams; s++) {
		struct fwd_port *txp = fwd_streams[s].txp;
		unsigned int idx = txp - fwd_ports;
		uint8_t *t = tmpl[idx];

		if (fwd_cfg.dest_ip_set && !txp->l3) {
			FWD_LOG(ERR, "--txonly-dest-ip: port %u (%s) is not an L3 port: use "
				"net_ipoib with mode=l3 (or net_tun)%s", txp->port_id, txp->driver,
				txp->ibdev != NULL ? ", or --txonly-dest=LID:QPN on this IB port" :
				"");
			return -EINVAL;
		}
		if (txp->l3) {
			ret = l3_build(txp, t, ip_len);
			if (ret != 0)
				return ret;
			tmpl_len[idx] = ip_len;
		} else if (txp->ibdev != NULL) {
			if (!fwd_cfg.dest_set) {
				FWD_LOG(ERR, "--forward-mode=txonly: port %u is an IB port: give "
					"--txonly-dest=LID:QPN[:QKEY]", txp->port_id);
				return -EINVAL;
			}
			t[0] = RTE_ETHER_TYPE_IPV4 >> 8;
			t[1] = RTE_ETHER_TYPE_IPV4 & 0xff;
			t[2] = t[3] = 0;
			ip_udp_build(t + IPOIB_HDR_LEN, ip_len);
			tmpl_len[idx] = fwd_cfg.txonly_len;
		} else {
			struct rte_ether_hdr *eth = (struct rte_ether_hdr *)t;

			memset(&eth->dst_addr, 0xff, sizeof(eth->dst_addr));
			rte_ether_addr_copy(&txp->mac, &eth->src_addr);
			eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
			ip_udp_build(t + RTE_ETHER_HDR_LEN, ip_len);
			tmpl_len[idx] = RTE_ETHER_HDR_LEN + ip_len;
		}
	}
	if (fwd_cfg.dest_ip_set)
		return fwd_ipoib_resolve_dest();
	return fwd_cfg.dest_set ? fwd_ports_dest_ah() : 0;
}

static uint16_t
txonly_run(struct fwd_stream *fs)
{
	struct rte_mbuf *pkts[FWD_MAX_BURST];
	struct fwd_port *txp = fs->txp;
	unsigned int idx = txp - fwd_ports;
	uint16_t n, i, len = tmpl_len[idx], rx;
	uint32_t qkey = fwd_cfg.dest_qkey_set ? fwd_cfg.dest_qkey : txp->tx_qkey;
	uint32_t l3_ptype = !txp->l3 ? 0 : fwd_cfg.ip6 ? RTE_PTYPE_L3_IPV6 : RTE_PTYPE_L3_IPV4;

	/* what comes back is counted and freed */
	rx = rte_eth_rx_burst(fs->rxp->port_id, fs->rxq, pkts, fwd_cfg.burst);
	if (rx != 0) {
		fwd_count(&fs->rx_pkts, rx);
		rte_pktmbuf_free_bulk(pkts, rx);
	}
	n = fwd_cfg.burst;
	if (fwd_cfg.txonly_count != 0) {
		if (fs->tx_left == 0)
			return rx;
		n = (uint16_t)RTE_MIN((uint64_t)n, fs->tx_left);
	}
	if (fs->tsc_per_pkt != 0) {
		uint64_t now = rte_get_timer_cycles();

		if (now < fs->next_tsc)
			return rx;
		/* after a stall, no catching up in one burst */
		if (now - fs->next_tsc > rte_get_timer_hz() / 100)
			fs->next_tsc = now;
		n = (uint16_t)RTE_MIN((uint64_t)n, (now - fs->next_tsc) / fs->tsc_per_pkt + 1);
		fs->next_tsc += n * fs->tsc_per_pkt;
	}
	if (rte_pktmbuf_alloc_bulk(fwd_pool, pkts, n) != 0)
		return rx;
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];

		rte_memcpy(rte_pktmbuf_mtod(m, void *), tmpl[idx], len);
		m->data_len = m->pkt_len = len;
		m->packet_type = l3_ptype;
		if (txp->ibdev != NULL && !txp->l3) {
			struct rte_ib_mbuf_addr *a = rte_ib_mbuf_addr(m);

			a->tx.ah = txp->dest_ah;
			a->tx.dest_qpn = fwd_cfg.dest_qpn;
			a->tx.qkey = qkey;
		}
	}
	n = fwd_tx(fs, pkts, n);
	if (fwd_cfg.txonly_count != 0)
		fs->tx_left -= n;
	return n + rx;
}

const struct fwd_engine fwd_engine_txonly = {
	.name = "txonly",
	.prepare = txonly_prepare,
	.run = txonly_run,
};
