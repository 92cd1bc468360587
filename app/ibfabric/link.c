/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/* PLACEHOLDER: replaced by the module owner. */

#include <errno.h>

#include "fabric.h"

struct fab_pkt *fab_pkt_alloc(struct fabric *f) { (void)f; return NULL; }
void fab_pkt_free(struct fabric *f, struct fab_pkt *p) { (void)f; (void)p; }
void fab_port_xmit(struct fabric *f, struct fab_port *out, struct fab_pkt *p) { (void)f; (void)out; (void)p; }
unsigned int fabric_run(struct fabric *f, unsigned int budget) { (void)f; (void)budget; return 0; }
bool fabric_busy(const struct fabric *f) { (void)f; return false; }
int fab_link_set_faults(struct fab_port *p, uint32_t drop_ppm, uint32_t corrupt_ppm) { (void)p; (void)drop_ppm; (void)corrupt_ppm; return -ENOSYS; }
int fab_capture_start(struct fabric *f, struct fab_port *port, const char *path) { (void)f; (void)port; (void)path; return -ENOSYS; }
void fab_capture_stop(struct fabric *f, struct fab_port *port) { (void)f; (void)port; }
void fab_pkt_drop(struct fabric *f, struct fab_pkt *p, const char *why) { (void)f; (void)p; (void)why; }
