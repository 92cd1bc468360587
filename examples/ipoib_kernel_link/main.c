/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * dpdk-ipoib-kernel-link (doc/guides/sample_app_ug/ipoib_kernel_link.rst):
 * EAL arguments, "--", then the app's (config.c). The main lcore sets the
 * ports up, then follows the IB side's link and prints statistics; the
 * worker lcores move the packets (fwd.c). Exit status: 0 after a clean run
 * ended by SIGINT or SIGTERM, 1 on an error, 2 on a bad argument.
 */

#include <errno.h>
#include <pthread.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_pdump.h>

#include "kernel_link.h"

RTE_LOG_REGISTER_DEFAULT(klink_logtype, NOTICE);

volatile bool klink_quit;
/* Set by the IB port's LSC callback (EAL's interrupt thread). */
static bool lsc_pending;

/* Room for a 4092-byte UD MTU (IPoIB on a 4096 group) and the headers. */
#define KLINK_MBUF_DATA	(RTE_PKTMBUF_HEADROOM + 4096 + 128)
#define KLINK_NB_MBUF	(4 * KLINK_NB_DESC + 2 * KLINK_MAX_BURST + 1024 - 1)
/*
 * The main lcore wakes every KLINK_CTRL_US; it looks at the IB link at
 * once after an LSC event, else every KLINK_CTRL_POLL wake-ups (ports
 * without LSC, such as net_memif).
 */
#define KLINK_CTRL_US	10000
#define KLINK_CTRL_POLL	10

static void
on_signal(int sig)
{
	(void)sig;
	__atomic_store_n(&klink_quit, true, __ATOMIC_RELAXED);
}

void
klink_rx_signals(sigset_t *set)
{
	int sig;

	sigemptyset(set);
	sigaddset(set, SIGIO);
	for (sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaddset(set, sig);
}

static int
on_lsc(uint16_t port, enum rte_eth_event_type type, void *arg, void *ret_param)
{
	(void)port;
	(void)type;
	(void)arg;
	(void)ret_param;
	__atomic_store_n(&lsc_pending, true, __ATOMIC_RELEASE);
	return 0;
}

/* What is bridged to what, one line the tests and the demo parse. */
static void
kernel_link_banner(const struct klink_ports *p)
{
	char name[RTE_ETH_NAME_MAX_LEN] = "?";
	struct rte_ether_addr mac;
	uint16_t mtu = 0;

	rte_eth_dev_get_name_by_port(p->ib, name);
	rte_eth_dev_get_mtu(p->kernel, &mtu);
	printf("Kernel link: port %u (%s", p->ib, name);
	if (klink_cfg.kind != KLINK_KIND_TUN && rte_eth_macaddr_get(p->ib, &mac) == 0)
		printf(", MAC " RTE_ETHER_ADDR_PRT_FMT, RTE_ETHER_ADDR_BYTES(&mac));
	printf(") <-> %s (%s, port %u, MTU %u), %u data lcore%s\n", klink_cfg.iface,
	       klink_kind_names[klink_cfg.kind], p->kernel, mtu, klink_cfg.data_lcores,
	       klink_cfg.data_lcores > 1 ? "s" : "");
}

/* Configure and start @p port with one queue each way. */
static int
port_start(uint16_t port, struct rte_mempool *mp, bool lsc)
{
	struct rte_eth_conf conf;
	uint16_t nb_rxd = KLINK_NB_DESC, nb_txd = KLINK_NB_DESC;
	int ret;

	memset(&conf, 0, sizeof(conf));
	conf.intr_conf.lsc = lsc;
	ret = rte_eth_dev_configure(port, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_dev_adjust_nb_rx_tx_desc(port, &nb_rxd, &nb_txd);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(port, 0, nb_rxd, rte_eth_dev_socket_id(port),
					     NULL, mp);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port, 0, nb_txd, rte_eth_dev_socket_id(port),
					     NULL);
	if (ret != 0) {
		KLINK_LOG(ERR, "port %u: set-up: %s", port, rte_strerror(-ret));
		return ret;
	}
	return 0;
}

static void
dir_print(const struct klink_dir *d)
{
	printf(" %s rx=%" PRIu64 " tx=%" PRIu64 " drops=%" PRIu64, d->name,
	       __atomic_load_n(&d->rx_pkts, __ATOMIC_RELAXED),
	       __atomic_load_n(&d->tx_pkts, __ATOMIC_RELAXED),
	       __atomic_load_n(&d->tx_drops, __ATOMIC_RELAXED));
}

/* A port's non-zero extended statistics on one line (drops by reason). */
static void
xstats_print(uint16_t port, const char *what)
{
	struct rte_eth_xstat_name *names = NULL;
	struct rte_eth_xstat *xs = NULL;
	int i, n, shown = 0;

	n = rte_eth_xstats_get(port, NULL, 0);
	if (n <= 0)
		return;
	names = calloc(n, sizeof(*names));
	xs = calloc(n, sizeof(*xs));
	if (names == NULL || xs == NULL ||
	    rte_eth_xstats_get_names(port, names, n) != n ||
	    rte_eth_xstats_get(port, xs, n) != n)
		goto out;
	printf("Port %u (%s) xstats:", port, what);
	for (i = 0; i < n; i++) {
		if (xs[i].value == 0 || xs[i].id >= (uint64_t)n)
			continue;
		printf(" %s=%" PRIu64, names[xs[i].id].name, xs[i].value);
		shown++;
	}
	printf("%s\n", shown == 0 ? " all zero" : "");
out:
	free(names);
	free(xs);
}

static void
stats_print(const struct klink_ports *p, const char *when, uint64_t start)
{
	printf("%s %.1f s:", when, (double)(rte_get_timer_cycles() - start) /
	       rte_get_timer_hz());
	dir_print(&p->dir[0]);
	dir_print(&p->dir[1]);
	printf("\n");
}

/* The main lcore while the data lcores run: link state and statistics. */
static void
control_loop(struct klink_ports *p, int *kernel_up)
{
	const uint64_t hz = rte_get_timer_hz(), start = rte_get_timer_cycles();
	uint64_t next = 0;
	unsigned int tick = 0;

	if (klink_cfg.stats_period != 0)
		next = start + klink_cfg.stats_period * hz;
	while (!__atomic_load_n(&klink_quit, __ATOMIC_RELAXED)) {
		usleep(KLINK_CTRL_US);
		if (__atomic_exchange_n(&lsc_pending, false, __ATOMIC_ACQ_REL) ||
		    ++tick % KLINK_CTRL_POLL == 0)
			klink_kport_mirror_link(p, kernel_up);
		if (next != 0 && rte_get_timer_cycles() >= next) {
			stats_print(p, "Statistics after", start);
			next += klink_cfg.stats_period * hz;
		}
	}
	printf("Signal received: stopping\n");
	klink_fwd_wait();
	stats_print(p, "Final statistics after", start);
	xstats_print(p->ib, "IB side");
	xstats_print(p->kernel, klink_cfg.iface);
}

int
main(int argc, char **argv)
{
	struct klink_ports ports;
	struct rte_mempool *mp = NULL;
	struct rte_eth_dev_info info;
	struct sigaction sa;
	sigset_t rx_signals;
	int ret, status = 1, kernel_up = -1;
	bool lsc = false;

	/*
	 * The kernel gives a process-directed signal to the main thread
	 * first: this one, asleep between statistics on the core of
	 * another process's data lcore, woken once per packet the kernel
	 * queued, and the data lcore saw the packet only when this thread
	 * had run the handler. Every thread EAL and the libraries start
	 * inherits the block; fwd.c lifts it on the data lcore.
	 */
	klink_rx_signals(&rx_signals);
	pthread_sigmask(SIG_BLOCK, &rx_signals, NULL);
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "kernel-link: EAL: %s\n", rte_strerror(rte_errno));
		return 2;
	}
	argc -= ret;
	argv += ret;
	argv[0] = (char *)"dpdk-ipoib-kernel-link";
	setvbuf(stdout, NULL, _IOLBF, 0);
	ret = klink_config_parse(argc, argv);
	if (ret != 0) {
		if (ret < 0)
			fprintf(stderr, "kernel-link: bad arguments (--help lists them)\n");
		rte_eal_cleanup();
		return ret < 0 ? 2 : 0;
	}
	/*
	 * Packet capture by a secondary process (dpdk-dumpcap, dpdk-pdump):
	 * the primary serves its requests, as dpdk-testpmd does. Without
	 * multi-process (--in-memory, --no-shconf) it cannot come: say so.
	 */
	if (rte_pdump_init() != 0)
		KLINK_LOG(INFO, "no packet capture (rte_pdump_init: %s)",
			  rte_strerror(rte_errno));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	memset(&ports, 0, sizeof(ports));
	ports.ib = klink_cfg.ib_port;
	mp = rte_pktmbuf_pool_create("klink_mbufs", KLINK_NB_MBUF, 256, 0, KLINK_MBUF_DATA,
				     rte_socket_id());
	if (mp == NULL) {
		KLINK_LOG(ERR, "mbuf pool of %d: %s", KLINK_NB_MBUF, rte_strerror(rte_errno));
		goto out;
	}
	if (klink_kport_create(&ports) != 0)
		goto out;
	ports.dir[0] = (struct klink_dir){ .name = "ib->kernel", .rx_port = ports.ib,
					   .tx_port = ports.kernel };
	ports.dir[1] = (struct klink_dir){ .name = "kernel->ib", .rx_port = ports.kernel,
					   .tx_port = ports.ib };
	ret = rte_eth_dev_info_get(ports.ib, &info);
	if (ret != 0) {
		KLINK_LOG(ERR, "port %u: info: %s", ports.ib, rte_strerror(-ret));
		goto out_kport;
	}
	lsc = (*info.dev_flags & RTE_ETH_DEV_INTR_LSC) != 0;
	if (port_start(ports.ib, mp, lsc) != 0 || port_start(ports.kernel, mp, false) != 0)
		goto out_kport;
	if (lsc)
		rte_eth_dev_callback_register(ports.ib, RTE_ETH_EVENT_INTR_LSC, on_lsc, NULL);
	if (klink_kport_mirror_mtu(&ports) != 0)
		goto out_cb;
	ret = rte_eth_dev_start(ports.ib);
	if (ret != 0) {
		KLINK_LOG(ERR, "port %u: start: %s", ports.ib, rte_strerror(-ret));
		goto out_cb;
	}
	ret = rte_eth_dev_start(ports.kernel);
	if (ret != 0) {
		KLINK_LOG(ERR, "%s: start: %s", klink_cfg.iface, rte_strerror(-ret));
		goto out_stop_ib;
	}
	/* Starting a TAP brings it up: down again until the IB link is. */
	if (klink_kport_mirror_link(&ports, &kernel_up) != 0)
		goto out_stop;
	kernel_link_banner(&ports);
	if (klink_fwd_start(&ports) != 0) {
		__atomic_store_n(&klink_quit, true, __ATOMIC_RELAXED);
		klink_fwd_wait();
		goto out_stop;
	}
	control_loop(&ports, &kernel_up);
	status = 0;
out_stop:
	rte_eth_dev_stop(ports.kernel);
out_stop_ib:
	rte_eth_dev_stop(ports.ib);
out_cb:
	if (lsc)
		rte_eth_dev_callback_unregister(ports.ib, RTE_ETH_EVENT_INTR_LSC, on_lsc, NULL);
out_kport:
	klink_kport_destroy(&ports);
out:
	rte_eth_dev_close(ports.ib);
	rte_mempool_free(mp);
	rte_pdump_uninit();
	rte_eal_cleanup();
	printf("Bye (%s)\n", status ? "error" : "ok");
	return status;
}
