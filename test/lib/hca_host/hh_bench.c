/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * hca_host's UD rate bench (doc/guides/testing.rst, "Benchmarks"): host A
 * keeps 32 signaled UD sends in flight to host B, which reposts every
 * receive. One burst is timed from its first post to its last receive.
 *
 * A sends from one buffer by default, so the model's gather reads 2 KiB
 * that stay in its core's L1. With more buffers it sends from each in
 * turn, as an application sends from many: the model then reads lines it
 * last touched a lap of buffers ago, as it does under net_mthca, whose
 * send mbufs are those it has just received into (bench_mthca,
 * doc/guides/nics/mthca.rst, "Performance").
 *
 * hh_bench_serve() keeps both hosts up and runs one burst per line read
 * from stdin, so a driver (test/bench/bench_hca_ud.py) can alternate many
 * short bursts on two models without a bring-up and an SM sweep between
 * them. Each result line also gives this process's CPU time and context
 * switches for the burst (getrusage()): a burst the scheduler slowed shows
 * there.
 */

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "hh_bench.h"

#define BENCH_INFLIGHT	32
#define BENCH_LOST_US	2000000	/* no receive for this long: datagrams were lost */
#define BENCH_IDLE_MS	200	/* between bursts: serve the SM this often */
#define BENCH_MAX_COUNT	100000000u

unsigned int
hh_bench_max_bufs(const struct hh_host *a)
{
	return (unsigned int)(a->payload.len / HH_BENCH_BUF_STRIDE);
}

void
hh_bench_prepare(struct hh_host *a, struct hh_host *b)
{
	a->lid = hh_get16(hh_host_port_info(a), 64 + 16);
	b->lid = hh_get16(hh_host_port_info(b), 64 + 16);
	hh_post_recv(&b->d, &b->ud, HH_HOST_QP_DEPTH / 2);	/* ring full */
}

unsigned int
hh_bench_burst(struct hh_host *a, struct hh_host *b, unsigned int len, unsigned int count,
	       unsigned int bufs, uint64_t *us)
{
	struct hh_ud_dest dst = { .dlid = b->lid, .dqpn = b->ud.qpn,
				  .qkey = HH_HOST_UD_QKEY, .port = 1 };
	unsigned int sent = 0, got = 0, inflight = 0, iter = 0, buf = 0;
	uint8_t cqe[HH_CQE_SIZE];
	uint64_t t0, last;

	t0 = hh_now_us();
	last = t0;
	while (got < count) {
		/* every WQE signaled so the SQ never overflows */
		while (sent < count && inflight < BENCH_INFLIGHT) {
			hh_post_ud_send(&a->d, &a->ud, &dst, a->payload_mr.lkey,
					(uint64_t)buf * HH_BENCH_BUF_STRIDE, len, true);
			if (++buf == bufs)
				buf = 0;
			sent++;
			inflight++;
		}
		while (hh_cq_poll(&a->d, &a->scq, cqe))
			inflight--;
		while (hh_cq_poll(&b->d, &b->rcq, cqe)) {
			got++;
			last = hh_now_us();
			hh_post_recv(&b->d, &b->ud, 1);
		}
		/* the control side of a real host: answer the SM now and then */
		if ((++iter & 1023) == 0) {
			hh_host_service(a);
			hh_host_service(b);
			if (hh_now_us() - last > BENCH_LOST_US)
				break;	/* datagrams lost (UD is unreliable): report what came */
		}
	}
	/* in flight when the last datagram arrived: their completions, before a next burst */
	while (inflight > 0 && hh_now_us() - last < BENCH_LOST_US)
		while (hh_cq_poll(&a->d, &a->scq, cqe))
			inflight--;
	*us = (got < count ? last : hh_now_us()) - t0;
	if (*us == 0)
		*us = 1;
	return got;
}

static double
tv_s(const struct timeval *tv)
{
	return tv->tv_sec + tv->tv_usec / 1e6;
}

int
hh_bench_serve(struct hh_host *a, struct hh_host *b, volatile sig_atomic_t *stop)
{
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	struct rusage r0, r1;
	unsigned int len, count, bufs, got;
	char line[128];
	int n;
	uint64_t us;

	printf("bench: ready\n");
	fflush(stdout);
	while (!*stop) {
		if (poll(&pfd, 1, BENCH_IDLE_MS) <= 0) {
			hh_host_service(a);
			hh_host_service(b);
			continue;
		}
		if (fgets(line, sizeof(line), stdin) == NULL || line[0] == 'q')
			return 0;
		n = sscanf(line, "%u %u %u", &len, &count, &bufs);
		if (n == 2)
			bufs = 1;
		if (n < 2 || count == 0 || count > BENCH_MAX_COUNT || len > HH_BENCH_MAX_LEN ||
		    bufs == 0 || bufs > hh_bench_max_bufs(a)) {
			printf("bench: bad request \"%.40s\": want SIZE (0..%u) COUNT (1..%u)"
			       " [BUFFERS (1..%u)]\n", line, HH_BENCH_MAX_LEN, BENCH_MAX_COUNT,
			       hh_bench_max_bufs(a));
			fflush(stdout);
			continue;
		}
		getrusage(RUSAGE_SELF, &r0);
		got = hh_bench_burst(a, b, len, count, bufs, &us);
		getrusage(RUSAGE_SELF, &r1);
		printf("bench: %u-byte UD datagrams from %u buffers: %u of %u received in %.6f s"
		       " = %.0f pps; host cpu %.6f s, csw %ld/%ld\n", len, bufs, got, count, us / 1e6,
		       got / (us / 1e6), tv_s(&r1.ru_utime) + tv_s(&r1.ru_stime) -
		       tv_s(&r0.ru_utime) - tv_s(&r0.ru_stime), r1.ru_nvcsw - r0.ru_nvcsw,
		       r1.ru_nivcsw - r0.ru_nivcsw);
		fflush(stdout);
		if (got < count)
			return 1;
	}
	return 0;
}
