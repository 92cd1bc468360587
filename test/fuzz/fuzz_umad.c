/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * libFuzzer target: a hostile client of the user-MAD service
 * (lib/ibumad/umad_file.c), the rules of one open /dev/infiniband/umadN.
 *
 * Input: a sequence of operations, each an opcode byte, a length byte
 * and that many bytes (a length of 255 means 255 + the next byte):
 *   0 ioctl: the first 4 bytes are the command, the rest its input
 *   1 write of the bytes
 *   2 read with a buffer of the bytes' count
 *   3 a MAD (or RMPP message) delivered for agent slot byte[0] % 40
 *   4 peek
 * The backend accepts registrations and sends and counts them. After the
 * sequence the file is closed: every registered agent must have been
 * unregistered exactly once (the invariant is checked), nothing leaks
 * (ASan in the clang build).
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_umad_backend.h"
#include "umad_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t buf[70000];
	struct ib_user_mad_hdr hdr;
	struct umad_file f;
	size_t off = 0, n, used;
	uint32_t cmd;
	uint8_t op;

	regs = unregs = 0;
	umad_file_init(&f, &ops, NULL, 8);
	while (off + 2 <= size) {
		op = data[off] % 5;
		n = data[off + 1];
		off += 2;
		if (n == 255 && off < size)
			n += (size_t)data[off++] * 64;
		if (n > size - off)
			n = size - off;
		switch (op) {
		case 0:
			cmd = 0;
			memcpy(&cmd, data + off, n < 4 ? n : 4);
			/* Mostly the real commands, sometimes anything. */
			if (cmd & 1)
				cmd = (uint32_t[]){ IB_USER_MAD_REGISTER_AGENT,
					IB_USER_MAD_UNREGISTER_AGENT,
					IB_USER_MAD_ENABLE_PKEY,
					IB_USER_MAD_REGISTER_AGENT2,
					UMAD_IOCTL_PEEK }[(cmd >> 1) % 5];
			umad_file_ioctl(&f, cmd, n > 4 ? data + off + 4 : NULL,
					n > 4 ? n - 4 : 0, buf, sizeof(struct umad_peek),
					&used);
			break;
		case 1:
			umad_file_write(&f, data + off, n);
			break;
		case 2:
			umad_file_read(&f, buf, n * 8);
			break;
		case 3:
			memset(&hdr, 0, sizeof(hdr));
			umad_file_deliver(&f, n > 0 ? data[off] % 40 : 0, &hdr,
					  data + off, n);
			break;
		default:
			umad_file_ioctl(&f, UMAD_IOCTL_PEEK, NULL, 0, buf,
					sizeof(struct umad_peek), &used);
			break;
		}
		off += n;
	}
	umad_file_close(&f);
	if (regs != unregs)
		abort();
	return 0;
}
