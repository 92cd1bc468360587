/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * Private to ibfabric's MT25208 model: the data path's counters, kept in
 * its state (mt25208_dp_state.h) and read through mt25208_dp_stats() of
 * mt25208_dp.h.
 */

#ifndef _IBFABRIC_MT25208_DP_STATS_H_
#define _IBFABRIC_MT25208_DP_STATS_H_

#include <stdint.h>

/** Data-path counters (ctl "show", tests). */
struct mt25208_dp_stats {
	uint64_t doorbells;
	uint64_t db_coalesced;	/**< doorbells that covered overwritten ones */
	uint64_t sends;
	uint64_t recvs;
	uint64_t cqes;
	uint64_t err_cqes;
	uint64_t drop_no_qp;
	uint64_t drop_qp_state;
	uint64_t drop_pkey;
	uint64_t drop_qkey;
	uint64_t drop_no_wqe;
	uint64_t drop_malformed;
	uint64_t cq_overruns;
	uint64_t comp_events;
	uint64_t port_events;
	uint64_t mcast_copies;
	uint64_t fail_sends;	/**< send WQEs failed by "hca <node> fail-send" */
};

#endif /* _IBFABRIC_MT25208_DP_STATS_H_ */
