/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _RTE_IB_RECORDS_H_
#define _RTE_IB_RECORDS_H_

/**
 * @file
 * SA records in host form, their component masks, and their field
 * tables for the rte_ib_pack.h engine: NodeRecord (IBA 15.2.5.2),
 * PortInfoRecord (15.2.5.3), InformInfoRecord (15.2.5.12),
 * ServiceRecord (15.2.5.14), PathRecord (15.2.5.16) and MCMemberRecord
 * (15.2.5.17).
 *
 * Host structs follow the engine's rule: integers in host byte order,
 * GIDs in wire order (struct rte_ib_gid). Component-mask bits are named
 * RTE_IB_SA_<REC>_REC_<FIELD> after the struct member and numbered in
 * record order, as ComponentMask numbers a record's components (IBA
 * 15.2.1.1); a reserved component keeps its bit number but has no name.
 *
 * Everything here is reentrant; the layouts are const and shared.
 */

#include <stddef.h>
#include <stdint.h>

#include <rte_compat.h>

#include "rte_ib_attrs.h"
#include "rte_ib_pack.h"
#include "rte_ib_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Selector codes of MTU, Rate and PacketLifeTime (IBA 15.2.5.16). */
enum rte_ib_sa_selector {
	RTE_IB_SA_SELECTOR_GT = 0,      /**< Greater than the value. */
	RTE_IB_SA_SELECTOR_LT = 1,      /**< Less than the value. */
	RTE_IB_SA_SELECTOR_EQ = 2,      /**< Exactly the value. */
	RTE_IB_SA_SELECTOR_MAX = 3,     /**< Largest available. */
};

/*
 * PathRecord (IBA 15.2.5.16, table "PathRecord"), 64 bytes.
 */

/** Size of a PathRecord on the wire. */
#define RTE_IB_SA_PATH_REC_SIZE 64

/** A PathRecord in host form. */
struct rte_ib_sa_path_rec {
	uint64_t service_id;       /**< ServiceID (64 bits, words 0-1). */
	struct rte_ib_gid dgid;    /**< DGID. */
	struct rte_ib_gid sgid;    /**< SGID. */
	uint16_t dlid;             /**< DLID. */
	uint16_t slid;             /**< SLID. */
	uint8_t raw_traffic;       /**< RawTraffic (1 bit). */
	uint32_t flow_label;       /**< FlowLabel (20 bits). */
	uint8_t hop_limit;         /**< HopLimit. */
	uint8_t traffic_class;     /**< TClass. */
	uint8_t reversible;        /**< Reversible (1 bit). */
	uint8_t numb_path;         /**< NumbPath (7 bits). */
	uint16_t pkey;             /**< P_Key. */
	uint16_t qos_class;        /**< QoSClass (12 bits). */
	uint8_t sl;                /**< SL (4 bits). */
	uint8_t mtu_selector;      /**< MTUSelector (2 bits). */
	uint8_t mtu;               /**< MTU (6 bits, enum rte_ib_mtu). */
	uint8_t rate_selector;     /**< RateSelector (2 bits). */
	uint8_t rate;              /**< Rate (6 bits, enum rte_ib_rate). */
	uint8_t packet_life_time_selector; /**< PacketLifeTimeSelector. */
	uint8_t packet_life_time;  /**< PacketLifeTime (6 bits). */
	uint8_t preference;        /**< Preference. */
};

/*
 * PathRecord ComponentMask bits. ServiceID took over the two 32-bit
 * reserved components that began the record in IBA 1.1, so it owns
 * bits 0 and 1; bit 7 is the reserved field after RawTraffic.
 */
#define RTE_IB_SA_PATH_REC_SERVICE_ID \
	(RTE_IB_SA_COMP_MASK(0) | RTE_IB_SA_COMP_MASK(1))
#define RTE_IB_SA_PATH_REC_DGID                      RTE_IB_SA_COMP_MASK(2)
#define RTE_IB_SA_PATH_REC_SGID                      RTE_IB_SA_COMP_MASK(3)
#define RTE_IB_SA_PATH_REC_DLID                      RTE_IB_SA_COMP_MASK(4)
#define RTE_IB_SA_PATH_REC_SLID                      RTE_IB_SA_COMP_MASK(5)
#define RTE_IB_SA_PATH_REC_RAW_TRAFFIC               RTE_IB_SA_COMP_MASK(6)
/* bit 7: Reserved */
#define RTE_IB_SA_PATH_REC_FLOW_LABEL                RTE_IB_SA_COMP_MASK(8)
#define RTE_IB_SA_PATH_REC_HOP_LIMIT                 RTE_IB_SA_COMP_MASK(9)
#define RTE_IB_SA_PATH_REC_TRAFFIC_CLASS             RTE_IB_SA_COMP_MASK(10)
#define RTE_IB_SA_PATH_REC_REVERSIBLE                RTE_IB_SA_COMP_MASK(11)
#define RTE_IB_SA_PATH_REC_NUMB_PATH                 RTE_IB_SA_COMP_MASK(12)
#define RTE_IB_SA_PATH_REC_PKEY                      RTE_IB_SA_COMP_MASK(13)
#define RTE_IB_SA_PATH_REC_QOS_CLASS                 RTE_IB_SA_COMP_MASK(14)
#define RTE_IB_SA_PATH_REC_SL                        RTE_IB_SA_COMP_MASK(15)
#define RTE_IB_SA_PATH_REC_MTU_SELECTOR              RTE_IB_SA_COMP_MASK(16)
#define RTE_IB_SA_PATH_REC_MTU                       RTE_IB_SA_COMP_MASK(17)
#define RTE_IB_SA_PATH_REC_RATE_SELECTOR             RTE_IB_SA_COMP_MASK(18)
#define RTE_IB_SA_PATH_REC_RATE                      RTE_IB_SA_COMP_MASK(19)
#define RTE_IB_SA_PATH_REC_PACKET_LIFE_TIME_SELECTOR RTE_IB_SA_COMP_MASK(20)
#define RTE_IB_SA_PATH_REC_PACKET_LIFE_TIME          RTE_IB_SA_COMP_MASK(21)
#define RTE_IB_SA_PATH_REC_PREFERENCE                RTE_IB_SA_COMP_MASK(22)

/*
 * MCMemberRecord (IBA 15.2.5.17, table "MCMemberRecord"), 52 bytes; in a
 * GetTable response each record takes 56 (AttributeOffset 7).
 */

/** Size of an MCMemberRecord on the wire. */
#define RTE_IB_SA_MCMEMBER_REC_SIZE 52

/** JoinState bits (IBA 15.2.5.17; SendOnlyFullMember added in 1.2.1). */
#define RTE_IB_SA_MC_JOIN_FULL_MEMBER           0x1
#define RTE_IB_SA_MC_JOIN_NON_MEMBER            0x2
#define RTE_IB_SA_MC_JOIN_SEND_ONLY_NON_MEMBER  0x4
#define RTE_IB_SA_MC_JOIN_SEND_ONLY_FULL_MEMBER 0x8

/** Multicast GID scopes (IBA 4.1.1, the MGID's 4-bit scope). */
#define RTE_IB_MC_SCOPE_LINK_LOCAL   0x2
#define RTE_IB_MC_SCOPE_SITE_LOCAL   0x5
#define RTE_IB_MC_SCOPE_ORG_LOCAL    0x8
#define RTE_IB_MC_SCOPE_GLOBAL       0xe

/** An MCMemberRecord in host form. */
struct rte_ib_sa_mcmember_rec {
	struct rte_ib_gid mgid;     /**< MGID. */
	struct rte_ib_gid port_gid; /**< PortGID. */
	uint32_t qkey;              /**< Q_Key. */
	uint16_t mlid;              /**< MLID. */
	uint8_t mtu_selector;       /**< MTUSelector (2 bits). */
	uint8_t mtu;                /**< MTU (6 bits). */
	uint8_t traffic_class;      /**< TClass. */
	uint16_t pkey;              /**< P_Key. */
	uint8_t rate_selector;      /**< RateSelector (2 bits). */
	uint8_t rate;               /**< Rate (6 bits). */
	uint8_t packet_life_time_selector; /**< PacketLifeTimeSelector. */
	uint8_t packet_life_time;   /**< PacketLifeTime (6 bits). */
	uint8_t sl;                 /**< SL (4 bits). */
	uint32_t flow_label;        /**< FlowLabel (20 bits). */
	uint8_t hop_limit;          /**< HopLimit. */
	uint8_t scope;              /**< Scope (4 bits). */
	uint8_t join_state;         /**< JoinState (4 bits, RTE_IB_SA_MC_JOIN_*). */
	uint8_t proxy_join;         /**< ProxyJoin (1 bit). */
};

/* MCMemberRecord ComponentMask bits; bit 18 is the trailing Reserved. */
#define RTE_IB_SA_MCMEMBER_REC_MGID                  RTE_IB_SA_COMP_MASK(0)
#define RTE_IB_SA_MCMEMBER_REC_PORT_GID              RTE_IB_SA_COMP_MASK(1)
#define RTE_IB_SA_MCMEMBER_REC_QKEY                  RTE_IB_SA_COMP_MASK(2)
#define RTE_IB_SA_MCMEMBER_REC_MLID                  RTE_IB_SA_COMP_MASK(3)
#define RTE_IB_SA_MCMEMBER_REC_MTU_SELECTOR          RTE_IB_SA_COMP_MASK(4)
#define RTE_IB_SA_MCMEMBER_REC_MTU                   RTE_IB_SA_COMP_MASK(5)
#define RTE_IB_SA_MCMEMBER_REC_TRAFFIC_CLASS         RTE_IB_SA_COMP_MASK(6)
#define RTE_IB_SA_MCMEMBER_REC_PKEY                  RTE_IB_SA_COMP_MASK(7)
#define RTE_IB_SA_MCMEMBER_REC_RATE_SELECTOR         RTE_IB_SA_COMP_MASK(8)
#define RTE_IB_SA_MCMEMBER_REC_RATE                  RTE_IB_SA_COMP_MASK(9)
#define RTE_IB_SA_MCMEMBER_REC_PACKET_LIFE_TIME_SELECTOR RTE_IB_SA_COMP_MASK(10)
#define RTE_IB_SA_MCMEMBER_REC_PACKET_LIFE_TIME      RTE_IB_SA_COMP_MASK(11)
#define RTE_IB_SA_MCMEMBER_REC_SL                    RTE_IB_SA_COMP_MASK(12)
#define RTE_IB_SA_MCMEMBER_REC_FLOW_LABEL            RTE_IB_SA_COMP_MASK(13)
#define RTE_IB_SA_MCMEMBER_REC_HOP_LIMIT             RTE_IB_SA_COMP_MASK(14)
#define RTE_IB_SA_MCMEMBER_REC_SCOPE                 RTE_IB_SA_COMP_MASK(15)
#define RTE_IB_SA_MCMEMBER_REC_JOIN_STATE            RTE_IB_SA_COMP_MASK(16)
#define RTE_IB_SA_MCMEMBER_REC_PROXY_JOIN            RTE_IB_SA_COMP_MASK(17)

/*
 * NodeRecord (IBA 15.2.5.2), 108 bytes; in a GetTable response each
 * record takes 112 (AttributeOffset 14).
 */

/** Size of a NodeRecord on the wire. */
#define RTE_IB_SA_NODE_REC_SIZE 108

/** A NodeRecord in host form. */
struct rte_ib_sa_node_rec {
	uint16_t lid;                   /**< LID. */
	struct rte_ib_node_info info;   /**< NodeInfo. */
	uint8_t node_desc[RTE_IB_NODE_DESC_SIZE]; /**< NodeDescription. */
};

/* NodeRecord ComponentMask bits: LID, Reserved, NodeInfo's fields. */
#define RTE_IB_SA_NODE_REC_LID              RTE_IB_SA_COMP_MASK(0)
#define RTE_IB_SA_NODE_REC_BASE_VERSION     RTE_IB_SA_COMP_MASK(2)
#define RTE_IB_SA_NODE_REC_CLASS_VERSION    RTE_IB_SA_COMP_MASK(3)
#define RTE_IB_SA_NODE_REC_NODE_TYPE        RTE_IB_SA_COMP_MASK(4)
#define RTE_IB_SA_NODE_REC_NUM_PORTS        RTE_IB_SA_COMP_MASK(5)
#define RTE_IB_SA_NODE_REC_SYS_IMAGE_GUID   RTE_IB_SA_COMP_MASK(6)
#define RTE_IB_SA_NODE_REC_NODE_GUID        RTE_IB_SA_COMP_MASK(7)
#define RTE_IB_SA_NODE_REC_PORT_GUID        RTE_IB_SA_COMP_MASK(8)
#define RTE_IB_SA_NODE_REC_PARTITION_CAP    RTE_IB_SA_COMP_MASK(9)
#define RTE_IB_SA_NODE_REC_DEVICE_ID        RTE_IB_SA_COMP_MASK(10)
#define RTE_IB_SA_NODE_REC_REVISION         RTE_IB_SA_COMP_MASK(11)
#define RTE_IB_SA_NODE_REC_LOCAL_PORT_NUM   RTE_IB_SA_COMP_MASK(12)
#define RTE_IB_SA_NODE_REC_VENDOR_ID        RTE_IB_SA_COMP_MASK(13)
#define RTE_IB_SA_NODE_REC_NODE_DESC        RTE_IB_SA_COMP_MASK(14)

/*
 * PortInfoRecord (IBA 15.2.5.3), 68 bytes; 72 in a GetTable response.
 * Options (IBA 1.3) was reserved before.
 */

/** Size of a PortInfoRecord on the wire. */
#define RTE_IB_SA_PORT_INFO_REC_SIZE 68

/** A PortInfoRecord in host form. */
struct rte_ib_sa_port_info_rec {
	uint16_t endport_lid;           /**< EndportLID. */
	uint8_t port_num;               /**< PortNum. */
	uint8_t options;                /**< Options. */
	struct rte_ib_port_info info;   /**< PortInfo. */
};

/*
 * PortInfoRecord ComponentMask bits: EndportLID 0, PortNum 1, Options 2,
 * then one bit per PortInfo component in record order, reserved ones
 * included (so LMC is 20, behind the 3 reserved bits at 19).
 */
#define RTE_IB_SA_PORT_INFO_REC_ENDPORT_LID              RTE_IB_SA_COMP_MASK(0)
#define RTE_IB_SA_PORT_INFO_REC_PORT_NUM                 RTE_IB_SA_COMP_MASK(1)
#define RTE_IB_SA_PORT_INFO_REC_OPTIONS                  RTE_IB_SA_COMP_MASK(2)
#define RTE_IB_SA_PORT_INFO_REC_M_KEY                    RTE_IB_SA_COMP_MASK(3)
#define RTE_IB_SA_PORT_INFO_REC_GID_PREFIX               RTE_IB_SA_COMP_MASK(4)
#define RTE_IB_SA_PORT_INFO_REC_LID                      RTE_IB_SA_COMP_MASK(5)
#define RTE_IB_SA_PORT_INFO_REC_MASTER_SM_LID            RTE_IB_SA_COMP_MASK(6)
#define RTE_IB_SA_PORT_INFO_REC_CAPABILITY_MASK          RTE_IB_SA_COMP_MASK(7)
#define RTE_IB_SA_PORT_INFO_REC_DIAG_CODE                RTE_IB_SA_COMP_MASK(8)
#define RTE_IB_SA_PORT_INFO_REC_M_KEY_LEASE_PERIOD       RTE_IB_SA_COMP_MASK(9)
#define RTE_IB_SA_PORT_INFO_REC_LOCAL_PORT_NUM           RTE_IB_SA_COMP_MASK(10)
#define RTE_IB_SA_PORT_INFO_REC_LINK_WIDTH_ENABLED       RTE_IB_SA_COMP_MASK(11)
#define RTE_IB_SA_PORT_INFO_REC_LINK_WIDTH_SUPPORTED     RTE_IB_SA_COMP_MASK(12)
#define RTE_IB_SA_PORT_INFO_REC_LINK_WIDTH_ACTIVE        RTE_IB_SA_COMP_MASK(13)
#define RTE_IB_SA_PORT_INFO_REC_LINK_SPEED_SUPPORTED     RTE_IB_SA_COMP_MASK(14)
#define RTE_IB_SA_PORT_INFO_REC_PORT_STATE               RTE_IB_SA_COMP_MASK(15)
#define RTE_IB_SA_PORT_INFO_REC_PORT_PHYS_STATE          RTE_IB_SA_COMP_MASK(16)
#define RTE_IB_SA_PORT_INFO_REC_LINK_DOWN_DEFAULT_STATE  RTE_IB_SA_COMP_MASK(17)
#define RTE_IB_SA_PORT_INFO_REC_M_KEY_PROTECT_BITS       RTE_IB_SA_COMP_MASK(18)
/* bit 19: Reserved */
#define RTE_IB_SA_PORT_INFO_REC_LMC                      RTE_IB_SA_COMP_MASK(20)
#define RTE_IB_SA_PORT_INFO_REC_LINK_SPEED_ACTIVE        RTE_IB_SA_COMP_MASK(21)
#define RTE_IB_SA_PORT_INFO_REC_LINK_SPEED_ENABLED       RTE_IB_SA_COMP_MASK(22)
#define RTE_IB_SA_PORT_INFO_REC_NEIGHBOR_MTU             RTE_IB_SA_COMP_MASK(23)
#define RTE_IB_SA_PORT_INFO_REC_MASTER_SM_SL             RTE_IB_SA_COMP_MASK(24)
#define RTE_IB_SA_PORT_INFO_REC_VL_CAP                   RTE_IB_SA_COMP_MASK(25)
#define RTE_IB_SA_PORT_INFO_REC_INIT_TYPE                RTE_IB_SA_COMP_MASK(26)
#define RTE_IB_SA_PORT_INFO_REC_VL_HIGH_LIMIT            RTE_IB_SA_COMP_MASK(27)
#define RTE_IB_SA_PORT_INFO_REC_VL_ARBITRATION_HIGH_CAP  RTE_IB_SA_COMP_MASK(28)
#define RTE_IB_SA_PORT_INFO_REC_VL_ARBITRATION_LOW_CAP   RTE_IB_SA_COMP_MASK(29)
#define RTE_IB_SA_PORT_INFO_REC_INIT_TYPE_REPLY          RTE_IB_SA_COMP_MASK(30)
#define RTE_IB_SA_PORT_INFO_REC_MTU_CAP                  RTE_IB_SA_COMP_MASK(31)
#define RTE_IB_SA_PORT_INFO_REC_VL_STALL_COUNT           RTE_IB_SA_COMP_MASK(32)
#define RTE_IB_SA_PORT_INFO_REC_HOQ_LIFE                 RTE_IB_SA_COMP_MASK(33)
#define RTE_IB_SA_PORT_INFO_REC_OPERATIONAL_VLS          RTE_IB_SA_COMP_MASK(34)
#define RTE_IB_SA_PORT_INFO_REC_PARTITION_ENFORCEMENT_INBOUND RTE_IB_SA_COMP_MASK(35)
#define RTE_IB_SA_PORT_INFO_REC_PARTITION_ENFORCEMENT_OUTBOUND RTE_IB_SA_COMP_MASK(36)
#define RTE_IB_SA_PORT_INFO_REC_FILTER_RAW_INBOUND       RTE_IB_SA_COMP_MASK(37)
#define RTE_IB_SA_PORT_INFO_REC_FILTER_RAW_OUTBOUND      RTE_IB_SA_COMP_MASK(38)
#define RTE_IB_SA_PORT_INFO_REC_M_KEY_VIOLATIONS         RTE_IB_SA_COMP_MASK(39)
#define RTE_IB_SA_PORT_INFO_REC_P_KEY_VIOLATIONS         RTE_IB_SA_COMP_MASK(40)
#define RTE_IB_SA_PORT_INFO_REC_Q_KEY_VIOLATIONS         RTE_IB_SA_COMP_MASK(41)
#define RTE_IB_SA_PORT_INFO_REC_GUID_CAP                 RTE_IB_SA_COMP_MASK(42)
#define RTE_IB_SA_PORT_INFO_REC_CLIENT_REREGISTER        RTE_IB_SA_COMP_MASK(43)
#define RTE_IB_SA_PORT_INFO_REC_MCAST_PKEY_TRAP_SUPPRESSION RTE_IB_SA_COMP_MASK(44)
#define RTE_IB_SA_PORT_INFO_REC_SUBNET_TIMEOUT           RTE_IB_SA_COMP_MASK(45)
/* bit 46: Reserved */
#define RTE_IB_SA_PORT_INFO_REC_RESP_TIME_VALUE          RTE_IB_SA_COMP_MASK(47)
#define RTE_IB_SA_PORT_INFO_REC_LOCAL_PHY_ERRORS         RTE_IB_SA_COMP_MASK(48)
#define RTE_IB_SA_PORT_INFO_REC_OVERRUN_ERRORS           RTE_IB_SA_COMP_MASK(49)
#define RTE_IB_SA_PORT_INFO_REC_MAX_CREDIT_HINT          RTE_IB_SA_COMP_MASK(50)
/* bit 51: Reserved */
#define RTE_IB_SA_PORT_INFO_REC_LINK_ROUND_TRIP_LATENCY  RTE_IB_SA_COMP_MASK(52)
#define RTE_IB_SA_PORT_INFO_REC_CAPABILITY_MASK2         RTE_IB_SA_COMP_MASK(53)
#define RTE_IB_SA_PORT_INFO_REC_LINK_SPEED_EXT_ACTIVE    RTE_IB_SA_COMP_MASK(54)
#define RTE_IB_SA_PORT_INFO_REC_LINK_SPEED_EXT_SUPPORTED RTE_IB_SA_COMP_MASK(55)
/* bit 56: Reserved */
#define RTE_IB_SA_PORT_INFO_REC_LINK_SPEED_EXT_ENABLED   RTE_IB_SA_COMP_MASK(57)

/*
 * InformInfoRecord (IBA 15.2.5.12), 60 bytes; 64 in a GetTable response.
 */

/** Size of an InformInfoRecord on the wire. */
#define RTE_IB_SA_INFORM_INFO_REC_SIZE 60

/** An InformInfoRecord in host form. */
struct rte_ib_sa_inform_info_rec {
	struct rte_ib_gid subscriber_gid; /**< SubscriberGID. */
	uint16_t enumeration;             /**< Enum. */
	struct rte_ib_inform_info info;   /**< InformInfo. */
};

#define RTE_IB_SA_INFORM_INFO_REC_SUBSCRIBER_GID RTE_IB_SA_COMP_MASK(0)
#define RTE_IB_SA_INFORM_INFO_REC_ENUM           RTE_IB_SA_COMP_MASK(1)

/*
 * ServiceRecord (IBA 15.2.5.14), 176 bytes.
 */

/** Size of a ServiceRecord on the wire. */
#define RTE_IB_SA_SERVICE_REC_SIZE 176
/** Size of ServiceName (a NUL-padded UTF-8 string). */
#define RTE_IB_SA_SERVICE_NAME_SIZE 64

/** A ServiceRecord in host form. */
struct rte_ib_sa_service_rec {
	uint64_t service_id;          /**< ServiceID. */
	struct rte_ib_gid service_gid; /**< ServiceGID. */
	uint16_t service_pkey;        /**< ServiceP_Key. */
	uint32_t service_lease;       /**< ServiceLease, s (0xffffffff: ever). */
	uint8_t service_key[16];      /**< ServiceKey. */
	uint8_t service_name[RTE_IB_SA_SERVICE_NAME_SIZE]; /**< ServiceName. */
	uint8_t service_data8[16];    /**< ServiceData8.0-15. */
	uint16_t service_data16[8];   /**< ServiceData16.0-7. */
	uint32_t service_data32[4];   /**< ServiceData32.0-3. */
	uint64_t service_data64[2];   /**< ServiceData64.0-1. */
};

/* ServiceRecord ComponentMask bits (one per array element of ServiceData). */
#define RTE_IB_SA_SERVICE_REC_SERVICE_ID    RTE_IB_SA_COMP_MASK(0)
#define RTE_IB_SA_SERVICE_REC_SERVICE_GID   RTE_IB_SA_COMP_MASK(1)
#define RTE_IB_SA_SERVICE_REC_SERVICE_PKEY  RTE_IB_SA_COMP_MASK(2)
#define RTE_IB_SA_SERVICE_REC_SERVICE_LEASE RTE_IB_SA_COMP_MASK(4)
#define RTE_IB_SA_SERVICE_REC_SERVICE_KEY   RTE_IB_SA_COMP_MASK(5)
#define RTE_IB_SA_SERVICE_REC_SERVICE_NAME  RTE_IB_SA_COMP_MASK(6)
/** ServiceData8.i, i = 0..15. */
#define RTE_IB_SA_SERVICE_REC_SERVICE_DATA8(i)  RTE_IB_SA_COMP_MASK(7 + (i))
/** ServiceData16.i, i = 0..7. */
#define RTE_IB_SA_SERVICE_REC_SERVICE_DATA16(i) RTE_IB_SA_COMP_MASK(23 + (i))
/** ServiceData32.i, i = 0..3. */
#define RTE_IB_SA_SERVICE_REC_SERVICE_DATA32(i) RTE_IB_SA_COMP_MASK(31 + (i))
/** ServiceData64.i, i = 0..1. */
#define RTE_IB_SA_SERVICE_REC_SERVICE_DATA64(i) RTE_IB_SA_COMP_MASK(35 + (i))

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return The NodeRecord layout (struct rte_ib_sa_node_rec).
 */
__rte_experimental
const struct rte_ib_record_layout *
rte_ib_sa_node_rec_layout(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return The PortInfoRecord layout (struct rte_ib_sa_port_info_rec).
 */
__rte_experimental
const struct rte_ib_record_layout *
rte_ib_sa_port_info_rec_layout(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return The InformInfoRecord layout (struct rte_ib_sa_inform_info_rec).
 */
__rte_experimental
const struct rte_ib_record_layout *
rte_ib_sa_inform_info_rec_layout(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return The ServiceRecord layout (struct rte_ib_sa_service_rec).
 */
__rte_experimental
const struct rte_ib_record_layout *
rte_ib_sa_service_rec_layout(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The layout of the SA attribute @p attr_id, for a client that handles
 * several record types alike (a GetTable of any of them, a dump).
 *
 * @param attr_id
 *   SA AttributeID (RTE_IB_SA_ATTR_*), host order.
 * @return
 *   The layout, or NULL with rte_errno ENOTSUP for an attribute without
 *   a table here.
 */
__rte_experimental
const struct rte_ib_record_layout *
rte_ib_sa_layout_by_attr(uint16_t attr_id);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   The PathRecord layout (name "PathRecord"), for rte_ib_pack(),
 *   rte_ib_unpack() and rte_ib_record_dump(). Never NULL.
 */
__rte_experimental
const struct rte_ib_record_layout *
rte_ib_sa_path_rec_layout(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   The MCMemberRecord layout (name "MCMemberRecord"). Never NULL.
 */
__rte_experimental
const struct rte_ib_record_layout *
rte_ib_sa_mcmember_rec_layout(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Pack a PathRecord; reserved fields are written as zero.
 *
 * @param rec
 *   Record to pack, read only.
 * @param buf
 *   Output, at least RTE_IB_SA_PATH_REC_SIZE bytes (e.g. the data of an
 *   SA MAD).
 * @param len
 *   Size of @p buf.
 * @return
 *   0, or -1 with rte_errno EINVAL (NULL argument, @p len too small) or
 *   ERANGE (a value too wide for its field; the field is logged).
 */
__rte_experimental
int
rte_ib_sa_path_rec_pack(const struct rte_ib_sa_path_rec *rec, void *buf,
			size_t len);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Unpack a PathRecord; reserved bits are ignored.
 *
 * @param buf
 *   Wire record, at least RTE_IB_SA_PATH_REC_SIZE bytes.
 * @param len
 *   Size of @p buf.
 * @param rec
 *   Output; every member is written.
 * @return
 *   0, or -1 with rte_errno EINVAL (NULL argument, @p len too small).
 */
__rte_experimental
int
rte_ib_sa_path_rec_unpack(const void *buf, size_t len,
			  struct rte_ib_sa_path_rec *rec);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Pack an MCMemberRecord; reserved fields are written as zero.
 *
 * @param rec
 *   Record to pack, read only.
 * @param buf
 *   Output, at least RTE_IB_SA_MCMEMBER_REC_SIZE bytes.
 * @param len
 *   Size of @p buf.
 * @return
 *   0, or -1 with rte_errno EINVAL or ERANGE as rte_ib_sa_path_rec_pack().
 */
__rte_experimental
int
rte_ib_sa_mcmember_rec_pack(const struct rte_ib_sa_mcmember_rec *rec,
			    void *buf, size_t len);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Unpack an MCMemberRecord; reserved bits are ignored.
 *
 * @param buf
 *   Wire record, at least RTE_IB_SA_MCMEMBER_REC_SIZE bytes.
 * @param len
 *   Size of @p buf.
 * @param rec
 *   Output; every member is written.
 * @return
 *   0, or -1 with rte_errno EINVAL (NULL argument, @p len too small).
 */
__rte_experimental
int
rte_ib_sa_mcmember_rec_unpack(const void *buf, size_t len,
			      struct rte_ib_sa_mcmember_rec *rec);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_IB_RECORDS_H_ */
