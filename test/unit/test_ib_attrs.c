/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Unit tests of the MAD attribute tables (rte_ib_attrs.h) and of the SA
 * records that embed them (NodeRecord, PortInfoRecord, InformInfoRecord,
 * ServiceRecord in rte_ib_records.h).
 *
 * The expected bytes were worked out by hand: each field's bits written
 * MSB first at 32 * word + bit of the IBA table, then cut into bytes.
 * The sub-byte PortInfo fields were derived a second way, from OpenSM's
 * accessors in include/iba/ib_types.h, which read each packed byte with
 * a mask and shift (ib_port_info_get_lmc(): mkey_lmc & 0x07;
 * ib_port_info_get_client_rereg(): (subnet_timeout & 0x80) >> 7;
 * ib_port_info_get_hoq_lifetime(): vl_stall_life & 0x1f; ...), so a row
 * placed at the wrong bit would disagree with both.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>

#include <rte_ib_attrs.h>
#include <rte_ib_pack.h>
#include <rte_ib_records.h>
#include <rte_ib_types.h>

#include "test.h"

static const struct rte_ib_record_layout *(*const all_layouts[])(void) = {
	rte_ib_node_info_layout,
	rte_ib_port_info_layout,
	rte_ib_class_port_info_layout,
	rte_ib_notice_layout,
	rte_ib_inform_info_layout,
	rte_ib_port_counters_layout,
	rte_ib_sa_node_rec_layout,
	rte_ib_sa_port_info_rec_layout,
	rte_ib_sa_inform_info_rec_layout,
	rte_ib_sa_service_rec_layout,
};

/* Every table covers its record exactly: no gap, no overlap, no overrun. */
static int
test_layouts_check(void)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(all_layouts); i++) {
		const struct rte_ib_record_layout *l = all_layouts[i]();

		TEST_ASSERT_SUCCESS(rte_ib_layout_check(l), "%s: %s", l->name,
				    rte_strerror(rte_errno));
	}
	return TEST_SUCCESS;
}

/* A 4x SDR port at LID 0x12, sub-byte fields chosen to tell bits apart. */
static void
port_info_sample(struct rte_ib_port_info *pi)
{
	memset(pi, 0, sizeof(*pi));
	pi->m_key = UINT64_C(0x0102030405060708);
	pi->gid_prefix = UINT64_C(0xfe80000000000000);
	pi->lid = 0x0012;
	pi->master_sm_lid = 0x0001;
	pi->capability_mask = 0x02514868;
	pi->m_key_lease_period = 0x00f0;
	pi->local_port_num = 1;
	pi->link_width_enabled = 3;
	pi->link_width_supported = 3;
	pi->link_width_active = 2;
	pi->link_speed_supported = 1;
	pi->port_state = 4;
	pi->port_phys_state = 5;
	pi->link_down_default_state = 2;
	pi->m_key_protect_bits = 1;
	pi->lmc = 3;
	pi->link_speed_active = 1;
	pi->link_speed_enabled = 1;
	pi->neighbor_mtu = 4;
	pi->vl_cap = 4;
	pi->vl_arbitration_high_cap = 8;
	pi->vl_arbitration_low_cap = 8;
	pi->mtu_cap = 4;
	pi->vl_stall_count = 1;
	pi->hoq_life = 0x10;
	pi->operational_vls = 3;
	pi->partition_enforcement_inbound = 1;
	pi->partition_enforcement_outbound = 1;
	pi->m_key_violations = 0x0102;
	pi->p_key_violations = 0x0304;
	pi->q_key_violations = 0x0506;
	pi->guid_cap = 0x20;
	pi->client_reregister = 1;
	pi->mcast_pkey_trap_suppression = 2;
	pi->subnet_timeout = 18;
	pi->resp_time_value = 0x10;
	pi->local_phy_errors = 0xa;
	pi->overrun_errors = 0x5;
	pi->max_credit_hint = 0x0708;
	pi->link_round_trip_latency = 0x0a0b0c;
	pi->capability_mask2 = 0x1234;
	pi->link_speed_ext_active = 1;
	pi->link_speed_ext_supported = 3;
	pi->link_speed_ext_enabled = 0x1e;
}

/*
 * Word by word:
 *  0-1  M_Key                          01 02 03 04 05 06 07 08
 *  2-3  GidPrefix                      fe 80 00 00 00 00 00 00
 *  4    LID 0x12, MasterSMLID 1        00 12 00 01
 *  5    CapabilityMask                 02 51 48 68
 *  6    DiagCode 0, LeasePeriod 0xf0   00 00 00 f0
 *  7    LocalPortNum 1, LWE 3, LWS 3, LWA 2        01 03 03 02
 *  8    LSS 1|PortState 4 = 0x14; PhysState 5|LDDS 2 = 0x52;
 *       MPB 01, resv 000, LMC 011 = 0100 0011 = 0x43; LSA 1|LSE 1 = 0x11
 *  9    NeighborMTU 4|MasterSMSL 0 = 0x40; VLCap 4|InitType 0 = 0x40;
 *       VLHighLimit 0; VLArbHighCap 8           40 40 00 08
 *  10   VLArbLowCap 8; InitTypeReply 0|MTUCap 4 = 0x04;
 *       VLStallCount 001, HOQLife 10000 = 0x30;
 *       OpVLs 0011, PEin 1, PEout 1, FRI 0, FRO 0 = 0x3c   08 04 30 3c
 *  11   M_KeyViolations, P_KeyViolations        01 02 03 04
 *  12   Q_KeyViolations 0x0506; GUIDCap 0x20;
 *       ClientRereg 1, MCastTrapSupp 10, SubnetTimeOut 10010 = 0xd2
 *  13   resv 000, RespTimeValue 10000 = 0x10; LocalPhy 0xa|Overrun 5 = 0xa5;
 *       MaxCreditHint 07 08
 *  14   resv 00, LinkRoundTripLatency 0a 0b 0c
 *  15   CapabilityMask2 12 34; ExtActive 1|ExtSupported 3 = 0x13;
 *       resv 000, ExtEnabled 11110 = 0x1e
 */
static const uint8_t port_info_bytes[RTE_IB_PORT_INFO_SIZE] = {
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x12, 0x00, 0x01, 0x02, 0x51, 0x48, 0x68,
	0x00, 0x00, 0x00, 0xf0, 0x01, 0x03, 0x03, 0x02,
	0x14, 0x52, 0x43, 0x11, 0x40, 0x40, 0x00, 0x08,
	0x08, 0x04, 0x30, 0x3c, 0x01, 0x02, 0x03, 0x04,
	0x05, 0x06, 0x20, 0xd2, 0x10, 0xa5, 0x07, 0x08,
	0x00, 0x0a, 0x0b, 0x0c, 0x12, 0x34, 0x13, 0x1e,
};

static int
test_port_info_vector(void)
{
	struct rte_ib_port_info pi, back;
	uint8_t buf[RTE_IB_PORT_INFO_SIZE];

	port_info_sample(&pi);
	TEST_ASSERT_SUCCESS(rte_ib_pack(rte_ib_port_info_layout(), &pi,
					buf, sizeof(buf)), "pack");
	TEST_ASSERT_BUFFERS_EQUAL(buf, port_info_bytes, sizeof(buf),
				  "PortInfo bytes");
	memset(&back, 0, sizeof(back)); /* padding */
	TEST_ASSERT_SUCCESS(rte_ib_unpack(rte_ib_port_info_layout(),
					  port_info_bytes, sizeof(port_info_bytes),
					  &back), "unpack");
	TEST_ASSERT(memcmp(&pi, &back, sizeof(pi)) == 0, "round trip");
	return TEST_SUCCESS;
}

/*
 * PortInfoRecord: EndportLID 0x12, PortNum 1, Options 0x80 (word 0 =
 * 00 12 01 80), then the PortInfo above from byte 4.
 */
static int
test_port_info_rec_vector(void)
{
	struct rte_ib_sa_port_info_rec rec, back;
	uint8_t buf[RTE_IB_SA_PORT_INFO_REC_SIZE], want[sizeof(buf)];
	const uint8_t head[4] = { 0x00, 0x12, 0x01, 0x80 };

	memset(&rec, 0, sizeof(rec));
	rec.endport_lid = 0x12;
	rec.port_num = 1;
	rec.options = 0x80;
	port_info_sample(&rec.info);
	memcpy(want, head, sizeof(head));
	memcpy(want + 4, port_info_bytes, sizeof(port_info_bytes));
	TEST_ASSERT_SUCCESS(rte_ib_pack(rte_ib_sa_port_info_rec_layout(), &rec,
					buf, sizeof(buf)), "pack");
	TEST_ASSERT_BUFFERS_EQUAL(buf, want, sizeof(buf), "PortInfoRecord");
	memset(&back, 0, sizeof(back)); /* padding */
	TEST_ASSERT_SUCCESS(rte_ib_unpack(rte_ib_sa_port_info_rec_layout(),
					  want, sizeof(want), &back), "unpack");
	TEST_ASSERT(memcmp(&rec, &back, sizeof(rec)) == 0, "round trip");
	/* Component-mask numbering as OpenSM's IB_PIR_COMPMASK_* counts it. */
	TEST_ASSERT_EQUAL(RTE_IB_SA_PORT_INFO_REC_LMC, UINT64_C(1) << 20, "LMC");
	TEST_ASSERT_EQUAL(RTE_IB_SA_PORT_INFO_REC_CLIENT_REREGISTER,
			  UINT64_C(1) << 43, "ClientReregister");
	TEST_ASSERT_EQUAL(RTE_IB_SA_PORT_INFO_REC_LINK_SPEED_EXT_ENABLED,
			  UINT64_C(1) << 57, "LinkSpeedExtEnabled");
	return TEST_SUCCESS;
}

/*
 * NodeRecord of a one-port MT25208 CA at LID 3:
 *  word 0      LID 0x0003, reserved            00 03 00 00
 *  word 1      BaseVersion 1, ClassVersion 1, NodeType 1 (CA), NumPorts 1
 *  words 2-3   SystemImageGUID 0x0002c90200001230
 *  words 4-5   NodeGUID        0x0002c90200001230
 *  words 6-7   PortGUID        0x0002c90200001231
 *  word 8      PartitionCap 64, DeviceID 0x6282     00 40 62 82
 *  word 9      Revision 0xa0                          00 00 00 a0
 *  word 10     LocalPortNum 1, VendorID 0x0002c9     01 00 02 c9
 *  words 11-26 NodeDescription "hca-a", NUL padded
 */
static int
test_node_rec_vector(void)
{
	static const uint8_t want_head[44] = {
		0x00, 0x03, 0x00, 0x00, 0x01, 0x01, 0x01, 0x01,
		0x00, 0x02, 0xc9, 0x02, 0x00, 0x00, 0x12, 0x30,
		0x00, 0x02, 0xc9, 0x02, 0x00, 0x00, 0x12, 0x30,
		0x00, 0x02, 0xc9, 0x02, 0x00, 0x00, 0x12, 0x31,
		0x00, 0x40, 0x62, 0x82, 0x00, 0x00, 0x00, 0xa0,
		0x01, 0x00, 0x02, 0xc9,
	};
	struct rte_ib_sa_node_rec rec, back;
	uint8_t buf[RTE_IB_SA_NODE_REC_SIZE], want[sizeof(buf)];
	struct rte_ib_node_info ni;
	uint8_t ni_buf[RTE_IB_NODE_INFO_SIZE];

	memset(&rec, 0, sizeof(rec));
	rec.lid = 3;
	rec.info.base_version = 1;
	rec.info.class_version = 1;
	rec.info.node_type = RTE_IB_NODE_TYPE_CA;
	rec.info.num_ports = 1;
	rec.info.sys_image_guid = UINT64_C(0x0002c90200001230);
	rec.info.node_guid = UINT64_C(0x0002c90200001230);
	rec.info.port_guid = UINT64_C(0x0002c90200001231);
	rec.info.partition_cap = 64;
	rec.info.device_id = 0x6282;
	rec.info.revision = 0xa0;
	rec.info.local_port_num = 1;
	rec.info.vendor_id = 0x0002c9;
	memcpy(rec.node_desc, "hca-a", 5);

	memset(want, 0, sizeof(want));
	memcpy(want, want_head, sizeof(want_head));
	memcpy(want + 44, "hca-a", 5);
	memset(buf, 0xff, sizeof(buf));
	TEST_ASSERT_SUCCESS(rte_ib_pack(rte_ib_sa_node_rec_layout(), &rec, buf,
					sizeof(buf)), "pack");
	TEST_ASSERT_BUFFERS_EQUAL(buf, want, sizeof(buf), "NodeRecord");
	memset(&back, 0, sizeof(back)); /* padding */
	TEST_ASSERT_SUCCESS(rte_ib_unpack(rte_ib_sa_node_rec_layout(), want,
					  sizeof(want), &back), "unpack");
	TEST_ASSERT(memcmp(&rec, &back, sizeof(rec)) == 0, "round trip");

	/* The bare NodeInfo (an SMP's payload) is the record's bytes 4-43. */
	TEST_ASSERT_SUCCESS(rte_ib_pack(rte_ib_node_info_layout(), &rec.info,
					ni_buf, sizeof(ni_buf)), "pack NodeInfo");
	TEST_ASSERT_BUFFERS_EQUAL(ni_buf, want + 4, sizeof(ni_buf), "NodeInfo");
	memset(&ni, 0, sizeof(ni)); /* padding */
	TEST_ASSERT_SUCCESS(rte_ib_unpack(rte_ib_node_info_layout(), want + 4,
					  RTE_IB_NODE_INFO_SIZE, &ni), "unpack");
	TEST_ASSERT(memcmp(&ni, &rec.info, sizeof(ni)) == 0, "NodeInfo trip");
	return TEST_SUCCESS;
}

/*
 * ServiceRecord, the array elements placed one per row:
 *  words 0-1   ServiceID 0x1000000000000001
 *  words 2-5   ServiceGID fe80::2:c902:0:1231
 *  word 6      ServiceP_Key 0xffff, reserved          ff ff 00 00
 *  word 7      ServiceLease 0xffffffff (indefinite)
 *  words 8-11  ServiceKey 00..0f
 *  words 12-27 ServiceName "ipoib-test", NUL padded
 *  words 28-31 ServiceData8 0x10..0x1f
 *  words 32-35 ServiceData16.i = 0x2000 + i        20 00 20 01 ...
 *  words 36-39 ServiceData32.i = 0x30000000 + i
 *  words 40-43 ServiceData64.i = 0x4000000000000000 + i
 */
static int
test_service_rec_vector(void)
{
	struct rte_ib_sa_service_rec rec, back;
	uint8_t buf[RTE_IB_SA_SERVICE_REC_SIZE], want[sizeof(buf)];
	unsigned int i;

	memset(&rec, 0, sizeof(rec));
	memset(want, 0, sizeof(want));
	rec.service_id = UINT64_C(0x1000000000000001);
	want[0] = 0x10;
	want[7] = 0x01;
	rec.service_gid.raw[0] = 0xfe;
	rec.service_gid.raw[1] = 0x80;
	rec.service_gid.raw[9] = 0x02;
	rec.service_gid.raw[10] = 0xc9;
	rec.service_gid.raw[11] = 0x02;
	rec.service_gid.raw[14] = 0x12;
	rec.service_gid.raw[15] = 0x31;
	memcpy(want + 8, rec.service_gid.raw, 16);
	rec.service_pkey = 0xffff;
	want[24] = 0xff;
	want[25] = 0xff;
	rec.service_lease = 0xffffffff;
	memset(want + 28, 0xff, 4);
	for (i = 0; i < 16; i++) {
		rec.service_key[i] = i;
		want[32 + i] = i;
		rec.service_data8[i] = 0x10 + i;
		want[112 + i] = 0x10 + i;
	}
	memcpy(rec.service_name, "ipoib-test", 10);
	memcpy(want + 48, "ipoib-test", 10);
	for (i = 0; i < 8; i++) {
		rec.service_data16[i] = 0x2000 + i;
		want[128 + 2 * i] = 0x20;
		want[129 + 2 * i] = i;
	}
	for (i = 0; i < 4; i++) {
		rec.service_data32[i] = 0x30000000 + i;
		want[144 + 4 * i] = 0x30;
		want[147 + 4 * i] = i;
	}
	for (i = 0; i < 2; i++) {
		rec.service_data64[i] = UINT64_C(0x4000000000000000) + i;
		want[160 + 8 * i] = 0x40;
		want[167 + 8 * i] = i;
	}
	TEST_ASSERT_SUCCESS(rte_ib_pack(rte_ib_sa_service_rec_layout(), &rec,
					buf, sizeof(buf)), "pack");
	TEST_ASSERT_BUFFERS_EQUAL(buf, want, sizeof(buf), "ServiceRecord");
	memset(&back, 0, sizeof(back)); /* padding */
	TEST_ASSERT_SUCCESS(rte_ib_unpack(rte_ib_sa_service_rec_layout(), want,
					  sizeof(want), &back), "unpack");
	TEST_ASSERT(memcmp(&rec, &back, sizeof(rec)) == 0, "round trip");
	/* OpenSM's IB_SR_COMPMASK_SDATA16_0 is bit 23, SDATA64_1 bit 36. */
	TEST_ASSERT_EQUAL(RTE_IB_SA_SERVICE_REC_SERVICE_DATA16(0),
			  UINT64_C(1) << 23, "ServiceData16.0");
	TEST_ASSERT_EQUAL(RTE_IB_SA_SERVICE_REC_SERVICE_DATA64(1),
			  UINT64_C(1) << 36, "ServiceData64.1");
	return TEST_SUCCESS;
}

/*
 * Report(Notice) of trap 64, GID in service, from the SA at LID 1:
 *  byte 0      IsGeneric 1, Type 4 (informational): 1 000 0100 = 0x84
 *  bytes 1-3   ProducerType 4 (class manager)          00 00 04
 *  bytes 4-5   TrapNumber 64                            00 40
 *  bytes 6-7   IssuerLID 1                              00 01
 *  bytes 8-9   NoticeToggle 1, NoticeCount 5: 1 000...0101 = 80 05
 *  bytes 10-63 DataDetails: 6 reserved bytes, then the GID (bytes 16-31)
 *  bytes 64-79 IssuerGID
 */
static int
test_notice_vector(void)
{
	struct rte_ib_notice n, back;
	struct rte_ib_gid gid;
	uint8_t buf[RTE_IB_NOTICE_SIZE], want[sizeof(buf)];
	unsigned int i;

	memset(&n, 0, sizeof(n));
	memset(want, 0, sizeof(want));
	n.is_generic = 1;
	n.type = RTE_IB_NOTICE_TYPE_INFO;
	n.producer_type = 4;
	n.trap_number = RTE_IB_TRAP_GID_IN_SERVICE;
	n.issuer_lid = 1;
	n.notice_toggle = 1;
	n.notice_count = 5;
	for (i = 0; i < 16; i++) {
		n.data_details[6 + i] = 0xa0 + i;
		n.issuer_gid.raw[i] = 0xc0 + i;
		want[16 + i] = 0xa0 + i;
		want[64 + i] = 0xc0 + i;
	}
	want[0] = 0x84;
	want[3] = 0x04;
	want[5] = 0x40;
	want[7] = 0x01;
	want[8] = 0x80;
	want[9] = 0x05;
	TEST_ASSERT_SUCCESS(rte_ib_pack(rte_ib_notice_layout(), &n, buf,
					sizeof(buf)), "pack");
	TEST_ASSERT_BUFFERS_EQUAL(buf, want, sizeof(buf), "Notice");
	memset(&back, 0, sizeof(back)); /* padding */
	TEST_ASSERT_SUCCESS(rte_ib_unpack(rte_ib_notice_layout(), want,
					  sizeof(want), &back), "unpack");
	TEST_ASSERT(memcmp(&n, &back, sizeof(n)) == 0, "round trip");
	rte_ib_notice_gid(&back, &gid);
	TEST_ASSERT_BUFFERS_EQUAL(gid.raw, want + 16, 16, "trap 64 GID");
	return TEST_SUCCESS;
}

/*
 * InformInfo subscribing to trap 64 from any LID, reports to QP 1:
 *  bytes 0-15  GID 0
 *  bytes 16-19 LIDRangeBegin 0xffff, LIDRangeEnd 0     ff ff 00 00
 *  bytes 20-23 reserved, IsGeneric 1, Subscribe 1       00 00 01 01
 *  bytes 24-27 Type 0xffff, TrapNumber 64              ff ff 00 40
 *  bytes 28-31 QPN 1, resv 000, RespTimeValue 10011:   00 00 01 13
 *  bytes 32-35 reserved, ProducerType 4                00 00 00 04
 * and the same InformInfo inside an InformInfoRecord from byte 24, after
 * SubscriberGID (0..15), Enum 2 (16-17) and 6 reserved bytes.
 */
static int
test_inform_info_vectors(void)
{
	static const uint8_t want[RTE_IB_INFORM_INFO_SIZE] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x01, 0x01,
		0xff, 0xff, 0x00, 0x40, 0x00, 0x00, 0x01, 0x13,
		0x00, 0x00, 0x00, 0x04,
	};
	struct rte_ib_inform_info ii, back;
	struct rte_ib_sa_inform_info_rec rec, rback;
	uint8_t buf[RTE_IB_INFORM_INFO_SIZE];
	uint8_t rbuf[RTE_IB_SA_INFORM_INFO_REC_SIZE], rwant[sizeof(rbuf)];

	memset(&ii, 0, sizeof(ii));
	ii.lid_range_begin = 0xffff;
	ii.is_generic = 1;
	ii.subscribe = 1;
	ii.type = RTE_IB_NOTICE_TYPE_ALL;
	ii.trap_number = RTE_IB_TRAP_GID_IN_SERVICE;
	ii.qpn = 1;
	ii.resp_time_value = 0x13;
	ii.producer_type = 4;
	TEST_ASSERT_SUCCESS(rte_ib_pack(rte_ib_inform_info_layout(), &ii, buf,
					sizeof(buf)), "pack");
	TEST_ASSERT_BUFFERS_EQUAL(buf, want, sizeof(buf), "InformInfo");
	memset(&back, 0, sizeof(back)); /* padding */
	TEST_ASSERT_SUCCESS(rte_ib_unpack(rte_ib_inform_info_layout(), want,
					  sizeof(want), &back), "unpack");
	TEST_ASSERT(memcmp(&ii, &back, sizeof(ii)) == 0, "round trip");

	memset(&rec, 0, sizeof(rec));
	memset(rwant, 0, sizeof(rwant));
	rec.subscriber_gid.raw[0] = 0xfe;
	rec.subscriber_gid.raw[1] = 0x80;
	rec.subscriber_gid.raw[15] = 0x07;
	rec.enumeration = 2;
	rec.info = ii;
	memcpy(rwant, rec.subscriber_gid.raw, 16);
	rwant[17] = 2;
	memcpy(rwant + 24, want, sizeof(want));
	TEST_ASSERT_SUCCESS(rte_ib_pack(rte_ib_sa_inform_info_rec_layout(),
					&rec, rbuf, sizeof(rbuf)), "pack rec");
	TEST_ASSERT_BUFFERS_EQUAL(rbuf, rwant, sizeof(rbuf), "InformInfoRecord");
	memset(&rback, 0, sizeof(rback)); /* padding */
	TEST_ASSERT_SUCCESS(rte_ib_unpack(rte_ib_sa_inform_info_rec_layout(),
					  rwant, sizeof(rwant), &rback), "unpack");
	TEST_ASSERT(memcmp(&rec, &rback, sizeof(rec)) == 0, "rec round trip");
	return TEST_SUCCESS;
}

/*
 * ClassPortInfo of an SA (class version 2, RespTimeValue 18) with a trap
 * destination: word 0 = 01 02 | CapabilityMask 0x0602; word 1 =
 * CapabilityMask2 0 (27 bits) then RespTimeValue 10010 -> 00 00 00 12;
 * word 14 = TrapTC 0, TrapSL 0xf, TrapFL 0x12345 ->
 * 00 | 1111 0001 0010 0011 0100 0101 = 00 f1 23 45; word 15 = TrapLID 1,
 * TrapP_Key 0xffff; word 16 = TrapHL 0xff, TrapQP 1 -> ff 00 00 01;
 * word 17 = TrapQ_Key 0x80010000.
 */
static int
test_class_port_info_vector(void)
{
	struct rte_ib_class_port_info cpi, back;
	uint8_t buf[RTE_IB_CLASS_PORT_INFO_SIZE], want[sizeof(buf)];
	static const uint8_t tail[16] = {
		0x00, 0xf1, 0x23, 0x45, 0x00, 0x01, 0xff, 0xff,
		0xff, 0x00, 0x00, 0x01, 0x80, 0x01, 0x00, 0x00,
	};

	memset(&cpi, 0, sizeof(cpi));
	memset(want, 0, sizeof(want));
	cpi.base_version = 1;
	cpi.class_version = 2;
	cpi.capability_mask = 0x0602;
	cpi.resp_time_value = 18;
	cpi.trap_sl = 0xf;
	cpi.trap_fl = 0x12345;
	cpi.trap_lid = 1;
	cpi.trap_pkey = 0xffff;
	cpi.trap_hop_limit = 0xff;
	cpi.trap_qp = 1;
	cpi.trap_qkey = RTE_IB_QP1_QKEY;
	want[0] = 0x01;
	want[1] = 0x02;
	want[2] = 0x06;
	want[3] = 0x02;
	want[7] = 0x12;
	memcpy(want + 56, tail, sizeof(tail));
	TEST_ASSERT_SUCCESS(rte_ib_pack(rte_ib_class_port_info_layout(), &cpi,
					buf, sizeof(buf)), "pack");
	TEST_ASSERT_BUFFERS_EQUAL(buf, want, sizeof(buf), "ClassPortInfo");
	memset(&back, 0, sizeof(back)); /* padding */
	TEST_ASSERT_SUCCESS(rte_ib_unpack(rte_ib_class_port_info_layout(), want,
					  sizeof(want), &back), "unpack");
	TEST_ASSERT(memcmp(&cpi, &back, sizeof(cpi)) == 0, "round trip");
	return TEST_SUCCESS;
}

/*
 * PortCounters, IBA 16.1.3.5 table "PortCounters", one word per line:
 * w0 = Reserved 0, PortSelect 1, CounterSelect 0xffff -> 00 01 ff ff;
 * w1 = SymbolErrorCounter 0x1234, LinkErrorRecoveryCounter 0x56,
 * LinkDownedCounter 0x78 -> 12 34 56 78; w2 = PortRcvErrors 0x9abc,
 * PortRcvRemotePhysicalErrors 0x0102 -> 9a bc 01 02; w3 =
 * PortRcvSwitchRelayErrors 0x0304, PortXmitDiscards 0x0506; w4 =
 * PortXmitConstraintErrors 7, PortRcvConstraintErrors 8, reserved 8 bits,
 * LocalLinkIntegrityErrors 0xa in bits 24-27 (the high nibble of byte 19)
 * and ExcessiveBufferOverrunErrors 5 in bits 28-31 -> 07 08 00 a5;
 * w5 = reserved 16 bits, VL15Dropped 0xbeef -> 00 00 be ef; w6..w10 =
 * PortXmitData, PortRcvData, PortXmitPkts, PortRcvPkts, PortXmitWait.
 * The byte-19 split is also Linux's struct ib_pma_portcounters
 * ("LocalLink: 7:4, BufferOverrun: 3:0").
 */
static int
test_port_counters_vector(void)
{
	struct rte_ib_port_counters pc, back;
	uint8_t buf[RTE_IB_PORT_COUNTERS_SIZE];
	static const uint8_t want[RTE_IB_PORT_COUNTERS_SIZE] = {
		0x00, 0x01, 0xff, 0xff, 0x12, 0x34, 0x56, 0x78,
		0x9a, 0xbc, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06,
		0x07, 0x08, 0x00, 0xa5, 0x00, 0x00, 0xbe, 0xef,
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10,
		0x11, 0x12, 0x13, 0x14,
	};

	memset(&pc, 0, sizeof(pc));
	pc.port_select = 1;
	pc.counter_select = 0xffff;
	pc.symbol_error = 0x1234;
	pc.link_error_recovery = 0x56;
	pc.link_downed = 0x78;
	pc.port_rcv_errors = 0x9abc;
	pc.port_rcv_remote_physical_errors = 0x0102;
	pc.port_rcv_switch_relay_errors = 0x0304;
	pc.port_xmit_discards = 0x0506;
	pc.port_xmit_constraint_errors = 7;
	pc.port_rcv_constraint_errors = 8;
	pc.local_link_integrity_errors = 0xa;
	pc.excessive_buffer_overrun_errors = 5;
	pc.vl15_dropped = 0xbeef;
	pc.port_xmit_data = 0x01020304;
	pc.port_rcv_data = 0x05060708;
	pc.port_xmit_pkts = 0x090a0b0c;
	pc.port_rcv_pkts = 0x0d0e0f10;
	pc.port_xmit_wait = 0x11121314;
	TEST_ASSERT_SUCCESS(rte_ib_pack(rte_ib_port_counters_layout(), &pc, buf,
					sizeof(buf)), "pack");
	TEST_ASSERT_BUFFERS_EQUAL(buf, want, sizeof(buf), "PortCounters");
	memset(&back, 0, sizeof(back)); /* padding */
	TEST_ASSERT_SUCCESS(rte_ib_unpack(rte_ib_port_counters_layout(), want,
					  sizeof(want), &back), "unpack");
	TEST_ASSERT(memcmp(&pc, &back, sizeof(pc)) == 0, "round trip");
	return TEST_SUCCESS;
}

/* Too-wide values and short buffers are refused and change nothing. */
static int
test_bad_input(void)
{
	struct rte_ib_port_info pi;
	uint8_t buf[RTE_IB_PORT_INFO_SIZE], copy[sizeof(buf)];

	port_info_sample(&pi);
	memset(buf, 0x5a, sizeof(buf));
	memcpy(copy, buf, sizeof(buf));
	pi.lmc = 8; /* 3 bits */
	TEST_ASSERT_EQUAL(rte_ib_pack(rte_ib_port_info_layout(), &pi, buf,
				      sizeof(buf)), -1, "LMC 8 packed");
	TEST_ASSERT_EQUAL(rte_errno, ERANGE, "errno %d", rte_errno);
	TEST_ASSERT_BUFFERS_EQUAL(buf, copy, sizeof(buf), "buffer touched");
	TEST_ASSERT_EQUAL(rte_ib_unpack(rte_ib_port_info_layout(), buf,
					sizeof(buf) - 1, &pi), -1, "short unpack");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno %d", rte_errno);
	return TEST_SUCCESS;
}

static int
test_layout_by_attr(void)
{
	TEST_ASSERT(rte_ib_sa_layout_by_attr(RTE_IB_SA_ATTR_NODE_REC) ==
		    rte_ib_sa_node_rec_layout(), "NodeRecord");
	TEST_ASSERT(rte_ib_sa_layout_by_attr(RTE_IB_SA_ATTR_PORT_INFO_REC) ==
		    rte_ib_sa_port_info_rec_layout(), "PortInfoRecord");
	TEST_ASSERT(rte_ib_sa_layout_by_attr(RTE_IB_SA_ATTR_SERVICE_REC) ==
		    rte_ib_sa_service_rec_layout(), "ServiceRecord");
	TEST_ASSERT(rte_ib_sa_layout_by_attr(RTE_IB_SA_ATTR_INFORM_INFO_REC) ==
		    rte_ib_sa_inform_info_rec_layout(), "InformInfoRecord");
	TEST_ASSERT(rte_ib_sa_layout_by_attr(RTE_IB_SA_ATTR_PATH_REC) ==
		    rte_ib_sa_path_rec_layout(), "PathRecord");
	TEST_ASSERT(rte_ib_sa_layout_by_attr(RTE_IB_SA_ATTR_MCMEMBER_REC) ==
		    rte_ib_sa_mcmember_rec_layout(), "MCMemberRecord");
	TEST_ASSERT(rte_ib_sa_layout_by_attr(RTE_IB_ATTR_NOTICE) ==
		    rte_ib_notice_layout(), "Notice");
	rte_errno = 0;
	TEST_ASSERT(rte_ib_sa_layout_by_attr(RTE_IB_SA_ATTR_LINK_REC) == NULL,
		    "LinkRecord has no table");
	TEST_ASSERT_EQUAL(rte_errno, ENOTSUP, "errno %d", rte_errno);
	return TEST_SUCCESS;
}

static struct unit_test_suite ib_attrs_suite = {
	.suite_name = "ib_attrs",
	.unit_test_cases = {
		TEST_CASE(test_layouts_check),
		TEST_CASE(test_port_info_vector),
		TEST_CASE(test_port_info_rec_vector),
		TEST_CASE(test_node_rec_vector),
		TEST_CASE(test_service_rec_vector),
		TEST_CASE(test_notice_vector),
		TEST_CASE(test_inform_info_vectors),
		TEST_CASE(test_class_port_info_vector),
		TEST_CASE(test_port_counters_vector),
		TEST_CASE(test_bad_input),
		TEST_CASE(test_layout_by_attr),
		TEST_CASES_END(),
	},
};

int
main(void)
{
	return unit_test_suite_runner(&ib_attrs_suite);
}
