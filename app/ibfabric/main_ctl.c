/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * ibfabric: where commands come from (main_ctl.h): the control socket
 * (a UNIX stream socket, one command per line, replies ending "ok" or
 * "error:") and the console on stdin.
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

/* ------------------------------------------------------------------ */
/* Control socket                                                      */

int
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

void
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

void
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
bool
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

void
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
bool
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

void
main_stdin_eof(struct main_ctx *m)
{
	/* Stop watching it: at EOF it would be readable forever. */
	epoll_ctl(m->ep, EPOLL_CTL_DEL, STDIN_FILENO, NULL);
	m->stdin_open = false;
}

int
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
