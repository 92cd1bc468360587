/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * libFuzzer target: a hostile client's read() and write() longer than
 * one FUSE request (lib/ibumad/umad_fs_long.c over umad_file.c): any
 * order and count of announcements, pieces of any size up to the
 * kernel's 1 MiB, messages of any length queued for it.
 *
 * Input: a sequence of operations, an opcode byte and four argument
 * bytes (a little-endian value v):
 *   0 UMAD_IOCTL_WRITE_LEN v % 5 MiB    1 UMAD_IOCTL_READ_LEN v % 5 MiB
 *   2 write request of v % (1 MiB + 1) bytes: a header for agent slot
 *     v >> 28, a SubnAdm GetTableResp with RMPP Active, then a pattern
 *   3 read request of v % (1 MiB + 1) bytes
 *   4 a message of v % 4 MiB bytes delivered for agent slot 0
 *   5 REGISTER_AGENT on QP1, class SubnAdm, RMPP version v & 1
 * Checked: a request never answers more than its size, the backend
 * never gets a message shorter than the MAD and RMPP headers or longer
 * than the longest RMPP message, every agent is unregistered once at
 * close, nothing leaks (ASan in the clang and sanitizer builds).
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_umad_backend.h"
#include "umad_file.h"
#include "umad_fs_long.h"

#define MIB (1u << 20)

/* What write requests carry: a header, an RMPP MAD, a pattern. */
static uint8_t *wbuf;
static uint8_t *rbuf;

static void
fill_write(uint32_t slot)
{
	struct ib_user_mad_hdr hdr;
	uint8_t *mad;
	size_t i;

	memset(&hdr, 0, sizeof(hdr));
	hdr.id = slot;
	hdr.qpn = 1;
	memcpy(wbuf, &hdr, sizeof(hdr));
	/* The 64-byte header layout when ENABLE_PKEY ran; the MAD after the
	 * 56-byte one otherwise: put a MAD at both, the second wins.
	 */
	for (i = 56; i <= 64; i += 8) {
		mad = wbuf + i;
		mad[0] = 1;
		mad[1] = 0x03;
		mad[2] = 2;
		mad[3] = 0x92;
		mad[24] = 1;
		mad[25] = 1;
		mad[26] = 1;
	}
}

static void
do_register(struct umad_file *f, uint8_t rmpp)
{
	struct ib_user_mad_reg_req req, res;
	size_t used;

	memset(&req, 0, sizeof(req));
	req.qpn = 1;
	req.mgmt_class = 0x03;
	req.mgmt_class_version = 2;
	req.rmpp_version = rmpp;
	umad_file_ioctl(f, IB_USER_MAD_REGISTER_AGENT, &req, sizeof(req), &res,
			sizeof(res), &used);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ib_user_mad_hdr hdr;
	struct umad_fs_long l;
	struct umad_file f;
	size_t off, n, i;
	uint64_t arg;
	ssize_t ret;
	uint32_t v;

	if (wbuf == NULL) {
		wbuf = malloc(MIB + 1);
		rbuf = malloc(4 * MIB);
		if (wbuf == NULL || rbuf == NULL)
			abort();
		for (i = 0; i < MIB + 1; i++)
			wbuf[i] = (uint8_t)(i * 13);
		memset(rbuf, 0x5a, 4 * MIB);
	}
	regs = unregs = 0;
	memset(&l, 0, sizeof(l));
	umad_file_init(&f, &ops, NULL, 4);
	for (off = 0; off + 5 <= size; off += 5) {
		memcpy(&v, data + off + 1, sizeof(v));
		switch (data[off] % 6) {
		case 0:
		case 1:
			arg = v % (5 * MIB);
			umad_fs_long_ioctl(&l, data[off] % 6 == 0 ? UMAD_IOCTL_WRITE_LEN :
					   UMAD_IOCTL_READ_LEN, &arg, sizeof(arg));
			break;
		case 2:
			n = v % (MIB + 1);
			fill_write(v >> 28);
			if (!umad_fs_long_write(&l, &f, wbuf, n, &ret))
				ret = umad_file_write(&f, wbuf, n);
			if (ret > (ssize_t)n)
				abort();
			break;
		case 3:
			n = v % (MIB + 1);
			if (!umad_fs_long_read(&l, &f, rbuf, n, &ret))
				ret = umad_file_read(&f, rbuf, n);
			if (ret > (ssize_t)n)
				abort();
			break;
		case 4:
			/* rbuf holds 4 MiB of bytes for the message. */
			memset(&hdr, 0, sizeof(hdr));
			umad_file_deliver(&f, 0, &hdr, rbuf, v % (4 * MIB));
			break;
		default:
			do_register(&f, v & 1);
			break;
		}
	}
	umad_fs_long_free(&l);
	umad_file_close(&f);
	if (regs != unregs)
		abort();
	return 0;
}
