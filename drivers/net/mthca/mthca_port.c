/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * PortInfo, NodeInfo and PortCounters through MAD_IFC. The MADs are built
 * here from the IBA (13.4.2 MAD header, 14.2.1.1 SMP, 16.1.1 PMA);
 * the attributes in the replies are decoded by lib/ib's field tables
 * (rte_ib_attrs.h), the one decoding of them on the host; MAD_IFC's
 * mailbox is the hardware's (Linux mthca_MAD_IFC).
 */

#include <errno.h>

#include <rte_ib_attrs.h>

#include "mthca.h"
#include "mthca_cmd.h"
#include "mthca_port.h"

/* MAD header (IBA 13.4.2) */
#define MAD_BASE_VERSION	0
#define MAD_MGMT_CLASS		1
#define MAD_CLASS_VERSION	2
#define MAD_METHOD		3
#define MAD_TID			8
#define MAD_ATTR_ID		16
#define MAD_ATTR_MOD		20
#define SMP_DATA		64	/* LID-routed SMP data (IBA 14.2.1.1) */
#define PMA_DATA_OFF		(24 + 40)	/* PMA attribute after 40 reserved bytes (IBA 16.1.1) */
#define CLASS_SMI		0x01
#define CLASS_PERF		0x04
#define METHOD_GET		0x01
#define ATTR_NODE_INFO		0x0011
#define ATTR_PORT_INFO		0x0015
#define ATTR_PORT_COUNTERS	0x0012

/*
 * The PortCounters as xstats, once, in the order of the attribute (IBA
 * 16.1.3.5, Table 247): named the DPDK way (rx_/tx_ by the direction the
 * counter watches, snake_case, port_ for the whole IB port as opposed to
 * one queue), with the factor from the PMA's unit: PortXmitData and
 * PortRcvData count 4-byte words ("divided by 4", IBA 16.1.3.5), so they
 * become bytes times 4. The two link counters watch neither direction.
 */
const struct mthca_pma_xstat mthca_pma_xstats[MTHCA_PMA_NUM_COUNTERS] = {
	{ "rx_port_symbol_errors", 1 },			/* SymbolErrorCounter */
	{ "port_link_error_recoveries", 1 },		/* LinkErrorRecoveryCounter */
	{ "port_link_downed", 1 },			/* LinkDownedCounter */
	{ "rx_port_errors", 1 },			/* PortRcvErrors */
	{ "rx_port_remote_physical_errors", 1 },	/* PortRcvRemotePhysicalErrors */
	{ "rx_port_switch_relay_errors", 1 },		/* PortRcvSwitchRelayErrors */
	{ "tx_port_discards", 1 },			/* PortXmitDiscards */
	{ "tx_port_constraint_errors", 1 },		/* PortXmitConstraintErrors */
	{ "rx_port_constraint_errors", 1 },		/* PortRcvConstraintErrors */
	{ "rx_port_local_link_integrity_errors", 1 },	/* LocalLinkIntegrityErrors */
	{ "rx_port_buffer_overrun_errors", 1 },		/* ExcessiveBufferOverrunErrors */
	{ "rx_port_vl15_dropped", 1 },			/* VL15Dropped */
	{ "tx_port_bytes", 4 },				/* PortXmitData, 4-byte words */
	{ "rx_port_bytes", 4 },				/* PortRcvData, 4-byte words */
	{ "tx_port_packets", 1 },			/* PortXmitPkts */
	{ "rx_port_packets", 1 },			/* PortRcvPkts */
};

int
mthca_mad_ifc_local(struct mthca_dev *dev, uint8_t port, const uint8_t *in, uint8_t *out)
{
	uint64_t outp;
	int st;

	pthread_mutex_lock(&dev->cmd_lock);
	memset(dev->mbox_in.va, 0, MTHCA_MIFC_IN_SIZE);
	memcpy(dev->mbox_in.va, in, MTHCA_MAD_SIZE);
	outp = dev->mbox_out.iova;
	/* no completion to describe: "key check traps can't be generated" */
	st = mthca_cmd_locked(dev, dev->mbox_in.iova, &outp, port, MTHCA_MIFC_OPMOD_NO_MKEY |
			      MTHCA_MIFC_OPMOD_NO_BKEY, MTHCA_CMD_MAD_IFC);
	if (st == MTHCA_ST_OK)
		memcpy(out, dev->mbox_out.va, MTHCA_MAD_SIZE);
	pthread_mutex_unlock(&dev->cmd_lock);
	return mthca_status_errno(st);
}

static void
mad_init(uint8_t *mad, uint8_t mgmt_class, uint16_t attr, uint32_t attr_mod)
{
	static uint32_t tid;

	memset(mad, 0, MTHCA_MAD_SIZE);
	mad[MAD_BASE_VERSION] = 1;
	mad[MAD_MGMT_CLASS] = mgmt_class;
	mad[MAD_CLASS_VERSION] = 1;
	mad[MAD_METHOD] = METHOD_GET;
	mthca_put64(mad, MAD_TID, __atomic_add_fetch(&tid, 1, __ATOMIC_RELAXED));
	mthca_put16(mad, MAD_ATTR_ID, attr);
	mthca_put32(mad, MAD_ATTR_MOD, attr_mod);
}

int
mthca_port_query(struct mthca_dev *dev, uint8_t port, struct mthca_port_info *pi)
{
	uint8_t in[MTHCA_MAD_SIZE], out[MTHCA_MAD_SIZE];
	struct rte_ib_port_info w;
	int ret;

	mad_init(in, CLASS_SMI, ATTR_PORT_INFO, port);
	ret = mthca_mad_ifc_local(dev, port, in, out);
	if (ret != 0)
		return ret;
	if (rte_ib_unpack(rte_ib_port_info_layout(), out + SMP_DATA, RTE_IB_PORT_INFO_SIZE,
			  &w) != 0)
		return -rte_errno;
	pi->gid_prefix = w.gid_prefix;
	pi->lid = w.lid;
	pi->sm_lid = w.master_sm_lid;
	pi->cap_mask = w.capability_mask;
	pi->width_active = w.link_width_active;
	pi->state = w.port_state;
	pi->phys_state = w.port_phys_state;
	pi->lmc = w.lmc;
	pi->speed_active = w.link_speed_active;
	pi->mtu_active = w.neighbor_mtu;
	pi->sm_sl = w.master_sm_sl;
	pi->vl_cap = w.vl_cap;
	pi->mtu_cap = w.mtu_cap;
	pi->init_type_reply = w.init_type_reply;
	pi->pkey_violations = w.p_key_violations;
	pi->qkey_violations = w.q_key_violations;
	pi->subnet_timeout = w.subnet_timeout;
	return 0;
}

int
mthca_node_info(struct mthca_dev *dev, uint64_t *node_guid, uint64_t *sys_guid,
		uint16_t *dev_id, uint32_t *rev, uint32_t *vendor)
{
	uint8_t in[MTHCA_MAD_SIZE], out[MTHCA_MAD_SIZE];
	struct rte_ib_node_info ni;
	int ret;

	mad_init(in, CLASS_SMI, ATTR_NODE_INFO, 0);
	ret = mthca_mad_ifc_local(dev, 1, in, out);
	if (ret != 0)
		return ret;
	/* what Linux mthca_init_node_data takes of it */
	if (rte_ib_unpack(rte_ib_node_info_layout(), out + SMP_DATA, RTE_IB_NODE_INFO_SIZE,
			  &ni) != 0)
		return -rte_errno;
	*sys_guid = ni.sys_image_guid;
	*node_guid = ni.node_guid;
	*dev_id = ni.device_id;
	*rev = ni.revision;
	*vendor = ni.vendor_id;
	return 0;
}

int
mthca_port_counters(struct mthca_dev *dev, uint8_t port, uint64_t cnt[MTHCA_PMA_NUM_COUNTERS])
{
	uint8_t in[MTHCA_MAD_SIZE], out[MTHCA_MAD_SIZE];
	struct rte_ib_port_counters pc;
	int ret;

	mad_init(in, CLASS_PERF, ATTR_PORT_COUNTERS, 0);
	memset(&pc, 0, sizeof(pc));
	pc.port_select = port;
	if (rte_ib_pack(rte_ib_port_counters_layout(), &pc, in + PMA_DATA_OFF,
			RTE_IB_PORT_COUNTERS_SIZE) != 0)
		return -rte_errno;
	ret = mthca_mad_ifc_local(dev, port, in, out);
	if (ret != 0)
		return ret;
	if (rte_ib_unpack(rte_ib_port_counters_layout(), out + PMA_DATA_OFF,
			  RTE_IB_PORT_COUNTERS_SIZE, &pc) != 0)
		return -rte_errno;
	/* in the order of mthca_pma_xstats[] */
	cnt[0] = pc.symbol_error;
	cnt[1] = pc.link_error_recovery;
	cnt[2] = pc.link_downed;
	cnt[3] = pc.port_rcv_errors;
	cnt[4] = pc.port_rcv_remote_physical_errors;
	cnt[5] = pc.port_rcv_switch_relay_errors;
	cnt[6] = pc.port_xmit_discards;
	cnt[7] = pc.port_xmit_constraint_errors;
	cnt[8] = pc.port_rcv_constraint_errors;
	cnt[9] = pc.local_link_integrity_errors;
	cnt[10] = pc.excessive_buffer_overrun_errors;
	cnt[11] = pc.vl15_dropped;
	cnt[12] = pc.port_xmit_data;
	cnt[13] = pc.port_rcv_data;
	cnt[14] = pc.port_xmit_pkts;
	cnt[15] = pc.port_rcv_pkts;
	return 0;
}

uint32_t
mthca_port_rate_mbps(uint8_t width, uint8_t speed)
{
	uint32_t lanes, lane;

	switch (width) {
	case 1: lanes = 1; break;
	case 2: lanes = 4; break;
	case 4: lanes = 8; break;
	case 8: lanes = 12; break;
	default: return 0;
	}
	switch (speed) {
	case 1: lane = 2500; break;
	case 2: lane = 5000; break;
	case 4: lane = 10000; break;
	default: return 0;
	}
	return lanes * lane;
}
