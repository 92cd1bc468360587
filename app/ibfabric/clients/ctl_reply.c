/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The error line of ibfabric's command interpreters (ctl.c,
 * ctl_ibsim.c): a failed command prints exactly one line starting
 * "error: ", for programs as much as for people.
 */

#include <errno.h>
#include <stdarg.h>

#include "ctl_reply.h"

int
ctl_err(FILE *out, const char *fmt, ...)
{
	va_list ap;

	fputs("error: ", out);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
	return -EINVAL;
}
