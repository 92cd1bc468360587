/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Packets held for their neighbour: what the transmit bursts found no
 * neighbour for (an Ethernet view's MAC the control side has not learned
 * yet, a group not joined yet, an L3 view's next hop being resolved) come
 * on the interface's held ring (struct rte_ipoib_held). The tick sorts
 * them by destination, a few per destination (IPOIB_HOLD_UCAST, issue
 * 26 and the seed's limit of three per unresolved path; IPOIB_HOLD_MCAST
 * per group, as Linux ipoib_mcast_send() queues on a group while it
 * joins), and sends them once the neighbour is in the table, through a
 * context of its own (no event ring, no held ring) and tx queue 0's
 * control ring. What exceeds the bounds, waits longer than
 * IPOIB_HOLD_MS or waits for a group whose join failed is dropped and
 * counted (held_drops).
 */

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_ring.h>
#include <rte_tailq.h>

#include <rte_ibmad_ctrl.h>

#include "ipoib_dp.h"
#include "ipoib_if_priv.h"

struct ipoib_hold {
	TAILQ_ENTRY(ipoib_hold) next;
	/* read as a struct rte_ipoib_hwaddr (RTE_IPOIB_HELD_HW): its alignment */
	uint8_t key[20] __rte_aligned(alignof(struct rte_ipoib_hwaddr));
	uint8_t kind;                     /* enum rte_ipoib_held_kind */
	uint8_t nb;
	uint64_t since_ms;                /* the first packet came */
	struct rte_mbuf *m[IPOIB_HOLD_MCAST];
};

static bool
hold_is_group(const struct ipoib_hold *h)
{
	return h->kind == RTE_IPOIB_HELD_HW &&
		rte_ipoib_hwaddr_is_mcast((const struct rte_ipoib_hwaddr *)h->key);
}

static void
hold_free(struct rte_ipoib_if *ifp, struct ipoib_hold *h, bool drop)
{
	if (drop && h->nb != 0) {
		ifp->st.held_drops += h->nb;
		rte_pktmbuf_free_bulk(h->m, h->nb);
	}
	TAILQ_REMOVE(&ifp->holds, h, next);
	ifp->nb_holds--;
	free(h);
}

static struct ipoib_hold *
hold_get(struct rte_ipoib_if *ifp, const struct rte_ipoib_held *e, uint64_t now_ms)
{
	struct ipoib_hold *h;

	TAILQ_FOREACH(h, &ifp->holds, next)
		if (h->kind == e->kind && memcmp(h->key, e->key, sizeof(h->key)) == 0)
			return h;
	if (ifp->nb_holds >= IPOIB_HOLD_DESTS)
		return NULL;
	h = calloc(1, sizeof(*h));
	if (h == NULL)
		return NULL;
	h->kind = e->kind;
	memcpy(h->key, e->key, sizeof(h->key));
	h->since_ms = now_ms;
	TAILQ_INSERT_TAIL(&ifp->holds, h, next);
	ifp->nb_holds++;
	return h;
}

/* The held ring into the holds, a bounded number per destination. */
static void
hold_drain(struct rte_ipoib_if *ifp, uint64_t now_ms)
{
	struct rte_ipoib_held e[32];
	unsigned int n, i, done = 0;

	while (done < IPOIB_HELD_RING) {
		n = rte_ring_sc_dequeue_burst_elem(ifp->held, e, sizeof(e[0]), RTE_DIM(e), NULL);
		if (n == 0)
			break;
		done += n;
		for (i = 0; i < n; i++) {
			struct ipoib_hold *h = hold_get(ifp, &e[i], now_ms);

			if (h == NULL || h->nb >= (hold_is_group(h) ? IPOIB_HOLD_MCAST :
						   IPOIB_HOLD_UCAST)) {
				ifp->st.held_drops++;
				rte_pktmbuf_free(e[i].m);
				continue;
			}
			h->m[h->nb++] = e[i].m;
		}
	}
}

/* The neighbour the packets of @p h wait for, or NULL. */
static struct rte_ipoib_neigh *
hold_neigh(struct rte_ipoib_if *ifp, const struct ipoib_hold *h)
{
	switch (h->kind) {
	case RTE_IPOIB_HELD_MAC:
		return ipoib_neigh_by_mac(ifp->tbl, h->key);
	case RTE_IPOIB_HELD_HW:
		return ipoib_neigh_by_hw(ifp->tbl, (const struct rte_ipoib_hwaddr *)h->key);
	case RTE_IPOIB_HELD_IP:
		return rte_ipoib_neigh_lookup_ip(ifp->tbl, h->key);
	default:
		return NULL;
	}
}

/* A group whose join failed (or that could not be made): nothing to wait for. */
static bool
hold_group_failed(struct rte_ipoib_if *ifp, const struct ipoib_hold *h, uint64_t now_ms)
{
	const struct ipoib_mcgroup *g;
	struct rte_ib_gid mgid;

	rte_ipoib_hwaddr_gid((const struct rte_ipoib_hwaddr *)h->key, &mgid);
	g = ipoib_mcast_find(ifp, &mgid);
	if (g == NULL)
		/* The DST_MISS event makes it, unless refused. */
		return now_ms - h->since_ms >= IPOIB_HOLD_NOGROUP_MS;
	return g->state == IPOIB_MC_IDLE && g->backoff_ms != 0;
}

/* The packets of @p h, their neighbour now known: encapsulated and sent. */
static void
hold_send(struct rte_ipoib_if *ifp, struct ipoib_hold *h)
{
	struct rte_ipoib_dp_stats before, after;
	uint16_t i, r;

	rte_ipoib_dp_stats_get(ifp->hold_dp, &before);
	r = rte_ipoib_encap_burst(ifp->hold_dp, h->m, h->nb);
	rte_ipoib_dp_stats_get(ifp->hold_dp, &after);
	for (i = 0; i < r; i++)
		ipoib_if_ctrl_xmit(ifp, h->m[i]);
	/* Queued on an unresolved path: sent when it resolves (ipoib_path.c). */
	ifp->st.held_sent += r + (after.queued - before.queued);
	ifp->st.held_drops += h->nb - r - (after.queued - before.queued);
	h->nb = 0;
}

void
ipoib_hold_tick(struct rte_ipoib_if *ifp, uint64_t now_ms)
{
	struct ipoib_hold *h, *t;

	hold_drain(ifp, now_ms);
	RTE_TAILQ_FOREACH_SAFE(h, &ifp->holds, next, t) {
		if (ifp->hold_dp != NULL && hold_neigh(ifp, h) != NULL) {
			hold_send(ifp, h);
			hold_free(ifp, h, false);
		} else if (now_ms - h->since_ms >= IPOIB_HOLD_MS ||
			   (hold_is_group(h) && hold_group_failed(ifp, h, now_ms))) {
			hold_free(ifp, h, true);
		}
	}
}

void
ipoib_hold_dp_set(struct rte_ipoib_if *ifp, const struct rte_ipoib_dp_conf *c)
{
	struct rte_ipoib_dp_conf hc;

	/* Used under the control lock only: no readers to wait for. */
	rte_ipoib_dp_free(ifp->hold_dp);
	ifp->hold_dp = NULL;
	if (c == NULL)
		return;
	hc = *c;
	hc.events = NULL;
	hc.held = NULL;
	ifp->hold_dp = rte_ipoib_dp_create(&hc);
	if (ifp->hold_dp == NULL)
		IPOIB_LOG(ERR, "%s: held packets' context: %s", ifp->name,
			  rte_strerror(rte_errno));
}

void
ipoib_hold_flush(struct rte_ipoib_if *ifp)
{
	struct rte_ipoib_held e;
	struct ipoib_hold *h;

	if (ifp->held != NULL)
		while (rte_ring_sc_dequeue_elem(ifp->held, &e, sizeof(e)) == 0) {
			ifp->st.held_drops++;
			rte_pktmbuf_free(e.m);
		}
	while ((h = TAILQ_FIRST(&ifp->holds)) != NULL)
		hold_free(ifp, h, true);
}
