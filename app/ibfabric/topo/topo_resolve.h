/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Net-file parser: what topo_resolve.c offers topo_parse.c (the second
 * pass, cables and unique GUIDs).
 */

#ifndef _IBFABRIC_TOPO_RESOLVE_H_
#define _IBFABRIC_TOPO_RESOLVE_H_

#include "topo_state.h"

int tp_check_guids(struct tp *tp);
int tp_resolve_links(struct tp *tp);

#endif /* _IBFABRIC_TOPO_RESOLVE_H_ */
