/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * ibmad_host: the MAD core (lib/ibmad) serving a real MT25208 model on
 * ibfabric, before and besides net_mthca. The driver-less host library
 * (test/lib/hca_host) brings the HCA up and owns its QP0/QP1; this program
 * registers it with lib/ib as an IB device whose ops are that library's
 * MAD_IFC, MLX sends, special CQ and async EQ, and lets the MAD core do
 * everything else on its control thread: OpenSM's directed-route sweep,
 * Set(PortInfo), NodeDescription, PMA queries.
 *
 *   ibmad_host serve PCI_DIR NODE_DESC   serve until SIGTERM/SIGINT
 *
 * Output lines the test reads: "ibmad_host: up", "ibmad_host: port
 * ACTIVE|DOWN", "ibmad_host: event <NAME> port <n> lid <lid> sm_lid
 * <lid>", and at exit "ibmad_host: stats ..." (rte_ibmad_stats).
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_eal.h>
#include <rte_errno.h>

#include <ib_driver.h>
#include <rte_ib_attrs.h>
#include <rte_ib_dev.h>
#include <rte_ib_pack.h>
#include <rte_ibmad.h>

#include "hh_host.h"

#define DMA_SIZE (96u << 20)
#define MLX_HDR_LEN 28   /* LRH 8 + BTH 12 + DETH 8 (IBA 5.2.2, 9.2, 9.3.2) */

static struct hh_host H;
static struct rte_ib_device ibdev;
static pthread_mutex_t hh_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t stop;

static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* PortInfo (IBA 14.2.5.6) from the firmware, unpacked by lib/ib's
 * field table, into the rte_ib attributes.
 */
static int
hh_query_port(struct rte_ib_device *dev, uint8_t port, struct rte_ib_port_attr *a)
{
	struct rte_ib_port_info pi;
	const uint8_t *mad;
	int ret = -EIO;

	(void)dev;
	if (port != 1)
		return -EINVAL;
	pthread_mutex_lock(&hh_lock);
	mad = hh_host_port_info(&H);
	if (mad != NULL && rte_ib_unpack(rte_ib_port_info_layout(), mad + 64,
					 RTE_IB_MAD_SIZE - 64, &pi) == 0)
		ret = 0;
	pthread_mutex_unlock(&hh_lock);
	if (ret != 0)
		return ret;
	a->lid = pi.lid;
	a->sm_lid = pi.master_sm_lid;
	a->cap_mask = pi.capability_mask;
	a->active_width = pi.link_width_active;
	a->state = pi.port_state;
	a->phys_state = pi.port_phys_state;
	a->lmc = pi.lmc;
	a->active_speed = pi.link_speed_active;
	a->active_mtu = pi.neighbor_mtu;
	a->sm_sl = pi.master_sm_sl;
	a->max_mtu = pi.mtu_cap;
	a->subnet_timeout = pi.subnet_timeout;
	return 0;
}

/* MAD_IFC with the receive's completion (Linux mthca_MAD_IFC, op_mod 4
 * with the extended input: my QPN, remote QPN, SL, path bits, RLID,
 * P_Key index).
 */
static int
hh_process_mad(struct rte_ib_device *dev, uint8_t port,
	       const struct rte_ib_mad_wc *wc, const void *in, void *out)
{
	const uint8_t *m = in;
	uint8_t ext[256];
	int st;

	(void)dev;
	memset(ext, 0, sizeof(ext));
	if (wc != NULL) {
		hh_put32(ext, 0x00, wc->qpn);
		hh_put32(ext, 0x08, wc->src_qpn);
		hh_put8(ext, 0x0c, (uint8_t)(wc->sl << 4));
		hh_put8(ext, 0x0d, (uint8_t)(wc->path_bits |
					     ((wc->flags & RTE_IB_MAD_WC_GRH) ? 0x80 : 0)));
		hh_put16(ext, 0x0e, wc->slid);
		hh_put16(ext, 0x12, wc->pkey_index);
	}
	pthread_mutex_lock(&hh_lock);
	st = hh_mad_ifc(&H.d, port, m, out, wc != NULL ? ext : NULL,
			wc != NULL ? wc->slid : 0, wc != NULL ? 4 : 3);
	pthread_mutex_unlock(&hh_lock);
	if (st == HH_ST_BAD_PKT)
		return 0;
	if (st != HH_ST_OK)
		return -EIO;
	if (m[3] == RTE_IB_METHOD_TRAP_REPRESS)
		return 0;
	if (m[1] == RTE_IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		((uint8_t *)out)[4] |= 0x80;
	return RTE_IB_MAD_RESULT_REPLY;
}

/* One MAD out of QP0 or QP1 as an MLX send: the headers are built here
 * (Linux mthca_build_mlx_header()): VL15 on QP0, a permissive SLID with a
 * permissive DLID (SLR), P_Key 0xFFFF, Q_Key 0 on QP0.
 */
static int
hh_mad_send(struct rte_ib_device *dev, uint8_t port, uint8_t qpn,
	    const struct rte_ib_mad_send_buf *buf)
{
	struct hh_qp *qp = qpn == 0 ? &H.qp0 : &H.qp1;
	const struct rte_ib_ah_attr *ah = &buf->ah_attr;
	bool slr = ah->dlid == RTE_IB_LID_PERMISSIVE;
	uint8_t h[MLX_HDR_LEN];
	int ret;

	(void)dev;
	(void)port;
	memset(h, 0, sizeof(h));
	h[0] = (uint8_t)((qpn == 0 ? 15 : 0) << 4);           /* LRH VL */
	h[1] = (uint8_t)(ah->sl << 4 | 2);                     /* SL, LNH local */
	hh_put16(h, 2, ah->dlid);
	hh_put16(h, 4, (MLX_HDR_LEN + RTE_IB_MAD_SIZE + 4) / 4); /* + ICRC */
	hh_put16(h, 6, slr ? RTE_IB_LID_PERMISSIVE : 0);
	h[8] = 0x64;                                           /* UD SEND only */
	hh_put16(h, 10, 0xffff);
	hh_put32(h, 12, buf->remote_qpn & 0xffffff);
	pthread_mutex_lock(&hh_lock);
	hh_put32(h, 16, qp->psn++ & 0xffffff);
	hh_put32(h, 20, qpn == 0 ? 0 : buf->remote_qkey);
	hh_put32(h, 24, qpn);
	ret = hh_post_mlx_send(&H.d, qp, h, sizeof(h), buf->mad, qpn == 0, slr,
			       ah->sl, ah->dlid);
	pthread_mutex_unlock(&hh_lock);
	return ret == 0 ? 0 : -EIO;
}

/* The special CQ: receives to the MAD core, sends retired; then the
 * async EQ: port changes to lib/ib events.
 */
static int
hh_intr_process(struct rte_ib_device *dev)
{
	uint8_t cqe[HH_CQE_SIZE];
	struct rte_ib_mad_wc wc;
	const uint8_t *eqe;
	struct rte_ib_event ev;
	struct hh_qp *qp;
	unsigned int n = 0;
	uint32_t qpn;
	bool active;

	pthread_mutex_lock(&hh_lock);
	while (hh_cq_poll(&H.d, &H.sqp_cq, cqe)) {
		qpn = hh_get32(cqe, HH_CQE_MY_QPN) & 0xffffff;
		qp = qpn == H.qp0.qpn ? &H.qp0 : qpn == H.qp1.qpn ? &H.qp1 : NULL;
		if (qp == NULL || (hh_get8(cqe, HH_CQE_IS_SEND) & 0x80) != 0 ||
		    (hh_get8(cqe, HH_CQE_OPCODE) & 0xfe) == 0xfe) {
			if (qp != NULL && (hh_get8(cqe, HH_CQE_IS_SEND) & 0x80) == 0)
				hh_post_recv(&H.d, qp, 1);
			continue;
		}
		memset(&wc, 0, sizeof(wc));
		wc.src_qpn = hh_get32(cqe, HH_CQE_RQPN) & 0xffffff;
		wc.slid = hh_get16(cqe, HH_CQE_RLID);
		wc.pkey_index = (uint16_t)(hh_get32(cqe, HH_CQE_IMM_PKEY) >> 16);
		wc.sl = hh_get8(cqe, HH_CQE_SL) >> 4;
		wc.path_bits = hh_get8(cqe, HH_CQE_G_PATH) & 0x7f;
		wc.port = 1;
		wc.qpn = qp == &H.qp0 ? 0 : 1;
		if ((hh_get8(cqe, HH_CQE_G_PATH) & 0x80) != 0) {
			wc.flags = RTE_IB_MAD_WC_GRH;
			memcpy(&wc.grh, qp->data.va + (size_t)hh_rq_index(qp,
			       hh_get32(cqe, HH_CQE_WQE)) * HH_RECV_SLOT, sizeof(wc.grh));
		}
		/* The MAD core copies it; the slot is reposted below. */
		rte_ib_device_mad_recv(dev, &wc, qp->data.va + (size_t)hh_rq_index(qp,
				       hh_get32(cqe, HH_CQE_WQE)) * HH_RECV_SLOT + RTE_IB_GRH_LEN,
				       RTE_IB_MAD_SIZE);
		hh_post_recv(&H.d, qp, 1);
	}
	while ((eqe = hh_eq_next(&H.d, &H.d.eq[HH_EQ_ASYNC])) != NULL) {
		n++;
		if (hh_get8(eqe, HH_EQE_TYPE) != HH_EV_PORT_CHANGE)
			continue;
		active = hh_get8(eqe, HH_EQE_SUBTYPE) == HH_PORT_CHANGE_ACTIVE;
		pthread_mutex_unlock(&hh_lock);
		ev.dev = dev;
		ev.port = 1;
		ev.type = active ? RTE_IB_EVENT_PORT_ACTIVE : RTE_IB_EVENT_PORT_ERR;
		rte_ib_dispatch_event(&ev);
		pthread_mutex_lock(&hh_lock);
	}
	if (n != 0)
		hh_eq_arm(&H.d, &H.d.eq[HH_EQ_ASYNC]);
	pthread_mutex_unlock(&hh_lock);
	return 0;
}

static const struct rte_ib_dev_ops hh_ops = {
	.query_port = hh_query_port,
	.process_mad = hh_process_mad,
	.mad_send = hh_mad_send,
	.intr_process = hh_intr_process,
};

static void
on_event(const struct rte_ib_event *ev, void *arg)
{
	struct rte_ib_port_attr a;

	(void)arg;
	memset(&a, 0, sizeof(a));
	rte_ib_port_attr_cached(ev->dev, ev->port, &a);
	printf("ibmad_host: event %s port %u lid %u sm_lid %u\n",
	       rte_ib_event_name(ev->type), ev->port, a.lid, a.sm_lid);
	if (ev->type == RTE_IB_EVENT_PORT_ACTIVE || ev->type == RTE_IB_EVENT_PORT_ERR)
		printf("ibmad_host: port %s\n",
		       ev->type == RTE_IB_EVENT_PORT_ACTIVE ? "ACTIVE" : "DOWN");
	fflush(stdout);
}

static int
serve(const char *dir, const char *node_desc)
{
	struct rte_ibmad_stats s;
	struct timespec nap = { 0, 50 * 1000000 };
	int ret;

	ret = hh_open(&H.d, dir, DMA_SIZE);
	if (ret == 0)
		ret = hh_host_up(&H);
	if (ret != 0) {
		printf("ibmad_host: FAIL bring-up of %s: %s\n", dir, strerror(-ret));
		return 1;
	}
	snprintf(ibdev.name, sizeof(ibdev.name), "hh0");
	memcpy(ibdev.node_desc, node_desc,
	       RTE_MIN(strlen(node_desc), sizeof(ibdev.node_desc)));
	ibdev.node_type = RTE_IB_NODE_CA;
	ibdev.phys_port_cnt = 1;
	ibdev.ops = &hh_ops;
	ibdev.eth_port_id[0] = RTE_IB_NO_ETH_PORT;
	if (rte_ib_device_register(&ibdev) < 0 ||
	    rte_ib_register_event_handler(&ibdev, on_event, NULL) < 0) {
		printf("ibmad_host: FAIL register: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	printf("ibmad_host: up\n");
	fflush(stdout);
	/* The MAD core's control thread does the work (no intr fd: it calls
	 * intr_process every few milliseconds); this thread only waits.
	 */
	while (!stop)
		nanosleep(&nap, NULL);
	memset(&s, 0, sizeof(s));
	rte_ibmad_stats_get(&ibdev, &s);
	rte_ib_unregister_event_handler(&ibdev, on_event, NULL);
	rte_ib_device_unregister(&ibdev);
	printf("ibmad_host: stats rx %" PRIu64 " rx_local %" PRIu64 " rx_smi_discard %"
	       PRIu64 " rx_invalid %" PRIu64 " rx_no_agent %" PRIu64 " tx %" PRIu64
	       " tx_error %" PRIu64 " events %" PRIu64 "\n", s.rx, s.rx_local,
	       s.rx_smi_discard, s.rx_invalid, s.rx_no_agent, s.tx, s.tx_error, s.events);
	fflush(stdout);
	hh_close(&H.d);
	return 0;
}

int
main(int argc, char **argv)
{
	char *eal[] = {
		argv[0], "--no-huge", "-m", "32", "--no-pci", "--no-shconf",
		"--file-prefix=ibmad_host", "--log-level=lib.ibmad:info", NULL,
	};
	int ret;

	if (argc != 4 || strcmp(argv[1], "serve") != 0) {
		fprintf(stderr, "usage: ibmad_host serve PCI_DIR NODE_DESC\n");
		return 2;
	}
	hh_verbose = getenv("HCA_HOST_VERBOSE") != NULL;
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	if (rte_eal_init(RTE_DIM(eal) - 1, eal) < 0) {
		fprintf(stderr, "ibmad_host: EAL: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	ret = serve(argv[2], argv[3]);
	rte_eal_cleanup();
	return ret;
}
