/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The command line around the simulator: "ibfabric ctl <path> [command]"
 * (a client of the control socket, so that no socat is needed),
 * "--version", and ibsim's own options, accepted where they mean
 * something here and refused with a pointer to the equivalent where they
 * do not (ibsim 0.12 ibsim.c main()). doc/guides/tools/ibfabric.rst.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli.h"
#include "fab_log.h"

#ifndef IBFABRIC_VERSION
#define IBFABRIC_VERSION "unknown"
#endif

#define CLI_LINE_MAX	1024

void
cli_version(FILE *out)
{
	fprintf(out, "ibfabric %s (dpdk-ipoib): InfiniBand fabric simulator, ibsim 0.10-0.12"
		" client protocol and console\n", IBFABRIC_VERSION);
}

/* Send @p line and copy the reply to stdout up to "ok" / "error: ...". */
static int
cli_ctl_one(int fd, FILE *in, const char *line)
{
	char reply[CLI_LINE_MAX * 4];
	size_t len = strlen(line);

	if (send(fd, line, len, MSG_NOSIGNAL) != (ssize_t)len ||
	    send(fd, "\n", 1, MSG_NOSIGNAL) != 1) {
		fprintf(stderr, "ibfabric ctl: send: %s\n", strerror(errno));
		return 2;
	}
	while (fgets(reply, sizeof(reply), in) != NULL) {
		if (strcmp(reply, "ok\n") == 0)
			return 0;
		if (strncmp(reply, "error: ", 7) == 0) {
			fputs(reply, stderr);
			return 1;
		}
		fputs(reply, stdout);
	}
	fprintf(stderr, "ibfabric ctl: the control socket closed before the reply ended\n");
	return 2;
}

int
cli_ctl_main(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char line[CLI_LINE_MAX];
	size_t len = 0, n;
	FILE *in;
	int fd, i, rc = 0;

	if (argc < 2) {
		fprintf(stderr, "ibfabric ctl: no socket given (ibfabric ctl --help)\n");
		return 2;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		fputs("usage: ibfabric ctl <socket> [<command> ...]\n"
		      "Run one console command on the ibfabric whose --ctl is <socket>, or,\n"
		      "without a command, each line of stdin. Exit status: 0 ok, 1 the command\n"
		      "failed (its error on stderr), 2 no connection or bad usage.\n", stdout);
		return 0;
	}
	if (strlen(argv[1]) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "ibfabric ctl: %s: path longer than %zu bytes\n", argv[1],
			sizeof(sa.sun_path) - 1);
		return 2;
	}
	strcpy(sa.sun_path, argv[1]);
	line[0] = '\0';
	for (i = 2; i < argc; i++) {
		n = strlen(argv[i]);
		if (len + n + 2 > sizeof(line)) {
			fprintf(stderr, "ibfabric ctl: command longer than %d bytes\n",
				CLI_LINE_MAX - 2);
			return 2;
		}
		if (i > 2)
			line[len++] = ' ';
		memcpy(line + len, argv[i], n + 1);
		len += n;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		fprintf(stderr, "ibfabric ctl: %s: %s (is ibfabric running with --ctl %s?)\n",
			argv[1], strerror(errno), argv[1]);
		if (fd >= 0)
			close(fd);
		return 2;
	}
	in = fdopen(dup(fd), "r");
	if (in == NULL) {
		fprintf(stderr, "ibfabric ctl: %s\n", strerror(errno));
		close(fd);
		return 2;
	}
	if (argc > 2) {
		rc = cli_ctl_one(fd, in, line);
	} else {
		/* Commands from stdin: stop at the first failure, as "source" does. */
		while (rc == 0 && fgets(line, sizeof(line), stdin) != NULL) {
			line[strcspn(line, "\n")] = '\0';
			rc = cli_ctl_one(fd, in, line);
		}
	}
	fclose(in);
	close(fd);
	return rc;
}

/*
 * ibsim's options. Returns 0 if handled (*exit_code untouched), 1 if the
 * program should exit with *exit_code, -1 if @p opt is not one of them.
 */
int
cli_ibsim_option(int opt, const char *arg, struct cli_opts *o, int *exit_code)
{
	char *end;

	switch (opt) {
	case 's':	/* --start: the network starts at once here */
	case 'p':	/* --parsedebug: parse errors and warnings always print */
		return 0;
	case 'n':
		o->console = false;
		return 0;
	case 'd':	/* --debug: libibmad's debug in ibsim; the debug log here */
		fab_log_level = 2;
		return 0;
	case 'f':
		o->console_out = arg;
		return 0;
	case 'N':
	case 'S':
	case 'P':
	case 'L':
	case 'M':
		/* ibsim's table sizes: nothing here is of fixed size. */
		errno = 0;
		(void)strtoul(arg, &end, 0);
		if (errno != 0 || *arg == '\0' || *end != '\0') {
			fprintf(stderr, "ibfabric: -%c %s: not a number\n", opt, arg);
			*exit_code = 2;
			return 1;
		}
		FAB_INFO("-%c %s: ibsim's table limit, not needed here (no fixed limits)", opt,
			 arg);
		return 0;
	case 'I':
		fprintf(stderr, "ibfabric: -I (ignore duplicate nodes) is not supported: a "
			"duplicate node name is an error here; rename one "
			"(ibfabric_topology.rst, Errors)\n");
		*exit_code = 2;
		return 1;
	case 'r':
	case 'l':
		fprintf(stderr, "ibfabric: -%c (ibsim's inet mode) is not supported: run the "
			"clients on this host with IBSIM_SOCKNAME (and --sock-name)\n", opt);
		*exit_code = 2;
		return 1;
	case 'V':
		cli_version(stdout);
		*exit_code = 0;
		return 1;
	default:
		return -1;
	}
}
