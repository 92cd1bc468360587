/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * hca_host: mem-free bring-up in Linux's order (mthca_init_arbel()), the ICM profile
 * (mthca_make_profile(), scaled down: a host that maps everything up front needs
 * small tables), memory regions (mthca_mr.c), EQs (mthca_eq.c), CQs (mthca_cq.c) and
 * QPs (mthca_qp.c).
 */

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>

#include "hh.h"
#include "mthca_profile.h"

#define CHECK_ST(expr, what) do { \
	int _st = (expr); \
	if (_st != HH_ST_OK) { \
		HH_ERR("%s: status 0x%02x", what, _st); \
		return _st < 0 ? _st : -EIO; \
	} \
} while (0)

static unsigned int
ilog2(uint64_t v)
{
	unsigned int l = 0;

	while ((1ull << l) < v)
		l++;
	return l;
}

/*
 * QUERY_FW's register addresses are the HCA's bus addresses; Linux masks
 * them with the BAR0 length - 1 (mthca_QUERY_FW(): "we can't trust the
 * values firmware gives us"). HH_BUG_FW_UNMASKED uses them as they are.
 */
static uint64_t
bar0_off(struct hh_dev *d, uint64_t fw_addr)
{
	if (d->bugs & HH_BUG_FW_UNMASKED)
		return fw_addr;
	return fw_addr & (d->bar0_len - 1);
}

/* ---- page lists (mthca_map_cmd()) ---------------------------------------------- */

/*
 * Map @p len bytes of host memory at @p iova to ICM @p virt (MAP_ICM) or
 * to firmware's private use (MAP_FA, MAP_ICM_AUX: virtual field 0), in
 * blocks of the largest power of two both are aligned to (at most
 * 256 KiB, the chunk Linux uses), 256 entries per command.
 */
static int
map_pages(struct hh_dev *d, uint16_t op, uint64_t virt, uint64_t iova, uint64_t len)
{
	uint8_t *mb = d->mbox_in.va;
	unsigned int n = 0;
	int st;

	memset(mb, 0, HH_MAILBOX_SIZE);
	while (len > 0) {
		unsigned int lg = 18;

		while (lg > 12 && (((iova | virt) & ((1ull << lg) - 1)) != 0 || (1ull << lg) > len))
			lg--;
		hh_put64(mb, n * HH_MAP_ENTRY_SIZE, op == HH_OP_MAP_ICM ? virt : 0);
		hh_put64(mb, n * HH_MAP_ENTRY_SIZE + 8, iova | (lg - 12));
		n++;
		iova += 1ull << lg;
		virt += 1ull << lg;
		len = len > (1ull << lg) ? len - (1ull << lg) : 0;
		if (n == HH_MAP_MAX_ENTRIES || len == 0) {
			st = hh_cmd(d, d->mbox_in.iova, NULL, n, 0, op);
			if (st != HH_ST_OK) {
				HH_ERR("%s (%u entries): status 0x%02x", hh_op_name(op), n, st);
				return st < 0 ? st : -EIO;
			}
			memset(mb, 0, HH_MAILBOX_SIZE);
			n = 0;
		}
	}
	return 0;
}

/* ---- profile (mthca_make_profile()) -------------------------------------------------- */

/*
 * The layout and the default counts are net_mthca's (mthca_profile.h,
 * included from drivers/net/mthca: one definition, not a copy); the entry
 * sizes are this host's own reading of QUERY_DEV_LIM and hh_hw.h.
 */
struct prof_res {
	const char *name;
	uint64_t size;
	uint64_t *base;
	bool map;		/* backed with host pages at bring-up */
};

static int
make_profile(struct hh_dev *d, bool do_map)
{
	uint64_t *const bases[MTHCA_ICM_NUM] = {
		[MTHCA_ICM_QPC] = &d->qpc_base, [MTHCA_ICM_EEC] = &d->eec_base,
		[MTHCA_ICM_SRQC] = &d->srqc_base, [MTHCA_ICM_CQC] = &d->cqc_base,
		[MTHCA_ICM_EQPC] = &d->eqpc_base, [MTHCA_ICM_EEEC] = &d->eeec_base,
		[MTHCA_ICM_EQC] = &d->eqc_base, [MTHCA_ICM_RDB] = &d->rdb_base,
		[MTHCA_ICM_MCG] = &d->mc_base, [MTHCA_ICM_MPT] = &d->mpt_base,
		[MTHCA_ICM_MTT] = &d->mtt_base, [MTHCA_ICM_UAR_SCR] = &d->uar_scr_base,
		[MTHCA_ICM_UARC] = &d->uarc_base,
	};
	struct prof_res r[MTHCA_ICM_NUM];
	struct mthca_icm_profile p;
	unsigned int i, n = MTHCA_ICM_NUM;

	d->num_qps = mthca_prof_scale(MTHCA_PROF_NUM_QPS, d->rsvd_qps);
	d->num_cqs = MTHCA_PROF_NUM_CQS;
	/* the conformance host also exercises SRQ contexts; the PMD has none */
	d->num_srqs = (d->flags & HH_DEV_LIM_FLAG_SRQ) ? 1024 : 0;
	d->num_mpts = MTHCA_PROF_NUM_MPTS;
	/* scaled down: this host maps every table up front, and registers little */
	d->num_mtt_segs = 4096;
	d->num_mcgs = MTHCA_PROF_NUM_MCGS;
	d->num_uars = d->uar_size / HH_UAR_PAGE;
	memset(&p, 0, sizeof(p));
	p.entry_size[MTHCA_ICM_QPC] = d->qpc_sz;
	p.count[MTHCA_ICM_QPC] = d->num_qps;
	p.entry_size[MTHCA_ICM_EEC] = d->eec_sz;
	p.entry_size[MTHCA_ICM_SRQC] = d->srqc_sz;
	p.count[MTHCA_ICM_SRQC] = d->num_srqs;
	p.entry_size[MTHCA_ICM_CQC] = d->cqc_sz;
	p.count[MTHCA_ICM_CQC] = d->num_cqs;
	p.entry_size[MTHCA_ICM_EQPC] = d->eqpc_sz;
	p.count[MTHCA_ICM_EQPC] = d->num_qps;
	p.entry_size[MTHCA_ICM_EEEC] = d->eeec_sz;
	p.entry_size[MTHCA_ICM_EQC] = d->eqc_sz;
	p.count[MTHCA_ICM_EQC] = 32;
	p.entry_size[MTHCA_ICM_RDB] = 32;
	p.count[MTHCA_ICM_RDB] = (uint64_t)d->num_qps * MTHCA_PROF_RDB_PER_QP;
	p.entry_size[MTHCA_ICM_MCG] = HH_MGM_ENTRY_SIZE;
	p.count[MTHCA_ICM_MCG] = d->num_mcgs;
	p.entry_size[MTHCA_ICM_MPT] = d->mpt_sz;
	p.count[MTHCA_ICM_MPT] = d->num_mpts;
	p.entry_size[MTHCA_ICM_MTT] = HH_MTT_SEG_SIZE;
	p.count[MTHCA_ICM_MTT] = d->num_mtt_segs;
	p.entry_size[MTHCA_ICM_UAR_SCR] = d->uar_scr_sz;
	p.count[MTHCA_ICM_UAR_SCR] = d->num_uars;
	p.entry_size[MTHCA_ICM_UARC] = d->uarc_size;
	p.count[MTHCA_ICM_UARC] = d->num_uars;
	mthca_icm_layout(&p, 4096);	/* mthca_make_profile(): at least a page */
	for (i = 0; i < n; i++) {
		enum mthca_icm_table t = p.order[i];

		*bases[t] = p.base[t];
		r[i].name = mthca_icm_table_name(t);
		r[i].size = p.size[t];
		r[i].base = bases[t];
		r[i].map = mthca_icm_table_backed(t) ||
			   (t == MTHCA_ICM_SRQC && d->num_srqs != 0);
	}
	if (d->max_icm != 0 && p.total > d->max_icm) {
		HH_ERR("profile needs %llu bytes of ICM, device allows %llu",
		       (unsigned long long)p.total, (unsigned long long)d->max_icm);
		return -ENOMEM;
	}
	d->icm_total = p.total;
	if (!do_map)
		return 0;

	/* back every context table now (Linux maps on demand; mthca_alloc_icm_table()) */
	for (i = 0; i < n; i++) {
		struct hh_buf b;
		uint64_t sz = r[i].size;
		int ret;

		if (!r[i].map)
			continue;
		if (r[i].base == &d->eqc_base)
			sz = 4096;	/* mthca_map_eq_icm(): one page */
		ret = hh_dma_alloc(d, sz, sz < (1u << 18) ? sz : (1u << 18), &b);
		if (ret != 0)
			return ret;
		ret = map_pages(d, HH_OP_MAP_ICM, *r[i].base, b.iova, sz);
		if (ret != 0)
			return ret;
		if (r[i].base == &d->mtt_base)
			d->mtt_host = b.va;
		HH_LOG("ICM %-7s 0x%09llx + 0x%llx -> iova 0x%llx", r[i].name,
		       (unsigned long long)*r[i].base, (unsigned long long)sz,
		       (unsigned long long)b.iova);
	}
	return 0;
}

static int
query_fw(struct hh_dev *d)
{
	const uint8_t *o = d->mbox_out.va;
	int st = hh_cmd_box(d, HH_OP_QUERY_FW, 0, 0, false, true);

	if (st != HH_ST_OK) {
		HH_ERR("QUERY_FW: status 0x%02x", st);
		return -EIO;
	}
	d->fw_pages = hh_get16(o, HH_QFW_FW_PAGES);
	d->fw_ver = hh_get64(o, HH_QFW_VER) & 0xffffffffffffull;
	d->log_max_cmds = hh_get8(o, HH_QFW_LOG_MAX_CMDS);
	d->clr_int_base = hh_get64(o, HH_QFW_CLR_INT_BASE);
	d->catas_base = hh_get64(o, HH_QFW_CATAS_BASE);
	d->catas_size = hh_get32(o, HH_QFW_CATAS_SIZE);
	d->eq_arm_base = hh_get64(o, HH_QFW_EQ_ARM_BASE);
	d->eq_set_ci_base = hh_get64(o, HH_QFW_EQ_SET_CI_BASE);
	return 0;
}

static int
query_dev_lim(struct hh_dev *d)
{
	const uint8_t *o = d->mbox_out.va;

	CHECK_ST(hh_cmd_box(d, HH_OP_QUERY_DEV_LIM, 0, 0, false, true), "QUERY_DEV_LIM");
	d->rsvd_qps = 1u << (hh_get8(o, HH_QDL_RSVD_QP) & 0x0f);
	d->rsvd_srqs = 1u << (hh_get8(o, HH_QDL_RSVD_SRQ) >> 4);
	d->rsvd_cqs = 1u << (hh_get8(o, HH_QDL_RSVD_CQ) & 0x0f);
	d->rsvd_eqs = 1u << (hh_get8(o, HH_QDL_RSVD_EQ) & 0x0f);
	d->rsvd_mrws = 1u << (hh_get8(o, HH_QDL_RSVD_MRW) & 0x0f);
	/* mthca_QUERY_DEV_LIM(): log of reserved MTT entries, 8 entries per segment */
	d->rsvd_mtt_segs = ((1u << (hh_get8(o, HH_QDL_RSVD_MTT) >> 4)) * 8 + HH_MTT_SEG_SIZE - 1) /
			   HH_MTT_SEG_SIZE;
	d->rsvd_uars = hh_get8(o, HH_QDL_RSVD_UAR) >> 4;
	d->rsvd_mgms = hh_get8(o, HH_QDL_RSVD_MGM) & 0x0f;
	d->rsvd_pds = hh_get8(o, HH_QDL_RSVD_PD) >> 4;
	d->log_max_qp_sz = hh_get8(o, HH_QDL_LOG_MAX_QP_SZ);
	d->mtu_cap = hh_get8(o, HH_QDL_MTU_WIDTH) >> 4;
	d->width_cap = hh_get8(o, HH_QDL_MTU_WIDTH) & 0x0f;
	d->vl_cap = hh_get8(o, HH_QDL_VL_PORTS) >> 4;
	d->num_ports = hh_get8(o, HH_QDL_VL_PORTS) & 0x0f;
	d->gid_len = 1u << (hh_get8(o, HH_QDL_LOG_GID) & 0x0f);
	d->pkey_len = 1u << (hh_get8(o, HH_QDL_LOG_PKEY) & 0x0f);
	d->flags = hh_get32(o, HH_QDL_FLAGS);
	d->uar_size = 1u << ((hh_get8(o, HH_QDL_UAR_SZ) & 0x3f) + 20);
	d->eec_sz = hh_get16(o, HH_QDL_EEC_SZ);
	d->qpc_sz = hh_get16(o, HH_QDL_QPC_SZ);
	d->eeec_sz = hh_get16(o, HH_QDL_EEEC_SZ);
	d->eqpc_sz = hh_get16(o, HH_QDL_EQPC_SZ);
	d->eqc_sz = hh_get16(o, HH_QDL_EQC_SZ);
	d->cqc_sz = hh_get16(o, HH_QDL_CQC_SZ);
	d->srqc_sz = hh_get16(o, HH_QDL_SRQC_SZ);
	d->uar_scr_sz = hh_get16(o, HH_QDL_UAR_SCR_SZ);
	d->mpt_sz = hh_get16(o, HH_QDL_MPT_SZ);
	d->max_icm = hh_get64(o, HH_QDL_MAX_ICM);
	/* mthca_QUERY_DEV_LIM() mthca_dev_lim checks */
	if ((1u << hh_get8(o, HH_QDL_MIN_PAGE)) > 4096 || d->num_ports == 0 || d->num_ports > 2 ||
	    d->uar_size > d->bar2_len) {
		HH_ERR("QUERY_DEV_LIM: min page 2^%u, %u ports, UAR area %u vs BAR2 %zu",
		       hh_get8(o, HH_QDL_MIN_PAGE), d->num_ports, d->uar_size, d->bar2_len);
		return -ENODEV;
	}
	if (32 * d->eqc_sz > 4096) {
		HH_ERR("QUERY_DEV_LIM: EQ context of %u bytes: 32 do not fit a page", d->eqc_sz);
		return -ENODEV;
	}
	return 0;
}

static int
init_hca(struct hh_dev *d)
{
	uint8_t *m = d->mbox_in.va;

	memset(m, 0, HH_IHCA_SIZE);
	hh_put32(m, HH_IHCA_FLAGS2, 1);		/* check port for UD AVs; little-endian host */
	hh_put64(m, HH_IHCA_QPC_BASE, d->qpc_base);
	hh_put8(m, HH_IHCA_LOG_QP, ilog2(d->num_qps));
	hh_put64(m, HH_IHCA_EEC_BASE, d->eec_base);
	hh_put8(m, HH_IHCA_LOG_EEC, 0);
	hh_put64(m, HH_IHCA_SRQC_BASE, d->srqc_base);
	hh_put8(m, HH_IHCA_LOG_SRQ, d->num_srqs ? ilog2(d->num_srqs) : 0);
	hh_put64(m, HH_IHCA_CQC_BASE, d->cqc_base);
	hh_put8(m, HH_IHCA_LOG_CQ, ilog2(d->num_cqs));
	hh_put64(m, HH_IHCA_EQPC_BASE, d->eqpc_base);
	hh_put64(m, HH_IHCA_EEEC_BASE, d->eeec_base);
	hh_put64(m, HH_IHCA_EQC_BASE, d->eqc_base);
	hh_put8(m, HH_IHCA_LOG_EQ, 5);
	hh_put64(m, HH_IHCA_RDB_BASE, d->rdb_base);
	hh_put64(m, HH_IHCA_MC_BASE, d->mc_base);
	hh_put16(m, HH_IHCA_LOG_MC_ENTRY, 8);
	hh_put16(m, HH_IHCA_MC_HASH_SZ, d->num_mcgs / 2);
	hh_put8(m, HH_IHCA_LOG_MC_TABLE, ilog2(d->num_mcgs));
	hh_put64(m, HH_IHCA_MPT_BASE, d->mpt_base);
	hh_put8(m, HH_IHCA_LOG_MPT, ilog2(d->num_mpts));
	hh_put64(m, HH_IHCA_MTT_BASE, d->mtt_base);
	hh_put8(m, HH_IHCA_LOG_UARC, ilog2(d->uarc_size) + 1 - 13);	/* ffs(uarc_size) - 13 */
	hh_put8(m, HH_IHCA_LOG_UAR, ilog2(d->num_uars));
	hh_put8(m, HH_IHCA_UAR_PAGE_SZ, 0);
	hh_put64(m, HH_IHCA_UAR_SCR_BASE, d->uar_scr_base);
	hh_put64(m, HH_IHCA_UARC_BASE, d->uarc_base);
	CHECK_ST(hh_cmd(d, d->mbox_in.iova, NULL, 0, 0, HH_OP_INIT_HCA), "INIT_HCA");
	return 0;
}

int
hh_bringup(struct hh_dev *d)
{
	struct hh_buf fw, aux, dbr;
	uint64_t out;
	int st, ret;

	/* Linux: uarc_size 256 KiB (mthca_main.c); iPXE: one page (arbel_alloc_icm()) */
	d->uarc_size = d->style == HH_STYLE_IPXE ? HH_UAR_PAGE : HH_UARC_SIZE;
	ret = query_fw(d);
	if (ret != 0)
		return ret;
	/* mthca_ENABLE_LAM(): a mem-free device has no local attached memory */
	st = hh_cmd_box(d, HH_OP_ENABLE_LAM, 0, 0, false, true);
	if (st != HH_ST_LAM_NOT_PRE) {
		HH_ERR("ENABLE_LAM: status 0x%02x, expected 0x22 (LAM_NOT_PRE)", st);
		return -EIO;
	}
	if (d->fw_pages == 0) {
		HH_ERR("QUERY_FW: firmware area of 0 pages");
		return -EIO;
	}
	ret = hh_dma_alloc(d, (size_t)d->fw_pages * 4096, 4096, &fw);
	if (ret != 0)
		return ret;
	ret = map_pages(d, HH_OP_MAP_FA, 0, fw.iova, fw.len);
	if (ret != 0)
		return ret;
	CHECK_ST(hh_cmd(d, 0, NULL, 0, 0, HH_OP_RUN_FW), "RUN_FW");
	ret = query_dev_lim(d);
	if (ret != 0)
		return ret;
	ret = make_profile(d, false);
	if (ret != 0)
		return ret;
	out = 0;
	CHECK_ST(hh_cmd(d, d->icm_total, &out, 0, 0, HH_OP_SET_ICM_SIZE), "SET_ICM_SIZE");
	d->aux_pages = (uint32_t)out;
	if (d->aux_pages != 0) {
		ret = hh_dma_alloc(d, (size_t)d->aux_pages * 4096, 4096, &aux);
		if (ret != 0)
			return ret;
		ret = map_pages(d, HH_OP_MAP_ICM_AUX, 0, aux.iova, aux.len);
		if (ret != 0)
			return ret;
	}
	ret = make_profile(d, true);
	if (ret != 0)
		return ret;
	ret = init_hca(d);
	if (ret != 0)
		return ret;
	CHECK_ST(hh_cmd_box(d, HH_OP_QUERY_ADAPTER, 0, 0, false, true), "QUERY_ADAPTER");
	d->inta_pin = hh_get8(d->mbox_out.va, HH_QAD_INTA_PIN);

	/*
	 * The driver's UAR: Linux takes one from mthca_uar_alloc(); iPXE the
	 * first unreserved one (arbel_create_cq(): usr_page = reserved_uars).
	 */
	d->uar = d->style == HH_STYLE_IPXE ? d->rsvd_uars : d->rsvd_uars + 1;
	ret = hh_dma_alloc(d, 4096, 4096, &dbr);
	if (ret != 0)
		return ret;
	d->dbr = dbr;
	ret = map_pages(d, HH_OP_MAP_ICM, d->uarc_base + (uint64_t)d->uar * d->uarc_size,
			dbr.iova, 4096);
	if (ret != 0)
		return ret;
	d->next_dbr = 0;
	/* iPXE uses one PD for everything, ARBEL_GLOBAL_PD */
	d->nuarpg = 0;
	d->pd = d->style == HH_STYLE_IPXE ? HH_IPXE_GLOBAL_PD : d->rsvd_pds;
	d->next_mpt = d->rsvd_mrws;
	d->next_mtt_seg = d->rsvd_mtt_segs;
	ret = hh_mr_phys(d, &d->ntmr);
	if (ret != 0)
		return ret;
	return 0;
}

/* ---- memory regions (mthca_mr.c) -------------------------------------------- */

static int
sw2hw_mpt(struct hh_dev *d, struct hh_mr *mr, uint32_t flags, uint64_t start, uint64_t len,
	  uint64_t mtt_addr)
{
	uint8_t *m = d->mbox_in.va;

	memset(m, 0, HH_MPT_SIZE);
	hh_put32(m, HH_MPT_FLAGS, HH_MPT_F_SW_OWNS | HH_MPT_F_MIO | HH_MPT_F_REGION | flags);
	hh_put32(m, HH_MPT_PAGE_SZ, 0);		/* 4 KiB per MTT entry */
	hh_put32(m, HH_MPT_KEY, hh_key_to_mkey(mr->lkey));
	hh_put32(m, HH_MPT_PD, d->pd);
	hh_put64(m, HH_MPT_START, start);
	hh_put64(m, HH_MPT_LEN, len);
	hh_put64(m, HH_MPT_MTT_ADDR, mtt_addr);
	CHECK_ST(hh_cmd(d, d->mbox_in.iova, NULL, mr->index & (d->num_mpts - 1), 0,
			HH_OP_SW2HW_MPT), "SW2HW_MPT");
	return 0;
}

int
hh_mr_phys(struct hh_dev *d, struct hh_mr *mr)
{
	memset(mr, 0, sizeof(*mr));
	mr->index = d->next_mpt++;
	/* arbel_setup_mpt(): memory key = index | 0x77000000 */
	mr->lkey = hh_index_to_key(mr->index |
				   (d->style == HH_STYLE_IPXE ? HH_IPXE_MKEY_PREFIX : 0));
	return sw2hw_mpt(d, mr, HH_MPT_F_PHYSICAL | HH_MPT_F_LOCAL_READ | HH_MPT_F_LOCAL_WRITE,
			 0, ~0ull, 0);
}

int
hh_mr_mtt(struct hh_dev *d, struct hh_mr *mr, const struct hh_buf *b, uint32_t access)
{
	uint32_t pages = (b->len + 4095) / 4096, segs = 1, i;

	memset(mr, 0, sizeof(*mr));
	while (segs * 8 < pages)
		segs <<= 1;
	/* buddy-aligned run of segments, as mthca_alloc_mtt hands out */
	d->next_mtt_seg = (d->next_mtt_seg + segs - 1) & ~(segs - 1);
	if (d->next_mtt_seg + segs > d->num_mtt_segs)
		return -ENOSPC;
	mr->first_seg = d->next_mtt_seg;
	d->next_mtt_seg += segs;
	mr->index = d->next_mpt++;
	mr->lkey = hh_index_to_key(mr->index);
	mr->buf = *b;
	/* mthca_arbel_write_mtt_seg(): the CPU writes MTT entries straight into ICM */
	for (i = 0; i < pages; i++)
		hh_put64(d->mtt_host, mr->first_seg * HH_MTT_SEG_SIZE + i * 8,
			 (b->iova + (uint64_t)i * 4096) | HH_MTT_PRESENT);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return sw2hw_mpt(d, mr, access | HH_MPT_F_LOCAL_READ, 0, b->len,
			 d->mtt_base + (uint64_t)mr->first_seg * HH_MTT_SEG_SIZE);
}

/* ---- doorbell records (mthca_alloc_db()) -------------------------------------------- */

/*
 * The UAR page of queue @p key (a QPN, or CQN | HH_UARPG_CQ) in *pg: a
 * page of its own, so that no other queue's doorbell can overwrite its
 * doorbell between two polls of the model (mthca_hw.rst, "Doorbells").
 * Its first UARC page is mapped for the records. Page 0 is the driver
 * UAR. 0 or a negative errno.
 */
int
hh_uar_get(struct hh_dev *d, uint32_t key, uint32_t *pg)
{
	struct hh_uarpg *u;
	unsigned int i;
	int ret;

	for (i = 1; i < d->nuarpg; i++)
		if (d->uarpg[i].key == key) {
			d->uarpg[i].next_dbr = 0;
			*pg = i;
			return 0;
		}
	if (d->nuarpg == 0) {
		d->uarpg[0] = (struct hh_uarpg){ .key = UINT32_MAX, .uar = d->uar, .dbr = d->dbr };
		d->nuarpg = 1;
	}
	if (d->nuarpg >= HH_MAX_UARPG || d->uar + HH_UARPG_FIRST + d->nuarpg >= d->num_uars) {
		HH_ERR("no UAR page left for queue 0x%x", key);
		return -ENOSPC;
	}
	u = &d->uarpg[d->nuarpg];
	u->key = key;
	u->uar = d->uar + HH_UARPG_FIRST + d->nuarpg;
	u->next_dbr = 0;
	ret = hh_dma_alloc(d, 4096, 4096, &u->dbr);
	if (ret != 0)
		return ret;
	ret = map_pages(d, HH_OP_MAP_ICM, d->uarc_base + (uint64_t)u->uar * d->uarc_size,
			u->dbr.iova, 4096);
	if (ret != 0)
		return ret;
	*pg = d->nuarpg++;
	return 0;
}

/*
 * The UAR page of a new queue: Linux style, a page of its own
 * (hh_uar_get); iPXE style, the one driver UAR, as arbel.c has only one
 * (page 0). Its UAR index in *uar.
 */
static int
queue_uar(struct hh_dev *d, uint32_t key, uint32_t *pg, uint32_t *uar)
{
	int ret;

	if (d->style == HH_STYLE_IPXE) {
		*pg = 0;
		*uar = d->uar;
		return 0;
	}
	ret = hh_uar_get(d, key, pg);
	if (ret == 0)
		*uar = d->uarpg[*pg].uar;
	return ret;
}

/* A record in UAR page @p pg; the handle is pg << 16 | index (index: QPC/CQC field). */
uint32_t
hh_dbr_alloc(struct hh_dev *d, uint32_t pg, uint32_t qn, enum hh_dbr_type type)
{
	struct hh_uarpg *u = &d->uarpg[pg];
	uint32_t idx = pg == 0 ? d->next_dbr++ : u->next_dbr++;
	uint8_t *r = (pg == 0 ? d->dbr.va : u->dbr.va) + idx * HH_DBR_SIZE;

	/* mthca_alloc_db(): identity word (qn << 8) | (type << 5), counter 0 */
	hh_put32(r, 0, 0);
	hh_put32(r, 4, (qn << 8) | ((uint32_t)type << 5));
	return (pg << 16) | idx;
}

uint8_t *
hh_dbr(struct hh_dev *d, uint32_t h)
{
	uint8_t *page = (h >> 16) == 0 ? d->dbr.va : d->uarpg[h >> 16].dbr.va;

	return page + (h & 0xffff) * HH_DBR_SIZE;
}

/*
 * The MR an EQ, CQ or (Linux) QP buffer is reached through. Linux
 * registers each buffer as an MTT-translated MR that starts at 0
 * (mthca_create_eq(), mthca_alloc_cq_buf(), mthca_alloc_wqe_buf()); iPXE
 * gives the bus address itself with its one physical MPT
 * (arbel_create_eq(), arbel_create_cq()).
 */
static int
queue_mr(struct hh_dev *d, struct hh_mr *mr, const struct hh_buf *b)
{
	if (d->style == HH_STYLE_IPXE) {
		*mr = d->ntmr;
		return 0;
	}
	return hh_mr_mtt(d, mr, b, HH_MPT_F_LOCAL_WRITE);
}

/* The start address a context names for buffer @p b. */
static uint64_t
queue_start(const struct hh_dev *d, const struct hh_buf *b)
{
	return d->style == HH_STYLE_IPXE ? b->iova : 0;
}

/* ---- event queues (mthca_eq.c) -------------------------------------- */

int
hh_eq_create(struct hh_dev *d, struct hh_eq *eq, uint32_t eqn, uint32_t nent, uint8_t intr)
{
	uint8_t *m = d->mbox_in.va;
	uint32_t i;
	int ret;

	eq->eqn = eqn;
	eq->nent = nent;
	eq->cons = 0;
	ret = hh_dma_alloc(d, ((size_t)nent * HH_EQE_SIZE + 4095) & ~4095ul, 4096, &eq->buf);
	if (ret != 0)
		return ret;
	for (i = 0; i < nent; i++)
		hh_put8(eq->buf.va, i * HH_EQE_SIZE + HH_EQE_OWNER, HH_OWNER_HW);
	ret = queue_mr(d, &eq->mr, &eq->buf);
	if (ret != 0)
		return ret;
	memset(m, 0, HH_EQC_SIZE);
	hh_put32(m, HH_EQC_FLAGS, HH_EQC_FLAGS_ARBEL_INIT);
	hh_put64(m, HH_EQC_START, queue_start(d, &eq->buf));
	hh_put32(m, HH_EQC_LOGSIZE, ilog2(nent) << 24);
	hh_put8(m, HH_EQC_INTR, intr);
	/* the EQ MR is in d->pd; the EQC must name the same PD (PRM eqc.pd) */
	hh_put32(m, HH_EQC_PD, d->pd + ((d->bugs & HH_BUG_EQ_PD) ? 1 : 0));
	hh_put32(m, HH_EQC_LKEY, eq->mr.lkey);
	CHECK_ST(hh_cmd(d, d->mbox_in.iova, NULL, eqn, 0, HH_OP_SW2HW_EQ), "SW2HW_EQ");
	return 0;
}

int
hh_eq_destroy(struct hh_dev *d, struct hh_eq *eq)
{
	CHECK_ST(hh_cmd_box(d, HH_OP_HW2SW_EQ, 0, eq->eqn, false, true), "HW2SW_EQ");
	return 0;
}

const uint8_t *
hh_eq_next(struct hh_dev *d, struct hh_eq *eq)
{
	static uint8_t copy[HH_EQE_SIZE];
	uint8_t *e = eq->buf.va + (size_t)(eq->cons & (eq->nent - 1)) * HH_EQE_SIZE;

	if (__atomic_load_n(&e[HH_EQE_OWNER], __ATOMIC_ACQUIRE) & HH_OWNER_HW)
		return NULL;
	memcpy(copy, e, sizeof(copy));
	e[HH_EQE_OWNER] = HH_OWNER_HW;
	eq->cons++;
	/* arbel_set_eq_ci(): barrier, then the full (unmasked) consumer counter */
	hh_bar0_write32(d, bar0_off(d, d->eq_set_ci_base) + eq->eqn * 8, eq->cons);
	return copy;
}

void
hh_eq_arm(struct hh_dev *d, struct hh_eq *eq)
{
	hh_bar0_write32(d, bar0_off(d, d->eq_arm_base) + 4, 1u << eq->eqn);
}

int
hh_setup_eqs(struct hh_dev *d)
{
	struct pollfd pfd;
	const uint8_t *eqe;
	uint64_t v;
	int i, ret;

	/* mthca_init_eq_table(): COMP, ASYNC, CMD in that order, EQNs from reserved_eqs */
	for (i = 0; i < HH_NUM_EQ; i++) {
		ret = hh_eq_create(d, &d->eq[i], d->rsvd_eqs + i, 64, 128 + i);
		if (ret != 0)
			return ret;
		/* MSI-X vector i, EQC intr 0x80 | i (mthca_init_eq_table()) */
		d->eq[i].irq_fd = d->get_irq != NULL ? d->get_irq(d->idle_arg, (uint32_t)i) :
				  hh_get_irq(d, (uint32_t)i);
		if (d->eq[i].irq_fd < 0) {
			HH_ERR("GET_IRQ for EQ %u: %s", d->eq[i].eqn, strerror(-d->eq[i].irq_fd));
			return d->eq[i].irq_fd;
		}
	}
	CHECK_ST(hh_cmd(d, HH_EQ_ASYNC_MASK, NULL, d->eq[HH_EQ_ASYNC].eqn, 0, HH_OP_MAP_EQ),
		 "MAP_EQ async");
	CHECK_ST(hh_cmd(d, HH_EQ_CMD_MASK, NULL, d->eq[HH_EQ_CMD].eqn, 0, HH_OP_MAP_EQ),
		 "MAP_EQ cmd");
	for (i = 0; i < HH_NUM_EQ; i++)
		hh_eq_arm(d, &d->eq[i]);
	d->eq_up = true;

	/* mthca_setup_hca(): switch to events, NOP must complete with an EQE
	 * and an interrupt within 100 ms */
	d->events = true;
	ret = hh_cmd(d, 0, NULL, 0x1f, 0, HH_OP_NOP);
	if (ret != HH_ST_OK) {
		HH_ERR("NOP in event mode: %d", ret);
		return -EIO;
	}
	pfd.fd = d->eq[HH_EQ_CMD].irq_fd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 100) != 1 || read(pfd.fd, &v, sizeof(v)) != sizeof(v)) {
		HH_ERR("NOP: no interrupt on the command EQ's eventfd within 100 ms");
		return -EIO;
	}
	while ((eqe = hh_eq_next(d, &d->eq[HH_EQ_ASYNC])) != NULL)
		HH_LOG("async event 0x%02x during bring-up", hh_get8(eqe, HH_EQE_TYPE));

	/* __mthca_modify_qp(): special QPs after the reserved range, rounded up to even */
	d->sqp_start = (d->rsvd_qps + 1) & ~1u;
	CHECK_ST(hh_cmd(d, 0, NULL, d->sqp_start, 0, HH_OP_CONF_SPECIAL_QP), "CONF_SPECIAL_QP 0");
	CHECK_ST(hh_cmd(d, 0, NULL, d->sqp_start + 2, 1, HH_OP_CONF_SPECIAL_QP),
		 "CONF_SPECIAL_QP 1");
	return 0;
}

/* ---- completion queues (mthca_cq.c) ------------------------------------------- */

int
hh_cq_create(struct hh_dev *d, struct hh_cq *cq, uint32_t cqn, uint32_t nent)
{
	return hh_cq_create_on(d, cq, cqn, nent, d->eq[HH_EQ_COMP].eqn);
}

int
hh_cq_create_on(struct hh_dev *d, struct hh_cq *cq, uint32_t cqn, uint32_t nent,
		uint32_t comp_eqn)
{
	uint8_t *m = d->mbox_in.va;
	uint32_t i, pg;
	int ret;

	memset(cq, 0, sizeof(*cq));
	cq->cqn = cqn;
	cq->nent = nent;
	cq->arm_sn = 1;
	ret = hh_dma_alloc(d, ((size_t)nent * HH_CQE_SIZE + 4095) & ~4095ul, 4096, &cq->buf);
	if (ret != 0)
		return ret;
	for (i = 0; i < nent; i++)
		hh_put8(cq->buf.va, i * HH_CQE_SIZE + HH_CQE_OWNER, HH_OWNER_HW);
	ret = queue_mr(d, &cq->mr, &cq->buf);
	if (ret != 0)
		return ret;
	ret = queue_uar(d, cqn | HH_UARPG_CQ, &pg, &cq->uar);
	if (ret != 0)
		return ret;
	cq->set_ci_db = hh_dbr_alloc(d, pg, cqn, HH_DBR_CQ_SET_CI);
	cq->arm_db = hh_dbr_alloc(d, pg, cqn, HH_DBR_CQ_ARM);
	memset(m, 0, HH_CQC_SIZE);
	hh_put32(m, HH_CQC_FLAGS, HH_CQC_FLAGS_INIT);
	hh_put64(m, HH_CQC_START, queue_start(d, &cq->buf));
	hh_put32(m, HH_CQC_LOGSIZE_UAR, (ilog2(nent) << 24) | cq->uar);
	hh_put32(m, HH_CQC_ERR_EQN, d->eq[HH_EQ_ASYNC].eqn);
	/* c_eqn outside 0..63: no completion events (PRM completion_queue_context.c_eqn) */
	hh_put32(m, HH_CQC_COMP_EQN, (d->bugs & HH_BUG_CQ_NO_EQN) ? 64 : comp_eqn);
	/* the CQ MR is in d->pd: "must be the same PD of the CQ L_Key" (PRM) */
	hh_put32(m, HH_CQC_PD, d->pd + ((d->bugs & HH_BUG_CQ_PD) ? 1 : 0));
	hh_put32(m, HH_CQC_LKEY, cq->mr.lkey);
	hh_put32(m, HH_CQC_CQN, cqn);
	hh_put32(m, HH_CQC_CI_DB, cq->set_ci_db & 0xffff);
	hh_put32(m, HH_CQC_STATE_DB, cq->arm_db & 0xffff);
	CHECK_ST(hh_cmd(d, d->mbox_in.iova, NULL, cqn, 0, HH_OP_SW2HW_CQ), "SW2HW_CQ");
	return 0;
}

/* ---- queue pairs (mthca_alloc_wqe_buf(), mthca_alloc_qp_common()) ------ */


/* Chain send WQE i to i + 1 and receive WQE i to i + 1; empty scatter lists. */
static void
link_rings(struct hh_qp *qp)
{
	uint32_t i, j;

	for (i = 0; i < qp->sq_max; i++)
		hh_put32(hh_sq_wqe(qp, i), HH_WQE_NDA_OP, hh_sq_addr(qp, i + 1));
	for (i = 0; i < qp->rq_max; i++) {
		uint8_t *w = hh_rq_wqe(qp, i);

		hh_put32(w, HH_WQE_NDA_OP, hh_rq_addr(qp, i + 1));
		hh_put32(w, HH_WQE_EE_NDS, 2);		/* 1 + max_gs */
		for (j = 16; j < (1u << qp->rq_shift); j += HH_DSEG_SIZE)
			hh_put32(w, j + HH_DSEG_LKEY, HH_INVAL_LKEY);
	}
}

/*
 * Linux: one buffer, the RQ first and the SQ after it, behind an MR at 0
 * (mthca_alloc_wqe_buf()): WQE addresses are offsets, wqe_base 0.
 */
static int
wqe_buf_linux(struct hh_dev *d, struct hh_qp *qp)
{
	uint32_t size;
	int ret;

	qp->send_off = ((qp->rq_max << qp->rq_shift) + (1u << qp->sq_shift) - 1) &
		       ~((1u << qp->sq_shift) - 1);
	size = (qp->send_off + (qp->sq_max << qp->sq_shift) + 4095) & ~4095u;
	ret = hh_dma_alloc(d, size, 4096, &qp->buf);
	if (ret != 0)
		return ret;
	qp->rq_va = qp->buf.va;
	qp->sq_va = qp->buf.va + qp->send_off;
	qp->rq_addr = 0;
	qp->sq_addr = qp->send_off;
	qp->wqe_base = 0;
	link_rings(qp);
	ret = hh_mr_mtt(d, &qp->mr, &qp->buf, HH_MPT_F_LOCAL_WRITE);
	qp->wqe_lkey = qp->mr.lkey;
	return ret;
}

/*
 * iPXE: the SQ and the RQ each in its own buffer, aligned to one WQE
 * (arbel_create_send_wq(), arbel_create_recv_wq()), at their bus
 * addresses through the physical MPT: wqe_base holds bits 63:32, which
 * both queues must share ("within the same 4GB", arbel_create_qp()).
 */
static int
wqe_buf_ipxe(struct hh_dev *d, struct hh_qp *qp)
{
	int ret;

	qp->send_off = 0;
	ret = hh_dma_alloc(d, (size_t)qp->sq_max << qp->sq_shift, 1u << qp->sq_shift, &qp->buf);
	if (ret == 0)
		ret = hh_dma_alloc(d, (size_t)qp->rq_max << qp->rq_shift, 1u << qp->rq_shift,
				   &qp->rbuf);
	if (ret != 0)
		return ret;
	if ((qp->buf.iova >> 32) != (qp->rbuf.iova >> 32)) {
		HH_ERR("QP 0x%x: SQ and RQ in different 4 GiB regions", qp->qpn);
		return -ENOTSUP;
	}
	qp->sq_va = qp->buf.va;
	qp->rq_va = qp->rbuf.va;
	qp->sq_addr = (uint32_t)qp->buf.iova;
	qp->rq_addr = (uint32_t)qp->rbuf.iova;
	qp->wqe_base = (uint32_t)(qp->buf.iova >> 32);
	qp->wqe_lkey = d->ntmr.lkey;
	link_rings(qp);
	return 0;
}

int
hh_qp_create(struct hh_dev *d, struct hh_qp *qp, uint32_t qpn, uint8_t st, uint8_t port,
	     struct hh_cq *scq, struct hh_cq *rcq, uint32_t depth)
{
	return hh_qp_create_sized(d, qp, qpn, st, port, scq, rcq, depth, depth);
}

int
hh_qp_create_sized(struct hh_dev *d, struct hh_qp *qp, uint32_t qpn, uint8_t st, uint8_t port,
		   struct hh_cq *scq, struct hh_cq *rcq, uint32_t sq_depth, uint32_t rq_depth)
{
	uint32_t pg;
	int ret;

	memset(qp, 0, sizeof(*qp));
	qp->qpn = qpn;
	qp->style = d->style;
	qp->st = st;
	qp->port = port;
	qp->scq = scq;
	qp->rcq = rcq;
	qp->sq_max = sq_depth;
	qp->rq_max = rq_depth;
	qp->rq_shift = 6;			/* 16 + 16 * 1 SGE -> 64 */
	qp->sq_shift = st == HH_QPST_UD ? 7 : 6;	/* UD 16+48+16 -> 128; MLX 16+32+16 -> 64 */
	ret = d->style == HH_STYLE_IPXE ? wqe_buf_ipxe(d, qp) : wqe_buf_linux(d, qp);
	if (ret != 0)
		return ret;
	ret = hh_dma_alloc(d, (size_t)rq_depth * HH_RECV_SLOT, 4096, &qp->data);
	if (ret != 0)
		return ret;
	if (st == HH_QPST_MLX) {
		ret = hh_dma_alloc(d, (size_t)sq_depth * HH_MLX_SLOT, 64, &qp->hdr);
		if (ret != 0)
			return ret;
	}
	ret = queue_uar(d, qpn, &pg, &qp->uar);
	if (ret != 0)
		return ret;
	qp->sq_db = hh_dbr_alloc(d, pg, qpn, HH_DBR_SQ);
	qp->rq_db = hh_dbr_alloc(d, pg, qpn, HH_DBR_RQ);
	return 0;
}

static uint16_t
transition_op(enum hh_qp_state from, enum hh_qp_state to)
{
	if (to == HH_QPS_RESET)
		return HH_OP_2RST;
	if (to == HH_QPS_ERR)
		return HH_OP_2ERR;
	if (from == HH_QPS_RESET && to == HH_QPS_INIT)
		return HH_OP_RST2INIT;
	if (from == HH_QPS_INIT && to == HH_QPS_RTR)
		return HH_OP_INIT2RTR;
	if (from == HH_QPS_RTR && to == HH_QPS_RTS)
		return HH_OP_RTR2RTS;
	return 0;
}

int
hh_qp_modify(struct hh_dev *d, struct hh_qp *qp, enum hh_qp_state from, enum hh_qp_state to,
	     uint16_t pkey_index)
{
	uint16_t op = transition_op(from, to);

	if (op == 0)
		return -EINVAL;
	return hh_qp_cmd(d, qp, op, from, to, pkey_index);
}

/* QPC wqe_base: bits 63:32 of every WQE address (HH_BUG_WQE_BASE: one too high) */
static uint32_t
qp_wqe_base(const struct hh_dev *d, const struct hh_qp *qp)
{
	return qp->wqe_base + ((d->bugs & HH_BUG_WQE_BASE) ? 1 : 0);
}

/* QPC params2: RSC set, so every receive WQE completes (HH_BUG_RSC0: clear) */
static uint32_t
qp_params2(const struct hh_dev *d)
{
	return (d->bugs & HH_BUG_RSC0) ? 0 : HH_QP_PARAMS2_RSC;
}

/* Linux __mthca_modify_qp(): every transition carries the whole context. */
static void
qp_mailbox_linux(struct hh_dev *d, struct hh_qp *qp, uint8_t *m, enum hh_qp_state from,
		 enum hh_qp_state to, uint16_t pkey_index)
{
	uint32_t optmask = 0;

	hh_put32(m, HH_QPM_FLAGS, ((uint32_t)to << 28) | ((uint32_t)qp->st << 16) |
		 (3u << 11) | (1u << 8));
	hh_put8(m, HH_QPM_MTU_MSGMAX, HH_QP_MTU_MSGMAX_UD);
	hh_put8(m, HH_QPM_RQ_SIZE_STRIDE, (ilog2(qp->rq_max) << 3) | (qp->rq_shift - 4));
	hh_put8(m, HH_QPM_SQ_SIZE_STRIDE, (ilog2(qp->sq_max) << 3) | (qp->sq_shift - 4));
	hh_put32(m, HH_QPM_USR_PAGE, qp->uar);
	hh_put32(m, HH_QPM_LOCAL_QPN, qp->qpn);
	if (qp->st == HH_QPST_MLX)
		hh_put32(m, HH_QPM_PRI_PATH, (uint32_t)qp->port << 24);	/* always */
	if (from == HH_QPS_RESET && to == HH_QPS_INIT) {
		optmask |= HH_QP_OPTPAR_PKEY_INDEX | HH_QP_OPTPAR_Q_KEY;
		if (qp->st != HH_QPST_MLX)
			optmask |= HH_QP_OPTPAR_PORT_NUM;
		hh_put32(m, HH_QPM_PRI_PATH, ((uint32_t)qp->port << 24) | (pkey_index & 0x7f));
		hh_put32(m, HH_QPM_QKEY, qp->qkey);
	}
	hh_put32(m, HH_QPM_OPTMASK, optmask);
	hh_put32(m, HH_QPM_PD, d->pd);
	hh_put32(m, HH_QPM_WQE_BASE, qp_wqe_base(d, qp));
	hh_put32(m, HH_QPM_WQE_LKEY, qp->wqe_lkey);
	hh_put32(m, HH_QPM_PARAMS1, (10u << 28) | (9u << 24) | (1u << 14));
	if (to == HH_QPS_RTS)
		hh_put32(m, HH_QPM_NEXT_SEND_PSN, 0);
	hh_put32(m, HH_QPM_CQN_SND, qp->scq->cqn);
	hh_put32(m, HH_QPM_SND_WQE_BASE, qp->sq_addr);
	hh_put32(m, HH_QPM_SND_DB_INDEX, qp->sq_db & 0xffff);
	hh_put32(m, HH_QPM_PARAMS2, qp_params2(d));
	hh_put32(m, HH_QPM_RA_BUFF_INDX,
		 (uint32_t)(d->rdb_base + ((uint64_t)(qp->qpn & (d->num_qps - 1)) * 32 << 2)));
	hh_put32(m, HH_QPM_CQN_RCV, qp->rcq->cqn);
	hh_put32(m, HH_QPM_RCV_WQE_BASE, qp->rq_addr);
	hh_put32(m, HH_QPM_RCV_DB_INDEX, qp->rq_db & 0xffff);
}

/*
 * iPXE arbel_create_qp() / arbel_modify_qp(): RST2INIT carries the whole
 * context except local_qpn, state and Q_Key, with no optparam bits;
 * INIT2RTR only MTU / message size and the RDB index; RTR2RTS only the
 * next send PSN; the Q_Key comes by RTS2RTS with its optparam bit. Any
 * other transition (2ERR) goes with an empty mailbox.
 */
static void
qp_mailbox_ipxe(struct hh_dev *d, struct hh_qp *qp, uint8_t *m, uint16_t op,
		uint16_t pkey_index)
{
	switch (op) {
	case HH_OP_RST2INIT:
		hh_put32(m, HH_QPM_FLAGS, ((uint32_t)qp->st << 16) | (3u << 11) | (1u << 8));
		hh_put8(m, HH_QPM_RQ_SIZE_STRIDE, (ilog2(qp->rq_max) << 3) | (qp->rq_shift - 4));
		hh_put8(m, HH_QPM_SQ_SIZE_STRIDE, (ilog2(qp->sq_max) << 3) | (qp->sq_shift - 4));
		hh_put32(m, HH_QPM_USR_PAGE, d->uar);
		hh_put32(m, HH_QPM_PRI_PATH, ((uint32_t)qp->port << 24) | (pkey_index & 0x7f));
		hh_put32(m, HH_QPM_PD, d->pd);
		hh_put32(m, HH_QPM_WQE_BASE, qp_wqe_base(d, qp));
		hh_put32(m, HH_QPM_WQE_LKEY, qp->wqe_lkey);
		hh_put32(m, HH_QPM_CQN_SND, qp->scq->cqn);
		hh_put32(m, HH_QPM_SND_WQE_BASE, qp->sq_addr);
		hh_put32(m, HH_QPM_SND_DB_INDEX, qp->sq_db);
		hh_put32(m, HH_QPM_PARAMS2, qp_params2(d));
		hh_put32(m, HH_QPM_CQN_RCV, qp->rcq->cqn);
		hh_put32(m, HH_QPM_RCV_WQE_BASE, qp->rq_addr);
		hh_put32(m, HH_QPM_RCV_DB_INDEX, qp->rq_db);
		break;
	case HH_OP_INIT2RTR:
		hh_put8(m, HH_QPM_MTU_MSGMAX, HH_QP_MTU_MSGMAX_IPXE);
		hh_put32(m, HH_QPM_RA_BUFF_INDX, qp->qpn - d->sqp_start);
		break;
	case HH_OP_RTR2RTS:
		hh_put32(m, HH_QPM_NEXT_SEND_PSN, 0);
		break;
	case HH_OP_RTS2RTS:
		hh_put32(m, HH_QPM_OPTMASK, HH_QP_OPTPAR_Q_KEY);
		hh_put32(m, HH_QPM_QKEY, qp->qkey);
		break;
	default:
		break;
	}
}

int
hh_qp_cmd(struct hh_dev *d, struct hh_qp *qp, uint16_t op, enum hh_qp_state from,
	  enum hh_qp_state to, uint16_t pkey_index)
{
	uint8_t *m = d->mbox_in.va;
	uint64_t out;

	if (op == HH_OP_2RST) {
		/* mthca_MODIFY_QP(): no input mailbox; op_mod 3 = do not write the output one */
		out = d->mbox_out.iova;
		return hh_cmd(d, 0, &out, qp->qpn, 3, op);
	}
	memset(m, 0, HH_QPM_SIZE);
	if (d->style == HH_STYLE_IPXE)
		qp_mailbox_ipxe(d, qp, m, op, pkey_index);
	else
		qp_mailbox_linux(d, qp, m, from, to, pkey_index);
	return hh_cmd(d, d->mbox_in.iova, NULL, qp->qpn, 0, op);
}

int
hh_qp_reset(struct hh_dev *d, struct hh_qp *qp)
{
	int st = hh_qp_cmd(d, qp, HH_OP_2RST, HH_QPS_ERR, HH_QPS_RESET, 0);

	if (st != HH_ST_OK) {
		HH_ERR("QP 0x%x 2RST: status 0x%02x", qp->qpn, st);
		return -EIO;
	}
	/* __mthca_modify_qp() to RESET: indices and both doorbell records to 0 */
	qp->sq_head = qp->rq_head = 0;
	hh_put32(hh_dbr(d, qp->sq_db), 0, 0);
	hh_put32(hh_dbr(d, qp->rq_db), 0, 0);
	link_rings(qp);
	return 0;
}

int
hh_init_ib(struct hh_dev *d, uint8_t port)
{
	uint8_t *m = d->mbox_in.va;

	memset(m, 0, HH_IIB_SIZE);
	hh_put32(m, HH_IIB_FLAGS, ((uint32_t)d->mtu_cap << 12) | ((uint32_t)d->width_cap << 8) |
		 ((uint32_t)d->vl_cap << 4));
	hh_put16(m, HH_IIB_MAX_GID, d->gid_len);
	hh_put16(m, HH_IIB_MAX_PKEY, d->pkey_len);
	return hh_cmd(d, d->mbox_in.iova, NULL, port, 0, HH_OP_INIT_IB);
}

int
hh_qp_up(struct hh_dev *d, struct hh_qp *qp, uint16_t pkey_index)
{
	int st;

	st = hh_qp_modify(d, qp, HH_QPS_RESET, HH_QPS_INIT, pkey_index);
	if (st != HH_ST_OK) {
		HH_ERR("QP 0x%x RST2INIT: status 0x%02x", qp->qpn, st);
		return -EIO;
	}
	st = hh_qp_modify(d, qp, HH_QPS_INIT, HH_QPS_RTR, pkey_index);
	if (st != HH_ST_OK) {
		HH_ERR("QP 0x%x INIT2RTR: status 0x%02x", qp->qpn, st);
		return -EIO;
	}
	/* __mthca_modify_qp(): QP0 reaching RTR brings the port up: INIT_IB */
	if (qp->st == HH_QPST_MLX && qp->qpn == d->sqp_start + qp->port - 1) {
		st = hh_init_ib(d, qp->port);
		if (st != HH_ST_OK) {
			HH_ERR("INIT_IB port %u: status 0x%02x", qp->port, st);
			return -EIO;
		}
	}
	st = hh_qp_modify(d, qp, HH_QPS_RTR, HH_QPS_RTS, pkey_index);
	if (st != HH_ST_OK) {
		HH_ERR("QP 0x%x RTR2RTS: status 0x%02x", qp->qpn, st);
		return -EIO;
	}
	if (d->style == HH_STYLE_IPXE) {
		/* arbel_modify_qp(): the Q_Key by RTS2RTS, its optparam bit set */
		st = hh_qp_cmd(d, qp, HH_OP_RTS2RTS, HH_QPS_RTS, HH_QPS_RTS, pkey_index);
		if (st != HH_ST_OK) {
			HH_ERR("QP 0x%x RTS2RTS (Q_Key): status 0x%02x", qp->qpn, st);
			return -EIO;
		}
	}
	return 0;
}

int
hh_mad_ifc(struct hh_dev *d, uint8_t port, const uint8_t *mad, uint8_t *resp,
	   const uint8_t *ext, uint16_t slid, uint8_t op_mod)
{
	uint8_t *m = d->mbox_in.va;
	uint64_t out = d->mbox_out.iova;
	int st;

	memset(m, 0, 512);
	memcpy(m, mad, 256);
	if (ext != NULL)
		memcpy(m + 0x100, ext, 0x100);
	memset(d->mbox_out.va, 0, 256);
	st = hh_cmd(d, d->mbox_in.iova, &out, port | ((uint32_t)slid << 16), op_mod,
		    HH_OP_MAD_IFC);
	if (st == HH_ST_OK)
		memcpy(resp, d->mbox_out.va, 256);
	return st;
}

int
hh_teardown(struct hh_dev *d)
{
	int i, st, bad = 0;

	st = hh_cmd(d, 0, NULL, 1, 0, HH_OP_CLOSE_IB);
	bad |= st != HH_ST_OK;
	st = hh_cmd(d, 0, NULL, 0, 0, HH_OP_CONF_SPECIAL_QP);
	bad |= st != HH_ST_OK;
	st = hh_cmd(d, 0, NULL, 0, 1, HH_OP_CONF_SPECIAL_QP);
	bad |= st != HH_ST_OK;
	d->events = false;
	if (d->eq_up) {
		hh_cmd(d, HH_EQ_ASYNC_MASK, NULL, (1u << 31) | d->eq[HH_EQ_ASYNC].eqn, 0,
		       HH_OP_MAP_EQ);
		hh_cmd(d, HH_EQ_CMD_MASK, NULL, (1u << 31) | d->eq[HH_EQ_CMD].eqn, 0, HH_OP_MAP_EQ);
		for (i = HH_NUM_EQ - 1; i >= 0; i--) {
			st = hh_cmd_box(d, HH_OP_HW2SW_EQ, 0, d->eq[i].eqn, false, true);
			bad |= st != HH_ST_OK;
		}
	}
	st = hh_cmd(d, 0, NULL, 0, 0, HH_OP_CLOSE_HCA);
	bad |= st != HH_ST_OK;
	st = hh_cmd(d, 0, NULL, 0, 0, HH_OP_UNMAP_ICM_AUX);
	bad |= st != HH_ST_OK;
	st = hh_cmd(d, 0, NULL, 0, 0, HH_OP_UNMAP_FA);
	bad |= st != HH_ST_OK;
	return bad ? -EIO : 0;
}
