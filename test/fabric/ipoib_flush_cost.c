/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * ipoib_flush_cost: what net_ipoib's control flush adds to an idle
 * rx_burst (doc/guides/nics/ipoib.rst, "Control packets"), for
 * test_ipoib_probe.py. A net_ipoib port is made at run time
 * (rte_vdev_init()) on the HCA of -a, started, and with nothing on the
 * wire three calls are timed with the TSC, the median of ROUNDS spans
 * of SPAN calls each:
 *
 *   port_rx   rte_eth_rx_burst() on the net_ipoib port: the PMD's whole
 *             receive path, flush included;
 *   if_rx     rte_ipoib_if_rx_burst() on its interface
 *             (rte_pmd_ipoib_get_if()): the same without the flush;
 *   flush     rte_ipoib_if_tx_burst(ifp, 0, NULL, 0): the flush alone.
 *
 * Prints "COST port_rx=<cycles> if_rx=<cycles> flush=<cycles>" and
 * exits 0, or "ERR <what>" and 1.
 */

#include <stdio.h>
#include <stdlib.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include <rte_pmd_ipoib.h>

#define ROUNDS 101
#define SPAN 1000

enum which { PORT_RX, IF_RX, FLUSH };

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t
median_cost(enum which w, uint16_t port, struct rte_ipoib_if *ifp)
{
	struct rte_mbuf *m[32];
	uint64_t spans[ROUNDS], t;
	unsigned int r, i, got = 0;

	for (r = 0; r < ROUNDS; r++) {
		t = rte_rdtsc_precise();
		for (i = 0; i < SPAN; i++) {
			if (w == PORT_RX)
				got += rte_eth_rx_burst(port, 0, m, RTE_DIM(m));
			else if (w == IF_RX)
				got += rte_ipoib_if_rx_burst(ifp, 0, m, RTE_DIM(m));
			else
				rte_ipoib_if_tx_burst(ifp, 0, NULL, 0);
		}
		spans[r] = rte_rdtsc_precise() - t;
		if (got != 0) {
			rte_pktmbuf_free_bulk(m, got > RTE_DIM(m) ? RTE_DIM(m) : got);
			got = 0;
		}
	}
	qsort(spans, ROUNDS, sizeof(spans[0]), cmp_u64);
	return spans[ROUNDS / 2] / SPAN;
}

int
main(int argc, char **argv)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_mempool *mp;
	struct rte_ipoib_if *ifp;
	uint16_t port;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("ERR rte_eal_init: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	argc -= ret;
	argv += ret;
	if (argc < 2) {
		printf("ERR usage: ipoib_flush_cost <EAL args> -- <net_ipoib devargs>\n");
		return 1;
	}
	if (rte_vdev_init("net_ipoib0", argv[1]) != 0 ||
	    rte_eth_dev_get_port_by_name("net_ipoib0", &port) != 0) {
		printf("ERR net_ipoib0,%s: not probed\n", argv[1]);
		return 1;
	}
	ifp = rte_pmd_ipoib_get_if(port);
	mp = rte_pktmbuf_pool_create("flush_cost", 511, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				     rte_socket_id());
	if (ifp == NULL || mp == NULL || rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, 0, rte_socket_id(), NULL, mp) != 0 ||
	    rte_eth_tx_queue_setup(port, 0, 0, rte_socket_id(), NULL) != 0 ||
	    rte_eth_dev_start(port) != 0) {
		printf("ERR set-up of port %u: %s\n", port, rte_strerror(rte_errno));
		return 1;
	}
	/* A port that is not net_ipoib's has no interface. */
	if (rte_pmd_ipoib_get_if(RTE_MAX_ETHPORTS) != NULL || rte_errno != ENODEV) {
		printf("ERR rte_pmd_ipoib_get_if() of no port\n");
		return 1;
	}
	printf("COST port_rx=%" PRIu64 " if_rx=%" PRIu64 " flush=%" PRIu64 "\n",
	       median_cost(PORT_RX, port, ifp), median_cost(IF_RX, port, ifp),
	       median_cost(FLUSH, port, ifp));
	rte_eth_dev_stop(port);
	rte_eth_dev_close(port);
	rte_vdev_uninit("net_ipoib0");
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return 0;
}
