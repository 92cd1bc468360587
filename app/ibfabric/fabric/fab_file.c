/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fab_file.h"

static const char *
file_kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a plain file";
}

int
fab_file_refused(const char *path, char *why, size_t whylen)
{
	struct stat st;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(why, whylen, "%s, not a regular file", file_kind(st.st_mode));
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int
fab_open_regular(const char *path, int flags, mode_t mode, char *why, size_t whylen)
{
	struct stat st;
	int fd, fl;

	/* Refuse before opening: opening a device can have effects of its own. */
	if (fab_file_refused(path, why, whylen) < 0)
		return -1;
	fd = open(path, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, mode);
	if (fd < 0) {
		/* O_WRONLY|O_NONBLOCK on a FIFO without a reader. */
		if (errno == ENXIO)
			snprintf(why, whylen, "a FIFO, not a regular file");
		else
			snprintf(why, whylen, "%s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(why, whylen, "%s, not a regular file", file_kind(st.st_mode));
		close(fd);
		errno = EINVAL;
		return -1;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}
