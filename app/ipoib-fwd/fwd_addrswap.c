/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * addrswap: each datagram goes back where it came from. On a raw IB port
 * the reply is addressed from the receive view of the rte_ib mbuf
 * dynfield: the source LID's AH (cached per port; the first datagram of a
 * new LID asks the control thread for one and is dropped, counted as
 * no_ah) and the source QPN (or --reply-qpn: on net_mthca the QP that
 * sends is not the one that receives, each ethdev queue being a UD QP of
 * its own, so a reply to the source QPN is dropped by the peer's HCA);
 * the IPoIB payload's IPv4 or IPv6 source and
 * destination addresses and UDP/TCP ports are swapped as well (their
 * checksums are sums of both, so they stay valid). On an Ethernet port
 * the MAC addresses are swapped, then the IP ones.
 */

#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ib_mbuf.h>
#include <rte_ip.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "ipoib_fwd.h"

#define IPOIB_HDR_LEN 4

static int
addrswap_prepare(void)
{
	unsigned int s;

	/* the receive view is the IB PMD's: an Ethernet port has none to swap */
	for (s = 0; s < fwd_nb_streams; s++)
		if ((fwd_streams[s].rxp->ibdev == NULL) != (fwd_streams[s].txp->ibdev == NULL)) {
			FWD_LOG(ERR, "--forward-mode=addrswap: port %u and its peer %u are not "
				"both IB ports or both Ethernet ports",
				fwd_streams[s].rxp->port_id, fwd_streams[s].txp->port_id);
			return -EINVAL;
		}
	return fwd_ports_ah_service_start();
}

/* Swap the L4 ports of a UDP or TCP header at @p l4 when @p len holds them. */
static void
l4_swap(uint8_t proto, uint8_t *l4, uint32_t len)
{
	rte_be16_t t, *port = (rte_be16_t *)l4;

	if ((proto != IPPROTO_UDP && proto != IPPROTO_TCP) || len < 4)
		return;
	t = port[0];
	port[0] = port[1];
	port[1] = t;
}

/* Swap the IP (and L4) addresses of the packet of @p type at @p p, @p len bytes. */
static void
ip_swap(uint16_t type, uint8_t *p, uint32_t len)
{
	if (type == RTE_ETHER_TYPE_IPV4 && len >= sizeof(struct rte_ipv4_hdr)) {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)p;
		uint32_t ihl = (ip->version_ihl & 0x0f) * 4u;
		rte_be32_t t = ip->src_addr;

		ip->src_addr = ip->dst_addr;
		ip->dst_addr = t;
		if (ihl >= sizeof(*ip) && len >= ihl)
			l4_swap(ip->next_proto_id, p + ihl, len - ihl);
	} else if (type == RTE_ETHER_TYPE_IPV6 && len >= sizeof(struct rte_ipv6_hdr)) {
		struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)p;
		uint8_t t[16];

		memcpy(t, ip->src_addr, sizeof(t));
		memcpy(ip->src_addr, ip->dst_addr, sizeof(t));
		memcpy(ip->dst_addr, t, sizeof(t));
		l4_swap(ip->proto, p + sizeof(*ip), len - sizeof(*ip));
	}
}

/* The AH for @p lid on @p fp, or NULL after asking the control thread for one. */
static struct rte_ib_ah *
ah_lookup(struct fwd_port *fp, uint16_t lid)
{
	struct rte_ib_ah *ah;

	if (unlikely(lid < RTE_IB_LID_UNICAST_MIN || lid > RTE_IB_LID_UNICAST_MAX))
		return NULL;
	/* acquire: pairs with the control thread's release of a complete AH */
	ah = __atomic_load_n(&fp->ah_cache[lid], __ATOMIC_ACQUIRE);
	if (likely(ah != NULL))
		return ah;
	if (__atomic_exchange_n(&fp->ah_asked[lid], 1, __ATOMIC_RELAXED) == 0 &&
	    rte_ring_mp_enqueue(fp->ah_req, (void *)(uintptr_t)lid) != 0)
		__atomic_store_n(&fp->ah_asked[lid], 0, __ATOMIC_RELAXED);	/* ask again */
	return NULL;
}

static uint16_t
addrswap_run(struct fwd_stream *fs)
{
	struct rte_mbuf *pkts[FWD_MAX_BURST], *drop[FWD_MAX_BURST];
	struct fwd_port *txp = fs->txp;
	uint16_t n, i, keep = 0, nd = 0;

	n = rte_eth_rx_burst(fs->rxp->port_id, fs->rxq, pkts, fwd_cfg.burst);
	if (n == 0)
		return 0;
	fwd_count(&fs->rx_pkts, n);
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
		uint32_t len = rte_pktmbuf_data_len(m);

		if (txp->ibdev != NULL) {
			struct rte_ib_mbuf_addr *a = rte_ib_mbuf_addr(m);
			/* read the receive view before the transmit view overwrites it */
			uint32_t src_qpn = a->rx.src_qpn;
			struct rte_ib_ah *ah = ah_lookup(txp, a->rx.slid);

			if (ah == NULL) {
				drop[nd++] = m;
				continue;
			}
			a->tx.ah = ah;
			a->tx.dest_qpn = fwd_cfg.reply_qpn != 0 ? fwd_cfg.reply_qpn : src_qpn;
			a->tx.qkey = txp->tx_qkey;
			if (len >= IPOIB_HDR_LEN)
				ip_swap((uint16_t)(p[0] << 8 | p[1]), p + IPOIB_HDR_LEN,
					len - IPOIB_HDR_LEN);
		} else if (len >= RTE_ETHER_HDR_LEN) {
			struct rte_ether_hdr *eth = (struct rte_ether_hdr *)p;
			struct rte_ether_addr t = eth->src_addr;

			eth->src_addr = eth->dst_addr;
			eth->dst_addr = t;
			ip_swap(rte_be_to_cpu_16(eth->ether_type), p + RTE_ETHER_HDR_LEN,
				len - RTE_ETHER_HDR_LEN);
		}
		pkts[keep++] = m;
	}
	if (nd != 0) {
		fwd_count(&fs->no_ah, nd);
		rte_pktmbuf_free_bulk(drop, nd);
	}
	if (keep != 0)
		fwd_tx(fs, pkts, keep);
	return n;
}

const struct fwd_engine fwd_engine_addrswap = {
	.name = "addrswap",
	.prepare = addrswap_prepare,
	.run = addrswap_run,
};
