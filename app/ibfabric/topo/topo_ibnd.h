/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Net-file parser: what topo_ibnd.c offers topo_parse.c (the forms
 * only ibnetdiscover and the diags print).
 */

#ifndef _IBFABRIC_TOPO_IBND_H_
#define _IBFABRIC_TOPO_IBND_H_

#include <stdbool.h>

#include "topo_state.h"

bool tp_is_diag_line(const char *s);
int tp_parse_list_line(struct tp *tp, const char *s, enum fab_node_type type);
int tp_parse_report_line(struct tp *tp, const char *s);
int tp_report_nodes(struct tp *tp);

#endif /* _IBFABRIC_TOPO_IBND_H_ */
