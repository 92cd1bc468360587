/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * ibfabric: options, start-up and the event loop.
 *
 * One thread, one epoll set: the ibsim control socket and the client
 * data sockets (umad2sim.c), the control socket and its connections,
 * stdin (the console), a signalfd for SIGINT/SIGTERM and a 1 s timerfd
 * that frees the slots of dead clients (armed only while clients are
 * attached). epoll_wait blocks with no timeout when the fabric is quiet,
 * so an idle simulator costs nothing; ibsim 0.10 instead spins on a
 * console at EOF (ibsim.c sim_run(), issue 3). After each batch of
 * input the fabric runs with a bounded budget, and while packets remain
 * queued the loop polls without blocking, so no source starves.
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

static const char usage_text[] =
	"usage: ibfabric [options] <netfile>\n"
	"       ibfabric gen <shape> [options]   (write a net file; \"ibfabric gen --help\")\n"
	"\n"
	"Simulate the InfiniBand fabric described by <netfile> (ibsim's net\n"
	"format) and serve ibsim's client protocol, so that OpenSM and the\n"
	"infiniband-diags run under LD_PRELOAD=libumad2sim.so attach to it.\n"
	"\n"
	"  --sock-name <base>    ibsim socket base name (default $IBSIM_SOCKNAME, else \"sim\")\n"
	"  --ctl <path>          control socket (UNIX stream) at <path>\n"
	"  --script <file>       run console commands from <file> after start\n"
	"  --capture <file>      pcap of every link from start (LINKTYPE_INFINIBAND)\n"
	"  --pci-root <dir>      where active HCAs' PCI functions appear\n"
	"                        (default /tmp/ibfabric-<sock-name>/pci; SYSFS_PCI_DEVICES)\n"
	"  --no-console          do not read commands from stdin\n"
	"  -v, --verbose         more log (repeat for debug)\n"
	"  -q, --quiet           errors only\n"
	"  -V, --version         the version\n"
	"  -h, --help            this text\n"
	"\n"
	"ibsim's options: -s and -p are accepted (the network always starts, parse\n"
	"messages always print), -n is --no-console, -d debug log, -f <file> console\n"
	"output to <file>, -N/-S/-P/-L/-M <n> accepted and not needed (no fixed\n"
	"limits); -I, -r and -l are refused with the reason.\n"
	"\n"
	"  ibfabric ctl <socket> [<command>]  run console commands on a running ibfabric\n"
	"\n"
	"Exit status: 0 after quit or SIGINT/SIGTERM/SIGHUP/SIGQUIT, 1 on a run-time error\n"
	"(socket name in use), 2 on bad usage or a bad net file.\n";

static int
main_ep_add(struct main_ctx *m, int fd, uint64_t tag)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = tag };

	return epoll_ctl(m->ep, EPOLL_CTL_ADD, fd, &ev);
}

/* Run one command line from any source; "quit" ends the loop. */
static int
main_exec(struct main_ctx *m, const char *line, FILE *out)
{
	int ret = ctl_exec(m->f, line, out);

	if (ret == CTL_QUIT)
		m->quit = true;
	return ret;
}

/* ------------------------------------------------------------------ */
/* Control socket                                                      */

static int
main_ctl_listen(struct main_ctx *m, const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct sockaddr_un tmp = { .sun_family = AF_UNIX };
	struct stat st;
	int fd, probe;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		FAB_ERR("--ctl %s: path longer than %zu bytes", path, sizeof(sa.sun_path) - 1);
		return -1;
	}
	strcpy(sa.sun_path, path);

	/* A socket left by a crashed instance is replaced; a live one is not. */
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			FAB_ERR("--ctl %s: exists and is not a socket", path);
			return -1;
		}
		probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (probe >= 0 && connect(probe, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
			close(probe);
			FAB_ERR("--ctl %s: another ibfabric is listening there", path);
			return -1;
		}
		if (probe >= 0)
			close(probe);
		unlink(path);
	}
	/*
	 * Bind a temporary name, listen, then rename it into place: the path
	 * never names a socket that refuses connections.
	 */
	if ((size_t)snprintf(tmp.sun_path, sizeof(tmp.sun_path), "%s.%d", path,
			     (int)getpid()) >= sizeof(tmp.sun_path)) {
		FAB_ERR("--ctl %s: path too long", path);
		return -1;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		FAB_ERR("--ctl %s: socket: %s", path, strerror(errno));
		return -1;
	}
	unlink(tmp.sun_path);
	if (bind(fd, (struct sockaddr *)&tmp, sizeof(tmp)) < 0 || listen(fd, 8) < 0 ||
	    rename(tmp.sun_path, path) < 0) {
		FAB_ERR("--ctl %s: %s", path, strerror(errno));
		unlink(tmp.sun_path);
		close(fd);
		return -1;
	}
	m->listen_fd = fd;
	m->ctl_path = path;
	return 0;
}

static void
main_conn_close(struct main_ctx *m, struct main_conn *c)
{
	epoll_ctl(m->ep, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	c->fd = -1;
	c->len = 0;
	free(c->out);
	c->out = NULL;
	c->out_len = c->out_off = c->out_cap = 0;
}

static void
main_ctl_accept(struct main_ctx *m)
{
	unsigned int i;
	int fd;

	fd = accept4(m->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	for (i = 0; i < MAIN_MAX_CONNS; i++)
		if (m->conns[i].fd < 0)
			break;
	if (i == MAIN_MAX_CONNS) {
		static const char busy[] = "error: too many control connections\n";

		(void)send(fd, busy, sizeof(busy) - 1, MSG_NOSIGNAL);
		close(fd);
		return;
	}
	m->conns[i].fd = fd;
	m->conns[i].len = 0;
	if (main_ep_add(m, fd, TAG(TAG_CTL_CONN, i)) < 0)
		main_conn_close(m, &m->conns[i]);
}

/*
 * Write what the connection's socket takes now, never waiting: the rest
 * stays in c->out and the loop watches for room (EPOLLOUT). Returns
 * false when the connection must go (peer gone, or it left more than
 * MAIN_CONN_OUT_MAX bytes of replies unread: a client that does not
 * read cannot make the fabric wait, nor hold its memory).
 */
static bool
main_conn_flush(struct main_ctx *m, struct main_conn *c)
{
	struct epoll_event ev = { .data.u64 = TAG(TAG_CTL_CONN, (uint64_t)(c - m->conns)) };
	ssize_t n;

	while (c->out_off < c->out_len) {
		n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off,
			 MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n <= 0)
			return false;
		c->out_off += (size_t)n;
	}
	if (c->out_off == c->out_len) {
		free(c->out);
		c->out = NULL;
		c->out_len = c->out_off = c->out_cap = 0;
	} else if (c->out_len - c->out_off > MAIN_CONN_OUT_MAX) {
		FAB_ERR("control connection %u: more than %u bytes of replies unread: closed",
			(unsigned int)(c - m->conns), MAIN_CONN_OUT_MAX);
		return false;
	}
	ev.events = EPOLLIN | (c->out != NULL ? EPOLLOUT : 0);
	(void)epoll_ctl(m->ep, EPOLL_CTL_MOD, c->fd, &ev);
	return true;
}

/* Queue @p len bytes of reply behind what is already waiting, then flush. */
static bool
main_conn_reply(struct main_ctx *m, struct main_conn *c, const char *text, size_t len)
{
	size_t cap = c->out_cap;
	char *grown;

	/* Doubling: a client that reads nothing must not cost a copy per reply. */
	if (c->out_len + len > cap) {
		while (cap < c->out_len + len)
			cap = cap != 0 ? 2 * cap : 4096;
		grown = realloc(c->out, cap);
		if (grown == NULL)
			return false;
		c->out = grown;
		c->out_cap = cap;
	}
	memcpy(c->out + c->out_len, text, len);
	c->out_len += len;
	return main_conn_flush(m, c);
}

/*
 * One command from a control connection. The reply is the command's
 * output, then "ok" on success; a failure's last line is its "error: ...".
 */
static bool
main_conn_command(struct main_ctx *m, struct main_conn *c, const char *line)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	bool ok;
	int ret;

	if (out == NULL)
		return false;
	ret = main_exec(m, line, out);
	if (ret >= 0)
		fputs("ok\n", out);
	fclose(out);
	ok = main_conn_reply(m, c, text, len);
	free(text);
	return ok;
}

/*
 * The first control byte (a NUL, an escape ...; tab is a blank) in the
 * @p len bytes of @p line, or -1. A command never holds one: it is
 * refused with an error naming it, and the connection goes on.
 */
static long
main_ctl_byte(const char *line, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char b = (unsigned char)line[i];

		if ((b < 0x20 && b != '\t' && b != '\r') || b == 0x7f)
			return (long)i;
	}
	return -1;
}

static void
main_conn_ready(struct main_ctx *m, struct main_conn *c)
{
	ssize_t n;
	char *nl;

	n = recv(c->fd, c->buf + c->len, sizeof(c->buf) - 1 - c->len, 0);
	if (n <= 0) {
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		main_conn_close(m, c);
		return;
	}
	c->len += (size_t)n;
	c->buf[c->len] = '\0';
	while ((nl = memchr(c->buf, '\n', c->len)) != NULL) {
		size_t llen = (size_t)(nl - c->buf);
		long bad = main_ctl_byte(c->buf, llen);
		bool ok;

		*nl = '\0';
		if (bad >= 0) {
			char msg[96];
			int k = snprintf(msg, sizeof(msg),
					 "error: control byte 0x%02x at column %ld: command ignored\n",
					 (unsigned char)c->buf[bad], bad + 1);

			ok = main_conn_reply(m, c, msg, (size_t)k);
		} else {
			ok = main_conn_command(m, c, c->buf);
		}
		if (!ok) {
			main_conn_close(m, c);
			return;
		}
		c->len -= llen + 1;
		memmove(c->buf, nl + 1, c->len + 1);
	}
	if (c->len == sizeof(c->buf) - 1) {
		static const char longline[] = "error: command line too long\n";

		(void)main_conn_reply(m, c, longline, sizeof(longline) - 1);
		main_conn_close(m, c);
	}
}

/* ------------------------------------------------------------------ */
/* Console                                                             */

static void
main_stdin_lines(struct main_ctx *m)
{
	char *nl;

	m->stdin_buf[m->stdin_len] = '\0';
	while ((nl = strchr(m->stdin_buf, '\n')) != NULL) {
		*nl = '\0';
		main_exec(m, m->stdin_buf, stdout);
		m->stdin_len -= (size_t)(nl + 1 - m->stdin_buf);
		memmove(m->stdin_buf, nl + 1, m->stdin_len + 1);
	}
	if (m->stdin_len == sizeof(m->stdin_buf) - 1) {
		printf("error: console line longer than %d bytes, discarded\n",
		       MAIN_LINE_MAX - 2);
		m->stdin_len = 0;
	}
}

/* Returns false at EOF or error. */
static bool
main_stdin_read(struct main_ctx *m)
{
	ssize_t n = read(STDIN_FILENO, m->stdin_buf + m->stdin_len,
			 sizeof(m->stdin_buf) - 1 - m->stdin_len);

	if (n < 0 && errno == EINTR)
		return true;
	if (n <= 0) {
		/* A last line without a newline still counts. */
		if (m->stdin_len > 0) {
			m->stdin_buf[m->stdin_len] = '\0';
			main_exec(m, m->stdin_buf, stdout);
			m->stdin_len = 0;
		}
		return false;
	}
	m->stdin_len += (size_t)n;
	main_stdin_lines(m);
	return true;
}

static void
main_stdin_eof(struct main_ctx *m)
{
	/* Stop watching it: at EOF it would be readable forever. */
	epoll_ctl(m->ep, EPOLL_CTL_DEL, STDIN_FILENO, NULL);
	m->stdin_open = false;
}

static int
main_console_start(struct main_ctx *m)
{
	if (main_ep_add(m, STDIN_FILENO, TAG(TAG_STDIN, 0)) == 0) {
		m->stdin_open = true;
		return 0;
	}
	if (errno != EPERM)
		return -1;
	/* A regular file (or /dev/null) cannot be polled: read it through now. */
	while (!m->quit && main_stdin_read(m))
		;
	return 0;
}

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

static int
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
static int
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

static int
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

static void
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

/* A usage error: one line saying what was wrong, and where help is. */
static int __attribute__((format(printf, 1, 2)))
main_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("ibfabric: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (ibfabric --help)\n", stderr);
	return EXIT_TOPOLOGY;
}

/* ibsim -f <file>: the console's output (stdout) goes to @p path. */
static int
main_console_out(const char *path)
{
	char why[96];
	int fd = fab_open_regular(path, O_WRONLY | O_CREAT | O_TRUNC, 0644, why, sizeof(why));

	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) {
		fprintf(stderr, "ibfabric: -f %s: %s\n", path, fd < 0 ? why : strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

enum {
	OPT_SOCK_NAME = 256,
	OPT_CTL,
	OPT_SCRIPT,
	OPT_CAPTURE,
	OPT_NO_CONSOLE,
	OPT_PCI_ROOT,
};

/* Short options: ours (v q h V) and ibsim's (ibsim.c: "rf:dpvIsN:S:P:L:M:l:Vhun"). */
static const char main_short[] = ":vqhVrf:dpIsN:S:P:L:M:l:un";

static const struct option main_opts[] = {
	{ "sock-name", required_argument, NULL, OPT_SOCK_NAME },
	{ "ctl", required_argument, NULL, OPT_CTL },
	{ "script", required_argument, NULL, OPT_SCRIPT },
	{ "capture", required_argument, NULL, OPT_CAPTURE },
	{ "no-console", no_argument, NULL, OPT_NO_CONSOLE },
	{ "pci-root", required_argument, NULL, OPT_PCI_ROOT },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	/* ibsim's long options */
	{ "Version", no_argument, NULL, 'V' },
	{ "usage", no_argument, NULL, 'u' },
	{ "remote", no_argument, NULL, 'r' },
	{ "file", required_argument, NULL, 'f' },
	{ "Nodes", required_argument, NULL, 'N' },
	{ "Switches", required_argument, NULL, 'S' },
	{ "Ports", required_argument, NULL, 'P' },
	{ "Linearcap", required_argument, NULL, 'L' },
	{ "Mcastcap", required_argument, NULL, 'M' },
	{ "listen", required_argument, NULL, 'l' },
	{ "Ignoredups", no_argument, NULL, 'I' },
	{ "start", no_argument, NULL, 's' },
	{ "debug", no_argument, NULL, 'd' },
	{ "parsedebug", no_argument, NULL, 'p' },
	{ NULL, 0, NULL, 0 },
};

int
main(int argc, char **argv)
{
	const char *sock_name = NULL, *ctl_path = NULL, *script = NULL;
	const char *capture = NULL, *netfile, *pci_root = NULL;
	struct cli_opts copts = { .console = true, .console_out = NULL };
	char pci_buf[PATH_MAX];
	struct main_ctx m;
	bool console = true;
	char err[512];
	unsigned int i;
	int opt, ret, rc = 1;

	if (argc > 1 && strcmp(argv[1], "gen") == 0)
		return topo_gen_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "ctl") == 0)
		return cli_ctl_main(argc - 1, argv + 1);

	opterr = 0;	/* one line of our own for every usage error */
	while ((opt = getopt_long(argc, argv, main_short, main_opts, NULL)) != -1) {
		switch (cli_ibsim_option(opt, optarg, &copts, &ret)) {
		case 1:
			return ret;
		case 0:
			continue;
		default:
			break;
		}
		switch (opt) {
		case OPT_SOCK_NAME:
			sock_name = optarg;
			break;
		case OPT_CTL:
			ctl_path = optarg;
			break;
		case OPT_SCRIPT:
			script = optarg;
			break;
		case OPT_CAPTURE:
			capture = optarg;
			break;
		case OPT_NO_CONSOLE:
			console = false;
			break;
		case OPT_PCI_ROOT:
			pci_root = optarg;
			break;
		case 'v':
			fab_log_level++;
			break;
		case 'q':
			fab_log_level = 0;
			break;
		case 'h':
		case 'u':
			fputs(usage_text, stdout);
			return 0;
		case ':':
			if (optopt != 0 && optopt < 256)
				return main_usage_error("option -%c needs a value", optopt);
			return main_usage_error("option %s needs a value", argv[optind - 1]);
		default:
			if (optopt != 0 && optopt < 256)
				return main_usage_error("unknown option -%c", optopt);
			return main_usage_error("unknown option %s", argv[optind - 1]);
		}
	}
	if (optind == argc)
		return main_usage_error("no net file given");
	if (optind < argc - 1)
		return main_usage_error("one net file expected, got \"%s\" too", argv[optind + 1]);
	console = console && copts.console;
	if (copts.console_out != NULL && main_console_out(copts.console_out) < 0)
		return EXIT_TOPOLOGY;
	netfile = argv[optind];
	/* Tests read stdout through a pipe: one line at a time, please. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	memset(&m, 0, sizeof(m));
	m.ep = m.sig_fd = m.timer_fd = m.listen_fd = -1;
	m.hca_timeout = -1;
	for (i = 0; i < MAIN_MAX_CONNS; i++)
		m.conns[i].fd = -1;

	m.f = fabric_new();
	if (m.f == NULL) {
		FAB_ERR("out of memory");
		return 1;
	}
	m.f->verbose = fab_log_level;
	err[0] = '\0';
	if (topo_parse_file(m.f, netfile, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err[0] != '\0' ? err : netfile);
		rc = EXIT_TOPOLOGY;
		goto out;
	}
	if (m.f->nnodes == 0) {
		/* Nothing to simulate: a wrong or emptied file, not a fabric. */
		fprintf(stderr, "%s: no nodes in the net file\n", netfile);
		rc = EXIT_TOPOLOGY;
		goto out;
	}

	ret = umad2sim_open(m.f, sock_name);
	if (ret < 0) {
		const char *base = sock_name != NULL ? sock_name : getenv("IBSIM_SOCKNAME");

		if (base == NULL || base[0] == '\0')
			base = U2S_DEFAULT_BASENAME;
		if (ret == -EADDRINUSE)
			FAB_ERR("socket name \"%s\" is in use (abstract socket @%s:ctl):"
				" another ibfabric or ibsim is running;"
				" pick another with --sock-name", base, base);
		else
			FAB_ERR("socket name \"%s\": %s", base, strerror(-ret));
		goto out;
	}
	if (capture != NULL) {
		ret = fab_capture_start(m.f, NULL, capture);
		if (ret < 0) {
			FAB_ERR("--capture %s: %s", capture, strerror(-ret));
			goto out;
		}
	}
	if (ctl_path != NULL && main_ctl_listen(&m, ctl_path) < 0)
		goto out;
	/* One MT25208 PCI function per active CA (issue 4, mt25208_host.h). */
	if (pci_root == NULL) {
		snprintf(m.pci_parent, sizeof(m.pci_parent), "/tmp/ibfabric-%s",
			 umad2sim_basename(m.f));
		snprintf(pci_buf, sizeof(pci_buf), "%s/pci", m.pci_parent);
		pci_root = pci_buf;
	}
	m.hcas = hca_set_create(m.f, pci_root);
	if (m.hcas == NULL) {
		FAB_ERR("--pci-root %s: %s", pci_root, strerror(errno));
		goto out;
	}
	/* A nap of MT25208_NAP_US, not that plus the default 50 us of slack. */
	if (hca_set_count(m.hcas) > 0 && prctl(PR_SET_TIMERSLACK, MAIN_TIMER_SLACK_NS) < 0)
		FAB_ERR("timer slack: %s", strerror(errno));
	if (main_setup_fds(&m) < 0) {
		FAB_ERR("event loop set-up: %s", strerror(errno));
		goto out;
	}
	m.f->run_for = main_run_for;
	m.f->run_ctx = &m;

	/* The net file's "do" lines, then --script, then the console. */
	ret = ctl_run_do_cmds(m.f, stdout);
	if (ret < 0) {
		rc = EXIT_TOPOLOGY;
		goto out;
	}
	if (ret == CTL_QUIT)
		m.quit = true;
	if (!m.quit && script != NULL) {
		ret = ctl_source(m.f, script, stdout);
		if (ret < 0) {
			rc = EXIT_TOPOLOGY;
			goto out;
		}
		if (ret == CTL_QUIT)
			m.quit = true;
	}
	fabric_run(m.f, MAIN_RUN_BUDGET);
	FAB_INFO("ready: %u nodes, socket name \"%s\"%s%s", m.f->nnodes,
		 umad2sim_basename(m.f), ctl_path != NULL ? ", control socket " : "",
		 ctl_path != NULL ? ctl_path : "");
	if (!m.quit && console && main_console_start(&m) < 0) {
		FAB_ERR("console: %s", strerror(errno));
		goto out;
	}
	rc = main_loop(&m) < 0 ? 1 : 0;
out:
	main_teardown(&m);
	return rc;
}
