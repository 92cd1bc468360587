/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The forms only infiniband-diags print: the diags' own warning lines
 * (skipped with a warning), "ibnetdiscover -l" and ibswitches/ibhosts
 * node lists and "ibnetdiscover -p" ports reports, whose nodes it names
 * with the "S-<guid>" ids of its dumps (topo_node.c reads them back;
 * doc/guides/tools/ibfabric_topology.rst).
 */

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fab_node.h"
#include "fabric.h"
#include "topo_ibnd.h"
#include "topo_lex.h"
#include "topo_node.h"
#include "topo_rate.h"
#include "topo_state.h"

/*
 * A line the diags print on stderr, kept in a dump saved with both
 * output streams (ibnetdiscover >file 2>&1): libibnetdisc's
 * "src/query_smp.c:199; umad (...) bad status 110; ..." (IBND_ERROR:
 * "%s:%u; " with __FILE__, __LINE__), libibmad's "ibwarn: [pid] func: ..."
 * (IBWARN) and "[pid] func: ..." (IBVERBOSE), infiniband-diags'
 * "<tool>: iberror: ..." / "ibpanic: ...", and ibnetdiscover -s's
 * progress lines "DR path ... -> new Switch {guid} ..." (libibnetdisc
 * dump_endnode()). ibsim skips every line it
 * does not know; these are skipped with a warning, anything else
 * unknown stays an error.
 */
bool
tp_is_diag_line(const char *s)
{
	const char *p = s;

	if (strncmp(s, "ibwarn: [", 9) == 0 || strncmp(s, "ibpanic: ", 9) == 0)
		return true;
	/* ibnetdiscover -s progress: "DR path slid 0; dlid 0; 0,1 -> new Switch {...} ..." */
	if (strncmp(s, "DR path ", 8) == 0 && strstr(s, " -> ") != NULL)
		return true;
	if (*p == '[') {
		/* "[1234] func: " (a port line is "[N]" then '"', '(' or "[ext") */
		for (p++; isdigit((unsigned char)*p); p++)
			;
		if (p == s + 1 || p[0] != ']' || p[1] != ' ')
			return false;
		for (p += 2; isalnum((unsigned char)*p) || *p == '_'; p++)
			;
		return p[0] == ':' && p[1] == ' ';
	}
	/* "<file>.c:<line>; " */
	for (; *p != '\0' && *p != ' ' && *p != '\t' && *p != ':'; p++)
		;
	if (p - s > 2 && p[-2] == '.' && p[-1] == 'c' && p[0] == ':' &&
	    isdigit((unsigned char)p[1])) {
		for (p++; isdigit((unsigned char)*p); p++)
			;
		return *p == ';';
	}
	/* "<tool>: iberror: " */
	return *p == ':' && strncmp(skip_ws(p + 1), "iberror: ", 9) == 0;
}

/*
 * A node-list line: "ibnetdiscover -l/-S/-H/-R" prints
 *   Switch	 : 0x<guid> ports N devid 0x<d> vendid 0x<v> "desc"
 * and the ibswitches/ibhosts scripts
 *   Switch  : 0x<guid> ports N "desc" base port 0 lid N lmc N
 * (infiniband-diags ibnetdiscover.c list_node(), scripts/ibswitches.in).
 * It names a node and its GUID but no cable: the node is created
 * uncabled, named "S-<guid>" as in a full dump, so that a full dump and
 * a list may sit in one file (a name already defined is left as it is).
 */
int
tp_parse_list_line(struct tp *tp, const char *s, enum fab_node_type type)
{
	struct tp_header h;
	struct fab_node *n;
	uint64_t guid, v, devid = 0, vendid = 0;
	bool has_devid = false, has_vendid = false;

	memset(&h, 0, sizeof(h));
	h.type = type;
	h.esp0 = -1;
	tp->cur = NULL;
	s = skip_ws(s + 1);
	if (strncmp(s, "0x", 2) != 0 || tp_get_uint(&s, 16, UINT64_MAX, &guid) != 0 || guid == 0)
		return tp_error(tp, "node list line: expected \": 0x<GUID>\"");
	s = skip_ws(s);
	if (strncmp(s, "ports ", 6) != 0)
		return tp_error(tp, "node list line: expected \"ports N\" after the GUID");
	s = skip_ws(s + 6);
	if (tp_get_uint(&s, 10, 0xffffffff, &v) != 0 || v == 0 || v > FAB_MAX_PORTS)
		return tp_error(tp, "node list line: ports must be 1..%d", FAB_MAX_PORTS);
	h.nports = (unsigned int)v;
	for (s = skip_ws(s); *s != '"'; s = skip_ws(s)) {
		if (strncmp(s, "devid ", 6) == 0) {
			s = skip_ws(s + 6);
			has_devid = tp_get_uint(&s, 0, 0xffff, &devid) == 0;
		} else if (strncmp(s, "vendid ", 7) == 0) {
			s = skip_ws(s + 7);
			has_vendid = tp_get_uint(&s, 0, 0xffffff, &vendid) == 0;
		} else {
			return tp_error(tp, "node list line: expected the quoted NodeDescription");
		}
		if (!has_devid && !has_vendid)
			return tp_error(tp, "node list line: bad devid/vendid value");
	}
	if (tp_get_quoted(tp, &s, h.desc, FAB_DESC_MAX, "NodeDescription") != 0)
		return -1;
	/* ibswitches' trailer: "base|enhanced port 0 lid N lmc N" */
	for (s = skip_ws(s); *s != '\0'; s = skip_ws(s)) {
		if (word_is(s, "enhanced") || word_is(s, "base")) {
			h.esp0 = s[0] == 'e';
		} else if (word_is(s, "lid") || word_is(s, "lmc")) {
			bool is_lid = s[1] == 'i';

			s = skip_ws(s + 3);
			if (tp_get_uint(&s, 0, is_lid ? 0xbfff : 7, &v) == 0) {
				if (is_lid) {
					h.lid = (uint16_t)v;
					h.lid_set = true;
				} else {
					h.lmc = (uint8_t)v;
					h.lmc_set = true;
				}
			}
			continue;
		}
		while (*s != '\0' && *s != ' ' && *s != '\t')
			s++;
	}
	snprintf(h.name, sizeof(h.name), "%c-%016llx", type_prefix(type),
		 (unsigned long long)guid);
	if (fabric_find_node(tp->f, h.name) != NULL)
		return 0;
	n = fabric_add_node(tp->f, type, h.name, h.nports);
	if (n == NULL)
		return tp_nomem(tp);
	if (tp_new_node_slot(tp, n) != 0)
		return -1;
	if (tp_node_apply(tp, n, &h) != 0 || tp_set_guid(tp, n, guid) != 0)
		return -1;
	if (has_devid)
		n->device_id = (uint16_t)devid;
	if (has_vendid)
		n->vendor_id = (uint32_t)vendid;
	if (tp->f->sm_port == NULL)
		tp->f->sm_port = &n->ports[type == FAB_NODE_SWITCH ? 0 : 1];
	return 0;
}

/* ------------------------------------------------------------------ */
/* "ibnetdiscover -p" ports reports */

static int
report_type(const char *s, uint8_t *type)
{
	if (strncmp(s, "SW", 2) == 0)
		*type = FAB_NODE_SWITCH;
	else if (strncmp(s, "CA", 2) == 0)
		*type = FAB_NODE_CA;
	else if (strncmp(s, "RT", 2) == 0)
		*type = FAB_NODE_ROUTER;
	else
		return -1;
	return s[2] == ' ' || s[2] == '\t' ? 0 : -1;
}

/* "<T> <lid> <port> 0x<guid>": one end of a report line. */
static int
report_end(const char **s, uint8_t *type, uint16_t *lid, uint8_t *port, uint64_t *guid)
{
	const char *p = *s;
	uint64_t v;

	if (report_type(p, type) != 0)
		return -1;
	p = skip_ws(p + 2);
	if (tp_get_uint(&p, 10, 0xffff, &v) != 0)
		return -1;
	*lid = (uint16_t)v;
	p = skip_ws(p);
	if (tp_get_uint(&p, 10, FAB_MAX_PORTS, &v) != 0 || v == 0)
		return -1;
	*port = (uint8_t)v;
	p = skip_ws(p);
	if (strncmp(p, "0x", 2) != 0 || tp_get_uint(&p, 16, UINT64_MAX, guid) != 0 || *guid == 0)
		return -1;
	*s = skip_ws(p);
	return 0;
}

/* 'text' of a report line into tp.names; returns its offset or UINT32_MAX. */
static uint32_t
report_desc(struct tp *tp, const char **s)
{
	const char *p = *s, *e;
	size_t len;
	uint32_t off;

	if (*p != '\'')
		return UINT32_MAX;
	e = strchr(p + 1, '\'');
	if (e == NULL)
		return UINT32_MAX;
	len = (size_t)(e - p - 1);
	if (len > FAB_DESC_MAX)
		len = FAB_DESC_MAX;
	if (tp_grow((void **)&tp->names, &tp->names_cap, tp->names_len + len + 1, 1) != 0 ||
	    tp->names_len + len + 1 > UINT32_MAX)
		return UINT32_MAX;
	off = (uint32_t)tp->names_len;
	memcpy(tp->names + off, p + 1, len);
	tp->names[off + len] = '\0';
	tp->names_len += len + 1;
	*s = skip_ws(e + 1);
	return off;
}

int
tp_parse_report_line(struct tp *tp, const char *s)
{
	struct tp_pline *pl;
	struct tp_rate r;
	const char *e;
	char tok[48];

	tp->cur = NULL;
	if (tp_grow_u32((void **)&tp->plines, &tp->plines_cap, (size_t)tp->nplines + 1,
		     sizeof(tp->plines[0])) != 0)
		return tp_nomem(tp);
	pl = &tp->plines[tp->nplines];
	memset(pl, 0, sizeof(*pl));
	pl->desc = pl->pdesc = UINT32_MAX;
	pl->line = tp->line;
	pl->file = tp->file;
	if (report_end(&s, &pl->type, &pl->lid, &pl->port, &pl->guid) != 0)
		return tp_error(tp, "ports report line: expected \"SW|CA|RT <lid> <port> 0x<GUID>\"");
	/* "<w>x <SPEED>", or "?" parts for a port that is down */
	memset(&r, 0, sizeof(r));
	if (isdigit((unsigned char)*s)) {
		uint64_t w;

		if (tp_get_uint(&s, 10, 12, &w) == 0 && *s == 'x') {
			r.width = tp_width_from_text((unsigned int)w);
			s = skip_ws(s + 1);
			for (e = s; isalnum((unsigned char)*e); e++)
				;
			if (!tp_speed_from_text(s, (size_t)(e - s), &r))
				r.width = 0;
			s = e;
		}
	}
	while (*s != '\0' && *s != '-' && *s != '\'')
		s++;		/* unknown rate words ("?", "undefined") */
	pl->rate.width = r.width;
	pl->rate.speed = r.speed;
	pl->rate.ext = r.ext;
	pl->rate.ext2 = r.ext2;
	pl->rate.mlnx = r.mlnx;
	if (*s == '-') {
		s = skip_ws(s + 1);
		if (report_end(&s, &pl->ptype, &pl->plid, &pl->pport, &pl->pguid) != 0)
			return tp_error(tp, "ports report line: bad peer after '-'");
		if (*s != '(')
			return tp_error(tp, "ports report line: expected \"( 'desc' - 'desc' )\"");
		s = skip_ws(s + 1);
		pl->desc = report_desc(tp, &s);
		if (*s == '-')
			s = skip_ws(s + 1);
		pl->pdesc = report_desc(tp, &s);
	} else {
		pl->desc = report_desc(tp, &s);
	}
	if (!is_end(s) && *s != ')') {
		tp_token_copy(s, tok, sizeof(tok));
		return tp_error(tp, "ports report line: unexpected \"%s\"", tok);
	}
	tp->nplines++;
	return 0;
}

/* A node a ports report names: its id, as ibnetdiscover would ("S-<guid>"). */
struct report_node {
	uint64_t guid;
	uint8_t type;
	uint8_t nports;			/* highest port seen */
	uint16_t lid;
	uint32_t desc;
	uint32_t first;			/* order of first appearance */
};

static int
report_node_cmp(const void *a, const void *b)
{
	const struct report_node *x = a, *y = b;

	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

static struct report_node *
report_node_find(struct report_node *v, size_t n, uint8_t type, uint64_t guid)
{
	struct report_node key = { .guid = guid, .type = type, .first = 0 };
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (v[mid].type < key.type || (v[mid].type == key.type && v[mid].guid < guid))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].type == type && v[lo].guid == guid ? &v[lo] : NULL;
}

static int
report_node_make(struct tp *tp, const struct report_node *rn, uint64_t port_guid,
		 unsigned int port)
{
	struct tp_header h;
	struct fab_node *n;
	unsigned int i;

	memset(&h, 0, sizeof(h));
	h.type = (enum fab_node_type)rn->type;
	h.nports = rn->nports;
	h.esp0 = -1;
	snprintf(h.name, sizeof(h.name), "%c-%016llx", type_prefix(h.type),
		 (unsigned long long)rn->guid);
	n = fabric_find_node(tp->f, h.name);
	if (n != NULL) {
		if (n->nports < rn->nports)
			return tp_error(tp, "ports report: \"%s\" has port %u, more than its NumPorts %u",
					h.name, rn->nports, n->nports);
		return 0;
	}
	if (rn->desc != UINT32_MAX)
		snprintf(h.desc, sizeof(h.desc), "%s", tp->names + rn->desc);
	if (rn->type == FAB_NODE_SWITCH && rn->lid != 0) {
		h.lid = rn->lid;
		h.lid_set = true;
	}
	n = fabric_add_node(tp->f, h.type, h.name, h.nports);
	if (n == NULL)
		return tp_nomem(tp);
	if (tp_new_node_slot(tp, n) != 0)
		return -1;
	if (tp_node_apply(tp, n, &h) != 0)
		return -1;
	/* A CA's port GUIDs are replaced just below: no range to check. */
	fabric_set_node_guid(n, rn->guid);
	/*
	 * A report gives a CA or router port's GUID, not its NodeGUID: the
	 * node is named and numbered by that port GUID, the other ports
	 * (not in the report) get none.
	 */
	if (rn->type != FAB_NODE_SWITCH) {
		for (i = 1; i <= n->nports; i++)
			n->ports[i].guid = n->ports[i].guids[0] = 0;
		n->ports[port].guid = n->ports[port].guids[0] = port_guid;
		n->ports[port].lid = rn->lid;
	}
	if (tp->f->sm_port == NULL)
		tp->f->sm_port = &n->ports[rn->type == FAB_NODE_SWITCH ? 0 : port];
	return 0;
}

/*
 * After the whole file is read: make the nodes every report line names
 * (NumPorts: the highest port seen; a CA or router is one node per port
 * GUID), then declare each cabled line's local end like a port line of
 * a full dump, so tp_resolve_links() checks and cables both ends.
 */
int
tp_report_nodes(struct tp *tp)
{
	struct report_node *v, *rn;
	const struct tp_pline *pl;
	struct tp_rate r;
	struct fab_node *n;
	char name[FAB_NAME_MAX];
	size_t nv = 0, i, j;
	uint32_t k;
	int rc = 0;

	v = calloc((size_t)tp->nplines * 2, sizeof(*v));
	if (v == NULL)
		return tp_nomem(tp);
	for (k = 0; k < tp->nplines; k++) {
		pl = &tp->plines[k];
		v[nv++] = (struct report_node){ pl->guid, pl->type, pl->port, pl->lid, pl->desc,
						 2 * k };
		if (pl->ptype != 0)
			v[nv++] = (struct report_node){ pl->pguid, pl->ptype, pl->pport, pl->plid,
							 pl->pdesc, 2 * k + 1 };
	}
	qsort(v, nv, sizeof(*v), report_node_cmp);
	for (i = 0, j = 0; i < nv; i++) {
		if (j != 0 && v[j - 1].type == v[i].type && v[j - 1].guid == v[i].guid) {
			if (v[i].nports > v[j - 1].nports)
				v[j - 1].nports = v[i].nports;
			continue;	/* the first appearance names it */
		}
		v[j++] = v[i];
	}
	nv = j;
	for (k = 0; k < tp->nplines && rc == 0; k++) {
		pl = &tp->plines[k];
		tp->line = pl->line;
		tp->file = pl->file;
		rn = report_node_find(v, nv, pl->type, pl->guid);
		rc = report_node_make(tp, rn, pl->guid, pl->port);
		if (rc == 0 && pl->ptype != 0) {
			rn = report_node_find(v, nv, pl->ptype, pl->pguid);
			rc = report_node_make(tp, rn, pl->pguid, pl->pport);
		}
		if (rc != 0)
			break;
		snprintf(name, sizeof(name), "%c-%016llx", type_prefix(pl->type),
			 (unsigned long long)pl->guid);
		n = fabric_find_node(tp->f, name);
		r = (struct tp_rate){ pl->rate.width, pl->rate.speed, pl->rate.ext,
				      pl->rate.ext2, pl->rate.mlnx };
		tp_port_set_rate(&n->ports[pl->port], &r);
		if (pl->ptype == 0)
			continue;
		snprintf(name, sizeof(name), "%c-%016llx", type_prefix(pl->ptype),
			 (unsigned long long)pl->pguid);
		rc = tp_add_decl(tp, n, pl->port, name, pl->pport);
	}
	free(v);
	return rc;
}
