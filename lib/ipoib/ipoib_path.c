/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Paths of an interface: one SA PathRecord query at a time per (DGID,
 * P_Key) (Linux path_rec_start()), an address handle per path from the
 * answer's DLID, SL and rate; failed queries retried with a backoff of
 * 1 to 16 s, and no more than IPOIB_SA_QPS queries a second towards the
 * SA; after SM change, LID change or client reregister the paths are
 * queried again and keep their old handle until the new answer comes
 * (Linux "refresh paths instead of flushing them"). Answers reach the
 * tick through the inbox; an answer that does not fit the query is
 * refused and counted (ipoib_ctrl_path_pick()).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_tailq.h>

#include <rte_ib_mbuf.h>
#include <rte_ibmad_ctrl.h>
#include <rte_ibmad_sa.h>

#include "ipoib_ctrl_check.h"
#include "ipoib_if_priv.h"
#include "ipoib_private.h"

bool
ipoib_bucket_take(struct ipoib_bucket *b, uint64_t now_ms)
{
	uint64_t add;

	if (now_ms > b->last_ms) {
		add = (now_ms - b->last_ms) * b->rate / 1000;
		if (add != 0) {
			b->tokens = (uint32_t)RTE_MIN((uint64_t)b->rate, b->tokens + add);
			b->last_ms = now_ms;
		}
	}
	if (b->tokens == 0)
		return false;
	b->tokens--;
	return true;
}

static void
bucket_init(struct ipoib_bucket *b, uint32_t rate)
{
	b->rate = rate;
	b->tokens = rate;
	b->last_ms = rte_ibmad_ctrl_now_ms();
}

int
ipoib_paths_init(struct rte_ipoib_if *ifp)
{
	struct ipoib_pathctl *pc = &ifp->pc;

	TAILQ_INIT(&pc->paths);
	pc->next_token = 1;
	bucket_init(&pc->sa, IPOIB_SA_QPS);
	bucket_init(&pc->learn, IPOIB_LEARN_PER_S);
	bucket_init(&pc->ctrl, IPOIB_CTRL_PKTS_PER_S);
	return 0;
}

static void
pathent_free(struct rte_ipoib_if *ifp, struct ipoib_pathent *pe)
{
	if (pe->token != 0)
		rte_ibmad_sa_cancel(pe->query_id);
	rte_pktmbuf_free_bulk(pe->ctrl_pend, pe->nb_ctrl_pend);
	TAILQ_REMOVE(&ifp->pc.paths, pe, next);
	ifp->pc.nb_paths--;
	free(pe);
}

void
ipoib_paths_fini(struct rte_ipoib_if *ifp)
{
	struct ipoib_pathent *pe;

	if (ifp->pc.paths.tqh_last == NULL)
		return;
	while ((pe = TAILQ_FIRST(&ifp->pc.paths)) != NULL)
		pathent_free(ifp, pe);
}

static struct ipoib_pathent *
path_find(struct rte_ipoib_if *ifp, const struct rte_ib_gid *dgid)
{
	struct ipoib_pathent *pe;

	TAILQ_FOREACH(pe, &ifp->pc.paths, next)
		if (memcmp(pe->dgid.raw, dgid->raw, sizeof(dgid->raw)) == 0)
			return pe;
	return NULL;
}

static void
path_cb(int status, const void *recs, unsigned int nb, void *arg)
{
	struct ipoib_sa_query_arg *a = arg;
	struct rte_ipoib_if *ifp = ipoib_if_by_id_lock(a->if_id);
	struct ipoib_inbox_item *it;

	if (ifp != NULL) {
		it = calloc(1, sizeof(*it));
		if (it != NULL) {
			it->kind = IPOIB_INBOX_PATH;
			it->id = a->token;
			it->status = status;
			it->nb_recs = (uint8_t)RTE_MIN(nb, RTE_DIM(it->rec.path));
			if (status == 0 && recs != NULL)
				memcpy(it->rec.path, recs, it->nb_recs * sizeof(it->rec.path[0]));
			else
				it->nb_recs = 0;
			ipoib_if_inbox_put(ifp, it);
		}
		ipoib_if_registry_unlock();
	}
	free(a);
}

static void
path_backoff(struct ipoib_pathent *pe, uint64_t now_ms)
{
	pe->backoff_ms = pe->backoff_ms == 0 ? IPOIB_PATH_BACKOFF_MIN_MS :
		RTE_MIN(pe->backoff_ms * 2, (uint32_t)IPOIB_PATH_BACKOFF_MAX_MS);
	pe->retry_at_ms = now_ms + pe->backoff_ms;
	pe->failures++;
}

/* Send the path's query, if the SA's budget allows it this second. */
static void
path_query(struct rte_ipoib_if *ifp, struct ipoib_pathent *pe, uint64_t now_ms)
{
	struct rte_ib_sa_path_rec rec;
	struct ipoib_sa_query_arg *a;
	uint64_t mask;

	if (!ipoib_bucket_take(&ifp->pc.sa, now_ms))
		return;
	a = malloc(sizeof(*a));
	if (a == NULL)
		return;
	memset(&rec, 0, sizeof(rec));
	rec.dgid = pe->dgid;
	rec.sgid = ifp->hwaddr_gid;
	rec.pkey = ifp->pkey;
	rec.numb_path = 1;
	rec.reversible = 1;
	mask = RTE_IB_SA_PATH_REC_DGID | RTE_IB_SA_PATH_REC_SGID |
		RTE_IB_SA_PATH_REC_NUMB_PATH | RTE_IB_SA_PATH_REC_PKEY |
		RTE_IB_SA_PATH_REC_REVERSIBLE;
	a->if_id = ifp->id;
	a->token = ifp->pc.next_token++;
	if (rte_ibmad_sa_path_rec_get(ifp->dev, ifp->ib_port, &rec, mask, NULL, path_cb, a,
				      &pe->query_id) != 0) {
		IPOIB_LOG(DEBUG, "%s: PathRecord query: %s", ifp->name, rte_strerror(rte_errno));
		free(a);
		ifp->st.path_errors++;
		path_backoff(pe, now_ms);
		return;
	}
	pe->token = a->token;
	ifp->st.path_queries++;
}

struct ipoib_pathent *
ipoib_path_get(struct rte_ipoib_if *ifp, const struct rte_ib_gid *dgid)
{
	struct ipoib_pathent *pe = path_find(ifp, dgid);
	struct rte_ipoib_path *path;

	if (pe != NULL)
		return pe;
	path = rte_ipoib_path_add(ifp->tbl, dgid, ifp->pkey);
	if (path == NULL && rte_errno == EEXIST)
		path = rte_ipoib_path_lookup(ifp->tbl, dgid, ifp->pkey);
	if (path == NULL)
		return NULL;
	pe = calloc(1, sizeof(*pe));
	if (pe == NULL) {
		rte_ipoib_path_del(ifp->tbl, path);
		return NULL;
	}
	pe->dgid = *dgid;
	pe->pkey = ifp->pkey;
	pe->path = path;
	TAILQ_INSERT_TAIL(&ifp->pc.paths, pe, next);
	ifp->pc.nb_paths++;
	path_query(ifp, pe, rte_ibmad_ctrl_now_ms());
	return pe;
}

static void
ctrl_pend_flush(struct rte_ipoib_if *ifp, struct ipoib_pathent *pe)
{
	unsigned int i;

	for (i = 0; i < pe->nb_ctrl_pend; i++) {
		rte_ib_mbuf_addr(pe->ctrl_pend[i])->tx.ah = pe->ah;
		ipoib_if_ctrl_xmit(ifp, pe->ctrl_pend[i]);
	}
	pe->nb_ctrl_pend = 0;
}

/* The packets queued while unresolved, now with the handle: to tx queue 0. */
static void
path_drain(struct rte_ipoib_if *ifp, struct ipoib_pathent *pe, bool drop)
{
	struct rte_mbuf *m[8];
	unsigned int n, i;

	while ((n = rte_ipoib_path_drain(ifp->tbl, pe->path, m, RTE_DIM(m))) != 0) {
		if (drop) {
			ifp->pc.path_drops += n;
			rte_pktmbuf_free_bulk(m, n);
			continue;
		}
		for (i = 0; i < n; i++)
			ipoib_if_ctrl_xmit(ifp, m[i]);
	}
}

static void
path_failed(struct rte_ipoib_if *ifp, struct ipoib_pathent *pe, uint64_t now_ms)
{
	ifp->st.path_errors++;
	path_backoff(pe, now_ms);
	if (pe->resolved)
		return;   /* a refresh: the old handle stays */
	/* Linux frees the queued packets of a path whose query failed. */
	path_drain(ifp, pe, true);
	ifp->pc.path_drops += pe->nb_ctrl_pend;
	rte_pktmbuf_free_bulk(pe->ctrl_pend, pe->nb_ctrl_pend);
	pe->nb_ctrl_pend = 0;
}

void
ipoib_paths_answer(struct rte_ipoib_if *ifp, const struct ipoib_inbox_item *it)
{
	uint64_t now = rte_ibmad_ctrl_now_ms();
	const struct rte_ib_sa_path_rec *r;
	struct ipoib_pathent *pe;
	struct rte_ib_ah_attr aa;
	struct rte_ib_ah *ah;
	const char *why;
	int idx;

	TAILQ_FOREACH(pe, &ifp->pc.paths, next)
		if (pe->token == it->id)
			break;
	if (pe == NULL)
		return;
	pe->token = 0;
	if (it->status != 0) {
		IPOIB_LOG(DEBUG, "%s: PathRecord: %s", ifp->name, rte_ibmad_sa_strerror(it->status));
		path_failed(ifp, pe, now);
		return;
	}
	idx = ipoib_ctrl_path_pick(it->rec.path, it->nb_recs, &pe->dgid, ifp->pkey, &why);
	if (idx < 0) {
		ifp->pc.path_refused++;
		IPOIB_LOG(WARNING, "%s: PathRecord answer refused: %s", ifp->name, why);
		path_failed(ifp, pe, now);
		return;
	}
	r = &it->rec.path[idx];
	memset(&aa, 0, sizeof(aa));
	aa.dlid = r->dlid;
	aa.sl = r->sl;
	aa.static_rate = r->rate;
	aa.port_num = ifp->ib_port;
	ah = rte_ib_ah_create(ifp->dev, &aa);
	if (ah == NULL) {
		path_failed(ifp, pe, now);
		return;
	}
	/* The handle replaced, if any, goes to ipoib_if_ah_release() after the readers. */
	rte_ipoib_path_set_ah(ifp->tbl, pe->path, ah, r->dlid);
	if (pe->refresh || pe->resolved)
		ifp->st.path_refreshes++;
	pe->ah = ah;
	pe->resolved = true;
	pe->refresh = false;
	pe->dlid = r->dlid;
	pe->sl = r->sl;
	pe->rate = r->rate;
	pe->mtu = r->mtu;
	pe->backoff_ms = 0;
	pe->failures = 0;
	pe->resolved_ms = now;
	path_drain(ifp, pe, false);
	ctrl_pend_flush(ifp, pe);
}

void
ipoib_path_ctrl_send(struct rte_ipoib_if *ifp, struct ipoib_pathent *pe, struct rte_mbuf *m,
		     uint32_t dqpn)
{
	struct rte_ib_mbuf_addr *a = rte_ib_mbuf_addr(m);

	a->tx.dest_qpn = dqpn;
	a->tx.qkey = ifp->qkey;
	a->tx.ah = pe->ah;
	if (pe->resolved) {
		ipoib_if_ctrl_xmit(ifp, m);
	} else if (pe->nb_ctrl_pend < IPOIB_PATH_CTRL_PEND) {
		pe->ctrl_pend[pe->nb_ctrl_pend++] = m;
	} else {
		ifp->st.ctrl_drops++;
		rte_pktmbuf_free(m);
	}
}

void
ipoib_paths_port_event(struct rte_ipoib_if *ifp, enum rte_ib_event_type type)
{
	struct ipoib_pathent *pe;

	IPOIB_LOG(INFO, "%s: %s: refreshing %u paths", ifp->name, rte_ib_event_name(type),
		  ifp->pc.nb_paths);
	TAILQ_FOREACH(pe, &ifp->pc.paths, next) {
		if (pe->resolved)
			pe->refresh = true;
		pe->retry_at_ms = 0;
		pe->backoff_ms = 0;
	}
}

void
ipoib_paths_gc(struct rte_ipoib_if *ifp)
{
	struct ipoib_pathent *pe, *t;

	RTE_TAILQ_FOREACH_SAFE(pe, &ifp->pc.paths, next, t)
		if (rte_ipoib_path_del(ifp->tbl, pe->path) == 0)
			pathent_free(ifp, pe);
}

void
ipoib_paths_tick(struct rte_ipoib_if *ifp, uint64_t now_ms)
{
	struct ipoib_pathent *pe;

	TAILQ_FOREACH(pe, &ifp->pc.paths, next) {
		if (pe->token == 0 && (!pe->resolved || pe->refresh) && now_ms >= pe->retry_at_ms)
			path_query(ifp, pe, now_ms);
		/* A packet queued as the handle was published: right behind it. */
		else if (pe->resolved && now_ms - pe->resolved_ms < 1000)
			path_drain(ifp, pe, false);
	}
	if (now_ms >= ifp->next_age_ms) {
		ifp->next_age_ms = now_ms + 1000;
		ipoib_neigh_age(ifp, now_ms);
		ipoib_paths_gc(ifp);
	}
}
