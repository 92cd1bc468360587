/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _UMAD_FS_LONG_H_
#define _UMAD_FS_LONG_H_

/*
 * read() and write() of a umad file longer than one FUSE request.
 *
 * The kernel cuts a direct-I/O read or write into requests of at most
 * max_read / max_write bytes (1 MiB: 256 pages, fs/fuse/file.c
 * fuse_direct_io()), sent one after the other, each after the previous
 * one's reply. A umad message is one write() and one read(), and a
 * whole SA table is longer than that (the PathRecord table of a
 * 142-port fabric: 1.29 MB). Nothing in the requests tells the pieces
 * of one call from separate calls, so the shim (umad_preload.c)
 * announces the caller's count first with a private ioctl, and the
 * pieces are joined (write) or served (read) here:
 *
 *  - write: after UMAD_IOCTL_WRITE_LEN n, the next requests are
 *    gathered until n bytes, then written as one message; each piece
 *    is answered as written, the last one with the message's result.
 *    Unannounced, a request as long as the kernel's piece may be the
 *    first of several: it is refused with EMSGSIZE (the shim then
 *    announces and writes again) rather than sent cut short.
 *  - read: after UMAD_IOCTL_READ_LEN n, the next request reads one
 *    message as if it had n bytes of room, and it and the requests that
 *    follow get its consecutive pieces; when the last piece fills its
 *    request exactly and the caller has room left, the kernel asks once
 *    more and gets 0 bytes (the end of this read()).
 *  - The first piece of an announced call is longer than UMAD_FS_CUT_MIN
 *    (the caller's count is): a shorter request in its place is another
 *    thread's call between the shim's ioctl and its own, and ordinary.
 *
 * Only the FUSE thread calls these, for one open file at a time.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "umad_file.h"

/* The longest FUSE request (max_read and max_write of umad_fs.c). */
#define UMAD_FS_MAX_IO (1u << 20)
/* A request this long may be one piece of a longer write(): the
 * kernel's piece is max_write less the caller's offset in its first
 * page.
 */
#define UMAD_FS_CUT_MIN (UMAD_FS_MAX_IO - 4096u)

/* Private ioctls of this service (numbers after UMAD_IOCTL_PEEK's),
 * used only by umad_preload.c: the count of the write() or read() that
 * follows. Their numbers encode their size (FUSE restricted ioctls).
 */
#define UMAD_IOCTL_WRITE_LEN _IOW(IB_IOCTL_MAGIC, 0x72, uint64_t)
#define UMAD_IOCTL_READ_LEN  _IOW(IB_IOCTL_MAGIC, 0x73, uint64_t)

struct umad_fs_long {
	size_t wr_want;     /* announced write count; 0: none */
	size_t wr_len;      /* bytes gathered */
	uint8_t *wr_buf;
	size_t rd_want;     /* announced read count; 0: none */
	uint8_t *rd_buf;    /* the message being served */
	size_t rd_len, rd_off;
	bool rd_end;        /* answer the next read request with 0 bytes */
};

/*
 * UMAD_IOCTL_WRITE_LEN or UMAD_IOCTL_READ_LEN: 0, -EINVAL (a count the
 * umad ABI cannot carry), or -ENOTTY for any other command.
 */
int umad_fs_long_ioctl(struct umad_fs_long *l, unsigned int cmd,
		       const void *in, size_t in_len);

/*
 * A write request of @size bytes: true when it is taken here (a piece of
 * an announced write, or refused), with *ret the request's answer (bytes
 * written or -errno); false: an ordinary write, for umad_file_write().
 */
bool umad_fs_long_write(struct umad_fs_long *l, struct umad_file *f,
			const void *buf, size_t size, ssize_t *ret);

/*
 * A read request of @size bytes: true when it is served here, with
 * *out (@size bytes of room) holding *ret bytes, or *ret = -errno;
 * false: an ordinary read.
 */
bool umad_fs_long_read(struct umad_fs_long *l, struct umad_file *f,
		       uint8_t *out, size_t size, ssize_t *ret);

/* Free what @l holds (the file is closed). */
void umad_fs_long_free(struct umad_fs_long *l);

#endif /* _UMAD_FS_LONG_H_ */
