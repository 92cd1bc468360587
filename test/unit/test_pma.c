/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Unit tests of ibfabric's firmware PMA (app/ibfabric/fw/pma.c) against
 * IBA vol. 1 16.1: ClassPortInfo, PortCounters (16.1.3.5 table 233) and
 * PortCountersExtended (16.1.4.11). Counters are planted in hand-built
 * nodes; the expected attribute bytes are written out field by field
 * from the spec's layout, with each field saturated at its own width.
 */

#include <stdint.h>
#include <string.h>

#include "fab_node.h"
#include "fab_route.h"
#include "fabric.h"
#include "fw_agents.h"
#include "ib_proto.h"
#include "mad.h"
#include "sma_fixture.h"
#include "test.h"

#define SW_PORTS 4

static struct fabric fab;
static struct fab_node ca, sw;
static struct fab_port ca_ports[3], sw_ports[SW_PORTS + 1];
static struct fab_switch sw_state;

void
fab_node_send_mad(struct fabric *f, struct fab_port *port,
		  const struct fab_mad_addr *a, const uint8_t *mad,
		  uint32_t mad_len, int origin, uint32_t origin_gen)
{
	(void)f;
	(void)port;
	(void)a;
	(void)mad;
	(void)mad_len;
	(void)origin;
	(void)origin_gen;
}

static int
fixture_setup(void)
{
	memset(&fab, 0, sizeof(fab));
	fixture_node_build(&ca, FAB_NODE_CA, NULL, ca_ports, 2, 0, NULL, NULL, 0);
	fixture_node_build(&sw, FAB_NODE_SWITCH, NULL, sw_ports, SW_PORTS, 0, &sw_state, NULL, 0);
	return TEST_SUCCESS;
}

static void
gmp_make(uint8_t *mad, uint8_t method, uint16_t attr, uint8_t port_select,
	 uint16_t counter_select)
{
	memset(mad, 0, IB_MAD_SIZE);
	mad[0] = 1;
	mad[1] = MAD_CLASS_PERF;
	mad[2] = 1;
	mad[3] = method;
	mad_set64(mad, MAD_TID, 0xabcd);
	mad_set16(mad, MAD_ATTR_ID, attr);
	mad[64 + 1] = port_select;
	mad_set16(mad, 64 + 2, counter_select);
}

/* Status of the reply, or -1 when the PMA ignored the MAD. */
static int
pma_do(struct fab_node *n, struct fab_port *in, uint8_t *mad)
{
	if (pma_process(&fab, n, in, mad) != FAB_MAD_REPLY)
		return -1;
	if (mad[MAD_METHOD] != MAD_METHOD_GET_RESP)
		return -3;
	return mad_get16(mad, MAD_STATUS);
}

static int
test_class_port_info(void)
{
	uint8_t mad[IB_MAD_SIZE];
	/*
	 * ClassPortInfo (13.4.8.1): BaseVersion 1, ClassVersion 1,
	 * CapabilityMask 0x1300 = AllPortSelect (bit 8) |
	 * PortCountersExtended (bit 9) | PortXmitWait (bit 12), word 1 =
	 * CapabilityMask2 0 << 5 | RespTimeValue 18 (0x12); no redirection,
	 * no trap target: the remaining 64 bytes are 0.
	 */
	static const uint8_t expect[72] = {
		0x01, 0x01, 0x13, 0x00, 0x00, 0x00, 0x00, 0x12,
	};

	gmp_make(mad, MAD_METHOD_GET, MAD_ATTR_CLASS_PORT_INFO, 0, 0);
	TEST_ASSERT_EQUAL(pma_do(&ca, &ca_ports[1], mad), 0, "Get");
	TEST_ASSERT_BUFFERS_EQUAL(mad + 64, expect, sizeof(expect), "ClassPortInfo");
	TEST_ASSERT_EQUAL(mad_get64(mad, MAD_TID), 0xabcd, "TID kept");
	gmp_make(mad, MAD_METHOD_SET, MAD_ATTR_CLASS_PORT_INFO, 0, 0);
	TEST_ASSERT_EQUAL(pma_do(&ca, &ca_ports[1], mad), 0x000c, "Set");
	return TEST_SUCCESS;
}

static void
plant(struct fab_port_counters *c)
{
	c->symbol_errors = 0x12345;		/* > 16 bits */
	c->link_error_recovery = 300;		/* > 8 bits */
	c->link_downed = 7;
	c->rcv_errors = 2;
	c->rcv_remote_phys_errors = 3;
	c->rcv_switch_relay_errors = 0x10000;	/* just over 16 bits */
	c->xmit_discards = 0xfffe;
	c->xmit_constraint_errors = 0xff;
	c->rcv_constraint_errors = 0x100;
	c->local_link_integrity_errors = 20;	/* > 4 bits */
	c->excessive_buffer_overrun_errors = 3;
	c->vl15_dropped = 9;
	c->xmit_data = 0x100000005ull;		/* > 32 bits */
	c->rcv_data = 1000;
	c->xmit_pkts = 10;
	c->rcv_pkts = 11;
	c->xmit_wait = 0x55;
	c->unicast_xmit_pkts = 0x0102030405060708ull;
	c->unicast_rcv_pkts = 6;
	c->multicast_xmit_pkts = 7;
	c->multicast_rcv_pkts = 8;
}

static int
test_port_counters_get(void)
{
	uint8_t mad[IB_MAD_SIZE];
	/*
	 * PortCounters (16.1.3.5 table 233): byte 1 PortSelect 1, bytes
	 * 2-3 CounterSelect as sent (0), SymbolErrorCounter 16 bits
	 * 0x12345 -> 0xffff, LinkErrorRecovery 8 bits 300 -> 0xff,
	 * LinkDowned 7, PortRcvErrors 2, RemotePhys 3, SwitchRelay 0x10000
	 * -> 0xffff, XmitDiscards 0xfffe, XmitConstraint 0xff,
	 * RcvConstraint 0x100 -> 0xff, byte 18 CounterSelect2 0, byte 19:
	 * LocalLinkIntegrity 20 -> 0xf << 4 | ExcessiveBufferOverrun 3,
	 * bytes 20-21 reserved, VL15Dropped 9, PortXmitData 0x100000005 ->
	 * 0xffffffff, PortRcvData 1000 (0x3e8), XmitPkts 10, RcvPkts 11,
	 * PortXmitWait 0x55.
	 */
	static const uint8_t expect[44] = {
		0x00, 0x01, 0x00, 0x00, 0xff, 0xff, 0xff, 0x07,
		0x00, 0x02, 0x00, 0x03, 0xff, 0xff, 0xff, 0xfe,
		0xff, 0xff, 0x00, 0xf3, 0x00, 0x00, 0x00, 0x09,
		0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x03, 0xe8,
		0x00, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x0b,
		0x00, 0x00, 0x00, 0x55,
	};

	plant(&ca_ports[1].cnt);
	gmp_make(mad, MAD_METHOD_GET, PMA_ATTR_PORT_COUNTERS, 1, 0);
	/* Stale request bytes (all but the select fields) get replaced. */
	memset(mad + 64 + 4, 0xaa, 14);
	memset(mad + 64 + 19, 0xaa, 100);
	TEST_ASSERT_EQUAL(pma_do(&ca, &ca_ports[1], mad), 0, "Get");
	TEST_ASSERT_BUFFERS_EQUAL(mad + 64, expect, sizeof(expect), "PortCounters");
	TEST_ASSERT_EQUAL(mad[64 + 100], 0, "reserved tail zeroed");
	/* PortSelect 0 on a CA: the arrival port. */
	gmp_make(mad, MAD_METHOD_GET, PMA_ATTR_PORT_COUNTERS, 0, 0);
	TEST_ASSERT_EQUAL(pma_do(&ca, &ca_ports[1], mad), 0, "Get port 0");
	TEST_ASSERT_EQUAL(mad_get32(mad, 64 + PC_RCV_DATA), 1000, "arrival port");
	return TEST_SUCCESS;
}

static int
test_port_counters_set(void)
{
	uint8_t mad[IB_MAD_SIZE];
	struct fab_port_counters *c = &ca_ports[2].cnt;

	plant(c);
	/* CounterSelect bit 12 = PortXmitData, bit 2 = LinkDowned. */
	gmp_make(mad, MAD_METHOD_SET, PMA_ATTR_PORT_COUNTERS, 2,
		 PC_SEL_XMIT_DATA | PC_SEL_LINK_DOWNED);
	TEST_ASSERT_EQUAL(pma_do(&ca, &ca_ports[2], mad), 0, "Set");
	TEST_ASSERT_EQUAL(c->xmit_data, 0, "PortXmitData cleared");
	TEST_ASSERT_EQUAL(c->link_downed, 0, "LinkDowned cleared");
	TEST_ASSERT_EQUAL(c->rcv_data, 1000, "PortRcvData kept");
	TEST_ASSERT_EQUAL(c->xmit_wait, 0x55, "XmitWait kept (CounterSelect2 0)");
	TEST_ASSERT_EQUAL(mad_get32(mad, 64 + PC_XMIT_DATA), 0, "response after clear");
	TEST_ASSERT_EQUAL(mad_get16(mad, 64 + PC_COUNTER_SELECT), 0x1004, "select echoed");
	/* perfquery -r: 0xffff clears all but XmitWait; CounterSelect2 bit 0 does that. */
	gmp_make(mad, MAD_METHOD_SET, PMA_ATTR_PORT_COUNTERS, 2, 0xffff);
	TEST_ASSERT_EQUAL(pma_do(&ca, &ca_ports[2], mad), 0, "Set all");
	TEST_ASSERT_EQUAL(c->symbol_errors + c->rcv_pkts + c->vl15_dropped, 0, "cleared");
	TEST_ASSERT_EQUAL(c->unicast_xmit_pkts, 0x0102030405060708ull, "ext-only kept");
	gmp_make(mad, MAD_METHOD_SET, PMA_ATTR_PORT_COUNTERS, 2, 0);
	mad[64 + PC_COUNTER_SELECT2] = PC_SEL2_XMIT_WAIT;
	TEST_ASSERT_EQUAL(pma_do(&ca, &ca_ports[2], mad), 0, "Set XmitWait");
	TEST_ASSERT_EQUAL(c->xmit_wait, 0, "XmitWait cleared");
	TEST_ASSERT_EQUAL(mad[64 + PC_COUNTER_SELECT2], PC_SEL2_XMIT_WAIT, "select2 echoed");
	return TEST_SUCCESS;
}

static int
test_port_counters_ext(void)
{
	uint8_t mad[IB_MAD_SIZE];
	/*
	 * PortCountersExtended (16.1.4.11): PortSelect 1, CounterSelect 0,
	 * bytes 4-7 reserved, then eight 64-bit counters at their full
	 * value: XmitData 0x100000005, RcvData 1000, XmitPkts 10, RcvPkts
	 * 11, UnicastXmit 0x0102030405060708, UnicastRcv 6, MulticastXmit 7,
	 * MulticastRcv 8.
	 */
	static const uint8_t expect[72] = {
		0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0, 0, 0, 0x01, 0, 0, 0, 0x05,
		0, 0, 0, 0, 0, 0, 0x03, 0xe8,
		0, 0, 0, 0, 0, 0, 0, 0x0a,
		0, 0, 0, 0, 0, 0, 0, 0x0b,
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		0, 0, 0, 0, 0, 0, 0, 0x06,
		0, 0, 0, 0, 0, 0, 0, 0x07,
		0, 0, 0, 0, 0, 0, 0, 0x08,
	};

	plant(&sw_ports[1].cnt);
	gmp_make(mad, MAD_METHOD_GET, PMA_ATTR_PORT_COUNTERS_EXT, 1, 0);
	TEST_ASSERT_EQUAL(pma_do(&sw, &sw_ports[1], mad), 0, "Get");
	TEST_ASSERT_BUFFERS_EQUAL(mad + 64, expect, sizeof(expect), "extended");
	/* Set: bit 0 XmitData, bit 4 UnicastXmit. */
	gmp_make(mad, MAD_METHOD_SET, PMA_ATTR_PORT_COUNTERS_EXT, 1,
		 PCE_SEL_XMIT_DATA | PCE_SEL_UNICAST_XMIT);
	TEST_ASSERT_EQUAL(pma_do(&sw, &sw_ports[1], mad), 0, "Set");
	TEST_ASSERT_EQUAL(sw_ports[1].cnt.xmit_data, 0, "XmitData");
	TEST_ASSERT_EQUAL(sw_ports[1].cnt.unicast_xmit_pkts, 0, "UnicastXmit");
	TEST_ASSERT_EQUAL(sw_ports[1].cnt.rcv_data, 1000, "RcvData kept");
	TEST_ASSERT_EQUAL(sw_ports[1].cnt.symbol_errors, 0x12345, "errors kept");
	return TEST_SUCCESS;
}

static int
test_all_port_select(void)
{
	uint8_t mad[IB_MAD_SIZE];
	unsigned int i;

	/* 0xFF with AllPortSelect: the sum over ports 0..N of the switch. */
	for (i = 0; i <= SW_PORTS; i++) {
		sw_ports[i].cnt.rcv_errors = 0x5000;	/* 5 x 0x5000 > 0xffff */
		sw_ports[i].cnt.rcv_pkts = i;
		sw_ports[i].cnt.xmit_data = UINT64_MAX / 2;
	}
	gmp_make(mad, MAD_METHOD_GET, PMA_ATTR_PORT_COUNTERS, 0xff, 0);
	TEST_ASSERT_EQUAL(pma_do(&sw, &sw_ports[2], mad), 0, "Get all");
	TEST_ASSERT_EQUAL(mad_get16(mad, 64 + PC_RCV_ERRORS), 0xffff, "sum saturates");
	TEST_ASSERT_EQUAL(mad_get32(mad, 64 + PC_RCV_PKTS), 0 + 1 + 2 + 3 + 4, "sum");
	gmp_make(mad, MAD_METHOD_GET, PMA_ATTR_PORT_COUNTERS_EXT, 0xff, 0);
	TEST_ASSERT_EQUAL(pma_do(&sw, &sw_ports[2], mad), 0, "Get all ext");
	TEST_ASSERT_EQUAL(mad_get64(mad, 64 + PCE_XMIT_DATA), UINT64_MAX, "64-bit saturates");
	TEST_ASSERT_EQUAL(mad_get64(mad, 64 + PCE_RCV_PKTS), 10, "ext sum");
	/* Set with 0xFF clears every port. */
	gmp_make(mad, MAD_METHOD_SET, PMA_ATTR_PORT_COUNTERS, 0xff, PC_SEL_RCV_ERRORS);
	TEST_ASSERT_EQUAL(pma_do(&sw, &sw_ports[2], mad), 0, "Set all");
	for (i = 0; i <= SW_PORTS; i++)
		TEST_ASSERT_EQUAL(sw_ports[i].cnt.rcv_errors, 0, "port %u", i);
	/* A CA sums its own ports 1..N. */
	ca_ports[1].cnt.rcv_pkts = 5;
	ca_ports[2].cnt.rcv_pkts = 6;
	gmp_make(mad, MAD_METHOD_GET, PMA_ATTR_PORT_COUNTERS, 0xff, 0);
	TEST_ASSERT_EQUAL(pma_do(&ca, &ca_ports[1], mad), 0, "CA all");
	TEST_ASSERT_EQUAL(mad_get32(mad, 64 + PC_RCV_PKTS), 11, "CA sum");
	return TEST_SUCCESS;
}

struct pma_status_row {
	const char *what;
	int on_switch;
	uint8_t cls;
	uint8_t class_ver;
	uint8_t method;
	uint16_t attr;
	uint8_t port_select;
	int expect;
};

/* IBA 13.4.7 table 115 and 16.1.3.5 PortSelect rules. */
static const struct pma_status_row status_rows[] = {
	{ "bad ClassVersion", 0, 0x04, 2, 0x01, PMA_ATTR_PORT_COUNTERS, 1, 0x0004 },
	{ "method Send", 0, 0x04, 1, 0x03, PMA_ATTR_PORT_COUNTERS, 1, 0x0008 },
	{ "PortSamplesControl", 1, 0x04, 1, 0x01, PMA_ATTR_PORT_SAMPLES_CONTROL, 1, 0x000c },
	{ "unknown attribute", 1, 0x04, 1, 0x01, 0x0036, 1, 0x000c },
	{ "CA port 3 of 2", 0, 0x04, 1, 0x01, PMA_ATTR_PORT_COUNTERS, 3, 0x001c },
	{ "switch port 5 of 4", 1, 0x04, 1, 0x02, PMA_ATTR_PORT_COUNTERS, 5, 0x001c },
	{ "switch port 0", 1, 0x04, 1, 0x01, PMA_ATTR_PORT_COUNTERS, 0, 0x0000 },
	{ "ext: CA port 3", 0, 0x04, 1, 0x01, PMA_ATTR_PORT_COUNTERS_EXT, 3, 0x001c },
	{ "GetResp", 0, 0x04, 1, 0x81, PMA_ATTR_PORT_COUNTERS, 1, -1 },
	{ "SMP class", 0, 0x01, 1, 0x01, PMA_ATTR_PORT_COUNTERS, 1, -1 },
};

static int
test_status_codes(void)
{
	uint8_t mad[IB_MAD_SIZE];
	unsigned int i;

	for (i = 0; i < sizeof(status_rows) / sizeof(status_rows[0]); i++) {
		const struct pma_status_row *r = &status_rows[i];
		struct fab_node *n = r->on_switch ? &sw : &ca;

		gmp_make(mad, r->method, r->attr, r->port_select, 0);
		mad[1] = r->cls;
		mad[2] = r->class_ver;
		TEST_ASSERT_EQUAL(pma_do(n, &n->ports[1], mad), r->expect,
				  "row %u: %s", i, r->what);
	}
	return TEST_SUCCESS;
}

static struct unit_test_suite pma_suite = {
	.suite_name = "ibfabric PMA (IBA 16.1)",
	.setup = NULL,
	.teardown = NULL,
	.unit_test_cases = {
		TEST_CASE_ST(fixture_setup, NULL, test_class_port_info),
		TEST_CASE_ST(fixture_setup, NULL, test_port_counters_get),
		TEST_CASE_ST(fixture_setup, NULL, test_port_counters_set),
		TEST_CASE_ST(fixture_setup, NULL, test_port_counters_ext),
		TEST_CASE_ST(fixture_setup, NULL, test_all_port_select),
		TEST_CASE_ST(fixture_setup, NULL, test_status_codes),
		TEST_CASES_END(),
	},
};

int
main(void)
{
	return unit_test_suite_runner(&pma_suite);
}
