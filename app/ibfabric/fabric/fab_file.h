/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * Opening a file a user named (a net file and its includes, a console
 * "source" script, a capture) without ever blocking the event loop.
 */

#ifndef _IBFABRIC_FAB_FILE_H_
#define _IBFABRIC_FAB_FILE_H_

#include <stddef.h>
#include <sys/types.h>

/**
 * open(2) @p path with @p flags (and @p mode for O_CREAT), only if it is
 * a regular file: a FIFO would block the open or the reads until some
 * other process writes, a device may do anything on open, a directory
 * cannot be read as lines. The open itself is O_NONBLOCK (so a FIFO
 * swapped in after the check cannot block it), then the descriptor is
 * made blocking again (regular files never block).
 *
 * @return the descriptor (O_CLOEXEC), or -1 with @p why holding the
 *   reason ("a FIFO, not a regular file", strerror(errno), ...).
 */
int fab_open_regular(const char *path, int flags, mode_t mode, char *why, size_t whylen);

/**
 * Whether @p path, if it exists, is something fab_open_regular() refuses
 * (without opening it): -1 with @p why set, else 0.
 */
int fab_file_refused(const char *path, char *why, size_t whylen);

#endif /* _IBFABRIC_FAB_FILE_H_ */
