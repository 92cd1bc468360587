/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Receive dispatch (fab_port_recv), the channel-adapter receive path, and
 * every node's send path for MADs: from its local agents (umad2sim
 * clients), from its firmware (replies, traps). A switch's management
 * port 0 sends LID-routed packets by "receiving" them on port 0, so the
 * switch's own forwarding (switch.c) routes them exactly like transit
 * traffic.
 */

#include <errno.h>
#include <string.h>

#include "dr.h"
#include "fab_link.h"
#include "fab_log.h"
#include "fab_node.h"
#include "fab_pkey.h"
#include "fab_pkt.h"
#include "fab_route.h"
#include "fabric.h"
#include "fw_agents.h"
#include "ib_proto.h"
#include "mad.h"

#define VL15		15
#define PKEY_DEFAULT	0xffff

/* IBA 4.1.3 (LMC): a port answers to its base LID and the 2^LMC LIDs above it. */
static inline bool
lid_is_mine(const struct fab_port *port, uint16_t lid)
{
	return ib_lid_in_lmc_range(port->lid, port->lmc, lid);
}

static inline uint16_t
lrh_dlid(const struct fab_pkt *p)
{
	return mad_get16(p->data, 2);
}

/* The management port of @p port's node: switch port 0, else the CA port. */
static inline struct fab_port *
mgmt_port(struct fab_port *port)
{
	return port->node->type == FAB_NODE_SWITCH ? &port->node->ports[0] : port;
}

/* Hand @p p (already parsed into @p h) to the node's host stack: a local client. */
static void
deliver(struct fabric *f, struct fab_port *port, struct fab_pkt *p,
	const struct fab_hdrs *h)
{
	if (f->client_deliver == NULL || f->client_deliver(f, port, h, p) < 0)
		fab_pkt_drop(f, p, "no local client for the MAD");
}

/* Parse a packet this node built itself, then deliver it locally. */
static void
deliver_built(struct fabric *f, struct fab_port *port, struct fab_pkt *p)
{
	struct fab_hdrs h;

	if (pkt_parse(p, &h) != 0) {
		fab_pkt_drop(f, p, "local delivery: packet does not parse");
		return;
	}
	deliver(f, port, p, &h);
}

void
fab_node_output(struct fabric *f, struct fab_port *port, struct fab_pkt *p)
{
	uint16_t dlid = lrh_dlid(p);

	if (port->node->type == FAB_NODE_SWITCH) {
		/* port 0 ingress: switch_recv routes it (LFT, MFT or local) */
		fab_pkt_enqueue(f, &port->node->ports[0], p);
		return;
	}
	if (lid_is_mine(port, dlid))
		fab_pkt_enqueue(f, port, p);	/* loop-back to this CA port */
	else
		fab_port_xmit(f, port, p);
}

/* Address of the reply to a request with headers @p h (QPs swapped). */
static void
reply_addr(struct fab_pkt_addr *a, const struct fab_hdrs *h)
{
	memset(a, 0, sizeof(*a));
	a->sl = h->sl;
	a->vl = h->dest_qp == 0 ? VL15 : 0;
	a->pkey = h->pkey;
	a->dest_qp = h->src_qp;
	a->src_qp = h->dest_qp;
	a->qkey = h->dest_qp == 1 ? IB_QP1_QKEY : h->qkey;
	if (h->has_grh) {
		a->grh = true;
		a->tclass = h->tclass;
		a->flow_label = h->flow_label;
		a->hop_limit = 0xff;
		memcpy(a->sgid, h->dgid, 16);
		memcpy(a->dgid, h->sgid, 16);
	}
}

/*
 * The directed-route tail shared by every DR SMP a node originates, a
 * request from its agent or a reply of its firmware (IBA 14.2.2.1 and
 * 14.2.2.3, after dr_originate() gave @p r): the LIDs for the action
 * (permissive on the DR part of the path; @p a's LIDs, with the DR
 * segment's DrDLID when set, to LID-route to its start), the packet
 * built, then sent out the path's first port (CA: @p port; switch: the
 * port the path names), LID-routed from the management port @p mp, or
 * kept for the node itself. A discarded SMP is dropped once built, so
 * that its sender hears of it. Returns true when the packet is for this
 * node (DR_LOCAL: hop count 0): the caller delivers it.
 */
static bool
dr_send_tail(struct fabric *f, struct fab_port *port, struct fab_port *mp, struct fab_pkt *p,
	     struct fab_pkt_addr *a, const uint8_t *buf, const struct dr_result *r)
{
	struct fab_node *node = port->node;

	if (r->verdict == DR_DISCARD || r->action != DR_SEND) {
		a->dlid = IB_LID_PERMISSIVE;
		a->slid = IB_LID_PERMISSIVE;
	} else if (r->lid != 0) {
		a->dlid = r->lid;
	}
	if (pkt_build_ud_lazy(p, a, buf, IB_MAD_SIZE) != 0) {
		fab_pkt_drop(f, p, "SMP does not fit a packet");
		return false;
	}
	if (r->verdict == DR_DISCARD) {
		fab_pkt_drop(f, p, r->rule);
		return false;
	}
	switch (r->action) {
	case DR_FORWARD:
		fab_port_xmit(f, node->type == FAB_NODE_SWITCH ? &node->ports[r->port] : port, p);
		return false;
	case DR_SEND:
		fab_node_output(f, mp, p);
		return false;
	case DR_LOCAL:
	default:
		return true;
	}
}

void
fab_node_reply(struct fabric *f, struct fab_port *port, struct fab_pkt *p,
	       const struct fab_hdrs *h, const uint8_t *mad)
{
	struct fab_node *node = port->node;
	bool is_sw = node->type == FAB_NODE_SWITCH;
	uint8_t buf[IB_MAD_SIZE];
	struct fab_pkt_addr a;
	struct dr_result r;

	memcpy(buf, mad, sizeof(buf));
	reply_addr(&a, h);

	if (buf[MAD_MGMT_CLASS] != MAD_CLASS_SMI_DR) {
		/* LID-routed reply: from the LID the request was sent to */
		a.dlid = h->slid;
		a.slid = h->dlid != IB_LID_PERMISSIVE ? h->dlid : port->lid;
		if (pkt_build_ud_lazy(p, &a, buf, sizeof(buf)) != 0) {
			fab_pkt_drop(f, p, "reply does not fit");
			return;
		}
		fab_node_output(f, port, p);
		return;
	}

	/* IBA 14.2.2.3: the responder sets D and walks the return path */
	dr_set_returning(buf);
	dr_originate(buf, is_sw, node->nports, &r);
	/* Dropped as it came: the requester is told of its own request. */
	if (r.verdict == DR_DISCARD) {
		fab_pkt_drop(f, p, r.rule);
		return;
	}
	/* LID-routed to the requester when the return path starts with a LID part */
	a.dlid = h->slid;
	a.slid = port->lid;
	if (dr_send_tail(f, port, port, p, &a, buf, &r))
		deliver_built(f, port, p);	/* C14-13:3, hop count 0: our own SM */
}

/*
 * Firmware agent for @p mad (a copy: an agent that ignores the MAD must
 * leave the packet as it came), else the local clients.
 */
static void
node_firmware(struct fabric *f, struct fab_port *port, struct fab_port *in,
	      struct fab_pkt *p, const struct fab_hdrs *h, const uint8_t *mad,
	      bool pma)
{
	uint8_t buf[IB_MAD_SIZE];
	enum fab_mad_result res;

	memcpy(buf, mad, sizeof(buf));
	/* the agents take the arrival port (switch: 1..N, or 0 from itself) */
	if (pma)
		res = pma_process(f, port->node, in, buf);
	else
		res = sma_process(f, port->node, in, buf);
	switch (res) {
	case FAB_MAD_REPLY:
		fab_node_reply(f, port, p, h, buf);
		break;
	case FAB_MAD_CONSUMED:
		fab_pkt_free(f, p);
		break;
	case FAB_MAD_IGNORE:
	default:
		deliver(f, port, p, h);
		break;
	}
}

void
fab_node_local(struct fabric *f, struct fab_port *port, struct fab_port *in,
	       struct fab_pkt *p, const struct fab_hdrs *h)
{
	const uint8_t *mad = p->data + h->payload_off;

	if ((h->dest_qp == 0 || h->dest_qp == 1) && h->payload_len < IB_MAD_SIZE) {
		f->bad_mads++;
		fab_pkt_drop(f, p, "MAD shorter than 256 bytes");
		return;
	}
	switch (h->dest_qp) {
	case 0:
		/* QP0 traffic travels on VL15 only, the management VL (IBA ch. 7.6) */
		if (h->vl != VL15) {
			fab_pkt_drop(f, p, "QP0 packet not on VL15");
			return;
		}
		if (mad[MAD_MGMT_CLASS] == MAD_CLASS_SMI_DR && dr_is_returning(mad)) {
			deliver(f, port, p, h);		/* back at the SM */
			return;
		}
		if (mad[MAD_MGMT_CLASS] != MAD_CLASS_SMI &&
		    mad[MAD_MGMT_CLASS] != MAD_CLASS_SMI_DR) {
			f->bad_mads++;
			fab_pkt_drop(f, p, "QP0: not a subnet management class");
			return;
		}
		node_firmware(f, port, in, p, h, mad, false);
		return;
	case 1:
		/* IBA 10.9.3: the BTH P_Key must be in the port's table */
		if (fab_pkey_index(port, h->pkey) < 0) {
			port->pkey_violations++;
			fab_pkt_drop(f, p, "QP1: P_Key not in the table");
			return;
		}
		/* GSI datagrams carry the well-known QP1 Q_Key (IBA 13.5) */
		if (h->qkey != IB_QP1_QKEY) {
			port->qkey_violations++;
			fab_pkt_drop(f, p, "QP1: wrong Q_Key");
			return;
		}
		if (mad[MAD_MGMT_CLASS] == MAD_CLASS_PERF && !mad_is_response(mad))
			node_firmware(f, port, in, p, h, mad, true);
		else
			deliver(f, port, p, h);
		return;
	default:
		fab_pkt_drop(f, p, "no such QP on a passive node");
		return;
	}
}

static void
ca_recv(struct fabric *f, struct fab_port *in, struct fab_pkt *p,
	const struct fab_hdrs *h)
{
	struct dr_result r;
	uint8_t *mad;

	if (h->dlid == IB_LID_PERMISSIVE) {
		/* the permissive DLID is for SMPs, on QP0, only (IBA 4.1.3) */
		if (h->dest_qp != 0) {
			fab_pkt_drop(f, p, "permissive DLID on a QP other than 0");
			return;
		}
	} else if (ib_lid_is_multicast(h->dlid)) {
		/* no QP attached to any group on a passive CA */
		fab_pkt_drop(f, p, "multicast: no QP attached");
		return;
	} else if (!lid_is_mine(in, h->dlid)) {
		fab_pkt_drop(f, p, "DLID is not this port's");
		return;
	}

	if (h->dest_qp == 0 && h->payload_len >= IB_MAD_SIZE &&
	    p->data[h->payload_off + MAD_MGMT_CLASS] == MAD_CLASS_SMI_DR) {
		mad = p->data + h->payload_off;
		dr_receive(mad, false, in->num, in->node->nports, &r);
		/* this node's SMI changed HopPointer: CRCs regenerated lazily */
		p->crc_pending = p->crc_valid;
		/* a CA never relays: only DR_LOCAL survives the CA rules */
		if (r.verdict == DR_DISCARD || r.action != DR_LOCAL) {
			fab_pkt_drop(f, p, r.rule);
			return;
		}
	}
	fab_node_local(f, in, in, p, h);
}

void
fab_port_recv(struct fabric *f, struct fab_port *in, struct fab_pkt *p)
{
	struct fab_hdrs h;
	int rc;

	/* a CA is where a packet ends: VCRC and ICRC; a switch checks the VCRC */
	if (in->node->type == FAB_NODE_SWITCH)
		rc = pkt_parse_link(p, &h);
	else
		rc = pkt_parse(p, &h);
	if (rc != 0) {
		in->cnt.rcv_errors++;
		fab_pkt_drop(f, p, rc == -EILSEQ ? "recv: bad ICRC/VCRC" : "recv: malformed packet");
		return;
	}
	if (in->err_pct != 0 && fab_link_rx_error(f, in, p, &h))
		return;
	if (in->node->type == FAB_NODE_SWITCH)
		switch_recv(f, in, p, &h);
	else if (in->node->active_hca && f->hca_recv != NULL)
		f->hca_recv(f, in, p, &h);	/* the MT25208 model is the CA */
	else
		ca_recv(f, in, p, &h);
}

void
fab_node_send_mad(struct fabric *f, struct fab_port *port,
		  const struct fab_mad_addr *a, const uint8_t *mad,
		  uint32_t mad_len, int origin, uint32_t origin_gen)
{
	struct fab_port *mp = mgmt_port(port);
	struct fab_node *node = port->node;
	bool is_sw = node->type == FAB_NODE_SWITCH;
	uint8_t buf[IB_MAD_SIZE];
	struct fab_pkt_addr pa;
	struct dr_result r;
	struct fab_hdrs h;
	struct fab_pkt *p;
	bool qp0 = a->dqp == 0;

	p = fab_pkt_alloc(f);
	if (p == NULL) {
		FAB_ERR("send from %s port %u: out of packet memory", node->name, port->num);
		return;
	}
	p->origin = origin;
	p->origin_gen = origin_gen;
	p->mad_len = (uint16_t)(mad_len > IB_MAD_SIZE ? IB_MAD_SIZE : mad_len);
	memset(buf, 0, sizeof(buf));
	memcpy(buf, mad, p->mad_len);

	memset(&pa, 0, sizeof(pa));
	pa.vl = qp0 ? VL15 : 0;
	pa.sl = a->sl;
	if (qp0)
		pa.pkey = PKEY_DEFAULT;		/* QP0 does not check P_Keys (IBA 10.9) */
	else if (a->pkey_index < FAB_PKEY_TABLE_SIZE && mp->pkeys[a->pkey_index] != 0)
		pa.pkey = mp->pkeys[a->pkey_index];
	else
		pa.pkey = PKEY_DEFAULT;
	pa.dest_qp = a->dqp;
	pa.src_qp = a->sqp;
	pa.qkey = a->dqp == 1 ? IB_QP1_QKEY : a->qkey;
	pa.dlid = a->dlid;
	pa.slid = a->slid != 0 ? a->slid : mp->lid;

	if (!qp0 || buf[MAD_MGMT_CLASS] != MAD_CLASS_SMI_DR) {
		if (pkt_build_ud_lazy(p, &pa, buf, sizeof(buf)) != 0) {
			fab_pkt_drop(f, p, "MAD does not fit a packet");
			return;
		}
		fab_node_output(f, mp, p);
		return;
	}

	/* Directed route: IBA 14.2.2 processing at the originating node */
	dr_originate(buf, is_sw, node->nports, &r);
	if (!dr_send_tail(f, port, mp, p, &pa, buf, &r))
		return;
	/* hop count 0: this node's own SMA, or a reply for the local SM */
	if (pkt_parse(p, &h) != 0) {
		fab_pkt_drop(f, p, "local SMP does not parse");
		return;
	}
	if (dr_is_returning(buf)) {
		deliver(f, mp, p, &h);
		return;
	}
	node_firmware(f, mp, mp, p, &h, p->data + h.payload_off, false);
}
