/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Hand-built ibfabric nodes for the firmware-agent unit tests (sma.c,
 * pma.c, port_state.c), which link those files alone, without fabric.c:
 * the identity fields fabric_add_node() would set, then the SMA's
 * defaults.
 */

#ifndef _TEST_SMA_FIXTURE_H_
#define _TEST_SMA_FIXTURE_H_

#include <stdio.h>
#include <string.h>

#include "fab_node.h"
#include "fw_agents.h"

/*
 * Build @p n with @p nports ports in @p ports (nports + 1 entries; [0]
 * is a switch's management port). @p name and @p guid may be NULL / 0
 * (left zero). A switch gets @p sw, and @p mft as its multicast table
 * (NULL: none), which is filled with garbage first so that tests see
 * sma_init_node() clear it.
 */
static inline void
fixture_node_build(struct fab_node *n, enum fab_node_type type, const char *name,
		   struct fab_port *ports, unsigned int nports, uint64_t guid,
		   struct fab_switch *sw, uint16_t (*mft)[16], size_t mft_size)
{
	unsigned int i;

	memset(n, 0, sizeof(*n));
	memset(ports, 0, (nports + 1) * sizeof(ports[0]));
	n->type = type;
	if (name != NULL) {
		snprintf(n->name, sizeof(n->name), "%s", name);
		snprintf(n->desc, sizeof(n->desc), "%s", name);
	}
	n->nports = (uint8_t)nports;
	n->ports = ports;
	n->node_guid = guid;
	n->sys_guid = guid;
	for (i = 0; i <= nports; i++) {
		ports[i].node = n;
		ports[i].num = (uint8_t)i;
		if (guid != 0)
			ports[i].guid = type == FAB_NODE_SWITCH ? guid : guid + i;
	}
	if (type == FAB_NODE_SWITCH) {
		memset(sw, 0, sizeof(*sw));
		if (mft != NULL) {
			memset(mft, 0x5a, mft_size);	/* init must clear it */
			sw->mft = mft;
		}
		n->sw = sw;
	}
	sma_init_node(n);
	for (i = type == FAB_NODE_SWITCH ? 0 : 1; i <= nports; i++)
		sma_init_port(&ports[i]);
}

#endif /* _TEST_SMA_FIXTURE_H_ */
