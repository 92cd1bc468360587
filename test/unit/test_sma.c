/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Unit tests of ibfabric's firmware SMA (app/ibfabric/fw/sma.c) against
 * IBA vol. 1 13.4.7 (status codes), 14.2.4 (M_Key) and 14.2.5 (the
 * attributes). The nodes are built by hand (the SMA is pure code on
 * struct fab_node / fab_port); the one outside call, fab_node_send_mad()
 * for traps, is a recording stub. Expected bytes are written out from
 * the attribute layouts of 14.2.5 (field by field in the comments), not
 * produced by the code under test.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fab_node.h"
#include "fab_route.h"
#include "fabric.h"
#include "fw_agents.h"
#include "ib_proto.h"
#include "mad.h"
#include "port_state.h"
#include "sma_fixture.h"
#include "test.h"

/* ------------------------------------------------------------------ */
/* Fixture: a 2-port CA "hca-1" and an 8-port switch "sw-1", CA port 1
 * cabled to switch port 1. */

#define CA_GUID	0x0002c90000001000ull
#define SW_GUID	0x0002c90000002000ull
#define SW_PORTS 8

static struct fabric fab;
static struct fab_node ca, sw;
static struct fab_port ca_ports[3], sw_ports[SW_PORTS + 1];
static struct fab_switch sw_state;
static uint16_t sw_mft[FAB_MFT_CAP][16];
static unsigned int traps_sent;
static uint8_t last_trap[IB_MAD_SIZE];

void
fab_node_send_mad(struct fabric *f, struct fab_port *port,
		  const struct fab_mad_addr *a, const uint8_t *mad,
		  uint32_t mad_len, int origin, uint32_t origin_gen)
{
	(void)f;
	(void)port;
	(void)a;
	(void)origin;
	(void)origin_gen;
	traps_sent++;
	if (mad_len == IB_MAD_SIZE)
		memcpy(last_trap, mad, IB_MAD_SIZE);
}

static int
fixture_setup(void)
{
	memset(&fab, 0, sizeof(fab));
	fixture_node_build(&ca, FAB_NODE_CA, "hca-1", ca_ports, 2, CA_GUID, NULL, NULL, 0);
	fixture_node_build(&sw, FAB_NODE_SWITCH, "sw-1", sw_ports, SW_PORTS, SW_GUID, &sw_state,
			   sw_mft, sizeof(sw_mft));
	ca_ports[1].peer = &sw_ports[1];
	sw_ports[1].peer = &ca_ports[1];
	port_state_link_update(&fab, &ca_ports[1]);
	traps_sent = 0;
	return TEST_SUCCESS;
}

/* A LID-routed (class 0x01) or directed-route (0x81) SMP request. */
static void
smp_make(uint8_t *mad, uint8_t cls, uint8_t method, uint16_t attr, uint32_t mod)
{
	memset(mad, 0, IB_MAD_SIZE);
	mad[0] = 1;			/* BaseVersion */
	mad[1] = cls;
	mad[2] = 1;			/* ClassVersion */
	mad[3] = method;
	mad_set64(mad, MAD_TID, 0x1234);
	mad_set16(mad, MAD_ATTR_ID, attr);
	mad_set32(mad, MAD_ATTR_MOD, mod);
	if (cls == MAD_CLASS_SMI_DR) {
		mad_set16(mad, MAD_DR_SLID, 0xffff);
		mad_set16(mad, MAD_DR_DLID, 0xffff);
	}
}

/* Get/Set on @p n arriving at @p in; returns the status, or -1/-2 for IGNORE/CONSUMED. */
static int
smp_do(struct fab_node *n, struct fab_port *in, uint8_t *mad)
{
	enum fab_mad_result r = sma_process(&fab, n, in, mad);

	if (r == FAB_MAD_IGNORE)
		return -1;
	if (r == FAB_MAD_CONSUMED)
		return -2;
	if (mad[MAD_METHOD] != MAD_METHOD_GET_RESP)
		return -3;
	return mad_get16(mad, MAD_STATUS);
}

/* ------------------------------------------------------------------ */

static int
test_node_info_ca(void)
{
	uint8_t mad[IB_MAD_SIZE];
	/*
	 * NodeInfo, IBA 14.2.5.3 table 148: BaseVersion 1, ClassVersion 1,
	 * NodeType 1 (CA), NumPorts 2, SystemImageGUID, NodeGUID, PortGUID
	 * of the port the SMP came in on (port 2 = node GUID + 2),
	 * PartitionCap 64 (0x0040), DeviceID 0x6278 (25208), Revision
	 * 0x000000a0, LocalPortNum 2, VendorID 0x0002c9; rest reserved.
	 */
	static const uint8_t expect[64] = {
		0x01, 0x01, 0x01, 0x02,
		0x00, 0x02, 0xc9, 0x00, 0x00, 0x00, 0x10, 0x00,
		0x00, 0x02, 0xc9, 0x00, 0x00, 0x00, 0x10, 0x00,
		0x00, 0x02, 0xc9, 0x00, 0x00, 0x00, 0x10, 0x02,
		0x00, 0x40, 0x62, 0x78,
		0x00, 0x00, 0x00, 0xa0,
		0x02, 0x00, 0x02, 0xc9,
	};

	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_GET, SMP_ATTR_NODE_INFO, 0);
	TEST_ASSERT_EQUAL(smp_do(&ca, &ca_ports[2], mad), 0, "NodeInfo Get");
	TEST_ASSERT_BUFFERS_EQUAL(mad + 64, expect, 64, "CA NodeInfo");
	TEST_ASSERT_EQUAL(mad_get64(mad, MAD_TID), 0x1234, "TID kept");
	return TEST_SUCCESS;
}

static int
test_node_info_switch_dr(void)
{
	uint8_t mad[IB_MAD_SIZE];
	/* Switch: NodeType 2, NumPorts 8, PortGUID = port 0's = node GUID,
	 * DeviceID 0xb924 (47396), LocalPortNum = ingress port 5. */
	static const uint8_t expect[64] = {
		0x01, 0x01, 0x02, 0x08,
		0x00, 0x02, 0xc9, 0x00, 0x00, 0x00, 0x20, 0x00,
		0x00, 0x02, 0xc9, 0x00, 0x00, 0x00, 0x20, 0x00,
		0x00, 0x02, 0xc9, 0x00, 0x00, 0x00, 0x20, 0x00,
		0x00, 0x40, 0xb9, 0x24,
		0x00, 0x00, 0x00, 0xa0,
		0x05, 0x00, 0x02, 0xc9,
	};

	smp_make(mad, MAD_CLASS_SMI_DR, MAD_METHOD_GET, SMP_ATTR_NODE_INFO, 0);
	mad[MAD_DR_HOP_CNT] = 1;
	mad[MAD_DR_HOP_PTR] = 1;
	/* DR response: status 0 with the D bit (bit 15) set, 14.2.1.2. */
	TEST_ASSERT_EQUAL(smp_do(&sw, &sw_ports[5], mad), 0x8000, "DR NodeInfo");
	TEST_ASSERT_BUFFERS_EQUAL(mad + 64, expect, 64, "switch NodeInfo");
	TEST_ASSERT_EQUAL(mad[MAD_DR_HOP_PTR], 1, "hop pointer untouched");
	TEST_ASSERT_EQUAL(mad[MAD_DR_HOP_CNT], 1, "hop count untouched");
	/* A local agent on port 0 (in = port 0, or NULL) sees LocalPortNum 0. */
	smp_make(mad, MAD_CLASS_SMI_DR, MAD_METHOD_GET, SMP_ATTR_NODE_INFO, 0);
	TEST_ASSERT_EQUAL(smp_do(&sw, NULL, mad), 0x8000, "DR NodeInfo local");
	TEST_ASSERT_EQUAL(mad[64 + NI_LOCAL_PORT], 0, "LocalPortNum");
	return TEST_SUCCESS;
}

static int
test_node_desc(void)
{
	uint8_t mad[IB_MAD_SIZE], expect[64];

	memset(expect, 0, sizeof(expect));
	memcpy(expect, "hca-1", 5);
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_GET, SMP_ATTR_NODE_DESC, 0);
	memset(mad + 64, 0xee, 64);
	TEST_ASSERT_EQUAL(smp_do(&ca, &ca_ports[1], mad), 0, "NodeDesc Get");
	TEST_ASSERT_BUFFERS_EQUAL(mad + 64, expect, 64, "NUL padded to 64");
	return TEST_SUCCESS;
}

/* One row per status rule: IBA 13.4.7 table 115 and 14.2.5 modifiers. */
struct status_row {
	const char *what;
	int on_switch;
	uint8_t cls;
	uint8_t base_ver;
	uint8_t class_ver;
	uint8_t method;
	uint16_t attr;
	uint32_t mod;
	int expect;		/* status, -1 IGNORE, -2 CONSUMED */
};

static const struct status_row status_rows[] = {
	{ "bad BaseVersion", 0, 0x01, 2, 1, 0x01, SMP_ATTR_NODE_INFO, 0, 0x0004 },
	{ "bad ClassVersion", 0, 0x01, 1, 2, 0x01, SMP_ATTR_NODE_INFO, 0, 0x0004 },
	{ "bad version, DR: D bit", 1, 0x81, 1, 0, 0x01, SMP_ATTR_NODE_INFO, 0, 0x8004 },
	{ "method Send", 0, 0x01, 1, 1, 0x03, SMP_ATTR_NODE_INFO, 0, 0x0008 },
	{ "method Report", 1, 0x81, 1, 1, 0x06, SMP_ATTR_PORT_INFO, 0, 0x8008 },
	{ "Set NodeInfo", 0, 0x01, 1, 1, 0x02, SMP_ATTR_NODE_INFO, 0, 0x000c },
	{ "Set NodeDescription", 1, 0x01, 1, 1, 0x02, SMP_ATTR_NODE_DESC, 0, 0x000c },
	{ "SwitchInfo on a CA", 0, 0x01, 1, 1, 0x01, SMP_ATTR_SWITCH_INFO, 0, 0x000c },
	{ "LFT on a CA", 0, 0x01, 1, 1, 0x01, SMP_ATTR_LFT, 0, 0x000c },
	{ "MFT on a CA", 0, 0x81, 1, 1, 0x01, SMP_ATTR_MFT, 0, 0x800c },
	{ "RandomFDB (cap 0)", 1, 0x01, 1, 1, 0x01, SMP_ATTR_RFT, 0, 0x000c },
	{ "LedInfo", 0, 0x01, 1, 1, 0x01, SMP_ATTR_LED_INFO, 0, 0x000c },
	{ "vendor attribute", 1, 0x01, 1, 1, 0x01, 0xff90, 0, 0x000c },
	{ "PortInfo port 3 of 2", 0, 0x01, 1, 1, 0x01, SMP_ATTR_PORT_INFO, 3, 0x001c },
	{ "PortInfo port 9 of 8", 1, 0x81, 1, 1, 0x01, SMP_ATTR_PORT_INFO, 9, 0x801c },
	{ "PortInfo switch port 8", 1, 0x01, 1, 1, 0x01, SMP_ATTR_PORT_INFO, 8, 0x0000 },
	{ "P_Key block 2 (cap 64)", 0, 0x01, 1, 1, 0x01, SMP_ATTR_PKEY_TABLE, 2, 0x001c },
	{ "P_Key block 1", 0, 0x01, 1, 1, 0x01, SMP_ATTR_PKEY_TABLE, 1, 0x0000 },
	{ "P_Key switch port 9", 1, 0x01, 1, 1, 0x01, SMP_ATTR_PKEY_TABLE, 9u << 16, 0x001c },
	{ "P_Key switch port 8", 1, 0x01, 1, 1, 0x01, SMP_ATTR_PKEY_TABLE, 8u << 16, 0x0000 },
	{ "GUIDInfo block 1 (cap 8)", 0, 0x01, 1, 1, 0x01, SMP_ATTR_GUID_INFO, 1, 0x001c },
	{ "LFT block 767", 1, 0x01, 1, 1, 0x01, SMP_ATTR_LFT, 767, 0x0000 },
	{ "LFT block 768", 1, 0x01, 1, 1, 0x01, SMP_ATTR_LFT, 768, 0x001c },
	{ "MFT block 31", 1, 0x01, 1, 1, 0x01, SMP_ATTR_MFT, 31, 0x0000 },
	{ "MFT block 32", 1, 0x01, 1, 1, 0x01, SMP_ATTR_MFT, 32, 0x001c },
	{ "MFT position 1, 8 ports", 1, 0x01, 1, 1, 0x01, SMP_ATTR_MFT, 1u << 28, 0x001c },
	{ "MFT reserved bits", 1, 0x01, 1, 1, 0x01, SMP_ATTR_MFT, 1u << 9, 0x001c },
	{ "VLArb block 0", 0, 0x01, 1, 1, 0x01, SMP_ATTR_VLARB_TABLE, 0, 0x001c },
	{ "VLArb block 1", 0, 0x01, 1, 1, 0x01, SMP_ATTR_VLARB_TABLE, 1u << 16, 0x0000 },
	{ "VLArb block 3 (cap 8)", 0, 0x01, 1, 1, 0x01, SMP_ATTR_VLARB_TABLE, 3u << 16, 0x001c },
	{ "VLArb block 5", 1, 0x01, 1, 1, 0x01, SMP_ATTR_VLARB_TABLE, 5u << 16 | 1, 0x001c },
	{ "VLArb switch port 9", 1, 0x01, 1, 1, 0x01, SMP_ATTR_VLARB_TABLE, 1u << 16 | 9, 0x001c },
	{ "SL2VL CA modifier 1", 0, 0x01, 1, 1, 0x01, SMP_ATTR_SL2VL_TABLE, 1, 0x001c },
	{ "SL2VL switch in 9", 1, 0x01, 1, 1, 0x01, SMP_ATTR_SL2VL_TABLE, 9u << 8 | 1, 0x001c },
	{ "SL2VL switch out 9", 1, 0x01, 1, 1, 0x01, SMP_ATTR_SL2VL_TABLE, 1u << 8 | 9, 0x001c },
	{ "SL2VL switch 2->3", 1, 0x01, 1, 1, 0x01, SMP_ATTR_SL2VL_TABLE, 2u << 8 | 3, 0x0000 },
	{ "SMInfo is an SM's", 0, 0x01, 1, 1, 0x01, SMP_ATTR_SM_INFO, 0, -1 },
	{ "GetResp", 0, 0x81, 1, 1, 0x81, SMP_ATTR_NODE_INFO, 0, -1 },
	{ "Trap", 1, 0x01, 1, 1, 0x05, SMP_ATTR_NOTICE, 0, -1 },
	{ "TrapRepress", 1, 0x01, 1, 1, 0x07, SMP_ATTR_NOTICE, 0, -2 },
	{ "SA class", 0, 0x03, 1, 2, 0x01, 0x0011, 0, -1 },
	{ "PerfMgt class", 0, 0x04, 1, 1, 0x01, 0x0012, 0, -1 },
};

static int
test_status_codes(void)
{
	uint8_t mad[IB_MAD_SIZE];
	const struct status_row *r;
	struct fab_node *n;
	unsigned int i;
	int got;

	for (i = 0; i < sizeof(status_rows) / sizeof(status_rows[0]); i++) {
		r = &status_rows[i];
		n = r->on_switch ? &sw : &ca;
		smp_make(mad, r->cls, r->method, r->attr, r->mod);
		mad[0] = r->base_ver;
		mad[2] = r->class_ver;
		got = smp_do(n, &n->ports[1], mad);
		TEST_ASSERT_EQUAL(got, r->expect, "row %u: %s", i, r->what);
		if (got > 0)
			TEST_ASSERT_EQUAL(mad_get64(mad, 64), 0,
					  "row %u: error response data zeroed", i);
	}
	return TEST_SUCCESS;
}

static int
test_port_info_defaults(void)
{
	uint8_t mad[IB_MAD_SIZE];
	/*
	 * PortInfo of CA port 1 after the cable came up (14.2.5.6 table 151):
	 * M_Key 0; GidPrefix fe80::; LID 0; MasterSMLID 0;
	 * CapabilityMask 0x02500848 = IsTrap(3) | IsSLMapping(6) |
	 * IsSysImageGUID(11) | IsVendorClass(20) | IsCapMaskNotice(22) |
	 * IsClientRereg(25); DiagCode 0; M_KeyLease 0; LocalPortNum 1;
	 * LinkWidthEnabled 3, Supported 3 (1x,4x), Active 2 (4x);
	 * byte 32: LinkSpeedSupported 3 (SDR,DDR) << 4 | PortState 2 (Init);
	 * byte 33: PhysState 5 (LinkUp) << 4 | LinkDownDefault 2 (Polling);
	 * byte 34: ProtectBits 0, LMC 0;
	 * byte 35: LinkSpeedActive 2 (DDR) << 4 | Enabled 3;
	 * byte 36: NeighborMTU 4 (2048) << 4 | MasterSMSL 0;
	 * byte 37: VLCap 4 (VL0-7) << 4 | InitType 0;
	 * VLHighLimit 0, VLArbHighCap 8, VLArbLowCap 8;
	 * byte 41: InitTypeReply 0, MTUCap 4;
	 * byte 42: VLStallCount 7 << 5 | HOQLife 31 = 0xff;
	 * byte 43: OperationalVLs 1 << 4, enforcement bits 0;
	 * violations 0; GUIDCap 8; byte 51: rereg 0, SubnetTimeOut 0;
	 * byte 52: RespTimeValue 8; the rest 0.
	 */
	static const uint8_t expect[64] = {
		0, 0, 0, 0, 0, 0, 0, 0,
		0xfe, 0x80, 0, 0, 0, 0, 0, 0,
		0x00, 0x00, 0x00, 0x00, 0x02, 0x50, 0x08, 0x48,
		0x00, 0x00, 0x00, 0x00, 0x01, 0x03, 0x03, 0x02,
		0x32, 0x52, 0x00, 0x23, 0x40, 0x40, 0x00, 0x08,
		0x08, 0x04, 0xff, 0x10, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x08, 0x00, 0x08, 0x00, 0x00, 0x00,
		0, 0, 0, 0, 0, 0, 0, 0,
	};

	smp_make(mad, MAD_CLASS_SMI_DR, MAD_METHOD_GET, SMP_ATTR_PORT_INFO, 0);
	TEST_ASSERT_EQUAL(smp_do(&ca, &ca_ports[1], mad), 0x8000, "PortInfo Get");
	TEST_ASSERT_BUFFERS_EQUAL(mad + 64, expect, 64, "CA port 1 PortInfo");

	/* Port 2 of the CA has no cable: Down/Polling (byte 32 0x31, 33 0x22). */
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_GET, SMP_ATTR_PORT_INFO, 2);
	TEST_ASSERT_EQUAL(smp_do(&ca, &ca_ports[1], mad), 0, "PortInfo Get 2");
	TEST_ASSERT_EQUAL(mad[64 + 32], 0x31, "port 2 Down");
	TEST_ASSERT_EQUAL(mad[64 + 33], 0x22, "port 2 Polling");
	TEST_ASSERT_EQUAL(mad[64 + PI_LOCAL_PORT], 1, "LocalPortNum is the arrival port");

	/* Switch port 0: CapabilityMask 0x848, Active (4) / LinkUp (5). */
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_GET, SMP_ATTR_PORT_INFO, 0);
	TEST_ASSERT_EQUAL(smp_do(&sw, &sw_ports[1], mad), 0, "switch PortInfo 0");
	TEST_ASSERT_EQUAL(mad_get32(mad, 64 + PI_CAP_MASK), 0x848, "port 0 CapMask");
	TEST_ASSERT_EQUAL(mad[64 + 32] & 0xf, 4, "port 0 Active");
	TEST_ASSERT_EQUAL(mad[64 + 33] >> 4, 5, "port 0 LinkUp");
	TEST_ASSERT_EQUAL(mad[64 + PI_LOCAL_PORT], 1, "LocalPortNum 1");
	/* Switch port 1: cabled, Init/LinkUp; CapabilityMask reserved. */
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_GET, SMP_ATTR_PORT_INFO, 1);
	TEST_ASSERT_EQUAL(smp_do(&sw, &sw_ports[3], mad), 0, "switch PortInfo 1");
	TEST_ASSERT_EQUAL(mad_get32(mad, 64 + PI_CAP_MASK), 0, "ext CapMask");
	TEST_ASSERT_EQUAL(mad[64 + 32], 0x32, "port 1 Init");
	TEST_ASSERT_EQUAL(mad[64 + PI_LOCAL_PORT], 3, "LocalPortNum 3");
	return TEST_SUCCESS;
}

static int
test_port_info_set(void)
{
	uint8_t mad[IB_MAD_SIZE];
	uint8_t *d = mad + 64;
	struct fab_port *p = &ca_ports[1];

	smp_make(mad, MAD_CLASS_SMI_DR, MAD_METHOD_GET, SMP_ATTR_PORT_INFO, 1);
	TEST_ASSERT_EQUAL(smp_do(&ca, p, mad), 0x8000, "Get");
	/* The SM's way: take what Get returned, change fields, Set it. */
	smp_make(mad, MAD_CLASS_SMI_DR, MAD_METHOD_SET, SMP_ATTR_PORT_INFO, 1);
	mad_set64(d, PI_MKEY, 0x1122334455667788ull);
	mad_set64(d, PI_GID_PREFIX, 0xfe80000000000000ull);
	mad_set16(d, PI_LID, 0x0012);
	mad_set16(d, PI_SM_LID, 0x0001);
	mad_set16(d, PI_MKEY_LEASE, 60);
	d[PI_LINK_WIDTH_ENABLED] = 0xff;	/* = supported */
	d[PI_B32] = 0x03;			/* PortState Armed */
	d[PI_B33] = 0x02;			/* phys NOP, default Polling */
	d[PI_B34] = 0x40 | 0x02;		/* ProtectBits 1, LMC 2 */
	d[PI_B35] = 0x01;			/* LinkSpeedEnabled SDR */
	d[PI_B36] = 0x35;			/* NeighborMTU 3 (1024), SMSL 5 */
	d[PI_VL_HIGH_LIMIT] = 7;
	d[PI_B42] = 0x12;			/* HOQLife 0x12 */
	d[PI_B43] = 0x40;			/* OperationalVLs 4 */
	d[PI_B51] = 0x80 | 0x12;		/* ClientReregister, SubnetTimeOut */
	TEST_ASSERT_EQUAL(smp_do(&ca, p, mad), 0x8000, "Set");
	TEST_ASSERT_EQUAL(p->lid, 0x12, "LID");
	TEST_ASSERT_EQUAL(p->sm_lid, 1, "MasterSMLID");
	TEST_ASSERT_EQUAL(p->mkey, 0x1122334455667788ull, "M_Key");
	TEST_ASSERT_EQUAL(p->mkey_protect, 1, "ProtectBits");
	TEST_ASSERT_EQUAL(p->mkey_lease_period, 60, "lease");
	TEST_ASSERT_EQUAL(p->lmc, 2, "LMC");
	TEST_ASSERT_EQUAL(p->sm_sl, 5, "SMSL");
	TEST_ASSERT_EQUAL(p->state, FAB_PORT_ARMED, "Armed");
	TEST_ASSERT_EQUAL(p->link_width_enabled, 3, "width 255 -> supported");
	TEST_ASSERT_EQUAL(p->link_speed_enabled, 1, "speed");
	TEST_ASSERT_EQUAL(p->neighbor_mtu, 3, "NeighborMTU");
	TEST_ASSERT_EQUAL(p->op_vls, 4, "OperationalVLs");
	TEST_ASSERT_EQUAL(p->vl_high_limit, 7, "VLHighLimit");
	TEST_ASSERT_EQUAL(p->hoq_life, 0x12, "HOQLife");
	TEST_ASSERT_EQUAL(p->client_reregister, 1, "ClientReregister");
	TEST_ASSERT_EQUAL(p->subnet_timeout, 0x12, "SubnetTimeOut");
	TEST_ASSERT_EQUAL(mad_get16(d, PI_LID), 0x12, "response shows the new LID");
	TEST_ASSERT_EQUAL(d[PI_B32] & 0xf, 3, "response shows Armed");
	TEST_ASSERT_EQUAL(mad_get32(d, PI_CAP_MASK), 0x02500848, "CapMask read-only");
	return TEST_SUCCESS;
}

/* Invalid values: status 7 and nothing applied (the check precedes any write). */
struct pi_bad_row {
	const char *what;
	unsigned int off;
	uint8_t mask;
	uint8_t val;
};

static const struct pi_bad_row pi_bad_rows[] = {
	{ "LID 0xc000 (multicast)", PI_LID, 0xff, 0xc0 },
	{ "LinkWidthEnabled 12x", PI_LINK_WIDTH_ENABLED, 0xff, 0x08 },
	{ "PortState 5", PI_B32, 0x0f, 0x05 },
	{ "PortState Init", PI_B32, 0x0f, 0x02 },
	{ "PortState Active from Init", PI_B32, 0x0f, 0x04 },
	{ "PhysState 5 (LinkUp)", PI_B33, 0xf0, 0x50 },
	{ "PhysState 1 (Sleep)", PI_B33, 0xf0, 0x10 },
	{ "LinkDownDefault 3", PI_B33, 0x0f, 0x03 },
	{ "LinkSpeedEnabled QDR", PI_B35, 0x0f, 0x04 },
	{ "NeighborMTU 4096 > MTUCap", PI_B36, 0xf0, 0x50 },
	{ "OperationalVLs 5 > VLCap", PI_B43, 0xf0, 0x50 },
};

static int
test_port_info_set_invalid(void)
{
	uint8_t mad[IB_MAD_SIZE], before[IB_MAD_SIZE];
	struct fab_port *p = &ca_ports[1];
	unsigned int i;

	for (i = 0; i < sizeof(pi_bad_rows) / sizeof(pi_bad_rows[0]); i++) {
		const struct pi_bad_row *r = &pi_bad_rows[i];

		smp_make(before, MAD_CLASS_SMI, MAD_METHOD_GET, SMP_ATTR_PORT_INFO, 1);
		TEST_ASSERT_EQUAL(smp_do(&ca, p, before), 0, "Get");
		memcpy(mad, before, sizeof(mad));
		mad[MAD_METHOD] = MAD_METHOD_SET;
		mad[64 + PI_B32] &= 0xf0;	/* PortState NOP */
		mad[64 + PI_B33] &= 0x0f;	/* PhysState NOP */
		mad_set16(mad, 64 + PI_SM_LID, 0x77);	/* would be applied */
		mad[64 + r->off] = (uint8_t)((mad[64 + r->off] & ~r->mask) | r->val);
		TEST_ASSERT_EQUAL(smp_do(&ca, p, mad), 0x001c, "row %u: %s", i, r->what);
		TEST_ASSERT_EQUAL(p->sm_lid, 0, "row %u: nothing applied", i);
		TEST_ASSERT_EQUAL(p->state, FAB_PORT_INIT, "row %u: state kept", i);
	}
	return TEST_SUCCESS;
}

/*
 * Extended speeds (IBA 14.2.5.6): LinkSpeedExtActive 7:4 and Supported
 * 3:0 of byte 62, Enabled 4:0 of byte 63; the XDR fields in byte 56
 * (Active2 6:5, Supported2 4:3, Enabled2 2:0: libibmad BITSOFFS(449,2),
 * (451,2), (453,3)). Link training picks the highest common one.
 * FDR10 is MlnxExtPortInfo (0xff90) LinkSpeedActive, byte 15 bit 0.
 */
static int
test_port_info_ext_speeds(void)
{
	uint8_t mad[IB_MAD_SIZE];

	/* CA port EDR|FDR, switch port NDR..FDR: they train at EDR (bit 2). */
	ca_ports[1].link_speed_ext_supported = ca_ports[1].link_speed_ext_enabled = 3;
	sw_ports[1].link_speed_ext_supported = sw_ports[1].link_speed_ext_enabled = 15;
	ca_ports[1].link_speed_ext2_supported = ca_ports[1].link_speed_ext2_enabled = 1;
	sw_ports[1].link_speed_ext2_supported = sw_ports[1].link_speed_ext2_enabled = 1;
	port_state_admin(&fab, &ca_ports[1], false);
	port_state_admin(&fab, &ca_ports[1], true);
	TEST_ASSERT_EQUAL(ca_ports[1].link_speed_ext_active, 2, "EDR active");
	TEST_ASSERT_EQUAL(sw_ports[1].link_speed_ext_active, 2, "EDR active, peer");
	TEST_ASSERT_EQUAL(ca_ports[1].link_speed_ext2_active, 1, "XDR active");

	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_GET, SMP_ATTR_PORT_INFO, 1);
	TEST_ASSERT_EQUAL(smp_do(&ca, &ca_ports[1], mad), 0, "Get");
	TEST_ASSERT_EQUAL(mad[64 + 62], 0x23, "byte 62: Active EDR 2 << 4 | Supported 3");
	TEST_ASSERT_EQUAL(mad[64 + 63], 0x03, "byte 63: Enabled 3");
	/* byte 56: Active2 1 << 5 | Supported2 1 << 3 | Enabled2 1 = 0x29 */
	TEST_ASSERT_EQUAL(mad[64 + 56], 0x29, "byte 56: the XDR fields");

	/* Set LinkSpeedExtEnabled: 31 = all supported, 30 = none, 4 invalid. */
	mad[MAD_METHOD] = MAD_METHOD_SET;
	mad[64 + PI_B32] &= 0xf0;	/* PortState: no change */
	mad[64 + PI_B33] &= 0x0f;	/* PortPhysicalState: no change */
	mad[64 + 63] = 30;
	TEST_ASSERT_EQUAL(smp_do(&ca, &ca_ports[1], mad), 0, "Set 30");
	TEST_ASSERT_EQUAL(ca_ports[1].link_speed_ext_enabled, 0, "30 disables");
	mad[MAD_METHOD] = MAD_METHOD_SET;
	mad[64 + PI_B32] &= 0xf0;	/* PortState: no change */
	mad[64 + PI_B33] &= 0x0f;	/* PortPhysicalState: no change */
	mad[64 + 63] = 31;
	TEST_ASSERT_EQUAL(smp_do(&ca, &ca_ports[1], mad), 0, "Set 31");
	TEST_ASSERT_EQUAL(ca_ports[1].link_speed_ext_enabled, 3, "31 = supported");
	mad[MAD_METHOD] = MAD_METHOD_SET;
	mad[64 + PI_B32] &= 0xf0;	/* PortState: no change */
	mad[64 + PI_B33] &= 0x0f;	/* PortPhysicalState: no change */
	mad[64 + 63] = 4;		/* HDR: not supported by this port */
	TEST_ASSERT_EQUAL(smp_do(&ca, &ca_ports[1], mad), MAD_STATUS_INVALID_FIELD,
			  "unsupported extended speed");
	TEST_ASSERT_EQUAL(ca_ports[1].link_speed_ext_enabled, 3, "unchanged");

	/* MlnxExtPortInfo: unsupported without FDR10, else FDR10 active. */
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_GET, SMP_ATTR_MLNX_EXT_PORT_INFO, 1);
	TEST_ASSERT_EQUAL(smp_do(&ca, &ca_ports[1], mad), MAD_STATUS_UNSUP_METHOD_ATTR,
			  "no FDR10 port: not answered");
	ca_ports[1].link_speed_ext_enabled = 0;
	ca_ports[1].link_speed_ext2_enabled = 0;
	ca_ports[1].mlnx_speed_supported = ca_ports[1].mlnx_speed_enabled = 1;
	sw_ports[1].mlnx_speed_supported = sw_ports[1].mlnx_speed_enabled = 1;
	port_state_admin(&fab, &ca_ports[1], false);
	port_state_admin(&fab, &ca_ports[1], true);
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_GET, SMP_ATTR_MLNX_EXT_PORT_INFO, 1);
	TEST_ASSERT_EQUAL(smp_do(&ca, &ca_ports[1], mad), 0, "Get 0xff90");
	TEST_ASSERT_EQUAL(mad[64 + 7], 1, "LinkSpeedSupported FDR10");
	TEST_ASSERT_EQUAL(mad[64 + 15], 1, "LinkSpeedActive FDR10");
	return TEST_SUCCESS;
}

static int
test_port_info_switch(void)
{
	uint8_t mad[IB_MAD_SIZE];

	/* Port 0 holds the switch's LID. */
	smp_make(mad, MAD_CLASS_SMI_DR, MAD_METHOD_GET, SMP_ATTR_PORT_INFO, 0);
	TEST_ASSERT_EQUAL(smp_do(&sw, &sw_ports[1], mad), 0x8000, "Get 0");
	mad[MAD_METHOD] = MAD_METHOD_SET;
	mad_set16(mad, 64 + PI_LID, 7);
	mad_set16(mad, 64 + PI_SM_LID, 3);
	mad[64 + PI_B32] &= 0xf0;
	TEST_ASSERT_EQUAL(smp_do(&sw, &sw_ports[1], mad), 0x8000, "Set 0");
	TEST_ASSERT_EQUAL(sw_ports[0].lid, 7, "switch LID");
	/* External port: LID/SM fields are reserved, a Set leaves port 0 alone. */
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_SET, SMP_ATTR_PORT_INFO, 1);
	mad_set16(mad, 64 + PI_LID, 99);
	mad_set16(mad, 64 + PI_SM_LID, 98);
	mad[64 + PI_B32] = 0x03;		/* Armed */
	TEST_ASSERT_EQUAL(smp_do(&sw, &sw_ports[1], mad), 0, "Set 1");
	TEST_ASSERT_EQUAL(sw_ports[0].lid, 7, "port 0 LID kept");
	TEST_ASSERT_EQUAL(sw_ports[1].lid, 0, "ext LID not stored");
	TEST_ASSERT_EQUAL(mad_get16(mad, 64 + PI_LID), 0, "ext LID reads 0");
	TEST_ASSERT_EQUAL(sw_ports[1].state, FAB_PORT_ARMED, "ext port Armed");
	/* Port 0 ignores link fields (no link): PhysState Disable is a no-op. */
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_GET, SMP_ATTR_PORT_INFO, 0);
	TEST_ASSERT_EQUAL(smp_do(&sw, &sw_ports[0], mad), 0, "Get 0");
	mad[MAD_METHOD] = MAD_METHOD_SET;
	mad[64 + PI_B32] &= 0xf0;
	mad[64 + PI_B33] = 0x30;
	TEST_ASSERT_EQUAL(smp_do(&sw, &sw_ports[0], mad), 0, "Set 0 phys");
	TEST_ASSERT_EQUAL(sw_ports[0].phys_state, FAB_PHYS_LINKUP, "port 0 LinkUp");
	return TEST_SUCCESS;
}

static int
test_port_info_phys_disable(void)
{
	uint8_t mad[IB_MAD_SIZE];

	/* ibportstate disable on switch port 1: PhysState 3 (Disabled). */
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_SET, SMP_ATTR_PORT_INFO, 1);
	mad[64 + PI_B33] = 0x30;
	TEST_ASSERT_EQUAL(smp_do(&sw, &sw_ports[1], mad), 0, "disable");
	TEST_ASSERT_EQUAL(sw_ports[1].phys_state, FAB_PHYS_DISABLED, "Disabled");
	TEST_ASSERT_EQUAL(sw_ports[1].state, FAB_PORT_DOWN, "Down");
	TEST_ASSERT_EQUAL(ca_ports[1].phys_state, FAB_PHYS_POLLING, "peer Polling");
	TEST_ASSERT_EQUAL(ca_ports[1].state, FAB_PORT_DOWN, "peer Down");
	TEST_ASSERT(sw_state.port_state_change, "PortStateChange");
	/* enable: PhysState 2 (Polling) -> trains -> LinkUp, Init both. */
	mad[MAD_METHOD] = MAD_METHOD_SET;
	mad[64 + PI_B33] = 0x20;
	TEST_ASSERT_EQUAL(smp_do(&sw, &sw_ports[1], mad), 0, "enable");
	TEST_ASSERT_EQUAL(sw_ports[1].phys_state, FAB_PHYS_LINKUP, "LinkUp");
	TEST_ASSERT_EQUAL(ca_ports[1].state, FAB_PORT_INIT, "peer Init");
	TEST_ASSERT_EQUAL(traps_sent, 0, "no trap without an SM LID");
	return TEST_SUCCESS;
}

static int
test_switch_info(void)
{
	uint8_t mad[IB_MAD_SIZE];
	/*
	 * SwitchInfo after init (14.2.5.4 table 149): LinearFDBCap 49152
	 * (0xc000), RandomFDBCap 0, MulticastFDBCap 1024 (0x0400),
	 * LinearFDBTop 0, DefaultPort 0, DefaultMcastPrimary/NotPrimary 255,
	 * byte 11: LifeTimeValue 0x13 << 3 = 0x98 | PortStateChange 0x04
	 * (set: the fixture's cable brought port 1 up through the link);
	 * LIDsPerPort 0, PartitionEnforcementCap 64; flags 0; MFTTop 0.
	 */
	static const uint8_t expect[20] = {
		0xc0, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
		0x00, 0xff, 0xff, 0x9c, 0x00, 0x00, 0x00, 0x40,
		0x00, 0x00, 0x00, 0x00,
	};

	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_GET, SMP_ATTR_SWITCH_INFO, 0);
	TEST_ASSERT_EQUAL(smp_do(&sw, &sw_ports[1], mad), 0, "Get");
	TEST_ASSERT_BUFFERS_EQUAL(mad + 64, expect, sizeof(expect), "SwitchInfo");

	sw_state.port_state_change = true;
	mad[MAD_METHOD] = MAD_METHOD_SET;
	mad_set16(mad, 64 + SI_LFT_TOP, 100);
	mad[64 + SI_FLAGS_11] = (0x12 << 3) | 0x04;	/* write 1 to PortStateChange */
	TEST_ASSERT_EQUAL(smp_do(&sw, &sw_ports[1], mad), 0, "Set");
	TEST_ASSERT_EQUAL(sw_state.lft_top, 100, "LinearFDBTop");
	TEST_ASSERT_EQUAL(sw_state.life_time_value, 0x12, "LifeTimeValue");
	TEST_ASSERT(!sw_state.port_state_change, "PortStateChange cleared by a 1");
	TEST_ASSERT_EQUAL(mad[64 + SI_FLAGS_11], 0x12 << 3, "reads back cleared");

	mad[MAD_METHOD] = MAD_METHOD_SET;
	mad_set16(mad, 64 + SI_LFT_TOP, 0xc000);
	TEST_ASSERT_EQUAL(smp_do(&sw, &sw_ports[1], mad), 0x001c, "Top beyond cap");
	TEST_ASSERT_EQUAL(sw_state.lft_top, 100, "unchanged");
	return TEST_SUCCESS;
}

static int
test_forwarding_tables(void)
{
	uint8_t mad[IB_MAD_SIZE];
	unsigned int i;

	TEST_ASSERT_EQUAL(sw_state.lft[0], 0xff, "LFT empty after init");
	TEST_ASSERT_EQUAL(sw_mft[5][0], 0, "MFT cleared by init");
	/* LFT block 2 = LIDs 128..191 (64 per block, 14.2.5.10). */
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_SET, SMP_ATTR_LFT, 2);
	for (i = 0; i < 64; i++)
		mad[64 + i] = (uint8_t)(i % 9);
	TEST_ASSERT_EQUAL(smp_do(&sw, &sw_ports[1], mad), 0, "LFT Set");
	TEST_ASSERT_EQUAL(sw_state.lft[128 + 10], 1, "LID 138 -> port 1");
	TEST_ASSERT_EQUAL(sw_state.lft[127], 0xff, "block 1 untouched");
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_GET, SMP_ATTR_LFT, 2);
	TEST_ASSERT_EQUAL(smp_do(&sw, &sw_ports[1], mad), 0, "LFT Get");
	TEST_ASSERT_EQUAL(mad[64 + 63], 63 % 9, "read back");

	/*
	 * MFT block 1 position 0 = MLIDs 0xc020..0xc03f, ports 0..15
	 * (14.2.5.12): entry i is a 16-bit big-endian port mask, bit n =
	 * port n. Entry 3 = 0x0006: ports 1 and 2 for MLID 0xc023.
	 */
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_SET, SMP_ATTR_MFT, 1);
	mad[64 + 6] = 0x00;
	mad[64 + 7] = 0x06;
	TEST_ASSERT_EQUAL(smp_do(&sw, &sw_ports[1], mad), 0, "MFT Set");
	TEST_ASSERT_EQUAL(sw_mft[0x23][0], 0x0006, "MLID 0xc023 ports 1,2");
	TEST_ASSERT_EQUAL(sw_mft[0x22][0], 0, "neighbour entry");
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_GET, SMP_ATTR_MFT, 1);
	TEST_ASSERT_EQUAL(smp_do(&sw, &sw_ports[1], mad), 0, "MFT Get");
	TEST_ASSERT_EQUAL(mad_get16(mad, 64 + 6), 0x0006, "read back");
	return TEST_SUCCESS;
}

static int
test_pkey_guid_tables(void)
{
	uint8_t mad[IB_MAD_SIZE];

	/* Default P_KeyTable: entry 0 = 0xffff, rest 0 (14.2.5.7). */
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_GET, SMP_ATTR_PKEY_TABLE, 0);
	TEST_ASSERT_EQUAL(smp_do(&ca, &ca_ports[2], mad), 0, "Get");
	TEST_ASSERT_EQUAL(mad_get16(mad, 64), 0xffff, "default P_Key");
	TEST_ASSERT_EQUAL(mad_get16(mad, 66), 0, "entry 1");
	/* CA: modifier block 1 -> entries 32..63 of the arrival port. */
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_SET, SMP_ATTR_PKEY_TABLE, 1);
	mad_set16(mad, 64 + 2, 0x8001);
	TEST_ASSERT_EQUAL(smp_do(&ca, &ca_ports[2], mad), 0, "Set");
	TEST_ASSERT_EQUAL(ca_ports[2].pkeys[33], 0x8001, "entry 33 of port 2");
	TEST_ASSERT_EQUAL(ca_ports[1].pkeys[33], 0, "port 1 untouched");
	/* Switch: modifier port << 16 | block. */
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_SET, SMP_ATTR_PKEY_TABLE, 3u << 16);
	mad_set16(mad, 64 + 4, 0x7fff);
	TEST_ASSERT_EQUAL(smp_do(&sw, &sw_ports[1], mad), 0, "switch Set");
	TEST_ASSERT_EQUAL(sw_ports[3].pkeys[2], 0x7fff, "switch port 3 entry 2");

	/* GUIDInfo: index 0 is the port GUID and read-only (14.2.5.5). */
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_SET, SMP_ATTR_GUID_INFO, 0);
	mad_set64(mad, 64, 0xdead);
	mad_set64(mad, 64 + 8, 0x0002c90000009999ull);
	TEST_ASSERT_EQUAL(smp_do(&ca, &ca_ports[1], mad), 0, "GUIDInfo Set");
	TEST_ASSERT_EQUAL(mad_get64(mad, 64), CA_GUID + 1, "GUID 0 kept");
	TEST_ASSERT_EQUAL(ca_ports[1].guids[1], 0x0002c90000009999ull, "GUID 1");
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_GET, SMP_ATTR_GUID_INFO, 0);
	TEST_ASSERT_EQUAL(smp_do(&sw, &sw_ports[4], mad), 0, "switch GUIDInfo");
	TEST_ASSERT_EQUAL(mad_get64(mad, 64), SW_GUID, "switch: port 0 GUID");
	return TEST_SUCCESS;
}

static int
test_sl2vl_vlarb(void)
{
	uint8_t mad[IB_MAD_SIZE];
	static const uint8_t map[8] = { 0x01, 0x23, 0x45, 0x67, 0x01, 0x23, 0x45, 0x6f };
	unsigned int i;

	/* SLtoVL: SL 2i in the high nibble of byte i (14.2.5.8). */
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_SET, SMP_ATTR_SL2VL_TABLE, 0);
	memcpy(mad + 64, map, 8);
	TEST_ASSERT_EQUAL(smp_do(&ca, &ca_ports[1], mad), 0, "CA Set");
	for (i = 0; i < 15; i++)
		TEST_ASSERT_EQUAL(ca_ports[1].sl2vl[i], i % 8, "SL %u", i);
	TEST_ASSERT_EQUAL(ca_ports[1].sl2vl[15], 15, "SL15 -> VL15");
	TEST_ASSERT_BUFFERS_EQUAL(mad + 64, map, 8, "read back");
	/* Switch: modifier in-port << 8 | out-port; the table is the out-port's. */
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_SET, SMP_ATTR_SL2VL_TABLE, 1u << 8 | 4);
	mad[64] = 0x10;
	TEST_ASSERT_EQUAL(smp_do(&sw, &sw_ports[1], mad), 0, "switch Set");
	TEST_ASSERT_EQUAL(sw_ports[4].sl2vl[0], 1, "out port 4 SL0 -> VL1");

	/* VLArb default low table: {VL i, weight 4} for i < 8 (cap 8). */
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_GET, SMP_ATTR_VLARB_TABLE, 1u << 16);
	TEST_ASSERT_EQUAL(smp_do(&ca, &ca_ports[1], mad), 0, "Get low");
	TEST_ASSERT_EQUAL(mad[64 + 14], 7, "entry 7 VL");
	TEST_ASSERT_EQUAL(mad[64 + 15], 4, "entry 7 weight");
	TEST_ASSERT_EQUAL(mad[64 + 17], 0, "entry 8 unused");
	/* Set high table of switch port 2: VL is 4 bits, weight 8 bits. */
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_SET, SMP_ATTR_VLARB_TABLE, 2u << 16 | 2);
	mad[64] = 0xf3;
	mad[65] = 0x20;
	TEST_ASSERT_EQUAL(smp_do(&sw, &sw_ports[1], mad), 0, "Set high");
	TEST_ASSERT_EQUAL(sw_ports[2].vlarb[1][0], 3, "VL masked to 4 bits");
	TEST_ASSERT_EQUAL(sw_ports[2].vlarb[1][1], 0x20, "weight");
	TEST_ASSERT_EQUAL(mad[64], 0x03, "reads back masked");
	return TEST_SUCCESS;
}

/* M_Key checking, 14.2.4.1 table 147: one row per protect level and key. */
struct mkey_row {
	uint8_t protect;
	uint8_t method;
	int right_key;
	int expect;		/* status, or -2 = discarded */
	int mkey_visible;	/* Get: the response shows the M_Key */
};

static const struct mkey_row mkey_rows[] = {
	{ 0, MAD_METHOD_GET, 0, 0, 1 },
	{ 0, MAD_METHOD_SET, 0, -2, 0 },
	{ 0, MAD_METHOD_SET, 1, 0, 1 },
	{ 1, MAD_METHOD_GET, 0, 0, 0 },
	{ 1, MAD_METHOD_GET, 1, 0, 1 },
	{ 1, MAD_METHOD_SET, 0, -2, 0 },
	{ 2, MAD_METHOD_GET, 0, -2, 0 },
	{ 2, MAD_METHOD_GET, 1, 0, 1 },
	{ 3, MAD_METHOD_GET, 0, -2, 0 },
	{ 3, MAD_METHOD_SET, 1, 0, 1 },
};

#define TEST_MKEY 0x0123456789abcdefull

static int
test_mkey(void)
{
	uint8_t mad[IB_MAD_SIZE];
	unsigned int i;
	uint16_t viol;
	int got;

	for (i = 0; i < sizeof(mkey_rows) / sizeof(mkey_rows[0]); i++) {
		const struct mkey_row *r = &mkey_rows[i];

		/* A switch: port 0's key guards an SMP that came in on port 2. */
		sw_ports[0].mkey = TEST_MKEY;
		sw_ports[0].mkey_protect = r->protect;
		sw_ports[0].sm_lid = 0;
		smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_GET, SMP_ATTR_PORT_INFO, 0);
		mad_set64(mad, MAD_SMP_MKEY, TEST_MKEY);
		TEST_ASSERT_EQUAL(smp_do(&sw, &sw_ports[2], mad), 0, "row %u: Get", i);
		mad[MAD_METHOD] = r->method;
		mad[64 + PI_B32] &= 0xf0;
		mad_set64(mad, MAD_SMP_MKEY, r->right_key ? TEST_MKEY : 0x42);
		viol = sw_ports[0].mkey_violations;
		got = smp_do(&sw, &sw_ports[2], mad);
		TEST_ASSERT_EQUAL(got, r->expect, "row %u: result", i);
		if (got == -2)
			TEST_ASSERT_EQUAL(sw_ports[0].mkey_violations, viol + 1,
					  "row %u: M_KeyViolations", i);
		else
			TEST_ASSERT_EQUAL(mad_get64(mad, 64 + PI_MKEY),
					  r->mkey_visible ? TEST_MKEY : 0,
					  "row %u: M_Key field", i);
	}
	/* A zero port M_Key matches any key. */
	sw_ports[0].mkey = 0;
	sw_ports[0].mkey_protect = 3;
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_GET, SMP_ATTR_NODE_INFO, 0);
	mad_set64(mad, MAD_SMP_MKEY, 0x99);
	TEST_ASSERT_EQUAL(smp_do(&sw, &sw_ports[2], mad), 0, "zero M_Key");
	/* Violations saturate at 16 bits. */
	sw_ports[0].mkey = TEST_MKEY;
	sw_ports[0].mkey_violations = 0xffff;
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_GET, SMP_ATTR_NODE_INFO, 0);
	TEST_ASSERT_EQUAL(smp_do(&sw, &sw_ports[2], mad), -2, "discarded");
	TEST_ASSERT_EQUAL(sw_ports[0].mkey_violations, 0xffff, "saturated");
	/* A CA's key is the arrival port's. */
	ca_ports[2].mkey = TEST_MKEY;
	ca_ports[2].mkey_protect = 2;
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_GET, SMP_ATTR_NODE_INFO, 0);
	TEST_ASSERT_EQUAL(smp_do(&ca, &ca_ports[1], mad), 0, "port 1 has no key");
	smp_make(mad, MAD_CLASS_SMI, MAD_METHOD_GET, SMP_ATTR_NODE_INFO, 0);
	TEST_ASSERT_EQUAL(smp_do(&ca, &ca_ports[2], mad), -2, "port 2 protected");
	return TEST_SUCCESS;
}

static int
test_init_defaults(void)
{
	unsigned int i;

	TEST_ASSERT_EQUAL(ca.vendor_id, 0x0002c9, "vendor");
	TEST_ASSERT_EQUAL(ca_ports[1].pkeys[0], 0xffff, "P_Key 0");
	TEST_ASSERT_EQUAL(ca_ports[1].guids[0], CA_GUID + 1, "GUID 0");
	TEST_ASSERT(ca_ports[2].admin_up, "admin up");
	TEST_ASSERT_EQUAL(sw_state.lft_top, 0, "LinearFDBTop 0");
	for (i = 0; i < FAB_LFT_CAP; i += 997)
		TEST_ASSERT_EQUAL(sw_state.lft[i], FAB_NO_PORT, "LFT %u", i);
	TEST_ASSERT_EQUAL(sw_ports[5].cap_mask, 0, "ext port CapMask");
	TEST_ASSERT_EQUAL(sw_ports[5].state, FAB_PORT_DOWN, "unplugged Down");
	TEST_ASSERT_EQUAL(sw_ports[5].phys_state, FAB_PHYS_POLLING, "unplugged Polling");
	return TEST_SUCCESS;
}

static struct unit_test_suite sma_suite = {
	.suite_name = "ibfabric SMA (IBA 14.2)",
	.setup = NULL,
	.teardown = NULL,
	.unit_test_cases = {
		TEST_CASE_ST(fixture_setup, NULL, test_init_defaults),
		TEST_CASE_ST(fixture_setup, NULL, test_node_info_ca),
		TEST_CASE_ST(fixture_setup, NULL, test_node_info_switch_dr),
		TEST_CASE_ST(fixture_setup, NULL, test_node_desc),
		TEST_CASE_ST(fixture_setup, NULL, test_status_codes),
		TEST_CASE_ST(fixture_setup, NULL, test_port_info_defaults),
		TEST_CASE_ST(fixture_setup, NULL, test_port_info_set),
		TEST_CASE_ST(fixture_setup, NULL, test_port_info_set_invalid),
		TEST_CASE_ST(fixture_setup, NULL, test_port_info_ext_speeds),
		TEST_CASE_ST(fixture_setup, NULL, test_port_info_switch),
		TEST_CASE_ST(fixture_setup, NULL, test_port_info_phys_disable),
		TEST_CASE_ST(fixture_setup, NULL, test_switch_info),
		TEST_CASE_ST(fixture_setup, NULL, test_forwarding_tables),
		TEST_CASE_ST(fixture_setup, NULL, test_pkey_guid_tables),
		TEST_CASE_ST(fixture_setup, NULL, test_sl2vl_vlarb),
		TEST_CASE_ST(fixture_setup, NULL, test_mkey),
		TEST_CASES_END(),
	},
};

int
main(void)
{
	return unit_test_suite_runner(&sma_suite);
}
