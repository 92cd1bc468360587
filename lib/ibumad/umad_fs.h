/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _UMAD_FS_H_
#define _UMAD_FS_H_

/*
 * The device files of the user-MAD service, served through FUSE: a flat
 * directory holding umad<I> and issm<I> for every IB port, mounted where
 * the service is told and bind-mounted on /dev/infiniband by the
 * namespace wrapper (usertools/dpdk-ib-ns). libibumad never stat()s
 * these files, so regular files do (it opens, reads, writes, polls and
 * sends the four restricted ioctls of <rdma/ib_user_mad.h>).
 *
 * One thread runs the FUSE session; no handler blocks: a blocking read
 * or issm open waits as a parked request, answered when a MAD arrives or
 * the holder closes.
 */

#include <stdbool.h>

#include "umad_chan.h"
#include "umad_file.h"

/* Device files at most: a umad and an issm for each of 64 ports. */
#define UMAD_FS_MAX_PORTS 64

struct umad_fs;

/* What the file system needs from the service for one IB port. */
struct umad_fs_port {
	const struct umad_backend_ops *ops;  /* its MAD agents */
	void *port;                          /* the backend's port */
	/* Set or clear PortInfo:CapabilityMask.IsSM; 0 or -errno. */
	int (*set_issm)(void *port, bool on);
	unsigned int rx_max;                 /* receive queue bound per file */
};

/*
 * Mount the file system on @mountpoint (an existing directory) and start
 * its thread. Returns NULL with errno set on failure.
 */
struct umad_fs *umad_fs_start(const char *mountpoint);

/*
 * Offer the channel (umad_chan.h) on the unix socket @path to the openers
 * of umad files. 0 or -errno (the files then work through FUSE alone).
 */
int umad_fs_chan_start(struct umad_fs *fs, const char *path);

/* The channel's counters (zero without one). */
void umad_fs_chan_counts(struct umad_fs *fs, struct umad_chan_counts *c);

/* Unmount, stop the thread, free; open files see EIO (ENODEV) after. */
void umad_fs_stop(struct umad_fs *fs);

/* Publish umad<id> and issm<id> for @port (copied). 0 or -errno. */
int umad_fs_add_port(struct umad_fs *fs, unsigned int id,
		     const struct umad_fs_port *port);

/*
 * Withdraw umad<id> and issm<id>: new opens fail with ENXIO; open files
 * keep their state until closed, with every agent unregistered.
 */
void umad_fs_remove_port(struct umad_fs *fs, unsigned int id);

/* Open umad files and held issm files, now. */
void umad_fs_counts(struct umad_fs *fs, unsigned int *files, unsigned int *issm);

#endif /* _UMAD_FS_H_ */
