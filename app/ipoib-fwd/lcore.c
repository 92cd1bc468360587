/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Streams and worker lcores: one stream per port and queue (rx queue q of
 * a port -> tx queue q of its peer), spread round-robin over the worker
 * lcores as testpmd does; the forwarding loop; start and stop.
 */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "ipoib_fwd.h"

const struct fwd_engine *const fwd_engines[FWD_MODE_COUNT] = {
	[FWD_MODE_IO] = &fwd_engine_io,
	[FWD_MODE_RXONLY] = &fwd_engine_rxonly,
	[FWD_MODE_TXONLY] = &fwd_engine_txonly,
	[FWD_MODE_ADDRSWAP] = &fwd_engine_addrswap,
	[FWD_MODE_ROUTE] = &fwd_engine_route,
};

struct fwd_stream *fwd_streams;
unsigned int fwd_nb_streams;

static unsigned int fwd_lcores[RTE_MAX_LCORE];
static unsigned int fwd_nb_lcores;
/* set by fwd_stop(), read by the workers (relaxed: they only have to see it eventually) */
static bool stop_flag;
static bool running;

bool
fwd_running(void)
{
	return running;
}

/*
 * route: each --route pair names an Ethernet port and an L3 port of this
 * app; every port of the app is in one. 0, or -EINVAL naming the route.
 */
static int
routes_check(void)
{
	unsigned int r, i, used = 0;

	for (r = 0; r < fwd_cfg.nb_routes; r++) {
		uint16_t e = fwd_cfg.routes[r].eth, l = fwd_cfg.routes[r].l3;
		struct fwd_port *eth = fwd_port_by_id(e), *l3 = fwd_port_by_id(l);

		if (eth == NULL || l3 == NULL) {
			FWD_LOG(ERR, "--route=%u:%u: no port %u in this app (%u ports)", e, l,
				eth == NULL ? e : l, fwd_nb_ports);
			return -EINVAL;
		}
		if (eth->l3 || eth->ibdev != NULL) {
			FWD_LOG(ERR, "--route=%u:%u: port %u (%s) is not an Ethernet port", e, l,
				e, eth->driver);
			return -EINVAL;
		}
		if (!l3->l3) {
			FWD_LOG(ERR, "--route=%u:%u: port %u (%s) is not an L3 port (net_ipoib "
				"mode=l3, net_tun)", e, l, l, l3->driver);
			return -EINVAL;
		}
		eth->peer = l;
		l3->peer = e;
		used += 2;
	}
	if (used != fwd_nb_ports) {
		for (i = 0; i < fwd_nb_ports; i++)
			if (fwd_ports[i].peer == fwd_ports[i].port_id)
				break;
		FWD_LOG(ERR, "port %u: in no --route (give --portmask or one more --route)",
			i < fwd_nb_ports ? fwd_ports[i].port_id : 0);
		return -EINVAL;
	}
	return 0;
}

int
fwd_streams_setup(void)
{
	unsigned int lcore, i, q, s = 0, want;

	RTE_LCORE_FOREACH_WORKER(lcore)
		fwd_lcores[fwd_nb_lcores++] = lcore;
	if (fwd_nb_lcores == 0) {
		FWD_LOG(ERR, "no worker lcore: give EAL two lcores or more (-l 0,1)");
		return -EINVAL;
	}
	want = fwd_cfg.nb_cores != 0 ? fwd_cfg.nb_cores : fwd_nb_lcores;
	if (want > fwd_nb_lcores) {
		FWD_LOG(ERR, "--nb-cores=%u: only %u worker lcores", fwd_cfg.nb_cores,
			fwd_nb_lcores);
		return -EINVAL;
	}
	if (fwd_cfg.mode == FWD_MODE_ROUTE) {
		for (i = 0; i < fwd_nb_ports; i++)
			fwd_ports[i].peer = fwd_ports[i].port_id;
		if (routes_check() != 0)
			return -EINVAL;
	}
	/* route: one stream per route and queue runs both of its directions */
	fwd_nb_streams = (fwd_cfg.mode == FWD_MODE_ROUTE ? fwd_cfg.nb_routes : fwd_nb_ports) *
			 fwd_cfg.nb_queues;
	/* more lcores than streams would only spin */
	fwd_nb_lcores = RTE_MIN(want, fwd_nb_streams);
	fwd_streams = rte_zmalloc("fwd_streams", sizeof(*fwd_streams) * fwd_nb_streams,
				  RTE_CACHE_LINE_SIZE);
	if (fwd_streams == NULL)
		return -ENOMEM;
	for (i = 0; i < fwd_nb_ports; i++)
		for (q = 0; q < fwd_cfg.nb_queues; q++, s++) {
			struct fwd_stream *fs;

			/* route: the stream of the Ethernet port serves the pair */
			if (fwd_cfg.mode == FWD_MODE_ROUTE && fwd_ports[i].l3)
				break;
			fs = &fwd_streams[s];
			fs->rxp = &fwd_ports[i];
			fs->txp = fwd_port_by_id(fwd_ports[i].peer);
			fs->rxq = q;
			fs->txq = q;
			fs->lcore = fwd_lcores[s % fwd_nb_lcores];
		}
	for (s = 0; s < fwd_nb_streams; s++)
		printf("Stream %u: lcore %u, port %u rxq %u %s port %u txq %u\n", s,
		       fwd_streams[s].lcore, fwd_streams[s].rxp->port_id, fwd_streams[s].rxq,
		       fwd_cfg.mode == FWD_MODE_ROUTE ? "<->" : "->",
		       fwd_streams[s].txp->port_id, fwd_streams[s].txq);
	return 0;
}

static int
worker_main(void *arg __rte_unused)
{
	const struct fwd_engine *e = fwd_engines[fwd_cfg.mode];
	unsigned int lcore = rte_lcore_id(), n = 0, i;
	bool record = fwd_cfg.record_cycles, idle_yield = fwd_cfg.idle_yield;
	struct fwd_stream **mine;
	sigset_t rx_signals;
	uint16_t moved;

	/* a kernel port's rx signals run their handler here (main.c) */
	fwd_rx_signals(&rx_signals);
	pthread_sigmask(SIG_UNBLOCK, &rx_signals, NULL);
	mine = calloc(fwd_nb_streams, sizeof(*mine));
	if (mine == NULL)
		return -ENOMEM;
	for (i = 0; i < fwd_nb_streams; i++)
		if (fwd_streams[i].lcore == lcore)
			mine[n++] = &fwd_streams[i];
	while (!__atomic_load_n(&stop_flag, __ATOMIC_RELAXED)) {
		moved = 0;
		for (i = 0; i < n; i++) {
			struct fwd_stream *fs = mine[i];
			uint64_t t0 = record ? rte_rdtsc() : 0;
			uint16_t k = e->run(fs);

			moved |= k;
			if (record && k != 0) {
				__atomic_store_n(&fs->busy_cycles,
						 fs->busy_cycles + rte_rdtsc() - t0,
						 __ATOMIC_RELAXED);
				__atomic_store_n(&fs->busy_pkts, fs->busy_pkts + k,
						 __ATOMIC_RELAXED);
			}
		}
		/*
		 * --idle-yield: nothing to move, so the processes sharing
		 * this core (the peers, a simulated HCA) run now rather than
		 * when the scheduler takes the core from a busy poll.
		 */
		if (idle_yield && moved == 0)
			sched_yield();
	}
	free(mine);
	return 0;
}

int
fwd_start(void)
{
	const struct fwd_engine *e = fwd_engines[fwd_cfg.mode];
	unsigned int i, s;
	int ret;

	if (running) {
		printf("Forwarding already started\n");
		return -EALREADY;
	}
	for (s = 0; s < fwd_nb_streams; s++) {
		struct fwd_stream *fs = &fwd_streams[s];

		fs->rx_pkts = fs->tx_pkts = fs->tx_full = fs->no_ah = 0;
		fs->busy_cycles = fs->busy_pkts = 0;
		memset(fs->rdrop, 0, sizeof(fs->rdrop));
		fs->arp_replies = fs->na_sent = fs->flooded = 0;
		fs->tx_left = fwd_cfg.txonly_count;
		fs->next_tsc = rte_get_timer_cycles();
		fs->tsc_per_pkt = fwd_cfg.txonly_pps ? rte_get_timer_hz() / fwd_cfg.txonly_pps : 0;
	}
	ret = e->prepare != NULL ? e->prepare() : 0;
	if (ret != 0)
		return ret;
	fwd_stats_begin();
	__atomic_store_n(&stop_flag, false, __ATOMIC_RELAXED);
	for (i = 0; i < fwd_nb_lcores; i++) {
		ret = rte_eal_remote_launch(worker_main, NULL, fwd_lcores[i]);
		if (ret != 0) {
			FWD_LOG(ERR, "lcore %u: launch: %s", fwd_lcores[i], strerror(-ret));
			fwd_stop();
			return ret;
		}
	}
	running = true;
	printf("Forwarding started: mode %s, %u ports, %u streams on %u lcores, burst %u\n",
	       e->name, fwd_nb_ports, fwd_nb_streams, fwd_nb_lcores, fwd_cfg.burst);
	return 0;
}

void
fwd_stop(void)
{
	unsigned int s;

	__atomic_store_n(&stop_flag, true, __ATOMIC_RELAXED);
	rte_eal_mp_wait_lcore();
	if (!running)
		return;
	running = false;
	/* let the PMDs reap what is still on their send queues */
	for (s = 0; s < fwd_nb_streams; s++)
		rte_eth_tx_burst(fwd_streams[s].txp->port_id, fwd_streams[s].txq, NULL, 0);
	printf("Forwarding stopped\n");
}
