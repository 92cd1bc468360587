/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * Private to ibfabric's MT25208 model: the data path's entry points
 * (mt25208_dp.c) and its counters. Its hardware formats (doorbells, doorbell
 * records, WQE segments, the UD address vector, the CQE, the model's EQPC
 * layout) are in mt25208_hw.h with every other MT25208 format.
 */

#ifndef _IBFABRIC_MT25208_DP_H_
#define _IBFABRIC_MT25208_DP_H_

#include <stdbool.h>
#include <stdint.h>

#include "mt25208_dp_stats.h"

struct mt25208;

/* ------------------------------------------------------------------ */
/* Entry points                                                         */

/**
 * Attach data-path state to @p dev (dev->dp, dev->dp_reset) and make the
 * model the receiver of its node's packets (node->hca, fabric.hca_recv).
 * Call once after mt25208_new(). 0 or -ENOMEM.
 */
int mt25208_dp_init(struct mt25208 *dev);
/** Free what mt25208_dp_init made; NULL-safe. */
void mt25208_dp_free(struct mt25208 *dev);
/**
 * Poll the UAR doorbells and doorbell records of @p dev, execute posted
 * send WQEs, flush queues in error, report port state changes. Returns
 * true if anything happened (the caller's spin/back-off decision).
 */
bool mt25208_dp_poll(struct mt25208 *dev);
/**
 * A bus error on host memory ended mt25208_dp_poll() early (mt25208_guard.h):
 * free the packet a send was building.
 */
void mt25208_dp_bus_error(struct mt25208 *dev);
/** Data-path counters (ctl "show", tests); NULL before mt25208_dp_init(). */
const struct mt25208_dp_stats *mt25208_dp_stats(const struct mt25208 *dev);

#endif /* _IBFABRIC_MT25208_DP_H_ */
