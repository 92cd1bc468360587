/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * MT25208 model, data path: what mt25208_dp_cqe.c offers the files above
 * it (completions, error CQEs, QPs to ERR and their flushes).
 */

#ifndef _IBFABRIC_MT25208_DP_CQE_H_
#define _IBFABRIC_MT25208_DP_CQE_H_

#include <stdbool.h>
#include <stdint.h>

#include "mt25208.h"

/** Write @p cqe to CQ @p cqn (overrun and PD checks, arming). */
void dp_cqe_post(struct mt25208 *dev, uint32_t cqn, uint8_t *cqe, bool solicited, bool err,
		 bool rx);
/** A CQ doorbell's arm of CQ @p cqn (PRM arbelprm_cq_cmd_doorbell_st). */
void dp_cq_arm(struct mt25208 *dev, uint32_t cqn, uint8_t cmd, uint8_t sn, uint32_t cons);
/** Check @p chk failed on QP @p qpn: counted, logged once per QP. */
void dp_qp_check_fail(struct mt25208 *dev, void *eqpc, uint32_t qpn, enum mt25208_check chk,
		      const char *detail);
void dp_qp_to_error(struct mt25208 *dev, void *qpc, uint32_t qpn);
void dp_err_cqe(struct mt25208 *dev, uint32_t qpn, uint32_t cqn, uint32_t wqe_off, bool is_send,
		uint8_t synd, uint8_t vendor);
/** The CQE syndrome (and *vendor) for a failed mt25208_mr_access() @p rc. */
uint8_t dp_synd_of(int rc, uint8_t *vendor);
/** Complete every outstanding WQE of a QP in ERR with a flush error. */
void dp_qp_flush(struct mt25208 *dev, void *qpc, void *eqpc, uint32_t qpn);

#endif /* _IBFABRIC_MT25208_DP_CQE_H_ */
