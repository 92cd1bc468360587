/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The data lcores: bursts from one port's rx queue 0 to the other's tx
 * queue 0, both ways on one lcore or one way each on two. No allocation,
 * lock, log or system call while traffic flows: a direction owns its
 * counters, and an lcore naps (--idle-sleep) only after
 * KLINK_IDLE_POLLS empty polls in a row.
 */

#include <pthread.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <rte_branch_prediction.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "kernel_link.h"

/* What one data lcore runs: one or two directions. */
struct fwd_lcore {
	struct klink_dir *dir[2];
	unsigned int nb_dir;
	bool takes_rx_signals;	/**< polls the kernel port */
};

static struct fwd_lcore fwd_lcores[RTE_MAX_LCORE];

/* One burst of @p d; the number of packets received. */
static inline uint16_t
fwd_burst(struct klink_dir *d, struct rte_mbuf **pkts, uint16_t burst)
{
	uint16_t n, sent;

	n = rte_eth_rx_burst(d->rx_port, 0, pkts, burst);
	if (n == 0)
		return 0;
	sent = rte_eth_tx_burst(d->tx_port, 0, pkts, n);
	if (unlikely(sent < n)) {
		/* the other side is full or down: drop, as a link would */
		rte_pktmbuf_free_bulk(&pkts[sent], n - sent);
		__atomic_store_n(&d->tx_drops, d->tx_drops + n - sent, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&d->rx_pkts, d->rx_pkts + n, __ATOMIC_RELAXED);
	__atomic_store_n(&d->tx_pkts, d->tx_pkts + sent, __ATOMIC_RELAXED);
	return n;
}

static int
fwd_lcore_main(void *arg)
{
	struct fwd_lcore *fl = arg;
	struct rte_mbuf *pkts[KLINK_MAX_BURST];
	const uint16_t burst = (uint16_t)klink_cfg.burst;
	const unsigned int idle_us = klink_cfg.idle_us;
	unsigned int i, idle = 0;
	sigset_t rx_signals;
	uint16_t got;

	/*
	 * A nap of idle_us, not idle_us plus the default 50 us of timer
	 * slack: the slack is latency every packet after a nap pays.
	 */
	if (idle_us != 0)
		(void)prctl(PR_SET_TIMERSLACK, KLINK_TIMER_SLACK_NS);
	/*
	 * The kernel port's rx signals come here: the handler runs on the
	 * lcore that polls the port, and a nap ends when a packet comes.
	 */
	if (fl->takes_rx_signals) {
		klink_rx_signals(&rx_signals);
		pthread_sigmask(SIG_UNBLOCK, &rx_signals, NULL);
	}
	while (!__atomic_load_n(&klink_quit, __ATOMIC_RELAXED)) {
		got = 0;
		for (i = 0; i < fl->nb_dir; i++)
			got |= fwd_burst(fl->dir[i], pkts, burst);
		if (likely(got != 0)) {
			idle = 0;
			continue;
		}
		/*
		 * Idle: a short nap leaves the CPU to the kernel stack and the
		 * peer (a test fabric runs on two cores); it costs a packet
		 * that arrives during it at most idle_us of latency.
		 */
		if (idle_us != 0 && ++idle >= KLINK_IDLE_POLLS)
			usleep(idle_us);
	}
	return 0;
}

int
klink_fwd_start(struct klink_ports *p)
{
	unsigned int lcore, n = 0;
	int ret;

	RTE_LCORE_FOREACH_WORKER(lcore) {
		if (n == klink_cfg.data_lcores)
			break;
		fwd_lcores[lcore].nb_dir = 0;
		if (klink_cfg.data_lcores == 1) {
			fwd_lcores[lcore].dir[0] = &p->dir[0];
			fwd_lcores[lcore].dir[1] = &p->dir[1];
			fwd_lcores[lcore].nb_dir = 2;
		} else {
			fwd_lcores[lcore].dir[0] = &p->dir[n];
			fwd_lcores[lcore].nb_dir = 1;
		}
		fwd_lcores[lcore].takes_rx_signals =
			fwd_lcores[lcore].dir[0]->rx_port == p->kernel ||
			(fwd_lcores[lcore].nb_dir == 2 &&
			 fwd_lcores[lcore].dir[1]->rx_port == p->kernel);
		ret = rte_eal_remote_launch(fwd_lcore_main, &fwd_lcores[lcore], lcore);
		if (ret != 0) {
			KLINK_LOG(ERR, "lcore %u: launch: %s", lcore, rte_strerror(-ret));
			return ret;
		}
		printf("Lcore %u: %s%s%s\n", lcore, fwd_lcores[lcore].dir[0]->name,
		       fwd_lcores[lcore].nb_dir == 2 ? ", " : "",
		       fwd_lcores[lcore].nb_dir == 2 ? fwd_lcores[lcore].dir[1]->name : "");
		n++;
	}
	return 0;
}

void
klink_fwd_wait(void)
{
	rte_eal_mp_wait_lcore();
}
