/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Neighbours of an interface: what the data lcores report on the event
 * ring (new sources, destinations without a neighbour, IGMP/MLD seen on
 * transmit), ageing (Linux __ipoib_reap_neigh(): unused for
 * RTE_IPOIB_NEIGH_TIMEOUT_MS), and the L3 view's ARP and ND: requests
 * for the interface's addresses answered, replies and solicitations
 * learned, next hops resolved. The work a flood could cause (new
 * neighbours, ARP/ND handled, requests sent) is bounded per second by
 * token buckets; what exceeds them is dropped and counted (ctrl_drops).
 */

#include <errno.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>

#include <rte_ib_mbuf.h>
#include <rte_ibmad_ctrl.h>

#include "ipoib_ctrl_check.h"
#include "ipoib_if_priv.h"
#include "ipoib_private.h"

/* A neighbour for @p hw (and its path), made if new within the budget. */
static struct rte_ipoib_neigh *
learn(struct rte_ipoib_if *ifp, const struct rte_ipoib_hwaddr *hw, const uint8_t *ip)
{
	struct rte_ipoib_neigh *n;
	struct ipoib_pathent *pe;
	struct rte_ib_gid gid;

	if (rte_ipoib_hwaddr_is_mcast(hw) || rte_ipoib_hwaddr_equal(hw, &ifp->hwaddr))
		return NULL;
	n = rte_ipoib_neigh_lookup(ifp->tbl, hw);
	if (n == NULL) {
		if (!ipoib_bucket_take(&ifp->pc.learn, rte_ibmad_ctrl_now_ms())) {
			ifp->st.ctrl_drops++;
			return NULL;
		}
		rte_ipoib_hwaddr_gid(hw, &gid);
		pe = ipoib_path_get(ifp, &gid);
		if (pe == NULL) {
			ifp->st.ctrl_drops++;
			return NULL;
		}
		n = rte_ipoib_neigh_add(ifp->tbl, hw, pe->path);
		if (n == NULL) {
			/* EEXIST: another address with the same MAC (rte_ipoib_mac_from_hwaddr()). */
			IPOIB_LOG(DEBUG, "%s: neighbour: %s", ifp->name, rte_strerror(rte_errno));
			ifp->st.ctrl_drops++;
			return NULL;
		}
		ifp->st.neigh_added++;
	}
	if (ip != NULL)
		rte_ipoib_neigh_bind_ip(ifp->tbl, n, ip);
	return n;
}

static bool
is_local(const struct rte_ipoib_if *ifp, const uint8_t ip[16])
{
	unsigned int i;

	for (i = 0; i < ifp->nb_addrs; i++)
		if (memcmp(ifp->addrs[i], ip, 16) == 0)
			return true;
	return false;
}

static const uint8_t *
local_of_family(const struct rte_ipoib_if *ifp, bool v4)
{
	unsigned int i;

	for (i = 0; i < ifp->nb_addrs; i++)
		if (ipoib_ip_is_v4(ifp->addrs[i]) == v4)
			return ifp->addrs[i];
	return NULL;
}

/* A control packet: the IPoIB header of @p type and @p len bytes. */
static struct rte_mbuf *
ctrl_mbuf(struct rte_ipoib_if *ifp, uint16_t type, const void *data, size_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(ifp->conf.mp);
	uint8_t *p;

	if (m == NULL)
		return NULL;
	p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)(RTE_IPOIB_ENCAP_LEN + len));
	if (p == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	p[0] = type >> 8;
	p[1] = type & 0xff;
	p[2] = 0;
	p[3] = 0;
	memcpy(p + RTE_IPOIB_ENCAP_LEN, data, len);
	return m;
}

/* Send to a joined group (broadcast, solicited-node, all-nodes). */
static void
send_group(struct rte_ipoib_if *ifp, const struct rte_ib_gid *mgid, struct rte_mbuf *m)
{
	struct ipoib_mcgroup *g = ipoib_mcast_find(ifp, mgid);
	struct rte_ipoib_hwaddr hw;
	struct rte_ib_mbuf_addr *a;

	if (g == NULL || g->ah == NULL) {
		/* Not joined: join send-only; this packet is lost, its sender retries. */
		rte_ipoib_mcast_hwaddr(mgid, &hw);
		ipoib_mcast_sendonly(ifp, &hw);
		ifp->st.ctrl_drops++;
		rte_pktmbuf_free(m);
		return;
	}
	a = rte_ib_mbuf_addr(m);
	a->tx.ah = g->ah;
	a->tx.dest_qpn = RTE_IPOIB_QPN_MCAST;
	a->tx.qkey = ifp->qkey;
	ipoib_if_ctrl_xmit(ifp, m);
}

/* Send to a unicast peer through its path (held until it resolves). */
static void
send_unicast(struct rte_ipoib_if *ifp, const struct rte_ipoib_hwaddr *hw, struct rte_mbuf *m)
{
	struct ipoib_pathent *pe;
	struct rte_ib_gid gid;

	rte_ipoib_hwaddr_gid(hw, &gid);
	pe = ipoib_path_get(ifp, &gid);
	if (pe == NULL) {
		ifp->st.ctrl_drops++;
		rte_pktmbuf_free(m);
		return;
	}
	ipoib_path_ctrl_send(ifp, pe, m, rte_ipoib_hwaddr_qpn(hw));
}

static int
ip6_group_mgid(const struct rte_ipoib_if *ifp, const uint8_t g[16], struct rte_ib_gid *mgid)
{
	return rte_ipoib_ipv6_mc_mgid(g, ifp->pkey, ifp->conf.scope, mgid);
}

/* The L3 view's next hop @p ip has no neighbour: ARP request or NS. */
static void
resolve_ip(struct rte_ipoib_if *ifp, const uint8_t ip[16])
{
	static const uint8_t zero[16];
	uint64_t now = rte_ibmad_ctrl_now_ms();
	struct rte_ipoib_arp arp;
	struct rte_ib_gid mgid;
	uint8_t buf[88], g[16];
	const uint8_t *src;
	struct rte_mbuf *m;
	rte_be32_t spa, tpa;
	unsigned int i, slot = 0;
	bool v4 = ipoib_ip_is_v4(ip);

	if (memcmp(ip, zero, 16) == 0 || ip[0] == 0xff || is_local(ifp, ip))
		return;
	/* One request a second per address: the data path reports every packet. */
	for (i = 0; i < IPOIB_RECENT; i++) {
		if (memcmp(ifp->recent[i].ip, ip, 16) == 0) {
			if (now - ifp->recent[i].at_ms < 1000)
				return;
			slot = i;
			break;
		}
		if (ifp->recent[i].at_ms < ifp->recent[slot].at_ms)
			slot = i;
	}
	if (!ipoib_bucket_take(&ifp->pc.ctrl, now)) {
		ifp->st.ctrl_drops++;
		return;
	}
	memcpy(ifp->recent[slot].ip, ip, 16);
	ifp->recent[slot].at_ms = now;
	src = local_of_family(ifp, v4);
	if (src == NULL) {
		ifp->st.ctrl_drops++;
		return;
	}
	if (v4) {
		memcpy(&spa, src + 12, 4);
		memcpy(&tpa, ip + 12, 4);
		rte_ipoib_arp_build(&arp, 1, &ifp->hwaddr, spa, NULL, tpa);
		m = ctrl_mbuf(ifp, RTE_ETHER_TYPE_ARP, &arp, sizeof(arp));
		if (m != NULL) {
			rte_ipoib_hwaddr_gid(&ifp->bcast, &mgid);
			send_group(ifp, &mgid, m);
		}
		return;
	}
	ipoib_solicited_node(ip, g);
	if (rte_ipoib_nd_build(buf, sizeof(buf), 135, src, g, ip, &ifp->hwaddr) < 0 ||
	    ip6_group_mgid(ifp, g, &mgid) != 0)
		return;
	m = ctrl_mbuf(ifp, RTE_ETHER_TYPE_IPV6, buf, sizeof(buf));
	if (m != NULL)
		send_group(ifp, &mgid, m);
}

void
ipoib_neigh_resolve(struct rte_ipoib_if *ifp, const uint8_t ip[16])
{
	resolve_ip(ifp, ip);
}

void
ipoib_neigh_event(struct rte_ipoib_if *ifp, const struct rte_ipoib_event *ev)
{
	switch (ev->type) {
	case RTE_IPOIB_EV_SRC_NEW:
		if (!ev->is_ip)
			learn(ifp, &ev->hw, NULL);
		break;
	case RTE_IPOIB_EV_DST_MISS:
		if (ev->is_ip) {
			if (ifp->conf.mode == RTE_IPOIB_MODE_L3)
				resolve_ip(ifp, ev->ip);
		} else if (rte_ipoib_hwaddr_is_mcast(&ev->hw) &&
			   !rte_ipoib_hwaddr_equal(&ev->hw, &ifp->bcast)) {
			ipoib_mcast_sendonly(ifp, &ev->hw);
		}
		break;
	case RTE_IPOIB_EV_MC_REPORT:
	case RTE_IPOIB_EV_MC_LEAVE:
		if (ev->is_ip)
			ipoib_mcast_report(ifp, ev->ip, ev->type == RTE_IPOIB_EV_MC_REPORT);
		break;
	default:
		/* SRC_UNKNOWN: nothing to learn from (SLID, QPN) alone. */
		break;
	}
}

static void
arp_input(struct rte_ipoib_if *ifp, const uint8_t *buf, size_t len)
{
	struct ipoib_ctrl_arp a;
	struct rte_ipoib_arp reply;
	struct rte_mbuf *m;
	rte_be32_t spa, tpa;
	const char *why;
	static const uint8_t v4_zero[16] = { [10] = 0xff, [11] = 0xff };

	if (ipoib_ctrl_arp_decode(buf, len, &a, &why) != 0) {
		IPOIB_LOG(DEBUG, "%s: ARP dropped: %s", ifp->name, why);
		ifp->st.ctrl_drops++;
		return;
	}
	if (rte_ipoib_hwaddr_equal(&a.sha, &ifp->hwaddr))
		return;
	if (memcmp(a.sip, v4_zero, 16) != 0)
		learn(ifp, &a.sha, a.sip);
	if (a.oper != 1 || !is_local(ifp, a.tip))
		return;
	memcpy(&spa, a.tip + 12, 4);
	memcpy(&tpa, a.sip + 12, 4);
	rte_ipoib_arp_build(&reply, 2, &ifp->hwaddr, spa, &a.sha, tpa);
	m = ctrl_mbuf(ifp, RTE_ETHER_TYPE_ARP, &reply, sizeof(reply));
	if (m == NULL)
		return;
	send_unicast(ifp, &a.sha, m);
	ifp->st.arp_answered++;
}

static void
nd_input(struct rte_ipoib_if *ifp, const uint8_t *buf, size_t len)
{
	static const uint8_t all_nodes[16] = { 0xff, 0x02, [15] = 1 };
	struct ipoib_ctrl_nd nd;
	struct rte_ib_gid mgid;
	const uint8_t *dst;
	uint8_t out[88];
	struct rte_mbuf *m;
	const char *why;
	bool dad;

	if (ipoib_ctrl_nd_decode(buf, len, &nd, &why) != 0) {
		IPOIB_LOG(DEBUG, "%s: ND dropped: %s", ifp->name, why);
		ifp->st.ctrl_drops++;
		return;
	}
	if (nd.has_lla && rte_ipoib_hwaddr_equal(&nd.lla, &ifp->hwaddr))
		return;
	if (nd.type == 136) {
		if (nd.has_lla)
			learn(ifp, &nd.lla, nd.target);
		return;
	}
	dad = nd.src[0] == 0 && memcmp(nd.src, nd.src + 1, 15) == 0 && nd.src[15] == 0;
	if (nd.has_lla && !dad)
		learn(ifp, &nd.lla, nd.src);
	if (!is_local(ifp, nd.target))
		return;
	/* RFC 4861 7.2.4: to the source, or all-nodes for a DAD probe. */
	dst = dad ? all_nodes : nd.src;
	if (rte_ipoib_nd_build(out, sizeof(out), 136, nd.target, dst, nd.target,
			       &ifp->hwaddr) < 0)
		return;
	m = ctrl_mbuf(ifp, RTE_ETHER_TYPE_IPV6, out, sizeof(out));
	if (m == NULL)
		return;
	if (!dad && nd.has_lla) {
		send_unicast(ifp, &nd.lla, m);
	} else if (ip6_group_mgid(ifp, all_nodes, &mgid) == 0) {
		send_group(ifp, &mgid, m);
	} else {
		rte_pktmbuf_free(m);
		return;
	}
	ifp->st.nd_answered++;
}

void
ipoib_neigh_ctrl_pkt(struct rte_ipoib_if *ifp, struct rte_mbuf *m)
{
	uint8_t buf[256];
	const uint8_t *p;
	size_t len = RTE_MIN((size_t)m->pkt_len, sizeof(buf));

	if (ifp->conf.mode != RTE_IPOIB_MODE_L3 ||
	    !ipoib_bucket_take(&ifp->pc.ctrl, rte_ibmad_ctrl_now_ms())) {
		ifp->st.ctrl_drops++;
		goto out;
	}
	p = rte_pktmbuf_read(m, 0, len, buf);
	if (p == NULL) {
		ifp->st.ctrl_drops++;
		goto out;
	}
	if ((m->packet_type & RTE_PTYPE_L2_MASK) == RTE_PTYPE_L2_ETHER_ARP)
		arp_input(ifp, p, len);
	else
		nd_input(ifp, p, len);
out:
	rte_pktmbuf_free(m);
}

struct age_ctx {
	struct rte_ipoib_if *ifp;
	uint64_t now;
	uint64_t limit;
	bool all;
};

static int
age_one(struct rte_ipoib_neigh *n, void *arg)
{
	struct age_ctx *c = arg;

	if (rte_ipoib_hwaddr_is_mcast(rte_ipoib_neigh_hwaddr(n)))
		return 0;
	if (c->all || c->now - rte_ipoib_neigh_last_used(n) > c->limit) {
		rte_ipoib_neigh_del(c->ifp->tbl, n);
		if (!c->all)
			c->ifp->st.neigh_aged++;
	}
	return 0;
}

void
ipoib_neigh_age(struct rte_ipoib_if *ifp, uint64_t now_ms)
{
	struct age_ctx c = {
		.ifp = ifp,
		.now = rte_rdtsc(),
		.limit = rte_get_tsc_hz() / 1000 * RTE_IPOIB_NEIGH_TIMEOUT_MS,
	};

	RTE_SET_USED(now_ms);
	rte_ipoib_neigh_walk(ifp->tbl, age_one, &c);
}

void
ipoib_neigh_flush(struct rte_ipoib_if *ifp)
{
	struct age_ctx c = { .ifp = ifp, .all = true };

	rte_ipoib_neigh_walk(ifp->tbl, age_one, &c);
	ipoib_paths_gc(ifp);
}
