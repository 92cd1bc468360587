/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The interactive prompt (-i), on DPDK's cmdline library:
 *   show port stats|xstats|info all|<port>
 *   show ib port [all|<port>]
 *   show ipoib neigh|path|mcast [all|<port>]
 *   set txonly-dest <lid>:<qpn>[:<qkey>]
 *   start | stop | quit | help
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmdline.h>
#include <cmdline_parse.h>
#include <cmdline_parse_string.h>
#include <cmdline_socket.h>

#include "ipoib_fwd.h"

static struct cmdline *prompt_cl;

/*
 * Run @p fn on "all" ports or on the one numbered @p which; a word that
 * is neither is named in the answer.
 */
static void
for_ports(const char *which, void (*fn)(uint16_t port_id))
{
	unsigned int i;
	char *end;
	unsigned long p;

	if (strcmp(which, "all") == 0) {
		for (i = 0; i < fwd_nb_ports; i++)
			fn(fwd_ports[i].port_id);
		return;
	}
	p = strtoul(which, &end, 10);
	if (*which == '\0' || *end != '\0' || p > UINT16_MAX || fwd_port_by_id(p) == NULL) {
		printf("Port \"%s\": not a port of this app (give all or one of:", which);
		for (i = 0; i < fwd_nb_ports; i++)
			printf(" %u", fwd_ports[i].port_id);
		printf(")\n");
		return;
	}
	fn((uint16_t)p);
}

/* show port stats|xstats|info <which> */
struct cmd_show_port {
	cmdline_fixed_string_t show;
	cmdline_fixed_string_t port;
	cmdline_fixed_string_t what;
	cmdline_fixed_string_t which;
};

static void
cmd_show_port_parsed(void *res, struct cmdline *cl __rte_unused, void *data __rte_unused)
{
	struct cmd_show_port *r = res;

	if (strcmp(r->what, "stats") == 0)
		for_ports(r->which, fwd_stats_port);
	else if (strcmp(r->what, "xstats") == 0)
		for_ports(r->which, fwd_stats_xstats);
	else
		for_ports(r->which, fwd_stats_info);
}

static cmdline_parse_token_string_t cmd_show_port_show =
	TOKEN_STRING_INITIALIZER(struct cmd_show_port, show, "show");
static cmdline_parse_token_string_t cmd_show_port_port =
	TOKEN_STRING_INITIALIZER(struct cmd_show_port, port, "port");
static cmdline_parse_token_string_t cmd_show_port_what =
	TOKEN_STRING_INITIALIZER(struct cmd_show_port, what, "stats#xstats#info");
static cmdline_parse_token_string_t cmd_show_port_which =
	TOKEN_STRING_INITIALIZER(struct cmd_show_port, which, NULL);

static cmdline_parse_inst_t cmd_show_port = {
	.f = cmd_show_port_parsed,
	.help_str = "show port stats|xstats|info all|<port_id>",
	.tokens = {
		(void *)&cmd_show_port_show,
		(void *)&cmd_show_port_port,
		(void *)&cmd_show_port_what,
		(void *)&cmd_show_port_which,
		NULL,
	},
};

/* show ib port [<which>] */
struct cmd_show_ib {
	cmdline_fixed_string_t show;
	cmdline_fixed_string_t ib;
	cmdline_fixed_string_t port;
	cmdline_fixed_string_t which;
};

static void
ib_show(uint16_t port_id)
{
	fwd_port_ib_show(fwd_port_by_id(port_id));
}

static void
cmd_show_ib_parsed(void *res, struct cmdline *cl __rte_unused, void *data)
{
	struct cmd_show_ib *r = res;

	for_ports(data != NULL ? "all" : r->which, ib_show);
}

static cmdline_parse_token_string_t cmd_show_ib_show =
	TOKEN_STRING_INITIALIZER(struct cmd_show_ib, show, "show");
static cmdline_parse_token_string_t cmd_show_ib_ib =
	TOKEN_STRING_INITIALIZER(struct cmd_show_ib, ib, "ib");
static cmdline_parse_token_string_t cmd_show_ib_port =
	TOKEN_STRING_INITIALIZER(struct cmd_show_ib, port, "port");
static cmdline_parse_token_string_t cmd_show_ib_which =
	TOKEN_STRING_INITIALIZER(struct cmd_show_ib, which, NULL);

static cmdline_parse_inst_t cmd_show_ib = {
	.f = cmd_show_ib_parsed,
	.help_str = "show ib port all|<port_id>: rte_ib port attributes",
	.tokens = {
		(void *)&cmd_show_ib_show,
		(void *)&cmd_show_ib_ib,
		(void *)&cmd_show_ib_port,
		(void *)&cmd_show_ib_which,
		NULL,
	},
};

static cmdline_parse_inst_t cmd_show_ib_all = {
	.f = cmd_show_ib_parsed,
	.data = (void *)1,
	.help_str = "show ib port: rte_ib port attributes of every IB port",
	.tokens = {
		(void *)&cmd_show_ib_show,
		(void *)&cmd_show_ib_ib,
		(void *)&cmd_show_ib_port,
		NULL,
	},
};

/* show ipoib neigh|path|mcast [<which>] */
struct cmd_show_ipoib {
	cmdline_fixed_string_t show;
	cmdline_fixed_string_t ipoib;
	cmdline_fixed_string_t what;
	cmdline_fixed_string_t which;
};

/* what the current "show ipoib" asks for (main lcore) */
static const char *ipoib_what;
static bool ipoib_all;

static void
ipoib_show_one(uint16_t port_id)
{
	struct fwd_port *fp = fwd_port_by_id(port_id);

	/* "all" lists the net_ipoib ports only; a port named is answered */
	if (fp->ipoib != NULL || !ipoib_all)
		fwd_ipoib_show(port_id, ipoib_what);
}

static void
cmd_show_ipoib_parsed(void *res, struct cmdline *cl __rte_unused, void *data)
{
	struct cmd_show_ipoib *r = res;
	unsigned int i, n = 0;

	ipoib_what = r->what;
	ipoib_all = data != NULL || strcmp(r->which, "all") == 0;
	for (i = 0; i < fwd_nb_ports; i++)
		n += fwd_ports[i].ipoib != NULL;
	if (ipoib_all && n == 0) {
		printf("No net_ipoib port in this app\n");
		return;
	}
	for_ports(ipoib_all ? "all" : r->which, ipoib_show_one);
}

static cmdline_parse_token_string_t cmd_show_ipoib_show =
	TOKEN_STRING_INITIALIZER(struct cmd_show_ipoib, show, "show");
static cmdline_parse_token_string_t cmd_show_ipoib_ipoib =
	TOKEN_STRING_INITIALIZER(struct cmd_show_ipoib, ipoib, "ipoib");
static cmdline_parse_token_string_t cmd_show_ipoib_what =
	TOKEN_STRING_INITIALIZER(struct cmd_show_ipoib, what, "neigh#path#mcast");
static cmdline_parse_token_string_t cmd_show_ipoib_which =
	TOKEN_STRING_INITIALIZER(struct cmd_show_ipoib, which, NULL);

static cmdline_parse_inst_t cmd_show_ipoib = {
	.f = cmd_show_ipoib_parsed,
	.help_str = "show ipoib neigh|path|mcast all|<port_id>: lib/ipoib tables of net_ipoib ports",
	.tokens = {
		(void *)&cmd_show_ipoib_show,
		(void *)&cmd_show_ipoib_ipoib,
		(void *)&cmd_show_ipoib_what,
		(void *)&cmd_show_ipoib_which,
		NULL,
	},
};

static cmdline_parse_inst_t cmd_show_ipoib_all = {
	.f = cmd_show_ipoib_parsed,
	.data = (void *)1,
	.help_str = "show ipoib neigh|path|mcast: tables of every net_ipoib port",
	.tokens = {
		(void *)&cmd_show_ipoib_show,
		(void *)&cmd_show_ipoib_ipoib,
		(void *)&cmd_show_ipoib_what,
		NULL,
	},
};

/* set txonly-dest <lid>:<qpn>[:<qkey>] */
struct cmd_set_dest {
	cmdline_fixed_string_t set;
	cmdline_fixed_string_t key;
	cmdline_fixed_string_t dest;
};

static void
cmd_set_dest_parsed(void *res, struct cmdline *cl __rte_unused, void *data __rte_unused)
{
	struct cmd_set_dest *r = res;

	if (fwd_running()) {
		printf("set txonly-dest %s: stop forwarding first\n", r->dest);
		return;
	}
	if (fwd_config_dest(r->dest) != 0)
		return;
	fwd_ports_dest_retire();
	printf("txonly-dest: LID %u QPN 0x%06x\n", fwd_cfg.dest_lid, fwd_cfg.dest_qpn);
}

static cmdline_parse_token_string_t cmd_set_dest_set =
	TOKEN_STRING_INITIALIZER(struct cmd_set_dest, set, "set");
static cmdline_parse_token_string_t cmd_set_dest_key =
	TOKEN_STRING_INITIALIZER(struct cmd_set_dest, key, "txonly-dest");
static cmdline_parse_token_string_t cmd_set_dest_dest =
	TOKEN_STRING_INITIALIZER(struct cmd_set_dest, dest, NULL);

static cmdline_parse_inst_t cmd_set_dest = {
	.f = cmd_set_dest_parsed,
	.help_str = "set txonly-dest <lid>:<qpn>[:<qkey>]: destination of txonly and io",
	.tokens = {
		(void *)&cmd_set_dest_set,
		(void *)&cmd_set_dest_key,
		(void *)&cmd_set_dest_dest,
		NULL,
	},
};

/* start | stop | quit | help */
struct cmd_word {
	cmdline_fixed_string_t word;
};

static void
cmd_word_parsed(void *res, struct cmdline *cl, void *data __rte_unused)
{
	struct cmd_word *r = res;

	if (strcmp(r->word, "start") == 0) {
		fwd_start();
	} else if (strcmp(r->word, "stop") == 0) {
		if (!fwd_running()) {
			printf("Forwarding not started\n");
			return;
		}
		fwd_stop();
		fwd_stats_final();
	} else if (strcmp(r->word, "quit") == 0) {
		cmdline_quit(cl);
	} else {
		printf("Commands:\n"
		       "  show port stats|xstats|info all|<port_id>\n"
		       "  show ib port [all|<port_id>]\n"
		       "  show ipoib neigh|path|mcast [all|<port_id>]\n"
		       "  set txonly-dest <lid>:<qpn>[:<qkey>]\n"
		       "  start    start forwarding (mode %s)\n"
		       "  stop     stop forwarding, print its statistics\n"
		       "  quit     stop and exit\n", fwd_mode_name(fwd_cfg.mode));
	}
}

static cmdline_parse_token_string_t cmd_word_word =
	TOKEN_STRING_INITIALIZER(struct cmd_word, word, "start#stop#quit#help");

static cmdline_parse_inst_t cmd_word = {
	.f = cmd_word_parsed,
	.help_str = "start|stop|quit|help",
	.tokens = {
		(void *)&cmd_word_word,
		NULL,
	},
};

static cmdline_parse_ctx_t main_ctx[] = {
	(cmdline_parse_inst_t *)&cmd_show_port,
	(cmdline_parse_inst_t *)&cmd_show_ib,
	(cmdline_parse_inst_t *)&cmd_show_ib_all,
	(cmdline_parse_inst_t *)&cmd_show_ipoib,
	(cmdline_parse_inst_t *)&cmd_show_ipoib_all,
	(cmdline_parse_inst_t *)&cmd_set_dest,
	(cmdline_parse_inst_t *)&cmd_word,
	NULL,
};

void
fwd_prompt(void)
{
	prompt_cl = cmdline_stdin_new(main_ctx, "ipoib-fwd> ");
	if (prompt_cl == NULL) {
		FWD_LOG(ERR, "cannot start the prompt on stdin");
		return;
	}
	/* returns on quit, on EOF, and when a signal interrupts its read */
	cmdline_interact(prompt_cl);
	cmdline_stdin_exit(prompt_cl);
	prompt_cl = NULL;
	printf("\n");
}
