/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * ibfabric: the event loop (main_loop.h). One thread, one epoll set;
 * main.c describes it. Here: the fds and their tags, the timer and the
 * signals, dispatch, the bounded runs of the fabric, teardown.
 */

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ctl.h"
#include "fab_file.h"
#include "fab_link.h"
#include "fab_log.h"
#include "fabric.h"
#include "mt25208_host.h"
#include "topo.h"
#include "umad2sim.h"

#include "main_ctl.h"
#include "main_ctx.h"
#include "main_loop.h"

/* ------------------------------------------------------------------ */
/* Timer and signals                                                   */

static void
main_timer_update(struct main_ctx *m)
{
	bool want = umad2sim_nclients(m->f) > 0;
	struct itimerspec its;

	if (want == m->timer_armed)
		return;
	memset(&its, 0, sizeof(its));
	if (want) {
		its.it_value.tv_sec = 1;
		its.it_interval.tv_sec = 1;
	}
	timerfd_settime(m->timer_fd, 0, &its, NULL);
	m->timer_armed = want;
}

static int
main_signals(struct main_ctx *m)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	/* A closed terminal or a quit key also ends the run cleanly (BAR files removed). */
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -1;
	m->sig_fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (m->sig_fd < 0)
		return -1;
	/* Control clients that hang up mid-reply must not kill us. */
	signal(SIGPIPE, SIG_IGN);
	return main_ep_add(m, m->sig_fd, TAG(TAG_SIGNAL, 0));
}

/* ------------------------------------------------------------------ */
/* Loop                                                                */

/* umad2sim's write hook: watch a slot's socket for room while MADs wait. */
static void
main_u2s_want_write(void *ctx, int fd, unsigned int slot, bool on)
{
	struct main_ctx *m = ctx;
	struct epoll_event ev = {
		.events = EPOLLIN | (on ? EPOLLOUT : 0),
		.data.u64 = TAG(TAG_U2S_SLOT, slot),
	};

	(void)epoll_ctl(m->ep, EPOLL_CTL_MOD, fd, &ev);
}

static void
main_dispatch(struct main_ctx *m, uint64_t tag, uint32_t events)
{
	struct signalfd_siginfo si;
	uint64_t ticks;

	switch (TAG_KIND(tag)) {
	case TAG_U2S_CTL:
		umad2sim_ctl_ready(m->f);
		break;
	case TAG_U2S_SLOT:
		if (events & (EPOLLOUT | EPOLLERR))
			umad2sim_slot_writable(m->f, TAG_IDX(tag));
		if (events & EPOLLIN)
			umad2sim_data_ready(m->f, TAG_IDX(tag));
		break;
	case TAG_CTL_LISTEN:
		main_ctl_accept(m);
		break;
	case TAG_CTL_CONN:
		if ((events & EPOLLOUT) && m->conns[TAG_IDX(tag)].fd >= 0 &&
		    !main_conn_flush(m, &m->conns[TAG_IDX(tag)]))
			main_conn_close(m, &m->conns[TAG_IDX(tag)]);
		if ((events & (EPOLLIN | EPOLLHUP | EPOLLERR)) && m->conns[TAG_IDX(tag)].fd >= 0)
			main_conn_ready(m, &m->conns[TAG_IDX(tag)]);
		break;
	case TAG_STDIN:
		if (m->stdin_open && !main_stdin_read(m))
			main_stdin_eof(m);
		break;
	case TAG_SIGNAL:
		if (read(m->sig_fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
			FAB_INFO("signal %u: shutting down", si.ssi_signo);
			m->quit = true;
		}
		break;
	case TAG_TIMER:
		if (read(m->timer_fd, &ticks, sizeof(ticks)) == (ssize_t)sizeof(ticks))
			umad2sim_reap(m->f);
		break;
	case TAG_HCA:
		hca_set_ready(m->hcas, TAG_IDX(tag));
		break;
	default:
		break;
	}
}

/*
 * One pass of the loop: wait for events (at most @p cap ms, -1 none),
 * dispatch them, move packets. Returns 0, or -1 on an epoll failure.
 */
static int
main_iterate(struct main_ctx *m, int cap)
{
	struct epoll_event evs[MAIN_MAX_EVENTS];
	struct timespec ts, *tsp = NULL;
	int i, n, timeout;

	main_timer_update(m);
	/*
	 * Attached HCAs are polled (an MMIO write wakes nobody):
	 * hca_set_poll() asks for 0 while spinning right after activity,
	 * a nap of microseconds for a while after it, 1 ms while hosts are
	 * quiet, -1 when no host is attached (microseconds; cap is in ms).
	 */
	timeout = fabric_busy(m->f) ? 0 : m->hca_timeout;
	if (cap > INT_MAX / 1000)
		cap = INT_MAX / 1000;
	if (cap >= 0 && (timeout < 0 || timeout > cap * 1000))
		timeout = cap * 1000;
	/*
	 * While the HCAs spin, the fds are looked at every MAIN_SPIN_EPOLL
	 * passes: an epoll_wait per pass was a syscall per datagram at line
	 * rate, a third of the model's time. An fd event then waits at most
	 * that many passes (microseconds); they are level-triggered.
	 */
	if (timeout == 0 && m->hca_timeout == 0 && ++m->spins < MAIN_SPIN_EPOLL) {
		n = 0;
	} else {
		m->spins = 0;
		if (timeout >= 0) {
			ts.tv_sec = timeout / 1000000;
			ts.tv_nsec = (long)(timeout % 1000000) * 1000;
			tsp = &ts;
		}
		n = epoll_pwait2(m->ep, evs, MAIN_MAX_EVENTS, tsp, NULL);
	}
	if (n < 0) {
		if (errno == EINTR)
			return 0;
		FAB_ERR("epoll_wait: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < n && !m->quit; i++)
		main_dispatch(m, evs[i].data.u64, evs[i].events);
	fabric_run(m->f, MAIN_RUN_BUDGET);
	m->hca_timeout = hca_set_poll(m->hcas);
	return 0;
}

int
main_loop(struct main_ctx *m)
{
	while (!m->quit)
		if (main_iterate(m, -1) < 0)
			return -1;
	return 0;
}

/*
 * Take the command sources (listener, connections, console) out of the
 * epoll set, or put them back: during an ibsim "Wait" no command runs,
 * while clients, hosts and signals are served. Out of the set, a source
 * that hangs up cannot make epoll_wait spin; it is seen once back.
 */
static void
main_inputs(struct main_ctx *m, bool on)
{
	struct epoll_event ev;
	unsigned int i;

	if (m->listen_fd >= 0) {
		if (on)
			(void)main_ep_add(m, m->listen_fd, TAG(TAG_CTL_LISTEN, 0));
		else
			(void)epoll_ctl(m->ep, EPOLL_CTL_DEL, m->listen_fd, NULL);
	}
	for (i = 0; i < MAIN_MAX_CONNS; i++) {
		if (m->conns[i].fd < 0)
			continue;
		if (!on) {
			(void)epoll_ctl(m->ep, EPOLL_CTL_DEL, m->conns[i].fd, NULL);
			continue;
		}
		ev.events = EPOLLIN | (m->conns[i].out != NULL ? EPOLLOUT : 0);
		ev.data.u64 = TAG(TAG_CTL_CONN, i);
		(void)epoll_ctl(m->ep, EPOLL_CTL_ADD, m->conns[i].fd, &ev);
	}
	if (m->stdin_open) {
		if (on)
			(void)main_ep_add(m, STDIN_FILENO, TAG(TAG_STDIN, 0));
		else
			(void)epoll_ctl(m->ep, EPOLL_CTL_DEL, STDIN_FILENO, NULL);
	}
}

/* fabric.run_for: ibsim's "Wait <sec>", without stopping the fabric. */
int
main_run_for(struct fabric *f, unsigned int ms)
{
	struct main_ctx *m = f->run_ctx;
	struct timespec now;
	uint64_t end, t;

	if (m->paused)
		return 0;	/* cannot happen: no command runs while paused */
	clock_gettime(CLOCK_MONOTONIC, &now);
	end = (uint64_t)now.tv_sec * 1000u + (uint64_t)now.tv_nsec / 1000000u + ms;
	m->paused = true;
	main_inputs(m, false);
	while (!m->quit) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		t = (uint64_t)now.tv_sec * 1000u + (uint64_t)now.tv_nsec / 1000000u;
		if (t >= end || main_iterate(m, (int)(end - t)) < 0)
			break;
	}
	m->paused = false;
	main_inputs(m, true);
	return m->quit ? 1 : 0;
}

int
main_setup_fds(struct main_ctx *m)
{
	unsigned int i;

	m->ep = epoll_create1(EPOLL_CLOEXEC);
	if (m->ep < 0)
		return -1;
	if (main_ep_add(m, umad2sim_ctl_fd(m->f), TAG(TAG_U2S_CTL, 0)) < 0)
		return -1;
	/* Unused slots too: garbage sent to them is read, counted and dropped. */
	for (i = 0; i < UMAD2SIM_MAX_CLIENTS; i++)
		if (main_ep_add(m, umad2sim_slot_fd(m->f, i), TAG(TAG_U2S_SLOT, i)) < 0)
			return -1;
	umad2sim_set_write_hook(m->f, main_u2s_want_write, m);
	if (m->listen_fd >= 0 && main_ep_add(m, m->listen_fd, TAG(TAG_CTL_LISTEN, 0)) < 0)
		return -1;
	m->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (m->timer_fd < 0 || main_ep_add(m, m->timer_fd, TAG(TAG_TIMER, 0)) < 0)
		return -1;
	if (m->hcas != NULL && hca_set_epoll_add(m->hcas, m->ep, TAG_HCA) < 0)
		return -1;
	return main_signals(m);
}

void
main_teardown(struct main_ctx *m)
{
	unsigned int i;

	for (i = 0; i < MAIN_MAX_CONNS; i++)
		if (m->conns[i].fd >= 0)
			main_conn_close(m, &m->conns[i]);
	if (m->listen_fd >= 0) {
		close(m->listen_fd);
		unlink(m->ctl_path);
	}
	if (m->timer_fd >= 0)
		close(m->timer_fd);
	if (m->sig_fd >= 0)
		close(m->sig_fd);
	if (m->ep >= 0)
		close(m->ep);
	hca_set_free(m->hcas);
	if (m->pci_parent[0] != '\0')
		rmdir(m->pci_parent);
	if (m->f != NULL) {
		fab_capture_stop(m->f, NULL);
		umad2sim_close(m->f);
		fabric_free(m->f);
	}
}
