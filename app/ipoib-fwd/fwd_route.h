/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The route engine's two halves: fwd_route.c forwards IP between an
 * Ethernet port and an L3 port; route_proxy.c answers, on the Ethernet
 * side, the ARP requests and Neighbour Solicitations for the addresses
 * the route reaches (proxy ARP, RFC 1027; proxy ND, RFC 4861 7.2.8).
 * Both run on the stream's worker lcore: no lock, no allocation.
 */

#ifndef _FWD_ROUTE_H_
#define _FWD_ROUTE_H_

#include <rte_ether.h>
#include <rte_mbuf.h>

#include "ipoib_fwd.h"

/* What to do with a frame received on the Ethernet side. */
enum route_verdict {
	ROUTE_DROP,		/* counted by reason: free it */
	ROUTE_TO_L3,		/* forward it to the L3 port */
	ROUTE_TO_ETH,		/* answered in place: send it back on the Ethernet port */
};

/*
 * @p m, an ARP frame received on the Ethernet side, becomes the proxy
 * reply from @p mac if it is a request we answer; else it is a drop
 * whose reason goes to *@p why.
 */
enum route_verdict route_arp(struct rte_mbuf *m, const struct rte_ether_addr *mac,
			     enum fwd_route_drop *why);

/*
 * @p m, an IPv6 frame received on the Ethernet side carrying ICMPv6 type
 * 135 (Neighbour Solicitation) at @p l4off, becomes the proxy Neighbour
 * Advertisement from @p mac if we answer it; else a drop, reason in *@p why.
 */
enum route_verdict route_ns(struct rte_mbuf *m, uint32_t l4off,
			    const struct rte_ether_addr *mac, enum fwd_route_drop *why);

/* fe80::/10 (RFC 4291 2.5.6): never forwarded. */
static inline bool
route_ip6_is_link_local(const uint8_t *a)
{
	return a[0] == 0xfe && (a[1] & 0xc0) == 0x80;
}

#endif /* _FWD_ROUTE_H_ */
