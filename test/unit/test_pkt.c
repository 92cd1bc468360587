/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * ibfabric packet format (pkt.c): LRH/GRH/BTH/DETH layout, PadCnt, ICRC
 * and VCRC, and the checks of pkt_parse.
 *
 * The CRCs are checked against bitwise reference engines written here
 * from the polynomial definitions (IBA 7.8.1: CRC-32 0x04C11DB7;
 * IBA 7.8.2: CRC-16 0x100B; both seeded with ones, bits taken least
 * significant first as the link serialises them, result complemented,
 * sent least significant byte first), not with pkt.c's tables.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "fab_pkt.h"
#include "test.h"

static struct fab_pkt pkt;

/*
 * Vector 1, derived by hand: a directed-route SubnGet(NodeInfo), hop
 * count 1, InitialPath {0, 1}, TID 0x2a, DrSLID = DrDLID = 0xffff, as an
 * SM sends it from a CA.
 *   LRH (IBA 7.7): VL 15 / LVer 0 -> f0; SL 0, LNH 2 (BTH next) -> 02;
 *     DLID ffff; PktLen = (8 LRH + 12 BTH + 8 DETH + 256 MAD + 4 ICRC)/4
 *     = 72 = 0x0048; SLID ffff.
 *   BTH (IBA 9.2): opcode 0x64 UD SEND only; SE 0 M 0 PadCnt 0 TVer 0 ->
 *     00; P_Key ffff; resv8a 00; DestQP 000000; A 0 -> 00; PSN 000000.
 *   DETH (IBA 9.3.3): Q_Key 00000000; 00; SrcQP 000000.
 * ICRC/VCRC: a local packet (IBA 7.8.1, local case): from Python's
 * zlib.crc32 over the bytes with LRH VL and BTH resv8a set to ones (ICRC
 * 0x402062d4, sent d4 62 20 40), and a bitwise CRC-16/0x100B over
 * LRH..ICRC (VCRC 0xc781, sent 81 c7).
 * tshark 4.0.17 decoded this packet (LINKTYPE rewritten to DLT_USER0
 * with a user_dlts entry for "infiniband", since its pcap reader has no
 * mapping for 247) as: "Virtual Lane: 0xf, Link Version: 0, Link Next
 * Header: 0x2, Destination Local ID: 65535, Packet Length: 72, Source
 * Local ID: 65535, Opcode: Unreliable Datagram (UD) - SEND only (100),
 * Pad Count: 0, Partition Key: 65535, Destination Queue Pair: 0x000000,
 * Management Class: 0x81, Method: Get() (0x01), Attribute ID: 0x0011,
 * Hop Pointer: 0x00, Hop Count: 0x01, Invariant CRC: 0xd4622040,
 * Variant CRC: 0x81c7". That tshark does not verify CRCs; the reference
 * engines below do.
 */
static const uint8_t v1_hdr[28] = {
	0xf0, 0x02, 0xff, 0xff, 0x00, 0x48, 0xff, 0xff,
	0x64, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};
static const uint8_t v1_crcs[6] = { 0xd4, 0x62, 0x20, 0x40, 0x81, 0xc7 };

static void
v1_mad(uint8_t *mad)
{
	memset(mad, 0, 256);
	mad[0] = 1;		/* BaseVersion */
	mad[1] = 0x81;		/* SubnMgt directed route */
	mad[2] = 1;		/* ClassVersion */
	mad[3] = 1;		/* Get */
	mad[7] = 1;		/* HopCount */
	mad[15] = 0x2a;		/* TID */
	mad[17] = 0x11;		/* NodeInfo */
	memset(mad + 32, 0xff, 4);	/* DrSLID, DrDLID */
	mad[129] = 1;		/* InitialPath[1] */
}

static void
v1_addr(struct fab_pkt_addr *a)
{
	memset(a, 0, sizeof(*a));
	a->vl = 15;
	a->dlid = 0xffff;
	a->slid = 0xffff;
	a->pkey = 0xffff;
}

/*
 * Vector 2: a QP1 datagram with a GRH and a 5-byte payload "hello".
 *   LRH: VL 0 LVer 0 -> 00; SL 3 LNH 3 -> 33; DLID 0004; PktLen =
 *     (8 + 40 + 12 + 8 + 5 + 3 pad + 4)/4 = 20 = 0x14; SLID 0002.
 *   GRH (IBA 8.3): IPVer 6, TClass 0x12, FlowLabel 0x34567 ->
 *     61 23 45 67; PayLen = 12 + 8 + 5 + 3 + 4 = 32 -> 0020; NxtHdr 1b;
 *     HopLmt 40; SGID fe80::1; DGID fe80::2.
 *   BTH: 64; PadCnt 3 -> 30; P_Key ffff; 00; DestQP 000001; 00;
 *     PSN 123456. DETH: Q_Key 80010000; 00; SrcQP 000001.
 * tshark decoded Traffic Class 18, Flow Label 214375, Payload Length 32,
 * Next Header 27, Hop Limit 64, Pad Count 3, PSN 1193046. CRCs checked
 * with the reference engines (TClass, FlowLabel, HopLmt masked too).
 */
static const uint8_t v2_hdr[68] = {
	0x00, 0x33, 0x00, 0x04, 0x00, 0x14, 0x00, 0x02,
	0x61, 0x23, 0x45, 0x67, 0x00, 0x20, 0x1b, 0x40,
	0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01,
	0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02,
	0x64, 0x30, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x12, 0x34, 0x56,
	0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
};

static void
v2_addr(struct fab_pkt_addr *a)
{
	memset(a, 0, sizeof(*a));
	a->sl = 3;
	a->dlid = 4;
	a->slid = 2;
	a->pkey = 0xffff;
	a->dest_qp = 1;
	a->src_qp = 1;
	a->qkey = 0x80010000u;
	a->psn = 0x123456;
	a->grh = true;
	a->tclass = 0x12;
	a->flow_label = 0x34567;
	a->hop_limit = 0x40;
	a->sgid[0] = 0xfe;
	a->sgid[1] = 0x80;
	a->sgid[15] = 1;
	a->dgid[0] = 0xfe;
	a->dgid[1] = 0x80;
	a->dgid[15] = 2;
}

/* Reference CRC-32, bit at a time, least significant bit of each byte first. */
static uint32_t
ref_crc32(const uint8_t *d, size_t n)
{
	uint32_t c = 0xffffffffu;
	size_t i;
	int b;

	for (i = 0; i < n; i++)
		for (b = 0; b < 8; b++) {
			uint32_t in = (d[i] >> b) & 1;

			c = ((c ^ in) & 1) ? (c >> 1) ^ 0xedb88320u : c >> 1;
		}
	return ~c;
}

/* Reference CRC-16/0x100B, shift register in polynomial order, then reflected. */
static uint16_t
ref_crc16(const uint8_t *d, size_t n)
{
	uint16_t c = 0xffff, r = 0;
	size_t i;
	int b;

	for (i = 0; i < n; i++)
		for (b = 0; b < 8; b++) {
			unsigned int top = (c >> 15) & 1, in = (d[i] >> b) & 1;

			c = (uint16_t)(c << 1);
			if (top ^ in)
				c ^= 0x100b;
		}
	for (b = 0; b < 16; b++)
		if (c & (1u << b))
			r |= (uint16_t)(1u << (15 - b));
	return (uint16_t)~r;
}

/* Expected ICRC of @p p with the IBA 7.8.1 variant fields masked. */
static uint32_t
ref_icrc(const struct fab_pkt *p)
{
	static uint8_t m[FAB_PKT_MAX];
	size_t n = p->len - 6;
	size_t bth = 8;

	memcpy(m, p->data, n);
	if ((p->data[1] & 3) == 3) {
		memset(m, 0xff, 8);	/* global: the whole LRH */
		m[8] |= 0x0f;
		m[9] = m[10] = m[11] = 0xff;
		m[15] = 0xff;
		bth = 48;
	} else {
		m[0] |= 0xf0;		/* local: LRH VL only */
	}
	m[bth + 4] = 0xff;
	return ref_crc32(m, n);
}

static uint32_t
wire_icrc(struct fab_pkt *p)
{
	const uint8_t *b;

	pkt_seal(p);	/* a lazily built or rewritten packet writes its trailer now */
	b = p->data + p->len - 6;

	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

static uint16_t
wire_vcrc(struct fab_pkt *p)
{
	pkt_seal(p);
	return (uint16_t)(p->data[p->len - 2] | p->data[p->len - 1] << 8);
}

/* Fix only the VCRC, so that a test reaches the ICRC or header checks. */
static void
fix_vcrc(struct fab_pkt *p)
{
	uint16_t v = ref_crc16(p->data, p->len - 2);

	p->data[p->len - 2] = (uint8_t)v;
	p->data[p->len - 1] = (uint8_t)(v >> 8);
	/* the bytes changed behind pkt.c's back: its checks must run */
	p->crc_valid = false;
}

static int
test_vector_dr_smp(void)
{
	struct fab_pkt_addr a;
	struct fab_hdrs h;
	uint8_t mad[256];

	v1_mad(mad);
	v1_addr(&a);
	TEST_ASSERT_SUCCESS(pkt_build_ud(&pkt, &a, mad, sizeof(mad)), "build");
	TEST_ASSERT_EQUAL(pkt.len, 8 + 12 + 8 + 256 + 4 + 2, "length");
	TEST_ASSERT_BUFFERS_EQUAL(pkt.data, v1_hdr, sizeof(v1_hdr), "headers");
	TEST_ASSERT_BUFFERS_EQUAL(pkt.data + 28, mad, 256, "MAD");
	TEST_ASSERT_BUFFERS_EQUAL(pkt.data + 284, v1_crcs, 6, "ICRC/VCRC");
	TEST_ASSERT_EQUAL(wire_icrc(&pkt), ref_icrc(&pkt), "ICRC vs reference");
	TEST_ASSERT_EQUAL(wire_vcrc(&pkt), ref_crc16(pkt.data, pkt.len - 2), "VCRC vs reference");

	TEST_ASSERT_SUCCESS(pkt_parse(&pkt, &h), "parse");
	TEST_ASSERT_EQUAL(h.vl, 15, "VL");
	TEST_ASSERT_EQUAL(h.lnh, 2, "LNH");
	TEST_ASSERT_EQUAL(h.dlid, 0xffff, "DLID");
	TEST_ASSERT_EQUAL(h.slid, 0xffff, "SLID");
	TEST_ASSERT_EQUAL(h.pkt_len_words, 72, "PktLen");
	TEST_ASSERT(!h.has_grh, "no GRH");
	TEST_ASSERT_EQUAL(h.opcode, FAB_BTH_OP_UD_SEND_ONLY, "opcode");
	TEST_ASSERT_EQUAL(h.pkey, 0xffff, "P_Key");
	TEST_ASSERT_EQUAL(h.dest_qp, 0, "QP0");
	TEST_ASSERT_EQUAL(h.payload_off, 28, "payload offset");
	TEST_ASSERT_EQUAL(h.payload_len, 256, "payload length");
	return TEST_SUCCESS;
}

static int
test_vector_grh_pad(void)
{
	struct fab_pkt_addr a;
	struct fab_hdrs h;

	v2_addr(&a);
	TEST_ASSERT_SUCCESS(pkt_build_ud(&pkt, &a, "hello", 5), "build");
	TEST_ASSERT_EQUAL(pkt.len, 68 + 5 + 3 + 4 + 2, "length");
	TEST_ASSERT_BUFFERS_EQUAL(pkt.data, v2_hdr, sizeof(v2_hdr), "headers");
	TEST_ASSERT_BUFFERS_EQUAL(pkt.data + 68, "hello\0\0\0", 8, "payload and zero pad");
	TEST_ASSERT_EQUAL(wire_icrc(&pkt), ref_icrc(&pkt), "ICRC vs reference");
	TEST_ASSERT_EQUAL(wire_vcrc(&pkt), ref_crc16(pkt.data, pkt.len - 2), "VCRC vs reference");

	TEST_ASSERT_SUCCESS(pkt_parse(&pkt, &h), "parse");
	TEST_ASSERT(h.has_grh, "GRH");
	TEST_ASSERT_EQUAL(h.tclass, 0x12, "TClass");
	TEST_ASSERT_EQUAL(h.flow_label, 0x34567, "FlowLabel");
	TEST_ASSERT_EQUAL(h.hop_limit, 0x40, "HopLmt");
	TEST_ASSERT_EQUAL(h.next_hdr, 0x1b, "NxtHdr");
	TEST_ASSERT_EQUAL(h.sgid[15], 1, "SGID");
	TEST_ASSERT_EQUAL(h.dgid[15], 2, "DGID");
	TEST_ASSERT_EQUAL(h.pad, 3, "PadCnt");
	TEST_ASSERT_EQUAL(h.psn, 0x123456, "PSN");
	TEST_ASSERT_EQUAL(h.qkey, 0x80010000u, "Q_Key");
	TEST_ASSERT_EQUAL(h.src_qp, 1, "SrcQP");
	TEST_ASSERT_EQUAL(h.payload_off, 68, "payload offset");
	TEST_ASSERT_EQUAL(h.payload_len, 5, "payload length without pad");
	return TEST_SUCCESS;
}

/* IBA 7.8.1: changing a variant field leaves the ICRC as it was. */
/*
 * IBA 7.8.1, local case: only LRH VL is variant, so SL and the LIDs of a
 * packet without a GRH are covered by the ICRC.
 */
static int
test_local_lrh_invariant(void)
{
	struct fab_pkt_addr a;
	uint8_t mad[256];
	uint32_t icrc;

	v1_addr(&a);
	v1_mad(mad);
	TEST_ASSERT_SUCCESS(pkt_build_ud(&pkt, &a, mad, sizeof(mad)), "build");
	icrc = wire_icrc(&pkt);
	pkt.data[0] = (uint8_t)(pkt.data[0] & 0x0f);	/* VL 15 -> 0: variant */
	pkt_update_crcs(&pkt);
	TEST_ASSERT_EQUAL(wire_icrc(&pkt), icrc, "local: VL is variant");
	pkt_set_lids(&pkt, 3, 0xffff);
	TEST_ASSERT(wire_icrc(&pkt) != icrc, "local: DLID is invariant");
	TEST_ASSERT_EQUAL(wire_icrc(&pkt), ref_icrc(&pkt), "ICRC vs reference");
	return TEST_SUCCESS;
}

/*
 * fab_pkt.crc_valid: set by every pkt.c writer of CRCs; while set, the
 * checks are skipped (they could not fail); cleared, they run again and
 * catch a byte changed behind pkt.c's back.
 */
static int
test_crc_valid_flag(void)
{
	struct fab_pkt_addr a;
	struct fab_hdrs h;
	uint8_t mad[256];

	v1_mad(mad);
	v1_addr(&a);
	TEST_ASSERT_SUCCESS(pkt_build_ud(&pkt, &a, mad, sizeof(mad)), "build");
	TEST_ASSERT(pkt.crc_valid, "pkt_build_ud sets crc_valid");
	TEST_ASSERT_SUCCESS(pkt_parse(&pkt, &h), "parse");
	pkt.data[100] ^= 0x01;
	pkt.crc_valid = false;
	TEST_ASSERT_EQUAL(pkt_parse_link(&pkt, &h), -EILSEQ, "VCRC checked again");
	TEST_ASSERT_EQUAL(pkt_check_icrc(&pkt), -EILSEQ, "ICRC checked again");
	pkt_update_crcs(&pkt);
	TEST_ASSERT(pkt.crc_valid, "pkt_update_crcs sets crc_valid");
	TEST_ASSERT_EQUAL(wire_icrc(&pkt), ref_icrc(&pkt), "resealed ICRC");
	pkt.crc_valid = false;
	TEST_ASSERT_SUCCESS(pkt_parse(&pkt, &h), "resealed packet passes the full check");
	return TEST_SUCCESS;
}

/*
 * pkt_build_ud_lazy(): same bytes as pkt_build_ud() once pkt_seal()
 * wrote the trailer; until then the packet parses (its CRCs are right
 * by construction) and the trailer is untouched.
 */
static int
test_lazy_seal(void)
{
	static struct fab_pkt eager;
	struct fab_pkt_addr a;
	struct fab_hdrs h;

	v2_addr(&a);
	TEST_ASSERT_SUCCESS(pkt_build_ud(&eager, &a, "hello", 5), "eager build");
	memset(pkt.data, 0xa5, sizeof(pkt.data));
	pkt.crc_valid = false;
	TEST_ASSERT_SUCCESS(pkt_build_ud_lazy(&pkt, &a, "hello", 5), "lazy build");
	TEST_ASSERT(pkt.crc_valid && pkt.crc_pending, "lazy packet is valid, trailer pending");
	TEST_ASSERT_EQUAL(pkt.len, eager.len, "same length");
	TEST_ASSERT_BUFFERS_EQUAL(pkt.data, eager.data, pkt.len - 6, "same headers and payload");
	TEST_ASSERT_EQUAL(pkt.data[pkt.len - 1], 0xa5, "trailer not written yet");
	TEST_ASSERT_SUCCESS(pkt_parse(&pkt, &h), "a pending packet parses");
	pkt_seal(&pkt);
	TEST_ASSERT(!pkt.crc_pending && pkt.crc_valid, "sealed");
	TEST_ASSERT_BUFFERS_EQUAL(pkt.data, eager.data, pkt.len, "sealed = eager, CRCs included");
	pkt.crc_valid = false;
	TEST_ASSERT_SUCCESS(pkt_parse(&pkt, &h), "sealed packet passes the full check");
	return TEST_SUCCESS;
}

static int
test_variant_fields(void)
{
	struct fab_pkt_addr a;
	struct fab_hdrs h;
	uint32_t icrc;
	uint16_t vcrc;

	v2_addr(&a);
	TEST_ASSERT_SUCCESS(pkt_build_ud(&pkt, &a, "hello", 5), "build");
	icrc = wire_icrc(&pkt);
	vcrc = wire_vcrc(&pkt);
	pkt.data[0] = (uint8_t)(pkt.data[0] | 0x50);	/* VL 5 */
	pkt.data[1] = (uint8_t)(pkt.data[1] ^ 0xf0);	/* SL: global, whole LRH variant */
	pkt.data[9] ^= 0xff;				/* TClass low, FlowLabel high */
	pkt.data[15] = 0x01;				/* HopLmt */
	pkt.data[68 - 20 + 4] = 0x5a;			/* BTH resv8a */
	pkt_update_crcs(&pkt);
	TEST_ASSERT_EQUAL(wire_icrc(&pkt), icrc, "ICRC covers only invariant fields");
	TEST_ASSERT(wire_vcrc(&pkt) != vcrc, "VCRC covers everything");
	TEST_ASSERT_SUCCESS(pkt_parse(&pkt, &h), "still parses");

	/* in a global packet a router may rewrite the LIDs: the ICRC stays */
	pkt_set_lids(&pkt, 7, 2);
	TEST_ASSERT_EQUAL(wire_icrc(&pkt), icrc, "DLID is variant (LRH)");
	TEST_ASSERT_SUCCESS(pkt_parse(&pkt, &h), "parses after pkt_set_lids");
	TEST_ASSERT_EQUAL(h.dlid, 7, "new DLID");
	TEST_ASSERT_EQUAL(wire_icrc(&pkt), ref_icrc(&pkt), "ICRC vs reference");

	/* an invariant field (BTH DestQP) does change the ICRC */
	pkt.data[48 + 7] ^= 0x02;
	pkt_update_crcs(&pkt);
	TEST_ASSERT(wire_icrc(&pkt) != icrc, "DestQP is invariant");
	TEST_ASSERT_EQUAL(wire_icrc(&pkt), ref_icrc(&pkt), "ICRC vs reference");
	return TEST_SUCCESS;
}

/* Build vector 1, apply @p edit to byte @p off, fix the VCRC, expect @p rc. */
static int
expect_reject(unsigned int off, uint8_t val, int rc, const char *what)
{
	struct fab_pkt_addr a;
	struct fab_hdrs h;
	uint8_t mad[256];
	int got;

	v1_mad(mad);
	v1_addr(&a);
	if (pkt_build_ud(&pkt, &a, mad, sizeof(mad)) != 0)
		return TEST_FAILED;
	pkt.data[off] = val;
	fix_vcrc(&pkt);
	got = pkt_parse(&pkt, &h);
	TEST_ASSERT_EQUAL(got, rc, "%s", what);
	return TEST_SUCCESS;
}

static int
test_parse_rejects(void)
{
	struct fab_pkt_addr a;
	struct fab_hdrs h;
	uint8_t mad[256];

	/* IBA 7.7.2 LVer 1 */
	TEST_ASSERT_SUCCESS(expect_reject(0, 0xf1, -EBADMSG, "LVer 1"), "LVer");
	/* IBA 7.7.3 LNH 0 (raw) and 1 (IPv6 raw) */
	TEST_ASSERT_SUCCESS(expect_reject(1, 0x00, -EBADMSG, "LNH 0"), "LNH 0");
	TEST_ASSERT_SUCCESS(expect_reject(1, 0x01, -EBADMSG, "LNH 1"), "LNH 1");
	/* LNH 3 without a GRH: IPVer is not 6 */
	TEST_ASSERT_SUCCESS(expect_reject(1, 0x03, -EBADMSG, "LNH 3, no GRH"), "GRH");
	/* PktLen 71 and 73 against a 72-word packet */
	TEST_ASSERT_SUCCESS(expect_reject(5, 0x47, -EBADMSG, "PktLen 71"), "PktLen");
	TEST_ASSERT_SUCCESS(expect_reject(5, 0x49, -EBADMSG, "PktLen 73"), "PktLen");
	/* IBA 9.2.6 TVer 1 */
	TEST_ASSERT_SUCCESS(expect_reject(9, 0x01, -EBADMSG, "TVer 1"), "TVer");
	/* not a UD SEND: RC SEND only (0x04) */
	TEST_ASSERT_SUCCESS(expect_reject(8, 0x04, -EBADMSG, "opcode 0x04"), "opcode");
	/* payload byte changed, VCRC fixed: the ICRC catches it */
	TEST_ASSERT_SUCCESS(expect_reject(100, 0x55, -EILSEQ, "payload corrupt"), "ICRC");
	/* ICRC byte itself wrong */
	TEST_ASSERT_SUCCESS(expect_reject(284, 0x00, -EILSEQ, "ICRC byte"), "ICRC");

	/* bad VCRC, nothing else changed */
	v1_mad(mad);
	v1_addr(&a);
	TEST_ASSERT_SUCCESS(pkt_build_ud(&pkt, &a, mad, sizeof(mad)), "build");
	pkt.data[pkt.len - 1] ^= 1;
	pkt.crc_valid = false;
	TEST_ASSERT_EQUAL(pkt_parse(&pkt, &h), -EILSEQ, "VCRC");

	/*
	 * IBA 8.3.1, a global packet: GRH PayLen (bytes 12..13) must count
	 * BTH..ICRC, NxtHdr (byte 14) must be 0x1B; the header check refuses
	 * them (-EBADMSG), before the ICRC would (-EILSEQ).
	 */
	v2_addr(&a);
	TEST_ASSERT_SUCCESS(pkt_build_ud(&pkt, &a, "hello", 5), "build");
	pkt.data[13] ^= 0x04;
	fix_vcrc(&pkt);
	TEST_ASSERT_EQUAL(pkt_parse(&pkt, &h), -EBADMSG, "GRH PayLen off by 4");
	TEST_ASSERT_SUCCESS(pkt_build_ud(&pkt, &a, "hello", 5), "build");
	pkt.data[14] = 0x11;
	fix_vcrc(&pkt);
	TEST_ASSERT_EQUAL(pkt_parse(&pkt, &h), -EBADMSG, "GRH NxtHdr 0x11 (UDP)");

	/* PadCnt larger than the payload of a packet with an empty payload */
	memset(&a, 0, sizeof(a));
	TEST_ASSERT_SUCCESS(pkt_build_ud(&pkt, &a, mad, 0), "empty payload");
	TEST_ASSERT_SUCCESS(pkt_parse(&pkt, &h), "empty payload parses");
	TEST_ASSERT_EQUAL(h.payload_len, 0, "empty");
	pkt.data[9] = 0x30;
	pkt_update_crcs(&pkt);
	TEST_ASSERT_EQUAL(pkt_parse(&pkt, &h), -EBADMSG, "PadCnt beyond payload");
	return TEST_SUCCESS;
}

/* Every truncation of a valid packet is rejected (and nothing past len is read). */
static int
test_parse_truncated(void)
{
	struct fab_pkt_addr a;
	struct fab_hdrs h;
	uint32_t full, n;

	v2_addr(&a);
	TEST_ASSERT_SUCCESS(pkt_build_ud(&pkt, &a, "hello", 5), "build");
	full = pkt.len;
	for (n = 0; n < full; n++) {
		pkt.len = n;
		TEST_ASSERT(pkt_parse(&pkt, &h) != 0, "len %u accepted", n);
	}
	pkt.len = FAB_PKT_MAX + 2;
	TEST_ASSERT_EQUAL(pkt_parse(&pkt, &h), -EBADMSG, "len beyond the buffer");
	return TEST_SUCCESS;
}

static int
test_build_limits(void)
{
	static uint8_t big[FAB_PKT_MAX];
	struct fab_pkt_addr a;
	struct fab_hdrs h;

	v2_addr(&a);
	/* 4096-byte payload (the largest IB MTU) fits with a GRH */
	TEST_ASSERT_SUCCESS(pkt_build_ud(&pkt, &a, big, 4096), "4096 bytes");
	TEST_ASSERT_SUCCESS(pkt_parse(&pkt, &h), "parses");
	TEST_ASSERT_EQUAL(h.payload_len, 4096, "length");
	TEST_ASSERT_EQUAL(pkt_build_ud(&pkt, &a, big, FAB_PKT_MAX - 70), -EMSGSIZE, "too big");
	return TEST_SUCCESS;
}

/* A request's MAD inside the packet can be rebuilt into its own reply. */
static int
test_build_in_place(void)
{
	struct fab_pkt_addr a;
	struct fab_hdrs h;
	uint8_t mad[256];

	v1_mad(mad);
	v1_addr(&a);
	TEST_ASSERT_SUCCESS(pkt_build_ud(&pkt, &a, mad, sizeof(mad)), "build");
	v2_addr(&a);		/* reply with a GRH: the payload moves by 40 bytes */
	TEST_ASSERT_SUCCESS(pkt_build_ud(&pkt, &a, pkt.data + 28, 256), "rebuild");
	TEST_ASSERT_SUCCESS(pkt_parse(&pkt, &h), "parses");
	TEST_ASSERT_BUFFERS_EQUAL(pkt.data + h.payload_off, mad, 256, "MAD preserved");
	return TEST_SUCCESS;
}

/*
 * pkt_parse_link() is the per-hop check (VCRC only, IBA 7.8.2); the ICRC
 * is end to end (IBA 7.8.1) and checked by pkt_check_icrc().
 */
static int
test_link_vs_end_checks(void)
{
	struct fab_pkt_addr a;
	struct fab_hdrs h;
	uint8_t mad[256];

	v1_mad(mad);
	v1_addr(&a);
	TEST_ASSERT_SUCCESS(pkt_build_ud(&pkt, &a, mad, sizeof(mad)), "build");
	TEST_ASSERT_SUCCESS(pkt_check_icrc(&pkt), "fresh ICRC");
	pkt.data[100] ^= 0x10;
	fix_vcrc(&pkt);
	TEST_ASSERT_SUCCESS(pkt_parse_link(&pkt, &h), "a hop sees a good VCRC");
	TEST_ASSERT_EQUAL(h.payload_len, 256, "headers parsed");
	TEST_ASSERT_EQUAL(pkt_check_icrc(&pkt), -EILSEQ, "the end node sees the bad ICRC");
	TEST_ASSERT_EQUAL(pkt_parse(&pkt, &h), -EILSEQ, "full parse too");
	pkt.data[pkt.len - 1] ^= 1;
	TEST_ASSERT_EQUAL(pkt_parse_link(&pkt, &h), -EILSEQ, "bad VCRC on a hop");
	return TEST_SUCCESS;
}

/*
 * Every payload length 0..600 and a few large ones, with and without a
 * GRH, against the bitwise reference engines: covers pkt.c's table
 * engine (short spans), its 16-byte folding (long spans) and every tail
 * length after the last folded block.
 */
static int
test_crc_lengths(void)
{
	static const uint32_t big[] = { 1000, 2044, 2048, 4093, 4096 };
	static uint8_t payload[4096];
	struct fab_pkt_addr a;
	struct fab_hdrs h;
	uint32_t len, x = 12345;
	unsigned int i, g;

	for (i = 0; i < sizeof(payload); i++) {
		x = x * 1103515245u + 12345u;		/* any bytes will do */
		payload[i] = (uint8_t)(x >> 16);
	}
	for (g = 0; g < 2; g++) {
		v2_addr(&a);
		a.grh = g != 0;
		for (i = 0; i < 601 + sizeof(big) / sizeof(big[0]); i++) {
			len = i <= 600 ? i : big[i - 601];
			TEST_ASSERT_SUCCESS(pkt_build_ud(&pkt, &a, payload, len), "build %u", len);
			TEST_ASSERT_EQUAL(wire_icrc(&pkt), ref_icrc(&pkt), "ICRC, payload %u grh %u",
					  len, g);
			TEST_ASSERT_EQUAL(wire_vcrc(&pkt), ref_crc16(pkt.data, pkt.len - 2),
					  "VCRC, payload %u grh %u", len, g);
			TEST_ASSERT_SUCCESS(pkt_parse(&pkt, &h), "parse %u", len);
		}
	}
	return TEST_SUCCESS;
}

static struct unit_test_suite pkt_suite = {
	.suite_name = "ibfabric packets (pkt.c)",
	.unit_test_cases = {
		TEST_CASE(test_vector_dr_smp),
		TEST_CASE(test_local_lrh_invariant),
		TEST_CASE(test_crc_valid_flag),
		TEST_CASE(test_lazy_seal),
		TEST_CASE(test_vector_grh_pad),
		TEST_CASE(test_variant_fields),
		TEST_CASE(test_parse_rejects),
		TEST_CASE(test_parse_truncated),
		TEST_CASE(test_build_limits),
		TEST_CASE(test_build_in_place),
		TEST_CASE(test_link_vs_end_checks),
		TEST_CASE(test_crc_lengths),
		TEST_CASES_END(),
	},
};

int
main(void)
{
	return unit_test_suite_runner(&pkt_suite);
}
