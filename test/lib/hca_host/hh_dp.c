/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * hca_host: the data path as a mem-free host drives it. Send WQEs are
 * chained through their predecessor's next segment (mthca_arbel_post_send(): opcode and
 * nda first, barrier, then ee_nds with DBD and the size), then the SQ
 * doorbell record, then the UAR send doorbell (mthca_arbel_post_send()); receives only
 * advance the RQ doorbell record (mthca_arbel_post_receive()). CQEs are taken by owner bit
 * and handed back with 0x80 (next_cqe_sw()). The QP0/QP1 agent hands received
 * SMPs and PMA MADs to MAD_IFC and sends the answer with an MLX WQE
 * whose LRH/BTH/DETH it builds itself (build_mlx_header(), mthca_process_mad()).
 */

#include <errno.h>
#include <time.h>

#include "hh.h"

/* MAD header / SMP offsets (IBA 13.4.2, 14.2.1.2) */
#define MAD_CLASS		1
#define MAD_METHOD		3
#define MAD_STATUS		4
#define MAD_DR_HOP_PTR		6
#define MAD_DR_HOP_CNT		7
#define MAD_ATTR_ID		16
#define MAD_DR_SLID		32
#define MAD_DR_DLID		34
#define MAD_CLASS_SMI		0x01
#define MAD_CLASS_SMI_DR	0x81
#define MAD_CLASS_PERF		0x04
#define MAD_METHOD_GET		0x01
#define MAD_METHOD_SET		0x02
#define MAD_METHOD_TRAP_REPRESS	0x07
#define MAD_ATTR_SMINFO		0x0020
#define MAD_STATUS_DR_D		0x8000
#define LID_PERMISSIVE		0xffff

static void
wmb(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

uint8_t *
hh_sq_wqe(const struct hh_qp *qp, uint32_t i)
{
	return qp->sq_va + ((i & (qp->sq_max - 1)) << qp->sq_shift);
}

uint8_t *
hh_rq_wqe(const struct hh_qp *qp, uint32_t i)
{
	return qp->rq_va + ((i & (qp->rq_max - 1)) << qp->rq_shift);
}

uint32_t
hh_sq_addr(const struct hh_qp *qp, uint32_t i)
{
	return qp->sq_addr + ((i & (qp->sq_max - 1)) << qp->sq_shift);
}

uint32_t
hh_rq_addr(const struct hh_qp *qp, uint32_t i)
{
	return qp->rq_addr + ((i & (qp->rq_max - 1)) << qp->rq_shift);
}

uint32_t
hh_rq_index(const struct hh_qp *qp, uint32_t wqe)
{
	return ((wqe - qp->rq_addr) >> qp->rq_shift) & (qp->rq_max - 1);
}

/* Publish a WQE at ring index @p ind through its predecessor (mthca_arbel_post_send()). */
static void
link_send_wqe(struct hh_qp *qp, uint32_t ind, uint8_t op, uint32_t size, uint32_t d_bugs)
{
	uint8_t *p = hh_sq_wqe(qp, ind - 1);

	hh_put32(p, HH_WQE_NDA_OP, hh_sq_addr(qp, ind) | op);
	wmb();
	/* next segment always1, Linux's MTHCA_NEXT_DBD */
	hh_put32(p, HH_WQE_EE_NDS, ((d_bugs & HH_BUG_NEXT_DBD) ? 0 : HH_NDS_DBD) | size);
}

/*
 * The send doorbell (arbelprm_send_doorbell_st) for the @p cnt WQEs
 * posted since @p start: nopcode and nds of the first, wqe_counter =
 * WQEs posted before them, wqe_cnt (8 bits) = how many, qpn.
 */
static void
send_doorbell(struct hh_dev *d, struct hh_qp *qp, uint32_t start, uint32_t cnt, uint8_t op,
	      uint32_t size)
{
	uint32_t qpn = (d->bugs & HH_BUG_DB_QPN) ? d->bug_qpn : qp->qpn;

	if (d->bugs & HH_BUG_DB_COUNTER)
		start++;
	if (d->bugs & HH_BUG_DB_CNT0)
		cnt = 0;
	if (d->bugs & HH_BUG_NO_SEND_DB)
		return;
	wmb();
	hh_uar_write64(d, qp->uar, HH_UAR_SEND, ((cnt & 0xff) << 24) | ((start & 0xffff) << 8) | op,
		       (qpn << 8) | size);
}

/* Publish the WQEs up to sq_head in the SQ doorbell record. */
static void
send_record(struct hh_dev *d, struct hh_qp *qp)
{
	wmb();
	hh_put32(hh_dbr(d, qp->sq_db), 0, qp->sq_head & 0xffff);
}

static void
ring_send(struct hh_dev *d, struct hh_qp *qp, uint8_t op, uint32_t size)
{
	uint32_t start = qp->sq_head;

	qp->sq_head++;
	send_record(d, qp);
	send_doorbell(d, qp, start, 1, op, size);
}

int
hh_post_recv_sge(struct hh_dev *d, struct hh_qp *qp, uint32_t lkey, uint64_t addr, uint32_t len)
{
	uint8_t *w = hh_rq_wqe(qp, qp->rq_head);

	hh_put32(w, HH_WQE_FLAGS, 0);
	hh_put32(w, 16 + HH_DSEG_BYTE_COUNT, len);
	hh_put32(w, 16 + HH_DSEG_LKEY, lkey);
	hh_put64(w, 16 + HH_DSEG_ADDR, addr);
	qp->rq_head++;
	wmb();
	hh_put32(hh_dbr(d, qp->rq_db), 0, qp->rq_head & 0xffff);
	return 0;
}

int
hh_post_recv(struct hh_dev *d, struct hh_qp *qp, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		uint32_t ind = qp->rq_head & (qp->rq_max - 1);

		hh_post_recv_sge(d, qp, d->ntmr.lkey, qp->data.iova + (uint64_t)ind * HH_RECV_SLOT,
				 HH_RECV_SLOT);
	}
	return 0;
}

/* Write UD send WQE @p ind (ctrl, UD segment with the AV, one data segment). */
static void
fill_ud_wqe(struct hh_dev *d, struct hh_qp *qp, uint32_t ind, const struct hh_ud_dest *dst,
	    uint32_t lkey, uint64_t addr, uint32_t len, bool signaled)
{
	uint8_t *w = hh_sq_wqe(qp, ind);
	uint8_t *ud = w + 16;
	uint32_t pd = d->pd + ((d->bugs & HH_BUG_AV_PD) ? 1 : 0);
	uint32_t port = (d->bugs & HH_BUG_AV_PORT) ? (dst->port % 2) + 1 : dst->port;

	/* arbelprm_wqe_segment_ctrl_send_st: always1, c */
	hh_put32(w, HH_WQE_FLAGS, (signaled ? HH_WQE_F_CQ_UPDATE : 0) |
		 ((d->bugs & HH_BUG_CTRL_ALWAYS1) ? 0 : HH_WQE_F_ALWAYS1));
	memset(ud, 0, HH_UD_SEG_SIZE);
	hh_put32(ud, HH_UD_AV + HH_AV_PORT_PD, (port << 24) | pd);
	hh_put16(ud, HH_UD_AV + HH_AV_DLID, dst->dlid);
	hh_put8(ud, HH_UD_AV + HH_AV_MSG_SR, 0x30);
	hh_put32(ud, HH_UD_AV + HH_AV_SL_TC_FL, (uint32_t)dst->sl << 28);
	if (dst->grh) {
		hh_put8(ud, HH_UD_AV + HH_AV_G_SLID, 0x80);
		hh_put8(ud, HH_UD_AV + HH_AV_HOP_LIMIT, 1);
		memcpy(ud + HH_UD_AV + HH_AV_DGID, dst->dgid, 16);
	} else if (!(d->bugs & HH_BUG_AV_RGID)) {
		/* arbelprm_ud_address_vector_st.rgid_31_0: 0x2 without the G bit */
		hh_put32(ud, HH_UD_AV + HH_AV_DGID + 12, 2);
	}
	hh_put32(ud, HH_UD_DQPN, dst->dqpn);
	hh_put32(ud, HH_UD_QKEY, dst->qkey);
	hh_put32(w, 64 + HH_DSEG_BYTE_COUNT, len);
	hh_put32(w, 64 + HH_DSEG_LKEY, lkey);
	hh_put64(w, 64 + HH_DSEG_ADDR, addr);
	link_send_wqe(qp, ind, HH_OPCODE_SEND, 5, d->bugs);
}

int
hh_post_ud_send(struct hh_dev *d, struct hh_qp *qp, const struct hh_ud_dest *dst,
		uint32_t lkey, uint64_t addr, uint32_t len, bool signaled)
{
	fill_ud_wqe(d, qp, qp->sq_head, dst, lkey, addr, len, signaled);
	ring_send(d, qp, HH_OPCODE_SEND, 5);
	return 0;
}

int
hh_post_ud_send_batch(struct hh_dev *d, struct hh_qp *qp, const struct hh_ud_dest *dst,
		      uint32_t lkey, uint64_t addr, uint32_t len, uint32_t n, uint32_t per_db)
{
	uint32_t start = qp->sq_head, i;

	if (n > qp->sq_max || per_db == 0)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		fill_ud_wqe(d, qp, qp->sq_head, dst, lkey, addr, len, true);
		qp->sq_head++;
		/* mthca_arbel_post_send(): a doorbell every 255 WQEs, and one at the end */
		if (qp->sq_head - start == per_db || i + 1 == n) {
			send_record(d, qp);
			send_doorbell(d, qp, start, qp->sq_head - start, HH_OPCODE_SEND, 5);
			start = qp->sq_head;
		}
	}
	return 0;
}

int
hh_post_mlx_send(struct hh_dev *d, struct hh_qp *qp, const uint8_t *hdr, uint32_t hdr_len,
		 const uint8_t *mad, bool vl15, bool slr, uint8_t sl, uint16_t dlid)
{
	uint32_t ind = qp->sq_head & (qp->sq_max - 1);
	uint8_t *w = hh_sq_wqe(qp, ind);
	uint8_t *slot = qp->hdr.va + (size_t)ind * HH_MLX_SLOT;
	uint64_t slot_iova = qp->hdr.iova + (uint64_t)ind * HH_MLX_SLOT;

	memcpy(slot, hdr, hdr_len);
	memcpy(slot + 128, mad, 256);
	/* struct mthca_mlx_seg: the MLX segment replaces flags/imm; solicited and bit 0 clear */
	hh_put32(w, HH_WQE_FLAGS, HH_WQE_F_CQ_UPDATE | (vl15 ? HH_MLX_VL15 : 0) |
		 (slr ? HH_MLX_SLR : 0) | ((uint32_t)(sl & 0xf) << 8));
	/* arbelprm_wqe_segment_ctrl_mlx_st.rlid: the headers' DLID */
	hh_put16(w, HH_MLX_RLID, (d->bugs & HH_BUG_MLX_RLID) ? dlid ^ 1 : dlid);
	hh_put16(w, HH_MLX_RLID + 2, 0);
	hh_put32(w, 16 + HH_DSEG_BYTE_COUNT, hdr_len);
	hh_put32(w, 16 + HH_DSEG_LKEY, d->ntmr.lkey);
	hh_put64(w, 16 + HH_DSEG_ADDR, slot_iova);
	hh_put32(w, 32 + HH_DSEG_BYTE_COUNT, 256);
	hh_put32(w, 32 + HH_DSEG_LKEY, d->ntmr.lkey);
	hh_put64(w, 32 + HH_DSEG_ADDR, slot_iova + 128);
	/* mthca_arbel_post_send(): 4-byte inline placeholder for the ICRC */
	hh_put32(w, 48, HH_INLINE_SEG | 4);
	hh_put32(w, 52, 0);
	link_send_wqe(qp, ind, HH_OPCODE_SEND, 4, d->bugs);
	ring_send(d, qp, HH_OPCODE_SEND, 4);
	return 0;
}

int
hh_cq_poll(struct hh_dev *d, struct hh_cq *cq, uint8_t *cqe)
{
	uint8_t *e = cq->buf.va + (size_t)(cq->cons & (cq->nent - 1)) * HH_CQE_SIZE;

	if (__atomic_load_n(&e[HH_CQE_OWNER], __ATOMIC_ACQUIRE) & HH_OWNER_HW)
		return 0;
	memcpy(cqe, e, HH_CQE_SIZE);
	e[HH_CQE_OWNER] = HH_OWNER_HW;
	cq->cons++;
	wmb();
	hh_put32(hh_dbr(d, cq->set_ci_db), 0, cq->cons);
	return 1;
}

static uint64_t
now_ms(void)
{
	return hh_now_us() / 1000;
}

int
hh_cq_wait(struct hh_dev *d, struct hh_cq *cq, uint8_t *cqe, int ms)
{
	uint64_t end = now_ms() + ms;
	unsigned int spins = 1000;

	while (now_ms() <= end) {
		if (hh_cq_poll(d, cq, cqe))
			return 1;
		hh_idle(d, ++spins);
	}
	return 0;
}

void
hh_cq_arm(struct hh_dev *d, struct hh_cq *cq, bool solicited)
{
	uint32_t sn = cq->arm_sn & 3, cmd = solicited ? HH_CQ_DB_REQ_NOT_SOL : HH_CQ_DB_REQ_NOT;
	uint8_t *r = hh_dbr(d, cq->arm_db);

	/* mthca_arbel_arm_cq(): arm record, barrier, then the UAR CQ doorbell */
	hh_put32(r, 0, cq->cons);
	hh_put32(r, 4, (cq->cqn << 8) | ((uint32_t)HH_DBR_CQ_ARM << 5) | (sn << 3) | cmd);
	wmb();
	hh_uar_write64(d, cq->uar, HH_UAR_CQ, (sn << 28) | (cmd << 24) | cq->cqn, cq->cons);
}

/* ---- the QP0/QP1 agent ---------------------------------------------------- */

/* LRH (IBA 7.7) + BTH (9.2) + DETH (9.3.3): 28 bytes, no GRH, 256-byte payload. */
void
hh_build_ud_headers(uint8_t *h, uint8_t vl, uint8_t sl, uint16_t dlid, uint16_t slid,
		 uint16_t pkey, uint32_t dqp, uint32_t psn, uint32_t qkey, uint32_t sqp)
{
	memset(h, 0, 28);
	h[0] = (uint8_t)(vl << 4);
	h[1] = (uint8_t)((sl << 4) | 2);	/* LNH 2: IBA local */
	hh_put16(h, 2, dlid);
	hh_put16(h, 4, (8 + 12 + 8 + 256 + 4) / 4);
	hh_put16(h, 6, slid);
	h[8] = 0x64;				/* UD SEND only */
	hh_put16(h, 10, pkey);
	hh_put32(h, 12, dqp & 0xffffff);
	hh_put32(h, 16, psn & 0xffffff);
	hh_put32(h, 20, qkey);
	hh_put32(h, 24, sqp & 0xffffff);
}

/* mthca_process_mad(): which MADs firmware answers through MAD_IFC */
static bool
mad_for_firmware(const uint8_t *mad)
{
	uint8_t cls = mad[MAD_CLASS], method = mad[MAD_METHOD];
	uint16_t attr = hh_get16(mad, MAD_ATTR_ID);

	if (cls == MAD_CLASS_SMI || cls == MAD_CLASS_SMI_DR)
		return (method == MAD_METHOD_GET || method == MAD_METHOD_SET ||
			method == MAD_METHOD_TRAP_REPRESS) &&
		       attr != MAD_ATTR_SMINFO && (attr & 0xff00) != 0xff00;
	if (cls == MAD_CLASS_PERF)
		return method == MAD_METHOD_GET || method == MAD_METHOD_SET;
	return false;
}

static void
answer(struct hh_dev *d, struct hh_qp *qp, const uint8_t *cqe, uint8_t *resp, bool qp0)
{
	uint16_t rlid = hh_get16(cqe, HH_CQE_RLID), dlid, slid = 0;
	uint8_t sl = hh_get8(cqe, HH_CQE_SL) >> 4;
	bool slr = false;
	uint8_t hdr[28];

	dlid = rlid;
	if (qp0 && resp[MAD_CLASS] == MAD_CLASS_SMI_DR) {
		uint8_t hc = resp[MAD_DR_HOP_CNT], hp = resp[MAD_DR_HOP_PTR];

		/* IBA 14.2.2.3: the responder sets D; Linux does it after MAD_IFC */
		if (!(d->bugs & HH_BUG_DR_NO_D))
			hh_put16(resp, MAD_STATUS, hh_get16(resp, MAD_STATUS) | MAD_STATUS_DR_D);
		if (hh_get16(resp, MAD_DR_DLID) != LID_PERMISSIVE) {
			dlid = rlid;			/* 14.2.2.4: LID-routed back */
		} else if (hc != 0 && (hp == hc || hp == hc + 1)) {
			/* arrived with hp == hc (C14-9:2 makes it hc + 1 at the
			 * end node); the reply starts the return walk at hc */
			resp[MAD_DR_HOP_PTR] = hc;	/* C14-13:1 */
			dlid = slid = LID_PERMISSIVE;
			slr = true;
		} else if (hc == 0 && hp == 1) {
			resp[MAD_DR_HOP_PTR] = 0;	/* C14-13:3 */
			if (hh_get16(resp, MAD_DR_SLID) == LID_PERMISSIVE) {
				dlid = slid = LID_PERMISSIVE;
				slr = true;
			} else {
				dlid = hh_get16(resp, MAD_DR_SLID);
			}
		} else {
			HH_LOG("DR SMP: hop ptr %u count %u: dropped", hp, hc);
			return;
		}
	}
	hh_build_ud_headers(hdr, qp0 ? 15 : 0, sl, dlid, slid, 0xffff,
			 qp0 ? 0 : hh_get32(cqe, HH_CQE_RQPN) & 0xffffff, qp->psn++,
			 qp0 ? 0 : 0x80010000u, qp0 ? 0 : 1);
	hh_post_mlx_send(d, qp, hdr, sizeof(hdr), resp, qp0, slr, sl, dlid);
}

int
hh_sma_poll(struct hh_dev *d, struct hh_qp *qp0, struct hh_qp *qp1, uint16_t *port_lid)
{
	uint8_t cqe[HH_CQE_SIZE], ext[256], resp[256];
	int handled = 0;
	struct hh_cq *cqs[2] = { qp0->rcq, qp0->scq };
	unsigned int c;

	(void)port_lid;
	for (c = 0; c < 2; c++) {
		while (hh_cq_poll(d, cqs[c], cqe)) {
			uint32_t qpn = hh_get32(cqe, HH_CQE_MY_QPN) & 0xffffff;
			uint8_t op = hh_get8(cqe, HH_CQE_OPCODE);
			struct hh_qp *qp = qpn == qp0->qpn ? qp0 : qpn == qp1->qpn ? qp1 : NULL;
			uint32_t ind;
			const uint8_t *mad;
			int st;

			if (qp == NULL) {
				HH_ERR("special CQ: CQE for QPN 0x%x", qpn);
				continue;
			}
			if (op == HH_CQE_OP_ERR_SEND) {
				qp->sends_err++;
				qp->last_err_synd = hh_get8(cqe, HH_CQE_SYNDROME);
			}
			if ((op & 0xfe) == 0xfe) {
				HH_ERR("QP 0x%x: error CQE syndrome 0x%02x", qpn,
				       hh_get8(cqe, HH_CQE_SYNDROME));
				continue;
			}
			if (hh_get8(cqe, HH_CQE_IS_SEND) & 0x80) {
				qp->sends_ok++;
				continue;
			}
			ind = hh_rq_index(qp, hh_get32(cqe, HH_CQE_WQE));
			mad = qp->data.va + (size_t)ind * HH_RECV_SLOT + 40;
			if (mad_for_firmware(mad)) {
				memset(ext, 0, sizeof(ext));
				hh_put32(ext, 0x00, qp == qp0 ? 0 : 1);
				hh_put32(ext, 0x08, hh_get32(cqe, HH_CQE_RQPN) & 0xffffff);
				hh_put8(ext, 0x0c, hh_get8(cqe, HH_CQE_SL) & 0xf0);
				hh_put8(ext, 0x0d, hh_get8(cqe, HH_CQE_G_PATH));
				hh_put16(ext, 0x0e, hh_get16(cqe, HH_CQE_RLID));
				hh_put16(ext, 0x12, hh_get32(cqe, HH_CQE_IMM_PKEY) >> 16);
				st = hh_mad_ifc(d, qp->port, mad, resp, ext, hh_get16(cqe, HH_CQE_RLID),
						4);
				if (st == HH_ST_OK && mad[MAD_METHOD] != MAD_METHOD_TRAP_REPRESS)
					answer(d, qp, cqe, resp, qp == qp0);
				else if (st != HH_ST_OK && st != HH_ST_BAD_PKT)
					HH_ERR("MAD_IFC: status 0x%02x", st);
				handled++;
			}
			hh_post_recv(d, qp, 1);
		}
	}
	return handled;
}
