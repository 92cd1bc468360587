/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Completion queues (Linux mthca_cq.c mthca_init_cq / mthca_free_cq): a
 * power-of-two ring of 32-byte CQEs owned by hardware (owner 0x80), an
 * MTT region at I/O address 0 over it, a set-CI and an arm doorbell
 * record in the driver UAR, SW2HW_CQ / HW2SW_CQ.
 */

#include <errno.h>

#include "mthca.h"
#include "mthca_cmd.h"

int
mthca_cq_create(struct mthca_dev *dev, struct mthca_cq *cq, uint32_t nent)
{
	int64_t cqn;
	uint8_t *m;
	uint32_t i;
	int st, ret;

	memset(cq, 0, sizeof(*cq));
	/* Linux: the smallest power of two greater than the entries asked for */
	cq->nent = rte_align32pow2(nent + 1);
	if (cq->nent > dev->max_cq_sz) {
		MTHCA_LOG(ERR, "%s: CQ of %u entries: the HCA allows %u", dev->name, cq->nent,
			  dev->max_cq_sz);
		return -EINVAL;
	}
	cqn = mthca_bitmap_alloc(&dev->cq_map, 1, 1);
	if (cqn < 0) {
		MTHCA_LOG(ERR, "%s: all %u CQs in use", dev->name, dev->num_cqs);
		return -ENOSPC;
	}
	cq->cqn = (uint32_t)cqn;
	cq->arm_sn = 1;
	ret = mthca_dma_alloc(dev, (size_t)cq->nent * MTHCA_CQE_SIZE, 0, &cq->buf);
	if (ret != 0)
		goto err;
	for (i = 0; i < cq->nent; i++)
		cq->buf.va[i * MTHCA_CQE_SIZE + MTHCA_CQE_SIZE - 1] = MTHCA_OWNER_HW;
	ret = mthca_mr_buf(dev, &cq->mr, &cq->buf, MTHCA_MPT_F_LOCAL_WRITE);
	if (ret != 0)
		goto err;
	ret = mthca_uar_alloc(dev, &cq->uar);
	if (ret != 0)
		goto err;
	cq->set_ci_rec = mthca_dbr_init(&cq->uar, MTHCA_DBR_FIRST, cq->cqn, MTHCA_DBR_CQ_SET_CI);
	cq->arm_rec = mthca_dbr_init(&cq->uar, MTHCA_DBR_SECOND, cq->cqn, MTHCA_DBR_CQ_ARM);
	pthread_mutex_lock(&dev->cmd_lock);
	m = dev->mbox_in.va;
	memset(m, 0, MTHCA_CQC_SIZE);
	mthca_put32(m, MTHCA_CQC_FLAGS, MTHCA_CQC_FLAGS_INIT);
	mthca_put64(m, MTHCA_CQC_START, 0);
	mthca_put32(m, MTHCA_CQC_LOGSIZE_UAR, (rte_log2_u32(cq->nent) << 24) | cq->uar.index);
	mthca_put32(m, MTHCA_CQC_ERR_EQN, dev->eq[MTHCA_EQ_ASYNC].eqn);
	mthca_put32(m, MTHCA_CQC_COMP_EQN, dev->eq[MTHCA_EQ_COMP].eqn);
	mthca_put32(m, MTHCA_CQC_PD, dev->pd);
	mthca_put32(m, MTHCA_CQC_LKEY, cq->mr.lkey);
	mthca_put32(m, MTHCA_CQC_CQN, cq->cqn);
	mthca_put32(m, MTHCA_CQC_CI_DB, MTHCA_DBR_FIRST);
	mthca_put32(m, MTHCA_CQC_STATE_DB, MTHCA_DBR_SECOND);
	st = mthca_cmd_locked(dev, dev->mbox_in.iova, NULL, cq->cqn, 0, MTHCA_CMD_SW2HW_CQ);
	pthread_mutex_unlock(&dev->cmd_lock);
	if (st != MTHCA_ST_OK) {
		MTHCA_LOG(ERR, "%s: SW2HW_CQ 0x%x: status 0x%02x", dev->name, cq->cqn, st);
		ret = mthca_status_errno(st);
		goto err;
	}
	cq->live = true;
	return 0;
err:
	mthca_cq_destroy(dev, cq);
	return ret;
}

void
mthca_cq_destroy(struct mthca_dev *dev, struct mthca_cq *cq)
{
	uint64_t out;
	int st;

	if (cq->nent == 0)
		return;
	if (cq->live) {
		pthread_mutex_lock(&dev->cmd_lock);
		out = dev->mbox_out.iova;
		st = mthca_cmd_locked(dev, 0, &out, cq->cqn, 0, MTHCA_CMD_HW2SW_CQ);
		pthread_mutex_unlock(&dev->cmd_lock);
		if (st != MTHCA_ST_OK)
			MTHCA_LOG(WARNING, "%s: HW2SW_CQ 0x%x: status %d", dev->name, cq->cqn, st);
	}
	mthca_uar_free(dev, &cq->uar);
	mthca_mr_free(dev, &cq->mr);
	mthca_dma_free(&cq->buf);
	mthca_bitmap_release(&dev->cq_map, cq->cqn, 1);
	memset(cq, 0, sizeof(*cq));
}
