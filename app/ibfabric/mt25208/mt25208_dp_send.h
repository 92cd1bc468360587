/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * MT25208 model, data path: what mt25208_dp_send.c offers the files above
 * it (send WQE execution, the per-QP service loop).
 */

#ifndef _IBFABRIC_MT25208_DP_SEND_H_
#define _IBFABRIC_MT25208_DP_SEND_H_

#include <stdbool.h>
#include <stdint.h>

#include "mt25208.h"

void dp_send_qp_op_error(struct mt25208 *dev, void *qpc, void *eqpc, uint32_t qpn, uint32_t low,
			 enum mt25208_check chk, const char *detail);
/** Execute SQ WQE number @p n of QP @p qpn; false: the QP went to ERR. */
bool dp_exec_send(struct mt25208 *dev, void *qpc, void *eqpc, uint32_t qpn, uint32_t n);
/** Run what doorbells named on QP @p qpn; *gone: the data path may forget it. */
bool dp_qp_service(struct mt25208 *dev, uint32_t qpn, bool *gone);

#endif /* _IBFABRIC_MT25208_DP_SEND_H_ */
