/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * hca_host's UD rate bench: bursts of UD datagrams from host A to host B
 * (hh_bench.c).
 */

#ifndef _HH_BENCH_H_
#define _HH_BENCH_H_

#include <signal.h>
#include <stdint.h>

#include "hh_host.h"

#define HH_BENCH_MAX_LEN	2048	/**< UD payload: the 2048-byte IB MTU at most */
/** Send buffers lie this far apart in A's payload region: none crosses a page. */
#define HH_BENCH_BUF_STRIDE	HH_BENCH_MAX_LEN

/** How many send buffers A's payload region holds (hh_bench_burst()). */
unsigned int hh_bench_max_bufs(const struct hh_host *a);

/** LIDs of both ports (ACTIVE) and B's receive ring filled. */
void hh_bench_prepare(struct hh_host *a, struct hh_host *b);
/**
 * Send @p count datagrams of @p len bytes A -> B, 32 in flight, from
 * @p bufs buffers in turn (1 to hh_bench_max_bufs()); the number
 * received, and in *@p us the time from the first post to the last
 * receive.
 */
unsigned int hh_bench_burst(struct hh_host *a, struct hh_host *b, unsigned int len,
			    unsigned int count, unsigned int bufs, uint64_t *us);
/**
 * "SIZE COUNT [BUFFERS]" lines from stdin (one buffer unless told), one
 * burst each, a result line each on stdout; "quit", end of input or
 * *@p stop ends it. 0, or 1 when a burst lost datagrams.
 */
int hh_bench_serve(struct hh_host *a, struct hh_host *b, volatile sig_atomic_t *stop);

#endif /* _HH_BENCH_H_ */
