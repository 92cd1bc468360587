/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Queue pairs (Linux mthca_qp.c): one buffer with the receive queue first
 * and the send queue after it, one MTT region at I/O address 0 over it
 * (QPC wqe_base 0, so every WQE address is an offset in the buffer),
 * an SQ and an RQ doorbell record each. Transitions RESET -> INIT -> RTR
 * -> RTS write the whole context every time, as Linux does; the PRM says
 * the HCA takes only what each transition needs, so this is safe both
 * ways. A QP0 reaching RTR brings its port up with INIT_IB (Linux
 * __mthca_modify_qp, init_port).
 */

#include <errno.h>

#include "mthca.h"
#include "mthca_cmd.h"

static uint32_t
wqe_shift(uint32_t bytes)
{
	uint32_t s = 6;		/* strides of at least 64 bytes */

	while ((1u << s) < bytes)
		s++;
	return s;
}

int64_t
mthca_qpn_alloc(struct mthca_dev *dev)
{
	return mthca_bitmap_alloc(&dev->qp_map, 1, 1);
}

void
mthca_qpn_free(struct mthca_dev *dev, uint32_t qpn)
{
	if (qpn >= dev->sqp_start + 2 * MTHCA_MAX_PORTS)
		mthca_bitmap_release(&dev->qp_map, qpn, 1);
}

int
mthca_qp_create(struct mthca_dev *dev, struct mthca_qp *qp, uint32_t qpn, uint8_t st,
		uint8_t port, struct mthca_cq *scq, struct mthca_cq *rcq,
		uint32_t sq_depth, uint32_t rq_depth, uint32_t rq_max_gs, uint32_t sq_max_gs)
{
	uint32_t i, j, size, transport;
	int ret;

	memset(qp, 0, sizeof(*qp));
	qp->qpn = qpn;
	qp->st = st;
	qp->port = port;
	qp->scq = scq;
	qp->rcq = rcq;
	qp->qkey = st == MTHCA_QPST_MLX && qpn >= dev->sqp_start + 2 ? 0x80010000u : 0;
	qp->sq_max = rte_align32pow2(sq_depth);
	qp->rq_max = rte_align32pow2(rq_depth);
	if (qp->sq_max > dev->max_qp_sz || qp->rq_max > dev->max_qp_sz ||
	    rq_max_gs > dev->max_sg || sq_max_gs + 2 > dev->max_sg) {
		MTHCA_LOG(ERR, "%s: QP of %u/%u WQEs, %u/%u segments: the HCA allows %u, %u",
			  dev->name, qp->sq_max, qp->rq_max, sq_max_gs, rq_max_gs, dev->max_qp_sz,
			  dev->max_sg);
		return -EINVAL;
	}
	/* Linux mthca_alloc_wqe_buf: UD 48 bytes of transport, MLX 32 */
	transport = st == MTHCA_QPST_UD ? sizeof(struct mthca_ud_seg) : 32;
	qp->rq_max_gs = rq_max_gs;
	qp->rq_shift = wqe_shift(16 + 16 * rq_max_gs);
	qp->sq_shift = wqe_shift(16 + RTE_MAX(transport + 16 * sq_max_gs, 32u));
	if ((1u << qp->sq_shift) > dev->max_desc_sz || (1u << qp->rq_shift) > dev->max_desc_sz)
		return -EINVAL;
	qp->send_off = RTE_ALIGN_CEIL(qp->rq_max << qp->rq_shift, 1u << qp->sq_shift);
	size = qp->send_off + (qp->sq_max << qp->sq_shift);
	ret = mthca_dma_alloc(dev, size, 0, &qp->buf);
	if (ret != 0)
		goto err;
	/* a closed ring of next pointers (Linux mthca_alloc_qp_common) */
	for (i = 0; i < qp->sq_max; i++) {
		struct mthca_next_seg *n = (void *)(qp->buf.va + qp->send_off +
						    (i << qp->sq_shift));

		mthca_next_set_op(n, qp->send_off + (((i + 1) & (qp->sq_max - 1)) << qp->sq_shift),
				  0);
	}
	for (i = 0; i < qp->rq_max; i++) {
		uint8_t *w = qp->buf.va + (i << qp->rq_shift);

		mthca_next_set_op((void *)w, ((i + 1) & (qp->rq_max - 1)) << qp->rq_shift, 0);
		mthca_put32(w, 4, 1 + rq_max_gs);	/* ee_nds: size, no DBD */
		for (j = 16; j < (1u << qp->rq_shift); j += sizeof(struct mthca_data_seg))
			mthca_dseg_set((void *)(w + j), 0, MTHCA_INVAL_LKEY, 0);
	}
	ret = mthca_mr_buf(dev, &qp->mr, &qp->buf, MTHCA_MPT_F_LOCAL_WRITE);
	if (ret != 0)
		goto err;
	ret = mthca_uar_alloc(dev, &qp->uar);
	if (ret != 0)
		goto err;
	qp->sq_rec = mthca_dbr_init(&qp->uar, MTHCA_DBR_FIRST, qpn, MTHCA_DBR_SQ);
	qp->rq_rec = mthca_dbr_init(&qp->uar, MTHCA_DBR_SECOND, qpn, MTHCA_DBR_RQ);
	return 0;
err:
	mthca_qp_destroy(dev, qp);
	return ret;
}

/*
 * The modify mailbox for a move to @p to (Linux __mthca_modify_qp), with
 * the optional parameters @p opt (MTHCA_QP_OPTPAR_*) besides those a move
 * from RESET always carries.
 */
static void
qp_mailbox(struct mthca_dev *dev, const struct mthca_qp *qp, uint32_t to, bool from_reset,
	   uint32_t opt)
{
	uint8_t *m = dev->mbox_in.va;
	uint32_t optmask = 0, rdb;

	memset(m, 0, MTHCA_QPM_SIZE);
	mthca_put32(m, MTHCA_QPM_FLAGS, mthca_qpm_flags(to, qp->st));
	mthca_put8(m, MTHCA_QPM_MTU_MSGMAX, MTHCA_QP_MTU_MSGMAX_UD);
	if (qp->rq_max != 0)
		mthca_put8(m, MTHCA_QPM_RQ_SIZE_STRIDE,
			   (rte_log2_u32(qp->rq_max) << 3) | (qp->rq_shift - 4));
	else
		mthca_put8(m, MTHCA_QPM_RQ_SIZE_STRIDE, qp->rq_shift - 4);
	mthca_put8(m, MTHCA_QPM_SQ_SIZE_STRIDE, (rte_log2_u32(qp->sq_max) << 3) |
		   (qp->sq_shift - 4));
	mthca_put32(m, MTHCA_QPM_USR_PAGE, qp->uar.index);
	mthca_put32(m, MTHCA_QPM_LOCAL_QPN, qp->qpn);
	/* MLX QPs always carry their port, without the optpar bit */
	if (qp->st == MTHCA_QPST_MLX || from_reset)
		mthca_put32(m, MTHCA_QPM_PRI_PATH, ((uint32_t)qp->port << 24) |
			    (qp->pkey_index & 0x7f));
	if (from_reset) {
		optmask = MTHCA_QP_OPTPAR_PKEY_INDEX | MTHCA_QP_OPTPAR_Q_KEY;
		if (qp->st != MTHCA_QPST_MLX)
			optmask |= MTHCA_QP_OPTPAR_PORT_NUM;
	}
	optmask |= opt;
	if (optmask & MTHCA_QP_OPTPAR_Q_KEY)
		mthca_put32(m, MTHCA_QPM_QKEY, qp->qkey);
	mthca_put32(m, MTHCA_QPM_OPTMASK, optmask);
	mthca_put32(m, MTHCA_QPM_PD, dev->pd);
	mthca_put32(m, MTHCA_QPM_WQE_BASE, 0);
	mthca_put32(m, MTHCA_QPM_WQE_LKEY, qp->mr.lkey);
	mthca_put32(m, MTHCA_QPM_PARAMS1, MTHCA_QP_PARAMS1_DEFAULT);
	mthca_put32(m, MTHCA_QPM_NEXT_SEND_PSN, 0);
	mthca_put32(m, MTHCA_QPM_CQN_SND, qp->scq->cqn);
	mthca_put32(m, MTHCA_QPM_SND_WQE_BASE, qp->send_off);
	mthca_put32(m, MTHCA_QPM_SND_DB_INDEX, MTHCA_DBR_FIRST);
	mthca_put32(m, MTHCA_QPM_PARAMS2, MTHCA_QP_PARAMS2_RSC);
	/* this QP's responder resources: rdb_base + (qpn << rdb_shift) * 32 */
	rdb = (uint32_t)(dev->rdb_base + (((uint64_t)(qp->qpn & (dev->num_qps - 1)) *
					    MTHCA_RDB_ENTRY_SIZE) << 2));
	mthca_put32(m, MTHCA_QPM_RA_BUFF, rdb);
	mthca_put32(m, MTHCA_QPM_CQN_RCV, qp->rcq->cqn);
	mthca_put32(m, MTHCA_QPM_RCV_WQE_BASE, 0);
	mthca_put32(m, MTHCA_QPM_RCV_DB_INDEX, MTHCA_DBR_SECOND);
}

static int
qp_transition(struct mthca_dev *dev, struct mthca_qp *qp, uint16_t op, uint32_t to,
	      uint32_t opt)
{
	int st;

	pthread_mutex_lock(&dev->cmd_lock);
	qp_mailbox(dev, qp, to, op == MTHCA_CMD_RST2INIT_QP, opt);
	st = mthca_cmd_locked(dev, dev->mbox_in.iova, NULL, qp->qpn, 0, op);
	pthread_mutex_unlock(&dev->cmd_lock);
	if (st != MTHCA_ST_OK) {
		MTHCA_LOG(ERR, "%s: QP 0x%x %s: status 0x%02x", dev->name, qp->qpn,
			  mthca_cmd_name(op), st);
		return mthca_status_errno(st);
	}
	qp->state = to;
	qp->live = true;
	return 0;
}

static bool
qp_is_qp0(const struct mthca_dev *dev, const struct mthca_qp *qp)
{
	return qp->st == MTHCA_QPST_MLX && qp->qpn == dev->sqp_start + qp->port - 1u;
}

static int
init_ib(struct mthca_dev *dev, uint8_t port)
{
	uint8_t *m;
	int st;

	pthread_mutex_lock(&dev->cmd_lock);
	m = dev->mbox_in.va;
	memset(m, 0, MTHCA_IIB_SIZE);
	/* Linux init_port: the DEV_LIM caps, firmware keeps its GUIDs */
	mthca_put32(m, MTHCA_IIB_FLAGS, ((uint32_t)dev->mtu_cap << 12) |
		    ((uint32_t)dev->width_cap << 8) | ((uint32_t)dev->vl_cap << 4));
	mthca_put16(m, MTHCA_IIB_MAX_GID, dev->gid_len);
	mthca_put16(m, MTHCA_IIB_MAX_PKEY, dev->pkey_len);
	st = mthca_cmd_locked(dev, dev->mbox_in.iova, NULL, port, 0, MTHCA_CMD_INIT_IB);
	pthread_mutex_unlock(&dev->cmd_lock);
	if (st != MTHCA_ST_OK) {
		MTHCA_LOG(ERR, "%s: INIT_IB port %u: status 0x%02x", dev->name, port, st);
		return mthca_status_errno(st);
	}
	dev->ib_up[port - 1] = true;
	return 0;
}

int
mthca_qp_init(struct mthca_dev *dev, struct mthca_qp *qp)
{
	return qp_transition(dev, qp, MTHCA_CMD_RST2INIT_QP, MTHCA_QPS_INIT, 0);
}

int
mthca_qp_rts(struct mthca_dev *dev, struct mthca_qp *qp)
{
	int ret;

	ret = qp_transition(dev, qp, MTHCA_CMD_INIT2RTR_QP, MTHCA_QPS_RTR, 0);
	if (ret == 0 && qp_is_qp0(dev, qp))
		ret = init_ib(dev, qp->port);
	if (ret == 0)
		ret = qp_transition(dev, qp, MTHCA_CMD_RTR2RTS_QP, MTHCA_QPS_RTS, 0);
	return ret;
}

int
mthca_qp_up(struct mthca_dev *dev, struct mthca_qp *qp)
{
	int ret;

	ret = mthca_qp_init(dev, qp);
	if (ret == 0)
		ret = mthca_qp_rts(dev, qp);
	return ret;
}

int
mthca_qp_qkey_set(struct mthca_dev *dev, struct mthca_qp *qp, uint32_t qkey)
{
	uint32_t old = qp->qkey;
	int ret;

	qp->qkey = qkey;
	if (!qp->live)
		return 0;	/* RST2INIT will carry it */
	if (qp->state != MTHCA_QPS_RTS) {
		MTHCA_LOG(ERR, "%s: QP 0x%x: Q_Key change in state %u, not RTS", dev->name,
			  qp->qpn, qp->state);
		qp->qkey = old;
		return -EBUSY;
	}
	/* IBA 11.2.5.2: Q_Key is an optional attribute of RTS->RTS for UD
	 * (Linux mthca_modify_qp state table, IB_QP_QKEY in RTS->RTS opt) */
	ret = qp_transition(dev, qp, MTHCA_CMD_RTS2RTS_QP, MTHCA_QPS_RTS, MTHCA_QP_OPTPAR_Q_KEY);
	if (ret != 0)
		qp->qkey = old;
	return ret;
}

int
mthca_qp_reset(struct mthca_dev *dev, struct mthca_qp *qp)
{
	uint64_t out;
	int st;

	if (!qp->live)
		return 0;
	pthread_mutex_lock(&dev->cmd_lock);
	out = dev->mbox_out.iova;
	/* op_mod 2: firmware writes the context into the output mailbox */
	st = mthca_cmd_locked(dev, 0, &out, qp->qpn, 2, MTHCA_CMD_2RST_QP);
	pthread_mutex_unlock(&dev->cmd_lock);
	/* Linux: a QP0 leaving RTR/RTS takes its port down (CLOSE_IB) */
	if (qp_is_qp0(dev, qp) && dev->ib_up[qp->port - 1]) {
		mthca_cmd(dev, 0, NULL, qp->port, 0, MTHCA_CMD_CLOSE_IB);
		dev->ib_up[qp->port - 1] = false;
	}
	qp->live = false;
	qp->state = MTHCA_QPS_RESET;
	qp->sq_head = qp->rq_head = 0;
	/* both records restart at 0 with the software counters */
	mthca_put32((void *)(uintptr_t)qp->sq_rec, 0, 0);
	mthca_put32((void *)(uintptr_t)qp->rq_rec, 0, 0);
	if (st != MTHCA_ST_OK) {
		MTHCA_LOG(WARNING, "%s: QP 0x%x to RESET: status %d", dev->name, qp->qpn, st);
		return mthca_status_errno(st);
	}
	return 0;
}

void
mthca_qp_destroy(struct mthca_dev *dev, struct mthca_qp *qp)
{
	if (qp->buf.mz == NULL && qp->uar.page == NULL)
		return;
	mthca_qp_reset(dev, qp);
	mthca_uar_free(dev, &qp->uar);
	mthca_mr_free(dev, &qp->mr);
	mthca_dma_free(&qp->buf);
	memset(qp, 0, sizeof(*qp));
}
