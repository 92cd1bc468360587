/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * hca_host: the buggy-driver matrix (hh_matrix.c): one row per driver bug
 * the PRM makes visible, each run with the bug and without it.
 */

#ifndef _HH_MATRIX_H_
#define _HH_MATRIX_H_

#include "hh_host.h"

/** The rows' names, space-separated, into @p buf; returns how many there are. */
int hh_matrix_rows(char *buf, size_t len);
/**
 * Run rows @p rows[0..nrows) between host @p a (commits the bugs) and
 * host @p b, both ACTIVE with LIDs known; @p ctl is ibfabric's control
 * socket, where each run reads A's check counters (hh_ctl.h). Prints one
 * line per run and adds to @p checks / @p failures; -EINVAL for an
 * unknown row name.
 */
int hh_matrix(struct hh_host *a, struct hh_host *b, const char *ctl, int nrows, char **rows,
	      unsigned int *checks, unsigned int *failures);

#endif /* _HH_MATRIX_H_ */
