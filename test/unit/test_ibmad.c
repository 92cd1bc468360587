/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The MAD core (lib/ibmad) driven through its entry points with MAD
 * buffers: a test IB device registers with lib/ib, MADs go in through
 * rte_ib_device_mad_recv() as a PMD delivers them, work runs with
 * rte_ibmad_poll() (or the control thread, in its own case), and what the
 * core sends comes out of the device's mad_send op into a table the tests
 * read. The device's process_mad stands for the firmware's SMA/PMA only
 * as far as the core's bookkeeping needs: it echoes the request as a
 * GetResp and applies Set(PortInfo)'s LID and SM fields to its port.
 *
 * Expected values follow IBA 13.4 (MAD header, TIDs, GetResp), 13.4.7
 * (status 0x000C for an unsupported method/attribute), 14.2.1.2 (D bit),
 * 14.2.2 (DR hops), 14.2.5.6 (PortInfo offsets: LID 16, MasterSMLID 18,
 * MasterSMSL 36 [3:0], ClientReregister 51 [7]).
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_service.h>

#include <ib_driver.h>
#include <rte_ib_dev.h>
#include <rte_ib_records.h>
#include <rte_ibmad.h>
#include <rte_ibmad_ctrl.h>
#include <rte_ibmad_mcast.h>
#include <rte_ibmad_sa.h>

#include "test.h"

#define MAX_SENT 64

struct sent {
	uint64_t when_us;             /* CLOCK_MONOTONIC at the post */
	uint8_t port;
	uint8_t qpn;
	struct rte_ib_mad_send_buf buf;
	uint8_t mad[RTE_IB_MAD_SIZE];
};

struct tdev {
	struct rte_ib_device dev;
	struct rte_ib_port_attr port[2];
	struct sent sent[MAX_SENT];
	unsigned int nsent;
	int send_ret;                 /* forced mad_send result */
	unsigned int nprocess;        /* process_mad calls */
	int efd;                      /* interrupt eventfd */
	bool have_pending;            /* MAD intr_process delivers */
	struct rte_ib_mad_wc pending_wc;
	uint8_t pending[RTE_IB_MAD_SIZE];
};

static struct tdev td;

static uint64_t
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static int
t_query_port(struct rte_ib_device *dev, uint8_t port, struct rte_ib_port_attr *a)
{
	struct tdev *t = dev->dev_private;

	*a = t->port[port - 1];
	return 0;
}

static int
t_mad_send(struct rte_ib_device *dev, uint8_t port, uint8_t qpn,
	   const struct rte_ib_mad_send_buf *buf)
{
	struct tdev *t = dev->dev_private;
	struct sent *s;

	if (t->send_ret != 0)
		return t->send_ret;
	if (t->nsent == MAX_SENT)
		return -EAGAIN;
	s = &t->sent[t->nsent++];
	s->when_us = now_us();
	s->port = port;
	s->qpn = qpn;
	s->buf = *buf;
	memcpy(s->mad, buf->mad, RTE_IB_MAD_SIZE);
	s->buf.mad = s->mad;
	return 0;
}

static int
t_process_mad(struct rte_ib_device *dev, uint8_t port,
	      const struct rte_ib_mad_wc *wc, const void *in, void *out)
{
	struct tdev *t = dev->dev_private;
	const uint8_t *m = in;
	uint8_t *o = out;

	RTE_SET_USED(wc);
	t->nprocess++;
	if (m[3] == RTE_IB_METHOD_TRAP_REPRESS)
		return 0;
	memcpy(o, m, RTE_IB_MAD_SIZE);
	o[3] = RTE_IB_METHOD_GET_RESP;
	/* What the SMA applies of a Set(PortInfo). */
	if (m[3] == RTE_IB_METHOD_SET && m[16] == 0 && m[17] == 0x15) {
		t->port[port - 1].lid = (uint16_t)(m[64 + 16] << 8 | m[64 + 17]);
		t->port[port - 1].sm_lid = (uint16_t)(m[64 + 18] << 8 | m[64 + 19]);
		t->port[port - 1].sm_sl = m[64 + 36] & 0xf;
	}
	/* A forgetful driver: no D bit on a directed-route reply; the core
	 * must set it (IBA 14.2.1.2).
	 */
	return RTE_IB_MAD_RESULT_REPLY;
}

static int
t_intr_fd(struct rte_ib_device *dev)
{
	return ((struct tdev *)dev->dev_private)->efd;
}

static int
t_intr_process(struct rte_ib_device *dev)
{
	struct tdev *t = dev->dev_private;
	uint64_t v;

	if (read(t->efd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		return -errno;
	if (t->have_pending) {
		t->have_pending = false;
		rte_ib_device_mad_recv(dev, &t->pending_wc, t->pending,
				       RTE_IB_MAD_SIZE);
	}
	return 0;
}

static const struct rte_ib_dev_ops t_ops = {
	.query_port = t_query_port,
	.mad_send = t_mad_send,
	.process_mad = t_process_mad,
	.intr_fd = t_intr_fd,
	.intr_process = t_intr_process,
};

/* --- helpers --- */

static void
mk_mad(uint8_t *mad, uint8_t class, uint8_t version, uint8_t method,
       uint16_t attr, uint64_t tid)
{
	struct rte_ib_mad_hdr *h = (struct rte_ib_mad_hdr *)mad;

	memset(mad, 0, RTE_IB_MAD_SIZE);
	h->base_version = 1;
	h->mgmt_class = class;
	h->class_version = version;
	h->method = method;
	h->tid = rte_cpu_to_be_64(tid);
	h->attr_id = rte_cpu_to_be_16(attr);
}

static struct rte_ib_mad_wc
mk_wc(uint8_t qpn, uint16_t slid)
{
	struct rte_ib_mad_wc wc;

	memset(&wc, 0, sizeof(wc));
	wc.port = 1;
	wc.qpn = qpn;
	wc.slid = slid;
	wc.sl = 3;
	wc.src_qpn = qpn == 0 ? 0 : 0x41;
	wc.pkey_index = 2;
	return wc;
}

static int
deliver(uint8_t qpn, uint16_t slid, const uint8_t *mad)
{
	struct rte_ib_mad_wc wc = mk_wc(qpn, slid);

	if (rte_ib_device_mad_recv(&td.dev, &wc, mad, RTE_IB_MAD_SIZE) < 0)
		return -1;
	rte_ibmad_poll();
	return 0;
}

static uint64_t
tid_of(const uint8_t *mad)
{
	return rte_be_to_cpu_64(((const struct rte_ib_mad_hdr *)mad)->tid);
}

static uint16_t
status_of(const uint8_t *mad)
{
	return rte_be_to_cpu_16(((const struct rte_ib_mad_hdr *)mad)->status);
}

static void
sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static struct rte_ibmad_stats
stats(void)
{
	struct rte_ibmad_stats s;

	memset(&s, 0, sizeof(s));
	rte_ibmad_stats_get(&td.dev, &s);
	return s;
}

/* Send-completion and receive records of the test agents. */
struct rec {
	unsigned int nsend;
	int status[16];
	uint64_t tid[16];
	void *context[16];
	uint64_t resp_tid[16];
	uint32_t resp_len;
	uint8_t resp_byte_300;
	unsigned int nrecv;
	uint8_t last_recv[RTE_IB_MAD_SIZE];
	struct rte_ibmad_agent *unregister_me;
	bool respond;
	/* Sent once more from the send callback, with this time-out. */
	const uint8_t *resend_mad;
	uint32_t resend_ms;
};

static void send_params(struct rte_ibmad_send_params *p, const uint8_t *mad,
			uint32_t timeout_ms, uint8_t retries, void *ctx);

static void
rec_send(struct rte_ibmad_agent *agent, const struct rte_ibmad_send_result *r,
	 void *arg)
{
	struct rec *rec = arg;
	unsigned int i = rec->nsend++ % 16;

	rec->status[i] = r->status;
	rec->tid[i] = r->tid;
	rec->context[i] = r->context;
	rec->resp_tid[i] = r->response != NULL ? tid_of(r->response->mad) : 0;
	if (r->response != NULL) {
		rec->resp_len = r->response->len;
		if (r->response->len > 300)
			rec->resp_byte_300 = r->response->mad[300];
	}
	if (rec->unregister_me == agent) {
		rte_ibmad_agent_unregister(agent);
		rec->unregister_me = NULL;
	}
	if (rec->resend_mad != NULL) {
		struct rte_ibmad_send_params p;

		send_params(&p, rec->resend_mad, rec->resend_ms, 0, NULL);
		rec->resend_mad = NULL;
		if (rte_ibmad_send(agent, &p, NULL) < 0)
			rec->status[i] = -EIO;
	}
}

static void
rec_recv(struct rte_ibmad_agent *agent, const struct rte_ibmad_recv *r, void *arg)
{
	struct rec *rec = arg;
	uint8_t resp[RTE_IB_MAD_SIZE];

	rec->nrecv++;
	memcpy(rec->last_recv, r->mad, RTE_IB_MAD_SIZE);
	if (rec->respond) {
		memcpy(resp, r->mad, sizeof(resp));
		resp[64] = 0x5a;
		rte_ibmad_respond(agent, r, resp);
	}
}

/*
 * What a test agent's callbacks reach: the case's struct rec (on its
 * stack) while the case runs; nothing once it has returned.
 */
struct binding {
	struct rte_ibmad_agent *agent;
	struct rec *rec;
	bool live;
	rte_ibmad_recv_cb recv_cb;
	rte_ibmad_send_cb send_cb;
};

static void
bound_send(struct rte_ibmad_agent *agent, const struct rte_ibmad_send_result *r,
	   void *arg)
{
	struct binding *b = arg;

	if (b->live && b->send_cb != NULL)
		b->send_cb(agent, r, b->rec);
}

static void
bound_recv(struct rte_ibmad_agent *agent, const struct rte_ibmad_recv *r,
	   void *arg)
{
	struct binding *b = arg;

	if (b->live && b->recv_cb != NULL)
		b->recv_cb(agent, r, b->rec);
}

static void
agent_cleanup(void *arg)
{
	struct binding *b = arg;

	/* The case's frame is gone: its sends are cancelled into nothing.
	 * Already unregistered by the case: EINVAL, nothing done.
	 */
	b->live = false;
	rte_ibmad_agent_unregister(b->agent);
	free(b);
}

/*
 * Register an agent that goes when the case ends, passed or failed: its
 * callbacks point at the case's stack (struct rec), so a case that fails
 * with sends in flight must not leave them to complete into a later one.
 */
static struct rte_ibmad_agent *
agent_reg(const struct rte_ibmad_agent_conf *conf)
{
	struct rte_ibmad_agent_conf c = *conf;
	struct binding *b = calloc(1, sizeof(*b));
	struct rte_ibmad_agent *a;

	if (b == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	b->rec = conf->arg;
	b->live = true;
	b->recv_cb = conf->recv_cb;
	b->send_cb = conf->send_cb;
	c.arg = b;
	c.recv_cb = conf->recv_cb != NULL ? bound_recv : NULL;
	c.send_cb = conf->send_cb != NULL ? bound_send : NULL;
	a = rte_ibmad_agent_register(&c);
	if (a == NULL) {
		free(b);
		return NULL;
	}
	b->agent = a;
	test_defer(agent_cleanup, b);
	return a;
}

static struct rte_ibmad_agent *
agent_on(uint8_t qpn, uint8_t class, uint8_t version, uint64_t mask0,
	 struct rec *rec)
{
	struct rte_ibmad_agent_conf c;

	memset(&c, 0, sizeof(c));
	c.dev = &td.dev;
	c.port = 1;
	c.qpn = qpn;
	c.mgmt_class = class;
	c.class_version = version;
	c.method_mask[0] = mask0;
	c.recv_cb = rec_recv;
	c.send_cb = rec_send;
	c.arg = rec;
	return agent_reg(&c);
}

static void
send_params(struct rte_ibmad_send_params *p, const uint8_t *mad,
	    uint32_t timeout_ms, uint8_t retries, void *ctx)
{
	memset(p, 0, sizeof(*p));
	p->mad = mad;
	p->len = RTE_IB_MAD_SIZE;
	p->ah_attr.dlid = 0x21;
	p->ah_attr.sl = 0;
	p->remote_qpn = 1;
	p->remote_qkey = RTE_IB_QP1_QKEY;
	p->timeout_ms = timeout_ms;
	p->retries = retries;
	p->context = ctx;
}

static int
reset(void)
{
	td.nsent = 0;
	td.send_ret = 0;
	td.nprocess = 0;
	return TEST_SUCCESS;
}

/* --- agents --- */

static int
test_agent_register(void)
{
	struct rte_ibmad_agent_conf c;
	struct rte_ibmad_agent *a, *b;
	struct rec r = { 0 };

	/* An SM class on QP1, a GSI class on QP0, port 3, no device. */
	TEST_ASSERT(agent_on(1, RTE_IB_MGMT_CLASS_SUBN_LID_ROUTED, 1, 0, &r) == NULL,
		    "SM class on QP1");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rte_errno");
	TEST_ASSERT(agent_on(0, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, 0, &r) == NULL,
		    "SA class on QP0");
	memset(&c, 0, sizeof(c));
	c.dev = &td.dev;
	c.port = 3;
	c.qpn = 1;
	TEST_ASSERT(rte_ibmad_agent_register(&c) == NULL, "port 3");
	c.port = 1;
	c.method_mask[0] = 2;
	TEST_ASSERT(rte_ibmad_agent_register(&c) == NULL, "methods without class");
	c.dev = NULL;
	TEST_ASSERT(rte_ibmad_agent_register(&c) == NULL, "no device");

	/* Two agents may not take the same method of a class. */
	a = agent_on(1, 0x09, 1, 1u << RTE_IB_METHOD_GET, &r);
	TEST_ASSERT(a != NULL, "register: %s", rte_strerror(rte_errno));
	TEST_ASSERT(agent_on(1, 0x09, 1, 1u << RTE_IB_METHOD_GET, &r) == NULL,
		    "same method twice");
	TEST_ASSERT_EQUAL(rte_errno, EBUSY, "rte_errno");
	b = agent_on(1, 0x09, 1, 1u << RTE_IB_METHOD_SET, &r);
	TEST_ASSERT(b != NULL, "another method");
	TEST_ASSERT(rte_ibmad_agent_hi_tid(a) != rte_ibmad_agent_hi_tid(b),
		    "each agent its own TID high part");
	TEST_ASSERT(rte_ibmad_agent_hi_tid(a) != 0, "hi TID 0 is never used");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister");
	TEST_ASSERT_EQUAL(rte_ibmad_agent_unregister(a), -1, "unregister twice");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(b), "unregister");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(NULL), "NULL");
	return TEST_SUCCESS;
}

/* Request out, response in: TID high part, match, callback. */
static int
test_request_response(void)
{
	struct rte_ibmad_send_params p;
	struct rte_ibmad_agent *a;
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rte_ibmad_stats s0 = stats();
	struct rec r = { 0 };
	uint64_t tid;
	int ctx;

	a = agent_on(1, 0, 0, 0, &r);
	TEST_ASSERT(a != NULL, "register");
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET,
	       RTE_IB_SA_ATTR_PATH_REC, 0x1234);
	send_params(&p, mad, 1000, 0, &ctx);
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, &tid), "send: %s",
			    rte_strerror(rte_errno));
	TEST_ASSERT_EQUAL(tid >> 32, rte_ibmad_agent_hi_tid(a), "TID high part");
	TEST_ASSERT_EQUAL(td.nsent, 1, "posted");
	TEST_ASSERT_EQUAL(tid_of(td.sent[0].mad), tid, "TID on the wire");
	TEST_ASSERT_EQUAL(td.sent[0].qpn, 1, "QP1");
	TEST_ASSERT_EQUAL(td.sent[0].buf.ah_attr.dlid, 0x21, "DLID");
	TEST_ASSERT_EQUAL(td.sent[0].buf.ah_attr.port_num, 1, "agent's port");
	TEST_ASSERT_EQUAL(td.sent[0].buf.remote_qkey, RTE_IB_QP1_QKEY, "Q_Key");
	rte_ibmad_poll();
	TEST_ASSERT_EQUAL(r.nsend, 0, "no completion before the response");

	/* A response with another TID matches nothing. */
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET_RESP,
	       RTE_IB_SA_ATTR_PATH_REC, tid + 1);
	TEST_ASSERT_SUCCESS(deliver(1, 0x21, mad), "deliver");
	TEST_ASSERT_EQUAL(r.nsend, 0, "wrong TID matched");
	TEST_ASSERT_EQUAL(stats().rx_unmatched, s0.rx_unmatched + 1, "unmatched");
	/* Same TID, other class: no match either (Linux ib_find_send_mad). */
	mk_mad(mad, RTE_IB_MGMT_CLASS_PERF_MGMT, 1, RTE_IB_METHOD_GET_RESP, 0, tid);
	TEST_ASSERT_SUCCESS(deliver(1, 0x21, mad), "deliver");
	TEST_ASSERT_EQUAL(r.nsend, 0, "other class matched");
	/* The response. */
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET_RESP,
	       RTE_IB_SA_ATTR_PATH_REC, tid);
	TEST_ASSERT_SUCCESS(deliver(1, 0x21, mad), "deliver");
	TEST_ASSERT_EQUAL(r.nsend, 1, "completed");
	TEST_ASSERT_EQUAL(r.status[0], 0, "status");
	TEST_ASSERT_EQUAL(r.resp_tid[0], tid, "response handed over");
	TEST_ASSERT(r.context[0] == &ctx, "context");
	TEST_ASSERT_EQUAL(stats().rx_response, s0.rx_response + 1, "rx_response");
	/* A duplicate response finds the send gone. */
	TEST_ASSERT_SUCCESS(deliver(1, 0x21, mad), "deliver");
	TEST_ASSERT_EQUAL(r.nsend, 1, "duplicate completed twice");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister");
	return TEST_SUCCESS;
}

/* No response: retries with the same TID, then -ETIMEDOUT. */
static int
test_timeout_retries(void)
{
	struct rte_ibmad_send_params p;
	struct rte_ibmad_agent *a;
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rte_ibmad_stats s0 = stats();
	struct rec r = { 0 };
	unsigned int i;
	uint64_t tid;

	a = agent_on(1, 0, 0, 0, &r);
	TEST_ASSERT(a != NULL, "register");
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET,
	       RTE_IB_SA_ATTR_NODE_REC, 0);
	send_params(&p, mad, 20, 2, NULL);
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, &tid), "send");
	for (i = 0; i < 100 && r.nsend == 0; i++) {
		sleep_ms(5);
		rte_ibmad_poll();
	}
	TEST_ASSERT_EQUAL(r.nsend, 1, "completed");
	TEST_ASSERT_EQUAL(r.status[0], -ETIMEDOUT, "status");
	TEST_ASSERT_EQUAL(td.nsent, 3, "first attempt and two retries");
	for (i = 0; i < 3; i++)
		TEST_ASSERT_EQUAL(tid_of(td.sent[i].mad), tid, "attempt %u: same TID", i);
	TEST_ASSERT_EQUAL(stats().retries, s0.retries + 2, "retries");
	TEST_ASSERT_EQUAL(stats().timeouts, s0.timeouts + 1, "timeouts");

	/* A response to a retried send still matches. */
	reset();
	send_params(&p, mad, 20, 3, NULL);
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, &tid), "send");
	for (i = 0; i < 100 && td.nsent < 2; i++) {
		sleep_ms(5);
		rte_ibmad_poll();
	}
	TEST_ASSERT(td.nsent >= 2, "retried");
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET_RESP,
	       RTE_IB_SA_ATTR_NODE_REC, tid);
	TEST_ASSERT_SUCCESS(deliver(1, 0x21, mad), "deliver");
	TEST_ASSERT_EQUAL(r.nsend, 2, "completed");
	TEST_ASSERT_EQUAL(r.status[1], 0, "answered after a retry");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister");
	return TEST_SUCCESS;
}

/* Sends without a response, send errors, the outstanding bound. */
static int
test_send_paths(void)
{
	struct rte_ibmad_send_params p;
	struct rte_ibmad_agent *a;
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rec r = { 0 };
	unsigned int i;

	a = agent_on(1, 0, 0, 0, &r);
	TEST_ASSERT(a != NULL, "register");
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_SEND, 0, 0);
	send_params(&p, mad, 0, 0, NULL);
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, NULL), "send");
	TEST_ASSERT_EQUAL(r.nsend, 0, "callback inside rte_ibmad_send");
	rte_ibmad_poll();
	TEST_ASSERT_EQUAL(r.nsend, 1, "completed by the next pass");
	TEST_ASSERT_EQUAL(r.status[0], 0, "status");

	/* Refused synchronously: the special QP is down. */
	td.send_ret = -ENETDOWN;
	TEST_ASSERT_EQUAL(rte_ibmad_send(a, &p, NULL), -1, "QP down");
	TEST_ASSERT_EQUAL(rte_errno, ENETDOWN, "rte_errno");
	td.send_ret = 0;

	/* Bad parameters. */
	p.len = 100;
	TEST_ASSERT_EQUAL(rte_ibmad_send(a, &p, NULL), -1, "short MAD");
	p.len = RTE_IB_MAD_SIZE;
	mad[0] = 2;
	TEST_ASSERT_EQUAL(rte_ibmad_send(a, &p, NULL), -1, "BaseVersion 2");
	mad[0] = 1;
	mad[1] = RTE_IB_MGMT_CLASS_SUBN_LID_ROUTED;
	TEST_ASSERT_EQUAL(rte_ibmad_send(a, &p, NULL), -1, "SMP on QP1");
	mad[1] = RTE_IB_MGMT_CLASS_SUBN_ADM;
	p.timeout_ms = RTE_IBMAD_MAX_TIMEOUT_MS + 1;
	TEST_ASSERT_EQUAL(rte_ibmad_send(a, &p, NULL), -1, "timeout too long");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rte_errno");

	/* At most RTE_IBMAD_MAX_OUTSTANDING per agent. */
	reset();
	send_params(&p, mad, 10000, 0, NULL);
	mad[3] = RTE_IB_METHOD_GET;
	for (i = 0; i < RTE_IBMAD_MAX_OUTSTANDING; i++)
		TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, NULL), "send %u", i);
	TEST_ASSERT_EQUAL(rte_ibmad_send(a, &p, NULL), -1, "one too many");
	TEST_ASSERT_EQUAL(rte_errno, ENOBUFS, "rte_errno");
	/* Unregistering cancels them all, before it returns. */
	r.nsend = 0;
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister");
	TEST_ASSERT_EQUAL(r.nsend, RTE_IBMAD_MAX_OUTSTANDING, "every send cancelled");
	TEST_ASSERT_EQUAL(r.status[0], -ECANCELED, "status");
	TEST_ASSERT_EQUAL(rte_ibmad_send(a, &p, NULL), -1, "send on a freed agent");
	return TEST_SUCCESS;
}

static int
test_cancel(void)
{
	struct rte_ibmad_send_params p;
	struct rte_ibmad_agent *a;
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rec r = { 0 };
	uint64_t t1, t2;

	a = agent_on(1, 0, 0, 0, &r);
	TEST_ASSERT(a != NULL, "register");
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET, 0x35, 0);
	send_params(&p, mad, 10000, 0, NULL);
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, &t1), "send 1");
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, &t2), "send 2");
	TEST_ASSERT(t1 != t2, "fresh TIDs");
	TEST_ASSERT_SUCCESS(rte_ibmad_cancel(a, t1), "cancel");
	TEST_ASSERT_EQUAL(rte_ibmad_cancel(a, t1 + 100), -1, "unknown TID");
	TEST_ASSERT_EQUAL(rte_errno, ENOENT, "rte_errno");
	rte_ibmad_poll();
	TEST_ASSERT_EQUAL(r.nsend, 1, "one completion");
	TEST_ASSERT_EQUAL(r.tid[0], t1, "the cancelled one");
	TEST_ASSERT_EQUAL(r.status[0], -ECANCELED, "status");
	/* A callback that unregisters its own agent. */
	r.unregister_me = a;
	TEST_ASSERT_SUCCESS(rte_ibmad_cancel(a, t2), "cancel 2");
	rte_ibmad_poll();
	TEST_ASSERT_EQUAL(r.nsend, 2, "second completion");
	TEST_ASSERT(r.unregister_me == NULL, "unregistered from its callback");
	return TEST_SUCCESS;
}

/* Unsolicited requests: dispatch by class, version, method; the rest. */
static int
test_unsolicited(void)
{
	struct rte_ibmad_agent *a;
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rte_ibmad_stats s0 = stats();
	struct rec r = { 0 };
	const struct sent *s;

	a = agent_on(1, 0x09, 1, 1u << RTE_IB_METHOD_GET, &r);
	TEST_ASSERT(a != NULL, "register");
	r.respond = true;
	mk_mad(mad, 0x09, 1, RTE_IB_METHOD_GET, 0x10, 0xabcd00000001ull);
	TEST_ASSERT_SUCCESS(deliver(1, 0x33, mad), "deliver");
	TEST_ASSERT_EQUAL(r.nrecv, 1, "dispatched");
	/* The agent answered from its callback: back to the source. */
	TEST_ASSERT_EQUAL(td.nsent, 1, "response sent");
	s = &td.sent[0];
	TEST_ASSERT_EQUAL(s->mad[3], RTE_IB_METHOD_GET_RESP, "R bit");
	TEST_ASSERT_EQUAL(tid_of(s->mad), 0xabcd00000001ull, "TID kept");
	TEST_ASSERT_EQUAL(s->mad[64], 0x5a, "agent's payload");
	TEST_ASSERT_EQUAL(s->buf.ah_attr.dlid, 0x33, "to the SLID");
	TEST_ASSERT_EQUAL(s->buf.ah_attr.sl, 3, "at its SL");
	TEST_ASSERT_EQUAL(s->buf.remote_qpn, 0x41, "to its QP");
	TEST_ASSERT_EQUAL(s->buf.pkey_index, 2, "same P_Key index");
	rte_ibmad_poll();

	/* Another version or method: nobody's. A Set is answered
	 * "unsupported method/attribute" (IBA 13.4.7), a Send dropped.
	 */
	reset();
	mk_mad(mad, 0x09, 2, RTE_IB_METHOD_GET, 0x10, 7);
	TEST_ASSERT_SUCCESS(deliver(1, 0x33, mad), "deliver");
	mk_mad(mad, 0x09, 1, RTE_IB_METHOD_SET, 0x10, 8);
	TEST_ASSERT_SUCCESS(deliver(1, 0x33, mad), "deliver");
	mk_mad(mad, 0x09, 1, RTE_IB_METHOD_SEND, 0x10, 9);
	TEST_ASSERT_SUCCESS(deliver(1, 0x33, mad), "deliver");
	TEST_ASSERT_EQUAL(r.nrecv, 1, "not dispatched");
	TEST_ASSERT_EQUAL(stats().rx_no_agent, s0.rx_no_agent + 3, "rx_no_agent");
	TEST_ASSERT_EQUAL(td.nsent, 2, "Get and Set answered, Send not");
	TEST_ASSERT_EQUAL(status_of(td.sent[0].mad), 0x000c, "status");
	TEST_ASSERT_EQUAL(td.sent[0].mad[3], RTE_IB_METHOD_GET_RESP, "GetResp");
	TEST_ASSERT_EQUAL(tid_of(td.sent[1].mad), 8, "TID kept");

	/* Invalid MADs are counted and dropped. */
	reset();
	mk_mad(mad, 0x09, 1, RTE_IB_METHOD_GET, 0x10, 10);
	mad[0] = 2;
	TEST_ASSERT_SUCCESS(deliver(1, 0x33, mad), "deliver");
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_LID_ROUTED, 1, RTE_IB_METHOD_GET,
	       RTE_IB_SMP_ATTR_NODE_INFO, 11);
	TEST_ASSERT_SUCCESS(deliver(1, 0x33, mad), "SMP on QP1");
	mk_mad(mad, 0x09, 1, RTE_IB_METHOD_GET, 0x10, 12);
	TEST_ASSERT_SUCCESS(deliver(0, 0x33, mad), "GMP on QP0");
	TEST_ASSERT_EQUAL(stats().rx_invalid, s0.rx_invalid + 3, "rx_invalid");
	TEST_ASSERT_EQUAL(td.nsent, 0, "nothing answered");
	TEST_ASSERT_EQUAL(r.nrecv, 1, "nothing dispatched");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister");
	return TEST_SUCCESS;
}

/* Vendor range 2: registration needs an OUI; dispatch by OUI (Linux
 * ib_register_mad_agent(), find_mad_agent()).
 */
static struct rte_ibmad_agent *
vendor_agent(uint32_t oui, struct rec *rec)
{
	struct rte_ibmad_agent_conf c;

	memset(&c, 0, sizeof(c));
	c.dev = &td.dev;
	c.port = 1;
	c.qpn = 1;
	c.mgmt_class = 0x30;
	c.class_version = 1;
	c.method_mask[0] = 1u << RTE_IB_METHOD_GET;
	c.recv_cb = rec_recv;
	c.arg = rec;
	c.oui = oui;
	return agent_reg(&c);
}

static void
mk_vendor_mad(uint8_t *mad, uint32_t oui, uint64_t tid)
{
	mk_mad(mad, 0x30, 1, RTE_IB_METHOD_GET, 0x10, tid);
	mad[37] = (uint8_t)(oui >> 16);
	mad[38] = (uint8_t)(oui >> 8);
	mad[39] = (uint8_t)oui;
}

static int
test_vendor_oui(void)
{
	struct rte_ibmad_agent *a, *b, *c;
	struct rec ra = { 0 }, rb = { 0 }, rc = { 0 };
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rte_ibmad_stats s0 = stats();

	TEST_ASSERT(vendor_agent(0, &ra) == NULL && rte_errno == EINVAL,
		    "range 2 without an OUI refused");
	TEST_ASSERT(vendor_agent(0x1000000, &ra) == NULL && rte_errno == EINVAL,
		    "an OUI over 24 bits refused");
	a = vendor_agent(0x0002c9, &ra);
	b = vendor_agent(0x001405, &rb);
	TEST_ASSERT(a != NULL && b != NULL, "same class and method, two OUIs");
	c = vendor_agent(0x0002c9, &rc);
	TEST_ASSERT(c == NULL && rte_errno == EBUSY, "same OUI twice refused");

	mk_vendor_mad(mad, 0x001405, 1);
	TEST_ASSERT_SUCCESS(deliver(1, 0x33, mad), "deliver");
	TEST_ASSERT_EQUAL(rb.nrecv, 1, "to the agent of its OUI");
	TEST_ASSERT_EQUAL(ra.nrecv, 0, "not to the other OUI's");
	mk_vendor_mad(mad, 0x0002c9, 2);
	TEST_ASSERT_SUCCESS(deliver(1, 0x33, mad), "deliver");
	TEST_ASSERT_EQUAL(ra.nrecv, 1, "to the agent of its OUI");
	TEST_ASSERT_EQUAL(rb.nrecv, 1, "not to the other OUI's");

	/* An OUI nobody registered: no agent, "unsupported" reply. */
	td.nsent = 0;
	mk_vendor_mad(mad, 0x123456, 3);
	TEST_ASSERT_SUCCESS(deliver(1, 0x33, mad), "deliver");
	TEST_ASSERT_EQUAL(ra.nrecv + rb.nrecv, 2, "no agent for that OUI");
	TEST_ASSERT_EQUAL(stats().rx_no_agent, s0.rx_no_agent + 1, "rx_no_agent");
	TEST_ASSERT_EQUAL(td.nsent, 1, "the Get answered");
	TEST_ASSERT_EQUAL(status_of(td.sent[0].mad), 0x000c, "unsupported status");

	/* The OUI's methods are free again once its agent goes. */
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister");
	c = vendor_agent(0x0002c9, &rc);
	TEST_ASSERT(c != NULL, "the OUI registered again");
	mk_vendor_mad(mad, 0x0002c9, 4);
	TEST_ASSERT_SUCCESS(deliver(1, 0x33, mad), "deliver");
	TEST_ASSERT_EQUAL(rc.nrecv, 1, "to the new agent");
	TEST_ASSERT_EQUAL(ra.nrecv, 1, "not to the old one");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(b), "unregister");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(c), "unregister");
	return TEST_SUCCESS;
}

/* --- local SMA/PMA, snooping, NodeDescription, traps --- */

static unsigned int ev_count[RTE_IB_EVENT_MAX];

static void
ev_cb(const struct rte_ib_event *ev, void *arg)
{
	RTE_SET_USED(arg);
	if (ev->type < RTE_IB_EVENT_MAX)
		ev_count[ev->type]++;
}

static int
test_local_smp(void)
{
	struct rte_ib_port_attr attr;
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rte_ibmad_stats s0 = stats();
	const struct sent *s;

	memset(ev_count, 0, sizeof(ev_count));
	/* Get(NodeDescription), LID routed: the device answers, the core
	 * puts the device's NodeDescription in.
	 */
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_LID_ROUTED, 1, RTE_IB_METHOD_GET,
	       RTE_IB_SMP_ATTR_NODE_DESC, 0x77);
	memset(mad + 64, 'x', 64);
	TEST_ASSERT_SUCCESS(deliver(0, 0x01, mad), "deliver");
	TEST_ASSERT_EQUAL(td.nprocess, 1, "to the device");
	TEST_ASSERT_EQUAL(td.nsent, 1, "reply sent");
	s = &td.sent[0];
	TEST_ASSERT_EQUAL(s->qpn, 0, "on QP0");
	TEST_ASSERT_EQUAL(s->buf.ah_attr.dlid, 0x01, "to the SM's LID");
	TEST_ASSERT_EQUAL(s->mad[3], RTE_IB_METHOD_GET_RESP, "GetResp");
	TEST_ASSERT(memcmp(s->mad + 64, "test node desc", 14) == 0 &&
		    s->mad[64 + 14] == 0, "NodeDescription: %.64s", s->mad + 64);
	TEST_ASSERT_EQUAL(stats().rx_local, s0.rx_local + 1, "rx_local");

	/* Set(PortInfo): LID 0x0005, MasterSMLID 0x0001 SL 0, reregister. */
	reset();
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_LID_ROUTED, 1, RTE_IB_METHOD_SET,
	       RTE_IB_SMP_ATTR_PORT_INFO, 0x78);
	mad[64 + 17] = 0x05;
	mad[64 + 19] = 0x01;
	mad[64 + 51] = 0x80 | 18;
	TEST_ASSERT_SUCCESS(deliver(0, 0x01, mad), "deliver");
	TEST_ASSERT_EQUAL(td.nsent, 1, "reply sent");
	TEST_ASSERT_EQUAL(ev_count[RTE_IB_EVENT_LID_CHANGE], 1, "LID change");
	TEST_ASSERT_EQUAL(ev_count[RTE_IB_EVENT_SM_CHANGE], 1, "SM change");
	TEST_ASSERT_EQUAL(ev_count[RTE_IB_EVENT_CLIENT_REREGISTER], 1, "rereg");
	TEST_ASSERT_SUCCESS(rte_ib_port_attr_cached(&td.dev, 1, &attr), "cache");
	TEST_ASSERT_EQUAL(attr.lid, 5, "cache refreshed by the event");
	/* The same again: nothing changed, no reregistration asked. */
	mad[64 + 51] = 18;
	TEST_ASSERT_SUCCESS(deliver(0, 0x01, mad), "deliver");
	TEST_ASSERT_EQUAL(ev_count[RTE_IB_EVENT_LID_CHANGE], 1, "no LID change");
	TEST_ASSERT_EQUAL(ev_count[RTE_IB_EVENT_SM_CHANGE], 1, "no SM change");
	TEST_ASSERT_EQUAL(ev_count[RTE_IB_EVENT_CLIENT_REREGISTER], 1, "no rereg");
	/* Set(P_KeyTable). */
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_LID_ROUTED, 1, RTE_IB_METHOD_SET,
	       RTE_IB_SMP_ATTR_PKEY_TABLE, 0x79);
	TEST_ASSERT_SUCCESS(deliver(0, 0x01, mad), "deliver");
	TEST_ASSERT_EQUAL(ev_count[RTE_IB_EVENT_PKEY_CHANGE], 1, "P_Key change");
	/* A Get(PortInfo) raises nothing. */
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_LID_ROUTED, 1, RTE_IB_METHOD_GET,
	       RTE_IB_SMP_ATTR_PORT_INFO, 0x7a);
	mad[64 + 17] = 0x09;
	TEST_ASSERT_SUCCESS(deliver(0, 0x01, mad), "deliver");
	TEST_ASSERT_EQUAL(ev_count[RTE_IB_EVENT_LID_CHANGE], 1, "Get snooped");

	/* TrapRepress: to the device, no reply. */
	reset();
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_LID_ROUTED, 1,
	       RTE_IB_METHOD_TRAP_REPRESS, RTE_IB_ATTR_NOTICE, 0x7b);
	TEST_ASSERT_SUCCESS(deliver(0, 0x01, mad), "deliver");
	TEST_ASSERT_EQUAL(td.nprocess, 1, "to the device");
	TEST_ASSERT_EQUAL(td.nsent, 0, "no reply to TrapRepress");
	/* SMInfo is an SM's, not the SMA's: unsupported, answered. */
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_LID_ROUTED, 1, RTE_IB_METHOD_GET,
	       RTE_IB_SMP_ATTR_SM_INFO, 0x7c);
	TEST_ASSERT_SUCCESS(deliver(0, 0x01, mad), "deliver");
	TEST_ASSERT_EQUAL(td.nprocess, 1, "SMInfo not to the device");
	TEST_ASSERT_EQUAL(td.nsent, 1, "answered");
	TEST_ASSERT_EQUAL(status_of(td.sent[0].mad), 0x000c, "unsupported");
	/* PMA Get(PortCounters) on QP1 goes to the device. */
	reset();
	mk_mad(mad, RTE_IB_MGMT_CLASS_PERF_MGMT, 1, RTE_IB_METHOD_GET,
	       RTE_IB_PMA_ATTR_PORT_COUNTERS, 0x7d);
	TEST_ASSERT_SUCCESS(deliver(1, 0x01, mad), "deliver");
	TEST_ASSERT_EQUAL(td.nprocess, 1, "PMA to the device");
	TEST_ASSERT_EQUAL(td.sent[0].qpn, 1, "reply on QP1");
	TEST_ASSERT_EQUAL(td.sent[0].buf.remote_qkey, RTE_IB_QP1_QKEY, "Q_Key");

	/* A trap the device generated (SLID 0) goes to the SM: LID 1. */
	reset();
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_LID_ROUTED, 1, RTE_IB_METHOD_TRAP,
	       RTE_IB_ATTR_NOTICE, 0x7e);
	TEST_ASSERT_SUCCESS(deliver(0, 0, mad), "deliver");
	TEST_ASSERT_EQUAL(td.nprocess, 0, "not to the device");
	TEST_ASSERT_EQUAL(td.nsent, 1, "forwarded");
	TEST_ASSERT_EQUAL(td.sent[0].buf.ah_attr.dlid, 1, "to MasterSMLID");
	TEST_ASSERT_EQUAL(td.sent[0].mad[3], RTE_IB_METHOD_TRAP, "as is");
	return TEST_SUCCESS;
}

/* A directed-route Get(NodeInfo) from an SM one hop away. */
static int
test_dr_smp(void)
{
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rte_ibmad_stats s0 = stats();
	const uint8_t *o;

	reset();
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE, 1, RTE_IB_METHOD_GET,
	       RTE_IB_SMP_ATTR_NODE_INFO, 0x99);
	/* hc 1, hp 1 (the switch's send step moved it), paths: out port 3
	 * of the SM's switch; DrSLID and DrDLID permissive.
	 */
	mad[6] = 1;
	mad[7] = 1;
	memset(mad + 32, 0xff, 4);
	mad[128 + 1] = 3;
	TEST_ASSERT_SUCCESS(deliver(0, RTE_IB_LID_PERMISSIVE, mad), "deliver");
	TEST_ASSERT_EQUAL(td.nprocess, 1, "to the device");
	TEST_ASSERT_EQUAL(td.nsent, 1, "reply sent");
	o = td.sent[0].mad;
	/* Received: C14-9:3 ReturnPath[1] = 1, send step hp 2 (= hc + 1);
	 * reply: C14-13:1 hp 2 -> 1 out ReturnPath[1] = port 1.
	 */
	TEST_ASSERT_EQUAL(status_of(o) & 0x8000, 0x8000, "D bit");
	TEST_ASSERT_EQUAL(o[6], 1, "HopPointer of the reply");
	TEST_ASSERT_EQUAL(o[192 + 1], 1, "ReturnPath[1]");
	TEST_ASSERT_EQUAL(td.sent[0].buf.ah_attr.dlid, RTE_IB_LID_PERMISSIVE,
			  "to the permissive LID");
	TEST_ASSERT_EQUAL(td.sent[0].qpn, 0, "QP0");

	/* HopPointer 0 with HopCount 1: the sender did not move it. */
	mad[6] = 0;
	TEST_ASSERT_SUCCESS(deliver(0, RTE_IB_LID_PERMISSIVE, mad), "deliver");
	TEST_ASSERT_EQUAL(td.nsent, 1, "no reply");
	/* An intermediate hop at a CA. */
	mad[6] = 1;
	mad[7] = 2;
	TEST_ASSERT_SUCCESS(deliver(0, RTE_IB_LID_PERMISSIVE, mad), "deliver");
	TEST_ASSERT_EQUAL(td.nsent, 1, "no reply");
	TEST_ASSERT_EQUAL(stats().rx_smi_discard, s0.rx_smi_discard + 2,
			  "rx_smi_discard");
	return TEST_SUCCESS;
}

/* An agent on QP0 (a local SM) reads its own node: hc 0, never on the
 * wire; the reply comes back through the receive path to the agent.
 */
static int
test_dr_local_loop(void)
{
	struct rte_ibmad_send_params p;
	struct rte_ibmad_agent *a;
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rec r = { 0 };
	uint64_t tid;

	reset();
	a = agent_on(0, 0, 0, 0, &r);
	TEST_ASSERT(a != NULL, "register");
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE, 1, RTE_IB_METHOD_GET,
	       RTE_IB_SMP_ATTR_NODE_INFO, 0);
	memset(mad + 32, 0xff, 4);
	send_params(&p, mad, 1000, 0, NULL);
	p.ah_attr.dlid = RTE_IB_LID_PERMISSIVE;
	p.remote_qpn = 0;
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, &tid), "send: %s",
			    rte_strerror(rte_errno));
	TEST_ASSERT_EQUAL(td.nsent, 0, "not on the wire");
	TEST_ASSERT_EQUAL(td.nprocess, 1, "answered by the device");
	rte_ibmad_poll();
	TEST_ASSERT_EQUAL(r.nsend, 1, "completed");
	TEST_ASSERT_EQUAL(r.status[0], 0, "status");
	TEST_ASSERT_EQUAL(r.resp_tid[0], tid, "the device's reply");
	/* A DR SMP the SMI refuses: HopPointer 5 of 0. */
	mad[6] = 5;
	TEST_ASSERT_EQUAL(rte_ibmad_send(a, &p, NULL), -1, "C14-9:5");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rte_errno");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister");
	return TEST_SUCCESS;
}

/* The control thread sleeps on the device's interrupt fd and wakes for it. */
static int
test_ctrl_thread(void)
{
	struct rte_ibmad_send_params p;
	struct rte_ibmad_agent *a;
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rec r = { 0 };
	uint64_t tid, one = 1;
	unsigned int i;
	uint32_t sid;

	TEST_ASSERT_SUCCESS(rte_ibmad_service_id_get(&sid), "service registered");
	a = agent_on(1, 0, 0, 0, &r);
	TEST_ASSERT(a != NULL, "register");
	TEST_ASSERT_SUCCESS(rte_ibmad_ctrl_thread_set(true), "thread on");
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET, 0x35, 0);
	send_params(&p, mad, 5000, 0, NULL);
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, &tid), "send");
	/* The "PMD" has the response waiting behind its interrupt. */
	mk_mad(td.pending, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET_RESP,
	       0x35, tid);
	td.pending_wc = mk_wc(1, 0x21);
	td.have_pending = true;
	TEST_ASSERT_EQUAL(write(td.efd, &one, sizeof(one)), (ssize_t)sizeof(one),
			  "interrupt");
	for (i = 0; i < 200 && __atomic_load_n(&r.nsend, __ATOMIC_ACQUIRE) == 0; i++)
		sleep_ms(5);
	TEST_ASSERT_SUCCESS(rte_ibmad_ctrl_thread_set(false), "thread off");
	TEST_ASSERT_EQUAL(r.nsend, 1, "completed by the control thread");
	TEST_ASSERT_EQUAL(r.status[0], 0, "status");

	/* Timeouts fire on the thread too, with nobody polling. */
	TEST_ASSERT_SUCCESS(rte_ibmad_ctrl_thread_set(true), "thread on");
	send_params(&p, mad, 20, 1, NULL);
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, &tid), "send");
	for (i = 0; i < 200 && __atomic_load_n(&r.nsend, __ATOMIC_ACQUIRE) == 1; i++)
		sleep_ms(5);
	TEST_ASSERT_SUCCESS(rte_ibmad_ctrl_thread_set(false), "thread off");
	TEST_ASSERT_EQUAL(r.nsend, 2, "timed out on the thread");
	TEST_ASSERT_EQUAL(r.status[1], -ETIMEDOUT, "status");

	/*
	 * A send wakes the sleeping thread only for a deadline earlier than
	 * the one it sleeps until: a long one, then a short one that must
	 * still time out on time, the long one still waiting.
	 */
	TEST_ASSERT_SUCCESS(rte_ibmad_ctrl_thread_set(true), "thread on");
	send_params(&p, mad, 60000, 0, NULL);
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, &tid), "long send");
	sleep_ms(20);	/* the thread now sleeps until the long deadline */
	send_params(&p, mad, 20, 0, NULL);
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, NULL), "short send");
	for (i = 0; i < 200 && __atomic_load_n(&r.nsend, __ATOMIC_ACQUIRE) == 2; i++)
		sleep_ms(5);
	TEST_ASSERT_EQUAL(__atomic_load_n(&r.nsend, __ATOMIC_ACQUIRE), 3,
			  "the short send timed out while the thread slept");
	TEST_ASSERT_EQUAL(r.status[2], -ETIMEDOUT, "status");
	TEST_ASSERT(i < 100, "timed out within 0.5 s of a 20 ms time-out (%u polls)", i);
	TEST_ASSERT_SUCCESS(rte_ibmad_cancel(a, tid), "cancel the long one");
	for (i = 0; i < 200 && __atomic_load_n(&r.nsend, __ATOMIC_ACQUIRE) == 3; i++)
		sleep_ms(5);
	TEST_ASSERT_EQUAL(r.status[3], -ECANCELED, "cancelled");

	/*
	 * A send the thread makes itself (from this callback) does not wake
	 * it: its pass plans its sleep from that send's deadline. With
	 * nothing else outstanding the thread would otherwise sleep for good.
	 */
	r.resend_ms = 20;
	r.resend_mad = mad;
	send_params(&p, mad, 20, 0, NULL);
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, NULL), "send");
	for (i = 0; i < 200 && __atomic_load_n(&r.nsend, __ATOMIC_ACQUIRE) < 6; i++)
		sleep_ms(5);
	TEST_ASSERT_EQUAL(__atomic_load_n(&r.nsend, __ATOMIC_ACQUIRE), 6,
			  "the thread's own send timed out (%u)", r.nsend);
	TEST_ASSERT_EQUAL(r.status[4], -ETIMEDOUT, "status");
	TEST_ASSERT_EQUAL(r.status[5], -ETIMEDOUT, "status of the resend");
	TEST_ASSERT_SUCCESS(rte_ibmad_ctrl_thread_set(false), "thread off");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister");
	return TEST_SUCCESS;
}

/* The same work as the "ibmad" service, run on this (application) lcore
 * as a service lcore would.
 */
static int
test_service(void)
{
	struct rte_ibmad_send_params p;
	struct rte_ibmad_agent *a;
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rec r = { 0 };
	uint32_t sid;
	uint64_t tid;
	struct rte_ib_mad_wc wc = mk_wc(1, 0x21);

	TEST_ASSERT_SUCCESS(rte_ibmad_service_id_get(&sid), "service id");
	TEST_ASSERT(strcmp(rte_service_get_name(sid), "ibmad") == 0, "name");
	a = agent_on(1, 0, 0, 0, &r);
	TEST_ASSERT(a != NULL, "register");
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET, 0x35, 0);
	send_params(&p, mad, 5000, 0, NULL);
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, &tid), "send");
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET_RESP, 0x35, tid);
	TEST_ASSERT_SUCCESS(rte_ib_device_mad_recv(&td.dev, &wc, mad, sizeof(mad)),
			    "deliver");
	TEST_ASSERT_EQUAL(r.nsend, 0, "nothing runs before the service");
	TEST_ASSERT_SUCCESS(rte_service_runstate_set(sid, 1), "runstate");
	TEST_ASSERT_SUCCESS(rte_service_run_iter_on_app_lcore(sid, 1), "run");
	TEST_ASSERT_EQUAL(r.nsend, 1, "completed by the service");
	TEST_ASSERT_EQUAL(r.resp_tid[0], tid, "response");
	rte_service_runstate_set(sid, 0);
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister");
	return TEST_SUCCESS;
}

/* Unregistering the device cancels its agents' sends with -ENODEV. */
static int
test_device_gone(void)
{
	struct rte_ibmad_send_params p;
	struct rte_ibmad_agent *a;
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rte_ibmad_stats s;
	struct rec r = { 0 };

	a = agent_on(1, 0, 0, 0, &r);
	TEST_ASSERT(a != NULL, "register");
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET, 0x35, 0);
	send_params(&p, mad, 5000, 0, NULL);
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, NULL), "send");
	rte_ib_unregister_event_handler(&td.dev, ev_cb, NULL);
	TEST_ASSERT_SUCCESS(rte_ib_device_unregister(&td.dev), "unregister dev");
	TEST_ASSERT_EQUAL(r.nsend, 1, "cancelled");
	TEST_ASSERT_EQUAL(r.status[0], -ENODEV, "status");
	TEST_ASSERT_EQUAL(rte_ibmad_send(a, &p, NULL), -1, "send after");
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "rte_errno");
	TEST_ASSERT_EQUAL(rte_ibmad_stats_get(&td.dev, &s), -1, "not served");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister agent");
	return TEST_SUCCESS;
}

/* --- RMPP (IBA 13.6) through the core, for an agent with rmpp_version --- */

static struct rte_ibmad_agent *
rmpp_agent(struct rec *rec)
{
	struct rte_ibmad_agent_conf c;

	memset(&c, 0, sizeof(c));
	c.dev = &td.dev;
	c.port = 1;
	c.qpn = 1;
	c.send_cb = rec_send;
	c.arg = rec;
	c.rmpp_version = 1;
	return agent_reg(&c);
}

static uint32_t
be32_of(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* An RMPP segment of a GetTableResp: SegmentNumber @seg, flags, Data2. */
static void
mk_seg(uint8_t *m, uint64_t tid, uint32_t seg, uint8_t flags, uint32_t data2,
       uint8_t fill)
{
	mk_mad(m, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_SA_METHOD_GET_TABLE_RESP,
	       RTE_IB_SA_ATTR_NODE_REC, tid);
	m[24] = 1;
	m[25] = 1;
	m[26] = 1 | flags;
	m[28] = (uint8_t)(seg >> 24); m[29] = (uint8_t)(seg >> 16);
	m[30] = (uint8_t)(seg >> 8); m[31] = (uint8_t)seg;
	m[32] = (uint8_t)(data2 >> 24); m[33] = (uint8_t)(data2 >> 16);
	m[34] = (uint8_t)(data2 >> 8); m[35] = (uint8_t)data2;
	memset(m + 56, fill, 200);
}

/* An RMPP @type (ACK, STOP, ABORT) for @tid from LID @slid with @method. */
static int
deliver_ctl(uint16_t slid, uint8_t method, uint8_t type, uint64_t tid, uint32_t seg,
	    uint32_t win)
{
	uint8_t ack[RTE_IB_MAD_SIZE];

	mk_seg(ack, tid, seg, 0, win, 0);
	memset(ack + 56, 0, 200);
	ack[3] = method;
	ack[25] = type;
	return deliver(1, slid, ack);
}

/* An RMPP ACK (or @type) for @tid from LID @slid. */
static int
deliver_ack_from(uint16_t slid, uint8_t type, uint64_t tid, uint32_t seg,
		 uint32_t win)
{
	return deliver_ctl(slid, RTE_IB_SA_METHOD_GET_TABLE, type, tid, seg, win);
}

/* An RMPP @type from the receiver's LID 0x21 with method @method. */
static int
deliver_ctl_kind(uint8_t method, uint8_t type, uint64_t tid, uint32_t seg,
		 uint32_t win)
{
	return deliver_ctl(0x21, method, type, tid, seg, win);
}

/* An RMPP ACK from the receiver (LID 0x21) for TID @tid: segment @seg,
 * window @win.
 */
static int
deliver_ack(uint64_t tid, uint32_t seg, uint32_t win)
{
	return deliver_ack_from(0x21, 2, tid, seg, win);
}

/* A GetTableResp of 56 + 900 bytes with RMPP Active, TID @tid. */
static void
rmpp_resp_msg(uint8_t *msg, uint64_t tid)
{
	unsigned int i;

	mk_mad(msg, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_SA_METHOD_GET_TABLE_RESP,
	       RTE_IB_SA_ATTR_NODE_REC, tid);
	msg[24] = 1;
	msg[25] = 1;
	msg[26] = 1;            /* RMPP Active */
	for (i = 56; i < 56 + 900; i++)
		msg[i] = (uint8_t)i;
}

/*
 * A GetTableResp of 56 + 900 bytes goes out in ceil(900 / 200) = 5
 * segments: one before the first ACK (window 1), the next four after an
 * ACK granting up to segment 5; the last ACK completes the send. A
 * time-out in between resends from the segment after the last ACK.
 */
static int
test_rmpp_send(void)
{
	static uint8_t msg[56 + 900];
	struct rte_ibmad_send_params p;
	struct rte_ibmad_agent *a;
	struct rec r = { 0 };
	uint64_t tid = UINT64_C(0x0000abcd00000007);

	a = rmpp_agent(&r);
	TEST_ASSERT(a != NULL, "register");
	rmpp_resp_msg(msg, tid);
	send_params(&p, msg, 0, 0, NULL);
	p.len = sizeof(msg);
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, NULL), "send: %s",
			    rte_strerror(rte_errno));
	TEST_ASSERT_EQUAL(td.nsent, 1, "window of one before the first ACK");
	TEST_ASSERT_EQUAL(td.sent[0].mad[26], 0x3, "Active|First");
	TEST_ASSERT_EQUAL(be32_of(td.sent[0].mad + 28), 1, "segment 1");
	TEST_ASSERT_EQUAL(be32_of(td.sent[0].mad + 32), 5 * 220 - 100,
			  "first PayloadLength (5 segments, 100 bytes of pad)");
	TEST_ASSERT_EQUAL(tid_of(td.sent[0].mad), tid, "a response keeps its TID");
	/* ACK, STOP and ABORT of the segments' own kind (R bit set): what
	 * another client of the receiver's host writes with the TID it
	 * keeps; the receiver's flips the R bit (format_ack()).
	 */
	TEST_ASSERT_SUCCESS(deliver_ctl_kind(RTE_IB_SA_METHOD_GET_TABLE_RESP, 2,
					     tid, 1, 5), "ACK, R bit set");
	TEST_ASSERT_SUCCESS(deliver_ctl_kind(RTE_IB_SA_METHOD_GET_TABLE_RESP, 3,
					     tid, 0, 0), "STOP, R bit set");
	TEST_ASSERT_SUCCESS(deliver_ctl_kind(RTE_IB_SA_METHOD_GET_TABLE_RESP, 4,
					     tid, 0, 0), "ABORT, R bit set");
	TEST_ASSERT_EQUAL(td.nsent, 1, "the window stays shut");
	TEST_ASSERT_EQUAL(r.nsend, 0, "the send goes on");
	TEST_ASSERT_SUCCESS(deliver_ack(tid, 1, 5), "ACK 1");
	TEST_ASSERT_EQUAL(td.nsent, 5, "window opened to segment 5");
	TEST_ASSERT_EQUAL(td.sent[4].mad[26], 0x5, "Active|Last");
	TEST_ASSERT_EQUAL(be32_of(td.sent[4].mad + 32), 220 - 100, "last PayloadLength");
	TEST_ASSERT_EQUAL(td.sent[4].mad[56], (uint8_t)(56 + 800), "payload 800");
	TEST_ASSERT_EQUAL(r.nsend, 0, "not done before the last ACK");
	/* Segment 3 was lost: after the time-out, 3 to 5 again. */
	TEST_ASSERT_SUCCESS(deliver_ack(tid, 2, 5), "ACK 2");
	sleep_ms(1100);
	rte_ibmad_poll();
	TEST_ASSERT_EQUAL(td.nsent, 8, "resent from segment 3");
	TEST_ASSERT_EQUAL(be32_of(td.sent[5].mad + 28), 3, "segment 3 again");
	TEST_ASSERT_SUCCESS(deliver_ack(tid, 5, 5), "ACK 5");
	TEST_ASSERT_EQUAL(r.nsend, 1, "completed");
	TEST_ASSERT_EQUAL(r.status[0], 0, "status");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister");
	return TEST_SUCCESS;
}

/*
 * Retries are per window (Linux process_rmpp_ack() restores them at each
 * ACK that moves the window): with 3 (the least RMPP gives a window), two
 * time-outs before the first ACK and three after it still complete the
 * send; a fourth time-out in a row fails it.
 */
static int
test_rmpp_send_retries(void)
{
	static uint8_t msg[56 + 900];
	struct rte_ibmad_send_params p;
	struct rte_ibmad_agent *a;
	struct rec r = { 0 };
	uint64_t tid = UINT64_C(0x0000abcd00000009);
	unsigned int i, round;

	a = rmpp_agent(&r);
	TEST_ASSERT(a != NULL, "register");
	for (round = 0; round < 2; round++) {
		rmpp_resp_msg(msg, ++tid);
		send_params(&p, msg, 30, 0, NULL);  /* 30 ms per window */
		p.len = sizeof(msg);
		td.nsent = 0;
		TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, NULL), "send");
		TEST_ASSERT_EQUAL(td.nsent, 1, "segment 1");
		for (i = 0; i < 2; i++) {
			sleep_ms(40);
			rte_ibmad_poll();
		}
		TEST_ASSERT_EQUAL(td.nsent, 3, "segment 1 resent twice");
		TEST_ASSERT_SUCCESS(deliver_ack(tid, 1, 5), "ACK 1");
		TEST_ASSERT_EQUAL(td.nsent, 7, "segments 2 to 5");
		for (i = 0; i < 3 + round; i++) {
			sleep_ms(40);
			rte_ibmad_poll();
		}
		if (round == 0) {
			TEST_ASSERT_EQUAL(td.nsent, 7 + 3 * 4, "2 to 5 resent three times");
			TEST_ASSERT_EQUAL(r.nsend, 0, "still going after the ACK's retries");
			TEST_ASSERT_SUCCESS(deliver_ack(tid, 5, 5), "ACK 5");
			TEST_ASSERT_EQUAL(r.nsend, 1, "completed");
			TEST_ASSERT_EQUAL(r.status[0], 0, "status");
		} else {
			TEST_ASSERT_EQUAL(r.nsend, 2, "a fourth time-out in a row ends it");
			TEST_ASSERT_EQUAL(r.status[1], -ETIMEDOUT, "status");
		}
	}
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister");
	return TEST_SUCCESS;
}

/*
 * A GetTable whose response comes in 3 segments (56 + 450 bytes): each
 * segment is taken, an ACK with the request's method and TID goes back
 * after the first and the last, and the send completes with the whole
 * message (len 506).
 */
static int
test_rmpp_recv(void)
{
	struct rte_ibmad_send_params p;
	struct rte_ibmad_agent *a;
	uint8_t mad[RTE_IB_MAD_SIZE], seg[3][RTE_IB_MAD_SIZE];
	struct rec r = { 0 };
	unsigned int n0;
	uint64_t tid;

	a = rmpp_agent(&r);
	TEST_ASSERT(a != NULL, "register");
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_SA_METHOD_GET_TABLE,
	       RTE_IB_SA_ATTR_NODE_REC, 0);
	send_params(&p, mad, 1000, 0, NULL);
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, &tid), "send");
	/* Segments as IBA 13.6.2 lays them out: 200 payload bytes each. */
	mk_seg(seg[0], tid, 1, 2, 3 * 220 - 150, 0x10);
	mk_seg(seg[1], tid, 2, 0, 0, 0x11);
	mk_seg(seg[2], tid, 3, 4, 220 - 150, 0x12);
	n0 = td.nsent;
	TEST_ASSERT_SUCCESS(deliver(1, 0x21, seg[0]), "segment 1");
	TEST_ASSERT_EQUAL(td.nsent, n0 + 1, "ACK after the first segment");
	TEST_ASSERT_EQUAL(td.sent[n0].mad[3], RTE_IB_SA_METHOD_GET_TABLE,
			  "ACK: the R bit flipped back");
	TEST_ASSERT_EQUAL(td.sent[n0].mad[25], 2, "ACK type");
	TEST_ASSERT_EQUAL(tid_of(td.sent[n0].mad), tid, "ACK keeps the TID");
	TEST_ASSERT_EQUAL(be32_of(td.sent[n0].mad + 28), 1, "ACK of segment 1");
	TEST_ASSERT(be32_of(td.sent[n0].mad + 32) >= 3, "window covers the rest");
	TEST_ASSERT_EQUAL(td.sent[n0].buf.ah_attr.dlid, 0x21, "ACK to the sender");
	TEST_ASSERT_EQUAL(r.nsend, 0, "not done yet");
	TEST_ASSERT_SUCCESS(deliver(1, 0x21, seg[2]), "segment 3 out of order");
	TEST_ASSERT_EQUAL(r.nsend, 0, "out of order is dropped");
	TEST_ASSERT_SUCCESS(deliver(1, 0x21, seg[1]), "segment 2");
	TEST_ASSERT_SUCCESS(deliver(1, 0x21, seg[2]), "segment 3");
	TEST_ASSERT_EQUAL(r.nsend, 1, "completed");
	TEST_ASSERT_EQUAL(r.status[0], 0, "status");
	TEST_ASSERT_EQUAL(r.resp_len, 506u, "whole message: 56 + 450");
	TEST_ASSERT_EQUAL(r.resp_byte_300, 0x11, "segment 2's payload at 300");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister");
	return TEST_SUCCESS;
}

/* --- the SA client (rte_ibmad_sa.h) over the core --- */

struct sa_result {
	int status;
	unsigned int n;
	struct rte_ib_sa_node_rec recs[4];
	bool done;
};

static void
sa_cb(int status, const void *recs, unsigned int n, void *arg)
{
	struct sa_result *res = arg;

	res->status = status;
	res->n = n;
	if (n > 0)
		memcpy(res->recs, recs, RTE_MIN(n, 4u) * sizeof(res->recs[0]));
	res->done = true;
}

/*
 * A NodeRecord GetTable goes to the SM's LID (the port's MasterSMLID) on
 * QP1; the GetTableResp (one RMPP segment, two records at AttributeOffset
 * 14) comes back as two unpacked records; an SA status comes back by
 * name; a cancelled query calls back with -ECANCELED.
 */
static int
test_sa_client(void)
{
	struct rte_ib_sa_node_rec q;
	struct sa_result res = { 0 };
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rte_ib_port_attr pa;
	uint64_t tid, id;
	unsigned int n0;

	TEST_ASSERT_SUCCESS(rte_ib_port_attr_cached(&td.dev, 1, &pa), "port");
	TEST_ASSERT(pa.sm_lid != 0, "an SM LID to send to");
	memset(&q, 0, sizeof(q));
	q.lid = 0x10;
	n0 = td.nsent;
	TEST_ASSERT_SUCCESS(rte_ibmad_sa_query(&td.dev, 1, RTE_IB_SA_METHOD_GET_TABLE,
					       RTE_IB_SA_ATTR_NODE_REC,
					       RTE_IB_SA_NODE_REC_LID, &q, NULL,
					       sa_cb, &res, &id),
			    "query: %s", rte_strerror(rte_errno));
	TEST_ASSERT_EQUAL(td.nsent, n0 + 1, "posted");
	TEST_ASSERT_EQUAL(td.sent[n0].buf.ah_attr.dlid, pa.sm_lid, "to the SM's LID");
	TEST_ASSERT_EQUAL(td.sent[n0].buf.remote_qpn, 1, "QP1");
	TEST_ASSERT_EQUAL(td.sent[n0].mad[1], RTE_IB_MGMT_CLASS_SUBN_ADM, "SA class");
	TEST_ASSERT_EQUAL(td.sent[n0].mad[3], RTE_IB_SA_METHOD_GET_TABLE, "GetTable");
	TEST_ASSERT_EQUAL(td.sent[n0].mad[55], 0x01, "ComponentMask: LID");
	TEST_ASSERT_EQUAL(td.sent[n0].mad[56], 0x00, "NodeRecord.LID high byte");
	TEST_ASSERT_EQUAL(td.sent[n0].mad[57], 0x10, "NodeRecord.LID");
	tid = tid_of(td.sent[n0].mad);

	/*
	 * One record at AttributeOffset 14 (112 bytes) in one RMPP segment:
	 * 112 of its 200 payload bytes used, so PayloadLength 220 - 88.
	 */
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_SA_METHOD_GET_TABLE_RESP,
	       RTE_IB_SA_ATTR_NODE_REC, tid);
	mad[24] = 1;
	mad[25] = 1;
	mad[26] = 0x7;                  /* Active, First, Last */
	mad[31] = 1;                    /* SegmentNumber 1 */
	mad[35] = 220 - 88;
	mad[45] = 14;                   /* AttributeOffset */
	mad[57] = 0x10;                 /* LID 0x10 */
	mad[62] = 1;                    /* NodeInfo.NodeType: CA */
	TEST_ASSERT_SUCCESS(deliver(1, pa.sm_lid, mad), "response");
	TEST_ASSERT(res.done, "called back");
	TEST_ASSERT_EQUAL(res.status, 0, "status %s", rte_ibmad_sa_strerror(res.status));
	TEST_ASSERT_EQUAL(res.n, 1u, "one record");
	TEST_ASSERT_EQUAL(res.recs[0].lid, 0x10, "LID");
	TEST_ASSERT_EQUAL(res.recs[0].info.node_type, 1, "NodeType");

	/* An SA status: ERR_NO_RECORDS (0x0300). */
	memset(&res, 0, sizeof(res));
	n0 = td.nsent;
	TEST_ASSERT_SUCCESS(rte_ibmad_sa_query(&td.dev, 1, RTE_IB_METHOD_GET,
					       RTE_IB_SA_ATTR_NODE_REC,
					       RTE_IB_SA_NODE_REC_LID, &q, NULL,
					       sa_cb, &res, &id), "query 2");
	tid = tid_of(td.sent[n0].mad);
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET_RESP,
	       RTE_IB_SA_ATTR_NODE_REC, tid);
	mad[4] = 0x03;
	TEST_ASSERT_SUCCESS(deliver(1, pa.sm_lid, mad), "error response");
	TEST_ASSERT(res.done, "called back");
	TEST_ASSERT_EQUAL(res.status, RTE_IBMAD_SA_ERR_NO_RECORDS, "named error");
	TEST_ASSERT(strcmp(rte_ibmad_sa_strerror(res.status), "ERR_NO_RECORDS") == 0,
		    "its name");

	/* Cancel. */
	memset(&res, 0, sizeof(res));
	TEST_ASSERT_SUCCESS(rte_ibmad_sa_query(&td.dev, 1, RTE_IB_METHOD_GET,
					       RTE_IB_SA_ATTR_NODE_REC,
					       RTE_IB_SA_NODE_REC_LID, &q, NULL,
					       sa_cb, &res, &id), "query 3");
	TEST_ASSERT_SUCCESS(rte_ibmad_sa_cancel(id), "cancel");
	rte_ibmad_poll();
	TEST_ASSERT(res.done, "called back");
	TEST_ASSERT_EQUAL(res.status, -ECANCELED, "cancelled");
	TEST_ASSERT_EQUAL(rte_ibmad_sa_cancel(id), -1, "cancel twice");
	return TEST_SUCCESS;
}

/* --- SA client hardening (issue 29) --- */

/* Records of any type as the SA client hands them over, raw. */
struct sa_raw {
	int status;
	unsigned int n;
	bool done;
	size_t host;            /* the host struct's size, set by the caller */
	uint8_t recs[4096];
};

static void
sa_raw_cb(int status, const void *recs, unsigned int n, void *arg)
{
	struct sa_raw *res = arg;

	res->status = status;
	res->n = n;
	res->done = true;
	if (n > 0)
		memcpy(res->recs, recs, RTE_MIN(n * res->host, sizeof(res->recs)));
}

/*
 * Deliver @msg (headers and @len - 56 bytes of SA data) from @slid as
 * the RMPP segments of a response (IBA 13.6.2.3, Linux get_mad_len()):
 * 200 data bytes each, PayloadLength of the first nseg * 220 - pad, of
 * the last 220 - pad.
 */
static int
deliver_rmpp(const uint8_t *msg, size_t len, uint16_t slid)
{
	uint8_t seg[RTE_IB_MAD_SIZE];
	size_t data = len - RTE_IB_SA_DATA_OFFSET, off;
	uint32_t nseg = (uint32_t)((data + 199) / 200), i, pad, paylen;

	if (nseg == 0)
		nseg = 1;
	pad = nseg * 200 - (uint32_t)data;
	for (i = 0; i < nseg; i++) {
		memset(seg, 0, sizeof(seg));
		memcpy(seg, msg, RTE_IB_SA_DATA_OFFSET);
		off = RTE_IB_SA_DATA_OFFSET + (size_t)i * 200;
		memcpy(seg + RTE_IB_SA_DATA_OFFSET, msg + off, RTE_MIN((size_t)200, len - off));
		seg[24] = 1;
		seg[25] = 1;            /* DATA */
		seg[26] = 1 | (i == 0 ? 2 : 0) | (i == nseg - 1 ? 4 : 0);
		seg[31] = (uint8_t)(i + 1);
		paylen = i == 0 ? nseg * 220 - pad : i == nseg - 1 ? 220 - pad : 0;
		seg[32] = (uint8_t)(paylen >> 24);
		seg[33] = (uint8_t)(paylen >> 16);
		seg[34] = (uint8_t)(paylen >> 8);
		seg[35] = (uint8_t)paylen;
		if (deliver(1, slid, seg) < 0)
			return -1;
	}
	return 0;
}

/*
 * GetTable answers whose AttributeOffset is larger than the record
 * (IBA 15.2.1.1: records start every AttributeOffset words; a newer SA
 * may send longer records), for every record type the client decodes:
 * three records, 8 and 24 bytes of junk after each, the last one padded
 * or not. The client hands over exactly the three records, each equal
 * to the record unpacked from its own offset; an AttributeOffset below
 * the record's size is -EPROTO.
 */
static int
test_sa_attr_offset(void)
{
	static const struct {
		uint16_t attr;
		const char *name;
	} types[] = {
		{ RTE_IB_SA_ATTR_PATH_REC, "PathRecord" },
		{ RTE_IB_SA_ATTR_MCMEMBER_REC, "MCMemberRecord" },
		{ RTE_IB_SA_ATTR_NODE_REC, "NodeRecord" },
		{ RTE_IB_SA_ATTR_PORT_INFO_REC, "PortInfoRecord" },
		{ RTE_IB_SA_ATTR_SERVICE_REC, "ServiceRecord" },
		{ RTE_IB_SA_ATTR_INFORM_INFO_REC, "InformInfoRecord" },
	};
	static uint8_t msg[RTE_IB_SA_DATA_OFFSET + 3 * 256];
	static uint8_t query[512], ref[3 * 512];
	static struct sa_raw res;
	const struct rte_ib_record_layout *l;
	struct rte_ib_port_attr pa;
	unsigned int t, extra, shape, i, j, n0;
	size_t stride, data, host;
	uint64_t tid;

	rte_ib_port_attr_cached(&td.dev, 1, &pa);
	memset(query, 0, sizeof(query));
	for (t = 0; t < RTE_DIM(types); t++) {
		l = rte_ib_sa_layout_by_attr(types[t].attr);
		TEST_ASSERT(l != NULL && l->host_size <= 512, "%s layout", types[t].name);
		host = l->host_size;
		for (extra = 8; extra <= 24; extra += 16) {
			for (shape = 0; shape < 2; shape++) {
				stride = RTE_ALIGN_CEIL((size_t)l->wire_size, 8) + extra;
				data = 2 * stride + (shape == 0 ? stride : l->wire_size);
				memset(&res, 0, sizeof(res));
				res.host = host;
				td.nsent = 0;   /* the table holds MAX_SENT */
				n0 = td.nsent;
				TEST_ASSERT_SUCCESS(rte_ibmad_sa_query(&td.dev, 1,
						RTE_IB_SA_METHOD_GET_TABLE, types[t].attr, 0,
						query, NULL, sa_raw_cb, &res, NULL),
						"%s query: %s", types[t].name,
						rte_strerror(rte_errno));
				tid = tid_of(td.sent[n0].mad);
				mk_mad(msg, RTE_IB_MGMT_CLASS_SUBN_ADM, 2,
				       RTE_IB_SA_METHOD_GET_TABLE_RESP, types[t].attr, tid);
				msg[44] = (uint8_t)((stride / 8) >> 8);
				msg[45] = (uint8_t)(stride / 8);
				/* Junk everywhere, then each record's own bytes. */
				memset(msg + RTE_IB_SA_DATA_OFFSET, 0xa5, 3 * 256);
				memset(ref, 0, sizeof(ref));
				for (i = 0; i < 3; i++) {
					uint8_t *r = msg + RTE_IB_SA_DATA_OFFSET + i * stride;

					for (j = 0; j < l->wire_size; j++)
						r[j] = (uint8_t)(i * 37 + j * 7 + 1);
					TEST_ASSERT_SUCCESS(rte_ib_unpack(l, r, l->wire_size,
									  ref + i * host),
							    "%s reference %u", types[t].name, i);
				}
				TEST_ASSERT_SUCCESS(deliver_rmpp(msg, RTE_IB_SA_DATA_OFFSET + data,
								 pa.sm_lid), "deliver");
				TEST_ASSERT(res.done, "%s answered", types[t].name);
				TEST_ASSERT_EQUAL(res.status, 0, "%s: %s", types[t].name,
						  rte_ibmad_sa_strerror(res.status));
				TEST_ASSERT_EQUAL(res.n, 3u, "%s offset %zu %s: three records",
						  types[t].name, stride,
						  shape == 0 ? "padded" : "last unpadded");
				for (i = 0; i < 3; i++)
					TEST_ASSERT(memcmp(res.recs + i * host, ref + i * host,
							   host) == 0,
						    "%s offset %zu: record %u read from the "
						    "wrong place", types[t].name, stride, i);
			}
		}
		/* AttributeOffset below the record's size. */
		memset(&res, 0, sizeof(res));
		n0 = td.nsent;
		TEST_ASSERT_SUCCESS(rte_ibmad_sa_query(&td.dev, 1, RTE_IB_SA_METHOD_GET_TABLE,
						       types[t].attr, 0, query, NULL,
						       sa_raw_cb, &res, NULL), "query");
		tid = tid_of(td.sent[n0].mad);
		mk_mad(msg, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_SA_METHOD_GET_TABLE_RESP,
		       types[t].attr, tid);
		msg[45] = (uint8_t)(l->wire_size / 8 - 1);
		TEST_ASSERT_SUCCESS(deliver_rmpp(msg, RTE_IB_SA_DATA_OFFSET + 2 * l->wire_size,
						 pa.sm_lid), "deliver");
		TEST_ASSERT_EQUAL(res.status, -EPROTO, "%s: short AttributeOffset refused",
				  types[t].name);
	}
	return TEST_SUCCESS;
}

/* A NodeRecord Get of LID 0x10 answered into @res: its TID, 0 if not sent. */
static uint64_t
sa_node_get(struct sa_result *res)
{
	struct rte_ib_sa_node_rec q;
	unsigned int n0 = td.nsent;

	memset(res, 0, sizeof(*res));
	memset(&q, 0, sizeof(q));
	q.lid = 0x10;
	if (rte_ibmad_sa_query(&td.dev, 1, RTE_IB_METHOD_GET, RTE_IB_SA_ATTR_NODE_REC,
			       RTE_IB_SA_NODE_REC_LID, &q, NULL, sa_cb, res, NULL) < 0 ||
	    td.nsent != n0 + 1)
		return 0;
	return tid_of(td.sent[n0].mad);
}

/*
 * Every status is an error (IBA 13.4.7 and 15.2.1.2): the common MAD
 * status (busy, redirect, and each invalid-field code) comes back as
 * RTE_IBMAD_SA_ERR_MAD with its code, not as records, even when the
 * answer carries a record; the SA's own status by its name; each
 * counted apart. An answer of another attribute is -EPROTO.
 */
static int
test_sa_mad_status(void)
{
	static const uint16_t codes[] = { 0x0001, 0x0002, 0x0004, 0x0008, 0x000c, 0x001c };
	struct rte_ibmad_sa_stats s0, s1;
	struct sa_result res;
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rte_ib_port_attr pa;
	unsigned int i;
	uint64_t tid;

	rte_ib_port_attr_cached(&td.dev, 1, &pa);
	TEST_ASSERT_SUCCESS(rte_ibmad_sa_stats_get(&td.dev, 1, &s0), "stats");
	for (i = 0; i <= RTE_DIM(codes); i++) {
		tid = sa_node_get(&res);
		TEST_ASSERT(tid != 0, "query");
		mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET_RESP,
		       RTE_IB_SA_ATTR_NODE_REC, tid);
		if (i < RTE_DIM(codes)) {
			mad[4] = (uint8_t)(codes[i] >> 8);
			mad[5] = (uint8_t)codes[i];
		} else {
			mad[4] = 0x03;          /* ERR_NO_RECORDS */
		}
		mad[57] = 0x10;                 /* a record, all the same */
		mad[62] = 1;
		TEST_ASSERT_SUCCESS(deliver(1, pa.sm_lid, mad), "answer");
		TEST_ASSERT(res.done, "called back");
		TEST_ASSERT_EQUAL(res.n, 0u, "status 0x%04x: no records", mad[4] << 8 | mad[5]);
		if (i < RTE_DIM(codes)) {
			TEST_ASSERT_EQUAL(res.status, RTE_IBMAD_SA_ERR_MAD | codes[i],
					  "MAD status 0x%04x is an error", codes[i]);
			TEST_ASSERT(strncmp(rte_ibmad_sa_strerror(res.status), "MAD status: ",
					    12) == 0, "named: %s",
				    rte_ibmad_sa_strerror(res.status));
		} else {
			TEST_ASSERT_EQUAL(res.status, RTE_IBMAD_SA_ERR_NO_RECORDS, "SA status");
		}
	}
	/* An answer of another attribute is no answer to this query. */
	tid = sa_node_get(&res);
	TEST_ASSERT(tid != 0, "query");
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET_RESP,
	       RTE_IB_SA_ATTR_PORT_INFO_REC, tid);
	TEST_ASSERT_SUCCESS(deliver(1, pa.sm_lid, mad), "answer");
	TEST_ASSERT_EQUAL(res.status, -EPROTO, "PortInfoRecord for a NodeRecord query");
	TEST_ASSERT_SUCCESS(rte_ibmad_sa_stats_get(&td.dev, 1, &s1), "stats");
	TEST_ASSERT_EQUAL(s1.bad_answers - s0.bad_answers, 1u, "counted");
	TEST_ASSERT_EQUAL(s1.mad_errors - s0.mad_errors, RTE_DIM(codes), "MAD errors");
	TEST_ASSERT_EQUAL(s1.sa_errors - s0.sa_errors, 1u, "SA errors apart");
	TEST_ASSERT_EQUAL(s1.answers, s0.answers, "no answer taken as records");
	return TEST_SUCCESS;
}

static unsigned int notices_seen;

/* Answer the Set(InformInfo) queries sent since @n0, so none is retried. */
static void
answer_inform(unsigned int n0, uint16_t sm_lid)
{
	uint8_t mad[RTE_IB_MAD_SIZE];
	unsigned int i, n = td.nsent;

	for (i = n0; i < n; i++) {
		if (td.sent[i].mad[1] != RTE_IB_MGMT_CLASS_SUBN_ADM ||
		    td.sent[i].mad[3] != RTE_IB_METHOD_SET || td.sent[i].mad[17] != 0x03)
			continue;
		memcpy(mad, td.sent[i].mad, sizeof(mad));
		mad[3] = RTE_IB_METHOD_GET_RESP;
		deliver(1, sm_lid, mad);
	}
}

static void
notice_cb(struct rte_ib_device *dev, uint8_t port, const struct rte_ib_notice *n,
	  void *arg)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(port);
	RTE_SET_USED(arg);
	if (n->trap_number == RTE_IB_TRAP_GID_IN_SERVICE)
		notices_seen++;
}

struct path_result {
	int status;
	unsigned int n;
	struct rte_ib_sa_path_rec rec;
	bool done;
};

static void
path_cb(int status, const void *recs, unsigned int n, void *arg)
{
	struct path_result *res = arg;

	res->status = status;
	res->n = n;
	if (n > 0)
		memcpy(&res->rec, recs, sizeof(res->rec));
	res->done = true;
}

/*
 * One path asked for (NumbPath 1 in the mask) is a SubnAdmGet, as
 * Linux's ib_sa_path_rec_get() sends it, and its GetResp is the answer;
 * without NumbPath the query is a GetTable. A GetTableResp whose RMPP
 * header is Active with RMPPType 0 (OpenSM under umad2sim, with no
 * kernel to segment it) is no answer: dropped and counted in rx_invalid.
 */
static int
test_sa_path_get(void)
{
	/* static: the last query is left to the reset, which completes
	 * it (-ECANCELED) after this frame is gone
	 */
	static struct path_result res;
	struct rte_ibmad_stats s0 = stats();
	struct rte_ib_sa_path_rec q, a;
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rte_ib_port_attr pa;
	uint64_t mask, tid;
	unsigned int n0;

	memset(&res, 0, sizeof(res));
	TEST_ASSERT_SUCCESS(rte_ib_port_attr_cached(&td.dev, 1, &pa), "port");
	memset(&q, 0, sizeof(q));
	q.dlid = 0x22;
	q.numb_path = 1;
	mask = RTE_IB_SA_PATH_REC_DLID | RTE_IB_SA_PATH_REC_NUMB_PATH;
	n0 = td.nsent;
	TEST_ASSERT_SUCCESS(rte_ibmad_sa_path_rec_get(&td.dev, 1, &q, mask, NULL, path_cb,
						      &res, NULL), "query");
	TEST_ASSERT_EQUAL(td.nsent, n0 + 1, "posted");
	TEST_ASSERT_EQUAL(td.sent[n0].mad[3], RTE_IB_METHOD_GET, "one path: SubnAdmGet");
	tid = tid_of(td.sent[n0].mad);

	memset(&a, 0, sizeof(a));
	a.dlid = 0x22;
	a.slid = 0x11;
	a.pkey = 0xffff;
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_SA_METHOD_GET_TABLE_RESP,
	       RTE_IB_SA_ATTR_PATH_REC, tid);
	mad[24] = 1;                    /* RMPPVersion 1 */
	mad[26] = 0x1;                  /* Active; RMPPType 0 */
	mad[45] = RTE_IB_SA_PATH_REC_SIZE / 8;
	TEST_ASSERT_SUCCESS(rte_ib_sa_path_rec_pack(&a, mad + RTE_IB_SA_DATA_OFFSET,
						    RTE_IB_MAD_SIZE - RTE_IB_SA_DATA_OFFSET),
			    "pack");
	TEST_ASSERT_SUCCESS(deliver(1, pa.sm_lid, mad), "RMPPType 0");
	TEST_ASSERT(!res.done, "an Active MAD of RMPPType 0 is not an answer");
	TEST_ASSERT_EQUAL(stats().rx_invalid, s0.rx_invalid + 1, "counted in rx_invalid");

	mad[3] = RTE_IB_METHOD_GET_RESP;
	mad[24] = mad[26] = 0;
	TEST_ASSERT_SUCCESS(deliver(1, pa.sm_lid, mad), "GetResp");
	TEST_ASSERT(res.done, "called back");
	TEST_ASSERT_EQUAL(res.status, 0, "status %s", rte_ibmad_sa_strerror(res.status));
	TEST_ASSERT_EQUAL(res.n, 1u, "one record");
	TEST_ASSERT_EQUAL(res.rec.dlid, 0x22, "DLID");
	TEST_ASSERT_EQUAL(res.rec.slid, 0x11, "SLID");

	memset(&res, 0, sizeof(res));
	n0 = td.nsent;
	TEST_ASSERT_SUCCESS(rte_ibmad_sa_path_rec_get(&td.dev, 1, &q, RTE_IB_SA_PATH_REC_DLID,
						      NULL, path_cb, &res, NULL), "query 2");
	TEST_ASSERT_EQUAL(td.sent[n0].mad[3], RTE_IB_SA_METHOD_GET_TABLE,
			  "no NumbPath: SubnAdmGetTable");
	return TEST_SUCCESS;
}

/*
 * A Report (IBA 13.4.8.2) is the SA's only when it comes from the SA's
 * LID, where the subscription was made: one from another LID is
 * dropped unanswered and counted; the same Report from the SA reaches
 * the subscriber and is answered with ReportResp.
 */
static int
test_sa_report_source(void)
{
	struct rte_ibmad_sa_stats s0, s1;
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rte_ib_port_attr pa;
	unsigned int n0, i;
	uint64_t sub;

	rte_ib_port_attr_cached(&td.dev, 1, &pa);
	notices_seen = 0;
	TEST_ASSERT_SUCCESS(rte_ibmad_sa_subscribe(&td.dev, 1, RTE_IB_TRAP_GID_IN_SERVICE,
						   notice_cb, NULL, &sub), "subscribe");
	answer_inform(0, pa.sm_lid);
	TEST_ASSERT_SUCCESS(rte_ibmad_sa_stats_get(&td.dev, 1, &s0), "stats");
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_REPORT,
	       RTE_IB_ATTR_NOTICE, 0x77);
	mad[56] = 0x80 | 3;             /* IsGeneric, Type: informational */
	mad[61] = RTE_IB_TRAP_GID_IN_SERVICE;
	n0 = td.nsent;
	TEST_ASSERT_SUCCESS(deliver(1, pa.sm_lid + 7, mad), "forged Report");
	TEST_ASSERT_EQUAL(notices_seen, 0u, "not handed to the subscriber");
	for (i = n0; i < td.nsent; i++)
		TEST_ASSERT(td.sent[i].mad[3] != RTE_IB_METHOD_REPORT_RESP,
			    "no ReportResp to the forger");
	TEST_ASSERT_SUCCESS(rte_ibmad_sa_stats_get(&td.dev, 1, &s1), "stats");
	TEST_ASSERT_EQUAL(s1.reports_dropped, s0.reports_dropped + 1, "counted");
	n0 = td.nsent;
	TEST_ASSERT_SUCCESS(deliver(1, pa.sm_lid, mad), "the SA's Report");
	TEST_ASSERT_EQUAL(notices_seen, 1u, "handed to the subscriber");
	TEST_ASSERT_EQUAL(td.nsent, n0 + 1, "answered");
	TEST_ASSERT_EQUAL(td.sent[n0].mad[3], RTE_IB_METHOD_REPORT_RESP, "ReportResp");
	TEST_ASSERT_EQUAL(td.sent[n0].buf.ah_attr.dlid, pa.sm_lid, "to the SA");
	TEST_ASSERT_SUCCESS(rte_ibmad_sa_stats_get(&td.dev, 1, &s1), "stats");
	TEST_ASSERT_EQUAL(s1.reports, s0.reports + 1, "taken");
	n0 = td.nsent;
	TEST_ASSERT_SUCCESS(rte_ibmad_sa_unsubscribe(sub), "unsubscribe");
	answer_inform(n0, pa.sm_lid);
	return TEST_SUCCESS;
}

/* --- the multicast join manager (rte_ibmad_mcast.h) over the SA client --- */

/* What a member's callbacks saw. */
struct mc_seen {
	unsigned int n;
	int status;                     /* of the last call */
	uint16_t mlid;                  /* of the last successful call */
	uint8_t join_state;
};

static void
mc_cb(uint64_t id, int status, const struct rte_ib_sa_mcmember_rec *rec,
      void *arg)
{
	struct mc_seen *s = arg;

	RTE_SET_USED(id);
	s->n++;
	s->status = status;
	if (status == 0 && rec != NULL) {
		s->mlid = rec->mlid;
		s->join_state = rec->join_state;
	}
}

/* A template as IPoIB joins: MGID, PortGID, Q_Key, P_Key, JoinState. */
static void
mc_tmpl(struct rte_ib_sa_mcmember_rec *r, uint8_t last, uint8_t join_state)
{
	memset(r, 0, sizeof(*r));
	rte_ib_gid_set(&r->mgid, UINT64_C(0xff12601bffff0000),
		       UINT64_C(0x00000001ff000000) | last);
	rte_ib_gid_set(&r->port_gid, UINT64_C(0xfe80000000000000),
		       td.dev.node_guid + 1);
	r->qkey = 0x0b1b;
	r->pkey = 0xffff;
	r->join_state = join_state;
}

#define MC_MASK (RTE_IB_SA_MCMEMBER_REC_PORT_GID | RTE_IB_SA_MCMEMBER_REC_QKEY | \
		 RTE_IB_SA_MCMEMBER_REC_PKEY)

static int
mc_join(uint8_t last, uint8_t join_state, struct mc_seen *seen, uint64_t *id)
{
	struct rte_ib_sa_mcmember_rec r;

	mc_tmpl(&r, last, join_state);
	return rte_ibmad_mcast_join(&td.dev, 1, &r, MC_MASK, mc_cb, seen, id);
}

/* The MCMemberRecord of sent MAD @i. */
static struct rte_ib_sa_mcmember_rec
mc_sent_rec(unsigned int i)
{
	struct rte_ib_sa_mcmember_rec r;

	memset(&r, 0, sizeof(r));
	rte_ib_sa_mcmember_rec_unpack(td.sent[i].mad + RTE_IB_SA_DATA_OFFSET,
				      RTE_IB_SA_DATA_SIZE, &r);
	return r;
}

/*
 * The SA's answer to sent MAD @i: GetResp (DeleteResp) with the record
 * the request carried, MLID @mlid, MTU 4 (2048), rate 3 (10 Gb/s), SL 0,
 * unless @status (MAD Status, host order) is an error; @edit may change
 * the record first.
 */
static int
mc_answer(unsigned int i, uint16_t mlid, uint16_t status,
	  void (*edit)(struct rte_ib_sa_mcmember_rec *r))
{
	struct rte_ib_sa_mcmember_rec r = mc_sent_rec(i);
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rte_ib_port_attr pa;

	rte_ib_port_attr_cached(&td.dev, 1, &pa);
	memcpy(mad, td.sent[i].mad, sizeof(mad));
	mad[3] |= 0x80;         /* the R bit: GetResp (0x81), DeleteResp (0x95) */
	if (mad[3] == (RTE_IB_METHOD_SET | 0x80))
		mad[3] = RTE_IB_METHOD_GET_RESP;
	mad[4] = (uint8_t)(status >> 8);
	mad[5] = (uint8_t)status;
	r.mlid = mlid;
	r.mtu = 4;
	r.rate = 3;
	if (edit != NULL)
		edit(&r);
	memset(mad + RTE_IB_SA_DATA_OFFSET, 0, RTE_IB_SA_DATA_SIZE);
	rte_ib_sa_mcmember_rec_pack(&r, mad + RTE_IB_SA_DATA_OFFSET,
				    RTE_IB_SA_DATA_SIZE);
	return deliver(1, pa.sm_lid, mad);
}

static bool
mc_is(unsigned int i, uint8_t method)
{
	return td.sent[i].mad[1] == RTE_IB_MGMT_CLASS_SUBN_ADM &&
		td.sent[i].mad[3] == method &&
		td.sent[i].mad[16] == 0 && td.sent[i].mad[17] == 0x38;
}

/*
 * A member joins and the next pass sends exactly one SA join, as sent
 * MAD @i, with JoinState @want.
 */
static int
mc_join_sent(uint8_t last, uint8_t join_state, struct mc_seen *seen, uint64_t *id,
	     unsigned int i, uint8_t want)
{
	TEST_ASSERT_SUCCESS(mc_join(last, join_state, seen, id), "join: %s",
			    rte_strerror(rte_errno));
	rte_ibmad_poll();
	TEST_ASSERT_EQUAL(td.nsent, i + 1, "one SA join");
	TEST_ASSERT(mc_is(i, RTE_IB_METHOD_SET), "Set(MCMemberRecord)");
	TEST_ASSERT_EQUAL(mc_sent_rec(i).join_state, want, "JoinState 0x%x", want);
	return TEST_SUCCESS;
}

static struct rte_ibmad_mcast_stats mc_stats(void);

/*
 * The group's last members leave: the next pass sends one SA leave, as
 * sent MAD @i, of JoinState @bits; once answered the group is gone.
 */
static int
mc_leave_last(const uint64_t *ids, unsigned int n, unsigned int i, uint8_t bits)
{
	unsigned int k;

	for (k = 0; k < n; k++)
		TEST_ASSERT_SUCCESS(rte_ibmad_mcast_leave(ids[k]), "leave %u", k);
	rte_ibmad_poll();
	TEST_ASSERT_EQUAL(td.nsent, i + 1, "one SA leave");
	TEST_ASSERT(mc_is(i, RTE_IB_SA_METHOD_DELETE), "Delete(MCMemberRecord)");
	TEST_ASSERT_EQUAL(mc_sent_rec(i).join_state, bits, "of JoinState 0x%x", bits);
	TEST_ASSERT_SUCCESS(mc_answer(i, 0, 0, NULL), "leave answer");
	TEST_ASSERT_EQUAL(mc_stats().groups, 0u, "group gone");
	return TEST_SUCCESS;
}

static struct rte_ibmad_mcast_stats
mc_stats(void)
{
	struct rte_ibmad_mcast_stats s;

	memset(&s, 0, sizeof(s));
	rte_ibmad_mcast_stats_get(&td.dev, 1, &s);
	return s;
}

/*
 * Counting (Linux adjust_membership()): two full members of one group
 * make one SA join; a third member bringing SendOnlyNonMember makes a
 * join with the union 0x5; the first full member's leave sends nothing;
 * the send-only member's leave sends a leave of bit 0x4 only; the last
 * full member's leave a leave of 0x1. Every member gets the answer's
 * MLID; no one is called twice.
 */
static int
test_mcast_counting(void)
{
	struct mc_seen a = { 0 }, b = { 0 }, c = { 0 };
	uint64_t ia, ib, ic;
	unsigned int n0 = td.nsent;
	struct rte_ib_sa_mcmember_rec r;

	TEST_ASSERT_SUCCESS(mc_join(1, RTE_IB_SA_MC_JOIN_FULL_MEMBER, &a, &ia),
			    "join A: %s", rte_strerror(rte_errno));
	TEST_ASSERT_EQUAL(td.nsent, n0, "nothing sent before a pass");
	rte_ibmad_poll();
	TEST_ASSERT_EQUAL(td.nsent, n0 + 1, "one SA join");
	TEST_ASSERT(mc_is(n0, RTE_IB_METHOD_SET), "Set(MCMemberRecord)");
	r = mc_sent_rec(n0);
	TEST_ASSERT_EQUAL(r.join_state, 0x1, "JoinState FullMember");
	TEST_ASSERT_EQUAL(r.qkey, 0x0b1b, "the template's Q_Key");
	TEST_ASSERT_EQUAL(td.sent[n0].mad[55] & 0x3, 0x3, "ComponentMask MGID, PortGID");
	TEST_ASSERT_EQUAL(td.sent[n0].mad[53] & 0x1, 0x1, "ComponentMask JoinState");
	/* B before the answer: it waits for the same join. */
	TEST_ASSERT_SUCCESS(mc_join(1, RTE_IB_SA_MC_JOIN_FULL_MEMBER, &b, &ib), "join B");
	rte_ibmad_poll();
	TEST_ASSERT_EQUAL(td.nsent, n0 + 1, "B: no second SA join");
	TEST_ASSERT_SUCCESS(mc_answer(n0, 0xc001, 0, NULL), "answer");
	TEST_ASSERT_EQUAL(a.n, 1u, "A called once");
	TEST_ASSERT_EQUAL(a.status, 0, "A joined");
	TEST_ASSERT_EQUAL(a.mlid, 0xc001, "A has the MLID");
	TEST_ASSERT_EQUAL(b.n, 1u, "B called once");
	TEST_ASSERT_EQUAL(b.mlid, 0xc001, "B has the MLID");

	/* A join for the new bit, with the union 0x1|0x4. */
	TEST_ASSERT_SUCCESS(mc_join_sent(1, RTE_IB_SA_MC_JOIN_SEND_ONLY_NON_MEMBER, &c,
					 &ic, n0 + 1, 0x5), "join C");
	TEST_ASSERT_SUCCESS(mc_answer(n0 + 1, 0xc001, 0, NULL), "answer 2");
	TEST_ASSERT_EQUAL(c.n, 1u, "C called");
	TEST_ASSERT_EQUAL(c.status, 0, "C joined");
	TEST_ASSERT_EQUAL(a.n + b.n, 2u, "A and B not called again");

	TEST_ASSERT_SUCCESS(rte_ibmad_mcast_leave(ia), "leave A");
	rte_ibmad_poll();
	TEST_ASSERT_EQUAL(td.nsent, n0 + 2, "B still holds FullMember: no leave");
	TEST_ASSERT_SUCCESS(rte_ibmad_mcast_leave(ic), "leave C");
	rte_ibmad_poll();
	TEST_ASSERT_EQUAL(td.nsent, n0 + 3, "a leave");
	TEST_ASSERT(mc_is(n0 + 2, RTE_IB_SA_METHOD_DELETE), "Delete(MCMemberRecord)");
	r = mc_sent_rec(n0 + 2);
	TEST_ASSERT_EQUAL(r.join_state, 0x4, "of SendOnlyNonMember only");
	TEST_ASSERT_EQUAL(r.port_gid.raw[15], td.sent[n0].mad[56 + 31], "our PortGID");
	TEST_ASSERT_SUCCESS(mc_answer(n0 + 2, 0xc001, 0, NULL), "leave answer");
	TEST_ASSERT_SUCCESS(rte_ibmad_mcast_leave(ib), "leave B");
	TEST_ASSERT_EQUAL(rte_ibmad_mcast_leave(ib), -1, "leave twice");
	TEST_ASSERT_EQUAL(rte_errno, ENOENT, "ENOENT");
	rte_ibmad_poll();
	TEST_ASSERT_EQUAL(td.nsent, n0 + 4, "the last leave");
	TEST_ASSERT_EQUAL(mc_sent_rec(n0 + 3).join_state, 0x1, "of FullMember");
	TEST_ASSERT_SUCCESS(mc_answer(n0 + 3, 0xc001, 0, NULL), "leave answer");
	TEST_ASSERT_EQUAL(mc_stats().groups, 0u, "group gone");
	TEST_ASSERT_EQUAL(mc_stats().members, 0u, "members gone");
	TEST_ASSERT_EQUAL(a.n + b.n + c.n, 3u, "no callback after a leave");
	return TEST_SUCCESS;
}

/*
 * A member whose join fails gets the error, and only it: an SA error
 * for A; B's later join of the same group succeeds; C, asking for a
 * Q_Key other than the group's, is refused from the record (Linux
 * cmp_rec()), with no SA query and B untouched; D, whose new bit makes
 * a join the SA refuses, fails alone, and B keeps its membership. Bad
 * arguments are refused at the call.
 */
static int
test_mcast_member_error(void)
{
	struct mc_seen a = { 0 }, b = { 0 }, c = { 0 };
	struct rte_ib_sa_mcmember_rec r;
	unsigned int n0 = td.nsent;
	uint64_t ia, ib, ic;

	mc_tmpl(&r, 2, 0);
	TEST_ASSERT_EQUAL(rte_ibmad_mcast_join(&td.dev, 1, &r, MC_MASK, mc_cb, &a, &ia),
			  -1, "JoinState 0 refused");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "EINVAL");
	r.join_state = 0x11;
	TEST_ASSERT_EQUAL(rte_ibmad_mcast_join(&td.dev, 1, &r, MC_MASK, mc_cb, &a, &ia),
			  -1, "JoinState above 4 bits refused");
	r.join_state = 1;
	r.mgid.raw[0] = 0xfe;
	TEST_ASSERT_EQUAL(rte_ibmad_mcast_join(&td.dev, 1, &r, MC_MASK, mc_cb, &a, &ia),
			  -1, "unicast MGID refused");
	TEST_ASSERT_EQUAL(td.nsent, n0, "nothing sent");

	TEST_ASSERT_SUCCESS(mc_join_sent(2, RTE_IB_SA_MC_JOIN_FULL_MEMBER, &a, &ia,
					 n0, 0x1), "join A");
	TEST_ASSERT_SUCCESS(mc_answer(n0, 0, 0x0200, NULL), "ERR_REQ_INVALID");
	TEST_ASSERT_EQUAL(a.n, 1u, "A told");
	TEST_ASSERT_EQUAL(a.status, RTE_IBMAD_SA_ERR_REQ_INVALID, "the SA's error");
	TEST_ASSERT_EQUAL(mc_stats().sa_errors, 1u, "counted");

	TEST_ASSERT_SUCCESS(mc_join_sent(2, RTE_IB_SA_MC_JOIN_FULL_MEMBER, &b, &ib,
					 n0 + 1, 0x1), "B's own SA join: A holds nothing");
	TEST_ASSERT_SUCCESS(mc_answer(n0 + 1, 0xc002, 0, NULL), "answer");
	TEST_ASSERT_EQUAL(b.status, 0, "B joined");
	TEST_ASSERT_EQUAL(b.n, 1u, "B called once");
	TEST_ASSERT_EQUAL(a.n, 1u, "A not called again");

	mc_tmpl(&r, 2, RTE_IB_SA_MC_JOIN_FULL_MEMBER);
	r.qkey = 0x4321;
	TEST_ASSERT_SUCCESS(rte_ibmad_mcast_join(&td.dev, 1, &r, MC_MASK, mc_cb, &c, &ic),
			    "join C");
	rte_ibmad_poll();
	TEST_ASSERT_EQUAL(td.nsent, n0 + 2, "C answered from the record");
	TEST_ASSERT_EQUAL(c.n, 1u, "C told");
	TEST_ASSERT_EQUAL(c.status, -EINVAL, "C: the group's Q_Key is not its");
	TEST_ASSERT_EQUAL(b.n, 1u, "B untouched");
	TEST_ASSERT_SUCCESS(rte_ibmad_mcast_leave(ic), "leave C");

	/* D brings a new bit; the SA refuses the union: D fails, B stays. */
	memset(&c, 0, sizeof(c));
	TEST_ASSERT_SUCCESS(mc_join_sent(2, RTE_IB_SA_MC_JOIN_SEND_ONLY_NON_MEMBER, &c,
					 &ic, n0 + 2, 0x5), "D's join, the union");
	TEST_ASSERT_SUCCESS(mc_answer(n0 + 2, 0, 0x0700, NULL), "ERR_REQ_DENIED");
	TEST_ASSERT_EQUAL(c.n, 1u, "D told");
	TEST_ASSERT_EQUAL(c.status, RTE_IBMAD_SA_ERR_REQ_DENIED, "D: the SA's error");
	TEST_ASSERT_EQUAL(b.n, 1u, "B untouched by D's failure");
	rte_ibmad_poll();
	TEST_ASSERT_EQUAL(td.nsent, n0 + 3, "no leave: B keeps FullMember");

	TEST_ASSERT_SUCCESS(rte_ibmad_mcast_leave(ia), "leave A");
	TEST_ASSERT_SUCCESS(rte_ibmad_mcast_leave(ic), "leave D");
	rte_ibmad_poll();
	TEST_ASSERT_EQUAL(td.nsent, n0 + 3, "failed members hold nothing to leave");
	TEST_ASSERT_SUCCESS(mc_leave_last(&ib, 1, n0 + 3, 0x1), "B's leave of FullMember");
	return TEST_SUCCESS;
}

static void edit_mgid(struct rte_ib_sa_mcmember_rec *r) { r->mgid.raw[15] ^= 0x40; }
static void edit_mtu0(struct rte_ib_sa_mcmember_rec *r) { r->mtu = 0; }
static void edit_mtu6(struct rte_ib_sa_mcmember_rec *r) { r->mtu = 6; }
static void edit_rate1(struct rte_ib_sa_mcmember_rec *r) { r->rate = 1; }
static void edit_rate23(struct rte_ib_sa_mcmember_rec *r) { r->rate = 23; }
static void edit_mlid(struct rte_ib_sa_mcmember_rec *r) { r->mlid = 0x0010; }

/*
 * An answer that is not the request's is refused, counted, and never
 * handed over: another MGID; MTU codes 0 and 6 (IBA 15.2.5.16: 1-5);
 * rate codes 1 and 23 (2-22); a unicast MLID (IBA 4.1.1: 0xC000 up).
 * The member gets -EPROTO. The same answer with valid codes is taken.
 */
static int
test_mcast_bad_answer(void)
{
	static void (*const edits[])(struct rte_ib_sa_mcmember_rec *) = {
		edit_mgid, edit_mtu0, edit_mtu6, edit_rate1, edit_rate23, edit_mlid,
	};
	struct rte_ibmad_mcast_stats s0 = mc_stats();
	struct mc_seen a;
	unsigned int i, n0;
	uint64_t ia;

	for (i = 0; i <= RTE_DIM(edits); i++) {
		memset(&a, 0, sizeof(a));
		n0 = td.nsent;
		TEST_ASSERT_SUCCESS(mc_join_sent(3, RTE_IB_SA_MC_JOIN_FULL_MEMBER, &a, &ia,
						 n0, 0x1), "join %u", i);
		TEST_ASSERT_SUCCESS(mc_answer(n0, 0xc003, 0,
					      i < RTE_DIM(edits) ? edits[i] : NULL),
				    "answer %u", i);
		TEST_ASSERT_EQUAL(a.n, 1u, "told %u", i);
		if (i < RTE_DIM(edits)) {
			TEST_ASSERT_EQUAL(a.status, -EPROTO, "answer %u refused", i);
			TEST_ASSERT_EQUAL(mc_stats().bad_answers, s0.bad_answers + i + 1,
					  "answer %u counted", i);
		} else {
			TEST_ASSERT_EQUAL(a.status, 0, "a valid answer taken");
			TEST_ASSERT_EQUAL(a.mlid, 0xc003, "its MLID");
		}
		TEST_ASSERT_SUCCESS(rte_ibmad_mcast_leave(ia), "leave %u", i);
		rte_ibmad_poll();
		if (i == RTE_DIM(edits)) {
			TEST_ASSERT_EQUAL(td.nsent, n0 + 2, "a leave");
			TEST_ASSERT_SUCCESS(mc_answer(n0 + 1, 0, 0, NULL), "leave answer");
		} else {
			TEST_ASSERT_EQUAL(td.nsent, n0 + 1, "no leave for a refused join");
		}
	}
	TEST_ASSERT_EQUAL(mc_stats().groups, 0u, "group gone");
	return TEST_SUCCESS;
}

static int
mc_event(enum rte_ib_event_type type)
{
	struct rte_ib_event ev = { .dev = &td.dev, .type = type, .port = 1 };

	return rte_ib_dispatch_event(&ev);
}

/* Two members of a group, joined (full and send-only, union 0x5). */
static int
mc_two_members(uint8_t last, struct mc_seen *a, struct mc_seen *b, uint64_t *ia,
	       uint64_t *ib)
{
	unsigned int n0 = td.nsent;

	if (mc_join(last, RTE_IB_SA_MC_JOIN_FULL_MEMBER, a, ia) < 0 ||
	    mc_join(last, RTE_IB_SA_MC_JOIN_SEND_ONLY_NON_MEMBER, b, ib) < 0)
		return -1;
	rte_ibmad_poll();
	if (td.nsent != n0 + 1 || mc_sent_rec(n0).join_state != 0x5 ||
	    mc_answer(n0, 0xc004, 0, NULL) < 0)
		return -1;
	return a->n == 1 && b->n == 1 && a->status == 0 && b->status == 0 ? 0 : -1;
}

/*
 * Events (Linux mcast_event_handler()): client reregister, SM change and
 * LID change raised together (one Set(PortInfo) may carry all three)
 * make one re-join of the group with the union of its members' bits,
 * and every member is called back once with the new answer; a P_Key
 * change makes one more. Other events make none.
 */
static int
test_mcast_rejoin(void)
{
	struct mc_seen a = { 0 }, b = { 0 };
	struct rte_ibmad_mcast_stats s0;
	uint64_t ia, ib, ids[2];
	unsigned int n0;

	TEST_ASSERT_SUCCESS(mc_two_members(4, &a, &b, &ia, &ib), "two members");
	s0 = mc_stats();
	n0 = td.nsent;
	TEST_ASSERT_SUCCESS(mc_event(RTE_IB_EVENT_CLIENT_REREGISTER), "event");
	TEST_ASSERT_SUCCESS(mc_event(RTE_IB_EVENT_SM_CHANGE), "event");
	TEST_ASSERT_SUCCESS(mc_event(RTE_IB_EVENT_LID_CHANGE), "event");
	rte_ibmad_poll();
	rte_ibmad_poll();
	TEST_ASSERT_EQUAL(td.nsent, n0 + 1, "one re-join for three events");
	TEST_ASSERT(mc_is(n0, RTE_IB_METHOD_SET), "a join");
	TEST_ASSERT_EQUAL(mc_sent_rec(n0).join_state, 0x5, "with the union");
	TEST_ASSERT_SUCCESS(mc_answer(n0, 0xc00b, 0, NULL), "answer");
	rte_ibmad_poll();
	TEST_ASSERT_EQUAL(a.n, 2u, "A called back once more");
	TEST_ASSERT_EQUAL(b.n, 2u, "B called back once more");
	TEST_ASSERT_EQUAL(a.mlid, 0xc00b, "A has the new answer");
	TEST_ASSERT_EQUAL(b.mlid, 0xc00b, "B has the new answer");
	TEST_ASSERT_EQUAL(mc_stats().rejoins, s0.rejoins + 1, "one re-join counted");

	TEST_ASSERT_SUCCESS(mc_event(RTE_IB_EVENT_PORT_ACTIVE), "event");
	rte_ibmad_poll();
	TEST_ASSERT_EQUAL(td.nsent, n0 + 1, "PORT_ACTIVE: no re-join");
	TEST_ASSERT_SUCCESS(mc_event(RTE_IB_EVENT_PKEY_CHANGE), "event");
	rte_ibmad_poll();
	TEST_ASSERT_EQUAL(td.nsent, n0 + 2, "P_Key change: a re-join");
	TEST_ASSERT_SUCCESS(mc_answer(n0 + 1, 0xc00b, 0, NULL), "answer");
	TEST_ASSERT_EQUAL(a.n, 3u, "A once more");
	TEST_ASSERT_EQUAL(b.n, 3u, "B once more");

	ids[0] = ia;
	ids[1] = ib;
	TEST_ASSERT_SUCCESS(mc_leave_last(ids, 2, n0 + 2, 0x5), "one leave of 0x1|0x4");
	return TEST_SUCCESS;
}

/*
 * Poll until @ms have passed since @t0; the MCMemberRecord joins sent
 * meanwhile (other tests' SA queries may still be retried).
 */
static unsigned int
mc_poll_until(uint64_t t0, unsigned int ms)
{
	unsigned int n0 = td.nsent, n = 0, i;
	struct timespec ts;
	uint64_t now;

	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		now = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
		if (now >= t0 + ms)
			break;
		rte_ibmad_poll();
		sleep_ms(20);
	}
	rte_ibmad_poll();
	for (i = n0; i < td.nsent; i++)
		n += mc_is(i, RTE_IB_METHOD_SET);
	return n;
}

static uint64_t
mc_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* The latest MCMemberRecord Set or Delete sent (stray retries of other
 * tests' queries may come between).
 */
static unsigned int
mc_last(void)
{
	unsigned int i = td.nsent;

	while (i > 0) {
		i--;
		if (mc_is(i, RTE_IB_METHOD_SET) || mc_is(i, RTE_IB_SA_METHOD_DELETE))
			return i;
	}
	return 0;
}

/*
 * A re-join the SA refuses (ERR_NO_RESOURCES: the SA is not ready) is
 * retried after 1 s, then 2 s (Linux IPoIB's backoff, doubling from 1 s
 * to 16 s), each failure told to every member; the success after that
 * reaches every member, and the next failure starts from 1 s again.
 */
static int
test_mcast_backoff(void)
{
	struct mc_seen a = { 0 }, b = { 0 };
	uint64_t ia, ib, t0;
	unsigned int n0;

	TEST_ASSERT_SUCCESS(mc_two_members(5, &a, &b, &ia, &ib), "two members");
	n0 = td.nsent;
	TEST_ASSERT_SUCCESS(mc_event(RTE_IB_EVENT_CLIENT_REREGISTER), "event");
	rte_ibmad_poll();
	TEST_ASSERT(mc_is(mc_last(), RTE_IB_METHOD_SET) && mc_last() >= n0, "re-join");
	t0 = mc_now_ms();
	TEST_ASSERT_SUCCESS(mc_answer(mc_last(), 0, 0x0100, NULL), "ERR_NO_RESOURCES");
	TEST_ASSERT_EQUAL(a.n, 2u, "A told");
	TEST_ASSERT_EQUAL(a.status, RTE_IBMAD_SA_ERR_NO_RESOURCES, "A: the error");
	TEST_ASSERT_EQUAL(b.n, 2u, "B told");
	TEST_ASSERT_EQUAL(mc_poll_until(t0, 900), 0u, "no retry before 1 s");
	TEST_ASSERT_EQUAL(mc_poll_until(t0, 1400), 1u, "a retry at 1 s");
	TEST_ASSERT_EQUAL(mc_sent_rec(mc_last()).join_state, 0x5, "the union again");
	t0 = mc_now_ms();
	TEST_ASSERT_SUCCESS(mc_answer(mc_last(), 0, 0x0100, NULL), "again");
	TEST_ASSERT_EQUAL(a.n, 3u, "A told again");
	TEST_ASSERT_EQUAL(mc_poll_until(t0, 1900), 0u, "no retry before 2 s");
	TEST_ASSERT_EQUAL(mc_poll_until(t0, 2400), 1u, "a retry at 2 s");
	TEST_ASSERT_SUCCESS(mc_answer(mc_last(), 0xc005, 0, NULL), "success");
	TEST_ASSERT_EQUAL(a.n, 4u, "A re-joined");
	TEST_ASSERT_EQUAL(a.status, 0, "A: success");
	TEST_ASSERT_EQUAL(b.status, 0, "B: success");
	/* The backoff starts from 1 s again. */
	TEST_ASSERT_SUCCESS(mc_event(RTE_IB_EVENT_SM_CHANGE), "event");
	rte_ibmad_poll();
	t0 = mc_now_ms();
	TEST_ASSERT_SUCCESS(mc_answer(mc_last(), 0, 0x0100, NULL), "refused");
	TEST_ASSERT_EQUAL(mc_poll_until(t0, 900), 0u, "not before 1 s");
	TEST_ASSERT_EQUAL(mc_poll_until(t0, 1400), 1u, "retried at 1 s");
	TEST_ASSERT_SUCCESS(mc_answer(mc_last(), 0xc005, 0, NULL), "success");

	TEST_ASSERT_SUCCESS(rte_ibmad_mcast_leave(ia), "leave A");
	TEST_ASSERT_SUCCESS(rte_ibmad_mcast_leave(ib), "leave B");
	rte_ibmad_poll();
	TEST_ASSERT_SUCCESS(mc_answer(mc_last(), 0, 0, NULL), "leave answer");
	TEST_ASSERT_EQUAL(mc_stats().groups, 0u, "group gone");
	return TEST_SUCCESS;
}

/* --- the control-thread API on the real thread (rte_ibmad_ctrl.h) --- */

struct on_thread {
	char name[16];          /* the thread's name where the callback ran */
	uint64_t at_ms;
	int done;
};

static void
on_thread_note(struct on_thread *o)
{
	if (pthread_getname_np(pthread_self(), o->name, sizeof(o->name)) != 0)
		o->name[0] = '\0';
	o->at_ms = rte_ibmad_ctrl_now_ms();
	__atomic_store_n(&o->done, 1, __ATOMIC_RELEASE);
}

static void
on_thread_timer(struct rte_ibmad_ctrl_timer *t, void *arg)
{
	RTE_SET_USED(t);
	on_thread_note(arg);
}

static void
on_thread_call(void *arg)
{
	on_thread_note(arg);
}

static bool
on_thread_wait(struct on_thread *o)
{
	unsigned int i;

	for (i = 0; i < 200 && !__atomic_load_n(&o->done, __ATOMIC_ACQUIRE); i++)
		sleep_ms(5);
	return __atomic_load_n(&o->done, __ATOMIC_ACQUIRE) != 0;
}

/*
 * The control thread, asleep with nothing to wait for (the test device
 * has an interrupt fd, no send is outstanding: epoll_wait() without a
 * time-out), is woken by a timer armed from this thread and runs its
 * callback on time, and runs a call made from this thread; both on
 * "ibmad-ctrl". Without the wake-up the timer would never fire.
 */
static int
test_ctrl_api_thread(void)
{
	struct on_thread tm = { .done = 0 }, call = { .done = 0 };
	struct rte_ibmad_ctrl_timer *t;
	uint64_t deadline;
	bool fired;

	t = rte_ibmad_ctrl_timer_create(on_thread_timer, &tm);
	TEST_ASSERT(t != NULL, "timer: %s", rte_strerror(rte_errno));
	TEST_ASSERT_SUCCESS(rte_ibmad_ctrl_thread_set(true), "thread on");
	sleep_ms(20);   /* the thread now sleeps in epoll_wait(), no time-out */
	deadline = rte_ibmad_ctrl_now_ms() + 30;
	TEST_ASSERT_SUCCESS(rte_ibmad_ctrl_timer_arm(t, deadline), "arm");
	fired = on_thread_wait(&tm);
	if (fired)
		TEST_ASSERT_SUCCESS(rte_ibmad_ctrl_call(on_thread_call, &call), "call");
	if (fired)
		on_thread_wait(&call);
	TEST_ASSERT_SUCCESS(rte_ibmad_ctrl_thread_set(false), "thread off");
	rte_ibmad_ctrl_timer_free(t);
	TEST_ASSERT(fired, "timer armed for +30 ms never fired: the sleeping thread was not woken");
	TEST_ASSERT(tm.at_ms >= deadline, "fired at %" PRIu64 ", before its deadline %" PRIu64,
		    tm.at_ms, deadline);
	TEST_ASSERT(tm.at_ms < deadline + 500, "fired %" PRIu64 " ms late",
		    tm.at_ms - deadline);
	TEST_ASSERT(strcmp(tm.name, "ibmad-ctrl") == 0, "timer ran on \"%s\"", tm.name);
	TEST_ASSERT(call.done, "call never ran");
	TEST_ASSERT(strcmp(call.name, "ibmad-ctrl") == 0, "call ran on \"%s\"", call.name);
	return TEST_SUCCESS;
}

/* --- trust: answers only from where the request went (issue 29) --- */

static int
deliver_wc(const struct rte_ib_mad_wc *wc, const uint8_t *mad)
{
	if (rte_ib_device_mad_recv(&td.dev, wc, mad, RTE_IB_MAD_SIZE) < 0)
		return -1;
	rte_ibmad_poll();
	return 0;
}

static void
gid_of_lid(struct rte_ib_gid *gid, uint16_t lid)
{
	/* fe80::2:c903:0:<lid>, a link-local GID per port. */
	memset(gid, 0, sizeof(*gid));
	gid->raw[0] = 0xfe;
	gid->raw[1] = 0x80;
	gid->raw[9] = 0x02;
	gid->raw[10] = 0xc9;
	gid->raw[11] = 0x03;
	gid->raw[14] = (uint8_t)(lid >> 8);
	gid->raw[15] = (uint8_t)lid;
}

/*
 * A response completes its request only when it comes from where the
 * request went (Linux ib_find_send_mad(), rcv_has_same_gid()): the DLID
 * 0x21 of send_params() as the SLID; with a GRH, the DGID as the SGID,
 * and a GRH on one side only is another peer. A forged answer with the
 * right TID and class is dropped and counted (rx_bad_source, not
 * rx_unmatched), and the real one still completes the request. A request
 * to a multicast LID may be answered by any LID.
 */
static int
test_response_source(void)
{
	struct rte_ibmad_send_params p;
	struct rte_ibmad_agent *a;
	uint8_t mad[RTE_IB_MAD_SIZE], resp[RTE_IB_MAD_SIZE];
	struct rte_ibmad_stats s0 = stats();
	struct rte_ib_mad_wc wc;
	struct rec r = { 0 };
	uint64_t tid;

	a = agent_on(1, 0, 0, 0, &r);
	TEST_ASSERT(a != NULL, "register");
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET,
	       RTE_IB_SA_ATTR_PATH_REC, 0);
	send_params(&p, mad, 5000, 0, NULL);
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, &tid), "send");
	mk_mad(resp, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET_RESP,
	       RTE_IB_SA_ATTR_PATH_REC, tid);
	resp[64] = 0xee;
	TEST_ASSERT_SUCCESS(deliver(1, 0x22, resp), "forged, from LID 0x22");
	TEST_ASSERT_EQUAL(r.nsend, 0, "a response from LID 0x22 completed a "
			  "request to LID 0x21");
	TEST_ASSERT_EQUAL(stats().rx_bad_source, s0.rx_bad_source + 1, "rx_bad_source");
	TEST_ASSERT_EQUAL(stats().rx_unmatched, s0.rx_unmatched, "not unmatched");
	wc = mk_wc(1, 0x21);
	wc.flags = RTE_IB_MAD_WC_GRH;
	gid_of_lid(&wc.grh.sgid, 0x21);
	TEST_ASSERT_SUCCESS(deliver_wc(&wc, resp), "from 0x21 with a GRH");
	TEST_ASSERT_EQUAL(r.nsend, 0, "a GRH answer to a request without one");
	TEST_ASSERT_EQUAL(stats().rx_bad_source, s0.rx_bad_source + 2, "rx_bad_source");
	resp[64] = 0;
	TEST_ASSERT_SUCCESS(deliver(1, 0x21, resp), "the real answer");
	TEST_ASSERT_EQUAL(r.nsend, 1, "the real answer completes it");
	TEST_ASSERT_EQUAL(r.status[0], 0, "status");
	TEST_ASSERT_EQUAL(stats().rx_response, s0.rx_response + 1, "rx_response");

	/* With a GRH: the SGID must be the DGID. */
	p.ah_attr.ah_flags = RTE_IB_AH_GRH;
	gid_of_lid(&p.ah_attr.grh.dgid, 0x21);
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, &tid), "send with a GRH");
	mk_mad(resp, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET_RESP,
	       RTE_IB_SA_ATTR_PATH_REC, tid);
	gid_of_lid(&wc.grh.sgid, 0x22);
	TEST_ASSERT_SUCCESS(deliver_wc(&wc, resp), "another SGID");
	TEST_ASSERT_SUCCESS(deliver(1, 0x21, resp), "no GRH");
	TEST_ASSERT_EQUAL(r.nsend, 1, "another SGID or no GRH completed it");
	TEST_ASSERT_EQUAL(stats().rx_bad_source, s0.rx_bad_source + 4, "rx_bad_source");
	gid_of_lid(&wc.grh.sgid, 0x21);
	TEST_ASSERT_SUCCESS(deliver_wc(&wc, resp), "the DGID");
	TEST_ASSERT_EQUAL(r.nsend, 2, "the answer from the DGID completes it");
	TEST_ASSERT_EQUAL(r.status[1], 0, "status");

	/* To a multicast LID: whoever answers. */
	p.ah_attr.ah_flags = 0;
	p.ah_attr.dlid = 0xc001;
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, &tid), "send to a multicast LID");
	mk_mad(resp, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET_RESP,
	       RTE_IB_SA_ATTR_PATH_REC, tid);
	TEST_ASSERT_SUCCESS(deliver(1, 0x45, resp), "from a member");
	TEST_ASSERT_EQUAL(r.nsend, 3, "answered by a member of the group");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister");
	return TEST_SUCCESS;
}

/* A DR SMP of @hc hops out of port 1, then port 3 for the second hop. */
static void
mk_dr_get(uint8_t *mad, uint8_t hc)
{
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE, 1, RTE_IB_METHOD_GET,
	       RTE_IB_SMP_ATTR_NODE_INFO, 0);
	mad[7] = hc;
	memset(mad + 32, 0xff, 4);      /* DrSLID, DrDLID permissive */
	mad[128 + 1] = 1;
	mad[128 + 2] = 3;
}

/*
 * A directed-route answer comes back with the permissive LID (IBA
 * 14.2.2.4), so its route tells who sent it: the request's HopCount,
 * InitialPath and DrSLID/DrDLID, which a responder keeps. Answers on
 * another route are dropped and counted (rx_bad_route).
 */
static int
test_dr_response_route(void)
{
	struct rte_ibmad_send_params p;
	struct rte_ibmad_agent *a;
	uint8_t mad[RTE_IB_MAD_SIZE], resp[RTE_IB_MAD_SIZE], bad[RTE_IB_MAD_SIZE];
	struct rte_ibmad_stats s0 = stats();
	struct rec r = { 0 };
	uint64_t tid;

	a = agent_on(0, 0, 0, 0, &r);
	TEST_ASSERT(a != NULL, "register");
	mk_dr_get(mad, 2);
	send_params(&p, mad, 5000, 0, NULL);
	p.ah_attr.dlid = RTE_IB_LID_PERMISSIVE;
	p.remote_qpn = 0;
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, &tid), "send: %s",
			    rte_strerror(rte_errno));
	TEST_ASSERT_EQUAL(td.nsent, 1, "on the wire");
	/* The reply as the node 2 hops away returns it: D, HopPointer 1
	 * at the requester (C14-13:3).
	 */
	memcpy(resp, td.sent[0].mad, sizeof(resp));
	resp[3] = RTE_IB_METHOD_GET_RESP;
	resp[4] |= 0x80;
	resp[6] = 1;
	resp[192 + 1] = 1;
	resp[192 + 2] = 5;
	memcpy(bad, resp, sizeof(bad));
	bad[128 + 2] = 4;
	TEST_ASSERT_SUCCESS(deliver(0, RTE_IB_LID_PERMISSIVE, bad), "InitialPath[2] 4");
	memcpy(bad, resp, sizeof(bad));
	bad[7] = 1;
	TEST_ASSERT_SUCCESS(deliver(0, RTE_IB_LID_PERMISSIVE, bad), "HopCount 1");
	memcpy(bad, resp, sizeof(bad));
	bad[34] = 0;
	bad[35] = 0x21;
	TEST_ASSERT_SUCCESS(deliver(0, RTE_IB_LID_PERMISSIVE, bad), "DrDLID 0x21");
	TEST_ASSERT_EQUAL(r.nsend, 0, "an answer on another route completed it");
	TEST_ASSERT_EQUAL(stats().rx_bad_route, s0.rx_bad_route + 3, "rx_bad_route");
	TEST_ASSERT_SUCCESS(deliver(0, RTE_IB_LID_PERMISSIVE, resp), "the route");
	TEST_ASSERT_EQUAL(r.nsend, 1, "the answer on the route completes it");
	TEST_ASSERT_EQUAL(r.status[0], 0, "status");
	TEST_ASSERT_EQUAL(r.resp_tid[0], tid, "TID");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister");
	return TEST_SUCCESS;
}

/*
 * TIDs are not guessable: each agent's low sequence starts at a random
 * point (before: 1 for every agent), and the high parts do not start at
 * 1 in every process. A caller's own low part is kept.
 */
static int
test_tid_random(void)
{
	struct rte_ibmad_send_params p;
	struct rte_ibmad_agent *a, *b;
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rec ra = { 0 }, rb = { 0 };
	uint64_t ta, tb, tc;

	a = agent_on(1, 0, 0, 0, &ra);
	b = agent_on(1, 0, 0, 0, &rb);
	TEST_ASSERT(a != NULL && b != NULL, "register");
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET, 0x35, 0);
	send_params(&p, mad, 5000, 0, NULL);
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, &ta), "send a");
	TEST_ASSERT_SUCCESS(rte_ibmad_send(b, &p, &tb), "send b");
	TEST_ASSERT((uint32_t)ta != (uint32_t)tb,
		    "two agents start their TIDs at the same low part 0x%08x",
		    (uint32_t)ta);
	TEST_ASSERT((uint32_t)ta > 16 || (uint32_t)tb > 16,
		    "low parts 0x%x and 0x%x: a counter from 1", (uint32_t)ta,
		    (uint32_t)tb);
	TEST_ASSERT(rte_ibmad_agent_hi_tid(a) > 4 * RTE_IBMAD_MAX_AGENTS,
		    "high part 0x%x: a counter from 1", rte_ibmad_agent_hi_tid(a));
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET, 0x35, 0xbeef);
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, &tc), "send with a low part");
	TEST_ASSERT_EQUAL((uint32_t)tc, 0xbeef, "the caller's low part kept");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(b), "unregister");
	return TEST_SUCCESS;
}

/* A GetTable from an RMPP agent to LID 0x21; its TID. */
static int
rmpp_request(struct rte_ibmad_agent *a, uint64_t *tid)
{
	struct rte_ibmad_send_params p;
	uint8_t mad[RTE_IB_MAD_SIZE];

	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_SA_METHOD_GET_TABLE,
	       RTE_IB_SA_ATTR_NODE_REC, 0);
	send_params(&p, mad, 5000, 0, NULL);
	return rte_ibmad_send(a, &p, tid);
}

/*
 * RMPP DATA of a response is taken only from the request's destination
 * (Linux find_rmpp_recv()): a forged first or middle segment from LID
 * 0x22 is dropped, not ACKed, and does not reach the message.
 */
static int
test_rmpp_data_source(void)
{
	struct rte_ibmad_agent *a;
	uint8_t seg[RTE_IB_MAD_SIZE];
	struct rte_ibmad_stats s0 = stats();
	struct rec r = { 0 };
	unsigned int n0;
	uint64_t tid;

	a = rmpp_agent(&r);
	TEST_ASSERT(a != NULL, "register");
	TEST_ASSERT_SUCCESS(rmpp_request(a, &tid), "send");
	n0 = td.nsent;
	/* 3 segments, 150 bytes of pad: PayloadLength 510, then 70. */
	mk_seg(seg, tid, 1, 2, 3 * 220 - 150, 0xee);
	TEST_ASSERT_SUCCESS(deliver(1, 0x22, seg), "forged first segment");
	TEST_ASSERT_EQUAL(td.nsent, n0, "a forged segment was ACKed");
	mk_seg(seg, tid, 1, 2, 3 * 220 - 150, 0x10);
	TEST_ASSERT_SUCCESS(deliver(1, 0x21, seg), "segment 1");
	TEST_ASSERT_EQUAL(td.nsent, n0 + 1, "ACK of segment 1");
	mk_seg(seg, tid, 2, 0, 0, 0xee);
	TEST_ASSERT_SUCCESS(deliver(1, 0x22, seg), "forged segment 2");
	mk_seg(seg, tid, 3, 4, 220 - 150, 0xee);
	TEST_ASSERT_SUCCESS(deliver(1, 0x22, seg), "forged segment 3");
	TEST_ASSERT_EQUAL(td.nsent, n0 + 1, "a forged segment was ACKed");
	TEST_ASSERT_EQUAL(r.nsend, 0, "completed by forged segments");
	TEST_ASSERT_EQUAL(stats().rx_bad_source, s0.rx_bad_source + 3, "rx_bad_source");
	mk_seg(seg, tid, 2, 0, 0, 0x11);
	TEST_ASSERT_SUCCESS(deliver(1, 0x21, seg), "segment 2");
	mk_seg(seg, tid, 3, 4, 220 - 150, 0x12);
	TEST_ASSERT_SUCCESS(deliver(1, 0x21, seg), "segment 3");
	TEST_ASSERT_EQUAL(r.nsend, 1, "completed");
	TEST_ASSERT_EQUAL(r.status[0], 0, "status");
	TEST_ASSERT_EQUAL(r.resp_len, 506u, "whole message");
	TEST_ASSERT_EQUAL(r.resp_byte_300, 0x11, "segment 2's payload, not the forger's");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister");
	return TEST_SUCCESS;
}

/*
 * The ACKs, STOPs and ABORTs of a segmented send are taken only from its
 * destination: a forged ACK from LID 0x22 opens no window, a forged
 * STOP/ABORT ends nothing; the receiver's own ACKs complete it.
 */
static int
test_rmpp_ack_source(void)
{
	static uint8_t msg[56 + 900];
	struct rte_ibmad_send_params p;
	struct rte_ibmad_agent *a;
	struct rte_ibmad_stats s0 = stats();
	struct rec r = { 0 };
	uint64_t tid = UINT64_C(0x0000abcd00000107);

	a = rmpp_agent(&r);
	TEST_ASSERT(a != NULL, "register");
	rmpp_resp_msg(msg, tid);
	send_params(&p, msg, 0, 0, NULL);
	p.len = sizeof(msg);
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, NULL), "send");
	TEST_ASSERT_EQUAL(td.nsent, 1, "segment 1");
	TEST_ASSERT_SUCCESS(deliver_ack_from(0x22, 2, tid, 1, 5), "forged ACK");
	TEST_ASSERT_EQUAL(td.nsent, 1, "a forged ACK opened the window");
	TEST_ASSERT_SUCCESS(deliver_ack_from(0x21, 2, tid, 1, 5), "ACK 1");
	TEST_ASSERT_EQUAL(td.nsent, 5, "the receiver's ACK opened it");
	TEST_ASSERT_SUCCESS(deliver_ack_from(0x22, 3, tid, 0, 0), "forged STOP");
	TEST_ASSERT_SUCCESS(deliver_ack_from(0x22, 4, tid, 0, 0), "forged ABORT");
	TEST_ASSERT_SUCCESS(deliver_ack_from(0x22, 2, tid, 5, 5), "forged last ACK");
	TEST_ASSERT_EQUAL(r.nsend, 0, "a forged STOP, ABORT or ACK ended the send");
	TEST_ASSERT_EQUAL(stats().rx_bad_source, s0.rx_bad_source + 4, "rx_bad_source");
	TEST_ASSERT_SUCCESS(deliver_ack_from(0x21, 2, tid, 5, 5), "ACK 5");
	TEST_ASSERT_EQUAL(r.nsend, 1, "completed");
	TEST_ASSERT_EQUAL(r.status[0], 0, "status");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister");
	return TEST_SUCCESS;
}

/*
 * A reassembly does not grow past what its first segment announced:
 * PayloadLength 2 * 220 - 150 says 2 segments; a third is answered with
 * ABORT, RMPPStatus 123 (S2B), counted, and the request is not completed.
 */
static int
test_rmpp_overrun(void)
{
	struct rte_ibmad_agent *a;
	uint8_t seg[RTE_IB_MAD_SIZE];
	struct rte_ibmad_stats s0 = stats();
	struct rec r = { 0 };
	unsigned int n0;
	uint64_t tid;

	a = rmpp_agent(&r);
	TEST_ASSERT(a != NULL, "register");
	TEST_ASSERT_SUCCESS(rmpp_request(a, &tid), "send");
	n0 = td.nsent;
	mk_seg(seg, tid, 1, 2, 2 * 220 - 150, 0x10);
	TEST_ASSERT_SUCCESS(deliver(1, 0x21, seg), "segment 1 of 2");
	mk_seg(seg, tid, 2, 0, 0, 0x11);
	TEST_ASSERT_SUCCESS(deliver(1, 0x21, seg), "segment 2, not Last");
	mk_seg(seg, tid, 3, 0, 0, 0x12);
	TEST_ASSERT_SUCCESS(deliver(1, 0x21, seg), "segment 3 of 2");
	TEST_ASSERT_EQUAL(td.nsent, n0 + 2, "ACK, then one more MAD");
	TEST_ASSERT_EQUAL(td.sent[n0 + 1].mad[25], 4, "ABORT");
	TEST_ASSERT_EQUAL(td.sent[n0 + 1].mad[27], 123, "RMPPStatus S2B");
	TEST_ASSERT_EQUAL(td.sent[n0 + 1].buf.ah_attr.dlid, 0x21, "to the sender");
	TEST_ASSERT_EQUAL(stats().rmpp_rx_aborted, s0.rmpp_rx_aborted + 1,
			  "rmpp_rx_aborted");
	TEST_ASSERT_EQUAL(r.nsend, 0, "an aborted message completed the request");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister");
	TEST_ASSERT_EQUAL(r.status[0], -ECANCELED, "cancelled, never answered");
	return TEST_SUCCESS;
}

/*
 * The receive window (32 segments per ACK, Linux window_size()) against
 * a sender that ignores it: after segment 1 the ACK grants up to 33;
 * segments 34 to 40 sent at once are not taken; the message is whole
 * and right once the sender goes back to 2.
 */
static int
test_rmpp_recv_window(void)
{
	struct rte_ibmad_agent *a;
	uint8_t seg[RTE_IB_MAD_SIZE];
	struct rec r = { 0 };
	unsigned int n0, i;
	uint64_t tid;

	a = rmpp_agent(&r);
	TEST_ASSERT(a != NULL, "register");
	TEST_ASSERT_SUCCESS(rmpp_request(a, &tid), "send");
	n0 = td.nsent;
	/* 40 full segments: PayloadLength 40 * 220. */
	mk_seg(seg, tid, 1, 2, 40 * 220, 1);
	TEST_ASSERT_SUCCESS(deliver(1, 0x21, seg), "segment 1");
	TEST_ASSERT_EQUAL(td.nsent, n0 + 1, "ACK");
	TEST_ASSERT_EQUAL(be32_of(td.sent[n0].mad + 32), 33, "NewWindowLast 1 + 32");
	for (i = 34; i <= 40; i++) {
		mk_seg(seg, tid, i, i == 40 ? 4 : 0, i == 40 ? 220 : 0, (uint8_t)i);
		TEST_ASSERT_SUCCESS(deliver(1, 0x21, seg), "segment %u", i);
	}
	TEST_ASSERT_EQUAL(r.nsend, 0, "segments past the window completed it");
	TEST_ASSERT_EQUAL(td.nsent, n0 + 1, "segments past the window ACKed");
	for (i = 2; i <= 40; i++) {
		mk_seg(seg, tid, i, i == 40 ? 4 : 0, i == 40 ? 220 : 0, (uint8_t)i);
		TEST_ASSERT_SUCCESS(deliver(1, 0x21, seg), "segment %u", i);
		if (i == 33) {
			TEST_ASSERT_EQUAL(td.nsent, n0 + 2, "ACK at the window's end");
			TEST_ASSERT_EQUAL(be32_of(td.sent[n0 + 1].mad + 28), 33, "of 33");
			TEST_ASSERT_EQUAL(be32_of(td.sent[n0 + 1].mad + 32), 65,
					  "NewWindowLast 33 + 32");
		}
	}
	TEST_ASSERT_EQUAL(r.nsend, 1, "completed");
	TEST_ASSERT_EQUAL(r.status[0], 0, "status");
	TEST_ASSERT_EQUAL(r.resp_len, 56u + 40 * 200, "40 segments of 200");
	TEST_ASSERT_EQUAL(r.resp_byte_300, 2, "segment 2's payload at 300");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister");
	return TEST_SUCCESS;
}

/* --- edges --- */

/*
 * HopCount at the boundary (C14-6: 0..63; the paths hold 64 entries):
 * an incoming DR SMP of 63 hops at its end (C14-9:3, ReturnPath[63]) is
 * answered; one of 64 is dropped before anything is written at
 * ReturnPath[64], one byte past the MAD. Sending: 63 hops leave, 64 are
 * refused; the first hop's port must be a port of the node: 1 (== the
 * number of ports) leaves, 2 is refused (C14-9:1).
 */
static int
test_dr_edges(void)
{
	struct rte_ibmad_send_params p;
	struct rte_ibmad_agent *a;
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rte_ibmad_stats s0 = stats();
	struct rec r = { 0 };

	reset();
	mk_dr_get(mad, 63);
	mad[6] = 63;
	TEST_ASSERT_SUCCESS(deliver(0, RTE_IB_LID_PERMISSIVE, mad), "63 hops");
	TEST_ASSERT_EQUAL(td.nsent, 1, "63 hops answered");
	TEST_ASSERT_EQUAL(td.sent[0].mad[6], 63, "HopPointer of the reply (C14-13:1)");
	TEST_ASSERT_EQUAL(td.sent[0].mad[192 + 63], 1, "ReturnPath[63]: port 1");
	mk_dr_get(mad, 64);
	mad[6] = 64;
	TEST_ASSERT_SUCCESS(deliver(0, RTE_IB_LID_PERMISSIVE, mad), "64 hops");
	mad[6] = 63;
	TEST_ASSERT_SUCCESS(deliver(0, RTE_IB_LID_PERMISSIVE, mad), "64 hops, hp 63");
	TEST_ASSERT_EQUAL(td.nsent, 1, "64 hops answered");
	TEST_ASSERT_EQUAL(stats().rx_smi_discard, s0.rx_smi_discard + 2, "rx_smi_discard");

	a = agent_on(0, 0, 0, 0, &r);
	TEST_ASSERT(a != NULL, "register");
	send_params(&p, mad, 0, 0, NULL);
	p.ah_attr.dlid = RTE_IB_LID_PERMISSIVE;
	p.remote_qpn = 0;
	mk_dr_get(mad, 63);
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, NULL), "63 hops: %s",
			    rte_strerror(rte_errno));
	TEST_ASSERT_EQUAL(td.nsent, 2, "63 hops on the wire");
	TEST_ASSERT_EQUAL(td.sent[1].mad[6], 1, "HopPointer 1 (C14-9:1)");
	mk_dr_get(mad, 64);
	TEST_ASSERT_EQUAL(rte_ibmad_send(a, &p, NULL), -1, "64 hops sent");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rte_errno");
	mk_dr_get(mad, 2);
	mad[128 + 1] = td.dev.phys_port_cnt;
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, NULL), "out of the last port");
	mad[128 + 1] = td.dev.phys_port_cnt + 1;
	TEST_ASSERT_EQUAL(rte_ibmad_send(a, &p, NULL), -1, "out of port %u of %u",
			  td.dev.phys_port_cnt + 1, td.dev.phys_port_cnt);
	TEST_ASSERT_EQUAL(td.nsent, 3, "two sent");
	rte_ibmad_poll();
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister");
	return TEST_SUCCESS;
}

/*
 * Retries are spaced by their time-out: 4 attempts of 40 ms, each
 * repost at least 40 ms (less 1 ms of clock granularity) after the one
 * before and well within a second, in order, then -ETIMEDOUT.
 */
static int
test_retry_spacing(void)
{
	struct rte_ibmad_send_params p;
	struct rte_ibmad_agent *a;
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rec r = { 0 };
	uint64_t gap, t0;
	unsigned int i;

	a = agent_on(1, 0, 0, 0, &r);
	TEST_ASSERT(a != NULL, "register");
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET, 0x35, 0);
	send_params(&p, mad, 40, 3, NULL);
	t0 = now_us();
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, NULL), "send");
	for (i = 0; i < 1000 && r.nsend == 0; i++) {
		sleep_ms(2);
		rte_ibmad_poll();
	}
	TEST_ASSERT_EQUAL(r.nsend, 1, "completed");
	TEST_ASSERT_EQUAL(r.status[0], -ETIMEDOUT, "status");
	TEST_ASSERT_EQUAL(td.nsent, 4, "first attempt and 3 retries");
	for (i = 1; i < 4; i++) {
		gap = td.sent[i].when_us - td.sent[i - 1].when_us;
		TEST_ASSERT(td.sent[i].when_us > td.sent[i - 1].when_us, "in order");
		TEST_ASSERT(gap >= 39000, "retry %u after %" PRIu64 " us: before "
			    "its 40 ms time-out", i, gap);
		TEST_ASSERT(gap < 1000000, "retry %u after %" PRIu64 " us", i, gap);
	}
	TEST_ASSERT(now_us() - t0 >= 4 * 39000, "timed out after 4 time-outs");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister");
	return TEST_SUCCESS;
}

/*
 * Documented limits reached: RTE_IBMAD_MAX_AGENTS agents (ENOSPC at the
 * next, room again after one goes) and RTE_IBMAD_RECV_QUEUE MADs queued
 * (the next is counted in rx_queue_full and lost; the queued ones are
 * all processed).
 */
static int
test_limits(void)
{
	static struct rte_ibmad_agent *ag[RTE_IBMAD_MAX_AGENTS + 1];
	struct rte_ibmad_stats s0 = stats();
	struct rte_ib_mad_wc wc = mk_wc(1, 0x33);
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rec r = { 0 };
	unsigned int n, i;

	for (n = 0; n <= RTE_IBMAD_MAX_AGENTS; n++) {
		ag[n] = agent_on(1, 0, 0, 0, &r);
		if (ag[n] == NULL)
			break;
	}
	TEST_ASSERT(n < RTE_IBMAD_MAX_AGENTS + 1, "more than %d agents",
		    RTE_IBMAD_MAX_AGENTS);
	TEST_ASSERT_EQUAL(rte_errno, ENOSPC, "rte_errno");
	/* The SA client may hold one agent: the rest are ours. */
	TEST_ASSERT(n + 2 >= RTE_IBMAD_MAX_AGENTS, "only %u agents", n);
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(ag[0]), "unregister");
	ag[0] = agent_on(1, 0, 0, 0, &r);
	TEST_ASSERT(ag[0] != NULL, "room again after one went");
	for (i = 0; i < n; i++)
		TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(ag[i]), "unregister");

	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET_RESP, 0x35, 1);
	for (i = 0; i <= RTE_IBMAD_RECV_QUEUE; i++)
		rte_ib_device_mad_recv(&td.dev, &wc, mad, sizeof(mad));
	TEST_ASSERT_EQUAL(stats().rx_queue_full, s0.rx_queue_full + 1, "rx_queue_full");
	rte_ibmad_poll();
	TEST_ASSERT_EQUAL(stats().rx, s0.rx + RTE_IBMAD_RECV_QUEUE, "all queued processed");
	TEST_ASSERT_EQUAL(stats().rx_unmatched, s0.rx_unmatched + RTE_IBMAD_RECV_QUEUE,
			  "rx_unmatched");
	return TEST_SUCCESS;
}

/*
 * Two agents on one QP and class, versions 1 and 2: each gets the
 * responses to its own requests (by its TID high part), answered in the
 * other order, and the unsolicited requests of its own version.
 */
/*
 * The LMC: an answer comes back to the LID the request left from, its
 * DLID path bits under the port's LMC (Linux rcv_has_same_gid()). With
 * LMC 2 a request sent with path bits 1 takes an answer to path bits 1
 * or 5 (the same under the mask 3), not one to path bits 2.
 */
static int
test_response_lmc(void)
{
	struct rte_ibmad_send_params p;
	struct rte_ibmad_agent *a;
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rte_ibmad_stats s0;
	struct rte_ib_port_attr pa;
	struct rte_ib_mad_wc wc;
	struct rec r = { 0 };
	uint64_t tid;

	/* LMC 2 reaches the port cache with the next port event: a
	 * Set(PortInfo) that moves the LID (snooped, LID_CHANGE).
	 */
	td.port[0].lmc = 2;
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_LID_ROUTED, 1, RTE_IB_METHOD_SET,
	       RTE_IB_SMP_ATTR_PORT_INFO, 0x80);
	mad[64 + 17] = 0x14;
	mad[64 + 19] = td.port[0].sm_lid;
	TEST_ASSERT_SUCCESS(deliver(0, 0x01, mad), "Set(PortInfo)");
	TEST_ASSERT_SUCCESS(rte_ib_port_attr_cached(&td.dev, 1, &pa), "cache");
	TEST_ASSERT_EQUAL(pa.lmc, 2, "LMC in the cache");
	s0 = stats();
	a = agent_on(1, 0, 0, 0, &r);
	TEST_ASSERT(a != NULL, "register");
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET, 0x35, 0);
	send_params(&p, mad, 5000, 0, NULL);
	p.ah_attr.src_path_bits = 1;
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, &tid), "send");
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET_RESP, 0x35, tid);
	wc = mk_wc(1, 0x21);
	wc.path_bits = 2;
	TEST_ASSERT_SUCCESS(deliver_wc(&wc, mad), "to path bits 2");
	TEST_ASSERT_EQUAL(r.nsend, 0, "an answer to another LID of the port taken");
	TEST_ASSERT_EQUAL(stats().rx_bad_source, s0.rx_bad_source + 1, "rx_bad_source");
	wc.path_bits = 5;
	TEST_ASSERT_SUCCESS(deliver_wc(&wc, mad), "to path bits 5");
	TEST_ASSERT_EQUAL(r.nsend, 1, "path bits 5 are 1 under LMC 2");
	TEST_ASSERT_EQUAL(r.status[0], 0, "status");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister");
	return TEST_SUCCESS;
}

/* A QP @qpn agent of @owner (rte_ibmad_agent_conf.owner), class @class. */
static struct rte_ibmad_agent *
agent_owned_class(uint64_t owner, uint8_t qpn, uint8_t class, uint64_t mask0,
		  struct rec *rec)
{
	struct rte_ibmad_agent_conf c;

	memset(&c, 0, sizeof(c));
	c.dev = &td.dev;
	c.port = 1;
	c.qpn = qpn;
	c.mgmt_class = class;
	c.class_version = class != 0 ? 1 : 0;
	c.method_mask[0] = mask0;
	c.recv_cb = rec_recv;
	c.send_cb = rec_send;
	c.arg = rec;
	c.owner = owner;
	return agent_reg(&c);
}

/*
 * A request to this port's own LID is answered from that LID by whoever
 * of the host answers: only the agent it was handed to may (issue 29,
 * two user-MAD clients of one host). An answer before that agent's is
 * dropped (rx_bad_source), another local agent's answer is refused
 * (EPERM), the serving agent's completes the request.
 */
static int
test_self_answer(void)
{
	struct rte_ibmad_send_params p, pr;
	struct rte_ibmad_agent *a, *b, *c, *d;
	uint8_t mad[RTE_IB_MAD_SIZE], resp[RTE_IB_MAD_SIZE];
	struct rec ra = { 0 }, rb = { 0 }, rc = { 0 }, rd = { 0 };
	struct rte_ibmad_stats s0 = stats();
	struct rte_ib_port_attr pa;
	uint64_t tid;

	TEST_ASSERT_SUCCESS(rte_ib_port_attr_cached(&td.dev, 1, &pa), "cache");
	a = agent_on(1, 0, 0, 0, &ra);                          /* asks */
	b = agent_on(1, 0, 0, 0, &rb);                          /* forges */
	c = agent_owned_class(7, 1, 0x09, 1u << RTE_IB_METHOD_GET, &rc); /* serves */
	TEST_ASSERT(a != NULL && b != NULL && c != NULL, "register");
	mk_mad(mad, 0x09, 1, RTE_IB_METHOD_GET, 0x10, 0);
	send_params(&p, mad, 5000, 0, NULL);
	p.ah_attr.dlid = pa.lid;
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, &tid), "send to the own LID");
	mk_mad(resp, 0x09, 1, RTE_IB_METHOD_GET_RESP, 0x10, tid);
	resp[64] = 0xee;
	TEST_ASSERT_SUCCESS(deliver(1, pa.lid, resp), "an answer before the request");
	TEST_ASSERT_EQUAL(ra.nsend, 0, "an answer no local agent was given to send "
			  "completed the request");
	TEST_ASSERT_EQUAL(stats().rx_bad_source, s0.rx_bad_source + 1, "rx_bad_source");

	/* The request comes back to this port and goes to c. */
	mk_mad(mad, 0x09, 1, RTE_IB_METHOD_GET, 0x10, tid);
	TEST_ASSERT_SUCCESS(deliver(1, pa.lid, mad), "the request back");
	TEST_ASSERT_EQUAL(rc.nrecv, 1, "c got the request");
	send_params(&pr, resp, 0, 0, NULL);
	pr.ah_attr.dlid = pa.lid;
	TEST_ASSERT(rte_ibmad_send(b, &pr, NULL) < 0 && rte_errno == EPERM,
		    "b answered a request c got");
	TEST_ASSERT_SUCCESS(deliver(1, pa.lid, resp), "b's answer, had it left");
	TEST_ASSERT_EQUAL(ra.nsend, 0, "b's answer completed the request");
	TEST_ASSERT_EQUAL(stats().rx_bad_source, s0.rx_bad_source + 2, "rx_bad_source");

	resp[64] = 0x5a;
	TEST_ASSERT_SUCCESS(rte_ibmad_send(c, &pr, NULL), "c answers");
	TEST_ASSERT_SUCCESS(deliver(1, pa.lid, resp), "c's answer");
	TEST_ASSERT_EQUAL(ra.nsend, 1, "c's answer completes the request");
	TEST_ASSERT_EQUAL(ra.status[0], 0, "status");
	TEST_ASSERT_EQUAL(ra.resp_tid[0], tid, "TID");

	/* A client answers on another of its agents (OpenSM does): d, of
	 * c's owner, may; b, of none, still may not.
	 */
	d = agent_owned_class(7, 1, 0, 0, &rd);
	TEST_ASSERT(d != NULL, "register d");
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, &tid), "send again");
	mk_mad(mad, 0x09, 1, RTE_IB_METHOD_GET, 0x10, tid);
	TEST_ASSERT_SUCCESS(deliver(1, pa.lid, mad), "the request back to c");
	mk_mad(resp, 0x09, 1, RTE_IB_METHOD_GET_RESP, 0x10, tid);
	TEST_ASSERT(rte_ibmad_send(b, &pr, NULL) < 0 && rte_errno == EPERM,
		    "b answered the second request");
	TEST_ASSERT_SUCCESS(rte_ibmad_send(d, &pr, NULL), "d answers for c");
	TEST_ASSERT_SUCCESS(deliver(1, pa.lid, resp), "d's answer");
	TEST_ASSERT_EQUAL(ra.nsend, 2, "d's answer completes the request");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(d), "unregister d");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister a");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(b), "unregister b");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(c), "unregister c");
	return TEST_SUCCESS;
}

/*
 * The DR request @sent (as it left) arriving back at port 1 at the end
 * of its directed part: HopPointer HopCount, ReturnPath[1] the switch
 * port it came in by (C14-9:2, written by the switch).
 */
static int
deliver_dr_back(const uint8_t *sent)
{
	uint8_t req[RTE_IB_MAD_SIZE];

	memcpy(req, sent, sizeof(req));
	req[6] = req[7];
	req[192 + 1] = 2;
	return deliver(0, RTE_IB_LID_PERMISSIVE, req);
}

/* @resp, an answer sent back along its ReturnPath, as it arrives at the
 * requester's port: HopPointer 1 (C14-13:3).
 */
static int
deliver_dr_reply(const uint8_t *resp)
{
	uint8_t in[RTE_IB_MAD_SIZE];

	memcpy(in, resp, sizeof(in));
	in[6] = 1;
	return deliver(0, RTE_IB_LID_PERMISSIVE, in);
}

/*
 * A directed route may leave the host and come back into one of its
 * ports (mad_dr_loop: out of port 1 and a switch into port 2; here into
 * port 1 itself). Its answer is matched by its route, which any local
 * agent can write: once the request has come back, only the agent it was
 * handed to (or another of that agent's owner) may answer on its route
 * (EPERM otherwise), and nobody when the device answered it. An answer
 * on another route still leaves: it is dropped on arrival.
 */
static int
test_dr_back_answer(void)
{
	struct rte_ibmad_send_params p, pr;
	struct rte_ibmad_agent *a, *b, *c, *d;
	uint8_t mad[RTE_IB_MAD_SIZE], resp[RTE_IB_MAD_SIZE];
	struct rec ra = { 0 }, rb = { 0 }, rc = { 0 }, rd = { 0 };
	struct rte_ibmad_stats s0 = stats();
	unsigned int n;
	uint64_t tid;

	a = agent_on(0, 0, 0, 0, &ra);                          /* asks */
	b = agent_on(0, 0, 0, 0, &rb);                          /* forges */
	c = agent_owned_class(7, 0, RTE_IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE,
			      1u << RTE_IB_METHOD_GET, &rc);    /* serves */
	d = agent_owned_class(7, 0, 0, 0, &rd);                 /* c's owner */
	TEST_ASSERT(a != NULL && b != NULL && c != NULL && d != NULL, "register");
	/* A vendor attribute, which the device's SMA does not take. */
	mk_dr_get(mad, 2);
	mad[16] = 0xff;
	mad[17] = 0x10;
	send_params(&p, mad, 5000, 0, NULL);
	p.ah_attr.dlid = RTE_IB_LID_PERMISSIVE;
	p.remote_qpn = 0;
	n = td.nsent;
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, &tid), "send: %s",
			    rte_strerror(rte_errno));
	TEST_ASSERT_EQUAL(td.nsent, n + 1, "on the wire");
	TEST_ASSERT_SUCCESS(deliver_dr_back(td.sent[n].mad), "the request back");
	TEST_ASSERT_EQUAL(rc.nrecv, 1, "c got the request");
	TEST_ASSERT_EQUAL(rc.last_recv[6], 3, "HopPointer at c");

	/* The answer as a responder at the end of the route sends it. */
	memcpy(resp, rc.last_recv, sizeof(resp));
	resp[3] = RTE_IB_METHOD_GET_RESP;
	resp[4] |= 0x80;
	resp[64] = 0xee;
	send_params(&pr, resp, 0, 0, NULL);
	pr.ah_attr.dlid = RTE_IB_LID_PERMISSIVE;
	pr.remote_qpn = 0;
	n = td.nsent;
	TEST_ASSERT(rte_ibmad_send(b, &pr, NULL) < 0 && rte_errno == EPERM,
		    "b answered on the route a request c got");
	TEST_ASSERT_EQUAL(td.nsent, n, "b's answer on the wire");
	resp[128 + 2] = 4;
	TEST_ASSERT_SUCCESS(rte_ibmad_send(b, &pr, NULL),
			    "b's answer on another route: %s", rte_strerror(rte_errno));
	TEST_ASSERT_SUCCESS(deliver_dr_reply(td.sent[n].mad), "it arrives");
	TEST_ASSERT_EQUAL(ra.nsend, 0, "an answer on another route completed it");
	TEST_ASSERT_EQUAL(stats().rx_bad_route, s0.rx_bad_route + 1, "rx_bad_route");
	resp[128 + 2] = 3;
	resp[64] = 0x5a;
	n = td.nsent;
	TEST_ASSERT_SUCCESS(rte_ibmad_send(c, &pr, NULL), "c answers: %s",
			    rte_strerror(rte_errno));
	TEST_ASSERT_SUCCESS(deliver_dr_reply(td.sent[n].mad), "c's answer");
	TEST_ASSERT_EQUAL(ra.nsend, 1, "c's answer completes the request");
	TEST_ASSERT_EQUAL(ra.status[0], 0, "status");
	TEST_ASSERT_EQUAL(ra.resp_tid[0], tid, "TID");

	/* Another agent of c's owner may answer for it; b still may not. */
	n = td.nsent;
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, &tid), "send again");
	TEST_ASSERT_SUCCESS(deliver_dr_back(td.sent[n].mad), "back to c");
	TEST_ASSERT_EQUAL(rc.nrecv, 2, "c got the second request");
	memcpy(resp, rc.last_recv, sizeof(resp));
	resp[3] = RTE_IB_METHOD_GET_RESP;
	resp[4] |= 0x80;
	TEST_ASSERT(rte_ibmad_send(b, &pr, NULL) < 0 && rte_errno == EPERM,
		    "b answered the second request");
	n = td.nsent;
	TEST_ASSERT_SUCCESS(rte_ibmad_send(d, &pr, NULL), "d answers for c");
	TEST_ASSERT_SUCCESS(deliver_dr_reply(td.sent[n].mad), "d's answer");
	TEST_ASSERT_EQUAL(ra.nsend, 2, "d's answer completes the request");

	/* NodeInfo: the device answers it; no local agent may. */
	mad[16] = 0;
	mad[17] = RTE_IB_SMP_ATTR_NODE_INFO;
	n = td.nsent;
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, &tid), "send NodeInfo");
	TEST_ASSERT_SUCCESS(deliver_dr_back(td.sent[n].mad), "NodeInfo back");
	TEST_ASSERT_EQUAL(td.nsent, n + 2, "the device's reply on the wire");
	memcpy(resp, td.sent[n + 1].mad, sizeof(resp));
	resp[6] = 3;
	TEST_ASSERT(rte_ibmad_send(c, &pr, NULL) < 0 && rte_errno == EPERM,
		    "c answered a request the device answered");
	TEST_ASSERT_SUCCESS(deliver_dr_reply(td.sent[n + 1].mad), "the device's");
	TEST_ASSERT_EQUAL(ra.nsend, 3, "the device's reply completes it");
	TEST_ASSERT_EQUAL(ra.resp_tid[2], tid, "TID");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(d), "unregister d");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister a");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(b), "unregister b");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(c), "unregister c");
	return TEST_SUCCESS;
}

static int
test_two_agents_one_qp(void)
{
	struct rte_ibmad_send_params p;
	struct rte_ibmad_agent *a, *b;
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rec ra = { 0 }, rb = { 0 };
	uint64_t ta, tb;

	a = agent_on(1, 0x09, 1, 1u << RTE_IB_METHOD_GET, &ra);
	b = agent_on(1, 0x09, 2, 1u << RTE_IB_METHOD_GET, &rb);
	TEST_ASSERT(a != NULL && b != NULL, "register");
	mk_mad(mad, 0x09, 1, RTE_IB_METHOD_GET, 0x10, 0);
	send_params(&p, mad, 5000, 0, &ra);
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, &ta), "send a");
	mad[2] = 2;
	send_params(&p, mad, 5000, 0, &rb);
	TEST_ASSERT_SUCCESS(rte_ibmad_send(b, &p, &tb), "send b");
	mk_mad(mad, 0x09, 2, RTE_IB_METHOD_GET_RESP, 0x10, tb);
	TEST_ASSERT_SUCCESS(deliver(1, 0x21, mad), "b's response");
	mk_mad(mad, 0x09, 1, RTE_IB_METHOD_GET_RESP, 0x10, ta);
	TEST_ASSERT_SUCCESS(deliver(1, 0x21, mad), "a's response");
	TEST_ASSERT_EQUAL(ra.nsend, 1, "a completed once");
	TEST_ASSERT_EQUAL(rb.nsend, 1, "b completed once");
	TEST_ASSERT_EQUAL(ra.resp_tid[0], ta, "a got its own response");
	TEST_ASSERT_EQUAL(rb.resp_tid[0], tb, "b got its own response");
	TEST_ASSERT(ra.context[0] == &ra && rb.context[0] == &rb, "contexts");
	mk_mad(mad, 0x09, 2, RTE_IB_METHOD_GET, 0x10, 0x77);
	TEST_ASSERT_SUCCESS(deliver(1, 0x33, mad), "a version 2 Get");
	TEST_ASSERT_EQUAL(rb.nrecv, 1, "to b");
	TEST_ASSERT_EQUAL(ra.nrecv, 0, "not to a");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(a), "unregister");
	TEST_ASSERT_SUCCESS(rte_ibmad_agent_unregister(b), "unregister");
	return TEST_SUCCESS;
}

/*
 * Run only by the ibmad_fail_in_flight test (IBMAD_TEST_FAIL_IN_FLIGHT
 * set): a case fails with a send in flight whose callback points at its
 * stack; the agent goes with the case (test_defer()), so the next case
 * finds every agent slot free and nothing completes into a dead frame.
 */
static unsigned int free_agent_slots;

static unsigned int
count_free_agent_slots(void)
{
	static struct rte_ibmad_agent *ag[RTE_IBMAD_MAX_AGENTS];
	struct rte_ibmad_agent_conf c;
	unsigned int n, i;

	memset(&c, 0, sizeof(c));
	c.dev = &td.dev;
	c.port = 1;
	c.qpn = 1;
	for (n = 0; n < RTE_IBMAD_MAX_AGENTS; n++) {
		ag[n] = rte_ibmad_agent_register(&c);
		if (ag[n] == NULL)
			break;
	}
	for (i = 0; i < n; i++)
		rte_ibmad_agent_unregister(ag[i]);
	return n;
}

static int
fail_suite_setup(void)
{
	free_agent_slots = count_free_agent_slots();
	return 0;
}

static int
test_fail_in_flight(void)
{
	struct rte_ibmad_send_params p;
	struct rte_ibmad_agent *a;
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rec r = { 0 };

	a = agent_on(1, 0, 0, 0, &r);
	TEST_ASSERT(a != NULL, "register");
	mk_mad(mad, RTE_IB_MGMT_CLASS_SUBN_ADM, 2, RTE_IB_METHOD_GET, 0x35, 0);
	send_params(&p, mad, 10, 0, NULL);
	TEST_ASSERT_SUCCESS(rte_ibmad_send(a, &p, NULL), "send");
	TEST_ASSERT(false, "this case fails on purpose, with a send in flight");
	return TEST_SUCCESS;
}

static int
test_after_failure(void)
{
	unsigned int i;

	for (i = 0; i < 10; i++) {
		sleep_ms(5);
		rte_ibmad_poll();
	}
	TEST_ASSERT_EQUAL(count_free_agent_slots(), free_agent_slots,
			  "an agent of the failed case is still registered");
	return TEST_SUCCESS;
}

static struct unit_test_suite fail_suite = {
	.suite_name = "ibmad_fail_in_flight",
	.setup = fail_suite_setup,
	.unit_test_cases = {
		TEST_CASE_ST(reset, NULL, test_fail_in_flight),
		TEST_CASE_ST(reset, NULL, test_after_failure),
		TEST_CASES_END(),
	},
};

static struct unit_test_suite suite = {
	.suite_name = "ibmad",
	.unit_test_cases = {
		TEST_CASE_ST(reset, NULL, test_agent_register),
		TEST_CASE_ST(reset, NULL, test_request_response),
		TEST_CASE_ST(reset, NULL, test_timeout_retries),
		TEST_CASE_ST(reset, NULL, test_send_paths),
		TEST_CASE_ST(reset, NULL, test_cancel),
		TEST_CASE_ST(reset, NULL, test_unsolicited),
		TEST_CASE_ST(reset, NULL, test_vendor_oui),
		TEST_CASE_ST(reset, NULL, test_local_smp),
		TEST_CASE_ST(reset, NULL, test_dr_smp),
		TEST_CASE_ST(reset, NULL, test_dr_local_loop),
		TEST_CASE_ST(reset, NULL, test_ctrl_thread),
		TEST_CASE_ST(reset, NULL, test_ctrl_api_thread),
		TEST_CASE_ST(reset, NULL, test_service),
		TEST_CASE_ST(reset, NULL, test_rmpp_send),
		TEST_CASE_ST(reset, NULL, test_rmpp_send_retries),
		TEST_CASE_ST(reset, NULL, test_rmpp_recv),
		TEST_CASE_ST(reset, NULL, test_sa_client),
		TEST_CASE_ST(reset, NULL, test_sa_attr_offset),
		TEST_CASE_ST(reset, NULL, test_sa_mad_status),
		TEST_CASE_ST(reset, NULL, test_sa_report_source),
		TEST_CASE_ST(reset, NULL, test_sa_path_get),
		TEST_CASE_ST(reset, NULL, test_mcast_counting),
		TEST_CASE_ST(reset, NULL, test_mcast_member_error),
		TEST_CASE_ST(reset, NULL, test_mcast_bad_answer),
		TEST_CASE_ST(reset, NULL, test_mcast_rejoin),
		TEST_CASE_ST(reset, NULL, test_mcast_backoff),
		TEST_CASE_ST(reset, NULL, test_response_source),
		TEST_CASE_ST(reset, NULL, test_dr_response_route),
		TEST_CASE_ST(reset, NULL, test_tid_random),
		TEST_CASE_ST(reset, NULL, test_rmpp_data_source),
		TEST_CASE_ST(reset, NULL, test_rmpp_ack_source),
		TEST_CASE_ST(reset, NULL, test_rmpp_overrun),
		TEST_CASE_ST(reset, NULL, test_rmpp_recv_window),
		TEST_CASE_ST(reset, NULL, test_dr_edges),
		TEST_CASE_ST(reset, NULL, test_retry_spacing),
		TEST_CASE_ST(reset, NULL, test_limits),
		TEST_CASE_ST(reset, NULL, test_two_agents_one_qp),
		TEST_CASE_ST(reset, NULL, test_self_answer),
		TEST_CASE_ST(reset, NULL, test_dr_back_answer),
		TEST_CASE_ST(reset, NULL, test_response_lmc),
		/* Last: it unregisters the device. */
		TEST_CASE_ST(reset, NULL, test_device_gone),
		TEST_CASES_END(),
	},
};

int
main(int argc, char **argv)
{
	char *eal_args[] = {
		argv[0], "--no-huge", "-m", "64", "--no-pci", "--no-shconf",
		"--file-prefix=test_ibmad", "--log-level=lib.ibmad:debug", NULL,
	};
	int ret;

	RTE_SET_USED(argc);
	if (rte_eal_init(RTE_DIM(eal_args) - 1, eal_args) < 0) {
		printf("EAL init failed: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	/* Work runs in rte_ibmad_poll() unless a test starts the thread. */
	rte_ibmad_ctrl_thread_set(false);
	memset(&td, 0, sizeof(td));
	snprintf(td.dev.name, sizeof(td.dev.name), "tmad0");
	snprintf(td.dev.node_desc, sizeof(td.dev.node_desc), "test node desc");
	td.dev.node_guid = UINT64_C(0x0002c90300004560);
	td.dev.node_type = RTE_IB_NODE_CA;
	td.dev.phys_port_cnt = 1;
	td.dev.ops = &t_ops;
	td.dev.dev_private = &td;
	td.dev.eth_port_id[0] = RTE_IB_NO_ETH_PORT;
	td.port[0].state = RTE_IB_PORT_ACTIVE;
	td.port[0].lid = 0x10;
	td.port[0].sm_lid = 0x02;
	td.efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (td.efd < 0 || rte_ib_device_register(&td.dev) < 0 ||
	    rte_ib_register_event_handler(&td.dev, ev_cb, NULL) < 0) {
		printf("test device: %s\n", rte_strerror(rte_errno));
		rte_eal_cleanup();
		return 1;
	}
	ret = unit_test_suite_runner(getenv("IBMAD_TEST_FAIL_IN_FLIGHT") != NULL ?
				     &fail_suite : &suite);
	if (td.dev.core != NULL)
		rte_ib_device_unregister(&td.dev);
	close(td.efd);
	rte_eal_cleanup();
	return ret;
}
