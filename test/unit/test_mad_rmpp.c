/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Unit tests of the RMPP state machines (lib/ibmad/mad_rmpp.c).
 *
 * The segment vector was worked out by hand from IBA 13.6.2 and Linux
 * send_next_seg()/get_mad_len(): an SA message (56 bytes of headers)
 * with 450 payload bytes goes in segments of 256 - 56 = 200 bytes, so 3
 * segments and 150 bytes of padding in the last; PayloadLength is
 * 3 * 220 - 150 = 510 in the first segment, 220 - 150 = 70 in the last,
 * 0 in the middle one; the receiver's length is 56 + 3 * 200 - 150 = 506.
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "mad_rmpp.h"
#include "test.h"

static uint32_t
be32_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A GetTableResp message of @data payload bytes. */
static uint8_t *
sa_message(size_t data)
{
	uint8_t *m = malloc(56 + data);
	size_t i;

	m[0] = 1;           /* BaseVersion */
	m[1] = 0x03;        /* SubnAdm */
	m[2] = 2;           /* ClassVersion */
	m[3] = 0x92;        /* GetTableResp */
	for (i = 4; i < 56; i++)
		m[i] = (uint8_t)i;
	m[24] = 1;          /* RMPPVersion */
	m[25] = 1;          /* DATA */
	m[26] = 0x08 | 1;   /* RRespTime 1, Active */
	for (i = 0; i < data; i++)
		m[56 + i] = (uint8_t)(i * 7 + 3);
	return m;
}

static int
test_segments_vector(void)
{
	struct ibmad_rmpp_send s;
	uint8_t seg[3][256], extra[256];
	uint8_t *m = sa_message(450);
	unsigned int i;

	TEST_ASSERT_SUCCESS(ibmad_rmpp_send_init(&s, m, 56 + 450), "init");
	TEST_ASSERT_EQUAL(s.seg_count, 3u, "segments");
	TEST_ASSERT_EQUAL(s.pad, 150u, "pad");
	TEST_ASSERT(ibmad_rmpp_send_next(&s, seg[0]), "first");
	TEST_ASSERT(!ibmad_rmpp_send_next(&s, extra), "window of 1 until the ACK");
	s.newwin = 3;
	TEST_ASSERT(ibmad_rmpp_send_next(&s, seg[1]), "second");
	TEST_ASSERT(ibmad_rmpp_send_next(&s, seg[2]), "third");
	TEST_ASSERT(!ibmad_rmpp_send_next(&s, extra), "no fourth");
	TEST_ASSERT_EQUAL(seg[0][26], 0x08 | 0x3, "first: RRespTime kept, Active|First");
	TEST_ASSERT_EQUAL(seg[1][26], 0x08 | 0x1, "middle: Active");
	TEST_ASSERT_EQUAL(seg[2][26], 0x08 | 0x5, "last: Active|Last");
	for (i = 0; i < 3; i++) {
		TEST_ASSERT_EQUAL(seg[i][25], 1, "DATA");
		TEST_ASSERT_EQUAL(be32_at(seg[i] + 28), i + 1, "SegmentNumber");
		TEST_ASSERT_BUFFERS_EQUAL(seg[i], m, 24, "MAD header");
		TEST_ASSERT_BUFFERS_EQUAL(seg[i] + 36, m + 36, 20, "SA header");
	}
	TEST_ASSERT_EQUAL(be32_at(seg[0] + 32), 510u, "first PayloadLength");
	TEST_ASSERT_EQUAL(be32_at(seg[1] + 32), 0u, "middle PayloadLength");
	TEST_ASSERT_EQUAL(be32_at(seg[2] + 32), 70u, "last PayloadLength");
	TEST_ASSERT_BUFFERS_EQUAL(seg[1] + 56, m + 56 + 200, 200, "payload 200-399");
	TEST_ASSERT_BUFFERS_EQUAL(seg[2] + 56, m + 56 + 400, 50, "payload 400-449");
	TEST_ASSERT_EQUAL(seg[2][56 + 50], 0, "padding zero");
	free(m);
	return TEST_SUCCESS;
}

/*
 * Sender and receiver back to back over a lossy "wire": every @drop_every
 * th segment and ACK is lost once; a lost step makes the sender time out
 * and rewind. The message must arrive whole, in order, once.
 */
static int
run_transfer(size_t data, uint32_t window, unsigned int drop_every)
{
	struct ibmad_rmpp_send s;
	struct ibmad_rmpp_recv r;
	uint8_t seg[256], ack[256];
	uint8_t *m = sa_message(data);
	enum ibmad_rmpp_rx rx;
	bool started = false, done = false;
	unsigned int sent = 0, rounds = 0;
	uint8_t status;
	int rc;

	TEST_ASSERT_SUCCESS(ibmad_rmpp_send_init(&s, m, 56 + data), "init");
	while (!done && rounds++ < 10000) {
		bool progressed = false;

		while (ibmad_rmpp_send_next(&s, seg)) {
			progressed = true;
			if (drop_every && ++sent % drop_every == 0)
				continue;           /* lost on the wire */
			rx = started ? ibmad_rmpp_recv_seg(&r, seg, &status) :
				ibmad_rmpp_recv_start(&r, seg, window, &status);
			started = true;
			TEST_ASSERT(rx != IBMAD_RMPP_RX_ABORT, "abort %u", status);
			if (rx == IBMAD_RMPP_RX_DROP)
				continue;
			ibmad_rmpp_ack(&r, seg, ack);
			TEST_ASSERT_EQUAL(ack[3], 0x12, "ACK flips the R bit");
			TEST_ASSERT_EQUAL(ack[25], RMPP_TYPE_ACK, "ACK type");
			if (drop_every && ++sent % drop_every == 0)
				continue;           /* ACK lost */
			rc = ibmad_rmpp_send_ack(&s, ack);
			TEST_ASSERT(rc >= 0, "ACK refused: %d", rc);
			if (rc == 1)
				done = true;
		}
		if (!progressed || !done)
			ibmad_rmpp_send_rewind(&s);   /* the sender's time-out */
	}
	TEST_ASSERT(done, "sender finished (%zu bytes, window %u)", data, window);
	TEST_ASSERT(r.done, "receiver finished");
	TEST_ASSERT_EQUAL(r.len, 56 + data, "message length");
	TEST_ASSERT_BUFFERS_EQUAL(r.msg + 56, m + 56, data, "payload");
	TEST_ASSERT_BUFFERS_EQUAL(r.msg, m, 24, "MAD header");
	TEST_ASSERT_BUFFERS_EQUAL(r.msg + 36, m + 36, 20, "SA header");
	ibmad_rmpp_recv_free(&r);
	free(m);
	return TEST_SUCCESS;
}

static int
test_transfers(void)
{
	static const size_t sizes[] = { 0, 1, 200, 201, 450, 4000, 225000 };
	static const uint32_t windows[] = { 1, 2, 64 };
	unsigned int i, j;

	for (i = 0; i < RTE_DIM(sizes); i++)
		for (j = 0; j < RTE_DIM(windows); j++) {
			if (run_transfer(sizes[i], windows[j], 0) != TEST_SUCCESS)
				return TEST_FAILED;
			if (run_transfer(sizes[i], windows[j], 5) != TEST_SUCCESS)
				return TEST_FAILED;
		}
	return TEST_SUCCESS;
}

static int
test_bad_segments(void)
{
	struct ibmad_rmpp_recv r;
	struct ibmad_rmpp_send s;
	uint8_t *m = sa_message(450);
	uint8_t seg[256], ack[256], abort[256];
	uint8_t status = 0;

	TEST_ASSERT_SUCCESS(ibmad_rmpp_send_init(&s, m, 56 + 450), "init");
	s.newwin = 3;
	ibmad_rmpp_send_next(&s, seg);
	ibmad_rmpp_send_next(&s, seg);       /* segment 2 */
	TEST_ASSERT_EQUAL(ibmad_rmpp_recv_start(&r, seg, 4, &status),
			  IBMAD_RMPP_RX_ABORT, "starting at segment 2");
	TEST_ASSERT_EQUAL(status, RMPP_STATUS_BAD_SEG, "BadSeg");
	seg[24] = 2;
	TEST_ASSERT_EQUAL(ibmad_rmpp_recv_start(&r, seg, 4, &status),
			  IBMAD_RMPP_RX_ABORT, "version 2");
	TEST_ASSERT_EQUAL(status, RMPP_STATUS_UNV, "UnV");
	ibmad_rmpp_abort(seg, RMPP_STATUS_UNV, abort);
	TEST_ASSERT_EQUAL(abort[25], RMPP_TYPE_ABORT, "ABORT type");
	TEST_ASSERT_EQUAL(abort[27], RMPP_STATUS_UNV, "ABORT status");
	TEST_ASSERT_EQUAL(ibmad_rmpp_send_ack(&s, abort), -ECONNABORTED,
			  "sender stops on ABORT");
	/* An ACK beyond what was sent (S2B) or shrinking the window (W2S). */
	memset(ack, 0, sizeof(ack));
	ack[25] = RMPP_TYPE_ACK;
	ack[31] = 3;
	ack[35] = 3;
	TEST_ASSERT_EQUAL(ibmad_rmpp_send_ack(&s, ack), -EPROTO, "ACK of unsent");
	ack[31] = 2;
	ack[35] = 1;
	TEST_ASSERT_EQUAL(ibmad_rmpp_send_ack(&s, ack), -EPROTO, "W2S");
	TEST_ASSERT_EQUAL(ibmad_rmpp_send_init(&s, m, 40), -EINVAL,
			  "shorter than the SA headers");
	m[1] = 0x04;
	TEST_ASSERT_EQUAL(ibmad_rmpp_send_init(&s, m, 56 + 450), -EINVAL,
			  "PerfMgt does not use RMPP");
	free(m);
	return TEST_SUCCESS;
}

static struct unit_test_suite rmpp_suite = {
	.suite_name = "mad_rmpp",
	.unit_test_cases = {
		TEST_CASE(test_segments_vector),
		TEST_CASE(test_transfers),
		TEST_CASE(test_bad_segments),
		TEST_CASES_END(),
	},
};

int
main(void)
{
	return unit_test_suite_runner(&rmpp_suite);
}
