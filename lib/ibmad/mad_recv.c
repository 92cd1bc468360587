/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The receive path of QP0/QP1 (Linux ib_mad_recv_done_handler(),
 * handle_ib_smi(), agent_send_response(), and what mthca_process_mad()
 * adds around MAD_IFC: which MADs the firmware takes, smp_snoop(),
 * node_desc_override(), forward_trap()):
 *
 *  1. validate: BaseVersion 1, SM classes on QP0 only, others on QP1;
 *  2. directed-route SMPs through the SMI rules (smi.c);
 *  3. a trap the device generated itself (SLID 0) goes to the SM;
 *  4. SMPs and PMA MADs for this port go to the device (MAD_IFC): its
 *     reply is sent back, snooped for port events, NodeDescription
 *     replaced; TrapRepress is consumed without a reply;
 *  5. the rest goes to agents: responses by TID, requests by class,
 *     version and method; a Get or Set nobody takes is answered with
 *     "unsupported method/attribute" (IBA 13.4.7, Linux
 *     generate_unmatched_resp()); anything else is dropped.
 */

#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_errno.h>

#include <rte_ib_attrs.h>

#include <ib_proto.h>

#include "ibmad_private.h"
#include "mad_rmpp.h"
#include "smi.h"


/* AttributeIDs 0xFF00-0xFFFF are vendor specific (IBA 14.2.5). */
#define SMP_ATTR_VENDOR_MASK      0xff00

bool
ibmad_class_is_smp(uint8_t mgmt_class)
{
	return mgmt_class == RTE_IB_MGMT_CLASS_SUBN_LID_ROUTED ||
		mgmt_class == RTE_IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
}

void
ibmad_reply_addr(const struct rte_ib_mad_wc *wc, uint8_t qpn,
		 struct rte_ib_mad_send_buf *buf)
{
	uint32_t vtf;

	memset(buf, 0, sizeof(*buf));
	buf->ah_attr.dlid = wc->slid;
	buf->ah_attr.sl = wc->sl;
	buf->ah_attr.src_path_bits = wc->path_bits;
	buf->ah_attr.port_num = wc->port;
	if ((wc->flags & RTE_IB_MAD_WC_GRH) != 0) {
		/* Back to the GRH's source (Linux ib_init_ah_attr_from_wc). */
		vtf = rte_be_to_cpu_32(wc->grh.version_tclass_flow);
		buf->ah_attr.ah_flags = RTE_IB_AH_GRH;
		buf->ah_attr.grh.dgid = wc->grh.sgid;
		buf->ah_attr.grh.flow_label = vtf & 0xfffff;
		buf->ah_attr.grh.traffic_class = (uint8_t)(vtf >> 20);
		buf->ah_attr.grh.hop_limit = 0xff;
	}
	buf->remote_qpn = wc->src_qpn;
	buf->remote_qkey = qpn == 1 ? RTE_IB_QP1_QKEY : 0;
	buf->pkey_index = wc->pkey_index;
	buf->len = RTE_IB_MAD_SIZE;
}

/* Whether the device's own agents take @p hdr (the classes and methods
 * mthca_process_mad() hands to MAD_IFC).
 */
static bool
local_wants(const struct rte_ib_mad_hdr *hdr)
{
	uint16_t attr = rte_be_to_cpu_16(hdr->attr_id);

	if (ibmad_class_is_smp(hdr->mgmt_class)) {
		if (hdr->method != RTE_IB_METHOD_GET &&
		    hdr->method != RTE_IB_METHOD_SET &&
		    hdr->method != RTE_IB_METHOD_TRAP_REPRESS)
			return false;
		/* SMInfo belongs to an SM; vendor attributes the SMA
		 * does not know.
		 */
		return attr != RTE_IB_SMP_ATTR_SM_INFO &&
			(attr & SMP_ATTR_VENDOR_MASK) != SMP_ATTR_VENDOR_MASK;
	}
	if (hdr->mgmt_class == RTE_IB_MGMT_CLASS_PERF_MGMT)
		return hdr->method == RTE_IB_METHOD_GET ||
			hdr->method == RTE_IB_METHOD_SET;
	return false;
}

/* Raise the events a successful Set(PortInfo) or Set(P_KeyTable)
 * implies (Linux smp_snoop()).
 */
static void
local_snoop(struct ibmad_dev *mdev, uint8_t port, const uint8_t *in,
	    const struct rte_ib_port_attr *prev)
{
	const struct rte_ib_mad_hdr *hdr = (const struct rte_ib_mad_hdr *)in;
	uint16_t attr = rte_be_to_cpu_16(hdr->attr_id);
	struct rte_ib_port_info pi;

	if (!ibmad_class_is_smp(hdr->mgmt_class) ||
	    hdr->method != RTE_IB_METHOD_SET)
		return;
	if (attr == RTE_IB_SMP_ATTR_PKEY_TABLE) {
		mdev->stats.events++;
		ibmad_event_queue(mdev->dev, RTE_IB_EVENT_PKEY_CHANGE, port);
		return;
	}
	/* the PortInfo the SM set (IBA 14.2.5.6), through lib/ib's table */
	if (attr != RTE_IB_SMP_ATTR_PORT_INFO ||
	    rte_ib_unpack(rte_ib_port_info_layout(), in + IBMAD_SMP_OFF_DATA,
			  RTE_IB_PORT_INFO_SIZE, &pi) != 0)
		return;
	if (pi.lid != prev->lid) {
		mdev->stats.events++;
		ibmad_event_queue(mdev->dev, RTE_IB_EVENT_LID_CHANGE, port);
	}
	if (pi.master_sm_lid != prev->sm_lid || pi.master_sm_sl != prev->sm_sl) {
		mdev->stats.events++;
		ibmad_event_queue(mdev->dev, RTE_IB_EVENT_SM_CHANGE, port);
	}
	if (pi.client_reregister != 0) {
		mdev->stats.events++;
		ibmad_event_queue(mdev->dev, RTE_IB_EVENT_CLIENT_REREGISTER, port);
	}
}

int
ibmad_local_answer(struct ibmad_dev *mdev, uint8_t port,
		   const struct rte_ib_mad_wc *wc, const uint8_t *in,
		   uint8_t *out)
{
	const struct rte_ib_mad_hdr *hdr = (const struct rte_ib_mad_hdr *)in;
	struct rte_ib_mad_hdr *ohdr = (struct rte_ib_mad_hdr *)out;
	struct rte_ib_port_attr prev;
	int ret;

	if (!local_wants(hdr))
		return IBMAD_LOCAL_NOT_MINE;
	memset(&prev, 0, sizeof(prev));
	rte_ib_port_attr_cached(mdev->dev, port, &prev);
	memset(out, 0, RTE_IB_MAD_SIZE);
	ret = rte_ib_process_mad(mdev->dev, port, wc, in, out);
	if (ret < 0) {
		mdev->stats.rx_local_error++;
		IBMAD_LOG(WARNING, "%s port %u: MAD_IFC class 0x%02x attr 0x%04x: %s",
			  mdev->dev->name, port, hdr->mgmt_class,
			  rte_be_to_cpu_16(hdr->attr_id), rte_strerror(rte_errno));
		return -rte_errno;
	}
	mdev->stats.rx_local++;
	if ((ret & RTE_IB_MAD_RESULT_REPLY) == 0)
		return IBMAD_LOCAL_CONSUMED;
	if ((rte_be_to_cpu_16(ohdr->status) & ~IBMAD_DR_STATUS_D) == 0) {
		local_snoop(mdev, port, in, &prev);
		if (ibmad_class_is_smp(ohdr->mgmt_class) &&
		    ohdr->method == RTE_IB_METHOD_GET_RESP &&
		    rte_be_to_cpu_16(ohdr->attr_id) == RTE_IB_SMP_ATTR_NODE_DESC)
			memcpy(out + IBMAD_SMP_OFF_DATA, mdev->node_desc,
			       RTE_IB_NODE_DESC_LEN);
	}
	/* A directed-route reply returns: D bit (IBA 14.2.1.2). The driver
	 * sets it (Linux mthca_process_mad()); setting it again is harmless
	 * and keeps a forgetful driver from sending a request-looking reply.
	 */
	if (hdr->mgmt_class == RTE_IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		ohdr->status |= rte_cpu_to_be_16(IBMAD_DR_STATUS_D);
	if (hdr->method == RTE_IB_METHOD_TRAP_REPRESS)
		return IBMAD_LOCAL_CONSUMED;
	return IBMAD_LOCAL_REPLY;
}

/* Send @p mad (a reply built here) back to the source of @p wc. */
static void
recv_reply(struct ibmad_dev *mdev, const struct rte_ib_mad_wc *wc,
	   uint8_t *mad)
{
	struct ibmad_smi_node node = {
		.is_switch = mdev->dev->node_type == RTE_IB_NODE_SWITCH,
		.port = wc->port,
		.nports = mdev->dev->phys_port_cnt,
	};
	struct rte_ib_mad_send_buf buf;
	struct ibmad_smi_dr dr;
	const char *rule = "";

	if (mad[1] == RTE_IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE) {
		ibmad_smi_dr_read(mad, &dr);
		if (ibmad_smi_dr_send(&dr, &node, &rule) == IBMAD_SMI_DISCARD) {
			mdev->stats.rx_smi_discard++;
			IBMAD_LOG(DEBUG, "%s port %u: DR reply dropped by %s",
				  mdev->dev->name, wc->port, rule);
			return;
		}
		ibmad_smi_dr_write(mad, &dr);
		if (ibmad_smi_dr_is_local_returning(&dr)) {
			ibmad_rx_loopback(mdev, wc, mad);
			return;
		}
	}
	ibmad_reply_addr(wc, wc->qpn, &buf);
	buf.mad = mad;
	ibmad_send_post(mdev, wc->port, wc->qpn, &buf);
}

/* Directed-route SMP arriving: the SMI rules. false: dropped. */
static bool
recv_dr_smp(struct ibmad_dev *mdev, struct ibmad_rx_entry *e)
{
	struct ibmad_smi_node node = {
		.is_switch = mdev->dev->node_type == RTE_IB_NODE_SWITCH,
		.port = e->wc.port,
		.nports = mdev->dev->phys_port_cnt,
	};
	struct ibmad_smi_dr dr;
	const char *rule = "";
	enum ibmad_smi_next next;

	ibmad_smi_dr_read(e->mad, &dr);
	if (ibmad_smi_dr_recv(&dr, &node, &rule) == IBMAD_SMI_DISCARD)
		goto discard;
	next = ibmad_smi_dr_next(&dr);
	if (next == IBMAD_SMI_FORWARD) {
		/* Only a switch relays; this SMI belongs to a CA. */
		rule = "forward";
		goto discard;
	}
	if (next == IBMAD_SMI_SEND) {
		/* The directed part ends here: finish the send step and
		 * keep it only if it is now addressed to this node (Linux
		 * smi_check_local_smp()).
		 */
		if (ibmad_smi_dr_send(&dr, &node, &rule) == IBMAD_SMI_DISCARD)
			goto discard;
		if (!ibmad_smi_dr_is_local_outgoing(&dr)) {
			rule = "not local";
			goto discard;
		}
	}
	ibmad_smi_dr_write(e->mad, &dr);
	return true;

discard:
	mdev->stats.rx_smi_discard++;
	IBMAD_LOG(DEBUG, "%s port %u: DR SMP (hop %u of %u, D=%d) dropped by %s",
		  mdev->dev->name, e->wc.port, dr.hop_ptr, dr.hop_cnt,
		  dr.returning, rule);
	return false;
}

/* A trap generated by the device itself: on to the SM (Linux
 * forward_trap()), LID routed to MasterSMLID at MasterSMSL.
 */
static void
recv_forward_trap(struct ibmad_dev *mdev, struct ibmad_rx_entry *e)
{
	struct rte_ib_port_attr attr;
	struct rte_ib_mad_send_buf buf;

	if (rte_ib_port_attr_cached(mdev->dev, e->wc.port, &attr) < 0 ||
	    !rte_ib_lid_is_unicast(attr.sm_lid)) {
		IBMAD_LOG(DEBUG, "%s port %u: local trap dropped: no SM known",
			  mdev->dev->name, e->wc.port);
		return;
	}
	memset(&buf, 0, sizeof(buf));
	buf.ah_attr.dlid = attr.sm_lid;
	buf.ah_attr.sl = attr.sm_sl;
	buf.ah_attr.port_num = e->wc.port;
	buf.remote_qpn = e->wc.qpn;
	buf.remote_qkey = e->wc.qpn == 1 ? RTE_IB_QP1_QKEY : 0;
	buf.len = RTE_IB_MAD_SIZE;
	buf.mad = e->mad;
	if (ibmad_send_post(mdev, e->wc.port, e->wc.qpn, &buf) == 0)
		mdev->stats.traps_forwarded++;
}

/* Get or Set no agent takes: GetResp with "unsupported method/attribute"
 * (IBA 13.4.7), D bit for directed route.
 */
static void
recv_unsupported(struct ibmad_dev *mdev, struct ibmad_rx_entry *e)
{
	struct rte_ib_mad_hdr *hdr = (struct rte_ib_mad_hdr *)e->mad;
	uint16_t status = RTE_IB_MAD_STATUS_METHOD_ATTR_UNSUPPORTED;

	if (hdr->method != RTE_IB_METHOD_GET && hdr->method != RTE_IB_METHOD_SET)
		return;
	hdr->method = RTE_IB_METHOD_GET_RESP;
	if (hdr->mgmt_class == RTE_IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		status |= IBMAD_DR_STATUS_D;
	hdr->status = rte_cpu_to_be_16(status);
	recv_reply(mdev, &e->wc, e->mad);
}

/*
 * A request this port sent to itself, or a directed-route request of
 * this device at the end of its directed part (recv_dr_smp() keeps no
 * other), arriving (mad_send.c, "Answers from this host"): its send, to
 * be told who answers it, or NULL.
 */
static struct ibmad_send *
recv_self_request(struct ibmad_dev *mdev, const struct ibmad_rx_entry *e)
{
	struct ibmad_send *s;

	if (ibmad_addr_is_self(mdev, e->wc.port, e->mad, e->wc.slid))
		return ibmad_send_self_find(mdev, e->wc.port, e->wc.qpn, e->mad);
	s = ibmad_send_dr_back_find(mdev, e->mad);
	if (s != NULL)
		s->dr_back = true;
	return s;
}

void
ibmad_recv_process(struct ibmad_dev *mdev, struct ibmad_rx_entry *e)
{
	const struct rte_ib_mad_hdr *hdr = (const struct rte_ib_mad_hdr *)e->mad;
	struct rte_ibmad_agent *agent;
	uint8_t out[RTE_IB_MAD_SIZE];
	struct ibmad_send *self = NULL;
	struct rte_ibmad_recv r;
	bool response;
	int ret;

	IBMAD_LOG(DEBUG, "%s port %u QP%u: from LID 0x%04x QP 0x%x: class 0x%02x "
		  "method 0x%02x attr 0x%04x TID 0x%016" PRIx64, mdev->dev->name,
		  e->wc.port, e->wc.qpn, e->wc.slid, e->wc.src_qpn, hdr->mgmt_class,
		  hdr->method, rte_be_to_cpu_16(hdr->attr_id),
		  rte_be_to_cpu_64(hdr->tid));
	if (hdr->base_version != RTE_IB_MAD_BASE_VERSION ||
	    ibmad_class_is_smp(hdr->mgmt_class) != (e->wc.qpn == 0) ||
	    e->wc.port < 1 || e->wc.port > mdev->dev->phys_port_cnt) {
		mdev->stats.rx_invalid++;
		IBMAD_LOG(DEBUG, "%s port %u QP%u: dropped: BaseVersion %u class 0x%02x",
			  mdev->dev->name, e->wc.port, e->wc.qpn,
			  hdr->base_version, hdr->mgmt_class);
		return;
	}
	if (hdr->mgmt_class == RTE_IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE &&
	    !recv_dr_smp(mdev, e))
		return;
	if (hdr->method == RTE_IB_METHOD_TRAP && e->wc.slid == 0) {
		recv_forward_trap(mdev, e);
		return;
	}
	response = ib_mad_is_response(e->mad);
	if (!response)
		self = recv_self_request(mdev, e);
	if (!response || hdr->method == RTE_IB_METHOD_TRAP_REPRESS) {
		ret = ibmad_local_answer(mdev, e->wc.port, &e->wc, e->mad, out);
		if (ret < 0)
			return;
		if (ret != IBMAD_LOCAL_NOT_MINE && self != NULL)
			self->self_ok = true;       /* the device answers */
		if (ret == IBMAD_LOCAL_REPLY) {
			recv_reply(mdev, &e->wc, out);
			return;
		}
		if (ret == IBMAD_LOCAL_CONSUMED)
			return;
	}

	r.dev = mdev->dev;
	r.port = e->wc.port;
	r.qpn = e->wc.qpn;
	r.wc = &e->wc;
	r.mad = e->mad;
	r.len = RTE_IB_MAD_SIZE;
	/* RMPP ACKs, STOPs, ABORTs and the segments of RMPP agents' responses. */
	if (ibmad_rmpp_class(hdr->mgmt_class) && ibmad_rmpp_active(e->mad) &&
	    ibmad_rmpp_recv_hook(mdev, e, response))
		return;
	if (response) {
		agent = ibmad_agent_find_response(mdev, r.port, r.qpn, e->mad);
		ret = agent != NULL ? ibmad_send_match(agent, &r) : 0;
		if (ret > 0) {
			mdev->stats.rx_response++;
		} else if (ret == 0) {
			mdev->stats.rx_unmatched++;
			IBMAD_LOG(DEBUG, "%s port %u: response TID 0x%016" PRIx64
				  " matches no send", mdev->dev->name, r.port,
				  rte_be_to_cpu_64(hdr->tid));
		}
		return;
	}
	agent = ibmad_agent_find_request(mdev, r.port, r.qpn, e->mad);
	if (agent == NULL) {
		mdev->stats.rx_no_agent++;
		if (self != NULL)
			self->self_ok = true;       /* answered here */
		recv_unsupported(mdev, e);
		return;
	}
	mdev->stats.rx_agent++;
	if (self != NULL) {
		self->server_hi = agent->hi_tid;
		self->server_owner = agent->conf.owner;
	}
	if (agent->conf.recv_cb != NULL) {
		ibmad_callback_enter();
		agent->conf.recv_cb(agent, &r, agent->conf.arg);
		ibmad_callback_leave();
	}
}
