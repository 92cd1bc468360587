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
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fab_file.h"
#include "fab_log.h"
#include "fab_node.h"
#include "fabric.h"
#include "mad.h"
#include "topo.h"

#define TP_NONE		UINT32_MAX
#define TP_FILES_MAX	65535u		/* file ids are 16 bits */

/* PortInfo LinkWidthEnabled / LinkSpeedEnabled values, IBA 14.2.5.6. */
#define TP_WIDTH_1X		1
#define TP_WIDTH_1X_4X		3
#define TP_WIDTH_8X		4
#define TP_WIDTH_1X_4X_12X	11
#define TP_WIDTH_2X		16
#define TP_SPEED_SDR		1
#define TP_SPEED_SDR_DDR	3
#define TP_SPEED_SDR_DDR_QDR	7
/* LinkSpeedExtEnabled bits: FDR 1, EDR 2, HDR 4, NDR 8; XDR is Ext2 bit 1 */
#define TP_EXT_FDR		1
#define TP_EXT_FDR_EDR		3
#define TP_EXT_UP_TO_HDR	7
#define TP_EXT_UP_TO_NDR	15
#define TP_EXT2_XDR		1
#define TP_MLNX_FDR10		1	/* MlnxExtPortInfo LinkSpeedEnabled */

/* One port line: local port -> peer, resolved after the whole file is read. */
struct tp_decl {
	uint32_t node;			/* index in fabric.nodes */
	uint32_t peer;			/* offset of the peer name in tp.names */
	uint32_t rport;			/* peer port as written, checked later */
	uint32_t line;
	uint16_t file;
	uint8_t port;
};

/*
 * One line of an "ibnetdiscover -p" ports report (infiniband-diags
 * ibnetdiscover.c dump_ports_report()):
 *   SW     6 22 0x005442ba00003080 4x SDR - CA     4  1 0x0008f10403961355 ( 'd' - 'rd' )
 * or, for a port without a cable, the local part and 'd' alone.
 */
struct tp_pline {
	uint64_t guid, pguid;		/* switch: NodeGUID; CA/router: PortGUID */
	uint32_t desc, pdesc;		/* offsets in tp.names, UINT32_MAX if none */
	uint32_t line;
	uint16_t file;
	uint16_t lid, plid;
	uint8_t type, ptype;		/* enum fab_node_type; ptype 0: no cable */
	uint8_t port, pport;
	struct tp_rate_small {
		uint8_t width, speed, ext, ext2, mlnx;
	} rate;
};

/* Per node created by this parse. */
struct tp_node {
	uint32_t pbase;			/* its ports' entries in tp.pdecl */
	uint16_t file;			/* file of its header line */
};

/* An open file on the include stack, for loop detection. */
struct tp_frame {
	dev_t dev;
	ino_t ino;
	bool has_id;			/* false for the root of topo_parse_buf */
};

/* Attributes that a statement line sets for the next node(s), as in ibsim. */
struct tp_pending {
	bool guid_base_set[4];		/* by type: "switchguid=", "caguid=", "rtguid=" */
	bool guid_spent[4];		/* guid_next wrapped: the last GUID is taken */
	uint64_t guid_base[4];		/* absolute base of the last "=" */
	uint64_t guid_next[4];		/* next GUID of that type (ibsim's counter) */
	bool sw_port_guid_set;		/* "switchguid=X(Y)": Y for the next switch */
	uint64_t sw_port_guid;
	bool vendid_set, devid_set, sysguid_set;	/* one-shot */
	uint32_t vendid;
	uint16_t devid;
	uint64_t sysguid;
	uint8_t width;			/* "width=": later nodes' LinkWidthEnabled, 0 = default */
	uint8_t speed;			/* "speed=": later nodes' LinkSpeedEnabled, 0 = default */
	bool extspeed_set;		/* "extspeed=": later nodes' LinkSpeedExtEnabled */
	uint8_t extspeed;
};

struct tp {
	struct fabric *f;
	char *err;
	size_t errlen;

	char **files;			/* every file read, for messages */
	unsigned int nfiles;
	unsigned int files_cap;
	struct tp_frame stack[TOPO_INCLUDE_MAX + 1];
	unsigned int depth;

	uint16_t file;			/* position being parsed */
	uint32_t line;
	struct fab_node *cur;		/* node whose port lines follow, or NULL */
	struct tp_pending pend;

	struct tp_decl *decls;
	uint32_t ndecls;
	uint32_t decls_cap;
	char *names;			/* peer names, NUL-separated */
	size_t names_len;
	size_t names_cap;
	uint32_t *pdecl;		/* decl index per port of each new node */
	size_t pdecl_len;
	size_t pdecl_cap;
	struct tp_node *tnodes;		/* indexed by node->index - first_node */
	unsigned int ntnodes;
	unsigned int tnodes_cap;
	unsigned int first_node;
	struct fab_do_cmd **do_tail;
	struct tp_pline *plines;	/* "ibnetdiscover -p" lines, cabled at the end */
	unsigned int nactive;		/* active HCAs in the fabric so far */
	uint32_t nplines;
	uint32_t plines_cap;
};

/* ------------------------------------------------------------------ */
/* Messages */

static int __attribute__((format(printf, 4, 5)))
tp_error_at(struct tp *tp, unsigned int file, uint32_t line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (tp->err == NULL || tp->errlen == 0)
		return -1;
	n = snprintf(tp->err, tp->errlen, "%s:%u: ",
		     file < tp->nfiles ? tp->files[file] : "?", (unsigned int)line);
	if (n < 0 || (size_t)n >= tp->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(tp->err + n, tp->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

#define tp_error(tp, ...) tp_error_at((tp), (tp)->file, (tp)->line, __VA_ARGS__)

static int
tp_nomem(struct tp *tp)
{
	return tp_error(tp, "out of memory");
}

/* ------------------------------------------------------------------ */
/* Growable arrays */

static int
grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	size_t ncap;
	void *p;

	if (need <= *cap)
		return 0;
	ncap = *cap != 0 ? *cap : 64;
	while (ncap < need)
		ncap *= 2;
	p = realloc(*arr, ncap * elem);
	if (p == NULL)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

static int
grow_u32(void **arr, uint32_t *cap, size_t need, size_t elem)
{
	size_t c = *cap;
	int rc;

	if (need > UINT32_MAX - 1)
		return -ENOMEM;
	rc = grow(arr, &c, need, elem);
	*cap = (uint32_t)c;
	return rc;
}

static int
grow_uint(void **arr, unsigned int *cap, size_t need, size_t elem)
{
	size_t c = *cap;
	int rc;

	if (need > UINT_MAX / 2)
		return -ENOMEM;
	rc = grow(arr, &c, need, elem);
	*cap = (unsigned int)c;
	return rc;
}

static int
tp_add_file(struct tp *tp, const char *name)
{
	char *copy;

	if (tp->nfiles >= TP_FILES_MAX)
		return tp_error(tp, "more than %u files read through include", TP_FILES_MAX);
	if (grow_uint((void **)&tp->files, &tp->files_cap, tp->nfiles + 1,
		      sizeof(tp->files[0])) != 0)
		return tp_nomem(tp);
	copy = strdup(name);
	if (copy == NULL)
		return tp_nomem(tp);
	tp->files[tp->nfiles++] = copy;
	return (int)(tp->nfiles - 1);
}

/* ------------------------------------------------------------------ */
/* Lexing helpers on one NUL-terminated line */

static const char *
skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static bool
is_end(const char *s)
{
	s = skip_ws(s);
	return *s == '\0' || *s == '#';
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Unsigned number at *s: base 0 takes "0x" hex or decimal (no octal:
 * ibnetdiscover never writes it and "010" meaning 8 would surprise),
 * base 16 takes hex with an optional "0x". Returns 0 and advances *s,
 * or -1 (no digits, or above @p max).
 */
static int
get_uint(const char **s, int base, uint64_t max, uint64_t *v)
{
	const char *p = *s;
	uint64_t x = 0;
	int d, n = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && hexval(p[2]) >= 0) {
		p += 2;
		base = 16;
	} else if (base == 0) {
		base = 10;
	}
	for (;; p++, n++) {
		d = hexval(*p);
		if (d < 0 || d >= base)
			break;
		if (x > (max - (uint64_t)d) / (uint64_t)base)
			return -1;
		x = x * (uint64_t)base + (uint64_t)d;
	}
	if (n == 0)
		return -1;
	*v = x;
	*s = p;
	return 0;
}

/* Copy a token (up to blank, '#' or end) for messages. */
static void
token_copy(const char *s, char *out, size_t outsz)
{
	size_t i = 0;

	while (s[i] != '\0' && s[i] != ' ' && s[i] != '\t' && s[i] != '#' &&
	       i + 1 < outsz && i < 40) {
		out[i] = s[i];
		i++;
	}
	out[i] = '\0';
}

/*
 * A quoted string at *s ("name" or "description"). @p max is the longest
 * accepted length; longer is an error naming @p what, as is a missing
 * closing quote or a control character.
 */
static int
get_quoted(struct tp *tp, const char **s, char *out, size_t max, const char *what)
{
	const char *p = *s, *e;
	size_t len, i;

	if (*p != '"')
		return tp_error(tp, "expected a quoted %s", what);
	p++;
	e = strchr(p, '"');
	if (e == NULL)
		return tp_error(tp, "%s: missing closing '\"'", what);
	len = (size_t)(e - p);
	if (len > max)
		return tp_error(tp, "%s \"%.20s...\" is %zu bytes, more than %zu",
				what, p, len, max);
	for (i = 0; i < len; i++)
		if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f)
			return tp_error(tp, "%s: control character 0x%02x",
					what, (unsigned char)p[i]);
	memcpy(out, p, len);
	out[len] = '\0';
	*s = e + 1;
	return 0;
}

static bool
word_is(const char *s, const char *w)
{
	size_t n = strlen(w);

	return strncmp(s, w, n) == 0 &&
	       (s[n] == '\0' || s[n] == ' ' || s[n] == '\t');
}

/* ------------------------------------------------------------------ */
/* Link width and speed */

/* "4x" -> LinkWidthEnabled, as ibsim maps ibnetdiscover's active width. */
static uint8_t
width_from_text(unsigned int w)
{
	switch (w) {
	case 1: return TP_WIDTH_1X;
	case 2: return TP_WIDTH_2X;
	case 4: return TP_WIDTH_1X_4X;
	case 8: return TP_WIDTH_8X;
	case 12: return TP_WIDTH_1X_4X_12X;
	default: return 0;
	}
}

/*
 * A link rate as ibnetdiscover prints it ("4xEDR"), turned into the
 * enabled sets ibsim derives from it (sim_net.c): every speed up to the
 * named one, since a port that runs EDR also trains at FDR and below.
 * FDR10 is QDR signalling plus Mellanox's MlnxExtPortInfo bit; XDR is
 * LinkSpeedExt2 on top of every extended speed.
 */
struct tp_rate {
	uint8_t width;			/* LinkWidthEnabled, 0 = not given */
	uint8_t speed;			/* LinkSpeedEnabled, 0 = not given */
	uint8_t ext;			/* LinkSpeedExtEnabled */
	uint8_t ext2;			/* LinkSpeedExtEnabled2 */
	uint8_t mlnx;			/* MlnxExtPortInfo LinkSpeedEnabled */
};

static bool
speed_from_text(const char *s, size_t len, struct tp_rate *r)
{
	static const struct {
		const char *name;
		uint8_t speed, ext, ext2, mlnx;
	} tab[] = {
		{ "SDR", TP_SPEED_SDR, 0, 0, 0 },
		{ "DDR", TP_SPEED_SDR_DDR, 0, 0, 0 },
		{ "QDR", TP_SPEED_SDR_DDR_QDR, 0, 0, 0 },
		{ "FDR10", TP_SPEED_SDR_DDR_QDR, 0, 0, TP_MLNX_FDR10 },
		{ "FDR", TP_SPEED_SDR_DDR_QDR, TP_EXT_FDR, 0, 0 },
		{ "EDR", TP_SPEED_SDR_DDR_QDR, TP_EXT_FDR_EDR, 0, 0 },
		{ "HDR", TP_SPEED_SDR_DDR_QDR, TP_EXT_UP_TO_HDR, 0, 0 },
		{ "NDR", TP_SPEED_SDR_DDR_QDR, TP_EXT_UP_TO_NDR, 0, 0 },
		{ "XDR", TP_SPEED_SDR_DDR_QDR, TP_EXT_UP_TO_NDR, TP_EXT2_XDR, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		if (strlen(tab[i].name) != len || strncmp(tab[i].name, s, len) != 0)
			continue;
		r->speed = tab[i].speed;
		r->ext = tab[i].ext;
		r->ext2 = tab[i].ext2;
		r->mlnx = tab[i].mlnx;
		return true;
	}
	return false;
}

/* Enabled implies supported: keep PortInfo consistent (IBA 14.2.5.6). */
static void
port_set_width(struct fab_port *p, uint8_t w)
{
	if (w == 0)
		return;
	p->link_width_enabled = w;
	p->link_width_supported |= w;
}

static void
port_set_speed(struct fab_port *p, uint8_t s)
{
	if (s == 0)
		return;
	p->link_speed_enabled = s;
	p->link_speed_supported |= s;
}

/*
 * The port whose CapabilityMask announces the extended speeds of @p p:
 * itself, or port 0 for a switch's external port (readers take a
 * switch's CapabilityMask from port 0, as rdma-core's libibnetdisc does).
 */
static struct fab_port *
cap_port(struct fab_port *p)
{
	return p->node->type == FAB_NODE_SWITCH ? &p->node->ports[0] : p;
}

static void
port_set_ext(struct fab_port *p, uint8_t ext)
{
	p->link_speed_ext_enabled = ext;
	p->link_speed_ext_supported |= ext;
	if (ext != 0) {
		p->cap_mask |= PI_CAP_IS_EXT_SPEEDS_SUP;
		cap_port(p)->cap_mask |= PI_CAP_IS_EXT_SPEEDS_SUP;
	}
}

static void
port_set_rate(struct fab_port *p, const struct tp_rate *r)
{
	struct fab_port *c = cap_port(p);

	port_set_width(p, r->width);
	if (r->speed == 0)
		return;
	port_set_speed(p, r->speed);
	port_set_ext(p, r->ext);
	p->link_speed_ext2_enabled = r->ext2;
	p->link_speed_ext2_supported |= r->ext2;
	if (r->ext2 != 0) {
		p->cap_mask |= PI_CAP_HAS_CAP_MASK2;
		p->cap_mask2 |= PI_CAP2_IS_EXT_SPEEDS_2_SUP;
		c->cap_mask |= PI_CAP_HAS_CAP_MASK2;
		c->cap_mask2 |= PI_CAP2_IS_EXT_SPEEDS_2_SUP;
	}
	p->mlnx_speed_enabled = r->mlnx;
	p->mlnx_speed_supported |= r->mlnx;
	if (r->mlnx != 0)
		c->mlnx_speed_supported |= r->mlnx;
}

/*
 * The connection trailer of an ibnetdiscover port line: after the last
 * quote, "lid <n> <width>x<speed>" gives the link's active width and
 * speed, which ibsim takes as the local port's enabled values.
 */
static void
comment_link_rate(const char *c, struct tp_rate *r)
{
	const char *q, *p, *e;
	uint64_t v;

	q = strrchr(c, '"');
	p = strstr(q != NULL ? q + 1 : c, "lid ");
	if (p == NULL)
		return;
	p = skip_ws(p + 4);
	if (get_uint(&p, 10, 0xffff, &v) != 0)
		return;
	p = skip_ws(p);
	if (get_uint(&p, 10, 12, &v) != 0 || *p != 'x')
		return;
	r->width = width_from_text((unsigned int)v);
	p++;
	for (e = p; isalnum((unsigned char)*e); e++)
		;
	if (!speed_from_text(p, (size_t)(e - p), r))
		r->width = 0;	/* "4x?" and the like: no rate at all */
}

/* ------------------------------------------------------------------ */
/* Statements */

static int
set_active(struct tp *tp, enum fab_node_type type, const char *val, bool *active)
{
	char tok[48];

	token_copy(val, tok, sizeof(tok));
	if (type != FAB_NODE_CA)
		return tp_error(tp, "active=%s: only a Ca/Hca node can be an active HCA", tok);
	/* The only device model ibfabric has (issue 4): MT25208 InfiniHost III Ex. */
	if (strcasecmp(tok, "mt25208") != 0)
		return tp_error(tp, "active=%s: unknown HCA model (expected mt25208)", tok);
	*active = true;
	return 0;
}

struct tp_header {
	enum fab_node_type type;
	unsigned int nports;
	char name[FAB_NAME_MAX];
	char desc[FAB_DESC_MAX + 1];
	bool active;
	int esp0;			/* 1 enhanced, 0 base, -1 not given */
	bool lid_set, lmc_set;
	uint16_t lid;
	uint8_t lmc;
};

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
		if (get_quoted(tp, &c, h->desc, FAB_DESC_MAX, "NodeDescription") != 0)
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

			c = skip_ws(c + 3);
			if (get_uint(&c, 0, is_lid ? 0xbfff : 7, &v) == 0) {
				if (is_lid) {
					h->lid = (uint16_t)v;
					h->lid_set = true;
				} else {
					h->lmc = (uint8_t)v;
					h->lmc_set = true;
				}
			}
			continue;
		} else if (strncmp(c, "active=", 7) == 0) {
			if (set_active(tp, h->type, c + 7, &h->active) != 0)
				return -1;
		}
		token_copy(c, tok, sizeof(tok));
		c += strlen(tok);
		if (*tok == '\0')
			c++;
	}
	return 0;
}

static int
tp_new_node_slot(struct tp *tp, struct fab_node *n)
{
	unsigned int k = n->index - tp->first_node;
	size_t i;

	if (grow_uint((void **)&tp->tnodes, &tp->tnodes_cap, k + 1, sizeof(tp->tnodes[0])) != 0 ||
	    grow((void **)&tp->pdecl, &tp->pdecl_cap, tp->pdecl_len + n->nports + 1,
		 sizeof(tp->pdecl[0])) != 0)
		return tp_nomem(tp);
	tp->tnodes[k].pbase = (uint32_t)tp->pdecl_len;
	tp->tnodes[k].file = tp->file;
	tp->ntnodes = k + 1;
	for (i = 0; i <= n->nports; i++)
		tp->pdecl[tp->pdecl_len++] = TP_NONE;
	return 0;
}

/* Declaration slot of @p n's port @p port, or NULL if @p n predates this parse. */
static uint32_t *
tp_port_decl(struct tp *tp, const struct fab_node *n, unsigned int port)
{
	unsigned int k;

	if (n->index < tp->first_node)
		return NULL;
	k = n->index - tp->first_node;
	if (k >= tp->ntnodes)
		return NULL;
	return &tp->pdecl[tp->tnodes[k].pbase + port];
}

static unsigned int
type_slot(enum fab_node_type t)
{
	return (unsigned int)t & 3;
}

/* Type prefix of a node id as ibnetdiscover writes it ("S-<guid>"). */
static char
type_prefix(enum fab_node_type type)
{
	return type == FAB_NODE_SWITCH ? 'S' : type == FAB_NODE_ROUTER ? 'R' : 'H';
}

/* "S-0002c90200402ec8": the GUID of an ibnetdiscover node id of @p type. */
static bool
guid_from_id(enum fab_node_type type, const char *id, uint64_t *guid)
{
	const char *p = id + 2;
	uint64_t v;

	if (strlen(id) != 18 || id[0] != type_prefix(type) || id[1] != '-' ||
	    get_uint(&p, 16, UINT64_MAX, &v) != 0 || *p != '\0' || v == 0)
		return false;
	*guid = v;
	return true;
}

/* The statement that numbers nodes of @p type ("switchguid=" ...). */
static const char *
guid_key(enum fab_node_type type)
{
	return type == FAB_NODE_SWITCH ? "switchguid" : type == FAB_NODE_ROUTER ? "rtguid" :
	       "caguid";
}

/*
 * Give @p n the NodeGUID @p guid. A CA's or router's port GUIDs follow it
 * (NodeGUID + port, as ibsim numbers them): refuse a range that would run
 * past 0xffffffffffffffff to GUID 0 and the bottom of the space rather
 * than wrap silently (GUID 0 is invalid, IBA 4.1.1).
 */
static int
tp_set_guid(struct tp *tp, struct fab_node *n, uint64_t guid)
{
	unsigned int span = n->type == FAB_NODE_SWITCH ? 0 : n->nports;

	if (guid > UINT64_MAX - span)
		return tp_error(tp, "GUIDs of \"%s\" wrap: NodeGUID 0x%016llx + NumPorts %u"
				" runs past 0xffffffffffffffff", n->name,
				(unsigned long long)guid, span);
	fabric_set_node_guid(n, guid);
	return 0;
}

/* Apply the header's and the pending statements' attributes to @p n. */
static int
node_apply(struct tp *tp, struct fab_node *n, const struct tp_header *h)
{
	struct tp_pending *pd = &tp->pend;
	unsigned int t = type_slot(h->type), i;
	uint64_t guid, span;

	if (h->desc[0] != '\0')
		memcpy(n->desc, h->desc, strlen(h->desc) + 1);
	/*
	 * After "switchguid=" (or caguid/rtguid) ibsim numbers the following
	 * nodes of that type from the base: +1 per switch, +NumPorts+1 per CA,
	 * so that CA port GUIDs (node + port) never overlap.
	 */
	if (pd->guid_base_set[t]) {
		guid = pd->guid_next[t];
		if (pd->guid_spent[t])
			return tp_error(tp, "%s numbering ran out: \"%s\" would get a GUID past"
					" 0xffffffffffffffff", guid_key(h->type), n->name);
		if (tp_set_guid(tp, n, guid) != 0)
			return -1;
		span = h->type == FAB_NODE_SWITCH ? 0 : h->nports;
		pd->guid_spent[t] = guid + span == UINT64_MAX;
		pd->guid_next[t] = guid + span + 1;
	} else if (guid_from_id(h->type, h->name, &guid)) {
		/*
		 * No GUID statement yet: a node id in ibnetdiscover's own form,
		 * "S-<NodeGUID>" (ibnetdiscover.c node_name()), says the GUID,
		 * as in an excerpt of a dump that lost its "switchguid=" lines.
		 */
		if (tp_set_guid(tp, n, guid) != 0)
			return -1;
	}
	if (h->type == FAB_NODE_SWITCH && pd->sw_port_guid_set) {
		for (i = 0; i <= n->nports; i++) {
			n->ports[i].guid = pd->sw_port_guid;
			n->ports[i].guids[0] = pd->sw_port_guid;
		}
	}
	pd->sw_port_guid_set = false;
	if (pd->sysguid_set)
		n->sys_guid = pd->sysguid;
	if (pd->vendid_set)
		n->vendor_id = pd->vendid;
	if (pd->devid_set)
		n->device_id = pd->devid;
	/* ibsim resets vendid and sysimgguid after each node; so does devid here. */
	pd->sysguid_set = pd->vendid_set = pd->devid_set = false;

	for (i = h->type == FAB_NODE_SWITCH ? 0 : 1; i <= n->nports; i++) {
		port_set_width(&n->ports[i], pd->width);
		port_set_speed(&n->ports[i], pd->speed);
		if (pd->extspeed_set)
			port_set_ext(&n->ports[i], pd->extspeed);
	}
	if (n->sw != NULL && h->esp0 >= 0)
		n->sw->enhanced_port0 = (uint8_t)h->esp0;
	if (n->sw != NULL && h->lid_set)
		n->ports[0].lid = h->lid;
	if (n->sw != NULL && h->lmc_set)
		n->ports[0].lmc = h->lmc;
	n->line = tp->line;
	if (h->active) {
		/* One PCI bus per active HCA (mt25208_host.h): the net file's limit. */
		if (tp->nactive >= TOPO_ACTIVE_MAX)
			return tp_error(tp, "active=mt25208: more than %u active HCAs"
					" (one PCI bus each, 0x10..0xff)", TOPO_ACTIVE_MAX);
		tp->nactive++;
		n->active_hca = true;
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
	if (get_uint(&s, 10, 0xffffffff, &v) != 0)
		return tp_error(tp, "expected NumPorts after the node type");
	if (v == 0 || v > FAB_MAX_PORTS)
		return tp_error(tp, "NumPorts %llu out of range 1..%d",
				(unsigned long long)v, FAB_MAX_PORTS);
	h.nports = (unsigned int)v;
	s = skip_ws(s);
	if (get_quoted(tp, &s, h.name, FAB_NAME_MAX - 1, "node name") != 0)
		return -1;
	if (h.name[0] == '\0')
		return tp_error(tp, "empty node name");
	for (s = skip_ws(s); *s != '\0' && *s != '#'; s = skip_ws(s)) {
		if (strncmp(s, "active=", 7) == 0) {
			if (set_active(tp, type, s + 7, &h.active) != 0)
				return -1;
		} else {
			token_copy(s, tok, sizeof(tok));
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
	if (node_apply(tp, n, &h) != 0)
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
	if (get_uint(&p, 10, 0xff, &v) != 0 || *p != ']')
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
	if (get_uint(&p, 16, UINT64_MAX, v) != 0 || *p != ')')
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

	token_copy(tok, t, sizeof(t));
	if (tok[1] != '=' || (tok[0] != 'w' && tok[0] != 's' && tok[0] != 'e'))
		return tp_error(tp, "unexpected \"%s\" in port line (options are w=, s=, e=)", t);
	if (get_uint(&v, 0, 255, &x) != 0 || (*v != '\0' && *v != ' ' && *v != '\t' && *v != '#'))
		return tp_error(tp, "%s: expected a number", t);
	switch (tok[0]) {
	case 'w':
		/* LinkWidthEnabled bits 1x, 4x, 8x, 12x, 2x (IBA 14.2.5.6), range as ibsim. */
		if (x < 1 || x > 31)
			return tp_error(tp, "%s: link width enabled must be 1..31", t);
		port_set_width(p, (uint8_t)x);
		*w_set = true;
		break;
	case 's':
		if (x < 1 || x > 7)
			return tp_error(tp, "%s: link speed enabled must be 1..7", t);
		port_set_speed(p, (uint8_t)x);
		*s_set = true;
		break;
	default:
		/* LinkSpeedExtEnabled: FDR 1, EDR 2, HDR 4, NDR 8 (ibsim: 0..15). */
		if (x > 15)
			return tp_error(tp, "%s: extended link speed must be 0..15", t);
		port_set_ext(p, (uint8_t)x);
		*e_set = true;
		break;
	}
	return 0;
}

static int
tp_add_decl(struct tp *tp, struct fab_node *n, unsigned int port, const char *peer,
	    uint32_t rport)
{
	uint32_t *slot = tp_port_decl(tp, n, port);
	size_t len = strlen(peer) + 1;
	struct tp_decl *d;

	if (slot != NULL && *slot != TP_NONE)
		return tp_error(tp, "port [%u] of \"%s\" listed twice (first at line %u)",
				port, n->name, (unsigned int)tp->decls[*slot].line);
	if (grow_u32((void **)&tp->decls, &tp->decls_cap, (size_t)tp->ndecls + 1,
		     sizeof(tp->decls[0])) != 0 ||
	    grow((void **)&tp->names, &tp->names_cap, tp->names_len + len, 1) != 0 ||
	    tp->names_len + len > UINT32_MAX)
		return tp_nomem(tp);
	d = &tp->decls[tp->ndecls];
	d->node = n->index;
	d->port = (uint8_t)port;
	d->peer = (uint32_t)tp->names_len;
	d->rport = rport;
	d->line = tp->line;
	d->file = tp->file;
	memcpy(tp->names + tp->names_len, peer, len);
	tp->names_len += len;
	if (slot != NULL)
		*slot = tp->ndecls;
	tp->ndecls++;
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
	if (get_uint(&s, 10, 0xffffffff, &v) != 0 || *s != ']')
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
	if (get_quoted(tp, &s, peer, FAB_NAME_MAX - 1, "peer name") != 0)
		return -1;
	if (peer[0] == '\0')
		return tp_error(tp, "empty peer name");
	if (*s == '[' && s[1] != 'e') {
		s++;
		if (get_uint(&s, 10, 0xffffffff, &v) != 0 || *s != ']')
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

			if (strncmp(c, "lid ", 4) == 0) {
				c = skip_ws(c + 4);
				if (get_uint(&c, 0, 0xbfff, &v) == 0)
					p->lid = (uint16_t)v;
				c = skip_ws(c);
				if (strncmp(c, "lmc ", 4) == 0) {
					c = skip_ws(c + 4);
					if (get_uint(&c, 0, 7, &v) == 0)
						p->lmc = (uint8_t)v;
				}
			}
		}
		/* Explicit w=/s=/e= win over the comment's rate. */
		memset(&cr, 0, sizeof(cr));
		comment_link_rate(s + 1, &cr);
		if (w_set)
			cr.width = 0;
		if (s_set || e_set)
			port_set_width(p, cr.width);
		else
			port_set_rate(p, &cr);
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
	if (get_uint(&s, 0, UINT64_MAX, &v) != 0)
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
	if (get_uint(&s, 0, UINT64_MAX, &v) != 0 || !is_end(s))
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
static int parse_report_line(struct tp *tp, const char *s);

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
		if (get_quoted(tp, &s, name, sizeof(name) - 1, "include file name") != 0)
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

/* Length of the keyword at @p s (letters, digits, '_'). */
static size_t
keyword_len(const char *s)
{
	size_t n = 0;

	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	return n;
}

static bool
kw_is(const char *s, size_t n, const char *kw)
{
	return strlen(kw) == n && strncmp(s, kw, n) == 0;
}

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
static bool
is_diag_line(const char *s)
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

static void
tp_warn(struct tp *tp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
tp_warn(struct tp *tp, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	tp->f->topo_warnings++;
	fab_warn("%s:%u: %s", tp->files[tp->file], (unsigned int)tp->line, msg);
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
static int
parse_list_line(struct tp *tp, const char *s, enum fab_node_type type)
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
	if (strncmp(s, "0x", 2) != 0 || get_uint(&s, 16, UINT64_MAX, &guid) != 0 || guid == 0)
		return tp_error(tp, "node list line: expected \": 0x<GUID>\"");
	s = skip_ws(s);
	if (strncmp(s, "ports ", 6) != 0)
		return tp_error(tp, "node list line: expected \"ports N\" after the GUID");
	s = skip_ws(s + 6);
	if (get_uint(&s, 10, 0xffffffff, &v) != 0 || v == 0 || v > FAB_MAX_PORTS)
		return tp_error(tp, "node list line: ports must be 1..%d", FAB_MAX_PORTS);
	h.nports = (unsigned int)v;
	for (s = skip_ws(s); *s != '"'; s = skip_ws(s)) {
		if (strncmp(s, "devid ", 6) == 0) {
			s = skip_ws(s + 6);
			has_devid = get_uint(&s, 0, 0xffff, &devid) == 0;
		} else if (strncmp(s, "vendid ", 7) == 0) {
			s = skip_ws(s + 7);
			has_vendid = get_uint(&s, 0, 0xffffff, &vendid) == 0;
		} else {
			return tp_error(tp, "node list line: expected the quoted NodeDescription");
		}
		if (!has_devid && !has_vendid)
			return tp_error(tp, "node list line: bad devid/vendid value");
	}
	if (get_quoted(tp, &s, h.desc, FAB_DESC_MAX, "NodeDescription") != 0)
		return -1;
	/* ibswitches' trailer: "base|enhanced port 0 lid N lmc N" */
	for (s = skip_ws(s); *s != '\0'; s = skip_ws(s)) {
		if (word_is(s, "enhanced") || word_is(s, "base")) {
			h.esp0 = s[0] == 'e';
		} else if (word_is(s, "lid") || word_is(s, "lmc")) {
			bool is_lid = s[1] == 'i';

			s = skip_ws(s + 3);
			if (get_uint(&s, 0, is_lid ? 0xbfff : 7, &v) == 0) {
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
	if (node_apply(tp, n, &h) != 0 || tp_set_guid(tp, n, guid) != 0)
		return -1;
	if (has_devid)
		n->device_id = (uint16_t)devid;
	if (has_vendid)
		n->vendor_id = (uint32_t)vendid;
	if (tp->f->sm_port == NULL)
		tp->f->sm_port = &n->ports[type == FAB_NODE_SWITCH ? 0 : 1];
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
		return parse_list_line(tp, skip_ws(a),
				       s[0] == 'S' ? FAB_NODE_SWITCH :
				       s[0] == 'C' ? FAB_NODE_CA : FAB_NODE_ROUTER);

	/* "ibnetdiscover -p": "SW   <lid> <port> 0x<guid> ..." */
	if ((kw_is(s, n, "SW") || kw_is(s, n, "CA") || kw_is(s, n, "RT")) &&
	    isdigit((unsigned char)*skip_ws(a)))
		return parse_report_line(tp, s);

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
		if (get_uint(&a, 0, UINT64_MAX, &v) != 0 || !is_end(a))
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

	token_copy(s, tok, sizeof(tok));
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
	if (is_diag_line(s)) {
		char tok[48];

		token_copy(s, tok, sizeof(tok));
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
	if (get_uint(&p, 10, 0xffff, &v) != 0)
		return -1;
	*lid = (uint16_t)v;
	p = skip_ws(p);
	if (get_uint(&p, 10, FAB_MAX_PORTS, &v) != 0 || v == 0)
		return -1;
	*port = (uint8_t)v;
	p = skip_ws(p);
	if (strncmp(p, "0x", 2) != 0 || get_uint(&p, 16, UINT64_MAX, guid) != 0 || *guid == 0)
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
	if (grow((void **)&tp->names, &tp->names_cap, tp->names_len + len + 1, 1) != 0 ||
	    tp->names_len + len + 1 > UINT32_MAX)
		return UINT32_MAX;
	off = (uint32_t)tp->names_len;
	memcpy(tp->names + off, p + 1, len);
	tp->names[off + len] = '\0';
	tp->names_len += len + 1;
	*s = skip_ws(e + 1);
	return off;
}

static int
parse_report_line(struct tp *tp, const char *s)
{
	struct tp_pline *pl;
	struct tp_rate r;
	const char *e;
	char tok[48];

	tp->cur = NULL;
	if (grow_u32((void **)&tp->plines, &tp->plines_cap, (size_t)tp->nplines + 1,
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

		if (get_uint(&s, 10, 12, &w) == 0 && *s == 'x') {
			r.width = width_from_text((unsigned int)w);
			s = skip_ws(s + 1);
			for (e = s; isalnum((unsigned char)*e); e++)
				;
			if (!speed_from_text(s, (size_t)(e - s), &r))
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
		token_copy(s, tok, sizeof(tok));
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
	if (node_apply(tp, n, &h) != 0)
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
 * a full dump, so resolve_links() checks and cables both ends.
 */
static int
report_nodes(struct tp *tp)
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
		port_set_rate(&n->ports[pl->port], &r);
		if (pl->ptype == 0)
			continue;
		snprintf(name, sizeof(name), "%c-%016llx", type_prefix(pl->ptype),
			 (unsigned long long)pl->pguid);
		rc = tp_add_decl(tp, n, pl->port, name, pl->pport);
	}
	free(v);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Second pass: resolve and cable */

static int
resolve_links(struct tp *tp)
{
	struct fabric *f = tp->f;
	struct fab_node *a, *b;
	struct fab_port *pa, *pb;
	const struct tp_decl *d, *e;
	const char *peer;
	uint32_t i, *slot;
	int rc;

	for (i = 0; i < tp->ndecls; i++) {
		d = &tp->decls[i];
		a = f->nodes[d->node];
		pa = &a->ports[d->port];
		peer = tp->names + d->peer;
		b = fabric_find_node(f, peer);
		if (b == NULL)
			return tp_error_at(tp, d->file, d->line,
					   "\"%s\"[%u]: unknown peer node \"%s\"",
					   a->name, d->port, peer);
		if (d->rport == 0 || d->rport > b->nports)
			return tp_error_at(tp, d->file, d->line,
					   "\"%s\"[%u]: peer port \"%s\"[%u] out of range (NumPorts %u)",
					   a->name, d->port, peer, (unsigned int)d->rport, b->nports);
		pb = &b->ports[d->rport];
		if (pa == pb)
			return tp_error_at(tp, d->file, d->line,
					   "\"%s\"[%u] is cabled to itself", a->name, d->port);
		slot = tp_port_decl(tp, b, d->rport);
		if (slot != NULL && *slot != TP_NONE) {
			e = &tp->decls[*slot];
			if (e->rport != d->port || strcmp(tp->names + e->peer, a->name) != 0)
				return tp_error_at(tp, d->file, d->line,
						   "asymmetric link: \"%s\"[%u] -> \"%s\"[%u], but \"%s\"[%u] -> \"%s\"[%u] (%s:%u)",
						   a->name, d->port, b->name, (unsigned int)d->rport,
						   b->name, (unsigned int)d->rport,
						   tp->names + e->peer, (unsigned int)e->rport,
						   tp->files[e->file], (unsigned int)e->line);
			if (pa->peer == pb)
				continue;	/* cabled when its other end was read */
		}
		if (pb->peer != NULL && pb->peer != pa)
			return tp_error_at(tp, d->file, d->line,
					   "port cabled twice: \"%s\"[%u] -> \"%s\"[%u], which is already cabled to \"%s\"[%u]",
					   a->name, d->port, b->name, (unsigned int)d->rport,
					   pb->peer->node->name, pb->peer->num);
		if (pa->peer != NULL && pa->peer != pb)
			return tp_error_at(tp, d->file, d->line,
					   "port cabled twice: \"%s\"[%u] is already cabled to \"%s\"[%u]",
					   a->name, d->port, pa->peer->node->name, pa->peer->num);
		rc = fabric_connect(f, pa, pb);
		if (rc != 0)
			return tp_error_at(tp, d->file, d->line, "cannot cable \"%s\"[%u] to \"%s\"[%u]: %s",
					   a->name, d->port, b->name, (unsigned int)d->rport,
					   strerror(-rc));
	}
	return 0;
}

struct guid_slot {
	uint64_t guid;
	uint32_t node;
};

static unsigned int
guid_slot_of(uint64_t g, size_t cap)
{
	g ^= g >> 31;
	g *= 0x9e3779b97f4a7c15ull;
	g ^= g >> 29;
	return (unsigned int)(g & (cap - 1));
}

/* Insert; returns the node already holding @p g, or UINT32_MAX. */
static uint32_t
guid_insert(struct guid_slot *t, size_t cap, uint64_t g, uint32_t node)
{
	unsigned int s = guid_slot_of(g, cap);

	while (t[s].guid != 0) {
		if (t[s].guid == g && t[s].node != node)
			return t[s].node;
		if (t[s].guid == g)
			return UINT32_MAX;
		s = (s + 1) & (unsigned int)(cap - 1);
	}
	t[s].guid = g;
	t[s].node = node;
	return UINT32_MAX;
}

/* NodeGUIDs and port GUIDs must be unique in a subnet (IBA 4.1.1). */
static int
check_guids(struct tp *tp)
{
	struct fabric *f = tp->f;
	struct guid_slot *t;
	struct fab_node *n;
	size_t cap = 64, total = 0;
	unsigned int i, j, k;
	uint32_t other;
	uint64_t g;

	for (i = 0; i < f->nnodes; i++)
		total += 1u + (f->nodes[i]->type == FAB_NODE_SWITCH ? 0 : f->nodes[i]->nports);
	while (cap < total * 2)
		cap *= 2;
	t = calloc(cap, sizeof(t[0]));
	if (t == NULL)
		return tp_nomem(tp);
	for (i = 0; i < f->nnodes; i++) {
		n = f->nodes[i];
		for (j = 0; j <= (n->type == FAB_NODE_SWITCH ? 0u : n->nports); j++) {
			g = j == 0 ? n->node_guid : n->ports[j].guid;
			if (g == 0)
				continue;
			other = guid_insert(t, cap, g, i);
			if (other == UINT32_MAX)
				continue;
			free(t);
			k = n->index - tp->first_node;
			return tp_error_at(tp,
					   n->index >= tp->first_node && k < tp->ntnodes ?
					   tp->tnodes[k].file : 0, n->line,
					   "GUID 0x%016llx of \"%s\"%s is already used by \"%s\"",
					   (unsigned long long)g, n->name,
					   j == 0 ? "" : " port", f->nodes[other]->name);
		}
	}
	free(t);
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
		rc = report_nodes(tp);
	if (rc == 0)
		rc = resolve_links(tp);
	if (rc == 0)
		rc = check_guids(tp);
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
