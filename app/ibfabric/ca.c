/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/* PLACEHOLDER: replaced by the module owner. */

#include <errno.h>

#include "fabric.h"

void fab_port_recv(struct fabric *f, struct fab_port *in, struct fab_pkt *p) { (void)f; (void)in; (void)p; }
void fab_node_send_mad(struct fabric *f, struct fab_port *port, const struct fab_mad_addr *a, const uint8_t *mad, uint32_t mad_len, int origin, uint32_t origin_gen) { (void)f; (void)port; (void)a; (void)mad; (void)mad_len; (void)origin; (void)origin_gen; }
