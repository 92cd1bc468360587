/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * c2c_probe: how long one cache line takes to go from one CPU to another
 * and back, now. bench_hca_ud runs it between its bursts: the model and
 * its host spin on the two vCPUs and hand each other cache lines (doorbell
 * slot, doorbell records, WQEs, CQEs) several times per datagram, so the
 * rate follows this round trip, which on a VM depends on where the
 * hypervisor placed the vCPUs (same core complex or not) and may change
 * from one second to the next (doc/guides/testing.rst, "bench_hca_ud").
 *
 *   c2c_probe [CPU_A CPU_B [ROUNDS]]
 *
 * Two threads pinned to CPU_A and CPU_B (default 0 and 1) bounce a
 * counter on one 64-byte line ROUNDS times (default 20,000) in batches of
 * 1,000; prints the fastest batch's nanoseconds per round trip (the
 * hardware's figure: a batch the scheduler interrupted is slower) and the
 * median batch's.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define BATCH		1000u
#define MAX_BATCHES	1000u

struct line {
	_Alignas(64) volatile uint32_t v;
};

static struct line ball;
static unsigned int rounds = 20000;
static int cpu_b = 1;

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int
pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* The other side: answers every odd value with the next even one. */
static void *
responder(void *arg)
{
	uint32_t want = 1;

	(void)arg;
	if (pin(cpu_b) != 0)
		return (void *)1;
	while (want < 2 * rounds) {
		while (__atomic_load_n(&ball.v, __ATOMIC_ACQUIRE) != want)
			;
		__atomic_store_n(&ball.v, want + 1, __ATOMIC_RELEASE);
		want += 2;
	}
	return NULL;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	static uint64_t batch_ns[MAX_BATCHES];
	unsigned int i, n;
	int cpu_a = 0;
	pthread_t t;
	void *ret;
	uint32_t v = 0;

	if (argc >= 3) {
		cpu_a = atoi(argv[1]);
		cpu_b = atoi(argv[2]);
	}
	if (argc >= 4)
		rounds = (unsigned int)strtoul(argv[3], NULL, 0);
	if (argc == 2 || argc > 4 || rounds < BATCH || rounds > BATCH * MAX_BATCHES) {
		fprintf(stderr, "usage: c2c_probe [CPU_A CPU_B [ROUNDS (%u..%u)]]\n", BATCH,
			BATCH * MAX_BATCHES);
		return 2;
	}
	rounds -= rounds % BATCH;
	n = rounds / BATCH;
	if (pin(cpu_a) != 0) {
		fprintf(stderr, "c2c_probe: cannot run on CPU %d\n", cpu_a);
		return 1;
	}
	if (pthread_create(&t, NULL, responder, NULL) != 0) {
		fprintf(stderr, "c2c_probe: no thread\n");
		return 1;
	}
	for (i = 0; i < n; i++) {
		uint64_t t0 = now_ns();
		unsigned int k;

		for (k = 0; k < BATCH; k++) {
			__atomic_store_n(&ball.v, v + 1, __ATOMIC_RELEASE);
			v += 2;
			while (__atomic_load_n(&ball.v, __ATOMIC_ACQUIRE) != v)
				;
		}
		batch_ns[i] = now_ns() - t0;
	}
	pthread_join(t, &ret);
	if (ret != NULL) {
		fprintf(stderr, "c2c_probe: cannot run on CPU %d\n", cpu_b);
		return 1;
	}
	qsort(batch_ns, n, sizeof(batch_ns[0]), cmp_u64);
	printf("c2c_probe: CPU %d <-> %d: %.0f ns per round trip (fastest batch), %.0f (median)\n",
	       cpu_a, cpu_b, (double)batch_ns[0] / BATCH, (double)batch_ns[n / 2] / BATCH);
	return 0;
}
