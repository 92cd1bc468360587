/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * ibsim's console commands (ctl_ibsim.c), which ctl_exec() of ctl.c tries
 * first on every line that is not one of its own.
 */

#ifndef _IBFABRIC_CTL_IBSIM_H_
#define _IBFABRIC_CTL_IBSIM_H_

#include <stdio.h>

struct fabric;

/**
 * Run every line of the file @p path through the whole interpreter, as
 * ctl_source() of ctl.h does: what ibsim's "!<file>" asks for. Returns
 * as ctl_exec().
 */
typedef int (*ctl_ibsim_source_t)(struct fabric *f, const char *path, FILE *out);

/**
 * ibsim's console commands, in ibsim's spelling (any case, whole word):
 * "Dump", "Route", "Link", "ReLink", "Unlink", "Clear", "Guid", "Error",
 * "PerformanceSet", "Baselid", "Verbose", "Wait", "Attached", "X",
 * "Start", "Quit", "Help", "!<file>" (run through @p source). Returns
 * -ENOENT if @p line is none of them, else as ctl_exec().
 */
int ctl_ibsim_exec(struct fabric *f, const char *line, FILE *out, ctl_ibsim_source_t source);

#endif /* _IBFABRIC_CTL_IBSIM_H_ */
