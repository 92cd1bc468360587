/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * sa_host's QPS command (sa_host_qps.h): PathRecord Get through
 * librte_ibmad's SA client with a fixed number of queries outstanding.
 * A query is started again from the callback of the one it replaces, on
 * the MAD core's thread (rte_ibmad_sa.h allows that), so nothing waits
 * for the main thread between an answer and the next query. The query is
 * the one Linux IPoIB sends for a new neighbour (ipoib_main.c
 * path_rec_start(): DGID, SGID, NumbPath 1, P_Key), as a Get.
 */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_ib_records.h>
#include <rte_ib_types.h>
#include <rte_ibmad_sa.h>

#include "sa_host_qps.h"
#include "sa_qps.h"

#define QPS_DRAIN_S 15		/* > 4 attempts of the default 1 s timeout */

struct qps_run {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct rte_ib_device *dev;
	uint8_t port;
	uint16_t lid;
	uint8_t gid[16];
	const struct sa_qps_dest *dests;
	unsigned int nb_dests;
	unsigned int next;		/* next destination, round robin */
	unsigned int inflight;
	int send_errno;			/* rte_errno of the first failed send */
	int first_error;		/* status of the first failed query */
	struct sa_qps_stats st;
	unsigned int slot_dest[SA_QPS_MAX_DEPTH];
};

static struct qps_run run = {
	.mu = PTHREAD_MUTEX_INITIALIZER,
	.cv = PTHREAD_COND_INITIALIZER,
};

static void qps_done(int status, const void *recs, unsigned int nb, void *arg);

/*
 * Send the next query on @slot. Called without run.mu: the MAD core's
 * lock is taken inside, and a callback holds that lock when it takes
 * run.mu. False if not sent.
 */
static bool
qps_send(uintptr_t slot)
{
	struct rte_ib_sa_path_rec q;
	const struct sa_qps_dest *d;

	pthread_mutex_lock(&run.mu);
	run.slot_dest[slot] = run.next;
	d = &run.dests[run.next];
	run.next = (run.next + 1) % run.nb_dests;
	pthread_mutex_unlock(&run.mu);
	memset(&q, 0, sizeof(q));
	memcpy(q.dgid.raw, d->gid, sizeof(q.dgid.raw));
	memcpy(q.sgid.raw, run.gid, sizeof(q.sgid.raw));
	q.numb_path = 1;
	q.pkey = RTE_IB_PKEY_DEFAULT;
	if (rte_ibmad_sa_query(run.dev, run.port, RTE_IB_METHOD_GET,
			       RTE_IB_SA_ATTR_PATH_REC,
			       RTE_IB_SA_PATH_REC_DGID | RTE_IB_SA_PATH_REC_SGID |
			       RTE_IB_SA_PATH_REC_NUMB_PATH | RTE_IB_SA_PATH_REC_PKEY,
			       &q, NULL, qps_done, (void *)slot, NULL) == 0)
		return true;
	pthread_mutex_lock(&run.mu);
	if (run.st.send_errors++ == 0)
		run.send_errno = rte_errno;
	pthread_mutex_unlock(&run.mu);
	return false;
}

/* The slot's query is over: it leaves the window. */
static void
qps_slot_end(void)
{
	pthread_mutex_lock(&run.mu);
	run.inflight--;
	pthread_cond_signal(&run.cv);
	pthread_mutex_unlock(&run.mu);
}

static void
qps_done(int status, const void *recs, unsigned int nb, void *arg)
{
	const struct rte_ib_sa_path_rec *p = recs;
	uintptr_t slot = (uintptr_t)arg;
	uint64_t now = sa_qps_now_ns();

	pthread_mutex_lock(&run.mu);
	if (status == -ETIMEDOUT)
		run.st.timeouts++;
	else if (status != 0 || nb != 1) {
		if (run.st.errors++ == 0)
			run.first_error = status;
	}
	else
		sa_qps_answer(&run.st, now, &run.dests[run.slot_dest[slot]], run.lid,
			      run.gid, p->slid, p->dlid, p->sgid.raw, p->dgid.raw);
	pthread_mutex_unlock(&run.mu);
	if (!sa_qps_open(&run.st, now) || !qps_send(slot))
		qps_slot_end();
}

void
sa_host_qps(struct rte_ib_device *dev, uint8_t port, uint16_t lid,
	    const struct rte_ib_gid *gid, const char *file, unsigned int ms,
	    unsigned int depth)
{
	struct sa_qps_dest *dests;
	struct timespec until;
	char err[256];
	unsigned int n, i;
	bool drained = true;

	if (depth == 0 || depth > SA_QPS_MAX_DEPTH) {
		printf("ERR QPS depth %u: 1 to %u\n", depth, SA_QPS_MAX_DEPTH);
		return;
	}
	n = sa_qps_load(file, &dests, err, sizeof(err));
	if (n == 0) {
		printf("ERR QPS %s\n", err);
		return;
	}
	pthread_mutex_lock(&run.mu);
	run.dev = dev;
	run.port = port;
	run.lid = lid;
	memcpy(run.gid, gid->raw, sizeof(run.gid));
	run.dests = dests;
	run.nb_dests = n;
	run.next = 0;
	run.inflight = depth;
	run.send_errno = 0;
	run.first_error = 0;
	if (!sa_qps_start(&run.st, ms)) {
		pthread_mutex_unlock(&run.mu);
		free(dests);
		printf("ERR QPS %u ms: %u to %u\n", ms, SA_QPS_SLICE_MS,
		       SA_QPS_SLICE_MS * SA_QPS_MAX_SLICES);
		return;
	}
	pthread_mutex_unlock(&run.mu);
	for (i = 0; i < depth; i++)
		if (!qps_send(i))
			qps_slot_end();
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += ms / 1000 + QPS_DRAIN_S;
	pthread_mutex_lock(&run.mu);
	while (run.inflight > 0 && drained)
		drained = pthread_cond_timedwait(&run.cv, &run.mu, &until) == 0;
	if (run.inflight > 0) {
		/* Callbacks still due would use dests: keep it. */
		printf("ERR QPS %u queries never completed\n", run.inflight);
		pthread_mutex_unlock(&run.mu);
		return;
	}
	if (run.st.send_errors > 0)
		printf("# %u queries not sent, the first: %s\n", run.st.send_errors,
		       rte_strerror(run.send_errno));
	if (run.st.errors > 0)
		printf("# %u queries failed, the first: %s\n", run.st.errors,
		       run.first_error != 0 ? rte_ibmad_sa_strerror(run.first_error) :
		       "not one record");
	sa_qps_print(&run.st, depth, n);
	pthread_mutex_unlock(&run.mu);
	run.dests = NULL;
	free(dests);
}
