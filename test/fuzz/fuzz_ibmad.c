/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Fuzz target: the MAD core's receive path (lib/ibmad), as a PMD feeds
 * it. Input: byte 0 [0] receiving QP (0/1), [1] GRH flag, [2] send a
 * request first and give the fuzzed MAD its TID; byte 1 port (any value:
 * lib/ib must refuse a bad one); bytes 2-3 SLID; then the MAD, zero
 * padded or cut to 256 bytes. The process is set up once: EAL, a test
 * IB device whose mad_send only counts and whose process_mad echoes a
 * GetResp (standing for firmware), agents on QP0 and QP1.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_eal.h>
#include <rte_errno.h>

#include <ib_driver.h>
#include <rte_ib_dev.h>
#include <rte_ibmad.h>

static struct rte_ib_device dev;
static struct rte_ibmad_agent *agent_gsi, *agent_smi;
static uint64_t nsent;

static int
f_query_port(struct rte_ib_device *d, uint8_t port, struct rte_ib_port_attr *a)
{
	RTE_SET_USED(d);
	memset(a, 0, sizeof(*a));
	a->state = RTE_IB_PORT_ACTIVE;
	a->lid = (uint16_t)(0x10 + port);
	a->sm_lid = 1;
	return 0;
}

static int
f_mad_send(struct rte_ib_device *d, uint8_t port, uint8_t qpn,
	   const struct rte_ib_mad_send_buf *buf)
{
	RTE_SET_USED(d);
	RTE_SET_USED(port);
	RTE_SET_USED(qpn);
	RTE_SET_USED(buf);
	nsent++;
	return 0;
}

static int
f_process_mad(struct rte_ib_device *d, uint8_t port,
	      const struct rte_ib_mad_wc *wc, const void *in, void *out)
{
	const uint8_t *m = in;

	RTE_SET_USED(d);
	RTE_SET_USED(port);
	RTE_SET_USED(wc);
	if (m[3] == 0x07)
		return 0;
	memcpy(out, in, 256);
	((uint8_t *)out)[3] = 0x81;
	if (m[1] == 0x81)
		((uint8_t *)out)[4] |= 0x80;
	return RTE_IB_MAD_RESULT_REPLY;
}

static const struct rte_ib_dev_ops f_ops = {
	.query_port = f_query_port,
	.mad_send = f_mad_send,
	.process_mad = f_process_mad,
};

static void
f_recv(struct rte_ibmad_agent *agent, const struct rte_ibmad_recv *r, void *arg)
{
	RTE_SET_USED(arg);
	rte_ibmad_respond(agent, r, r->mad);
}

static int
setup(void)
{
	char *argv[] = {
		"fuzz_ibmad", "--no-huge", "-m", "64", "--no-pci", "--no-shconf",
		"--file-prefix=fuzz_ibmad", "--log-level=*:crit", NULL,
	};
	struct rte_ibmad_agent_conf c;

	if (rte_eal_init(RTE_DIM(argv) - 1, argv) < 0)
		return -1;
	rte_ibmad_ctrl_thread_set(false);
	snprintf(dev.name, sizeof(dev.name), "fuzz0");
	dev.node_type = RTE_IB_NODE_CA;
	dev.phys_port_cnt = 2;
	dev.ops = &f_ops;
	dev.eth_port_id[0] = dev.eth_port_id[1] = RTE_IB_NO_ETH_PORT;
	if (rte_ib_device_register(&dev) < 0)
		return -1;
	memset(&c, 0, sizeof(c));
	c.dev = &dev;
	c.port = 1;
	c.qpn = 1;
	c.mgmt_class = RTE_IB_MGMT_CLASS_SUBN_ADM;
	c.class_version = 2;
	c.method_mask[0] = 1u << RTE_IB_METHOD_GET | 1u << RTE_IB_METHOD_REPORT;
	c.recv_cb = f_recv;
	agent_gsi = rte_ibmad_agent_register(&c);
	c.qpn = 0;
	c.mgmt_class = RTE_IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
	c.class_version = 1;
	c.method_mask[0] = 1u << RTE_IB_METHOD_TRAP;
	agent_smi = rte_ibmad_agent_register(&c);
	return agent_gsi != NULL && agent_smi != NULL ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	struct rte_ibmad_send_params p;
	struct rte_ib_mad_wc wc;
	uint8_t mad[256];
	uint64_t tid;

	if (ready == 0)
		ready = setup() == 0 ? 1 : -1;
	if (ready < 0) {
		fprintf(stderr, "fuzz_ibmad: setup failed: %s\n",
			rte_strerror(rte_errno));
		abort();
	}
	if (size < 4)
		return 0;
	memset(&wc, 0, sizeof(wc));
	wc.qpn = data[0] & 1;
	wc.flags = (data[0] & 2) != 0 ? RTE_IB_MAD_WC_GRH : 0;
	wc.port = data[1];
	wc.slid = (uint16_t)(data[2] << 8 | data[3]);
	wc.src_qpn = wc.qpn;
	memset(mad, 0, sizeof(mad));
	memcpy(mad, data + 4, size - 4 < sizeof(mad) ? size - 4 : sizeof(mad));

	if ((data[0] & 4) != 0) {
		/* A request outstanding, so a response can match it. */
		memset(&p, 0, sizeof(p));
		p.mad = mad;
		p.len = sizeof(mad);
		p.ah_attr.dlid = 1;
		p.remote_qpn = 1;
		p.timeout_ms = 1;
		if (mad[0] == 1 && mad[1] == RTE_IB_MGMT_CLASS_SUBN_ADM &&
		    rte_ibmad_send(agent_gsi, &p, &tid) == 0)
			((struct rte_ib_mad_hdr *)mad)->tid = rte_cpu_to_be_64(tid);
	}
	rte_ib_device_mad_recv(&dev, &wc, mad, sizeof(mad));
	rte_ibmad_poll();
	return 0;
}
