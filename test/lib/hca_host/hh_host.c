/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/* hca_host: a complete host (hh_host.h). */

#include <errno.h>
#include <time.h>

#include "hh_host.h"

uint32_t
hh_host_qpn(const struct hh_host *h, unsigned int i)
{
	return h->d.sqp_start + 8 + i;
}

int
hh_host_up(struct hh_host *h)
{
	struct hh_dev *d = &h->d;
	int ret;

	ret = hh_bringup(d);
	if (ret == 0)
		ret = hh_setup_eqs(d);
	if (ret == 0)
		ret = hh_cq_create(d, &h->sqp_cq, d->rsvd_cqs + 0, HH_HOST_CQ_ENTRIES);
	if (ret == 0)
		ret = hh_cq_create(d, &h->scq, d->rsvd_cqs + 1, HH_HOST_CQ_ENTRIES);
	if (ret == 0)
		ret = hh_cq_create(d, &h->rcq, d->rsvd_cqs + 2, HH_HOST_CQ_ENTRIES);
	if (ret == 0)
		ret = hh_qp_create(d, &h->qp0, d->sqp_start, HH_QPST_MLX, 1, &h->sqp_cq,
				   &h->sqp_cq, HH_HOST_QP_DEPTH);
	if (ret == 0)
		ret = hh_qp_create(d, &h->qp1, d->sqp_start + 2, HH_QPST_MLX, 1, &h->sqp_cq,
				   &h->sqp_cq, HH_HOST_QP_DEPTH);
	if (ret == 0)
		ret = hh_qp_create(d, &h->ud, hh_host_qpn(h, 0), HH_QPST_UD, 1, &h->scq, &h->rcq,
				   HH_HOST_QP_DEPTH);
	if (ret == 0)
		ret = hh_qp_create(d, &h->ud_bad, hh_host_qpn(h, 1), HH_QPST_UD, 1, &h->scq,
				   &h->rcq, HH_HOST_QP_DEPTH);
	if (ret != 0)
		return ret;
	h->qp0.qkey = 0;
	h->qp1.qkey = 0x80010000u;	/* IBA 13.5.1 well-known GSI Q_Key */
	h->ud.qkey = HH_HOST_UD_QKEY;
	h->ud_bad.qkey = HH_HOST_UD_QKEY;
	ret = hh_dma_alloc(d, 64 * 4096, 4096, &h->payload);
	if (ret == 0)
		ret = hh_mr_mtt(d, &h->payload_mr, &h->payload, HH_MPT_F_LOCAL_WRITE);
	/* receives first; QP0 last: QP0 at RTR makes the port come up (__mthca_modify_qp()) */
	if (ret == 0)
		ret = hh_post_recv(d, &h->qp1, HH_HOST_QP_DEPTH);
	if (ret == 0)
		ret = hh_post_recv(d, &h->qp0, HH_HOST_QP_DEPTH);
	if (ret == 0)
		ret = hh_qp_up(d, &h->qp1, 0);
	if (ret == 0)
		ret = hh_qp_up(d, &h->qp0, 0);
	if (ret == 0)
		ret = hh_qp_up(d, &h->ud, 0);
	if (ret == 0)
		ret = hh_qp_up(d, &h->ud_bad, 1);
	if (ret == 0)
		ret = hh_post_recv(d, &h->ud, HH_HOST_QP_DEPTH / 2);
	return ret;
}

static void
host_events(struct hh_host *h)
{
	const uint8_t *eqe;
	unsigned int n = 0;

	while ((eqe = hh_eq_next(&h->d, &h->d.eq[HH_EQ_ASYNC])) != NULL) {
		n++;
		uint8_t type = hh_get8(eqe, HH_EQE_TYPE);

		if (type == HH_EV_PORT_CHANGE) {
			/* mthca_eq_int(): port in bits 29..28 of the word at 0x0c */
			if (((hh_get32(eqe, HH_EQE_PORT) >> 28) & 3) != 1) {
				HH_ERR("%s: PORT_CHANGE for port %u", h->name,
				       (hh_get32(eqe, HH_EQE_PORT) >> 28) & 3);
				h->bad_events++;
			}
			h->port_active = hh_get8(eqe, HH_EQE_SUBTYPE) == HH_PORT_CHANGE_ACTIVE;
			HH_LOG("%s: port 1 %s", h->name, h->port_active ? "ACTIVE" : "down");
		} else if (type == HH_EV_WQ_CATAS) {
			h->wq_catas++;
			h->wq_catas_qpn = hh_get32(eqe, HH_EQE_DATA) & 0xffffff;
			HH_LOG("%s: WQ catastrophic error, QP 0x%x", h->name, h->wq_catas_qpn);
		} else if (type == HH_EV_CQ_ERROR) {
			h->cq_err++;
			h->cq_err_cqn = hh_get32(eqe, HH_EQE_DATA) & 0xffffff;
			h->cq_err_synd = hh_get8(eqe, HH_EQE_CQERR_SYND);
			HH_LOG("%s: CQ error, CQ 0x%x, syndrome %u", h->name, h->cq_err_cqn,
			       h->cq_err_synd);
		} else {
			HH_LOG("%s: async event 0x%02x", h->name, type);
		}
	}
	/* re-arm after a drain that found entries (arbel_eq_req_not()), not on every
	 * poll: an arm write is register activity that keeps the model spinning */
	if (n != 0)
		hh_eq_arm(&h->d, &h->d.eq[HH_EQ_ASYNC]);
}

void
hh_host_service(struct hh_host *h)
{
	hh_sma_poll(&h->d, &h->qp0, &h->qp1, NULL);
	host_events(h);
}

const uint8_t *
hh_host_smp_get(struct hh_host *h, uint16_t attr, uint32_t mod)
{
	static uint8_t resp[256];
	uint8_t mad[256];

	/* a LID-routed SubnGet answered by firmware (mthca_process_mad()) */
	memset(mad, 0, sizeof(mad));
	mad[0] = 1;
	mad[1] = 0x01;
	mad[2] = 1;
	mad[3] = 0x01;
	hh_put64(mad, 8, 0x1234);
	hh_put16(mad, 16, attr);
	hh_put32(mad, 20, mod);
	if (hh_mad_ifc(&h->d, 1, mad, resp, NULL, 0, 3) != HH_ST_OK)
		return NULL;
	return resp;
}

const uint8_t *
hh_host_port_info(struct hh_host *h)
{
	return hh_host_smp_get(h, 0x0015, 1);
}

int
hh_host_wait_cqe(struct hh_host *h, struct hh_cq *cq, uint8_t *cqe, int ms)
{
	uint64_t end = hh_now_us() + (uint64_t)ms * 1000;
	unsigned int spins = 0;

	while (hh_now_us() < end) {
		if (hh_cq_poll(&h->d, cq, cqe))
			return 1;
		hh_host_service(h);
		hh_idle(&h->d, ++spins);
	}
	return 0;
}
