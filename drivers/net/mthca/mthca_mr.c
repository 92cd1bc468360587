/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Memory regions (Linux mthca_mr.c): an MPT entry per region, handed to
 * the HCA with SW2HW_MPT and taken back with HW2SW_MPT; translated
 * regions get a run of MTT segments whose entries the CPU writes straight
 * into the host memory behind the MTT table before SW2HW_MPT (Linux
 * mthca_arbel_write_mtt_seg: mem-free HCAs read MTTs from ICM).
 */

#include <errno.h>
#include <stdlib.h>

#include "mthca.h"
#include "mthca_cmd.h"

static int
sw2hw_mpt(struct mthca_dev *dev, struct mthca_mr *mr, uint32_t flags, uint64_t start,
	  uint64_t len, uint64_t mtt_addr)
{
	uint8_t *m;
	int st;

	pthread_mutex_lock(&dev->cmd_lock);
	m = dev->mbox_in.va;
	memset(m, 0, MTHCA_MPT_SIZE);
	mthca_put32(m, MTHCA_MPT_FLAGS, MTHCA_MPT_F_SW_OWNS | MTHCA_MPT_F_MIO |
		    MTHCA_MPT_F_REGION | MTHCA_MPT_F_LOCAL_READ | flags);
	mthca_put32(m, MTHCA_MPT_PAGE_SZ, 0);		/* 4 KiB per MTT entry */
	mthca_put32(m, MTHCA_MPT_KEY, mr->index);
	mthca_put32(m, MTHCA_MPT_PD, dev->pd);
	mthca_put64(m, MTHCA_MPT_START, start);
	mthca_put64(m, MTHCA_MPT_LEN, len);
	mthca_put64(m, MTHCA_MPT_MTT_ADDR, mtt_addr);
	st = mthca_cmd_locked(dev, dev->mbox_in.iova, NULL, mr->index & (dev->num_mpts - 1), 0,
			      MTHCA_CMD_SW2HW_MPT);
	pthread_mutex_unlock(&dev->cmd_lock);
	if (st != MTHCA_ST_OK) {
		MTHCA_LOG(ERR, "%s: SW2HW_MPT %u: status 0x%02x", dev->name, mr->index, st);
		return mthca_status_errno(st);
	}
	mr->live = true;
	return 0;
}

static int
mpt_alloc(struct mthca_dev *dev, struct mthca_mr *mr)
{
	int64_t ind = mthca_bitmap_alloc(&dev->mpt_map, 1, 1);

	memset(mr, 0, sizeof(*mr));
	if (ind < 0) {
		MTHCA_LOG(ERR, "%s: all %u MPT entries in use", dev->name, dev->num_mpts);
		return -ENOSPC;
	}
	mr->index = (uint32_t)ind;
	mr->lkey = mthca_index_to_key(mr->index);
	return 0;
}

int
mthca_mr_phys(struct mthca_dev *dev, struct mthca_mr *mr)
{
	int ret = mpt_alloc(dev, mr);

	if (ret != 0)
		return ret;
	/* Linux mthca_mr_alloc_notrans: physical, 0 .. ~0 */
	ret = sw2hw_mpt(dev, mr, MTHCA_MPT_F_PHYSICAL | MTHCA_MPT_F_LOCAL_WRITE, 0, ~0ull, 0);
	if (ret != 0)
		mthca_bitmap_release(&dev->mpt_map, mr->index, 1);
	return ret;
}

int
mthca_mr_pages(struct mthca_dev *dev, struct mthca_mr *mr, uint64_t start,
	       const uint64_t *iovas, uint32_t npages, uint32_t access)
{
	uint32_t segs = 1, i;
	int64_t first;
	int ret;

	ret = mpt_alloc(dev, mr);
	if (ret != 0)
		return ret;
	/* a buddy-aligned run of segments, as Linux mthca_alloc_mtt hands out */
	while ((uint64_t)segs * (MTHCA_MTT_SEG_SIZE / MTHCA_MTT_ENTRY_SIZE) < npages)
		segs <<= 1;
	first = mthca_bitmap_alloc(&dev->mtt_map, segs, segs);
	if (first < 0) {
		MTHCA_LOG(ERR, "%s: no run of %u MTT segments for %u pages", dev->name, segs,
			  npages);
		mthca_bitmap_release(&dev->mpt_map, mr->index, 1);
		return -ENOSPC;
	}
	mr->first_seg = (uint32_t)first;
	mr->nseg = segs;
	for (i = 0; i < npages; i++)
		mthca_put64(dev->mtt_host, mr->first_seg * MTHCA_MTT_SEG_SIZE +
			    i * MTHCA_MTT_ENTRY_SIZE, iovas[i] | MTHCA_MTT_PRESENT);
	/* MTT entries in memory before the HCA may use the region */
	rte_wmb();
	ret = sw2hw_mpt(dev, mr, access, start, (uint64_t)npages * MTHCA_ICM_PAGE_SIZE,
			dev->mtt_base + (uint64_t)mr->first_seg * MTHCA_MTT_SEG_SIZE);
	if (ret != 0) {
		mthca_bitmap_release(&dev->mtt_map, mr->first_seg, mr->nseg);
		mthca_bitmap_release(&dev->mpt_map, mr->index, 1);
	}
	return ret;
}

int
mthca_mr_buf(struct mthca_dev *dev, struct mthca_mr *mr, const struct mthca_dma *buf,
	     uint32_t access)
{
	uint32_t npages = buf->len / MTHCA_ICM_PAGE_SIZE, i;
	uint64_t iovas[64] = { 0 }, *v = iovas;
	int ret;

	if (npages > RTE_DIM(iovas)) {
		v = malloc(sizeof(*v) * npages);
		if (v == NULL)
			return -ENOMEM;
	}
	for (i = 0; i < npages; i++)
		v[i] = buf->iova + (uint64_t)i * MTHCA_ICM_PAGE_SIZE;
	/* Linux: "we always create an MR based at 0 for WQs" (also CQs, EQs) */
	ret = mthca_mr_pages(dev, mr, 0, v, npages, access);
	if (v != iovas)
		free(v);
	return ret;
}

void
mthca_mr_free(struct mthca_dev *dev, struct mthca_mr *mr)
{
	int st;

	if (mr->live) {
		/* op_mod 1: no output mailbox (Linux mthca_HW2SW_MPT) */
		st = mthca_cmd(dev, 0, NULL, mr->index & (dev->num_mpts - 1), 1,
			       MTHCA_CMD_HW2SW_MPT);
		if (st != MTHCA_ST_OK)
			MTHCA_LOG(WARNING, "%s: HW2SW_MPT %u: status %d", dev->name, mr->index, st);
		mthca_bitmap_release(&dev->mpt_map, mr->index, 1);
		if (mr->nseg != 0)
			mthca_bitmap_release(&dev->mtt_map, mr->first_seg, mr->nseg);
	}
	memset(mr, 0, sizeof(*mr));
}
