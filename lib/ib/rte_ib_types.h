/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _RTE_IB_TYPES_H_
#define _RTE_IB_TYPES_H_

/**
 * @file
 * Common InfiniBand types: GIDs, LIDs, P_Keys, GUIDs, the MAD common
 * header, the RMPP and SA headers, and the management constants (classes,
 * methods, status codes, attribute IDs) every IB component shares.
 *
 * Conventions:
 * - Structs named after a wire format (rte_ib_mad_hdr, rte_ib_sa_hdr, ...)
 *   are laid out exactly as on the wire: multi-byte members are big-endian
 *   (rte_be16_t, rte_be32_t, rte_be64_t), sizes are checked at compile
 *   time.
 * - Helper functions take and return host-order values, except where a
 *   parameter is a wire struct.
 * - Everything here is pure: no state, callable from any thread or lcore.
 *
 * References are to the InfiniBand Architecture Specification, volume 1
 * (IBA), release 1.3 unless stated.
 */

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ib_proto.h"

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_compat.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * GUIDs and GIDs (IBA 4.1.1).
 */

/** Length of a GID in bytes. */
#define RTE_IB_GID_LEN 16

/** Default GID prefix, the link-local fe80::/64 (IBA 4.1.1). */
#define RTE_IB_GID_DEFAULT_PREFIX UINT64_C(0xfe80000000000000)

/**
 * A 128-bit Global Identifier, kept in wire (big-endian) order.
 *
 * The same 16 bytes can be read as raw bytes or as the 64-bit subnet
 * prefix followed by the 64-bit interface ID (the port's EUI-64 GUID for
 * a unicast GID). GUIDs are 64-bit EUI-64 values; in host structs they
 * are uint64_t in host order, on the wire rte_be64_t.
 */
struct rte_ib_gid {
	union {
		uint8_t raw[RTE_IB_GID_LEN]; /**< Wire bytes, MSB first. */
		struct {
			rte_be64_t subnet_prefix; /**< Upper 64 bits. */
			rte_be64_t interface_id;  /**< Lower 64 bits (GUID). */
		} global;                 /**< Prefix/GUID view. */
	};
};

static_assert(sizeof(struct rte_ib_gid) == RTE_IB_GID_LEN,
	      "struct rte_ib_gid must be 16 bytes (IBA 4.1.1)");

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Build a GID from a subnet prefix and an interface ID.
 *
 * @param gid
 *   GID to fill.
 * @param prefix
 *   Subnet prefix, host order.
 * @param guid
 *   Interface ID (port GUID), host order.
 */
__rte_experimental
static inline void
rte_ib_gid_set(struct rte_ib_gid *gid, uint64_t prefix, uint64_t guid)
{
	gid->global.subnet_prefix = rte_cpu_to_be_64(prefix);
	gid->global.interface_id = rte_cpu_to_be_64(guid);
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   The subnet prefix of @p gid, host order.
 */
__rte_experimental
static inline uint64_t
rte_ib_gid_prefix(const struct rte_ib_gid *gid)
{
	return rte_be_to_cpu_64(gid->global.subnet_prefix);
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   The interface ID (GUID) of @p gid, host order.
 */
__rte_experimental
static inline uint64_t
rte_ib_gid_guid(const struct rte_ib_gid *gid)
{
	return rte_be_to_cpu_64(gid->global.interface_id);
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   true when both GIDs hold the same 128 bits.
 */
__rte_experimental
static inline bool
rte_ib_gid_equal(const struct rte_ib_gid *a, const struct rte_ib_gid *b)
{
	return memcmp(a->raw, b->raw, RTE_IB_GID_LEN) == 0;
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   true when @p gid is a multicast GID: its first byte is 0xFF
 *   (IBA 4.1.1, as for IPv6).
 */
__rte_experimental
static inline bool
rte_ib_gid_is_multicast(const struct rte_ib_gid *gid)
{
	return gid->raw[0] == 0xff;
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   true when @p gid is a unicast link-local GID (prefix fe80::/10,
 *   IBA 4.1.1).
 */
__rte_experimental
static inline bool
rte_ib_gid_is_link_local(const struct rte_ib_gid *gid)
{
	return gid->raw[0] == 0xfe && (gid->raw[1] & 0xc0) == 0x80;
}

/*
 * LIDs (IBA 4.1.3; ranges in table "LID address space", 7.11.1).
 */

/* The values are ib_proto.h's, shared with ibfabric (written once). */
/** LID 0 is reserved: never a valid address. */
#define RTE_IB_LID_RESERVED       IB_LID_RESERVED
/** First unicast LID. */
#define RTE_IB_LID_UNICAST_MIN    IB_LID_UNICAST_MIN
/** Last unicast LID. */
#define RTE_IB_LID_UNICAST_MAX    IB_LID_UNICAST_MAX
/** First multicast LID. */
#define RTE_IB_LID_MULTICAST_MIN  IB_LID_MULTICAST_MIN
/** Last multicast LID. */
#define RTE_IB_LID_MULTICAST_MAX  IB_LID_MULTICAST_MAX
/** Permissive LID: accepted by any port, used by directed-route SMPs. */
#define RTE_IB_LID_PERMISSIVE     IB_LID_PERMISSIVE
/** Largest LID Mask Control value (PortInfo:LMC is 3 bits). */
#define RTE_IB_LMC_MAX            7

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   true when @p lid (host order) is in the unicast range 0x0001-0xBFFF.
 */
__rte_experimental
static inline bool
rte_ib_lid_is_unicast(uint16_t lid)
{
	return ib_lid_is_unicast(lid);
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   true when @p lid (host order) is in the multicast range 0xC000-0xFFFE.
 */
__rte_experimental
static inline bool
rte_ib_lid_is_multicast(uint16_t lid)
{
	return ib_lid_is_multicast(lid);
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   true when @p lid is the permissive LID 0xFFFF.
 */
__rte_experimental
static inline bool
rte_ib_lid_is_permissive(uint16_t lid)
{
	return ib_lid_is_permissive(lid);
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Base LID of a port: a port with LID Mask Control @p lmc answers the
 * 2^lmc LIDs that differ from its base LID only in the low @p lmc bits
 * (IBA 7.11.1).
 *
 * @param lid
 *   Any LID of the port, host order.
 * @param lmc
 *   LMC, 0..RTE_IB_LMC_MAX; larger values are treated as RTE_IB_LMC_MAX.
 * @return
 *   @p lid with its low @p lmc bits cleared.
 */
__rte_experimental
static inline uint16_t
rte_ib_lid_base(uint16_t lid, unsigned int lmc)
{
	if (lmc > RTE_IB_LMC_MAX)
		lmc = RTE_IB_LMC_MAX;
	return (uint16_t)(lid & ~((1u << lmc) - 1));
}

/*
 * Partition keys (IBA 10.9).
 */

/** Membership bit of a P_Key: set for full, clear for limited members. */
#define RTE_IB_PKEY_FULL_MEMBER  0x8000
/** The 15-bit partition number of a P_Key. */
#define RTE_IB_PKEY_BASE_MASK    0x7fff
/** Default partition, full membership (IBA 10.9.1.2). */
#define RTE_IB_PKEY_DEFAULT      0xffff
/** Default partition, limited membership. */
#define RTE_IB_PKEY_DEFAULT_LIMITED 0x7fff
/** The invalid P_Key (base 0, IBA 10.9.1.2). */
#define RTE_IB_PKEY_INVALID      0x0000

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   The 15-bit partition number of @p pkey (host order).
 */
__rte_experimental
static inline uint16_t
rte_ib_pkey_base(uint16_t pkey)
{
	return pkey & RTE_IB_PKEY_BASE_MASK;
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   true when @p pkey carries the full-membership bit.
 */
__rte_experimental
static inline bool
rte_ib_pkey_is_full_member(uint16_t pkey)
{
	return (pkey & RTE_IB_PKEY_FULL_MEMBER) != 0;
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   false for a P_Key whose 15-bit base is 0 (0x0000 or 0x8000): the
 *   invalid P_Key, which matches nothing (IBA 10.9.1.2).
 */
__rte_experimental
static inline bool
rte_ib_pkey_is_valid(uint16_t pkey)
{
	return rte_ib_pkey_base(pkey) != 0;
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The partition key matching rule (IBA 10.9.3): two P_Keys match when
 * their 15-bit bases are equal and not the invalid value 0, and at least
 * one of the two is a full member; two limited members may not talk to
 * each other.
 *
 * @param a
 *   P_Key of one side (for example the packet's BTH:P_Key), host order.
 * @param b
 *   P_Key of the other side (for example a P_Key table entry).
 * @return
 *   true when @p a and @p b match.
 */
__rte_experimental
static inline bool
rte_ib_pkey_match(uint16_t a, uint16_t b)
{
	if (!rte_ib_pkey_is_valid(a))
		return false;
	if (rte_ib_pkey_base(a) != rte_ib_pkey_base(b))
		return false;
	return rte_ib_pkey_is_full_member(a) || rte_ib_pkey_is_full_member(b);
}

/*
 * Q_Keys (IBA 10.2.4).
 */

/** Q_Keys with the MSB set are controlled: only privileged senders. */
#define RTE_IB_QKEY_CONTROLLED   UINT32_C(0x80000000)
/** Well-known Q_Key of QP1, the GSI (IBA 10.2.4, Q_Keys). */
#define RTE_IB_QP1_QKEY          IB_QP1_QKEY

/*
 * Encodings shared by PortInfo and the SA records.
 */

/** MTU codes (IBA 14.2.5.6, PortInfo:NeighborMTU; PathRecord:MTU). */
enum rte_ib_mtu {
	RTE_IB_MTU_256 = 1,
	RTE_IB_MTU_512 = 2,
	RTE_IB_MTU_1024 = 3,
	RTE_IB_MTU_2048 = 4,
	RTE_IB_MTU_4096 = 5,
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   The MTU in bytes for code @p mtu, or 0 for a code that is not an MTU.
 */
__rte_experimental
static inline unsigned int
rte_ib_mtu_to_bytes(unsigned int mtu)
{
	if (mtu < RTE_IB_MTU_256 || mtu > RTE_IB_MTU_4096)
		return 0;
	return 128u << mtu;
}

/** Static rate codes (IBA 15.2.5.16, PathRecord:Rate). */
enum rte_ib_rate {
	RTE_IB_RATE_2_5_GBPS = 2,
	RTE_IB_RATE_10_GBPS = 3,
	RTE_IB_RATE_30_GBPS = 4,
	RTE_IB_RATE_5_GBPS = 5,
	RTE_IB_RATE_20_GBPS = 6,
	RTE_IB_RATE_40_GBPS = 7,
	RTE_IB_RATE_60_GBPS = 8,
	RTE_IB_RATE_80_GBPS = 9,
	RTE_IB_RATE_120_GBPS = 10,
};

/*
 * Global Route Header (IBA 8.3).
 */

/** Length of the GRH in bytes (IBA 8.3.1). */
#define RTE_IB_GRH_LEN 40
/** IPVer of an IBA GRH (IBA 8.3.1): 6, as IPv6. */
#define RTE_IB_GRH_IPVER 6
/** NxtHdr of a GRH followed by an IBA transport header (IBA 8.3.1). */
#define RTE_IB_GRH_NEXT_HDR_IBA 0x1b

/**
 * The Global Route Header (IBA 8.3.1, figure "GRH"), big-endian.
 */
struct rte_ib_grh {
	/** Bytes 0-3: [31:28] IPVer, [27:20] TClass, [19:0] FlowLabel. */
	rte_be32_t version_tclass_flow;
	rte_be16_t paylen;         /**< Bytes 4-5: PayLen. */
	uint8_t next_hdr;          /**< Byte 6: NxtHdr. */
	uint8_t hop_limit;         /**< Byte 7: HopLmt. */
	struct rte_ib_gid sgid;    /**< Bytes 8-23: SGID. */
	struct rte_ib_gid dgid;    /**< Bytes 24-39: DGID. */
};

static_assert(sizeof(struct rte_ib_grh) == RTE_IB_GRH_LEN,
	      "GRH is 40 bytes (IBA 8.3.1)");

/*
 * MADs (IBA 13.4).
 */

/** Every MAD is 256 bytes (IBA 13.4.1). */
#define RTE_IB_MAD_SIZE          IB_MAD_SIZE
/** MAD BaseVersion of IBA 1.x (IBA 13.4.2). */
#define RTE_IB_MAD_BASE_VERSION  1

/** Management classes (IBA 13.4.4). */
#define RTE_IB_MGMT_CLASS_SUBN_LID_ROUTED     IB_MGMT_CLASS_SMI
#define RTE_IB_MGMT_CLASS_SUBN_ADM            IB_MGMT_CLASS_SA
#define RTE_IB_MGMT_CLASS_PERF_MGMT           IB_MGMT_CLASS_PERF
#define RTE_IB_MGMT_CLASS_BM                  0x05
#define RTE_IB_MGMT_CLASS_DEVICE_MGMT         0x06
#define RTE_IB_MGMT_CLASS_CM                  0x07
#define RTE_IB_MGMT_CLASS_SNMP                0x08
#define RTE_IB_MGMT_CLASS_VENDOR_RANGE1_START 0x09
#define RTE_IB_MGMT_CLASS_VENDOR_RANGE1_END   0x0f
#define RTE_IB_MGMT_CLASS_VENDOR_RANGE2_START 0x30
#define RTE_IB_MGMT_CLASS_VENDOR_RANGE2_END   0x4f
#define RTE_IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE IB_MGMT_CLASS_SMI_DR

/** ClassVersion of the SM classes, the PMA and the SA (IBA 13.4.2). */
#define RTE_IB_SMP_CLASS_VERSION 1
#define RTE_IB_PMA_CLASS_VERSION 1
#define RTE_IB_SA_CLASS_VERSION  2

/** Methods (IBA 13.4.5); the R bit marks a response. */
#define RTE_IB_METHOD_RESP            IB_MAD_METHOD_RESP
#define RTE_IB_METHOD_GET             0x01
#define RTE_IB_METHOD_SET             0x02
#define RTE_IB_METHOD_SEND            0x03
#define RTE_IB_METHOD_TRAP            0x05
#define RTE_IB_METHOD_REPORT          0x06
#define RTE_IB_METHOD_TRAP_REPRESS    IB_MAD_METHOD_TRAP_REPRESS
#define RTE_IB_METHOD_GET_RESP        0x81
#define RTE_IB_METHOD_REPORT_RESP     0x86
/** SA methods (IBA 15.2.2, table "SA methods"). */
#define RTE_IB_SA_METHOD_GET_TABLE        0x12
#define RTE_IB_SA_METHOD_GET_TRACE_TABLE  0x13
#define RTE_IB_SA_METHOD_GET_MULTI        0x14
#define RTE_IB_SA_METHOD_DELETE           0x15
#define RTE_IB_SA_METHOD_GET_TABLE_RESP   0x92
#define RTE_IB_SA_METHOD_GET_MULTI_RESP   0x94
#define RTE_IB_SA_METHOD_DELETE_RESP      0x95

/**
 * MAD Status bits (IBA 13.4.7): bit 0 busy, bit 1 redirect, bits 2-4 the
 * invalid-field code, bits 8-15 class specific.
 */
#define RTE_IB_MAD_STATUS_BUSY                 0x0001
#define RTE_IB_MAD_STATUS_REDIRECT             0x0002
#define RTE_IB_MAD_STATUS_BAD_VERSION          0x0004
#define RTE_IB_MAD_STATUS_METHOD_UNSUPPORTED   0x0008
#define RTE_IB_MAD_STATUS_METHOD_ATTR_UNSUPPORTED 0x000c
#define RTE_IB_MAD_STATUS_INVALID_FIELD        0x001c
/** Mask of the invalid-field code (bits 2-4). */
#define RTE_IB_MAD_STATUS_INVALID_FIELD_MASK   0x001c
/** SA class-specific status codes (IBA 15.2.1.1, table "SA MAD status"). */
#define RTE_IB_SA_STATUS_NO_RESOURCES          0x0100
#define RTE_IB_SA_STATUS_REQ_INVALID           0x0200
#define RTE_IB_SA_STATUS_NO_RECORDS            0x0300
#define RTE_IB_SA_STATUS_TOO_MANY_RECORDS      0x0400
#define RTE_IB_SA_STATUS_REQ_INVALID_GID       0x0500
#define RTE_IB_SA_STATUS_REQ_INSUFFICIENT_COMPONENTS 0x0600
#define RTE_IB_SA_STATUS_REQ_DENIED            0x0700

/** Attribute IDs common to all classes (IBA 13.4.8). */
#define RTE_IB_ATTR_CLASS_PORT_INFO            0x0001
#define RTE_IB_ATTR_NOTICE                     0x0002
#define RTE_IB_ATTR_INFORM_INFO                0x0003
/** Subnet management attribute IDs (IBA 14.2.5, table "SM attributes"). */
#define RTE_IB_SMP_ATTR_NODE_DESC              0x0010
#define RTE_IB_SMP_ATTR_NODE_INFO              0x0011
#define RTE_IB_SMP_ATTR_SWITCH_INFO            0x0012
#define RTE_IB_SMP_ATTR_GUID_INFO              0x0014
#define RTE_IB_SMP_ATTR_PORT_INFO              0x0015
#define RTE_IB_SMP_ATTR_PKEY_TABLE             0x0016
#define RTE_IB_SMP_ATTR_SL_TO_VL_TABLE         0x0017
#define RTE_IB_SMP_ATTR_VL_ARB_TABLE           0x0018
#define RTE_IB_SMP_ATTR_LINEAR_FORWARD_TABLE   0x0019
#define RTE_IB_SMP_ATTR_RANDOM_FORWARD_TABLE   0x001a
#define RTE_IB_SMP_ATTR_MCAST_FORWARD_TABLE    0x001b
#define RTE_IB_SMP_ATTR_SM_INFO                0x0020
#define RTE_IB_SMP_ATTR_VENDOR_DIAG            0x0030
#define RTE_IB_SMP_ATTR_LED_INFO               0x0031
/** SA attribute IDs (IBA 15.2.5, table "SA attributes"). */
#define RTE_IB_SA_ATTR_NODE_REC                0x0011
#define RTE_IB_SA_ATTR_PORT_INFO_REC           0x0012
#define RTE_IB_SA_ATTR_SL_TO_VL_REC            0x0013
#define RTE_IB_SA_ATTR_SWITCH_INFO_REC         0x0014
#define RTE_IB_SA_ATTR_LINEAR_FDB_REC          0x0015
#define RTE_IB_SA_ATTR_RANDOM_FDB_REC          0x0016
#define RTE_IB_SA_ATTR_MCAST_FDB_REC           0x0017
#define RTE_IB_SA_ATTR_SM_INFO_REC             0x0018
#define RTE_IB_SA_ATTR_LINK_REC                0x0020
#define RTE_IB_SA_ATTR_GUID_INFO_REC           0x0030
#define RTE_IB_SA_ATTR_SERVICE_REC             0x0031
#define RTE_IB_SA_ATTR_PKEY_TABLE_REC          0x0033
#define RTE_IB_SA_ATTR_PATH_REC                0x0035
#define RTE_IB_SA_ATTR_VL_ARB_REC              0x0036
#define RTE_IB_SA_ATTR_MCMEMBER_REC            0x0038
#define RTE_IB_SA_ATTR_TRACE_REC               0x0039
#define RTE_IB_SA_ATTR_MULTI_PATH_REC          0x003a
#define RTE_IB_SA_ATTR_SERVICE_ASSOC_REC       0x003b
#define RTE_IB_SA_ATTR_INFORM_INFO_REC         0x00f3
/** Performance management attribute IDs (IBA 16.1.3). */
#define RTE_IB_PMA_ATTR_PORT_SAMPLES_CONTROL   0x0010
#define RTE_IB_PMA_ATTR_PORT_SAMPLES_RESULT    0x0011
#define RTE_IB_PMA_ATTR_PORT_COUNTERS          0x0012
#define RTE_IB_PMA_ATTR_PORT_COUNTERS_EXT      0x001d

/**
 * The MAD common header (IBA 13.4.2, figure "MAD base format"): the first
 * 24 bytes of every MAD, big-endian.
 */
struct rte_ib_mad_hdr {
	uint8_t base_version;      /**< Byte 0: BaseVersion, 1. */
	uint8_t mgmt_class;        /**< Byte 1: MgmtClass. */
	uint8_t class_version;     /**< Byte 2: ClassVersion. */
	uint8_t method;            /**< Byte 3: [7] R bit, [6:0] Method. */
	rte_be16_t status;         /**< Bytes 4-5: Status (13.4.7). */
	rte_be16_t class_specific; /**< Bytes 6-7: ClassSpecific. */
	rte_be64_t tid;            /**< Bytes 8-15: TransactionID. */
	rte_be16_t attr_id;        /**< Bytes 16-17: AttributeID. */
	rte_be16_t resv;           /**< Bytes 18-19: Reserved, 0. */
	rte_be32_t attr_mod;       /**< Bytes 20-23: AttributeModifier. */
};

static_assert(sizeof(struct rte_ib_mad_hdr) == 24,
	      "MAD common header is 24 bytes (IBA 13.4.2)");

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   true when the R bit of the MAD's Method is set (a response).
 */
__rte_experimental
static inline bool
rte_ib_mad_is_response(const struct rte_ib_mad_hdr *hdr)
{
	return (hdr->method & RTE_IB_METHOD_RESP) != 0;
}

/** RMPP flags (IBA 13.6.2.1, RMPPFlags). */
#define RTE_IB_RMPP_FLAG_ACTIVE  0x01
#define RTE_IB_RMPP_FLAG_FIRST   0x02
#define RTE_IB_RMPP_FLAG_LAST    0x04

/**
 * The RMPP header (IBA 13.6.2.1), bytes 24-35 of an RMPP-capable MAD such
 * as an SA MAD.
 */
struct rte_ib_rmpp_hdr {
	uint8_t rmpp_version;     /**< Byte 24: RMPPVersion (1). */
	uint8_t rmpp_type;        /**< Byte 25: RMPPType. */
	uint8_t rmpp_rtime_flags; /**< Byte 26: [7:3] RRespTime, [2:0] flags. */
	uint8_t rmpp_status;      /**< Byte 27: RMPPStatus. */
	rte_be32_t data1;         /**< Bytes 28-31: SegmentNumber. */
	rte_be32_t data2;         /**< Bytes 32-35: PayloadLength/NewWindowLast. */
};

static_assert(sizeof(struct rte_ib_rmpp_hdr) == 12,
	      "RMPP header is 12 bytes (IBA 13.6.2.1)");

/**
 * The SA header (IBA 15.2.1.1, figure "SA MAD format"), bytes 36-55 of an
 * SA MAD. Packed: SM_Key and ComponentMask are not 8-byte aligned within
 * the MAD.
 */
struct rte_ib_sa_hdr {
	rte_be64_t sm_key;      /**< Bytes 36-43: SM_Key. */
	rte_be16_t attr_offset; /**< Bytes 44-45: AttributeOffset, in 8-byte units. */
	rte_be16_t resv;        /**< Bytes 46-47: Reserved, 0. */
	rte_be64_t comp_mask;   /**< Bytes 48-55: ComponentMask. */
} __rte_packed;

static_assert(sizeof(struct rte_ib_sa_hdr) == 20,
	      "SA header is 20 bytes (IBA 15.2.1.1)");

/** Offset of the SA data in an SA MAD (IBA 15.2.1.1). */
#define RTE_IB_SA_DATA_OFFSET 56
/** Size of the SA data of one SA MAD. */
#define RTE_IB_SA_DATA_SIZE   (RTE_IB_MAD_SIZE - RTE_IB_SA_DATA_OFFSET)

/**
 * A whole SA MAD (IBA 15.2.1.1): 256 bytes. Not packed itself (so
 * &mad->mad_hdr is an aligned pointer); the packed SA header makes the
 * natural layout match the wire, as the offset checks below confirm.
 */
struct rte_ib_sa_mad {
	struct rte_ib_mad_hdr mad_hdr;   /**< Bytes 0-23. */
	struct rte_ib_rmpp_hdr rmpp_hdr; /**< Bytes 24-35. */
	struct rte_ib_sa_hdr sa_hdr;     /**< Bytes 36-55. */
	uint8_t data[RTE_IB_SA_DATA_SIZE]; /**< Bytes 56-255: the record(s). */
};

static_assert(sizeof(struct rte_ib_sa_mad) == RTE_IB_MAD_SIZE,
	      "SA MAD is 256 bytes");
static_assert(offsetof(struct rte_ib_sa_mad, sa_hdr) == 36,
	      "SA header starts at byte 36");
static_assert(offsetof(struct rte_ib_sa_mad, data) == RTE_IB_SA_DATA_OFFSET,
	      "SA data starts at byte 56");

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * SA AttributeOffset for records of @p record_size bytes: the distance
 * between consecutive records of a GetTable response, in 8-byte words
 * (IBA 15.2.1.1), so records are padded to a multiple of 8 bytes.
 */
__rte_experimental
static inline uint16_t
rte_ib_sa_attr_offset(size_t record_size)
{
	return (uint16_t)((record_size + 7) / 8);
}

/*
 * Component masks (IBA 15.2.1.1, 15.2.5): bit n of ComponentMask selects
 * the n-th component of a record, in the order of the record's table.
 * In host code masks are uint64_t in host order; in struct rte_ib_sa_hdr
 * they are big-endian.
 */

/** ComponentMask bit of component @p n. */
#define RTE_IB_SA_COMP_MASK(n) (UINT64_C(1) << (n))

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   true when every bit of @p components is set in @p mask.
 */
__rte_experimental
static inline bool
rte_ib_sa_comp_mask_has(uint64_t mask, uint64_t components)
{
	return (mask & components) == components;
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   The ComponentMask of @p hdr, host order.
 */
__rte_experimental
static inline uint64_t
rte_ib_sa_hdr_comp_mask(const struct rte_ib_sa_hdr *hdr)
{
	return rte_be_to_cpu_64(hdr->comp_mask);
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Store @p mask (host order) as the ComponentMask of @p hdr.
 */
__rte_experimental
static inline void
rte_ib_sa_hdr_set_comp_mask(struct rte_ib_sa_hdr *hdr, uint64_t mask)
{
	hdr->comp_mask = rte_cpu_to_be_64(mask);
}

#ifdef __cplusplus
}
#endif

#endif /* _RTE_IB_TYPES_H_ */
