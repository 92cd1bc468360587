/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _IBMAD_SMI_H_
#define _IBMAD_SMI_H_

/*
 * Subnet Management Interface rules for directed-route SMPs (IBA 14.2.2),
 * at a node's SMI: what happens to HopPointer and ReturnPath when an SMP
 * is received on a port or sent from it, and whether the SMP is then
 * handled locally, sent on (LID-routed part) or forwarded (switches).
 *
 * Pure: no state, no I/O, no allocation. Every decision names the
 * compliance statement it applies, for tests and debug logs. The facts
 * are those of IBA 14.2.2.2 (outgoing, D = 0) and 14.2.2.4 (returning,
 * D = 1), as Linux's drivers/infiniband/core/smi.c applies them at a CA
 * and a switch.
 */

#include <stdbool.h>
#include <stdint.h>

/* Byte offsets in a directed-route SMP (IBA 14.2.1.2, figure "SMP
 * format (directed route)").
 */
#define IBMAD_DR_OFF_STATUS        4    /* [15] D bit, [14:0] Status */
#define IBMAD_DR_OFF_HOP_PTR       6
#define IBMAD_DR_OFF_HOP_CNT       7
#define IBMAD_DR_OFF_DRSLID        32
#define IBMAD_DR_OFF_DRDLID        34
#define IBMAD_SMP_OFF_DATA         64   /* SMP data, both SMP formats */
#define IBMAD_SMP_DATA_LEN         64
#define IBMAD_DR_OFF_INITIAL_PATH  128
#define IBMAD_DR_OFF_RETURN_PATH   192
/** Paths hold 64 entries; HopCount is 0..63 (C14-6). */
#define IBMAD_DR_MAX_HOPS          64
/** The D bit in the Status word, host order. */
#define IBMAD_DR_STATUS_D          0x8000

/** What the SMI does with a directed-route SMP. */
enum ibmad_smi_verdict {
	IBMAD_SMI_DISCARD = 0,   /* drop it silently */
	IBMAD_SMI_HANDLE,        /* go on processing it */
};

/** Where a received SMP goes once accepted (14.2.2.2 / 14.2.2.4). */
enum ibmad_smi_next {
	IBMAD_SMI_LOCAL = 0,     /* this node's SMA or SM takes it */
	IBMAD_SMI_SEND,          /* DR part done: send it on, LID routed */
	IBMAD_SMI_FORWARD,       /* intermediate hop: a switch forwards it */
};

/** The directed-route fields of one SMP, read from and written to a MAD. */
struct ibmad_smi_dr {
	uint8_t hop_ptr;
	uint8_t hop_cnt;
	bool returning;              /* D bit */
	bool dlid_permissive;        /* DrDLID == 0xFFFF */
	bool slid_permissive;        /* DrSLID == 0xFFFF */
	uint8_t *initial_path;       /* IBMAD_DR_MAX_HOPS entries */
	uint8_t *return_path;        /* IBMAD_DR_MAX_HOPS entries */
};

/** The node the SMI belongs to, and the port the SMP crosses. */
struct ibmad_smi_node {
	bool is_switch;
	uint8_t port;                /* port received on / sent from */
	uint8_t nports;              /* physical ports */
};

/** View the DR fields of @p mad (a 256-byte DR SMP); paths point into it. */
void ibmad_smi_dr_read(uint8_t *mad, struct ibmad_smi_dr *dr);

/** Store HopPointer back into @p mad (paths were written in place). */
void ibmad_smi_dr_write(uint8_t *mad, const struct ibmad_smi_dr *dr);

/**
 * An SMP is about to leave through node->port (C14-9, C14-13 at the
 * sender): checks it and moves HopPointer. @p rule gets the statement.
 */
enum ibmad_smi_verdict ibmad_smi_dr_send(struct ibmad_smi_dr *dr,
					 const struct ibmad_smi_node *node,
					 const char **rule);

/**
 * An SMP arrived on node->port: checks it and records the ReturnPath
 * entry of an outgoing SMP. @p rule gets the statement.
 */
enum ibmad_smi_verdict ibmad_smi_dr_recv(struct ibmad_smi_dr *dr,
					 const struct ibmad_smi_node *node,
					 const char **rule);

/** Where an SMP accepted by ibmad_smi_dr_recv() goes next. */
enum ibmad_smi_next ibmad_smi_dr_next(const struct ibmad_smi_dr *dr);

/** Egress port of an SMP that ibmad_smi_dr_next() said to forward. */
uint8_t ibmad_smi_dr_fwd_port(const struct ibmad_smi_dr *dr);

/**
 * An SMP this node's SM sends, after ibmad_smi_dr_send(): true when it is
 * addressed to this node's own SMA (HopCount 0: HopPointer now hc + 1).
 */
bool ibmad_smi_dr_is_local_outgoing(const struct ibmad_smi_dr *dr);

/**
 * A reply this node's SMA sends, after ibmad_smi_dr_send(): true when it
 * returns to this node's own SM (D = 1 and HopPointer now 0).
 */
bool ibmad_smi_dr_is_local_returning(const struct ibmad_smi_dr *dr);

#endif /* _IBMAD_SMI_H_ */
