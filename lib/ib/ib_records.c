/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Field tables of the SA records of rte_ib_records.h.
 *
 * Each table follows the record's table in the IBA, row by row: word
 * offset, bit offset from the word's MSB, width. Offsets were
 * cross-checked against OpenSM's ib_path_rec_t / ib_member_rec_t
 * (include/iba/ib_types.h) and the Linux kernel's path_rec_table /
 * mcmember_rec_table (drivers/infiniband/core/sa_query.c).
 *
 * Adding a record: a host struct and its component-mask bits in
 * rte_ib_records.h, a table and a layout here, and the layout getter
 * (plus pack/unpack wrappers if wanted) in version.map.
 */

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_common.h>

#include <rte_errno.h>

#include "ib_attr_rows.h"
#include "rte_ib_pack.h"
#include "rte_ib_records.h"

/*
 * NodeRecord, IBA 15.2.5.2: LID, 16 reserved bits, NodeInfo from word 1,
 * NodeDescription from word 11 (OpenSM's ib_node_record_t).
 */
static const struct rte_ib_field node_rec_fields[] = {
	RTE_IB_ROW_UINT(struct rte_ib_sa_node_rec, lid, "LID", 0, 0, 16),
	RTE_IB_ROW_RESERVED(0, 16, 16),
	IB_ROWS_NODE_INFO(struct rte_ib_sa_node_rec, info, 1),
	RTE_IB_ROW_BYTES(struct rte_ib_sa_node_rec, node_desc,
			 "NodeDescription", 11, 0, RTE_IB_NODE_DESC_SIZE * 8),
};

/* PortInfoRecord, IBA 15.2.5.3: PortInfo from word 1. */
static const struct rte_ib_field port_info_rec_fields[] = {
	RTE_IB_ROW_UINT(struct rte_ib_sa_port_info_rec, endport_lid,
			"EndportLID", 0, 0, 16),
	RTE_IB_ROW_UINT(struct rte_ib_sa_port_info_rec, port_num,
			"PortNum", 0, 16, 8),
	RTE_IB_ROW_UINT(struct rte_ib_sa_port_info_rec, options,
			"Options", 0, 24, 8),
	IB_ROWS_PORT_INFO(struct rte_ib_sa_port_info_rec, info, 1),
};

/*
 * InformInfoRecord, IBA 15.2.5.12: SubscriberGID, Enum, 48 reserved
 * bits, InformInfo from word 6 (OpenSM's ib_inform_info_record_t).
 */
static const struct rte_ib_field inform_info_rec_fields[] = {
	RTE_IB_ROW_BYTES(struct rte_ib_sa_inform_info_rec, subscriber_gid,
			 "SubscriberGID", 0, 0, 128),
	RTE_IB_ROW_UINT(struct rte_ib_sa_inform_info_rec, enumeration,
			"Enum", 4, 0, 16),
	RTE_IB_ROW_RESERVED(4, 16, 48),
	IB_ROWS_INFORM_INFO(struct rte_ib_sa_inform_info_rec, info, 6),
};

#define SR_UINT(m, n, w, b, width) \
	RTE_IB_ROW_UINT(struct rte_ib_sa_service_rec, m, n, w, b, width)
#define SR_BYTES(m, n, w, b, width) \
	RTE_IB_ROW_BYTES(struct rte_ib_sa_service_rec, m, n, w, b, width)

/*
 * ServiceRecord, IBA 15.2.5.14 (OpenSM's ib_service_record_t). The
 * ServiceData arrays are one row per element, as the ComponentMask
 * counts them.
 */
static const struct rte_ib_field service_rec_fields[] = {
	SR_UINT(service_id, "ServiceID", 0, 0, 64),
	SR_BYTES(service_gid, "ServiceGID", 2, 0, 128),
	SR_UINT(service_pkey, "ServiceP_Key", 6, 0, 16),
	RTE_IB_ROW_RESERVED(6, 16, 16),
	SR_UINT(service_lease, "ServiceLease", 7, 0, 32),
	SR_BYTES(service_key, "ServiceKey", 8, 0, 128),
	SR_BYTES(service_name, "ServiceName", 12, 0,
		 RTE_IB_SA_SERVICE_NAME_SIZE * 8),
	SR_BYTES(service_data8, "ServiceData8", 28, 0, 128),
	SR_UINT(service_data16[0], "ServiceData16.0", 32, 0, 16),
	SR_UINT(service_data16[1], "ServiceData16.1", 32, 16, 16),
	SR_UINT(service_data16[2], "ServiceData16.2", 33, 0, 16),
	SR_UINT(service_data16[3], "ServiceData16.3", 33, 16, 16),
	SR_UINT(service_data16[4], "ServiceData16.4", 34, 0, 16),
	SR_UINT(service_data16[5], "ServiceData16.5", 34, 16, 16),
	SR_UINT(service_data16[6], "ServiceData16.6", 35, 0, 16),
	SR_UINT(service_data16[7], "ServiceData16.7", 35, 16, 16),
	SR_UINT(service_data32[0], "ServiceData32.0", 36, 0, 32),
	SR_UINT(service_data32[1], "ServiceData32.1", 37, 0, 32),
	SR_UINT(service_data32[2], "ServiceData32.2", 38, 0, 32),
	SR_UINT(service_data32[3], "ServiceData32.3", 39, 0, 32),
	SR_UINT(service_data64[0], "ServiceData64.0", 40, 0, 64),
	SR_UINT(service_data64[1], "ServiceData64.1", 42, 0, 64),
};

IB_RECORD_LAYOUT(node_rec_layout, "NodeRecord", node_rec_fields,
	   RTE_IB_SA_NODE_REC_SIZE, struct rte_ib_sa_node_rec);
IB_RECORD_LAYOUT(port_info_rec_layout, "PortInfoRecord", port_info_rec_fields,
	   RTE_IB_SA_PORT_INFO_REC_SIZE, struct rte_ib_sa_port_info_rec);
IB_RECORD_LAYOUT(inform_info_rec_layout, "InformInfoRecord",
	   inform_info_rec_fields, RTE_IB_SA_INFORM_INFO_REC_SIZE,
	   struct rte_ib_sa_inform_info_rec);
IB_RECORD_LAYOUT(service_rec_layout, "ServiceRecord", service_rec_fields,
	   RTE_IB_SA_SERVICE_REC_SIZE, struct rte_ib_sa_service_rec);

#define PR_UINT(m, n, w, b, width) \
	RTE_IB_ROW_UINT(struct rte_ib_sa_path_rec, m, n, w, b, width)
#define PR_BYTES(m, n, w, b, width) \
	RTE_IB_ROW_BYTES(struct rte_ib_sa_path_rec, m, n, w, b, width)

/*
 * PathRecord, IBA 1.3 15.2.5.16. Compared with the 2004 layout, the
 * first two words are ServiceID (they were reserved) and the top 12 bits
 * of word 13 are QoSClass (they were reserved, SL was already at bit 12).
 */
static const struct rte_ib_field path_rec_fields[] = {
	PR_UINT(service_id, "ServiceID", 0, 0, 64),
	PR_BYTES(dgid, "DGID", 2, 0, 128),
	PR_BYTES(sgid, "SGID", 6, 0, 128),
	PR_UINT(dlid, "DLID", 10, 0, 16),
	PR_UINT(slid, "SLID", 10, 16, 16),
	PR_UINT(raw_traffic, "RawTraffic", 11, 0, 1),
	RTE_IB_ROW_RESERVED(11, 1, 3),
	PR_UINT(flow_label, "FlowLabel", 11, 4, 20),
	PR_UINT(hop_limit, "HopLimit", 11, 24, 8),
	PR_UINT(traffic_class, "TClass", 12, 0, 8),
	PR_UINT(reversible, "Reversible", 12, 8, 1),
	PR_UINT(numb_path, "NumbPath", 12, 9, 7),
	PR_UINT(pkey, "P_Key", 12, 16, 16),
	PR_UINT(qos_class, "QoSClass", 13, 0, 12),
	PR_UINT(sl, "SL", 13, 12, 4),
	PR_UINT(mtu_selector, "MTUSelector", 13, 16, 2),
	PR_UINT(mtu, "MTU", 13, 18, 6),
	PR_UINT(rate_selector, "RateSelector", 13, 24, 2),
	PR_UINT(rate, "Rate", 13, 26, 6),
	PR_UINT(packet_life_time_selector, "PacketLifeTimeSelector",
		14, 0, 2),
	PR_UINT(packet_life_time, "PacketLifeTime", 14, 2, 6),
	PR_UINT(preference, "Preference", 14, 8, 8),
	RTE_IB_ROW_RESERVED(14, 16, 16),
	RTE_IB_ROW_RESERVED(15, 0, 32),
};

static const struct rte_ib_record_layout path_rec_layout = {
	.name = "PathRecord",
	.fields = path_rec_fields,
	.nb_fields = RTE_DIM(path_rec_fields),
	.wire_size = RTE_IB_SA_PATH_REC_SIZE,
	.host_size = sizeof(struct rte_ib_sa_path_rec),
};

#define MC_UINT(m, n, w, b, width) \
	RTE_IB_ROW_UINT(struct rte_ib_sa_mcmember_rec, m, n, w, b, width)
#define MC_BYTES(m, n, w, b, width) \
	RTE_IB_ROW_BYTES(struct rte_ib_sa_mcmember_rec, m, n, w, b, width)

/* MCMemberRecord, IBA 1.3 15.2.5.17. */
static const struct rte_ib_field mcmember_rec_fields[] = {
	MC_BYTES(mgid, "MGID", 0, 0, 128),
	MC_BYTES(port_gid, "PortGID", 4, 0, 128),
	MC_UINT(qkey, "Q_Key", 8, 0, 32),
	MC_UINT(mlid, "MLID", 9, 0, 16),
	MC_UINT(mtu_selector, "MTUSelector", 9, 16, 2),
	MC_UINT(mtu, "MTU", 9, 18, 6),
	MC_UINT(traffic_class, "TClass", 9, 24, 8),
	MC_UINT(pkey, "P_Key", 10, 0, 16),
	MC_UINT(rate_selector, "RateSelector", 10, 16, 2),
	MC_UINT(rate, "Rate", 10, 18, 6),
	MC_UINT(packet_life_time_selector, "PacketLifeTimeSelector",
		10, 24, 2),
	MC_UINT(packet_life_time, "PacketLifeTime", 10, 26, 6),
	MC_UINT(sl, "SL", 11, 0, 4),
	MC_UINT(flow_label, "FlowLabel", 11, 4, 20),
	MC_UINT(hop_limit, "HopLimit", 11, 24, 8),
	MC_UINT(scope, "Scope", 12, 0, 4),
	MC_UINT(join_state, "JoinState", 12, 4, 4),
	MC_UINT(proxy_join, "ProxyJoin", 12, 8, 1),
	RTE_IB_ROW_RESERVED(12, 9, 23),
};

static const struct rte_ib_record_layout mcmember_rec_layout = {
	.name = "MCMemberRecord",
	.fields = mcmember_rec_fields,
	.nb_fields = RTE_DIM(mcmember_rec_fields),
	.wire_size = RTE_IB_SA_MCMEMBER_REC_SIZE,
	.host_size = sizeof(struct rte_ib_sa_mcmember_rec),
};

const struct rte_ib_record_layout *
rte_ib_sa_path_rec_layout(void)
{
	return &path_rec_layout;
}

const struct rte_ib_record_layout *
rte_ib_sa_mcmember_rec_layout(void)
{
	return &mcmember_rec_layout;
}

int
rte_ib_sa_path_rec_pack(const struct rte_ib_sa_path_rec *rec, void *buf,
			size_t len)
{
	return rte_ib_pack(&path_rec_layout, rec, buf, len);
}

int
rte_ib_sa_path_rec_unpack(const void *buf, size_t len,
			  struct rte_ib_sa_path_rec *rec)
{
	return rte_ib_unpack(&path_rec_layout, buf, len, rec);
}

int
rte_ib_sa_mcmember_rec_pack(const struct rte_ib_sa_mcmember_rec *rec,
			    void *buf, size_t len)
{
	return rte_ib_pack(&mcmember_rec_layout, rec, buf, len);
}

int
rte_ib_sa_mcmember_rec_unpack(const void *buf, size_t len,
			      struct rte_ib_sa_mcmember_rec *rec)
{
	return rte_ib_unpack(&mcmember_rec_layout, buf, len, rec);
}

const struct rte_ib_record_layout *
rte_ib_sa_node_rec_layout(void)
{
	return &node_rec_layout;
}

const struct rte_ib_record_layout *
rte_ib_sa_port_info_rec_layout(void)
{
	return &port_info_rec_layout;
}

const struct rte_ib_record_layout *
rte_ib_sa_inform_info_rec_layout(void)
{
	return &inform_info_rec_layout;
}

const struct rte_ib_record_layout *
rte_ib_sa_service_rec_layout(void)
{
	return &service_rec_layout;
}

const struct rte_ib_record_layout *
rte_ib_sa_layout_by_attr(uint16_t attr_id)
{
	switch (attr_id) {
	case RTE_IB_SA_ATTR_NODE_REC:
		return &node_rec_layout;
	case RTE_IB_SA_ATTR_PORT_INFO_REC:
		return &port_info_rec_layout;
	case RTE_IB_SA_ATTR_INFORM_INFO_REC:
		return &inform_info_rec_layout;
	case RTE_IB_SA_ATTR_SERVICE_REC:
		return &service_rec_layout;
	case RTE_IB_SA_ATTR_PATH_REC:
		return &path_rec_layout;
	case RTE_IB_SA_ATTR_MCMEMBER_REC:
		return &mcmember_rec_layout;
	case RTE_IB_ATTR_INFORM_INFO:
		return rte_ib_inform_info_layout();
	case RTE_IB_ATTR_NOTICE:
		return rte_ib_notice_layout();
	case RTE_IB_ATTR_CLASS_PORT_INFO:
		return rte_ib_class_port_info_layout();
	default:
		rte_errno = ENOTSUP;
		return NULL;
	}
}
