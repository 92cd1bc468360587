/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * RMPP in the MAD core: the state machines of mad_rmpp.c tied to the send
 * slots of agents with rmpp_version (Linux mad_rmpp.c's place in
 * ib_post_send_mad() and ib_mad_recv_done_handler()).
 *
 *  - Sending: the message is copied, segmented into the slot's MAD
 *    buffer one segment at a time and posted as the receiver's window
 *    allows; ACKs open the window; a time-out resends from the last ACK
 *    (retries as the send asked, at least RMPP_MIN_RETRIES, counted
 *    afresh at each ACK that moves the window). When every
 *    segment is acknowledged a request goes on waiting for its response,
 *    anything else completes.
 *  - Receiving: a multi-segment response to an outstanding send is
 *    reassembled in the slot, each window ACKed to the sender, and
 *    completes the send whole (rte_ibmad_recv::len).
 *  - ACK, STOP and ABORT MADs never reach agents.
 *
 * Everything here runs with ibmad_lock held.
 */

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_byteorder.h>
#include <rte_common.h>

#include <ib_proto.h>

#include "ibmad_private.h"
#include "mad_rmpp.h"

/* The public limit (rte_ibmad.h) is the state machines' own. */
static_assert(RMPP_MAX_MSG == RTE_IBMAD_RMPP_MAX_MSG, "RMPP_MAX_MSG");

/* Time-out of one window when the send itself asked for none, ms. */
#define RMPP_ACK_TIMEOUT_MS 1000
/* Resends of a window at least, whatever the send asked. */
#define RMPP_MIN_RETRIES 3
/* Segments granted per ACK when receiving (Linux window_size()). */
#define RMPP_RECV_WINDOW 32

static uint64_t
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* Start a transfer's figures. */
static void
figures_start(struct ibmad_send *s)
{
	s->rmpp_t0_us = now_us();
	s->rmpp_acks = 0;
	s->rmpp_resends = 0;
	s->rmpp_drops = 0;
}

/* One line per transfer: its time and segment rate, the ACKs (one per
 * window), the windows resent after a time-out and, receiving, the
 * segments not taken (out of order or past the window).
 */
static void
figures_log(const struct ibmad_dev *mdev, const struct ibmad_send *s,
	    const char *what, uint32_t segs, size_t bytes, const char *end)
{
	uint64_t us = RTE_MAX(now_us() - s->rmpp_t0_us, (uint64_t)1);

	IBMAD_LOG(INFO, "%s: RMPP %s TID 0x%016" PRIx64 " %s: %u segments, %zu bytes "
		  "in %" PRIu64 " us (%" PRIu64 " segments/s), %u ACKs, %u windows resent, "
		  "%u segments dropped", mdev->dev->name, what, s->tid, end, segs, bytes,
		  us, (uint64_t)segs * 1000000 / us, s->rmpp_acks, s->rmpp_resends,
		  s->rmpp_drops);
}

void
ibmad_rmpp_detach(struct ibmad_send *s, struct ibmad_rmpp_hold *hold)
{
	hold->msg = s->rmpp_msg;
	hold->tx = s->rmpp_tx;
	hold->rx = s->rmpp_rx;
	s->rmpp_msg = NULL;
	s->rmpp_tx = NULL;
	s->rmpp_rx = NULL;
}

void
ibmad_rmpp_release(struct ibmad_rmpp_hold *hold)
{
	free(hold->msg);
	free(hold->tx);
	if (hold->rx != NULL) {
		ibmad_rmpp_recv_free(hold->rx);
		free(hold->rx);
	}
}

void
ibmad_rmpp_free(struct ibmad_send *s)
{
	struct ibmad_rmpp_hold hold;

	ibmad_rmpp_detach(s, &hold);
	ibmad_rmpp_release(&hold);
}

/* Post every segment the window allows. A refused post is a lost one. */
static void
post_window(struct rte_ibmad_agent *agent, struct ibmad_send *s)
{
	while (ibmad_rmpp_send_next(s->rmpp_tx, s->mad))
		ibmad_send_post(agent->mdev, agent->conf.port, agent->conf.qpn,
				&s->buf);
}

static uint32_t
window_timeout(const struct ibmad_send *s)
{
	return s->timeout_ms != 0 ? s->timeout_ms : RMPP_ACK_TIMEOUT_MS;
}

int
ibmad_rmpp_send_start(struct rte_ibmad_agent *agent, struct ibmad_send *s,
		      const uint8_t *msg, size_t len)
{
	rte_be64_t tid = rte_cpu_to_be_64(s->tid);
	int ret;

	s->rmpp_msg = malloc(len);
	s->rmpp_tx = malloc(sizeof(*s->rmpp_tx));
	if (s->rmpp_msg == NULL || s->rmpp_tx == NULL) {
		ibmad_rmpp_free(s);
		return -ENOMEM;
	}
	memcpy(s->rmpp_msg, msg, len);
	/* The TID send_locked() chose (the agent's high part for requests). */
	memcpy(s->rmpp_msg + offsetof(struct rte_ib_mad_hdr, tid), &tid,
	       sizeof(tid));
	ret = ibmad_rmpp_send_init(s->rmpp_tx, s->rmpp_msg, len);
	if (ret < 0) {
		ibmad_rmpp_free(s);
		return ret;
	}
	s->user_timeout_ms = s->timeout_ms;
	s->timeout_ms = window_timeout(s);
	s->retries_left = RTE_MAX(s->retries_left, (uint8_t)RMPP_MIN_RETRIES);
	s->rmpp_retries = s->retries_left;
	s->buf.len = RTE_IB_MAD_SIZE;
	s->buf.mad = s->mad;
	figures_start(s);
	post_window(agent, s);
	IBMAD_LOG(DEBUG, "%s port %u: RMPP send TID 0x%016" PRIx64 ": %u bytes in %u segments",
		  agent->mdev->dev->name, agent->conf.port, s->tid, (unsigned int)len,
		  s->rmpp_tx->seg_count);
	s->state = IBMAD_SEND_WAIT;
	s->deadline_ms = ibmad_now_ms() + s->timeout_ms;
	return 0;
}

int
ibmad_rmpp_send_timeout(struct rte_ibmad_agent *agent, struct ibmad_send *s,
			uint64_t now)
{
	ibmad_rmpp_send_rewind(s->rmpp_tx);
	s->rmpp_resends++;
	post_window(agent, s);
	s->deadline_ms = now + s->timeout_ms;
	return 0;
}

void
ibmad_rmpp_send_failed(struct rte_ibmad_agent *agent, const struct ibmad_send *s)
{
	if (agent->mdev != NULL && s->rmpp_tx != NULL)
		figures_log(agent->mdev, s, "send", s->rmpp_tx->last_ack,
			    s->rmpp_tx->len, "timed out");
}

/* Every segment acknowledged: wait for the response, or complete. */
static void
send_all_acked(struct rte_ibmad_agent *agent, struct ibmad_send *s)
{
	if (!ib_mad_is_response(s->rmpp_msg) && s->user_timeout_ms != 0) {
		free(s->rmpp_tx);
		s->rmpp_tx = NULL;
		free(s->rmpp_msg);
		s->rmpp_msg = NULL;
		s->timeout_ms = s->user_timeout_ms;
		s->deadline_ms = ibmad_now_ms() + s->timeout_ms;
		/* No resend now: the slot's buffer holds the last segment. */
		s->retries_left = 0;
		return;
	}
	ibmad_send_finish(agent, s, 0, NULL);
}

/*
 * The slot of a live agent on the port and QP of @e whose send has @tid
 * and the class of @e: with @sender, a message being segmented (an ACK is
 * for it); without, a request awaiting its response. A request and the
 * response that answers it share the TID, and both ends may be on this
 * node (an SA queried by a client of the same host), so the kind tells
 * them apart. @e must come from the peer the send went to (Linux
 * find_rmpp_recv() and ib_find_send_mad() compare the GIDs); else
 * *why says how it differs.
 */
static struct ibmad_send *
find_send(struct ibmad_dev *mdev, const struct ibmad_rx_entry *e, uint64_t tid,
	  bool sender, struct rte_ibmad_agent **agent_out, enum ibmad_src *why)
{
	struct rte_ibmad_agent *agent;
	struct ibmad_send *s;
	unsigned int i, j;
	enum ibmad_src w;

	*why = IBMAD_SRC_SAME;
	for (i = 0; i < RTE_DIM(ibmad_agents); i++) {
		agent = ibmad_agents[i];
		if (agent == NULL || agent->dead || agent->mdev != mdev ||
		    agent->conf.port != e->wc.port || agent->conf.qpn != e->wc.qpn)
			continue;
		for (j = 0; j < RTE_DIM(agent->sends); j++) {
			s = &agent->sends[j];
			if (s->state != IBMAD_SEND_WAIT || s->tid != tid ||
			    s->mad[1] != e->mad[1])
				continue;
			if (sender ? s->rmpp_tx == NULL :
			    s->rmpp_tx != NULL || ib_mad_is_response(s->mad))
				continue;
			/*
			 * The receiver answers a segment with its R bit
			 * flipped (Linux format_ack(), nack_recv()), and
			 * Linux routes it so: an ACK of a response by class
			 * and method to the responder, of a request by the
			 * TID's high part to the requester
			 * (find_mad_agent()). One of the segments' own kind
			 * keeps the TID of another agent's request on its
			 * way out of a host (ib_umad_write() rewrites only
			 * requests): not from this transfer's receiver.
			 */
			if (sender && ib_mad_is_response(e->mad) ==
			    ib_mad_is_response(s->mad))
				continue;
			w = ibmad_send_source(mdev, s, &e->wc, e->mad);
			if (w != IBMAD_SRC_SAME) {
				*why = w;
				continue;
			}
			*agent_out = agent;
			return s;
		}
	}
	return NULL;
}

/* Send an ACK or ABORT back to the segment's source. */
static void
reply(struct ibmad_dev *mdev, const struct ibmad_rx_entry *e,
      const uint8_t *mad)
{
	struct rte_ib_mad_send_buf buf;

	ibmad_reply_addr(&e->wc, e->wc.qpn, &buf);
	buf.len = RTE_IB_MAD_SIZE;
	buf.mad = mad;
	ibmad_send_post(mdev, e->wc.port, e->wc.qpn, &buf);
}

/* An ACK, STOP or ABORT for one of our segmented sends. */
static void
recv_ack(struct ibmad_dev *mdev, struct ibmad_rx_entry *e, uint64_t tid)
{
	struct rte_ibmad_agent *agent;
	struct ibmad_send *s;
	enum ibmad_src why;
	uint32_t acked;
	int ret;

	s = find_send(mdev, e, tid, true, &agent, &why);
	IBMAD_LOG(DEBUG, "%s port %u: RMPP type %u TID 0x%016" PRIx64
		  " segment %u window %u: %s", mdev->dev->name, e->wc.port,
		  e->mad[RMPP_OFF_TYPE], tid,
		  rte_be_to_cpu_32(*(const rte_be32_t *)(e->mad + RMPP_OFF_DATA1)),
		  rte_be_to_cpu_32(*(const rte_be32_t *)(e->mad + RMPP_OFF_DATA2)),
		  s != NULL ? "for a send" : "no such send");
	if (s == NULL && why != IBMAD_SRC_SAME) {
		ibmad_send_source_count(mdev, why, &e->wc, e->mad);
		return;
	}
	if (s == NULL) {
		mdev->stats.rx_unmatched++;
		return;
	}
	acked = s->rmpp_tx->last_ack;
	ret = ibmad_rmpp_send_ack(s->rmpp_tx, e->mad);
	if (ret >= 0)
		s->rmpp_acks++;
	/* Progress: the retries are per window, not per message (Linux
	 * process_rmpp_ack()); a long message on a lossy link goes on as
	 * long as each window gets through.
	 */
	if (ret >= 0 && s->rmpp_tx->last_ack > acked)
		s->retries_left = s->rmpp_retries;
	if (ret == -ECONNABORTED) {
		figures_log(mdev, s, "send", s->rmpp_tx->max_sent, s->rmpp_tx->len,
			    "stopped");
		IBMAD_LOG(DEBUG, "%s port %u: RMPP TID 0x%016" PRIx64
			  " stopped by the receiver (type %u, status %u)",
			  mdev->dev->name, e->wc.port, tid, e->mad[RMPP_OFF_TYPE],
			  e->mad[RMPP_OFF_STATUS]);
		ibmad_send_finish(agent, s, -ECONNABORTED, NULL);
		return;
	}
	if (ret < 0)
		return;        /* IBA 13.6.3.3: a bad ACK is dropped */
	if (ret == 1) {
		figures_log(mdev, s, "send", s->rmpp_tx->seg_count, s->rmpp_tx->len,
			    "acknowledged");
		send_all_acked(agent, s);
		return;
	}
	/* Progress: a fresh window, a fresh time-out. */
	post_window(agent, s);
	s->deadline_ms = ibmad_now_ms() + s->timeout_ms;
}

/* A DATA segment of a response to an RMPP agent's send. */
static bool
recv_data(struct ibmad_dev *mdev, struct ibmad_rx_entry *e, uint64_t tid)
{
	struct rte_ibmad_agent *agent;
	struct rte_ibmad_recv r;
	struct ibmad_send *s;
	enum ibmad_rmpp_rx rx;
	uint8_t out[RTE_IB_MAD_SIZE];
	uint8_t status = 0;
	enum ibmad_src why;
	uint32_t taken;

	s = find_send(mdev, e, tid, false, &agent, &why);
	IBMAD_LOG(DEBUG, "%s port %u: RMPP DATA TID 0x%016" PRIx64 " segment %u: %s",
		  mdev->dev->name, e->wc.port, tid,
		  rte_be_to_cpu_32(*(const rte_be32_t *)(e->mad + RMPP_OFF_DATA1)),
		  s == NULL ? "no request waits" : agent->conf.rmpp_version ?
		  "reassembled" : "agent without RMPP");
	/* The plain path matches or drops (and counts) it. */
	if (s == NULL || agent->conf.rmpp_version == 0)
		return false;
	if (s->rmpp_rx == NULL) {
		s->rmpp_rx = calloc(1, sizeof(*s->rmpp_rx));
		if (s->rmpp_rx == NULL)
			return true;
		figures_start(s);
		rx = ibmad_rmpp_recv_start(s->rmpp_rx, e->mad, RMPP_RECV_WINDOW,
					   &status);
	} else {
		taken = s->rmpp_rx->seg_num;
		rx = ibmad_rmpp_recv_seg(s->rmpp_rx, e->mad, &status);
		if (rx == IBMAD_RMPP_RX_DROP && s->rmpp_rx->seg_num == taken)
			s->rmpp_drops++;
	}
	switch (rx) {
	case IBMAD_RMPP_RX_ABORT:
		mdev->stats.rmpp_rx_aborted++;
		IBMAD_LOG(DEBUG, "%s port %u: RMPP TID 0x%016" PRIx64 " segment %u: "
			  "reassembly aborted, status %u", mdev->dev->name,
			  e->wc.port, tid,
			  rte_be_to_cpu_32(*(const rte_be32_t *)(e->mad + RMPP_OFF_DATA1)),
			  status);
		ibmad_rmpp_abort(e->mad, status, out);
		reply(mdev, e, out);
		ibmad_rmpp_recv_free(s->rmpp_rx);
		free(s->rmpp_rx);
		s->rmpp_rx = NULL;
		return true;
	case IBMAD_RMPP_RX_ACK:
		ibmad_rmpp_ack(s->rmpp_rx, e->mad, out);
		reply(mdev, e, out);
		s->rmpp_acks++;
		/* The sender is alive: wait another time-out for the rest. */
		s->deadline_ms = ibmad_now_ms() + RTE_MAX(s->timeout_ms,
			(uint32_t)RMPP_ACK_TIMEOUT_MS);
		return true;
	case IBMAD_RMPP_RX_DONE:
		ibmad_rmpp_ack(s->rmpp_rx, e->mad, out);
		reply(mdev, e, out);
		s->rmpp_acks++;
		figures_log(mdev, s, "receive", s->rmpp_rx->seg_num, s->rmpp_rx->len,
			    "complete");
		mdev->stats.rx_response++;
		r.dev = mdev->dev;
		r.port = e->wc.port;
		r.qpn = e->wc.qpn;
		r.wc = &e->wc;
		r.mad = s->rmpp_rx->msg;
		r.len = (uint32_t)s->rmpp_rx->len;
		ibmad_send_finish(agent, s, 0, &r);
		return true;
	case IBMAD_RMPP_RX_DROP:
	default:
		return true;
	}
}

bool
ibmad_rmpp_recv_hook(struct ibmad_dev *mdev, struct ibmad_rx_entry *e,
		     bool response)
{
	const struct rte_ib_mad_hdr *hdr = (const struct rte_ib_mad_hdr *)e->mad;
	uint64_t tid = rte_be_to_cpu_64(hdr->tid);

	switch (e->mad[RMPP_OFF_TYPE]) {
	case RMPP_TYPE_ACK:
	case RMPP_TYPE_STOP:
	case RMPP_TYPE_ABORT:
		recv_ack(mdev, e, tid);
		return true;
	case RMPP_TYPE_DATA:
		/* Requests pass as single MADs (multi-segment ones are not
		 * reassembled: no SA request needs more than one MAD).
		 */
		return response && recv_data(mdev, e, tid);
	default:
		/* Active, but no RMPPType Linux knows either (it answers
		 * BadT): e.g. OpenSM's GetTableResp under umad2sim, which
		 * leaves segmenting, and the type, to a kernel it lacks.
		 */
		mdev->stats.rx_invalid++;
		IBMAD_LOG(DEBUG, "%s port %u: TID 0x%016" PRIx64 ": RMPPType %u "
			  "(flags 0x%02x): dropped", mdev->dev->name, e->wc.port, tid,
			  e->mad[RMPP_OFF_TYPE], e->mad[RMPP_OFF_FLAGS]);
		return true;    /* unknown RMPPType: dropped */
	}
}
