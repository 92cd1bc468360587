/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The net-file parser's lexing layer: "file:line: what" errors and
 * warnings, growable arrays, the list of files read, and the tokens of
 * one line (numbers, quoted strings). No knowledge of statements.
 */

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fab_log.h"
#include "fabric.h"
#include "topo_lex.h"
#include "topo_state.h"

/* ------------------------------------------------------------------ */
/* Messages */

int __attribute__((format(printf, 4, 5)))
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

int
tp_nomem(struct tp *tp)
{
	return tp_error(tp, "out of memory");
}

/* ------------------------------------------------------------------ */
/* Growable arrays */

int
tp_grow(void **arr, size_t *cap, size_t need, size_t elem)
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

int
tp_grow_u32(void **arr, uint32_t *cap, size_t need, size_t elem)
{
	size_t c = *cap;
	int rc;

	if (need > UINT32_MAX - 1)
		return -ENOMEM;
	rc = tp_grow(arr, &c, need, elem);
	*cap = (uint32_t)c;
	return rc;
}

int
tp_grow_uint(void **arr, unsigned int *cap, size_t need, size_t elem)
{
	size_t c = *cap;
	int rc;

	if (need > UINT_MAX / 2)
		return -ENOMEM;
	rc = tp_grow(arr, &c, need, elem);
	*cap = (unsigned int)c;
	return rc;
}

int
tp_add_file(struct tp *tp, const char *name)
{
	char *copy;

	if (tp->nfiles >= TP_FILES_MAX)
		return tp_error(tp, "more than %u files read through include", TP_FILES_MAX);
	if (tp_grow_uint((void **)&tp->files, &tp->files_cap, tp->nfiles + 1,
		      sizeof(tp->files[0])) != 0)
		return tp_nomem(tp);
	copy = strdup(name);
	if (copy == NULL)
		return tp_nomem(tp);
	tp->files[tp->nfiles++] = copy;
	return (int)(tp->nfiles - 1);
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
int
tp_get_uint(const char **s, int base, uint64_t max, uint64_t *v)
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
		/* d > max first: max - d must not wrap (a digit 8 for max 7). */
		if ((uint64_t)d > max || x > (max - (uint64_t)d) / (uint64_t)base)
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
void
tp_token_copy(const char *s, char *out, size_t outsz)
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
int
tp_get_quoted(struct tp *tp, const char **s, char *out, size_t max, const char *what)
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

void
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
