/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * MT25208 model, data path: receive. Packets from the fabric to their
 * QP (P_Key, Q_Key, state), scatter into receive WQEs, trap 257
 * (doc/guides/nics/mthca_hw.rst, "Data path").
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "fab_link.h"
#include "fab_log.h"
#include "fab_node.h"
#include "fab_pkey.h"
#include "fab_pkt.h"
#include "fab_route.h"
#include "fabric.h"
#include "ib_proto.h"
#include "mad.h"
#include "mt25208.h"
#include "mt25208_dp_cqe.h"
#include "mt25208_dp_doorbell.h"
#include "mt25208_dp_recv.h"
#include "mt25208_dp_state.h"
#include "mt25208_guard.h"
#include "port_state.h"

/* ---- receive (mthca_arbel_post_receive(), IBA 10.2.4) ------------------- */

/* Scatter the GRH area and payload of @p p into receive WQE @p w (MTHCA_INVAL_LKEY). */
static int
scatter(struct mt25208 *dev, uint32_t pd, const uint8_t *w, uint32_t stride,
	const struct fab_pkt *p, const struct fab_hdrs *h)
{
	const uint8_t *src[2] = { p->data + DP_LRH_LEN, p->data + h->payload_off };
	uint32_t left[2] = { DP_GRH_LEN, h->payload_len };
	uint32_t off, cap = 0, part = 0;
	int rc;

	for (off = MT_WQE_NEXT_SIZE; off + MT_DSEG_SIZE <= stride; off += MT_DSEG_SIZE) {
		if (mt_dseg_lkey(w + off) == MT_INVAL_LKEY)
			break;
		cap += mt_dseg_count(w + off);
	}
	if (cap < DP_GRH_LEN + h->payload_len)
		return -EMSGSIZE;
	for (off = MT_WQE_NEXT_SIZE; off + MT_DSEG_SIZE <= stride && part < 2;
	     off += MT_DSEG_SIZE) {
		uint32_t room = mt_dseg_count(w + off), lkey = mt_dseg_lkey(w + off);
		uint64_t va = mt_dseg_addr(w + off);

		if (lkey == MT_INVAL_LKEY)
			break;
		while (room > 0 && part < 2) {
			uint32_t n = left[part] < room ? left[part] : room;

			/* no GRH: the 40-byte area is reserved, left unwritten */
			if (n > 0 && (part == 1 || h->has_grh)) {
				rc = mt25208_mr_access(dev, lkey, pd, va, (void *)(uintptr_t)src[part],
						       n, true);
				if (rc != 0)
					return rc;
			}
			src[part] += n;
			left[part] -= n;
			va += n;
			room -= n;
			if (left[part] == 0)
				part++;
		}
	}
	return 0;
}

/*
 * PREFETCHW where the CPU has it (CPUID 80000001h ECX bit 8, PRFCHW);
 * else GCC's write prefetch, which without -mprfchw is a PREFETCHT0.
 */
static void
prefetch_for_write(const void *p)
{
#if defined(__x86_64__)
	/* 0: not asked yet, 1: no, 2: yes */
	static int prfchw;
	int has = __atomic_load_n(&prfchw, __ATOMIC_RELAXED);

	if (has == 0) {
		unsigned int eax, ebx, ecx, edx;

		has = __get_cpuid(0x80000001, &eax, &ebx, &ecx, &edx) != 0 &&
		      (ecx & bit_PRFCHW) != 0 ? 2 : 1;
		__atomic_store_n(&prfchw, has, __ATOMIC_RELAXED);
	}
	if (has == 2) {
		__asm__ volatile("prefetchw %0" : : "m" (*(const volatile uint8_t *)p));
		return;
	}
#endif
	__builtin_prefetch(p, 1, 3);
}

/*
 * Ask for ownership of the first payload line of receive WQE @p next of
 * a QP (@p qpc, protection domain @p pd), if the host has posted it.
 * The model's core writes every datagram into its receive buffer; a
 * receiver that read the buffer's header line the last time the buffer
 * went round (net_ipoib, any application that looks at a packet) still
 * holds that line, and the write that takes it back waited for the
 * receiver's core on the model's own critical path: about one coherence
 * round trip a datagram, 5 to 10 % of the model's deliveries at 2048
 * bytes (bench_ipoib_lockstep, raw against rawread). A real HCA's DMA
 * costs no core that time; asked for here, right after a delivery, it
 * passes while the model waits for the next datagram. A hint: a WQE or
 * buffer that does not translate is left for the delivery that uses it
 * to report (mt25208_mr_peek() counts no fault).
 */
static void
prefetch_next_recv(struct mt25208 *dev, const void *qpc, uint32_t pd, uint32_t next)
{
	const uint8_t *w = mt25208_mr_peek(dev, mt_qpc_wqe_lkey(qpc), pd,
					   wqe_va(qpc, rq_wqe_low(qpc, next)),
					   MT_WQE_NEXT_SIZE + MT_DSEG_SIZE, false);
	const uint8_t *d;
	void *line;

	if (w == NULL)
		return;
	d = w + MT_WQE_NEXT_SIZE;
	if (mt_dseg_lkey(d) == MT_INVAL_LKEY || mt_dseg_count(d) <= DP_GRH_LEN)
		return;
	/* the payload follows the 40-byte GRH area (scatter()) */
	line = mt25208_mr_peek(dev, mt_dseg_lkey(d), pd, mt_dseg_addr(d) + DP_GRH_LEN, 1, true);
	if (line != NULL)
		prefetch_for_write(line);
}

static void
trap_bad_pkey(struct mt25208 *dev, struct fab_port *in, const struct fab_hdrs *h)
{
	uint8_t d[NTC_DETAILS_SIZE];

	/*
	 * Notice 257 DataDetails (IBA 14.2.5.1 table 147, as qib/hfi1 lay
	 * them out): reserved16, LID1 = SLID, LID2 = DLID, Key = the P_Key,
	 * SL [31:28] | QP1 [23:0] = source QP, QP2 = destination QP, GID1,
	 * GID2.
	 */
	memset(d, 0, sizeof(d));
	mt_put16(d, 2, h->slid);
	mt_put16(d, 4, h->dlid);
	mt_put32(d, 6, h->pkey);
	mt_put32(d, 10, ((uint32_t)h->sl << 28) | (h->src_qp & 0xffffff));
	mt_put32(d, 14, h->dest_qp & 0xffffff);
	if (h->has_grh) {
		memcpy(d + 18, h->sgid, 16);
		memcpy(d + 34, h->dgid, 16);
	}
	port_state_send_trap(dev->fab, in, DP_TRAP_BAD_PKEY, d, sizeof(d));
}

/*
 * Deliver @p p to QP @p qpn (the caller keeps @p p). Returns false when the
 * packet was dropped without reaching a receive WQE (no QP, a QP not yet
 * able to receive, a key violation, an empty receive queue): silicon says
 * nothing, and the sender learns it from its own time-out.
 */
static bool
deliver(struct mt25208 *dev, struct fab_port *in, const struct fab_pkt *p,
	const struct fab_hdrs *h, uint32_t qpn, bool qp0)
{
	struct mt25208_dp *dp = dp_of(dev);
	void *qpc = mt25208_qpc(dev, qpn);
	void *eqpc = mt25208_eqpc(dev, qpn);
	uint32_t done, posted, stride, off, pd;
	uint8_t cqe[MT_CQE_SIZE], vendor, state, st;
	const void *rec;
	int pkix, rc;

	if (qpc == NULL || eqpc == NULL) {
		dp->st.drop_no_qp++;
		return false;
	}
	state = mt_qpc_state(qpc);
	st = mt_qpc_st(qpc);
	/* IBA 10.3.1: RTR and later states receive; UD/MLX only here */
	if (state < MT_QPS_RTR || state > MT_QPS_SQD || (st != MT_QP_ST_UD && st != MT_QP_ST_MLX) ||
	    (st == MT_QP_ST_UD && mt_qpc_port(qpc) != in->num)) {
		dp->st.drop_qp_state++;
		return false;
	}
	uar_add(dp, mt_qpc_usr_page(qpc));
	/* IBA 10.9.3: QP0 is exempt from the P_Key check; others need a match */
	pkix = fab_pkey_index(in, h->pkey);
	if (!qp0 && (pkix < 0 || (st == MT_QP_ST_UD &&
				  !fab_pkey_match(in->pkeys[mt_qpc_pkey_index(qpc) % FAB_PKEY_TABLE_SIZE],
					      h->pkey)))) {
		dp->st.drop_pkey++;
		in->pkey_violations++;
		in->cnt.rcv_constraint_errors++;
		trap_bad_pkey(dev, in, h);
		return false;
	}
	if (st == MT_QP_ST_UD && pkix != mt_qpc_pkey_index(qpc) &&
	    fab_pkey_match(in->pkeys[mt_qpc_pkey_index(qpc) % FAB_PKEY_TABLE_SIZE], h->pkey))
		pkix = mt_qpc_pkey_index(qpc);
	/* IBA 10.2.4: Q_Key must equal the QP's (not on QP0) */
	if (!qp0 && h->qkey != mt_qpc_qkey(qpc)) {
		dp->st.drop_qkey++;
		in->qkey_violations++;
		return false;
	}
	rec = mt25208_db_rec(dev, mt_qpc_usr_page(qpc), mt_qpc_rcv_db_index(qpc));
	if (rec == NULL) {
		dp->st.drop_no_wqe++;
		return false;
	}
	posted = mt_dbr_counter(rec) & 0xffff;
	done = mt_get32(eqpc, MT_EQPC_RQ_DONE) & 0xffff;
	if (done == posted || state == MT_QPS_ERR) {
		dp->st.drop_no_wqe++;	/* UD has no RNR: silently dropped */
		return false;
	}
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	stride = 1u << mt_qpc_rq_log_stride(qpc);
	if (stride > MT_WQE_MAX_SIZE)
		stride = MT_WQE_MAX_SIZE;
	off = rq_wqe_low(qpc, done);
	pd = mt_qpc_pd(qpc);
	mt_put32(eqpc, MT_EQPC_RQ_DONE, (done + 1) & 0xffff);
	rc = mt25208_mr_access(dev, mt_qpc_wqe_lkey(qpc), pd, wqe_va(qpc, off), dp->wqe,
			       stride, false);
	if (rc == 0)
		rc = scatter(dev, pd, dp->wqe, stride, p, h);
	if (rc != 0) {
		uint8_t synd = rc == -EMSGSIZE ? MT_SYND_LOCAL_LENGTH : dp_synd_of(rc, &vendor);

		if (rc == -EMSGSIZE)
			vendor = 0;
		dp_err_cqe(dev, qpn, mt_qpc_cqn_rcv(qpc), off, false, synd, vendor);
		dp_qp_to_error(dev, qpc, qpn);
		dp_qp_flush(dev, qpc, eqpc, qpn);
		return true;
	}
	memset(cqe, 0, sizeof(cqe));
	mt_cqe_set_qpn(cqe, qpn);
	mt_cqe_set_rqpn(cqe, h->src_qp);
	mt_cqe_set_sl(cqe, h->sl);
	mt_cqe_set_g_path(cqe, h->has_grh, (uint8_t)(h->dlid & lmc_mask(in)));
	mt_cqe_set_rlid(cqe, h->slid);
	if (h->opcode == FAB_BTH_OP_UD_SEND_ONLY_IMM)
		mt_cqe_set_imm(cqe, mt_get32(p->data, h->payload_off - 4));
	else
		mt_cqe_set_pkey_index(cqe, pkix < 0 ? 0 : (uint16_t)pkix);
	mt_cqe_set_byte_cnt(cqe, DP_GRH_LEN + h->payload_len);
	mt_cqe_set_wqe(cqe, off);
	mt_cqe_set_opcode(cqe, h->opcode, false);
	dp->st.recvs++;
	/* RSC: every receive completes; else only WQEs with the C bit (PRM rsc) */
	if (mt_qpc_rsc(qpc) || (mt_wqe_flags(dp->wqe) & MT_WQE_F_CQ_UPDATE))
		dp_cqe_post(dev, mt_qpc_cqn_rcv(qpc), cqe, h->solicited != 0, false, true);
	if (((done + 1) & 0xffff) != posted)
		prefetch_next_recv(dev, qpc, pd, done + 1);
	return true;
}

/*
 * The CQ doorbells of every polled UAR page. MMIO reaches silicon in
 * order, so an arm the host wrote before a packet arrives is in effect
 * when that packet completes; the model, which polls, looks at the arms
 * before it delivers.
 */
static void
poll_cq_dbs(struct mt25208 *dev)
{
	struct mt25208_dp *dp = dp_of(dev);
	unsigned int i;

	for (i = 0; i < dp->nuars; i++)
		dp_poll_cq_db(dev, &dp->uars[i],
			   dev->bar2 + (size_t)dp->uars[i].index * MT_UAR_PAGE_SIZE + MT_UAR_CQ_DB);
}

void
mt25208_port_recv(struct mt25208 *dev, struct fab_port *in, struct fab_pkt *p,
		  const struct fab_hdrs *h)
{
	struct mt25208_dp *dp = dp_of(dev);
	uint16_t mask = (uint16_t)~lmc_mask(in);
	uint8_t kind = h->dest_qp == 0 ? MT_SQP_SMI : MT_SQP_GSI;
	uint8_t sport, skind;
	uint32_t qpn;

	if (dp == NULL || dev->fw_state != MT25208_FW_HCA || dev->catas) {
		fab_pkt_drop(dev->fab, p, "HCA not initialised, or in catastrophic error");
		return;
	}
	poll_cq_dbs(dev);
	if (h->opcode != FAB_BTH_OP_UD_SEND_ONLY && h->opcode != FAB_BTH_OP_UD_SEND_ONLY_IMM) {
		dp->st.drop_malformed++;
		fab_pkt_drop(dev->fab, p, "not a UD SEND");
		return;
	}
	if (ib_lid_is_multicast(h->dlid)) {
		const uint8_t *mgm;
		unsigned int i;

		/* IBA 10.5.2.1: multicast UD carries a GRH and QPN 0xffffff */
		mgm = h->has_grh && h->dest_qp == DP_QPN_MCAST ?
		      mt25208_mgm_find(dev, h->dgid) : NULL;
		for (i = 0; mgm != NULL && i < MT_MGM_QP_PER_MGM; i++) {
			uint32_t slot = mt_mgm_qp(mgm, i);

			if (!(slot & MT_MGM_QP_VALID))
				break;
			dp->st.mcast_copies++;
			(void)deliver(dev, in, p, h, slot & 0xffffff, false);
		}
		if (mgm == NULL)
			dp->st.drop_no_qp++;
		fab_pkt_free(dev->fab, p);
		return;
	}
	if (h->dlid == IB_LID_PERMISSIVE ? h->dest_qp != 0 :
	    (in->lid == 0 || (h->dlid & mask) != (in->lid & mask))) {
		dp->st.drop_no_qp++;
		fab_pkt_drop(dev->fab, p, "DLID is not this port's");
		return;
	}
	if (h->dest_qp <= 1) {
		/* mthca_CONF_SPECIAL_QP(): DestQP 0/1 on port p is the port's hardware QP0/QP1;
		 * none configured = the port does not answer (as a host without a driver) */
		qpn = mt25208_sqp_qpn(dev, kind, in->num);
		if (qpn == 0) {
			dp->st.drop_no_qp++;
			fab_pkt_drop(dev->fab, p, "special QP not configured");
			return;
		}
		if (kind == MT_SQP_SMI && h->vl != 15) {
			dp->st.drop_malformed++;
			fab_pkt_drop(dev->fab, p, "QP0 packet not on VL15");
			return;
		}
	} else {
		qpn = h->dest_qp;
		if (mt25208_qp_special(dev, qpn, &sport, &skind)) {
			dp->st.drop_no_qp++;	/* hardware QPNs of QP0/QP1 are not wire QPNs */
			fab_pkt_drop(dev->fab, p, "DestQP is a special QP's hardware number");
			return;
		}
	}
	/*
	 * A MAD from an ibsim-protocol client that no receive WQE took is a
	 * drop like the ones above: reported, so that the client (OpenSM on
	 * libumad2sim has no kernel to time its sends out) sees the time-out
	 * at once, as ibsim reports every drop, instead of waiting forever for
	 * a host whose QP0 is not receiving yet.
	 */
	if (deliver(dev, in, p, h, qpn, h->dest_qp == 0))
		fab_pkt_free(dev->fab, p);
	else
		fab_pkt_drop(dev->fab, p, "no receive WQE took it (QP state, keys, empty RQ)");
}

struct dp_recv_arg {
	struct fab_port *in;
	struct fab_pkt *p;
	const struct fab_hdrs *h;
};

static void
dp_recv_guarded(struct mt25208 *dev, void *arg)
{
	struct dp_recv_arg *a = arg;

	mt25208_port_recv(dev, a->in, a->p, a->h);
}

/*
 * fabric.hca_recv: node_io.c's hook for every packet reaching an active
 * HCA. A bus error on host memory (mt25208_guard.h) is an uplink bus
 * error; the packet it interrupted is lost.
 */
void
dp_fab_recv(struct fabric *f, struct fab_port *in, struct fab_pkt *p, const struct fab_hdrs *h)
{
	struct mt25208 *dev = in->node->hca;
	struct dp_recv_arg a = { .in = in, .p = p, .h = h };

	if (dev == NULL) {
		fab_pkt_drop(f, p, "active HCA without a model");
		return;
	}
	if (mt25208_guard(dev, dp_recv_guarded, &a) != 0) {
		mt25208_catas(dev, MT_CATAS_UPLINK_BUS, "receive: bus error on host memory", 0);
		/*
		 * The fault came from host memory, which mt25208_port_recv()
		 * only touches before it frees or drops the packet: it is
		 * still ours, and lost.
		 */
		fab_pkt_drop(f, p, "bus error on host memory");
	}
}
