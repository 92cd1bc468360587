/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Private to the MT25208 model's data path (mt25208_dp*.c): its state
 * (struct mt25208_dp, hung on dev->dp), its limits and the small helpers
 * every file of it uses. It calls nothing of those files: each of them
 * sits above it (mt25208_dp.c, the poll loop and life cycle, on top).
 */

#ifndef _IBFABRIC_MT25208_DP_STATE_H_
#define _IBFABRIC_MT25208_DP_STATE_H_

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "fab_node.h"
#include "fab_pkt.h"
#include "mt25208.h"
#include "mt25208_dp_stats.h"

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
	 * set_ci last read from the host's record (dp_cqe_post). The host only
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
	 * as send_doorbell() fetched it to check nopcode/nds: dp_exec_send()
	 * takes it from here instead of fetching it again (the HCA reads it
	 * once). Valid until the end of the poll pass.
	 */
	bool prev_valid;
	uint32_t prev_qpn, prev_n;
	uint8_t prev[MT_WQE_NEXT_SIZE];
	/*
	 * The console's fault (dp_fab_fail_send): the next send WQE of UD QP
	 * fail_send_qpn completes with a local protection error, as one whose
	 * gather entry its MR refused. Cleared when it fires and by a reset.
	 */
	bool fail_send;
	uint32_t fail_send_qpn;
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

static inline uint16_t
lmc_mask(const struct fab_port *port)
{
	return (uint16_t)((1u << (port->lmc & 7)) - 1);
}

static inline struct fab_port *
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

static inline void
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
static inline void
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

static inline void
untrack_qp(struct mt25208_dp *dp, unsigned int i)
{
	uint32_t bit = dp->qps[i] & (DP_QP_BITMAP - 1);

	dp->qp_known[bit / 8] &= (uint8_t)~(1u << (bit % 8));
	dp->qps[i] = dp->qps[--dp->nqps];
}

static inline void
cqc_set_status(void *cqc, uint8_t st)
{
	mt_put32(cqc, MT_CQC_FLAGS, (mt_get32(cqc, MT_CQC_FLAGS) & 0x0fffffffu) |
		 ((uint32_t)st << 28));
}

#endif /* _IBFABRIC_MT25208_DP_STATE_H_ */
