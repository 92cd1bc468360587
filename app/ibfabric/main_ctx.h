/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Private to ibfabric's main program (main.c options and start-up,
 * main_loop.c the event loop, main_ctl.c the control socket and the
 * console): the loop's context, its limits and epoll tags, and the two
 * small helpers all three use. It calls none of them: main.c calls
 * main_loop.h and main_ctl.h, main_loop.c calls main_ctl.h for the
 * events of the control socket and the console, and main_ctl.c calls
 * only what is here.
 */

#ifndef _IBFABRIC_MAIN_CTX_H_
#define _IBFABRIC_MAIN_CTX_H_

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/epoll.h>

#include "ctl.h"

struct fabric;
struct hca_set;

#define MAIN_RUN_BUDGET		4096	/* packets moved per loop iteration */
#define MAIN_SPIN_EPOLL		16	/* passes per look at the fds while HCAs spin */
#define MAIN_MAX_EVENTS		64
#define MAIN_TIMER_SLACK_NS	2000	/* wake-up precision of the HCAs' naps */
#define MAIN_MAX_CONNS		16	/* control-socket connections */
#define MAIN_LINE_MAX		1024
/* Reply bytes a control connection may leave unread before it is closed. */
#define MAIN_CONN_OUT_MAX	(1u << 20)

#define EXIT_TOPOLOGY		2	/* bad net file or bad usage */

/* epoll tags: what kind of fd an event is for; slot/conn index in the low bits. */
enum main_tag {
	TAG_U2S_CTL = 1,
	TAG_U2S_SLOT,
	TAG_CTL_LISTEN,
	TAG_CTL_CONN,
	TAG_STDIN,
	TAG_SIGNAL,
	TAG_TIMER,
	TAG_HCA,		/* MT25208 PCI functions (mt25208_host.c) */
};

#define TAG(kind, idx)	(((uint64_t)(kind) << 32) | (uint32_t)(idx))
#define TAG_KIND(t)	((unsigned int)((t) >> 32))
#define TAG_IDX(t)	((unsigned int)(uint32_t)(t))

struct main_conn {
	int fd;
	size_t len;
	char buf[MAIN_LINE_MAX];
	/* Replies not yet taken by the peer: written as its socket has room. */
	char *out;
	size_t out_len;
	size_t out_off;
	size_t out_cap;
};

struct main_ctx {
	struct fabric *f;
	int ep;
	int sig_fd;
	int timer_fd;
	bool timer_armed;
	int listen_fd;
	const char *ctl_path;
	bool stdin_open;
	size_t stdin_len;
	char stdin_buf[MAIN_LINE_MAX];
	struct main_conn conns[MAIN_MAX_CONNS];
	bool quit;
	bool paused;			/* in an ibsim "Wait": commands are not taken */
	/* MT25208 models of the active CAs, and the poll timeout they want */
	struct hca_set *hcas;
	int hca_timeout;
	unsigned int spins;		/* passes since the fds were looked at, while spinning */
	char pci_parent[PATH_MAX - 16];	/* default --pci-root parent, removed at exit */
};

/* Watch @p fd for input in the loop's epoll set, its events tagged @p tag. */
static inline int
main_ep_add(struct main_ctx *m, int fd, uint64_t tag)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = tag };

	return epoll_ctl(m->ep, EPOLL_CTL_ADD, fd, &ev);
}

/* Run one command line from any source; "quit" ends the loop. */
static inline int
main_exec(struct main_ctx *m, const char *line, FILE *out)
{
	int ret = ctl_exec(m->f, line, out);

	if (ret == CTL_QUIT)
		m->quit = true;
	return ret;
}

#endif /* _IBFABRIC_MAIN_CTX_H_ */
