/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * rte_ipoib_if_walk.h: snapshots of an interface's neighbours, paths and
 * groups for applications and the telemetry endpoints
 * (ipoib_telemetry.c), each taken under the interface's lock; and
 * rte_ipoib_if_resolve(), the L3 view's resolution asked for ahead of
 * the data path.
 */

#include <string.h>

#include <rte_cycles.h>

#include "rte_ipoib_if_walk.h"
#include "ipoib_if_priv.h"
#include "ipoib_private.h"

struct neigh_walk {
	int (*fn)(const struct rte_ipoib_neigh_info *n, void *arg);
	void *arg;
	uint64_t now;
	uint64_t tsc_per_ms;
};

static int
neigh_one(struct rte_ipoib_neigh *n, void *arg)
{
	struct neigh_walk *w = arg;
	struct rte_ipoib_neigh_info ni;
	uint64_t used = rte_ipoib_neigh_last_used(n);

	memset(&ni, 0, sizeof(ni));
	ni.hw = n->hw;
	while (ni.nb_ip < RTE_IPOIB_NEIGH_MAX_IP && n->ip[ni.nb_ip] != NULL) {
		memcpy(ni.ip[ni.nb_ip], n->ip[ni.nb_ip]->key, sizeof(ni.ip[0]));
		ni.nb_ip++;
	}
	ni.has_path = rte_ipoib_neigh_path(n) != NULL;
	ni.has_ah = __atomic_load_n(&n->ah, __ATOMIC_ACQUIRE) != NULL;
	ni.idle_ms = w->now > used ? (w->now - used) / w->tsc_per_ms : 0;
	return w->fn(&ni, w->arg);
}

int
rte_ipoib_if_neigh_walk(struct rte_ipoib_if *ifp,
			int (*fn)(const struct rte_ipoib_neigh_info *n, void *arg), void *arg)
{
	struct neigh_walk w = { .fn = fn, .arg = arg, .now = rte_rdtsc(),
				.tsc_per_ms = rte_get_tsc_hz() / 1000 + 1 };
	int rc;

	if (ifp == NULL || fn == NULL)
		return ipoib_err(EINVAL);
	ipoib_if_lock(ifp);
	rc = rte_ipoib_neigh_walk(ifp->tbl, neigh_one, &w);
	ipoib_if_unlock(ifp);
	return rc;
}

int
rte_ipoib_if_path_walk(struct rte_ipoib_if *ifp,
		       int (*fn)(const struct rte_ipoib_path_info *p, void *arg), void *arg)
{
	struct rte_ipoib_path_info pi;
	struct ipoib_pathent *pe;
	int rc = 0;

	if (ifp == NULL || fn == NULL)
		return ipoib_err(EINVAL);
	ipoib_if_lock(ifp);
	TAILQ_FOREACH(pe, &ifp->pc.paths, next) {
		memset(&pi, 0, sizeof(pi));
		pi.dgid = pe->dgid;
		pi.pkey = pe->pkey;
		pi.dlid = pe->dlid;
		pi.sl = pe->sl;
		pi.mtu = pe->mtu;
		pi.rate = pe->rate;
		/* a query in flight (token) on a resolved path is a refresh */
		if (pe->token != 0)
			pi.state = pe->resolved ? RTE_IPOIB_PATH_REFRESHING :
						  RTE_IPOIB_PATH_QUERYING;
		else
			pi.state = pe->resolved ? RTE_IPOIB_PATH_RESOLVED : RTE_IPOIB_PATH_FAILED;
		pi.queued = pe->nb_ctrl_pend;
		pi.failures = pe->failures;
		rc = fn(&pi, arg);
		if (rc != 0)
			break;
	}
	ipoib_if_unlock(ifp);
	return rc;
}

int
rte_ipoib_if_mcast_walk(struct rte_ipoib_if *ifp,
			int (*fn)(const struct rte_ipoib_mcast_info *g, void *arg), void *arg)
{
	static const enum rte_ipoib_mcast_state st[] = {
		[IPOIB_MC_IDLE] = RTE_IPOIB_MCAST_IDLE,
		[IPOIB_MC_JOINING] = RTE_IPOIB_MCAST_JOINING,
		[IPOIB_MC_JOINED] = RTE_IPOIB_MCAST_JOINED,
	};
	struct rte_ipoib_mcast_info gi;
	struct ipoib_mcgroup *gr;
	int rc = 0;

	if (ifp == NULL || fn == NULL)
		return ipoib_err(EINVAL);
	ipoib_if_lock(ifp);
	TAILQ_FOREACH(gr, &ifp->groups, next) {
		memset(&gi, 0, sizeof(gi));
		gi.mgid = gr->mgid;
		memcpy(gi.ip, gr->ip, sizeof(gi.ip));
		gi.bcast = gr->bcast;
		gi.sendonly = gr->sendonly;
		gi.state = st[gr->state];
		gi.join_state = gr->join_state;
		gi.mlid = gr->mlid;
		gi.refs = gr->refs;
		rc = fn(&gi, arg);
		if (rc != 0)
			break;
	}
	ipoib_if_unlock(ifp);
	return rc;
}

int
rte_ipoib_if_resolve(struct rte_ipoib_if *ifp, const uint8_t ip[16])
{
	static const uint8_t zero[16];
	struct rte_ipoib_neigh *n;
	int rc = 0;

	if (ifp == NULL || ip == NULL || ip[0] == 0xff || memcmp(ip, zero, 16) == 0 ||
	    (ipoib_ip_is_v4(ip) && ip[12] >= 224))
		return ipoib_err(EINVAL);
	if (ifp->conf.mode != RTE_IPOIB_MODE_L3)
		return ipoib_err(ENOTSUP);
	ipoib_if_lock(ifp);
	if (!ifp->link_up) {
		rc = ipoib_err(ENETDOWN);
		goto out;
	}
	n = rte_ipoib_neigh_lookup_ip(ifp->tbl, ip);
	if (n != NULL && __atomic_load_n(&n->ah, __ATOMIC_ACQUIRE) != NULL)
		rc = 1;
	else if (n == NULL)
		ipoib_neigh_resolve(ifp, ip);
	/* a neighbour without a resolved path: its PathRecord query is under way */
out:
	ipoib_if_unlock(ifp);
	return rc;
}
