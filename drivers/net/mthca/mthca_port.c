/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * PortInfo, NodeInfo and PortCounters through MAD_IFC. The MADs are built
 * here from the IBA (13.4.2 MAD header, 14.2.1.1 SMP, 16.1.3.5
 * PortCounters); MAD_IFC's mailbox is the hardware's (Linux mthca_MAD_IFC).
 */

#include <errno.h>

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
#define PMA_DATA		64	/* PMA attribute data after 40 reserved bytes (IBA 16.1.1) */
#define PMA_DATA_OFF		(24 + 40)
#define CLASS_SMI		0x01
#define CLASS_PERF		0x04
#define METHOD_GET		0x01
#define ATTR_NODE_INFO		0x0011
#define ATTR_PORT_INFO		0x0015
#define ATTR_PORT_COUNTERS	0x0012

const char *const mthca_pma_counter_names[MTHCA_PMA_NUM_COUNTERS] = {
	"SymbolErrorCounter", "LinkErrorRecoveryCounter", "LinkDownedCounter",
	"PortRcvErrors", "PortRcvRemotePhysicalErrors", "PortRcvSwitchRelayErrors",
	"PortXmitDiscards", "PortXmitConstraintErrors", "PortRcvConstraintErrors",
	"LocalLinkIntegrityErrors", "ExcessiveBufferOverrunErrors", "VL15Dropped",
	"PortXmitData", "PortRcvData", "PortXmitPkts", "PortRcvPkts",
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
	const uint8_t *d = out + SMP_DATA;
	int ret;

	mad_init(in, CLASS_SMI, ATTR_PORT_INFO, port);
	ret = mthca_mad_ifc_local(dev, port, in, out);
	if (ret != 0)
		return ret;
	/* IBA 14.2.5.6 PortInfo; offsets as Linux mthca_query_port reads them */
	pi->gid_prefix = mthca_get64(d, 8);
	pi->lid = mthca_get16(d, 16);
	pi->sm_lid = mthca_get16(d, 18);
	pi->cap_mask = mthca_get32(d, 20);
	pi->width_active = d[31];
	pi->state = d[32] & 0x0f;
	pi->phys_state = d[33] >> 4;
	pi->lmc = d[34] & 0x07;
	pi->speed_active = d[35] >> 4;
	pi->mtu_active = d[36] >> 4;
	pi->sm_sl = d[36] & 0x0f;
	pi->vl_cap = d[37] >> 4;
	pi->mtu_cap = d[41] & 0x0f;
	pi->init_type_reply = d[41] >> 4;
	pi->pkey_violations = mthca_get16(d, 46);
	pi->qkey_violations = mthca_get16(d, 48);
	pi->subnet_timeout = d[51] & 0x1f;
	return 0;
}

int
mthca_node_info(struct mthca_dev *dev, uint64_t *node_guid, uint64_t *sys_guid,
		uint16_t *dev_id, uint32_t *rev, uint32_t *vendor)
{
	uint8_t in[MTHCA_MAD_SIZE], out[MTHCA_MAD_SIZE];
	const uint8_t *d = out + SMP_DATA;
	int ret;

	mad_init(in, CLASS_SMI, ATTR_NODE_INFO, 0);
	ret = mthca_mad_ifc_local(dev, 1, in, out);
	if (ret != 0)
		return ret;
	/* IBA 14.2.5.3 NodeInfo (Linux mthca_init_node_data) */
	*sys_guid = mthca_get64(d, 4);
	*node_guid = mthca_get64(d, 12);
	*dev_id = mthca_get16(d, 30);
	*rev = mthca_get32(d, 32);
	*vendor = mthca_get32(d, 36) & 0xffffff;
	return 0;
}

int
mthca_port_counters(struct mthca_dev *dev, uint8_t port, uint64_t cnt[MTHCA_PMA_NUM_COUNTERS])
{
	uint8_t in[MTHCA_MAD_SIZE], out[MTHCA_MAD_SIZE];
	const uint8_t *d = out + PMA_DATA_OFF;
	int ret;

	mad_init(in, CLASS_PERF, ATTR_PORT_COUNTERS, 0);
	in[PMA_DATA_OFF + 1] = port;		/* PortSelect */
	ret = mthca_mad_ifc_local(dev, port, in, out);
	if (ret != 0)
		return ret;
	/* IBA 16.1.3.5 table 247: field widths in bits, packed from byte 2 */
	cnt[0] = mthca_get16(d, 4);
	cnt[1] = d[6];
	cnt[2] = d[7];
	cnt[3] = mthca_get16(d, 8);
	cnt[4] = mthca_get16(d, 10);
	cnt[5] = mthca_get16(d, 12);
	cnt[6] = mthca_get16(d, 14);
	cnt[7] = d[16];
	cnt[8] = d[17];
	cnt[9] = d[19] >> 4;
	cnt[10] = d[19] & 0x0f;
	cnt[11] = mthca_get16(d, 22);
	cnt[12] = mthca_get32(d, 24);
	cnt[13] = mthca_get32(d, 28);
	cnt[14] = mthca_get32(d, 32);
	cnt[15] = mthca_get32(d, 36);
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
