/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * ibfabric's log: one line per message on stderr, prefixed with the
 * program name and the level, so that tests can grep it. The console
 * and control-socket output (ctl.c) goes to stdout or the socket, never
 * here, so the two do not interleave in a parser's view.
 */

#include <stdarg.h>
#include <stdio.h>

#include "fab_log.h"

int fab_log_level = 1;

static const char *const fab_log_names[] = { "error", "info", "debug" };

void
fab_log(int level, const char *fmt, ...)
{
	va_list ap;

	if (level > fab_log_level)
		return;
	if (level < 0)
		level = 0;
	if (level > 2)
		level = 2;
	fprintf(stderr, "ibfabric: %s: ", fab_log_names[level]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void
fab_warn(const char *fmt, ...)
{
	va_list ap;

	if (fab_log_level < 1)
		return;
	fputs("ibfabric: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
