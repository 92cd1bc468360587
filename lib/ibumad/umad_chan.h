/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _UMAD_CHAN_H_
#define _UMAD_CHAN_H_

/*
 * The channel of the user-MAD service: the MAD exchange of an open umad
 * file (write, read, poll) on a SOCK_SEQPACKET connection instead of
 * FUSE requests (doc/guides/prog_guide/ibumad_lib.rst, "The channel").
 * The file system hands out one-time tokens (umad_chan_offer(), from
 * UMAD_IOCTL_CHANNEL); the MAD core's passes (or a thread of the channel)
 * accept connections, bind one presenting a token to the token's file
 * when the peer is the process that asked for it, and turn the messages
 * they receive into umad_file_write()s. Deliveries go straight to the connection from the
 * MAD core's thread (umad_file_attach()).
 */

#include <stdint.h>
#include <sys/types.h>

#include "umad_file.h"

struct umad_chan;

/* The channel's counters. */
struct umad_chan_counts {
	uint64_t attached;      /* connections bound to a file now */
	uint64_t refused;       /* refused (token, pid, silence, flood, empty) */
	uint64_t bad_writes;    /* messages the file refused as writes */
	uint64_t rx_drops;      /* their statuses dropped (queue full) */
	uint64_t accept_pauses; /* accept() out of descriptors: paused */
};

/*
 * Listen on the unix socket @path (replaced if it exists) and start the
 * thread. Returns NULL with errno set.
 */
struct umad_chan *umad_chan_start(const char *path);

/* Stop the thread, close every connection (their files detached), free. */
void umad_chan_stop(struct umad_chan *ch);

/*
 * A token for @f, good once, for a connection from process @pid (the
 * thread group that sent the ioctl). Fills @info. 0 or -errno.
 */
int umad_chan_offer(struct umad_chan *ch, struct umad_file *f, pid_t pid,
		    struct umad_chan_info *info);

/*
 * @f is being closed: forget its tokens, detach and hang up its
 * connection. After this returns no channel work touches @f.
 */
void umad_chan_forget(struct umad_chan *ch, struct umad_file *f);

void umad_chan_counts(struct umad_chan *ch, struct umad_chan_counts *c);

#endif /* _UMAD_CHAN_H_ */
