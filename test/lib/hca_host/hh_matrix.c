/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * hca_host: the buggy-driver matrix. Each row commits one driver bug the
 * PRM makes visible (enum hh_bug) and checks that the HCA does what the
 * silicon does about it; the same row without the bug must then work.
 * The table at the end is the reader's list of what the hardware demands;
 * doc/guides/nics/mthca_hw.rst, "Driver rules", gives the sources.
 *
 * Two hosts with ports ACTIVE (OpenSM on the fabric); host A commits the
 * bugs, host B receives. Every run of a row uses QPs and CQs of its own,
 * so a QP a bug wedged stays out of the next row's way.
 */

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hh_ctl.h"
#include "hh_matrix.h"

#define MX_LEN		256	/* payload of every datagram */
#define MX_WAIT_MS	2000	/* for something that must come */
#define MX_QUIET_MS	400	/* for something that must not */
#define MX_FIRST_QP	16	/* hh_host_qpn() index of the first row QP */
#define MX_FIRST_CQ	32	/* CQN offset above reserved_cqs of the first row CQ */

struct mx {
	struct hh_host *a, *b;
	uint32_t next_qp[2], next_cq[2];
	const char *ctl;	/* ibfabric's control socket */
	char node[65];		/* A's NodeDescription: its name on that socket */
	char why[160];		/* what a failed expectation saw */
};

struct mx_qp {
	struct hh_host *h;
	struct hh_cq cq;
	struct hh_qp qp;
};

static uint64_t
now_ms(void)
{
	return hh_now_us() / 1000;
}

static int __attribute__((format(printf, 2, 3)))
mx_fail(struct mx *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m->why, sizeof(m->why), fmt, ap);
	va_end(ap);
	return -1;
}

static void
mx_service(struct mx *m)
{
	hh_host_service(m->a);
	hh_host_service(m->b);
	hh_idle(&m->a->d, 100);
}

/* A CQ and a UD QP on port 1 of @p h (in RESET), numbers of their own. */
static int
mx_qp_alloc(struct mx *m, struct hh_host *h, struct mx_qp *q, uint32_t sq_depth,
	    uint32_t rq_depth, uint32_t cq_nent)
{
	unsigned int k = h == m->a ? 0 : 1;
	struct hh_dev *d = &h->d;
	int ret;

	memset(q, 0, sizeof(*q));
	q->h = h;
	ret = hh_cq_create(d, &q->cq, d->rsvd_cqs + MX_FIRST_CQ + m->next_cq[k]++, cq_nent);
	if (ret != 0)
		return mx_fail(m, "CQ create: %d", ret);
	ret = hh_qp_create_sized(d, &q->qp, hh_host_qpn(h, MX_FIRST_QP + m->next_qp[k]++),
				 HH_QPST_UD, 1, &q->cq, &q->cq, sq_depth, rq_depth);
	if (ret != 0)
		return mx_fail(m, "buffers for a QP of %u + %u WQEs: %d", sq_depth, rq_depth, ret);
	q->qp.qkey = HH_HOST_UD_QKEY;
	return 0;
}

/* mx_qp_alloc() and to RTS; @p bugs are committed while bringing it up. */
static int
mx_qp_new(struct mx *m, struct hh_host *h, struct mx_qp *q, uint32_t sq_depth,
	  uint32_t rq_depth, uint32_t cq_nent, uint32_t bugs)
{
	struct hh_dev *d = &h->d;
	int ret;

	if (mx_qp_alloc(m, h, q, sq_depth, rq_depth, cq_nent) != 0)
		return -1;
	d->bugs = bugs;
	ret = hh_qp_up(d, &q->qp, 0);
	d->bugs = 0;
	return ret == 0 ? 0 : mx_fail(m, "QP 0x%x to RTS failed", q->qp.qpn);
}

static struct hh_ud_dest
mx_dest(struct mx *m, uint32_t qpn)
{
	return (struct hh_ud_dest){ .dlid = m->b->lid, .dqpn = qpn, .qkey = HH_HOST_UD_QKEY,
				    .port = 1 };
}

/* One signaled UD send of MX_LEN bytes from @p q to B's QP @p qpn, committing @p bugs. */
static void
mx_send(struct mx *m, struct mx_qp *q, uint32_t qpn, uint32_t bugs)
{
	struct hh_ud_dest dst = mx_dest(m, qpn);
	unsigned int i;

	for (i = 0; i < MX_LEN; i++)
		m->a->payload.va[i] = (uint8_t)(i * 13 + q->qp.qpn);
	m->a->d.bugs = bugs;
	hh_post_ud_send(&m->a->d, &q->qp, &dst, m->a->payload_mr.lkey, 0, MX_LEN, true);
	m->a->d.bugs = 0;
}

/* Wait up to @p ms for a CQE on @p cq, serving both hosts' agents meanwhile. */
static int
mx_wait(struct mx *m, struct hh_dev *d, struct hh_cq *cq, uint8_t *cqe, int ms)
{
	uint64_t end = now_ms() + ms;

	do {
		if (hh_cq_poll(d, cq, cqe))
			return 1;
		mx_service(m);
	} while (now_ms() < end);
	return 0;
}

/* B's UD QP got the datagram @p q sent (payload at +40), within @p ms; reposted. */
static int
mx_b_received(struct mx *m, struct mx_qp *q, int ms)
{
	struct hh_qp *bq = &m->b->ud;
	uint64_t end = now_ms() + ms;
	uint8_t cqe[HH_CQE_SIZE];
	const uint8_t *rx;
	int left;

	while ((left = (int)(end - now_ms())) > 0 &&
	       mx_wait(m, &m->b->d, &m->b->rcq, cqe, left)) {
		rx = bq->data.va + (size_t)hh_rq_index(bq, hh_get32(cqe, HH_CQE_WQE)) *
		     HH_RECV_SLOT;
		hh_post_recv(&m->b->d, bq, 1);
		if ((hh_get32(cqe, HH_CQE_RQPN) & 0xffffff) != q->qp.qpn)
			continue;	/* another row's, late */
		return hh_get8(cqe, HH_CQE_OPCODE) == 0x64 &&
		       hh_get32(cqe, HH_CQE_BYTE_CNT) == 40 + MX_LEN &&
		       memcmp(rx + 40, m->a->payload.va, MX_LEN) == 0;
	}
	return 0;
}

/* Empty B's receive CQ (reposting), so each run starts from nothing. */
static void
mx_drain_b(struct mx *m)
{
	uint8_t cqe[HH_CQE_SIZE];

	while (hh_cq_poll(&m->b->d, &m->b->rcq, cqe))
		hh_post_recv(&m->b->d, &m->b->ud, 1);
}

/* The send completed and B has the datagram, intact. */
static int
mx_delivered(struct mx *m, struct mx_qp *q)
{
	uint8_t cqe[HH_CQE_SIZE];

	if (!mx_wait(m, &m->a->d, &q->cq, cqe, MX_WAIT_MS))
		return mx_fail(m, "no send CQE within %d ms", MX_WAIT_MS);
	if (hh_get8(cqe, HH_CQE_OPCODE) != HH_OPCODE_SEND)
		return mx_fail(m, "send CQE opcode 0x%02x, syndrome 0x%02x",
			       hh_get8(cqe, HH_CQE_OPCODE), hh_get8(cqe, HH_CQE_SYNDROME));
	if (!mx_b_received(m, q, MX_WAIT_MS))
		return mx_fail(m, "B did not receive the datagram intact");
	return 0;
}

/* Nothing: no CQE for @p q and no datagram at B. */
static int
mx_silent(struct mx *m, struct mx_qp *q)
{
	uint8_t cqe[HH_CQE_SIZE];

	if (mx_wait(m, &m->a->d, &q->cq, cqe, MX_QUIET_MS))
		return mx_fail(m, "a CQE came: opcode 0x%02x, syndrome 0x%02x",
			       hh_get8(cqe, HH_CQE_OPCODE), hh_get8(cqe, HH_CQE_SYNDROME));
	if (mx_b_received(m, q, MX_QUIET_MS / 4))
		return mx_fail(m, "B received the datagram");
	return 0;
}

/* An error CQE with syndrome @p synd for @p q's WQE, and no datagram at B. */
static int
mx_error(struct mx *m, struct mx_qp *q, uint8_t synd)
{
	uint8_t cqe[HH_CQE_SIZE];

	if (!mx_wait(m, &m->a->d, &q->cq, cqe, MX_WAIT_MS))
		return mx_fail(m, "no CQE within %d ms", MX_WAIT_MS);
	if (hh_get8(cqe, HH_CQE_OPCODE) != HH_CQE_OP_ERR_SEND ||
	    hh_get8(cqe, HH_CQE_SYNDROME) != synd)
		return mx_fail(m, "CQE opcode 0x%02x, syndrome 0x%02x",
			       hh_get8(cqe, HH_CQE_OPCODE), hh_get8(cqe, HH_CQE_SYNDROME));
	if (mx_b_received(m, q, MX_QUIET_MS / 4))
		return mx_fail(m, "B received the datagram");
	return 0;
}

/* ---- the rows --------------------------------------------------------------- */

/* A send WQE of a fresh QP, with @p bug committed or not: delivered or @p outcome. */
static int
row_send(struct mx *m, bool bug, uint32_t flag, int (*outcome)(struct mx *, struct mx_qp *))
{
	struct mx_qp q;

	if (mx_qp_new(m, m->a, &q, 16, 4, 64, 0) != 0)
		return -1;
	mx_send(m, &q, m->b->ud.qpn, bug ? flag : 0);
	return bug ? outcome(m, &q) : mx_delivered(m, &q);
}

static int
out_local_qp_op(struct mx *m, struct mx_qp *q)
{
	return mx_error(m, q, HH_SYND_LOCAL_QP_OP);
}

static int
row_no_send_db(struct mx *m, bool bug)
{
	return row_send(m, bug, HH_BUG_NO_SEND_DB, mx_silent);
}

static int
row_db_qpn(struct mx *m, bool bug)
{
	/* a QPN whose context exists but was never taken out of RESET */
	m->a->d.bug_qpn = hh_host_qpn(m->a, MX_FIRST_QP + m->next_qp[0]++);
	return row_send(m, bug, HH_BUG_DB_QPN, mx_silent);
}

/* A WQ catastrophic error event for @p q came (A had seen @p before of them). */
static int
mx_wq_catas(struct mx *m, struct mx_qp *q, unsigned int before)
{
	uint64_t end = now_ms() + MX_WAIT_MS;

	while (m->a->wq_catas == before && now_ms() < end)
		mx_service(m);
	if (m->a->wq_catas == before)
		return mx_fail(m, "no WQ catastrophic error event");
	return m->a->wq_catas_qpn == q->qp.qpn ? 0 :
	       mx_fail(m, "WQ catastrophic error event for QP 0x%x, not 0x%x",
		       m->a->wq_catas_qpn, q->qp.qpn);
}

/* The QP's send queue stopped with a WQ catastrophic error event and no CQE. */
static int
out_wq_catas(struct mx *m, struct mx_qp *q)
{
	unsigned int before = m->a->wq_catas;

	return mx_silent(m, q) != 0 ? -1 : mx_wq_catas(m, q, before);
}

static int
row_db_counter(struct mx *m, bool bug)
{
	return row_send(m, bug, HH_BUG_DB_COUNTER, out_wq_catas);
}

static int
row_db_cnt0(struct mx *m, bool bug)
{
	return row_send(m, bug, HH_BUG_DB_CNT0, mx_silent);
}

static int
row_next_dbd(struct mx *m, bool bug)
{
	return row_send(m, bug, HH_BUG_NEXT_DBD, out_local_qp_op);
}

static int
row_ctrl_always1(struct mx *m, bool bug)
{
	return row_send(m, bug, HH_BUG_CTRL_ALWAYS1, out_local_qp_op);
}

static int
row_av_pd(struct mx *m, bool bug)
{
	return row_send(m, bug, HH_BUG_AV_PD, out_local_qp_op);
}

static int
row_av_port(struct mx *m, bool bug)
{
	return row_send(m, bug, HH_BUG_AV_PORT, out_local_qp_op);
}

static int
row_av_rgid(struct mx *m, bool bug)
{
	return row_send(m, bug, HH_BUG_AV_RGID, out_local_qp_op);
}

/* @p cqe is a good send completion. */
static int
mx_good_send(struct mx *m, const uint8_t *cqe)
{
	if (hh_get8(cqe, HH_CQE_OPCODE) == HH_OPCODE_SEND)
		return 0;
	return mx_fail(m, "CQE opcode 0x%02x, syndrome 0x%02x", hh_get8(cqe, HH_CQE_OPCODE),
		       hh_get8(cqe, HH_CQE_SYNDROME));
}

/* @p got good send CQEs came, as @p expect says. */
static int
mx_sends(struct mx *m, uint32_t got, uint32_t expect)
{
	return got == expect ? 0 : mx_fail(m, "%u send CQEs, expected %u", got, expect);
}

/*
 * 300 WQEs: behind one doorbell (bug: wqe_cnt keeps 300 & 0xff = 44, so
 * 44 execute) or behind doorbells of 255 and 45 (all 300). Sent to a QPN
 * B does not have, so only the send CQEs count.
 */
static int
row_over_255(struct mx *m, bool bug)
{
	const uint32_t n = 300, expect = bug ? n & 0xff : n;
	struct hh_ud_dest dst = mx_dest(m, 0xabcde);
	uint8_t cqe[HH_CQE_SIZE];
	uint32_t got = 0;
	struct mx_qp q;

	if (mx_qp_new(m, m->a, &q, 512, 4, 1024, 0) != 0)
		return -1;
	hh_post_ud_send_batch(&m->a->d, &q.qp, &dst, m->a->payload_mr.lkey, 0, 64, n,
			      bug ? n : 255);
	while (mx_wait(m, &m->a->d, &q.cq, cqe, got < expect ? MX_WAIT_MS : MX_QUIET_MS)) {
		if (mx_good_send(m, cqe) != 0)
			return -1;
		got++;
	}
	return mx_sends(m, got, expect);
}

/* B's receive QP has RSC clear (bug) or set; its receive WQEs never set the C bit. */
static int
row_rsc0(struct mx *m, bool bug)
{
	uint8_t cqe[HH_CQE_SIZE];
	struct mx_qp s, r;

	if (mx_qp_new(m, m->a, &s, 16, 4, 64, 0) != 0 ||
	    mx_qp_new(m, m->b, &r, 4, 4, 64, bug ? HH_BUG_RSC0 : 0) != 0)
		return -1;
	hh_post_recv(&m->b->d, &r.qp, 1);
	mx_send(m, &s, r.qp.qpn, 0);
	if (!mx_wait(m, &m->a->d, &s.cq, cqe, MX_WAIT_MS) ||
	    hh_get8(cqe, HH_CQE_OPCODE) != HH_OPCODE_SEND)
		return mx_fail(m, "no good send CQE");
	if (mx_wait(m, &m->b->d, &r.cq, cqe, bug ? MX_QUIET_MS : MX_WAIT_MS) == bug)
		return mx_fail(m, bug ? "a receive CQE came":
			       "no receive CQE");
	/* the data landed either way: only the completion depends on RSC */
	if (memcmp(r.qp.data.va + 40, m->a->payload.va, MX_LEN) != 0)
		return mx_fail(m, "the payload is not in the receive buffer");
	return 0;
}

/*
 * wqe_base one too high: the WQE is fetched from 4 GiB above where it is,
 * beyond the WQE MR: the fetch is refused (local protection error CQE) and
 * the work queue raises a catastrophic error event.
 */
static int
row_wqe_base(struct mx *m, bool bug)
{
	unsigned int before = m->a->wq_catas;
	struct mx_qp q;

	if (mx_qp_new(m, m->a, &q, 16, 4, 64, bug ? HH_BUG_WQE_BASE : 0) != 0)
		return -1;
	mx_send(m, &q, m->b->ud.qpn, 0);
	if (!bug)
		return mx_delivered(m, &q);
	if (mx_error(m, &q, HH_SYND_LOCAL_PROT) != 0)
		return -1;
	return mx_wq_catas(m, &q, before);
}

/* Drain the completion EQ and its eventfd; 1 if the eventfd had fired. */
static int
mx_comp_eq_drain(struct hh_dev *d)
{
	struct pollfd pfd = { .fd = d->eq[HH_EQ_COMP].irq_fd, .events = POLLIN };
	uint64_t v;
	int fired = 0;

	while (poll(&pfd, 1, 0) == 1 && read(pfd.fd, &v, sizeof(v)) == sizeof(v))
		fired = 1;
	while (hh_eq_next(d, &d->eq[HH_EQ_COMP]) != NULL)
		;
	return fired;
}

/* One completion through an armed CQ: 1 if the EQ's interrupt came within @p ms. */
static int
mx_comp_irq(struct mx *m, struct mx_qp *q, int ms)
{
	struct hh_dev *d = &m->a->d;
	struct pollfd pfd = { .fd = d->eq[HH_EQ_COMP].irq_fd, .events = POLLIN };
	uint8_t cqe[HH_CQE_SIZE];
	uint64_t end;

	hh_cq_arm(d, &q->cq, false);
	mx_send(m, q, m->b->ud.qpn, 0);
	if (!mx_wait(m, d, &q->cq, cqe, MX_WAIT_MS))
		return -1;
	mx_b_received(m, q, MX_WAIT_MS);
	q->cq.arm_sn++;
	end = now_ms() + ms;
	do {
		if (poll(&pfd, 1, 10) == 1)
			return 1;
		mx_service(m);
	} while (now_ms() < end);
	return 0;
}

/*
 * The completion EQ armed through QUERY_FW's eq_arm address: masked with
 * the BAR0 length - 1, the arm reaches the HCA and the next completion
 * event raises the interrupt; unmasked, the store falls outside BAR0 and
 * is lost (a master abort), and the interrupt never comes.
 */
static int
row_fw_unmasked(struct mx *m, bool bug)
{
	struct hh_dev *d = &m->a->d;
	unsigned long dropped;
	struct mx_qp q;
	int irq;

	if ((d->eq_arm_base & ~(uint64_t)(d->bar0_len - 1)) == 0)
		return mx_fail(m, "QUERY_FW eq_arm_base 0x%llx has no bits above BAR0 (%zu bytes)",
			       (unsigned long long)d->eq_arm_base, d->bar0_len);
	if (mx_qp_new(m, m->a, &q, 16, 4, 64, 0) != 0)
		return -1;
	/* leave the EQ fired (disarmed) and empty */
	if (mx_comp_irq(m, &q, MX_WAIT_MS) < 0)
		return mx_fail(m, "no completion to disarm the EQ with");
	mx_comp_eq_drain(d);
	dropped = d->dropped_writes;
	d->bugs = bug ? HH_BUG_FW_UNMASKED : 0;
	hh_eq_arm(d, &d->eq[HH_EQ_COMP]);
	d->bugs = 0;
	if (bug && d->dropped_writes == dropped)
		return mx_fail(m, "the unmasked arm store reached BAR0");
	irq = mx_comp_irq(m, &q, bug ? MX_QUIET_MS : MX_WAIT_MS);
	mx_comp_eq_drain(d);
	hh_eq_arm(d, &d->eq[HH_EQ_COMP]);	/* leave it armed for whoever comes next */
	if (irq < 0)
		return mx_fail(m, "no completion");
	return irq == !bug ? 0 : mx_fail(m, "completion interrupt %s",
					 irq ? "came" : "missing");
}

/*
 * A send queue of 2^16 WQEs: log_sq_size has 4 bits (at most 2^15) and
 * the bit above it is reserved, so RST2INIT is refused; without the bug
 * the queue has DEV_LIM's maximum and a WQE is delivered.
 */
static int
row_queue_64k(struct mx *m, bool bug)
{
	struct hh_dev *d = &m->a->d;
	uint32_t depth = bug ? 1u << 16 : 1u << (d->log_max_qp_sz < 15 ? d->log_max_qp_sz : 15);
	struct mx_qp q;
	int st;

	if (mx_qp_alloc(m, m->a, &q, depth, 4, 64) != 0)
		return -1;
	st = hh_qp_modify(d, &q.qp, HH_QPS_RESET, HH_QPS_INIT, 0);
	if (bug)
		return st == HH_ST_BAD_PARAM ? 0 :
		       mx_fail(m, "RST2INIT status 0x%02x, expected 0x%02x", st, HH_ST_BAD_PARAM);
	if (st != HH_ST_OK || hh_qp_modify(d, &q.qp, HH_QPS_INIT, HH_QPS_RTR, 0) != HH_ST_OK ||
	    hh_qp_modify(d, &q.qp, HH_QPS_RTR, HH_QPS_RTS, 0) != HH_ST_OK)
		return mx_fail(m, "a %u-entry SQ did not reach RTS (RST2INIT 0x%02x)", depth, st);
	mx_send(m, &q, m->b->ud.qpn, 0);
	return mx_delivered(m, &q);
}

/*
 * QP1 sends a UD datagram to B's UD QP with an MLX WQE whose headers it
 * built; the MLX ctrl segment's rlid must be the headers' DLID.
 */
static int
row_mlx_rlid(struct mx *m, bool bug)
{
	struct hh_qp *qp1 = &m->a->qp1;
	unsigned int ok = qp1->sends_ok, err = qp1->sends_err, i;
	uint8_t hdr[28];
	uint64_t end;
	struct mx_qp who = { .qp = { .qpn = 1 } };

	for (i = 0; i < MX_LEN; i++)
		m->a->payload.va[i] = (uint8_t)(i * 5 + 1);
	hh_build_ud_headers(hdr, 0, 0, m->b->lid, 0, 0xffff, m->b->ud.qpn, qp1->psn++,
			    HH_HOST_UD_QKEY, 1);
	m->a->d.bugs = bug ? HH_BUG_MLX_RLID : 0;
	hh_post_mlx_send(&m->a->d, qp1, hdr, sizeof(hdr), m->a->payload.va, false, false, 0,
			 m->b->lid);
	m->a->d.bugs = 0;
	end = now_ms() + MX_WAIT_MS;
	while (qp1->sends_ok == ok && qp1->sends_err == err && now_ms() < end)
		mx_service(m);
	if (bug) {
		int recovered;

		if (qp1->sends_err == err || qp1->last_err_synd != HH_SYND_LOCAL_QP_OP)
			return mx_fail(m, "QP1 send: %u good, %u errors",
				       qp1->sends_ok - ok, qp1->sends_err - err);
		/* the error took QP1 to ERR: recover it as a driver must */
		recovered = hh_qp_reset(&m->a->d, qp1) == 0 && hh_qp_up(&m->a->d, qp1, 0) == 0 &&
			    hh_post_recv(&m->a->d, qp1, qp1->rq_max) == 0;
		if (!recovered)
			return mx_fail(m, "QP1 did not come back from ERR");
		return mx_b_received(m, &who, MX_QUIET_MS / 4) ?
		       mx_fail(m, "B received the datagram") : 0;
	}
	if (qp1->sends_ok == ok)
		return mx_fail(m, "QP1 send: no good completion (%u errors)",
			       qp1->sends_err - err);
	return mx_b_received(m, &who, MX_WAIT_MS) ? 0 :
	       mx_fail(m, "B did not receive the datagram from QP1");
}

/* A CQ error event for CQ @p cqn with syndrome class @p overrun came (A had seen @p before). */
static int
mx_cq_err(struct mx *m, uint32_t cqn, bool overrun, unsigned int before)
{
	uint64_t end = now_ms() + MX_WAIT_MS;

	while (m->a->cq_err == before && now_ms() < end)
		mx_service(m);
	if (m->a->cq_err == before)
		return mx_fail(m, "no CQ error event");
	if (m->a->cq_err_cqn != cqn)
		return mx_fail(m, "CQ error event for CQ 0x%x, not 0x%x", m->a->cq_err_cqn, cqn);
	if ((m->a->cq_err_synd == 1) != overrun)
		return mx_fail(m, "CQ error syndrome %u, expected %s", m->a->cq_err_synd,
			       overrun ? "1 (overrun)" : "access violation");
	return 0;
}

/*
 * The CQ's context names another PD than its buffer's region ("must be
 * the same PD of the CQ L_Key"): the datagram goes, its CQE is not
 * written, the CQ reports an access violation. A driver that did this
 * would lose every completion on silicon.
 */
static int
row_cq_pd(struct mx *m, bool bug)
{
	unsigned int before = m->a->cq_err;
	uint8_t cqe[HH_CQE_SIZE];
	struct mx_qp q;
	int ret;

	m->a->d.bugs = bug ? HH_BUG_CQ_PD : 0;
	ret = mx_qp_alloc(m, m->a, &q, 16, 4, 64);
	m->a->d.bugs = 0;
	if (ret != 0)
		return -1;
	if (hh_qp_up(&m->a->d, &q.qp, 0) != 0)
		return mx_fail(m, "QP 0x%x to RTS failed", q.qp.qpn);
	mx_send(m, &q, m->b->ud.qpn, 0);
	if (!bug)
		return mx_delivered(m, &q);
	if (!mx_b_received(m, &q, MX_WAIT_MS))
		return mx_fail(m, "B did not receive the datagram");
	if (mx_wait(m, &m->a->d, &q.cq, cqe, MX_QUIET_MS))
		return mx_fail(m, "a CQE came: opcode 0x%02x", hh_get8(cqe, HH_CQE_OPCODE));
	return mx_cq_err(m, q.cq.cqn, false, before);
}

/*
 * 16 signaled sends outstanding on a CQ of 16 entries (bug: no spare CQE,
 * Linux mthca_create_cq() sizes above the count) or of 32: a CQ of 2^n
 * holds 2^n - 1 CQEs (PRM producer_counter), so with the bug 15 CQEs are
 * written and the 16th is an overrun. Nobody polls until all are done.
 */
static int
row_cq_spare(struct mx *m, bool bug)
{
	const uint32_t n = 16, expect = bug ? n - 1 : n;
	struct hh_ud_dest dst = mx_dest(m, 0xabcde);
	unsigned int before = m->a->cq_err;
	uint8_t cqe[HH_CQE_SIZE];
	uint64_t end;
	uint32_t got = 0;
	struct mx_qp q;

	if (mx_qp_new(m, m->a, &q, n, 4, bug ? n : 2 * n, 0) != 0)
		return -1;
	hh_post_ud_send_batch(&m->a->d, &q.qp, &dst, m->a->payload_mr.lkey, 0, 64, n, n);
	end = now_ms() + MX_QUIET_MS;
	while (now_ms() < end)
		mx_service(m);
	if (bug && mx_cq_err(m, q.cq.cqn, true, before) != 0)
		return -1;
	if (!bug && m->a->cq_err != before)
		return mx_fail(m, "a CQ error event (CQ 0x%x, syndrome %u)", m->a->cq_err_cqn,
			       m->a->cq_err_synd);
	while (got <= n && hh_cq_poll(&m->a->d, &q.cq, cqe)) {
		if (mx_good_send(m, cqe) != 0)
			return -1;
		got++;
	}
	return mx_sends(m, got, expect);
}

/*
 * A CQ whose c_eqn is 64 (with the "bug"; the PRM allows any value
 * outside 0..63 and means no completion events: a poll-only CQ) or the
 * completion EQ. SW2HW_CQ takes both; armed, the first raises no
 * completion interrupt, the second does; both complete the send.
 */
static int
row_cq_no_eqn(struct mx *m, bool bug)
{
	struct hh_dev *d = &m->a->d;
	struct mx_qp q;
	int ret, irq;

	d->bugs = bug ? HH_BUG_CQ_NO_EQN : 0;
	ret = mx_qp_alloc(m, m->a, &q, 16, 4, 64);
	d->bugs = 0;
	if (ret != 0)
		return -1;
	if (hh_qp_up(d, &q.qp, 0) != 0)
		return mx_fail(m, "QP 0x%x to RTS failed", q.qp.qpn);
	mx_comp_eq_drain(d);
	hh_eq_arm(d, &d->eq[HH_EQ_COMP]);
	irq = mx_comp_irq(m, &q, bug ? MX_QUIET_MS : MX_WAIT_MS);
	mx_comp_eq_drain(d);
	hh_eq_arm(d, &d->eq[HH_EQ_COMP]);
	if (irq < 0)
		return mx_fail(m, "no send CQE");
	return irq == !bug ? 0 : mx_fail(m, "completion interrupt %s", irq ? "came" : "missing");
}

/*
 * An EQ of its own for one CQ's completion events, its context naming
 * another PD than its buffer's region (bug) or the same: the armed CQ's
 * completion writes an EQE (PRM eqc.pd: "PD to be used to access EQ"),
 * or nothing at all, the EQ in write failure. On silicon a driver with
 * the bug never sees an event: its first event-mode command would hang.
 */
static int
row_eq_pd(struct mx *m, bool bug)
{
	struct hh_dev *d = &m->a->d;
	struct hh_eq eq = { .irq_fd = -1 };
	uint32_t eqn = d->rsvd_eqs + HH_NUM_EQ;
	uint8_t cqe[HH_CQE_SIZE];
	const uint8_t *eqe = NULL;
	uint64_t end;
	struct mx_qp q;
	int ret;

	d->bugs = bug ? HH_BUG_EQ_PD : 0;
	/* its interrupt is the completion EQ's vector (EQC intr 0x80 | 0) */
	ret = hh_eq_create(d, &eq, eqn, 16, 128 + HH_EQ_COMP);
	d->bugs = 0;
	if (ret != 0)
		return mx_fail(m, "SW2HW_EQ %u: %d", eqn, ret);
	memset(&q, 0, sizeof(q));
	q.h = m->a;
	ret = hh_cq_create_on(d, &q.cq, d->rsvd_cqs + MX_FIRST_CQ + m->next_cq[0]++, 64, eqn);
	if (ret == 0)
		ret = hh_qp_create_sized(d, &q.qp, hh_host_qpn(m->a, MX_FIRST_QP +
								m->next_qp[0]++),
					 HH_QPST_UD, 1, &q.cq, &q.cq, 16, 4);
	q.qp.qkey = HH_HOST_UD_QKEY;
	if (ret == 0)
		ret = hh_qp_up(d, &q.qp, 0);
	if (ret == 0) {
		hh_eq_arm(d, &eq);
		hh_cq_arm(d, &q.cq, false);
		mx_send(m, &q, m->b->ud.qpn, 0);
		if (!mx_wait(m, d, &q.cq, cqe, MX_WAIT_MS))
			ret = mx_fail(m, "no send CQE");
		mx_b_received(m, &q, MX_WAIT_MS);
		q.cq.arm_sn++;
	} else {
		ret = mx_fail(m, "CQ or QP on EQ %u: %d", eqn, ret);
	}
	end = now_ms() + (bug ? MX_QUIET_MS : MX_WAIT_MS);
	while (ret == 0 && eqe == NULL && now_ms() < end) {
		eqe = hh_eq_next(d, &eq);
		if (eqe == NULL)
			mx_service(m);
	}
	if (ret == 0 && bug && eqe != NULL)
		ret = mx_fail(m, "an EQE came: type 0x%02x", hh_get8(eqe, HH_EQE_TYPE));
	if (ret == 0 && !bug && eqe == NULL)
		ret = mx_fail(m, "no completion EQE on EQ %u", eqn);
	if (ret == 0 && !bug && (hh_get8(eqe, HH_EQE_TYPE) != HH_EV_COMP ||
				 (hh_get32(eqe, HH_EQE_DATA) & 0xffffff) != q.cq.cqn))
		ret = mx_fail(m, "EQE type 0x%02x for CQ 0x%x", hh_get8(eqe, HH_EQE_TYPE),
			      hh_get32(eqe, HH_EQE_DATA) & 0xffffff);
	if (hh_eq_destroy(d, &eq) != 0 && ret == 0)
		ret = mx_fail(m, "HW2SW_EQ %u failed", eqn);
	mx_comp_eq_drain(d);	/* the shared vector's eventfd */
	return ret;
}

/* ---- the model's count ----------------------------------------------------- */

/*
 * A's check counters (hca <node> errors) moved from @p before as the row
 * says: @p check (the model's name for the rule the bug broke) by one,
 * every other by nothing. Silicon's outcome alone cannot tell some rules
 * apart ("nothing happens" is also what a model that ignored the field
 * would do); the count names the field the HCA refused. Waits up to
 * MX_WAIT_MS for the count, which lands when the model acts.
 */
static int
mx_counted(struct mx *m, const struct hh_checks *before, const char *check)
{
	uint64_t end = now_ms() + MX_WAIT_MS;
	struct hh_checks now;
	unsigned int i;

	for (;;) {
		long long want = 0, got = 0;

		if (hh_ctl_checks(m->ctl, m->node, &now, m->why, sizeof(m->why)) != 0)
			return -1;
		if (now.n != before->n)
			return mx_fail(m, "hca errors: %u checks, were %u", now.n, before->n);
		for (i = 0; i < now.n; i++) {
			bool mine = check != NULL && strcmp(now.name[i], check) == 0;
			long long d = (long long)(now.count[i] - before->count[i]);

			if (!mine && d != 0)
				return mx_fail(m, "the model counted %s +%lld (expected %s)",
					       now.name[i], d, check != NULL ? check : "nothing");
			if (mine) {
				want = 1;
				got = d;
			}
		}
		if (check != NULL && want == 0)
			return mx_fail(m, "hca errors lists no check %s", check);
		if (got > want)
			return mx_fail(m, "the model counted %s +%lld, expected +1", check, got);
		if (got == want)
			return 0;
		if (now_ms() >= end)
			return mx_fail(m, "the model did not count %s within %d ms", check,
				       MX_WAIT_MS);
		mx_service(m);
	}
}

/* ---- the table ------------------------------------------------------------ */

struct mx_row {
	const char *name;
	const char *field;	/* what the hardware reads: PRM struct.field, or source */
	const char *silicon;	/* what it does when a driver gets it wrong */
	int (*run)(struct mx *m, bool bug);
	const char *check;	/* the model's count of it (hca <node> errors), or NULL */
};

static const struct mx_row mx_rows[] = {
	{ "no_send_doorbell", "arbelprm_send_doorbell_st (UAR + 0x10)",
	  "WQE and record written, no doorbell: nothing executes, no CQE",
	  row_no_send_db, NULL },
	{ "doorbell_qpn", "arbelprm_send_doorbell_st.qpn",
	  "doorbell names a QP in RESET: ignored, the posting QP never runs",
	  row_db_qpn, "db_qp" },
	{ "doorbell_wqe_counter", "arbelprm_send_doorbell_st.wqe_counter",
	  "not the WQEs posted before: WQ catastrophic error event, no CQE",
	  row_db_counter, "db_wqe_counter" },
	{ "doorbell_wqe_cnt_0", "arbelprm_send_doorbell_st.wqe_cnt (\"must be greater than zero\")",
	  "wqe_cnt 0: the doorbell is not acted on",
	  row_db_cnt0, "db_wqe_cnt" },
	{ "doorbell_over_255", "arbelprm_send_doorbell_st.wqe_cnt (8 bits)",
	  "300 WQEs behind one doorbell: wqe_cnt = 44, 44 execute",
	  row_over_255, NULL },
	{ "next_dbd", "arbelprm_wqe_segment_next_st.always1 (Linux MTHCA_NEXT_DBD)",
	  "clear: local QP operation error (syndrome 0x02)",
	  row_next_dbd, "wqe_dbd" },
	{ "ctrl_always1", "arbelprm_wqe_segment_ctrl_send_st.always1",
	  "clear: local QP operation error (syndrome 0x02)",
	  row_ctrl_always1, "ctrl_always1" },
	{ "rsc0_no_c_bit", "arbelprm_queue_pair_ee_context_entry_st.rsc",
	  "RSC 0, receive WQE without C: data delivered, no receive CQE",
	  row_rsc0, NULL },
	{ "av_pd", "arbelprm_ud_address_vector_st.pd",
	  "not the QP's PD: local QP operation error (syndrome 0x02)",
	  row_av_pd, "av_pd" },
	{ "av_port", "arbelprm_ud_address_vector_st.port_number (INIT_HCA check port)",
	  "not the QP's port: local QP operation error (syndrome 0x02)",
	  row_av_port, "av_port" },
	{ "av_rgid", "arbelprm_ud_address_vector_st.rgid_31_0 (0x2 when G is clear)",
	  "0 without the G bit: local QP operation error (syndrome 0x02)",
	  row_av_rgid, "av_rgid" },
	{ "wqe_base", "arbelprm_queue_pair_ee_context_entry_st.wqe_base_adr_h",
	  "wrong bits 63:32: WQE fetch refused, protection error CQE + WQ catas",
	  row_wqe_base, NULL },
	{ "fw_addr_unmasked", "arbelprm_query_fw_st.eq_arm_base_addr_h/l (Linux masks)",
	  "unmasked: the arm store misses BAR0, the EQ never interrupts",
	  row_fw_unmasked, NULL },
	{ "queue_2_16", "arbelprm_queue_pair_ee_context_entry_st.log_sq_size (4 bits)",
	  "2^16 WQEs cannot be encoded: RST2INIT status 0x03 BAD_PARAM",
	  row_queue_64k, NULL },
	{ "mlx_rlid", "arbelprm_wqe_segment_ctrl_mlx_st.rlid (\"must match given headers\")",
	  "rlid not the header DLID: local QP operation error, nothing sent",
	  row_mlx_rlid, "mlx_rlid" },
	{ "cq_pd", "arbelprm_completion_queue_context_st.pd (\"same PD of the CQ L_Key\")",
	  "another PD: datagram sent, no CQE, CQ error (access violation)",
	  row_cq_pd, "cq_pd" },
	{ "cq_no_spare", "arbelprm_completion_queue_context_st.producer_counter",
	  "16 CQEs into a 16-entry CQ: 15 written, the 16th overruns",
	  row_cq_spare, NULL },
	{ "cq_eqn_none", "arbelprm_completion_queue_context_st.c_eqn (0..63)",
	  "c_eqn 64 (legal): CQ comes up, completes, raises no event",
	  row_cq_no_eqn, NULL },
	{ "eq_pd", "arbelprm_eqc_st.pd (\"PD to be used to access EQ\")",
	  "another PD: no EQE is ever written (EQ write failure)",
	  row_eq_pd, "eq_pd" },
};

int
hh_matrix_rows(char *buf, size_t len)
{
	size_t i, off = 0;

	for (i = 0; i < sizeof(mx_rows) / sizeof(mx_rows[0]) && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : "",
					mx_rows[i].name);
	return (int)i;
}

int
hh_matrix(struct hh_host *a, struct hh_host *b, const char *ctl, int nrows, char **rows,
	  unsigned int *checks, unsigned int *failures)
{
	struct mx m = { .a = a, .b = b, .ctl = ctl };
	const uint8_t *nd;
	int i;
	size_t r;

	for (i = 0; i < nrows; i++) {
		for (r = 0; r < sizeof(mx_rows) / sizeof(mx_rows[0]); r++)
			if (strcmp(rows[i], mx_rows[r].name) == 0)
				break;
		if (r == sizeof(mx_rows) / sizeof(mx_rows[0])) {
			fprintf(stderr, "hca_host: matrix: no row '%s'\n", rows[i]);
			return -EINVAL;
		}
	}
	/* NodeDescription (IBA 14.2.5.2): the node's name on the control socket */
	nd = hh_host_smp_get(a, 0x0010, 0);
	if (nd == NULL) {
		fprintf(stderr, "hca_host: matrix: no NodeDescription from A's firmware\n");
		return -EIO;
	}
	memcpy(m.node, nd + 64, 64);
	m.node[64] = '\0';
	printf("%-22s %-62s %s\n", "row", "the hardware reads", "with the bug");
	for (i = 0; i < nrows; i++) {
		const struct mx_row *row = NULL;
		struct hh_checks before;
		int rb, rf;

		for (r = 0; r < sizeof(mx_rows) / sizeof(mx_rows[0]); r++)
			if (strcmp(rows[i], mx_rows[r].name) == 0)
				row = &mx_rows[r];
		m.why[0] = '\0';
		mx_drain_b(&m);
		rb = hh_ctl_checks(ctl, m.node, &before, m.why, sizeof(m.why));
		if (rb == 0)
			rb = row->run(&m, true);
		if (rb == 0)
			rb = mx_counted(&m, &before, row->check);
		printf("%s %-22s %-62s %s%s%s%s%s\n", rb == 0 ? "ok  " : "FAIL", row->name,
		       row->field, row->silicon, row->check != NULL ? "; counted as " : "",
		       row->check != NULL ? row->check : "", rb == 0 ? "" : ": saw ",
		       rb == 0 ? "" : m.why);
		m.why[0] = '\0';
		mx_drain_b(&m);
		rf = hh_ctl_checks(ctl, m.node, &before, m.why, sizeof(m.why));
		if (rf == 0)
			rf = row->run(&m, false);
		if (rf == 0)
			rf = mx_counted(&m, &before, NULL);
		printf("%s %-22s %-62s %s%s\n", rf == 0 ? "ok  " : "FAIL", row->name,
		       "(the same row without the bug)", rf == 0 ? "works" : "fails: ",
		       rf == 0 ? "" : m.why);
		*checks += 2;
		*failures += (rb != 0) + (rf != 0);
	}
	return 0;
}
