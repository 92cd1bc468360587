/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * Private to ibfabric's command line (main.c, cli.c): "ibfabric ctl",
 * the version, ibsim's options.
 */

#ifndef _IBFABRIC_CLI_H_
#define _IBFABRIC_CLI_H_

#include <stdbool.h>
#include <stdio.h>

/** What ibsim's options set (the rest of main()'s options stay there). */
struct cli_opts {
	bool console;			/**< read commands from stdin */
	const char *console_out;	/**< ibsim -f: console output to this file */
};

/** Print "ibfabric <version> ..." on @p out. */
void cli_version(FILE *out);
/** "ibfabric ctl <socket> [command...]"; @p argv[0] is "ctl". Returns the exit code. */
int cli_ctl_main(int argc, char **argv);
/**
 * Handle ibsim's option @p opt (with @p arg). Returns 0 if handled,
 * 1 if ibfabric must exit with *@p exit_code, -1 if not an ibsim option.
 */
int cli_ibsim_option(int opt, const char *arg, struct cli_opts *o, int *exit_code);

#endif /* _IBFABRIC_CLI_H_ */
