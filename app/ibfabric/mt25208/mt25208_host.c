/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The set of MT25208 models of a fabric and their polling policy (see
 * mt25208_host.h). Tag index layout: 2 * function + 0 for its listening
 * socket, 2 * function + 1 for the attached host's socket.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>

#include "fab_log.h"
#include "fab_node.h"
#include "fabric.h"
#include "mt25208.h"
#include "mt25208_dp.h"
#include "mt25208_guard.h"
#include "mt25208_host.h"
#include "pcisim.h"
#include "topo.h"

/* The parser refuses more active HCAs than there are PCI buses for. */
_Static_assert(TOPO_ACTIVE_MAX == 0x100 - MT25208_FIRST_BUS, "TOPO_ACTIVE_MAX");

struct hca_set {
	struct fabric *f;
	int ep;
	uint32_t kind;
	unsigned int n;
	uint64_t last_busy_ns;	/* up to a pass late: see hca_set_poll() */
	bool busy;		/* a pass since the clock was read did something */
	uint32_t wait_us;	/* the wait asked for while quiet: 0, nap or idle */
	unsigned int quiet;	/* quiet passes since the clock was read */
	struct pcisim_fn *fn[];
};

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void
hca_set_free(struct hca_set *s)
{
	unsigned int i;

	if (s == NULL)
		return;
	for (i = 0; i < s->n; i++) {
		if (s->fn[i] == NULL)
			continue;
		mt25208_dp_free(pcisim_dev(s->fn[i]));
		pcisim_destroy(s->fn[i]);
	}
	free(s);
}

struct hca_set *
hca_set_create(struct fabric *f, const char *pci_root)
{
	unsigned int i, n = 0;
	struct hca_set *s;
	int rc;

	for (i = 0; i < f->nnodes; i++)
		if (f->nodes[i]->active_hca)
			n++;
	if (n > 0x100 - MT25208_FIRST_BUS) {
		errno = ENOSPC;
		return NULL;
	}
	s = calloc(1, sizeof(*s) + n * sizeof(s->fn[0]));
	if (s == NULL)
		return NULL;
	s->f = f;
	s->ep = -1;
	if (n > 0)
		(void)pcisim_clean_stale_bars();
	for (i = 0; i < f->nnodes; i++) {
		struct fab_node *node = f->nodes[i];

		if (!node->active_hca)
			continue;
		s->fn[s->n] = pcisim_create(f, node, pci_root, MT25208_FIRST_BUS + s->n);
		if (s->fn[s->n] == NULL)
			goto err;
		s->n++;
		rc = mt25208_dp_init(pcisim_dev(s->fn[s->n - 1]));
		if (rc != 0) {
			errno = -rc;
			goto err;
		}
	}
	return s;
err:
	rc = errno;
	hca_set_free(s);
	errno = rc;
	return NULL;
}

unsigned int
hca_set_count(const struct hca_set *s)
{
	return s != NULL ? s->n : 0;
}

static int
ep_add(struct hca_set *s, int fd, uint32_t idx)
{
	struct epoll_event ev = {
		.events = EPOLLIN,
		.data.u64 = ((uint64_t)s->kind << 32) | idx,
	};

	return epoll_ctl(s->ep, EPOLL_CTL_ADD, fd, &ev);
}

int
hca_set_epoll_add(struct hca_set *s, int ep, uint32_t kind)
{
	unsigned int i;

	s->ep = ep;
	s->kind = kind;
	for (i = 0; i < s->n; i++)
		if (ep_add(s, pcisim_listen_fd(s->fn[i]), 2 * i) != 0)
			return -1;
	return 0;
}

void
hca_set_ready(struct hca_set *s, uint32_t idx)
{
	struct pcisim_fn *fn;
	int fd;

	if (idx / 2 >= s->n)
		return;
	fn = s->fn[idx / 2];
	if ((idx & 1) == 0) {
		fd = pcisim_accept(fn);
		if (fd >= 0 && ep_add(s, fd, idx | 1) != 0)
			FAB_ERR("%s: cannot poll the host's socket", pcisim_dir(fn));
		s->busy = true;
		return;
	}
	fd = pcisim_conn_fd(fn);
	if (fd < 0)
		return;
	/* Drop the fd from epoll before pcisim may close it (host gone). */
	epoll_ctl(s->ep, EPOLL_CTL_DEL, fd, NULL);
	if (pcisim_conn_ready(fn) == 0) {
		ep_add(s, fd, idx);
		s->busy = true;
	}
}

static void
dp_poll_guarded(struct mt25208 *dev, void *arg)
{
	*(bool *)arg = mt25208_dp_poll(dev);
}

/* The data path's doorbells, a bus error on host memory being an uplink bus error. */
static bool
hca_dp_poll(struct mt25208 *dev)
{
	bool busy = true;

	if (mt25208_guard(dev, dp_poll_guarded, &busy) != 0) {
		mt25208_dp_bus_error(dev);
		mt25208_catas(dev, MT_CATAS_UPLINK_BUS, "doorbell: bus error on host memory", 0);
	}
	return busy;
}

/*
 * PCIe keeps posted writes in order (PCIe 3.0, 2.4.1: a posted request
 * may not pass another): a doorbell the host stored before a command's
 * GO reaches the HCA before the command does. The model reads BAR2 and
 * BAR0 at different moments of a pass, so a doorbell that landed after
 * the data path's last look, followed by a GO, would be taken after the
 * command ran: a send doorbell rung before the transmit watch's 2RST
 * found the QP in RESET ("doorbell ignored: no QP in a send state",
 * mthca_txrecover). So when a command is waiting, the data path first
 * takes what the host stored before its GO (mt25208_cmd_go()'s acquire
 * load makes those stores visible), then the command runs.
 */
bool
mt25208_host_poll(struct mt25208 *dev)
{
	bool busy = false;

	if (mt25208_cmd_go(dev))
		busy |= hca_dp_poll(dev);
	busy |= mt25208_poll(dev);
	busy |= hca_dp_poll(dev);
	return busy;
}

int
hca_set_poll(struct hca_set *s)
{
	bool busy = false, attached = false;
	struct mt25208 *dev;
	unsigned int i;
	uint64_t t;

	if (s == NULL)
		return -1;
	for (i = 0; i < s->n; i++) {
		if (pcisim_conn_fd(s->fn[i]) < 0)
			continue;
		attached = true;
		dev = pcisim_dev(s->fn[i]);
		busy |= mt25208_host_poll(dev);
	}
	if (!attached)
		return -1;
	/*
	 * The clock is read on quiet passes only, and while nothing happens
	 * on every MT25208_QUIET_CLOCK-th: a pass at line rate is well under a
	 * microsecond and a clock read per pass was a tenth of it. A busy
	 * pass counts as the time of the next read (a pass later at most).
	 */
	if (busy) {
		s->busy = true;
		s->quiet = 0;
		return 0;
	}
	if (s->busy || ++s->quiet >= MT25208_QUIET_CLOCK) {
		t = now_ns();
		if (s->busy)
			s->last_busy_ns = t;
		s->busy = false;
		s->quiet = 0;
		if (t - s->last_busy_ns < MT25208_SPIN_NS)
			s->wait_us = 0;
		else if (t - s->last_busy_ns < MT25208_NAP_NS)
			s->wait_us = MT25208_NAP_US;
		else
			s->wait_us = MT25208_IDLE_POLL_US;
	}
	return (int)s->wait_us;
}
