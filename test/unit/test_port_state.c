/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Unit tests of ibfabric's port state machine (app/ibfabric/fabric/port_state.c):
 * physical LinkUp rules, the logical transitions a PortInfo Set may make
 * (IBA vol. 1 14.2.5.6 table 155, 7.2), link-down side effects, and the
 * bytes of traps 128 and 144 (14.2.5.1 table 146, Notice 13.4.8.2 table
 * 122), captured by a stub of fab_node_send_mad(). Expected trap bytes
 * are written out field by field from those tables.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "fab_node.h"
#include "fab_route.h"
#include "fabric.h"
#include "ib_proto.h"
#include "mad.h"
#include "port_state.h"
#include "sma_fixture.h"
#include "test.h"

#define SW_PORTS 4
#define MAX_SENT 8

static struct fabric fab;
static struct fab_node ca, sw;
static struct fab_port ca_ports[2], sw_ports[SW_PORTS + 1];
static struct fab_switch sw_state;

struct sent_mad {
	struct fab_port *port;
	struct fab_mad_addr addr;
	uint8_t mad[IB_MAD_SIZE];
	uint32_t len;
	int origin;
};

static struct sent_mad sent[MAX_SENT];
static unsigned int nsent;

void
fab_node_send_mad(struct fabric *f, struct fab_port *port,
		  const struct fab_mad_addr *a, const uint8_t *mad,
		  uint32_t mad_len, int origin, uint32_t origin_gen)
{
	struct sent_mad *s;

	(void)f;
	(void)origin_gen;
	if (nsent < MAX_SENT) {
		s = &sent[nsent];
		s->port = port;
		s->addr = *a;
		s->len = mad_len;
		s->origin = origin;
		memcpy(s->mad, mad, mad_len < IB_MAD_SIZE ? mad_len : IB_MAD_SIZE);
	}
	nsent++;
}

/* CA port 1 cabled to switch port 1; no SM known yet. */
static int
fixture_setup(void)
{
	memset(&fab, 0, sizeof(fab));
	fixture_node_build(&ca, FAB_NODE_CA, NULL, ca_ports, 1, 0, NULL, NULL, 0);
	fixture_node_build(&sw, FAB_NODE_SWITCH, NULL, sw_ports, SW_PORTS, 0, &sw_state, NULL, 0);
	ca_ports[1].peer = &sw_ports[1];
	sw_ports[1].peer = &ca_ports[1];
	port_state_link_update(&fab, &ca_ports[1]);
	nsent = 0;
	memset(sent, 0, sizeof(sent));
	return TEST_SUCCESS;
}

/* Give the switch a LID and an SM so that it sends traps. */
static void
switch_has_sm(void)
{
	sw_ports[0].lid = 0x0007;
	sw_ports[0].sm_lid = 0x0003;
	sw_ports[0].mkey = 0x1122334455667788ull;
}

static int
test_link_up_at_cable(void)
{
	TEST_ASSERT_EQUAL(ca_ports[1].phys_state, FAB_PHYS_LINKUP, "CA LinkUp");
	TEST_ASSERT_EQUAL(sw_ports[1].phys_state, FAB_PHYS_LINKUP, "switch LinkUp");
	TEST_ASSERT_EQUAL(ca_ports[1].state, FAB_PORT_INIT, "CA Init");
	TEST_ASSERT_EQUAL(sw_ports[1].state, FAB_PORT_INIT, "switch Init");
	TEST_ASSERT(sw_state.port_state_change, "PortStateChange on link up");
	TEST_ASSERT_EQUAL(nsent, 0, "no trap while MasterSMLID is 0");
	TEST_ASSERT_EQUAL(sw_ports[2].phys_state, FAB_PHYS_POLLING, "no cable: Polling");
	TEST_ASSERT_EQUAL(sw_ports[2].state, FAB_PORT_DOWN, "no cable: Down");
	TEST_ASSERT_EQUAL(sw_ports[0].state, FAB_PORT_ACTIVE, "port 0 Active");
	TEST_ASSERT_EQUAL(ca_ports[1].cnt.link_downed, 0, "no LinkDowned yet");
	return TEST_SUCCESS;
}

/* Table 155: PortState values a Set may write, from each state. */
struct ps_row {
	uint8_t from;		/* FAB_PORT_DOWN rows have the link disabled */
	uint8_t to;
	int ret;
	uint8_t after;
};

static const struct ps_row ps_rows[] = {
	{ FAB_PORT_INIT, FAB_PORT_NOP, 0, FAB_PORT_INIT },
	{ FAB_PORT_INIT, FAB_PORT_ARMED, 0, FAB_PORT_ARMED },
	{ FAB_PORT_INIT, FAB_PORT_ACTIVE, -EINVAL, FAB_PORT_INIT },
	{ FAB_PORT_INIT, FAB_PORT_INIT, -EINVAL, FAB_PORT_INIT },
	{ FAB_PORT_INIT, 5, -EINVAL, FAB_PORT_INIT },
	{ FAB_PORT_INIT, 15, -EINVAL, FAB_PORT_INIT },
	{ FAB_PORT_ARMED, FAB_PORT_ARMED, 0, FAB_PORT_ARMED },
	{ FAB_PORT_ARMED, FAB_PORT_ACTIVE, 0, FAB_PORT_ACTIVE },
	{ FAB_PORT_ARMED, FAB_PORT_INIT, -EINVAL, FAB_PORT_ARMED },
	{ FAB_PORT_ARMED, FAB_PORT_DOWN, 0, FAB_PORT_INIT },	/* retrains */
	{ FAB_PORT_ACTIVE, FAB_PORT_ACTIVE, 0, FAB_PORT_ACTIVE },
	{ FAB_PORT_ACTIVE, FAB_PORT_ARMED, -EINVAL, FAB_PORT_ACTIVE },
	{ FAB_PORT_ACTIVE, FAB_PORT_NOP, 0, FAB_PORT_ACTIVE },
	{ FAB_PORT_ACTIVE, FAB_PORT_DOWN, 0, FAB_PORT_INIT },	/* retrains */
	{ FAB_PORT_DOWN, FAB_PORT_DOWN, 0, FAB_PORT_DOWN },
	{ FAB_PORT_DOWN, FAB_PORT_ARMED, -EINVAL, FAB_PORT_DOWN },
	{ FAB_PORT_DOWN, FAB_PORT_ACTIVE, -EINVAL, FAB_PORT_DOWN },
};

static int
test_logical_transitions(void)
{
	struct fab_port *p = &ca_ports[1];
	unsigned int i;
	int ret;

	for (i = 0; i < sizeof(ps_rows) / sizeof(ps_rows[0]); i++) {
		const struct ps_row *r = &ps_rows[i];

		fixture_setup();
		if (r->from == FAB_PORT_DOWN)
			port_state_admin(&fab, p, false);
		else
			p->state = r->from;
		ret = port_state_set_logical(&fab, p, r->to);
		TEST_ASSERT_EQUAL(ret, r->ret, "row %u: %u -> %u", i, r->from, r->to);
		TEST_ASSERT_EQUAL(p->state, r->after, "row %u: state after", i);
		if (r->to == FAB_PORT_DOWN && r->from != FAB_PORT_DOWN) {
			/* An SM's Down is not a link failure: no LinkDowned. */
			TEST_ASSERT_EQUAL(p->cnt.link_downed, 0, "row %u: LinkDowned", i);
			TEST_ASSERT_EQUAL(sw_ports[1].cnt.link_downed, 0,
					  "row %u: peer LinkDowned", i);
			TEST_ASSERT_EQUAL(sw_ports[1].state, FAB_PORT_INIT,
					  "row %u: peer back in Init", i);
			TEST_ASSERT_EQUAL(p->phys_state, FAB_PHYS_LINKUP,
					  "row %u: link retrained", i);
		}
	}
	/* Base switch port 0: Sets move it, Down is a no-op (no link). */
	fixture_setup();
	TEST_ASSERT_EQUAL(port_state_set_logical(&fab, &sw_ports[0], FAB_PORT_DOWN), 0,
			  "port 0 Down");
	TEST_ASSERT_EQUAL(sw_ports[0].state, FAB_PORT_ACTIVE, "port 0 stays Active");
	TEST_ASSERT_EQUAL(port_state_set_logical(NULL, NULL, FAB_PORT_ARMED), -EINVAL,
			  "NULL port");
	return TEST_SUCCESS;
}

static int
test_admin_down_up_trap128(void)
{
	/*
	 * Trap 128 (14.2.5.1 table 146), a LID-routed SubnTrap(Notice):
	 * header: BaseVersion 1, MgmtClass 0x01, ClassVersion 1, Method
	 * 0x05 (Trap), Status 0, TID (checked apart), AttributeID 0x0002
	 * (Notice), modifier 0, M_Key = the switch's M_Key.
	 * Notice (13.4.8.2 table 122): IsGeneric 1 | Type 1 (Urgent) =
	 * 0x81, ProducerType 2 (Switch) in 24 bits, TrapNumber 128 (0x0080),
	 * IssuerLID 0x0007, NoticeToggle/Count 0, DataDetails: LIDADDR
	 * 0x0007 (table 127), rest 0.
	 */
	static const uint8_t hdr[8] = { 0x01, 0x01, 0x01, 0x05, 0, 0, 0, 0 };
	static const uint8_t hdr2[16] = {
		0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
	};
	static const uint8_t notice[64] = {
		0x81, 0x00, 0x00, 0x02, 0x00, 0x80, 0x00, 0x07,
		0x00, 0x00, 0x00, 0x07,
	};
	uint64_t tid1;

	switch_has_sm();
	sw_state.port_state_change = false;
	port_state_admin(&fab, &ca_ports[1], false);
	TEST_ASSERT_EQUAL(ca_ports[1].phys_state, FAB_PHYS_DISABLED, "CA Disabled");
	TEST_ASSERT_EQUAL(sw_ports[1].phys_state, FAB_PHYS_POLLING, "switch Polling");
	TEST_ASSERT_EQUAL(ca_ports[1].state, FAB_PORT_DOWN, "CA Down");
	TEST_ASSERT_EQUAL(sw_ports[1].state, FAB_PORT_DOWN, "switch Down");
	TEST_ASSERT_EQUAL(ca_ports[1].cnt.link_downed, 1, "CA LinkDowned");
	TEST_ASSERT_EQUAL(sw_ports[1].cnt.link_downed, 1, "switch LinkDowned");
	TEST_ASSERT(sw_state.port_state_change, "PortStateChange");
	TEST_ASSERT_EQUAL(nsent, 1, "one trap");
	TEST_ASSERT(sent[0].port == &sw_ports[0], "sent from switch port 0");
	TEST_ASSERT_EQUAL(sent[0].len, 256, "256-byte MAD");
	TEST_ASSERT_EQUAL(sent[0].origin, -1, "firmware origin");
	TEST_ASSERT_EQUAL(sent[0].addr.dlid, 3, "to MasterSMLID");
	TEST_ASSERT_EQUAL(sent[0].addr.slid, 0, "from the port's LID");
	TEST_ASSERT_EQUAL(sent[0].addr.dqp, 0, "QP0");
	TEST_ASSERT_BUFFERS_EQUAL(sent[0].mad, hdr, 8, "MAD header");
	TEST_ASSERT_BUFFERS_EQUAL(sent[0].mad + 16, hdr2, 16, "attr + M_Key");
	TEST_ASSERT_BUFFERS_EQUAL(sent[0].mad + 64, notice, 64, "Notice");
	tid1 = mad_get64(sent[0].mad, MAD_TID);
	TEST_ASSERT(tid1 != 0, "TID set");

	/* Plug back: both LinkUp/Init, a second trap with a new TID. */
	port_state_admin(&fab, &ca_ports[1], true);
	TEST_ASSERT_EQUAL(ca_ports[1].state, FAB_PORT_INIT, "CA Init");
	TEST_ASSERT_EQUAL(sw_ports[1].phys_state, FAB_PHYS_LINKUP, "switch LinkUp");
	TEST_ASSERT_EQUAL(nsent, 2, "second trap");
	TEST_ASSERT(mad_get64(sent[1].mad, MAD_TID) != tid1, "new TID");
	TEST_ASSERT_EQUAL(ca_ports[1].cnt.link_downed, 1, "LinkDowned counts downs only");

	/* Disabled at one end: enabling the other end does not bring it up. */
	port_state_admin(&fab, &sw_ports[1], false);
	port_state_admin(&fab, &ca_ports[1], true);
	TEST_ASSERT_EQUAL(ca_ports[1].phys_state, FAB_PHYS_POLLING, "peer disabled");
	/* Switch port 0 has no cable: admin changes do nothing. */
	port_state_admin(&fab, &sw_ports[0], false);
	TEST_ASSERT(sw_ports[0].admin_up, "port 0 admin");
	TEST_ASSERT_EQUAL(sw_ports[0].phys_state, FAB_PHYS_LINKUP, "port 0 LinkUp");
	return TEST_SUCCESS;
}

static int
test_set_down_traps(void)
{
	switch_has_sm();
	/* Down set on the switch's own port: no local PortStateChange/trap. */
	sw_state.port_state_change = false;
	TEST_ASSERT_EQUAL(port_state_set_logical(&fab, &sw_ports[1], FAB_PORT_DOWN), 0,
			  "Set Down");
	TEST_ASSERT(!sw_state.port_state_change, "SubnSet change: no PortStateChange");
	TEST_ASSERT_EQUAL(nsent, 0, "no trap");
	/* Down set on the CA: the switch's port went through the link -> trap. */
	TEST_ASSERT_EQUAL(port_state_set_logical(&fab, &ca_ports[1], FAB_PORT_DOWN), 0,
			  "CA Set Down");
	TEST_ASSERT(sw_state.port_state_change, "peer switch PortStateChange");
	TEST_ASSERT_EQUAL(nsent, 1, "trap 128 from the peer switch");
	TEST_ASSERT_EQUAL(mad_get16(sent[0].mad, 64 + NTC_TRAP_NUM), 128, "trap 128");
	return TEST_SUCCESS;
}

static int
test_loopback_one_trap(void)
{
	switch_has_sm();
	sw_ports[2].peer = &sw_ports[3];
	sw_ports[3].peer = &sw_ports[2];
	port_state_link_update(&fab, &sw_ports[2]);
	TEST_ASSERT_EQUAL(sw_ports[3].state, FAB_PORT_INIT, "loop up");
	TEST_ASSERT_EQUAL(nsent, 1, "one trap for a loop on one switch");
	port_state_admin(&fab, &sw_ports[3], false);
	TEST_ASSERT_EQUAL(sw_ports[2].state, FAB_PORT_DOWN, "loop down");
	TEST_ASSERT_EQUAL(nsent, 2, "one more");
	return TEST_SUCCESS;
}

static int
test_link_downed_saturates(void)
{
	unsigned int i;

	for (i = 0; i < 300; i++) {
		port_state_admin(&fab, &ca_ports[1], false);
		port_state_admin(&fab, &ca_ports[1], true);
	}
	TEST_ASSERT_EQUAL(ca_ports[1].cnt.link_downed, 255, "8-bit counter stops at 255");
	TEST_ASSERT_EQUAL(sw_ports[1].cnt.link_downed, 255, "peer too");
	return TEST_SUCCESS;
}

static int
test_link_training(void)
{
	/* Defaults: both ends 1x|4x and SDR|DDR enabled -> 4x DDR. */
	TEST_ASSERT_EQUAL(ca_ports[1].link_width_active, 2, "4x");
	TEST_ASSERT_EQUAL(sw_ports[1].link_speed_active, 2, "DDR");
	/* One end 1x/SDR only (a net file's "1xSDR"): both train down. */
	port_state_admin(&fab, &ca_ports[1], false);
	ca_ports[1].link_width_enabled = 1;
	ca_ports[1].link_speed_enabled = 1;
	port_state_admin(&fab, &ca_ports[1], true);
	TEST_ASSERT_EQUAL(ca_ports[1].link_width_active, 1, "1x");
	TEST_ASSERT_EQUAL(sw_ports[1].link_width_active, 1, "peer 1x");
	TEST_ASSERT_EQUAL(sw_ports[1].link_speed_active, 1, "peer SDR");
	/* Nothing in common (12x vs 4x, QDR vs DDR): 1x SDR, still LinkUp. */
	port_state_admin(&fab, &ca_ports[1], false);
	ca_ports[1].link_width_enabled = 8;
	ca_ports[1].link_speed_enabled = 4;
	sw_ports[1].link_width_enabled = 2;
	sw_ports[1].link_speed_enabled = 2;
	port_state_admin(&fab, &ca_ports[1], true);
	TEST_ASSERT_EQUAL(ca_ports[1].phys_state, FAB_PHYS_LINKUP, "LinkUp");
	TEST_ASSERT_EQUAL(ca_ports[1].link_width_active, 1, "fallback 1x");
	TEST_ASSERT_EQUAL(ca_ports[1].link_speed_active, 1, "fallback SDR");
	/* Both 12x|4x and QDR|DDR: 12x QDR. */
	port_state_admin(&fab, &ca_ports[1], false);
	ca_ports[1].link_width_enabled = 8 | 2;
	sw_ports[1].link_width_enabled = 8 | 2;
	ca_ports[1].link_speed_enabled = 4 | 2;
	sw_ports[1].link_speed_enabled = 4 | 2;
	port_state_admin(&fab, &ca_ports[1], true);
	TEST_ASSERT_EQUAL(sw_ports[1].link_width_active, 8, "12x");
	TEST_ASSERT_EQUAL(sw_ports[1].link_speed_active, 4, "QDR");
	return TEST_SUCCESS;
}

static int
test_trap144(void)
{
	struct fab_port *p = &ca_ports[1];
	uint8_t big[100];
	/*
	 * Trap 144 from a CA port: IsGeneric | Type 4 (Informational) =
	 * 0x84, ProducerType 1 (CA), TrapNumber 144 (0x0090), IssuerLID
	 * 0x0012; DataDetails (13.4.8.2 table 127): 2 reserved bytes,
	 * LIDADDR 0x0012, reserved byte, LocalChanges 0,
	 * CapabilityMask 0x0250084a (the default | IsSM), ChangeFlags 0,
	 * CapabilityMask2 0.
	 */
	static const uint8_t notice[64] = {
		0x84, 0x00, 0x00, 0x01, 0x00, 0x90, 0x00, 0x12,
		0x00, 0x00,
		0x00, 0x00, 0x00, 0x12, 0x00, 0x00, 0x02, 0x50, 0x08, 0x4a,
		0x00, 0x00, 0x00, 0x00,
	};

	p->cap_mask |= PI_CAP_IS_SM;
	port_state_cap_mask_changed(&fab, p);
	TEST_ASSERT_EQUAL(nsent, 0, "no SM LID: no trap");
	p->lid = 0x12;
	p->sm_lid = 0x01;
	p->sm_sl = 2;
	port_state_cap_mask_changed(&fab, p);
	TEST_ASSERT_EQUAL(nsent, 1, "trap sent");
	TEST_ASSERT(sent[0].port == p, "from the CA port");
	TEST_ASSERT_EQUAL(sent[0].addr.dlid, 1, "to MasterSMLID");
	TEST_ASSERT_EQUAL(sent[0].addr.sl, 2, "on MasterSMSL");
	TEST_ASSERT_EQUAL(sent[0].mad[MAD_METHOD], MAD_METHOD_TRAP, "SubnTrap");
	TEST_ASSERT_BUFFERS_EQUAL(sent[0].mad + 64, notice, 64, "trap 144 Notice");
	/* A LID 0 port has nowhere to send from. */
	p->lid = 0;
	port_state_cap_mask_changed(&fab, p);
	TEST_ASSERT_EQUAL(nsent, 1, "no LID: no trap");
	/* DataDetails longer than 54 bytes are cut, never overflow. */
	p->lid = 0x12;
	memset(big, 0xab, sizeof(big));
	port_state_send_trap(&fab, p, 145, big, sizeof(big));
	TEST_ASSERT_EQUAL(nsent, 2, "sent");
	TEST_ASSERT_EQUAL(sent[1].mad[64 + 63], 0xab, "last detail byte");
	TEST_ASSERT_EQUAL(sent[1].mad[128], 0, "nothing past the SMP data");
	return TEST_SUCCESS;
}

static struct unit_test_suite ps_suite = {
	.suite_name = "ibfabric port state (IBA 7.2, 14.2.5.6)",
	.setup = NULL,
	.teardown = NULL,
	.unit_test_cases = {
		TEST_CASE_ST(fixture_setup, NULL, test_link_up_at_cable),
		TEST_CASE_ST(fixture_setup, NULL, test_logical_transitions),
		TEST_CASE_ST(fixture_setup, NULL, test_admin_down_up_trap128),
		TEST_CASE_ST(fixture_setup, NULL, test_set_down_traps),
		TEST_CASE_ST(fixture_setup, NULL, test_loopback_one_trap),
		TEST_CASE_ST(fixture_setup, NULL, test_link_downed_saturates),
		TEST_CASE_ST(fixture_setup, NULL, test_link_training),
		TEST_CASE_ST(fixture_setup, NULL, test_trap144),
		TEST_CASES_END(),
	},
};

int
main(void)
{
	return unit_test_suite_runner(&ps_suite);
}
