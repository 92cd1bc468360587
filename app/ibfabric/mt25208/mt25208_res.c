/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * MT25208 model: what one function's driver holds in the HCA right now,
 * for the console's "hca <node> resources" and leak tests. Counted on
 * demand from the state the model keeps anyway (contexts in ICM, the CQ
 * ownership bitmap, the EQ mirrors, the ICM page table), so the commands
 * and the data path carry no bookkeeping of their own:
 *
 * - qps: QP contexts not in RESET whose local_qpn names them (RST2INIT
 *   takes a QP out of RESET, 2RST and ERR2RST put it back);
 * - cqs, eqs: CQs and EQs in hardware ownership (SW2HW_CQ/EQ done, not
 *   yet HW2SW);
 * - mpts: MPT entries in hardware ownership with a non-zero key (ICM
 *   comes zeroed, see mt25208_cmd_sw2hw_mpt()); mtt_entries: the MTT
 *   entries those regions translate through (the driver writes MTTs
 *   straight into ICM, so stale entries of freed regions do not count);
 * - icm_pages, uarc_pages, aux_pages, fa_pages: 4 KiB pages mapped with
 *   MAP_ICM (of which in the UAR context table, i.e. doorbell record
 *   pages), MAP_ICM_AUX and MAP_FA;
 * - mcgs, mcg_qps: MGM entries with at least one valid QP, and the QPs
 *   attached over all of them;
 * - close_hca_*: the QPs, CQs, EQs, MPTs and groups still held when the
 *   last CLOSE_HCA ran. CLOSE_HCA drops every context, so a driver that
 *   skipped a HW2SW or 2RST command before it shows here and nowhere else
 *   (Linux __mthca_remove_one() tears every object down first).
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fab_node.h"
#include "mt25208.h"

static void
count_qps(struct mt25208 *dev, struct mt25208_resources *r)
{
	uint32_t qpn, n = 1u << dev->cfg.log_qp;

	for (qpn = 0; qpn < n; qpn++) {
		const void *qpc = mt25208_qpc(dev, qpn);

		if (qpc != NULL && mt_qpc_state(qpc) != MT_QPS_RESET &&
		    (mt_qpc_local_qpn(qpc) & (n - 1)) == qpn)
			r->qps++;
	}
}

static void
count_mpts(struct mt25208 *dev, struct mt25208_resources *r)
{
	uint32_t ix, n = 1u << dev->cfg.log_mpt;

	for (ix = 1u << MT25208_LOG_RSVD_MPT; ix < n; ix++) {
		const void *m = mt25208_mpt(dev, ix);
		uint64_t pg, first;

		if (m == NULL || mt_mpt_status(m) != MT_MPT_STATUS_HW || mt_mpt_key(m) == 0)
			continue;
		r->mpts++;
		if (mt_mpt_flags(m) & MT_MPT_FLAG_PHYSICAL)
			continue;
		pg = 1ull << mt_mpt_log_page(m);
		first = mt_mpt_start(m) & ~(pg - 1);
		r->mtt_entries += (mt_mpt_start(m) + mt_mpt_length(m) - first + pg - 1) /
				  pg;
	}
}

static void
count_mcgs(struct mt25208 *dev, struct mt25208_resources *r)
{
	uint32_t ix, n = 1u << dev->cfg.log_mc;
	unsigned int i, members;

	for (ix = 0; ix < n; ix++) {
		const void *m = mt25208_icm_ptr(dev, dev->cfg.mc_base + (uint64_t)ix * MT_MGM_SIZE,
						MT_MGM_SIZE);

		if (m == NULL)
			continue;
		for (i = 0, members = 0; i < MT_MGM_QP_PER_MGM; i++)
			members += (mt_mgm_qp(m, i) & MT_MGM_QP_VALID) != 0;
		r->mcgs += members > 0;
		r->mcg_qps += members;
	}
}

void
mt25208_resources(struct mt25208 *dev, struct mt25208_resources *r)
{
	uint64_t uarc_lo, uarc_hi;
	size_t i;

	memset(r, 0, sizeof(*r));
	r->fa_pages = dev->fa_pages;
	r->aux_pages = dev->aux_pages;
	uarc_lo = dev->cfg.uarc_base;
	uarc_hi = uarc_lo + ((uint64_t)MT_ICM_PAGE_SIZE << dev->cfg.log_uarc_pages <<
			     dev->cfg.log_uar);
	for (i = 0; i < dev->icm_npages; i++) {
		uint64_t va = (uint64_t)i << MT_ICM_PAGE_SHIFT;

		if (dev->icm[i].pa == 0)
			continue;
		r->icm_pages++;
		r->uarc_pages += va >= uarc_lo && va < uarc_hi;
	}
	for (i = 0; i < MT_NUM_EQ; i++)
		r->eqs += dev->eq[i].hw;
	/* the contexts exist from INIT_HCA to CLOSE_HCA only */
	if (dev->fw_state != MT25208_FW_HCA)
		return;
	if (dev->cq_hw != NULL)
		for (i = 0; i < (1u << dev->cfg.log_cq); i++)
			r->cqs += (dev->cq_hw[i / 8] >> (i % 8)) & 1;
	count_qps(dev, r);
	count_mpts(dev, r);
	count_mcgs(dev, r);
}

void
mt25208_resources_show(struct mt25208 *dev, FILE *out)
{
	struct mt25208_resources r;

	const struct mt25208_resources *c = &dev->at_close;

	mt25208_resources(dev, &r);
	fprintf(out, "hca_resources node=\"%s\" qps=%u cqs=%u eqs=%u mpts=%u mtt_entries=%" PRIu64
		" icm_pages=%u uarc_pages=%u aux_pages=%u fa_pages=%u mcgs=%u mcg_qps=%u"
		" close_hca_qps=%u close_hca_cqs=%u close_hca_eqs=%u close_hca_mpts=%u"
		" close_hca_mcgs=%u\n",
		dev->node->name, r.qps, r.cqs, r.eqs, r.mpts, r.mtt_entries, r.icm_pages,
		r.uarc_pages, r.aux_pages, r.fa_pages, r.mcgs, r.mcg_qps, c->qps, c->cqs, c->eqs,
		c->mpts, c->mcgs);
}
