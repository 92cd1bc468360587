/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _IB_ATTR_ROWS_H_
#define _IB_ATTR_ROWS_H_

/*
 * Rows of the attributes that SA records embed, as macros so that the
 * attribute (ib_attrs.c) and the record that carries it (ib_records.c)
 * share one table: T is the host struct, M the path of the embedded
 * attribute's member in it ("" for the attribute itself is not
 * possible in C, so the attribute's own table passes a wrapper struct),
 * W the 32-bit word at which the attribute starts in T's wire form.
 *
 * Offsets: IBA 14.2.5.3 (NodeInfo) and 14.2.5.6 (PortInfo); checked
 * against OpenSM's ib_node_info_t and ib_port_info_t
 * (include/iba/ib_types.h), which pack the sub-byte fields two to a
 * byte in the same order.
 */

#include "rte_ib_pack.h"

/* A record layout named @nm over the rows @rows (one definition for both
 * the attributes and the records).
 */
#define IB_RECORD_LAYOUT(var, nm, rows, size, host)	\
	static const struct rte_ib_record_layout var = {	\
		.name = (nm),					\
		.fields = (rows),				\
		.nb_fields = RTE_DIM(rows),			\
		.wire_size = (size),				\
		.host_size = sizeof(host),			\
	}

#define IB_ROWS_NODE_INFO(T, M, W)						\
	RTE_IB_ROW_UINT(T, M.base_version, "BaseVersion", (W) + 0, 0, 8),	\
	RTE_IB_ROW_UINT(T, M.class_version, "ClassVersion", (W) + 0, 8, 8),	\
	RTE_IB_ROW_UINT(T, M.node_type, "NodeType", (W) + 0, 16, 8),		\
	RTE_IB_ROW_UINT(T, M.num_ports, "NumPorts", (W) + 0, 24, 8),		\
	RTE_IB_ROW_UINT(T, M.sys_image_guid, "SystemImageGUID", (W) + 1, 0, 64), \
	RTE_IB_ROW_UINT(T, M.node_guid, "NodeGUID", (W) + 3, 0, 64),		\
	RTE_IB_ROW_UINT(T, M.port_guid, "PortGUID", (W) + 5, 0, 64),		\
	RTE_IB_ROW_UINT(T, M.partition_cap, "PartitionCap", (W) + 7, 0, 16),	\
	RTE_IB_ROW_UINT(T, M.device_id, "DeviceID", (W) + 7, 16, 16),		\
	RTE_IB_ROW_UINT(T, M.revision, "Revision", (W) + 8, 0, 32),		\
	RTE_IB_ROW_UINT(T, M.local_port_num, "LocalPortNum", (W) + 9, 0, 8),	\
	RTE_IB_ROW_UINT(T, M.vendor_id, "VendorID", (W) + 9, 8, 24)

#define IB_PI(T, M, f, name, w, b, width) \
	RTE_IB_ROW_UINT(T, M.f, name, w, b, width)

#define IB_ROWS_PORT_INFO(T, M, W)						\
	IB_PI(T, M, m_key, "M_Key", (W) + 0, 0, 64),				\
	IB_PI(T, M, gid_prefix, "GidPrefix", (W) + 2, 0, 64),			\
	IB_PI(T, M, lid, "LID", (W) + 4, 0, 16),				\
	IB_PI(T, M, master_sm_lid, "MasterSMLID", (W) + 4, 16, 16),		\
	IB_PI(T, M, capability_mask, "CapabilityMask", (W) + 5, 0, 32),	\
	IB_PI(T, M, diag_code, "DiagCode", (W) + 6, 0, 16),			\
	IB_PI(T, M, m_key_lease_period, "M_KeyLeasePeriod", (W) + 6, 16, 16), \
	IB_PI(T, M, local_port_num, "LocalPortNum", (W) + 7, 0, 8),		\
	IB_PI(T, M, link_width_enabled, "LinkWidthEnabled", (W) + 7, 8, 8),	\
	IB_PI(T, M, link_width_supported, "LinkWidthSupported", (W) + 7, 16, 8), \
	IB_PI(T, M, link_width_active, "LinkWidthActive", (W) + 7, 24, 8),	\
	IB_PI(T, M, link_speed_supported, "LinkSpeedSupported", (W) + 8, 0, 4), \
	IB_PI(T, M, port_state, "PortState", (W) + 8, 4, 4),			\
	IB_PI(T, M, port_phys_state, "PortPhysicalState", (W) + 8, 8, 4),	\
	IB_PI(T, M, link_down_default_state, "LinkDownDefaultState",		\
	      (W) + 8, 12, 4),							\
	IB_PI(T, M, m_key_protect_bits, "M_KeyProtectBits", (W) + 8, 16, 2),	\
	RTE_IB_ROW_RESERVED((W) + 8, 18, 3),					\
	IB_PI(T, M, lmc, "LMC", (W) + 8, 21, 3),				\
	IB_PI(T, M, link_speed_active, "LinkSpeedActive", (W) + 8, 24, 4),	\
	IB_PI(T, M, link_speed_enabled, "LinkSpeedEnabled", (W) + 8, 28, 4),	\
	IB_PI(T, M, neighbor_mtu, "NeighborMTU", (W) + 9, 0, 4),		\
	IB_PI(T, M, master_sm_sl, "MasterSMSL", (W) + 9, 4, 4),		\
	IB_PI(T, M, vl_cap, "VLCap", (W) + 9, 8, 4),				\
	IB_PI(T, M, init_type, "InitType", (W) + 9, 12, 4),			\
	IB_PI(T, M, vl_high_limit, "VLHighLimit", (W) + 9, 16, 8),		\
	IB_PI(T, M, vl_arbitration_high_cap, "VLArbitrationHighCap",		\
	      (W) + 9, 24, 8),							\
	IB_PI(T, M, vl_arbitration_low_cap, "VLArbitrationLowCap",		\
	      (W) + 10, 0, 8),							\
	IB_PI(T, M, init_type_reply, "InitTypeReply", (W) + 10, 8, 4),	\
	IB_PI(T, M, mtu_cap, "MTUCap", (W) + 10, 12, 4),			\
	IB_PI(T, M, vl_stall_count, "VLStallCount", (W) + 10, 16, 3),		\
	IB_PI(T, M, hoq_life, "HOQLife", (W) + 10, 19, 5),			\
	IB_PI(T, M, operational_vls, "OperationalVLs", (W) + 10, 24, 4),	\
	IB_PI(T, M, partition_enforcement_inbound,				\
	      "PartitionEnforcementInbound", (W) + 10, 28, 1),			\
	IB_PI(T, M, partition_enforcement_outbound,				\
	      "PartitionEnforcementOutbound", (W) + 10, 29, 1),		\
	IB_PI(T, M, filter_raw_inbound, "FilterRawInbound", (W) + 10, 30, 1), \
	IB_PI(T, M, filter_raw_outbound, "FilterRawOutbound", (W) + 10, 31, 1), \
	IB_PI(T, M, m_key_violations, "M_KeyViolations", (W) + 11, 0, 16),	\
	IB_PI(T, M, p_key_violations, "P_KeyViolations", (W) + 11, 16, 16),	\
	IB_PI(T, M, q_key_violations, "Q_KeyViolations", (W) + 12, 0, 16),	\
	IB_PI(T, M, guid_cap, "GUIDCap", (W) + 12, 16, 8),			\
	IB_PI(T, M, client_reregister, "ClientReregister", (W) + 12, 24, 1),	\
	IB_PI(T, M, mcast_pkey_trap_suppression,				\
	      "MulticastPKeyTrapSuppressionEnabled", (W) + 12, 25, 2),		\
	IB_PI(T, M, subnet_timeout, "SubnetTimeOut", (W) + 12, 27, 5),	\
	RTE_IB_ROW_RESERVED((W) + 13, 0, 3),					\
	IB_PI(T, M, resp_time_value, "RespTimeValue", (W) + 13, 3, 5),	\
	IB_PI(T, M, local_phy_errors, "LocalPhyErrors", (W) + 13, 8, 4),	\
	IB_PI(T, M, overrun_errors, "OverrunErrors", (W) + 13, 12, 4),	\
	IB_PI(T, M, max_credit_hint, "MaxCreditHint", (W) + 13, 16, 16),	\
	RTE_IB_ROW_RESERVED((W) + 14, 0, 8),					\
	IB_PI(T, M, link_round_trip_latency, "LinkRoundTripLatency",		\
	      (W) + 14, 8, 24),							\
	IB_PI(T, M, capability_mask2, "CapabilityMask2", (W) + 15, 0, 16),	\
	IB_PI(T, M, link_speed_ext_active, "LinkSpeedExtActive",		\
	      (W) + 15, 16, 4),							\
	IB_PI(T, M, link_speed_ext_supported, "LinkSpeedExtSupported",	\
	      (W) + 15, 20, 4),							\
	RTE_IB_ROW_RESERVED((W) + 15, 24, 3),					\
	IB_PI(T, M, link_speed_ext_enabled, "LinkSpeedExtEnabled",		\
	      (W) + 15, 27, 5)

#define IB_II(T, M, f, name, w, b, width) \
	RTE_IB_ROW_UINT(T, M.f, name, w, b, width)

/* InformInfo, IBA 13.4.8.3; OpenSM's ib_inform_info_t. */
#define IB_ROWS_INFORM_INFO(T, M, W)						\
	RTE_IB_ROW_BYTES(T, M.gid, "GID", (W) + 0, 0, 128),			\
	IB_II(T, M, lid_range_begin, "LIDRangeBegin", (W) + 4, 0, 16),	\
	IB_II(T, M, lid_range_end, "LIDRangeEnd", (W) + 4, 16, 16),		\
	RTE_IB_ROW_RESERVED((W) + 5, 0, 16),					\
	IB_II(T, M, is_generic, "IsGeneric", (W) + 5, 16, 8),			\
	IB_II(T, M, subscribe, "Subscribe", (W) + 5, 24, 8),			\
	IB_II(T, M, type, "Type", (W) + 6, 0, 16),				\
	IB_II(T, M, trap_number, "TrapNumber", (W) + 6, 16, 16),		\
	IB_II(T, M, qpn, "QPN", (W) + 7, 0, 24),				\
	RTE_IB_ROW_RESERVED((W) + 7, 24, 3),					\
	IB_II(T, M, resp_time_value, "RespTimeValue", (W) + 7, 27, 5),	\
	RTE_IB_ROW_RESERVED((W) + 8, 0, 8),					\
	IB_II(T, M, producer_type, "ProducerType", (W) + 8, 8, 24)

#endif /* _IB_ATTR_ROWS_H_ */
