/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Net-file parser: ibsim's topology format, which is the output format of
 * infiniband-diags' ibnetdiscover (doc/guides/tools/ibfabric_topology.rst
 * lists every construct). The constructs and their meaning follow ibsim
 * 0.10's sim_net.c; where ibsim silently ignores or truncates bad input,
 * this parser stops with "file:line: what" instead.
 *
 * Two passes, both O(n) in the size of the file: the first reads every
 * line, creates the nodes and records each port line as a declaration
 * (local port -> peer name and port); the second resolves peers through
 * the fabric's name index, checks that both ends agree, and cables them.
 * Links may be declared at one end only (a port line names its peer) or
 * at both; declarations at both ends must name each other.
 */

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fab_file.h"
#include "fab_node.h"
#include "fabric.h"
#include "topo.h"
#include "topo_ibnd.h"
#include "topo_lex.h"
#include "topo_node.h"
#include "topo_rate.h"
#include "topo_resolve.h"
#include "topo_state.h"

/* ------------------------------------------------------------------ */
/* Statements */

static int
set_active(struct tp *tp, enum fab_node_type type, const char *val, bool *active)
{
	char tok[48];

	tp_token_copy(val, tok, sizeof(tok));
	if (type != FAB_NODE_CA)
		return tp_error(tp, "active=%s: only a Ca/Hca node can be an active HCA", tok);
	/* The only device model ibfabric has (issue 4): MT25208 InfiniHost III Ex. */
	if (strcasecmp(tok, "mt25208") != 0)
		return tp_error(tp, "active=%s: unknown HCA model (expected mt25208)", tok);
	*active = true;
	return 0;
}

/*
 * The number after "lid" or "lmc" in a comment, which ibsim takes as the
 * port's LID or LMC: a word that is no number stays free text (*@set
 * false); a number out of range is an error, not silently dropped (a
 * unicast LID is at most 0xbfff, IBA 4.1.3; LMC is 3 bits, IBA 14.2.5.6).
 */
static int
comment_uint(struct tp *tp, const char **c, bool is_lid, uint64_t *v, bool *set)
{
	uint64_t max = is_lid ? 0xbfff : 7;
	char tok[24];

	*set = false;
	if (!isdigit((unsigned char)**c))
		return 0;
	if (tp_get_uint(c, 0, max, v) == 0) {
		*set = true;
		return 0;
	}
	tp_token_copy(*c, tok, sizeof(tok));
	return tp_error(tp, "comment: %s %s out of range (%s)", is_lid ? "lid" : "lmc",
			tok, is_lid ? "unicast LIDs are 0 to 0xbfff" : "LMC is 0 to 7");
}

/*
 * The comment of a node header: ibnetdiscover's # "desc" [enhanced|base
 * port 0 lid N lmc N]. An unquoted comment is the description up to one
 * of those keywords, as in ibsim.
 */
static int
header_comment(struct tp *tp, const char *c, struct tp_header *h)
{
	static const char *const stops[] = {
		" enhanced port ", " base port ", " lid ", " lmc ",
	};
	const char *end, *e;
	char tok[48];
	uint64_t v;
	size_t len, i;

	c = skip_ws(c + 1);
	if (*c == '"') {
		if (tp_get_quoted(tp, &c, h->desc, FAB_DESC_MAX, "NodeDescription") != 0)
			return -1;
	} else {
		end = c + strlen(c);
		for (i = 0; i < sizeof(stops) / sizeof(stops[0]); i++) {
			e = strstr(c, stops[i]);
			if (e != NULL && e < end)
				end = e;
		}
		while (end > c && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		len = (size_t)(end - c);
		if (len > FAB_DESC_MAX)
			return tp_error(tp, "NodeDescription \"%.20s...\" is %zu bytes, more than %d",
					c, len, FAB_DESC_MAX);
		for (i = 0; i < len; i++)
			if ((unsigned char)c[i] < 0x20 || c[i] == 0x7f)
				return tp_error(tp, "NodeDescription: control character 0x%02x",
						(unsigned char)c[i]);
		memcpy(h->desc, c, len);
		h->desc[len] = '\0';
		c = end;
	}
	/* The rest is free text; pick out what ibsim reads from it. */
	for (c = skip_ws(c); *c != '\0'; c = skip_ws(c)) {
		if (word_is(c, "enhanced")) {
			h->esp0 = 1;
		} else if (word_is(c, "base")) {
			h->esp0 = 0;
		} else if (word_is(c, "lid") || word_is(c, "lmc")) {
			bool is_lid = c[1] == 'i';
			bool set = false;

			c = skip_ws(c + 3);
			if (comment_uint(tp, &c, is_lid, &v, &set) < 0)
				return -1;
			if (set && is_lid) {
				h->lid = (uint16_t)v;
				h->lid_set = true;
			} else if (set) {
				h->lmc = (uint8_t)v;
				h->lmc_set = true;
			}
			continue;
		} else if (strncmp(c, "active=", 7) == 0) {
			if (set_active(tp, h->type, c + 7, &h->active) != 0)
				return -1;
		}
		tp_token_copy(c, tok, sizeof(tok));
		c += strlen(tok);
		if (*tok == '\0')
			c++;
	}
	return 0;
}

static int
parse_header(struct tp *tp, const char *s, enum fab_node_type type)
{
	struct tp_header h;
	struct fab_node *n, *old;
	uint64_t v;
	unsigned int k;
	char tok[48];

	memset(&h, 0, sizeof(h));
	h.type = type;
	h.esp0 = -1;
	tp->cur = NULL;

	if (*s != ' ' && *s != '\t')
		return tp_error(tp, "expected NumPorts after the node type");
	s = skip_ws(s);
	if (tp_get_uint(&s, 10, 0xffffffff, &v) != 0)
		return tp_error(tp, "expected NumPorts after the node type");
	if (v == 0 || v > FAB_MAX_PORTS)
		return tp_error(tp, "NumPorts %llu out of range 1..%d",
				(unsigned long long)v, FAB_MAX_PORTS);
	h.nports = (unsigned int)v;
	s = skip_ws(s);
	if (tp_get_quoted(tp, &s, h.name, FAB_NAME_MAX - 1, "node name") != 0)
		return -1;
	if (h.name[0] == '\0')
		return tp_error(tp, "empty node name");
	for (s = skip_ws(s); *s != '\0' && *s != '#'; s = skip_ws(s)) {
		if (strncmp(s, "active=", 7) == 0) {
			if (set_active(tp, type, s + 7, &h.active) != 0)
				return -1;
		} else {
			tp_token_copy(s, tok, sizeof(tok));
			return tp_error(tp, "unexpected \"%s\" after node name \"%s\"", tok, h.name);
		}
		while (*s != '\0' && *s != ' ' && *s != '\t' && *s != '#')
			s++;
	}
	if (*s == '#' && header_comment(tp, s, &h) != 0)
		return -1;

	old = fabric_find_node(tp->f, h.name);
	if (old != NULL) {
		k = old->index - tp->first_node;
		if (old->index >= tp->first_node && k < tp->ntnodes)
			return tp_error(tp, "duplicate node name \"%s\" (first at %s:%u)", h.name,
					tp->files[tp->tnodes[k].file], old->line);
		return tp_error(tp, "duplicate node name \"%s\"", h.name);
	}
	n = fabric_add_node(tp->f, type, h.name, h.nports);
	if (n == NULL)
		return errno == ENOMEM ? tp_nomem(tp) :
		       tp_error(tp, "cannot add node \"%s\": %s", h.name, strerror(errno));
	if (tp_new_node_slot(tp, n) != 0)
		return -1;
	if (tp_node_apply(tp, n, &h) != 0)
		return -1;
	/* ibsim's default attach point: the first port of the first node (port 0 of a switch). */
	if (tp->f->sm_port == NULL)
		tp->f->sm_port = &n->ports[type == FAB_NODE_SWITCH ? 0 : 1];
	tp->cur = n;
	return 0;
}

/* "[ext N]" after a port number (ibnetdiscover -g): accepted, ignored. */
static int
skip_ext(struct tp *tp, const char **s)
{
	const char *p = *s;
	uint64_t v;

	if (strncmp(p, "[ext", 4) != 0)
		return 0;
	p = skip_ws(p + 4);
	if (tp_get_uint(&p, 10, 0xff, &v) != 0 || *p != ']')
		return tp_error(tp, "bad \"[ext N]\" port annotation");
	*s = p + 1;
	return 0;
}

/* "(hexguid)" annotation. Returns 1 if present (value in @p v), 0 if not, -1 bad. */
static int
get_paren_guid(struct tp *tp, const char **s, uint64_t *v)
{
	const char *p = *s;

	if (*p != '(')
		return 0;
	p++;
	if (tp_get_uint(&p, 16, UINT64_MAX, v) != 0 || *p != ')')
		return tp_error(tp, "bad GUID annotation, expected (hex digits)");
	*s = p + 1;
	return 1;
}

static int
port_option(struct tp *tp, struct fab_port *p, const char *tok, bool *w_set, bool *s_set,
	    bool *e_set)
{
	const char *v = tok + 2;
	uint64_t x;
	char t[48];

	tp_token_copy(tok, t, sizeof(t));
	if (tok[1] != '=' || (tok[0] != 'w' && tok[0] != 's' && tok[0] != 'e'))
		return tp_error(tp, "unexpected \"%s\" in port line (options are w=, s=, e=)", t);
	if (tp_get_uint(&v, 0, 255, &x) != 0 || (*v != '\0' && *v != ' ' && *v != '\t' && *v != '#'))
		return tp_error(tp, "%s: expected a number", t);
	switch (tok[0]) {
	case 'w':
		/* LinkWidthEnabled bits 1x, 4x, 8x, 12x, 2x (IBA 14.2.5.6), range as ibsim. */
		if (x < 1 || x > 31)
			return tp_error(tp, "%s: link width enabled must be 1..31", t);
		tp_port_set_width(p, (uint8_t)x);
		*w_set = true;
		break;
	case 's':
		if (x < 1 || x > 7)
			return tp_error(tp, "%s: link speed enabled must be 1..7", t);
		tp_port_set_speed(p, (uint8_t)x);
		*s_set = true;
		break;
	default:
		/* LinkSpeedExtEnabled: FDR 1, EDR 2, HDR 4, NDR 8 (ibsim: 0..15). */
		if (x > 15)
			return tp_error(tp, "%s: extended link speed must be 0..15", t);
		tp_port_set_ext(p, (uint8_t)x);
		*e_set = true;
		break;
	}
	return 0;
}

/*
 * [p][ext e](guid)  "peer"[q][ext e](guid)  w=N s=N e=N  # comment
 * Every part after "peer" is optional; a missing [q] means port 1 (ibsim).
 */
static int
parse_port_line(struct tp *tp, const char *s)
{
	struct fab_node *n = tp->cur;
	struct fab_port *p;
	char peer[FAB_NAME_MAX];
	uint64_t v, guid;
	struct tp_rate cr;
	bool w_set = false, s_set = false, e_set = false;
	unsigned int port;
	uint32_t rport = 1;
	int rc;

	if (n == NULL)
		return tp_error(tp, "port line outside a node record (a blank line ends a record)");
	s++;
	if (tp_get_uint(&s, 10, 0xffffffff, &v) != 0 || *s != ']')
		return tp_error(tp, "bad port number, expected [N]");
	s++;
	if (v == 0 || v > n->nports)
		return tp_error(tp, "port [%llu] out of range for \"%s\" (NumPorts %u)",
				(unsigned long long)v, n->name, n->nports);
	port = (unsigned int)v;
	p = &n->ports[port];
	if (skip_ext(tp, &s) != 0)
		return -1;
	rc = get_paren_guid(tp, &s, &guid);
	if (rc < 0)
		return -1;
	/* ibnetdiscover gives a CA port's own GUID here; a switch's ports share port 0's. */
	if (rc > 0 && n->type != FAB_NODE_SWITCH) {
		p->guid = guid;
		p->guids[0] = guid;
	}
	s = skip_ws(s);
	if (*s != '"')
		return tp_error(tp, "expected the quoted peer name after port [%u]", port);
	if (tp_get_quoted(tp, &s, peer, FAB_NAME_MAX - 1, "peer name") != 0)
		return -1;
	if (peer[0] == '\0')
		return tp_error(tp, "empty peer name");
	if (*s == '[' && s[1] != 'e') {
		s++;
		if (tp_get_uint(&s, 10, 0xffffffff, &v) != 0 || *s != ']')
			return tp_error(tp, "bad peer port number, expected \"%s\"[N]", peer);
		s++;
		rport = (uint32_t)v;
	}
	if (skip_ext(tp, &s) != 0)
		return -1;
	s = skip_ws(s);
	if (get_paren_guid(tp, &s, &guid) < 0)
		return -1;
	for (s = skip_ws(s); *s != '\0' && *s != '#'; s = skip_ws(s)) {
		if (port_option(tp, p, s, &w_set, &s_set, &e_set) != 0)
			return -1;
		while (*s != '\0' && *s != ' ' && *s != '\t' && *s != '#')
			s++;
	}
	if (*s == '#') {
		if (n->type == FAB_NODE_CA) {
			/* "# lid 3 lmc 0 ..." of a CA port: ibsim takes its LID from it. */
			const char *c = skip_ws(s + 1);

			bool set = false;

			if (strncmp(c, "lid ", 4) == 0) {
				c = skip_ws(c + 4);
				if (comment_uint(tp, &c, true, &v, &set) < 0)
					return -1;
				if (set)
					p->lid = (uint16_t)v;
				c = skip_ws(c);
				set = false;
				if (strncmp(c, "lmc ", 4) == 0) {
					c = skip_ws(c + 4);
					if (comment_uint(tp, &c, false, &v, &set) < 0)
						return -1;
					if (set)
						p->lmc = (uint8_t)v;
				}
			}
		}
		/* Explicit w=/s=/e= win over the comment's rate. */
		memset(&cr, 0, sizeof(cr));
		tp_comment_link_rate(s + 1, &cr);
		if (w_set)
			cr.width = 0;
		if (s_set || e_set)
			tp_port_set_width(p, cr.width);
		else
			tp_port_set_rate(p, &cr);
	}
	return tp_add_decl(tp, n, port, peer, rport);
}

/* "key=value" / "key+value" statement: the position after the sign, or NULL. */
static const char *
assignment(struct tp *tp, const char *s, const char *key, bool allow_plus, bool *plus)
{
	s = skip_ws(s);
	if (*s == '=' || (allow_plus && *s == '+')) {
		if (plus != NULL)
			*plus = *s == '+';
		return skip_ws(s + 1);
	}
	tp_error(tp, "%s: expected '='%s", key, allow_plus ? " or '+'" : "");
	return NULL;
}

static int
parse_guid_base(struct tp *tp, const char *s, const char *key, enum fab_node_type type)
{
	unsigned int t = type_slot(type);
	bool plus = false;
	uint64_t v, pg;
	int rc;

	s = assignment(tp, s, key, true, &plus);
	if (s == NULL)
		return -1;
	if (tp_get_uint(&s, 0, UINT64_MAX, &v) != 0)
		return tp_error(tp, "%s: expected a GUID", key);
	rc = get_paren_guid(tp, &s, &pg);
	if (rc < 0)
		return -1;
	if (!is_end(s))
		return tp_error(tp, "%s: unexpected text after the GUID", key);
	if (plus) {
		/* Relative to the last absolute base (ibsim's "+"). */
		if (!tp->pend.guid_base_set[t])
			return tp_error(tp, "%s+: no absolute %s= before it", key, key);
		if (v > UINT64_MAX - tp->pend.guid_base[t])
			return tp_error(tp, "%s+0x%llx: base 0x%016llx + 0x%llx runs past"
					" 0xffffffffffffffff", key, (unsigned long long)v,
					(unsigned long long)tp->pend.guid_base[t],
					(unsigned long long)v);
		tp->pend.guid_next[t] = tp->pend.guid_base[t] + v;
	} else {
		if (v == 0)
			return tp_error(tp, "%s=0: a GUID of zero is invalid", key);
		tp->pend.guid_base_set[t] = true;
		tp->pend.guid_base[t] = v;
		tp->pend.guid_next[t] = v;
	}
	tp->pend.guid_spent[t] = false;
	if (rc > 0 && type == FAB_NODE_SWITCH) {
		tp->pend.sw_port_guid_set = true;
		tp->pend.sw_port_guid = pg;
	}
	return 0;
}

static int
parse_number_stmt(struct tp *tp, const char *s, const char *key, uint64_t lo, uint64_t hi,
		  uint64_t *out)
{
	uint64_t v;

	s = assignment(tp, s, key, false, NULL);
	if (s == NULL)
		return -1;
	if (tp_get_uint(&s, 0, UINT64_MAX, &v) != 0 || !is_end(s))
		return tp_error(tp, "%s: expected a number", key);
	if (v < lo || v > hi)
		return tp_error(tp, "%s=%llu out of range %llu..%llu", key, (unsigned long long)v,
				(unsigned long long)lo, (unsigned long long)hi);
	*out = v;
	return 0;
}

static int
parse_do(struct tp *tp, const char *s)
{
	const char *fname = tp->files[tp->file];
	struct fab_do_cmd *c;
	size_t len, flen;
	const char *e;

	s = skip_ws(s);
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	len = (size_t)(e - s);
	if (len == 0)
		return tp_error(tp, "do: missing command");
	flen = strlen(fname);
	c = malloc(sizeof(*c) + len + 1 + flen + 1);
	if (c == NULL)
		return tp_nomem(tp);
	c->next = NULL;
	c->line = tp->line;
	memcpy(c->text, s, len);
	c->text[len] = '\0';
	memcpy(c->text + len + 1, fname, flen + 1);
	c->file = c->text + len + 1;
	*tp->do_tail = c;
	tp->do_tail = &c->next;
	return 0;
}

static int parse_buffer(struct tp *tp, const char *buf, size_t len);

static int
read_whole_file(const char *path, char **out, size_t *outlen, struct stat *st, char *why,
		size_t whylen)
{
	char *buf = NULL, *nb;
	size_t len = 0, cap = 0;
	ssize_t r;
	int fd;

	/* Never a FIFO, device or directory: the open could block the loop. */
	fd = fab_open_regular(path, O_RDONLY, 0, why, whylen);
	if (fd < 0)
		return -1;
	if (fstat(fd, st) != 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		goto err_close;
	}
	if (st->st_size > (off_t)TOPO_FILE_MAX) {
		snprintf(why, whylen, "%lld bytes, more than the net-file limit of %u MiB",
			 (long long)st->st_size, TOPO_FILE_MAX >> 20);
		goto err_close;
	}
	for (;;) {
		if (len > TOPO_FILE_MAX) {
			/* It grew while being read. */
			snprintf(why, whylen, "more than the net-file limit of %u MiB",
				 TOPO_FILE_MAX >> 20);
			goto err_close;
		}
		if (len == cap) {
			/* One byte over the limit is enough to tell. */
			cap = cap != 0 ? (cap * 2 > TOPO_FILE_MAX + 1u ? TOPO_FILE_MAX + 1u : cap * 2) :
			      65536;
			nb = realloc(buf, cap);
			if (nb == NULL) {
				snprintf(why, whylen, "out of memory");
				goto err_close;
			}
			buf = nb;
		}
		r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(why, whylen, "%s", strerror(errno));
			goto err_close;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	*out = buf;
	*outlen = len;
	return 0;

err_close:
	free(buf);
	close(fd);
	return -1;
}

/* Parse file @p path as file id @p file, one include level deeper. */
static int
parse_file_at(struct tp *tp, const char *path, int file)
{
	uint16_t saved_file = tp->file;
	uint32_t saved_line = tp->line;
	struct stat st;
	char why[128];
	char *buf;
	size_t len;
	unsigned int i;
	int rc;

	if (read_whole_file(path, &buf, &len, &st, why, sizeof(why)) != 0) {
		if (tp->depth != 0)
			return tp_error(tp, "cannot read \"%s\": %s", path, why);
		/* The root file: there is no line to point at. */
		if (tp->err != NULL && tp->errlen != 0)
			snprintf(tp->err, tp->errlen, "%s: %s", path, why);
		return -1;
	}
	for (i = 0; i < tp->depth; i++) {
		if (tp->stack[i].has_id && tp->stack[i].dev == st.st_dev &&
		    tp->stack[i].ino == st.st_ino) {
			free(buf);
			return tp_error(tp, "include loop: \"%s\" is already being read", path);
		}
	}
	tp->stack[tp->depth].dev = st.st_dev;
	tp->stack[tp->depth].ino = st.st_ino;
	tp->stack[tp->depth].has_id = true;
	tp->depth++;
	tp->file = (uint16_t)file;
	tp->line = 0;
	rc = parse_buffer(tp, buf, len);
	tp->depth--;
	free(buf);
	if (rc == 0) {
		tp->file = saved_file;
		tp->line = saved_line;
	}
	return rc;
}

/* include "file" | include file: relative to the including file's directory. */
static int
parse_include(struct tp *tp, const char *s)
{
	char name[PATH_MAX], path[PATH_MAX];
	const char *base, *slash, *e;
	size_t len, dlen;
	int file;

	s = skip_ws(s);
	if (*s == '"') {
		if (tp_get_quoted(tp, &s, name, sizeof(name) - 1, "include file name") != 0)
			return -1;
	} else {
		for (e = s; *e != '\0' && *e != ' ' && *e != '\t' && *e != '#'; e++)
			;
		len = (size_t)(e - s);
		if (len >= sizeof(name))
			return tp_error(tp, "include: file name too long");
		memcpy(name, s, len);
		name[len] = '\0';
		s = e;
	}
	if (name[0] == '\0')
		return tp_error(tp, "include: missing file name");
	if (!is_end(s))
		return tp_error(tp, "include: unexpected text after the file name");
	if (tp->depth >= TOPO_INCLUDE_MAX)
		return tp_error(tp, "include \"%s\": nesting deeper than %d files", name,
				TOPO_INCLUDE_MAX);
	base = tp->files[tp->file];
	slash = strrchr(base, '/');
	if (name[0] == '/' || slash == NULL) {
		len = strlen(name);
		if (len >= sizeof(path))
			return tp_error(tp, "include: path too long");
		memcpy(path, name, len + 1);
	} else {
		dlen = (size_t)(slash - base) + 1;
		len = strlen(name);
		if (dlen + len >= sizeof(path))
			return tp_error(tp, "include: path too long");
		memcpy(path, base, dlen);
		memcpy(path + dlen, name, len + 1);
	}
	file = tp_add_file(tp, path);
	if (file < 0)
		return -1;
	tp->cur = NULL;
	if (parse_file_at(tp, path, file) != 0)
		return -1;
	tp->cur = NULL;
	return 0;
}

static int
parse_statement(struct tp *tp, const char *s)
{
	size_t n = keyword_len(s);
	const char *a = s + n;
	uint64_t v;
	char tok[48];

	/* ibnetdiscover -l and the ibswitches/ibhosts scripts: "Switch : 0x..." */
	if ((kw_is(s, n, "Switch") || kw_is(s, n, "Ca") || kw_is(s, n, "Router")) &&
	    *skip_ws(a) == ':')
		return tp_parse_list_line(tp, skip_ws(a),
				       s[0] == 'S' ? FAB_NODE_SWITCH :
				       s[0] == 'C' ? FAB_NODE_CA : FAB_NODE_ROUTER);

	/* "ibnetdiscover -p": "SW   <lid> <port> 0x<guid> ..." */
	if ((kw_is(s, n, "SW") || kw_is(s, n, "CA") || kw_is(s, n, "RT")) &&
	    isdigit((unsigned char)*skip_ws(a)))
		return tp_parse_report_line(tp, s);

	/* Node headers (ibsim: "Switch", "Hca"/"Ca", "Rt"). */
	if (kw_is(s, n, "Switch"))
		return parse_header(tp, a, FAB_NODE_SWITCH);
	if (kw_is(s, n, "Hca") || kw_is(s, n, "Ca"))
		return parse_header(tp, a, FAB_NODE_CA);
	if (kw_is(s, n, "Rt"))
		return parse_header(tp, a, FAB_NODE_ROUTER);

	/* Anything else ends the record that was open. */
	tp->cur = NULL;
	if (kw_is(s, n, "switchguid"))
		return parse_guid_base(tp, a, "switchguid", FAB_NODE_SWITCH);
	if (kw_is(s, n, "caguid") || kw_is(s, n, "caguids") ||
	    kw_is(s, n, "hcaguid") || kw_is(s, n, "hcaguids"))
		return parse_guid_base(tp, a, "caguid", FAB_NODE_CA);
	if (kw_is(s, n, "rtguid"))
		return parse_guid_base(tp, a, "rtguid", FAB_NODE_ROUTER);
	if (kw_is(s, n, "sysimgguid")) {
		a = assignment(tp, a, "sysimgguid", false, NULL);
		if (a == NULL)
			return -1;
		if (tp_get_uint(&a, 0, UINT64_MAX, &v) != 0 || !is_end(a))
			return tp_error(tp, "sysimgguid: expected a GUID");
		tp->pend.sysguid = v;
		tp->pend.sysguid_set = true;
		return 0;
	}
	if (kw_is(s, n, "vendid")) {
		/* NodeInfo VendorID is 24 bits (IBA 14.2.5.3). */
		if (parse_number_stmt(tp, a, "vendid", 0, 0xffffff, &v) != 0)
			return -1;
		tp->pend.vendid = (uint32_t)v;
		tp->pend.vendid_set = true;
		return 0;
	}
	if (kw_is(s, n, "devid")) {
		if (parse_number_stmt(tp, a, "devid", 0, 0xffff, &v) != 0)
			return -1;
		tp->pend.devid = (uint16_t)v;
		tp->pend.devid_set = true;
		return 0;
	}
	if (kw_is(s, n, "width")) {
		if (parse_number_stmt(tp, a, "width", 1, 31, &v) != 0)
			return -1;
		tp->pend.width = (uint8_t)v;
		return 0;
	}
	if (kw_is(s, n, "speed")) {
		if (parse_number_stmt(tp, a, "speed", 1, 7, &v) != 0)
			return -1;
		tp->pend.speed = (uint8_t)v;
		return 0;
	}
	if (kw_is(s, n, "extspeed")) {
		/* LinkSpeedExtEnabled bits FDR..NDR (ibsim accepts 0..15). */
		if (parse_number_stmt(tp, a, "extspeed", 0, 15, &v) != 0)
			return -1;
		tp->pend.extspeed = (uint8_t)v;
		tp->pend.extspeed_set = true;
		return 0;
	}
	if (kw_is(s, n, "pdebug"))
		return 0;	/* ibsim's parser debug switch: nothing to do here */
	if (kw_is(s, n, "include"))
		return parse_include(tp, a);
	if (kw_is(s, n, "do") && (*a == ' ' || *a == '\t' || *a == '\0'))
		return parse_do(tp, a);
	if (kw_is(s, n, "module"))
		return tp_error(tp, "module= (ibsim name prefixes and port aliases) is not supported");
	/*
	 * ibnetdiscover -g (grouping) headings carry nothing ibsim uses:
	 * "Chassis N (guid 0x...)", "Hostname: ...", "Non-Chassis Nodes"
	 * (ibnetdiscover.c out_chassis() and its callers).
	 */
	if (kw_is(s, n, "Chassis") || kw_is(s, n, "Hostname"))
		return 0;
	if (strncmp(s, "Non-Chassis Nodes", 17) == 0 && is_end(s + 17))
		return 0;

	tp_token_copy(s, tok, sizeof(tok));
	return tp_error(tp, "unknown statement \"%s\"", tok);
}

static int
parse_line(struct tp *tp, const char *s)
{
	s = skip_ws(s);
	if (*s == '\0') {
		tp->cur = NULL;		/* a blank line ends a node record */
		return 0;
	}
	if (*s == '#')
		return 0;		/* comments do not end a record */
	/* Messages of the diags do not end a record: stderr interleaves. */
	if (tp_is_diag_line(s)) {
		char tok[48];

		tp_token_copy(s, tok, sizeof(tok));
		tp_warn(tp, "skipped a message of the diags (\"%s ...\"), not topology",
			tok);
		return 0;
	}
	if (*s == '[')
		return parse_port_line(tp, s);
	if (*s == '@')
		return tp_error(tp, "ibsim port aliases (\"@\") are not supported");
	return parse_statement(tp, s);
}

static int
parse_buffer(struct tp *tp, const char *buf, size_t len)
{
	char line[TOPO_LINE_MAX + 1];
	const char *p = buf, *end = buf + len, *nl;
	size_t n;

	tp->cur = NULL;
	while (p < end) {
		tp->line++;
		nl = memchr(p, '\n', (size_t)(end - p));
		n = (size_t)((nl != NULL ? nl : end) - p);
		if (n > 0 && p[n - 1] == '\r')
			n--;		/* CRLF files */
		if (n > TOPO_LINE_MAX)
			return tp_error(tp, "line longer than %d bytes", TOPO_LINE_MAX);
		if (memchr(p, '\0', n) != NULL)
			return tp_error(tp, "NUL byte in line");
		memcpy(line, p, n);
		line[n] = '\0';
		if (parse_line(tp, line) != 0)
			return -1;
		p = nl != NULL ? nl + 1 : end;
	}
	tp->cur = NULL;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Entry points */

static void
tp_release(struct tp *tp)
{
	unsigned int i;

	for (i = 0; i < tp->nfiles; i++)
		free(tp->files[i]);
	free(tp->files);
	free(tp->decls);
	free(tp->names);
	free(tp->pdecl);
	free(tp->tnodes);
	free(tp->plines);
}

static void
tp_init(struct tp *tp, struct fabric *f, char *err, size_t errlen)
{
	unsigned int i;

	memset(tp, 0, sizeof(*tp));
	tp->f = f;
	tp->err = err;
	tp->errlen = errlen;
	tp->first_node = f->nnodes;
	for (i = 0; i < f->nnodes; i++)
		tp->nactive += f->nodes[i]->active_hca;
	tp->do_tail = &f->do_cmds;
	while (*tp->do_tail != NULL)
		tp->do_tail = &(*tp->do_tail)->next;
	if (err != NULL && errlen != 0)
		err[0] = '\0';
}

static int
tp_finish(struct tp *tp, int rc)
{
	if (rc == 0 && tp->nplines != 0)
		rc = tp_report_nodes(tp);
	if (rc == 0)
		rc = tp_resolve_links(tp);
	if (rc == 0)
		rc = tp_check_guids(tp);
	tp_release(tp);
	return rc;
}

int
topo_parse_file(struct fabric *f, const char *path, char *err, size_t errlen)
{
	struct tp tp;
	int file, rc;

	if (f == NULL || path == NULL) {
		if (err != NULL && errlen != 0)
			snprintf(err, errlen, "topo_parse_file: no fabric or no path");
		return -1;
	}
	tp_init(&tp, f, err, errlen);
	file = tp_add_file(&tp, path);
	if (file < 0) {
		tp_release(&tp);
		return -1;
	}
	rc = parse_file_at(&tp, path, file);
	return tp_finish(&tp, rc);
}

int
topo_parse_buf(struct fabric *f, const char *name, const char *buf, size_t len,
	       char *err, size_t errlen)
{
	struct tp tp;
	int file, rc;

	if (f == NULL || (buf == NULL && len != 0)) {
		if (err != NULL && errlen != 0)
			snprintf(err, errlen, "topo_parse_buf: no fabric or no buffer");
		return -1;
	}
	tp_init(&tp, f, err, errlen);
	file = tp_add_file(&tp, name != NULL ? name : "<buffer>");
	if (file < 0) {
		tp_release(&tp);
		return -1;
	}
	tp.file = (uint16_t)file;
	tp.stack[0].has_id = false;
	tp.depth = 1;
	rc = len != 0 ? parse_buffer(&tp, buf, len) : 0;
	return tp_finish(&tp, rc);
}
