/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * MT25208 model, data path: send WQE execution. Gather, UD and MLX
 * sends, the per-QP service loop a doorbell starts (doc/guides/nics/
 * mthca_hw.rst, "Data path").
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fab_link.h"
#include "fab_log.h"
#include "fab_node.h"
#include "fab_pkt.h"
#include "fab_route.h"
#include "fabric.h"
#include "ib_proto.h"
#include "mad.h"
#include "mt25208.h"
#include "mt25208_dp_cqe.h"
#include "mt25208_dp_send.h"
#include "mt25208_dp_state.h"
#include "mt25208_guard.h"
#include "port_state.h"

/* ---- send WQE execution (mthca_arbel_post_send(), IBA 9.2) ------------- */

/*
 * Gather the data segments of @p w from @p off to @p end into @p dst.
 * Returns the byte count, or a negative errno (-EMSGSIZE: more than
 * @p max bytes; -EACCES/-EFAULT from the MR check).
 */
static int
gather(struct mt25208 *dev, uint32_t pd, const uint8_t *w, uint32_t off, uint32_t end,
       uint32_t max, uint8_t *dst)
{
	uint32_t total = 0;
	int rc;

	while (off + MT_DSEG_SIZE <= end) {
		uint32_t cnt = mt_dseg_count(w + off);

		if (cnt & MT_DSEG_INLINE) {
			/* struct mthca_inline_seg: header word, then the bytes, 16-byte aligned */
			cnt &= 0x3ff;
			if (off + 4 + cnt > end || total + cnt > max)
				return -EMSGSIZE;
			memcpy(dst + total, w + off + 4, cnt);
			total += cnt;
			off += (4 + cnt + 15) & ~15u;
			continue;
		}
		if (total + cnt > max)
			return -EMSGSIZE;
		rc = mt25208_mr_access(dev, mt_dseg_lkey(w + off), pd, mt_dseg_addr(w + off),
				       dst + total, cnt, false);
		if (rc != 0)
			return rc;
		total += cnt;
		off += MT_DSEG_SIZE;
	}
	return (int)total;
}

static uint32_t
qpc_mtu_bytes(const void *qpc)
{
	uint8_t mtu = mt_qpc_mtu(qpc);

	return mtu >= 1 && mtu <= 5 ? 128u << mtu : 2048;
}

/* UD send: the HCA builds LRH/GRH/BTH/DETH (IBA 9.2). */
static int
exec_ud(struct mt25208 *dev, void *qpc, uint32_t qpn, const uint8_t *w, uint32_t size,
	uint8_t op)
{
	struct mt25208_dp *dp = dp_of(dev);
	struct fab_port *port = dev_port(dev, mt_qpc_port(qpc));
	const uint8_t *av = w + MT_WQE_NEXT_SIZE + MT_UD_AV;
	const uint8_t *ud = w + MT_WQE_NEXT_SIZE;
	struct fab_pkt_addr a;
	struct fab_pkt *p;
	uint8_t *payload;
	uint32_t qkey, psn;
	int len;

	uint32_t gix;

	if (op != MT_OP_SEND || size < MT_WQE_NEXT_SIZE + MT_UD_SEG_SIZE || port == NULL)
		return -EINVAL;
	/* PRM arbelprm_ud_address_vector_st, checked against the QP (Linux mthca_create_ah) */
	if (mt_av_pd(av) != mt_qpc_pd(qpc)) {
		dp->chk = MT25208_CHK_AV_PD;
		return -EINVAL;
	}
	if ((dev->cfg.flags2 & MT_IHCA_FLAGS2_UDP) && mt_av_port(av) != mt_qpc_port(qpc)) {
		dp->chk = MT25208_CHK_AV_PORT;
		return -EINVAL;
	}
	/* mgid_index = (port - 1) * 2^log_max_gid + gid_index: HCA-wide */
	gix = mt_av_mgid_index(av) - (uint32_t)(port->num - 1) * (1u << MT25208_LOG_GID);
	if (mt_av_grh(av) && gix >= (1u << MT25208_LOG_GID)) {
		dp->chk = MT25208_CHK_AV_GID_INDEX;
		return -EINVAL;
	}
	if (!mt_av_grh(av) && mt_av_rgid_low(av) != MT_AV_RGID_NO_GRH) {
		dp->chk = MT25208_CHK_AV_RGID;
		return -EINVAL;
	}
	memset(&a, 0, sizeof(a));
	a.sl = mt_av_sl(av);
	a.vl = port->sl2vl[a.sl] & 0xf;
	a.dlid = mt_av_dlid(av);
	a.slid = port->lid | (mt_av_path_bits(av) & lmc_mask(port));
	if (mt_av_grh(av)) {
		a.grh = true;
		a.tclass = mt_av_tclass(av);
		a.flow_label = mt_av_flow_label(av);
		a.hop_limit = mt_av_hop_limit(av);
		/* SGID = GID prefix : GUID at the AV's index, wire order (IBA 4.1.1) */
		mt_put64(a.sgid, 0, port->gid_prefix);
		mt_put64(a.sgid, 8, port->guids[gix % FAB_GUID_CAP]);
		memcpy(a.dgid, av + MT_AV_DGID, 16);
	}
	a.pkey = port->pkeys[mt_qpc_pkey_index(qpc) % FAB_PKEY_TABLE_SIZE];
	a.dest_qp = mt_ud_dqpn(ud);
	qkey = mt_ud_qkey(ud);
	a.qkey = (qkey & MT_QKEY_USE_QP) ? mt_qpc_qkey(qpc) : qkey;	/* IBA 10.2.4 */
	a.src_qp = qpn;
	a.solicited = (mt_wqe_flags(w) & MT_WQE_F_SOLICIT) != 0;

	/*
	 * Gather straight into the packet's payload (one copy, not two);
	 * with no packet to be had the wire dropped it, and the gather into
	 * dp->buf still checks the L_Keys as the HCA would.
	 */
	p = fab_pkt_alloc(dev->fab);
	payload = p != NULL ? p->data + pkt_ud_payload_offset(a.grh) : dp->buf;
	dp->tx_pkt = p;		/* host memory ahead: mt25208_dp_bus_error() frees it */
	len = gather(dev, mt_qpc_pd(qpc), w, MT_WQE_NEXT_SIZE + MT_UD_SEG_SIZE, size,
		     qpc_mtu_bytes(qpc), payload);
	if (len < 0) {
		dp->tx_pkt = NULL;
		if (p != NULL)
			fab_pkt_free(dev->fab, p);
		return len;
	}
	psn = mt_qpc_next_send_psn(qpc);
	a.psn = psn;
	mt_put32(qpc, MT_QPC_NEXT_SEND_PSN, (psn + 1) & 0xffffff);
	dp->tx_pkt = NULL;
	if (p == NULL)
		return 0;	/* the wire dropped it; the WQE still completes */
	/* CRCs only when someone looks at the wire bytes (fab_pkt.crc_pending) */
	if (pkt_build_ud_lazy(p, &a, payload, (uint32_t)len) != 0) {
		fab_pkt_free(dev->fab, p);
		return -EMSGSIZE;
	}
	fab_node_output(dev->fab, port, p);
	dp->st.sends++;
	return 0;
}

/*
 * MLX send (QP0/QP1): the driver built LRH..DETH and the ICRC dword; the
 * HCA checks rlid against the LRH DLID and fills in the CRCs the
 * segment's icrc/vcrc fields leave to it (PRM arbelprm_wqe_segment_ctrl_mlx_st).
 * A supplied ICRC or VCRC goes on the wire as given: the receiver checks it.
 */
static int
exec_mlx(struct mt25208 *dev, void *qpc, uint32_t qpn, const uint8_t *w, uint32_t size,
	 uint8_t op)
{
	struct mt25208_dp *dp = dp_of(dev);
	uint32_t flags = mt_wqe_flags(w);
	uint8_t icrc = mt_mlx_icrc(flags);
	uint16_t vcrc = mt_get16(w, MT_MLX_VCRC);
	struct fab_port *port;
	struct fab_pkt *p;
	uint8_t sport, kind;
	uint32_t last;
	int len;

	if (op != MT_OP_SEND && op != MT_OP_SEND_IMM)
		return -EINVAL;
	if (!mt25208_qp_special(dev, qpn, &sport, &kind))
		sport = mt_qpc_port(qpc);
	port = dev_port(dev, sport);
	if (port == NULL)
		return -EINVAL;
	len = gather(dev, mt_qpc_pd(qpc), w, MT_WQE_NEXT_SIZE, size,
		     FAB_PKT_MAX - DP_VCRC_LEN, dp->buf);
	if (len < 0)
		return len;
	if (len < DP_LRH_LEN + DP_BTH_LEN + DP_DETH_LEN + DP_ICRC_LEN)
		return -EMSGSIZE;
	if (mt_get16(w, MT_MLX_RLID) != mt_get16(dp->buf, 2)) {
		dp->chk = MT25208_CHK_MLX_RLID;
		return -EINVAL;
	}
	/* icrc 0: HCA computes, last dword 0; 3: as given, not 0; 1, 2 reserved */
	last = mt_get32(dp->buf, (uint32_t)len - DP_ICRC_LEN);
	if (icrc == 1 || icrc == 2 || (icrc == MT_MLX_ICRC_HCA && last != 0) ||
	    (icrc == MT_MLX_ICRC_SW && last == 0)) {
		dp->chk = MT25208_CHK_MLX_ICRC;
		return -EINVAL;
	}
	p = fab_pkt_alloc(dev->fab);
	if (p == NULL)
		return 0;
	memcpy(p->data, dp->buf, (size_t)len);
	p->len = (uint32_t)len + DP_VCRC_LEN;
	if (flags & MT_MLX_VL15)
		p->data[0] = (uint8_t)(0xf0 | (p->data[0] & 0x0f));
	/* slr clear: the HCA supplies the port's LID | the path bits given */
	if (!(flags & MT_MLX_SLR))
		mt_put16(p->data, 6, port->lid | (mt_get16(p->data, 6) & lmc_mask(port)));
	pkt_update_crcs(p);
	if (icrc == MT_MLX_ICRC_SW || vcrc != 0) {
		if (icrc == MT_MLX_ICRC_SW)
			mt_put32(p->data, (uint32_t)len - DP_ICRC_LEN, last);
		if (vcrc != 0)
			memcpy(p->data + len, w + MT_MLX_VCRC, DP_VCRC_LEN);
		p->crc_valid = false;	/* as given: every receiver checks it */
	}
	fab_node_output(dev->fab, port, p);
	dp->st.sends++;
	return 0;
}

/* The console asked for the next send WQE of @p qpn to fail (dp_fab_fail_send). */
static inline bool
fail_send_due(const struct mt25208_dp *dp, uint32_t qpn)
{
	return __builtin_expect(dp->fail_send, 0) && dp->fail_send_qpn == qpn;
}

/* Complete SQ WQE @p low with a local QP operation error: QP to ERR. */
void
dp_send_qp_op_error(struct mt25208 *dev, void *qpc, void *eqpc, uint32_t qpn, uint32_t low,
		 enum mt25208_check chk, const char *detail)
{
	dp_qp_check_fail(dev, eqpc, qpn, chk, detail);
	dp_err_cqe(dev, qpn, mt_qpc_cqn_snd(qpc), low, true, MT_SYND_LOCAL_QP_OP, 0);
	dp_qp_to_error(dev, qpc, qpn);
}

/* Execute SQ WQE number @p n of QP @p qpn; false: the QP went to ERR. */
bool
dp_exec_send(struct mt25208 *dev, void *qpc, void *eqpc, uint32_t qpn, uint32_t n)
{
	struct mt25208_dp *dp = dp_of(dev);
	uint8_t stride = mt_qpc_sq_log_stride(qpc);
	uint32_t low = sq_wqe_low(qpc, n), prev_low = sq_wqe_low(qpc, n - 1);
	uint8_t prev[MT_WQE_NEXT_SIZE], cqe[MT_CQE_SIZE], vendor;
	uint32_t size, pd = mt_qpc_pd(qpc);
	uint8_t op, st = mt_qpc_st(qpc);
	int rc;

	/* opcode and size of WQE n are in the next segment of WQE n - 1 */
	if (dp->prev_valid && dp->prev_qpn == qpn && dp->prev_n == n) {
		memcpy(prev, dp->prev, sizeof(prev));
		rc = 0;
	} else {
		rc = mt25208_mr_access(dev, mt_qpc_wqe_lkey(qpc), pd, wqe_va(qpc, prev_low), prev,
				       sizeof(prev), false);
	}
	size = rc == 0 ? (uint32_t)mt_wqe_next_size(prev) * 16 : 0;
	op = rc == 0 ? mt_wqe_next_op(prev) : 0;
	if (rc == 0 && (size < MT_WQE_NEXT_SIZE || size > (1u << stride) ||
			mt_wqe_next_off(prev) != low)) {
		dp_send_qp_op_error(dev, qpc, eqpc, qpn, low, MT25208_CHK_WQE_CHAIN, NULL);
		return false;
	}
	if (rc == 0 && !(mt_get32(prev, MT_WQE_EE_NDS) & MT_WQE_NDS_ALWAYS1)) {
		dp_send_qp_op_error(dev, qpc, eqpc, qpn, low, MT25208_CHK_WQE_DBD, NULL);
		return false;
	}
	if (rc == 0)
		rc = mt25208_mr_access(dev, mt_qpc_wqe_lkey(qpc), pd, wqe_va(qpc, low), dp->wqe,
				       size, false);
	if (rc == -EFAULT) {
		/* a WQE fetch the IOMMU refuses: a bus error, fatal to the HCA */
		mt25208_catas(dev, MT_CATAS_UPLINK_BUS, "send WQE fetch: DMA fault",
			      wqe_va(qpc, low));
		return false;
	}
	if (rc != 0) {
		uint8_t data[MT_EQE_DATA_SIZE];

		memset(data, 0, sizeof(data));
		mt_put32(data, 0, qpn);
		/* the WQE refused by its MR: a work-queue catastrophic error */
		mt25208_event(dev, MT_EV_WQ_CATAS, 0, data);
		dp_err_cqe(dev, qpn, mt_qpc_cqn_snd(qpc), low, true, dp_synd_of(rc, &vendor), 0);
		dp_qp_to_error(dev, qpc, qpn);
		return false;
	}
	if (st != MT_QP_ST_MLX && !(mt_wqe_flags(dp->wqe) & MT_WQE_F_ALWAYS1)) {
		dp_send_qp_op_error(dev, qpc, eqpc, qpn, low, MT25208_CHK_CTRL_ALWAYS1, NULL);
		return false;
	}
	dp->chk = -1;
	if (fail_send_due(dp, qpn)) {
		/* the console's fault: what exec_ud() does when gather() gets -EACCES */
		dp->fail_send = false;
		dp->st.fail_sends++;
		FAB_INFO("mt25208 %s: QP 0x%x: send WQE 0x%x failed as asked (local protection)",
			 dev->node->name, qpn, low);
		dp_err_cqe(dev, qpn, mt_qpc_cqn_snd(qpc), low, true, MT_SYND_LOCAL_PROT, 0);
		dp_qp_to_error(dev, qpc, qpn);
		return false;
	}
	if (st == MT_QP_ST_UD)
		rc = exec_ud(dev, qpc, qpn, dp->wqe, size, op);
	else if (st == MT_QP_ST_MLX)
		rc = exec_mlx(dev, qpc, qpn, dp->wqe, size, op);
	else
		rc = -EINVAL;	/* RC/UC transports are not modelled */
	if (rc != 0) {
		uint8_t synd = rc == -EINVAL ? MT_SYND_LOCAL_QP_OP :
			       rc == -EMSGSIZE ? MT_SYND_LOCAL_LENGTH : dp_synd_of(rc, &vendor);

		if (rc == -EINVAL || rc == -EMSGSIZE)
			vendor = 0;
		if (dp->chk >= 0)
			dp_qp_check_fail(dev, eqpc, qpn, (enum mt25208_check)dp->chk, NULL);
		dp_err_cqe(dev, qpn, mt_qpc_cqn_snd(qpc), low, true, synd, vendor);
		dp_qp_to_error(dev, qpc, qpn);
		return false;
	}
	/* SSC: every send completes; else only WQEs with the C bit */
	if ((mt_wqe_flags(dp->wqe) & MT_WQE_F_CQ_UPDATE) || mt_qpc_ssc(qpc)) {
		memset(cqe, 0, sizeof(cqe));
		mt_cqe_set_qpn(cqe, qpn);
		mt_cqe_set_wqe(cqe, low);
		mt_cqe_set_opcode(cqe, op, true);
		dp_cqe_post(dev, mt_qpc_cqn_snd(qpc), cqe, false, false, false);
	}
	return true;
}

/*
 * Run or flush the work the doorbells gave one QP. Returns true if it did
 * anything; *gone when nothing is left to do (or the QP is in RESET or
 * its context unmapped): it is tracked again at its next doorbell.
 */
bool
dp_qp_service(struct mt25208 *dev, uint32_t qpn, bool *gone)
{
	void *qpc = mt25208_qpc(dev, qpn);
	void *eqpc = mt25208_eqpc(dev, qpn);
	uint32_t done, target, budget = DP_SQ_BUDGET;
	uint8_t state;
	bool busy = false;

	*gone = true;
	if (qpc == NULL || eqpc == NULL)
		return false;
	state = mt_qpc_state(qpc);
	if (state == MT_QPS_ERR) {
		dp_qp_flush(dev, qpc, eqpc, qpn);
		return false;
	}
	if (state != MT_QPS_RTS)
		return false;	/* SQD, SQE: work waits for the next doorbell after RTS */
	target = mt_get32(eqpc, MT_EQPC_SQ_TARGET) & 0xffff;
	done = mt_get32(eqpc, MT_EQPC_SQ_DONE) & 0xffff;
	/* the doorbell came after the WQEs (the driver's barrier) */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	while (done != target && budget-- > 0) {
		bool ok = dp_exec_send(dev, qpc, eqpc, qpn, done);

		done = (done + 1) & 0xffff;
		mt_put32(eqpc, MT_EQPC_SQ_DONE, done);
		busy = true;
		if (!ok) {
			if (mt_qpc_state(qpc) == MT_QPS_ERR)
				dp_qp_flush(dev, qpc, eqpc, qpn);
			return true;
		}
	}
	*gone = done == target;
	return busy;
}
