/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * dpdk-ipoib-fwd: a testpmd-style forwarding app for IB ports
 * (doc/guides/sample_app_ug/ipoib_fwd.rst). EAL arguments, "--", then the
 * app's (config.c). Exit status: 0 after a clean run (SIGINT, SIGTERM,
 * quit), 1 on an error, 2 on a bad argument.
 */

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_pdump.h>

#include "ipoib_fwd.h"

RTE_LOG_REGISTER_DEFAULT(ipoib_fwd_logtype, NOTICE);

volatile bool fwd_quit;

static void
on_signal(int sig)
{
	(void)sig;
	fwd_quit = true;
}

/* No SA_RESTART: a signal ends the prompt's blocking read. */
static void
signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void
fwd_rx_signals(sigset_t *set)
{
	int sig;

	sigemptyset(set);
	sigaddset(set, SIGIO);
	for (sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaddset(set, sig);
}

/* Forward until a signal, a statistics line every --stats-period seconds. */
static void
run_batch(void)
{
	uint64_t hz = rte_get_timer_hz(), next = 0;

	if (fwd_cfg.stats_period != 0)
		next = rte_get_timer_cycles() + fwd_cfg.stats_period * hz;
	while (!fwd_quit) {
		usleep(50 * 1000);
		if (next != 0 && rte_get_timer_cycles() >= next) {
			fwd_stats_period();
			next += fwd_cfg.stats_period * hz;
		}
	}
}

int
main(int argc, char **argv)
{
	sigset_t rx_signals;
	int ret, status = 0;

	/*
	 * net_tap asks for a signal per packet the kernel queues to a TAP,
	 * directed at the process: the kernel gives it to the main thread
	 * first, asleep or at the prompt, and the lcore polling the TAP saw
	 * the packet only once this thread had run the handler. Every
	 * thread EAL starts inherits the block; lcore.c lifts it on the
	 * forwarding lcores.
	 */
	fwd_rx_signals(&rx_signals);
	pthread_sigmask(SIG_BLOCK, &rx_signals, NULL);
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "ipoib-fwd: EAL: %s\n", rte_strerror(rte_errno));
		return 2;
	}
	argc -= ret;
	argv += ret;
	argv[0] = (char *)"dpdk-ipoib-fwd";
	setvbuf(stdout, NULL, _IOLBF, 0);
	ret = fwd_config_parse(argc, argv);
	if (ret != 0) {
		if (ret < 0)
			fprintf(stderr, "ipoib-fwd: bad arguments (--help lists them)\n");
		rte_eal_cleanup();
		return ret < 0 ? 2 : 0;
	}
	signals_install();
	/*
	 * Packet capture by a secondary process (dpdk-dumpcap, dpdk-pdump),
	 * served here as dpdk-testpmd does; none without multi-process
	 * (--in-memory, --no-shconf).
	 */
	if (rte_pdump_init() != 0)
		FWD_LOG(INFO, "no packet capture (rte_pdump_init: %s)", rte_strerror(rte_errno));
	ret = fwd_ports_setup();
	if (ret == 0)
		ret = fwd_streams_setup();
	if (ret == 0)
		ret = fwd_ports_wait_link();
	if (ret == 0 && fwd_cfg.interactive) {
		fwd_prompt();
		if (fwd_running()) {
			fwd_stop();
			fwd_stats_final();
		}
	} else if (ret == 0) {
		ret = fwd_start();
		if (ret == 0) {
			run_batch();
			printf("Signal received: stopping\n");
			fwd_stop();
			fwd_stats_final();
		}
	}
	if (ret == -EINTR)
		ret = 0;	/* a signal while the links came up: a clean exit */
	if (ret != 0)
		status = 1;
	fwd_ports_close();
	rte_pdump_uninit();
	rte_eal_cleanup();
	printf("Bye (%s)\n", status ? "error" : "ok");
	return status;
}
