/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * What every command of ibfabric's interpreters answers (ctl.c, the
 * commands in ibfabric's spelling; ctl_ibsim.c, in ibsim's): the one
 * "error: ..." line of a failed command and the status of "quit".
 */

#ifndef _IBFABRIC_CTL_REPLY_H_
#define _IBFABRIC_CTL_REPLY_H_

#include <stdio.h>

#define CTL_QUIT	1	/**< a command's return: the command was "quit" */

/** Print "error: <what>" on @p out (one line); returns -EINVAL. */
int ctl_err(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* _IBFABRIC_CTL_REPLY_H_ */
