/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * ibfabric's CRC engines (pkt.c) against packets that real InfiniBand
 * silicon sent: an independent oracle for IBA 7.8.1's ICRC masks (the
 * model's own vectors in test_pkt.c come from the same reading of the
 * specification as the code).
 *
 * The capture (argv[1], test/data/captures/infiniband.pcap, kept
 * byte for byte; sha256 4aff5a8d...0796f5444) is a public sample capture
 * of a live IB link, published in the GitHub repository
 * srinivaskoritala/rdma-softroce-demo as infiniband.pcap (commit
 * 091d8b4a3640e815425f144466fc7e7344e1b38d, blob cfe28f69). It is
 * LINKTYPE_ERF: each record is an Endace ERF header of type 21
 * (TYPE_INFINIBAND, the record a DAG card tapping an IB link writes)
 * followed by the packet as it was on the wire, LRH to VCRC. The ICRCs
 * were computed by the sending HCAs (GUIDs 00:02:c9:03:00:00:1f:2d and
 * 00:02:c9:02:00:24:f6:36, Mellanox OUI); the VCRCs by the last switch
 * or HCA on the link.
 *
 * Counts, from tshark 4.0's decoding of the file (a separate reading):
 * 43 frames; 6 with LNH 3 (a GRH: IPoIB broadcast/multicast UD sends,
 * frames 3-5 and 24-26); 6 on VL 15 (directed-route SMPs); 24 UD
 * SEND-only (opcode 0x64), the rest RC SEND-only (0x04) and RC
 * Acknowledge (0x11).
 */

#include <errno.h>
#include <pcap/pcap.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "fab_pkt.h"
#include "test.h"

#define ERF_HDR_LEN		16
#define ERF_TYPE_INFINIBAND	21
#define N_FRAMES		43

static const char *capture;
static struct fab_pkt frames[N_FRAMES];
static unsigned int n_frames;
static char err[PCAP_ERRBUF_SIZE + 128];

/* Read every ERF record of @p path into frames[]: -1 with err[] set on a bad file. */
static int
load(const char *path)
{
	char ebuf[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *ph;
	const u_char *d;
	pcap_t *pc;
	int rc;

	pc = pcap_open_offline(path, ebuf);
	if (pc == NULL) {
		snprintf(err, sizeof(err), "%s: %s", path, ebuf);
		return -1;
	}
	if (pcap_datalink(pc) != DLT_ERF) {
		snprintf(err, sizeof(err), "%s: link type %d, not ERF", path, pcap_datalink(pc));
		pcap_close(pc);
		return -1;
	}
	n_frames = 0;
	while ((rc = pcap_next_ex(pc, &ph, &d)) == 1) {
		unsigned int wlen;
		struct fab_pkt *p;

		if (n_frames == N_FRAMES) {
			snprintf(err, sizeof(err), "%s: more than %d records", path, N_FRAMES);
			break;
		}
		/* ERF: type (bit 7: an extension header follows), wlen at 14 */
		if (ph->caplen < ERF_HDR_LEN || d[8] != ERF_TYPE_INFINIBAND) {
			snprintf(err, sizeof(err), "%s: record %u is not a plain InfiniBand ERF record",
				 path, n_frames + 1);
			break;
		}
		wlen = (unsigned int)d[14] << 8 | d[15];
		if (wlen > ph->caplen - ERF_HDR_LEN || wlen > FAB_PKT_MAX) {
			snprintf(err, sizeof(err), "%s: record %u: wire length %u of %u bytes",
				 path, n_frames + 1, wlen, ph->caplen - ERF_HDR_LEN);
			break;
		}
		p = &frames[n_frames++];
		memset(p, 0, sizeof(*p));
		p->len = wlen;
		memcpy(p->data, d + ERF_HDR_LEN, wlen);
	}
	if (rc == PCAP_ERROR)
		snprintf(err, sizeof(err), "%s: %s", path, pcap_geterr(pc));
	pcap_close(pc);
	return rc == PCAP_ERROR_BREAK ? 0 : -1;
}

static bool
is_global(const struct fab_pkt *p)
{
	return (p->data[1] & 3) == 3;
}

/* BTH offset: after the LRH, and the GRH when LNH says one follows */
static uint32_t
bth_off(const struct fab_pkt *p)
{
	return is_global(p) ? 8 + 40 : 8;
}

static int
test_capture_as_published(void)
{
	unsigned int i, global = 0, vl15 = 0, ud = 0;

	TEST_ASSERT(capture != NULL, "usage: test_pkt_silicon <infiniband.pcap>");
	TEST_ASSERT_SUCCESS(load(capture), "%s", err);
	TEST_ASSERT_EQUAL(n_frames, N_FRAMES, "frames in %s", capture);
	for (i = 0; i < n_frames; i++) {
		const struct fab_pkt *p = &frames[i];

		global += is_global(p);
		vl15 += p->data[0] >> 4 == 15;
		ud += p->data[bth_off(p)] == FAB_BTH_OP_UD_SEND_ONLY;
	}
	TEST_ASSERT_EQUAL(global, 6, "frames with a GRH");
	TEST_ASSERT_EQUAL(vl15, 6, "frames on VL 15");
	TEST_ASSERT_EQUAL(ud, 24, "UD SEND-only frames");
	return TEST_SUCCESS;
}

/* Every ICRC the silicon computed is the one pkt.c computes (IBA 7.8.1). */
static int
test_icrc_matches_silicon(void)
{
	unsigned int i;

	TEST_ASSERT_EQUAL(n_frames, N_FRAMES, "capture not loaded");
	for (i = 0; i < n_frames; i++)
		TEST_ASSERT_SUCCESS(pkt_check_icrc(&frames[i]),
				    "frame %u (%s packet, %u bytes): ICRC differs from the HCA's",
				    i + 1, is_global(&frames[i]) ? "global" : "local",
				    frames[i].len);
	return TEST_SUCCESS;
}

/*
 * The UD sends pass the whole receive check (VCRC, lengths, GRH PayLen
 * and NxtHdr, ICRC): the model takes the silicon's packets as they are.
 */
static int
test_parse_accepts_silicon(void)
{
	unsigned int i, parsed = 0, with_grh = 0;
	struct fab_hdrs h;

	TEST_ASSERT_EQUAL(n_frames, N_FRAMES, "capture not loaded");
	for (i = 0; i < n_frames; i++) {
		const struct fab_pkt *p = &frames[i];

		if (p->data[bth_off(p)] != FAB_BTH_OP_UD_SEND_ONLY)
			continue;
		TEST_ASSERT_SUCCESS(pkt_parse(p, &h), "frame %u refused", i + 1);
		TEST_ASSERT_EQUAL(h.has_grh, is_global(p), "frame %u: GRH", i + 1);
		with_grh += h.has_grh;
		parsed++;
	}
	TEST_ASSERT_EQUAL(parsed, 24, "UD frames parsed");
	TEST_ASSERT_EQUAL(with_grh, 6, "UD frames with a GRH parsed");
	return TEST_SUCCESS;
}

/*
 * On the silicon's packets: a switch or router may rewrite what IBA 7.8.1
 * masks (global: the whole LRH, GRH TClass, FlowLabel, HopLmt; local: LRH
 * VL; both: BTH resv8a) and the HCA's ICRC still holds; change another
 * byte and it does not. (LNH stays: it says whether a GRH follows.)
 */
static int
test_variant_fields_on_silicon(void)
{
	static const struct { uint32_t off; uint8_t mask; } grh_variant[] = {
		{ 0, 0xff }, { 1, 0xfc }, { 2, 0xff }, { 3, 0xff },	/* LRH but LNH */
		{ 4, 0xff }, { 5, 0xff }, { 6, 0xff }, { 7, 0xff },
		{ 8 + 0, 0x0f }, { 8 + 1, 0xff },			/* TClass, FlowLabel */
		{ 8 + 2, 0xff }, { 8 + 3, 0xff },
		{ 8 + 7, 0xff },					/* HopLmt */
	};
	static struct fab_pkt q;
	unsigned int i, k;

	TEST_ASSERT_EQUAL(n_frames, N_FRAMES, "capture not loaded");
	for (i = 0; i < n_frames; i++) {
		const struct fab_pkt *p = &frames[i];
		uint32_t bth = bth_off(p);

		q = *p;
		q.data[bth + 4] ^= 0xff;			/* BTH resv8a */
		if (is_global(p)) {
			for (k = 0; k < sizeof(grh_variant) / sizeof(grh_variant[0]); k++)
				q.data[grh_variant[k].off] ^= grh_variant[k].mask;
		} else {
			q.data[0] ^= 0xf0;			/* VL */
		}
		TEST_ASSERT_SUCCESS(pkt_check_icrc(&q), "frame %u: a variant field is covered",
				    i + 1);

		q = *p;
		if (is_global(p))
			q.data[8 + 24 + 15] ^= 1;		/* DGID, last byte */
		else
			q.data[2] ^= 0x80;			/* DLID */
		TEST_ASSERT_EQUAL(pkt_check_icrc(&q), -EILSEQ,
				  "frame %u: an invariant field is not covered", i + 1);
		q = *p;
		q.data[bth + 5] ^= 1;				/* DestQP */
		TEST_ASSERT_EQUAL(pkt_check_icrc(&q), -EILSEQ, "frame %u: DestQP not covered",
				  i + 1);
	}
	return TEST_SUCCESS;
}

static struct unit_test_suite silicon_suite = {
	.suite_name = "ibfabric ICRC against an InfiniBand link capture",
	.unit_test_cases = {
		TEST_CASE(test_capture_as_published),
		TEST_CASE(test_icrc_matches_silicon),
		TEST_CASE(test_parse_accepts_silicon),
		TEST_CASE(test_variant_fields_on_silicon),
		TEST_CASES_END(),
	},
};

int
main(int argc, char **argv)
{
	capture = argc > 1 ? argv[1] : NULL;
	return unit_test_suite_runner(&silicon_suite);
}
