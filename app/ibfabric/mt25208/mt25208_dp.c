/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * MT25208 model: the data path (doc/guides/nics/mthca_hw.rst, "Data path"
 * and "Doorbells").
 *
 * Send side. The UAR send doorbell is the trigger (PRM
 * arbelprm_send_doorbell_st): it names the QP, the count of WQEs posted
 * before it (wqe_counter), how many it adds (wqe_cnt, at least 1) and the
 * first one's opcode and size. The model checks each field against the QP
 * (the checks of mt25208_check.c), then executes up to wqe_counter +
 * wqe_cnt. BAR2 is shared memory, so two stores to one slot between two
 * polls leave only the second: a doorbell whose wqe_counter is ahead of
 * what earlier doorbells asked for is taken as covering the overwritten
 * ones when the SQ doorbell record confirms that many WQEs were posted,
 * so a correct driver (one doorbell slot per queue) never stalls. The
 * model clears the second word of a slot once it has acted on it: a slot
 * is pending when its second word is non-zero, so a doorbell written as
 * two 32-bit stores (iPXE arbel_ring_doorbell) is acted on when its
 * second word lands. WQE n's opcode and size come from the next segment
 * of WQE n - 1 (PRM arbelprm_wqe_segment_next_st), where both drivers
 * write them.
 *
 * Receive side. BTH DestQP selects the QP (0/1: the port's special QPs,
 * 0xffffff with a multicast DLID: every QP of the MGM entry); the model
 * checks state, port, P_Key (IBA 10.9.3; violations counted, trap 257)
 * and Q_Key (IBA 10.2.4), takes the next receive WQE up to the RQ
 * record's counter (the RQ has no doorbell on Arbel: Linux
 * mthca_arbel_post_receive writes only the record) and scatters the
 * 40-byte GRH area and the payload.
 *
 * WQE addresses: QPC wqe_base is bits 63:32 of every WQE address of both
 * queues; snd_wqe_base / rcv_wqe_base are the low 32 bits of each queue's
 * first WQE, so SQ and RQ may live in separate buffers (iPXE).
 *
 * Completions. CQEs are written with the owner byte last after an overrun
 * check against the set_ci record; an armed CQ fires one completion EQE
 * on its comp_eqn and disarms. The UAR CQ doorbell arms (PRM
 * arbelprm_cq_cmd_doorbell_st); the arm record is not read. RSC / SSC
 * (QPC params2 / params1): set, every WQE completes; clear, only those
 * with the C bit. Every error takes the QP to ERR, and from then on every
 * outstanding WQE of both queues completes with WR_FLUSH_ERR, in order.
 *
 * Faults. A data buffer the MPT/MTT check refuses is a local protection
 * error CQE; one whose translated address lies outside every IOMMU window
 * (a DMA fault, logged with the address by mt25208_dma_ptr) is a local
 * access error CQE with vendor_err MT_VENDOR_ERR_DMA_FAULT. A WQE or CQE
 * its MR refuses raises WQ_CATAS_ERROR / CQ_ERROR (access); a DMA fault on
 * those, the HCA's own structures, is a catastrophic error (uplink bus
 * error, the address in the buffer). Nothing here stops ibfabric.
 *
 * Files by job: this one the poll loop, port events and life cycle;
 * mt25208_dp_doorbell.c the doorbells, mt25208_dp_send.c send WQE
 * execution, mt25208_dp_recv.c receive, mt25208_dp_cqe.c completions and
 * flushes; mt25208_dp_state.h their shared state and small helpers. Each
 * calls only down: this file the doorbells, send and receive; receive
 * the CQ doorbells and completions; the doorbells send and completions;
 * send completions.
 *
 * Polling cost. The UAR pages polled are those of QPs and CQs the
 * firmware was told about (QP transitions, SW2HW_CQ) and any page found
 * with a doorbell by a scan of BAR2 every DP_FULL_SCAN_NS.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fab_link.h"
#include "fab_log.h"
#include "fab_node.h"
#include "fab_pkt.h"
#include "fabric.h"
#include "mt25208.h"
#include "mt25208_dp.h"
#include "mt25208_dp_doorbell.h"
#include "mt25208_dp_recv.h"
#include "mt25208_dp_send.h"
#include "mt25208_dp_state.h"

/* MTHCA_EVENT_TYPE_*, mthca_eq_int(): PORT_CHANGE on entering and on leaving Active. */
static void
poll_ports(struct mt25208 *dev)
{
	struct mt25208_dp *dp = dp_of(dev);
	uint8_t i, data[MT_EQE_DATA_SIZE];

	for (i = 1; i <= dev->nports && i <= dev->node->nports; i++) {
		uint8_t s = dev->node->ports[i].state, old = dp->port_state[i];
		uint8_t sub;

		if (s == old)
			continue;
		dp->port_state[i] = s;
		if (s == FAB_PORT_ACTIVE)
			sub = MT_EV_PORT_ACTIVE_SUBTYPE;
		else if (old == FAB_PORT_ACTIVE)
			sub = MT_EV_PORT_DOWN_SUBTYPE;
		else
			continue;
		memset(data, 0, sizeof(data));
		mt_put32(data, MT_EQE_PORT - MT_EQE_DATA, (uint32_t)i << 28);
		if (mt25208_event(dev, MT_EV_PORT_CHANGE, sub, data) == 0)
			dp->st.port_events++;
	}
}

bool
mt25208_dp_poll(struct mt25208 *dev)
{
	struct mt25208_dp *dp = dp_of(dev);
	uint64_t now;
	bool busy;
	unsigned int i;

	/* after a catastrophic error the HCA does nothing until reset (poll_catas()) */
	if (dp == NULL || dev->fw_state != MT25208_FW_HCA || dev->catas)
		return false;
	/* the clock every DP_SCAN_CLOCK polls: a read per poll was a tenth of a busy one */
	dp->passes++;
	if (dp->polls++ % DP_SCAN_CLOCK == 0) {
		now = now_ns();
		if (now - dp->full_scan_at >= DP_FULL_SCAN_NS) {
			dp->full_scan_at = now;
			dp_full_scan(dev);
		}
	}
	busy = dp_poll_uars(dev);
	for (i = 0; i < dp->nqps; ) {
		bool gone;

		busy |= dp_qp_service(dev, dp->qps[i], &gone);
		if (gone)
			untrack_qp(dp, i);	/* the last one moves to i */
		else
			i++;
	}
	dp->prev_valid = false;
	poll_ports(dev);
	return busy;
}

void
mt25208_dp_bus_error(struct mt25208 *dev)
{
	struct mt25208_dp *dp = dp_of(dev);

	if (dp != NULL && dp->tx_pkt != NULL) {
		fab_pkt_free(dev->fab, dp->tx_pkt);
		dp->tx_pkt = NULL;
	}
}

/* fabric.hca_errors: the console's "hca <node> errors". */
static void
dp_fab_errors(struct fabric *f, struct fab_node *n, FILE *out)
{
	(void)f;
	mt25208_checks_show(n->hca, out);
}

/*
 * fabric.hca_resources: the console's "hca <node> resources", then the
 * data path's counters since the function was created: doorbells acted
 * on (send and CQ), the send doorbells that covered overwritten ones,
 * poll passes, datagrams sent and received, CQEs, drops (in all, then by
 * reason, for a report such as the demo's). Per datagram,
 * doorbells and passes show how the model and its host take turns
 * (bench_hca_ud prints them per burst).
 */
static void
dp_fab_resources(struct fabric *f, struct fab_node *n, FILE *out)
{
	const struct mt25208_dp *dp = dp_of(n->hca);
	const struct mt25208_dp_stats *st;

	(void)f;
	mt25208_resources_show(n->hca, out);
	if (dp == NULL)
		return;
	st = &dp->st;
	fprintf(out, "hca_dp node=\"%s\" doorbells=%" PRIu64 " db_coalesced=%" PRIu64
		" polls=%" PRIu64 " sends=%" PRIu64 " recvs=%" PRIu64 " cqes=%" PRIu64
		" err_cqes=%" PRIu64 " drops=%" PRIu64 " fail_sends=%" PRIu64
		" drop_no_qp=%" PRIu64 " drop_qp_state=%" PRIu64 " drop_pkey=%" PRIu64
		" drop_qkey=%" PRIu64 " drop_no_wqe=%" PRIu64 " drop_malformed=%" PRIu64 "\n",
		n->name, st->doorbells, st->db_coalesced, dp->passes, st->sends, st->recvs,
		st->cqes, st->err_cqes, st->drop_no_qp + st->drop_qp_state + st->drop_pkey +
		st->drop_qkey + st->drop_no_wqe + st->drop_malformed, st->fail_sends,
		st->drop_no_qp, st->drop_qp_state, st->drop_pkey, st->drop_qkey, st->drop_no_wqe,
		st->drop_malformed);
}

/*
 * fabric.hca_fail_send: the console's "hca <node> fail-send <qpn>". The
 * next send WQE of UD QP @p qpn completes with a local protection error
 * (the CQE a gather entry refused by its MR gets, mt25208_dp_send.c) and
 * the QP goes to ERR: a driver's recovery from a send error can be tested
 * without a driver that breaks a rule. One fault at a time; a later
 * command replaces it.
 */
static int
dp_fab_fail_send(struct fabric *f, struct fab_node *n, uint32_t qpn, FILE *out)
{
	struct mt25208 *dev = n->hca;
	struct mt25208_dp *dp = dp_of(dev);
	void *qpc = dp != NULL && dev->fw_state == MT25208_FW_HCA ? mt25208_qpc(dev, qpn) : NULL;

	(void)f;
	if (qpc == NULL || mt_qpc_st(qpc) != MT_QP_ST_UD || mt_qpc_state(qpc) != MT_QPS_RTS) {
		fprintf(out, "error: node \"%s\": QP 0x%x is not a UD QP in RTS\n", n->name, qpn);
		return -EINVAL;
	}
	dp->fail_send = true;
	dp->fail_send_qpn = qpn;
	fprintf(out, "hca_fault node=\"%s\" qpn=%u fail_send=next\n", n->name, qpn);
	return 0;
}

/* ---- life cycle ---------------------------------------------------------------- */

static void
dp_reset(struct mt25208 *dev)
{
	struct mt25208_dp *dp = dp_of(dev);
	struct mt25208_dp_stats st;
	uint64_t passes;

	if (dp == NULL)
		return;
	st = dp->st;
	passes = dp->passes;
	memset(dp, 0, sizeof(*dp));
	dp->st = st;
	dp->passes = passes;
}

int
mt25208_dp_init(struct mt25208 *dev)
{
	struct mt25208_dp *dp = calloc(1, sizeof(*dp));

	if (dp == NULL)
		return -ENOMEM;
	dev->dp = dp;
	dev->dp_reset = dp_reset;
	dev->dp_watch = dp_doorbell_watch;
	dev->node->hca = dev;
	dev->fab->hca_recv = dp_fab_recv;
	dev->fab->hca_errors = dp_fab_errors;
	dev->fab->hca_resources = dp_fab_resources;
	dev->fab->hca_fail_send = dp_fab_fail_send;
	return 0;
}

void
mt25208_dp_free(struct mt25208 *dev)
{
	if (dev == NULL)
		return;
	free(dev->dp);
	dev->dp = NULL;
	dev->dp_reset = NULL;
	dev->dp_watch = NULL;
	if (dev->node != NULL && dev->node->hca == dev)
		dev->node->hca = NULL;
}

const struct mt25208_dp_stats *
mt25208_dp_stats(const struct mt25208 *dev)
{
	const struct mt25208_dp *dp = dp_of(dev);

	return dp != NULL ? &dp->st : NULL;
}

