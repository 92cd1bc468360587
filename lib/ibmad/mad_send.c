/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Sends: a bounded table of slots per agent, TIDs, timeouts and retries,
 * response matching and cancellation (Linux ib_post_send_mad(),
 * wait_for_response(), ib_find_send_mad(), timeout_sends(),
 * cancel_mads()). A retry resends the same MAD with the same TID, so a
 * late response to an earlier attempt still matches. Completion callbacks
 * never run inside rte_ibmad_send(): a send that needs no response is
 * completed by the next pass of the work loop.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>

#include <ib_proto.h>

#include "ibmad_private.h"
#include "mad_rmpp.h"
#include "smi.h"

uint32_t
ibmad_tid_random(void)
{
	uint32_t v;

	/*
	 * A peer that can guess a TID can answer for someone else (the
	 * source check stops it only at other LIDs): TIDs are not a
	 * counter from a known start. getrandom() without flags blocks
	 * only before the kernel's pool is seeded; a failure falls back on
	 * the TSC mixed with the clock, still different per process.
	 */
	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) == (ssize_t)sizeof(v))
		return v;
	v = (uint32_t)rte_rdtsc() ^ (uint32_t)(rte_rdtsc() >> 32) ^
		(uint32_t)getpid() * 0x9e3779b9u;
	return v ^ (uint32_t)ibmad_now_ms() * 0x85ebca6bu;
}

int
ibmad_send_post(struct ibmad_dev *mdev, uint8_t port, uint8_t qpn,
		const struct rte_ib_mad_send_buf *buf)
{
	if (rte_ib_mad_send(mdev->dev, port, qpn, buf) < 0) {
		mdev->stats.tx_error++;
		IBMAD_LOG(DEBUG, "%s port %u QP%u: send to LID 0x%04x: %s",
			  mdev->dev->name, port, qpn, buf->ah_attr.dlid,
			  rte_strerror(rte_errno));
		return -rte_errno;
	}
	mdev->stats.tx++;
	IBMAD_LOG(DEBUG, "%s port %u QP%u: to LID 0x%04x QP 0x%x: class 0x%02x "
		  "method 0x%02x status 0x%04x", mdev->dev->name, port, qpn,
		  buf->ah_attr.dlid, buf->remote_qpn,
		  ((const uint8_t *)buf->mad)[1], ((const uint8_t *)buf->mad)[3],
		  rte_be_to_cpu_16(((const struct rte_ib_mad_hdr *)buf->mad)->status));
	return 0;
}

/*
 * Answers from this host. A request this port sends to itself (to one of
 * its own LIDs, or a directed route of no hops) is answered by its own
 * device or by the local agent it is handed to, and the answer comes
 * from this port's LID: the source check cannot tell it from a response
 * another local agent (another user-MAD client) sends to the same LID
 * with a TID it saw or guessed. The MAD core can, as it sends them all:
 * it records which agent got the request (server_hi), refuses a response
 * with that TID from any other local agent (EPERM; agents of the same
 * conf.owner are one client), and takes an answer only once the device
 * or that client has sent one (self_ok).
 *
 * A directed route may leave the host and come back into one of its
 * ports (out of port 1 and a switch into port 2): the answer is matched
 * by its route, which the agent that got the request and another local
 * agent write alike. When such a request arrives at the end of its
 * directed part, the MAD core records the agent it is handed to in the
 * same way (dr_back), and refuses a response on that route with that TID
 * and class from any other local agent. An answer on another route needs
 * no refusal: it is dropped on arrival (ibmad_send_source()).
 */
bool
ibmad_addr_is_self(const struct ibmad_dev *mdev, uint8_t port,
		   const uint8_t *mad, uint16_t lid)
{
	struct rte_ib_port_attr pa;
	uint16_t mask;

	if (mad[1] == RTE_IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		return mad[IBMAD_DR_OFF_HOP_CNT] == 0;
	if (!rte_ib_lid_is_unicast(lid) ||
	    rte_ib_port_attr_cached(mdev->dev, port, &pa) < 0 ||
	    !rte_ib_lid_is_unicast(pa.lid))
		return false;
	/* The port answers to 2^LMC LIDs (IBA 7.11.1). */
	mask = (uint16_t)((1u << RTE_MIN(pa.lmc, RTE_IB_LMC_MAX)) - 1);
	return (lid & ~mask) == (pa.lid & ~mask);
}

struct ibmad_send *
ibmad_send_self_find(const struct ibmad_dev *mdev, uint8_t port, uint8_t qpn,
		     const uint8_t *mad)
{
	const struct rte_ib_mad_hdr *hdr = (const struct rte_ib_mad_hdr *)mad;
	uint64_t tid = rte_be_to_cpu_64(hdr->tid);
	struct rte_ibmad_agent *owner;
	struct ibmad_send *s;
	unsigned int i;

	owner = ibmad_agent_find_response(mdev, port, qpn, mad);
	if (owner == NULL)
		return NULL;
	for (i = 0; i < RTE_DIM(owner->sends); i++) {
		s = &owner->sends[i];
		if (s->state == IBMAD_SEND_WAIT && s->to_self && s->tid == tid &&
		    s->mad[1] == hdr->mgmt_class)
			return s;
	}
	return NULL;
}

/* A response @agent sends to this port itself: only the agent that got
 * the request may answer it. Caller holds ibmad_lock.
 */
static int
send_self_answer(struct rte_ibmad_agent *agent, const uint8_t *mad,
		 uint16_t dlid)
{
	struct ibmad_dev *mdev = agent->mdev;
	struct ibmad_send *s;

	if (ibmad_addr_is_self(mdev, agent->conf.port, mad, dlid))
		s = ibmad_send_self_find(mdev, agent->conf.port,
					 agent->conf.qpn, mad);
	else
		s = ibmad_send_dr_back_find(mdev, mad);
	/* Answers nothing outstanding here (dropped on arrival), or a
	 * directed-route request not back (yet): the route rule decides.
	 */
	if (s == NULL || (!s->to_self && !s->dr_back))
		return 0;
	if (s->server_hi != agent->hi_tid &&
	    (s->server_owner == 0 || s->server_owner != agent->conf.owner)) {
		IBMAD_LOG(NOTICE, "%s port %u: agent 0x%08x answers TID 0x%016"
			  PRIx64 ", a request it did not get: refused",
			  mdev->dev->name, agent->conf.port, agent->hi_tid, s->tid);
		return -EPERM;
	}
	s->self_ok = true;
	return 0;
}

/* Free @p s and run the agent's send callback with @p status. Caller
 * holds ibmad_lock.
 */
static void
send_complete(struct rte_ibmad_agent *agent, struct ibmad_send *s, int status,
	      const struct rte_ibmad_recv *resp)
{
	struct rte_ibmad_send_result res;
	struct ibmad_rmpp_hold hold;

	/* RMPP buffers (the response may live in one) outlive the callback. */
	ibmad_rmpp_detach(s, &hold);
	res.tid = s->tid;
	res.context = s->context;
	res.status = status;
	res.response = status == 0 ? resp : NULL;
	/* The slot is free before the callback, which may send again. */
	s->state = IBMAD_SEND_FREE;
	if (agent->conf.send_cb != NULL) {
		ibmad_callback_enter();
		agent->conf.send_cb(agent, &res, agent->conf.arg);
		ibmad_callback_leave();
	}
	ibmad_rmpp_release(&hold);
}

/* Does the MAD core run RMPP for this send (rte_ibmad_agent_conf)? */
static bool
send_is_rmpp(const struct rte_ibmad_agent *agent,
	     const struct rte_ibmad_send_params *p)
{
	return agent->conf.rmpp_version != 0 && p->len >= RMPP_HDR_END &&
		ibmad_rmpp_active(p->mad);
}

/* Check @p p for @p agent; name the first bad field. */
static int
send_params_check(const struct rte_ibmad_agent *agent,
		  const struct rte_ibmad_send_params *p)
{
	const struct rte_ib_mad_hdr *hdr;
	const char *name = agent->conf.dev->name;

	if (p->mad == NULL) {
		IBMAD_LOG(ERR, "%s: send without a MAD", name);
		return -EINVAL;
	}
	hdr = p->mad;
	if (send_is_rmpp(agent, p)) {
		/* Headers of its class at least, up to RMPP_MAX_MSG. */
		if (p->len < ibmad_rmpp_hdr_len(hdr->mgmt_class) ||
		    p->len > RMPP_MAX_MSG) {
			IBMAD_LOG(ERR, "%s: RMPP send len=%u: not %zu to %u bytes",
				  name, p->len, ibmad_rmpp_hdr_len(hdr->mgmt_class),
				  RMPP_MAX_MSG);
			return -EINVAL;
		}
	} else if (p->len != RTE_IB_MAD_SIZE) {
		IBMAD_LOG(ERR, "%s: send len=%u: not a %d-byte MAD", name,
			  p->len, RTE_IB_MAD_SIZE);
		return -EINVAL;
	}
	if (hdr->base_version != RTE_IB_MAD_BASE_VERSION) {
		IBMAD_LOG(ERR, "%s: send BaseVersion=%u: not %d", name,
			  hdr->base_version, RTE_IB_MAD_BASE_VERSION);
		return -EINVAL;
	}
	if (ibmad_class_is_smp(hdr->mgmt_class) != (agent->conf.qpn == 0)) {
		IBMAD_LOG(ERR, "%s: send MgmtClass=0x%02x on QP%u: class of QP%u",
			  name, hdr->mgmt_class, agent->conf.qpn,
			  agent->conf.qpn == 0 ? 1 : 0);
		return -EINVAL;
	}
	if (p->timeout_ms > RTE_IBMAD_MAX_TIMEOUT_MS ||
	    p->retries > RTE_IBMAD_MAX_RETRIES) {
		IBMAD_LOG(ERR, "%s: send timeout_ms=%u retries=%u: above %d/%d",
			  name, p->timeout_ms, p->retries,
			  RTE_IBMAD_MAX_TIMEOUT_MS, RTE_IBMAD_MAX_RETRIES);
		return -EINVAL;
	}
	if (p->ah_attr.dlid == RTE_IB_LID_RESERVED || p->ah_attr.sl > 15 ||
	    p->remote_qpn > 0xffffff) {
		IBMAD_LOG(ERR, "%s: send to LID 0x%04x SL %u QPN 0x%x: bad address",
			  name, p->ah_attr.dlid, p->ah_attr.sl, p->remote_qpn);
		return -EINVAL;
	}
	return 0;
}

/*
 * Directed-route SMP about to leave this node (Linux
 * handle_outgoing_dr_smp()): apply the SMI send rules; one that ends at
 * this node (to its own SMA, or a reply to its own SM) is looped back
 * instead of going on the wire. Returns 1 when handled locally, 0 to
 * send, a negative errno to refuse.
 */
static int
send_dr_smp(struct rte_ibmad_agent *agent, struct ibmad_send *s)
{
	struct ibmad_dev *mdev = agent->mdev;
	struct ibmad_smi_node node = {
		.is_switch = mdev->dev->node_type == RTE_IB_NODE_SWITCH,
		.port = agent->conf.port,
		.nports = mdev->dev->phys_port_cnt,
	};
	uint8_t reply[RTE_IB_MAD_SIZE];
	struct rte_ib_mad_wc wc;
	struct ibmad_smi_dr dr;
	const char *rule = "";
	int ret;

	ibmad_smi_dr_read(s->mad, &dr);
	if (ibmad_smi_dr_send(&dr, &node, &rule) == IBMAD_SMI_DISCARD) {
		IBMAD_LOG(ERR, "%s port %u: DR SMP refused by %s (hop %u of %u)",
			  mdev->dev->name, node.port, rule, dr.hop_ptr, dr.hop_cnt);
		return -EINVAL;
	}
	ibmad_smi_dr_write(s->mad, &dr);
	if (!ibmad_smi_dr_is_local_outgoing(&dr) &&
	    !ibmad_smi_dr_is_local_returning(&dr))
		return 0;

	/* Looped back as if received from the permissive LID on QP0. */
	memset(&wc, 0, sizeof(wc));
	wc.slid = RTE_IB_LID_PERMISSIVE;
	wc.port = node.port;
	wc.qpn = 0;
	if (ibmad_smi_dr_is_local_returning(&dr))
		return ibmad_rx_loopback(mdev, &wc, s->mad) < 0 ? -ENOBUFS : 1;
	ret = ibmad_local_answer(mdev, node.port, &wc, s->mad, reply);
	if (ret < 0)
		return -EIO;
	/* The device answered: its reply may be taken. */
	if (ret != IBMAD_LOCAL_NOT_MINE)
		s->self_ok = true;
	/* The device's reply, or for what the device does not take (an
	 * SMInfo to this node's own SM) the request itself, goes through
	 * the receive path.
	 */
	if (ret == IBMAD_LOCAL_REPLY &&
	    ibmad_rx_loopback(mdev, &wc, reply) < 0)
		return -ENOBUFS;
	if (ret == IBMAD_LOCAL_NOT_MINE &&
	    ibmad_rx_loopback(mdev, &wc, s->mad) < 0)
		return -ENOBUFS;
	return 1;
}

/* The send of rte_ibmad_send() and rte_ibmad_respond(). Caller holds
 * ibmad_lock.
 */
static int
send_locked(struct rte_ibmad_agent *agent, const struct rte_ibmad_send_params *p,
	    uint64_t *tid_out)
{
	struct rte_ib_mad_hdr *hdr;
	struct ibmad_send *s = NULL;
	unsigned int i;
	int ret;

	/* A stale handle is refused before it is dereferenced. */
	if (!ibmad_agent_is_live(agent))
		return -EINVAL;
	if (agent->mdev == NULL)
		return -ENODEV;
	ret = send_params_check(agent, p);
	if (ret < 0)
		return ret;
	for (i = 0; i < RTE_DIM(agent->sends) && s == NULL; i++)
		if (agent->sends[i].state == IBMAD_SEND_FREE)
			s = &agent->sends[i];
	if (s == NULL)
		return -ENOBUFS;

	memcpy(s->mad, p->mad, RTE_MIN(p->len, (uint32_t)RTE_IB_MAD_SIZE));
	hdr = (struct rte_ib_mad_hdr *)s->mad;
	s->to_self = ibmad_addr_is_self(agent->mdev, agent->conf.port, s->mad,
					p->ah_attr.dlid);
	s->dr_back = false;
	s->self_ok = false;
	s->server_hi = 0;
	s->server_owner = 0;
	if (ib_mad_is_response(s->mad)) {
		ret = send_self_answer(agent, s->mad, p->ah_attr.dlid);
		if (ret < 0)
			return ret;
	}
	if (!ib_mad_is_response(s->mad)) {
		/*
		 * Requests carry the agent's high part (Linux ib_umad_write():
		 * hi_tid << 32) and keep the caller's low 32 bits, which
		 * callers such as libibmad match responses by; a caller that
		 * leaves them 0 gets a fresh low part, from the agent's
		 * sequence that starts at a random point.
		 */
		uint32_t low = (uint32_t)rte_be_to_cpu_64(hdr->tid);

		if (low == 0) {
			low = agent->next_tid++;
			if (low == 0)   /* wrapped: 0 means "choose one" */
				low = agent->next_tid++;
		}
		s->tid = (uint64_t)agent->hi_tid << 32 | low;
		hdr->tid = rte_cpu_to_be_64(s->tid);
	} else {
		s->tid = rte_be_to_cpu_64(hdr->tid);
	}
	s->context = p->context;
	s->timeout_ms = p->timeout_ms;
	s->retries_left = p->retries;
	s->buf.ah_attr = p->ah_attr;
	s->buf.ah_attr.port_num = agent->conf.port;
	s->buf.remote_qpn = p->remote_qpn;
	s->buf.remote_qkey = p->remote_qkey;
	s->buf.pkey_index = p->pkey_index;
	s->buf.len = RTE_IB_MAD_SIZE;
	s->buf.mad = s->mad;

	if (send_is_rmpp(agent, p)) {
		/* Segments, windows and ACKs: mad_rmpp_io.c. */
		ret = ibmad_rmpp_send_start(agent, s, p->mad, p->len);
		if (ret < 0)
			return ret;
		if (tid_out != NULL)
			*tid_out = s->tid;
		ibmad_wake();
		return 0;
	}
	ret = 0;
	if (hdr->mgmt_class == RTE_IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		ret = send_dr_smp(agent, s);
	if (ret == 0)
		ret = ibmad_send_post(agent->mdev, agent->conf.port,
				      agent->conf.qpn, &s->buf);
	if (ret < 0)
		return ret == -EAGAIN ? -EIO : ret;

	if (p->timeout_ms == 0) {
		s->state = IBMAD_SEND_DONE;
		s->status = 0;
		/* Completed by the next pass, due now: a wake-up unless the
		 * thread sends it itself (an SA response of the channel).
		 */
		ibmad_wake_for_deadline(ibmad_now_ms());
	} else {
		s->state = IBMAD_SEND_WAIT;
		s->deadline_ms = ibmad_now_ms() + p->timeout_ms;
		/* The loop may be asleep with a later deadline. */
		ibmad_wake_for_deadline(s->deadline_ms);
	}
	if (tid_out != NULL)
		*tid_out = s->tid;
	return 0;
}

int
rte_ibmad_send(struct rte_ibmad_agent *agent,
	       const struct rte_ibmad_send_params *params, uint64_t *tid)
{
	int ret;

	if (agent == NULL || params == NULL) {
		rte_errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&ibmad_lock);
	ret = send_locked(agent, params, tid);
	pthread_mutex_unlock(&ibmad_lock);
	return ibmad_ret(ret);
}

int
rte_ibmad_respond(struct rte_ibmad_agent *agent,
		  const struct rte_ibmad_recv *req, const void *resp)
{
	struct rte_ibmad_send_params p;
	struct rte_ib_mad_send_buf addr;
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rte_ib_mad_hdr *hdr = (struct rte_ib_mad_hdr *)mad;
	const struct rte_ib_mad_hdr *rq;
	int ret;

	if (agent == NULL || req == NULL || req->wc == NULL ||
	    req->mad == NULL || resp == NULL) {
		rte_errno = EINVAL;
		return -1;
	}
	rq = (const struct rte_ib_mad_hdr *)req->mad;
	memcpy(mad, resp, sizeof(mad));
	hdr->tid = rq->tid;
	if (!ib_mad_is_response(mad))
		hdr->method |= RTE_IB_METHOD_RESP;
	if (hdr->mgmt_class == RTE_IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		hdr->status |= rte_cpu_to_be_16(IBMAD_DR_STATUS_D);
	ibmad_reply_addr(req->wc, req->qpn, &addr);
	memset(&p, 0, sizeof(p));
	p.mad = mad;
	p.len = sizeof(mad);
	p.ah_attr = addr.ah_attr;
	p.remote_qpn = addr.remote_qpn;
	p.remote_qkey = addr.remote_qkey;
	p.pkey_index = addr.pkey_index;
	pthread_mutex_lock(&ibmad_lock);
	ret = send_locked(agent, &p, NULL);
	pthread_mutex_unlock(&ibmad_lock);
	return ibmad_ret(ret);
}

void
ibmad_send_finish(struct rte_ibmad_agent *agent, struct ibmad_send *s,
		  int status, const struct rte_ibmad_recv *resp)
{
	send_complete(agent, s, status, resp);
}

/* Is the directed-route SMP @p mad on the route of the request @p req:
 * the same HopCount, InitialPath entries 1..HopCount, DrSLID and DrDLID?
 * A responder keeps them and only turns the D bit and ReturnPath
 * (IBA 14.2.2.4, C14-13); the LRH of a DR reply carries the permissive
 * LID (14.2.2.1), which says nothing of who sent it.
 */
static bool
send_dr_route_same(const uint8_t *req, const uint8_t *mad)
{
	uint8_t hc = req[IBMAD_DR_OFF_HOP_CNT];

	if (mad[IBMAD_DR_OFF_HOP_CNT] != hc || hc >= IBMAD_DR_MAX_HOPS)
		return false;
	return memcmp(req + IBMAD_DR_OFF_DRSLID, mad + IBMAD_DR_OFF_DRSLID, 4) == 0 &&
		memcmp(req + IBMAD_DR_OFF_INITIAL_PATH + 1,
		       mad + IBMAD_DR_OFF_INITIAL_PATH + 1, hc) == 0;
}

struct ibmad_send *
ibmad_send_dr_back_find(const struct ibmad_dev *mdev, const uint8_t *mad)
{
	const struct rte_ib_mad_hdr *hdr = (const struct rte_ib_mad_hdr *)mad;
	uint64_t tid = rte_be_to_cpu_64(hdr->tid);
	struct rte_ibmad_agent *a;
	struct ibmad_send *s;
	unsigned int i, j;

	if (hdr->mgmt_class != RTE_IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE ||
	    mad[IBMAD_DR_OFF_HOP_CNT] == 0)
		return NULL;
	/* The sender may be on any port of the device: by its high TID. */
	for (i = 0; i < RTE_DIM(ibmad_agents); i++) {
		a = ibmad_agents[i];
		if (a == NULL || a->dead || a->mdev != mdev ||
		    a->conf.qpn != 0 || a->hi_tid != (uint32_t)(tid >> 32))
			continue;
		for (j = 0; j < RTE_DIM(a->sends); j++) {
			s = &a->sends[j];
			if (s->state == IBMAD_SEND_WAIT && s->tid == tid &&
			    s->mad[1] == hdr->mgmt_class &&
			    send_dr_route_same(s->mad, mad))
				return s;
		}
		return NULL;    /* high TIDs are unique */
	}
	return NULL;
}

enum ibmad_src
ibmad_send_source(const struct ibmad_dev *mdev, const struct ibmad_send *s,
		  const struct rte_ib_mad_wc *wc, const uint8_t *mad)
{
	const struct rte_ib_ah_attr *ah = &s->buf.ah_attr;
	struct rte_ib_port_attr pa;
	uint8_t mask;

	/* A request to this port itself: the answer of the device or of
	 * the agent that got it, not another local agent's (above). RMPP
	 * ACKs, STOPs and ABORTs come from the MAD core's own reassembly.
	 */
	if (s->to_self && !s->self_ok && !ib_mad_is_response(s->mad) &&
	    (!ibmad_rmpp_class(mad[1]) || !ibmad_rmpp_active(mad) ||
	     mad[RMPP_OFF_TYPE] == RMPP_TYPE_DATA))
		return IBMAD_SRC_LOCAL;
	if (s->mad[1] == RTE_IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		return send_dr_route_same(s->mad, mad) ? IBMAD_SRC_SAME :
			IBMAD_SRC_ROUTE;
	/* With a GRH, the GIDs say who (Linux rcv_has_same_gid()); one
	 * side with a GRH and the other without is not the same peer.
	 */
	if ((ah->ah_flags & RTE_IB_AH_GRH) != 0) {
		if ((wc->flags & RTE_IB_MAD_WC_GRH) == 0 ||
		    memcmp(wc->grh.sgid.raw, ah->grh.dgid.raw,
			   sizeof(ah->grh.dgid.raw)) != 0)
			return IBMAD_SRC_GID;
	} else if ((wc->flags & RTE_IB_MAD_WC_GRH) != 0) {
		return IBMAD_SRC_GID;
	}
	/*
	 * A responder answers from the LID it was addressed at (Linux
	 * agent_send_response(): the reply's source path bits are the
	 * request's DLID path bits), so a unicast DLID is the SLID of the
	 * answer. A request to the permissive or a multicast LID may be
	 * answered by any LID.
	 */
	if (rte_ib_lid_is_unicast(ah->dlid) && wc->slid != ah->dlid)
		return IBMAD_SRC_LID;
	/* And it comes back to the LID it was sent from: the path bits
	 * under this port's LMC (Linux rcv_has_same_gid()).
	 */
	if (((ah->src_path_bits ^ wc->path_bits) & 0x7f) != 0 &&
	    rte_ib_port_attr_cached(mdev->dev, wc->port, &pa) == 0) {
		mask = (uint8_t)((1u << RTE_MIN(pa.lmc, RTE_IB_LMC_MAX)) - 1);
		if (((ah->src_path_bits ^ wc->path_bits) & mask) != 0)
			return IBMAD_SRC_LID;
	}
	return IBMAD_SRC_SAME;
}

void
ibmad_send_source_count(struct ibmad_dev *mdev, enum ibmad_src why,
			const struct rte_ib_mad_wc *wc, const uint8_t *mad)
{
	static const char * const what[] = {
		[IBMAD_SRC_LID] = "LID",
		[IBMAD_SRC_GID] = "GID",
		[IBMAD_SRC_ROUTE] = "directed route",
		[IBMAD_SRC_LOCAL] = "local agent",
	};

	if (why == IBMAD_SRC_ROUTE)
		mdev->stats.rx_bad_route++;
	else
		mdev->stats.rx_bad_source++;
	IBMAD_LOG(DEBUG, "%s port %u: TID 0x%016" PRIx64 " class 0x%02x from "
		  "LID 0x%04x: not the %s the request went to: dropped",
		  mdev->dev->name, wc->port,
		  rte_be_to_cpu_64(((const struct rte_ib_mad_hdr *)mad)->tid),
		  mad[1], wc->slid, what[why]);
}

int
ibmad_send_match(struct rte_ibmad_agent *agent,
		 const struct rte_ibmad_recv *resp)
{
	const struct rte_ib_mad_hdr *hdr = (const struct rte_ib_mad_hdr *)resp->mad;
	uint64_t tid = rte_be_to_cpu_64(hdr->tid);
	enum ibmad_src why = IBMAD_SRC_SAME, w;
	struct ibmad_send *s;
	unsigned int i;

	for (i = 0; i < RTE_DIM(agent->sends); i++) {
		s = &agent->sends[i];
		/* TID and class, as Linux ib_find_send_mad() matches, and
		 * the source: the peer the request went to.
		 */
		if (s->state != IBMAD_SEND_WAIT || s->tid != tid ||
		    s->mad[1] != hdr->mgmt_class)
			continue;
		w = ibmad_send_source(agent->mdev, s, resp->wc, resp->mad);
		if (w != IBMAD_SRC_SAME) {
			why = w;
			continue;
		}
		send_complete(agent, s, 0, resp);
		return 1;
	}
	if (why == IBMAD_SRC_SAME)
		return 0;
	ibmad_send_source_count(agent->mdev, why, resp->wc, resp->mad);
	return -1;
}

void
ibmad_send_cancel_all(struct rte_ibmad_agent *agent, int status)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(agent->sends); i++)
		if (agent->sends[i].state != IBMAD_SEND_FREE)
			send_complete(agent, &agent->sends[i],
				      agent->sends[i].state == IBMAD_SEND_DONE &&
				      agent->sends[i].status != 0 ?
				      agent->sends[i].status : status, NULL);
}

int
rte_ibmad_cancel(struct rte_ibmad_agent *agent, uint64_t tid)
{
	unsigned int i;
	int ret = -ENOENT;

	if (agent == NULL) {
		rte_errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&ibmad_lock);
	for (i = 0; ibmad_agent_is_live(agent) && i < RTE_DIM(agent->sends) &&
	     ret != 0; i++) {
		if (agent->sends[i].state == IBMAD_SEND_WAIT &&
		    agent->sends[i].tid == tid) {
			agent->sends[i].state = IBMAD_SEND_DONE;
			agent->sends[i].status = -ECANCELED;
			ret = 0;
		}
	}
	pthread_mutex_unlock(&ibmad_lock);
	if (ret < 0) {
		rte_errno = -ret;
		return -1;
	}
	ibmad_wake();
	return 0;
}

/* One slot's timer: complete, retry or time out. */
static int
send_timer(struct rte_ibmad_agent *agent, struct ibmad_send *s, uint64_t now,
	   uint64_t *next)
{
	if (s->state == IBMAD_SEND_DONE) {
		send_complete(agent, s, s->status, NULL);
		return 1;
	}
	if (s->state != IBMAD_SEND_WAIT)
		return 0;
	if (s->deadline_ms > now) {
		*next = RTE_MIN(*next, s->deadline_ms);
		return 0;
	}
	if (s->rmpp_tx != NULL && s->retries_left > 0 && agent->mdev != NULL) {
		/* An ACK did not come: resend the window from the last one. */
		s->retries_left--;
		agent->mdev->stats.retries++;
		ibmad_rmpp_send_timeout(agent, s, now);
		*next = RTE_MIN(*next, s->deadline_ms);
		return 1;
	}
	if (s->retries_left == 0 || agent->mdev == NULL) {
		if (agent->mdev != NULL)
			agent->mdev->stats.timeouts++;
		IBMAD_LOG(DEBUG, "agent 0x%08x: TID 0x%016" PRIx64 " timed out",
			  agent->hi_tid, s->tid);
		ibmad_rmpp_send_failed(agent, s);
		send_complete(agent, s, -ETIMEDOUT, NULL);
		return 1;
	}
	/* A failed repost is one more lost attempt: it times out again. */
	s->retries_left--;
	agent->mdev->stats.retries++;
	ibmad_send_post(agent->mdev, agent->conf.port, agent->conf.qpn, &s->buf);
	s->deadline_ms = now + s->timeout_ms;
	*next = RTE_MIN(*next, s->deadline_ms);
	return 1;
}

int
ibmad_send_run_timers(uint64_t now, uint64_t *next_deadline)
{
	struct rte_ibmad_agent *agent;
	unsigned int i, j;
	int n = 0;

	for (i = 0; i < RTE_DIM(ibmad_agents); i++) {
		for (j = 0; j < RTE_IBMAD_MAX_OUTSTANDING; j++) {
			/* Re-read: a callback may have unregistered it. */
			agent = ibmad_agents[i];
			if (agent == NULL || agent->dead)
				break;
			n += send_timer(agent, &agent->sends[j], now,
					next_deadline);
		}
	}
	return n;
}
