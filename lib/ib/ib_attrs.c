/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Field tables of the MAD attributes of rte_ib_attrs.h. NodeInfo,
 * PortInfo and InformInfo rows come from ib_attr_rows.h, shared with
 * the SA records that embed them. ClassPortInfo and Notice offsets:
 * IBA 13.4.8.1 and 13.4.8.2, checked against OpenSM's
 * ib_class_port_info_t and ib_mad_notice_attr_t (include/iba/ib_types.h)
 * and Linux's struct ib_class_port_info (include/rdma/ib_mad.h).
 * PortCounters: IBA 16.1.3.5, checked against Linux's struct
 * ib_pma_portcounters (include/rdma/ib_pma.h: "LocalLink: 7:4,
 * BufferOverrun: 3:0") and OpenSM's ib_port_counters_t.
 */

#include <stddef.h>

#include <rte_common.h>

#include "ib_attr_rows.h"
#include "rte_ib_attrs.h"

/* One-member wrappers: a row's member path cannot be empty. */
struct node_info_w { struct rte_ib_node_info a; };
struct port_info_w { struct rte_ib_port_info a; };
struct inform_info_w { struct rte_ib_inform_info a; };

static const struct rte_ib_field node_info_fields[] = {
	IB_ROWS_NODE_INFO(struct node_info_w, a, 0),
};

static const struct rte_ib_field port_info_fields[] = {
	IB_ROWS_PORT_INFO(struct port_info_w, a, 0),
};

static const struct rte_ib_field inform_info_fields[] = {
	IB_ROWS_INFORM_INFO(struct inform_info_w, a, 0),
};

#define CPI_UINT(m, n, w, b, width) \
	RTE_IB_ROW_UINT(struct rte_ib_class_port_info, m, n, w, b, width)
#define CPI_BYTES(m, n, w, b, width) \
	RTE_IB_ROW_BYTES(struct rte_ib_class_port_info, m, n, w, b, width)

static const struct rte_ib_field class_port_info_fields[] = {
	CPI_UINT(base_version, "BaseVersion", 0, 0, 8),
	CPI_UINT(class_version, "ClassVersion", 0, 8, 8),
	CPI_UINT(capability_mask, "CapabilityMask", 0, 16, 16),
	CPI_UINT(capability_mask2, "CapabilityMask2", 1, 0, 27),
	CPI_UINT(resp_time_value, "RespTimeValue", 1, 27, 5),
	CPI_BYTES(redirect_gid, "RedirectGID", 2, 0, 128),
	CPI_UINT(redirect_tc, "RedirectTC", 6, 0, 8),
	CPI_UINT(redirect_sl, "RedirectSL", 6, 8, 4),
	CPI_UINT(redirect_fl, "RedirectFL", 6, 12, 20),
	CPI_UINT(redirect_lid, "RedirectLID", 7, 0, 16),
	CPI_UINT(redirect_pkey, "RedirectP_Key", 7, 16, 16),
	RTE_IB_ROW_RESERVED(8, 0, 8),
	CPI_UINT(redirect_qp, "RedirectQP", 8, 8, 24),
	CPI_UINT(redirect_qkey, "RedirectQ_Key", 9, 0, 32),
	CPI_BYTES(trap_gid, "TrapGID", 10, 0, 128),
	CPI_UINT(trap_tc, "TrapTC", 14, 0, 8),
	CPI_UINT(trap_sl, "TrapSL", 14, 8, 4),
	CPI_UINT(trap_fl, "TrapFL", 14, 12, 20),
	CPI_UINT(trap_lid, "TrapLID", 15, 0, 16),
	CPI_UINT(trap_pkey, "TrapP_Key", 15, 16, 16),
	CPI_UINT(trap_hop_limit, "TrapHL", 16, 0, 8),
	CPI_UINT(trap_qp, "TrapQP", 16, 8, 24),
	CPI_UINT(trap_qkey, "TrapQ_Key", 17, 0, 32),
};

#define PC_UINT(m, n, w, b, width) \
	RTE_IB_ROW_UINT(struct rte_ib_port_counters, m, n, w, b, width)

static const struct rte_ib_field port_counters_fields[] = {
	RTE_IB_ROW_RESERVED(0, 0, 8),
	PC_UINT(port_select, "PortSelect", 0, 8, 8),
	PC_UINT(counter_select, "CounterSelect", 0, 16, 16),
	PC_UINT(symbol_error, "SymbolErrorCounter", 1, 0, 16),
	PC_UINT(link_error_recovery, "LinkErrorRecoveryCounter", 1, 16, 8),
	PC_UINT(link_downed, "LinkDownedCounter", 1, 24, 8),
	PC_UINT(port_rcv_errors, "PortRcvErrors", 2, 0, 16),
	PC_UINT(port_rcv_remote_physical_errors, "PortRcvRemotePhysicalErrors", 2, 16, 16),
	PC_UINT(port_rcv_switch_relay_errors, "PortRcvSwitchRelayErrors", 3, 0, 16),
	PC_UINT(port_xmit_discards, "PortXmitDiscards", 3, 16, 16),
	PC_UINT(port_xmit_constraint_errors, "PortXmitConstraintErrors", 4, 0, 8),
	PC_UINT(port_rcv_constraint_errors, "PortRcvConstraintErrors", 4, 8, 8),
	RTE_IB_ROW_RESERVED(4, 16, 8),
	PC_UINT(local_link_integrity_errors, "LocalLinkIntegrityErrors", 4, 24, 4),
	PC_UINT(excessive_buffer_overrun_errors, "ExcessiveBufferOverrunErrors", 4, 28, 4),
	RTE_IB_ROW_RESERVED(5, 0, 16),
	PC_UINT(vl15_dropped, "VL15Dropped", 5, 16, 16),
	PC_UINT(port_xmit_data, "PortXmitData", 6, 0, 32),
	PC_UINT(port_rcv_data, "PortRcvData", 7, 0, 32),
	PC_UINT(port_xmit_pkts, "PortXmitPkts", 8, 0, 32),
	PC_UINT(port_rcv_pkts, "PortRcvPkts", 9, 0, 32),
	PC_UINT(port_xmit_wait, "PortXmitWait", 10, 0, 32),
};

#define NTC_UINT(m, n, w, b, width) \
	RTE_IB_ROW_UINT(struct rte_ib_notice, m, n, w, b, width)
#define NTC_BYTES(m, n, w, b, width) \
	RTE_IB_ROW_BYTES(struct rte_ib_notice, m, n, w, b, width)

static const struct rte_ib_field notice_fields[] = {
	NTC_UINT(is_generic, "IsGeneric", 0, 0, 1),
	NTC_UINT(type, "Type", 0, 1, 7),
	NTC_UINT(producer_type, "ProducerType", 0, 8, 24),
	NTC_UINT(trap_number, "TrapNumber", 1, 0, 16),
	NTC_UINT(issuer_lid, "IssuerLID", 1, 16, 16),
	NTC_UINT(notice_toggle, "NoticeToggle", 2, 0, 1),
	NTC_UINT(notice_count, "NoticeCount", 2, 1, 15),
	NTC_BYTES(data_details, "DataDetails", 2, 16,
		  RTE_IB_NOTICE_DATA_DETAILS_SIZE * 8),
	NTC_BYTES(issuer_gid, "IssuerGID", 16, 0, 128),
};

IB_RECORD_LAYOUT(node_info_layout, "NodeInfo", node_info_fields,
		 RTE_IB_NODE_INFO_SIZE, struct rte_ib_node_info);
IB_RECORD_LAYOUT(port_info_layout, "PortInfo", port_info_fields,
		 RTE_IB_PORT_INFO_SIZE, struct rte_ib_port_info);
IB_RECORD_LAYOUT(port_counters_layout, "PortCounters", port_counters_fields,
		 RTE_IB_PORT_COUNTERS_SIZE, struct rte_ib_port_counters);
IB_RECORD_LAYOUT(class_port_info_layout, "ClassPortInfo", class_port_info_fields,
		 RTE_IB_CLASS_PORT_INFO_SIZE, struct rte_ib_class_port_info);
IB_RECORD_LAYOUT(notice_layout, "Notice", notice_fields,
		 RTE_IB_NOTICE_SIZE, struct rte_ib_notice);
IB_RECORD_LAYOUT(inform_info_layout, "InformInfo", inform_info_fields,
		 RTE_IB_INFORM_INFO_SIZE, struct rte_ib_inform_info);

const struct rte_ib_record_layout *
rte_ib_node_info_layout(void)
{
	return &node_info_layout;
}

const struct rte_ib_record_layout *
rte_ib_port_info_layout(void)
{
	return &port_info_layout;
}

const struct rte_ib_record_layout *
rte_ib_port_counters_layout(void)
{
	return &port_counters_layout;
}

const struct rte_ib_record_layout *
rte_ib_class_port_info_layout(void)
{
	return &class_port_info_layout;
}

const struct rte_ib_record_layout *
rte_ib_notice_layout(void)
{
	return &notice_layout;
}

const struct rte_ib_record_layout *
rte_ib_inform_info_layout(void)
{
	return &inform_info_layout;
}
