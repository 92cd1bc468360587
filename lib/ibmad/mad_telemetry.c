/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Telemetry endpoint of the MAD core (dpdk-telemetry.py): /ibmad/stats,
 * the counters of struct rte_ibmad_stats, of a device or summed. It runs on the
 * telemetry thread and copies the counters under ibmad_lock, as
 * rte_ibmad_stats_get() does.
 */

#include <string.h>

#include <rte_telemetry.h>

#include "ibmad_private.h"

#define STAT(f) { #f, offsetof(struct rte_ibmad_stats, f) }
static const struct {
	const char *name;
	size_t off;
} stat_fields[] = {
	STAT(rx), STAT(rx_queue_full), STAT(rx_invalid), STAT(rx_smi_discard),
	STAT(rx_local), STAT(rx_local_error), STAT(rx_agent), STAT(rx_response),
	STAT(rx_unmatched), STAT(rx_no_agent), STAT(traps_forwarded), STAT(tx),
	STAT(tx_error), STAT(retries), STAT(timeouts), STAT(events), STAT(rx_bad_source),
	STAT(rx_bad_route), STAT(rmpp_rx_aborted),
};

/* Add @p st to @p sum, field by field. */
static void
stats_add(const char *name, const struct rte_ibmad_stats *st, void *arg)
{
	struct rte_ibmad_stats *sum = arg;
	unsigned int i;

	RTE_SET_USED(name);
	for (i = 0; i < RTE_DIM(stat_fields); i++)
		*(uint64_t *)((uint8_t *)sum + stat_fields[i].off) +=
			*(const uint64_t *)((const uint8_t *)st + stat_fields[i].off);
}

/*
 * /ibmad/stats[,<device>]: the counters of one device, or without a
 * parameter their sums over every served device ("devices" says how
 * many): DPDK 22.11's telemetry nests no dictionary in a dictionary.
 */
static int
tel_stats(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_ibmad_stats sum;
	unsigned int i;
	int n;

	RTE_SET_USED(cmd);
	memset(&sum, 0, sizeof(sum));
	n = ibmad_stats_walk(params != NULL && params[0] != '\0' ? params : NULL, stats_add,
			     &sum);
	if (n == 0 && params != NULL && params[0] != '\0')
		return -ENODEV;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "devices", n);
	for (i = 0; i < RTE_DIM(stat_fields); i++)
		rte_tel_data_add_dict_u64(d, stat_fields[i].name,
			*(const uint64_t *)((const uint8_t *)&sum + stat_fields[i].off));
	return 0;
}

RTE_INIT(ibmad_telemetry_init)
{
	rte_telemetry_register_cmd("/ibmad/stats", tel_stats,
				   "MAD core counters, summed over the served IB devices, or of one. Parameters: [device]");
}
