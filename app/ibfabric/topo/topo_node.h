/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Net-file parser: what topo_node.c offers the other files of the parser
 * (the nodes a parse creates: slots, port declarations, GUIDs,
 * attributes).
 */

#ifndef _IBFABRIC_TOPO_NODE_H_
#define _IBFABRIC_TOPO_NODE_H_

#include <stdbool.h>
#include <stdint.h>

#include "topo_state.h"

bool tp_guid_from_id(enum fab_node_type type, const char *id, uint64_t *guid);
int tp_add_decl(struct tp *tp, struct fab_node *n, unsigned int port, const char *peer,
		uint32_t rport);
int tp_new_node_slot(struct tp *tp, struct fab_node *n);
int tp_node_apply(struct tp *tp, struct fab_node *n, const struct tp_header *h);
int tp_set_guid(struct tp *tp, struct fab_node *n, uint64_t guid);
uint32_t * tp_port_decl(struct tp *tp, const struct fab_node *n, unsigned int port);

#endif /* _IBFABRIC_TOPO_NODE_H_ */
