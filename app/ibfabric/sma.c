/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/* PLACEHOLDER: replaced by the module owner. */

#include <errno.h>

#include "fabric.h"

enum fab_mad_result sma_process(struct fabric *f, struct fab_node *node, struct fab_port *in, uint8_t *mad) { (void)f; (void)node; (void)in; (void)mad; return FAB_MAD_IGNORE; }
void sma_init_node(struct fab_node *n) { (void)n; }
void sma_init_port(struct fab_port *p) { (void)p; }
