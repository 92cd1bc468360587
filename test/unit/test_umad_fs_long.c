/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Unit tests of read() and write() longer than one FUSE request
 * (lib/ibumad/umad_fs_long.c): the pieces the kernel's fuse_direct_io()
 * sends for one call, at most 1 MiB each, joined into one umad message
 * (write) or cut from one (read), over a real umad file (umad_file.c)
 * whose MAD layer is a recording backend. The service over FUSE with
 * the shim and the real tools is the fabric test umad_diags (saquery's
 * whole PathRecord table).
 */

#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "test.h"
#include "umad_file.h"
#include "umad_fs_long.h"

#define MIB (1u << 20)
/* The PathRecord table of the 128-CA fat tree: 142 x 142 records. */
#define TABLE_LEN (56u + 64u * 142u * 142u)

static unsigned int sends;
static size_t sent_len;
static uint8_t *sent;
static int agent_handle;

static int
rec_register(void *port, struct umad_file *f, unsigned int id,
	     const struct umad_reg *reg, void **handle)
{
	RTE_SET_USED(port);
	RTE_SET_USED(f);
	RTE_SET_USED(id);
	RTE_SET_USED(reg);
	*handle = &agent_handle;
	return 0;
}

static void
rec_unregister(void *port, void *handle)
{
	RTE_SET_USED(port);
	RTE_SET_USED(handle);
}

static int
rec_send(void *port, void *handle, const struct ib_user_mad_hdr *hdr,
	 const void *mad, size_t len)
{
	RTE_SET_USED(port);
	RTE_SET_USED(handle);
	RTE_SET_USED(hdr);
	free(sent);
	sent = malloc(len);
	if (sent == NULL)
		return -ENOMEM;
	memcpy(sent, mad, len);
	sent_len = len;
	sends++;
	return 0;
}

static const struct umad_backend_ops rec_ops = {
	.agent_register = rec_register,
	.agent_unregister = rec_unregister,
	.send = rec_send,
};

static struct umad_file file;
static struct umad_fs_long lio;
static uint32_t agent_id;
static uint8_t *msg;       /* a write: header, then the RMPP message */
static uint8_t *out;

static int
setup(void)
{
	struct ib_user_mad_reg_req req, res;
	size_t used;

	sends = 0;
	sent_len = 0;
	memset(&lio, 0, sizeof(lio));
	umad_file_init(&file, &rec_ops, NULL, 4);
	memset(&req, 0, sizeof(req));
	req.qpn = 1;
	req.mgmt_class = 0x03;
	req.mgmt_class_version = 2;
	req.rmpp_version = 1;       /* the MAD layer segments its sends */
	if (umad_file_ioctl(&file, IB_USER_MAD_REGISTER_AGENT, &req, sizeof(req),
			    &res, sizeof(res), &used) != 0)
		return -1;
	agent_id = res.id;
	msg = malloc(UMAD_HDR_SIZE_OLD + TABLE_LEN);
	out = malloc(4 * MIB);
	return msg != NULL && out != NULL ? 0 : -1;
}

static void
teardown(void)
{
	umad_fs_long_free(&lio);
	umad_file_close(&file);
	free(msg);
	free(out);
	free(sent);
	msg = out = sent = NULL;
}

/* A GetTableResp of @len bytes after the 56-byte header, RMPP Active. */
static size_t
build_write(uint32_t id, size_t len)
{
	struct ib_user_mad_hdr_old hdr;
	uint8_t *mad = msg + sizeof(hdr);
	size_t i;

	memset(&hdr, 0, sizeof(hdr));
	hdr.id = id;
	hdr.qpn = htonl(1);          /* big-endian, as the MAD core checks */
	hdr.lid = htons(1);          /* LID 0 is no address */
	memcpy(msg, &hdr, sizeof(hdr));
	for (i = 0; i < len; i++)
		mad[i] = (uint8_t)(i * 7 + i / 251);
	mad[0] = 1;                  /* BaseVersion */
	mad[1] = 0x03;               /* SubnAdm */
	mad[2] = 2;
	mad[3] = 0x92;               /* GetTableResp */
	mad[24] = 1;                 /* RMPPVersion */
	mad[25] = 1;                 /* DATA */
	mad[26] = 0x01;              /* Active */
	return sizeof(hdr) + len;
}

static int
announce(unsigned int cmd, uint64_t n)
{
	return umad_fs_long_ioctl(&lio, cmd, &n, sizeof(n));
}

/* The pieces fuse_direct_io() sends for a write of @count bytes. */
static int
write_pieces(size_t count, ssize_t *last)
{
	size_t off = 0, piece;
	ssize_t ret = 0;

	while (off < count) {
		piece = RTE_MIN((size_t)MIB, count - off);
		if (!umad_fs_long_write(&lio, &file, msg + off, piece, &ret))
			return -1;
		if (ret != (ssize_t)piece)
			break;
		off += piece;
	}
	*last = ret;
	return (int)(off == count ? 0 : 1);
}

static int
test_ioctl(void)
{
	uint64_t n = 2 * MIB;

	TEST_ASSERT_EQUAL(UMAD_IOCTL_WRITE_LEN, 0x40081b72u, "WRITE_LEN: _IOW, 8 bytes");
	TEST_ASSERT_EQUAL(UMAD_IOCTL_READ_LEN, 0x40081b73u, "READ_LEN: _IOW, 8 bytes");
	TEST_ASSERT_EQUAL(umad_fs_long_ioctl(&lio, IB_USER_MAD_ENABLE_PKEY, NULL, 0),
			  -ENOTTY, "another command is not ours");
	TEST_ASSERT_EQUAL(umad_fs_long_ioctl(&lio, UMAD_IOCTL_WRITE_LEN, &n, 4),
			  -EINVAL, "short argument");
	TEST_ASSERT_EQUAL(announce(UMAD_IOCTL_WRITE_LEN, 4096), -EINVAL,
			  "a write one request carries");
	TEST_ASSERT_EQUAL(announce(UMAD_IOCTL_WRITE_LEN, 5 * MIB), -EINVAL,
			  "longer than any RMPP message");
	TEST_ASSERT_EQUAL(announce(UMAD_IOCTL_READ_LEN, 0), -EINVAL, "read of 0");
	TEST_ASSERT_SUCCESS(announce(UMAD_IOCTL_WRITE_LEN, 2 * MIB), "write");
	TEST_ASSERT_SUCCESS(announce(UMAD_IOCTL_READ_LEN, 100 * MIB), "read");
	return TEST_SUCCESS;
}

static int
test_write_unannounced(void)
{
	ssize_t ret = 0;

	build_write(agent_id, TABLE_LEN);
	TEST_ASSERT(!umad_fs_long_write(&lio, &file, msg, 4096, &ret),
		    "a short write is an ordinary one");
	/* The first piece of a longer write, or a write of that length:
	 * refused, never sent cut short.
	 */
	TEST_ASSERT(umad_fs_long_write(&lio, &file, msg, MIB, &ret), "taken");
	TEST_ASSERT_EQUAL(ret, (ssize_t)-EMSGSIZE, "refused");
	TEST_ASSERT(umad_fs_long_write(&lio, &file, msg, MIB - 4000, &ret),
		    "a piece of an unaligned buffer");
	TEST_ASSERT_EQUAL(ret, (ssize_t)-EMSGSIZE, "refused");
	TEST_ASSERT_EQUAL(sends, 0u, "nothing sent");
	return TEST_SUCCESS;
}

static int
test_write_joined(void)
{
	size_t count = build_write(agent_id, TABLE_LEN);
	ssize_t last;

	TEST_ASSERT_SUCCESS(announce(UMAD_IOCTL_WRITE_LEN, count), "announce");
	TEST_ASSERT_SUCCESS(write_pieces(count, &last), "every piece written");
	TEST_ASSERT_EQUAL(last, (ssize_t)(count - MIB), "the last piece");
	TEST_ASSERT_EQUAL(sends, 1u, "one message sent");
	TEST_ASSERT_EQUAL(sent_len, (size_t)TABLE_LEN, "whole");
	TEST_ASSERT_BUFFERS_EQUAL(sent, msg + UMAD_HDR_SIZE_OLD, TABLE_LEN, "as written");
	/* Announced once: the next long write is refused again. */
	TEST_ASSERT(umad_fs_long_write(&lio, &file, msg, MIB, &last), "taken");
	TEST_ASSERT_EQUAL(last, (ssize_t)-EMSGSIZE, "not announced");
	return TEST_SUCCESS;
}

static int
test_write_other_thread(void)
{
	size_t count = build_write(agent_id, TABLE_LEN);
	ssize_t last;

	/* Another thread's write between the announcement and the long
	 * write: shorter than any first piece, so ordinary.
	 */
	TEST_ASSERT_SUCCESS(announce(UMAD_IOCTL_WRITE_LEN, count), "announce");
	TEST_ASSERT(!umad_fs_long_write(&lio, &file, msg, UMAD_HDR_SIZE_OLD + 256, &last),
		    "a MAD of another thread is an ordinary write");
	TEST_ASSERT_SUCCESS(write_pieces(count, &last), "then the long one");
	TEST_ASSERT_EQUAL(sends, 1u, "one message sent");
	TEST_ASSERT_EQUAL(sent_len, (size_t)TABLE_LEN, "whole");
	return TEST_SUCCESS;
}

static int
test_write_errors(void)
{
	size_t count = build_write(agent_id + 1, TABLE_LEN);
	ssize_t last;

	/* The message's own error comes with its last piece. */
	TEST_ASSERT_SUCCESS(announce(UMAD_IOCTL_WRITE_LEN, count), "announce");
	TEST_ASSERT_EQUAL(write_pieces(count, &last), 1, "stopped");
	TEST_ASSERT_EQUAL(last, (ssize_t)-EIO, "no agent at that id (ib_umad_write())");
	TEST_ASSERT_EQUAL(sends, 0u, "nothing sent");
	/* More than announced: refused, the gathered bytes dropped. */
	count = build_write(agent_id, TABLE_LEN);
	TEST_ASSERT_SUCCESS(announce(UMAD_IOCTL_WRITE_LEN, count - 1000), "announce");
	TEST_ASSERT_EQUAL(write_pieces(count, &last), 1, "stopped");
	TEST_ASSERT_EQUAL(last, (ssize_t)-EINVAL, "past the announced count");
	TEST_ASSERT_EQUAL(sends, 0u, "nothing sent");
	TEST_ASSERT_EQUAL(lio.wr_buf, NULL, "nothing held");
	return TEST_SUCCESS;
}

/* Queue a received message of @len MAD bytes filled with a pattern. */
static int
deliver(size_t len)
{
	struct ib_user_mad_hdr hdr;
	uint8_t *mad = malloc(len);
	size_t i;
	int rc;

	if (mad == NULL)
		return -ENOMEM;
	for (i = 0; i < len; i++)
		mad[i] = (uint8_t)(i ^ (i >> 9));
	memset(&hdr, 0, sizeof(hdr));
	rc = umad_file_deliver(&file, agent_id, &hdr, mad, len);
	free(mad);
	return rc;
}

/* The MAD bytes of a read are the pattern deliver() wrote. */
static int
check_pattern(const uint8_t *mad, size_t off, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (mad[i] != (uint8_t)((off + i) ^ ((off + i) >> 9)))
			return -1;
	return 0;
}

static int
test_read_pieces(void)
{
	size_t hs = UMAD_HDR_SIZE_OLD, whole = hs + TABLE_LEN;
	struct ib_user_mad_hdr_old hdr;
	ssize_t n;

	TEST_ASSERT_SUCCESS(deliver(TABLE_LEN), "deliver");
	/* Unannounced, a piece is an ordinary read: too short. */
	TEST_ASSERT(!umad_fs_long_read(&lio, &file, out, MIB, &n), "ordinary");
	TEST_ASSERT_EQUAL(umad_file_read(&file, out, MIB), (ssize_t)-ENOSPC, "ENOSPC");
	/* Announced: the first piece, then the rest, short: the end. */
	TEST_ASSERT_SUCCESS(announce(UMAD_IOCTL_READ_LEN, 2 * MIB), "announce");
	TEST_ASSERT(umad_fs_long_read(&lio, &file, out, MIB, &n), "first piece");
	TEST_ASSERT_EQUAL(n, (ssize_t)MIB, "full");
	memcpy(&hdr, out, sizeof(hdr));
	TEST_ASSERT_EQUAL(hdr.length, (uint32_t)whole, "header: the whole length");
	TEST_ASSERT_EQUAL(hdr.id, agent_id, "header: the agent");
	TEST_ASSERT_SUCCESS(check_pattern(out + hs, 0, MIB - hs), "first bytes");
	TEST_ASSERT(umad_fs_long_read(&lio, &file, out, MIB, &n), "second piece");
	TEST_ASSERT_EQUAL(n, (ssize_t)(whole - MIB), "the rest");
	TEST_ASSERT_SUCCESS(check_pattern(out, MIB - hs, whole - MIB), "last bytes");
	TEST_ASSERT(!umad_fs_long_read(&lio, &file, out, MIB, &n), "done");
	TEST_ASSERT(!umad_file_readable(&file), "dequeued");
	return TEST_SUCCESS;
}

static int
test_read_other_thread(void)
{
	ssize_t n;

	TEST_ASSERT_SUCCESS(deliver(TABLE_LEN), "deliver");
	TEST_ASSERT_SUCCESS(announce(UMAD_IOCTL_READ_LEN, 2 * MIB), "announce");
	/* Another thread's short read first: ordinary, and too short. */
	TEST_ASSERT(!umad_fs_long_read(&lio, &file, out, 320, &n), "ordinary");
	TEST_ASSERT_EQUAL(umad_file_read(&file, out, 320), (ssize_t)-ENOSPC, "ENOSPC");
	TEST_ASSERT(umad_fs_long_read(&lio, &file, out, MIB, &n), "the announced read");
	TEST_ASSERT_EQUAL(n, (ssize_t)MIB, "its first piece");
	TEST_ASSERT(umad_fs_long_read(&lio, &file, out, MIB, &n), "and the rest");
	TEST_ASSERT_EQUAL(n, (ssize_t)(UMAD_HDR_SIZE_OLD + TABLE_LEN - MIB), "short: the end");
	return TEST_SUCCESS;
}

static int
test_read_exact(void)
{
	size_t hs = UMAD_HDR_SIZE_OLD;
	ssize_t n;

	/* A message of exactly two pieces, read with room for three: the
	 * kernel asks for a third, which ends the read with 0 bytes
	 * instead of taking the next message.
	 */
	TEST_ASSERT_SUCCESS(deliver(2 * MIB - hs), "deliver");
	TEST_ASSERT_SUCCESS(deliver(256), "and a MAD after it");
	TEST_ASSERT_SUCCESS(announce(UMAD_IOCTL_READ_LEN, 3 * MIB), "announce");
	TEST_ASSERT(umad_fs_long_read(&lio, &file, out, MIB, &n), "first");
	TEST_ASSERT_EQUAL(n, (ssize_t)MIB, "full");
	TEST_ASSERT(umad_fs_long_read(&lio, &file, out, MIB, &n), "second");
	TEST_ASSERT_EQUAL(n, (ssize_t)MIB, "full, the last");
	TEST_ASSERT(umad_fs_long_read(&lio, &file, out, MIB, &n), "third");
	TEST_ASSERT_EQUAL(n, (ssize_t)0, "the end of this read()");
	TEST_ASSERT(!umad_fs_long_read(&lio, &file, out, MIB, &n), "next: ordinary");
	TEST_ASSERT_EQUAL(umad_file_read(&file, out, MIB), (ssize_t)(hs + 256),
			  "the next MAD, whole");
	return TEST_SUCCESS;
}

static int
test_read_short_or_empty(void)
{
	ssize_t n;

	/* Announced but empty: EAGAIN, as an ordinary read. */
	TEST_ASSERT_SUCCESS(announce(UMAD_IOCTL_READ_LEN, 2 * MIB), "announce");
	TEST_ASSERT(umad_fs_long_read(&lio, &file, out, MIB, &n), "taken");
	TEST_ASSERT_EQUAL(n, (ssize_t)-EAGAIN, "nothing queued");
	TEST_ASSERT_EQUAL(lio.rd_want, (size_t)0, "announcement used");
	/* A count one request carries: an ordinary read. */
	TEST_ASSERT_SUCCESS(deliver(256), "deliver");
	TEST_ASSERT_SUCCESS(announce(UMAD_IOCTL_READ_LEN, 4096), "announce");
	TEST_ASSERT(!umad_fs_long_read(&lio, &file, out, 4096, &n), "ordinary");
	TEST_ASSERT(!umad_fs_long_read(&lio, &file, out, MIB, &n), "used once");
	return TEST_SUCCESS;
}

static struct unit_test_suite umad_fs_long_suite = {
	.suite_name = "umad_fs_long",
	.unit_test_cases = {
		TEST_CASE_ST(setup, teardown, test_ioctl),
		TEST_CASE_ST(setup, teardown, test_write_unannounced),
		TEST_CASE_ST(setup, teardown, test_write_joined),
		TEST_CASE_ST(setup, teardown, test_write_other_thread),
		TEST_CASE_ST(setup, teardown, test_write_errors),
		TEST_CASE_ST(setup, teardown, test_read_pieces),
		TEST_CASE_ST(setup, teardown, test_read_other_thread),
		TEST_CASE_ST(setup, teardown, test_read_exact),
		TEST_CASE_ST(setup, teardown, test_read_short_or_empty),
		TEST_CASES_END(),
	},
};

int
main(void)
{
	return unit_test_suite_runner(&umad_fs_long_suite);
}
