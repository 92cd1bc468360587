/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * MT25208 model, data path: what mt25208_dp_doorbell.c offers the files
 * above it (doorbell polling, the hook behind mt25208_dp_watch()).
 */

#ifndef _IBFABRIC_MT25208_DP_DOORBELL_H_
#define _IBFABRIC_MT25208_DP_DOORBELL_H_

#include <stdbool.h>
#include <stdint.h>

#include "mt25208_dp_state.h"

bool dp_poll_cq_db(struct mt25208 *dev, struct dp_uar *u, const uint8_t *slot);
/** Look at every UAR page of BAR2 for doorbells on pages nobody named. */
void dp_full_scan(struct mt25208 *dev);
/** Poll the send and CQ doorbells of the known UAR pages; true if any acted. */
bool dp_poll_uars(struct mt25208 *dev);
/* dev->dp_watch: mt25208_dp_watch() of mt25208.h */
void dp_doorbell_watch(struct mt25208 *dev, uint32_t uar, uint32_t qpn);

#endif /* _IBFABRIC_MT25208_DP_DOORBELL_H_ */
