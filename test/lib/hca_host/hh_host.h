/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * hca_host: one complete host as the scenarios use it: bring-up, the
 * three EQs, CQs, QP0/QP1 with the SMA agent, two UD QPs, a payload
 * region translated through the MTT.
 */

#ifndef _HH_HOST_H_
#define _HH_HOST_H_

#include "hh.h"

#define HH_HOST_UD_QKEY		0x11111111u
#define HH_HOST_CQ_ENTRIES	256
#define HH_HOST_QP_DEPTH	64

struct hh_host {
	struct hh_dev d;
	struct hh_cq sqp_cq;		/**< QP0 + QP1, send and receive */
	struct hh_cq scq, rcq;		/**< the UD QPs */
	struct hh_qp qp0, qp1;
	struct hh_qp ud;		/**< P_Key index 0 */
	struct hh_qp ud_bad;		/**< P_Key index 1 (0x0000 under OpenSM: invalid) */
	struct hh_buf payload;
	struct hh_mr payload_mr;	/**< MTT-translated region over payload, IOVA 0 */
	uint16_t lid;
	bool port_active;
	unsigned int bad_events;	/**< EQEs that broke a rule */
	unsigned int wq_catas;		/**< WQ catastrophic error events seen */
	uint32_t wq_catas_qpn;		/**< the QP the last one named */
	unsigned int cq_err;		/**< CQ error events seen */
	uint32_t cq_err_cqn;		/**< the CQ the last one named */
	uint8_t cq_err_synd;		/**< its syndrome: 1 overrun, else access violation */
	const char *name;
};

/** QPN of the host's i-th ordinary QP (mthca_CONF_SPECIAL_QP(): after sqp_start + 4). */
uint32_t hh_host_qpn(const struct hh_host *h, unsigned int i);
/** Everything after hh_open()/hh_attach_mem(): bring-up to QPs in RTS. */
int hh_host_up(struct hh_host *h);
/** Run the QP0/QP1 agent once and drain the async EQ. */
void hh_host_service(struct hh_host *h);
/** PortInfo of port 1 from firmware (MAD_IFC, local), or NULL. */
/**
 * SubnGet(@p attr, modifier @p mod) of port 1 through MAD_IFC; the
 * response MAD (valid until the next call), or NULL.
 */
const uint8_t *hh_host_smp_get(struct hh_host *h, uint16_t attr, uint32_t mod);
const uint8_t *hh_host_port_info(struct hh_host *h);
/** Wait up to @p ms for a CQE on @p cq, serving the agent meanwhile. 1 or 0. */
int hh_host_wait_cqe(struct hh_host *h, struct hh_cq *cq, uint8_t *cqe, int ms);

#endif /* _HH_HOST_H_ */
