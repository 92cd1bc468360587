/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Directed-route SMP rules (dr.c), IBA 14.2.2: one table row per
 * compliance statement branch, at the originating node and at a
 * receiving node, then a whole walk CA -> switch -> switch -> CA and
 * back. Each row states HopPointer/HopCount, the D bit, whether DrSLID /
 * DrDLID are permissive, the node kind, and the expected verdict,
 * action, egress port or LID, new HopPointer and ReturnPath entry, as
 * the rule text of 14.2.2.2 (outgoing) and 14.2.2.4 (returning) reads.
 */

#include <string.h>

#include "dr.h"
#include "test.h"

#define NO_RP	0xff	/* row does not check a ReturnPath entry */

struct dr_row {
	const char *rule;	/* expected dr_result.rule */
	bool originate;		/* dr_originate() instead of dr_receive() */
	bool returning;		/* D bit */
	uint8_t hp, hc;
	uint16_t drslid, drdlid;
	bool is_switch;
	uint8_t in_port, nports;
	uint8_t ip_idx, ip_val;	/* InitialPath[ip_idx] = ip_val */
	uint8_t rp_idx, rp_val;	/* ReturnPath[rp_idx] = rp_val before */
	/* expected */
	enum dr_verdict verdict;
	enum dr_action action;
	uint8_t port;
	uint16_t lid;
	uint8_t new_hp;
	uint8_t chk_rp_idx, chk_rp_val;	/* ReturnPath entry after, or NO_RP */
};

#define P 0xffff	/* permissive */

static const struct dr_row rows[] = {
	/* --- originating node (SM request D=0, responder reply D=1) --- */
	/* C14-9:1: HopCount 2, HopPointer 0 -> 1, out InitialPath[1] */
	{ "C14-9:1", true, false, 0, 2, P, P, false, 0, 1, 1, 1, 0, 0,
	  DR_HANDLE, DR_FORWARD, 1, 0, 1, NO_RP, 0 },
	/* C14-9:1 with InitialPath[1] = 0: no such port */
	{ "C14-9:1", true, false, 0, 2, P, P, true, 0, 8, 1, 0, 0, 0,
	  DR_DISCARD, DR_LOCAL, 0, 0, 1, NO_RP, 0 },
	/* C14-9:3: HopCount 0 -> own SMA, HopPointer 1 */
	{ "C14-9:3", true, false, 0, 0, P, P, false, 0, 1, 0, 0, 0, 0,
	  DR_HANDLE, DR_LOCAL, 0, 0, 1, NO_RP, 0 },
	/* C14-9:3: HopCount 0 and DrDLID 5: LID-routed to 5 */
	{ "C14-9:3", true, false, 0, 0, P, 5, true, 0, 8, 0, 0, 0, 0,
	  DR_HANDLE, DR_SEND, 0, 5, 1, NO_RP, 0 },
	/* 14.2.2.2: DrSLID 1: the LID-routed head, HopPointer untouched */
	{ "14.2.2.2", true, false, 0, 2, 1, P, false, 0, 1, 1, 1, 0, 0,
	  DR_HANDLE, DR_SEND, 0, 0, 0, NO_RP, 0 },
	/* C14-9:5: an originator's HopPointer must be 0 */
	{ "C14-9:5", true, false, 1, 2, P, P, false, 0, 1, 1, 1, 0, 0,
	  DR_DISCARD, DR_LOCAL, 0, 0, 1, NO_RP, 0 },
	/* C14-13:1: responder, HopPointer hc+1 -> hc, out ReturnPath[hc] */
	{ "C14-13:1", true, true, 3, 2, P, P, true, 0, 8, 0, 0, 2, 4,
	  DR_HANDLE, DR_FORWARD, 4, 0, 2, NO_RP, 0 },
	/* C14-13:3: HopCount 0 reply -> back to the local SM, HopPointer 0 */
	{ "C14-13:3", true, true, 1, 0, P, P, false, 0, 1, 0, 0, 0, 0,
	  DR_HANDLE, DR_LOCAL, 0, 0, 0, NO_RP, 0 },
	/* C14-13:3: HopCount 0 reply, DrSLID 9: LID-routed back */
	{ "C14-13:3", true, true, 1, 0, 9, P, true, 0, 8, 0, 0, 0, 0,
	  DR_HANDLE, DR_SEND, 0, 9, 0, NO_RP, 0 },
	/* 14.2.2.4: DrDLID 7: the reply first LID-routes back */
	{ "14.2.2.4", true, true, 3, 2, P, 7, false, 0, 1, 0, 0, 0, 0,
	  DR_HANDLE, DR_SEND, 0, 0, 3, NO_RP, 0 },
	/* C14-13:5: a responder's HopPointer must be hc+1 */
	{ "C14-13:5", true, true, 1, 2, P, P, false, 0, 1, 0, 0, 0, 0,
	  DR_DISCARD, DR_LOCAL, 0, 0, 1, NO_RP, 0 },
	/* C14-6: HopCount 64 */
	{ "C14-6", true, false, 0, 64, P, P, false, 0, 1, 1, 1, 0, 0,
	  DR_DISCARD, DR_LOCAL, 0, 0, 0, NO_RP, 0 },

	/* --- receiving node, outgoing (D=0) --- */
	/* C14-9:1: permissive DrSLID but HopPointer 0: sender did not advance it */
	{ "C14-9:1", false, false, 0, 2, P, P, true, 1, 8, 1, 3, 0, 0,
	  DR_DISCARD, DR_LOCAL, 0, 0, 0, NO_RP, 0 },
	/* C14-9:1: end of the LID-routed head at a switch: start the DR part */
	{ "C14-9:1", false, false, 0, 2, 1, P, true, 1, 8, 1, 3, 0, 0,
	  DR_HANDLE, DR_FORWARD, 3, 0, 1, NO_RP, 0 },
	/* C14-9:1: a CA does not start a directed part */
	{ "C14-9:1", false, false, 0, 2, 1, P, false, 1, 1, 1, 1, 0, 0,
	  DR_DISCARD, DR_LOCAL, 0, 0, 0, NO_RP, 0 },
	/* C14-9:2: switch, hp 1 of 3, in port 5: ReturnPath[1] = 5, out InitialPath[2] = 7 */
	{ "C14-9:2", false, false, 1, 3, P, P, true, 5, 8, 2, 7, 0, 0,
	  DR_HANDLE, DR_FORWARD, 7, 0, 2, 1, 5 },
	/* C14-9:2: a CA never relays */
	{ "C14-9:2", false, false, 1, 3, P, P, false, 1, 2, 2, 1, 0, 0,
	  DR_DISCARD, DR_LOCAL, 0, 0, 1, NO_RP, 0 },
	/* C14-9:2: InitialPath[2] = 9 on an 8-port switch */
	{ "C14-9:2", false, false, 1, 3, P, P, true, 5, 8, 2, 9, 0, 0,
	  DR_DISCARD, DR_LOCAL, 0, 0, 2, 1, 5 },
	/* C14-9:3: end of the DR part at a switch: ReturnPath[2] = 3, SMA */
	{ "C14-9:3", false, false, 2, 2, P, P, true, 3, 8, 0, 0, 0, 0,
	  DR_HANDLE, DR_LOCAL, 0, 0, 3, 2, 3 },
	/* C14-9:3: end of the DR part at a CA */
	{ "C14-9:3", false, false, 1, 1, P, P, false, 1, 1, 0, 0, 0, 0,
	  DR_HANDLE, DR_LOCAL, 0, 0, 2, 1, 1 },
	/* C14-9:3: DrDLID 12: the switch LID-routes the tail */
	{ "C14-9:3", false, false, 2, 2, P, 12, true, 3, 8, 0, 0, 0, 0,
	  DR_HANDLE, DR_SEND, 0, 12, 3, 2, 3 },
	/* C14-9:3: a CA cannot LID-route a tail */
	{ "C14-9:3", false, false, 1, 1, P, 12, false, 1, 1, 0, 0, 0, 0,
	  DR_DISCARD, DR_LOCAL, 0, 0, 2, NO_RP, 0 },
	/* C14-9:4: arrived over the LID-routed tail: SMA */
	{ "C14-9:4", false, false, 3, 2, P, 12, false, 1, 1, 0, 0, 0, 0,
	  DR_HANDLE, DR_LOCAL, 0, 0, 3, NO_RP, 0 },
	/* C14-9:5: HopPointer beyond HopCount + 1 */
	{ "C14-9:5", false, false, 5, 2, P, P, true, 1, 8, 0, 0, 0, 0,
	  DR_DISCARD, DR_LOCAL, 0, 0, 5, NO_RP, 0 },
	/* C14-6 on receive */
	{ "C14-6", false, false, 1, 200, P, P, true, 1, 8, 0, 0, 0, 0,
	  DR_DISCARD, DR_LOCAL, 0, 0, 1, NO_RP, 0 },

	/* --- receiving node, returning (D=1) --- */
	/* C14-13:1: reply LID-routed to the tail's switch: out ReturnPath[2] */
	{ "C14-13:1", false, true, 3, 2, P, 12, true, 4, 8, 0, 0, 2, 2,
	  DR_HANDLE, DR_FORWARD, 2, 0, 2, NO_RP, 0 },
	/* C14-13:1: with a permissive DrDLID it cannot arrive that way */
	{ "C14-13:1", false, true, 3, 2, P, P, true, 4, 8, 0, 0, 2, 2,
	  DR_DISCARD, DR_LOCAL, 0, 0, 3, NO_RP, 0 },
	/* C14-13:2: switch, hp 2 of 3 -> 1, out ReturnPath[1] = 6 */
	{ "C14-13:2", false, true, 2, 3, P, P, true, 4, 8, 0, 0, 1, 6,
	  DR_HANDLE, DR_FORWARD, 6, 0, 1, NO_RP, 0 },
	/* C14-13:2: a CA never relays */
	{ "C14-13:2", false, true, 2, 3, P, P, false, 1, 1, 0, 0, 1, 1,
	  DR_DISCARD, DR_LOCAL, 0, 0, 2, NO_RP, 0 },
	/* C14-13:3: back at the SM's CA: HopPointer 0, local SM */
	{ "C14-13:3", false, true, 1, 2, P, P, false, 1, 1, 0, 0, 0, 0,
	  DR_HANDLE, DR_LOCAL, 0, 0, 0, NO_RP, 0 },
	/* C14-13:3: DrSLID 1: the head switch LID-routes the reply to the SM */
	{ "C14-13:3", false, true, 1, 2, 1, P, true, 2, 8, 0, 0, 0, 0,
	  DR_HANDLE, DR_SEND, 0, 1, 0, NO_RP, 0 },
	/* C14-13:3: a CA cannot LID-route it */
	{ "C14-13:3", false, true, 1, 2, 1, P, false, 1, 1, 0, 0, 0, 0,
	  DR_DISCARD, DR_LOCAL, 0, 0, 0, NO_RP, 0 },
	/* C14-13:4: arrived at the SM over the LID-routed head */
	{ "C14-13:4", false, true, 0, 2, 1, P, false, 1, 1, 0, 0, 0, 0,
	  DR_HANDLE, DR_LOCAL, 0, 0, 0, NO_RP, 0 },
	/* C14-13:5: HopPointer beyond HopCount + 1 */
	{ "C14-13:5", false, true, 6, 2, P, P, true, 1, 8, 0, 0, 0, 0,
	  DR_DISCARD, DR_LOCAL, 0, 0, 6, NO_RP, 0 },
};

static void
make_smp(uint8_t *smp, const struct dr_row *row)
{
	memset(smp, 0, 256);
	smp[MAD_BASE_VERSION] = 1;
	smp[MAD_MGMT_CLASS] = MAD_CLASS_SMI_DR;
	smp[MAD_CLASS_VERSION] = 1;
	smp[MAD_METHOD] = row->returning ? MAD_METHOD_GET_RESP : MAD_METHOD_GET;
	if (row->returning)
		dr_set_returning(smp);
	smp[MAD_DR_HOP_PTR] = row->hp;
	smp[MAD_DR_HOP_CNT] = row->hc;
	mad_set16(smp, MAD_DR_SLID, row->drslid);
	mad_set16(smp, MAD_DR_DLID, row->drdlid);
	if (row->ip_idx != 0)
		smp[MAD_DR_INITIAL_PATH + row->ip_idx] = row->ip_val;
	if (row->rp_idx != 0)
		smp[MAD_DR_RETURN_PATH + row->rp_idx] = row->rp_val;
}

static int
test_dr_table(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct dr_row *row = &rows[i];
		struct dr_result r;
		uint8_t smp[256];

		make_smp(smp, row);
		if (row->originate)
			dr_originate(smp, row->is_switch, row->nports, &r);
		else
			dr_receive(smp, row->is_switch, row->in_port, row->nports, &r);
		TEST_ASSERT(strcmp(r.rule, row->rule) == 0,
			    "row %u: rule %s, expected %s", i, r.rule, row->rule);
		TEST_ASSERT_EQUAL(r.verdict, row->verdict, "row %u (%s): verdict", i, row->rule);
		if (row->verdict == DR_DISCARD)
			continue;
		TEST_ASSERT_EQUAL(r.action, row->action, "row %u (%s): action", i, row->rule);
		if (row->action == DR_FORWARD)
			TEST_ASSERT_EQUAL(r.port, row->port, "row %u (%s): port", i, row->rule);
		if (row->action == DR_SEND)
			TEST_ASSERT_EQUAL(r.lid, row->lid, "row %u (%s): LID", i, row->rule);
		TEST_ASSERT_EQUAL(smp[MAD_DR_HOP_PTR], row->new_hp,
				  "row %u (%s): HopPointer", i, row->rule);
		if (row->chk_rp_idx != NO_RP)
			TEST_ASSERT_EQUAL(smp[MAD_DR_RETURN_PATH + row->chk_rp_idx],
					  row->chk_rp_val, "row %u (%s): ReturnPath", i, row->rule);
	}
	return TEST_SUCCESS;
}

/*
 * The walk of smpquery -D nodedesc 0,1,3,2 on this fabric: SM on CA A
 * port 1 -- S1 port 1; S1 port 3 -- S2 port 5; S2 port 2 -- CA B port 1.
 * InitialPath {0, 1, 3, 2}, HopCount 3. Outgoing, each receiver records
 * its ingress in ReturnPath[HopPointer]: RP[1] = 1 (S1), RP[2] = 5 (S2),
 * RP[3] = 1 (B). The reply retraces RP[3], RP[2], RP[1].
 */
static int
test_dr_walk(void)
{
	struct dr_result r;
	uint8_t smp[256];

	memset(smp, 0, sizeof(smp));
	smp[MAD_MGMT_CLASS] = MAD_CLASS_SMI_DR;
	smp[MAD_DR_HOP_CNT] = 3;
	mad_set16(smp, MAD_DR_SLID, P);
	mad_set16(smp, MAD_DR_DLID, P);
	smp[MAD_DR_INITIAL_PATH + 1] = 1;
	smp[MAD_DR_INITIAL_PATH + 2] = 3;
	smp[MAD_DR_INITIAL_PATH + 3] = 2;

	dr_originate(smp, false, 1, &r);		/* A */
	TEST_ASSERT(r.action == DR_FORWARD && r.port == 1, "A sends out port 1");
	dr_receive(smp, true, 1, 8, &r);		/* S1 in 1 */
	TEST_ASSERT(r.verdict == DR_HANDLE && r.action == DR_FORWARD && r.port == 3, "S1 -> 3");
	dr_receive(smp, true, 5, 8, &r);		/* S2 in 5 */
	TEST_ASSERT(r.verdict == DR_HANDLE && r.action == DR_FORWARD && r.port == 2, "S2 -> 2");
	dr_receive(smp, false, 1, 1, &r);		/* B in 1 */
	TEST_ASSERT(r.verdict == DR_HANDLE && r.action == DR_LOCAL, "B: SMA");
	TEST_ASSERT_EQUAL(smp[MAD_DR_HOP_PTR], 4, "HopPointer hc+1 at the SMA");
	TEST_ASSERT_EQUAL(smp[MAD_DR_RETURN_PATH + 1], 1, "RP[1]");
	TEST_ASSERT_EQUAL(smp[MAD_DR_RETURN_PATH + 2], 5, "RP[2]");
	TEST_ASSERT_EQUAL(smp[MAD_DR_RETURN_PATH + 3], 1, "RP[3]");

	dr_set_returning(smp);
	dr_originate(smp, false, 1, &r);		/* B replies */
	TEST_ASSERT(r.verdict == DR_HANDLE && r.action == DR_FORWARD && r.port == 1, "B -> 1");
	dr_receive(smp, true, 2, 8, &r);		/* S2 in 2 */
	TEST_ASSERT(r.verdict == DR_HANDLE && r.action == DR_FORWARD && r.port == 5, "S2 -> 5");
	dr_receive(smp, true, 3, 8, &r);		/* S1 in 3 */
	TEST_ASSERT(r.verdict == DR_HANDLE && r.action == DR_FORWARD && r.port == 1, "S1 -> 1");
	dr_receive(smp, false, 1, 1, &r);		/* A in 1 */
	TEST_ASSERT(r.verdict == DR_HANDLE && r.action == DR_LOCAL, "A: SM");
	TEST_ASSERT_EQUAL(smp[MAD_DR_HOP_PTR], 0, "HopPointer 0 at the SM");
	return TEST_SUCCESS;
}

static struct unit_test_suite dr_suite = {
	.suite_name = "ibfabric directed route (dr.c, IBA 14.2.2)",
	.unit_test_cases = {
		TEST_CASE(test_dr_table),
		TEST_CASE(test_dr_walk),
		TEST_CASES_END(),
	},
};

int
main(void)
{
	return unit_test_suite_runner(&dr_suite);
}
