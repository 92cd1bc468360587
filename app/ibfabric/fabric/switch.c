/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * A switch's receive path. Directed-route SMPs addressed to the switch
 * (permissive DLID, or its own LID at either end of the directed part)
 * follow dr.c; everything else is LID-routed: the switch's own LIDs go to
 * its management port 0, unicast DLIDs through the LinearForwardingTable
 * (IBA 18.2.4.3.1), multicast DLIDs to every member port of the
 * MulticastForwardingTable (IBA 18.2.4.3.2) except the ingress. Packets
 * a switch cannot relay are counted in PortRcvSwitchRelayErrors of the
 * ingress port (IBA 16.1.3.5).
 */

#include <string.h>

#include "dr.h"
#include "fab_link.h"
#include "fab_node.h"
#include "fab_pkt.h"
#include "fab_route.h"
#include "fabric.h"
#include "ib_proto.h"
#include "mad.h"

#define VL15		15

/* The switch answers to port 0's LID and the 2^LMC LIDs above it. */
static inline bool
lid_is_switch(const struct fab_port *p0, uint16_t lid)
{
	return ib_lid_in_lmc_range(p0->lid, p0->lmc, lid);
}

static void
relay_error(struct fabric *f, struct fab_port *in, struct fab_pkt *p, const char *why)
{
	in->cnt.rcv_switch_relay_errors++;
	fab_pkt_drop(f, p, why);
}

static void
switch_dr(struct fabric *f, struct fab_port *in, struct fab_pkt *p,
	  const struct fab_hdrs *h)
{
	struct fab_node *node = in->node;
	struct fab_port *p0 = &node->ports[0];
	uint8_t *mad = p->data + h->payload_off;
	struct dr_result r;

	dr_receive(mad, true, in->num, node->nports, &r);
	/*
	 * The switch's SMI changed HopPointer and regenerates the CRCs, as
	 * hardware does (lazily here, fab_pkt.crc_pending); a packet whose
	 * ICRC was not known good stays unknown.
	 */
	p->crc_pending = p->crc_valid;
	if (r.verdict == DR_DISCARD) {
		fab_pkt_drop(f, p, r.rule);
		return;
	}
	switch (r.action) {
	case DR_FORWARD:
		/* directed part: LRH LIDs permissive; HopPointer changed, so new CRCs */
		pkt_set_lids(p, IB_LID_PERMISSIVE, IB_LID_PERMISSIVE);
		fab_port_xmit(f, &node->ports[r.port], p);
		return;
	case DR_SEND:
		/* end of the directed part: LID-routed on, from this switch */
		if (r.lid == 0 || r.lid >= IB_LID_MULTICAST_MIN) {
			fab_pkt_drop(f, p, "DR: DrDLID/DrSLID is not a unicast LID");
			return;
		}
		pkt_set_lids(p, r.lid, p0->lid);
		fab_node_output(f, p0, p);
		return;
	case DR_LOCAL:
	default:
		fab_node_local(f, p0, in, p, h);
		return;
	}
}

static void
switch_mcast(struct fabric *f, struct fab_port *in, struct fab_pkt *p, uint16_t mlid)
{
	struct fab_node *node = in->node;
	struct fab_switch *sw = node->sw;
	unsigned int idx = mlid - IB_LID_MULTICAST_MIN;
	unsigned int pos, npos = node->nports / 16 + 1;
	uint8_t out[FAB_MAX_PORTS + 1];
	unsigned int nout = 0, i;

	if (sw->mft == NULL || idx >= FAB_MFT_CAP) {
		relay_error(f, in, p, "multicast DLID beyond the MFT");
		return;
	}
	if (npos > 16)
		npos = 16;
	for (pos = 0; pos < npos; pos++) {
		unsigned int m = sw->mft[idx][pos];

		while (m != 0) {
			unsigned int port = pos * 16 + (unsigned int)__builtin_ctz(m);

			m &= m - 1;
			/* port 0 members: no multicast QP on a switch's port 0 yet */
			if (port == 0 || port > node->nports || port == in->num)
				continue;
			out[nout++] = (uint8_t)port;
		}
	}
	if (nout == 0) {
		relay_error(f, in, p, "multicast: no member port");
		return;
	}
	for (i = 0; i + 1 < nout; i++) {
		struct fab_pkt *c = fab_pkt_alloc(f);

		if (c == NULL) {
			node->ports[out[i]].cnt.xmit_discards++;
			continue;
		}
		c->len = p->len;
		memcpy(c->data, p->data, p->len);
		c->crc_valid = p->crc_valid;
		c->crc_pending = p->crc_pending;
		fab_port_xmit(f, &node->ports[out[i]], c);
	}
	fab_port_xmit(f, &node->ports[out[nout - 1]], p);
}

/*
 * The switch itself is the end of this packet (its agents, or a DR step
 * that rewrites it): the ICRC must hold, IBA 7.8.1. Relayed packets are
 * left to the end node, as the VCRC already covered this hop.
 */
static bool
icrc_ok(struct fabric *f, struct fab_port *in, struct fab_pkt *p)
{
	if (pkt_check_icrc(p) == 0)
		return true;
	in->cnt.rcv_errors++;
	fab_pkt_drop(f, p, "recv: bad ICRC");
	return false;
}

void
switch_recv(struct fabric *f, struct fab_port *in, struct fab_pkt *p,
	    const struct fab_hdrs *h)
{
	struct fab_node *node = in->node;
	struct fab_port *p0 = &node->ports[0];
	struct fab_switch *sw = node->sw;
	uint16_t dlid = h->dlid;
	bool smp = h->dest_qp == 0 && h->vl == VL15 && h->payload_len >= IB_MAD_SIZE;
	uint8_t cls = smp ? p->data[h->payload_off + MAD_MGMT_CLASS] : 0;
	uint8_t egress;

	if (cls == MAD_CLASS_SMI_DR &&
	    (dlid == IB_LID_PERMISSIVE || lid_is_switch(p0, dlid))) {
		if (icrc_ok(f, in, p))
			switch_dr(f, in, p, h);
		return;
	}
	if (dlid == IB_LID_PERMISSIVE) {
		/* only an SMP may use the permissive DLID (IBA 4.1.3): for this switch */
		if (cls != MAD_CLASS_SMI)
			fab_pkt_drop(f, p, "permissive DLID on a non-SMP");
		else if (icrc_ok(f, in, p))
			fab_node_local(f, p0, in, p, h);
		return;
	}
	if (lid_is_switch(p0, dlid)) {
		if (icrc_ok(f, in, p))
			fab_node_local(f, p0, in, p, h);
		return;
	}
	if (ib_lid_is_multicast(dlid)) {
		switch_mcast(f, in, p, dlid);
		return;
	}
	if (sw == NULL || dlid == 0 || dlid >= FAB_LFT_CAP || dlid > sw->lft_top) {
		relay_error(f, in, p, "unicast DLID beyond LinearFDBTop");
		return;
	}
	egress = sw->lft[dlid];
	if (egress == 0 && in->num != 0) {
		/* IBA 18.2.4.3.1: LFT port 0 is the switch's own management port */
		if (icrc_ok(f, in, p))
			fab_node_local(f, p0, in, p, h);
		return;
	}
	if (egress == FAB_NO_PORT || egress > node->nports || egress == in->num) {
		relay_error(f, in, p, "no LFT route for the DLID");
		return;
	}
	fab_port_xmit(f, &node->ports[egress], p);
}
