/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The rte_ib device of the HCA (lib/ib ib_driver.h): its operations and
 * its special QPs. Each port has QP0 and QP1 (MLX QPs at the hardware
 * numbers CONF_SPECIAL_QP gave, Linux mthca_alloc_sqp) on one CQ; moving
 * QP0 to RTR brings the port onto the fabric (INIT_IB). Received MADs go
 * to the MAD core from intr_process, on the control thread that sleeps
 * on intr_fd: on a simulated function the completion EQ's own eventfd
 * (intr_process drains the EQs), elsewhere an eventfd the EQ drain
 * writes when a special CQ has an event. MAD sends are MLX WQEs whose LRH/[GRH]/BTH/DETH the driver
 * builds (Linux build_mlx_header, IBA 7.7, 8.3, 9.2, 9.3.3); the HCA adds
 * the ICRC into the 4-byte inline placeholder and the VCRC.
 */

#include <errno.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <ib_driver.h>
#include <rte_errno.h>
#include <rte_ib_dev.h>
#include <rte_malloc.h>

#include "mthca.h"
#include "mthca_cmd.h"
#include "mthca_port.h"
#include "mthca_queue.h"
#include "mthca_rxtx.h"

/*
 * Receive WQEs per special QP: a burst of MADs larger than the ring is
 * dropped by the HCA, so the ring is as deep as the MAD core's queue
 * (Linux's ib_mad posts 512, mad_recvq_size). Sends are paced by the
 * MAD core's outstanding limit and need fewer.
 */
#define SQP_RQ_DEPTH	256
#define SQP_SQ_DEPTH	64
#define SQP_SLOT	512	/* receive: GRH + MAD; send: headers at +0, MAD at +128 */
#define SQP_MAD_OFF	128

/* MAD header fields (IBA 13.4.2) and SMP attributes (IBA 14.2.5) */
#define MAD_MGMT_CLASS		1
#define MAD_METHOD		3
#define MAD_STATUS		4
#define MAD_ATTR_ID		16
#define SMP_DATA		64
#define CLASS_SMI		0x01
#define CLASS_SMI_DR		0x81
#define CLASS_PERF		0x04
#define CLASS_VENDOR_09		0x09
#define CLASS_VENDOR_0A		0x0a
#define METHOD_GET		0x01
#define METHOD_SET		0x02
#define METHOD_GET_RESP		0x81
#define METHOD_TRAP_REPRESS	0x07
#define ATTR_NODE_DESC		0x0010
#define ATTR_GUID_INFO		0x0014
#define ATTR_PKEY_TABLE		0x0016
#define ATTR_SM_INFO		0x0020
#define MAD_STATUS_DR_D		0x8000
#define LID_PERMISSIVE		0xffff
#define QP1_QKEY		0x80010000u	/* IBA 10.2.4: GSI's well-known Q_Key */

/** QP0 and QP1 of one port, on one CQ. */
struct mthca_sqp {
	uint8_t port;
	pthread_mutex_t lock;		/* the QPs, the CQs and the buffers */
	struct mthca_cq cq;		/* receives, armed: its events wake the MAD core */
	struct mthca_cq scq;		/* sends, never armed: polled before each send */
	struct mthca_qp qp[2];		/* [0] SMI, [1] GSI */
	struct mthca_dma rbuf[2];	/* receive slots */
	struct mthca_dma sbuf[2];	/* send slots: headers and the MAD */
	uint32_t sq_tail[2];
	uint32_t psn[2];
	bool up;
};

struct mthca_ibdev {
	struct rte_ib_device ib;
	struct mthca_dev *dev;
	bool registered;
};

static struct mthca_dev *
to_dev(struct rte_ib_device *ib)
{
	return ib->dev_private;
}

/* ---- special QPs -------------------------------------------------------- */

/* Receive WQE for ring slot rq_head: one slot of the physical region (bus addresses). */
static void
sqp_post_recv(struct mthca_dev *dev, struct mthca_sqp *s, unsigned int q)
{
	struct mthca_qp *qp = &s->qp[q];
	uint32_t ind = qp->rq_head & (qp->rq_max - 1);
	struct mthca_data_seg *d = (void *)(qp->buf.va + ((size_t)ind << qp->rq_shift) + 16);

	mthca_dseg_set(d, SQP_SLOT, dev->ntmr.lkey, s->rbuf[q].iova + (uint64_t)ind * SQP_SLOT);
}

static void
sqp_arm(struct mthca_sqp *s)
{
	struct mthca_cq *cq = &s->cq;
	uint32_t sn = cq->arm_sn & 3;

	/* arm record, barrier, CQ doorbell (Linux mthca_arbel_arm_cq) */
	mthca_put32((void *)(uintptr_t)cq->arm_rec, 0, cq->cons);
	mthca_put32((void *)(uintptr_t)cq->arm_rec, 4,
		    mthca_dbr_cq_arm(cq->cqn, sn, MTHCA_CQ_DB_REQ_NOT));
	/* the arm record in memory before the doorbell that makes the HCA read it */
	rte_wmb();
	mthca_doorbell64(cq->uar.page + MTHCA_UAR_CQ_DB,
			 mthca_cq_db_hi(sn, MTHCA_CQ_DB_REQ_NOT, cq->cqn), cq->cons);
}

static void
sqp_destroy(struct mthca_dev *dev, struct mthca_sqp *s)
{
	unsigned int q;

	if (s == NULL)
		return;
	for (q = 0; q < 2; q++) {
		if (s->qp[q].buf.mz != NULL)
			mthca_qp_destroy(dev, &s->qp[q]);
		mthca_dma_free(&s->rbuf[q]);
		mthca_dma_free(&s->sbuf[q]);
	}
	mthca_cq_destroy(dev, &s->cq);
	mthca_cq_destroy(dev, &s->scq);
	pthread_mutex_destroy(&s->lock);
	rte_free(s);
}

static int
sqp_create(struct mthca_dev *dev, uint8_t port, struct mthca_sqp **out)
{
	struct mthca_sqp *s;
	unsigned int q, i;
	int ret;

	s = rte_zmalloc("mthca_sqp", sizeof(*s), 0);
	if (s == NULL)
		return -ENOMEM;
	s->port = port;
	pthread_mutex_init(&s->lock, NULL);
	/*
	 * Send completions on a CQ of their own that raises no event: a
	 * send's completion only frees its WQE, which the next send finds by
	 * polling, so only receives wake the MAD core (one completion event
	 * per answered query, not two). Each CQ holds both QPs' rings
	 * twice over: at most 2 * depth completions are outstanding.
	 */
	ret = mthca_cq_create(dev, &s->cq, 4 * SQP_RQ_DEPTH);
	if (ret == 0)
		ret = mthca_cq_create(dev, &s->scq, 4 * SQP_SQ_DEPTH);
	if (ret != 0)
		goto err;
	for (q = 0; q < 2 && ret == 0; q++) {
		/* hardware QPN: sqp_start + 2q + port - 1 (Linux mthca_alloc_sqp) */
		ret = mthca_qp_create(dev, &s->qp[q], dev->sqp_start + 2 * q + port - 1,
				      MTHCA_QPST_MLX, port, &s->scq, &s->cq, SQP_SQ_DEPTH,
				      SQP_RQ_DEPTH,
				      1, 1);
		if (ret == 0)
			ret = mthca_dma_alloc(dev, (size_t)s->qp[q].rq_max * SQP_SLOT, 0,
					      &s->rbuf[q]);
		if (ret == 0)
			ret = mthca_dma_alloc(dev, (size_t)s->qp[q].sq_max * SQP_SLOT, 0,
					      &s->sbuf[q]);
		s->qp[q].qkey = q == 0 ? 0 : QP1_QKEY;
		s->sq_tail[q] = 0;
	}
	if (ret != 0)
		goto err;
	for (q = 0; q < 2; q++) {
		struct mthca_qp *qp = &s->qp[q];

		for (i = 0; i < qp->rq_max; i++) {
			qp->rq_head = i;
			sqp_post_recv(dev, s, q);
		}
		qp->rq_head = qp->rq_max;
		ret = mthca_qp_init(dev, qp);
		if (ret != 0)
			goto err;
		/*
		 * The receive ring is handed over (doorbell record) and the
		 * CQ armed before QP0 reaches RTR: RTR runs INIT_IB, the link
		 * comes up and the SM's first SMP may arrive at once. One
		 * that found no receive WQE would be lost, and an SM that does
		 * not sweep periodically (OpenSM -s 0) would never configure
		 * the port. The QPs are in INIT, where receives may be posted.
		 */
		rte_wmb();
		mthca_put32((void *)(uintptr_t)qp->rq_rec, 0, qp->rq_head & 0xffff);
	}
	sqp_arm(s);
	for (q = 0; q < 2; q++) {
		ret = mthca_qp_rts(dev, &s->qp[q]);
		if (ret != 0)
			goto err;
	}
	s->up = true;
	*out = s;
	return 0;
err:
	MTHCA_LOG(ERR, "%s: special QPs of port %u: %s", dev->name, port, strerror(-ret));
	sqp_destroy(dev, s);
	return ret;
}

void
mthca_ib_cq_event(struct mthca_dev *dev, uint32_t cqn)
{
	uint64_t one = 1;
	unsigned int p;

	for (p = 0; p < MTHCA_MAX_PORTS; p++)
		if (dev->sqp[p] != NULL && dev->sqp[p]->cq.cqn == cqn) {
			dev->sqp[p]->cq.arm_sn++;
			/* comp_irq_direct: the intr_fd has fired already */
			if (!dev->comp_irq_direct && dev->ctl_fd >= 0 &&
			    write(dev->ctl_fd, &one, sizeof(one)) < 0)
				MTHCA_LOG(DEBUG, "%s: control eventfd: %s", dev->name,
					  strerror(errno));
		}
}

/* Drain one of a port's special CQs: receives to the MAD core, sends retired. */
static void
sqp_poll(struct mthca_dev *dev, struct mthca_sqp *s, struct mthca_cq *cq)
{
	for (;;) {
		struct mthca_cqe *c = (void *)(cq->buf.va +
					       (size_t)(cq->cons & (cq->nent - 1)) * MTHCA_CQE_SIZE);
		struct rte_ib_mad_wc wc;
		struct mthca_qp *qp;
		uint32_t qpn, ind;
		unsigned int q;
		uint8_t *slot;

		if (!mthca_cqe_sw_owned(c))
			break;
		/* the owner bit before the CQE body (Linux mthca_poll_one rmb) */
		rte_rmb();
		qpn = mthca_cqe_qpn(c);
		q = qpn == s->qp[0].qpn ? 0 : 1;
		qp = &s->qp[q];
		if (mthca_cqe_is_send(c)) {
			s->sq_tail[q]++;
		} else {
			ind = (mthca_cqe_wqe(c) >> qp->rq_shift) & (qp->rq_max - 1);
			slot = s->rbuf[q].va + (size_t)ind * SQP_SLOT;
			if (mthca_cqe_is_error(c)) {
				MTHCA_LOG(DEBUG, "%s: QP%u port %u: receive error 0x%02x", dev->name,
					  q, s->port, mthca_cqe_syndrome(c));
			} else if (dev->ibdev != NULL) {
				memset(&wc, 0, sizeof(wc));
				wc.src_qpn = mthca_cqe_src_qpn(c);
				wc.slid = mthca_cqe_slid(c);
				wc.pkey_index = mthca_cqe_pkey_index(c);
				wc.sl = mthca_cqe_sl(c);
				wc.path_bits = mthca_cqe_path_bits(c);
				wc.port = s->port;
				wc.qpn = (uint8_t)q;
				if (mthca_cqe_has_grh(c)) {
					wc.flags = RTE_IB_MAD_WC_GRH;
					memcpy(&wc.grh, slot, sizeof(wc.grh));
				}
				/* the handler copies what it keeps; the slot is reposted below */
				rte_ib_device_mad_recv(dev->ibdev, &wc, slot + MTHCA_GRH_SIZE,
						       RTE_IB_MAD_SIZE);
			}
			sqp_post_recv(dev, s, q);
			qp->rq_head++;
			/* the reposted WQE before the record that hands it over
			 * (Linux mthca_arbel_post_receive) */
			rte_wmb();
			mthca_put32((void *)(uintptr_t)qp->rq_rec, 0, qp->rq_head & 0xffff);
		}
		mthca_cqe_set_hw(c);
		cq->cons++;
		/* the owner byte back before the consumer index that lets the HCA
		 * reuse the entry (Linux update_cons_index) */
		rte_wmb();
		mthca_put32((void *)(uintptr_t)cq->set_ci_rec, 0, cq->cons);
	}
}

static int
ib_intr_fd(struct rte_ib_device *ib)
{
	struct mthca_dev *dev = to_dev(ib);

	return dev->comp_irq_direct ? dev->eq[MTHCA_EQ_COMP].irq_fd : dev->ctl_fd;
}

static int
ib_intr_process(struct rte_ib_device *ib)
{
	struct mthca_dev *dev = to_dev(ib);
	int fd = ib_intr_fd(ib);
	uint64_t v;
	unsigned int p;

	/* Read (clear) before draining: an event after it fires again. */
	if (fd >= 0 && read(fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		return -errno;
	if (dev->comp_irq_direct)
		mthca_eq_poll_comp(dev);
	for (p = 0; p < MTHCA_MAX_PORTS; p++) {
		struct mthca_sqp *s = dev->sqp[p];

		if (s == NULL || !s->up)
			continue;
		MTHCA_LOG(DEBUG, "%s: port %u special CQ 0x%x at %u", dev->name, s->port,
			  s->cq.cqn, s->cq.cons);
		pthread_mutex_lock(&s->lock);
		sqp_poll(dev, s, &s->cq);
		/* arm, then poll once more: nothing slips between (dp: arm-then-poll) */
		sqp_arm(s);
		sqp_poll(dev, s, &s->cq);
		sqp_poll(dev, s, &s->scq);
		pthread_mutex_unlock(&s->lock);
	}
	/* events of a device without interrupts (real hardware): poll the EQs too */
	if (dev->sim == NULL)
		mthca_eq_poll(dev);
	return 0;
}

/* ---- MAD sends (MLX) ------------------------------------------------------ */

static int
ib_mad_send(struct rte_ib_device *ib, uint8_t port, uint8_t qpn,
	    const struct rte_ib_mad_send_buf *buf)
{
	struct mthca_dev *dev = to_dev(ib);
	const struct rte_ib_ah_attr *ah = &buf->ah_attr;
	bool grh = (ah->ah_flags & RTE_IB_AH_GRH) != 0;
	struct mthca_next_seg *prev;
	struct mthca_mlx_seg *w;
	struct mthca_data_seg *d;
	struct mthca_sqp *s;
	struct mthca_qp *qp;
	uint16_t pkey = 0xffff, slid, hlen;
	uint32_t ind, qkey, flags;
	struct rte_ib_gid sgid;
	uint8_t *h;

	if (port == 0 || port > dev->num_ports || qpn > 1 || buf->mad == NULL ||
	    buf->len != RTE_IB_MAD_SIZE)
		return -EINVAL;
	s = dev->sqp[port - 1];
	if (s == NULL || !s->up)
		return -ENETDOWN;
	/*
	 * QP0's P_Key is not checked (IBA 10.9.3); QP1 takes the index given.
	 * Both tables from lib/ib's port cache, as Linux build_mlx_header()
	 * takes ib_get_cached_pkey()/ib_get_cached_gid(): a MAD_IFC per send
	 * would put a firmware command (a wait on the HCR) on every MAD.
	 */
	if (qpn == 1 && rte_ib_query_pkey(ib, port, buf->pkey_index, &pkey) != 0)
		return -rte_errno;
	if (grh && rte_ib_query_gid(ib, port, ah->grh.sgid_index, &sgid) != 0)
		return -rte_errno;
	pthread_mutex_lock(&s->lock);
	qp = &s->qp[qpn];
	sqp_poll(dev, s, &s->scq);
	if (qp->sq_head - s->sq_tail[qpn] >= qp->sq_max) {
		pthread_mutex_unlock(&s->lock);
		return -EAGAIN;
	}
	ind = qp->sq_head & (qp->sq_max - 1);
	h = s->sbuf[qpn].va + (size_t)ind * SQP_SLOT;
	memset(h, 0, SQP_MAD_OFF);
	memcpy(h + SQP_MAD_OFF, buf->mad, RTE_IB_MAD_SIZE);
	/* LRH (IBA 7.7): VL 15 for QP0, LNH 3 with a GRH; PktLen counts ICRC, not VCRC */
	hlen = 8 + (grh ? 40 : 0) + 12 + 8;
	slid = ah->dlid == LID_PERMISSIVE ? LID_PERMISSIVE : ah->src_path_bits;
	h[0] = qpn == 0 ? 0xf0 : 0x00;
	h[1] = (uint8_t)((ah->sl << 4) | (grh ? 3 : 2));
	mthca_put16(h, 2, ah->dlid);
	mthca_put16(h, 4, (uint16_t)((hlen + RTE_IB_MAD_SIZE + 4) / 4));
	mthca_put16(h, 6, slid);
	if (grh) {
		/* GRH (IBA 8.3): IPVer 6, PayLen = BTH..ICRC, NxtHdr 0x1b */
		mthca_put32(h, 8, (6u << 28) | ((uint32_t)ah->grh.traffic_class << 20) |
			    (ah->grh.flow_label & 0xfffff));
		mthca_put16(h, 12, 12 + 8 + RTE_IB_MAD_SIZE + 4);
		h[14] = 0x1b;
		h[15] = ah->grh.hop_limit;
		memcpy(h + 16, sgid.raw, 16);
		memcpy(h + 32, ah->grh.dgid.raw, 16);
	}
	/* BTH (IBA 9.2): UD SEND only, P_Key, DestQP, PSN */
	h += 8 + (grh ? 40 : 0);
	h[0] = 0x64;
	mthca_put16(h, 2, pkey);
	mthca_put32(h, 4, buf->remote_qpn & 0xffffff);
	mthca_put32(h, 8, s->psn[qpn]++ & 0xffffff);
	/* DETH (IBA 9.3.3): Q_Key (bit 31 set: the QP's own, IBA 10.2.4), SrcQP */
	qkey = buf->remote_qkey & 0x80000000u ? qp->qkey : buf->remote_qkey;
	mthca_put32(h, 12, qpn == 0 ? 0 : qkey);
	mthca_put32(h, 16, qpn);

	w = (struct mthca_mlx_seg *)(qp->buf.va + qp->send_off + ((size_t)ind << qp->sq_shift));
	flags = MTHCA_NEXT_CQ_UPDATE | ((uint32_t)(ah->sl & 0xf) << 8);
	if (qpn == 0)
		flags |= MTHCA_MLX_VL15;
	if (ah->dlid == LID_PERMISSIVE)
		flags |= MTHCA_MLX_SLR;
	mthca_mlx_seg_set(w, flags, ah->dlid);	/* rlid: the LRH DLID (PRM ctrl_mlx) */
	d = (struct mthca_data_seg *)(w + 1);
	mthca_dseg_set(&d[0], hlen, dev->ntmr.lkey, s->sbuf[qpn].iova + (uint64_t)ind * SQP_SLOT);
	mthca_dseg_set(&d[1], RTE_IB_MAD_SIZE, dev->ntmr.lkey,
		       s->sbuf[qpn].iova + (uint64_t)ind * SQP_SLOT + SQP_MAD_OFF);
	/* a 4-byte inline segment: the ICRC slot, 0 = the HCA computes it */
	mthca_dseg_set_inline_zero(&d[2], 4);
	prev = (struct mthca_next_seg *)(qp->buf.va + qp->send_off +
					 ((size_t)((ind - 1) & (qp->sq_max - 1)) << qp->sq_shift));
	mthca_next_set_op(prev, qp->send_off + (ind << qp->sq_shift), MTHCA_OPCODE_SEND);
	/* the whole WQE and the link to it before the DBD bit that makes the
	 * link valid: the HCA may follow it at once (rdma-core qp.c) */
	rte_wmb();
	mthca_next_set_nds(prev, 4);
	qp->sq_head++;
	/* descriptors before the doorbell record (udma_to_device_barrier) */
	rte_wmb();
	mthca_put32((void *)(uintptr_t)qp->sq_rec, 0, qp->sq_head & 0xffff);
	/* the record before the MMIO doorbell that makes the HCA read it */
	rte_wmb();
	mthca_doorbell64(qp->uar.page + MTHCA_UAR_SEND_DB,
			 mthca_send_db_hi(1, qp->sq_head - 1, MTHCA_OPCODE_SEND),
			 mthca_send_db_lo(qp->qpn, 4));
	pthread_mutex_unlock(&s->lock);
	return 0;
}

/* ---- MAD_IFC: the firmware's SMA and PMA (Linux mthca_process_mad) ------- */

static bool
mad_for_firmware(const uint8_t *mad)
{
	uint8_t cls = mad[MAD_MGMT_CLASS], method = mad[MAD_METHOD];
	uint16_t attr = mthca_get16(mad, MAD_ATTR_ID);

	if (cls == CLASS_SMI || cls == CLASS_SMI_DR)
		return (method == METHOD_GET || method == METHOD_SET ||
			method == METHOD_TRAP_REPRESS) &&
		       attr != ATTR_SM_INFO && (attr & 0xff00) != 0xff00;
	if (cls == CLASS_PERF || cls == CLASS_VENDOR_09 || cls == CLASS_VENDOR_0A)
		return method == METHOD_GET || method == METHOD_SET;
	return false;
}

static int
ib_process_mad(struct rte_ib_device *ib, uint8_t port, const struct rte_ib_mad_wc *wc,
	       const void *in_mad, void *out_mad)
{
	struct mthca_dev *dev = to_dev(ib);
	const uint8_t *in = in_mad;
	uint8_t *m, *out = out_mad;
	uint32_t in_mod = port;
	uint8_t op_mod;
	uint64_t outp;
	int st;

	if (port == 0 || port > dev->num_ports)
		return -EINVAL;
	if (!mad_for_firmware(in))
		return 0;
	pthread_mutex_lock(&dev->cmd_lock);
	m = dev->mbox_in.va;
	memset(m, 0, MTHCA_MIFC_IN_SIZE);
	memcpy(m, in, MTHCA_MAD_SIZE);
	if (wc != NULL) {
		mthca_put32(m, MTHCA_MIFC_EXT_MY_QPN, wc->qpn);
		mthca_put32(m, MTHCA_MIFC_EXT_RQPN, wc->src_qpn);
		mthca_put8(m, MTHCA_MIFC_EXT_SL, (uint8_t)(wc->sl << 4));
		mthca_put8(m, MTHCA_MIFC_EXT_G_PATH, (uint8_t)((wc->flags & RTE_IB_MAD_WC_GRH ?
								  0x80 : 0) | (wc->path_bits & 0x7f)));
		mthca_put16(m, MTHCA_MIFC_EXT_RLID, wc->slid);
		mthca_put16(m, MTHCA_MIFC_EXT_PKEY_IX, wc->pkey_index);
		if (wc->flags & RTE_IB_MAD_WC_GRH)
			memcpy(m + MTHCA_MIFC_EXT_GRH, &wc->grh, sizeof(wc->grh));
		op_mod = MTHCA_MIFC_OPMOD_EXT;
		in_mod |= (uint32_t)wc->slid << 16;
	} else {
		/* "key check traps can't be generated unless we have in_wc" */
		op_mod = MTHCA_MIFC_OPMOD_NO_MKEY | MTHCA_MIFC_OPMOD_NO_BKEY;
	}
	outp = dev->mbox_out.iova;
	st = mthca_cmd_locked(dev, dev->mbox_in.iova, &outp, in_mod, op_mod, MTHCA_CMD_MAD_IFC);
	if (st == MTHCA_ST_OK)
		memcpy(out, dev->mbox_out.va, MTHCA_MAD_SIZE);
	pthread_mutex_unlock(&dev->cmd_lock);
	if (st == MTHCA_ST_BAD_PKT)
		return 0;		/* firmware says: drop it */
	if (st != MTHCA_ST_OK)
		return mthca_status_errno(st);
	if (in[MAD_METHOD] == METHOD_TRAP_REPRESS)
		return 0;		/* no reply to a Trap Repress */
	/* firmware leaves the direction bit to the driver (Linux mthca_process_mad) */
	if (in[MAD_MGMT_CLASS] == CLASS_SMI_DR)
		mthca_put16(out, MAD_STATUS, mthca_get16(out, MAD_STATUS) | MAD_STATUS_DR_D);
	/* Linux node_desc_override */
	if ((in[MAD_MGMT_CLASS] == CLASS_SMI || in[MAD_MGMT_CLASS] == CLASS_SMI_DR) &&
	    out[MAD_METHOD] == METHOD_GET_RESP && mthca_get16(out, MAD_ATTR_ID) == ATTR_NODE_DESC &&
	    ib->node_desc[0] != '\0')
		memcpy(out + SMP_DATA, ib->node_desc, RTE_IB_NODE_DESC_LEN);
	return RTE_IB_MAD_RESULT_REPLY;
}

/* ---- queries -------------------------------------------------------------- */

static int
smp_get(struct mthca_dev *dev, uint8_t port, uint16_t attr, uint32_t mod, uint8_t *out)
{
	uint8_t in[MTHCA_MAD_SIZE];

	memset(in, 0, sizeof(in));
	in[0] = 1;			/* base version */
	in[MAD_MGMT_CLASS] = CLASS_SMI;
	in[2] = 1;			/* class version */
	in[MAD_METHOD] = METHOD_GET;
	mthca_put16(in, MAD_ATTR_ID, attr);
	mthca_put32(in, 20, mod);
	return mthca_mad_ifc_local(dev, port, in, out);
}

static int
pkey_of(struct mthca_dev *dev, uint8_t port, uint16_t index, uint16_t *pkey)
{
	uint8_t out[MTHCA_MAD_SIZE];
	int ret;

	if (index >= dev->pkey_len)
		return -EINVAL;
	ret = smp_get(dev, port, ATTR_PKEY_TABLE, index / 32, out);
	if (ret == 0)
		*pkey = mthca_get16(out, SMP_DATA + (index % 32) * 2);
	return ret;
}

static int
gid_of(struct mthca_dev *dev, uint8_t port, uint16_t index, uint8_t gid[16])
{
	struct mthca_port_info pi;
	uint8_t out[MTHCA_MAD_SIZE];
	int ret;

	if (index >= dev->gid_len)
		return -EINVAL;
	ret = mthca_port_query(dev, port, &pi);
	if (ret == 0)
		ret = smp_get(dev, port, ATTR_GUID_INFO, index / 8, out);
	if (ret != 0)
		return ret;
	mthca_put64(gid, 0, pi.gid_prefix);
	memcpy(gid + 8, out + SMP_DATA + (index % 8) * 8, 8);
	return 0;
}

/* The first @p n GIDs: one PortInfo (the prefix) and one GUIDInfo per 8. */
static int
ib_query_gid_table(struct rte_ib_device *ib, uint8_t port, uint16_t n, struct rte_ib_gid *gids)
{
	struct mthca_dev *dev = to_dev(ib);
	struct mthca_port_info pi;
	uint8_t out[MTHCA_MAD_SIZE];
	uint16_t i;
	int ret;

	if (port == 0 || port > dev->num_ports || n > dev->gid_len)
		return -EINVAL;
	ret = mthca_port_query(dev, port, &pi);
	for (i = 0; ret == 0 && i < n; i++) {
		if (i % 8 == 0)
			ret = smp_get(dev, port, ATTR_GUID_INFO, i / 8, out);
		if (ret != 0)
			break;
		mthca_put64(gids[i].raw, 0, pi.gid_prefix);
		memcpy(gids[i].raw + 8, out + SMP_DATA + (i % 8) * 8, 8);
	}
	return ret;
}

/* The first @p n P_Keys: one PKeyTable per 32. */
static int
ib_query_pkey_table(struct rte_ib_device *ib, uint8_t port, uint16_t n, uint16_t *pkeys)
{
	struct mthca_dev *dev = to_dev(ib);
	uint8_t out[MTHCA_MAD_SIZE];
	uint16_t i;
	int ret = 0;

	if (port == 0 || port > dev->num_ports || n > dev->pkey_len)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (i % 32 == 0)
			ret = smp_get(dev, port, ATTR_PKEY_TABLE, i / 32, out);
		if (ret != 0)
			break;
		pkeys[i] = mthca_get16(out, SMP_DATA + (i % 32) * 2);
	}
	return ret;
}

static int
ib_query_device(struct rte_ib_device *ib, struct rte_ib_device_attr *a)
{
	struct mthca_dev *dev = to_dev(ib);
	uint64_t node_guid, sys_guid;
	unsigned int maj, min, sub;
	uint16_t dev_id;
	uint32_t rev, vendor;
	int ret;

	ret = mthca_node_info(dev, &node_guid, &sys_guid, &dev_id, &rev, &vendor);
	if (ret != 0)
		return ret;
	memset(a, 0, sizeof(*a));
	mthca_fw_ver_split(dev->fw_ver, &maj, &min, &sub);
	a->fw_ver = ((uint64_t)maj << 32) | ((uint64_t)min << 16) | sub;
	a->sys_image_guid = sys_guid;
	a->vendor_id = vendor;
	a->vendor_part_id = dev_id;
	a->hw_ver = rev;
	/* Linux mthca_query_device: what the profile holds, minus the reserved */
	a->max_qp = dev->num_qps - dev->sqp_start - 2 * MTHCA_MAX_PORTS;
	a->max_qp_wr = dev->max_qp_sz;
	a->max_sge = dev->max_sg;
	a->max_cq = dev->num_cqs - dev->rsvd_cqs;
	a->max_cqe = dev->max_cq_sz - 1;
	a->max_pd = 1;
	a->max_mr = dev->num_mpts - dev->rsvd_mrws;
	a->max_ah = UINT32_MAX;		/* mem-free AVs live in host memory */
	a->max_mcast_grp = dev->num_mcgs;
	a->max_mcast_qp_attach = MTHCA_QP_PER_MGM;
	a->max_pkeys = (uint16_t)dev->pkey_len;
	return 0;
}

static int
ib_query_port(struct rte_ib_device *ib, uint8_t port, struct rte_ib_port_attr *a)
{
	struct mthca_dev *dev = to_dev(ib);
	struct mthca_port_info pi;
	int ret;

	if (port == 0 || port > dev->num_ports)
		return -EINVAL;
	ret = mthca_port_query(dev, port, &pi);
	if (ret != 0)
		return ret;
	memset(a, 0, sizeof(*a));
	a->cap_mask = pi.cap_mask;
	a->max_msg_sz = 1u << 11;	/* UD: one packet of at most 2 KiB */
	a->bad_pkey_cntr = pi.pkey_violations;
	a->qkey_viol_cntr = pi.qkey_violations;
	a->lid = pi.lid;
	a->sm_lid = pi.sm_lid;
	a->gid_tbl_len = (uint16_t)dev->gid_len;
	a->pkey_tbl_len = (uint16_t)dev->pkey_len;
	a->state = pi.state;
	a->phys_state = pi.phys_state;
	a->max_mtu = pi.mtu_cap;
	a->active_mtu = pi.mtu_active;
	a->lmc = pi.lmc;
	a->sm_sl = pi.sm_sl;
	a->max_vl_num = pi.vl_cap;
	a->subnet_timeout = pi.subnet_timeout;
	a->init_type_reply = pi.init_type_reply;
	a->active_width = pi.width_active;
	a->active_speed = pi.speed_active;
	return 0;
}

static int
ib_query_gid(struct rte_ib_device *ib, uint8_t port, uint16_t index, struct rte_ib_gid *gid)
{
	struct mthca_dev *dev = to_dev(ib);

	if (port == 0 || port > dev->num_ports)
		return -EINVAL;
	return gid_of(dev, port, index, gid->raw);
}

static int
ib_query_pkey(struct rte_ib_device *ib, uint8_t port, uint16_t index, uint16_t *pkey)
{
	struct mthca_dev *dev = to_dev(ib);

	if (port == 0 || port > dev->num_ports)
		return -EINVAL;
	return pkey_of(dev, port, index, pkey);
}

static int
ib_modify_port(struct rte_ib_device *ib, uint8_t port, uint32_t set, uint32_t clear)
{
	struct mthca_dev *dev = to_dev(ib);
	struct mthca_port_info pi;
	uint8_t *m;
	int ret, st;

	if (port == 0 || port > dev->num_ports)
		return -EINVAL;
	ret = mthca_port_query(dev, port, &pi);
	if (ret != 0)
		return ret;
	/* Linux mthca_modify_port: SET_IB with the new CapabilityMask */
	pthread_mutex_lock(&dev->cmd_lock);
	m = dev->mbox_in.va;
	memset(m, 0, MTHCA_SIB_SIZE);
	mthca_put32(m, MTHCA_SIB_CAP_MASK, (pi.cap_mask | set) & ~clear);
	st = mthca_cmd_locked(dev, dev->mbox_in.iova, NULL, port, 0, MTHCA_CMD_SET_IB);
	pthread_mutex_unlock(&dev->cmd_lock);
	return mthca_status_errno(st);
}

/* ---- address handles and multicast ---------------------------------------- */

static int
ib_ah_create(struct rte_ib_device *ib, const struct rte_ib_ah_attr *attr, struct rte_ib_ah **out)
{
	struct mthca_dev *dev = to_dev(ib);
	struct mthca_ah *ah;
	uint8_t *av;

	if (attr->port_num == 0 || attr->port_num > dev->num_ports || attr->sl > 15 ||
	    ((attr->ah_flags & RTE_IB_AH_GRH) && attr->grh.sgid_index >= dev->gid_len))
		return -EINVAL;
	ah = rte_zmalloc("mthca_ah", sizeof(*ah), RTE_CACHE_LINE_SIZE);
	if (ah == NULL)
		return -ENOMEM;
	av = ah->av;
	/* Linux mthca_create_ah, mem-free; PRM arbelprm_ud_address_vector_st */
	mthca_put32(av, MTHCA_AV_PORT_PD, ((uint32_t)attr->port_num << 24) | dev->pd);
	mthca_put8(av, MTHCA_AV_G_SLID, attr->src_path_bits & 0x7f);
	mthca_put16(av, MTHCA_AV_DLID, attr->dlid);
	mthca_put8(av, MTHCA_AV_MSG_SR, 3 << 4);	/* 2 KiB messages, full rate */
	mthca_put32(av, MTHCA_AV_SL_TC_FL, (uint32_t)attr->sl << 28);
	if (attr->ah_flags & RTE_IB_AH_GRH) {
		mthca_put8(av, MTHCA_AV_G_SLID, 0x80 | (attr->src_path_bits & 0x7f));
		mthca_put8(av, MTHCA_AV_GID_INDEX, (uint8_t)((attr->port_num - 1) * dev->gid_len +
							     attr->grh.sgid_index));
		mthca_put8(av, MTHCA_AV_HOP_LIMIT, attr->grh.hop_limit);
		mthca_put32(av, MTHCA_AV_SL_TC_FL, ((uint32_t)attr->sl << 28) |
			    ((uint32_t)attr->grh.traffic_class << 20) |
			    (attr->grh.flow_label & 0xfffff));
		memcpy(av + MTHCA_AV_DGID, attr->grh.dgid.raw, 16);
	} else {
		/* "Arbel workaround": rgid[31:0] = 2 without a GRH */
		mthca_put32(av, MTHCA_AV_DGID + 12, MTHCA_AV_RGID_NO_GRH);
	}
	*out = &ah->ib;
	return 0;
}

static int
ib_ah_destroy(struct rte_ib_device *ib, struct rte_ib_ah *ah)
{
	RTE_SET_USED(ib);
	rte_free(container_of(ah, struct mthca_ah, ib));
	return 0;
}

static int
ib_mcast_attach(struct rte_ib_device *ib, const struct rte_ib_gid *gid, uint16_t lid,
		uint32_t qpn)
{
	RTE_SET_USED(lid);
	return mthca_mcg_attach(to_dev(ib), gid->raw, qpn);
}

static int
ib_mcast_detach(struct rte_ib_device *ib, const struct rte_ib_gid *gid, uint16_t lid,
		uint32_t qpn)
{
	RTE_SET_USED(lid);
	return mthca_mcg_detach(to_dev(ib), gid->raw, qpn);
}

/* ---- UD queues and UD ports (the ethdevs; the core checked port_id is ours) -- */

static int
ib_ud_queue_info(struct rte_ib_device *ib, uint16_t port_id, uint16_t queue_id, bool tx,
		 struct rte_ib_ud_queue_info *info)
{
	if (to_dev(ib)->ev->port_of(to_dev(ib), port_id) == NULL)
		return -ENODEV;
	return mthca_queue_info(&rte_eth_devices[port_id], queue_id, tx, info);
}

static int
ib_ud_qkey_set(struct rte_ib_device *ib, uint16_t port_id, uint32_t qkey)
{
	if (to_dev(ib)->ev->port_of(to_dev(ib), port_id) == NULL)
		return -ENODEV;
	return mthca_queues_qkey_set(&rte_eth_devices[port_id], qkey);
}

static int
ib_ud_port_create(struct rte_ib_device *ib, uint8_t port, uint16_t pkey_index,
		  uint16_t *port_id)
{
	struct mthca_dev *dev = to_dev(ib);
	uint16_t pkey;
	int ret;

	/* the P_Key names the ethdev; the firmware's table, not a cache */
	ret = pkey_of(dev, port, pkey_index, &pkey);
	if (ret != 0) {
		MTHCA_LOG(ERR, "%s: port %u P_Key index %u: %s", dev->name, port, pkey_index,
			  strerror(-ret));
		return ret;
	}
	return dev->ev->ud_port_create(dev, port, pkey_index, pkey, port_id);
}

static int
ib_ud_port_destroy(struct rte_ib_device *ib, uint16_t port_id)
{
	struct mthca_port *p = to_dev(ib)->ev->port_of(to_dev(ib), port_id);
	int ret;

	if (p == NULL || !p->ud)
		return -ENODEV;
	/* ethdev refuses to close a started port; closing releases it */
	ret = rte_eth_dev_stop(port_id);
	if (ret == 0)
		ret = rte_eth_dev_close(port_id);
	return ret;
}

static int
ib_ud_port_pkey_index_set(struct rte_ib_device *ib, uint16_t port_id, uint16_t pkey_index)
{
	struct mthca_port *p = to_dev(ib)->ev->port_of(to_dev(ib), port_id);

	if (p == NULL)
		return -ENODEV;
	/* a QP takes its P_Key index leaving RESET: the queues' next start */
	p->pkey_index = pkey_index;
	return 0;
}

static int
ib_ud_port_lookup(struct rte_ib_device *ib, uint16_t port_id, uint8_t *port)
{
	return to_dev(ib)->ev->ud_port_lookup(to_dev(ib), port_id, port);
}

static const struct rte_ib_dev_ops mthca_ib_ops = {
	.query_device = ib_query_device,
	.query_port = ib_query_port,
	.query_gid = ib_query_gid,
	.query_pkey = ib_query_pkey,
	.modify_port = ib_modify_port,
	.ah_create = ib_ah_create,
	.ah_destroy = ib_ah_destroy,
	.mcast_attach = ib_mcast_attach,
	.mcast_detach = ib_mcast_detach,
	.mad_send = ib_mad_send,
	.process_mad = ib_process_mad,
	.intr_fd = ib_intr_fd,
	.intr_process = ib_intr_process,
	.query_gid_table = ib_query_gid_table,
	.query_pkey_table = ib_query_pkey_table,
	.ud_queue_info = ib_ud_queue_info,
	.ud_qkey_set = ib_ud_qkey_set,
	.ud_port_create = ib_ud_port_create,
	.ud_port_destroy = ib_ud_port_destroy,
	.ud_port_pkey_index_set = ib_ud_port_pkey_index_set,
	.ud_port_lookup = ib_ud_port_lookup,
};

/* ---- registration ---------------------------------------------------------- */

void
mthca_ib_port_event(struct mthca_dev *dev, uint8_t port, bool active)
{
	struct rte_ib_event ev;

	if (dev->ibdev == NULL || dev->ibdev->core == NULL)
		return;
	ev.dev = dev->ibdev;
	ev.type = active ? RTE_IB_EVENT_PORT_ACTIVE : RTE_IB_EVENT_PORT_ERR;
	ev.port = port;
	rte_ib_dispatch_event(&ev);
}

void
mthca_ib_fatal(struct mthca_dev *dev)
{
	struct rte_ib_event ev;

	if (dev->ibdev == NULL || dev->ibdev->core == NULL)
		return;
	ev.dev = dev->ibdev;
	ev.type = RTE_IB_EVENT_DEVICE_FATAL;
	ev.port = 0;
	rte_ib_dispatch_event(&ev);
}

void
mthca_ib_port_close(struct mthca_dev *dev, uint8_t port)
{
	struct mthca_ibdev *d = dev->ibdev != NULL ?
				container_of(dev->ibdev, struct mthca_ibdev, ib) : NULL;

	/* the IB device goes before what its ops use */
	if (d != NULL && d->registered) {
		rte_ib_device_unregister(&d->ib);
		d->registered = false;
	}
	if (dev->sqp[port - 1] != NULL) {
		struct mthca_sqp *s;

		/* the EQ drain looks at dev->sqp[] under eq_lock */
		pthread_mutex_lock(&dev->eq_lock);
		s = dev->sqp[port - 1];
		dev->sqp[port - 1] = NULL;
		pthread_mutex_unlock(&dev->eq_lock);
		sqp_destroy(dev, s);
	}
}

int
mthca_ib_register(struct mthca_dev *dev)
{
	uint64_t node_guid, sys_guid;
	struct mthca_ibdev *d;
	uint32_t rev, vendor;
	uint16_t dev_id;
	unsigned int p;
	int ret;

	dev->ctl_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (dev->ctl_fd < 0)
		return -errno;
	for (p = 1; p <= dev->num_ports; p++) {
		ret = sqp_create(dev, (uint8_t)p, &dev->sqp[p - 1]);
		if (ret != 0)
			return ret;
	}
	ret = mthca_node_info(dev, &node_guid, &sys_guid, &dev_id, &rev, &vendor);
	if (ret != 0) {
		MTHCA_LOG(ERR, "%s: NodeInfo from firmware: %s", dev->name, strerror(-ret));
		return ret;
	}
	d = rte_zmalloc("mthca_ibdev", sizeof(*d), 0);
	if (d == NULL)
		return -ENOMEM;
	d->dev = dev;
	snprintf(d->ib.name, sizeof(d->ib.name), "mthca_%.48s", dev->name);
	memcpy(d->ib.node_desc, dev->node_desc, RTE_MIN(sizeof(d->ib.node_desc),
							 strlen(dev->node_desc)));
	d->ib.node_guid = node_guid;
	d->ib.ops = &mthca_ib_ops;
	d->ib.dev_private = dev;
	d->ib.node_type = RTE_IB_NODE_CA;
	d->ib.phys_port_cnt = (uint8_t)dev->num_ports;
	/* in two loops: gcc -Warray-bounds (the ASan build) cannot tell that
	 * num_ports <= MTHCA_MAX_PORTS bounds eth_port[] inside one */
	for (p = 0; p < RTE_IB_DEV_MAX_PORTS; p++)
		d->ib.eth_port_id[p] = RTE_IB_NO_ETH_PORT;
	for (p = 0; p < dev->num_ports && p < MTHCA_MAX_PORTS; p++)
		if (dev->eth_port[p] != RTE_MAX_ETHPORTS)
			d->ib.eth_port_id[p] = dev->eth_port[p];
	dev->ibdev = &d->ib;
	if (rte_ib_device_register(&d->ib) != 0) {
		ret = -rte_errno;
		MTHCA_LOG(ERR, "%s: rte_ib_device_register: %s", dev->name, rte_strerror(rte_errno));
		return ret;
	}
	d->registered = true;
	MTHCA_LOG(INFO, "%s: IB device %s, node GUID 0x%016" PRIx64, dev->name, d->ib.name,
		  node_guid);
	return 0;
}

void
mthca_ib_unregister(struct mthca_dev *dev)
{
	unsigned int p;

	for (p = 1; p <= MTHCA_MAX_PORTS; p++)
		mthca_ib_port_close(dev, (uint8_t)p);
	if (dev->ibdev != NULL) {
		rte_free(container_of(dev->ibdev, struct mthca_ibdev, ib));
		dev->ibdev = NULL;
	}
	if (dev->ctl_fd >= 0)
		close(dev->ctl_fd);
	dev->ctl_fd = -1;
}
