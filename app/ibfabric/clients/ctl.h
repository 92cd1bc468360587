/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * The command interpreter shared by the console, the control socket,
 * scripts and net-file "do" lines (ctl.c; it tries ibsim's commands of
 * ctl_ibsim.c first). Its answers are those of ctl_reply.h.
 */

#ifndef _IBFABRIC_CTL_H_
#define _IBFABRIC_CTL_H_

#include <stdio.h>

#include "ctl_reply.h"

struct fabric;

/* ------------------------------------------------------------------ */
/* ctl.c: one command interpreter for console, control socket, scripts */

/**
 * Run one command line (empty lines and '#' comments do nothing),
 * writing its line-oriented output to @p out. A bad command prints one
 * "error: ..." line, changes nothing and returns -EINVAL; "quit"
 * returns CTL_QUIT; else 0.
 */
int ctl_exec(struct fabric *f, const char *line, FILE *out);
/** Run every line of @p path; stops at the first error ("file:line: error: ..."). */
int ctl_source(struct fabric *f, const char *path, FILE *out);
/** Run the net file's "do" lines (f->do_cmds) in order; same return as ctl_source. */
int ctl_run_do_cmds(struct fabric *f, FILE *out);

#endif /* _IBFABRIC_CTL_H_ */
