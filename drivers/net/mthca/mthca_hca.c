/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Mem-free bring-up and teardown of the HCA in Linux's order
 * (mthca_main.c __mthca_init_one / mthca_init_arbel / mthca_setup_hca and
 * __mthca_remove_one): QUERY_FW, ENABLE_LAM, MAP_FA, RUN_FW,
 * QUERY_DEV_LIM, the ICM profile, SET_ICM_SIZE, MAP_ICM_AUX, MAP_ICM,
 * INIT_HCA, QUERY_ADAPTER, the driver UAR and its doorbell records, the
 * driver PD's physical MR, the EQs, CONF_SPECIAL_QP. The profile is
 * sized for what a PMD uses (Linux's default asks for ~620 MiB of ICM)
 * and every table is backed when the HCA comes up, so nothing is mapped
 * on the data path.
 */

#include <errno.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "mthca.h"
#include "mthca_cmd.h"
#include "mthca_profile.h"

static unsigned int
ilog2_ceil(uint64_t v)
{
	unsigned int l = 0;

	while ((1ull << l) < v)
		l++;
	return l;
}

/*
 * MAP_FA / MAP_ICM_AUX / MAP_ICM page list (Linux mthca_map_cmd): blocks of
 * the largest power of two both addresses are aligned to, at most 256 KiB,
 * 256 entries per command. MAP_FA and MAP_ICM_AUX leave the virtual field 0.
 */
static int
map_pages_locked(struct mthca_dev *dev, uint16_t op, uint64_t virt, uint64_t iova,
		 uint64_t len)
{
	uint8_t *mb = dev->mbox_in.va;
	unsigned int n = 0;
	int st;

	memset(mb, 0, MTHCA_MAILBOX_SIZE);
	while (len > 0) {
		unsigned int lg = 18;

		while (lg > 12 && ((((iova | (op == MTHCA_CMD_MAP_ICM ? virt : 0)) &
				    ((1ull << lg) - 1)) != 0) || (1ull << lg) > len))
			lg--;
		mthca_put64(mb, n * MTHCA_MAP_ENTRY_SIZE, op == MTHCA_CMD_MAP_ICM ? virt : 0);
		mthca_put64(mb, n * MTHCA_MAP_ENTRY_SIZE + 8, iova | (lg - 12));
		n++;
		iova += 1ull << lg;
		virt += 1ull << lg;
		len = len > (1ull << lg) ? len - (1ull << lg) : 0;
		if (n == MTHCA_MAP_MAX_ENTRIES || len == 0) {
			st = mthca_cmd_locked(dev, dev->mbox_in.iova, NULL, n, 0, op);
			if (st != MTHCA_ST_OK) {
				MTHCA_LOG(ERR, "%s: %s of %u entries: status 0x%02x", dev->name,
					  mthca_cmd_name(op), n, st);
				return mthca_status_errno(st);
			}
			memset(mb, 0, MTHCA_MAILBOX_SIZE);
			n = 0;
		}
	}
	return 0;
}

static int
query_fw_locked(struct mthca_dev *dev)
{
	const uint8_t *o = dev->mbox_out.va;
	int st = mthca_cmd_box_locked(dev, MTHCA_CMD_QUERY_FW, 0, 0, false, true);

	if (st != MTHCA_ST_OK) {
		MTHCA_LOG(ERR, "%s: QUERY_FW: status 0x%02x", dev->name, st);
		return mthca_status_errno(st);
	}
	dev->fw_pages = mthca_get16(o, MTHCA_QFW_FW_PAGES);
	dev->fw_ver = mthca_get64(o, MTHCA_QFW_VER) & 0xffffffffffffull;
	/*
	 * Linux mthca_map_eq_regs: "we can't trust the values firmware gives
	 * us": the addresses are on the HCA's side of the bus; masked with
	 * BAR0 length - 1 they are BAR0 offsets.
	 */
	dev->clr_int_off = mthca_get64(o, MTHCA_QFW_CLR_INT_BASE) & (dev->bar0_len - 1);
	dev->eq_arm_off = (mthca_get64(o, MTHCA_QFW_EQ_ARM_BASE) & (dev->bar0_len - 1)) + 4;
	dev->eq_set_ci_off = mthca_get64(o, MTHCA_QFW_EQ_SET_CI_BASE) & (dev->bar0_len - 1);
	if (dev->eq_arm_off + 4 > dev->bar0_len ||
	    dev->eq_set_ci_off + MTHCA_NUM_EQS * 8 > dev->bar0_len) {
		MTHCA_LOG(ERR, "%s: QUERY_FW: EQ registers outside BAR0", dev->name);
		return -EIO;
	}
	return 0;
}

static int
query_dev_lim_locked(struct mthca_dev *dev)
{
	const uint8_t *o = dev->mbox_out.va;
	uint32_t sq_sg, rq_sg, sq_desc, rq_desc;
	int st;

	st = mthca_cmd_box_locked(dev, MTHCA_CMD_QUERY_DEV_LIM, 0, 0, false, true);
	if (st != MTHCA_ST_OK) {
		MTHCA_LOG(ERR, "%s: QUERY_DEV_LIM: status 0x%02x", dev->name, st);
		return mthca_status_errno(st);
	}
	dev->max_qp_sz = 1u << mthca_get8(o, MTHCA_QDL_LOG_MAX_QP_SZ);
	dev->rsvd_qps = 1u << (mthca_get8(o, MTHCA_QDL_RSVD_QP) & 0x0f);
	dev->max_cq_sz = 1u << mthca_get8(o, MTHCA_QDL_LOG_MAX_CQ_SZ);
	dev->rsvd_cqs = 1u << (mthca_get8(o, MTHCA_QDL_RSVD_CQ) & 0x0f);
	dev->rsvd_eqs = 1u << (mthca_get8(o, MTHCA_QDL_RSVD_EQ) & 0x0f);
	dev->rsvd_mrws = 1u << (mthca_get8(o, MTHCA_QDL_RSVD_MRW) & 0x0f);
	/* Linux mthca_QUERY_DEV_LIM: log of reserved MTT entries, 8 per segment */
	dev->rsvd_mtt_segs = ((1u << (mthca_get8(o, MTHCA_QDL_RSVD_MTT) >> 4)) *
			      MTHCA_MTT_ENTRY_SIZE + MTHCA_MTT_SEG_SIZE - 1) / MTHCA_MTT_SEG_SIZE;
	dev->rsvd_uars = mthca_get8(o, MTHCA_QDL_RSVD_UAR) >> 4;
	dev->rsvd_pds = mthca_get8(o, MTHCA_QDL_RSVD_PD) >> 4;
	dev->mtu_cap = mthca_get8(o, MTHCA_QDL_MTU_WIDTH) >> 4;
	dev->width_cap = mthca_get8(o, MTHCA_QDL_MTU_WIDTH) & 0x0f;
	dev->vl_cap = mthca_get8(o, MTHCA_QDL_VL_PORTS) >> 4;
	dev->num_ports = mthca_get8(o, MTHCA_QDL_VL_PORTS) & 0x0f;
	dev->gid_len = 1u << (mthca_get8(o, MTHCA_QDL_LOG_GID) & 0x0f);
	dev->pkey_len = 1u << (mthca_get8(o, MTHCA_QDL_LOG_PKEY) & 0x0f);
	dev->dev_flags = mthca_get32(o, MTHCA_QDL_FLAGS);
	dev->uar_size = 1u << ((mthca_get8(o, MTHCA_QDL_UAR_SZ) & 0x3f) + 20);
	sq_sg = mthca_get8(o, MTHCA_QDL_MAX_SG_SQ);
	rq_sg = mthca_get8(o, MTHCA_QDL_MAX_SG_RQ);
	sq_desc = mthca_get16(o, MTHCA_QDL_MAX_DESC_SQ);
	rq_desc = mthca_get16(o, MTHCA_QDL_MAX_DESC_RQ);
	dev->max_sg = RTE_MIN(sq_sg, rq_sg);
	dev->max_desc_sz = RTE_MIN(sq_desc, rq_desc);
	dev->eec_sz = mthca_get16(o, MTHCA_QDL_EEC_SZ);
	dev->qpc_sz = mthca_get16(o, MTHCA_QDL_QPC_SZ);
	dev->eeec_sz = mthca_get16(o, MTHCA_QDL_EEEC_SZ);
	dev->eqpc_sz = mthca_get16(o, MTHCA_QDL_EQPC_SZ);
	dev->eqc_sz = mthca_get16(o, MTHCA_QDL_EQC_SZ);
	dev->cqc_sz = mthca_get16(o, MTHCA_QDL_CQC_SZ);
	dev->srqc_sz = mthca_get16(o, MTHCA_QDL_SRQC_SZ);
	dev->uar_scr_sz = mthca_get16(o, MTHCA_QDL_UAR_SCR_SZ);
	dev->mpt_sz = mthca_get16(o, MTHCA_QDL_MPT_SZ);
	dev->max_icm = mthca_get64(o, MTHCA_QDL_MAX_ICM);
	/* Linux mthca_dev_lim checks */
	if ((1u << mthca_get8(o, MTHCA_QDL_MIN_PAGE)) > MTHCA_ICM_PAGE_SIZE ||
	    dev->num_ports == 0 || dev->num_ports > MTHCA_MAX_PORTS ||
	    dev->uar_size > dev->bar2_len || MTHCA_NUM_EQS * dev->eqc_sz > MTHCA_ICM_PAGE_SIZE ||
	    !(dev->dev_flags & MTHCA_DEV_LIM_FLAG_UD)) {
		MTHCA_LOG(ERR, "%s: QUERY_DEV_LIM: min page 2^%u, %u ports, UAR area %u bytes "
			  "(BAR2 %zu), EQC %u bytes, flags 0x%08x: not usable", dev->name,
			  mthca_get8(o, MTHCA_QDL_MIN_PAGE), dev->num_ports, dev->uar_size,
			  dev->bar2_len, dev->eqc_sz, dev->dev_flags);
		return -ENODEV;
	}
	return 0;
}

struct prof_res {
	const char *name;
	uint64_t size;
	uint64_t *base;
	bool back;		/* backed with host memory at bring-up */
};

/* Linux mthca_make_profile: the profile of mthca_profile.h on this HCA's entry sizes. */
static int
make_profile(struct mthca_dev *dev, struct prof_res *r, unsigned int *nres)
{
	uint64_t *const bases[MTHCA_ICM_NUM] = {
		[MTHCA_ICM_QPC] = &dev->qpc_base, [MTHCA_ICM_EEC] = &dev->eec_base,
		[MTHCA_ICM_SRQC] = &dev->srqc_base, [MTHCA_ICM_CQC] = &dev->cqc_base,
		[MTHCA_ICM_EQPC] = &dev->eqpc_base, [MTHCA_ICM_EEEC] = &dev->eeec_base,
		[MTHCA_ICM_EQC] = &dev->eqc_base, [MTHCA_ICM_RDB] = &dev->rdb_base,
		[MTHCA_ICM_MCG] = &dev->mc_base, [MTHCA_ICM_MPT] = &dev->mpt_base,
		[MTHCA_ICM_MTT] = &dev->mtt_base, [MTHCA_ICM_UAR_SCR] = &dev->uar_scr_base,
		[MTHCA_ICM_UARC] = &dev->uarc_base,
	};
	struct mthca_icm_profile p;
	unsigned int i;

	dev->num_qps = mthca_prof_scale(MTHCA_PROF_NUM_QPS, dev->rsvd_qps);
	dev->num_cqs = mthca_prof_scale(MTHCA_PROF_NUM_CQS, dev->rsvd_cqs);
	dev->num_mpts = mthca_prof_scale(MTHCA_PROF_NUM_MPTS, dev->rsvd_mrws);
	dev->num_mtt_segs = MTHCA_PROF_NUM_MTT_SEGS;
	dev->num_mcgs = MTHCA_PROF_NUM_MCGS;
	dev->num_uars = dev->uar_size / MTHCA_UAR_PAGE_SIZE;
	memset(&p, 0, sizeof(p));
	p.entry_size[MTHCA_ICM_QPC] = dev->qpc_sz;
	p.count[MTHCA_ICM_QPC] = dev->num_qps;
	p.entry_size[MTHCA_ICM_EEC] = dev->eec_sz;
	p.entry_size[MTHCA_ICM_SRQC] = dev->srqc_sz;
	p.entry_size[MTHCA_ICM_CQC] = dev->cqc_sz;
	p.count[MTHCA_ICM_CQC] = dev->num_cqs;
	p.entry_size[MTHCA_ICM_EQPC] = dev->eqpc_sz;
	p.count[MTHCA_ICM_EQPC] = dev->num_qps;
	p.entry_size[MTHCA_ICM_EEEC] = dev->eeec_sz;
	p.entry_size[MTHCA_ICM_EQC] = dev->eqc_sz;
	p.count[MTHCA_ICM_EQC] = MTHCA_NUM_EQS;
	p.entry_size[MTHCA_ICM_RDB] = MTHCA_RDB_ENTRY_SIZE;
	p.count[MTHCA_ICM_RDB] = (uint64_t)dev->num_qps * MTHCA_PROF_RDB_PER_QP;
	p.entry_size[MTHCA_ICM_MCG] = MTHCA_MGM_ENTRY_SIZE;
	p.count[MTHCA_ICM_MCG] = dev->num_mcgs;
	p.entry_size[MTHCA_ICM_MPT] = dev->mpt_sz;
	p.count[MTHCA_ICM_MPT] = dev->num_mpts;
	p.entry_size[MTHCA_ICM_MTT] = MTHCA_MTT_SEG_SIZE;
	p.count[MTHCA_ICM_MTT] = dev->num_mtt_segs;
	p.entry_size[MTHCA_ICM_UAR_SCR] = dev->uar_scr_sz;
	p.count[MTHCA_ICM_UAR_SCR] = dev->num_uars;
	p.entry_size[MTHCA_ICM_UARC] = MTHCA_UARC_SIZE;
	p.count[MTHCA_ICM_UARC] = dev->num_uars;
	mthca_icm_layout(&p, MTHCA_ICM_PAGE_SIZE);
	if (dev->max_icm != 0 && p.total > dev->max_icm) {
		MTHCA_LOG(ERR, "%s: the profile needs %" PRIu64 " bytes of ICM, the HCA has %"
			  PRIu64, dev->name, p.total, dev->max_icm);
		return -ENOMEM;
	}
	/* r[] in ICM order, as the tables are mapped */
	for (i = 0; i < MTHCA_ICM_NUM; i++) {
		enum mthca_icm_table t = p.order[i];

		*bases[t] = p.base[t];
		r[i].name = mthca_icm_table_name(t);
		r[i].size = p.size[t];
		r[i].base = bases[t];
		r[i].back = mthca_icm_table_backed(t);
	}
	dev->icm_total = p.total;
	*nres = MTHCA_ICM_NUM;
	return 0;
}

static int
map_icm_tables_locked(struct mthca_dev *dev, const struct prof_res *r, unsigned int n)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		uint64_t sz = r[i].size;
		typeof(dev->icm[0]) *t;

		if (!r[i].back)
			continue;
		if (r[i].base == &dev->eqc_base)
			sz = MTHCA_ICM_PAGE_SIZE;	/* Linux mthca_map_eq_icm: one page */
		if (dev->nicm == MTHCA_ICM_TABLES)
			return -ENOSPC;
		t = &dev->icm[dev->nicm];
		ret = mthca_dma_alloc(dev, sz, RTE_MIN(sz, (uint64_t)1 << 18), &t->mem);
		if (ret != 0)
			return ret;
		ret = map_pages_locked(dev, MTHCA_CMD_MAP_ICM, *r[i].base, t->mem.iova, sz);
		if (ret != 0) {
			mthca_dma_free(&t->mem);
			return ret;
		}
		t->virt = *r[i].base;
		t->pages = sz / MTHCA_ICM_PAGE_SIZE;
		dev->nicm++;
		if (r[i].base == &dev->mtt_base)
			dev->mtt_host = t->mem.va;
		if (r[i].base == &dev->mc_base)
			dev->mgm_host = t->mem.va;
		MTHCA_LOG(DEBUG, "%s: ICM %s 0x%" PRIx64 " + 0x%" PRIx64, dev->name, r[i].name,
			  *r[i].base, sz);
	}
	return 0;
}

static int
init_hca_locked(struct mthca_dev *dev)
{
	uint8_t *m = dev->mbox_in.va;
	int st;

	memset(m, 0, MTHCA_IHCA_SIZE);
	/* little-endian host; check the port of UD AVs as Linux does (PRM) */
	mthca_put32(m, MTHCA_IHCA_FLAGS2, MTHCA_IHCA_FLAGS2_UD_PORT_CHECK);
	mthca_put64(m, MTHCA_IHCA_QPC_BASE, dev->qpc_base);
	mthca_put8(m, MTHCA_IHCA_LOG_QP, ilog2_ceil(dev->num_qps));
	mthca_put64(m, MTHCA_IHCA_EEC_BASE, dev->eec_base);
	mthca_put64(m, MTHCA_IHCA_SRQC_BASE, dev->srqc_base);
	mthca_put64(m, MTHCA_IHCA_CQC_BASE, dev->cqc_base);
	mthca_put8(m, MTHCA_IHCA_LOG_CQ, ilog2_ceil(dev->num_cqs));
	mthca_put64(m, MTHCA_IHCA_EQPC_BASE, dev->eqpc_base);
	mthca_put64(m, MTHCA_IHCA_EEEC_BASE, dev->eeec_base);
	mthca_put64(m, MTHCA_IHCA_EQC_BASE, dev->eqc_base);
	mthca_put8(m, MTHCA_IHCA_LOG_EQ, MTHCA_LOG_NUM_EQS);
	mthca_put64(m, MTHCA_IHCA_RDB_BASE, dev->rdb_base);
	mthca_put64(m, MTHCA_IHCA_MC_BASE, dev->mc_base);
	mthca_put16(m, MTHCA_IHCA_LOG_MC_ENTRY, MTHCA_LOG_MGM_ENTRY_SIZE);
	mthca_put16(m, MTHCA_IHCA_MC_HASH_SZ, dev->num_mcgs / 2);
	mthca_put8(m, MTHCA_IHCA_LOG_MC_TABLE, ilog2_ceil(dev->num_mcgs));
	mthca_put64(m, MTHCA_IHCA_MPT_BASE, dev->mpt_base);
	mthca_put8(m, MTHCA_IHCA_LOG_MPT, ilog2_ceil(dev->num_mpts));
	mthca_put64(m, MTHCA_IHCA_MTT_BASE, dev->mtt_base);
	/* Linux: ffs(uarc_size) - 13, log2(num_uar), PAGE_SHIFT - 12 */
	mthca_put8(m, MTHCA_IHCA_LOG_UARC, ilog2_ceil(MTHCA_UARC_SIZE) + 1 - 13);
	mthca_put8(m, MTHCA_IHCA_LOG_UAR, ilog2_ceil(dev->num_uars));
	mthca_put8(m, MTHCA_IHCA_UAR_PAGE_SZ, 0);
	mthca_put64(m, MTHCA_IHCA_UAR_SCR_BASE, dev->uar_scr_base);
	mthca_put64(m, MTHCA_IHCA_UARC_BASE, dev->uarc_base);
	st = mthca_cmd_locked(dev, dev->mbox_in.iova, NULL, 0, 0, MTHCA_CMD_INIT_HCA);
	if (st != MTHCA_ST_OK) {
		MTHCA_LOG(ERR, "%s: INIT_HCA: status 0x%02x", dev->name, st);
		return mthca_status_errno(st);
	}
	dev->hca_up = true;
	return 0;
}

static void
query_adapter_locked(struct mthca_dev *dev)
{
	const uint8_t *o = dev->mbox_out.va;
	unsigned int i;

	if (mthca_cmd_box_locked(dev, MTHCA_CMD_QUERY_ADAPTER, 0, 0, false, true) != MTHCA_ST_OK)
		return;
	dev->inta_pin = mthca_get8(o, MTHCA_QAD_INTA_PIN);
	/* Linux get_board_id (Mellanox VSD): every 4-byte group byte-reversed */
	for (i = 0; i < MTHCA_QAD_BOARD_ID_LEN; i++)
		dev->board_id[i] = (char)o[MTHCA_QAD_BOARD_ID + (i & ~3u) + 3 - (i & 3)];
	dev->board_id[MTHCA_QAD_BOARD_ID_LEN] = '\0';
}

/*
 * One UAR per queue, with one doorbell-record page mapped at the start of
 * its UARC (Linux mthca_alloc_db maps record pages with MAP_ICM_page; a
 * record's ICM address is uarc_base + uar * uarc_size + index * 8).
 */
int
mthca_uar_alloc(struct mthca_dev *dev, struct mthca_uar *u)
{
	int64_t ind = mthca_bitmap_alloc(&dev->uar_map, 1, 1);
	int ret;

	memset(u, 0, sizeof(*u));
	if (ind < 0) {
		MTHCA_LOG(ERR, "%s: all %u UARs in use", dev->name, dev->num_uars);
		return -ENOSPC;
	}
	u->index = (uint32_t)ind;
	u->page = dev->bar2 + (size_t)u->index * MTHCA_UAR_PAGE_SIZE;
	ret = mthca_dma_alloc(dev, MTHCA_ICM_PAGE_SIZE, 0, &u->rec);
	if (ret == 0) {
		pthread_mutex_lock(&dev->cmd_lock);
		ret = map_pages_locked(dev, MTHCA_CMD_MAP_ICM, dev->uarc_base +
				       (uint64_t)u->index * MTHCA_UARC_SIZE, u->rec.iova,
				       MTHCA_ICM_PAGE_SIZE);
		pthread_mutex_unlock(&dev->cmd_lock);
	}
	if (ret != 0) {
		mthca_uar_free(dev, u);
		return ret;
	}
	u->mapped = true;
	return 0;
}

void
mthca_uar_free(struct mthca_dev *dev, struct mthca_uar *u)
{
	if (u->page == NULL)
		return;
	if (u->mapped)
		mthca_cmd(dev, dev->uarc_base + (uint64_t)u->index * MTHCA_UARC_SIZE, NULL, 1, 0,
			  MTHCA_CMD_UNMAP_ICM);
	mthca_dma_free(&u->rec);
	mthca_bitmap_release(&dev->uar_map, u->index, 1);
	memset(u, 0, sizeof(*u));
}

volatile uint8_t *
mthca_dbr_init(struct mthca_uar *u, uint32_t idx, uint32_t qn, uint32_t type)
{
	uint8_t *r = u->rec.va + idx * MTHCA_DBR_SIZE;

	mthca_put32(r, 0, 0);
	mthca_put32(r, 4, mthca_dbr_identity(qn, type));
	return r;
}

static int
hca_bringup_locked(struct mthca_dev *dev)
{
	struct prof_res r[16];
	unsigned int nres;
	uint64_t out;
	int st, ret;

	ret = query_fw_locked(dev);
	if (ret != 0)
		return ret;
	/* Linux mthca_init_arbel: status 0x22 means "MemFree mode" */
	st = mthca_cmd_box_locked(dev, MTHCA_CMD_ENABLE_LAM, 0, 0, false, true);
	if (st != MTHCA_ST_LAM_NOT_PRE) {
		MTHCA_LOG(ERR, "%s: ENABLE_LAM: status 0x%02x, not a mem-free HCA", dev->name, st);
		return st < 0 ? st : -ENODEV;
	}
	if (dev->fw_pages == 0) {
		MTHCA_LOG(ERR, "%s: QUERY_FW: firmware area of 0 pages", dev->name);
		return -EIO;
	}
	ret = mthca_dma_alloc(dev, (size_t)dev->fw_pages * MTHCA_ICM_PAGE_SIZE, 0, &dev->fw_area);
	if (ret != 0)
		return ret;
	ret = map_pages_locked(dev, MTHCA_CMD_MAP_FA, 0, dev->fw_area.iova, dev->fw_area.len);
	if (ret != 0)
		return ret;
	dev->fw_mapped = true;
	st = mthca_cmd_locked(dev, 0, NULL, 0, 0, MTHCA_CMD_RUN_FW);
	if (st != MTHCA_ST_OK) {
		MTHCA_LOG(ERR, "%s: RUN_FW: status 0x%02x", dev->name, st);
		return mthca_status_errno(st);
	}
	dev->fw_running = true;
	ret = query_dev_lim_locked(dev);
	if (ret != 0)
		return ret;
	ret = make_profile(dev, r, &nres);
	if (ret != 0)
		return ret;
	out = 0;
	st = mthca_cmd_locked(dev, dev->icm_total, &out, 0, 0, MTHCA_CMD_SET_ICM_SIZE);
	if (st != MTHCA_ST_OK) {
		MTHCA_LOG(ERR, "%s: SET_ICM_SIZE %" PRIu64 ": status 0x%02x", dev->name,
			  dev->icm_total, st);
		return mthca_status_errno(st);
	}
	if (out != 0) {
		ret = mthca_dma_alloc(dev, out * MTHCA_ICM_PAGE_SIZE, 0, &dev->aux_area);
		if (ret != 0)
			return ret;
		ret = map_pages_locked(dev, MTHCA_CMD_MAP_ICM_AUX, 0, dev->aux_area.iova,
				       dev->aux_area.len);
		if (ret != 0)
			return ret;
		dev->aux_mapped = true;
	}
	ret = map_icm_tables_locked(dev, r, nres);
	if (ret != 0)
		return ret;
	ret = init_hca_locked(dev);
	if (ret != 0)
		return ret;
	query_adapter_locked(dev);
	return 0;
}

static int
hca_objects_init(struct mthca_dev *dev)
{
	int ret;

	dev->pd = dev->rsvd_pds;
	/* Linux mthca_init_uar_table: UARs 0 .. reserved_uars are not ours */
	ret = mthca_bitmap_init(&dev->uar_map, dev->num_uars, dev->rsvd_uars + 1);
	if (ret == 0)
		ret = mthca_bitmap_init(&dev->mpt_map, dev->num_mpts, dev->rsvd_mrws);
	if (ret == 0)
		ret = mthca_bitmap_init(&dev->mtt_map, dev->num_mtt_segs, dev->rsvd_mtt_segs);
	if (ret == 0)
		ret = mthca_bitmap_init(&dev->cq_map, dev->num_cqs, dev->rsvd_cqs);
	/* MGM overflow entries follow the hash buckets (Linux mthca_init_mcg_table) */
	if (ret == 0)
		ret = mthca_bitmap_init(&dev->amgm_map, dev->num_mcgs, dev->num_mcgs / 2);
	/* Linux mthca_init_qp_table: special QPs at the next even QPN, 2 per port pair */
	dev->sqp_start = (dev->rsvd_qps + 1) & ~1u;
	if (ret == 0)
		ret = mthca_bitmap_init(&dev->qp_map, dev->num_qps,
					dev->sqp_start + 2 * MTHCA_MAX_PORTS);
	if (ret != 0)
		return ret;
	return mthca_mr_phys(dev, &dev->ntmr);
}

static int
conf_special_qps(struct mthca_dev *dev)
{
	int st;

	st = mthca_cmd(dev, 0, NULL, dev->sqp_start, 0, MTHCA_CMD_CONF_SPECIAL_QP);
	if (st == MTHCA_ST_OK) {
		dev->sqp_conf = true;
		st = mthca_cmd(dev, 0, NULL, dev->sqp_start + 2, 1, MTHCA_CMD_CONF_SPECIAL_QP);
	}
	if (st != MTHCA_ST_OK) {
		MTHCA_LOG(ERR, "%s: CONF_SPECIAL_QP at QPN 0x%x: status 0x%02x", dev->name,
			  dev->sqp_start, st);
		return mthca_status_errno(st);
	}
	return 0;
}

int
mthca_hca_init(struct mthca_dev *dev)
{
	unsigned int maj, min, sub;
	int ret;

	ret = mthca_dma_alloc(dev, MTHCA_MAILBOX_SIZE, MTHCA_MAILBOX_SIZE, &dev->mbox_in);
	if (ret == 0)
		ret = mthca_dma_alloc(dev, MTHCA_MAILBOX_SIZE, MTHCA_MAILBOX_SIZE, &dev->mbox_out);
	if (ret != 0)
		goto err;
	pthread_mutex_lock(&dev->cmd_lock);
	ret = hca_bringup_locked(dev);
	pthread_mutex_unlock(&dev->cmd_lock);
	if (ret == 0)
		ret = hca_objects_init(dev);
	if (ret == 0)
		ret = mthca_eq_init(dev);
	if (ret == 0)
		ret = conf_special_qps(dev);
	if (ret != 0)
		goto err;
	mthca_fw_ver_split(dev->fw_ver, &maj, &min, &sub);
	MTHCA_LOG(INFO, "%s: MT25208 (mem-free), firmware %u.%u.%u, board %s, %u port(s), "
		  "%" PRIu64 " KiB of ICM", dev->name, maj, min, sub, dev->board_id,
		  dev->num_ports, dev->icm_total >> 10);
	return 0;
err:
	mthca_hca_close(dev);
	return ret;
}

void
mthca_hca_close(struct mthca_dev *dev)
{
	unsigned int i, p;

	/* Linux __mthca_remove_one order; every step tolerates a half-built HCA */
	for (p = 0; p < MTHCA_MAX_PORTS; p++)
		if (dev->ib_up[p]) {
			mthca_cmd(dev, 0, NULL, p + 1, 0, MTHCA_CMD_CLOSE_IB);
			dev->ib_up[p] = false;
		}
	if (dev->sqp_conf) {
		mthca_cmd(dev, 0, NULL, 0, 0, MTHCA_CMD_CONF_SPECIAL_QP);
		mthca_cmd(dev, 0, NULL, 0, 1, MTHCA_CMD_CONF_SPECIAL_QP);
		dev->sqp_conf = false;
	}
	mthca_eq_cleanup(dev);
	if (dev->ntmr.live)
		mthca_mr_free(dev, &dev->ntmr);
	mthca_bitmap_free(&dev->qp_map);
	mthca_bitmap_free(&dev->amgm_map);
	mthca_bitmap_free(&dev->cq_map);
	mthca_bitmap_free(&dev->mtt_map);
	mthca_bitmap_free(&dev->mpt_map);
	mthca_bitmap_free(&dev->uar_map);
	pthread_mutex_lock(&dev->cmd_lock);
	if (dev->hca_up) {
		mthca_cmd_locked(dev, 0, NULL, 0, 0, MTHCA_CMD_CLOSE_HCA);
		dev->hca_up = false;
	}
	/* after CLOSE_HCA, as Linux does: ICM, aux area, firmware area */
	for (i = dev->nicm; i-- > 0;) {
		mthca_cmd_locked(dev, dev->icm[i].virt, NULL, dev->icm[i].pages, 0,
				 MTHCA_CMD_UNMAP_ICM);
		mthca_dma_free(&dev->icm[i].mem);
	}
	dev->nicm = 0;
	dev->mtt_host = dev->mgm_host = NULL;
	if (dev->aux_mapped)
		mthca_cmd_locked(dev, 0, NULL, 0, 0, MTHCA_CMD_UNMAP_ICM_AUX);
	dev->aux_mapped = false;
	if (dev->fw_mapped)
		mthca_cmd_locked(dev, 0, NULL, 0, 0, MTHCA_CMD_UNMAP_FA);
	dev->fw_mapped = dev->fw_running = false;
	pthread_mutex_unlock(&dev->cmd_lock);
	mthca_dma_free(&dev->aux_area);
	mthca_dma_free(&dev->fw_area);
	mthca_dma_free(&dev->mbox_out);
	mthca_dma_free(&dev->mbox_in);
}
