/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * Physical and logical port state machine and the traps it sends
 * (port_state.c).
 */

#ifndef _IBFABRIC_PORT_STATE_H_
#define _IBFABRIC_PORT_STATE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fab_port;
struct fabric;

/* ------------------------------------------------------------------ */
/* port_state.c */

/**
 * Re-evaluate physical state of @p p and its peer after cabling, a
 * console link down/up or a PortInfo Set of PortPhysicalState. LinkUp
 * needs both ends cabled and admin up; logical state falls to Down when
 * the link goes, and rises to Init when it comes up (IBA 7.2).
 * Generates trap 128 from the switch, when its SM is known.
 */
void port_state_link_update(struct fabric *f, struct fab_port *p);
/** Console link down/up of the cable at @p p. */
void port_state_admin(struct fabric *f, struct fab_port *p, bool up);
/**
 * Apply a PortInfo Set of PortState (IBA 14.2.5.6 table 155, C14-?):
 * returns 0, or -EINVAL for an invalid transition (the SMA then answers
 * with status "invalid value in attribute").
 */
int port_state_set_logical(struct fabric *f, struct fab_port *p, uint8_t new_state);
/** Send trap @p trap_num (Notice attribute) from @p p to its MasterSMLID. */
void port_state_send_trap(struct fabric *f, struct fab_port *p, uint16_t trap_num,
			  const uint8_t *details, size_t details_len);
/**
 * PortInfo CapabilityMask of CA port @p p changed (umad2sim.c: SET_ISSM
 * toggles IsSM): send trap 144 (IBA 14.2.5.1 table 146) with the new mask
 * to the port's MasterSMLID. Nothing is sent while MasterSMLID or the
 * port's LID is 0.
 */
void port_state_cap_mask_changed(struct fabric *f, struct fab_port *p);

#endif /* _IBFABRIC_PORT_STATE_H_ */
