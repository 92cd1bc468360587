/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * ibsim's console commands, in ibsim's spelling, for the same sources
 * as ctl.c (console, control socket, scripts, net-file "do" lines), so
 * that an ibsim script runs unchanged (doc/guides/tools/ibfabric.rst,
 * "ibsim console commands").
 *
 * The command set and its syntax follow ibsim 0.12's sim_cmd.c
 * (do_cmd(): a command is its first word, matched whole and without
 * regard to case; nodes are "nodeid" in double quotes, a port follows
 * as [N]). ibsim answers errors with a "# ..." line and goes on; here a
 * bad command prints ctl.c's single "error: ..." line and changes
 * nothing, as every other command does. Where ibsim blocks its only
 * thread ("Wait") the fabric keeps running and only commands pause.
 */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ctl_ibsim.h"
#include "ctl_reply.h"
#include "fab_log.h"
#include "fab_node.h"
#include "fabric.h"
#include "fw_agents.h"
#include "port_state.h"
#include "umad2sim.h"

#define IBS_MAX_HOPS	64	/* "Route": longer is a loop (ibsim: MAXHOPS) */
#define IBS_WAIT_MAX	3600	/* seconds one "Wait" may last */

static const char *
ibs_ws(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	return s;
}

static bool
ibs_at_end(const char *s)
{
	s = ibs_ws(s);
	return *s == '\0' || *s == '#';
}

/* Strict unsigned number (decimal or 0x hex) up to a blank or the end. */
static bool
ibs_number(const char **s, uint64_t max, uint64_t *v)
{
	const char *p = ibs_ws(*s);
	char *end;

	if (!isdigit((unsigned char)*p))
		return false;
	errno = 0;
	*v = strtoull(p, &end, 0);
	if (errno != 0 || *v > max || (*end != '\0' && !isspace((unsigned char)*end)))
		return false;
	*s = end;
	return true;
}

/*
 * "nodeid"[port]: the node (by name, else NodeDescription, as ctl.c) and
 * the port, or -1 when no [port] follows. Returns the node or NULL after
 * printing the error.
 */
static struct fab_node *
ibs_nodeport(struct fabric *f, const char **s, int *port, FILE *out)
{
	const char *p = ibs_ws(*s), *q;
	char name[FAB_NAME_MAX + FAB_DESC_MAX];
	struct fab_node *n;
	uint64_t v;
	size_t len;

	if (*p != '"') {
		ctl_err(out, "expected a quoted \"nodeid\"");
		return NULL;
	}
	q = strchr(p + 1, '"');
	if (q == NULL) {
		ctl_err(out, "nodeid: missing closing '\"'");
		return NULL;
	}
	len = (size_t)(q - p - 1);
	if (len == 0 || len >= sizeof(name)) {
		ctl_err(out, "nodeid: empty or too long");
		return NULL;
	}
	memcpy(name, p + 1, len);
	name[len] = '\0';
	n = fabric_find_node(f, name);
	if (n == NULL)
		n = fabric_find_node_by_desc(f, name);
	if (n == NULL) {
		ctl_err(out, "nodeid \"%s\": no such node", name);
		return NULL;
	}
	p = q + 1;
	*port = -1;
	if (*p == '[') {
		p++;
		v = isdigit((unsigned char)*p) ? strtoull(p, (char **)&q, 0) : UINT64_MAX;
		if (v > FAB_MAX_PORTS || *q != ']') {
			ctl_err(out, "nodeid \"%s\": bad port, expected [N]", name);
			return NULL;
		}
		*port = (int)v;
		p = q + 1;
	}
	*s = p;
	return n;
}

/* Port @p port of @p n, with ibsim's ranges: 1..NumPorts, 0 too on a switch if @p sw0. */
static struct fab_port *
ibs_port(struct fab_node *n, int port, bool sw0, FILE *out)
{
	int first = sw0 && n->type == FAB_NODE_SWITCH ? 0 : 1;

	if (port < first || port > n->nports) {
		ctl_err(out, "node \"%s\": port %d out of range %d..%u", n->name, port, first,
			n->nports);
		return NULL;
	}
	return &n->ports[port];
}

/* "nodeid"[port] where the port is required (@p cmd names the command). */
static struct fab_port *
ibs_required_port(struct fabric *f, const char **s, const char *cmd, FILE *out)
{
	struct fab_node *n;
	int port;

	n = ibs_nodeport(f, s, &port, out);
	if (n == NULL)
		return NULL;
	if (port < 0) {
		ctl_err(out, "%s: port number not found in command", cmd);
		return NULL;
	}
	return ibs_port(n, port, true, out);
}

/* ------------------------------------------------------------------ */
/* Cables: Link, Unlink, ReLink, Clear */

static void
ibs_uncable(struct fabric *f, struct fab_port *p)
{
	struct fab_port *q = p->peer;

	if (q == NULL)
		return;
	/* ibsim keeps both ends' old peers for ReLink (sim_cmd.c unlink_port()). */
	p->prev_peer = q;
	q->prev_peer = p;
	p->peer = NULL;
	q->peer = NULL;
	port_state_link_update(f, p);
	port_state_link_update(f, q);
}

static int
ibs_link(struct fabric *f, const char *s, FILE *out)
{
	struct fab_node *a, *b;
	struct fab_port *pa, *pb;
	int na, nb, rc;

	a = ibs_nodeport(f, &s, &na, out);
	if (a == NULL)
		return -EINVAL;
	b = ibs_nodeport(f, &s, &nb, out);
	if (b == NULL)
		return -EINVAL;
	if (na < 0 || nb < 0 || !ibs_at_end(s))
		return ctl_err(out, "usage: Link \"nodeid\"[port] \"remoteid\"[port]");
	pa = ibs_port(a, na, false, out);
	pb = pa != NULL ? ibs_port(b, nb, false, out) : NULL;
	if (pb == NULL)
		return -EINVAL;
	if (pa->peer != NULL || pb->peer != NULL)
		return ctl_err(out, "can't link: \"%s\"[%d] or \"%s\"[%d] is already connected",
			       a->name, na, b->name, nb);
	rc = fabric_connect(f, pa, pb);
	if (rc != 0)
		return ctl_err(out, "can't link \"%s\"[%d] to \"%s\"[%d]: %s", a->name, na,
			       b->name, nb, strerror(-rc));
	pa->prev_peer = pb->prev_peer = NULL;
	return 0;
}

/* Unlink (clear false) or Clear (true): one port, or every port of the node. */
static int
ibs_unlink(struct fabric *f, const char *s, bool clear, FILE *out)
{
	struct fab_node *n;
	struct fab_port *p;
	unsigned int i, done = 0;
	int port;

	n = ibs_nodeport(f, &s, &port, out);
	if (n == NULL)
		return -EINVAL;
	if (!ibs_at_end(s))
		return ctl_err(out, "usage: %s \"nodeid\"[port]", clear ? "Clear" : "Unlink");
	if (port >= 0) {
		p = ibs_port(n, port, false, out);
		if (p == NULL)
			return -EINVAL;
		if (!clear && p->peer == NULL)
			return ctl_err(out, "port %d at nodeid \"%s\" is not linked", port,
				       n->name);
	}
	for (i = 1; i <= n->nports; i++) {
		p = &n->ports[i];
		if (port >= 0 && (int)i != port)
			continue;
		if (p->peer != NULL)
			done++;
		ibs_uncable(f, p);
		if (clear) {
			/* "unlink & reset port": PortInfo back to its power-on values */
			sma_init_port(p);
			port_state_link_update(f, p);
		}
	}
	fprintf(out, "unlinked node=\"%s\" ports=%u\n", n->name, done);
	return 0;
}

static int
ibs_relink(struct fabric *f, const char *s, FILE *out)
{
	struct fab_node *n;
	struct fab_port *p, *q;
	unsigned int i, done = 0;
	int port;

	n = ibs_nodeport(f, &s, &port, out);
	if (n == NULL)
		return -EINVAL;
	if (!ibs_at_end(s))
		return ctl_err(out, "usage: ReLink \"nodeid\"[port]");
	if (port >= 0) {
		p = ibs_port(n, port, false, out);
		if (p == NULL)
			return -EINVAL;
		if (p->prev_peer == NULL)
			return ctl_err(out, "\"%s\"[%d]: no previous link stored", n->name, port);
		if (p->peer != NULL || p->prev_peer->peer != NULL)
			return ctl_err(out, "can't link: \"%s\"[%d] or its old peer is connected",
				       n->name, port);
	}
	for (i = 1; i <= n->nports; i++) {
		p = &n->ports[i];
		q = p->prev_peer;
		if ((port >= 0 && (int)i != port) || q == NULL || p->peer != NULL ||
		    q->peer != NULL)
			continue;
		if (fabric_connect(f, p, q) == 0) {
			p->prev_peer = q->prev_peer = NULL;
			done++;
		}
	}
	fprintf(out, "relinked node=\"%s\" ports=%u\n", n->name, done);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Identity: Guid, Baselid */

static int
ibs_guid(struct fabric *f, const char *s, FILE *out)
{
	struct fab_node *n;
	struct fab_port *p = NULL;
	unsigned int i, j;
	uint64_t g;
	int port;

	n = ibs_nodeport(f, &s, &port, out);
	if (n == NULL)
		return -EINVAL;
	if (!ibs_number(&s, UINT64_MAX, &g) || !ibs_at_end(s) || g == 0)
		return ctl_err(out, "usage: Guid \"nodeid\"[port] <non-zero GUID>");
	/* ibsim: a port number sets a CA port's GUID; a switch's ports share the node's. */
	if (port >= 0 && n->type != FAB_NODE_SWITCH) {
		p = ibs_port(n, port, false, out);
		if (p == NULL)
			return -EINVAL;
	}
	/* GUIDs are unique in a subnet (IBA 4.1.1): refuse a clash, name the holder. */
	for (i = 0; i < f->nnodes; i++) {
		const struct fab_node *o = f->nodes[i];

		if (o->node_guid == g && (o != n || p != NULL))
			return ctl_err(out, "GUID 0x%016" PRIx64 " is the NodeGUID of \"%s\"", g,
				       o->name);
		for (j = o->type == FAB_NODE_SWITCH ? 0 : 1; j <= o->nports; j++)
			if (o->ports[j].guid == g && &o->ports[j] != p && o != n)
				return ctl_err(out, "GUID 0x%016" PRIx64
					       " is a port GUID of \"%s\"", g, o->name);
	}
	if (p != NULL) {
		p->guid = g;
		p->guids[0] = g;
	} else {
		n->node_guid = g;
		if (n->type == FAB_NODE_SWITCH)
			for (j = 0; j <= n->nports; j++)
				n->ports[j].guid = n->ports[j].guids[0] = g;
	}
	fprintf(out, "guid node=\"%s\" port=%d guid=0x%016" PRIx64 "\n", n->name, port, g);
	return 0;
}

static int
ibs_baselid(struct fabric *f, const char *s, FILE *out)
{
	struct fab_node *n;
	struct fab_port *p;
	uint64_t lid, lmc = 0;
	bool has_lmc;

	p = ibs_required_port(f, &s, "Baselid", out);
	if (p == NULL)
		return -EINVAL;
	n = p->node;
	if (n->type == FAB_NODE_SWITCH)
		p = &n->ports[0];	/* a switch has one LID, port 0's */
	/* A unicast LID (IBA 4.1.3), an LMC of 0..7. */
	if (!ibs_number(&s, 0xbfff, &lid) || lid == 0)
		return ctl_err(out, "Baselid: bad lid (1..0xbfff)");
	has_lmc = ibs_number(&s, 7, &lmc);
	if (!ibs_at_end(s))
		return ctl_err(out, "usage: Baselid \"nodeid\"[port] <lid> [lmc 0..7]");
	p->lid = (uint16_t)lid;
	/* ibsim changes the LMC only when one above 0 is given. */
	if (has_lmc && lmc > 0)
		p->lmc = (uint8_t)lmc;
	if (n->sw != NULL)
		n->sw->port_state_change = true;
	else if (p->peer != NULL && p->peer->node->sw != NULL)
		p->peer->node->sw->port_state_change = true;
	fprintf(out, "baselid node=\"%s\" port=%u lid=%u lmc=%u\n", n->name, p->num, p->lid,
		p->lmc);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Faults and counters: Error, PerformanceSet */

static int
ibs_error(struct fabric *f, const char *s, FILE *out)
{
	struct fab_node *n;
	struct fab_port *p;
	uint64_t rate, attr = 0;
	unsigned int i, set = 0;
	int port;

	n = ibs_nodeport(f, &s, &port, out);
	if (n == NULL)
		return -EINVAL;
	if (!ibs_number(&s, 100, &rate))
		return ctl_err(out, "Error: the rate is a percentage, 0..100");
	if (!ibs_at_end(s) && !ibs_number(&s, 0xffff, &attr))
		return ctl_err(out, "Error: the attribute is an AttributeID, 0..0xffff");
	if (!ibs_at_end(s))
		return ctl_err(out, "usage: Error \"nodeid\"[port] <rate> [attribute]");
	if (port >= 0 && ibs_port(n, port, true, out) == NULL)
		return -EINVAL;
	for (i = n->type == FAB_NODE_SWITCH ? 0 : 1; i <= n->nports; i++) {
		if (port >= 0 && (int)i != port)
			continue;
		p = &n->ports[i];
		p->err_pct = (uint8_t)rate;
		p->err_attr = (uint16_t)attr;
		set++;
	}
	fprintf(out, "error node=\"%s\" ports=%u rate=%u attr=0x%04x\n", n->name, set,
		(unsigned int)rate, (unsigned int)attr);
	return 0;
}

/* PMA counters ibsim's PerformanceSet names, with their widths (IBA 16.1.3.5, 16.1.4.11). */
struct ibs_counter {
	const char *attr;
	const char *field;
	size_t off;
	uint8_t size;			/* of the fab_port_counters field: 4 or 8 */
	uint8_t bits;			/* of the wire field */
};

#define IBS_C32(a, f, m, b) { a, f, offsetof(struct fab_port_counters, m), 4, b }
#define IBS_C64(a, f, m, b) { a, f, offsetof(struct fab_port_counters, m), 8, b }

static const struct ibs_counter ibs_counters[] = {
	IBS_C32("PortCounters", "SymbolErrorCounter", symbol_errors, 16),
	IBS_C32("PortCounters", "LinkErrorRecoveryCounter", link_error_recovery, 8),
	IBS_C32("PortCounters", "LinkDownedCounter", link_downed, 8),
	IBS_C32("PortCounters", "PortRcvErrors", rcv_errors, 16),
	IBS_C32("PortCounters", "PortRcvRemotePhysicalErrors", rcv_remote_phys_errors, 16),
	IBS_C32("PortCounters", "PortRcvSwitchRelayErrors", rcv_switch_relay_errors, 16),
	IBS_C32("PortCounters", "PortXmitDiscards", xmit_discards, 16),
	IBS_C32("PortCounters", "PortXmitConstraintErrors", xmit_constraint_errors, 8),
	IBS_C32("PortCounters", "PortRcvConstraintErrors", rcv_constraint_errors, 8),
	IBS_C32("PortCounters", "LocalLinkIntegrityErrors", local_link_integrity_errors, 4),
	IBS_C32("PortCounters", "ExcessiveBufferOverrunErrors",
		excessive_buffer_overrun_errors, 4),
	IBS_C32("PortCounters", "VL15Dropped", vl15_dropped, 16),
	IBS_C64("PortCounters", "PortXmitData", xmit_data, 32),
	IBS_C64("PortCounters", "PortRcvData", rcv_data, 32),
	IBS_C64("PortCounters", "PortXmitPkts", xmit_pkts, 32),
	IBS_C64("PortCounters", "PortRcvPkts", rcv_pkts, 32),
	IBS_C32("PortCounters", "PortXmitWait", xmit_wait, 32),
	IBS_C64("PortCountersExtended", "PortXmitData", xmit_data, 64),
	IBS_C64("PortCountersExtended", "PortRcvData", rcv_data, 64),
	IBS_C64("PortCountersExtended", "PortXmitPkts", xmit_pkts, 64),
	IBS_C64("PortCountersExtended", "PortRcvPkts", rcv_pkts, 64),
	IBS_C64("PortCountersExtended", "PortUnicastXmitPkts", unicast_xmit_pkts, 64),
	IBS_C64("PortCountersExtended", "PortUnicastRcvPkts", unicast_rcv_pkts, 64),
	IBS_C64("PortCountersExtended", "PortMultiCastXmitPkts", multicast_xmit_pkts, 64),
	IBS_C64("PortCountersExtended", "PortMultiCastRcvPkts", multicast_rcv_pkts, 64),
};

/* Attributes ibsim has that this PMA does not serve. */
static const char *const ibs_unmodelled[] = {
	"PortRcvErrorDetails", "PortXmitDiscardDetails", "PortOpRcvCounters",
	"PortFlowCtlCounters", "PortVLOpPackets", "PortVLOpData",
	"PortVLXmitFlowCtlUpdateErrors", "PortVLXmitWaitCounters",
};

static int
ibs_perfset(struct fabric *f, const char *s, FILE *out)
{
	char attr[48], field[48];
	const struct ibs_counter *c = NULL;
	struct fab_node *n;
	struct fab_port *p;
	const char *dot, *eq;
	uint64_t v, max;
	size_t i, len;
	int port;

	p = ibs_required_port(f, &s, "PerformanceSet", out);
	if (p == NULL)
		return -EINVAL;
	n = p->node;
	port = p->num;
	/* ibsim: base switch port 0 has no counters (SwitchInfo EnhancedPort0) */
	if (n->sw != NULL && port == 0 && !n->sw->enhanced_port0)
		return ctl_err(out, "can't set performance counters of base switch port 0");
	s = ibs_ws(s);
	dot = strchr(s, '.');
	eq = dot != NULL ? strchr(dot, '=') : NULL;
	if (dot == NULL || eq == NULL || (size_t)(dot - s) >= sizeof(attr) ||
	    (size_t)(eq - dot - 1) >= sizeof(field))
		return ctl_err(out, "usage: PerformanceSet \"nodeid\"[port]"
			       " [attribute].[field]=[value]");
	memcpy(attr, s, (size_t)(dot - s));
	attr[dot - s] = '\0';
	len = (size_t)(eq - dot - 1);
	memcpy(field, dot + 1, len);
	while (len > 0 && isspace((unsigned char)field[len - 1]))
		len--;
	field[len] = '\0';
	s = eq + 1;
	if (!ibs_number(&s, UINT64_MAX, &v) || !ibs_at_end(s))
		return ctl_err(out, "PerformanceSet: value '%s' is not a valid integer", eq + 1);
	for (i = 0; i < sizeof(ibs_unmodelled) / sizeof(ibs_unmodelled[0]); i++)
		if (strcasecmp(attr, ibs_unmodelled[i]) == 0)
			return ctl_err(out, "attribute %s: not served by ibfabric's PMA", attr);
	for (i = 0; i < sizeof(ibs_counters) / sizeof(ibs_counters[0]); i++) {
		if (strcasecmp(attr, ibs_counters[i].attr) != 0)
			continue;
		if (strcasecmp(field, ibs_counters[i].field) == 0)
			c = &ibs_counters[i];
		if (c == NULL)
			continue;
		break;
	}
	if (c == NULL) {
		for (i = 0; i < sizeof(ibs_counters) / sizeof(ibs_counters[0]); i++)
			if (strcasecmp(attr, ibs_counters[i].attr) == 0)
				return ctl_err(out, "field %s cannot be found in attribute %s",
					       field, attr);
		return ctl_err(out, "attribute %s not found", attr);
	}
	/* ibsim clamps to the field's width (check_limit()): a counter stops at all ones. */
	max = c->bits == 64 ? UINT64_MAX : (1ull << c->bits) - 1;
	if (v > max)
		v = max;
	if (c->size == 8)
		memcpy((uint8_t *)&p->cnt + c->off, &v, 8);
	else {
		uint32_t v32 = (uint32_t)v;

		memcpy((uint8_t *)&p->cnt + c->off, &v32, 4);
	}
	/* ibsim's confirmation line, word for word */
	fprintf(out, "%s[%d] %s.%s has been set to %" PRIu64 "\n", n->name, port, attr, field, v);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Views: Dump, Route, Attached */

static const char *
ibs_type(enum fab_node_type t)
{
	return t == FAB_NODE_SWITCH ? "Switch" : t == FAB_NODE_ROUTER ? "Rt" : "Ca";
}

static const char *
ibs_state(uint8_t s)
{
	static const char *const n[] = { "-", "Down", "Init", "Armed", "Active" };

	return s < 5 ? n[s] : "?";
}

static const char *
ibs_phys(uint8_t s)
{
	static const char *const n[] = {
		"-", "Sleep", "Polling", "Disabled", "Training", "LinkUp", "ErrorRecovery",
	};

	return s < 7 ? n[s] : "?";
}

/* The rate as ibnetdiscover prints it: "4xQDR", "4xEDR". */
static void
ibs_rate(const struct fab_port *p, char *buf, size_t len)
{
	static const char *const ext[] = { "FDR", "EDR", "HDR", "NDR" };
	const char *w = "?", *sp = "?";
	unsigned int i;

	switch (p->link_width_active) {
	case 1: w = "1"; break;
	case 2: w = "4"; break;
	case 4: w = "8"; break;
	case 8: w = "12"; break;
	case 16: w = "2"; break;
	default: break;
	}
	if (p->link_speed_ext2_active != 0) {
		sp = "XDR";
	} else if (p->link_speed_ext_active != 0) {
		for (i = 0; i < 4; i++)
			if (p->link_speed_ext_active == 1u << i)
				sp = ext[i];
	} else if (p->mlnx_speed_active != 0) {
		sp = "FDR10";
	} else {
		sp = p->link_speed_active == 1 ? "SDR" : p->link_speed_active == 2 ? "DDR" :
		     p->link_speed_active == 4 ? "QDR" : "?";
	}
	snprintf(buf, len, "%sx%s", w, sp);
}

static void
ibs_dump_node(const struct fab_node *n, FILE *out)
{
	const struct fab_port *p;
	unsigned int i;
	char rate[16];

	fprintf(out, "\n%s %u \"%s\"\tnodeguid %" PRIx64 "\tsysimgguid %" PRIx64 "\n",
		ibs_type(n->type), n->nports, n->name, n->node_guid, n->sys_guid);
	if (n->sw != NULL)
		fprintf(out, "#\tlinearcap %u FDBtop %u portchange %d\n", FAB_LFT_CAP,
			n->sw->lft_top, n->sw->port_state_change);
	for (i = n->type == FAB_NODE_SWITCH ? 0 : 1; i <= n->nports; i++) {
		p = &n->ports[i];
		fprintf(out, "%" PRIx64 "\t[%u]", p->guid, p->num);
		if (p->peer != NULL)
			fprintf(out, "\t\"%s\"[%u]", p->peer->node->name, p->peer->num);
		else
			fputs(i == 0 ? "\t\"Sma Port\"[0]" : "\t\t", out);
		ibs_rate(p, rate, sizeof(rate));
		if (n->type != FAB_NODE_SWITCH || i == 0)
			fprintf(out, "\t lid %u lmc %u smlid %u", p->lid, p->lmc, p->sm_lid);
		fprintf(out, "\t %s %s/%s", rate, ibs_state(p->state), ibs_phys(p->phys_state));
		if (p->err_pct != 0)
			fprintf(out, "\t# err_rate %u", p->err_pct);
		if (p->err_attr != 0)
			fprintf(out, "\t# err_attr %u", p->err_attr);
		fputc('\n', out);
	}
}

static int
ibs_dump(struct fabric *f, const char *s, FILE *out)
{
	struct fab_node *only = NULL;
	unsigned int i, n = 0;
	time_t t = time(NULL);
	int port;

	if (!ibs_at_end(s)) {
		only = ibs_nodeport(f, &s, &port, out);
		if (only == NULL)
			return -EINVAL;
	}
	fprintf(out, "# Net status - %s", ctime(&t));
	for (i = 0; i < f->nnodes; i++) {
		if (only != NULL && f->nodes[i] != only)
			continue;
		ibs_dump_node(f->nodes[i], out);
		n++;
	}
	fprintf(out, "#  dumped %u nodes\n", n);
	return 0;
}

/* The path a LID-routed packet takes, by the LFTs the SM programmed. */
static int
ibs_route(struct fabric *f, const char *s, FILE *out)
{
	struct fab_port *from, *to, *p;
	struct fab_node *n;
	uint64_t a, b;
	unsigned int hops, out_port;

	if (!ibs_number(&s, 0xbfff, &a) || !ibs_number(&s, 0xbfff, &b) || !ibs_at_end(s) ||
	    a == 0 || b == 0)
		return ctl_err(out, "usage: Route <from-lid> <to-lid>");
	from = fabric_find_port_by_lid(f, (uint16_t)a);
	to = fabric_find_port_by_lid(f, (uint16_t)b);
	if (from == NULL || to == NULL)
		return ctl_err(out, "Route: lid %u or %u is not configured",
			       (unsigned int)a, (unsigned int)b);
	p = from;
	n = p->node;
	fprintf(out, "From node \"%s\" port %u lid %u\n", n->name, p->num, (unsigned int)a);
	for (hops = 0; hops < IBS_MAX_HOPS; hops++) {
		if (p->state != FAB_PORT_ACTIVE)
			return ctl_err(out, "bad port state: node \"%s\" port %u state %u",
				       n->name, p->num, p->state);
		if (p == to)
			break;
		out_port = p->num;
		if (n->sw != NULL) {
			out_port = b <= n->sw->lft_top ? n->sw->lft[b] : FAB_NO_PORT;
			if (out_port > n->nports)
				return ctl_err(out, "bad forwarding table entry: node \"%s\""
					       " lid %u is %u (top %u)", n->name, (unsigned int)b,
					       out_port, n->sw->lft_top);
			p = &n->ports[out_port];
			if (out_port == 0) {
				if (p != to)
					return ctl_err(out, "node \"%s\" lid %u: routed to port 0",
						       n->name, (unsigned int)b);
				break;
			}
			if (p->state != FAB_PORT_ACTIVE)
				return ctl_err(out, "bad out port state: node \"%s\" port %u"
					       " state %u", n->name, out_port, p->state);
		}
		if (p->peer == NULL)
			return ctl_err(out, "node \"%s\" port %u: no cable", n->name, p->num);
		p = p->peer;
		n = p->node;
		fprintf(out, "[%u] -> \"%s\"[%u]\n", out_port, n->name, p->num);
	}
	if (hops == IBS_MAX_HOPS)
		return ctl_err(out, "no route found after %d hops", IBS_MAX_HOPS);
	fprintf(out, "To node \"%s\" port %u lid %u\n", n->name, p->num, (unsigned int)b);
	return 0;
}

static int
ibs_attached(struct fabric *f, FILE *out)
{
	umad2sim_show_clients(f, out);
	return 0;
}

static int
ibs_kick(struct fabric *f, const char *s, FILE *out)
{
	uint64_t slot;

	if (!ibs_number(&s, 0xffff, &slot) || !ibs_at_end(s))
		return ctl_err(out, "usage: X <client num> (the slot of \"Attached\")");
	if (umad2sim_kick(f, (unsigned int)slot) != 0)
		return ctl_err(out, "disconnect client: bad clientid %u", (unsigned int)slot);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Run control: Verbose, Wait, Start */

static int
ibs_verbose(const char *s, FILE *out)
{
	uint64_t v;

	/* ibsim's scale: 0 its default, 1 verbose, 2 and up debug; ours is one higher. */
	if (!ibs_at_end(s)) {
		if (!ibs_number(&s, 255, &v) || !ibs_at_end(s))
			return ctl_err(out, "usage: Verbose [level]");
		fab_log_level = v >= 1 ? 2 : 1;
	}
	fprintf(out, "simulator verbose level is %d\n", fab_log_level - 1);
	return 0;
}

static int
ibs_wait(struct fabric *f, const char *s, FILE *out)
{
	uint64_t sec;

	if (!ibs_number(&s, IBS_WAIT_MAX, &sec) || sec == 0 || !ibs_at_end(s))
		return ctl_err(out, "usage: Wait <seconds, 1..%d>", IBS_WAIT_MAX);
	if (f->run_for == NULL)
		return ctl_err(out, "Wait: no event loop to wait in");
	return f->run_for(f, (unsigned int)sec * 1000u) != 0 ? CTL_QUIT : 0;
}

static const char ibs_help[] =
	"ibsim commands (ibsim's spelling, any case):\n"
	"!<file>                                    run the commands in a file\n"
	"Start                                      (the network always runs)\n"
	"Dump [\"nodeid\"]                            node and port state, ibsim's layout\n"
	"Route <from-lid> <to-lid>                  the LFT path between two LIDs\n"
	"Link \"nodeid\"[port] \"remoteid\"[port]       cable two free ports\n"
	"Unlink \"nodeid\"[port]                      remove a cable, or every cable of the node\n"
	"ReLink \"nodeid\"[port]                      put back what Unlink/Clear removed\n"
	"Clear \"nodeid\"[port]                       unlink and reset the port(s)\n"
	"Guid \"nodeid\"[port] <guid>                 set a NodeGUID, or a CA port's GUID\n"
	"Error \"nodeid\"[port] <rate%> [attribute]   lose packets (or MADs of one AttributeID)\n"
	"PerformanceSet \"nodeid\"[port] Attr.Field=value  set a PMA counter\n"
	"Baselid \"nodeid\"[port] <lid> [lmc]         change a port's LID (and LMC)\n"
	"Verbose [level]                            show/set the log level\n"
	"Wait <sec>                                 pause the commands, not the fabric\n"
	"Attached                                   list attached clients\n"
	"X <client num>                             disconnect a client\n"
	"Quit                                       stop ibfabric\n";

/* ibsim do_cmd()'s match_command(): the whole first word, any case. */
static bool
ibs_is(const char *line, size_t len, const char *cmd)
{
	return strlen(cmd) == len && strncasecmp(line, cmd, len) == 0;
}

int
ctl_ibsim_exec(struct fabric *f, const char *line, FILE *out, ctl_ibsim_source_t source)
{
	const char *s = ibs_ws(line), *a;
	char path[1024];
	size_t len = 0, plen;

	if (*s == '!') {
		s = ibs_ws(s + 1);
		plen = strlen(s);
		while (plen > 0 && isspace((unsigned char)s[plen - 1]))
			plen--;
		if (plen == 0 || plen >= sizeof(path))
			return ctl_err(out, "!<file>: no file name");
		memcpy(path, s, plen);
		path[plen] = '\0';
		return source(f, path, out);
	}
	while (s[len] != '\0' && !isspace((unsigned char)s[len]))
		len++;
	a = s + len;
	if (ibs_is(s, len, "Dump"))
		return ibs_dump(f, a, out);
	if (ibs_is(s, len, "Route"))
		return ibs_route(f, a, out);
	if (ibs_is(s, len, "Link"))
		return ibs_link(f, a, out);
	if (ibs_is(s, len, "ReLink"))
		return ibs_relink(f, a, out);
	if (ibs_is(s, len, "Unlink"))
		return ibs_unlink(f, a, false, out);
	if (ibs_is(s, len, "Clear"))
		return ibs_unlink(f, a, true, out);
	if (ibs_is(s, len, "Guid"))
		return ibs_guid(f, a, out);
	if (ibs_is(s, len, "Error"))
		return ibs_error(f, a, out);
	if (ibs_is(s, len, "PerformanceSet"))
		return ibs_perfset(f, a, out);
	if (ibs_is(s, len, "Baselid"))
		return ibs_baselid(f, a, out);
	if (ibs_is(s, len, "Verbose"))
		return ibs_verbose(a, out);
	if (ibs_is(s, len, "Wait"))
		return ibs_wait(f, a, out);
	if (ibs_is(s, len, "Attached"))
		return ibs_at_end(a) ? ibs_attached(f, out) : ctl_err(out, "usage: Attached");
	if (ibs_is(s, len, "X"))
		return ibs_kick(f, a, out);
	if (ibs_is(s, len, "Start"))
		return ibs_at_end(a) ? 0 : ctl_err(out, "usage: Start");
	if (ibs_is(s, len, "Quit")) {
		if (!ibs_at_end(a))
			return ctl_err(out, "usage: Quit");
		fputs("Exiting network simulator.\n", out);
		return CTL_QUIT;
	}
	if (ibs_is(s, len, "Help") || ibs_is(s, len, "?")) {
		fputs(ibs_help, out);
		return 0;
	}
	return -ENOENT;
}
