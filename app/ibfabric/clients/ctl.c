/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The command interpreter shared by the console, the control socket,
 * --script files, "source" and the net file's "do" lines.
 *
 * Output is for programs as much as for people: one record per line,
 * "<kind> key=value ...", strings in double quotes, numbers in decimal
 * except GUIDs, masks and LIDs in routes (0x...). A failed command prints
 * exactly one line starting "error: " and changes nothing: every
 * argument is checked before anything is done.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctl.h"
#include "ctl_ibsim.h"
#include "ctl_reply.h"
#include "fab_file.h"
#include "fab_link.h"
#include "fab_node.h"
#include "fabric.h"
#include "port_state.h"
#include "umad2sim.h"

#define CTL_MAX_ARGS		8
#define CTL_LINE_MAX		1024
#define CTL_SOURCE_DEPTH	8

static int ctl_source_depth;

static const char *const ctl_help =
	"help                                       this text\n"
	"show nodes                                 every node\n"
	"show ports <node>                          PortInfo state of each port\n"
	"show counters <node> [<port>]              PMA counters\n"
	"show routes <switch>                       programmed LFT entries\n"
	"show clients                               attached umad2sim clients\n"
	"show stats                                 fabric-wide counters\n"
	"link down|up <node> [<port>]               pull or plug the cable (all of the node's)\n"
	"fault <node> <port> drop=<ppm> corrupt=<ppm>  faults on the link out of the port\n"
	"capture start [<node> <port>] <file>       pcap of a port, or of every link\n"
	"capture stop [<node> <port>]               stop it\n"
	"hca <node> errors                          MT25208 model: failed driver checks\n"
	"hca <node> resources                       MT25208 model: what its driver holds\n"
	"hca <node> fail-send <qpn>                 MT25208 model: fail that UD QP's next send\n"
	"source <file>                              run the commands in a file\n"
	"quit                                       stop ibfabric\n";

/*
 * Split @p line in place into at most CTL_MAX_ARGS words; a word may be
 * double-quoted to hold blanks (node names and descriptions do).
 * Returns the count, or -1 for an unterminated quote or too many words.
 */
static int
ctl_split(char *line, char **argv)
{
	int argc = 0;
	char *p = line;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (*p == '\0' || *p == '#')
			return argc;
		if (argc == CTL_MAX_ARGS)
			return -1;
		if (*p == '"') {
			argv[argc++] = ++p;
			p = strchr(p, '"');
			if (p == NULL)
				return -1;
			*p++ = '\0';
			continue;
		}
		argv[argc++] = p;
		while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
			p++;
		if (*p != '\0')
			*p++ = '\0';
	}
}

static bool
ctl_parse_uint(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	if (s == NULL || *s == '\0' || *s == '-')
		return false;
	errno = 0;
	*v = strtoul(s, &end, 0);
	return errno == 0 && *end == '\0' && *v <= max;
}

static struct fab_node *
ctl_node(struct fabric *f, const char *name, FILE *out)
{
	struct fab_node *n = fabric_find_node(f, name);

	if (n == NULL)
		n = fabric_find_node_by_desc(f, name);
	if (n == NULL)
		ctl_err(out, "node \"%s\": no such node", name);
	return n;
}

/* Port @p s of @p n: 1..nports, or 0 on a switch. */
static struct fab_port *
ctl_port(struct fab_node *n, const char *s, FILE *out)
{
	unsigned long num;
	unsigned long first = n->type == FAB_NODE_SWITCH ? 0 : 1;

	if (!ctl_parse_uint(s, FAB_MAX_PORTS, &num) || num < first || num > n->nports) {
		ctl_err(out, "node \"%s\" port \"%s\": not a port number (%lu..%u)",
			n->name, s, first, n->nports);
		return NULL;
	}
	return &n->ports[num];
}

static const char *
ctl_type_name(enum fab_node_type t)
{
	switch (t) {
	case FAB_NODE_CA:
		return "ca";
	case FAB_NODE_SWITCH:
		return "switch";
	case FAB_NODE_ROUTER:
		return "router";
	}
	return "unknown";
}

/* PortInfo PortState names, IBA 14.2.5.6 table 155. */
static const char *
ctl_state_name(uint8_t s)
{
	static const char *const names[] = {
		"NOP", "DOWN", "INIT", "ARMED", "ACTIVE",
	};

	return s < (sizeof(names) / sizeof(names[0])) ? names[s] : "RESERVED";
}

/* PortPhysicalState names, IBA 14.2.5.6. */
static const char *
ctl_phys_name(uint8_t s)
{
	static const char *const names[] = {
		"NOP", "SLEEP", "POLLING", "DISABLED", "TRAINING", "LINKUP",
		"ERROR_RECOVERY",
	};

	return s < (sizeof(names) / sizeof(names[0])) ? names[s] : "RESERVED";
}

static int
ctl_show_nodes(struct fabric *f, FILE *out)
{
	unsigned int i;

	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *n = f->nodes[i];
		const struct fab_port *base = n->type == FAB_NODE_SWITCH ?
			&n->ports[0] : (n->nports > 0 ? &n->ports[1] : NULL);

		fprintf(out, "node name=\"%s\" type=%s nports=%u guid=0x%016" PRIx64
			" lid=%u desc=\"%s\"\n", n->name, ctl_type_name(n->type),
			n->nports, n->node_guid, base != NULL ? base->lid : 0, n->desc);
	}
	return 0;
}

static void
ctl_print_port(const struct fab_port *p, FILE *out)
{
	fprintf(out, "port node=\"%s\" num=%u guid=0x%016" PRIx64 " lid=%u lmc=%u"
		" sm_lid=%u state=%s phys=%s cap_mask=0x%08" PRIx32,
		p->node->name, p->num, p->guid, p->lid, p->lmc, p->sm_lid,
		ctl_state_name(p->state), ctl_phys_name(p->phys_state), p->cap_mask);
	if (p->peer != NULL)
		fprintf(out, " peer=\"%s\" peer_port=%u", p->peer->node->name,
			p->peer->num);
	fprintf(out, " admin=%s\n", p->admin_up ? "up" : "down");
}

static int
ctl_show_ports(struct fabric *f, int argc, char **argv, FILE *out)
{
	struct fab_node *n;
	unsigned int i;

	if (argc != 3)
		return ctl_err(out, "usage: show ports <node>");
	n = ctl_node(f, argv[2], out);
	if (n == NULL)
		return -EINVAL;
	for (i = n->type == FAB_NODE_SWITCH ? 0 : 1; i <= n->nports; i++)
		ctl_print_port(&n->ports[i], out);
	return 0;
}

static void
ctl_print_counters(const struct fab_port *p, FILE *out)
{
	const struct fab_port_counters *c = &p->cnt;

	fprintf(out, "counters node=\"%s\" port=%u xmit_data=%" PRIu64
		" rcv_data=%" PRIu64 " xmit_pkts=%" PRIu64 " rcv_pkts=%" PRIu64
		" unicast_xmit_pkts=%" PRIu64 " unicast_rcv_pkts=%" PRIu64
		" multicast_xmit_pkts=%" PRIu64 " multicast_rcv_pkts=%" PRIu64
		" symbol_errors=%" PRIu32 " link_error_recovery=%" PRIu32
		" link_downed=%" PRIu32 " rcv_errors=%" PRIu32
		" rcv_remote_phys_errors=%" PRIu32
		" rcv_switch_relay_errors=%" PRIu32 " xmit_discards=%" PRIu32
		" xmit_constraint_errors=%" PRIu32
		" rcv_constraint_errors=%" PRIu32 " vl15_dropped=%" PRIu32
		" xmit_wait=%" PRIu32 "\n",
		p->node->name, p->num, c->xmit_data, c->rcv_data, c->xmit_pkts,
		c->rcv_pkts, c->unicast_xmit_pkts, c->unicast_rcv_pkts,
		c->multicast_xmit_pkts, c->multicast_rcv_pkts, c->symbol_errors,
		c->link_error_recovery, c->link_downed, c->rcv_errors,
		c->rcv_remote_phys_errors, c->rcv_switch_relay_errors,
		c->xmit_discards, c->xmit_constraint_errors,
		c->rcv_constraint_errors, c->vl15_dropped, c->xmit_wait);
}

static int
ctl_show_counters(struct fabric *f, int argc, char **argv, FILE *out)
{
	struct fab_node *n;
	struct fab_port *p;
	unsigned int i;

	if (argc != 3 && argc != 4)
		return ctl_err(out, "usage: show counters <node> [<port>]");
	n = ctl_node(f, argv[2], out);
	if (n == NULL)
		return -EINVAL;
	if (argc == 4) {
		p = ctl_port(n, argv[3], out);
		if (p == NULL)
			return -EINVAL;
		ctl_print_counters(p, out);
		return 0;
	}
	for (i = n->type == FAB_NODE_SWITCH ? 0 : 1; i <= n->nports; i++)
		ctl_print_counters(&n->ports[i], out);
	return 0;
}

static int
ctl_show_routes(struct fabric *f, int argc, char **argv, FILE *out)
{
	struct fab_node *n;
	unsigned int lid, top;

	if (argc != 3)
		return ctl_err(out, "usage: show routes <switch>");
	n = ctl_node(f, argv[2], out);
	if (n == NULL)
		return -EINVAL;
	if (n->sw == NULL)
		return ctl_err(out, "node \"%s\": not a switch", n->name);
	top = n->sw->lft_top;
	if (top >= FAB_LFT_CAP)
		top = FAB_LFT_CAP - 1;
	fprintf(out, "routes node=\"%s\" lft_top=%u\n", n->name, n->sw->lft_top);
	for (lid = 0; lid <= top; lid++)
		if (n->sw->lft[lid] != FAB_NO_PORT)
			fprintf(out, "route lid=%u port=%u\n", lid, n->sw->lft[lid]);
	return 0;
}

static int
ctl_show(struct fabric *f, int argc, char **argv, FILE *out)
{
	if (argc < 2)
		return ctl_err(out, "usage: show nodes|ports|counters|routes|clients|stats");
	if (strcmp(argv[1], "nodes") == 0 && argc == 2)
		return ctl_show_nodes(f, out);
	if (strcmp(argv[1], "ports") == 0)
		return ctl_show_ports(f, argc, argv, out);
	if (strcmp(argv[1], "counters") == 0)
		return ctl_show_counters(f, argc, argv, out);
	if (strcmp(argv[1], "routes") == 0)
		return ctl_show_routes(f, argc, argv, out);
	if (strcmp(argv[1], "clients") == 0 && argc == 2) {
		umad2sim_show_clients(f, out);
		return 0;
	}
	if (strcmp(argv[1], "stats") == 0 && argc == 2) {
		fprintf(out, "stats nodes=%u clients=%u pkts_moved=%" PRIu64
			" pkts_dropped=%" PRIu64 " bad_ctl_msgs=%" PRIu64
			" bad_mads=%" PRIu64 "\n", f->nnodes, umad2sim_nclients(f),
			f->pkts_moved, f->pkts_dropped, f->bad_ctl_msgs, f->bad_mads);
		return 0;
	}
	return ctl_err(out, "show \"%s\": unknown (nodes, ports, counters, routes, clients, stats)",
		       argv[1]);
}

/*
 * "hca <node> errors": the MT25208 model's counters of failed driver checks;
 * "hca <node> resources": what its driver holds in it;
 * "hca <node> fail-send <qpn>": its next send WQE on that QP fails.
 */
static int
ctl_hca(struct fabric *f, int argc, char **argv, FILE *out)
{
	struct fab_node *n;
	unsigned long qpn = 0;
	bool errors, fail;

	fail = argc == 4 && strcmp(argv[2], "fail-send") == 0;
	if (!fail && (argc != 3 || (strcmp(argv[2], "errors") != 0 &&
				    strcmp(argv[2], "resources") != 0)))
		return ctl_err(out, "usage: hca <node> errors|resources|fail-send <qpn>");
	if (fail && !ctl_parse_uint(argv[3], 0xffffff, &qpn))
		return ctl_err(out, "fail-send: qpn \"%s\": not a number in 0..0xffffff", argv[3]);
	errors = strcmp(argv[2], "errors") == 0;
	n = ctl_node(f, argv[1], out);
	if (n == NULL)
		return -EINVAL;
	if (n->hca == NULL || f->hca_errors == NULL || f->hca_resources == NULL ||
	    f->hca_fail_send == NULL)
		return ctl_err(out, "node \"%s\": not an active HCA with a device model", n->name);
	if (fail)
		return f->hca_fail_send(f, n, (uint32_t)qpn, out);
	if (errors)
		f->hca_errors(f, n, out);
	else
		f->hca_resources(f, n, out);
	return 0;
}

static int
ctl_link(struct fabric *f, int argc, char **argv, FILE *out)
{
	struct fab_node *n;
	struct fab_port *p;
	bool up;

	unsigned int i;

	if (argc != 3 && argc != 4)
		return ctl_err(out, "usage: link down|up <node> [<port>]");
	if (strcmp(argv[1], "up") == 0)
		up = true;
	else if (strcmp(argv[1], "down") == 0)
		up = false;
	else
		return ctl_err(out, "link \"%s\": expected up or down", argv[1]);
	n = ctl_node(f, argv[2], out);
	if (n == NULL)
		return -EINVAL;
	if (argc == 3) {
		/* The whole node: every cabled port, as if its power went. */
		for (i = 1; i <= n->nports; i++)
			if (n->ports[i].peer != NULL)
				port_state_admin(f, &n->ports[i], up);
		return 0;
	}
	p = ctl_port(n, argv[3], out);
	if (p == NULL)
		return -EINVAL;
	if (p->num == 0)
		return ctl_err(out, "node \"%s\" port 0: has no cable", n->name);
	port_state_admin(f, p, up);
	return 0;
}

static bool
ctl_parse_ppm(const char *arg, const char *key, unsigned long *v)
{
	size_t kl = strlen(key);

	return strncmp(arg, key, kl) == 0 && arg[kl] == '=' &&
	       ctl_parse_uint(arg + kl + 1, 1000000, v);
}

static int
ctl_fault(struct fabric *f, int argc, char **argv, FILE *out)
{
	unsigned long drop = 0, corrupt = 0;
	struct fab_node *n;
	struct fab_port *p;
	int i, ret;

	if (argc < 4 || argc > 5)
		return ctl_err(out, "usage: fault <node> <port> drop=<ppm> corrupt=<ppm>");
	n = ctl_node(f, argv[1], out);
	if (n == NULL)
		return -EINVAL;
	p = ctl_port(n, argv[2], out);
	if (p == NULL)
		return -EINVAL;
	for (i = 3; i < argc; i++) {
		if (!ctl_parse_ppm(argv[i], "drop", &drop) &&
		    !ctl_parse_ppm(argv[i], "corrupt", &corrupt))
			return ctl_err(out, "fault \"%s\": expected drop=<ppm> or"
				       " corrupt=<ppm>, 0..1000000", argv[i]);
	}
	ret = fab_link_set_faults(p, (uint32_t)drop, (uint32_t)corrupt);
	if (ret < 0)
		return ctl_err(out, "fault node \"%s\" port %u: %s", n->name, p->num,
			       strerror(-ret));
	return 0;
}

/*
 * The directory a capture file goes into must exist: say which one is
 * missing, rather than the "Input/output error" of the failed open.
 */
static int
ctl_capture_dir_check(const char *path, char *why, size_t len)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	struct stat st;

	if (slash == NULL)
		return 0;
	if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (stat(dir, &st) < 0) {
		snprintf(why, len, "directory %s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, len, "%s is not a directory", dir);
		return -1;
	}
	return 0;
}

static const char ctl_capture_usage[] =
	"usage: capture start [<node> <port>] <file> | capture stop [<node> <port>]";

static int
ctl_capture(struct fabric *f, int argc, char **argv, FILE *out)
{
	struct fab_port *p = NULL;
	struct fab_node *n;
	char why[PATH_MAX + 64];
	bool start;
	int ret;

	if (argc < 2)
		return ctl_err(out, "%s", ctl_capture_usage);
	if (strcmp(argv[1], "start") == 0)
		start = true;
	else if (strcmp(argv[1], "stop") == 0)
		start = false;
	else
		return ctl_err(out, "capture \"%s\": expected start or stop", argv[1]);
	if ((start && argc != 3 && argc != 5) || (!start && argc != 2 && argc != 4))
		return ctl_err(out, "%s", ctl_capture_usage);
	if (argc >= 4) {
		n = ctl_node(f, argv[2], out);
		if (n == NULL)
			return -EINVAL;
		p = ctl_port(n, argv[3], out);
		if (p == NULL)
			return -EINVAL;
	}
	if (!start) {
		fab_capture_stop(f, p);
		return 0;
	}
	if (fab_file_refused(argv[argc - 1], why, sizeof(why)) < 0 ||
	    ctl_capture_dir_check(argv[argc - 1], why, sizeof(why)) < 0)
		return ctl_err(out, "capture \"%s\": %s", argv[argc - 1], why);
	ret = fab_capture_start(f, p, argv[argc - 1]);
	if (ret < 0)
		return ctl_err(out, "capture \"%s\": %s", argv[argc - 1], strerror(-ret));
	return 0;
}

/*
 * Whether @p line is one of this interpreter's own commands. "link" is
 * ours only as "link up|down ...": ibsim's "Link" cables two ports.
 */
static bool
ctl_is_own(const char *line)
{
	static const char *const own[] = {
		"help", "show", "hca", "fault", "capture", "source", "quit", "exit",
	};
	size_t len, i;

	line += strspn(line, " \t");
	len = strcspn(line, " \t\r\n");
	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (strlen(own[i]) == len && strncmp(line, own[i], len) == 0)
			return true;
	if (len == 4 && strncmp(line, "link", 4) == 0) {
		line += 4;
		line += strspn(line, " \t");
		return strncmp(line, "up", 2) == 0 || strncmp(line, "down", 4) == 0;
	}
	return false;
}

int
ctl_exec(struct fabric *f, const char *line, FILE *out)
{
	char buf[CTL_LINE_MAX];
	char *argv[CTL_MAX_ARGS];
	int argc;

	if (strlen(line) >= sizeof(buf))
		return ctl_err(out, "command longer than %d bytes", CTL_LINE_MAX - 1);
	/* ibsim's commands and spelling first, unless the line is one of ours. */
	if (!ctl_is_own(line)) {
		argc = ctl_ibsim_exec(f, line, out, ctl_source);
		if (argc != -ENOENT)
			return argc;
	}
	strcpy(buf, line);
	argc = ctl_split(buf, argv);
	if (argc < 0)
		return ctl_err(out, "unterminated quote or more than %d words", CTL_MAX_ARGS);
	if (argc == 0)
		return 0;

	if (strcmp(argv[0], "help") == 0) {
		fputs(ctl_help, out);
		return ctl_ibsim_exec(f, "Help", out, ctl_source);
	}
	if (strcmp(argv[0], "show") == 0)
		return ctl_show(f, argc, argv, out);
	if (strcmp(argv[0], "link") == 0)
		return ctl_link(f, argc, argv, out);
	if (strcmp(argv[0], "hca") == 0)
		return ctl_hca(f, argc, argv, out);
	if (strcmp(argv[0], "fault") == 0)
		return ctl_fault(f, argc, argv, out);
	if (strcmp(argv[0], "capture") == 0)
		return ctl_capture(f, argc, argv, out);
	if (strcmp(argv[0], "source") == 0) {
		if (argc != 2)
			return ctl_err(out, "usage: source <file>");
		return ctl_source(f, argv[1], out);
	}
	if (strcmp(argv[0], "quit") == 0 || strcmp(argv[0], "exit") == 0)
		return argc == 1 ? CTL_QUIT : ctl_err(out, "usage: quit");
	return ctl_err(out, "\"%s\": unknown command (try help)", argv[0]);
}

int
ctl_source(struct fabric *f, const char *path, FILE *out)
{
	char line[CTL_LINE_MAX];
	unsigned int lineno = 0;
	char why[96];
	FILE *in;
	int ret = 0, fd;

	/* A file that sources itself must not recurse forever. */
	if (ctl_source_depth >= CTL_SOURCE_DEPTH)
		return ctl_err(out, "source \"%s\": nested deeper than %d files",
			       path, CTL_SOURCE_DEPTH);
	fd = fab_open_regular(path, O_RDONLY, 0, why, sizeof(why));
	in = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (in == NULL) {
		if (fd >= 0)
			close(fd);
		return ctl_err(out, "source \"%s\": %s", path, fd < 0 ? why : strerror(errno));
	}
	ctl_source_depth++;
	while (fgets(line, sizeof(line), in) != NULL) {
		lineno++;
		if (strchr(line, '\n') == NULL && !feof(in)) {
			ret = ctl_err(out, "%s:%u: line longer than %d bytes",
				      path, lineno, CTL_LINE_MAX - 2);
			break;
		}
		ret = ctl_exec(f, line, out);
		if (ret < 0) {
			fprintf(out, "error: %s:%u: command failed\n", path, lineno);
			break;
		}
		if (ret == CTL_QUIT)
			break;
	}
	ctl_source_depth--;
	fclose(in);
	return ret;
}

int
ctl_run_do_cmds(struct fabric *f, FILE *out)
{
	const struct fab_do_cmd *d;
	int ret;

	for (d = f->do_cmds; d != NULL; d = d->next) {
		ret = ctl_exec(f, d->text, out);
		if (ret < 0) {
			fprintf(out, "error: %s:%u: \"do %s\" failed\n",
				d->file, d->line, d->text);
			return ret;
		}
		if (ret == CTL_QUIT)
			return ret;
	}
	return 0;
}
