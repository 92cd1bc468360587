/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/* PLACEHOLDER: replaced by the module owner. */

#include <errno.h>

#include "fabric.h"

int pkt_build_ud(struct fab_pkt *p, const struct fab_pkt_addr *a, const void *payload, uint32_t len) { (void)p; (void)a; (void)payload; (void)len; return -ENOSYS; }
int pkt_parse(const struct fab_pkt *p, struct fab_hdrs *h) { (void)p; (void)h; return -ENOSYS; }
void pkt_update_crcs(struct fab_pkt *p) { (void)p; }
void pkt_set_lids(struct fab_pkt *p, uint16_t dlid, uint16_t slid) { (void)p; (void)dlid; (void)slid; }
