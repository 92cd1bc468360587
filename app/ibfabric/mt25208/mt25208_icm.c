/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * MT25208 model: ICM, the second address translation of a mem-free HCA
 * (the first, bus address -> host pointer, is mt25208_dma.c's):
 * HCA-virtual context memory -> bus address, page by page, as the driver
 * mapped it with MAP_ICM (mthca_map_cmd(), mthca_alloc_icm_table()). The
 * firmware area (MAP_FA) and aux area (MAP_ICM_AUX) are only counted: the
 * model's firmware keeps its private state in its own memory.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fab_log.h"
#include "fab_node.h"
#include "mt25208.h"
#include "mt25208_mbox.h"

/* ------------------------------------------------------------------ */
/* ICM                                                                 */

void *
mt25208_icm_ptr(struct mt25208 *dev, uint64_t va, size_t len)
{
	struct mt25208_icm_page *pg;
	uint64_t pn = va >> MT_ICM_PAGE_SHIFT;
	size_t off = va & (MT_ICM_PAGE_SIZE - 1);

	if (pn >= dev->icm_npages || off + len > MT_ICM_PAGE_SIZE)
		return NULL;
	pg = &dev->icm[pn];
	if (pg->pa == 0)
		return NULL;
	if (pg->host == NULL) {
		pg->host = mt25208_dma_ptr(dev, pg->pa & ~1ull, MT_ICM_PAGE_SIZE, true);
		if (pg->host == NULL)
			return NULL;
	}
	return pg->host + off;
}

static void *
icm_obj(struct mt25208 *dev, uint64_t base, uint8_t log_num, uint32_t index, size_t sz)
{
	if (dev->fw_state != MT25208_FW_HCA)
		return NULL;
	index &= (1u << log_num) - 1;
	return mt25208_icm_ptr(dev, base + (uint64_t)index * sz, sz);
}

void *
mt25208_qpc(struct mt25208 *dev, uint32_t qpn)
{
	return icm_obj(dev, dev->cfg.qpc_base, dev->cfg.log_qp, qpn, MT25208_QPC_SZ);
}

void *
mt25208_eqpc(struct mt25208 *dev, uint32_t qpn)
{
	return icm_obj(dev, dev->cfg.eqpc_base, dev->cfg.log_qp, qpn, MT25208_EQPC_SZ);
}

void *
mt25208_cqc(struct mt25208 *dev, uint32_t cqn)
{
	return icm_obj(dev, dev->cfg.cqc_base, dev->cfg.log_cq, cqn, MT25208_CQC_SZ);
}

void *
mt25208_cq_get(struct mt25208 *dev, uint32_t cqn)
{
	uint32_t ix;

	if (dev->fw_state != MT25208_FW_HCA || dev->cq_hw == NULL)
		return NULL;
	ix = cqn & ((1u << dev->cfg.log_cq) - 1);
	if (!(dev->cq_hw[ix / 8] & (1u << (ix % 8))))
		return NULL;
	return mt25208_cqc(dev, cqn);
}

void *
mt25208_mpt(struct mt25208 *dev, uint32_t index)
{
	return icm_obj(dev, dev->cfg.mpt_base, dev->cfg.log_mpt, index, MT25208_MPT_SZ);
}

void *
mt25208_db_rec(struct mt25208 *dev, uint32_t uar, uint32_t index)
{
	uint64_t uarc_sz = (uint64_t)MT_ICM_PAGE_SIZE << dev->cfg.log_uarc_pages;

	if (dev->fw_state != MT25208_FW_HCA || uar >= (1u << dev->cfg.log_uar) ||
	    (uint64_t)index * MT_DB_REC_SIZE >= uarc_sz)
		return NULL;
	return mt25208_icm_ptr(dev, dev->cfg.uarc_base + uar * uarc_sz +
			       (uint64_t)index * MT_DB_REC_SIZE, MT_DB_REC_SIZE);
}

/* ------------------------------------------------------------------ */
/* Page-list commands (mthca_map_cmd())                                      */

enum icm_list_kind { LIST_FA, LIST_AUX, LIST_ICM };

/*
 * Every 4 KiB page of a block must be DMA-reachable; the block may span
 * windows that are adjacent in bus address space (an IOMMU maps pages,
 * not the host's registration units).
 */
static bool
dma_range_ok(struct mt25208 *dev, uint64_t pa, uint64_t sz)
{
	uint64_t off;

	for (off = 0; off < sz; off += MT_ICM_PAGE_SIZE)
		if (mt25208_dma_ptr(dev, pa + off, MT_ICM_PAGE_SIZE, true) == NULL)
			return false;
	return true;
}

/*
 * Walk the page list of MAP_FA / MAP_ICM_AUX / MAP_ICM. Every entry is
 * checked before anything is applied, so a bad list changes nothing.
 */
static uint8_t
icm_page_list(struct mt25208 *dev, struct mt25208_cmd *c, enum icm_list_kind kind)
{
	const uint8_t *mb, *e;
	uint32_t i, n = c->in_mod;
	uint64_t pages = 0;

	if (n == 0 || n > MT_MAP_MAX_ENTRIES) {
		FAB_ERR("%s: page list: in_modifier %u entries, valid 1..%u",
			dev->node->name, n, MT_MAP_MAX_ENTRIES);
		return MT_STAT_BAD_PARAM;
	}
	mb = mt25208_mbox_in(dev, c, (size_t)n * MT_MAP_ENTRY_SIZE);
	if (mb == NULL)
		return MT_STAT_INTERNAL_ERR;
	for (i = 0; i < n; i++) {
		unsigned int lg;
		uint64_t pa, va, sz;

		e = mb + (size_t)i * MT_MAP_ENTRY_SIZE;
		lg = mt_map_log_size(e);
		pa = mt_map_pa(e);
		va = mt_map_virt(e);
		if (lg > 40) {
			FAB_ERR("%s: page list entry %u: size code %u too large",
				dev->node->name, i, lg - MT_ICM_PAGE_SHIFT);
			return MT_STAT_BAD_PARAM;
		}
		sz = 1ull << lg;
		if (pa & (sz - 1)) {
			FAB_ERR("%s: page list entry %u: bus address 0x%" PRIx64
				" not aligned to its block size 0x%" PRIx64,
				dev->node->name, i, pa, sz);
			return MT_STAT_BAD_PARAM;
		}
		if (!dma_range_ok(dev, pa, sz))
			return MT_STAT_INTERNAL_ERR;
		if (kind == LIST_ICM) {
			uint64_t p;

			if ((va & (sz - 1)) || va + sz > dev->icm_size || va + sz < va) {
				FAB_ERR("%s: MAP_ICM entry %u: virtual 0x%" PRIx64
					" size 0x%" PRIx64 " outside ICM (0x%" PRIx64 ") or unaligned",
					dev->node->name, i, va, sz, dev->icm_size);
				return MT_STAT_BAD_PARAM;
			}
			for (p = va >> MT_ICM_PAGE_SHIFT; p < (va + sz) >> MT_ICM_PAGE_SHIFT; p++)
				if (dev->icm[p].pa != 0) {
					FAB_ERR("%s: MAP_ICM entry %u: ICM page 0x%" PRIx64
						" already mapped", dev->node->name, i,
						p << MT_ICM_PAGE_SHIFT);
					return MT_STAT_BAD_RES_STATE;
				}
		}
		pages += sz >> MT_ICM_PAGE_SHIFT;
	}
	for (i = 0; kind == LIST_ICM && i < n; i++) {
		uint64_t va, pa, p, k;

		e = mb + (size_t)i * MT_MAP_ENTRY_SIZE;
		va = mt_map_virt(e);
		pa = mt_map_pa(e);
		k = 1ull << (mt_map_log_size(e) - MT_ICM_PAGE_SHIFT);
		for (p = 0; p < k; p++) {
			dev->icm[(va >> MT_ICM_PAGE_SHIFT) + p].pa =
				(pa + (p << MT_ICM_PAGE_SHIFT)) | 1;
			dev->icm[(va >> MT_ICM_PAGE_SHIFT) + p].host = NULL;
		}
	}
	if (kind == LIST_FA)
		dev->fa_pages += (uint32_t)pages;
	else if (kind == LIST_AUX)
		dev->aux_pages += (uint32_t)pages;
	return MT_STAT_OK;
}

uint8_t
mt25208_cmd_map_fa(struct mt25208 *dev, struct mt25208_cmd *c)
{
	/* Only the boot firmware takes its area (Linux mthca_load_fw()). */
	if (dev->fw_state != MT25208_FW_BOOT)
		return MT_STAT_BAD_SYS_STATE;
	return icm_page_list(dev, c, LIST_FA);
}

uint8_t
mt25208_cmd_unmap_fa(struct mt25208 *dev, struct mt25208_cmd *c)
{
	(void)c;
	/*
	 * Linux sends UNMAP_FA after CLOSE_HCA (__mthca_remove_one()), and on
	 * the error path of a failed RUN_FW (FW area mapped, still BOOT);
	 * with nothing mapped in BOOT there is nothing to unmap.
	 */
	if (dev->fw_state == MT25208_FW_HCA ||
	    (dev->fw_state == MT25208_FW_BOOT && dev->fa_pages == 0))
		return MT_STAT_BAD_SYS_STATE;
	dev->fa_pages = 0;
	dev->fw_state = MT25208_FW_BOOT;
	return MT_STAT_OK;
}

uint8_t
mt25208_cmd_set_icm_size(struct mt25208 *dev, struct mt25208_cmd *c)
{
	uint64_t sz = c->in_param;
	size_t i;

	if (dev->fw_state != MT25208_FW_RUN)
		return MT_STAT_BAD_SYS_STATE;
	if (sz == 0 || (sz & (MT_ICM_PAGE_SIZE - 1))) {
		FAB_ERR("%s: SET_ICM_SIZE: size 0x%" PRIx64 " not a non-zero multiple of 4 KiB",
			dev->node->name, sz);
		return MT_STAT_BAD_PARAM;
	}
	if (sz > MT25208_MAX_ICM) {
		FAB_ERR("%s: SET_ICM_SIZE: size 0x%" PRIx64 " above the maximum 0x%llx",
			dev->node->name, sz, (unsigned long long)MT25208_MAX_ICM);
		return MT_STAT_EXCEED_LIM;
	}
	for (i = 0; i < dev->icm_npages; i++)
		if (dev->icm[i].pa != 0)
			return MT_STAT_RESOURCE_BUSY;
	free(dev->icm);
	dev->icm_npages = sz >> MT_ICM_PAGE_SHIFT;
	dev->icm = calloc(dev->icm_npages, sizeof(*dev->icm));
	if (dev->icm == NULL) {
		dev->icm_npages = 0;
		dev->icm_size = 0;
		return MT_STAT_INTERNAL_ERR;
	}
	dev->icm_size = sz;
	dev->aux_needed = (uint32_t)((dev->icm_npages + MT25208_AUX_PER_PAGES - 1) /
				     MT25208_AUX_PER_PAGES);
	c->out_imm = dev->aux_needed;
	return MT_STAT_OK;
}

uint8_t
mt25208_cmd_map_icm_aux(struct mt25208 *dev, struct mt25208_cmd *c)
{
	if (dev->fw_state != MT25208_FW_RUN || dev->icm_size == 0)
		return MT_STAT_BAD_SYS_STATE;
	return icm_page_list(dev, c, LIST_AUX);
}

uint8_t
mt25208_cmd_unmap_icm_aux(struct mt25208 *dev, struct mt25208_cmd *c)
{
	(void)c;
	if (dev->fw_state != MT25208_FW_RUN)
		return MT_STAT_BAD_SYS_STATE;
	dev->aux_pages = 0;
	return MT_STAT_OK;
}

uint8_t
mt25208_cmd_map_icm(struct mt25208 *dev, struct mt25208_cmd *c)
{
	if (dev->fw_state == MT25208_FW_BOOT || dev->icm_size == 0)
		return MT_STAT_BAD_SYS_STATE;
	return icm_page_list(dev, c, LIST_ICM);
}

uint8_t
mt25208_cmd_unmap_icm(struct mt25208 *dev, struct mt25208_cmd *c)
{
	uint64_t va = c->in_param, p, first, n = c->in_mod;

	if (dev->fw_state == MT25208_FW_BOOT || dev->icm_size == 0)
		return MT_STAT_BAD_SYS_STATE;
	if ((va & (MT_ICM_PAGE_SIZE - 1)) || va >= dev->icm_size || n == 0) {
		FAB_ERR("%s: UNMAP_ICM: virtual 0x%" PRIx64 " count %" PRIu64
			" (ICM size 0x%" PRIx64 ")", dev->node->name, va, n, dev->icm_size);
		return MT_STAT_BAD_PARAM;
	}
	/*
	 * Linux always says 64 pages per table chunk even when it mapped fewer
	 * (mthca_alloc_icm_table()), and the last chunk may run past the ICM end: unmapping
	 * pages that are not mapped is not an error.
	 */
	first = va >> MT_ICM_PAGE_SHIFT;
	for (p = first; p < first + n && p < dev->icm_npages; p++) {
		dev->icm[p].pa = 0;
		dev->icm[p].host = NULL;
	}
	return MT_STAT_OK;
}
