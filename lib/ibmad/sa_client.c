/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The SA client (rte_ibmad_sa.h), after Linux sa_query.c: one rte_ibmad
 * agent per port for class SubnAdm version 2, the SM's address kept from
 * the port's attributes (update_sm_ah()), queries packed and results
 * unpacked with lib/ib's field tables, the SA status decoded into named
 * errors (ib_sa_query status handling).
 *
 * Locks: sa_lock protects the port contexts and the query list. It is
 * never held across a call into the MAD core (whose callbacks take it),
 * so the order is always MAD core lock, then sa_lock.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_alarm.h>
#include <rte_errno.h>

#include <rte_ib_pack.h>
#include <rte_ib_records.h>
#include <rte_ib_types.h>

#include "ibmad_private.h"
#include "mad_rmpp.h"
#include "rte_ibmad_sa.h"

#define SA_DEFAULT_TIMEOUT_MS 1000
#define SA_DEFAULT_RETRIES 3
#define SA_MAX_PORTS 16

struct sa_port {
	struct rte_ib_device *dev;
	uint8_t port;
	struct rte_ibmad_agent *agent;
	struct rte_ibmad_agent *report_agent;  /* Report(Notice), on demand */
	uint16_t sm_lid;
	uint8_t sm_sl;
	uint16_t pkey_index;
	struct rte_ibmad_sa_stats stats;       /* under sa_lock */
};

struct sa_query {
	TAILQ_ENTRY(sa_query) next;
	uint64_t id;
	uint64_t tid;
	struct sa_port *port;
	const struct rte_ib_record_layout *layout;
	uint16_t attr_id;
	rte_ibmad_sa_cb cb;
	void *arg;
};

/* A trap subscription (InformInfo). */
struct sa_sub {
	TAILQ_ENTRY(sa_sub) next;
	uint64_t id;
	struct sa_port *port;
	uint16_t trap_number;
	rte_ibmad_sa_notice_cb cb;
	void *arg;
};

static pthread_mutex_t sa_lock = PTHREAD_MUTEX_INITIALIZER;
static TAILQ_HEAD(, sa_sub) sa_subs = TAILQ_HEAD_INITIALIZER(sa_subs);
static struct sa_port sa_ports[SA_MAX_PORTS];
static unsigned int sa_nb_ports;
static TAILQ_HEAD(, sa_query) sa_queries = TAILQ_HEAD_INITIALIZER(sa_queries);
static uint64_t sa_next_id = 1;

const char *
rte_ibmad_sa_strerror(int status)
{
	static const char *const names[] = {
		[RTE_IBMAD_SA_OK] = "success",
		[RTE_IBMAD_SA_ERR_NO_RESOURCES] = "ERR_NO_RESOURCES",
		[RTE_IBMAD_SA_ERR_REQ_INVALID] = "ERR_REQ_INVALID",
		[RTE_IBMAD_SA_ERR_NO_RECORDS] = "ERR_NO_RECORDS",
		[RTE_IBMAD_SA_ERR_TOO_MANY_RECORDS] = "ERR_TOO_MANY_RECORDS",
		[RTE_IBMAD_SA_ERR_REQ_INVALID_GID] = "ERR_REQ_INVALID_GID",
		[RTE_IBMAD_SA_ERR_REQ_INSUFFICIENT_COMPONENTS] =
			"ERR_REQ_INSUFFICIENT_COMPONENTS",
		[RTE_IBMAD_SA_ERR_REQ_DENIED] = "ERR_REQ_DENIED",
	};

	if (status < 0)
		return strerror(-status);
	if (status < (int)RTE_DIM(names) && names[status] != NULL)
		return names[status];
	/* The common MAD status (IBA 13.4.7, table "MAD Common Status"). */
	switch (status) {
	case RTE_IBMAD_SA_ERR_MAD | 0x01:
		return "MAD status: busy";
	case RTE_IBMAD_SA_ERR_MAD | 0x02:
		return "MAD status: redirect required";
	case RTE_IBMAD_SA_ERR_MAD | 0x04:
		return "MAD status: bad base or class version";
	case RTE_IBMAD_SA_ERR_MAD | 0x08:
		return "MAD status: method not supported";
	case RTE_IBMAD_SA_ERR_MAD | 0x0c:
		return "MAD status: method/attribute combination not supported";
	case RTE_IBMAD_SA_ERR_MAD | 0x1c:
		return "MAD status: invalid attribute or modifier value";
	default:
		break;
	}
	if (status & RTE_IBMAD_SA_ERR_MAD)
		return "MAD status error";
	return "unknown SA status";
}

/* The SM's address (Linux update_sm_ah()); called with sa_lock held. */
static void
sa_port_refresh(struct sa_port *p)
{
	struct rte_ib_port_attr pa;
	uint16_t idx;

	if (rte_ib_port_attr_cached(p->dev, p->port, &pa) == 0) {
		if (pa.sm_lid != p->sm_lid && p->agent != NULL)
			IBMAD_LOG(INFO, "%s port %u: SA address now LID %u (was %u)",
				  p->dev->name, p->port, pa.sm_lid, p->sm_lid);
		p->sm_lid = pa.sm_lid;
		p->sm_sl = pa.sm_sl;
	}
	/* The default partition, full or limited member. */
	if (rte_ib_pkey_find(p->dev, p->port, RTE_IB_PKEY_DEFAULT, &idx) == 0 ||
	    rte_ib_pkey_find(p->dev, p->port, RTE_IB_PKEY_DEFAULT_LIMITED,
			     &idx) == 0)
		p->pkey_index = idx;
	else
		p->pkey_index = 0;
}

static void sa_resubscribe(void *arg);

static void
sa_event(const struct rte_ib_event *ev, void *arg)
{
	struct sa_port *p = arg;

	if (ev->dev != p->dev || ev->port != p->port)
		return;
	switch (ev->type) {
	case RTE_IB_EVENT_CLIENT_REREGISTER:
		/*
		 * The SM lost our subscriptions: send them again, from the
		 * alarm thread, since this runs under lib/ib's lock, which
		 * must not be held into the MAD core.
		 */
		rte_eal_alarm_set(1000, sa_resubscribe, p);
		/* fall through */
	case RTE_IB_EVENT_SM_CHANGE:
	case RTE_IB_EVENT_LID_CHANGE:
	case RTE_IB_EVENT_PKEY_CHANGE:
	case RTE_IB_EVENT_PORT_ACTIVE:
		pthread_mutex_lock(&sa_lock);
		sa_port_refresh(p);
		pthread_mutex_unlock(&sa_lock);
		/* After the refresh: re-joins go to the new SA address. */
		ibmad_mcast_event(p->dev, p->port, ev->type);
		break;
	default:
		break;
	}
}

/* Count an outcome in @p's stats. */
static void
sa_count(struct sa_port *p, int status)
{
	pthread_mutex_lock(&sa_lock);
	if (status == 0)
		p->stats.answers++;
	else if (status == -EPROTO)
		p->stats.bad_answers++;
	else if (status > 0 && (status & RTE_IBMAD_SA_ERR_MAD))
		p->stats.mad_errors++;
	else if (status > 0)
		p->stats.sa_errors++;
	else
		p->stats.failures++;
	pthread_mutex_unlock(&sa_lock);
}

/* Complete @q with @status and no records. */
static void
sa_fail(struct sa_query *q, int status)
{
	sa_count(q->port, status);
	q->cb(status, NULL, 0, q->arg);
}

/* Decode a response into records and complete @q. */
static void
sa_complete(struct sa_query *q, const uint8_t *msg, size_t len)
{
	const struct rte_ib_sa_mad *mad = (const struct rte_ib_sa_mad *)msg;
	uint16_t mad_status = rte_be_to_cpu_16(mad->mad_hdr.status);
	size_t stride, host = q->layout->host_size, off, data;
	unsigned int n = 0, i;
	uint8_t *recs = NULL;
	int status = 0;

	/*
	 * Any status is an error: the SA's own (bits 15:8, IBA 15.2.1.2)
	 * by its name, else the common MAD status (IBA 13.4.7: busy,
	 * redirect, the invalid-field code of bits 4:2) with
	 * RTE_IBMAD_SA_ERR_MAD; the records of such an answer are not read.
	 */
	if (mad_status & 0xff00)
		status = (mad_status >> 8) & 0xff;
	else if (mad_status & 0x00ff)
		status = RTE_IBMAD_SA_ERR_MAD | (mad_status & 0xff);
	if (status != 0) {
		sa_fail(q, status);
		return;
	}
	if (rte_be_to_cpu_16(mad->mad_hdr.attr_id) != q->attr_id ||
	    len < RTE_IB_SA_DATA_OFFSET) {
		IBMAD_LOG(WARNING, "%s port %u: answer of attribute 0x%04x, length %zu, "
			  "to a query of attribute 0x%04x", q->port->dev->name,
			  q->port->port, rte_be_to_cpu_16(mad->mad_hdr.attr_id),
			  len, q->attr_id);
		sa_fail(q, -EPROTO);
		return;
	}
	data = len - RTE_IB_SA_DATA_OFFSET;
	if (mad->mad_hdr.method == RTE_IB_SA_METHOD_GET_TABLE_RESP) {
		/*
		 * Records start every AttributeOffset 8-byte words (IBA
		 * 15.2.1.1), which may be more than the record's size: the
		 * SA pads each to 8 bytes, and a later SA version may send a
		 * longer record. The last one needs only its own size.
		 */
		stride = (size_t)rte_be_to_cpu_16(mad->sa_hdr.attr_offset) * 8;
		if (stride < q->layout->wire_size) {
			if (stride != 0)
				IBMAD_LOG(WARNING, "%s port %u: %s table: AttributeOffset %zu "
					  "bytes, less than the record's %u",
					  q->port->dev->name, q->port->port,
					  q->layout->name, stride, q->layout->wire_size);
			/* AttributeOffset 0: an empty table (IBA 15.2.5.1). */
			sa_fail(q, stride == 0 ? RTE_IBMAD_SA_OK : -EPROTO);
			return;
		}
		n = data < q->layout->wire_size ? 0 :
			(unsigned int)((data - q->layout->wire_size) / stride + 1);
	} else {
		stride = q->layout->wire_size;
		n = len >= RTE_IB_SA_DATA_OFFSET + stride ? 1 : 0;
	}
	if (n > 0) {
		recs = calloc(n, host);
		if (recs == NULL) {
			sa_fail(q, -ENOMEM);
			return;
		}
	}
	for (i = 0; i < n; i++) {
		off = RTE_IB_SA_DATA_OFFSET + i * stride;
		if (rte_ib_unpack(q->layout, msg + off, len - off,
				  recs + i * host) < 0) {
			free(recs);
			sa_fail(q, -EPROTO);
			return;
		}
	}
	sa_count(q->port, RTE_IBMAD_SA_OK);
	q->cb(RTE_IBMAD_SA_OK, recs, n, q->arg);
	free(recs);
}

static void
sa_sent(struct rte_ibmad_agent *agent, const struct rte_ibmad_send_result *res,
	void *arg)
{
	struct sa_query *q = res->context;

	RTE_SET_USED(agent);
	RTE_SET_USED(arg);
	if (q == NULL)
		return;
	pthread_mutex_lock(&sa_lock);
	TAILQ_REMOVE(&sa_queries, q, next);
	pthread_mutex_unlock(&sa_lock);
	if (res->status == 0 && res->response != NULL)
		sa_complete(q, res->response->mad, res->response->len);
	else
		sa_fail(q, res->status != 0 ? res->status : -EPROTO);
	free(q);
}

/* The port's context, made on first use. Called with sa_lock held. */
static struct sa_port *
sa_port_get(struct rte_ib_device *dev, uint8_t port)
{
	struct rte_ibmad_agent_conf conf;
	struct sa_port *p;
	unsigned int i;

	for (i = 0; i < sa_nb_ports; i++)
		if (sa_ports[i].dev == dev && sa_ports[i].port == port)
			return &sa_ports[i];
	if (sa_nb_ports == SA_MAX_PORTS) {
		rte_errno = ENOSPC;
		return NULL;
	}
	p = &sa_ports[sa_nb_ports];
	memset(p, 0, sizeof(*p));
	p->dev = dev;
	p->port = port;
	memset(&conf, 0, sizeof(conf));
	conf.dev = dev;
	conf.port = port;
	conf.qpn = 1;
	/* A sending agent: responses come back by TransactionID. */
	conf.mgmt_class = 0;
	conf.send_cb = sa_sent;
	/* GetTable responses come in RMPP segments (IBA 15.2.5.x). */
	conf.rmpp_version = RMPP_VERSION;
	p->agent = rte_ibmad_agent_register(&conf);
	if (p->agent == NULL)
		return NULL;
	sa_port_refresh(p);
	if (rte_ib_register_event_handler(dev, sa_event, p) < 0)
		IBMAD_LOG(WARNING, "%s port %u: no events: the SM address is read "
			  "at each query", dev->name, port);
	sa_nb_ports++;
	return p;
}

int
ibmad_sa_port_open(struct rte_ib_device *dev, uint8_t port)
{
	struct sa_port *p;

	pthread_mutex_lock(&sa_lock);
	p = sa_port_get(dev, port);
	pthread_mutex_unlock(&sa_lock);
	return p == NULL ? -1 : 0;
}

int
rte_ibmad_sa_query(struct rte_ib_device *dev, uint8_t port, uint8_t method,
		   uint16_t attr_id, uint64_t comp_mask, const void *rec,
		   const struct rte_ibmad_sa_opts *opts, rte_ibmad_sa_cb cb,
		   void *arg, uint64_t *query_id)
{
	const struct rte_ib_record_layout *layout;
	struct rte_ibmad_send_params sp;
	struct rte_ib_sa_mad mad;
	struct sa_query *q, *it;
	struct sa_port *p;
	uint64_t tid, id;

	if (dev == NULL || rec == NULL || cb == NULL) {
		rte_errno = EINVAL;
		return -1;
	}
	layout = rte_ib_sa_layout_by_attr(attr_id);
	if (layout == NULL) {
		IBMAD_LOG(ERR, "SA attribute 0x%04x: no record table", attr_id);
		rte_errno = EINVAL;
		return -1;
	}
	memset(&mad, 0, sizeof(mad));
	mad.mad_hdr.base_version = RTE_IB_MAD_BASE_VERSION;
	mad.mad_hdr.mgmt_class = RTE_IB_MGMT_CLASS_SUBN_ADM;
	mad.mad_hdr.class_version = RTE_IB_SA_CLASS_VERSION;
	mad.mad_hdr.method = method;
	mad.mad_hdr.attr_id = rte_cpu_to_be_16(attr_id);
	mad.rmpp_hdr.rmpp_version = RMPP_VERSION;
	mad.sa_hdr.comp_mask = rte_cpu_to_be_64(comp_mask);
	if (rte_ib_pack(layout, rec, mad.data, sizeof(mad.data)) < 0)
		return -1;

	q = calloc(1, sizeof(*q));
	if (q == NULL) {
		rte_errno = ENOMEM;
		return -1;
	}
	pthread_mutex_lock(&sa_lock);
	p = sa_port_get(dev, port);
	if (p == NULL) {
		pthread_mutex_unlock(&sa_lock);
		free(q);
		return -1;
	}
	sa_port_refresh(p);
	if (p->sm_lid == 0) {
		pthread_mutex_unlock(&sa_lock);
		free(q);
		rte_errno = ENETUNREACH;
		return -1;
	}
	q->id = sa_next_id++;
	id = q->id;
	q->port = p;
	q->layout = layout;
	q->attr_id = attr_id;
	q->cb = cb;
	q->arg = arg;
	memset(&sp, 0, sizeof(sp));
	sp.mad = &mad;
	sp.len = RTE_IB_MAD_SIZE;
	sp.ah_attr.dlid = p->sm_lid;
	sp.ah_attr.sl = p->sm_sl;
	sp.ah_attr.port_num = port;
	sp.remote_qpn = 1;
	sp.remote_qkey = RTE_IB_QP1_QKEY;
	sp.pkey_index = p->pkey_index;
	sp.timeout_ms = opts != NULL && opts->timeout_ms != 0 ?
		opts->timeout_ms : SA_DEFAULT_TIMEOUT_MS;
	sp.retries = opts != NULL && opts->retries != 0 ?
		opts->retries : SA_DEFAULT_RETRIES;
	sp.context = q;
	p->stats.queries++;
	TAILQ_INSERT_TAIL(&sa_queries, q, next);
	pthread_mutex_unlock(&sa_lock);

	if (rte_ibmad_send(p->agent, &sp, &tid) < 0) {
		int err = rte_errno;

		pthread_mutex_lock(&sa_lock);
		TAILQ_REMOVE(&sa_queries, q, next);
		pthread_mutex_unlock(&sa_lock);
		free(q);
		rte_errno = err;
		return -1;
	}
	/* The answer may have come, and q gone, before the send returned. */
	pthread_mutex_lock(&sa_lock);
	TAILQ_FOREACH(it, &sa_queries, next)
		if (it->id == id) {
			it->tid = tid;
			break;
		}
	if (query_id != NULL)
		*query_id = id;
	pthread_mutex_unlock(&sa_lock);
	return 0;
}

int
rte_ibmad_sa_cancel(uint64_t query_id)
{
	struct rte_ibmad_agent *agent = NULL;
	struct sa_query *q;
	uint64_t tid = 0;

	pthread_mutex_lock(&sa_lock);
	TAILQ_FOREACH(q, &sa_queries, next)
		if (q->id == query_id) {
			agent = q->port->agent;
			tid = q->tid;
			break;
		}
	pthread_mutex_unlock(&sa_lock);
	if (agent == NULL) {
		rte_errno = ENOENT;
		return -1;
	}
	/* The callback runs from the MAD core with -ECANCELED. */
	return rte_ibmad_cancel(agent, tid);
}

int
rte_ibmad_sa_path_rec_get(struct rte_ib_device *dev, uint8_t port,
			  const struct rte_ib_sa_path_rec *rec,
			  uint64_t comp_mask,
			  const struct rte_ibmad_sa_opts *opts,
			  rte_ibmad_sa_cb cb, void *arg, uint64_t *query_id)
{
	/*
	 * One path asked for: SubnAdmGet, as Linux's ib_sa_path_rec_get()
	 * sends it. Its GetResp is one MAD on every SA; a GetTableResp is
	 * RMPP, which an SA without the kernel's RMPP (OpenSM under
	 * umad2sim) sends unsegmented, with RMPPType 0, and a receiver
	 * drops (Linux ib_process_rmpp_recv_wc(): BadT).
	 */
	uint8_t method = RTE_IB_SA_METHOD_GET_TABLE;

	if (rec != NULL && (comp_mask & RTE_IB_SA_PATH_REC_NUMB_PATH) &&
	    rec->numb_path == 1)
		method = RTE_IB_METHOD_GET;
	return rte_ibmad_sa_query(dev, port, method, RTE_IB_SA_ATTR_PATH_REC,
				  comp_mask, rec, opts, cb, arg, query_id);
}

int
rte_ibmad_sa_mcmember_rec_query(struct rte_ib_device *dev, uint8_t port,
				uint8_t method,
				const struct rte_ib_sa_mcmember_rec *rec,
				uint64_t comp_mask,
				const struct rte_ibmad_sa_opts *opts,
				rte_ibmad_sa_cb cb, void *arg,
				uint64_t *query_id)
{
	return rte_ibmad_sa_query(dev, port, method, RTE_IB_SA_ATTR_MCMEMBER_REC,
				  comp_mask, rec, opts, cb, arg, query_id);
}

/* Answer a Report with ReportResp and hand its Notice to subscribers. */
static void
sa_report(struct rte_ibmad_agent *agent, const struct rte_ibmad_recv *recv,
	  void *arg)
{
	struct sa_port *p = arg;
	struct rte_ib_notice notice;
	uint8_t resp[RTE_IB_MAD_SIZE];
	struct {
		rte_ibmad_sa_notice_cb cb;
		void *arg;
	} hits[16];
	unsigned int n = 0, i;
	struct sa_sub *sub;
	uint16_t sm_lid;

	if (recv->mad[3] != RTE_IB_METHOD_REPORT)
		return;
	/*
	 * The subscription was made at the SA's LID: a Report from any other
	 * source is not the SA's (a forged Notice would make subscribers act
	 * on a port that never changed). Dropped unanswered, counted.
	 */
	pthread_mutex_lock(&sa_lock);
	sm_lid = p->sm_lid;
	if (recv->wc->slid != sm_lid)
		p->stats.reports_dropped++;
	else
		p->stats.reports++;
	pthread_mutex_unlock(&sa_lock);
	if (recv->wc->slid != sm_lid) {
		IBMAD_LOG(DEBUG, "%s port %u: Report from LID %u dropped: the SA is "
			  "at LID %u", p->dev->name, p->port, recv->wc->slid, sm_lid);
		return;
	}
	/* IBA 13.4.8.2: the response repeats the Notice. */
	memcpy(resp, recv->mad, sizeof(resp));
	resp[3] = RTE_IB_METHOD_REPORT_RESP;
	resp[4] = 0;
	resp[5] = 0;
	if (rte_ibmad_respond(agent, recv, resp) < 0)
		IBMAD_LOG(WARNING, "%s port %u: ReportResp not sent: %s",
			  p->dev->name, p->port, rte_strerror(rte_errno));
	if (rte_ib_unpack(rte_ib_notice_layout(), recv->mad + RTE_IB_SA_DATA_OFFSET,
			  RTE_IB_MAD_SIZE - RTE_IB_SA_DATA_OFFSET, &notice) < 0)
		return;
	pthread_mutex_lock(&sa_lock);
	TAILQ_FOREACH(sub, &sa_subs, next)
		if (sub->port == p && notice.is_generic &&
		    sub->trap_number == notice.trap_number && n < RTE_DIM(hits)) {
			hits[n].cb = sub->cb;
			hits[n].arg = sub->arg;
			n++;
		}
	pthread_mutex_unlock(&sa_lock);
	for (i = 0; i < n; i++)
		hits[i].cb(p->dev, p->port, &notice, hits[i].arg);
}

static void
sa_inform_done(int status, const void *recs, unsigned int nb, void *arg)
{
	uintptr_t trap = (uintptr_t)arg;

	RTE_SET_USED(recs);
	RTE_SET_USED(nb);
	if (status != 0)
		IBMAD_LOG(WARNING, "InformInfo for trap %" PRIuPTR ": %s", trap,
			  rte_ibmad_sa_strerror(status));
}

/* Set(InformInfo) for @trap_number: subscribe (1) or unsubscribe (0). */
static int
sa_inform(struct sa_port *p, uint16_t trap_number, uint8_t subscribe)
{
	struct rte_ib_inform_info ii;

	memset(&ii, 0, sizeof(ii));
	ii.lid_range_begin = 0xffff;     /* any source */
	ii.is_generic = 1;
	ii.subscribe = subscribe;
	ii.type = RTE_IB_NOTICE_TYPE_ALL;
	ii.trap_number = trap_number;
	ii.qpn = 1;                       /* Reports come to QP1 */
	ii.resp_time_value = 19;          /* 2 s (4.096 us << 19) */
	ii.producer_type = 0xffffff;      /* any producer */
	return rte_ibmad_sa_query(p->dev, p->port, RTE_IB_METHOD_SET,
				  RTE_IB_ATTR_INFORM_INFO, 0, &ii, NULL,
				  sa_inform_done, (void *)(uintptr_t)trap_number,
				  NULL);
}

static void
sa_resubscribe(void *arg)
{
	struct sa_port *p = arg;
	uint16_t traps[64];
	unsigned int n = 0, i;
	struct sa_sub *sub;

	pthread_mutex_lock(&sa_lock);
	TAILQ_FOREACH(sub, &sa_subs, next)
		if (sub->port == p && n < RTE_DIM(traps))
			traps[n++] = sub->trap_number;
	pthread_mutex_unlock(&sa_lock);
	for (i = 0; i < n; i++)
		if (sa_inform(p, traps[i], 1) < 0)
			IBMAD_LOG(WARNING, "%s port %u: trap %u not resubscribed: %s",
				  p->dev->name, p->port, traps[i],
				  rte_strerror(rte_errno));
}

int
rte_ibmad_sa_subscribe(struct rte_ib_device *dev, uint8_t port,
		       uint16_t trap_number, rte_ibmad_sa_notice_cb cb,
		       void *arg, uint64_t *sub_id)
{
	struct rte_ibmad_agent_conf conf;
	struct sa_sub *sub;
	struct sa_port *p;

	if (dev == NULL || cb == NULL) {
		rte_errno = EINVAL;
		return -1;
	}
	sub = calloc(1, sizeof(*sub));
	if (sub == NULL) {
		rte_errno = ENOMEM;
		return -1;
	}
	pthread_mutex_lock(&sa_lock);
	p = sa_port_get(dev, port);
	if (p != NULL && p->report_agent == NULL) {
		memset(&conf, 0, sizeof(conf));
		conf.dev = dev;
		conf.port = port;
		conf.qpn = 1;
		conf.mgmt_class = RTE_IB_MGMT_CLASS_SUBN_ADM;
		conf.class_version = RTE_IB_SA_CLASS_VERSION;
		conf.method_mask[0] = UINT64_C(1) << RTE_IB_METHOD_REPORT;
		conf.recv_cb = sa_report;
		conf.arg = p;
		p->report_agent = rte_ibmad_agent_register(&conf);
		if (p->report_agent == NULL)
			p = NULL;
	}
	if (p == NULL) {
		pthread_mutex_unlock(&sa_lock);
		free(sub);
		return -1;
	}
	sub->id = sa_next_id++;
	sub->port = p;
	sub->trap_number = trap_number;
	sub->cb = cb;
	sub->arg = arg;
	TAILQ_INSERT_TAIL(&sa_subs, sub, next);
	if (sub_id != NULL)
		*sub_id = sub->id;
	pthread_mutex_unlock(&sa_lock);
	/* Kept even if this Set fails: the next reregister sends it again. */
	if (sa_inform(p, trap_number, 1) < 0)
		IBMAD_LOG(WARNING, "%s port %u: trap %u: subscription not sent yet: %s",
			  dev->name, port, trap_number, rte_strerror(rte_errno));
	return 0;
}

int
rte_ibmad_sa_unsubscribe(uint64_t sub_id)
{
	struct sa_sub *sub;

	pthread_mutex_lock(&sa_lock);
	TAILQ_FOREACH(sub, &sa_subs, next)
		if (sub->id == sub_id)
			break;
	if (sub != NULL)
		TAILQ_REMOVE(&sa_subs, sub, next);
	pthread_mutex_unlock(&sa_lock);
	if (sub == NULL) {
		rte_errno = ENOENT;
		return -1;
	}
	sa_inform(sub->port, sub->trap_number, 0);
	free(sub);
	return 0;
}

int
rte_ibmad_sa_stats_get(struct rte_ib_device *dev, uint8_t port,
		       struct rte_ibmad_sa_stats *stats)
{
	unsigned int i;
	int ret = -ENOENT;

	if (dev == NULL || stats == NULL) {
		rte_errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&sa_lock);
	for (i = 0; i < sa_nb_ports; i++)
		if (sa_ports[i].dev == dev && sa_ports[i].port == port) {
			*stats = sa_ports[i].stats;
			ret = 0;
		}
	pthread_mutex_unlock(&sa_lock);
	return ibmad_ret(ret);
}
