/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * mthca_host: a small DPDK host for the fabric tests. It probes net_mthca
 * on the simulated MT25208 it is given (-a), so the PMD and the MAD core
 * it links bring the port up under the fabric's SM, then exchanges UD
 * datagrams with a peer host driven by the test script over stdin/stdout:
 *
 *   host  -> "READY lid=<lid> qpn=<rx qpn> txqpn=<tx qpn> port=<ethdev port>"
 *   test  -> "PEER <lid> <tx qpn>"                        what the sender must be
 *   test  -> "SEND <dlid> <dqpn> <count> <size> <pps>"  send datagrams
 *   test  -> "RECV <count> <timeout ms>"                  receive and verify
 *   test  -> "STATS"                                      ethdev stats, xstats
 *   test  -> "CYCLE <n>"                                  n stop/start cycles
 *   test  -> "QUIT"
 *
 * Every datagram carries a 64-bit sequence number and a pattern derived
 * from it; the receiver checks both, the source QPN and the SLID.
 * Results are "OK ..." or "ERR ..." lines.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ib_dev.h>
#include <rte_ib_mbuf.h>
#include <rte_mbuf.h>
#include <rte_pmd_mthca.h>

#define NB_DESC		1024
#define NB_RX_DESC	4096
#define BURST		32
#define QKEY		0x00000b1bu	/* net_mthca's default Q_Key */

static uint16_t port_id;
static struct rte_mempool *pool;
static struct rte_ib_device *ibdev;
static uint8_t ib_port;

static int
port_setup(void)
{
	struct rte_eth_conf conf;
	int ret;

	memset(&conf, 0, sizeof(conf));
	conf.intr_conf.lsc = 1;
	ret = rte_eth_dev_configure(port_id, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(port_id, 0, NB_RX_DESC, 0, NULL, pool);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port_id, 0, NB_DESC, 0, NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port_id);
	return ret;
}

static uint8_t
pattern(uint64_t seq, uint32_t i)
{
	return (uint8_t)(seq * 31 + i * 7 + 1);
}

static void
do_send(uint16_t dlid, uint32_t dqpn, uint64_t count, uint32_t size, uint64_t pps)
{
	struct rte_ib_ah_attr attr;
	struct rte_ib_ah *ah;
	struct rte_mbuf *m[BURST];
	uint64_t sent = 0, hz = rte_get_timer_hz(), start = rte_get_timer_cycles();

	memset(&attr, 0, sizeof(attr));
	attr.dlid = dlid;
	attr.port_num = ib_port;
	ah = rte_ib_ah_create(ibdev, &attr);
	if (ah == NULL) {
		printf("ERR ah_create: %s\n", rte_strerror(rte_errno));
		return;
	}
	while (sent < count) {
		unsigned int n = RTE_MIN((uint64_t)BURST, count - sent), i, k;
		uint64_t due = start + (sent * hz) / pps;

		/* pace by sleeping: the machine has 2 cores for the model and both hosts */
		while (rte_get_timer_cycles() < due)
			usleep(100);
		if (rte_pktmbuf_alloc_bulk(pool, m, n) != 0)
			continue;
		for (i = 0; i < n; i++) {
			uint8_t *p = (uint8_t *)rte_pktmbuf_append(m[i], size);
			struct rte_ib_mbuf_addr *a = rte_ib_mbuf_addr(m[i]);
			uint64_t seq = sent + i;
			uint32_t j;

			memcpy(p, &seq, sizeof(seq));
			for (j = sizeof(seq); j < size; j++)
				p[j] = pattern(seq, j);
			a->tx.ah = ah;
			a->tx.dest_qpn = dqpn;
			a->tx.qkey = QKEY;
		}
		for (k = 0; k < n;)
			k += rte_eth_tx_burst(port_id, 0, m + k, n - k);
		sent += n;
	}
	/* let the last completions come back before the AH goes */
	rte_delay_ms(100);
	rte_eth_tx_burst(port_id, 0, NULL, 0);
	rte_ib_ah_destroy(ah);
	printf("OK sent %" PRIu64 "\n", sent);
}

static void
do_recv(uint64_t count, uint32_t timeout_ms, uint32_t peer_qpn, uint16_t peer_lid)
{
	uint64_t got = 0, bad = 0, dup = 0, end = rte_get_timer_cycles() +
		rte_get_timer_hz() * timeout_ms / 1000;
	uint8_t *seen = calloc(count, 1);
	struct rte_mbuf *m[BURST];

	if (seen == NULL)
		return;
	while (got < count && rte_get_timer_cycles() < end) {
		uint16_t n = rte_eth_rx_burst(port_id, 0, m, BURST), i;

		for (i = 0; i < n; i++) {
			const uint8_t *p = rte_pktmbuf_mtod(m[i], const uint8_t *);
			struct rte_ib_mbuf_addr *a = rte_ib_mbuf_addr(m[i]);
			uint64_t seq;
			uint32_t j, len = m[i]->pkt_len;
			bool ok = len >= sizeof(seq);

			if (ok) {
				memcpy(&seq, p, sizeof(seq));
				ok = seq < count && (peer_qpn == 0 || a->rx.src_qpn == peer_qpn) &&
				     (peer_lid == 0 || a->rx.slid == peer_lid) && a->rx.port == ib_port;
				for (j = sizeof(seq); ok && j < len; j++)
					ok = p[j] == pattern(seq, j);
			}
			if (!ok)
				bad++;
			else if (seen[seq]++)
				dup++;
			else
				got++;
			rte_pktmbuf_free(m[i]);
		}
	}
	free(seen);
	printf("%s received %" PRIu64 " of %" PRIu64 " bad %" PRIu64 " dup %" PRIu64 "\n",
	       got == count && bad == 0 && dup == 0 ? "OK" : "ERR", got, count, bad, dup);
}

static void
do_stats(void)
{
	struct rte_eth_xstat_name *names;
	struct rte_eth_xstat *xs;
	struct rte_eth_stats st;
	int n, i;

	rte_eth_stats_get(port_id, &st);
	printf("STAT ipackets %" PRIu64 " opackets %" PRIu64 " ibytes %" PRIu64 " obytes %"
	       PRIu64 " ierrors %" PRIu64 " oerrors %" PRIu64 " rx_nombuf %" PRIu64 "\n",
	       st.ipackets, st.opackets, st.ibytes, st.obytes, st.ierrors, st.oerrors,
	       st.rx_nombuf);
	n = rte_eth_xstats_get_names(port_id, NULL, 0);
	names = calloc(n, sizeof(*names));
	xs = calloc(n, sizeof(*xs));
	if (names != NULL && xs != NULL && rte_eth_xstats_get_names(port_id, names, n) == n &&
	    rte_eth_xstats_get(port_id, xs, n) == n)
		for (i = 0; i < n; i++)
			printf("XSTAT %s %" PRIu64 "\n", names[i].name, xs[i].value);
	free(names);
	free(xs);
	printf("OK stats\n");
}

static void
do_cycle(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (rte_eth_dev_stop(port_id) != 0 || rte_eth_dev_start(port_id) != 0) {
			printf("ERR cycle %u\n", i);
			return;
		}
	printf("OK cycles %u\n", n);
}

int
main(int argc, char **argv)
{
	struct rte_ib_port_attr pa;
	char line[256];
	uint32_t qpn = 0, txqpn = 0, peer_qpn = 0;
	uint16_t peer_lid = 0;
	int ret, i;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("ERR rte_eal_init: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (rte_eth_dev_count_avail() == 0) {
		printf("ERR no ethdev\n");
		return 1;
	}
	port_id = 0;
	pool = rte_pktmbuf_pool_create("mthca_host", 8191, 256, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE, rte_socket_id());
	ibdev = rte_ib_device_from_port_id(port_id, &ib_port);
	if (pool == NULL || ibdev == NULL || rte_ib_mbuf_dynfield_register() < 0) {
		printf("ERR setup: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	ret = port_setup();
	if (ret != 0) {
		printf("ERR port setup: %s\n", strerror(-ret));
		return 1;
	}
	if (rte_pmd_mthca_queue_qpn(port_id, 0, 0, &qpn) != 0 ||
	    rte_pmd_mthca_queue_qpn(port_id, 0, 1, &txqpn) != 0) {
		printf("ERR queue QPNs: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	/* the SM makes the port ACTIVE through the MAD core: wait for it */
	for (i = 0; i < 600; i++) {
		if (rte_ib_query_port(ibdev, ib_port, &pa) == 0 && pa.state == RTE_IB_PORT_ACTIVE)
			break;
		rte_delay_ms(100);
	}
	if (i == 600) {
		printf("ERR port %u not ACTIVE\n", ib_port);
		return 1;
	}
	printf("READY lid=%u qpn=%u txqpn=%u port=%u\n", pa.lid, qpn, txqpn, port_id);
	while (fgets(line, sizeof(line), stdin) != NULL) {
		unsigned int a, b, c, d, e;

		if (sscanf(line, "PEER %u %u", &a, &b) == 2) {
			peer_lid = (uint16_t)a;
			peer_qpn = b;
			printf("OK peer\n");
		} else if (sscanf(line, "SEND %u %u %u %u %u", &a, &b, &c, &d, &e) == 5) {
			do_send((uint16_t)a, b, c, d, e);
		} else if (sscanf(line, "RECV %u %u", &a, &b) == 2) {
			do_recv(a, b, peer_qpn, peer_lid);
		} else if (strncmp(line, "STATS", 5) == 0) {
			do_stats();
		} else if (sscanf(line, "CYCLE %u", &a) == 1) {
			do_cycle(a);
		} else if (strncmp(line, "QUIT", 4) == 0) {
			break;
		} else {
			printf("ERR unknown command: %s", line);
		}
	}
	RTE_ETH_FOREACH_DEV(port_id) {
		rte_eth_dev_stop(port_id);
		rte_eth_dev_close(port_id);
	}
	rte_eal_cleanup();
	printf("OK bye\n");
	return 0;
}
