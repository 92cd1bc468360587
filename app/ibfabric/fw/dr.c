/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Directed-route SMP processing, IBA 14.2.2. A DR SMP may start with a
 * LID-routed part (DrSLID not permissive: the SM LID-routes it to the
 * first node of the directed part), has a directed part walked by
 * HopPointer over InitialPath (outgoing, D=0) or ReturnPath (returning,
 * D=1), and may end with a LID-routed part (DrDLID not permissive). Each
 * branch below names the compliance statement it implements; the shape
 * follows the order in which IBA 14.2.2.2 (outgoing) and 14.2.2.4
 * (returning) list the cases.
 */

#include <stddef.h>

#include "dr.h"

static void
set_result(struct dr_result *r, enum dr_verdict v, enum dr_action a,
	   uint8_t port, uint16_t lid, const char *rule)
{
	r->verdict = v;
	r->action = a;
	r->port = port;
	r->lid = lid;
	r->rule = rule;
}

static void
discard(struct dr_result *r, const char *rule)
{
	set_result(r, DR_DISCARD, DR_LOCAL, 0, 0, rule);
}

/* Forward out @p port when it names a physical port of the node. */
static void
forward(struct dr_result *r, uint8_t port, uint8_t nports, const char *rule)
{
	if (port == 0 || port > nports)
		discard(r, rule);
	else
		set_result(r, DR_HANDLE, DR_FORWARD, port, 0, rule);
}

bool
dr_hop_count_valid(const uint8_t *smp)
{
	/*
	 * C14-6: HopCount is at most 63 (the paths have 64 entries, entry 0
	 * unused). An unreasonable HopPointer is left to C14-9:5 / C14-13:5.
	 */
	return smp[MAD_DR_HOP_CNT] <= DR_MAX_HOPS;
}

void
dr_originate(uint8_t *smp, bool is_switch, uint8_t nports, struct dr_result *r)
{
	uint8_t *hp = &smp[MAD_DR_HOP_PTR];
	uint8_t hc = smp[MAD_DR_HOP_CNT];

	(void)is_switch;
	if (!dr_hop_count_valid(smp)) {
		discard(r, "C14-6");
		return;
	}
	if (!dr_is_returning(smp)) {
		if (!dr_slid_is_permissive(smp)) {
			/* 14.2.2.2: the SM LID-routes it to the first DR node */
			set_result(r, DR_HANDLE, DR_SEND, 0, 0, "14.2.2.2");
			return;
		}
		if (*hp != 0) {
			discard(r, "C14-9:5");
			return;
		}
		if (hc == 0) {
			/* C14-9:3: empty directed part; this node is its end */
			*hp = 1;
			if (dr_dlid_is_permissive(smp))
				set_result(r, DR_HANDLE, DR_LOCAL, 0, 0, "C14-9:3");
			else
				set_result(r, DR_HANDLE, DR_SEND, 0,
					   mad_get16(smp, MAD_DR_DLID), "C14-9:3");
			return;
		}
		/* C14-9:1: HopCount != 0, HopPointer 0: start the directed part */
		*hp = 1;
		forward(r, smp[MAD_DR_INITIAL_PATH + 1], nports, "C14-9:1");
		return;
	}

	if (!dr_dlid_is_permissive(smp)) {
		/* 14.2.2.4: the reply LID-routes back to the last DR node */
		set_result(r, DR_HANDLE, DR_SEND, 0, 0, "14.2.2.4");
		return;
	}
	if (hc != 0 && *hp == hc + 1) {
		/* C14-13:1: the responder starts the return walk */
		*hp = hc;
		forward(r, smp[MAD_DR_RETURN_PATH + hc], nports, "C14-13:1");
		return;
	}
	if (hc == 0 && *hp == 1) {
		/* C14-13:3: empty directed part, back at its start */
		*hp = 0;
		if (dr_slid_is_permissive(smp))
			set_result(r, DR_HANDLE, DR_LOCAL, 0, 0, "C14-13:3");
		else
			set_result(r, DR_HANDLE, DR_SEND, 0,
				   mad_get16(smp, MAD_DR_SLID), "C14-13:3");
		return;
	}
	discard(r, "C14-13:5");
}

static void
receive_outgoing(uint8_t *smp, bool is_switch, uint8_t in_port, uint8_t nports,
		 struct dr_result *r)
{
	uint8_t *hp = &smp[MAD_DR_HOP_PTR];
	uint8_t hc = smp[MAD_DR_HOP_CNT];

	if (hc != 0 && *hp == 0) {
		/*
		 * C14-9:1: with a permissive DrSLID the sender should have
		 * advanced HopPointer; otherwise the LID-routed part ends
		 * here and the directed part starts at this switch.
		 */
		if (dr_slid_is_permissive(smp) || !is_switch) {
			discard(r, "C14-9:1");
			return;
		}
		*hp = 1;
		forward(r, smp[MAD_DR_INITIAL_PATH + 1], nports, "C14-9:1");
		return;
	}
	if (*hp != 0 && *hp < hc) {
		/* C14-9:2: intermediate hop; only switches relay */
		if (!is_switch) {
			discard(r, "C14-9:2");
			return;
		}
		smp[MAD_DR_RETURN_PATH + *hp] = in_port;
		(*hp)++;
		forward(r, smp[MAD_DR_INITIAL_PATH + *hp], nports, "C14-9:2");
		return;
	}
	if (*hp == hc) {
		/* C14-9:3: end of the directed part */
		if (hc != 0)
			smp[MAD_DR_RETURN_PATH + *hp] = in_port;
		(*hp)++;
		if (dr_dlid_is_permissive(smp))
			set_result(r, DR_HANDLE, DR_LOCAL, 0, 0, "C14-9:3");
		else if (is_switch)
			set_result(r, DR_HANDLE, DR_SEND, 0,
				   mad_get16(smp, MAD_DR_DLID), "C14-9:3");
		else
			discard(r, "C14-9:3");
		return;
	}
	if (*hp == hc + 1) {
		/* C14-9:4: arrived over the LID-routed tail: for the SMA */
		set_result(r, DR_HANDLE, DR_LOCAL, 0, 0, "C14-9:4");
		return;
	}
	/* C14-9:5: unreasonable HopPointer */
	discard(r, "C14-9:5");
}

static void
receive_returning(uint8_t *smp, bool is_switch, uint8_t nports, struct dr_result *r)
{
	uint8_t *hp = &smp[MAD_DR_HOP_PTR];
	uint8_t hc = smp[MAD_DR_HOP_CNT];

	if (hc != 0 && *hp == hc + 1) {
		/*
		 * C14-13:1: the reply came LID-routed to the switch that
		 * ended the directed part; it starts the return walk.
		 */
		if (dr_dlid_is_permissive(smp) || !is_switch) {
			discard(r, "C14-13:1");
			return;
		}
		*hp = hc;
		forward(r, smp[MAD_DR_RETURN_PATH + hc], nports, "C14-13:1");
		return;
	}
	if (*hp >= 2 && *hp <= hc) {
		/* C14-13:2: intermediate hop; only switches relay */
		if (!is_switch) {
			discard(r, "C14-13:2");
			return;
		}
		(*hp)--;
		forward(r, smp[MAD_DR_RETURN_PATH + *hp], nports, "C14-13:2");
		return;
	}
	if (*hp == 1) {
		/* C14-13:3: start of the directed part reached */
		*hp = 0;
		if (dr_slid_is_permissive(smp))
			set_result(r, DR_HANDLE, DR_LOCAL, 0, 0, "C14-13:3");
		else if (is_switch)
			set_result(r, DR_HANDLE, DR_SEND, 0,
				   mad_get16(smp, MAD_DR_SLID), "C14-13:3");
		else
			discard(r, "C14-13:3");
		return;
	}
	if (*hp == 0) {
		/* C14-13:4: arrived over the LID-routed head: for the SM */
		set_result(r, DR_HANDLE, DR_LOCAL, 0, 0, "C14-13:4");
		return;
	}
	/* C14-13:5: unreasonable HopPointer */
	discard(r, "C14-13:5");
}

void
dr_receive(uint8_t *smp, bool is_switch, uint8_t in_port, uint8_t nports,
	   struct dr_result *r)
{
	if (!dr_hop_count_valid(smp)) {
		discard(r, "C14-6");
		return;
	}
	if (!dr_is_returning(smp))
		receive_outgoing(smp, is_switch, in_port, nports, r);
	else
		receive_returning(smp, is_switch, nports, r);
}
