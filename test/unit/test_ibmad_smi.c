/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The MAD core's directed-route SMI rules (lib/ibmad/smi.c), IBA 14.2.2:
 * one row per compliance statement branch, on the send side and on the
 * receive side, at a CA and at a switch, then whole walks. Each row gives
 * HopPointer/HopCount, the D bit, permissive DrSLID/DrDLID, the node
 * (switch or CA, port, number of ports), one InitialPath and one
 * ReturnPath entry, and the expected statement, verdict, new HopPointer
 * and ReturnPath entry, as the rule text of 14.2.2.2 (outgoing, D = 0)
 * and 14.2.2.4 (returning, D = 1) reads:
 *
 *  C14-6    HopCount is 0..63; else discard.
 *  C14-9:1  sender, hc != 0, hp == 0: hp++, leave by InitialPath[hp];
 *           receiver with hc != 0 and hp == 0: the sender did not do it.
 *  C14-9:2  0 < hp < hc: only a switch relays; sender hp++ and leaves by
 *           InitialPath[hp]; receiver sets ReturnPath[hp] = in port and
 *           needs InitialPath[hp + 1] to be a port.
 *  C14-9:3  hp == hc: end of the directed part: receiver sets
 *           ReturnPath[hp] (hc != 0); switch or permissive DrDLID only;
 *           sender hp++.
 *  C14-9:4  hp == hc + 1: for this node's SMA/SM.
 *  C14-9:5  any other hp: discard.
 *  C14-13:1 hc != 0, hp == hc + 1: hp--, ReturnPath[hp] must be the port.
 *  C14-13:2 2 <= hp <= hc: only a switch relays; sender hp-- and leaves
 *           by ReturnPath[hp]; receiver needs ReturnPath[hp - 1] a port.
 *  C14-13:3 hp == 1: end of the directed part; sender hp--, switch or
 *           permissive DrSLID; receiver with permissive DrSLID hp-- and
 *           takes it (the SM), else only a switch goes on.
 *  C14-13:4 hp == 0: for this node's SM.
 *  C14-13:5 any other hp: discard.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "smi.h"
#include "test.h"

#define NO_PATH 0xff   /* row does not set or check a path entry */
#define P true         /* permissive */
#define L false        /* a real LID */

struct smi_row {
	const char *rule;
	bool send;             /* ibmad_smi_dr_send() else _recv() */
	bool d;                /* D bit */
	uint8_t hp, hc;
	bool slid_perm, dlid_perm;
	bool is_switch;
	uint8_t port, nports;
	uint8_t ip_idx, ip_val; /* InitialPath[ip_idx] = ip_val */
	uint8_t rp_idx, rp_val; /* ReturnPath[rp_idx] = rp_val before */
	/* expected */
	enum ibmad_smi_verdict verdict;
	uint8_t new_hp;
	uint8_t chk_rp_idx, chk_rp_val; /* ReturnPath entry after */
};

#define H IBMAD_SMI_HANDLE
#define X IBMAD_SMI_DISCARD

static const struct smi_row rows[] = {
	/* --- send, outgoing (D = 0) --- */
	/* SM's CA starts a 2-hop path out of port 1. */
	{ "C14-9:1", true, false, 0, 2, P, P, false, 1, 1, 1, 1, NO_PATH, 0,
	  H, 1, NO_PATH, 0 },
	/* InitialPath[1] names port 2, but it leaves by port 1. */
	{ "C14-9:1", true, false, 0, 2, P, P, false, 1, 2, 1, 2, NO_PATH, 0,
	  X, 1, NO_PATH, 0 },
	/* A switch relays hop 1 of 3 out of port 7 = InitialPath[2]. */
	{ "C14-9:2", true, false, 1, 3, P, P, true, 7, 8, 2, 7, NO_PATH, 0,
	  H, 2, NO_PATH, 0 },
	/* A CA never relays. */
	{ "C14-9:2", true, false, 1, 3, P, P, false, 1, 1, 2, 1, NO_PATH, 0,
	  X, 1, NO_PATH, 0 },
	/* A CA answering its own SM: hc 0, permissive DrDLID: hp -> 1. */
	{ "C14-9:3", true, false, 0, 0, P, P, false, 1, 1, NO_PATH, 0, NO_PATH, 0,
	  H, 1, NO_PATH, 0 },
	/* At a CA, end of the DR part with a real DrDLID: no LID routing. */
	{ "C14-9:3", true, false, 1, 1, P, L, false, 1, 1, NO_PATH, 0, NO_PATH, 0,
	  X, 2, NO_PATH, 0 },
	/* A switch at the end sends the tail LID routed. */
	{ "C14-9:3", true, false, 2, 2, P, L, true, 3, 8, NO_PATH, 0, NO_PATH, 0,
	  H, 3, NO_PATH, 0 },
	{ "C14-9:4", true, false, 3, 2, P, P, false, 1, 1, NO_PATH, 0, NO_PATH, 0,
	  H, 3, NO_PATH, 0 },
	{ "C14-9:5", true, false, 4, 2, P, P, true, 1, 8, NO_PATH, 0, NO_PATH, 0,
	  X, 4, NO_PATH, 0 },
	{ "C14-6", true, false, 0, 64, P, P, false, 1, 1, 1, 1, NO_PATH, 0,
	  X, 0, NO_PATH, 0 },

	/* --- send, returning (D = 1) --- */
	/* The responder CA of a 2-hop request: hp 3 -> 2, out ReturnPath[2]. */
	{ "C14-13:1", true, true, 3, 2, P, P, false, 1, 1, NO_PATH, 0, 2, 1,
	  H, 2, NO_PATH, 0 },
	/* ... but the request came in on port 2. */
	{ "C14-13:1", true, true, 3, 2, P, P, false, 1, 2, NO_PATH, 0, 2, 2,
	  X, 2, NO_PATH, 0 },
	/* A switch relays the reply: hp 2 -> 1, out ReturnPath[1] = 6. */
	{ "C14-13:2", true, true, 2, 3, P, P, true, 6, 8, NO_PATH, 0, 1, 6,
	  H, 1, NO_PATH, 0 },
	{ "C14-13:2", true, true, 2, 3, P, P, false, 1, 1, NO_PATH, 0, 1, 1,
	  X, 2, NO_PATH, 0 },
	/* The CA's SMA answers its own SM (hc 0): hp 1 -> 0. */
	{ "C14-13:3", true, true, 1, 0, P, P, false, 1, 1, NO_PATH, 0, NO_PATH, 0,
	  H, 0, NO_PATH, 0 },
	/* A CA cannot send the head of a reply LID routed. */
	{ "C14-13:3", true, true, 1, 0, L, P, false, 1, 1, NO_PATH, 0, NO_PATH, 0,
	  X, 0, NO_PATH, 0 },
	/* A switch can. */
	{ "C14-13:3", true, true, 1, 2, L, P, true, 1, 8, NO_PATH, 0, NO_PATH, 0,
	  H, 0, NO_PATH, 0 },
	{ "C14-13:4", true, true, 0, 2, P, P, false, 1, 1, NO_PATH, 0, NO_PATH, 0,
	  H, 0, NO_PATH, 0 },
	{ "C14-13:5", true, true, 5, 2, P, P, false, 1, 1, NO_PATH, 0, NO_PATH, 0,
	  X, 5, NO_PATH, 0 },
	{ "C14-6", true, true, 1, 99, P, P, false, 1, 1, NO_PATH, 0, NO_PATH, 0,
	  X, 1, NO_PATH, 0 },

	/* --- receive, outgoing (D = 0) --- */
	{ "C14-9:1", false, false, 0, 2, P, P, false, 1, 1, NO_PATH, 0, NO_PATH, 0,
	  X, 0, NO_PATH, 0 },
	/* Switch, hop 1 of 3 in on port 5: ReturnPath[1] = 5, next port 7. */
	{ "C14-9:2", false, false, 1, 3, P, P, true, 5, 8, 2, 7, NO_PATH, 0,
	  H, 1, 1, 5 },
	/* InitialPath[2] = 9 on an 8-port switch. */
	{ "C14-9:2", false, false, 1, 3, P, P, true, 5, 8, 2, 9, NO_PATH, 0,
	  X, 1, 1, 5 },
	{ "C14-9:2", false, false, 1, 3, P, P, false, 1, 1, 2, 1, NO_PATH, 0,
	  X, 1, NO_PATH, 0 },
	/* The destination CA, one hop from the SM: ReturnPath[1] = 1. */
	{ "C14-9:3", false, false, 1, 1, P, P, false, 1, 1, NO_PATH, 0, NO_PATH, 0,
	  H, 1, 1, 1 },
	/* The CA is not the end when DrDLID is real. */
	{ "C14-9:3", false, false, 1, 1, P, L, false, 1, 1, NO_PATH, 0, NO_PATH, 0,
	  X, 1, 1, 1 },
	/* hc 0 at the SM's own CA: no ReturnPath entry written. */
	{ "C14-9:3", false, false, 0, 0, P, P, false, 1, 1, NO_PATH, 0, 0, 0xaa,
	  H, 0, 0, 0xaa },
	{ "C14-9:4", false, false, 3, 2, P, L, false, 1, 1, NO_PATH, 0, NO_PATH, 0,
	  H, 3, NO_PATH, 0 },
	{ "C14-9:5", false, false, 7, 2, P, P, false, 1, 1, NO_PATH, 0, NO_PATH, 0,
	  X, 7, NO_PATH, 0 },
	{ "C14-6", false, false, 1, 200, P, P, true, 1, 8, NO_PATH, 0, NO_PATH, 0,
	  X, 1, NO_PATH, 0 },

	/* --- receive, returning (D = 1) --- */
	/* The LID-routed head of a reply ends at a switch: hp 3 -> 2. */
	{ "C14-13:1", false, true, 3, 2, P, L, true, 4, 8, NO_PATH, 0, 2, 4,
	  H, 2, NO_PATH, 0 },
	{ "C14-13:1", false, true, 3, 2, P, L, true, 4, 8, NO_PATH, 0, 2, 3,
	  X, 2, NO_PATH, 0 },
	/* Switch, hp 2 of 3: ReturnPath[1] must be a port. */
	{ "C14-13:2", false, true, 2, 3, P, P, true, 4, 8, NO_PATH, 0, 1, 6,
	  H, 2, NO_PATH, 0 },
	{ "C14-13:2", false, true, 2, 3, P, P, true, 4, 8, NO_PATH, 0, 1, 9,
	  X, 2, NO_PATH, 0 },
	{ "C14-13:2", false, true, 2, 3, P, P, false, 1, 1, NO_PATH, 0, 1, 1,
	  X, 2, NO_PATH, 0 },
	/* Back at the SM's CA: hp 1 -> 0, the SM takes it. */
	{ "C14-13:3", false, true, 1, 2, P, P, false, 1, 1, NO_PATH, 0, NO_PATH, 0,
	  H, 0, NO_PATH, 0 },
	/* DrSLID real: a switch LID-routes on, a CA drops it. */
	{ "C14-13:3", false, true, 1, 2, L, P, true, 1, 8, NO_PATH, 0, NO_PATH, 0,
	  H, 1, NO_PATH, 0 },
	{ "C14-13:3", false, true, 1, 2, L, P, false, 1, 1, NO_PATH, 0, NO_PATH, 0,
	  X, 1, NO_PATH, 0 },
	{ "C14-13:4", false, true, 0, 2, P, P, false, 1, 1, NO_PATH, 0, NO_PATH, 0,
	  H, 0, NO_PATH, 0 },
	{ "C14-13:5", false, true, 9, 2, P, P, false, 1, 1, NO_PATH, 0, NO_PATH, 0,
	  X, 9, NO_PATH, 0 },

	/* --- receive at the HopCount boundary (C14-6: 0..63, paths of 64) --- */
	/* 63 hops end at a CA: ReturnPath[63], the last entry, is written. */
	{ "C14-9:3", false, false, 63, 63, P, P, false, 1, 1, NO_PATH, 0, NO_PATH, 0,
	  H, 63, 63, 1 },
	/* 64 hops: dropped before ReturnPath[64], one byte past the MAD. */
	{ "C14-6", false, false, 64, 64, P, P, false, 1, 1, NO_PATH, 0, NO_PATH, 0,
	  X, 64, NO_PATH, 0 },
	{ "C14-6", false, true, 65, 64, P, P, false, 1, 1, NO_PATH, 0, NO_PATH, 0,
	  X, 65, NO_PATH, 0 },
};

/* Build a DR SMP with the row's fields. */
static void
row_mad(const struct smi_row *r, uint8_t *mad)
{
	memset(mad, 0, 256);
	mad[0] = 1;
	mad[1] = 0x81;
	mad[2] = 1;
	mad[3] = r->d ? 0x81 : 0x01;
	mad[IBMAD_DR_OFF_STATUS] = r->d ? 0x80 : 0x00;
	mad[IBMAD_DR_OFF_HOP_PTR] = r->hp;
	mad[IBMAD_DR_OFF_HOP_CNT] = r->hc;
	if (r->slid_perm)
		mad[IBMAD_DR_OFF_DRSLID] = mad[IBMAD_DR_OFF_DRSLID + 1] = 0xff;
	else
		mad[IBMAD_DR_OFF_DRSLID + 1] = 0x05;
	if (r->dlid_perm)
		mad[IBMAD_DR_OFF_DRDLID] = mad[IBMAD_DR_OFF_DRDLID + 1] = 0xff;
	else
		mad[IBMAD_DR_OFF_DRDLID + 1] = 0x0c;
	if (r->ip_idx != NO_PATH)
		mad[IBMAD_DR_OFF_INITIAL_PATH + r->ip_idx] = r->ip_val;
	if (r->rp_idx != NO_PATH)
		mad[IBMAD_DR_OFF_RETURN_PATH + r->rp_idx] = r->rp_val;
}

static int
test_rows(void)
{
	const struct smi_row *r;
	struct ibmad_smi_node node;
	struct ibmad_smi_dr dr;
	enum ibmad_smi_verdict v;
	uint8_t mad[256];
	const char *rule;
	unsigned int i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		r = &rows[i];
		row_mad(r, mad);
		node.is_switch = r->is_switch;
		node.port = r->port;
		node.nports = r->nports;
		ibmad_smi_dr_read(mad, &dr);
		TEST_ASSERT_EQUAL(dr.returning, r->d, "row %u: D bit read", i);
		rule = NULL;
		v = r->send ? ibmad_smi_dr_send(&dr, &node, &rule) :
			ibmad_smi_dr_recv(&dr, &node, &rule);
		ibmad_smi_dr_write(mad, &dr);
		TEST_ASSERT(rule != NULL && strcmp(rule, r->rule) == 0,
			    "row %u: rule %s, expected %s", i,
			    rule != NULL ? rule : "(none)", r->rule);
		TEST_ASSERT_EQUAL(v, r->verdict, "row %u (%s): verdict", i, r->rule);
		TEST_ASSERT_EQUAL(mad[IBMAD_DR_OFF_HOP_PTR], r->new_hp,
				  "row %u (%s): HopPointer", i, r->rule);
		if (r->chk_rp_idx != NO_PATH)
			TEST_ASSERT_EQUAL(mad[IBMAD_DR_OFF_RETURN_PATH + r->chk_rp_idx],
					  r->chk_rp_val, "row %u (%s): ReturnPath",
					  i, r->rule);
	}
	printf("  %u rows\n", i);
	return TEST_SUCCESS;
}

/* Where an accepted SMP goes (Linux smi_check_forward_dr_smp()). */
static int
test_next(void)
{
	uint8_t ip[64] = { 0 }, rp[64] = { 0 };
	struct ibmad_smi_dr dr = {
		.initial_path = ip, .return_path = rp,
	};

	/* Outgoing, intermediate hop: forward out InitialPath[hp + 1]. */
	dr.hop_ptr = 1;
	dr.hop_cnt = 3;
	ip[2] = 7;
	TEST_ASSERT_EQUAL(ibmad_smi_dr_next(&dr), IBMAD_SMI_FORWARD, "C14-9:2");
	TEST_ASSERT_EQUAL(ibmad_smi_dr_fwd_port(&dr), 7, "C14-9:2 port");
	/* End of the DR part: permissive DrDLID -> this node, through the
	 * send step; a real DrDLID -> local handling of the LID tail.
	 */
	dr.hop_ptr = 3;
	dr.dlid_permissive = true;
	TEST_ASSERT_EQUAL(ibmad_smi_dr_next(&dr), IBMAD_SMI_SEND, "C14-9:3 perm");
	dr.dlid_permissive = false;
	TEST_ASSERT_EQUAL(ibmad_smi_dr_next(&dr), IBMAD_SMI_LOCAL, "C14-9:3 LID");
	dr.hop_ptr = 4;
	TEST_ASSERT_EQUAL(ibmad_smi_dr_next(&dr), IBMAD_SMI_LOCAL, "C14-9:4");
	/* Returning. */
	dr.returning = true;
	dr.hop_ptr = 2;
	rp[1] = 6;
	TEST_ASSERT_EQUAL(ibmad_smi_dr_next(&dr), IBMAD_SMI_FORWARD, "C14-13:2");
	TEST_ASSERT_EQUAL(ibmad_smi_dr_fwd_port(&dr), 6, "C14-13:2 port");
	dr.hop_ptr = 1;
	dr.slid_permissive = false;
	TEST_ASSERT_EQUAL(ibmad_smi_dr_next(&dr), IBMAD_SMI_SEND, "C14-13:3 LID");
	dr.slid_permissive = true;
	TEST_ASSERT_EQUAL(ibmad_smi_dr_next(&dr), IBMAD_SMI_LOCAL, "C14-13:3 perm");
	dr.hop_ptr = 0;
	TEST_ASSERT_EQUAL(ibmad_smi_dr_next(&dr), IBMAD_SMI_LOCAL, "C14-13:4");
	/* A corrupt HopPointer never indexes outside the paths. */
	dr.hop_ptr = 200;
	TEST_ASSERT_EQUAL(ibmad_smi_dr_fwd_port(&dr), 0, "hp 200 returning");
	dr.returning = false;
	dr.hop_ptr = 63;
	TEST_ASSERT_EQUAL(ibmad_smi_dr_fwd_port(&dr), 0, "hp 63 outgoing");
	return TEST_SUCCESS;
}

/*
 * A whole walk: an SM on CA "A" reads NodeInfo of CA "B" through two
 * switches: A port 1 -> S1 (in 1, out 4) -> S2 (in 2, out 3) -> B port 1.
 * InitialPath = [-, 1, 4, 3], hc 3. The request gathers ReturnPath
 * [-, 1, 2, 1]; B answers and the reply walks back hop by hop to A's SM
 * with HopPointer 0.
 */
static int
test_walk(void)
{
	struct ibmad_smi_node a = { false, 1, 1 }, b = { false, 1, 1 };
	struct ibmad_smi_node s1_in = { true, 1, 8 }, s1_out = { true, 4, 8 };
	struct ibmad_smi_node s2_in = { true, 2, 8 }, s2_out = { true, 3, 8 };
	struct ibmad_smi_dr dr;
	uint8_t mad[256];

	memset(mad, 0, sizeof(mad));
	mad[1] = 0x81;
	mad[IBMAD_DR_OFF_HOP_CNT] = 3;
	memset(mad + IBMAD_DR_OFF_DRSLID, 0xff, 4);
	mad[IBMAD_DR_OFF_INITIAL_PATH + 1] = 1;
	mad[IBMAD_DR_OFF_INITIAL_PATH + 2] = 4;
	mad[IBMAD_DR_OFF_INITIAL_PATH + 3] = 3;
	ibmad_smi_dr_read(mad, &dr);

	TEST_ASSERT_EQUAL(ibmad_smi_dr_send(&dr, &a, NULL), H, "A sends");
	TEST_ASSERT_EQUAL(ibmad_smi_dr_recv(&dr, &s1_in, NULL), H, "S1 receives");
	TEST_ASSERT_EQUAL(ibmad_smi_dr_next(&dr), IBMAD_SMI_FORWARD, "S1 forwards");
	TEST_ASSERT_EQUAL(ibmad_smi_dr_fwd_port(&dr), 4, "S1 out port");
	TEST_ASSERT_EQUAL(ibmad_smi_dr_send(&dr, &s1_out, NULL), H, "S1 sends");
	TEST_ASSERT_EQUAL(ibmad_smi_dr_recv(&dr, &s2_in, NULL), H, "S2 receives");
	TEST_ASSERT_EQUAL(ibmad_smi_dr_fwd_port(&dr), 3, "S2 out port");
	TEST_ASSERT_EQUAL(ibmad_smi_dr_send(&dr, &s2_out, NULL), H, "S2 sends");
	TEST_ASSERT_EQUAL(ibmad_smi_dr_recv(&dr, &b, NULL), H, "B receives");
	TEST_ASSERT_EQUAL(ibmad_smi_dr_next(&dr), IBMAD_SMI_SEND, "B: end of path");
	TEST_ASSERT_EQUAL(ibmad_smi_dr_send(&dr, &b, NULL), H, "B: send step");
	TEST_ASSERT(ibmad_smi_dr_is_local_outgoing(&dr), "B's own SMA");
	TEST_ASSERT_EQUAL(dr.hop_ptr, 4, "hp = hc + 1");
	TEST_ASSERT_EQUAL(dr.return_path[1], 1, "ReturnPath[1] = S1 in port");
	TEST_ASSERT_EQUAL(dr.return_path[2], 2, "ReturnPath[2] = S2 in port");
	TEST_ASSERT_EQUAL(dr.return_path[3], 1, "ReturnPath[3] = B's port");

	/* The reply: D = 1. */
	dr.returning = true;
	TEST_ASSERT_EQUAL(ibmad_smi_dr_send(&dr, &b, NULL), H, "B replies");
	TEST_ASSERT(!ibmad_smi_dr_is_local_returning(&dr), "not for B's SM");
	TEST_ASSERT_EQUAL(ibmad_smi_dr_recv(&dr, &s2_out, NULL), H, "S2 receives");
	TEST_ASSERT_EQUAL(ibmad_smi_dr_next(&dr), IBMAD_SMI_FORWARD, "S2 forwards");
	TEST_ASSERT_EQUAL(ibmad_smi_dr_fwd_port(&dr), 2, "S2 back out port 2");
	TEST_ASSERT_EQUAL(ibmad_smi_dr_send(&dr, &s2_in, NULL), H, "S2 sends");
	TEST_ASSERT_EQUAL(ibmad_smi_dr_recv(&dr, &s1_out, NULL), H, "S1 receives");
	TEST_ASSERT_EQUAL(ibmad_smi_dr_fwd_port(&dr), 1, "S1 back out port 1");
	TEST_ASSERT_EQUAL(ibmad_smi_dr_send(&dr, &s1_in, NULL), H, "S1 sends");
	TEST_ASSERT_EQUAL(ibmad_smi_dr_recv(&dr, &a, NULL), H, "A receives");
	TEST_ASSERT_EQUAL(dr.hop_ptr, 0, "A: HopPointer 0");
	TEST_ASSERT_EQUAL(ibmad_smi_dr_next(&dr), IBMAD_SMI_LOCAL, "A's SM");
	return TEST_SUCCESS;
}

/* An SM's SMP to its own node (hc 0) and the reply back to it: the two
 * local loops of Linux handle_outgoing_dr_smp().
 */
static int
test_local_loops(void)
{
	struct ibmad_smi_node ca = { false, 1, 2 };
	struct ibmad_smi_dr dr;
	uint8_t mad[256];

	memset(mad, 0, sizeof(mad));
	mad[1] = 0x81;
	memset(mad + IBMAD_DR_OFF_DRSLID, 0xff, 4);
	ibmad_smi_dr_read(mad, &dr);
	TEST_ASSERT_EQUAL(ibmad_smi_dr_send(&dr, &ca, NULL), H, "C14-9:3");
	TEST_ASSERT(ibmad_smi_dr_is_local_outgoing(&dr), "to own SMA");
	TEST_ASSERT(!ibmad_smi_dr_is_local_returning(&dr), "not returning");
	dr.returning = true;
	TEST_ASSERT_EQUAL(ibmad_smi_dr_send(&dr, &ca, NULL), H, "C14-13:3");
	TEST_ASSERT(ibmad_smi_dr_is_local_returning(&dr), "to own SM");
	TEST_ASSERT(!ibmad_smi_dr_is_local_outgoing(&dr), "not outgoing");
	return TEST_SUCCESS;
}

static struct unit_test_suite suite = {
	.suite_name = "ibmad_smi",
	.unit_test_cases = {
		TEST_CASE(test_rows),
		TEST_CASE(test_next),
		TEST_CASE(test_walk),
		TEST_CASE(test_local_loops),
		TEST_CASES_END(),
	},
};

int
main(void)
{
	return unit_test_suite_runner(&suite);
}
