/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * MT25208 model: the data path (doc/guides/nics/mthca_hw.rst, "Data path"
 * and "Doorbells").
 *
 * Send side. The UAR send doorbell is the trigger (PRM
 * arbelprm_send_doorbell_st): it names the QP, the count of WQEs posted
 * before it (wqe_counter), how many it adds (wqe_cnt, at least 1) and the
 * first one's opcode and size. The model checks each field against the QP
 * (the checks of mt25208_check.c), then executes up to wqe_counter +
 * wqe_cnt. BAR2 is shared memory, so two stores to one slot between two
 * polls leave only the second: a doorbell whose wqe_counter is ahead of
 * what earlier doorbells asked for is taken as covering the overwritten
 * ones when the SQ doorbell record confirms that many WQEs were posted,
 * so a correct driver (one doorbell slot per queue) never stalls. The
 * model clears the second word of a slot once it has acted on it: a slot
 * is pending when its second word is non-zero, so a doorbell written as
 * two 32-bit stores (iPXE arbel_ring_doorbell) is acted on when its
 * second word lands. WQE n's opcode and size come from the next segment
 * of WQE n - 1 (PRM arbelprm_wqe_segment_next_st), where both drivers
 * write them.
 *
 * Receive side. BTH DestQP selects the QP (0/1: the port's special QPs,
 * 0xffffff with a multicast DLID: every QP of the MGM entry); the model
 * checks state, port, P_Key (IBA 10.9.3; violations counted, trap 257)
 * and Q_Key (IBA 10.2.4), takes the next receive WQE up to the RQ
 * record's counter (the RQ has no doorbell on Arbel: Linux
 * mthca_arbel_post_receive writes only the record) and scatters the
 * 40-byte GRH area and the payload.
 *
 * WQE addresses: QPC wqe_base is bits 63:32 of every WQE address of both
 * queues; snd_wqe_base / rcv_wqe_base are the low 32 bits of each queue's
 * first WQE, so SQ and RQ may live in separate buffers (iPXE).
 *
 * Completions. CQEs are written with the owner byte last after an overrun
 * check against the set_ci record; an armed CQ fires one completion EQE
 * on its comp_eqn and disarms. The UAR CQ doorbell arms (PRM
 * arbelprm_cq_cmd_doorbell_st); the arm record is not read. RSC / SSC
 * (QPC params2 / params1): set, every WQE completes; clear, only those
 * with the C bit. Every error takes the QP to ERR, and from then on every
 * outstanding WQE of both queues completes with WR_FLUSH_ERR, in order.
 *
 * Faults. A data buffer the MPT/MTT check refuses is a local protection
 * error CQE; one whose translated address lies outside every IOMMU window
 * (a DMA fault, logged with the address by mt25208_dma_ptr) is a local
 * access error CQE with vendor_err MT_VENDOR_ERR_DMA_FAULT. A WQE or CQE
 * its MR refuses raises WQ_CATAS_ERROR / CQ_ERROR (access); a DMA fault on
 * those, the HCA's own structures, is a catastrophic error (uplink bus
 * error, the address in the buffer). Nothing here stops ibfabric.
 *
 * Polling cost. The UAR pages polled are those of QPs and CQs the
 * firmware was told about (QP transitions, SW2HW_CQ) and any page found
 * with a doorbell by a scan of BAR2 every DP_FULL_SCAN_NS.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fab_link.h"
#include "fab_log.h"
#include "fab_node.h"
#include "fab_pkt.h"
#include "fab_route.h"
#include "fabric.h"
#include "ib_proto.h"
#include "mad.h"
#include "mt25208.h"
#include "mt25208_dp.h"
#include "mt25208_guard.h"
#include "port_state.h"

#define DP_MAX_QPS		1024	/* QPs the data path tracks */
#define DP_MAX_CQS		1024	/* arm bookkeeping, indexed by CQN & mask */
#define DP_MAX_UARS		(MT_BAR2_SIZE / MT_UAR_PAGE_SIZE)
/*
 * BAR2 scan for UAR pages nobody told the firmware about: every 100 ms.
 * It touches 2,048 pages (a TLB miss each): every 10 ms it was 5 % of a
 * busy model's time. Only a doorbell naming no QP waits for it.
 */
#define DP_FULL_SCAN_NS		100000000ull
#define DP_SCAN_CLOCK		16	/* polls per look at the clock for that scan */
#define DP_QP_BITMAP		(1u << 18)
#define DP_SQ_BUDGET		64	/* WQEs of one QP per poll: fairness */
#define DP_GRH_LEN		40
#define DP_LRH_LEN		8
#define DP_BTH_LEN		12
#define DP_DETH_LEN		8
#define DP_ICRC_LEN		4
#define DP_VCRC_LEN		2
#define DP_QPN_MCAST		0xffffffu
#define DP_TRAP_BAD_PKEY	257	/* IBA 14.2.5.1 table 147 */
#define DP_PKEY_FULL		0x8000
#define DP_NO_SN		0xff

struct dp_uar {
	uint32_t index;
	uint64_t acted;		/* the last send doorbell acted on, 0: none */
	uint64_t suspect;	/* a doorbell whose check failed once (torn?) */
	uint64_t last_cq;
	uint32_t logged;	/* checks logged for doorbells naming no QP */
};

struct dp_cq {
	uint32_t cqn;
	uint8_t last_sn;	/* sn of the last arm accepted, DP_NO_SN: none */
	/*
	 * set_ci last read from the host's record (cqe_post). The host only
	 * moves it forward, so while prod - ci_seen < nent - 1 there is room
	 * and the record, a cache line the host keeps writing, is not
	 * read again. A new CQ on the same number restarts prod at 0, which
	 * wraps prod - ci_seen and forces a fresh read.
	 */
	uint32_t ci_seen;
	uint32_t ci_cqn;	/* the CQ ci_seen belongs to */
};

struct mt25208_dp {
	struct mt25208_dp_stats st;
	struct dp_uar uars[DP_MAX_UARS];
	unsigned int nuars;
	uint8_t uar_known[DP_MAX_UARS / 8];
	uint32_t qps[DP_MAX_QPS];
	unsigned int nqps;
	uint8_t qp_known[DP_QP_BITMAP / 8];	/* by QPN & (DP_QP_BITMAP - 1) */
	struct dp_cq cqs[DP_MAX_CQS];
	uint8_t port_state[MT25208_MAX_PORTS + 1];
	unsigned int polls;
	uint64_t passes;	/* poll passes since the function was created */
	uint64_t full_scan_at;	/* CLOCK_MONOTONIC ns of the last BAR2 scan */
	int chk;		/* enum mt25208_check the WQE executing broke, or -1 */
	/*
	 * The next segment of the WQE before the first one a doorbell named,
	 * as send_doorbell() fetched it to check nopcode/nds: exec_send()
	 * takes it from here instead of fetching it again (the HCA reads it
	 * once). Valid until the end of the poll pass.
	 */
	bool prev_valid;
	uint32_t prev_qpn, prev_n;
	uint8_t prev[MT_WQE_NEXT_SIZE];
	/* The packet a UD send is gathering into: a bus error must not leak it. */
	struct fab_pkt *tx_pkt;
	uint8_t buf[FAB_PKT_MAX];	/* gathered payload (UD) or packet bytes (MLX) */
	uint8_t wqe[MT_WQE_MAX_SIZE];
};

static inline struct mt25208_dp *
dp_of(const struct mt25208 *dev)
{
	return dev->dp;
}

/* ---- small helpers ---------------------------------------------------- */

static inline uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline uint64_t
load64(const uint8_t *p)
{
	return __atomic_load_n((const uint64_t *)p, __ATOMIC_ACQUIRE);
}

static bool
pkey_match(uint16_t a, uint16_t b)
{
	/* IBA 10.9.3: low 15 bits equal and not 0, at least one full member */
	if ((a & 0x7fff) == 0 || (a & 0x7fff) != (b & 0x7fff))
		return false;
	return ((a | b) & DP_PKEY_FULL) != 0;
}

static int
pkey_index_of(const struct fab_port *port, uint16_t pkey)
{
	unsigned int i;

	for (i = 0; i < FAB_PKEY_TABLE_SIZE; i++)
		if (pkey_match(port->pkeys[i], pkey))
			return (int)i;
	return -1;
}

static inline uint16_t
lmc_mask(const struct fab_port *port)
{
	return (uint16_t)((1u << (port->lmc & 7)) - 1);
}

static struct fab_port *
dev_port(struct mt25208 *dev, uint8_t num)
{
	if (num == 0 || num > dev->nports || num > dev->node->nports)
		return NULL;
	return &dev->node->ports[num];
}

/* PRM wqe_base_adr_h: bits 63:32 of every WQE address of the QP. */
static inline uint64_t
wqe_va(const void *qpc, uint32_t low32)
{
	return ((uint64_t)mt_qpc_wqe_base(qpc) << 32) | low32;
}

/* Low 32 bits of SQ WQE @p n: snd_wqe_base_adr_l + index * stride. */
static inline uint32_t
sq_wqe_low(const void *qpc, uint32_t n)
{
	uint32_t mask = (1u << mt_qpc_sq_log_size(qpc)) - 1;

	return (mt_qpc_snd_wqe_base(qpc) & ~0x3fu) + ((n & mask) << mt_qpc_sq_log_stride(qpc));
}

/* Low 32 bits of RQ WQE @p n: rcv_wqe_base_adr_l + index * stride. */
static inline uint32_t
rq_wqe_low(const void *qpc, uint32_t n)
{
	uint32_t mask = (1u << mt_qpc_rq_log_size(qpc)) - 1;

	return (mt_qpc_rcv_wqe_base(qpc) & ~0x3fu) + ((n & mask) << mt_qpc_rq_log_stride(qpc));
}

static void
uar_add(struct mt25208_dp *dp, uint32_t u)
{
	if (u >= DP_MAX_UARS || (dp->uar_known[u / 8] & (1u << (u % 8))) ||
	    dp->nuars >= DP_MAX_UARS)
		return;
	dp->uar_known[u / 8] |= (uint8_t)(1u << (u % 8));
	memset(&dp->uars[dp->nuars], 0, sizeof(dp->uars[0]));
	dp->uars[dp->nuars].index = u;
	dp->nuars++;
}

/* A QP the data path serves from now on; its UAR page is polled too. */
static void
track_qp(struct mt25208 *dev, uint32_t qpn, const void *qpc)
{
	struct mt25208_dp *dp = dp_of(dev);
	uint32_t bit = qpn & (DP_QP_BITMAP - 1);

	if (dp->qp_known[bit / 8] & (1u << (bit % 8)))
		return;
	if (dp->nqps >= DP_MAX_QPS)
		return;
	dp->qp_known[bit / 8] |= (uint8_t)(1u << (bit % 8));
	dp->qps[dp->nqps++] = qpn;
	if (qpc != NULL)
		uar_add(dp, mt_qpc_usr_page(qpc));
}

static void
untrack_qp(struct mt25208_dp *dp, unsigned int i)
{
	uint32_t bit = dp->qps[i] & (DP_QP_BITMAP - 1);

	dp->qp_known[bit / 8] &= (uint8_t)~(1u << (bit % 8));
	dp->qps[i] = dp->qps[--dp->nqps];
}

static void
cqc_set_status(void *cqc, uint8_t st)
{
	mt_put32(cqc, MT_CQC_FLAGS, (mt_get32(cqc, MT_CQC_FLAGS) & 0x0fffffffu) |
		 ((uint32_t)st << 28));
}

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
static void
cqe_post(struct mt25208 *dev, uint32_t cqn, uint8_t *cqe, bool solicited, bool err, bool rx)
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

static void
cq_arm(struct mt25208 *dev, uint32_t cqn, uint8_t cmd, uint8_t sn, uint32_t cons)
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
static void
qp_check_fail(struct mt25208 *dev, void *eqpc, uint32_t qpn, enum mt25208_check chk,
	      const char *detail)
{
	uint32_t logged = mt_get32(eqpc, MT_EQPC_LOGGED);

	mt25208_check_fail(dev, chk, qpn, &logged, detail);
	mt_put32(eqpc, MT_EQPC_LOGGED, logged);
}

static void
qp_to_error(struct mt25208 *dev, void *qpc, uint32_t qpn)
{
	mt_qpc_set_state(qpc, MT_QPS_ERR);
	FAB_DBG("mt25208 %s: QP 0x%x -> ERR", dev->node->name, qpn);
}

static void
err_cqe(struct mt25208 *dev, uint32_t qpn, uint32_t cqn, uint32_t wqe_off, bool is_send,
	uint8_t synd, uint8_t vendor)
{
	uint8_t cqe[MT_CQE_SIZE];

	memset(cqe, 0, sizeof(cqe));
	mt_cqe_set_qpn(cqe, qpn);
	mt_cqe_set_wqe(cqe, wqe_off);
	mt_cqe_set_error(cqe, synd, vendor, is_send);
	cqe_post(dev, cqn, cqe, false, true, false);
}

static uint8_t
synd_of(int rc, uint8_t *vendor)
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
static void
qp_flush(struct mt25208 *dev, void *qpc, void *eqpc, uint32_t qpn)
{
	uint32_t done, posted;
	const void *rec;

	done = mt_get32(eqpc, MT_EQPC_SQ_DONE) & 0xffff;
	posted = mt_get32(eqpc, MT_EQPC_SQ_TARGET) & 0xffff;
	while (done != posted) {
		err_cqe(dev, qpn, mt_qpc_cqn_snd(qpc), sq_wqe_low(qpc, done), true,
			MT_SYND_WR_FLUSH, 0);
		done = (done + 1) & 0xffff;
	}
	mt_put32(eqpc, MT_EQPC_SQ_DONE, done);
	rec = mt25208_db_rec(dev, mt_qpc_usr_page(qpc), mt_qpc_rcv_db_index(qpc));
	if (rec != NULL && !(mt_qpc_srqn(qpc) & (1u << 24))) {
		done = mt_get32(eqpc, MT_EQPC_RQ_DONE) & 0xffff;
		posted = mt_dbr_counter(rec) & 0xffff;
		while (done != posted) {
			err_cqe(dev, qpn, mt_qpc_cqn_rcv(qpc), rq_wqe_low(qpc, done), false,
				MT_SYND_WR_FLUSH, 0);
			done = (done + 1) & 0xffff;
		}
		mt_put32(eqpc, MT_EQPC_RQ_DONE, done);
	}
}

/* ---- send WQE execution (mthca_arbel_post_send(), IBA 9.2) ------------- */

/*
 * Gather the data segments of @p w from @p off to @p end into @p dst.
 * Returns the byte count, or a negative errno (-EMSGSIZE: more than
 * @p max bytes; -EACCES/-EFAULT from the MR check).
 */
static int
gather(struct mt25208 *dev, uint32_t pd, const uint8_t *w, uint32_t off, uint32_t end,
       uint32_t max, uint8_t *dst)
{
	uint32_t total = 0;
	int rc;

	while (off + MT_DSEG_SIZE <= end) {
		uint32_t cnt = mt_dseg_count(w + off);

		if (cnt & MT_DSEG_INLINE) {
			/* struct mthca_inline_seg: header word, then the bytes, 16-byte aligned */
			cnt &= 0x3ff;
			if (off + 4 + cnt > end || total + cnt > max)
				return -EMSGSIZE;
			memcpy(dst + total, w + off + 4, cnt);
			total += cnt;
			off += (4 + cnt + 15) & ~15u;
			continue;
		}
		if (total + cnt > max)
			return -EMSGSIZE;
		rc = mt25208_mr_access(dev, mt_dseg_lkey(w + off), pd, mt_dseg_addr(w + off),
				       dst + total, cnt, false);
		if (rc != 0)
			return rc;
		total += cnt;
		off += MT_DSEG_SIZE;
	}
	return (int)total;
}

static uint32_t
qpc_mtu_bytes(const void *qpc)
{
	uint8_t mtu = mt_qpc_mtu(qpc);

	return mtu >= 1 && mtu <= 5 ? 128u << mtu : 2048;
}

/* UD send: the HCA builds LRH/GRH/BTH/DETH (IBA 9.2). */
static int
exec_ud(struct mt25208 *dev, void *qpc, uint32_t qpn, const uint8_t *w, uint32_t size,
	uint8_t op)
{
	struct mt25208_dp *dp = dp_of(dev);
	struct fab_port *port = dev_port(dev, mt_qpc_port(qpc));
	const uint8_t *av = w + MT_WQE_NEXT_SIZE + MT_UD_AV;
	const uint8_t *ud = w + MT_WQE_NEXT_SIZE;
	struct fab_pkt_addr a;
	struct fab_pkt *p;
	uint8_t *payload;
	uint32_t qkey, psn;
	int len;

	uint32_t gix;

	if (op != MT_OP_SEND || size < MT_WQE_NEXT_SIZE + MT_UD_SEG_SIZE || port == NULL)
		return -EINVAL;
	/* PRM arbelprm_ud_address_vector_st, checked against the QP (Linux mthca_create_ah) */
	if (mt_av_pd(av) != mt_qpc_pd(qpc)) {
		dp->chk = MT25208_CHK_AV_PD;
		return -EINVAL;
	}
	if ((dev->cfg.flags2 & MT_IHCA_FLAGS2_UDP) && mt_av_port(av) != mt_qpc_port(qpc)) {
		dp->chk = MT25208_CHK_AV_PORT;
		return -EINVAL;
	}
	/* mgid_index = (port - 1) * 2^log_max_gid + gid_index: HCA-wide */
	gix = mt_av_mgid_index(av) - (uint32_t)(port->num - 1) * (1u << MT25208_LOG_GID);
	if (mt_av_grh(av) && gix >= (1u << MT25208_LOG_GID)) {
		dp->chk = MT25208_CHK_AV_GID_INDEX;
		return -EINVAL;
	}
	if (!mt_av_grh(av) && mt_av_rgid_low(av) != MT_AV_RGID_NO_GRH) {
		dp->chk = MT25208_CHK_AV_RGID;
		return -EINVAL;
	}
	memset(&a, 0, sizeof(a));
	a.sl = mt_av_sl(av);
	a.vl = port->sl2vl[a.sl] & 0xf;
	a.dlid = mt_av_dlid(av);
	a.slid = port->lid | (mt_av_path_bits(av) & lmc_mask(port));
	if (mt_av_grh(av)) {
		a.grh = true;
		a.tclass = mt_av_tclass(av);
		a.flow_label = mt_av_flow_label(av);
		a.hop_limit = mt_av_hop_limit(av);
		/* SGID = GID prefix : GUID at the AV's index, wire order (IBA 4.1.1) */
		mt_put64(a.sgid, 0, port->gid_prefix);
		mt_put64(a.sgid, 8, port->guids[gix % FAB_GUID_CAP]);
		memcpy(a.dgid, av + MT_AV_DGID, 16);
	}
	a.pkey = port->pkeys[mt_qpc_pkey_index(qpc) % FAB_PKEY_TABLE_SIZE];
	a.dest_qp = mt_ud_dqpn(ud);
	qkey = mt_ud_qkey(ud);
	a.qkey = (qkey & MT_QKEY_USE_QP) ? mt_qpc_qkey(qpc) : qkey;	/* IBA 10.2.4 */
	a.src_qp = qpn;
	a.solicited = (mt_wqe_flags(w) & MT_WQE_F_SOLICIT) != 0;

	/*
	 * Gather straight into the packet's payload (one copy, not two);
	 * with no packet to be had the wire dropped it, and the gather into
	 * dp->buf still checks the L_Keys as the HCA would.
	 */
	p = fab_pkt_alloc(dev->fab);
	payload = p != NULL ? p->data + pkt_ud_payload_offset(a.grh) : dp->buf;
	dp->tx_pkt = p;		/* host memory ahead: mt25208_dp_bus_error() frees it */
	len = gather(dev, mt_qpc_pd(qpc), w, MT_WQE_NEXT_SIZE + MT_UD_SEG_SIZE, size,
		     qpc_mtu_bytes(qpc), payload);
	if (len < 0) {
		dp->tx_pkt = NULL;
		if (p != NULL)
			fab_pkt_free(dev->fab, p);
		return len;
	}
	psn = mt_qpc_next_send_psn(qpc);
	a.psn = psn;
	mt_put32(qpc, MT_QPC_NEXT_SEND_PSN, (psn + 1) & 0xffffff);
	dp->tx_pkt = NULL;
	if (p == NULL)
		return 0;	/* the wire dropped it; the WQE still completes */
	/* CRCs only when someone looks at the wire bytes (fab_pkt.crc_pending) */
	if (pkt_build_ud_lazy(p, &a, payload, (uint32_t)len) != 0) {
		fab_pkt_free(dev->fab, p);
		return -EMSGSIZE;
	}
	fab_node_output(dev->fab, port, p);
	dp->st.sends++;
	return 0;
}

/*
 * MLX send (QP0/QP1): the driver built LRH..DETH and the ICRC dword; the
 * HCA checks rlid against the LRH DLID and fills in the CRCs the
 * segment's icrc/vcrc fields leave to it (PRM arbelprm_wqe_segment_ctrl_mlx_st).
 * A supplied ICRC or VCRC goes on the wire as given: the receiver checks it.
 */
static int
exec_mlx(struct mt25208 *dev, void *qpc, uint32_t qpn, const uint8_t *w, uint32_t size,
	 uint8_t op)
{
	struct mt25208_dp *dp = dp_of(dev);
	uint32_t flags = mt_wqe_flags(w);
	uint8_t icrc = mt_mlx_icrc(flags);
	uint16_t vcrc = mt_get16(w, MT_MLX_VCRC);
	struct fab_port *port;
	struct fab_pkt *p;
	uint8_t sport, kind;
	uint32_t last;
	int len;

	if (op != MT_OP_SEND && op != MT_OP_SEND_IMM)
		return -EINVAL;
	if (!mt25208_qp_special(dev, qpn, &sport, &kind))
		sport = mt_qpc_port(qpc);
	port = dev_port(dev, sport);
	if (port == NULL)
		return -EINVAL;
	len = gather(dev, mt_qpc_pd(qpc), w, MT_WQE_NEXT_SIZE, size,
		     FAB_PKT_MAX - DP_VCRC_LEN, dp->buf);
	if (len < 0)
		return len;
	if (len < DP_LRH_LEN + DP_BTH_LEN + DP_DETH_LEN + DP_ICRC_LEN)
		return -EMSGSIZE;
	if (mt_get16(w, MT_MLX_RLID) != mt_get16(dp->buf, 2)) {
		dp->chk = MT25208_CHK_MLX_RLID;
		return -EINVAL;
	}
	/* icrc 0: HCA computes, last dword 0; 3: as given, not 0; 1, 2 reserved */
	last = mt_get32(dp->buf, (uint32_t)len - DP_ICRC_LEN);
	if (icrc == 1 || icrc == 2 || (icrc == MT_MLX_ICRC_HCA && last != 0) ||
	    (icrc == MT_MLX_ICRC_SW && last == 0)) {
		dp->chk = MT25208_CHK_MLX_ICRC;
		return -EINVAL;
	}
	p = fab_pkt_alloc(dev->fab);
	if (p == NULL)
		return 0;
	memcpy(p->data, dp->buf, (size_t)len);
	p->len = (uint32_t)len + DP_VCRC_LEN;
	if (flags & MT_MLX_VL15)
		p->data[0] = (uint8_t)(0xf0 | (p->data[0] & 0x0f));
	/* slr clear: the HCA supplies the port's LID | the path bits given */
	if (!(flags & MT_MLX_SLR))
		mt_put16(p->data, 6, port->lid | (mt_get16(p->data, 6) & lmc_mask(port)));
	pkt_update_crcs(p);
	if (icrc == MT_MLX_ICRC_SW || vcrc != 0) {
		if (icrc == MT_MLX_ICRC_SW)
			mt_put32(p->data, (uint32_t)len - DP_ICRC_LEN, last);
		if (vcrc != 0)
			memcpy(p->data + len, w + MT_MLX_VCRC, DP_VCRC_LEN);
		p->crc_valid = false;	/* as given: every receiver checks it */
	}
	fab_node_output(dev->fab, port, p);
	dp->st.sends++;
	return 0;
}

/* Complete SQ WQE @p low with a local QP operation error: QP to ERR. */
static void
send_qp_op_error(struct mt25208 *dev, void *qpc, void *eqpc, uint32_t qpn, uint32_t low,
		 enum mt25208_check chk, const char *detail)
{
	qp_check_fail(dev, eqpc, qpn, chk, detail);
	err_cqe(dev, qpn, mt_qpc_cqn_snd(qpc), low, true, MT_SYND_LOCAL_QP_OP, 0);
	qp_to_error(dev, qpc, qpn);
}

/* Execute SQ WQE number @p n of QP @p qpn; false: the QP went to ERR. */
static bool
exec_send(struct mt25208 *dev, void *qpc, void *eqpc, uint32_t qpn, uint32_t n)
{
	struct mt25208_dp *dp = dp_of(dev);
	uint8_t stride = mt_qpc_sq_log_stride(qpc);
	uint32_t low = sq_wqe_low(qpc, n), prev_low = sq_wqe_low(qpc, n - 1);
	uint8_t prev[MT_WQE_NEXT_SIZE], cqe[MT_CQE_SIZE], vendor;
	uint32_t size, pd = mt_qpc_pd(qpc);
	uint8_t op, st = mt_qpc_st(qpc);
	int rc;

	/* opcode and size of WQE n are in the next segment of WQE n - 1 */
	if (dp->prev_valid && dp->prev_qpn == qpn && dp->prev_n == n) {
		memcpy(prev, dp->prev, sizeof(prev));
		rc = 0;
	} else {
		rc = mt25208_mr_access(dev, mt_qpc_wqe_lkey(qpc), pd, wqe_va(qpc, prev_low), prev,
				       sizeof(prev), false);
	}
	size = rc == 0 ? (uint32_t)mt_wqe_next_size(prev) * 16 : 0;
	op = rc == 0 ? mt_wqe_next_op(prev) : 0;
	if (rc == 0 && (size < MT_WQE_NEXT_SIZE || size > (1u << stride) ||
			mt_wqe_next_off(prev) != low)) {
		send_qp_op_error(dev, qpc, eqpc, qpn, low, MT25208_CHK_WQE_CHAIN, NULL);
		return false;
	}
	if (rc == 0 && !(mt_get32(prev, MT_WQE_EE_NDS) & MT_WQE_NDS_ALWAYS1)) {
		send_qp_op_error(dev, qpc, eqpc, qpn, low, MT25208_CHK_WQE_DBD, NULL);
		return false;
	}
	if (rc == 0)
		rc = mt25208_mr_access(dev, mt_qpc_wqe_lkey(qpc), pd, wqe_va(qpc, low), dp->wqe,
				       size, false);
	if (rc == -EFAULT) {
		/* a WQE fetch the IOMMU refuses: a bus error, fatal to the HCA */
		mt25208_catas(dev, MT_CATAS_UPLINK_BUS, "send WQE fetch: DMA fault",
			      wqe_va(qpc, low));
		return false;
	}
	if (rc != 0) {
		uint8_t data[MT_EQE_DATA_SIZE];

		memset(data, 0, sizeof(data));
		mt_put32(data, 0, qpn);
		/* the WQE refused by its MR: a work-queue catastrophic error */
		mt25208_event(dev, MT_EV_WQ_CATAS, 0, data);
		err_cqe(dev, qpn, mt_qpc_cqn_snd(qpc), low, true, synd_of(rc, &vendor), 0);
		qp_to_error(dev, qpc, qpn);
		return false;
	}
	if (st != MT_QP_ST_MLX && !(mt_wqe_flags(dp->wqe) & MT_WQE_F_ALWAYS1)) {
		send_qp_op_error(dev, qpc, eqpc, qpn, low, MT25208_CHK_CTRL_ALWAYS1, NULL);
		return false;
	}
	dp->chk = -1;
	if (st == MT_QP_ST_UD)
		rc = exec_ud(dev, qpc, qpn, dp->wqe, size, op);
	else if (st == MT_QP_ST_MLX)
		rc = exec_mlx(dev, qpc, qpn, dp->wqe, size, op);
	else
		rc = -EINVAL;	/* RC/UC transports are not modelled */
	if (rc != 0) {
		uint8_t synd = rc == -EINVAL ? MT_SYND_LOCAL_QP_OP :
			       rc == -EMSGSIZE ? MT_SYND_LOCAL_LENGTH : synd_of(rc, &vendor);

		if (rc == -EINVAL || rc == -EMSGSIZE)
			vendor = 0;
		if (dp->chk >= 0)
			qp_check_fail(dev, eqpc, qpn, (enum mt25208_check)dp->chk, NULL);
		err_cqe(dev, qpn, mt_qpc_cqn_snd(qpc), low, true, synd, vendor);
		qp_to_error(dev, qpc, qpn);
		return false;
	}
	/* SSC: every send completes; else only WQEs with the C bit */
	if ((mt_wqe_flags(dp->wqe) & MT_WQE_F_CQ_UPDATE) || mt_qpc_ssc(qpc)) {
		memset(cqe, 0, sizeof(cqe));
		mt_cqe_set_qpn(cqe, qpn);
		mt_cqe_set_wqe(cqe, low);
		mt_cqe_set_opcode(cqe, op, true);
		cqe_post(dev, mt_qpc_cqn_snd(qpc), cqe, false, false, false);
	}
	return true;
}

/*
 * Run or flush the work the doorbells gave one QP. Returns true if it did
 * anything; *gone when nothing is left to do (or the QP is in RESET or
 * its context unmapped): it is tracked again at its next doorbell.
 */
static bool
qp_service(struct mt25208 *dev, uint32_t qpn, bool *gone)
{
	void *qpc = mt25208_qpc(dev, qpn);
	void *eqpc = mt25208_eqpc(dev, qpn);
	uint32_t done, target, budget = DP_SQ_BUDGET;
	uint8_t state;
	bool busy = false;

	*gone = true;
	if (qpc == NULL || eqpc == NULL)
		return false;
	state = mt_qpc_state(qpc);
	if (state == MT_QPS_ERR) {
		qp_flush(dev, qpc, eqpc, qpn);
		return false;
	}
	if (state != MT_QPS_RTS)
		return false;	/* SQD, SQE: work waits for the next doorbell after RTS */
	target = mt_get32(eqpc, MT_EQPC_SQ_TARGET) & 0xffff;
	done = mt_get32(eqpc, MT_EQPC_SQ_DONE) & 0xffff;
	/* the doorbell came after the WQEs (the driver's barrier) */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	while (done != target && budget-- > 0) {
		bool ok = exec_send(dev, qpc, eqpc, qpn, done);

		done = (done + 1) & 0xffff;
		mt_put32(eqpc, MT_EQPC_SQ_DONE, done);
		busy = true;
		if (!ok) {
			if (mt_qpc_state(qpc) == MT_QPS_ERR)
				qp_flush(dev, qpc, eqpc, qpn);
			return true;
		}
	}
	*gone = done == target;
	return busy;
}

/* ---- doorbells -------------------------------------------------------------- */

/* The doorbell raised a WQ catastrophic error on QP @p qpn (IBA 11.6.3.1). */
static void
qp_wq_catas(struct mt25208 *dev, void *qpc, uint32_t qpn)
{
	uint8_t data[MT_EQE_DATA_SIZE];

	memset(data, 0, sizeof(data));
	mt_put32(data, 0, qpn);
	mt25208_event(dev, MT_EV_WQ_CATAS, 0, data);
	qp_to_error(dev, qpc, qpn);
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
		qp_check_fail(dev, eqpc, qpn, MT25208_CHK_DB_UAR, why);
		return true;
	}
	if (cnt == 0) {
		qp_check_fail(dev, eqpc, qpn, MT25208_CHK_DB_WQE_CNT, NULL);
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
		qp_check_fail(dev, eqpc, qpn, MT25208_CHK_DB_WQE_COUNTER, why);
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
			exec_send(dev, qpc, eqpc, qpn, done);
			done = (done + 1) & 0xffff;
			mt_put32(eqpc, MT_EQPC_SQ_DONE, done);
		}
		if (mt_qpc_state(qpc) == MT_QPS_RTS) {
			send_qp_op_error(dev, qpc, eqpc, qpn, sq_wqe_low(qpc, counter),
					 MT25208_CHK_DB_NDS_OP, why);
			mt_put32(eqpc, MT_EQPC_SQ_DONE, (counter + 1) & 0xffff);
		}
		track_qp(dev, qpn, qpc);
		return true;
	}
	/* fetched and consistent: exec_send() of WQE counter reuses it */
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
static bool
poll_cq_db(struct mt25208 *dev, struct dp_uar *u, const uint8_t *slot)
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
	cq_arm(dev, cqn, mt_cq_db_cmd(hi), mt_cq_db_sn(hi), mt_db_lo(v));
	return true;
}

static void
full_scan(struct mt25208 *dev)
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

static bool
poll_uars(struct mt25208 *dev)
{
	struct mt25208_dp *dp = dp_of(dev);
	bool busy = false;
	unsigned int i;

	for (i = 0; i < dp->nuars; i++) {
		struct dp_uar *u = &dp->uars[i];
		uint8_t *pg = dev->bar2 + (size_t)u->index * MT_UAR_PAGE_SIZE;

		busy |= poll_send_db(dev, u, pg + MT_UAR_SEND_DB);
		busy |= poll_cq_db(dev, u, pg + MT_UAR_CQ_DB);
	}
	return busy;
}

void
mt25208_dp_watch(struct mt25208 *dev, uint32_t uar, uint32_t qpn)
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

/* MTHCA_EVENT_TYPE_*, mthca_eq_int(): PORT_CHANGE on entering and on leaving Active. */
static void
poll_ports(struct mt25208 *dev)
{
	struct mt25208_dp *dp = dp_of(dev);
	uint8_t i, data[MT_EQE_DATA_SIZE];

	for (i = 1; i <= dev->nports && i <= dev->node->nports; i++) {
		uint8_t s = dev->node->ports[i].state, old = dp->port_state[i];
		uint8_t sub;

		if (s == old)
			continue;
		dp->port_state[i] = s;
		if (s == FAB_PORT_ACTIVE)
			sub = MT_EV_PORT_ACTIVE_SUBTYPE;
		else if (old == FAB_PORT_ACTIVE)
			sub = MT_EV_PORT_DOWN_SUBTYPE;
		else
			continue;
		memset(data, 0, sizeof(data));
		mt_put32(data, MT_EQE_PORT - MT_EQE_DATA, (uint32_t)i << 28);
		if (mt25208_event(dev, MT_EV_PORT_CHANGE, sub, data) == 0)
			dp->st.port_events++;
	}
}

bool
mt25208_dp_poll(struct mt25208 *dev)
{
	struct mt25208_dp *dp = dp_of(dev);
	uint64_t now;
	bool busy;
	unsigned int i;

	/* after a catastrophic error the HCA does nothing until reset (poll_catas()) */
	if (dp == NULL || dev->fw_state != MT25208_FW_HCA || dev->catas)
		return false;
	/* the clock every DP_SCAN_CLOCK polls: a read per poll was a tenth of a busy one */
	dp->passes++;
	if (dp->polls++ % DP_SCAN_CLOCK == 0) {
		now = now_ns();
		if (now - dp->full_scan_at >= DP_FULL_SCAN_NS) {
			dp->full_scan_at = now;
			full_scan(dev);
		}
	}
	busy = poll_uars(dev);
	for (i = 0; i < dp->nqps; ) {
		bool gone;

		busy |= qp_service(dev, dp->qps[i], &gone);
		if (gone)
			untrack_qp(dp, i);	/* the last one moves to i */
		else
			i++;
	}
	dp->prev_valid = false;
	poll_ports(dev);
	return busy;
}

/* ---- receive (mthca_arbel_post_receive(), IBA 10.2.4) ------------------- */

/* Scatter the GRH area and payload of @p p into receive WQE @p w (MTHCA_INVAL_LKEY). */
static int
scatter(struct mt25208 *dev, uint32_t pd, const uint8_t *w, uint32_t stride,
	const struct fab_pkt *p, const struct fab_hdrs *h)
{
	const uint8_t *src[2] = { p->data + DP_LRH_LEN, p->data + h->payload_off };
	uint32_t left[2] = { DP_GRH_LEN, h->payload_len };
	uint32_t off, cap = 0, part = 0;
	int rc;

	for (off = MT_WQE_NEXT_SIZE; off + MT_DSEG_SIZE <= stride; off += MT_DSEG_SIZE) {
		if (mt_dseg_lkey(w + off) == MT_INVAL_LKEY)
			break;
		cap += mt_dseg_count(w + off);
	}
	if (cap < DP_GRH_LEN + h->payload_len)
		return -EMSGSIZE;
	for (off = MT_WQE_NEXT_SIZE; off + MT_DSEG_SIZE <= stride && part < 2;
	     off += MT_DSEG_SIZE) {
		uint32_t room = mt_dseg_count(w + off), lkey = mt_dseg_lkey(w + off);
		uint64_t va = mt_dseg_addr(w + off);

		if (lkey == MT_INVAL_LKEY)
			break;
		while (room > 0 && part < 2) {
			uint32_t n = left[part] < room ? left[part] : room;

			/* no GRH: the 40-byte area is reserved, left unwritten */
			if (n > 0 && (part == 1 || h->has_grh)) {
				rc = mt25208_mr_access(dev, lkey, pd, va, (void *)(uintptr_t)src[part],
						       n, true);
				if (rc != 0)
					return rc;
			}
			src[part] += n;
			left[part] -= n;
			va += n;
			room -= n;
			if (left[part] == 0)
				part++;
		}
	}
	return 0;
}

static void
trap_bad_pkey(struct mt25208 *dev, struct fab_port *in, const struct fab_hdrs *h)
{
	uint8_t d[NTC_DETAILS_SIZE];

	/*
	 * Notice 257 DataDetails (IBA 14.2.5.1 table 147, as qib/hfi1 lay
	 * them out): reserved16, LID1 = SLID, LID2 = DLID, Key = the P_Key,
	 * SL [31:28] | QP1 [23:0] = source QP, QP2 = destination QP, GID1,
	 * GID2.
	 */
	memset(d, 0, sizeof(d));
	mt_put16(d, 2, h->slid);
	mt_put16(d, 4, h->dlid);
	mt_put32(d, 6, h->pkey);
	mt_put32(d, 10, ((uint32_t)h->sl << 28) | (h->src_qp & 0xffffff));
	mt_put32(d, 14, h->dest_qp & 0xffffff);
	if (h->has_grh) {
		memcpy(d + 18, h->sgid, 16);
		memcpy(d + 34, h->dgid, 16);
	}
	port_state_send_trap(dev->fab, in, DP_TRAP_BAD_PKEY, d, sizeof(d));
}

/*
 * Deliver @p p to QP @p qpn (the caller keeps @p p). Returns false when the
 * packet was dropped without reaching a receive WQE (no QP, a QP not yet
 * able to receive, a key violation, an empty receive queue): silicon says
 * nothing, and the sender learns it from its own time-out.
 */
static bool
deliver(struct mt25208 *dev, struct fab_port *in, const struct fab_pkt *p,
	const struct fab_hdrs *h, uint32_t qpn, bool qp0)
{
	struct mt25208_dp *dp = dp_of(dev);
	void *qpc = mt25208_qpc(dev, qpn);
	void *eqpc = mt25208_eqpc(dev, qpn);
	uint32_t done, posted, stride, off, pd;
	uint8_t cqe[MT_CQE_SIZE], vendor, state, st;
	const void *rec;
	int pkix, rc;

	if (qpc == NULL || eqpc == NULL) {
		dp->st.drop_no_qp++;
		return false;
	}
	state = mt_qpc_state(qpc);
	st = mt_qpc_st(qpc);
	/* IBA 10.3.1: RTR and later states receive; UD/MLX only here */
	if (state < MT_QPS_RTR || state > MT_QPS_SQD || (st != MT_QP_ST_UD && st != MT_QP_ST_MLX) ||
	    (st == MT_QP_ST_UD && mt_qpc_port(qpc) != in->num)) {
		dp->st.drop_qp_state++;
		return false;
	}
	uar_add(dp, mt_qpc_usr_page(qpc));
	/* IBA 10.9.3: QP0 is exempt from the P_Key check; others need a match */
	pkix = pkey_index_of(in, h->pkey);
	if (!qp0 && (pkix < 0 || (st == MT_QP_ST_UD &&
				  !pkey_match(in->pkeys[mt_qpc_pkey_index(qpc) % FAB_PKEY_TABLE_SIZE],
					      h->pkey)))) {
		dp->st.drop_pkey++;
		in->pkey_violations++;
		in->cnt.rcv_constraint_errors++;
		trap_bad_pkey(dev, in, h);
		return false;
	}
	if (st == MT_QP_ST_UD && pkix != mt_qpc_pkey_index(qpc) &&
	    pkey_match(in->pkeys[mt_qpc_pkey_index(qpc) % FAB_PKEY_TABLE_SIZE], h->pkey))
		pkix = mt_qpc_pkey_index(qpc);
	/* IBA 10.2.4: Q_Key must equal the QP's (not on QP0) */
	if (!qp0 && h->qkey != mt_qpc_qkey(qpc)) {
		dp->st.drop_qkey++;
		in->qkey_violations++;
		return false;
	}
	rec = mt25208_db_rec(dev, mt_qpc_usr_page(qpc), mt_qpc_rcv_db_index(qpc));
	if (rec == NULL) {
		dp->st.drop_no_wqe++;
		return false;
	}
	posted = mt_dbr_counter(rec) & 0xffff;
	done = mt_get32(eqpc, MT_EQPC_RQ_DONE) & 0xffff;
	if (done == posted || state == MT_QPS_ERR) {
		dp->st.drop_no_wqe++;	/* UD has no RNR: silently dropped */
		return false;
	}
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	stride = 1u << mt_qpc_rq_log_stride(qpc);
	if (stride > MT_WQE_MAX_SIZE)
		stride = MT_WQE_MAX_SIZE;
	off = rq_wqe_low(qpc, done);
	pd = mt_qpc_pd(qpc);
	mt_put32(eqpc, MT_EQPC_RQ_DONE, (done + 1) & 0xffff);
	rc = mt25208_mr_access(dev, mt_qpc_wqe_lkey(qpc), pd, wqe_va(qpc, off), dp->wqe,
			       stride, false);
	if (rc == 0)
		rc = scatter(dev, pd, dp->wqe, stride, p, h);
	if (rc != 0) {
		uint8_t synd = rc == -EMSGSIZE ? MT_SYND_LOCAL_LENGTH : synd_of(rc, &vendor);

		if (rc == -EMSGSIZE)
			vendor = 0;
		err_cqe(dev, qpn, mt_qpc_cqn_rcv(qpc), off, false, synd, vendor);
		qp_to_error(dev, qpc, qpn);
		qp_flush(dev, qpc, eqpc, qpn);
		return true;
	}
	memset(cqe, 0, sizeof(cqe));
	mt_cqe_set_qpn(cqe, qpn);
	mt_cqe_set_rqpn(cqe, h->src_qp);
	mt_cqe_set_sl(cqe, h->sl);
	mt_cqe_set_g_path(cqe, h->has_grh, (uint8_t)(h->dlid & lmc_mask(in)));
	mt_cqe_set_rlid(cqe, h->slid);
	if (h->opcode == FAB_BTH_OP_UD_SEND_ONLY_IMM)
		mt_cqe_set_imm(cqe, mt_get32(p->data, h->payload_off - 4));
	else
		mt_cqe_set_pkey_index(cqe, pkix < 0 ? 0 : (uint16_t)pkix);
	mt_cqe_set_byte_cnt(cqe, DP_GRH_LEN + h->payload_len);
	mt_cqe_set_wqe(cqe, off);
	mt_cqe_set_opcode(cqe, h->opcode, false);
	dp->st.recvs++;
	/* RSC: every receive completes; else only WQEs with the C bit (PRM rsc) */
	if (mt_qpc_rsc(qpc) || (mt_wqe_flags(dp->wqe) & MT_WQE_F_CQ_UPDATE))
		cqe_post(dev, mt_qpc_cqn_rcv(qpc), cqe, h->solicited != 0, false, true);
	return true;
}

/*
 * The CQ doorbells of every polled UAR page. MMIO reaches silicon in
 * order, so an arm the host wrote before a packet arrives is in effect
 * when that packet completes; the model, which polls, looks at the arms
 * before it delivers.
 */
static void
poll_cq_dbs(struct mt25208 *dev)
{
	struct mt25208_dp *dp = dp_of(dev);
	unsigned int i;

	for (i = 0; i < dp->nuars; i++)
		poll_cq_db(dev, &dp->uars[i],
			   dev->bar2 + (size_t)dp->uars[i].index * MT_UAR_PAGE_SIZE + MT_UAR_CQ_DB);
}

void
mt25208_port_recv(struct mt25208 *dev, struct fab_port *in, struct fab_pkt *p,
		  const struct fab_hdrs *h)
{
	struct mt25208_dp *dp = dp_of(dev);
	uint16_t mask = (uint16_t)~lmc_mask(in);
	uint8_t kind = h->dest_qp == 0 ? MT_SQP_SMI : MT_SQP_GSI;
	uint8_t sport, skind;
	uint32_t qpn;

	if (dp == NULL || dev->fw_state != MT25208_FW_HCA || dev->catas) {
		fab_pkt_drop(dev->fab, p, "HCA not initialised, or in catastrophic error");
		return;
	}
	poll_cq_dbs(dev);
	if (h->opcode != FAB_BTH_OP_UD_SEND_ONLY && h->opcode != FAB_BTH_OP_UD_SEND_ONLY_IMM) {
		dp->st.drop_malformed++;
		fab_pkt_drop(dev->fab, p, "not a UD SEND");
		return;
	}
	if (ib_lid_is_multicast(h->dlid)) {
		const uint8_t *mgm;
		unsigned int i;

		/* IBA 10.5.2.1: multicast UD carries a GRH and QPN 0xffffff */
		mgm = h->has_grh && h->dest_qp == DP_QPN_MCAST ?
		      mt25208_mgm_find(dev, h->dgid) : NULL;
		for (i = 0; mgm != NULL && i < MT_MGM_QP_PER_MGM; i++) {
			uint32_t slot = mt_mgm_qp(mgm, i);

			if (!(slot & MT_MGM_QP_VALID))
				break;
			dp->st.mcast_copies++;
			(void)deliver(dev, in, p, h, slot & 0xffffff, false);
		}
		if (mgm == NULL)
			dp->st.drop_no_qp++;
		fab_pkt_free(dev->fab, p);
		return;
	}
	if (h->dlid == IB_LID_PERMISSIVE ? h->dest_qp != 0 :
	    (in->lid == 0 || (h->dlid & mask) != (in->lid & mask))) {
		dp->st.drop_no_qp++;
		fab_pkt_drop(dev->fab, p, "DLID is not this port's");
		return;
	}
	if (h->dest_qp <= 1) {
		/* mthca_CONF_SPECIAL_QP(): DestQP 0/1 on port p is the port's hardware QP0/QP1;
		 * none configured = the port does not answer (as a host without a driver) */
		qpn = mt25208_sqp_qpn(dev, kind, in->num);
		if (qpn == 0) {
			dp->st.drop_no_qp++;
			fab_pkt_drop(dev->fab, p, "special QP not configured");
			return;
		}
		if (kind == MT_SQP_SMI && h->vl != 15) {
			dp->st.drop_malformed++;
			fab_pkt_drop(dev->fab, p, "QP0 packet not on VL15");
			return;
		}
	} else {
		qpn = h->dest_qp;
		if (mt25208_qp_special(dev, qpn, &sport, &skind)) {
			dp->st.drop_no_qp++;	/* hardware QPNs of QP0/QP1 are not wire QPNs */
			fab_pkt_drop(dev->fab, p, "DestQP is a special QP's hardware number");
			return;
		}
	}
	/*
	 * A MAD from an ibsim-protocol client that no receive WQE took is a
	 * drop like the ones above: reported, so that the client (OpenSM on
	 * libumad2sim has no kernel to time its sends out) sees the time-out
	 * at once, as ibsim reports every drop, instead of waiting forever for
	 * a host whose QP0 is not receiving yet.
	 */
	if (deliver(dev, in, p, h, qpn, h->dest_qp == 0))
		fab_pkt_free(dev->fab, p);
	else
		fab_pkt_drop(dev->fab, p, "no receive WQE took it (QP state, keys, empty RQ)");
}

struct dp_recv_arg {
	struct fab_port *in;
	struct fab_pkt *p;
	const struct fab_hdrs *h;
};

static void
dp_recv_guarded(struct mt25208 *dev, void *arg)
{
	struct dp_recv_arg *a = arg;

	mt25208_port_recv(dev, a->in, a->p, a->h);
}

/*
 * fabric.hca_recv: node_io.c's hook for every packet reaching an active
 * HCA. A bus error on host memory (mt25208_guard.h) is an uplink bus
 * error; the packet it interrupted is lost.
 */
static void
dp_fab_recv(struct fabric *f, struct fab_port *in, struct fab_pkt *p, const struct fab_hdrs *h)
{
	struct mt25208 *dev = in->node->hca;
	struct dp_recv_arg a = { .in = in, .p = p, .h = h };

	if (dev == NULL) {
		fab_pkt_drop(f, p, "active HCA without a model");
		return;
	}
	if (mt25208_guard(dev, dp_recv_guarded, &a) != 0) {
		mt25208_catas(dev, MT_CATAS_UPLINK_BUS, "receive: bus error on host memory", 0);
		/*
		 * The fault came from host memory, which mt25208_port_recv()
		 * only touches before it frees or drops the packet: it is
		 * still ours, and lost.
		 */
		fab_pkt_drop(f, p, "bus error on host memory");
	}
}

void
mt25208_dp_bus_error(struct mt25208 *dev)
{
	struct mt25208_dp *dp = dp_of(dev);

	if (dp != NULL && dp->tx_pkt != NULL) {
		fab_pkt_free(dev->fab, dp->tx_pkt);
		dp->tx_pkt = NULL;
	}
}

/* fabric.hca_errors: the console's "hca <node> errors". */
static void
dp_fab_errors(struct fabric *f, struct fab_node *n, FILE *out)
{
	(void)f;
	mt25208_checks_show(n->hca, out);
}

/*
 * fabric.hca_resources: the console's "hca <node> resources", then the
 * data path's counters since the function was created: doorbells acted
 * on (send and CQ), the send doorbells that covered overwritten ones,
 * poll passes, datagrams sent and received, CQEs, drops. Per datagram,
 * doorbells and passes show how the model and its host take turns
 * (bench_hca_ud prints them per burst).
 */
static void
dp_fab_resources(struct fabric *f, struct fab_node *n, FILE *out)
{
	const struct mt25208_dp *dp = dp_of(n->hca);
	const struct mt25208_dp_stats *st;

	(void)f;
	mt25208_resources_show(n->hca, out);
	if (dp == NULL)
		return;
	st = &dp->st;
	fprintf(out, "hca_dp node=\"%s\" doorbells=%" PRIu64 " db_coalesced=%" PRIu64
		" polls=%" PRIu64 " sends=%" PRIu64 " recvs=%" PRIu64 " cqes=%" PRIu64
		" err_cqes=%" PRIu64 " drops=%" PRIu64 "\n", n->name, st->doorbells,
		st->db_coalesced, dp->passes, st->sends, st->recvs, st->cqes, st->err_cqes,
		st->drop_no_qp + st->drop_qp_state + st->drop_pkey + st->drop_qkey +
		st->drop_no_wqe + st->drop_malformed);
}

/* ---- life cycle ---------------------------------------------------------------- */

static void
dp_reset(struct mt25208 *dev)
{
	struct mt25208_dp *dp = dp_of(dev);
	struct mt25208_dp_stats st;
	uint64_t passes;

	if (dp == NULL)
		return;
	st = dp->st;
	passes = dp->passes;
	memset(dp, 0, sizeof(*dp));
	dp->st = st;
	dp->passes = passes;
}

int
mt25208_dp_init(struct mt25208 *dev)
{
	struct mt25208_dp *dp = calloc(1, sizeof(*dp));

	if (dp == NULL)
		return -ENOMEM;
	dev->dp = dp;
	dev->dp_reset = dp_reset;
	dev->node->hca = dev;
	dev->fab->hca_recv = dp_fab_recv;
	dev->fab->hca_errors = dp_fab_errors;
	dev->fab->hca_resources = dp_fab_resources;
	return 0;
}

void
mt25208_dp_free(struct mt25208 *dev)
{
	if (dev == NULL)
		return;
	free(dev->dp);
	dev->dp = NULL;
	dev->dp_reset = NULL;
	if (dev->node != NULL && dev->node->hca == dev)
		dev->node->hca = NULL;
}

const struct mt25208_dp_stats *
mt25208_dp_stats(const struct mt25208 *dev)
{
	const struct mt25208_dp *dp = dp_of(dev);

	return dp != NULL ? &dp->st : NULL;
}
