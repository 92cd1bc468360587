/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Unit tests of rte_ib_types.h: wire struct layouts, GID/LID/P_Key
 * helpers, MAD and SA header accessors, component-mask numbering.
 * Expected values come from the IBA volume 1 text cited at each case.
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>

#include <rte_ib_records.h>
#include <rte_ib_types.h>

#include "test.h"

/* IBA 13.4.2 figure "MAD base format": byte offset of each field. */
static int
test_mad_hdr_layout(void)
{
	TEST_ASSERT_EQUAL(sizeof(struct rte_ib_mad_hdr), 24, "MAD header size");
	TEST_ASSERT_EQUAL(offsetof(struct rte_ib_mad_hdr, base_version), 0, "");
	TEST_ASSERT_EQUAL(offsetof(struct rte_ib_mad_hdr, mgmt_class), 1, "");
	TEST_ASSERT_EQUAL(offsetof(struct rte_ib_mad_hdr, class_version), 2, "");
	TEST_ASSERT_EQUAL(offsetof(struct rte_ib_mad_hdr, method), 3, "");
	TEST_ASSERT_EQUAL(offsetof(struct rte_ib_mad_hdr, status), 4, "");
	TEST_ASSERT_EQUAL(offsetof(struct rte_ib_mad_hdr, class_specific), 6, "");
	TEST_ASSERT_EQUAL(offsetof(struct rte_ib_mad_hdr, tid), 8, "");
	TEST_ASSERT_EQUAL(offsetof(struct rte_ib_mad_hdr, attr_id), 16, "");
	TEST_ASSERT_EQUAL(offsetof(struct rte_ib_mad_hdr, resv), 18, "");
	TEST_ASSERT_EQUAL(offsetof(struct rte_ib_mad_hdr, attr_mod), 20, "");
	return TEST_SUCCESS;
}

/*
 * IBA 15.2.1.1 figure "SA MAD format": MAD header 0-23, RMPP header
 * 24-35 (13.6.2.1), SM_Key 36-43, AttributeOffset 44-45, Reserved
 * 46-47, ComponentMask 48-55, SA data 56-255.
 */
static int
test_sa_mad_layout(void)
{
	TEST_ASSERT_EQUAL(sizeof(struct rte_ib_rmpp_hdr), 12, "RMPP header");
	TEST_ASSERT_EQUAL(sizeof(struct rte_ib_sa_hdr), 20, "SA header");
	TEST_ASSERT_EQUAL(sizeof(struct rte_ib_sa_mad), 256, "SA MAD");
	TEST_ASSERT_EQUAL(offsetof(struct rte_ib_sa_mad, rmpp_hdr), 24, "");
	TEST_ASSERT_EQUAL(offsetof(struct rte_ib_sa_mad, sa_hdr), 36, "");
	TEST_ASSERT_EQUAL(offsetof(struct rte_ib_sa_mad, sa_hdr.sm_key), 36, "");
	TEST_ASSERT_EQUAL(offsetof(struct rte_ib_sa_mad, sa_hdr.attr_offset),
			  44, "");
	TEST_ASSERT_EQUAL(offsetof(struct rte_ib_sa_mad, sa_hdr.comp_mask),
			  48, "");
	TEST_ASSERT_EQUAL(offsetof(struct rte_ib_sa_mad, data), 56, "");
	TEST_ASSERT_EQUAL(RTE_IB_SA_DATA_SIZE, 200, "SA data size");
	return TEST_SUCCESS;
}

/*
 * A SubnAdmGet(PathRecord) header filled through the struct, compared
 * with the bytes IBA 13.4.2 puts on the wire: BaseVersion 1, MgmtClass
 * 0x03, ClassVersion 2, Method 0x01, Status 0, ClassSpecific 0, TID
 * 0x0000000012345678 MSB first, AttributeID 0x0035, Reserved 0,
 * AttributeModifier 0; SA header ComponentMask DGID|SGID = bits 2 and 3
 * = 0x0c in byte 55, SM_Key 0x0102030405060708 at bytes 36-43.
 */
static int
test_mad_hdr_bytes(void)
{
	static const uint8_t expect[56] = {
		0x01, 0x03, 0x02, 0x01, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x12, 0x34, 0x56, 0x78,
		0x00, 0x35, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		/* RMPP header, unused: 24-35 */
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00,
		/* SM_Key */
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		/* AttributeOffset 8 (64-byte PathRecord), Reserved */
		0x00, 0x08, 0x00, 0x00,
		/* ComponentMask */
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0c,
	};
	struct rte_ib_sa_mad mad;

	memset(&mad, 0, sizeof(mad));
	mad.mad_hdr.base_version = RTE_IB_MAD_BASE_VERSION;
	mad.mad_hdr.mgmt_class = RTE_IB_MGMT_CLASS_SUBN_ADM;
	mad.mad_hdr.class_version = RTE_IB_SA_CLASS_VERSION;
	mad.mad_hdr.method = RTE_IB_METHOD_GET;
	mad.mad_hdr.tid = rte_cpu_to_be_64(UINT64_C(0x12345678));
	mad.mad_hdr.attr_id = rte_cpu_to_be_16(RTE_IB_SA_ATTR_PATH_REC);
	mad.sa_hdr.sm_key = rte_cpu_to_be_64(UINT64_C(0x0102030405060708));
	mad.sa_hdr.attr_offset = rte_cpu_to_be_16(
		rte_ib_sa_attr_offset(RTE_IB_SA_PATH_REC_SIZE));
	rte_ib_sa_hdr_set_comp_mask(&mad.sa_hdr,
		RTE_IB_SA_PATH_REC_DGID | RTE_IB_SA_PATH_REC_SGID);
	TEST_ASSERT_BUFFERS_EQUAL(&mad, expect, sizeof(expect), "SA MAD header");
	TEST_ASSERT_EQUAL(rte_ib_sa_hdr_comp_mask(&mad.sa_hdr), 0x0c,
			  "ComponentMask read back");
	TEST_ASSERT(!rte_ib_mad_is_response(&mad.mad_hdr), "Get is a request");
	mad.mad_hdr.method = RTE_IB_SA_METHOD_GET_TABLE_RESP;
	TEST_ASSERT(rte_ib_mad_is_response(&mad.mad_hdr),
		    "GetTableResp has the R bit");
	return TEST_SUCCESS;
}

/* Method and status encodings, IBA 13.4.5 and 13.4.7 (bits 2-4 code). */
static int
test_mad_constants(void)
{
	TEST_ASSERT_EQUAL(RTE_IB_METHOD_GET | RTE_IB_METHOD_RESP,
			  RTE_IB_METHOD_GET_RESP, "GetResp = Get | R");
	TEST_ASSERT_EQUAL(RTE_IB_SA_METHOD_GET_TABLE | RTE_IB_METHOD_RESP,
			  RTE_IB_SA_METHOD_GET_TABLE_RESP, "GetTableResp");
	TEST_ASSERT_EQUAL(RTE_IB_METHOD_REPORT | RTE_IB_METHOD_RESP,
			  RTE_IB_METHOD_REPORT_RESP, "ReportResp");
	/* Invalid-field code 1, 2, 3, 7 in bits 2-4. */
	TEST_ASSERT_EQUAL(RTE_IB_MAD_STATUS_BAD_VERSION, 1 << 2, "");
	TEST_ASSERT_EQUAL(RTE_IB_MAD_STATUS_METHOD_UNSUPPORTED, 2 << 2, "");
	TEST_ASSERT_EQUAL(RTE_IB_MAD_STATUS_METHOD_ATTR_UNSUPPORTED, 3 << 2, "");
	TEST_ASSERT_EQUAL(RTE_IB_MAD_STATUS_INVALID_FIELD, 7 << 2, "");
	/* SA status codes are class specific: bits 8-15. */
	TEST_ASSERT_EQUAL(RTE_IB_SA_STATUS_NO_RECORDS >> 8, 3, "ERR_NO_RECORDS");
	TEST_ASSERT_EQUAL(RTE_IB_SA_STATUS_REQ_DENIED >> 8, 7, "ERR_REQ_DENIED");
	return TEST_SUCCESS;
}

/*
 * GID views (IBA 4.1.1): prefix fe80::/64 and GUID 0x0002c90300001234
 * are the 16 bytes fe 80 00 00 00 00 00 00 | 00 02 c9 03 00 00 12 34.
 */
static int
test_gid(void)
{
	static const uint8_t expect[16] = {
		0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x02, 0xc9, 0x03, 0x00, 0x00, 0x12, 0x34,
	};
	/* IPoIB IPv4 broadcast group of P_Key 0xffff (RFC 4391 4.1). */
	static const uint8_t bcast[16] = {
		0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
	};
	struct rte_ib_gid gid, other;

	rte_ib_gid_set(&gid, RTE_IB_GID_DEFAULT_PREFIX,
		       UINT64_C(0x0002c90300001234));
	TEST_ASSERT_BUFFERS_EQUAL(gid.raw, expect, 16, "GID bytes");
	TEST_ASSERT_EQUAL(rte_ib_gid_prefix(&gid), RTE_IB_GID_DEFAULT_PREFIX, "");
	TEST_ASSERT_EQUAL(rte_ib_gid_guid(&gid), UINT64_C(0x0002c90300001234), "");
	TEST_ASSERT(rte_ib_gid_is_link_local(&gid), "fe80:: is link local");
	TEST_ASSERT(!rte_ib_gid_is_multicast(&gid), "fe80:: is unicast");

	memcpy(other.raw, expect, 16);
	TEST_ASSERT(rte_ib_gid_equal(&gid, &other), "same bytes");
	other.raw[15] ^= 1;
	TEST_ASSERT(!rte_ib_gid_equal(&gid, &other), "last bit differs");

	/* fec0::/10 (site local) is not link local: byte 1 is 0xc0. */
	rte_ib_gid_set(&other, UINT64_C(0xfec0000000000000), 1);
	TEST_ASSERT(!rte_ib_gid_is_link_local(&other), "fec0:: not link local");

	memcpy(other.raw, bcast, 16);
	TEST_ASSERT(rte_ib_gid_is_multicast(&other), "ff12:: is multicast");
	TEST_ASSERT(!rte_ib_gid_is_link_local(&other), "multicast");
	return TEST_SUCCESS;
}

/* LID ranges, IBA 4.1.3 / 7.11.1: one row per range edge. */
static int
test_lid(void)
{
	static const struct {
		uint16_t lid;
		bool unicast, multicast, permissive;
	} rows[] = {
		{ 0x0000, false, false, false }, /* reserved */
		{ 0x0001, true, false, false },
		{ 0xbfff, true, false, false },
		{ 0xc000, false, true, false },
		{ 0xfffe, false, true, false },
		{ 0xffff, false, false, true },
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(rows); i++) {
		TEST_ASSERT_EQUAL(rte_ib_lid_is_unicast(rows[i].lid),
				  rows[i].unicast, "lid 0x%x", rows[i].lid);
		TEST_ASSERT_EQUAL(rte_ib_lid_is_multicast(rows[i].lid),
				  rows[i].multicast, "lid 0x%x", rows[i].lid);
		TEST_ASSERT_EQUAL(rte_ib_lid_is_permissive(rows[i].lid),
				  rows[i].permissive, "lid 0x%x", rows[i].lid);
	}
	/* LMC 2: LIDs 0x10..0x13 share base 0x10 (IBA 7.11.1). */
	TEST_ASSERT_EQUAL(rte_ib_lid_base(0x13, 2), 0x10, "");
	TEST_ASSERT_EQUAL(rte_ib_lid_base(0x13, 0), 0x13, "LMC 0");
	TEST_ASSERT_EQUAL(rte_ib_lid_base(0x1ff, 7), 0x180, "LMC 7");
	TEST_ASSERT_EQUAL(rte_ib_lid_base(0x1ff, 9), 0x180, "LMC clamped to 7");
	return TEST_SUCCESS;
}

/*
 * P_Key matching, IBA 10.9.3: equal 15-bit bases, not the invalid base
 * 0, and at least one full member. One row per case of the rule.
 */
static int
test_pkey(void)
{
	static const struct {
		uint16_t a, b;
		bool match;
	} rows[] = {
		{ 0xffff, 0xffff, true },  /* full - full */
		{ 0xffff, 0x7fff, true },  /* full - limited */
		{ 0x7fff, 0xffff, true },  /* limited - full */
		{ 0x7fff, 0x7fff, false }, /* limited - limited */
		{ 0x8001, 0x0001, true },
		{ 0x8001, 0x8002, false }, /* different partitions */
		{ 0x0000, 0x8000, false }, /* invalid P_Key */
		{ 0x8000, 0x8000, false }, /* invalid even when full */
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(rows); i++)
		TEST_ASSERT_EQUAL(rte_ib_pkey_match(rows[i].a, rows[i].b),
				  rows[i].match, "pkeys 0x%04x 0x%04x",
				  rows[i].a, rows[i].b);
	TEST_ASSERT_EQUAL(rte_ib_pkey_base(0xffff), 0x7fff, "");
	TEST_ASSERT(rte_ib_pkey_is_full_member(RTE_IB_PKEY_DEFAULT), "");
	TEST_ASSERT(!rte_ib_pkey_is_full_member(RTE_IB_PKEY_DEFAULT_LIMITED), "");
	TEST_ASSERT(!rte_ib_pkey_is_valid(RTE_IB_PKEY_INVALID), "");
	TEST_ASSERT(!rte_ib_pkey_is_valid(RTE_IB_PKEY_FULL_MEMBER), "0x8000");
	TEST_ASSERT(rte_ib_pkey_is_valid(0x0001), "");
	return TEST_SUCCESS;
}

/* MTU codes, IBA 14.2.5.6: 1 = 256 ... 5 = 4096; others are not MTUs. */
static int
test_mtu(void)
{
	TEST_ASSERT_EQUAL(rte_ib_mtu_to_bytes(RTE_IB_MTU_256), 256, "");
	TEST_ASSERT_EQUAL(rte_ib_mtu_to_bytes(RTE_IB_MTU_2048), 2048, "");
	TEST_ASSERT_EQUAL(rte_ib_mtu_to_bytes(RTE_IB_MTU_4096), 4096, "");
	TEST_ASSERT_EQUAL(rte_ib_mtu_to_bytes(0), 0, "");
	TEST_ASSERT_EQUAL(rte_ib_mtu_to_bytes(6), 0, "");
	return TEST_SUCCESS;
}

/*
 * Component-mask numbering: the n-th component of the record's table is
 * bit n (IBA 15.2.1.1). PathRecord (15.2.5.16): ServiceID spans bits 0
 * and 1, DGID 2, ..., Reserved 7, FlowLabel 8, ..., QoSClass 14, SL 15,
 * ..., Preference 22. MCMemberRecord (15.2.5.17): MGID 0 ... ProxyJoin 17.
 */
static int
test_comp_mask(void)
{
	TEST_ASSERT_EQUAL(RTE_IB_SA_PATH_REC_SERVICE_ID, 0x3, "bits 0 and 1");
	TEST_ASSERT_EQUAL(RTE_IB_SA_PATH_REC_DGID, 1 << 2, "");
	TEST_ASSERT_EQUAL(RTE_IB_SA_PATH_REC_RAW_TRAFFIC, 1 << 6, "");
	TEST_ASSERT_EQUAL(RTE_IB_SA_PATH_REC_FLOW_LABEL, 1 << 8, "");
	TEST_ASSERT_EQUAL(RTE_IB_SA_PATH_REC_PKEY, 1 << 13, "");
	TEST_ASSERT_EQUAL(RTE_IB_SA_PATH_REC_QOS_CLASS, 1 << 14, "");
	TEST_ASSERT_EQUAL(RTE_IB_SA_PATH_REC_SL, 1 << 15, "");
	TEST_ASSERT_EQUAL(RTE_IB_SA_PATH_REC_PREFERENCE, 1 << 22, "");
	TEST_ASSERT_EQUAL(RTE_IB_SA_MCMEMBER_REC_MGID, 1 << 0, "");
	TEST_ASSERT_EQUAL(RTE_IB_SA_MCMEMBER_REC_PKEY, 1 << 7, "");
	TEST_ASSERT_EQUAL(RTE_IB_SA_MCMEMBER_REC_SL, 1 << 12, "");
	TEST_ASSERT_EQUAL(RTE_IB_SA_MCMEMBER_REC_JOIN_STATE, 1 << 16, "");
	TEST_ASSERT_EQUAL(RTE_IB_SA_MCMEMBER_REC_PROXY_JOIN, 1 << 17, "");

	TEST_ASSERT(rte_ib_sa_comp_mask_has(0x3c, RTE_IB_SA_PATH_REC_DGID |
					    RTE_IB_SA_PATH_REC_SGID), "");
	TEST_ASSERT(!rte_ib_sa_comp_mask_has(0x1, RTE_IB_SA_PATH_REC_SERVICE_ID),
		    "half a ServiceID is not a ServiceID");
	/* AttributeOffset is in 8-byte words, records padded (15.2.1.1). */
	TEST_ASSERT_EQUAL(rte_ib_sa_attr_offset(RTE_IB_SA_PATH_REC_SIZE), 8, "");
	TEST_ASSERT_EQUAL(rte_ib_sa_attr_offset(RTE_IB_SA_MCMEMBER_REC_SIZE), 7,
			  "52 bytes pad to 56");
	return TEST_SUCCESS;
}

static struct unit_test_suite ib_types_suite = {
	.suite_name = "ib_types",
	.unit_test_cases = {
		TEST_CASE(test_mad_hdr_layout),
		TEST_CASE(test_sa_mad_layout),
		TEST_CASE(test_mad_hdr_bytes),
		TEST_CASE(test_mad_constants),
		TEST_CASE(test_gid),
		TEST_CASE(test_lid),
		TEST_CASE(test_pkey),
		TEST_CASE(test_mtu),
		TEST_CASE(test_comp_mask),
		TEST_CASES_END(),
	},
};

int
main(void)
{
	return unit_test_suite_runner(&ib_types_suite);
}
