/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _RTE_IB_ATTRS_H_
#define _RTE_IB_ATTRS_H_

/**
 * @file
 * MAD attributes in host form with their field tables for the
 * rte_ib_pack.h engine: NodeInfo (IBA 14.2.5.3) and PortInfo
 * (IBA 14.2.5.6), carried by SMPs and embedded in the SA's NodeRecord
 * and PortInfoRecord; PortCounters (IBA 16.1.3.5) of the performance
 * management class; ClassPortInfo (IBA 13.4.8.1), Notice
 * (IBA 13.4.8.2) and InformInfo (IBA 13.4.8.3), the common attributes
 * that event subscription (Set(InformInfo), Report(Notice)) uses.
 *
 * Host structs follow the engine's rule (integers in host byte order,
 * byte strings such as GIDs in wire order). A union field of the spec
 * (Notice's ProducerType / VendorID, InformInfo's TrapNumber / DeviceID)
 * is one host member named after its generic meaning; IsGeneric says
 * which one it is.
 */

#include <stdint.h>

#include <rte_compat.h>

#include "rte_ib_pack.h"
#include "rte_ib_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Size of NodeInfo on the wire. */
#define RTE_IB_NODE_INFO_SIZE 40
/** Size of PortInfo on the wire. */
#define RTE_IB_PORT_INFO_SIZE 64
/** Size of NodeDescription on the wire (a NUL-padded string). */
#define RTE_IB_NODE_DESC_SIZE 64
/** Size of ClassPortInfo on the wire. */
#define RTE_IB_CLASS_PORT_INFO_SIZE 72
/** Size of Notice on the wire. */
#define RTE_IB_NOTICE_SIZE 80
/** Size of Notice's DataDetails. */
#define RTE_IB_NOTICE_DATA_DETAILS_SIZE 54
/** Size of InformInfo on the wire. */
#define RTE_IB_INFORM_INFO_SIZE 36
/** Size of PortCounters on the wire, PortXmitWait included. */
#define RTE_IB_PORT_COUNTERS_SIZE 44

/** NodeType values (IBA 14.2.5.3). */
#define RTE_IB_NODE_TYPE_CA     1
#define RTE_IB_NODE_TYPE_SWITCH 2
#define RTE_IB_NODE_TYPE_ROUTER 3

/** NodeInfo (IBA 14.2.5.3), 40 bytes. */
struct rte_ib_node_info {
	uint8_t base_version;      /**< BaseVersion. */
	uint8_t class_version;     /**< ClassVersion. */
	uint8_t node_type;         /**< NodeType. */
	uint8_t num_ports;         /**< NumPorts. */
	uint64_t sys_image_guid;   /**< SystemImageGUID. */
	uint64_t node_guid;        /**< NodeGUID. */
	uint64_t port_guid;        /**< PortGUID. */
	uint16_t partition_cap;    /**< PartitionCap. */
	uint16_t device_id;        /**< DeviceID. */
	uint32_t revision;         /**< Revision. */
	uint8_t local_port_num;    /**< LocalPortNum. */
	uint32_t vendor_id;        /**< VendorID (24 bits). */
};

/** PortInfo (IBA 14.2.5.6), 64 bytes, with the IBA 1.3 extensions. */
struct rte_ib_port_info {
	uint64_t m_key;                 /**< M_Key. */
	uint64_t gid_prefix;            /**< GidPrefix. */
	uint16_t lid;                   /**< LID. */
	uint16_t master_sm_lid;         /**< MasterSMLID. */
	uint32_t capability_mask;       /**< CapabilityMask. */
	uint16_t diag_code;             /**< DiagCode. */
	uint16_t m_key_lease_period;    /**< M_KeyLeasePeriod. */
	uint8_t local_port_num;         /**< LocalPortNum. */
	uint8_t link_width_enabled;     /**< LinkWidthEnabled. */
	uint8_t link_width_supported;   /**< LinkWidthSupported. */
	uint8_t link_width_active;      /**< LinkWidthActive. */
	uint8_t link_speed_supported;   /**< LinkSpeedSupported (4 bits). */
	uint8_t port_state;             /**< PortState (4 bits). */
	uint8_t port_phys_state;        /**< PortPhysicalState (4 bits). */
	uint8_t link_down_default_state; /**< LinkDownDefaultState (4 bits). */
	uint8_t m_key_protect_bits;     /**< M_KeyProtectBits (2 bits). */
	uint8_t lmc;                    /**< LMC (3 bits). */
	uint8_t link_speed_active;      /**< LinkSpeedActive (4 bits). */
	uint8_t link_speed_enabled;     /**< LinkSpeedEnabled (4 bits). */
	uint8_t neighbor_mtu;           /**< NeighborMTU (4 bits). */
	uint8_t master_sm_sl;           /**< MasterSMSL (4 bits). */
	uint8_t vl_cap;                 /**< VLCap (4 bits). */
	uint8_t init_type;              /**< InitType (4 bits). */
	uint8_t vl_high_limit;          /**< VLHighLimit. */
	uint8_t vl_arbitration_high_cap; /**< VLArbitrationHighCap. */
	uint8_t vl_arbitration_low_cap; /**< VLArbitrationLowCap. */
	uint8_t init_type_reply;        /**< InitTypeReply (4 bits). */
	uint8_t mtu_cap;                /**< MTUCap (4 bits). */
	uint8_t vl_stall_count;         /**< VLStallCount (3 bits). */
	uint8_t hoq_life;               /**< HOQLife (5 bits). */
	uint8_t operational_vls;        /**< OperationalVLs (4 bits). */
	uint8_t partition_enforcement_inbound;  /**< (1 bit). */
	uint8_t partition_enforcement_outbound; /**< (1 bit). */
	uint8_t filter_raw_inbound;     /**< FilterRawInbound (1 bit). */
	uint8_t filter_raw_outbound;    /**< FilterRawOutbound (1 bit). */
	uint16_t m_key_violations;      /**< M_KeyViolations. */
	uint16_t p_key_violations;      /**< P_KeyViolations. */
	uint16_t q_key_violations;      /**< Q_KeyViolations. */
	uint8_t guid_cap;               /**< GUIDCap. */
	uint8_t client_reregister;      /**< ClientReregister (1 bit). */
	uint8_t mcast_pkey_trap_suppression; /**< (2 bits, IBA 1.2.1). */
	uint8_t subnet_timeout;         /**< SubnetTimeOut (5 bits). */
	uint8_t resp_time_value;        /**< RespTimeValue (5 bits). */
	uint8_t local_phy_errors;       /**< LocalPhyErrors (4 bits). */
	uint8_t overrun_errors;         /**< OverrunErrors (4 bits). */
	uint16_t max_credit_hint;       /**< MaxCreditHint. */
	uint32_t link_round_trip_latency; /**< LinkRoundTripLatency (24). */
	uint16_t capability_mask2;      /**< CapabilityMask2. */
	uint8_t link_speed_ext_active;  /**< LinkSpeedExtActive (4 bits). */
	uint8_t link_speed_ext_supported; /**< LinkSpeedExtSupported (4). */
	uint8_t link_speed_ext_enabled; /**< LinkSpeedExtEnabled (5 bits). */
};

/**
 * PortCounters (IBA 16.1.3.5), 44 bytes: the performance management
 * class's attribute at offset 64 of the MAD (24-byte header, 40 reserved
 * bytes), PortXmitWait (IBA 1.2.1) last.
 */
struct rte_ib_port_counters {
	uint8_t port_select;                 /**< PortSelect. */
	uint16_t counter_select;             /**< CounterSelect. */
	uint16_t symbol_error;               /**< SymbolErrorCounter. */
	uint8_t link_error_recovery;         /**< LinkErrorRecoveryCounter. */
	uint8_t link_downed;                 /**< LinkDownedCounter. */
	uint16_t port_rcv_errors;            /**< PortRcvErrors. */
	uint16_t port_rcv_remote_physical_errors; /**< PortRcvRemotePhysicalErrors. */
	uint16_t port_rcv_switch_relay_errors; /**< PortRcvSwitchRelayErrors. */
	uint16_t port_xmit_discards;         /**< PortXmitDiscards. */
	uint8_t port_xmit_constraint_errors; /**< PortXmitConstraintErrors. */
	uint8_t port_rcv_constraint_errors;  /**< PortRcvConstraintErrors. */
	uint8_t local_link_integrity_errors; /**< LocalLinkIntegrityErrors (4 bits). */
	uint8_t excessive_buffer_overrun_errors; /**< ExcessiveBufferOverrunErrors (4 bits). */
	uint16_t vl15_dropped;               /**< VL15Dropped. */
	uint32_t port_xmit_data;             /**< PortXmitData, in 4-byte words. */
	uint32_t port_rcv_data;              /**< PortRcvData, in 4-byte words. */
	uint32_t port_xmit_pkts;             /**< PortXmitPkts. */
	uint32_t port_rcv_pkts;              /**< PortRcvPkts. */
	uint32_t port_xmit_wait;             /**< PortXmitWait. */
};

/** ClassPortInfo (IBA 13.4.8.1), 72 bytes. */
struct rte_ib_class_port_info {
	uint8_t base_version;        /**< BaseVersion. */
	uint8_t class_version;       /**< ClassVersion. */
	uint16_t capability_mask;    /**< CapabilityMask. */
	uint32_t capability_mask2;   /**< CapabilityMask2 (27 bits). */
	uint8_t resp_time_value;     /**< RespTimeValue (5 bits). */
	struct rte_ib_gid redirect_gid; /**< RedirectGID. */
	uint8_t redirect_tc;         /**< RedirectTC. */
	uint8_t redirect_sl;         /**< RedirectSL (4 bits). */
	uint32_t redirect_fl;        /**< RedirectFL (20 bits). */
	uint16_t redirect_lid;       /**< RedirectLID. */
	uint16_t redirect_pkey;      /**< RedirectP_Key. */
	uint32_t redirect_qp;        /**< RedirectQP (24 bits). */
	uint32_t redirect_qkey;      /**< RedirectQ_Key. */
	struct rte_ib_gid trap_gid;  /**< TrapGID. */
	uint8_t trap_tc;             /**< TrapTC. */
	uint8_t trap_sl;             /**< TrapSL (4 bits). */
	uint32_t trap_fl;            /**< TrapFL (20 bits). */
	uint16_t trap_lid;           /**< TrapLID. */
	uint16_t trap_pkey;          /**< TrapP_Key. */
	uint8_t trap_hop_limit;      /**< TrapHL. */
	uint32_t trap_qp;            /**< TrapQP (24 bits). */
	uint32_t trap_qkey;          /**< TrapQ_Key. */
};

/** Notice types (IBA 13.4.8.2). */
#define RTE_IB_NOTICE_TYPE_FATAL         0
#define RTE_IB_NOTICE_TYPE_URGENT        1
#define RTE_IB_NOTICE_TYPE_SECURITY      2
#define RTE_IB_NOTICE_TYPE_SUBN_MGMT     3
#define RTE_IB_NOTICE_TYPE_INFO          4
#define RTE_IB_NOTICE_TYPE_ALL           0xffff /**< InformInfo: any. */

/** Generic trap numbers the SA reports (IBA 14.2.5.1, table "Traps"). */
#define RTE_IB_TRAP_GID_IN_SERVICE       64
#define RTE_IB_TRAP_GID_OUT_OF_SERVICE   65
#define RTE_IB_TRAP_MCAST_GROUP_CREATED  66
#define RTE_IB_TRAP_MCAST_GROUP_DELETED  67
#define RTE_IB_TRAP_LINK_STATE_CHANGE    128
#define RTE_IB_TRAP_PKEY_VIOLATION       257

/**
 * Notice (IBA 13.4.8.2), 80 bytes: the payload of Trap(Notice) and of
 * the SA's Report(Notice).
 */
struct rte_ib_notice {
	uint8_t is_generic;         /**< IsGeneric (1 bit). */
	uint8_t type;               /**< Type (7 bits). */
	uint32_t producer_type;     /**< ProducerType, or VendorID (24). */
	uint16_t trap_number;       /**< TrapNumber, or DeviceID. */
	uint16_t issuer_lid;        /**< IssuerLID. */
	uint8_t notice_toggle;      /**< NoticeToggle (1 bit). */
	uint16_t notice_count;      /**< NoticeCount (15 bits). */
	/** DataDetails, in wire order; see rte_ib_notice_gid(). */
	uint8_t data_details[RTE_IB_NOTICE_DATA_DETAILS_SIZE];
	struct rte_ib_gid issuer_gid; /**< IssuerGID. */
};

/**
 * InformInfo (IBA 13.4.8.3), 36 bytes: a subscription to traps,
 * Set() at the SA's class manager.
 */
struct rte_ib_inform_info {
	struct rte_ib_gid gid;      /**< GID: one port, or 0 for a LID range. */
	uint16_t lid_range_begin;   /**< LIDRangeBegin (0xffff: all). */
	uint16_t lid_range_end;     /**< LIDRangeEnd. */
	uint8_t is_generic;         /**< IsGeneric. */
	uint8_t subscribe;          /**< Subscribe (1) or unsubscribe (0). */
	uint16_t type;              /**< Type (RTE_IB_NOTICE_TYPE_*). */
	uint16_t trap_number;       /**< TrapNumber, or DeviceID. */
	uint32_t qpn;               /**< QPN (24 bits) reports are sent to. */
	uint8_t resp_time_value;    /**< RespTimeValue (5 bits). */
	uint32_t producer_type;     /**< ProducerType, or VendorID (24). */
};

/**
 * The GID of the port or group a GID-in/out-of-service or multicast
 * group notice (traps 64 to 67) is about: DataDetails bytes 6 to 21
 * (IBA 14.2.5.1, table "Traps", DataDetails of traps 64-67).
 *
 * @param notice
 *   An unpacked notice.
 * @param gid
 *   Output.
 */
static inline void
rte_ib_notice_gid(const struct rte_ib_notice *notice, struct rte_ib_gid *gid)
{
	unsigned int i;

	for (i = 0; i < RTE_IB_GID_LEN; i++)
		gid->raw[i] = notice->data_details[6 + i];
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return The NodeInfo layout (struct rte_ib_node_info). Never NULL.
 */
__rte_experimental
const struct rte_ib_record_layout *
rte_ib_node_info_layout(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return The PortInfo layout (struct rte_ib_port_info). Never NULL.
 */
__rte_experimental
const struct rte_ib_record_layout *
rte_ib_port_info_layout(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return The PortCounters layout (struct rte_ib_port_counters). Never
 *   NULL.
 */
__rte_experimental
const struct rte_ib_record_layout *
rte_ib_port_counters_layout(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return The ClassPortInfo layout (struct rte_ib_class_port_info).
 */
__rte_experimental
const struct rte_ib_record_layout *
rte_ib_class_port_info_layout(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return The Notice layout (struct rte_ib_notice). Never NULL.
 */
__rte_experimental
const struct rte_ib_record_layout *
rte_ib_notice_layout(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return The InformInfo layout (struct rte_ib_inform_info). Never NULL.
 */
__rte_experimental
const struct rte_ib_record_layout *
rte_ib_inform_info_layout(void);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_IB_ATTRS_H_ */
