/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * P_Key matching (IBA 10.9.3), for every part of ibfabric that checks a
 * packet's P_Key: the fabric's own QP1 (node_io.c) and the MT25208
 * model's receive path.
 */

#ifndef _IBFABRIC_FAB_PKEY_H_
#define _IBFABRIC_FAB_PKEY_H_

#include <stdbool.h>
#include <stdint.h>

#include "fab_node.h"

#define FAB_PKEY_FULL	0x8000	/**< membership bit: full member */

/**
 * IBA 10.9.3: two P_Keys match when their low 15 bits are equal and not
 * zero, and at least one of them is a full member.
 */
static inline bool
fab_pkey_match(uint16_t a, uint16_t b)
{
	if ((a & 0x7fff) == 0 || (a & 0x7fff) != (b & 0x7fff))
		return false;
	return ((a | b) & FAB_PKEY_FULL) != 0;
}

/** Index of the first entry of @p port's P_Key table matching @p pkey, or -1. */
static inline int
fab_pkey_index(const struct fab_port *port, uint16_t pkey)
{
	unsigned int i;

	for (i = 0; i < FAB_PKEY_TABLE_SIZE; i++)
		if (fab_pkey_match(port->pkeys[i], pkey))
			return (int)i;
	return -1;
}

#endif /* _IBFABRIC_FAB_PKEY_H_ */
