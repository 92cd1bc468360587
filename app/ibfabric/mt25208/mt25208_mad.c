/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * MT25208 model: the firmware's management side: MAD_IFC (mthca_MAD_IFC(),
 * 15.1) and the IB port commands INIT_IB / CLOSE_IB / SET_IB (5.7, 5.8).
 *
 * MAD_IFC hands the MAD to the node's firmware agents, the same sma.c /
 * pma.c that answer for passive nodes, so NodeInfo and PortInfo come
 * from the node's fab_port state and a PortInfo Set (LID, LMC, SM LID,
 * PortState, M_Key) acts on the fabric. A port is on the fabric only
 * between INIT_IB and CLOSE_IB (__mthca_modify_qp()): before that it is disabled,
 * so its switch neighbour sees no link and the SM sees no port.
 */

#include <inttypes.h>
#include <string.h>

#include "fab_log.h"
#include "fab_node.h"
#include "fw_agents.h"
#include "ib_proto.h"
#include "mad.h"
#include "mt25208.h"
#include "mt25208_mbox.h"
#include "port_state.h"

static uint8_t
port_check(struct mt25208 *dev, uint32_t port, const char *cmd)
{
	if (port == 0 || port > dev->nports) {
		FAB_ERR("%s: %s: port %u (device has %u)", dev->node->name, cmd, port,
			dev->nports);
		return MT_STAT_BAD_PARAM;
	}
	return MT_STAT_OK;
}

uint8_t
mt25208_cmd_mad_ifc(struct mt25208 *dev, struct mt25208_cmd *c)
{
	uint32_t port = c->in_mod & 0xffff;
	enum fab_mad_result res;
	struct fab_port *p;
	uint8_t mad[IB_MAD_SIZE], *out, cls, st;
	const uint8_t *in;
	uint64_t req_mkey = 0;
	bool ignore_mkey = (c->op_mod & MT_MAD_IFC_IGNORE_MKEY) != 0;

	st = port_check(dev, port, "MAD_IFC");
	if (st != MT_STAT_OK)
		return st;
	in = mt25208_mbox_in(dev, c, (c->op_mod & MT_MAD_IFC_EXT_INFO) ?
			     0x200 : MT_MAD_IFC_SIZE);
	if (in == NULL)
		return MT_STAT_INTERNAL_ERR;
	out = mt25208_mbox_out(dev, c, MT_MAD_IFC_SIZE);
	if (out == NULL)
		return MT_STAT_INTERNAL_ERR;
	memcpy(mad, in + MT_MAD_IFC_MAD, sizeof(mad));
	p = &dev->node->ports[port];
	cls = mad[MAD_MGMT_CLASS];

	switch (cls) {
	case MAD_CLASS_SMI:
	case MAD_CLASS_SMI_DR:
		/*
		 * op_mod bit 0: the driver vouches for the MAD (a locally
		 * generated query): present the port's own M_Key so that the
		 * SMA's 14.2.4 check passes, and give the caller its key back.
		 */
		if (ignore_mkey) {
			req_mkey = mad_get64(mad, MAD_SMP_MKEY);
			mad_set64(mad, MAD_SMP_MKEY, p->mkey);
		}
		res = sma_process(dev->fab, dev->node, p, mad);
		if (ignore_mkey)
			mad_set64(mad, MAD_SMP_MKEY, req_mkey);
		break;
	case MAD_CLASS_PERF:
		res = pma_process(dev->fab, dev->node, p, mad);
		break;
	default:
		/* Vendor classes 0x09/0x0a: no agent in this firmware. */
		res = FAB_MAD_IGNORE;
		break;
	}
	switch (res) {
	case FAB_MAD_REPLY:
		/*
		 * The firmware's reply leaves the directed-route D bit to the
		 * driver (Linux mthca_process_mad: "set return bit in status
		 * of directed route responses"); the SMA shared with switches
		 * and passive CAs sets it, as they answer on the wire.
		 */
		if (cls == MAD_CLASS_SMI_DR)
			mt_put16(mad, MAD_STATUS, mt_get16(mad, MAD_STATUS) &
				 (uint16_t)~MAD_STATUS_DR_D);
		memcpy(out, mad, sizeof(mad));
		return MT_STAT_OK;
	case FAB_MAD_CONSUMED:
		/* TrapRepress, or an M_Key failure: no response (mthca_process_mad()). */
		return MT_STAT_BAD_PKT;
	default:
		return MT_STAT_BAD_PKT;
	}
}

uint8_t
mt25208_cmd_init_ib(struct mt25208 *dev, struct mt25208_cmd *c)
{
	struct mt25208_port *mp;
	struct fab_port *p;
	const uint8_t *mb;
	uint32_t fl;
	uint8_t st;

	st = port_check(dev, c->in_mod, "INIT_IB");
	if (st != MT_STAT_OK)
		return st;
	mb = mt25208_mbox_in(dev, c, MT_IIB_IN_SIZE);
	if (mb == NULL)
		return MT_STAT_INTERNAL_ERR;
	fl = mt_get32(mb, MT_IIB_FLAGS);
	if (mt_iib_mtu(fl) > MT25208_MTU_CAP || mt_iib_mtu(fl) == 0 ||
	    mt_iib_vl_cap(fl) > MT25208_VL_CAP ||
	    mt_get16(mb, MT_IIB_MAX_GID) > (1u << MT25208_LOG_GID) ||
	    mt_get16(mb, MT_IIB_MAX_PKEY) > (1u << MT25208_LOG_PKEY)) {
		FAB_ERR("%s: INIT_IB port %u: MTU cap %u (1..%u), VL cap %u (<= %u),"
			" GIDs %u (<= %u), P_Keys %u (<= %u)", dev->node->name, c->in_mod,
			mt_iib_mtu(fl), MT25208_MTU_CAP, mt_iib_vl_cap(fl), MT25208_VL_CAP,
			mt_get16(mb, MT_IIB_MAX_GID), 1u << MT25208_LOG_GID,
			mt_get16(mb, MT_IIB_MAX_PKEY), 1u << MT25208_LOG_PKEY);
		return MT_STAT_BAD_PARAM;
	}
	mp = &dev->port[c->in_mod];
	p = &dev->node->ports[c->in_mod];
	mp->mtu_cap = mt_iib_mtu(fl);
	mp->width_cap = mt_iib_width(fl);
	mp->vl_cap = mt_iib_vl_cap(fl);
	mp->max_gid = mt_get16(mb, MT_IIB_MAX_GID);
	mp->max_pkey = mt_get16(mb, MT_IIB_MAX_PKEY);
	p->mtu_cap = mp->mtu_cap;
	if (mp->vl_cap != 0)
		p->vl_cap = mp->vl_cap;
	if (fl & MT_IIB_FLAG_SET_GUID0) {
		p->guid = mt_get64(mb, MT_IIB_GUID0);
		p->guids[0] = p->guid;
	}
	if (fl & MT_IIB_FLAG_SET_NODE_GUID)
		dev->node->node_guid = mt_get64(mb, MT_IIB_NODE_GUID);
	if (fl & MT_IIB_FLAG_SET_SI_GUID)
		dev->node->sys_guid = mt_get64(mb, MT_IIB_SI_GUID);
	/* A second INIT_IB (QP0 recreated without CLOSE_IB) is harmless. */
	if (!mp->ib_up) {
		mp->ib_up = true;
		port_state_admin(dev->fab, p, true);
	}
	return MT_STAT_OK;
}

uint8_t
mt25208_cmd_close_ib(struct mt25208 *dev, struct mt25208_cmd *c)
{
	uint8_t st = port_check(dev, c->in_mod, "CLOSE_IB");

	if (st != MT_STAT_OK)
		return st;
	/* Teardown closes every port, up or not (__mthca_remove_one()). */
	if (dev->port[c->in_mod].ib_up) {
		dev->port[c->in_mod].ib_up = false;
		port_state_admin(dev->fab, &dev->node->ports[c->in_mod], false);
	}
	return MT_STAT_OK;
}

uint8_t
mt25208_cmd_set_ib(struct mt25208 *dev, struct mt25208_cmd *c)
{
	struct fab_port *p;
	const uint8_t *mb;
	uint32_t fl, cap;
	uint8_t st;

	st = port_check(dev, c->in_mod, "SET_IB");
	if (st != MT_STAT_OK)
		return st;
	mb = mt25208_mbox_in(dev, c, 0x10);
	if (mb == NULL)
		return MT_STAT_INTERNAL_ERR;
	p = &dev->node->ports[c->in_mod];
	fl = mt_get32(mb, MT_SIB_FLAGS);
	cap = mt_get32(mb, MT_SIB_CAP_MASK);
	if (fl & MT_SIB_FLAG_RQK)
		p->qkey_violations = 0;
	if (fl & MT_IIB_FLAG_SET_SI_GUID)
		dev->node->sys_guid = mt_get64(mb, MT_SIB_SI_GUID);
	if (cap != p->cap_mask) {
		p->cap_mask = cap;
		/* IBA 14.2.5.1: a CapabilityMask change is reported with trap 144. */
		port_state_cap_mask_changed(dev->fab, p);
	}
	return MT_STAT_OK;
}
