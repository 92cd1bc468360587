/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * MT25208 model, data path: doorbell polling. The UAR send and CQ
 * doorbells, their checks, the BAR2 scan for pages nobody named
 * (doc/guides/nics/mthca_hw.rst, "Doorbells").
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fab_log.h"
#include "fab_node.h"
#include "mt25208.h"
#include "mt25208_dp_cqe.h"
#include "mt25208_dp_doorbell.h"
#include "mt25208_dp_send.h"
#include "mt25208_dp_state.h"

/* ---- doorbells -------------------------------------------------------------- */

/* The doorbell raised a WQ catastrophic error on QP @p qpn (IBA 11.6.3.1). */
static void
qp_wq_catas(struct mt25208 *dev, void *qpc, uint32_t qpn)
{
	uint8_t data[MT_EQE_DATA_SIZE];

	memset(data, 0, sizeof(data));
	mt_put32(data, 0, qpn);
	mt25208_event(dev, MT_EV_WQ_CATAS, 0, data);
	dp_qp_to_error(dev, qpc, qpn);
}

/* WQEs the SQ doorbell record of @p qpc counts (16 bits), @p dflt without a record. */
static uint32_t
sq_posted(struct mt25208 *dev, const void *qpc, uint32_t dflt)
{
	const void *rec = mt25208_db_rec(dev, mt_qpc_usr_page(qpc), mt_qpc_snd_db_index(qpc));

	return rec != NULL ? mt_dbr_counter(rec) & 0xffff : dflt;
}

/*
 * A send doorbell @p hi:@p lo arrived on UAR page @p u (PRM
 * arbelprm_send_doorbell_st). Returns false when its nopcode/nds disagree
 * with the first WQE and @p final is false: the caller looks again at the
 * next poll, in case only the first word of a torn doorbell had landed.
 * @p repeat: the slot holds the doorbell acted on last; if the QP has done
 * nothing since, this is the second word of a torn doorbell landing after
 * the model took the first with the previous second word (equal to it).
 */
static bool
send_doorbell(struct mt25208 *dev, struct dp_uar *u, uint32_t hi, uint32_t lo, bool final,
	      bool repeat)
{
	uint32_t qpn = mt_send_db_qpn(lo), counter = mt_send_db_counter(hi);
	uint32_t cnt = mt_send_db_cnt(hi), target, done, nent, ahead, posted;
	struct mt25208_dp *dp = dp_of(dev);
	uint8_t *prev = dp->prev, state;
	void *qpc = NULL, *eqpc = NULL;
	char why[96];

	if ((qpn & ((1u << dev->cfg.log_qp) - 1)) >= (1u << MT25208_LOG_RSVD_QP)) {
		qpc = mt25208_qpc(dev, qpn);
		eqpc = mt25208_eqpc(dev, qpn);
	}
	/* the context's local_qpn holds the whole QPN: upper bits do not alias */
	state = qpc != NULL && mt_qpc_local_qpn(qpc) == qpn ? mt_qpc_state(qpc) : MT_QPS_RESET;
	if (eqpc == NULL || (state != MT_QPS_RTS && state != MT_QPS_SQD && state != MT_QPS_ERR)) {
		snprintf(why, sizeof(why), "UAR %u, QP state %u", u->index, state);
		mt25208_check_fail(dev, MT25208_CHK_DB_QP, qpn, &u->logged, why);
		return true;
	}
	if (repeat && ((counter + cnt) & 0xffff) == (mt_get32(eqpc, MT_EQPC_SQ_TARGET) & 0xffff))
		return true;
	if (mt_qpc_usr_page(qpc) != u->index) {
		snprintf(why, sizeof(why), "rung on UAR %u, usr_page %u", u->index,
			 mt_qpc_usr_page(qpc));
		dp_qp_check_fail(dev, eqpc, qpn, MT25208_CHK_DB_UAR, why);
		return true;
	}
	if (cnt == 0) {
		dp_qp_check_fail(dev, eqpc, qpn, MT25208_CHK_DB_WQE_CNT, NULL);
		return true;
	}
	nent = 1u << mt_qpc_sq_log_size(qpc);
	target = mt_get32(eqpc, MT_EQPC_SQ_TARGET) & 0xffff;
	done = mt_get32(eqpc, MT_EQPC_SQ_DONE) & 0xffff;
	ahead = (counter - target) & 0xffff;
	/*
	 * The SQ record matters only to a doorbell ahead of the count (the
	 * rule below): the driver writes that cache line before every
	 * doorbell, so reading it each time was one more transfer between
	 * the host's CPU and the model's per datagram.
	 */
	posted = ahead != 0 ? sq_posted(dev, qpc, target) : target;
	/*
	 * wqe_counter must be the count of WQEs the doorbells before it
	 * named. Ahead of it: earlier doorbells on this slot were overwritten
	 * between two polls; taken when the SQ record confirms the WQEs
	 * (doc/guides/nics/mthca_hw.rst, "Doorbells"). The queue never holds
	 * more than nent outstanding WQEs.
	 */
	if ((ahead != 0 && ((posted - target) & 0xffff) < ahead + cnt) ||
	    ((counter + cnt - done) & 0xffff) > nent) {
		snprintf(why, sizeof(why), "wqe_counter %u wqe_cnt %u, expected wqe_counter %u",
			 counter, cnt, target);
		dp_qp_check_fail(dev, eqpc, qpn, MT25208_CHK_DB_WQE_COUNTER, why);
		if (state != MT_QPS_ERR)
			qp_wq_catas(dev, qpc, qpn);
		track_qp(dev, qpn, qpc);	/* flush what was posted */
		return true;
	}
	/* the first WQE's opcode and size, as its predecessor's next segment has them */
	dp->prev_valid = false;
	if (state != MT_QPS_ERR &&
	    mt25208_mr_access(dev, mt_qpc_wqe_lkey(qpc), mt_qpc_pd(qpc),
			      wqe_va(qpc, sq_wqe_low(qpc, counter - 1)), prev, MT_WQE_NEXT_SIZE,
			      false) == 0 &&
	    (mt_wqe_next_op(prev) != mt_send_db_op(hi) ||
	     mt_wqe_next_size(prev) != mt_send_db_nds(lo))) {
		if (!final)
			return false;
		snprintf(why, sizeof(why), "doorbell nopcode 0x%x nds %u, WQE %u: 0x%x %u",
			 mt_send_db_op(hi), mt_send_db_nds(lo), counter, mt_wqe_next_op(prev),
			 mt_wqe_next_size(prev));
		mt_put32(eqpc, MT_EQPC_SQ_TARGET, (counter + cnt) & 0xffff);
		/* WQEs before this doorbell's execute first; its own do not */
		while (done != counter && mt_qpc_state(qpc) == MT_QPS_RTS) {
			dp_exec_send(dev, qpc, eqpc, qpn, done);
			done = (done + 1) & 0xffff;
			mt_put32(eqpc, MT_EQPC_SQ_DONE, done);
		}
		if (mt_qpc_state(qpc) == MT_QPS_RTS) {
			dp_send_qp_op_error(dev, qpc, eqpc, qpn, sq_wqe_low(qpc, counter),
					 MT25208_CHK_DB_NDS_OP, why);
			mt_put32(eqpc, MT_EQPC_SQ_DONE, (counter + 1) & 0xffff);
		}
		track_qp(dev, qpn, qpc);
		return true;
	}
	/* fetched and consistent: dp_exec_send() of WQE counter reuses it */
	dp->prev_valid = state != MT_QPS_ERR;
	dp->prev_qpn = qpn;
	dp->prev_n = counter & 0xffff;
	if (ahead != 0)
		dp_of(dev)->st.db_coalesced++;
	mt_put32(eqpc, MT_EQPC_SQ_TARGET, (counter + cnt) & 0xffff);
	track_qp(dev, qpn, qpc);
	return true;
}

/*
 * The send doorbell slot of UAR page @p u. Pending while its second word
 * is non-zero (a valid doorbell's nds is at least 1); the model clears
 * that word once it has acted, so a doorbell stored as two 32-bit words
 * is taken when its second word lands (PRM: the HCA latches the first).
 */
static bool
poll_send_db(struct mt25208 *dev, struct dp_uar *u, uint8_t *slot)
{
	uint64_t v = load64(slot), cleared;
	uint32_t hi = mt_db_hi(v), lo = mt_db_lo(v);

	if (lo == 0)
		return false;
	if (!send_doorbell(dev, u, hi, lo, u->suspect == v, u->acted == v)) {
		u->suspect = v;
		return true;
	}
	u->acted = v;
	dp_of(dev)->st.doorbells++;
	u->suspect = 0;
	cleared = v;
	memset((uint8_t *)&cleared + 4, 0, 4);
	/* a store racing with this leaves the slot as the host wrote it: next poll */
	__atomic_compare_exchange_n((uint64_t *)slot, &v, cleared, false, __ATOMIC_ACQ_REL,
				    __ATOMIC_ACQUIRE);
	return true;
}

/* The CQ doorbell slot of UAR page @p u: the write arms (PRM arbelprm_cq_cmd_doorbell_st). */
bool
dp_poll_cq_db(struct mt25208 *dev, struct dp_uar *u, const uint8_t *slot)
{
	uint64_t v = load64(slot);
	uint32_t hi = mt_db_hi(v), cqn = mt_cq_db_cqn(hi);
	void *cqc;

	if (v == u->last_cq)
		return false;
	u->last_cq = v;
	dp_of(dev)->st.doorbells++;
	cqc = mt25208_cq_get(dev, cqn);
	if (cqc != NULL && mt_cqc_uar(cqc) != u->index) {
		char why[64];

		snprintf(why, sizeof(why), "CQ doorbell on UAR %u, CQ's UAR %u", u->index,
			 mt_cqc_uar(cqc));
		mt25208_check_fail(dev, MT25208_CHK_DB_UAR, cqn, &u->logged, why);
		return true;
	}
	dp_cq_arm(dev, cqn, mt_cq_db_cmd(hi), mt_cq_db_sn(hi), mt_db_lo(v));
	return true;
}

void
dp_full_scan(struct mt25208 *dev)
{
	struct mt25208_dp *dp = dp_of(dev);
	size_t n = dev->bar2_len / MT_UAR_PAGE_SIZE, u;

	if (n > DP_MAX_UARS)
		n = DP_MAX_UARS;
	for (u = 0; u < n; u++) {
		const uint8_t *pg = dev->bar2 + u * MT_UAR_PAGE_SIZE;

		if (load64(pg + MT_UAR_SEND_DB) != 0 || load64(pg + MT_UAR_CQ_DB) != 0)
			uar_add(dp, (uint32_t)u);
	}
}

bool
dp_poll_uars(struct mt25208 *dev)
{
	struct mt25208_dp *dp = dp_of(dev);
	bool busy = false;
	unsigned int i;

	for (i = 0; i < dp->nuars; i++) {
		struct dp_uar *u = &dp->uars[i];
		uint8_t *pg = dev->bar2 + (size_t)u->index * MT_UAR_PAGE_SIZE;

		busy |= poll_send_db(dev, u, pg + MT_UAR_SEND_DB);
		busy |= dp_poll_cq_db(dev, u, pg + MT_UAR_CQ_DB);
	}
	return busy;
}

void
dp_doorbell_watch(struct mt25208 *dev, uint32_t uar, uint32_t qpn)
{
	struct mt25208_dp *dp = dp_of(dev);
	void *qpc;

	if (dp == NULL)
		return;
	uar_add(dp, uar);
	qpc = qpn != MT25208_DP_NO_QP ? mt25208_qpc(dev, qpn) : NULL;
	/* 2ERR: flush; back to RTS (SQD2RTS, SQERR2RTS): run what doorbells named meanwhile */
	if (qpc != NULL && (mt_qpc_state(qpc) == MT_QPS_ERR || mt_qpc_state(qpc) == MT_QPS_RTS))
		track_qp(dev, qpn, qpc);
}
