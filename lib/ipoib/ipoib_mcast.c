/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * An interface's multicast groups: the broadcast group (joined first, as
 * a full member; its MCMemberRecord gives the link's Q_Key, MTU, SL and
 * rate, RFC 4391 5), the IP groups the host listens to (full member),
 * the groups it only sends to (send-only). Joins go through the join
 * manager (rte_ibmad_mcast.h), which also re-joins after port events and
 * calls back with the new record; the callbacks reach the tick through
 * the inbox. A joined group is a neighbour of the table whose path has
 * an address handle to the MLID with a GRH to the MGID, and the receive
 * QP is attached to it (full members).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_tailq.h>

#include <rte_ibmad_ctrl.h>
#include <rte_ibmad_mcast.h>
#include <rte_ibmad_sa.h>

#include "ipoib_if_priv.h"
#include "ipoib_private.h"

/* Groups an interface holds at most (send-only ones are refused beyond). */
#define IPOIB_MAX_GROUPS 256

/*
 * ClassPortInfo CapabilityMask2 bit 12 (IBA 15.2.5.1 and the
 * SendOnlyFullMember errata; Linux IB_SA_CAP_MASK2_SENDONLY_FULL_MEM_SUPPORT,
 * read by ib_sa_sendonly_fullmem_support()).
 */
#define IPOIB_SA_CAP2_SENDONLY_FULL (1u << 12)
/* A ClassPortInfo query that could not be sent is tried again after this. */
#define IPOIB_CPI_RETRY_MS 1000

static const uint8_t all_hosts[16] = { [10] = 0xff, [11] = 0xff, [12] = 224, [15] = 1 };
static const uint8_t all_nodes[16] = { 0xff, 0x02, [15] = 1 };

/* The MGID of an IP group on this interface (RFC 4391 4). */
static int
group_mgid(const struct rte_ipoib_if *ifp, const uint8_t ip[16], struct rte_ib_gid *mgid)
{
	rte_be32_t g;

	if (ipoib_ip_is_v4(ip)) {
		if ((ip[12] & 0xf0) != 0xe0)
			return -EINVAL;
		memcpy(&g, ip + 12, 4);
		return rte_ipoib_ipv4_mc_mgid(g, ifp->pkey, ifp->conf.scope, mgid) == 0 ?
			0 : -EINVAL;
	}
	if (ip[0] != 0xff)
		return -EINVAL;
	return rte_ipoib_ipv6_mc_mgid(ip, ifp->pkey, ifp->conf.scope, mgid) == 0 ? 0 : -EINVAL;
}

struct ipoib_mcgroup *
ipoib_mcast_find(struct rte_ipoib_if *ifp, const struct rte_ib_gid *mgid)
{
	struct ipoib_mcgroup *g;

	TAILQ_FOREACH(g, &ifp->groups, next)
		if (memcmp(g->mgid.raw, mgid->raw, sizeof(mgid->raw)) == 0)
			return g;
	return NULL;
}

static struct ipoib_mcgroup *
group_find_ip(struct rte_ipoib_if *ifp, const uint8_t ip[16])
{
	struct ipoib_mcgroup *g;

	TAILQ_FOREACH(g, &ifp->groups, next)
		if (!g->bcast && memcmp(g->ip, ip, 16) == 0)
			return g;
	return NULL;
}

static unsigned int
group_count(const struct rte_ipoib_if *ifp)
{
	const struct ipoib_mcgroup *g;
	unsigned int n = 0;

	TAILQ_FOREACH(g, &ifp->groups, next)
		n++;
	return n;
}

static struct ipoib_mcgroup *
group_new(struct rte_ipoib_if *ifp, const struct rte_ib_gid *mgid, const uint8_t *ip)
{
	struct ipoib_mcgroup *g = calloc(1, sizeof(*g));

	if (g == NULL)
		return NULL;
	g->mgid = *mgid;
	if (ip != NULL)
		memcpy(g->ip, ip, 16);
	g->state = IPOIB_MC_IDLE;
	TAILQ_INSERT_TAIL(&ifp->groups, g, next);
	return g;
}

/* Leave, detach, and take the group out of the table; the object stays. */
static void
group_reset(struct rte_ipoib_if *ifp, struct ipoib_mcgroup *g)
{
	if (g->member)
		rte_ibmad_mcast_leave(g->member_id);
	g->member = false;
	if (g->attached)
		rte_ib_mcast_detach(ifp->dev, &g->mgid, g->mlid, rte_ipoib_hwaddr_qpn(&ifp->hwaddr));
	g->attached = false;
	if (g->neigh != NULL)
		rte_ipoib_neigh_del(ifp->tbl, g->neigh);
	g->neigh = NULL;
	if (g->path != NULL)
		rte_ipoib_path_del(ifp->tbl, g->path);
	g->path = NULL;
	g->ah = NULL;
	g->state = IPOIB_MC_IDLE;
	g->sendonly = false;
	g->backoff_ms = 0;
	g->retry_at_ms = 0;
}

static void
group_free(struct rte_ipoib_if *ifp, struct ipoib_mcgroup *g)
{
	group_reset(ifp, g);
	TAILQ_REMOVE(&ifp->groups, g, next);
	free(g);
}

/* The join manager's callback: to the tick, by the interface's id. */
static void
mcast_cb(uint64_t member_id, int status, const struct rte_ib_sa_mcmember_rec *rec, void *arg)
{
	struct rte_ipoib_if *ifp = ipoib_if_by_id_lock((uintptr_t)arg);
	struct ipoib_inbox_item *it;

	if (ifp == NULL)
		return;
	it = calloc(1, sizeof(*it));
	if (it != NULL) {
		it->kind = IPOIB_INBOX_MCAST;
		it->id = member_id;
		it->status = status;
		if (rec != NULL) {
			it->has_rec = true;
			it->rec.mc = *rec;
		}
		ipoib_if_inbox_put(ifp, it);
	}
	ipoib_if_registry_unlock();
}

/* The SA client's callback (MAD core's lock held): to the tick. */
static void
cpi_cb(int status, const void *recs, unsigned int nb_recs, void *arg)
{
	struct ipoib_sa_query_arg *c = arg;
	struct rte_ipoib_if *ifp = ipoib_if_by_id_lock(c->if_id);
	struct ipoib_inbox_item *it;

	if (ifp != NULL) {
		it = calloc(1, sizeof(*it));
		if (it != NULL) {
			it->kind = IPOIB_INBOX_CPI;
			it->id = c->token;
			it->status = status != 0 ? status : nb_recs == 0 ? -ENODATA : 0;
			if (it->status == 0)
				it->cap_mask2 = ((const struct rte_ib_class_port_info *)recs)->
					capability_mask2;
			ipoib_if_inbox_put(ifp, it);
		}
		ipoib_if_registry_unlock();
	}
	free(c);
}

void
ipoib_mcast_cpi_query(struct rte_ipoib_if *ifp)
{
	struct rte_ib_class_port_info cpi;
	struct ipoib_sa_query_arg *c;

	ifp->cpi = IPOIB_CPI_NONE;
	ifp->cpi_retry_ms = rte_ibmad_ctrl_now_ms() + IPOIB_CPI_RETRY_MS;
	if (!ifp->port_active)
		return;
	c = malloc(sizeof(*c));
	if (c == NULL)
		return;
	c->if_id = ifp->id;
	c->token = ++ifp->cpi_token;
	memset(&cpi, 0, sizeof(cpi));
	/* Get(ClassPortInfo), IBA 15.2.5.1 (Linux ib_sa_classport_info_rec_query()). */
	if (rte_ibmad_sa_query(ifp->dev, ifp->ib_port, RTE_IB_METHOD_GET,
			       RTE_IB_ATTR_CLASS_PORT_INFO, 0, &cpi, NULL, cpi_cb, c, NULL) != 0) {
		IPOIB_LOG(DEBUG, "%s: ClassPortInfo query: %s", ifp->name,
			  rte_strerror(rte_errno));
		free(c);
		return;
	}
	ifp->cpi = IPOIB_CPI_QUERYING;
}

void
ipoib_mcast_cpi_answer(struct rte_ipoib_if *ifp, const struct ipoib_inbox_item *it)
{
	if (ifp->cpi != IPOIB_CPI_QUERYING || it->id != ifp->cpi_token)
		return;   /* an answer to a query asked again since */
	if (it->status != 0) {
		/* Linux: ClassPortInfo not valid, send-only non-member. */
		IPOIB_LOG(INFO, "%s: SA ClassPortInfo: %s: send-only joins as non-member",
			  ifp->name, rte_ibmad_sa_strerror(it->status));
		ifp->cpi = IPOIB_CPI_FAILED;
		ifp->sendonly_full = false;
		return;
	}
	ifp->cpi = IPOIB_CPI_KNOWN;
	ifp->sendonly_full = (it->cap_mask2 & IPOIB_SA_CAP2_SENDONLY_FULL) != 0;
	IPOIB_LOG(INFO, "%s: SA ClassPortInfo CapabilityMask2 0x%07x: send-only joins as %s",
		  ifp->name, it->cap_mask2,
		  ifp->sendonly_full ? "SendOnlyFullMember" : "SendOnlyNonMember");
}

static void
group_backoff(struct ipoib_mcgroup *g, uint64_t now_ms)
{
	g->backoff_ms = g->backoff_ms == 0 ? RTE_IBMAD_MCAST_BACKOFF_MIN_MS :
		RTE_MIN(g->backoff_ms * 2, (uint32_t)RTE_IBMAD_MCAST_BACKOFF_MAX_MS);
	g->retry_at_ms = now_ms + g->backoff_ms;
}

/*
 * Join @p g: the broadcast group with its P_Key only (the SM made it);
 * another group as full member or send-only, created with the broadcast
 * group's parameters (RFC 4391 4, Linux ipoib_mcast_join()).
 */
static void
group_join(struct rte_ipoib_if *ifp, struct ipoib_mcgroup *g, uint64_t now_ms)
{
	const struct rte_ib_sa_mcmember_rec *b = &ifp->bcast_rec;
	struct rte_ib_sa_mcmember_rec rec;
	uint64_t mask = RTE_IB_SA_MCMEMBER_REC_PKEY;

	memset(&rec, 0, sizeof(rec));
	rec.mgid = g->mgid;
	rec.pkey = ifp->pkey;
	/*
	 * A send-only member joins as SendOnlyFullMember when the SA says
	 * it may (it then creates the group nobody joined fully yet; a
	 * SendOnlyNonMember join of such a group is refused), as Linux
	 * ipoib_mcast_join() does; it waits for the SA's answer.
	 */
	if (g->bcast || g->refs > 0) {
		rec.join_state = RTE_IB_SA_MC_JOIN_FULL_MEMBER;
	} else if (ifp->cpi == IPOIB_CPI_QUERYING) {
		return;
	} else {
		rec.join_state = ifp->cpi == IPOIB_CPI_KNOWN && ifp->sendonly_full ?
			RTE_IB_SA_MC_JOIN_SEND_ONLY_FULL_MEMBER :
			RTE_IB_SA_MC_JOIN_SEND_ONLY_NON_MEMBER;
	}
	if (!g->bcast) {
		mask |= RTE_IB_SA_MCMEMBER_REC_QKEY | RTE_IB_SA_MCMEMBER_REC_MTU_SELECTOR |
			RTE_IB_SA_MCMEMBER_REC_MTU | RTE_IB_SA_MCMEMBER_REC_TRAFFIC_CLASS |
			RTE_IB_SA_MCMEMBER_REC_RATE_SELECTOR | RTE_IB_SA_MCMEMBER_REC_RATE |
			RTE_IB_SA_MCMEMBER_REC_SL | RTE_IB_SA_MCMEMBER_REC_FLOW_LABEL |
			RTE_IB_SA_MCMEMBER_REC_HOP_LIMIT;
		rec.qkey = b->qkey;
		rec.mtu_selector = 2;   /* exactly (IBA 15.2.5.17) */
		rec.mtu = b->mtu;
		rec.traffic_class = b->traffic_class;
		rec.rate_selector = 2;
		rec.rate = b->rate;
		rec.sl = b->sl;
		rec.flow_label = b->flow_label;
		rec.hop_limit = b->hop_limit;
	}
	if (rte_ibmad_mcast_join(ifp->dev, ifp->ib_port, &rec, mask, mcast_cb,
				 (void *)(uintptr_t)ifp->id, &g->member_id) != 0) {
		IPOIB_LOG(DEBUG, "%s: join: %s", ifp->name, rte_strerror(rte_errno));
		ifp->st.mcast_errors++;
		group_backoff(g, now_ms);
		return;
	}
	g->member = true;
	g->join_state = rec.join_state;
	g->state = IPOIB_MC_JOINING;
}

/* The broadcast group's record is the link's: Q_Key, MTU (RFC 4391 5). */
static void
bcast_apply(struct rte_ipoib_if *ifp, const struct rte_ib_sa_mcmember_rec *rec)
{
	uint32_t ud_mtu = rte_ipoib_ud_mtu(rte_ib_mtu_to_bytes(rec->mtu));
	uint32_t mtu = ifp->conf.mtu != 0 ? RTE_MIN(ifp->conf.mtu, ud_mtu) : ud_mtu;
	bool changed = !ifp->bcast_joined || rec->qkey != ifp->qkey || mtu != ifp->mtu;

	if (rec->qkey != ifp->qkey && rte_ib_ud_qkey_set(ifp->lower_port_id, rec->qkey) != 0)
		IPOIB_LOG(ERR, "%s: qkey=0x%08x on ethdev %u: %s", ifp->name, rec->qkey,
			  ifp->lower_port_id, rte_strerror(rte_errno));
	ifp->qkey = rec->qkey;
	ifp->ud_mtu = ud_mtu;
	ifp->mtu = mtu;
	ifp->bcast_rec = *rec;
	ifp->bcast_joined = true;
	if (changed) {
		IPOIB_LOG(INFO, "%s: broadcast group joined: mlid 0x%04x qkey 0x%08x mtu %u sl %u rate %u",
			  ifp->name, rec->mlid, rec->qkey, ud_mtu, rec->sl, rec->rate);
		ipoib_if_dp_rebuild(ifp);
	}
	ipoib_if_link_eval(ifp);
}

/* A joined group's address handle, table entries and attachment. */
static int
group_apply(struct rte_ipoib_if *ifp, struct ipoib_mcgroup *g,
	    const struct rte_ib_sa_mcmember_rec *rec)
{
	uint32_t qpn = rte_ipoib_hwaddr_qpn(&ifp->hwaddr);
	struct rte_ipoib_hwaddr hw;
	struct rte_ib_ah_attr aa;
	struct rte_ib_ah *ah;

	if (memcmp(rec->mgid.raw, g->mgid.raw, sizeof(g->mgid.raw)) != 0 ||
	    rec->mlid < 0xc000 || rec->mlid == 0xffff) {
		IPOIB_LOG(WARNING, "%s: join answer for another group or mlid 0x%04x refused",
			  ifp->name, rec->mlid);
		return -EPROTO;
	}
	if (g->attached && g->mlid != rec->mlid) {
		rte_ib_mcast_detach(ifp->dev, &g->mgid, g->mlid, qpn);
		g->attached = false;
	}
	/* Send-only members receive nothing: only full members attach. */
	if (!g->attached && g->join_state == RTE_IB_SA_MC_JOIN_FULL_MEMBER) {
		if (rte_ib_mcast_attach(ifp->dev, &g->mgid, rec->mlid, qpn) != 0) {
			IPOIB_LOG(ERR, "%s: attach of qpn 0x%06x to mlid 0x%04x: %s", ifp->name, qpn,
				  rec->mlid, rte_strerror(rte_errno));
			return -rte_errno;
		}
		g->attached = true;
	}
	g->mlid = rec->mlid;
	memset(&aa, 0, sizeof(aa));
	aa.dlid = rec->mlid;
	aa.sl = rec->sl;
	aa.static_rate = rec->rate;
	aa.port_num = ifp->ib_port;
	aa.ah_flags = RTE_IB_AH_GRH;
	aa.grh.dgid = rec->mgid;
	aa.grh.flow_label = rec->flow_label;
	aa.grh.hop_limit = rec->hop_limit;
	aa.grh.traffic_class = rec->traffic_class;
	ah = rte_ib_ah_create(ifp->dev, &aa);
	if (ah == NULL)
		return -rte_errno;
	if (g->path == NULL) {
		g->path = rte_ipoib_path_add(ifp->tbl, &g->mgid, ifp->pkey);
		if (g->path == NULL && rte_errno == EEXIST)
			g->path = rte_ipoib_path_lookup(ifp->tbl, &g->mgid, ifp->pkey);
		if (g->path == NULL) {
			rte_ib_ah_destroy(ah);
			return -rte_errno;
		}
	}
	/* The handle it replaces goes to ipoib_if_ah_release() after the readers. */
	rte_ipoib_path_set_ah(ifp->tbl, g->path, ah, 0);
	g->ah = ah;
	if (g->neigh == NULL) {
		rte_ipoib_mcast_hwaddr(&g->mgid, &hw);
		g->neigh = rte_ipoib_neigh_add(ifp->tbl, &hw, g->path);
		if (g->neigh == NULL)
			return -rte_errno;
	}
	g->rec = *rec;
	return 0;
}

void
ipoib_mcast_answer(struct rte_ipoib_if *ifp, const struct ipoib_inbox_item *it)
{
	uint64_t now = rte_ibmad_ctrl_now_ms();
	struct ipoib_mcgroup *g;
	int rc;

	TAILQ_FOREACH(g, &ifp->groups, next)
		if (g->member && g->member_id == it->id)
			break;
	if (g == NULL)
		return;
	if (it->status != 0 || !it->has_rec) {
		ifp->st.mcast_errors++;
		IPOIB_LOG(DEBUG, "%s: join of group %02x%02x...%02x%02x: status %d", ifp->name,
			  g->mgid.raw[0], g->mgid.raw[1], g->mgid.raw[14], g->mgid.raw[15],
			  it->status);
		/* A first join that failed leaves no membership (rte_ibmad_mcast_cb). */
		if (g->state == IPOIB_MC_JOINING) {
			rte_ibmad_mcast_leave(g->member_id);
			g->member = false;
			g->state = IPOIB_MC_IDLE;
			group_backoff(g, now);
		}
		return;
	}
	rc = group_apply(ifp, g, &it->rec.mc);
	if (rc != 0) {
		ifp->st.mcast_errors++;
		group_reset(ifp, g);
		group_backoff(g, now);
		return;
	}
	if (g->state != IPOIB_MC_JOINED) {
		ifp->st.mcast_joins++;
		g->joined_ms = now;
	}
	g->state = IPOIB_MC_JOINED;
	g->backoff_ms = 0;
	g->sendonly = g->join_state != RTE_IB_SA_MC_JOIN_FULL_MEMBER;
	if (g->bcast)
		bcast_apply(ifp, &it->rec.mc);
}

static uint64_t
neigh_idle_ms(const struct rte_ipoib_neigh *n)
{
	uint64_t now = rte_rdtsc(), t = rte_ipoib_neigh_last_used(n);

	return now > t ? (now - t) * 1000 / rte_get_tsc_hz() : 0;
}

void
ipoib_mcast_tick(struct rte_ipoib_if *ifp, uint64_t now_ms)
{
	struct ipoib_mcgroup *g, *t;

	if (ifp->cpi == IPOIB_CPI_NONE && ifp->port_active && now_ms >= ifp->cpi_retry_ms)
		ipoib_mcast_cpi_query(ifp);
	RTE_TAILQ_FOREACH_SAFE(g, &ifp->groups, next, t) {
		/*
		 * Unused: a full group no listener holds any more; a send-only
		 * group whose join failed or that nobody sent to for 60 s
		 * (Linux leaves send-only groups with their neighbour).
		 */
		if (!g->bcast && g->refs == 0 &&
		    (!g->sendonly || (g->state == IPOIB_MC_IDLE && g->backoff_ms != 0) ||
		     (g->neigh != NULL &&
		      neigh_idle_ms(g->neigh) >= RTE_IPOIB_NEIGH_TIMEOUT_MS))) {
			group_free(ifp, g);
			continue;
		}
		/* A send-only member that became a listener joins again, fully. */
		if (g->state == IPOIB_MC_JOINED && g->refs > 0 &&
		    g->join_state != RTE_IB_SA_MC_JOIN_FULL_MEMBER) {
			rte_ibmad_mcast_leave(g->member_id);
			g->member = false;
			g->state = IPOIB_MC_IDLE;
			g->retry_at_ms = 0;
		}
		if (g->state != IPOIB_MC_IDLE || now_ms < g->retry_at_ms ||
		    ifp->pkey_index == UINT16_MAX || !ifp->port_active)
			continue;
		/* Linux joins the other groups once the broadcast group is joined. */
		if (g->bcast || ifp->bcast_joined)
			group_join(ifp, g, now_ms);
	}
}

int
ipoib_mcast_ref(struct rte_ipoib_if *ifp, const uint8_t ip[16], bool api)
{
	struct rte_ib_gid mgid;
	struct ipoib_mcgroup *g;

	if (group_mgid(ifp, ip, &mgid) != 0) {
		IPOIB_LOG(ERR, "%s: %02x%02x..%02x%02x: not an IP multicast group", ifp->name,
			  ip[0], ip[1], ip[14], ip[15]);
		return -EINVAL;
	}
	g = ipoib_mcast_find(ifp, &mgid);
	if (g == NULL) {
		g = group_new(ifp, &mgid, ip);
		if (g == NULL)
			return -ENOMEM;
	}
	memcpy(g->ip, ip, 16);
	g->refs++;
	if (api)
		g->api_refs++;
	rte_ibmad_ctrl_timer_arm(ifp->timer, rte_ibmad_ctrl_now_ms());
	return 0;
}

int
ipoib_mcast_unref(struct rte_ipoib_if *ifp, const uint8_t ip[16], bool api)
{
	struct rte_ib_gid mgid;
	struct ipoib_mcgroup *g;

	if (group_mgid(ifp, ip, &mgid) != 0)
		return -ENOENT;
	g = ipoib_mcast_find(ifp, &mgid);
	if (g == NULL || g->bcast || g->refs == 0 || (api && g->api_refs == 0))
		return -ENOENT;
	g->refs--;
	if (api)
		g->api_refs--;
	return 0;
}

void
ipoib_mcast_report(struct rte_ipoib_if *ifp, const uint8_t ip[16], bool join)
{
	struct rte_ib_gid mgid;
	struct ipoib_mcgroup *g;

	if (group_mgid(ifp, ip, &mgid) != 0)
		return;
	g = ipoib_mcast_find(ifp, &mgid);
	/* Reports repeat (RFC 3810 9.1 robustness): one reference for all. */
	if (join) {
		if (g != NULL && g->reported)
			return;
		if (ipoib_mcast_ref(ifp, ip, false) == 0) {
			g = ipoib_mcast_find(ifp, &mgid);
			if (g != NULL)
				g->reported = true;
		}
	} else if (g != NULL && g->reported) {
		g->reported = false;
		ipoib_mcast_unref(ifp, ip, false);
	}
}

/* A default group, referenced once for the interface's life. */
static void
dflt_ref(struct rte_ipoib_if *ifp, const uint8_t ip[16])
{
	struct ipoib_mcgroup *g = group_find_ip(ifp, ip);

	if (g != NULL && g->dflt)
		return;
	if (ipoib_mcast_ref(ifp, ip, false) == 0) {
		g = group_find_ip(ifp, ip);
		if (g != NULL)
			g->dflt = true;
	}
}

void
ipoib_mcast_sendonly(struct rte_ipoib_if *ifp, const struct rte_ipoib_hwaddr *hw)
{
	struct rte_ib_gid mgid;
	struct ipoib_mcgroup *g;
	uint16_t sig, pkey;

	rte_ipoib_hwaddr_gid(hw, &mgid);
	/* Only IPoIB groups of our P_Key (RFC 4391 4): signature, P_Key. */
	sig = (uint16_t)(mgid.raw[2] << 8 | mgid.raw[3]);
	pkey = (uint16_t)(mgid.raw[4] << 8 | mgid.raw[5]);
	if (mgid.raw[0] != 0xff || pkey != ifp->pkey ||
	    (sig != RTE_IPOIB_MGID_SIG_IPV4 && sig != RTE_IPOIB_MGID_SIG_IPV6)) {
		ifp->st.ctrl_drops++;
		return;
	}
	if (ipoib_mcast_find(ifp, &mgid) != NULL)
		return;
	if (group_count(ifp) >= IPOIB_MAX_GROUPS) {
		ifp->st.ctrl_drops++;
		return;
	}
	g = group_new(ifp, &mgid, NULL);
	if (g == NULL)
		return;
	/* No IP: the MGID's low bits are only part of it (RFC 4391 4). */
	g->ip[0] = 0xfe;
	memcpy(g->ip + 1, mgid.raw + 1, 15);
	g->sendonly = true;
	if (ifp->bcast_joined && ifp->port_active)
		group_join(ifp, g, rte_ibmad_ctrl_now_ms());
}

int
ipoib_mcast_init(struct rte_ipoib_if *ifp)
{
	TAILQ_INIT(&ifp->groups);
	return 0;
}

void
ipoib_mcast_fini(struct rte_ipoib_if *ifp)
{
	struct ipoib_mcgroup *g;

	while ((g = TAILQ_FIRST(&ifp->groups)) != NULL)
		group_free(ifp, g);
}

int
ipoib_mcast_start(struct rte_ipoib_if *ifp)
{
	struct ipoib_mcgroup *g, *b = NULL;
	struct rte_ib_gid mgid;

	TAILQ_FOREACH(g, &ifp->groups, next)
		if (g->bcast)
			b = g;
	if (rte_ipoib_bcast_mgid(ifp->pkey, ifp->conf.scope, &mgid) != 0)
		return -EINVAL;
	if (b == NULL) {
		b = group_new(ifp, &mgid, NULL);
		if (b == NULL)
			return -ENOMEM;
		b->bcast = true;
		b->refs = 1;
		/* First, so that the tick joins it before the others. */
		TAILQ_REMOVE(&ifp->groups, b, next);
		TAILQ_INSERT_HEAD(&ifp->groups, b, next);
	}
	b->mgid = mgid;
	/* After a P_Key change the groups' MGIDs carry the new P_Key. */
	TAILQ_FOREACH(g, &ifp->groups, next)
		if (!g->bcast && g->refs > 0)
			group_mgid(ifp, g->ip, &g->mgid);
	dflt_ref(ifp, all_hosts);
	dflt_ref(ifp, all_nodes);
	/* Asked once per SM, before any send-only join (ipoib_if.c asks again). */
	if (ifp->cpi != IPOIB_CPI_KNOWN && ifp->cpi != IPOIB_CPI_QUERYING)
		ipoib_mcast_cpi_query(ifp);
	/* The first join of the port from here (not a MAD core pass). */
	if (ifp->pkey_index != UINT16_MAX && ifp->port_active && b->state == IPOIB_MC_IDLE)
		group_join(ifp, b, rte_ibmad_ctrl_now_ms());
	return 0;
}

void
ipoib_mcast_stop(struct rte_ipoib_if *ifp)
{
	struct ipoib_mcgroup *g, *t;

	RTE_TAILQ_FOREACH_SAFE(g, &ifp->groups, next, t) {
		if (g->refs == 0 && !g->bcast)
			group_free(ifp, g);
		else
			group_reset(ifp, g);
	}
	ifp->bcast_joined = false;
}
