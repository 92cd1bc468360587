/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Firmware Performance Management Agent (IBA vol. 1 16.1): ClassPortInfo,
 * PortCounters and PortCountersExtended of every simulated port.
 *
 * The counters live in struct fab_port_counters at full width (64-bit
 * data and packet counts, 32-bit error counts); the other modules only
 * increment them. This file encodes them at the width of the attribute
 * field, saturating (16.1.3.5: "counters stop at all ones"), so a
 * 4-bit LocalLinkIntegrityErrors reads 15 once 15 or more were seen.
 *
 * PortCounters' 32-bit data/packet fields and PortCountersExtended's
 * 64-bit ones read the same underlying counters, so clearing one through
 * either attribute clears both.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "fab_node.h"
#include "fabric.h"
#include "fw_agents.h"
#include "mad.h"

/* ClassPortInfo.CapabilityMask we advertise (16.1.2 table 223). */
#define PMA_CAP_MASK	(PMA_CAP_ALL_PORT_SELECT | PMA_CAP_PORT_COUNTERS_EXT | \
			 PMA_CAP_XMIT_WAIT)
#define PMA_RESP_TIME	18	/* 4.096 us * 2^18 ~ 1 s, as many HCAs report */

static uint64_t
pma_sat(uint64_t v, unsigned int bits)
{
	uint64_t max = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;

	return v > max ? max : v;
}

static uint64_t
pma_add_sat64(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* Saturating sum of @p b into @p a, every field at its full stored width. */
static void
pma_counters_add(struct fab_port_counters *a, const struct fab_port_counters *b)
{
	a->xmit_data = pma_add_sat64(a->xmit_data, b->xmit_data);
	a->rcv_data = pma_add_sat64(a->rcv_data, b->rcv_data);
	a->xmit_pkts = pma_add_sat64(a->xmit_pkts, b->xmit_pkts);
	a->rcv_pkts = pma_add_sat64(a->rcv_pkts, b->rcv_pkts);
	a->unicast_xmit_pkts = pma_add_sat64(a->unicast_xmit_pkts, b->unicast_xmit_pkts);
	a->unicast_rcv_pkts = pma_add_sat64(a->unicast_rcv_pkts, b->unicast_rcv_pkts);
	a->multicast_xmit_pkts = pma_add_sat64(a->multicast_xmit_pkts,
					       b->multicast_xmit_pkts);
	a->multicast_rcv_pkts = pma_add_sat64(a->multicast_rcv_pkts,
					      b->multicast_rcv_pkts);
#define PMA_ADD32(fld) \
	a->fld = (uint32_t)pma_sat((uint64_t)a->fld + b->fld, 32)
	PMA_ADD32(symbol_errors);
	PMA_ADD32(link_error_recovery);
	PMA_ADD32(link_downed);
	PMA_ADD32(rcv_errors);
	PMA_ADD32(rcv_remote_phys_errors);
	PMA_ADD32(rcv_switch_relay_errors);
	PMA_ADD32(xmit_discards);
	PMA_ADD32(xmit_constraint_errors);
	PMA_ADD32(rcv_constraint_errors);
	PMA_ADD32(local_link_integrity_errors);
	PMA_ADD32(excessive_buffer_overrun_errors);
	PMA_ADD32(vl15_dropped);
	PMA_ADD32(xmit_wait);
#undef PMA_ADD32
}

/* CounterSelect (bits 15:0) and CounterSelect2 bit 0 (<< 16) of PortCounters. */
static void
pma_pc_clear(struct fab_port_counters *c, uint32_t sel)
{
	if (sel & PC_SEL_SYMBOL_ERRORS)
		c->symbol_errors = 0;
	if (sel & PC_SEL_LINK_ERR_RECOVERY)
		c->link_error_recovery = 0;
	if (sel & PC_SEL_LINK_DOWNED)
		c->link_downed = 0;
	if (sel & PC_SEL_RCV_ERRORS)
		c->rcv_errors = 0;
	if (sel & PC_SEL_RCV_REMOTE_PHYS)
		c->rcv_remote_phys_errors = 0;
	if (sel & PC_SEL_RCV_SWITCH_RELAY)
		c->rcv_switch_relay_errors = 0;
	if (sel & PC_SEL_XMIT_DISCARDS)
		c->xmit_discards = 0;
	if (sel & PC_SEL_XMIT_CONSTRAINT)
		c->xmit_constraint_errors = 0;
	if (sel & PC_SEL_RCV_CONSTRAINT)
		c->rcv_constraint_errors = 0;
	if (sel & PC_SEL_LOCAL_LINK_INTEGRITY)
		c->local_link_integrity_errors = 0;
	if (sel & PC_SEL_EXCESSIVE_BUF_OVERRUN)
		c->excessive_buffer_overrun_errors = 0;
	if (sel & PC_SEL_VL15_DROPPED)
		c->vl15_dropped = 0;
	if (sel & PC_SEL_XMIT_DATA)
		c->xmit_data = 0;
	if (sel & PC_SEL_RCV_DATA)
		c->rcv_data = 0;
	if (sel & PC_SEL_XMIT_PKTS)
		c->xmit_pkts = 0;
	if (sel & PC_SEL_RCV_PKTS)
		c->rcv_pkts = 0;
	if (sel & (PC_SEL2_XMIT_WAIT << 16))
		c->xmit_wait = 0;
}

static void
pma_pce_clear(struct fab_port_counters *c, uint32_t sel)
{
	if (sel & PCE_SEL_XMIT_DATA)
		c->xmit_data = 0;
	if (sel & PCE_SEL_RCV_DATA)
		c->rcv_data = 0;
	if (sel & PCE_SEL_XMIT_PKTS)
		c->xmit_pkts = 0;
	if (sel & PCE_SEL_RCV_PKTS)
		c->rcv_pkts = 0;
	if (sel & PCE_SEL_UNICAST_XMIT)
		c->unicast_xmit_pkts = 0;
	if (sel & PCE_SEL_UNICAST_RCV)
		c->unicast_rcv_pkts = 0;
	if (sel & PCE_SEL_MCAST_XMIT)
		c->multicast_xmit_pkts = 0;
	if (sel & PCE_SEL_MCAST_RCV)
		c->multicast_rcv_pkts = 0;
}

/* PortCounters data after the select fields (16.1.3.5 table 233). */
static void
pma_pc_encode(const struct fab_port_counters *c, uint8_t *d)
{
	mad_set16(d, PC_SYMBOL_ERRORS, (uint16_t)pma_sat(c->symbol_errors, 16));
	mad_set8(d, PC_LINK_ERR_RECOVERY, (uint8_t)pma_sat(c->link_error_recovery, 8));
	mad_set8(d, PC_LINK_DOWNED, (uint8_t)pma_sat(c->link_downed, 8));
	mad_set16(d, PC_RCV_ERRORS, (uint16_t)pma_sat(c->rcv_errors, 16));
	mad_set16(d, PC_RCV_REMOTE_PHYS, (uint16_t)pma_sat(c->rcv_remote_phys_errors, 16));
	mad_set16(d, PC_RCV_SWITCH_RELAY, (uint16_t)pma_sat(c->rcv_switch_relay_errors, 16));
	mad_set16(d, PC_XMIT_DISCARDS, (uint16_t)pma_sat(c->xmit_discards, 16));
	mad_set8(d, PC_XMIT_CONSTRAINT, (uint8_t)pma_sat(c->xmit_constraint_errors, 8));
	mad_set8(d, PC_RCV_CONSTRAINT, (uint8_t)pma_sat(c->rcv_constraint_errors, 8));
	mad_setbits(d, PC_B19, 4, 4, (unsigned int)pma_sat(c->local_link_integrity_errors, 4));
	mad_setbits(d, PC_B19, 0, 4,
		    (unsigned int)pma_sat(c->excessive_buffer_overrun_errors, 4));
	mad_set16(d, PC_VL15_DROPPED, (uint16_t)pma_sat(c->vl15_dropped, 16));
	mad_set32(d, PC_XMIT_DATA, (uint32_t)pma_sat(c->xmit_data, 32));
	mad_set32(d, PC_RCV_DATA, (uint32_t)pma_sat(c->rcv_data, 32));
	mad_set32(d, PC_XMIT_PKTS, (uint32_t)pma_sat(c->xmit_pkts, 32));
	mad_set32(d, PC_RCV_PKTS, (uint32_t)pma_sat(c->rcv_pkts, 32));
	mad_set32(d, PC_XMIT_WAIT, (uint32_t)pma_sat(c->xmit_wait, 32));
}

static void
pma_pce_encode(const struct fab_port_counters *c, uint8_t *d)
{
	mad_set64(d, PCE_XMIT_DATA, c->xmit_data);
	mad_set64(d, PCE_RCV_DATA, c->rcv_data);
	mad_set64(d, PCE_XMIT_PKTS, c->xmit_pkts);
	mad_set64(d, PCE_RCV_PKTS, c->rcv_pkts);
	mad_set64(d, PCE_UNICAST_XMIT_PKTS, c->unicast_xmit_pkts);
	mad_set64(d, PCE_UNICAST_RCV_PKTS, c->unicast_rcv_pkts);
	mad_set64(d, PCE_MCAST_XMIT_PKTS, c->multicast_xmit_pkts);
	mad_set64(d, PCE_MCAST_RCV_PKTS, c->multicast_rcv_pkts);
}

/*
 * Ports named by PortSelect: one port, or with AllPortSelect (0xFF) every
 * port of the node, switch port 0 included. A CA has no port 0; 0 there
 * means the port the MAD arrived on (tools that omit the port send 0).
 * Returns false for a port the node does not have.
 */
static bool
pma_port_range(const struct fab_node *n, const struct fab_port *in,
	       uint8_t sel, unsigned int *first, unsigned int *last)
{
	bool sw = n->type == FAB_NODE_SWITCH;

	if (sel == PMA_ALL_PORTS) {
		*first = sw ? 0 : 1;
		*last = n->nports;
		return true;
	}
	if (sel == 0 && !sw)
		sel = in->num;
	if (sel > n->nports || (sel == 0 && !sw))
		return false;
	*first = sel;
	*last = sel;
	return true;
}

static uint16_t
pma_counters(struct fab_node *n, struct fab_port *in, uint8_t method,
	     uint16_t attr, uint8_t *d)
{
	struct fab_port_counters sum;
	unsigned int first, last, i;
	uint32_t sel;
	bool ext = attr == PMA_ATTR_PORT_COUNTERS_EXT;

	if (!pma_port_range(n, in, mad_get8(d, PC_PORT_SELECT), &first, &last))
		return MAD_STATUS_INVALID_FIELD;
	sel = mad_get16(d, PC_COUNTER_SELECT);
	if (!ext)
		sel |= (uint32_t)(mad_get8(d, PC_COUNTER_SELECT2) & PC_SEL2_XMIT_WAIT) << 16;

	memset(&sum, 0, sizeof(sum));
	for (i = first; i <= last; i++) {
		struct fab_port_counters *c = &n->ports[i].cnt;

		/* 16.1.3.5: a Set clears the selected counters, then reads. */
		if (method == MAD_METHOD_SET) {
			if (ext)
				pma_pce_clear(c, sel);
			else
				pma_pc_clear(c, sel);
			n->ports[i].pma_counter_select = (uint16_t)sel;
		}
		pma_counters_add(&sum, c);
	}
	/* Keep Reserved/PortSelect/CounterSelect(2) as sent; zero the rest. */
	if (ext) {
		memset(d + PCE_COUNTER_SELECT + 2, 0, MAD_GMP_DATA_SIZE - 4);
		pma_pce_encode(&sum, d);
	} else {
		memset(d + PC_SYMBOL_ERRORS, 0, PC_COUNTER_SELECT2 - PC_SYMBOL_ERRORS);
		memset(d + PC_B19, 0, MAD_GMP_DATA_SIZE - PC_B19);
		pma_pc_encode(&sum, d);
	}
	return MAD_STATUS_OK;
}

static uint16_t
pma_class_port_info(uint8_t *d)
{
	memset(d, 0, MAD_GMP_DATA_SIZE);
	mad_set8(d, CPI_BASE_VERSION, MAD_BASE_VERSION_1);
	mad_set8(d, CPI_CLASS_VERSION, MAD_PERF_CLASS_VERSION);
	mad_set16(d, CPI_CAP_MASK, PMA_CAP_MASK);
	/* CapabilityMask2 (31:5) zero; RespTimeValue in 4:0. */
	mad_set32(d, CPI_CAP_MASK2_RESP_TIME, PMA_RESP_TIME);
	return MAD_STATUS_OK;
}

static enum fab_mad_result
pma_reply(uint8_t *mad, uint16_t status)
{
	mad[MAD_METHOD] = MAD_METHOD_GET_RESP;
	if (status != MAD_STATUS_OK)
		memset(mad + MAD_GMP_DATA, 0, MAD_GMP_DATA_SIZE);
	mad_set16(mad, MAD_STATUS, status);
	return FAB_MAD_REPLY;
}

enum fab_mad_result
pma_process(struct fabric *f, struct fab_node *node, struct fab_port *in,
	    uint8_t *mad)
{
	uint8_t method;
	uint16_t attr;

	if (node == NULL || mad == NULL || node->ports == NULL ||
	    (node->nports == 0 && node->type != FAB_NODE_SWITCH) ||
	    mad[MAD_MGMT_CLASS] != MAD_CLASS_PERF)
		return FAB_MAD_IGNORE;
	method = mad[MAD_METHOD];
	/* Responses and traps are for a PerfMgr client, not the agent. */
	if (method & MAD_METHOD_RESP || method == MAD_METHOD_TRAP)
		return FAB_MAD_IGNORE;
	if (in == NULL || in->node != node || in->num > node->nports)
		in = node->type == FAB_NODE_SWITCH ? &node->ports[0] :
		     &node->ports[1];

	/* 13.4.7 table 115 code 1: PerfMgt class version 1 only. */
	if (mad[MAD_BASE_VERSION] != MAD_BASE_VERSION_1 ||
	    mad[MAD_CLASS_VERSION] != MAD_PERF_CLASS_VERSION) {
		if (f != NULL)
			f->bad_mads++;
		return pma_reply(mad, MAD_STATUS_BAD_VERSION);
	}
	if (method != MAD_METHOD_GET && method != MAD_METHOD_SET)
		return pma_reply(mad, MAD_STATUS_UNSUP_METHOD);

	attr = mad_attr_id(mad);
	switch (attr) {
	case MAD_ATTR_CLASS_PORT_INFO:
		/* Writable only for redirection/trap fields we do not have. */
		if (method != MAD_METHOD_GET)
			return pma_reply(mad, MAD_STATUS_UNSUP_METHOD_ATTR);
		return pma_reply(mad, pma_class_port_info(mad + MAD_GMP_DATA));
	case PMA_ATTR_PORT_COUNTERS:
	case PMA_ATTR_PORT_COUNTERS_EXT:
		return pma_reply(mad, pma_counters(node, in, method, attr,
						   mad + MAD_GMP_DATA));
	default:
		/* PortSamplesControl/Result and the optional attributes. */
		return pma_reply(mad, MAD_STATUS_UNSUP_METHOD_ATTR);
	}
}
