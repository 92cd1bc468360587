/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * net_ipoib ports seen through their lib/ipoib interface
 * (rte_ipoib_if_walk.h), on the main lcore: "show ipoib neigh|path|mcast",
 * the progress words of the link wait (broadcast join, paths), and the
 * resolution of --txonly-dest-ip before txonly starts.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>

#include <rte_cycles.h>

#include <rte_ipoib_if.h>
#include <rte_ipoib_if_walk.h>

#include "ipoib_fwd.h"

static const char *const path_state[] = {
	[RTE_IPOIB_PATH_QUERYING] = "querying",
	[RTE_IPOIB_PATH_RESOLVED] = "resolved",
	[RTE_IPOIB_PATH_REFRESHING] = "refreshing",
	[RTE_IPOIB_PATH_FAILED] = "failed",
};

static const char *const mcast_state[] = {
	[RTE_IPOIB_MCAST_IDLE] = "idle",
	[RTE_IPOIB_MCAST_JOINING] = "joining",
	[RTE_IPOIB_MCAST_JOINED] = "joined",
};

static void
gid_str(const struct rte_ib_gid *g, char *buf, size_t len)
{
	inet_ntop(AF_INET6, g->raw, buf, len);
}

static int
neigh_print(const struct rte_ipoib_neigh_info *n, void *arg)
{
	char hw[RTE_IPOIB_HWADDR_FMT_SIZE], ip[INET6_ADDRSTRLEN] = "-";
	unsigned int i = 0;

	rte_ipoib_hwaddr_format(&n->hw, hw, sizeof(hw));
	/* one line per bound address, as ip neigh; one with "-" when none */
	do {
		if (i < n->nb_ip)
			rte_ipoib_ip_format(n->ip[i], ip, sizeof(ip));
		printf("  %-39s %s %s idle_ms=%" PRIu64 "\n", ip, hw,
		       n->has_ah ? "resolved" : n->has_path ? "path_pending" : "no_path",
		       n->idle_ms);
	} while (++i < n->nb_ip);
	(*(unsigned int *)arg)++;
	return 0;
}

static int
path_print(const struct rte_ipoib_path_info *p, void *arg)
{
	char g[INET6_ADDRSTRLEN];

	gid_str(&p->dgid, g, sizeof(g));
	printf("  %-39s pkey=0x%04x dlid=%u sl=%u mtu=%u rate=%u %s queued=%u failures=%u\n",
	       g, p->pkey, p->dlid, p->sl, rte_ib_mtu_to_bytes(p->mtu), p->rate,
	       path_state[p->state], p->queued, p->failures);
	(*(unsigned int *)arg)++;
	return 0;
}

static int
mcast_print(const struct rte_ipoib_mcast_info *m, void *arg)
{
	char g[INET6_ADDRSTRLEN], ip[INET6_ADDRSTRLEN];

	gid_str(&m->mgid, g, sizeof(g));
	if (m->bcast)
		snprintf(ip, sizeof(ip), "broadcast");
	else
		rte_ipoib_ip_format(m->ip, ip, sizeof(ip));
	printf("  %-39s %s mlid=0x%04x %s join_state=0x%x refs=%u%s\n", g, ip, m->mlid,
	       mcast_state[m->state], m->join_state, m->refs, m->sendonly ? " sendonly" : "");
	(*(unsigned int *)arg)++;
	return 0;
}

void
fwd_ipoib_show(uint16_t port_id, const char *what)
{
	struct fwd_port *fp = fwd_port_by_id(port_id);
	struct rte_ipoib_if_info ii;
	unsigned int n = 0;
	int rc;

	if (fp == NULL || fp->ipoib == NULL ||
	    rte_ipoib_if_info_get(fp->ipoib, &ii) != 0) {
		printf("Port %u: not a net_ipoib port\n", port_id);
		return;
	}
	if (strcmp(what, "neigh") == 0) {
		printf("Port %u (%s) neighbours: IP, IPoIB address, state\n", port_id, ii.name);
		rc = rte_ipoib_if_neigh_walk(fp->ipoib, neigh_print, &n);
	} else if (strcmp(what, "path") == 0) {
		printf("Port %u (%s) paths: DGID, PathRecord, state\n", port_id, ii.name);
		rc = rte_ipoib_if_path_walk(fp->ipoib, path_print, &n);
	} else {
		printf("Port %u (%s) multicast groups: MGID, group, MLID, state\n", port_id,
		       ii.name);
		rc = rte_ipoib_if_mcast_walk(fp->ipoib, mcast_print, &n);
	}
	if (rc < 0)
		printf("Port %u: %s: %s\n", port_id, what, rte_strerror(rte_errno));
	printf("Port %u: %u %s entries\n", port_id, n, what);
}

struct progress {
	int bcast;			/* enum rte_ipoib_mcast_state, -1: none yet */
	unsigned int paths, resolved;
};

static int
progress_group(const struct rte_ipoib_mcast_info *m, void *arg)
{
	struct progress *p = arg;

	if (m->bcast)
		p->bcast = m->state;
	return 0;
}

static int
progress_path(const struct rte_ipoib_path_info *pi, void *arg)
{
	struct progress *p = arg;

	p->paths++;
	p->resolved += pi->state == RTE_IPOIB_PATH_RESOLVED ||
		       pi->state == RTE_IPOIB_PATH_REFRESHING;
	return 0;
}

void
fwd_ipoib_progress(const struct fwd_port *fp, char *buf, size_t len)
{
	struct progress p = { .bcast = -1 };

	rte_ipoib_if_mcast_walk(fp->ipoib, progress_group, &p);
	rte_ipoib_if_path_walk(fp->ipoib, progress_path, &p);
	snprintf(buf, len, "IPoIB broadcast %s, %u/%u paths resolved",
		 p.bcast < 0 ? "not asked" : mcast_state[p.bcast], p.resolved, p.paths);
}

/* One port's resolution of --txonly-dest-ip: 0 resolved, or -errno. */
static int
resolve_one(struct fwd_port *fp)
{
	uint64_t hz = rte_get_timer_hz(), start = rte_get_timer_cycles(), next = start + hz;
	char ip[INET6_ADDRSTRLEN], word[128];
	struct rte_mbuf *pkts[32];
	uint16_t n;

	rte_ipoib_ip_format(fwd_cfg.dest_ip, ip, sizeof(ip));
	for (;;) {
		uint64_t now = rte_get_timer_cycles();
		int rc = rte_ipoib_if_resolve(fp->ipoib, fwd_cfg.dest_ip);

		if (rc == 1) {
			printf("Port %u: %s resolved after %.1f s\n", fp->port_id, ip,
			       (double)(now - start) / hz);
			return 0;
		}
		/* ENETDOWN: the link went down meanwhile, keep waiting */
		if (rc < 0 && rte_errno != ENETDOWN) {
			FWD_LOG(ERR, "--txonly-dest-ip=%s: port %u: %s", ip, fp->port_id,
				rte_strerror(rte_errno));
			return -rte_errno;
		}
		/*
		 * net_ipoib sends the interface's control packets (our ARP
		 * request or solicitation) from its rx burst, and takes the
		 * answer there: poll it, the workers are not running yet. What
		 * arrives meanwhile is not ours to count.
		 */
		n = rte_eth_rx_burst(fp->port_id, 0, pkts, RTE_DIM(pkts));
		if (n != 0)
			rte_pktmbuf_free_bulk(pkts, n);
		if (fwd_quit)
			return -EINTR;
		if (now - start >= fwd_cfg.link_timeout * hz) {
			FWD_LOG(ERR, "--txonly-dest-ip=%s: port %u: no answer after "
				"--link-timeout=%u s (is the address on the subnet?)", ip,
				fp->port_id, fwd_cfg.link_timeout);
			return -ETIMEDOUT;
		}
		if (now >= next) {
			fwd_ipoib_progress(fp, word, sizeof(word));
			printf("Resolving %s on port %u (%u s): %s\n", ip, fp->port_id,
			       (unsigned int)((now - start) / hz), word);
			next += hz;
		}
		rte_delay_ms(5);
	}
}

int
fwd_ipoib_resolve_dest(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < fwd_nb_ports; i++) {
		if (fwd_ports[i].ipoib == NULL)
			continue;
		ret = resolve_one(&fwd_ports[i]);
		if (ret != 0)
			return ret;
	}
	return 0;
}
