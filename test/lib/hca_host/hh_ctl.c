/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * hca_host: the check counters from ibfabric's control socket. One
 * connection per question: the socket answers a line with its output
 * lines and then "ok" (or one "error: ..." line).
 */

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "hh_ctl.h"

#define CTL_TIMEOUT_MS	10000
#define CTL_REPLY_MAX	8192

static int __attribute__((format(printf, 3, 4)))
ctl_fail(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* Send @p cmd and read the reply up to its "ok" line into @p buf. */
static int
ctl_ask(const char *path, const char *cmd, char *buf, size_t cap, char *why, size_t len)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t got = 0, cmdlen = strlen(cmd);
	int fd, ret = -1;

	if (strlen(path) >= sizeof(sa.sun_path))
		return ctl_fail(why, len, "control socket path too long: %s", path);
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return ctl_fail(why, len, "socket: %s", strerror(errno));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		ctl_fail(why, len, "control socket %s: %s", path, strerror(errno));
		goto out;
	}
	if (send(fd, cmd, cmdlen, MSG_NOSIGNAL) != (ssize_t)cmdlen) {
		ctl_fail(why, len, "control socket %s: send: %s", path, strerror(errno));
		goto out;
	}
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		const char *last;
		ssize_t n;

		buf[got] = '\0';
		/* the reply ends with a line "ok" or "error: ..." */
		last = got > 0 ? strrchr(buf, '\n') : NULL;
		if (last != NULL) {
			const char *start = last;

			while (start > buf && start[-1] != '\n')
				start--;
			if (strncmp(start, "ok\n", 3) == 0) {
				ret = 0;
				break;
			}
			if (strncmp(start, "error: ", 7) == 0) {
				ctl_fail(why, len, "ibfabric: %.*s", (int)(last - start), start);
				break;
			}
		}
		if (got + 1 >= cap) {
			ctl_fail(why, len, "control socket: reply longer than %zu bytes", cap);
			break;
		}
		if (poll(&pfd, 1, CTL_TIMEOUT_MS) != 1) {
			ctl_fail(why, len, "control socket: no reply within %d ms", CTL_TIMEOUT_MS);
			break;
		}
		n = read(fd, buf + got, cap - 1 - got);
		if (n <= 0) {
			ctl_fail(why, len, "control socket closed mid-reply");
			break;
		}
		got += (size_t)n;
	}
out:
	close(fd);
	return ret;
}

int
hh_ctl_checks(const char *path, const char *node, struct hh_checks *out, char *why, size_t len)
{
	char cmd[160], *buf, *line, *save = NULL;
	int ret;

	if (path == NULL)
		return ctl_fail(why, len, "no ibfabric control socket given (hca_host -c PATH)");
	if (strchr(node, '"') != NULL || strchr(node, '\n') != NULL ||
	    snprintf(cmd, sizeof(cmd), "hca \"%s\" errors\n", node) >= (int)sizeof(cmd))
		return ctl_fail(why, len, "node name \"%s\" cannot be quoted", node);
	buf = malloc(CTL_REPLY_MAX);
	if (buf == NULL)
		return ctl_fail(why, len, "out of memory");
	ret = ctl_ask(path, cmd, buf, CTL_REPLY_MAX, why, len);
	memset(out, 0, sizeof(*out));
	for (line = strtok_r(buf, "\n", &save); ret == 0 && line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *chk = strstr(line, " check="), *cnt = strstr(line, " count=");
		size_t nlen;

		if (strncmp(line, "hca_error ", 10) != 0)
			continue;
		if (chk == NULL || cnt == NULL || out->n == HH_CTL_MAX_CHECKS) {
			ret = ctl_fail(why, len, "hca errors: unexpected line '%s'", line);
			break;
		}
		chk += 7;
		nlen = strcspn(chk, " ");
		if (nlen == 0 || nlen >= HH_CTL_NAME_MAX) {
			ret = ctl_fail(why, len, "hca errors: bad check name in '%s'", line);
			break;
		}
		memcpy(out->name[out->n], chk, nlen);
		out->count[out->n++] = strtoull(cnt + 7, NULL, 10);
	}
	if (ret == 0 && out->n == 0)
		ret = ctl_fail(why, len, "hca \"%s\" errors: no counters", node);
	free(buf);
	return ret;
}

long long
hh_ctl_count(const struct hh_checks *c, const char *name)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		if (strcmp(c->name[i], name) == 0)
			return (long long)c->count[i];
	return -1;
}
