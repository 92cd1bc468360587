/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * The command interpreter shared by the console, the control socket,
 * scripts and net-file "do" lines (ctl.c, ctl_ibsim.c).
 */

#ifndef _IBFABRIC_CTL_H_
#define _IBFABRIC_CTL_H_

#include <stdio.h>

struct fabric;

/* ------------------------------------------------------------------ */
/* ctl.c: one command interpreter for console, control socket, scripts */

#define CTL_QUIT	1	/**< ctl_exec: the command was "quit" */

/**
 * Run one command line (empty lines and '#' comments do nothing),
 * writing its line-oriented output to @p out. A bad command prints one
 * "error: ..." line, changes nothing and returns -EINVAL; "quit"
 * returns CTL_QUIT; else 0.
 */
int ctl_exec(struct fabric *f, const char *line, FILE *out);
/** Print "error: <what>" on @p out (one line); returns -EINVAL. */
int ctl_err(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/**
 * ibsim's console commands (ctl_ibsim.c), in ibsim's spelling (any case,
 * whole word): "Dump", "Route", "Link", "ReLink", "Unlink", "Clear",
 * "Guid", "Error", "PerformanceSet", "Baselid", "Verbose", "Wait",
 * "Attached", "X", "Start", "!<file>". Returns -ENOENT if @p line is none
 * of them, else as ctl_exec().
 */
int ctl_ibsim_exec(struct fabric *f, const char *line, FILE *out);
/** Run every line of @p path; stops at the first error ("file:line: error: ..."). */
int ctl_source(struct fabric *f, const char *path, FILE *out);
/** Run the net file's "do" lines (f->do_cmds) in order; same return as ctl_source. */
int ctl_run_do_cmds(struct fabric *f, FILE *out);

#endif /* _IBFABRIC_CTL_H_ */
