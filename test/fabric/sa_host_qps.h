/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef SA_HOST_QPS_H
#define SA_HOST_QPS_H

#include <stdint.h>

#include <rte_ib_dev.h>

/*
 * The "QPS <file> <ms> <depth>" command of sa_host (test/bench/bench_sa_qps.py):
 * PathRecord Get queries for the destinations listed in <file> (one
 * "<lid> <gid>" per line), <depth> of them outstanding at all times for
 * <ms> milliseconds, every answer checked against the expected path.
 * Prints one "OK qps=..." line (or "ERR ...").
 */
void sa_host_qps(struct rte_ib_device *dev, uint8_t port, uint16_t lid,
		 const struct rte_ib_gid *gid, const char *file,
		 unsigned int ms, unsigned int depth);

#endif /* SA_HOST_QPS_H */
