/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Telemetry endpoint of the MAD core (dpdk-telemetry.py): /ibmad/stats,
 * the counters of struct rte_ibmad_stats, by device. It runs on the
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

static void
stats_fill(struct rte_tel_data *d, const struct rte_ibmad_stats *st)
{
	unsigned int i;

	rte_tel_data_start_dict(d);
	for (i = 0; i < RTE_DIM(stat_fields); i++)
		rte_tel_data_add_dict_u64(d, stat_fields[i].name,
			*(const uint64_t *)((const uint8_t *)st + stat_fields[i].off));
}

/* One device: its counters are the answer itself. */
static void
stats_one(const char *name, const struct rte_ibmad_stats *st, void *arg)
{
	RTE_SET_USED(name);
	stats_fill(arg, st);
}

/* Every device: a dictionary of them, by name. */
static void
stats_each(const char *name, const struct rte_ibmad_stats *st, void *arg)
{
	struct rte_tel_data *c = rte_tel_data_alloc();

	if (c == NULL)
		return;
	stats_fill(c, st);
	if (rte_tel_data_add_dict_container(arg, name, c, 0) != 0)
		rte_tel_data_free(c);
}

/* /ibmad/stats[,<device>] */
static int
tel_stats(const char *cmd, const char *params, struct rte_tel_data *d)
{
	RTE_SET_USED(cmd);
	if (params != NULL && params[0] != '\0')
		return ibmad_stats_walk(params, stats_one, d) == 1 ? 0 : -ENODEV;
	rte_tel_data_start_dict(d);
	ibmad_stats_walk(NULL, stats_each, d);
	return 0;
}

RTE_INIT(ibmad_telemetry_init)
{
	rte_telemetry_register_cmd("/ibmad/stats", tel_stats,
				   "MAD core counters of every served IB device, or of one. Parameters: [device]");
}
