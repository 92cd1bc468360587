/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * MAD wire layouts used inside ibfabric, private to app/ibfabric/.
 *
 * Offsets are byte offsets from the first byte of the 256-byte MAD (IBA
 * vol. 1 13.4.2 common header; 14.2.1.1 LID-routed SMP; 14.2.1.2
 * directed-route SMP; 16.1.1 PMA), or, for attribute fields, from the
 * first byte of the attribute data (MAD_SMP_DATA / MAD_GMP_DATA). All
 * fields are big-endian on the wire; every access goes through the
 * mad_get*() / mad_set*() helpers below, so no .c file byte-swaps.
 *
 * Sub-byte fields are given as (byte offset, shift, width) where shift
 * counts from the least significant bit of that byte; the spec's
 * figures number bits from the most significant bit of a 32-bit word,
 * so e.g. PortInfo PortState (word 8, bits 3:0 of byte 32) is
 * MAD_PI_PORT_STATE = 32, shift 0, width 4.
 */

#ifndef _IBFABRIC_MAD_H_
#define _IBFABRIC_MAD_H_

#include <stdint.h>
#include <string.h>

#include "ib_proto.h"

/* ------------------------------------------------------------------ */
/* Big-endian accessors                                                */

static inline uint8_t
mad_get8(const uint8_t *b, unsigned int off)
{
	return b[off];
}

static inline uint16_t
mad_get16(const uint8_t *b, unsigned int off)
{
	return (uint16_t)((b[off] << 8) | b[off + 1]);
}

/** 24-bit field (VendorID, QPN, LinkRoundTripLatency). */
static inline uint32_t
mad_get24(const uint8_t *b, unsigned int off)
{
	return ((uint32_t)b[off] << 16) | ((uint32_t)b[off + 1] << 8) | b[off + 2];
}

static inline uint32_t
mad_get32(const uint8_t *b, unsigned int off)
{
	return ((uint32_t)b[off] << 24) | ((uint32_t)b[off + 1] << 16) |
	       ((uint32_t)b[off + 2] << 8) | b[off + 3];
}

static inline uint64_t
mad_get64(const uint8_t *b, unsigned int off)
{
	return ((uint64_t)mad_get32(b, off) << 32) | mad_get32(b, off + 4);
}

static inline void
mad_set8(uint8_t *b, unsigned int off, uint8_t v)
{
	b[off] = v;
}

static inline void
mad_set16(uint8_t *b, unsigned int off, uint16_t v)
{
	b[off] = (uint8_t)(v >> 8);
	b[off + 1] = (uint8_t)v;
}

static inline void
mad_set24(uint8_t *b, unsigned int off, uint32_t v)
{
	b[off] = (uint8_t)(v >> 16);
	b[off + 1] = (uint8_t)(v >> 8);
	b[off + 2] = (uint8_t)v;
}

static inline void
mad_set32(uint8_t *b, unsigned int off, uint32_t v)
{
	b[off] = (uint8_t)(v >> 24);
	b[off + 1] = (uint8_t)(v >> 16);
	b[off + 2] = (uint8_t)(v >> 8);
	b[off + 3] = (uint8_t)v;
}

static inline void
mad_set64(uint8_t *b, unsigned int off, uint64_t v)
{
	mad_set32(b, off, (uint32_t)(v >> 32));
	mad_set32(b, off + 4, (uint32_t)v);
}

/** Read @p width bits at @p shift (from the LSB) of byte @p off. */
static inline uint8_t
mad_getbits(const uint8_t *b, unsigned int off, unsigned int shift,
	    unsigned int width)
{
	return (uint8_t)((b[off] >> shift) & ((1u << width) - 1));
}

/** Write @p v into @p width bits at @p shift of byte @p off; other bits kept. */
static inline void
mad_setbits(uint8_t *b, unsigned int off, unsigned int shift,
	    unsigned int width, unsigned int v)
{
	uint8_t mask = (uint8_t)(((1u << width) - 1) << shift);

	b[off] = (uint8_t)((b[off] & ~mask) | ((v << shift) & mask));
}

/* ------------------------------------------------------------------ */
/* MAD common header, IBA 13.4.2 (figure 146)                          */

#define MAD_SIZE		IB_MAD_SIZE
#define MAD_BASE_VERSION	0	/**< 8 bits, always 1 */
#define MAD_MGMT_CLASS		1
#define MAD_CLASS_VERSION	2
#define MAD_METHOD		3	/**< bit 7 = R (response), bits 6:0 method */
#define MAD_STATUS		4	/**< 16 bits, 13.4.7 */
#define MAD_CLASS_SPECIFIC	6	/**< 16 bits; DR SMP: HopPointer, HopCount */
#define MAD_TID			8	/**< 64 bits */
#define MAD_ATTR_ID		16	/**< 16 bits */
#define MAD_ATTR_MOD		20	/**< 32 bits */
#define MAD_HDR_SIZE		24

#define MAD_BASE_VERSION_1	1

/* Management classes, IBA 13.4.4 table 113 */
#define MAD_CLASS_SMI		IB_MGMT_CLASS_SMI	/**< LID-routed SMP */
#define MAD_CLASS_SA		IB_MGMT_CLASS_SA
#define MAD_CLASS_PERF		IB_MGMT_CLASS_PERF
#define MAD_CLASS_SMI_DR	IB_MGMT_CLASS_SMI_DR	/**< directed-route SMP */

#define MAD_SMP_CLASS_VERSION	1
#define MAD_PERF_CLASS_VERSION	1

/* Methods, IBA 13.4.5 table 114 */
#define MAD_METHOD_GET		0x01
#define MAD_METHOD_SET		0x02
#define MAD_METHOD_SEND		0x03
#define MAD_METHOD_TRAP		0x05
#define MAD_METHOD_REPORT	0x06
#define MAD_METHOD_TRAP_REPRESS	0x07
#define MAD_METHOD_RESP		0x80	/**< R bit */
#define MAD_METHOD_GET_RESP	0x81

/*
 * Status, IBA 13.4.7 table 115: bit 0 busy, bit 1 redirect, bits 4:2 the
 * code, bits 14:8 class specific. Values below are the whole 16-bit field.
 */
#define MAD_STATUS_OK			0x0000
#define MAD_STATUS_BUSY			0x0001
#define MAD_STATUS_REDIRECT		0x0002
#define MAD_STATUS_BAD_VERSION		0x0004	/**< code 1 */
#define MAD_STATUS_UNSUP_METHOD		0x0008	/**< code 2 */
#define MAD_STATUS_UNSUP_METHOD_ATTR	0x000c	/**< code 3 */
#define MAD_STATUS_INVALID_FIELD	0x001c	/**< code 7: attribute or modifier value */
/** DR SMP: D bit (direction, 1 = returning), status bit 15, IBA 14.2.1.2. */
#define MAD_STATUS_DR_D			0x8000

/* ------------------------------------------------------------------ */
/* SMPs, IBA 14.2.1                                                    */

/* LID-routed (class 0x01), 14.2.1.1 figure 157 */
#define MAD_SMP_MKEY		24	/**< 64 bits, both forms */
#define MAD_SMP_DATA		64	/**< 64 bytes of attribute, both forms */
#define MAD_SMP_DATA_SIZE	64

/* Directed route (class 0x81), 14.2.1.2 figure 158 */
#define MAD_DR_HOP_PTR		6	/**< 8 bits */
#define MAD_DR_HOP_CNT		7	/**< 8 bits */
#define MAD_DR_SLID		32	/**< DrSLID, 16 bits */
#define MAD_DR_DLID		34	/**< DrDLID, 16 bits */
#define MAD_DR_INITIAL_PATH	128	/**< 64 bytes, [0] unused */
#define MAD_DR_RETURN_PATH	192	/**< 64 bytes, [0] unused */
#define MAD_DR_PATH_SIZE	64

/* SMP attribute IDs, IBA 14.2.5 table 145 */
#define SMP_ATTR_NOTICE		0x0002
#define SMP_ATTR_NODE_DESC	0x0010
#define SMP_ATTR_NODE_INFO	0x0011
#define SMP_ATTR_SWITCH_INFO	0x0012
#define SMP_ATTR_GUID_INFO	0x0014
#define SMP_ATTR_PORT_INFO	0x0015
#define SMP_ATTR_PKEY_TABLE	0x0016
#define SMP_ATTR_SL2VL_TABLE	0x0017
#define SMP_ATTR_VLARB_TABLE	0x0018
#define SMP_ATTR_LFT		0x0019
#define SMP_ATTR_RFT		0x001a
#define SMP_ATTR_MFT		0x001b
#define SMP_ATTR_SM_INFO	0x0020
#define SMP_ATTR_VENDOR_DIAG	0x0030
#define SMP_ATTR_LED_INFO	0x0031

/* NodeInfo, 14.2.5.3 table 148 (offsets in the attribute data) */
#define NI_BASE_VERSION		0
#define NI_CLASS_VERSION	1
#define NI_NODE_TYPE		2
#define NI_NUM_PORTS		3
#define NI_SYS_GUID		4	/**< 64 */
#define NI_NODE_GUID		12	/**< 64 */
#define NI_PORT_GUID		20	/**< 64 */
#define NI_PARTITION_CAP	28	/**< 16 */
#define NI_DEVICE_ID		30	/**< 16 */
#define NI_REVISION		32	/**< 32 */
#define NI_LOCAL_PORT		36	/**< 8 */
#define NI_VENDOR_ID		37	/**< 24 */

/* SwitchInfo, 14.2.5.4 table 149 */
#define SI_LFT_CAP		0	/**< LinearFDBCap, 16 */
#define SI_RFT_CAP		2	/**< RandomFDBCap, 16 */
#define SI_MFT_CAP		4	/**< MulticastFDBCap, 16 */
#define SI_LFT_TOP		6	/**< LinearFDBTop, 16 */
#define SI_DEFAULT_PORT		8
#define SI_DEFAULT_MCAST_PRIMARY 9
#define SI_DEFAULT_MCAST_NOT_PRIMARY 10
#define SI_FLAGS_11		11	/**< LifeTimeValue 7:3, PortStateChange 2, OptSL2VL 1:0 */
#define SI_LIFE_TIME_SHIFT	3
#define SI_LIFE_TIME_WIDTH	5
#define SI_PORT_STATE_CHANGE_SHIFT 2
#define SI_LIDS_PER_PORT	12	/**< 16 */
#define SI_PARTITION_ENF_CAP	14	/**< 16 */
/** InboundEnfCap 7, OutboundEnfCap 6, FilterRawIn 5, FilterRawOut 4, EnhancedPort0 3 */
#define SI_FLAGS_16		16
#define SI_ENHANCED_PORT0_SHIFT	3
#define SI_MFT_TOP		18	/**< MulticastFDBTop, 16 (1.2.1) */

/* GUIDInfo, 14.2.5.5: 8 GUIDs per block, modifier = block */
#define GUID_INFO_PER_BLOCK	8

/* PortInfo, 14.2.5.6 table 151 */
#define PI_MKEY			0	/**< 64 */
#define PI_GID_PREFIX		8	/**< 64 */
#define PI_LID			16	/**< 16 */
#define PI_SM_LID		18	/**< MasterSMLID, 16 */
#define PI_CAP_MASK		20	/**< 32 */
#define PI_DIAG_CODE		24	/**< 16 */
#define PI_MKEY_LEASE		26	/**< 16 */
#define PI_LOCAL_PORT		28	/**< 8 */
#define PI_LINK_WIDTH_ENABLED	29
#define PI_LINK_WIDTH_SUPPORTED	30
#define PI_LINK_WIDTH_ACTIVE	31
#define PI_B32			32	/**< LinkSpeedSupported 7:4, PortState 3:0 */
#define PI_B33			33	/**< PortPhysicalState 7:4, LinkDownDefaultState 3:0 */
#define PI_B34			34	/**< M_KeyProtectBits 7:6, LMC 2:0 */
#define PI_B35			35	/**< LinkSpeedActive 7:4, LinkSpeedEnabled 3:0 */
#define PI_B36			36	/**< NeighborMTU 7:4, MasterSMSL 3:0 */
#define PI_B37			37	/**< VLCap 7:4, InitType 3:0 */
#define PI_VL_HIGH_LIMIT	38
#define PI_VLARB_HIGH_CAP	39
#define PI_VLARB_LOW_CAP	40
#define PI_B41			41	/**< InitTypeReply 7:4, MTUCap 3:0 */
#define PI_B42			42	/**< VLStallCount 7:5, HOQLife 4:0 */
/** OperationalVLs 7:4, PartEnfIn 3, PartEnfOut 2, FilterRawIn 1, FilterRawOut 0 */
#define PI_B43			43
#define PI_MKEY_VIOLATIONS	44	/**< 16 */
#define PI_PKEY_VIOLATIONS	46	/**< 16 */
#define PI_QKEY_VIOLATIONS	48	/**< 16 */
#define PI_GUID_CAP		50
#define PI_B51			51	/**< ClientReregister 7, McastPKeyTrapSupp 6:5, SubnetTimeOut 4:0 */
#define PI_B52			52	/**< RespTimeValue 4:0 */
#define PI_B53			53	/**< LocalPhyErrors 7:4, OverrunErrors 3:0 */
#define PI_MAX_CREDIT_HINT	54	/**< 16 */
/** bit 7 reserved, LinkSpeedExtActive2 6:5, Supported2 4:3, Enabled2 2:0 (XDR) */
#define PI_B56			56
#define PI_LINK_RTT		57	/**< LinkRoundTripLatency, 24 */
#define PI_CAP_MASK2		60	/**< 16 */
#define PI_B62			62	/**< LinkSpeedExtActive 7:4, LinkSpeedExtSupported 3:0 */
#define PI_B63			63	/**< reserved 7:5, LinkSpeedExtEnabled 4:0 */

/* LinkSpeedExtEnabled values with a meaning of their own (14.2.5.6) */
#define PI_SPEED_EXT_DISABLE		30	/**< no extended speed */
#define PI_SPEED_EXT_SET_SUPPORTED	31	/**< enable all supported */

/* PortInfo CapabilityMask bits, 14.2.5.6 table 152 */
#define PI_CAP_IS_SM			(1u << 1)
#define PI_CAP_IS_NOTICE_SUP		(1u << 2)
#define PI_CAP_IS_TRAP_SUP		(1u << 3)
#define PI_CAP_IS_OPT_IPD_SUP		(1u << 4)
#define PI_CAP_IS_AUTO_MIGR_SUP		(1u << 5)
#define PI_CAP_IS_SL_MAP_SUP		(1u << 6)
#define PI_CAP_IS_MKEY_NVRAM		(1u << 7)
#define PI_CAP_IS_PKEY_NVRAM		(1u << 8)
#define PI_CAP_IS_LED_INFO_SUP		(1u << 9)
#define PI_CAP_IS_SM_DISABLED		(1u << 10)
#define PI_CAP_IS_SYS_IMAGE_GUID_SUP	(1u << 11)
#define PI_CAP_IS_PKEY_SW_EXT_PORT_TRAP_SUP (1u << 12)
#define PI_CAP_IS_EXT_SPEEDS_SUP	(1u << 14)	/**< LinkSpeedExt* valid */
#define PI_CAP_HAS_CAP_MASK2		(1u << 15)	/**< CapabilityMask2 valid */
#define PI_CAP_IS_COMM_MGT_SUP		(1u << 16)
#define PI_CAP_IS_SNMP_TUNNEL_SUP	(1u << 17)
#define PI_CAP_IS_REINIT_SUP		(1u << 18)
#define PI_CAP_IS_DEVICE_MGT_SUP	(1u << 19)
#define PI_CAP_IS_VENDOR_CLASS_SUP	(1u << 20)
#define PI_CAP_IS_DR_NOTICE_SUP		(1u << 21)
#define PI_CAP_IS_CAP_MASK_NOTICE_SUP	(1u << 22)
#define PI_CAP_IS_BOOT_MGT_SUP		(1u << 23)
#define PI_CAP_IS_LINK_RTT_SUP		(1u << 24)
#define PI_CAP_IS_CLIENT_REREG_SUP	(1u << 25)

/* PortInfo CapabilityMask2 bits (IBA 1.4+; libibmad iba_types.h) */
#define PI_CAP2_IS_EXT_SPEEDS_2_SUP	(1u << 11)	/**< LinkSpeedExt*2 (XDR) valid */

/*
 * MlnxExtPortInfo, Mellanox vendor SMP attribute 0xff90 (rdma-core
 * libibmad fields.c, IB_MLNX_EXT_PORT_*): how a ConnectX-3 or SwitchX
 * port reports FDR10, which PortInfo cannot express.
 */
#define SMP_ATTR_MLNX_EXT_PORT_INFO	0xff90
#define MEPI_STATE_CHANGE_ENABLE	3	/**< 8 */
#define MEPI_LINK_SPEED_SUPPORTED	7	/**< 8, bit 0 FDR10 */
#define MEPI_LINK_SPEED_ENABLED		11	/**< 8 */
#define MEPI_LINK_SPEED_ACTIVE		15	/**< 8 */
#define MEPI_SPEED_FDR10		1

/* P_KeyTable, 14.2.5.7: 32 P_Keys per block */
#define PKEY_PER_BLOCK		32
/* SLtoVLMappingTable, 14.2.5.8: 16 SLs, 4 bits each, SL0 in the high nibble of byte 0 */
#define SL2VL_SIZE		8
/* VLArbitrationTable, 14.2.5.9: 32 entries {VL 3:0 of byte 0, Weight byte 1} */
#define VLARB_PER_BLOCK		32
/* LinearForwardingTable, 14.2.5.10: 64 ports per block */
#define LFT_PER_BLOCK		64
/* MulticastForwardingTable, 14.2.5.12: 32 16-bit port masks per block */
#define MFT_PER_BLOCK		32
#define MFT_POSITION_SHIFT	28	/**< modifier 31:28 = PortMask position */
#define MFT_BLOCK_MASK		0x1ffu	/**< modifier 8:0 = block */

/* Notice, IBA 13.4.8.2 table 122 (SMP form: the first 64 bytes) */
#define NTC_B0			0	/**< IsGeneric 7, Type 6:0 */
#define NTC_PRODUCER		1	/**< ProducerType (generic) / VendorID, 24 */
#define NTC_TRAP_NUM		4	/**< TrapNumber (generic) / DeviceID, 16 */
#define NTC_ISSUER_LID		6	/**< 16 */
#define NTC_TOGGLE_COUNT	8	/**< NoticeToggle 15, NoticeCount 14:0 */
#define NTC_DETAILS		10	/**< DataDetails, 54 bytes */
#define NTC_DETAILS_SIZE	54

#define NTC_IS_GENERIC		0x80
#define NTC_TYPE_FATAL		0
#define NTC_TYPE_URGENT		1
#define NTC_TYPE_SECURITY	2
#define NTC_TYPE_SM		3
#define NTC_TYPE_INFO		4
#define NTC_PROD_CA		1
#define NTC_PROD_SWITCH		2
#define NTC_PROD_ROUTER		3
#define NTC_PROD_CLASS_MGR	4

/* ------------------------------------------------------------------ */
/* GMPs and the PMA, IBA 13.4.3 / 16.1                                 */

#define MAD_GMP_DATA		64	/**< PMA: 40 reserved bytes after the header */
#define MAD_GMP_DATA_SIZE	192

/* Common attributes, 13.4.8 */
#define MAD_ATTR_CLASS_PORT_INFO 0x0001

/* ClassPortInfo, 13.4.8.1 table 120 */
#define CPI_BASE_VERSION	0
#define CPI_CLASS_VERSION	1
#define CPI_CAP_MASK		2	/**< 16 */
#define CPI_CAP_MASK2_RESP_TIME	4	/**< CapabilityMask2 31:5, RespTimeValue 4:0 */
#define CPI_SIZE		72

/* PerfMgt attribute IDs, 16.1.2 table 224 */
#define PMA_ATTR_PORT_SAMPLES_CONTROL	0x0010
#define PMA_ATTR_PORT_SAMPLES_RESULT	0x0011
#define PMA_ATTR_PORT_COUNTERS		0x0012
#define PMA_ATTR_PORT_COUNTERS_EXT	0x001d

/* PMA ClassPortInfo CapabilityMask, 16.1.2 table 223 */
#define PMA_CAP_ALL_PORT_SELECT		(1u << 8)
#define PMA_CAP_PORT_COUNTERS_EXT	(1u << 9)	/**< PortCountersExtended */
#define PMA_CAP_XMIT_WAIT		(1u << 12)	/**< PortXmitWait in PortCounters */

#define PMA_ALL_PORTS		0xff	/**< PortSelect = every port (with AllPortSelect) */

/* PortCounters, 16.1.3.5 table 233 */
#define PC_PORT_SELECT		1
#define PC_COUNTER_SELECT	2	/**< 16 */
#define PC_SYMBOL_ERRORS	4	/**< 16 */
#define PC_LINK_ERR_RECOVERY	6	/**< 8 */
#define PC_LINK_DOWNED		7	/**< 8 */
#define PC_RCV_ERRORS		8	/**< 16 */
#define PC_RCV_REMOTE_PHYS	10	/**< 16 */
#define PC_RCV_SWITCH_RELAY	12	/**< 16 */
#define PC_XMIT_DISCARDS	14	/**< 16 */
#define PC_XMIT_CONSTRAINT	16	/**< 8 */
#define PC_RCV_CONSTRAINT	17	/**< 8 */
#define PC_COUNTER_SELECT2	18	/**< 8 */
#define PC_B19			19	/**< LocalLinkIntegrityErrors 7:4, ExcessiveBufferOverrun 3:0 */
#define PC_VL15_DROPPED		22	/**< 16 */
#define PC_XMIT_DATA		24	/**< 32 */
#define PC_RCV_DATA		28	/**< 32 */
#define PC_XMIT_PKTS		32	/**< 32 */
#define PC_RCV_PKTS		36	/**< 32 */
#define PC_XMIT_WAIT		40	/**< 32 */

/* PortCounters CounterSelect bits, 16.1.3.5 */
#define PC_SEL_SYMBOL_ERRORS		(1u << 0)
#define PC_SEL_LINK_ERR_RECOVERY	(1u << 1)
#define PC_SEL_LINK_DOWNED		(1u << 2)
#define PC_SEL_RCV_ERRORS		(1u << 3)
#define PC_SEL_RCV_REMOTE_PHYS		(1u << 4)
#define PC_SEL_RCV_SWITCH_RELAY		(1u << 5)
#define PC_SEL_XMIT_DISCARDS		(1u << 6)
#define PC_SEL_XMIT_CONSTRAINT		(1u << 7)
#define PC_SEL_RCV_CONSTRAINT		(1u << 8)
#define PC_SEL_LOCAL_LINK_INTEGRITY	(1u << 9)
#define PC_SEL_EXCESSIVE_BUF_OVERRUN	(1u << 10)
#define PC_SEL_VL15_DROPPED		(1u << 11)
#define PC_SEL_XMIT_DATA		(1u << 12)
#define PC_SEL_RCV_DATA			(1u << 13)
#define PC_SEL_XMIT_PKTS		(1u << 14)
#define PC_SEL_RCV_PKTS			(1u << 15)
/* CounterSelect2 bit 0 */
#define PC_SEL2_XMIT_WAIT		(1u << 0)

/* PortCountersExtended, 16.1.4.11 table 247 */
#define PCE_PORT_SELECT		1
#define PCE_COUNTER_SELECT	2	/**< 16 */
#define PCE_XMIT_DATA		8	/**< 64 each from here */
#define PCE_RCV_DATA		16
#define PCE_XMIT_PKTS		24
#define PCE_RCV_PKTS		32
#define PCE_UNICAST_XMIT_PKTS	40
#define PCE_UNICAST_RCV_PKTS	48
#define PCE_MCAST_XMIT_PKTS	56
#define PCE_MCAST_RCV_PKTS	64

/* PortCountersExtended CounterSelect bits */
#define PCE_SEL_XMIT_DATA	(1u << 0)
#define PCE_SEL_RCV_DATA	(1u << 1)
#define PCE_SEL_XMIT_PKTS	(1u << 2)
#define PCE_SEL_RCV_PKTS	(1u << 3)
#define PCE_SEL_UNICAST_XMIT	(1u << 4)
#define PCE_SEL_UNICAST_RCV	(1u << 5)
#define PCE_SEL_MCAST_XMIT	(1u << 6)
#define PCE_SEL_MCAST_RCV	(1u << 7)

/* ------------------------------------------------------------------ */
/* Header helpers                                                      */

static inline uint8_t
mad_method(const uint8_t *mad)
{
	return mad[MAD_METHOD];
}

static inline uint16_t
mad_attr_id(const uint8_t *mad)
{
	return mad_get16(mad, MAD_ATTR_ID);
}

static inline uint32_t
mad_attr_mod(const uint8_t *mad)
{
	return mad_get32(mad, MAD_ATTR_MOD);
}

static inline uint64_t
mad_tid(const uint8_t *mad)
{
	return mad_get64(mad, MAD_TID);
}

static inline int
mad_is_response(const uint8_t *mad)
{
	return (mad[MAD_METHOD] & MAD_METHOD_RESP) != 0;
}

/** DR SMP D bit (14.2.1.2): 0 outbound, 1 returning. */
static inline int
mad_dr_is_return(const uint8_t *mad)
{
	return (mad_get16(mad, MAD_STATUS) & MAD_STATUS_DR_D) != 0;
}

#endif /* _IBFABRIC_MAD_H_ */
