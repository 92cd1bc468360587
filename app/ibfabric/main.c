/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * ibfabric: options and start-up. The event loop is main_loop.c, the
 * control socket and the console main_ctl.c; their shared context is
 * main_ctx.h.
 *
 * One thread, one epoll set: the ibsim control socket and the client
 * data sockets (umad2sim.c), the control socket and its connections,
 * stdin (the console), a signalfd for SIGINT/SIGTERM and a 1 s timerfd
 * that frees the slots of dead clients (armed only while clients are
 * attached). epoll_wait blocks with no timeout when the fabric is quiet,
 * so an idle simulator costs nothing; ibsim 0.10 instead spins on a
 * console at EOF (ibsim.c sim_run(), issue 3). After each batch of
 * input the fabric runs with a bounded budget, and while packets remain
 * queued the loop polls without blocking, so no source starves.
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
#include "main_loop.h"

static const char usage_text[] =
	"usage: ibfabric [options] <netfile>\n"
	"       ibfabric gen <shape> [options]   (write a net file; \"ibfabric gen --help\")\n"
	"\n"
	"Simulate the InfiniBand fabric described by <netfile> (ibsim's net\n"
	"format) and serve ibsim's client protocol, so that OpenSM and the\n"
	"infiniband-diags run under LD_PRELOAD=libumad2sim.so attach to it.\n"
	"\n"
	"  --sock-name <base>    ibsim socket base name (default $IBSIM_SOCKNAME, else \"sim\")\n"
	"  --ctl <path>          control socket (UNIX stream) at <path>\n"
	"  --script <file>       run console commands from <file> after start\n"
	"  --capture <file>      pcap of every link from start (LINKTYPE_INFINIBAND)\n"
	"  --pci-root <dir>      where active HCAs' PCI functions appear\n"
	"                        (default /tmp/ibfabric-<sock-name>/pci; SYSFS_PCI_DEVICES)\n"
	"  --no-console          do not read commands from stdin\n"
	"  -v, --verbose         more log (repeat for debug)\n"
	"  -q, --quiet           errors only\n"
	"  -V, --version         the version\n"
	"  -h, --help            this text\n"
	"\n"
	"ibsim's options: -s and -p are accepted (the network always starts, parse\n"
	"messages always print), -n is --no-console, -d debug log, -f <file> console\n"
	"output to <file>, -N/-S/-P/-L/-M <n> accepted and not needed (no fixed\n"
	"limits); -I, -r and -l are refused with the reason.\n"
	"\n"
	"  ibfabric ctl <socket> [<command>]  run console commands on a running ibfabric\n"
	"\n"
	"Exit status: 0 after quit or SIGINT/SIGTERM/SIGHUP/SIGQUIT, 1 on a run-time error\n"
	"(socket name in use), 2 on bad usage or a bad net file.\n";

/* A usage error: one line saying what was wrong, and where help is. */
static int __attribute__((format(printf, 1, 2)))
main_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("ibfabric: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (ibfabric --help)\n", stderr);
	return EXIT_TOPOLOGY;
}

/* ibsim -f <file>: the console's output (stdout) goes to @p path. */
static int
main_console_out(const char *path)
{
	char why[96];
	int fd = fab_open_regular(path, O_WRONLY | O_CREAT | O_TRUNC, 0644, why, sizeof(why));

	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) {
		fprintf(stderr, "ibfabric: -f %s: %s\n", path, fd < 0 ? why : strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

enum {
	OPT_SOCK_NAME = 256,
	OPT_CTL,
	OPT_SCRIPT,
	OPT_CAPTURE,
	OPT_NO_CONSOLE,
	OPT_PCI_ROOT,
};

/* Short options: ours (v q h V) and ibsim's (ibsim.c: "rf:dpvIsN:S:P:L:M:l:Vhun"). */
static const char main_short[] = ":vqhVrf:dpIsN:S:P:L:M:l:un";

static const struct option main_opts[] = {
	{ "sock-name", required_argument, NULL, OPT_SOCK_NAME },
	{ "ctl", required_argument, NULL, OPT_CTL },
	{ "script", required_argument, NULL, OPT_SCRIPT },
	{ "capture", required_argument, NULL, OPT_CAPTURE },
	{ "no-console", no_argument, NULL, OPT_NO_CONSOLE },
	{ "pci-root", required_argument, NULL, OPT_PCI_ROOT },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	/* ibsim's long options */
	{ "Version", no_argument, NULL, 'V' },
	{ "usage", no_argument, NULL, 'u' },
	{ "remote", no_argument, NULL, 'r' },
	{ "file", required_argument, NULL, 'f' },
	{ "Nodes", required_argument, NULL, 'N' },
	{ "Switches", required_argument, NULL, 'S' },
	{ "Ports", required_argument, NULL, 'P' },
	{ "Linearcap", required_argument, NULL, 'L' },
	{ "Mcastcap", required_argument, NULL, 'M' },
	{ "listen", required_argument, NULL, 'l' },
	{ "Ignoredups", no_argument, NULL, 'I' },
	{ "start", no_argument, NULL, 's' },
	{ "debug", no_argument, NULL, 'd' },
	{ "parsedebug", no_argument, NULL, 'p' },
	{ NULL, 0, NULL, 0 },
};

int
main(int argc, char **argv)
{
	const char *sock_name = NULL, *ctl_path = NULL, *script = NULL;
	const char *capture = NULL, *netfile, *pci_root = NULL;
	struct cli_opts copts = { .console = true, .console_out = NULL };
	char pci_buf[PATH_MAX];
	struct main_ctx m;
	bool console = true;
	char err[512];
	unsigned int i;
	int opt, ret, rc = 1;

	if (argc > 1 && strcmp(argv[1], "gen") == 0)
		return topo_gen_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "ctl") == 0)
		return cli_ctl_main(argc - 1, argv + 1);

	opterr = 0;	/* one line of our own for every usage error */
	while ((opt = getopt_long(argc, argv, main_short, main_opts, NULL)) != -1) {
		switch (cli_ibsim_option(opt, optarg, &copts, &ret)) {
		case 1:
			return ret;
		case 0:
			continue;
		default:
			break;
		}
		switch (opt) {
		case OPT_SOCK_NAME:
			sock_name = optarg;
			break;
		case OPT_CTL:
			ctl_path = optarg;
			break;
		case OPT_SCRIPT:
			script = optarg;
			break;
		case OPT_CAPTURE:
			capture = optarg;
			break;
		case OPT_NO_CONSOLE:
			console = false;
			break;
		case OPT_PCI_ROOT:
			pci_root = optarg;
			break;
		case 'v':
			fab_log_level++;
			break;
		case 'q':
			fab_log_level = 0;
			break;
		case 'h':
		case 'u':
			fputs(usage_text, stdout);
			return 0;
		case ':':
			if (optopt != 0 && optopt < 256)
				return main_usage_error("option -%c needs a value", optopt);
			return main_usage_error("option %s needs a value", argv[optind - 1]);
		default:
			if (optopt != 0 && optopt < 256)
				return main_usage_error("unknown option -%c", optopt);
			return main_usage_error("unknown option %s", argv[optind - 1]);
		}
	}
	if (optind == argc)
		return main_usage_error("no net file given");
	if (optind < argc - 1)
		return main_usage_error("one net file expected, got \"%s\" too", argv[optind + 1]);
	console = console && copts.console;
	if (copts.console_out != NULL && main_console_out(copts.console_out) < 0)
		return EXIT_TOPOLOGY;
	netfile = argv[optind];
	/* Tests read stdout through a pipe: one line at a time, please. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	memset(&m, 0, sizeof(m));
	m.ep = m.sig_fd = m.timer_fd = m.listen_fd = -1;
	m.hca_timeout = -1;
	for (i = 0; i < MAIN_MAX_CONNS; i++)
		m.conns[i].fd = -1;

	m.f = fabric_new();
	if (m.f == NULL) {
		FAB_ERR("out of memory");
		return 1;
	}
	m.f->verbose = fab_log_level;
	err[0] = '\0';
	if (topo_parse_file(m.f, netfile, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err[0] != '\0' ? err : netfile);
		rc = EXIT_TOPOLOGY;
		goto out;
	}
	if (m.f->nnodes == 0) {
		/* Nothing to simulate: a wrong or emptied file, not a fabric. */
		fprintf(stderr, "%s: no nodes in the net file\n", netfile);
		rc = EXIT_TOPOLOGY;
		goto out;
	}

	ret = umad2sim_open(m.f, sock_name);
	if (ret < 0) {
		const char *base = sock_name != NULL ? sock_name : getenv("IBSIM_SOCKNAME");

		if (base == NULL || base[0] == '\0')
			base = U2S_DEFAULT_BASENAME;
		if (ret == -EADDRINUSE)
			FAB_ERR("socket name \"%s\" is in use (abstract socket @%s:ctl):"
				" another ibfabric or ibsim is running;"
				" pick another with --sock-name", base, base);
		else
			FAB_ERR("socket name \"%s\": %s", base, strerror(-ret));
		goto out;
	}
	if (capture != NULL) {
		ret = fab_capture_start(m.f, NULL, capture);
		if (ret < 0) {
			FAB_ERR("--capture %s: %s", capture, strerror(-ret));
			goto out;
		}
	}
	if (ctl_path != NULL && main_ctl_listen(&m, ctl_path) < 0)
		goto out;
	/* One MT25208 PCI function per active CA (issue 4, mt25208_host.h). */
	if (pci_root == NULL) {
		snprintf(m.pci_parent, sizeof(m.pci_parent), "/tmp/ibfabric-%s",
			 umad2sim_basename(m.f));
		snprintf(pci_buf, sizeof(pci_buf), "%s/pci", m.pci_parent);
		pci_root = pci_buf;
	}
	m.hcas = hca_set_create(m.f, pci_root);
	if (m.hcas == NULL) {
		FAB_ERR("--pci-root %s: %s", pci_root, strerror(errno));
		goto out;
	}
	/* A nap of MT25208_NAP_US, not that plus the default 50 us of slack. */
	if (hca_set_count(m.hcas) > 0 && prctl(PR_SET_TIMERSLACK, MAIN_TIMER_SLACK_NS) < 0)
		FAB_ERR("timer slack: %s", strerror(errno));
	if (main_setup_fds(&m) < 0) {
		FAB_ERR("event loop set-up: %s", strerror(errno));
		goto out;
	}
	m.f->run_for = main_run_for;
	m.f->run_ctx = &m;

	/* The net file's "do" lines, then --script, then the console. */
	ret = ctl_run_do_cmds(m.f, stdout);
	if (ret < 0) {
		rc = EXIT_TOPOLOGY;
		goto out;
	}
	if (ret == CTL_QUIT)
		m.quit = true;
	if (!m.quit && script != NULL) {
		ret = ctl_source(m.f, script, stdout);
		if (ret < 0) {
			rc = EXIT_TOPOLOGY;
			goto out;
		}
		if (ret == CTL_QUIT)
			m.quit = true;
	}
	fabric_run(m.f, MAIN_RUN_BUDGET);
	FAB_INFO("ready: %u nodes, socket name \"%s\"%s%s", m.f->nnodes,
		 umad2sim_basename(m.f), ctl_path != NULL ? ", control socket " : "",
		 ctl_path != NULL ? ctl_path : "");
	if (!m.quit && console && main_console_start(&m) < 0) {
		FAB_ERR("console: %s", strerror(errno));
		goto out;
	}
	rc = main_loop(&m) < 0 ? 1 : 0;
out:
	main_teardown(&m);
	return rc;
}

