/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * MT25208 model: the firmware's identity and life-cycle commands:
 * QUERY_FW, RUN_FW, QUERY_DEV_LIM, QUERY_ADAPTER, INIT_HCA, CLOSE_HCA
 * (Linux mthca_QUERY_FW() .. mthca_INIT_HCA(); the firmware states of
 * mthca_hw.rst, in the order of mthca_init_arbel() and __mthca_remove_one()).
 *
 * The values reported are the model's choices where Linux's source does
 * not fix them; they are listed with their reasons in
 * doc/guides/nics/mthca_hw.rst.
 */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fab_log.h"
#include "fab_node.h"
#include "mt25208.h"
#include "mt25208_mbox.h"
#include "port_state.h"

uint8_t
mt25208_cmd_query_fw(struct mt25208 *dev, struct mt25208_cmd *c)
{
	uint8_t *mb;

	/* Works on the boot firmware too: it is the first command (mthca_hw.rst state table). */
	mb = mt25208_mbox_out(dev, c, MT_QFW_OUT_SIZE);
	if (mb == NULL)
		return MT_STAT_INTERNAL_ERR;
	memset(mb, 0, MT_QFW_OUT_SIZE);
	mt_put16(mb, MT_QFW_FW_PAGES, MT25208_FW_PAGES);
	mt_put16(mb, MT_QFW_VER_MAJOR, MT25208_FW_MAJOR);
	mt_put16(mb, MT_QFW_VER_SUBMINOR, MT25208_FW_SUBMINOR);
	mt_put16(mb, MT_QFW_VER_MINOR, MT25208_FW_MINOR);
	mt_put8(mb, MT_QFW_LOG_MAX_CMDS, MT25208_LOG_MAX_CMDS);
	/* bit 0 clear: no command posting through UAR doorbells (mthca_cmd_post_dbell()). */
	mt_put32(mb, MT_QFW_CMD_DBELL, 0);
	/*
	 * Addresses on the HCA's side of the bus: the register offset in
	 * the low 20 bits, high bits set. A driver masks them with BAR0
	 * length - 1 (Linux mthca_map_eq_regs: "we can't trust the values
	 * firmware gives us"); one that does not misses the registers.
	 */
	mt_put64(mb, MT_QFW_CLR_INT_BASE, MT_QFW_ADDR_HIGH | MT_BAR0_CLR_INT);
	mt_put64(mb, MT_QFW_CATAS_BASE, MT_QFW_ADDR_HIGH | MT_BAR0_CATAS);
	mt_put32(mb, MT_QFW_CATAS_SIZE, MT_CATAS_WORDS);
	mt_put64(mb, MT_QFW_EQ_ARM_BASE, MT_QFW_ADDR_HIGH | MT_BAR0_EQ_ARM);
	mt_put64(mb, MT_QFW_EQ_SET_CI_BASE, MT_QFW_ADDR_HIGH | MT_BAR0_EQ_SET_CI);
	return MT_STAT_OK;
}

uint8_t
mt25208_cmd_run_fw(struct mt25208 *dev, struct mt25208_cmd *c)
{
	(void)c;
	if (dev->fw_state != MT25208_FW_BOOT)
		return MT_STAT_BAD_SYS_STATE;
	if (dev->fa_pages < MT25208_FW_PAGES) {
		FAB_ERR("%s: RUN_FW: firmware area has %u pages, QUERY_FW asked for %u",
			dev->node->name, dev->fa_pages, MT25208_FW_PAGES);
		return MT_STAT_BAD_SYS_STATE;
	}
	dev->fw_state = MT25208_FW_RUN;
	return MT_STAT_OK;
}

uint8_t
mt25208_cmd_query_dev_lim(struct mt25208 *dev, struct mt25208_cmd *c)
{
	uint8_t *mb;

	if (dev->fw_state == MT25208_FW_BOOT)
		return MT_STAT_BAD_SYS_STATE;
	mb = mt25208_mbox_out(dev, c, MT_QDL_OUT_SIZE);
	if (mb == NULL)
		return MT_STAT_INTERNAL_ERR;
	memset(mb, 0, MT_QDL_OUT_SIZE);
	mt_put8(mb, MT_QDL_LOG_MAX_SRQ_SZ, MT25208_LOG_MAX_QP_SZ);
	mt_put8(mb, MT_QDL_LOG_MAX_QP_SZ, MT25208_LOG_MAX_QP_SZ);
	mt_put8(mb, MT_QDL_LOG_RSVD_QP, MT25208_LOG_RSVD_QP);
	mt_put8(mb, MT_QDL_LOG_MAX_QP, MT25208_LOG_MAX_QP);
	mt_put8(mb, MT_QDL_LOG_MAX_CQ_SZ, MT25208_LOG_MAX_CQ_SZ);
	mt_put8(mb, MT_QDL_LOG_RSVD_CQ, MT25208_LOG_RSVD_CQ);
	mt_put8(mb, MT_QDL_LOG_MAX_CQ, MT25208_LOG_MAX_CQ);
	mt_put8(mb, MT_QDL_LOG_MAX_MPT, MT25208_LOG_MAX_MPT);
	mt_put8(mb, MT_QDL_LOG_RSVD_EQ, MT25208_LOG_RSVD_EQ);
	mt_put8(mb, MT_QDL_LOG_MAX_EQ, MT25208_LOG_MAX_EQ);
	mt_put8(mb, MT_QDL_LOG_RSVD_MTT, MT25208_LOG_RSVD_MTT << 4);
	mt_put8(mb, MT_QDL_LOG_MAX_MRW_SZ, MT25208_LOG_MAX_MRW_SZ);
	mt_put8(mb, MT_QDL_LOG_RSVD_MRW, MT25208_LOG_RSVD_MPT);
	mt_put8(mb, MT_QDL_LOG_MAX_MTT_SEG, MT25208_LOG_MAX_MTT_SEG);
	mt_put8(mb, MT_QDL_ACK_DELAY, 15);
	mt_put8(mb, MT_QDL_MTU_WIDTH, MT25208_MTU_CAP << 4 | MT25208_WIDTH_CAP);
	mt_put8(mb, MT_QDL_VL_PORT, MT25208_VL_CAP << 4 | dev->nports);
	mt_put8(mb, MT_QDL_LOG_MAX_GID, MT25208_LOG_GID);
	/* Static rates: full, quarter, eighth, half (ib_rate_to_memfree()): bits 0..3. */
	mt_put16(mb, MT_QDL_RATE_SUPPORT, 0x000f);
	mt_put8(mb, MT_QDL_LOG_MAX_PKEY, MT25208_LOG_PKEY);
	mt_put32(mb, MT_QDL_FLAGS, MT25208_DEV_CAPS);
	mt_put8(mb, MT_QDL_UAR_SZ, MT25208_RSVD_UARS << 4);
	mt_put8(mb, MT_QDL_LOG_UAR_SZ, MT_BAR2_LOG_UAR_MB);
	mt_put8(mb, MT_QDL_LOG_MIN_PAGE, MT_ICM_PAGE_SHIFT);
	mt_put8(mb, MT_QDL_MAX_SG_SQ, MT25208_MAX_SG);
	mt_put16(mb, MT_QDL_MAX_DESC_SQ, MT25208_MAX_DESC);
	mt_put8(mb, MT_QDL_MAX_SG_RQ, MT25208_MAX_SG);
	mt_put16(mb, MT_QDL_MAX_DESC_RQ, MT25208_MAX_DESC);
	mt_put8(mb, MT_QDL_LOG_QP_PER_MCG, MT25208_LOG_QP_PER_MCG);
	mt_put8(mb, MT_QDL_LOG_MAX_MCG, MT25208_LOG_MAX_MCG);
	mt_put8(mb, MT_QDL_LOG_MAX_PD, MT25208_LOG_MAX_PD);
	mt_put16(mb, MT_QDL_EEC_ENTRY_SZ, MT25208_EEC_SZ);
	mt_put16(mb, MT_QDL_QPC_ENTRY_SZ, MT25208_QPC_SZ);
	mt_put16(mb, MT_QDL_EEEC_ENTRY_SZ, MT25208_EEEC_SZ);
	mt_put16(mb, MT_QDL_EQPC_ENTRY_SZ, MT25208_EQPC_SZ);
	mt_put16(mb, MT_QDL_EQC_ENTRY_SZ, MT25208_EQC_SZ);
	mt_put16(mb, MT_QDL_CQC_ENTRY_SZ, MT25208_CQC_SZ);
	mt_put16(mb, MT_QDL_SRQ_ENTRY_SZ, MT25208_SRQC_SZ);
	mt_put16(mb, MT_QDL_UAR_SCR_ENTRY_SZ, MT25208_UAR_SCR_SZ);
	mt_put16(mb, MT_QDL_MTT_ENTRY_SZ, MT_MTT_ENTRY_SIZE);
	mt_put16(mb, MT_QDL_MPT_ENTRY_SZ, MT25208_MPT_SZ);
	mt_put32(mb, MT_QDL_RSVD_LKEY, MT_INVAL_LKEY);
	mt_put64(mb, MT_QDL_MAX_ICM_SZ, MT25208_MAX_ICM);
	return MT_STAT_OK;
}

uint8_t
mt25208_cmd_query_adapter(struct mt25208 *dev, struct mt25208_cmd *c)
{
	/* "MT_0150000001", stored byte-reversed per 4 bytes (mthca_QUERY_ADAPTER()). */
	static const char board[] = "MT_0150000001\0\0";
	uint8_t *mb;
	unsigned int i;

	if (dev->fw_state == MT25208_FW_BOOT)
		return MT_STAT_BAD_SYS_STATE;
	mb = mt25208_mbox_out(dev, c, MT_QAD_OUT_SIZE);
	if (mb == NULL)
		return MT_STAT_INTERNAL_ERR;
	memset(mb, 0, MT_QAD_OUT_SIZE);
	mt_put32(mb, MT_QAD_VENDOR_ID, MT_PCI_VENDOR_MELLANOX);
	mt_put32(mb, MT_QAD_DEVICE_ID, MT_PCI_DEVICE_ARBEL);
	mt_put32(mb, MT_QAD_REVISION_ID, MT_PCI_REVISION);
	mt_put8(mb, MT_QAD_INTA_PIN, MT25208_INTA_PIN);
	for (i = 0; i < 16; i++)
		mb[MT_QAD_BOARD_ID + i] = (uint8_t)board[(i & ~3u) + 3 - (i & 3)];
	return MT_STAT_OK;
}

/* One INIT_HCA table: base, log2(count) and entry size, checked against ICM. */
static int
ihca_table_ok(const struct mt25208 *dev, const char *what, uint64_t base,
	      unsigned int log_n, uint32_t entry_sz)
{
	uint64_t sz = ((uint64_t)entry_sz << log_n);

	if (sz < MT_ICM_PAGE_SIZE)
		sz = MT_ICM_PAGE_SIZE;
	if ((base & (MT_ICM_PAGE_SIZE - 1)) || base + sz > dev->icm_size) {
		FAB_ERR("%s: INIT_HCA: %s table at 0x%" PRIx64 " size 0x%" PRIx64
			" outside the ICM size 0x%" PRIx64 " or unaligned",
			dev->node->name, what, base, sz, dev->icm_size);
		return 0;
	}
	return 1;
}

static int
ihca_log_ok(const struct mt25208 *dev, const char *what, unsigned int v, unsigned int max)
{
	if (v <= max)
		return 1;
	FAB_ERR("%s: INIT_HCA: log number of %s %u exceeds the device limit %u",
		dev->node->name, what, v, max);
	return 0;
}

uint8_t
mt25208_cmd_init_hca(struct mt25208 *dev, struct mt25208_cmd *c)
{
	struct mt25208_hca_cfg g;
	const uint8_t *mb;

	if (dev->fw_state != MT25208_FW_RUN || dev->icm_size == 0)
		return MT_STAT_BAD_SYS_STATE;
	if (dev->aux_pages < dev->aux_needed) {
		FAB_ERR("%s: INIT_HCA: aux area has %u pages, SET_ICM_SIZE asked for %u",
			dev->node->name, dev->aux_pages, dev->aux_needed);
		return MT_STAT_BAD_SYS_STATE;
	}
	mb = mt25208_mbox_in(dev, c, MT_IHCA_IN_SIZE);
	if (mb == NULL)
		return MT_STAT_INTERNAL_ERR;
	memset(&g, 0, sizeof(g));
	g.flags2 = mt_get32(mb, MT_IHCA_FLAGS2);
	g.qpc_base = mt_ihca_base(mb, MT_IHCA_QPC_BASE);
	g.log_qp = mt_get8(mb, MT_IHCA_LOG_QP) & 0x1f;
	g.eec_base = mt_ihca_base(mb, MT_IHCA_EEC_BASE);
	g.srqc_base = mt_ihca_base(mb, MT_IHCA_SRQC_BASE);
	g.log_srq = mt_get8(mb, MT_IHCA_LOG_SRQ) & 0x1f;
	g.cqc_base = mt_ihca_base(mb, MT_IHCA_CQC_BASE);
	g.log_cq = mt_get8(mb, MT_IHCA_LOG_CQ) & 0x1f;
	g.eqpc_base = mt_ihca_base(mb, MT_IHCA_EQPC_BASE);
	g.eeec_base = mt_ihca_base(mb, MT_IHCA_EEEC_BASE);
	g.eqc_base = mt_ihca_base(mb, MT_IHCA_EQC_BASE);
	g.log_eq = mt_get8(mb, MT_IHCA_LOG_EQ) & 0x1f;
	g.rdb_base = mt_ihca_base(mb, MT_IHCA_RDB_BASE);
	g.mc_base = mt_ihca_base(mb, MT_IHCA_MC_BASE);
	g.mc_hash_sz = mt_get16(mb, MT_IHCA_MC_HASH_SZ);
	g.log_mc = mt_get8(mb, MT_IHCA_LOG_MC_TABLE_SZ) & 0x1f;
	g.mpt_base = mt_ihca_base(mb, MT_IHCA_MPT_BASE);
	g.log_mpt = mt_get8(mb, MT_IHCA_LOG_MPT) & 0x3f;
	g.mtt_base = mt_ihca_base(mb, MT_IHCA_MTT_BASE);
	g.log_uarc_pages = mt_get8(mb, MT_IHCA_LOG_UARC_SZ);
	g.log_uar = mt_get8(mb, MT_IHCA_LOG_UAR) & 0x1f;
	g.uar_scr_base = mt_ihca_base(mb, MT_IHCA_UAR_SCR_BASE);
	g.uarc_base = mt_ihca_base(mb, MT_IHCA_UARC_BASE);

	if (g.flags2 & 2) {
		FAB_ERR("%s: INIT_HCA: flags2 0x%x: big-endian host not modelled",
			dev->node->name, g.flags2);
		return MT_STAT_BAD_PARAM;
	}
	if (!ihca_log_ok(dev, "QPs", g.log_qp, MT25208_LOG_MAX_QP) ||
	    !ihca_log_ok(dev, "CQs", g.log_cq, MT25208_LOG_MAX_CQ) ||
	    !ihca_log_ok(dev, "EQs", g.log_eq, MT25208_LOG_MAX_EQ) ||
	    !ihca_log_ok(dev, "MPTs", g.log_mpt, MT25208_LOG_MAX_MPT) ||
	    !ihca_log_ok(dev, "MGMs", g.log_mc, MT25208_LOG_MAX_MCG) ||
	    !ihca_log_ok(dev, "UARs", g.log_uar, MT_BAR2_LOG_UAR_MB + 20 - 12) ||
	    !ihca_log_ok(dev, "SRQs", g.log_srq, 0))
		return MT_STAT_EXCEED_LIM;
	if (mt_get16(mb, MT_IHCA_LOG_MC_ENTRY_SZ) != 8 ||
	    mt_get8(mb, MT_IHCA_UAR_PAGE_SZ) != 0 || g.mc_hash_sz == 0 ||
	    g.mc_hash_sz > (1u << g.log_mc) || g.log_uarc_pages > 8) {
		FAB_ERR("%s: INIT_HCA: log MGM entry size %u (must be 8), UAR page size %u"
			" (must be 0), MGM hash size %u (1..%u), log UARC pages %u (<= 8)",
			dev->node->name, mt_get16(mb, MT_IHCA_LOG_MC_ENTRY_SZ),
			mt_get8(mb, MT_IHCA_UAR_PAGE_SZ), g.mc_hash_sz, 1u << g.log_mc,
			g.log_uarc_pages);
		return MT_STAT_BAD_PARAM;
	}
	if (!ihca_table_ok(dev, "QPC", g.qpc_base, g.log_qp, MT25208_QPC_SZ) ||
	    !ihca_table_ok(dev, "EQPC", g.eqpc_base, g.log_qp, MT25208_EQPC_SZ) ||
	    !ihca_table_ok(dev, "CQC", g.cqc_base, g.log_cq, MT25208_CQC_SZ) ||
	    !ihca_table_ok(dev, "EQC", g.eqc_base, g.log_eq, MT25208_EQC_SZ) ||
	    !ihca_table_ok(dev, "MCG", g.mc_base, g.log_mc, MT_MGM_SIZE) ||
	    !ihca_table_ok(dev, "MPT", g.mpt_base, g.log_mpt, MT25208_MPT_SZ) ||
	    !ihca_table_ok(dev, "MTT", g.mtt_base, 0, MT_MTT_SEG_SIZE) ||
	    !ihca_table_ok(dev, "RDB", g.rdb_base, g.log_qp, 32) ||
	    !ihca_table_ok(dev, "UARC", g.uarc_base, g.log_uar,
			   MT_ICM_PAGE_SIZE << g.log_uarc_pages))
		return MT_STAT_BAD_PARAM;

	{
		const uint64_t bases[] = {
			g.qpc_base, g.eqpc_base, g.eec_base, g.eeec_base, g.srqc_base,
			g.cqc_base, g.eqc_base, g.rdb_base, g.mc_base, g.mpt_base,
			g.uar_scr_base, g.uarc_base,
		};
		size_t i;

		g.mtt_end = g.mtt_base + ((uint64_t)MT_MTT_SEG_SIZE << MT25208_LOG_MAX_MTT_SEG);
		for (i = 0; i < sizeof(bases) / sizeof(bases[0]); i++)
			if (bases[i] > g.mtt_base && bases[i] < g.mtt_end)
				g.mtt_end = bases[i];
	}
	free(dev->cq_hw);
	dev->cq_hw = calloc(((size_t)1 << g.log_cq) / 8 + 1, 1);
	if (dev->cq_hw == NULL)
		return MT_STAT_INTERNAL_ERR;
	dev->cfg = g;
	dev->fw_state = MT25208_FW_HCA;
	return MT_STAT_OK;
}

uint8_t
mt25208_cmd_close_hca(struct mt25208 *dev, struct mt25208_cmd *c)
{
	struct fab_port *p;
	unsigned int i;

	(void)c;
	if (dev->fw_state != MT25208_FW_HCA)
		return MT_STAT_BAD_SYS_STATE;
	/* what the driver left to the firmware to drop: a leak for the console */
	mt25208_resources(dev, &dev->at_close);
	/* The HCA stops: ports leave the fabric, every context is dropped. */
	for (i = 1; i <= dev->nports; i++) {
		p = &dev->node->ports[i];
		if (dev->port[i].ib_up)
			port_state_admin(dev->fab, p, false);
		dev->port[i].ib_up = false;
	}
	memset(dev->eq, 0, sizeof(dev->eq));
	memset(dev->ev_eqn, MT25208_NO_EQ, sizeof(dev->ev_eqn));
	memset(dev->sqp_base, 0, sizeof(dev->sqp_base));
	free(dev->cq_hw);
	dev->cq_hw = NULL;
	memset(&dev->cfg, 0, sizeof(dev->cfg));
	dev->fw_state = MT25208_FW_RUN;
	if (dev->dp_reset != NULL)
		dev->dp_reset(dev);
	return MT_STAT_OK;
}
