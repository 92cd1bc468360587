/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * read() and write() longer than one FUSE request (umad_fs_long.h).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include <rte_ibmad.h>
#include "umad_fs_long.h"

/* No umad message is longer: the header and the longest RMPP message. */
#define LONG_MAX_MSG (UMAD_HDR_SIZE + RTE_IBMAD_RMPP_MAX_MSG)

static void
write_reset(struct umad_fs_long *l)
{
	free(l->wr_buf);
	l->wr_buf = NULL;
	l->wr_want = 0;
	l->wr_len = 0;
}

static void
read_reset(struct umad_fs_long *l)
{
	free(l->rd_buf);
	l->rd_buf = NULL;
	l->rd_len = 0;
	l->rd_off = 0;
}

int
umad_fs_long_ioctl(struct umad_fs_long *l, unsigned int cmd, const void *in,
		   size_t in_len)
{
	uint64_t n;

	if (cmd != UMAD_IOCTL_WRITE_LEN && cmd != UMAD_IOCTL_READ_LEN)
		return -ENOTTY;
	if (in == NULL || in_len < sizeof(n))
		return -EINVAL;
	memcpy(&n, in, sizeof(n));
	if (cmd == UMAD_IOCTL_WRITE_LEN) {
		/* Only what one FUSE request cannot carry, up to a message. */
		if (n <= UMAD_FS_CUT_MIN || n > LONG_MAX_MSG)
			return -EINVAL;
		write_reset(l);
		l->wr_buf = malloc(n);
		if (l->wr_buf == NULL)
			return -ENOMEM;
		l->wr_want = n;
		return 0;
	}
	if (n == 0)
		return -EINVAL;
	read_reset(l);
	l->rd_end = false;
	l->rd_want = n;
	return 0;
}

bool
umad_fs_long_write(struct umad_fs_long *l, struct umad_file *f,
		   const void *buf, size_t size, ssize_t *ret)
{
	/* The first piece of an announced write is as long as the kernel's
	 * pieces get (its count is longer): a shorter write is another
	 * thread's, between the shim's ioctl and its write(), and ordinary
	 * (the kernel runs one write() of a file at a time:
	 * fuse_direct_write_iter()).
	 */
	if (size <= UMAD_FS_CUT_MIN && l->wr_len == 0)
		return false;
	if (l->wr_want == 0) {
		/* Perhaps the first piece of a longer write(): never send a
		 * message cut short (a truncated SA table looks whole).
		 */
		*ret = -EMSGSIZE;
		return true;
	}
	if (size > l->wr_want - l->wr_len) {
		/* Longer than announced: not the announced write(). */
		write_reset(l);
		*ret = -EINVAL;
		return true;
	}
	memcpy(l->wr_buf + l->wr_len, buf, size);
	l->wr_len += size;
	*ret = (ssize_t)size;
	if (l->wr_len == l->wr_want) {
		ssize_t n = umad_file_write(f, l->wr_buf, l->wr_len);

		/* Short of an error, this piece is written whole. */
		if (n < 0)
			*ret = n;
		write_reset(l);
	}
	return true;
}

/* Serve the next piece of the message held into a request of @size. */
static ssize_t
read_piece(struct umad_fs_long *l, uint8_t *out, size_t size, size_t want)
{
	size_t n = RTE_MIN(size, l->rd_len - l->rd_off);

	memcpy(out, l->rd_buf + l->rd_off, n);
	l->rd_off += n;
	if (l->rd_off == l->rd_len) {
		/* The kernel asks again when this piece filled its request
		 * and the caller has room left (fuse_direct_io()).
		 */
		l->rd_end = n == size && want > l->rd_len;
		l->rd_want = 0;
		read_reset(l);
	}
	return (ssize_t)n;
}

bool
umad_fs_long_read(struct umad_fs_long *l, struct umad_file *f, uint8_t *out,
		  size_t size, ssize_t *ret)
{
	size_t want;
	ssize_t n;

	if (l->rd_buf != NULL) {
		*ret = read_piece(l, out, size, l->rd_want);
		return true;
	}
	if (l->rd_end) {
		l->rd_end = false;
		*ret = 0;
		return true;
	}
	if (l->rd_want == 0)
		return false;
	want = RTE_MIN(l->rd_want, (size_t)LONG_MAX_MSG);
	if (size >= want) {
		/* It fits one request: an ordinary read. */
		l->rd_want = 0;
		return false;
	}
	/* Shorter than the kernel's first piece of the announced read:
	 * another thread's read, ordinary.
	 */
	if (size <= UMAD_FS_CUT_MIN)
		return false;
	l->rd_buf = malloc(want);
	if (l->rd_buf == NULL) {
		l->rd_want = 0;
		*ret = -ENOMEM;
		return true;
	}
	n = umad_file_read(f, l->rd_buf, want);
	if (n < 0) {
		read_reset(l);
		l->rd_want = 0;
		*ret = n;
		return true;
	}
	l->rd_len = (size_t)n;
	l->rd_off = 0;
	*ret = read_piece(l, out, size, l->rd_want);
	return true;
}

void
umad_fs_long_free(struct umad_fs_long *l)
{
	write_reset(l);
	read_reset(l);
	l->rd_want = 0;
	l->rd_end = false;
}
