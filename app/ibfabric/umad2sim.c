/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/* PLACEHOLDER: replaced by the module owner. */

#include <errno.h>

#include "fabric.h"

int umad2sim_deliver(struct fabric *f, struct fab_port *port, const struct fab_hdrs *h, struct fab_pkt *p) { (void)f; (void)port; (void)h; (void)p; return -ENOENT; }
void umad2sim_report_drop(struct fabric *f, const struct fab_pkt *p) { (void)f; (void)p; }
