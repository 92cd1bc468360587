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

#include <stddef.h>
#include <stdint.h>

#include <rte_common.h>

#include "rte_ib_pack.h"
#include "rte_ib_records.h"

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
