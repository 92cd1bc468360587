/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Port state machine and traps (IBA vol. 1 7.2, 14.2.5.6 table 155,
 * 14.2.5.1, 13.4.8.2).
 *
 * Physical state: a port is LinkUp when it is cabled and both ends are
 * administratively up; else Disabled (this end disabled) or Polling
 * (waiting for a peer). Training is instantaneous: there is no time in
 * the model between Polling and LinkUp.
 *
 * Logical state: the link coming up puts both ends in Init; only an SM's
 * PortInfo Set moves Init -> Armed -> Active; the link going down (cable
 * pulled, an end disabled) puts both ends in Down and counts LinkDowned;
 * an SM's PortState Down retrains the link at once, back to Init, without
 * counting. A switch whose external port
 * changed state through the link (not through a Set) raises SwitchInfo
 * PortStateChange and sends trap 128 from port 0 to its MasterSMLID.
 *
 * Switch port 0 (base, not enhanced) has no link: it is LinkUp/Active
 * from power-on (sma_init_port) and only follows Sets.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "fab_node.h"
#include "fab_route.h"
#include "fabric.h"
#include "mad.h"
#include "port_state.h"

#define PS_TRAP_LINK_STATE	128	/* 14.2.5.1 table 146 */
#define PS_TRAP_CAP_MASK	144
#define PS_LINK_DOWNED_MAX	0xff	/* PortCounters LinkDownedCounter is 8 bits */

/* Trap 144 DataDetails (13.4.8.2 table 127, offsets within DataDetails) */
#define PS_T144_LID		2
#define PS_T144_CAP_MASK	6
#define PS_T144_CAP_MASK2	12
#define PS_T144_SIZE		14

/* TransactionIDs of firmware traps: one sequence for the whole process. */
static uint64_t ps_trap_tid = 0x0000feed00000000ull;

static bool
ps_is_switch(const struct fab_port *p)
{
	return p->node != NULL && p->node->type == FAB_NODE_SWITCH;
}

/* The port whose agent speaks for @p p: a switch's port 0, else @p p. */
static struct fab_port *
ps_agent_port(struct fab_port *p)
{
	return ps_is_switch(p) ? &p->node->ports[0] : p;
}

static uint8_t
ps_phys_target(const struct fab_port *p)
{
	if (!p->admin_up)
		return FAB_PHYS_DISABLED;
	if (p->peer != NULL && p->peer->admin_up)
		return FAB_PHYS_LINKUP;
	return FAB_PHYS_POLLING;
}

/*
 * LinkWidthActive / LinkSpeedActive of a link that trained: the widest
 * and fastest both ends have enabled (PortInfo LinkWidthEnabled /
 * LinkSpeedEnabled, 14.2.5.6). Every port can run 1x at 2.5 Gb/s (IBA
 * vol. 2 physical layer), so training falls back to that when the
 * enabled sets share nothing.
 */
static uint8_t
ps_best_width(uint8_t common)
{
	/* LinkWidth bits (14.2.5.6): 1 = 1x, 2 = 4x, 4 = 8x, 8 = 12x, 16 = 2x */
	static const uint8_t order[] = { 8, 4, 2, 16, 1 };
	unsigned int i;

	for (i = 0; i < sizeof(order); i++)
		if (common & order[i])
			return order[i];
	return 1;
}

static uint8_t
ps_best_speed(uint8_t common)
{
	/* LinkSpeed bits (14.2.5.6): 1 = 2.5, 2 = 5.0, 4 = 10.0 Gb/s */
	if (common & 4)
		return 4;
	if (common & 2)
		return 2;
	return 1;
}

/* The highest bit of @p common, 0 if none: extended speeds rank by bit. */
static uint8_t
ps_best_bit(uint8_t common)
{
	uint8_t b = 0x80;

	while (b != 0 && (common & b) == 0)
		b >>= 1;
	return b;
}

/*
 * Link training picks the fastest rate both ends enable: an XDR
 * (LinkSpeedExt2) match beats an extended speed (NDR > HDR > EDR > FDR),
 * which beats FDR10 (MlnxExtPortInfo), which runs at QDR signalling
 * (LinkSpeedActive 10.0 Gb/s) as on ConnectX-3/SwitchX. Without a
 * match in the extended sets, LinkSpeedActive alone gives the rate.
 */
static void
ps_train(struct fab_port *p)
{
	const struct fab_port *q = p->peer;

	p->link_width_active = ps_best_width(p->link_width_enabled &
					     q->link_width_enabled);
	p->link_speed_active = ps_best_speed(p->link_speed_enabled &
					     q->link_speed_enabled);
	p->link_speed_ext2_active = ps_best_bit(p->link_speed_ext2_enabled &
						q->link_speed_ext2_enabled);
	p->link_speed_ext_active = ps_best_bit(p->link_speed_ext_enabled &
					       q->link_speed_ext_enabled);
	p->mlnx_speed_active = p->link_speed_ext_active == 0 &&
			       p->link_speed_ext2_active == 0 ?
			       ps_best_bit(p->mlnx_speed_enabled & q->mlnx_speed_enabled) : 0;
}

/*
 * Bring @p p's physical and logical state in line with its cable.
 * Returns true if the logical state changed (a link event).
 */
static bool
ps_eval(struct fab_port *p)
{
	uint8_t phys = ps_phys_target(p);
	bool was_up = p->phys_state == FAB_PHYS_LINKUP;
	bool changed = false;

	if (was_up && phys != FAB_PHYS_LINKUP) {
		/* 7.2: LinkDown takes the logical state to Down. */
		if (p->cnt.link_downed < PS_LINK_DOWNED_MAX)
			p->cnt.link_downed++;
		changed = p->state != FAB_PORT_DOWN;
		p->state = FAB_PORT_DOWN;
	} else if (!was_up && phys == FAB_PHYS_LINKUP) {
		/* 7.2: LinkUp takes Down to Init; the SM does the rest. */
		ps_train(p);
		changed = p->state != FAB_PORT_INIT;
		p->state = FAB_PORT_INIT;
	}
	p->phys_state = phys;
	return changed;
}

/* PortStateChange and trap 128 for a switch port @p p whose state moved. */
static void
ps_switch_port_changed(struct fabric *f, struct fab_port *p)
{
	struct fab_port *p0;
	uint8_t details[2];

	if (!ps_is_switch(p) || p->node->sw == NULL)
		return;
	p->node->sw->port_state_change = true;
	p0 = &p->node->ports[0];
	/* DataDetails: LIDADDR, the switch's LID (13.4.8.2 table 127). */
	mad_set16(details, 0, p0->lid);
	port_state_send_trap(f, p0, PS_TRAP_LINK_STATE, details, sizeof(details));
}

static void
ps_update(struct fabric *f, struct fab_port *p, bool notify_local)
{
	struct fab_port *peer;
	bool a, b = false;

	if (p == NULL || (ps_is_switch(p) && p->num == 0))
		return;
	peer = p->peer;
	a = ps_eval(p);
	if (peer != NULL)
		b = ps_eval(peer);
	if (a && notify_local)
		ps_switch_port_changed(f, p);
	/* A loopback cable on one switch raises one trap, not two. */
	if (b && !(a && notify_local && peer->node == p->node))
		ps_switch_port_changed(f, peer);
}

void
port_state_link_update(struct fabric *f, struct fab_port *p)
{
	ps_update(f, p, true);
}

void
port_state_admin(struct fabric *f, struct fab_port *p, bool up)
{
	if (p == NULL || (ps_is_switch(p) && p->num == 0))
		return;
	p->admin_up = up;
	port_state_link_update(f, p);
}

int
port_state_set_logical(struct fabric *f, struct fab_port *p, uint8_t new_state)
{
	bool sp0;

	if (p == NULL)
		return -EINVAL;
	sp0 = ps_is_switch(p) && p->num == 0;
	switch (new_state) {
	case FAB_PORT_NOP:
		return 0;
	case FAB_PORT_DOWN:
		/*
		 * Table 155: Down is valid in any state. The link retrains
		 * at once (still cabled, still enabled), so both ends come
		 * back in Init, as ibsim does. Base port 0 has no link.
		 */
		if (sp0 || p->phys_state != FAB_PHYS_LINKUP)
			return 0;
		/*
		 * No LinkDowned count: that counter is for links the error
		 * recovery gave up on (16.1.3.5); an SM's Down is not one,
		 * and OpenSM sends it to every CA port it gives a new LID.
		 */
		p->phys_state = FAB_PHYS_POLLING;
		p->state = FAB_PORT_DOWN;
		if (p->peer != NULL && p->peer->phys_state == FAB_PHYS_LINKUP) {
			p->peer->phys_state = FAB_PHYS_POLLING;
			p->peer->state = FAB_PORT_DOWN;
		}
		/*
		 * 14.2.5.4: PortStateChange is not set by changes a SubnSet
		 * makes; the peer's change is the link's doing.
		 */
		ps_update(f, p, false);
		return 0;
	case FAB_PORT_ARMED:
		/* Table 155: Armed from Init (or Armed: no change). */
		if (p->state == FAB_PORT_INIT || p->state == FAB_PORT_ARMED) {
			p->state = FAB_PORT_ARMED;
			return 0;
		}
		return -EINVAL;
	case FAB_PORT_ACTIVE:
		/* Table 155: Active from Armed (or Active: no change). */
		if (p->state == FAB_PORT_ARMED || p->state == FAB_PORT_ACTIVE) {
			p->state = FAB_PORT_ACTIVE;
			return 0;
		}
		return -EINVAL;
	default:
		/* Init is entered only by the link; 5..15 are reserved. */
		return -EINVAL;
	}
}

static uint8_t
ps_trap_type(uint16_t trap_num)
{
	/* 14.2.5.1 table 146 / 13.4.8.2: generic trap types by number. */
	if (trap_num >= 256)
		return NTC_TYPE_SECURITY;
	if (trap_num >= 128 && trap_num <= 131)
		return NTC_TYPE_URGENT;
	if (trap_num < 128)
		return NTC_TYPE_SM;
	return NTC_TYPE_INFO;
}

static uint8_t
ps_producer(const struct fab_port *p)
{
	if (p->node == NULL)
		return NTC_PROD_CA;
	switch (p->node->type) {
	case FAB_NODE_SWITCH:
		return NTC_PROD_SWITCH;
	case FAB_NODE_ROUTER:
		return NTC_PROD_ROUTER;
	default:
		return NTC_PROD_CA;
	}
}

void
port_state_send_trap(struct fabric *f, struct fab_port *p, uint16_t trap_num,
		     const uint8_t *details, size_t details_len)
{
	struct fab_mad_addr a;
	struct fab_port *ap;
	uint8_t mad[MAD_SIZE];
	uint8_t *d = mad + MAD_SMP_DATA;

	if (p == NULL)
		return;
	ap = ps_agent_port(p);
	/* No SM known, or no LID to send from: nobody to tell (ibsim agrees). */
	if (ap->sm_lid == 0 || ap->lid == 0)
		return;
	if (details_len > NTC_DETAILS_SIZE)
		details_len = NTC_DETAILS_SIZE;

	/* LID-routed SubnTrap(Notice), 14.2.1.1 and 13.4.8.2 table 122. */
	memset(mad, 0, sizeof(mad));
	mad[MAD_BASE_VERSION] = MAD_BASE_VERSION_1;
	mad[MAD_MGMT_CLASS] = MAD_CLASS_SMI;
	mad[MAD_CLASS_VERSION] = MAD_SMP_CLASS_VERSION;
	mad[MAD_METHOD] = MAD_METHOD_TRAP;
	mad_set64(mad, MAD_TID, ++ps_trap_tid);
	mad_set16(mad, MAD_ATTR_ID, SMP_ATTR_NOTICE);
	/* Traps carry the sending port's M_Key (14.2.4). */
	mad_set64(mad, MAD_SMP_MKEY, ap->mkey);
	mad_set8(d, NTC_B0, NTC_IS_GENERIC | ps_trap_type(trap_num));
	mad_set24(d, NTC_PRODUCER, ps_producer(ap));
	mad_set16(d, NTC_TRAP_NUM, trap_num);
	mad_set16(d, NTC_ISSUER_LID, ap->lid);
	/* NoticeToggle/NoticeCount: 0, traps are not queued (13.4.8.2). */
	if (details != NULL && details_len != 0)
		memcpy(d + NTC_DETAILS, details, details_len);

	memset(&a, 0, sizeof(a));
	a.dlid = ap->sm_lid;
	a.slid = 0;		/* the port's own LID */
	a.dqp = 0;
	a.sqp = 0;
	a.sl = ap->sm_sl;
	a.pkey_index = 0;
	fab_node_send_mad(f, ap, &a, mad, MAD_SIZE, -1, 0);
}

void
port_state_cap_mask_changed(struct fabric *f, struct fab_port *p)
{
	uint8_t details[PS_T144_SIZE];

	if (p == NULL)
		return;
	/* Trap 144 DataDetails: LIDADDR, CapabilityMask, CapabilityMask2. */
	memset(details, 0, sizeof(details));
	mad_set16(details, PS_T144_LID, p->lid);
	mad_set32(details, PS_T144_CAP_MASK, p->cap_mask);
	mad_set16(details, PS_T144_CAP_MASK2, p->cap_mask2);
	port_state_send_trap(f, p, PS_TRAP_CAP_MASK, details, sizeof(details));
}
