/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Directed-route SMP rules at a node's SMI (IBA 14.2.2). See smi.h.
 *
 * HopPointer moves on the sending side only: a sender of an outgoing SMP
 * increments it before it leaves (so a receiver finds it pointing at its
 * own hop), a sender of a returning SMP decrements it; a receiver checks
 * it and records the ReturnPath entry of its own hop.
 */

#include <stddef.h>

#include "smi.h"

#define RULE(r, s) do { if ((r) != NULL) *(r) = (s); } while (0)

void
ibmad_smi_dr_read(uint8_t *mad, struct ibmad_smi_dr *dr)
{
	uint16_t status = (uint16_t)(mad[IBMAD_DR_OFF_STATUS] << 8 |
				     mad[IBMAD_DR_OFF_STATUS + 1]);

	dr->hop_ptr = mad[IBMAD_DR_OFF_HOP_PTR];
	dr->hop_cnt = mad[IBMAD_DR_OFF_HOP_CNT];
	dr->returning = (status & IBMAD_DR_STATUS_D) != 0;
	dr->slid_permissive = mad[IBMAD_DR_OFF_DRSLID] == 0xff &&
		mad[IBMAD_DR_OFF_DRSLID + 1] == 0xff;
	dr->dlid_permissive = mad[IBMAD_DR_OFF_DRDLID] == 0xff &&
		mad[IBMAD_DR_OFF_DRDLID + 1] == 0xff;
	dr->initial_path = mad + IBMAD_DR_OFF_INITIAL_PATH;
	dr->return_path = mad + IBMAD_DR_OFF_RETURN_PATH;
}

void
ibmad_smi_dr_write(uint8_t *mad, const struct ibmad_smi_dr *dr)
{
	mad[IBMAD_DR_OFF_HOP_PTR] = dr->hop_ptr;
}

/* Outgoing SMP (D = 0) leaving node->port: 14.2.2.2. */
static enum ibmad_smi_verdict
smi_send_outgoing(struct ibmad_smi_dr *dr, const struct ibmad_smi_node *node,
		  const char **rule)
{
	uint8_t hc = dr->hop_cnt;

	if (hc != 0 && dr->hop_ptr == 0) {
		/* The originator of a path of hc hops: first hop. */
		RULE(rule, "C14-9:1");
		dr->hop_ptr++;
		return dr->initial_path[dr->hop_ptr] == node->port ?
			IBMAD_SMI_HANDLE : IBMAD_SMI_DISCARD;
	}
	if (dr->hop_ptr != 0 && dr->hop_ptr < hc) {
		/* An intermediate hop: only a switch relays. */
		RULE(rule, "C14-9:2");
		if (!node->is_switch)
			return IBMAD_SMI_DISCARD;
		dr->hop_ptr++;
		return dr->initial_path[dr->hop_ptr] == node->port ?
			IBMAD_SMI_HANDLE : IBMAD_SMI_DISCARD;
	}
	if (dr->hop_ptr == hc) {
		/* End of the directed part: on to DrDLID, or (permissive)
		 * to this node's own SMA.
		 */
		RULE(rule, "C14-9:3");
		dr->hop_ptr++;
		return node->is_switch || dr->dlid_permissive ?
			IBMAD_SMI_HANDLE : IBMAD_SMI_DISCARD;
	}
	if (dr->hop_ptr == hc + 1) {
		RULE(rule, "C14-9:4");
		return IBMAD_SMI_HANDLE;
	}
	RULE(rule, "C14-9:5");
	return IBMAD_SMI_DISCARD;
}

/* Returning SMP (D = 1) leaving node->port: 14.2.2.4. */
static enum ibmad_smi_verdict
smi_send_returning(struct ibmad_smi_dr *dr, const struct ibmad_smi_node *node,
		   const char **rule)
{
	uint8_t hc = dr->hop_cnt;

	if (hc != 0 && dr->hop_ptr == hc + 1) {
		/* The responder: back out the port the request came in. */
		RULE(rule, "C14-13:1");
		dr->hop_ptr--;
		return dr->return_path[dr->hop_ptr] == node->port ?
			IBMAD_SMI_HANDLE : IBMAD_SMI_DISCARD;
	}
	if (dr->hop_ptr >= 2 && dr->hop_ptr <= hc) {
		RULE(rule, "C14-13:2");
		if (!node->is_switch)
			return IBMAD_SMI_DISCARD;
		dr->hop_ptr--;
		return dr->return_path[dr->hop_ptr] == node->port ?
			IBMAD_SMI_HANDLE : IBMAD_SMI_DISCARD;
	}
	if (dr->hop_ptr == 1) {
		/* End of the directed part: on to DrSLID, or (permissive)
		 * to this node's own SM.
		 */
		RULE(rule, "C14-13:3");
		dr->hop_ptr--;
		return node->is_switch || dr->slid_permissive ?
			IBMAD_SMI_HANDLE : IBMAD_SMI_DISCARD;
	}
	if (dr->hop_ptr == 0) {
		RULE(rule, "C14-13:4");
		return IBMAD_SMI_HANDLE;
	}
	RULE(rule, "C14-13:5");
	return IBMAD_SMI_DISCARD;
}

enum ibmad_smi_verdict
ibmad_smi_dr_send(struct ibmad_smi_dr *dr, const struct ibmad_smi_node *node,
		  const char **rule)
{
	if (dr->hop_cnt >= IBMAD_DR_MAX_HOPS) {
		RULE(rule, "C14-6");
		return IBMAD_SMI_DISCARD;
	}
	return dr->returning ? smi_send_returning(dr, node, rule) :
		smi_send_outgoing(dr, node, rule);
}

/* Outgoing SMP (D = 0) arriving on node->port: 14.2.2.2. */
static enum ibmad_smi_verdict
smi_recv_outgoing(struct ibmad_smi_dr *dr, const struct ibmad_smi_node *node,
		  const char **rule)
{
	uint8_t hc = dr->hop_cnt;

	if (hc != 0 && dr->hop_ptr == 0) {
		/* The sender should have moved HopPointer to 1. */
		RULE(rule, "C14-9:1");
		return IBMAD_SMI_DISCARD;
	}
	if (dr->hop_ptr != 0 && dr->hop_ptr < hc) {
		RULE(rule, "C14-9:2");
		if (!node->is_switch)
			return IBMAD_SMI_DISCARD;
		dr->return_path[dr->hop_ptr] = node->port;
		return dr->initial_path[dr->hop_ptr + 1] <= node->nports ?
			IBMAD_SMI_HANDLE : IBMAD_SMI_DISCARD;
	}
	if (dr->hop_ptr == hc) {
		RULE(rule, "C14-9:3");
		if (hc != 0)
			dr->return_path[dr->hop_ptr] = node->port;
		return node->is_switch || dr->dlid_permissive ?
			IBMAD_SMI_HANDLE : IBMAD_SMI_DISCARD;
	}
	if (dr->hop_ptr == hc + 1) {
		RULE(rule, "C14-9:4");
		return IBMAD_SMI_HANDLE;
	}
	RULE(rule, "C14-9:5");
	return IBMAD_SMI_DISCARD;
}

/* Returning SMP (D = 1) arriving on node->port: 14.2.2.4. */
static enum ibmad_smi_verdict
smi_recv_returning(struct ibmad_smi_dr *dr, const struct ibmad_smi_node *node,
		   const char **rule)
{
	uint8_t hc = dr->hop_cnt;

	if (hc != 0 && dr->hop_ptr == hc + 1) {
		/* The LID-routed part of the reply ends here. */
		RULE(rule, "C14-13:1");
		dr->hop_ptr--;
		return dr->return_path[dr->hop_ptr] == node->port ?
			IBMAD_SMI_HANDLE : IBMAD_SMI_DISCARD;
	}
	if (dr->hop_ptr >= 2 && dr->hop_ptr <= hc) {
		RULE(rule, "C14-13:2");
		if (!node->is_switch)
			return IBMAD_SMI_DISCARD;
		return dr->return_path[dr->hop_ptr - 1] <= node->nports ?
			IBMAD_SMI_HANDLE : IBMAD_SMI_DISCARD;
	}
	if (dr->hop_ptr == 1) {
		RULE(rule, "C14-13:3");
		if (dr->slid_permissive) {
			/* Back at the requester: hand it to the SM. */
			dr->hop_ptr--;
			return IBMAD_SMI_HANDLE;
		}
		return node->is_switch ? IBMAD_SMI_HANDLE : IBMAD_SMI_DISCARD;
	}
	if (dr->hop_ptr == 0) {
		RULE(rule, "C14-13:4");
		return IBMAD_SMI_HANDLE;
	}
	RULE(rule, "C14-13:5");
	return IBMAD_SMI_DISCARD;
}

enum ibmad_smi_verdict
ibmad_smi_dr_recv(struct ibmad_smi_dr *dr, const struct ibmad_smi_node *node,
		  const char **rule)
{
	if (dr->hop_cnt >= IBMAD_DR_MAX_HOPS) {
		RULE(rule, "C14-6");
		return IBMAD_SMI_DISCARD;
	}
	return dr->returning ? smi_recv_returning(dr, node, rule) :
		smi_recv_outgoing(dr, node, rule);
}

enum ibmad_smi_next
ibmad_smi_dr_next(const struct ibmad_smi_dr *dr)
{
	if (!dr->returning) {
		if (dr->hop_ptr != 0 && dr->hop_ptr < dr->hop_cnt)
			return IBMAD_SMI_FORWARD;
		/* End of the directed part: with a permissive DrDLID this
		 * node is the destination, reached by finishing the send
		 * step (C14-9:3 moves HopPointer to hc + 1).
		 */
		if (dr->hop_ptr == dr->hop_cnt)
			return dr->dlid_permissive ? IBMAD_SMI_SEND : IBMAD_SMI_LOCAL;
		return IBMAD_SMI_LOCAL;
	}
	if (dr->hop_ptr >= 2 && dr->hop_ptr <= dr->hop_cnt)
		return IBMAD_SMI_FORWARD;
	if (dr->hop_ptr == 1)
		return dr->slid_permissive ? IBMAD_SMI_LOCAL : IBMAD_SMI_SEND;
	return IBMAD_SMI_LOCAL;
}

uint8_t
ibmad_smi_dr_fwd_port(const struct ibmad_smi_dr *dr)
{
	if (!dr->returning)
		return dr->hop_ptr + 1 < IBMAD_DR_MAX_HOPS ?
			dr->initial_path[dr->hop_ptr + 1] : 0;
	return dr->hop_ptr >= 1 && dr->hop_ptr <= IBMAD_DR_MAX_HOPS ?
		dr->return_path[dr->hop_ptr - 1] : 0;
}

bool
ibmad_smi_dr_is_local_outgoing(const struct ibmad_smi_dr *dr)
{
	return !dr->returning && dr->hop_ptr == dr->hop_cnt + 1;
}

bool
ibmad_smi_dr_is_local_returning(const struct ibmad_smi_dr *dr)
{
	return dr->returning && dr->hop_ptr == 0;
}
