/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * MT25208 model, data path: completions. CQE writing (overrun check,
 * CQ and EQ PD), CQ arming and firing, error CQEs, QPs to ERR and their
 * flushes (doc/guides/nics/mthca_hw.rst, "Completions and events").
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fab_log.h"
#include "fab_node.h"
#include "mt25208.h"
#include "mt25208_dp_cqe.h"
#include "mt25208_dp_state.h"

/* ---- completions --------------------------------------------------------- */

static void
cq_error(struct mt25208 *dev, uint32_t cqn, uint8_t synd)
{
	uint8_t data[MT_EQE_DATA_SIZE];

	memset(data, 0, sizeof(data));
	mt_put32(data, 0, cqn & 0xffffff);
	mt_put8(data, MT_EQE_CQ_SYNDROME - MT_EQE_DATA, synd);
	mt25208_event(dev, MT_EV_CQ_ERROR, 0, data);
}

static void
cq_fire(struct mt25208 *dev, void *cqc, uint32_t cqn)
{
	struct mt25208_dp *dp = dp_of(dev);
	uint8_t data[MT_EQE_DATA_SIZE];

	memset(data, 0, sizeof(data));
	mt_put32(data, 0, cqn & 0xffffff);
	/* mthca_arbel_arm_cq(): arming is one-shot */
	mt_cqc_set_state(cqc, MT_CQ_STATE_FIRED);
	/* c_eqn outside 0..63: the CQ reports no completion events (PRM c_eqn) */
	if (mt_cqc_comp_eqn(cqc) >= MT25208_CQ_EQN_LIMIT)
		return;
	if (mt25208_eq_post(dev, (uint8_t)mt_cqc_comp_eqn(cqc), MT_EV_COMP, 0, data) == 0)
		dp->st.comp_events++;
}

/*
 * The CQE at @p va of CQ @p cqn cannot be written. A key, PD or bounds
 * refusal is the CQ's own error (CQ_ERROR, access violation); a CQC pd
 * that is not the PD of the CQ's L_Key ("must be the same PD of the CQ
 * L_Key", PRM completion_queue_context.pd) is also counted as check
 * cq_pd. A bus address no IOMMU window covers is what a PCI master abort
 * is to the silicon: a catastrophic error (uplink bus error,
 * poll_catas()), logged with the address.
 */
static void
cq_write_failed(struct mt25208 *dev, void *cqc, uint32_t cqn, uint64_t va)
{
	uint8_t probe[MT_CQE_SIZE];
	int rc;

	rc = mt25208_mr_access(dev, mt_cqc_lkey(cqc), MT25208_PD_ANY, va, probe, sizeof(probe),
			       false);
	if (rc == -EFAULT) {
		mt25208_catas(dev, MT_CATAS_UPLINK_BUS, "CQE write: DMA fault", va);
		return;
	}
	if (rc == 0)
		mt25208_check_fail(dev, MT25208_CHK_CQ_PD, cqn, NULL,
				   "CQC pd is not the PD of its L_Key");
	cqc_set_status(cqc, MT_EQ_STATUS_WRITE_FAIL);
	cq_error(dev, cqn, MT_CQ_ERR_ACCESS);
}

/*
 * The receive CQE line at @p line, both of its entries written, leaves the
 * model's core for the shared last level cache (CLDEMOTE), where a PCI
 * device's DMA write leaves it (Intel DDIO writes into the LLC; no core
 * holds a copy). The model is a core: without this the driver's receive
 * burst, which reads each CQE line and writes its owner bytes back, took
 * every line from the model's core, a cross-core transfer no HCA costs it
 * (doc/guides/nics/mthca_hw.rst, "Data path"). Only the receive CQE
 * lines: demoting each WQE and payload line read or written cost the
 * model 10 to 20 % of its rate (bench_hca_ud), these nothing measurable.
 * CLDEMOTE (NP 0F 1C /0) is a hint: it raises no fault and executes as a
 * NOP on processors without it (Intel SDM); spelled as bytes for
 * assemblers that predate it.
 */
static inline void
dma_demote_line(const void *line)
{
#if defined(__x86_64__)
	__asm__ volatile(".byte 0x0f, 0x1c, 0x00" : : "a" (line) : "memory");
#else
	(void)line;
#endif
}

/*
 * Write @p cqe (32 bytes, owner byte ignored) to CQ @p cqn. @p solicited:
 * a received message with BTH.SE; @p err: an error CQE (both fire a
 * solicited-only arm, IBA 11.4.2.2); @p rx: a receive completion, whose
 * line is demoted once both its entries are written (dma_demote_line()).
 */
void
dp_cqe_post(struct mt25208 *dev, uint32_t cqn, uint8_t *cqe, bool solicited, bool err, bool rx)
{
	struct mt25208_dp *dp = dp_of(dev);
	struct dp_cq *c = &dp->cqs[cqn & (DP_MAX_CQS - 1)];
	void *cqc = mt25208_cq_get(dev, cqn);
	uint32_t nent, prod, cons = 0;
	const void *ci = NULL;
	uint8_t *dst;
	uint64_t va;
	uint8_t state;

	if (cqc == NULL || mt_cqc_status(cqc) != MT_EQ_STATUS_OK)
		return;
	uar_add(dp, mt_cqc_uar(cqc));	/* its arm doorbells matter from now on */
	nent = 1u << mt_cqc_log_size(cqc);
	prod = mt_cqc_prod(cqc);
	/* cheap first (the last set_ci seen), exact second (the record) */
	if (c->ci_cqn != cqn || prod - c->ci_seen >= nent - 1) {
		ci = mt25208_db_rec(dev, mt_cqc_uar(cqc), mt_cqc_ci_db(cqc));
		if (ci != NULL) {
			cons = mt_dbr_counter(ci);
			c->ci_seen = cons;
			c->ci_cqn = cqn;
		}
	}
	/*
	 * A CQ of 2^n entries holds 2^n - 1 CQEs: the CQE that would make
	 * producer + 1 equal the consumer counter modulo the size is an
	 * overrun (PRM completion_queue_context.producer_counter; Linux
	 * mthca_create_cq() sizes nent above the count asked for). The
	 * consumer counter is the set_ci record (Linux update_cons_index()).
	 */
	if (ci != NULL && prod - cons >= nent - 1) {
		dp->st.cq_overruns++;
		cqc_set_status(cqc, MT_EQ_STATUS_OVERFLOW);
		cq_error(dev, cqn, MT_CQ_ERR_OVERRUN);
		FAB_DBG("mt25208 %s: CQ 0x%x overrun (prod %u, set_ci %u)", dev->node->name,
			cqn, prod, cons);
		return;
	}
	va = mt_cqc_start(cqc) + (uint64_t)(prod & (nent - 1)) * MT_CQE_SIZE;
	/* a 32-byte entry never crosses an MTT page: one translation */
	dst = mt25208_mr_translate(dev, mt_cqc_lkey(cqc), mt_cqc_pd(cqc), va, MT_CQE_SIZE, true);
	if (dst == NULL) {
		cq_write_failed(dev, cqc, cqn, va);
		return;
	}
	memcpy(dst, cqe, MT_CQE_OWNER);
	/* the owner byte after the rest of the entry (Linux next_cqe_sw() tests it first) */
	__atomic_store_n(&dst[MT_CQE_OWNER], 0, __ATOMIC_RELEASE);
	/* the entry that ends its cache line: the whole line is written */
	if (rx && (((uintptr_t)dst + MT_CQE_SIZE) & 63) == 0)
		dma_demote_line(dst);
	mt_cqc_set_prod(cqc, prod + 1);
	dp->st.cqes++;
	if (err)
		dp->st.err_cqes++;
	state = mt_cqc_state(cqc);
	if (state == MT_CQ_STATE_ARMED || (state == MT_CQ_STATE_ARMED_SOL && (solicited || err)))
		cq_fire(dev, cqc, cqn);
}

void
dp_cq_arm(struct mt25208 *dev, uint32_t cqn, uint8_t cmd, uint8_t sn, uint32_t cons)
{
	struct mt25208_dp *dp = dp_of(dev);
	struct dp_cq *c = &dp->cqs[cqn & (DP_MAX_CQS - 1)];
	void *cqc = mt25208_cq_get(dev, cqn);

	if (cqc == NULL || (cmd != MT_CQ_DB_REQ_NOT && cmd != MT_CQ_DB_REQ_NOT_SOL))
		return;
	c->cqn = cqn;
	c->last_sn = sn;
	mt_cqc_set_state(cqc, cmd == MT_CQ_DB_REQ_NOT ? MT_CQ_STATE_ARMED : MT_CQ_STATE_ARMED_SOL);
	/* model's choice (mthca_hw.rst): entries beyond the consumer index given fire at once */
	if (mt_cqc_prod(cqc) != cons)
		cq_fire(dev, cqc, cqn);
}

/* ---- QP errors and flushes ---------------------------------------------- */

/* A check failed on QP @p qpn: counted per function, logged once per QP (EQPC). */
void
dp_qp_check_fail(struct mt25208 *dev, void *eqpc, uint32_t qpn, enum mt25208_check chk,
	      const char *detail)
{
	uint32_t logged = mt_get32(eqpc, MT_EQPC_LOGGED);

	mt25208_check_fail(dev, chk, qpn, &logged, detail);
	mt_put32(eqpc, MT_EQPC_LOGGED, logged);
}

void
dp_qp_to_error(struct mt25208 *dev, void *qpc, uint32_t qpn)
{
	mt_qpc_set_state(qpc, MT_QPS_ERR);
	FAB_DBG("mt25208 %s: QP 0x%x -> ERR", dev->node->name, qpn);
}

void
dp_err_cqe(struct mt25208 *dev, uint32_t qpn, uint32_t cqn, uint32_t wqe_off, bool is_send,
	uint8_t synd, uint8_t vendor)
{
	uint8_t cqe[MT_CQE_SIZE];

	memset(cqe, 0, sizeof(cqe));
	mt_cqe_set_qpn(cqe, qpn);
	mt_cqe_set_wqe(cqe, wqe_off);
	mt_cqe_set_error(cqe, synd, vendor, is_send);
	dp_cqe_post(dev, cqn, cqe, false, true, false);
}

uint8_t
dp_synd_of(int rc, uint8_t *vendor)
{
	*vendor = MT_VENDOR_ERR_NONE;
	if (rc == -EFAULT) {
		*vendor = MT_VENDOR_ERR_DMA_FAULT;
		return MT_SYND_LOCAL_ACCESS;
	}
	return MT_SYND_LOCAL_PROT;
}

/*
 * Every outstanding WQE completes with WR_FLUSH_ERR (IBA 10.3.1 Error
 * state): on the SQ, those the doorbells named; on the RQ, those its
 * record counts.
 */
void
dp_qp_flush(struct mt25208 *dev, void *qpc, void *eqpc, uint32_t qpn)
{
	uint32_t done, posted;
	const void *rec;

	done = mt_get32(eqpc, MT_EQPC_SQ_DONE) & 0xffff;
	posted = mt_get32(eqpc, MT_EQPC_SQ_TARGET) & 0xffff;
	while (done != posted) {
		dp_err_cqe(dev, qpn, mt_qpc_cqn_snd(qpc), sq_wqe_low(qpc, done), true,
			MT_SYND_WR_FLUSH, 0);
		done = (done + 1) & 0xffff;
	}
	mt_put32(eqpc, MT_EQPC_SQ_DONE, done);
	rec = mt25208_db_rec(dev, mt_qpc_usr_page(qpc), mt_qpc_rcv_db_index(qpc));
	if (rec != NULL && !(mt_qpc_srqn(qpc) & (1u << 24))) {
		done = mt_get32(eqpc, MT_EQPC_RQ_DONE) & 0xffff;
		posted = mt_dbr_counter(rec) & 0xffff;
		while (done != posted) {
			dp_err_cqe(dev, qpn, mt_qpc_cqn_rcv(qpc), rq_wqe_low(qpc, done), false,
				MT_SYND_WR_FLUSH, 0);
			done = (done + 1) & 0xffff;
		}
		mt_put32(eqpc, MT_EQPC_RQ_DONE, done);
	}
}
