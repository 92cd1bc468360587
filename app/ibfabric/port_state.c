/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/* PLACEHOLDER: replaced by the module owner. */

#include <errno.h>

#include "fabric.h"

void port_state_link_update(struct fabric *f, struct fab_port *p) { (void)f; (void)p; }
void port_state_admin(struct fabric *f, struct fab_port *p, bool up) { (void)f; (void)p; (void)up; }
int port_state_set_logical(struct fabric *f, struct fab_port *p, uint8_t new_state) { (void)f; (void)p; (void)new_state; return -ENOSYS; }
void port_state_send_trap(struct fabric *f, struct fab_port *p, uint16_t trap_num, const uint8_t *details, size_t details_len) { (void)f; (void)p; (void)trap_num; (void)details; (void)details_len; }
void port_state_cap_mask_changed(struct fabric *f, struct fab_port *p) { (void)f; (void)p; }
