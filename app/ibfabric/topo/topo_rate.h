/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Net-file parser: what topo_rate.c offers the other files of the parser
 * (link widths and speeds, as ibsim and ibnetdiscover write them).
 */

#ifndef _IBFABRIC_TOPO_RATE_H_
#define _IBFABRIC_TOPO_RATE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "topo_state.h"

bool tp_speed_from_text(const char *s, size_t len, struct tp_rate *r);
uint8_t tp_width_from_text(unsigned int w);
void tp_comment_link_rate(const char *c, struct tp_rate *r);
void tp_port_set_ext(struct fab_port *p, uint8_t ext);
void tp_port_set_rate(struct fab_port *p, const struct tp_rate *r);
void tp_port_set_speed(struct fab_port *p, uint8_t s);
void tp_port_set_width(struct fab_port *p, uint8_t w);

#endif /* _IBFABRIC_TOPO_RATE_H_ */
