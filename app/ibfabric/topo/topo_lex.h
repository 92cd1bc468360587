/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Net-file parser: what topo_lex.c offers the other files of the parser
 * (messages, growable arrays, the file list, tokens of one line), and
 * the small lexing helpers they share.
 */

#ifndef _IBFABRIC_TOPO_LEX_H_
#define _IBFABRIC_TOPO_LEX_H_

#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "topo_state.h"

/* ------------------------------------------------------------------ */
/* Lexing helpers on one NUL-terminated line */

static inline const char *
skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static inline bool
is_end(const char *s)
{
	s = skip_ws(s);
	return *s == '\0' || *s == '#';
}

static inline bool
word_is(const char *s, const char *w)
{
	size_t n = strlen(w);

	return strncmp(s, w, n) == 0 &&
	       (s[n] == '\0' || s[n] == ' ' || s[n] == '\t');
}

/* Length of the keyword at @p s (letters, digits, '_'). */
static inline size_t
keyword_len(const char *s)
{
	size_t n = 0;

	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	return n;
}

static inline bool
kw_is(const char *s, size_t n, const char *kw)
{
	return strlen(kw) == n && strncmp(s, kw, n) == 0;
}

/* ------------------------------------------------------------------ */
/* topo_lex.c */

#define tp_error(tp, ...) tp_error_at((tp), (tp)->file, (tp)->line, __VA_ARGS__)

int tp_add_file(struct tp *tp, const char *name);
int tp_error_at(struct tp *tp, unsigned int file, uint32_t line, const char *fmt,
		...) __attribute__((format(printf, 4, 5)));
int tp_get_quoted(struct tp *tp, const char **s, char *out, size_t max, const char *what);
int tp_get_uint(const char **s, int base, uint64_t max, uint64_t *v);
int tp_grow(void **arr, size_t *cap, size_t need, size_t elem);
int tp_grow_u32(void **arr, uint32_t *cap, size_t need, size_t elem);
int tp_grow_uint(void **arr, unsigned int *cap, size_t need, size_t elem);
int tp_nomem(struct tp *tp);
void tp_token_copy(const char *s, char *out, size_t outsz);
void tp_warn(struct tp *tp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* _IBFABRIC_TOPO_LEX_H_ */
