/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The multicast join manager (rte_ibmad_mcast.h), after the facts of
 * Linux core/multicast.c: members counted per port, MGID and JoinState
 * bit (adjust_membership()), one SA transaction per group at a time
 * (mcast_work_handler()), a join with the union of the bits when a
 * member brings a new one, a leave of exactly the bits whose last
 * member left (leave_handler()), later members answered from the
 * group's record after cmp_rec(), and every group joined again after the
 * port events of mcast_event_handler(); failed re-joins back off as
 * Linux IPoIB's joins do (1 s doubling to 16 s).
 *
 * Where the work runs: ibmad_mcast_run(), from each MAD core pass
 * (mad_core.c) with no MAD core lock held. The API and the event
 * handler only record what is wanted and wake the MAD core. The SA
 * client's callbacks (MAD core lock held) only store the answer in the
 * group; the next ibmad_mcast_run() (the same pass) acts on it.
 *
 * Locks: mc_lock protects every port, group and member. It is never held
 * while calling the SA client, lib/ib or a member's callback; the SA
 * client's callbacks take it with the MAD core's lock held (order: MAD
 * core lock, then mc_lock).
 *
 * Lifetimes: a member lives from rte_ibmad_mcast_join() to
 * rte_ibmad_mcast_leave(). A group lives while it has members, holds
 * JoinState bits at the SA, or has an SA transaction in flight (whose
 * callback argument it is). A port context lives as long as the library.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_tailq.h>

#include <rte_ib_records.h>
#include <rte_ib_types.h>

#include "ibmad_private.h"
#include "rte_ibmad_mcast.h"
#include "rte_ibmad_sa.h"

/* JoinState has 4 bits (IBA 15.2.5.17). */
#define MC_JOIN_BITS 4
#define MC_JOIN_MASK ((1u << MC_JOIN_BITS) - 1)
/* SA transactions started by one ibmad_mcast_run(); more wait a pass. */
#define MC_MAX_SENDS 32
/* Rounds of one ibmad_mcast_run() while callbacks ask for more work. */
#define MC_MAX_ROUNDS 4

/* Valid codes of an answer (IBA 15.2.5.16/17: MTU 1-5, 256 to 4096
 * bytes; rate 2-22, 2.5 to 600 Gb/s) and the multicast LID range
 * (IBA 4.1.1: 0xC000-0xFFFE; 0xFFFF is the permissive LID).
 */
#define MC_MTU_MIN 1
#define MC_MTU_MAX 5
#define MC_RATE_MIN 2
#define MC_RATE_MAX 22
#define MC_MLID_MIN 0xc000
#define MC_MLID_MAX 0xfffe

enum mc_member_state {
	MC_MEMBER_PENDING,      /* waits for its bits to be granted */
	MC_MEMBER_JOINED,       /* its bits are granted; it has the record */
	MC_MEMBER_FAILED,       /* its first join failed; holds nothing */
};

struct mc_group;

struct mc_member {
	TAILQ_ENTRY(mc_member) next;
	uint64_t id;
	struct mc_group *group;
	struct rte_ib_sa_mcmember_rec rec;   /* the template */
	uint64_t comp_mask;
	uint8_t join_state;
	enum mc_member_state state;
	bool notify;                         /* a callback is due */
	int notify_status;
	rte_ibmad_mcast_cb cb;
	void *arg;
};

struct mc_port;

struct mc_group {
	TAILQ_ENTRY(mc_group) next;
	struct mc_port *port;
	struct rte_ib_gid mgid;
	TAILQ_HEAD(, mc_member) members;
	/* Members holding each JoinState bit (PENDING or JOINED ones). */
	uint32_t count[MC_JOIN_BITS];
	uint8_t granted;                     /* bits the SA holds for us */
	struct rte_ib_gid port_gid;          /* PortGID of the last join */
	struct rte_ib_sa_mcmember_rec rec;   /* the SA's last answer */
	/* The SA transaction in flight. */
	bool busy;
	uint8_t sent_method;
	uint8_t sent_state;
	bool sent_rejoin;
	/* Its answer, stored by the SA callback for the next run. */
	bool answered;
	int answer_status;
	struct rte_ib_sa_mcmember_rec answer;
	/* An event asked for a re-join; not before retry_at (backoff). */
	bool rejoin;
	uint32_t backoff_ms;
	uint64_t retry_at;
};

struct mc_port {
	TAILQ_ENTRY(mc_port) next;
	struct rte_ib_device *dev;
	uint8_t port;
	TAILQ_HEAD(, mc_group) groups;
	struct rte_ibmad_mcast_stats stats;
};

/* An SA query decided under mc_lock, sent after it. */
struct mc_send {
	struct mc_group *group;
	struct rte_ib_device *dev;
	uint8_t port;
	uint8_t method;
	uint64_t comp_mask;
	struct rte_ib_sa_mcmember_rec rec;
};

static pthread_mutex_t mc_lock = PTHREAD_MUTEX_INITIALIZER;
static TAILQ_HEAD(, mc_port) mc_ports = TAILQ_HEAD_INITIALIZER(mc_ports);
static uint64_t mc_next_id = 1;
/* Something for ibmad_mcast_run() to do now; or at mc_due (a backoff). */
static bool mc_work;
static uint64_t mc_due = UINT64_MAX;

static struct mc_port *
mc_port_find_locked(const struct rte_ib_device *dev, uint8_t port)
{
	struct mc_port *p;

	TAILQ_FOREACH(p, &mc_ports, next)
		if (p->dev == dev && p->port == port)
			return p;
	return NULL;
}

/* Member @id, or with @id 0 the first member with a callback due. */
static struct mc_member *
mc_member_find_locked(uint64_t id)
{
	struct mc_member *m;
	struct mc_group *g;
	struct mc_port *p;

	TAILQ_FOREACH(p, &mc_ports, next)
		TAILQ_FOREACH(g, &p->groups, next)
			TAILQ_FOREACH(m, &g->members, next)
				if (id != 0 ? m->id == id : m->notify)
					return m;
	return NULL;
}

static void
mc_count(struct mc_group *g, uint8_t join_state, int delta)
{
	unsigned int i;

	for (i = 0; i < MC_JOIN_BITS; i++)
		if (join_state & (1u << i))
			g->count[i] += delta;
}

/* The union of the bits members hold (Linux's per-bit members[]). */
static uint8_t
mc_wanted(const struct mc_group *g)
{
	uint8_t want = 0;
	unsigned int i;

	for (i = 0; i < MC_JOIN_BITS; i++)
		if (g->count[i] != 0)
			want |= 1u << i;
	return want;
}

static void
mc_notify(struct mc_member *m, int status)
{
	m->notify = true;
	m->notify_status = status;
}

/*
 * A selector check of Linux ib_sa_check_selector(): the group's @have
 * against the member's @want under @selector, when the member asked for
 * both components.
 */
static bool
mc_selector_ok(uint64_t mask, uint64_t sel_bit, uint64_t val_bit,
	       uint8_t selector, uint8_t have, uint8_t want)
{
	if (!(mask & sel_bit) || !(mask & val_bit))
		return true;
	switch (selector) {
	case RTE_IB_SA_SELECTOR_GT:
		return have > want;
	case RTE_IB_SA_SELECTOR_LT:
		return have < want;
	case RTE_IB_SA_SELECTOR_EQ:
		return have == want;
	default:
		return true;
	}
}

/*
 * Does the group's record give member @m what it asked for (Linux
 * cmp_rec())? Components the member did not select are not compared.
 */
static bool
mc_rec_fits(const struct mc_member *m, const struct rte_ib_sa_mcmember_rec *g)
{
	const struct rte_ib_sa_mcmember_rec *w = &m->rec;
	uint64_t k = m->comp_mask;

	if ((k & RTE_IB_SA_MCMEMBER_REC_MLID) && g->mlid != w->mlid)
		return false;
	if ((k & RTE_IB_SA_MCMEMBER_REC_QKEY) && g->qkey != w->qkey)
		return false;
	if (!mc_selector_ok(k, RTE_IB_SA_MCMEMBER_REC_MTU_SELECTOR,
			    RTE_IB_SA_MCMEMBER_REC_MTU, w->mtu_selector,
			    g->mtu, w->mtu))
		return false;
	if ((k & RTE_IB_SA_MCMEMBER_REC_TRAFFIC_CLASS) &&
	    g->traffic_class != w->traffic_class)
		return false;
	if ((k & RTE_IB_SA_MCMEMBER_REC_PKEY) && g->pkey != w->pkey)
		return false;
	if (!mc_selector_ok(k, RTE_IB_SA_MCMEMBER_REC_RATE_SELECTOR,
			    RTE_IB_SA_MCMEMBER_REC_RATE, w->rate_selector,
			    g->rate, w->rate))
		return false;
	if (!mc_selector_ok(k, RTE_IB_SA_MCMEMBER_REC_PACKET_LIFE_TIME_SELECTOR,
			    RTE_IB_SA_MCMEMBER_REC_PACKET_LIFE_TIME,
			    w->packet_life_time_selector, g->packet_life_time,
			    w->packet_life_time))
		return false;
	if ((k & RTE_IB_SA_MCMEMBER_REC_SL) && g->sl != w->sl)
		return false;
	if ((k & RTE_IB_SA_MCMEMBER_REC_FLOW_LABEL) &&
	    g->flow_label != w->flow_label)
		return false;
	if ((k & RTE_IB_SA_MCMEMBER_REC_HOP_LIMIT) && g->hop_limit != w->hop_limit)
		return false;
	if ((k & RTE_IB_SA_MCMEMBER_REC_SCOPE) && g->scope != w->scope)
		return false;
	return true;
}

/*
 * Is @a an answer to the join of @g? The group the request named, and
 * codes that mean something; anything else is never handed to members.
 */
static bool
mc_answer_valid(const struct mc_group *g, const struct rte_ib_sa_mcmember_rec *a)
{
	const struct mc_port *p = g->port;

	if (!rte_ib_gid_equal(&a->mgid, &g->mgid)) {
		IBMAD_LOG(WARNING, "%s port %u: join answer for another MGID "
			  "(%016" PRIx64 ":%016" PRIx64 ")", p->dev->name, p->port,
			  rte_ib_gid_prefix(&a->mgid), rte_ib_gid_guid(&a->mgid));
		return false;
	}
	if (a->mtu < MC_MTU_MIN || a->mtu > MC_MTU_MAX ||
	    a->rate < MC_RATE_MIN || a->rate > MC_RATE_MAX ||
	    a->mlid < MC_MLID_MIN || a->mlid > MC_MLID_MAX) {
		IBMAD_LOG(WARNING, "%s port %u: join answer refused: MTU code %u, "
			  "rate code %u, MLID 0x%04x", p->dev->name, p->port,
			  a->mtu, a->rate, a->mlid);
		return false;
	}
	return true;
}

/* Pending members whose bits are granted: joined, or refused by cmp_rec. */
static void
mc_settle_pending(struct mc_group *g)
{
	struct mc_member *m;

	TAILQ_FOREACH(m, &g->members, next) {
		if (m->state != MC_MEMBER_PENDING || (m->join_state & ~g->granted))
			continue;
		if (mc_rec_fits(m, &g->rec)) {
			m->state = MC_MEMBER_JOINED;
			mc_notify(m, 0);
		} else {
			IBMAD_LOG(DEBUG, "member %" PRIu64 ": the group's record "
				  "differs from its request", m->id);
			m->state = MC_MEMBER_FAILED;
			mc_count(g, m->join_state, -1);
			mc_notify(m, -EINVAL);
		}
	}
}

/* Act on the SA's answer to @g's transaction. */
static void
mc_group_answer(struct mc_group *g, uint64_t now)
{
	struct mc_port *p = g->port;
	struct mc_member *m;
	int status = g->answer_status;

	g->busy = false;
	g->answered = false;
	if (g->sent_method == RTE_IB_SA_METHOD_DELETE) {
		/* Linux leave_handler(): the bits are gone whatever the SA said. */
		if (status != 0)
			IBMAD_LOG(DEBUG, "%s port %u: leave answered %s", p->dev->name,
				  p->port, rte_ibmad_sa_strerror(status));
		g->granted &= ~g->sent_state;
		return;
	}
	if (status == 0 && !mc_answer_valid(g, &g->answer)) {
		p->stats.bad_answers++;
		status = -EPROTO;
	}
	if (status == 0) {
		g->rec = g->answer;
		g->granted = g->sent_state;
		g->backoff_ms = RTE_IBMAD_MCAST_BACKOFF_MIN_MS;
		g->retry_at = 0;
		if (g->sent_rejoin)
			TAILQ_FOREACH(m, &g->members, next)
				if (m->state == MC_MEMBER_JOINED)
					mc_notify(m, 0);
		mc_settle_pending(g);
		return;
	}
	p->stats.sa_errors++;
	IBMAD_LOG(DEBUG, "%s port %u: %sjoin JoinState 0x%x: %s", p->dev->name,
		  p->port, g->sent_rejoin ? "re-" : "", g->sent_state,
		  rte_ibmad_sa_strerror(status));
	if (g->sent_rejoin) {
		/* Every member is told, and kept: retried after the backoff. */
		g->rejoin = true;
		g->retry_at = now + g->backoff_ms;
		g->backoff_ms = RTE_MIN(g->backoff_ms * 2,
					(uint32_t)RTE_IBMAD_MCAST_BACKOFF_MAX_MS);
		TAILQ_FOREACH(m, &g->members, next)
			if (m->state != MC_MEMBER_FAILED)
				mc_notify(m, status);
		return;
	}
	/* A first join: the members that needed it fail, no one else. */
	TAILQ_FOREACH(m, &g->members, next) {
		if (m->state != MC_MEMBER_PENDING || !(m->join_state & ~g->granted))
			continue;
		m->state = MC_MEMBER_FAILED;
		mc_count(g, m->join_state, -1);
		mc_notify(m, status);
	}
}

/* The template of a join of @g: the first member that needs one. */
static const struct mc_member *
mc_join_template(const struct mc_group *g, bool rejoin)
{
	const struct mc_member *m;

	TAILQ_FOREACH(m, &g->members, next) {
		if (m->state == MC_MEMBER_FAILED)
			continue;
		if (rejoin || (m->join_state & ~g->granted))
			return m;
	}
	return NULL;
}

static void
mc_send_join(struct mc_group *g, const struct mc_member *t, uint8_t want,
	     bool rejoin, struct mc_send *s)
{
	s->group = g;
	s->dev = g->port->dev;
	s->port = g->port->port;
	s->method = RTE_IB_METHOD_SET;
	s->rec = t->rec;
	s->rec.join_state = want;
	s->comp_mask = t->comp_mask | RTE_IB_SA_MCMEMBER_REC_MGID |
		RTE_IB_SA_MCMEMBER_REC_PORT_GID | RTE_IB_SA_MCMEMBER_REC_JOIN_STATE;
	g->port_gid = t->rec.port_gid;
	g->busy = true;
	g->sent_method = RTE_IB_METHOD_SET;
	g->sent_state = want;
	g->sent_rejoin = rejoin;
	g->port->stats.sa_joins++;
	if (rejoin) {
		g->rejoin = false;
		g->port->stats.rejoins++;
	}
}

/*
 * The next step of group @g, which has no transaction in flight: a
 * (re-)join, a leave, answers from the record, or nothing. true when
 * @s holds a query to send.
 */
static bool
mc_group_plan(struct mc_group *g, uint64_t now, struct mc_send *s)
{
	const struct mc_member *t;
	uint8_t want = mc_wanted(g), gone;

	if (g->rejoin && want != 0) {
		if (g->retry_at > now) {
			mc_due = RTE_MIN(mc_due, g->retry_at);
			return false;
		}
		t = mc_join_template(g, true);
		if (t == NULL)
			return false;
		g->granted = 0;
		mc_send_join(g, t, want, true, s);
		return true;
	}
	g->rejoin = false;
	if (want & ~g->granted) {
		t = mc_join_template(g, false);
		if (t != NULL) {
			mc_send_join(g, t, want, false, s);
			return true;
		}
	}
	mc_settle_pending(g);
	gone = g->granted & ~mc_wanted(g);
	if (gone != 0) {
		/* Linux send_leave(): MGID, PortGID and the bits that go. */
		s->group = g;
		s->dev = g->port->dev;
		s->port = g->port->port;
		s->method = RTE_IB_SA_METHOD_DELETE;
		memset(&s->rec, 0, sizeof(s->rec));
		s->rec.mgid = g->mgid;
		s->rec.port_gid = g->port_gid;
		s->rec.join_state = gone;
		s->comp_mask = RTE_IB_SA_MCMEMBER_REC_MGID |
			RTE_IB_SA_MCMEMBER_REC_PORT_GID |
			RTE_IB_SA_MCMEMBER_REC_JOIN_STATE;
		g->busy = true;
		g->sent_method = RTE_IB_SA_METHOD_DELETE;
		g->sent_state = gone;
		g->sent_rejoin = false;
		g->port->stats.sa_leaves++;
		return true;
	}
	return false;
}

/* The SA client's answer (MAD core lock held): kept for the next run. */
static void
mc_sa_done(int status, const void *recs, unsigned int nb, void *arg)
{
	struct mc_group *g = arg;

	pthread_mutex_lock(&mc_lock);
	g->answered = true;
	g->answer_status = status;
	if (status == 0 && g->sent_method == RTE_IB_METHOD_SET) {
		if (nb == 1)
			g->answer = *(const struct rte_ib_sa_mcmember_rec *)recs;
		else
			g->answer_status = -EPROTO;
	}
	mc_work = true;
	pthread_mutex_unlock(&mc_lock);
}

/* Answers, then plans; the queries to send go to @sends. */
static unsigned int
mc_step_locked(uint64_t now, struct mc_send *sends)
{
	struct mc_group *g, *gn;
	unsigned int n = 0;
	struct mc_port *p;

	mc_work = false;
	mc_due = UINT64_MAX;
	TAILQ_FOREACH(p, &mc_ports, next) {
		RTE_TAILQ_FOREACH_SAFE(g, &p->groups, next, gn) {
			if (g->answered)
				mc_group_answer(g, now);
			if (g->busy)
				continue;
			if (n == MC_MAX_SENDS) {
				mc_work = true;
				continue;
			}
			if (mc_group_plan(g, now, &sends[n])) {
				n++;
				continue;
			}
			if (TAILQ_EMPTY(&g->members) && g->granted == 0) {
				TAILQ_REMOVE(&p->groups, g, next);
				p->stats.groups--;
				free(g);
			}
		}
	}
	return n;
}

/* Run the callback of one member that has news; false when none has. */
static bool
mc_notify_one(void)
{
	struct rte_ib_sa_mcmember_rec rec;
	struct mc_member *m = NULL;
	struct mc_group *g;
	struct mc_port *p;
	rte_ibmad_mcast_cb cb;
	uint64_t id;
	void *arg;
	int status;

	pthread_mutex_lock(&mc_lock);
	m = mc_member_find_locked(0);
	if (m == NULL) {
		pthread_mutex_unlock(&mc_lock);
		return false;
	}
	g = m->group;
	p = g->port;
	m->notify = false;
	status = m->notify_status;
	rec = g->rec;
	cb = m->cb;
	arg = m->arg;
	id = m->id;
	p->stats.callbacks++;
	pthread_mutex_unlock(&mc_lock);
	cb(id, status, status == 0 ? &rec : NULL, arg);
	return true;
}

void
ibmad_mcast_run(uint64_t now, uint64_t *next_deadline)
{
	struct mc_send sends[MC_MAX_SENDS];
	unsigned int round, n, i;
	int err;

	for (round = 0; round < MC_MAX_ROUNDS; round++) {
		pthread_mutex_lock(&mc_lock);
		if (!mc_work && now < mc_due) {
			pthread_mutex_unlock(&mc_lock);
			break;
		}
		n = mc_step_locked(now, sends);
		pthread_mutex_unlock(&mc_lock);
		for (i = 0; i < n; i++) {
			if (rte_ibmad_sa_mcmember_rec_query(sends[i].dev,
					sends[i].port, sends[i].method,
					&sends[i].rec, sends[i].comp_mask, NULL,
					mc_sa_done, sends[i].group, NULL) == 0)
				continue;
			/* Not sent: answered now with the error. */
			err = rte_errno;
			IBMAD_LOG(DEBUG, "%s port %u: SA %s not sent: %s",
				  sends[i].dev->name, sends[i].port,
				  sends[i].method == RTE_IB_METHOD_SET ?
				  "join" : "leave", rte_strerror(err));
			mc_sa_done(-err, NULL, 0, sends[i].group);
		}
		while (mc_notify_one())
			;
		now = ibmad_now_ms();
	}
	pthread_mutex_lock(&mc_lock);
	if (mc_work)
		*next_deadline = now;
	else
		*next_deadline = RTE_MIN(*next_deadline, mc_due);
	pthread_mutex_unlock(&mc_lock);
}

void
ibmad_mcast_event(struct rte_ib_device *dev, uint8_t port,
		  enum rte_ib_event_type type)
{
	struct mc_group *g;
	struct mc_port *p;

	switch (type) {
	case RTE_IB_EVENT_CLIENT_REREGISTER:
	case RTE_IB_EVENT_SM_CHANGE:
	case RTE_IB_EVENT_LID_CHANGE:
	case RTE_IB_EVENT_PKEY_CHANGE:
		break;
	default:
		return;
	}
	pthread_mutex_lock(&mc_lock);
	p = mc_port_find_locked(dev, port);
	if (p == NULL || TAILQ_EMPTY(&p->groups)) {
		pthread_mutex_unlock(&mc_lock);
		return;
	}
	p->stats.events++;
	/* Several events of one SMP make one re-join: flags, not a count. */
	TAILQ_FOREACH(g, &p->groups, next) {
		g->rejoin = true;
		g->retry_at = 0;
		g->backoff_ms = RTE_IBMAD_MCAST_BACKOFF_MIN_MS;
	}
	mc_work = true;
	pthread_mutex_unlock(&mc_lock);
	IBMAD_LOG(INFO, "%s port %u: %s: multicast groups to join again",
		  dev->name, port, rte_ib_event_name(type));
	ibmad_wake();
}

int
rte_ibmad_mcast_join(struct rte_ib_device *dev, uint8_t port,
		     const struct rte_ib_sa_mcmember_rec *rec, uint64_t comp_mask,
		     rte_ibmad_mcast_cb cb, void *arg, uint64_t *member_id)
{
	struct mc_member *m;
	struct mc_group *g;
	struct mc_port *p;

	if (dev == NULL || rec == NULL || cb == NULL || member_id == NULL) {
		IBMAD_LOG(ERR, "NULL %s", dev == NULL ? "dev" : rec == NULL ?
			  "rec" : cb == NULL ? "cb" : "member_id");
		rte_errno = EINVAL;
		return -1;
	}
	if (!rte_ib_gid_is_multicast(&rec->mgid)) {
		IBMAD_LOG(ERR, "%s port %u: MGID %016" PRIx64 ":%016" PRIx64
			  ": not a multicast GID", dev->name, port,
			  rte_ib_gid_prefix(&rec->mgid), rte_ib_gid_guid(&rec->mgid));
		rte_errno = EINVAL;
		return -1;
	}
	if (rec->join_state == 0 || (rec->join_state & ~MC_JOIN_MASK)) {
		IBMAD_LOG(ERR, "%s port %u: JoinState 0x%x: not 1 to 4 bits of 0xf",
			  dev->name, port, rec->join_state);
		rte_errno = EINVAL;
		return -1;
	}
	m = calloc(1, sizeof(*m));
	if (m == NULL) {
		rte_errno = ENOMEM;
		return -1;
	}
	m->rec = *rec;
	m->comp_mask = comp_mask;
	m->join_state = rec->join_state;
	m->cb = cb;
	m->arg = arg;
	/* PortGID: the port's GID 0 (Linux ib_sa_join_multicast's caller). */
	if (!(comp_mask & RTE_IB_SA_MCMEMBER_REC_PORT_GID) &&
	    rte_ib_query_gid(dev, port, 0, &m->rec.port_gid) < 0) {
		IBMAD_LOG(ERR, "%s port %u: GID 0: %s", dev->name, port,
			  rte_strerror(rte_errno));
		free(m);
		rte_errno = ENODEV;
		return -1;
	}
	/* The SA client's port, and its event handler, before any pass. */
	if (ibmad_sa_port_open(dev, port) < 0) {
		free(m);
		return -1;
	}

	pthread_mutex_lock(&mc_lock);
	p = mc_port_find_locked(dev, port);
	if (p == NULL) {
		p = calloc(1, sizeof(*p));
		if (p == NULL)
			goto err_nomem;
		p->dev = dev;
		p->port = port;
		TAILQ_INIT(&p->groups);
		TAILQ_INSERT_TAIL(&mc_ports, p, next);
	}
	TAILQ_FOREACH(g, &p->groups, next)
		if (rte_ib_gid_equal(&g->mgid, &rec->mgid))
			break;
	if (g == NULL) {
		g = calloc(1, sizeof(*g));
		if (g == NULL)
			goto err_nomem;
		g->port = p;
		g->mgid = rec->mgid;
		g->backoff_ms = RTE_IBMAD_MCAST_BACKOFF_MIN_MS;
		TAILQ_INIT(&g->members);
		TAILQ_INSERT_TAIL(&p->groups, g, next);
		p->stats.groups++;
	}
	m->id = mc_next_id++;
	m->group = g;
	m->state = MC_MEMBER_PENDING;
	mc_count(g, m->join_state, 1);
	TAILQ_INSERT_TAIL(&g->members, m, next);
	p->stats.joins++;
	p->stats.members++;
	*member_id = m->id;
	mc_work = true;
	pthread_mutex_unlock(&mc_lock);
	ibmad_wake();
	return 0;

err_nomem:
	pthread_mutex_unlock(&mc_lock);
	free(m);
	rte_errno = ENOMEM;
	return -1;
}

int
rte_ibmad_mcast_leave(uint64_t member_id)
{
	struct mc_member *m;
	struct mc_group *g;
	struct mc_port *p;

	pthread_mutex_lock(&mc_lock);
	m = member_id == 0 ? NULL : mc_member_find_locked(member_id);
	if (m == NULL) {
		pthread_mutex_unlock(&mc_lock);
		rte_errno = ENOENT;
		return -1;
	}
	g = m->group;
	p = g->port;
	TAILQ_REMOVE(&g->members, m, next);
	if (m->state != MC_MEMBER_FAILED)
		mc_count(g, m->join_state, -1);
	p->stats.leaves++;
	p->stats.members--;
	mc_work = true;
	pthread_mutex_unlock(&mc_lock);
	free(m);
	ibmad_wake();
	return 0;
}

int
rte_ibmad_mcast_stats_get(struct rte_ib_device *dev, uint8_t port,
			  struct rte_ibmad_mcast_stats *stats)
{
	struct mc_port *p;

	if (dev == NULL || stats == NULL) {
		rte_errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&mc_lock);
	p = mc_port_find_locked(dev, port);
	if (p != NULL)
		*stats = p->stats;
	pthread_mutex_unlock(&mc_lock);
	if (p == NULL) {
		rte_errno = ENOENT;
		return -1;
	}
	return 0;
}
