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
 * It wraps read() only, and only acts after the service itself answered
 * ENOSPC; on any other file PEEK fails (ENOTTY) and read()'s own result
 * stands. Nothing else of the process is touched.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "umad_file.h"

typedef ssize_t (*read_fn)(int, void *, size_t);

ssize_t
read(int fd, void *buf, size_t count)
{
	static read_fn real_read;
	struct umad_peek peek;
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
	if (valid > 0) {
		if ((size_t)valid > count)
			valid = (int)count;
		memcpy(buf, peek.buf, (size_t)valid);
	}
	errno = saved;
	return -1;
}
