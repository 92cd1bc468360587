/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * Firmware agents of every node (sma.c, pma.c): they answer SMPs and
 * PerfMgt MADs in place on a 256-byte MAD.
 */

#ifndef _IBFABRIC_FW_AGENTS_H_
#define _IBFABRIC_FW_AGENTS_H_

#include <stdint.h>

struct fab_node;
struct fab_port;
struct fabric;

/* ------------------------------------------------------------------ */
/* sma.c / pma.c: firmware agents. They work in place on a 256-byte MAD. */

enum fab_mad_result {
	FAB_MAD_IGNORE = 0,		/**< not ours, or no reply (e.g. a response) */
	FAB_MAD_REPLY,			/**< @c mad now holds the response */
	FAB_MAD_CONSUMED,		/**< handled, no reply (TrapRepress) */
};

/**
 * Firmware SMA of @p node for an SMP (class 0x01 or 0x81) that arrived on
 * @p in (port 0 for a switch's own SMA). Turns the request into its
 * GetResp with the status IBA 13.4.7 / 14.2.5 require.
 */
enum fab_mad_result sma_process(struct fabric *f, struct fab_node *node,
				struct fab_port *in, uint8_t *mad);
/** Firmware PMA (class 0x04) of @p node, request arrived on @p in. */
enum fab_mad_result pma_process(struct fabric *f, struct fab_node *node,
				struct fab_port *in, uint8_t *mad);
/** Default SMA state for a new node/port (fabric.c calls these). */
void sma_init_node(struct fab_node *n);
void sma_init_port(struct fab_port *p);

#endif /* _IBFABRIC_FW_AGENTS_H_ */
