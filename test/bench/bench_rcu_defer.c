/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * lib/ipoib's deferred free against DPDK's defer queue, one core: cycles
 * per object to defer it and reclaim it once the one registered reader
 * has reported a quiescent state, in batches of BATCH objects (a control
 * side that deletes a batch of neighbours, then reclaims).
 *
 * - list: what ipoib_table.c does (defer(), reclaim_locked()): a token
 *   from rte_rcu_qsbr_start() stored in a node inside the object, the
 *   node at the tail of an STAILQ; reclaim walks from the head while
 *   rte_rcu_qsbr_check() says the token is done;
 * - dq: rte_rcu_qsbr_dq_enqueue() of a 16-byte element (kind, pointer:
 *   what the list's node carries) into a queue of DQ_SIZE, then
 *   rte_rcu_qsbr_dq_reclaim() of up to BATCH, the free callback counting.
 *
 * Each way runs ROUNDS times over NB objects, alternating; the figure is
 * the fastest round divided by NB. Prints one line; exit status 0 unless
 * something failed to set up. The machine is shared: the ratio of the
 * two, from the same run, is the figure to read.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/queue.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#define NB	(1u << 20)	/* objects per round */
#define BATCH	64		/* deferred between two reclaims */
#define ROUNDS	7
#define DQ_SIZE	4096

struct obj {
	STAILQ_ENTRY(obj) next;
	uint64_t token;
	int kind;
	void *ptr;
	char body[32];
};

STAILQ_HEAD(obj_list, obj);

/* The element a defer queue entry holds: what the list's node carries. */
struct dq_elem {
	int kind;
	void *ptr;
};

static uint64_t nb_freed;

static void
dq_free(void *ctx, void *e, unsigned int n)
{
	RTE_SET_USED(ctx);
	RTE_SET_USED(e);
	nb_freed += n;
}

static uint64_t
round_list(struct rte_rcu_qsbr *v, struct obj *objs)
{
	struct obj_list l = STAILQ_HEAD_INITIALIZER(l);
	uint64_t t0 = rte_rdtsc_precise();
	struct obj *d;
	uint32_t i, j;

	for (i = 0; i < NB; i += BATCH) {
		for (j = 0; j < BATCH; j++) {
			struct obj *o = &objs[i + j];

			o->kind = 1;
			o->ptr = o;
			o->token = rte_rcu_qsbr_start(v);
			STAILQ_INSERT_TAIL(&l, o, next);
		}
		rte_rcu_qsbr_quiescent(v, 0);
		while ((d = STAILQ_FIRST(&l)) != NULL) {
			if (rte_rcu_qsbr_check(v, d->token, false) != 1)
				break;
			STAILQ_REMOVE_HEAD(&l, next);
			nb_freed++;
		}
	}
	return rte_rdtsc_precise() - t0;
}

static int64_t
round_dq(struct rte_rcu_qsbr *v, struct rte_rcu_qsbr_dq *dq, struct obj *objs)
{
	uint64_t t0 = rte_rdtsc_precise();
	unsigned int freed, pending, avail;
	uint32_t i, j;

	for (i = 0; i < NB; i += BATCH) {
		for (j = 0; j < BATCH; j++) {
			struct dq_elem e = { .kind = 1, .ptr = &objs[i + j] };

			if (rte_rcu_qsbr_dq_enqueue(dq, &e) != 0)
				return -1;
		}
		rte_rcu_qsbr_quiescent(v, 0);
		if (rte_rcu_qsbr_dq_reclaim(dq, BATCH, &freed, &pending, &avail) != 0)
			return -1;
	}
	return (int64_t)(rte_rdtsc_precise() - t0);
}

int
main(int argc, char **argv)
{
	char *eal[] = {
		argv[0], (char *)"--no-huge", (char *)"-m", (char *)"64", (char *)"--no-pci",
		(char *)"--no-shconf", (char *)"--file-prefix=bench_rcu_defer", (char *)"-l",
		(char *)"0", (char *)"--log-level=lib.eal:error", NULL,
	};
	struct rte_rcu_qsbr_dq_parameters p = {
		.name = "bench_rcu_defer",
		.size = DQ_SIZE,
		.esize = sizeof(struct dq_elem),
		.max_reclaim_size = BATCH,
		.free_fn = dq_free,
	};
	uint64_t best_list = UINT64_MAX, best_dq = UINT64_MAX, t;
	struct rte_rcu_qsbr_dq *dq;
	struct rte_rcu_qsbr *v;
	struct obj *objs;
	int64_t td;
	int r;

	RTE_SET_USED(argc);
	if (rte_eal_init(RTE_DIM(eal) - 1, eal) < 0) {
		printf("bench_rcu_defer: EAL init failed\n");
		return 1;
	}
	v = rte_zmalloc(NULL, rte_rcu_qsbr_get_memsize(1), RTE_CACHE_LINE_SIZE);
	objs = calloc(NB, sizeof(*objs));
	if (v == NULL || objs == NULL || rte_rcu_qsbr_init(v, 1) != 0 ||
	    rte_rcu_qsbr_thread_register(v, 0) != 0) {
		printf("bench_rcu_defer: set-up failed\n");
		return 1;
	}
	rte_rcu_qsbr_thread_online(v, 0);
	p.v = v;
	dq = rte_rcu_qsbr_dq_create(&p);
	if (dq == NULL) {
		printf("bench_rcu_defer: rte_rcu_qsbr_dq_create failed\n");
		return 1;
	}
	for (r = 0; r < ROUNDS; r++) {
		t = round_list(v, objs);
		best_list = RTE_MIN(best_list, t);
		td = round_dq(v, dq, objs);
		if (td < 0) {
			printf("bench_rcu_defer: the defer queue refused an object\n");
			return 1;
		}
		best_dq = RTE_MIN(best_dq, (uint64_t)td);
	}
	printf("bench_rcu_defer: cycles per object, defer + reclaim in batches of %u "
	       "(fastest of %d rounds of %u): own list %.1f, rte_rcu_qsbr_dq %.1f "
	       "(%.2fx the list); %" PRIu64 " freed\n", BATCH, ROUNDS, NB,
	       (double)best_list / NB, (double)best_dq / NB,
	       (double)best_dq / (double)best_list, nb_freed);
	rte_rcu_qsbr_dq_delete(dq);
	rte_free(v);
	free(objs);
	rte_eal_cleanup();
	return 0;
}
