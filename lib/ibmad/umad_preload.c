/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * libibmad_umad_preload.so: gives read() on the user-MAD service's umad
 * files the kernel's ENOSPC behaviour, which a FUSE reply cannot carry.
 *
 * Linux's ib_umad_read() answers a read too short for a multi-segment
 * (RMPP) message with -ENOSPC *after* copying the header, whose length
 * field gives the size needed, and the first segment; the message stays
 * queued and the caller reads again with a buffer of that size. saquery
 * (through libibumad's umad_recv()) depends on it. FUSE (fs/fuse/dev.c)
 * refuses a reply that carries both an error and data, so the service
 * answers ENOSPC alone and this shim, preloaded by usertools/dpdk-ib-ns,
 * fills the caller's buffer from the service's UMAD_IOCTL_PEEK, which
 * returns exactly those bytes without dequeuing.
 *
 * A message longer than one FUSE request (1 MiB; a whole SA table of a
 * big fabric) reaches the service in several requests that it cannot
 * tell from separate calls (umad_fs_long.h). So when the service answers
 * a read ENOSPC although the caller's buffer holds the message, or a
 * write EMSGSIZE, the shim announces the caller's count with
 * UMAD_IOCTL_READ_LEN / UMAD_IOCTL_WRITE_LEN and calls again.
 *
 * It wraps read() and write() only, and only acts after the service
 * itself answered ENOSPC or EMSGSIZE; on any other file the ioctls fail
 * (ENOTTY) and the call's own result stands. Nothing else of the
 * process is touched.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "umad_file.h"
#include "umad_fs_long.h"

/* Offset of the message length in either umad header layout. */
#define HDR_OFF_LENGTH 16

typedef ssize_t (*read_fn)(int, void *, size_t);
typedef ssize_t (*write_fn)(int, const void *, size_t);

/* Announce a count of @cmd's kind; true when @fd took it. */
static bool
announce(int fd, unsigned long cmd, size_t count)
{
	uint64_t n = count;

	return ioctl(fd, cmd, &n) == 0;
}

ssize_t
read(int fd, void *buf, size_t count)
{
	static read_fn real_read;
	struct umad_peek peek;
	uint32_t need;
	ssize_t n;
	int saved, valid;

	if (real_read == NULL) {
		real_read = (read_fn)dlsym(RTLD_NEXT, "read");
		if (real_read == NULL) {
			errno = ENOSYS;
			return -1;
		}
	}
	n = real_read(fd, buf, count);
	if (n >= 0 || errno != ENOSPC)
		return n;
	saved = errno;
	valid = ioctl(fd, UMAD_IOCTL_PEEK, &peek);
	if (valid >= HDR_OFF_LENGTH + (int)sizeof(need)) {
		memcpy(&need, peek.buf + HDR_OFF_LENGTH, sizeof(need));
		/* Room for it, but the service saw one FUSE request's worth. */
		if (count >= need && announce(fd, UMAD_IOCTL_READ_LEN, count))
			return real_read(fd, buf, count);
	}
	if (valid > 0) {
		if ((size_t)valid > count)
			valid = (int)count;
		memcpy(buf, peek.buf, (size_t)valid);
	}
	errno = saved;
	return -1;
}

ssize_t
write(int fd, const void *buf, size_t count)
{
	static write_fn real_write;
	ssize_t n;

	if (real_write == NULL) {
		real_write = (write_fn)dlsym(RTLD_NEXT, "write");
		if (real_write == NULL) {
			errno = ENOSYS;
			return -1;
		}
	}
	n = real_write(fd, buf, count);
	if (n >= 0 || errno != EMSGSIZE || count <= UMAD_FS_CUT_MIN)
		return n;
	if (!announce(fd, UMAD_IOCTL_WRITE_LEN, count)) {
		errno = EMSGSIZE;
		return -1;
	}
	return real_write(fd, buf, count);
}
