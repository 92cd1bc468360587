/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Private to ibfabric's main program (main.c options and start-up,
 * main_loop.c the event loop, main_ctl.c the control socket and the
 * console): the loop's context and what the three files call across.
 */

#ifndef _IBFABRIC_MAIN_PRIV_H_
#define _IBFABRIC_MAIN_PRIV_H_

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

/* main_loop.c: the event loop */
int main_ep_add(struct main_ctx *m, int fd, uint64_t tag);
int main_exec(struct main_ctx *m, const char *line, FILE *out);
int main_loop(struct main_ctx *m);
int main_run_for(struct fabric *f, unsigned int ms);
int main_setup_fds(struct main_ctx *m);
void main_teardown(struct main_ctx *m);

/* main_ctl.c: the control socket and the console */
int main_ctl_listen(struct main_ctx *m, const char *path);
void main_conn_close(struct main_ctx *m, struct main_conn *c);
void main_ctl_accept(struct main_ctx *m);
bool main_conn_flush(struct main_ctx *m, struct main_conn *c);
void main_conn_ready(struct main_ctx *m, struct main_conn *c);
bool main_stdin_read(struct main_ctx *m);
void main_stdin_eof(struct main_ctx *m);
int main_console_start(struct main_ctx *m);

#endif /* _IBFABRIC_MAIN_PRIV_H_ */
