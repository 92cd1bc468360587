/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * A packet in flight and its headers (LRH, GRH, BTH, DETH): building,
 * parsing and the CRCs (pkt.c).
 */

#ifndef _IBFABRIC_FAB_PKT_H_
#define _IBFABRIC_FAB_PKT_H_

#include <stdbool.h>
#include <stdint.h>

struct fab_port;

/* ------------------------------------------------------------------ */
/* Limits                                                              */

#define FAB_PKT_MAX		4224	/**< LRH+GRH+BTH+DETH+4096 payload+ICRC+VCRC, rounded */

/* ------------------------------------------------------------------ */
/* Packets                                                             */

/**
 * A packet in flight. @c data holds the exact wire bytes, LRH first and
 * VCRC last. The fields after @c data are side-band metadata that no
 * real wire carries; the simulator uses them only to report to a
 * umad2sim client that its MAD could not be delivered (ibsim's
 * immediate status-110 echo), never to make forwarding decisions.
 */
struct fab_pkt {
	struct fab_pkt *next;		/**< queue link (link.c) */
	struct fab_port *dst;		/**< receiving port while queued */
	uint32_t len;			/**< bytes in data */
	int origin;			/**< umad2sim client slot that sent it, or -1 */
	uint32_t origin_gen;		/**< that slot's generation, to ignore reused slots */
	uint16_t mad_len;		/**< ibsim "length" of the MAD the client wrote */
	/**
	 * True while the ICRC and VCRC in @c data were computed by pkt.c
	 * over exactly these bytes (pkt_build_ud, pkt_update_crcs,
	 * pkt_set_lids) and nothing has changed them since. Then the
	 * checks of pkt_parse/pkt_parse_link/pkt_check_icrc cannot fail
	 * and are skipped: the outcome is that of checking, at a fraction
	 * of the cost (a 2 KiB datagram is otherwise CRCed five times on
	 * its way). Whoever changes @c data without pkt_update_crcs() must
	 * clear it: link.c's corruption fault and the in-place DR
	 * hop-pointer updates do. The conformance capture test checks every
	 * captured packet's CRCs independently, so a writer that forgot
	 * would be caught there.
	 */
	bool crc_valid;
	/**
	 * The ICRC/VCRC trailer has not been written yet (pkt_build_ud_lazy):
	 * no model of a receiver ever reads it while crc_valid holds, so it
	 * is computed only when something will look at the wire bytes: a
	 * capture, a corruption fault (so that the damage is detectable), an
	 * in-place edit. pkt_seal() writes it. Implies crc_valid.
	 */
	bool crc_pending;
	uint8_t data[FAB_PKT_MAX];
};

/** Header fields of a parsed packet (pkt.c). Offsets index fab_pkt.data. */
struct fab_hdrs {
	/* LRH, IBA 7.7 */
	uint8_t vl;
	uint8_t lver;
	uint8_t sl;
	uint8_t lnh;			/**< 2 = IBA local (BTH), 3 = IBA global (GRH) */
	uint16_t dlid;
	uint16_t slid;
	uint16_t pkt_len_words;		/**< LRH PktLen, 4-byte words from LRH to ICRC */
	/* GRH, IBA 8.3, when lnh == 3 */
	bool has_grh;
	uint8_t tclass;
	uint32_t flow_label;
	uint8_t hop_limit;
	uint8_t next_hdr;
	uint8_t sgid[16];
	uint8_t dgid[16];
	/* BTH, IBA 9.2 */
	uint8_t opcode;
	uint8_t solicited;
	uint8_t migreq;
	uint8_t pad;
	uint8_t tver;
	uint16_t pkey;
	uint32_t dest_qp;
	uint8_t ack_req;
	uint32_t psn;
	/* DETH, IBA 9.3.3 */
	uint32_t qkey;
	uint32_t src_qp;
	/* payload (the MAD for QP0/QP1), without pad */
	uint32_t payload_off;
	uint32_t payload_len;
};

/** Addressing for building a UD packet (pkt_build_ud). */
struct fab_pkt_addr {
	uint8_t vl;			/**< 15 for SMPs (QP0), else from SL */
	uint8_t sl;
	uint16_t dlid;
	uint16_t slid;
	bool grh;
	uint8_t tclass;
	uint32_t flow_label;
	uint8_t hop_limit;
	uint8_t sgid[16];
	uint8_t dgid[16];
	uint16_t pkey;
	uint32_t dest_qp;
	uint32_t psn;
	uint32_t qkey;
	uint32_t src_qp;
	bool solicited;
};

#define FAB_BTH_OP_UD_SEND_ONLY		0x64
#define FAB_BTH_OP_UD_SEND_ONLY_IMM	0x65

/* ------------------------------------------------------------------ */
/* pkt.c */

/**
 * Build a UD SEND-only packet (LRH, optional GRH, BTH, DETH, payload,
 * pad, ICRC, VCRC) carrying @p len bytes of @p payload into @p p.
 * Returns 0 or -EMSGSIZE.
 */
int pkt_build_ud(struct fab_pkt *p, const struct fab_pkt_addr *a,
		 const void *payload, uint32_t len);
/**
 * Parse and check @p p: lengths, LRH LVer/LNH, BTH TVer, opcode, ICRC and
 * VCRC. Returns 0, -EBADMSG (malformed) or -EILSEQ (bad CRC).
 */
int pkt_parse(const struct fab_pkt *p, struct fab_hdrs *h);
/**
 * pkt_parse() without the ICRC check: what a switch verifies on every hop
 * (the VCRC, IBA 7.8.2); the ICRC is end to end (IBA 7.8.1) and checked
 * with pkt_check_icrc() where a packet ends or is rewritten.
 */
int pkt_parse_link(const struct fab_pkt *p, struct fab_hdrs *h);
/** Check the ICRC of a packet that pkt_parse_link() accepted: 0 or -EILSEQ. */
int pkt_check_icrc(const struct fab_pkt *p);
/**
 * pkt_build_ud() without writing the ICRC/VCRC trailer yet (see
 * fab_pkt.crc_pending): for the data path, where most packets are never
 * captured. pkt_seal() writes the trailer; link.c does before a capture
 * or a fault, and any code that edits the bytes must do it first.
 */
int pkt_build_ud_lazy(struct fab_pkt *p, const struct fab_pkt_addr *a,
		      const void *payload, uint32_t len);
/**
 * Where pkt_build_ud() puts the payload of a UD SEND-only packet (with or
 * without a GRH): a caller may assemble the payload there and pass that
 * pointer, saving a copy.
 */
uint32_t pkt_ud_payload_offset(bool grh);
/** Write the pending ICRC/VCRC trailer of @p p, if any. */
void pkt_seal(struct fab_pkt *p);
/** Recompute ICRC and VCRC after the payload or a variant field changed. */
void pkt_update_crcs(struct fab_pkt *p);
/**
 * Rewrite the LRH DLID/SLID (for DR SMPs turned around); the CRCs are
 * regenerated, lazily (the trailer is written by pkt_seal()).
 */
void pkt_set_lids(struct fab_pkt *p, uint16_t dlid, uint16_t slid);

#endif /* _IBFABRIC_FAB_PKT_H_ */
