/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The IB counters of a port for a secondary process. The PMA's
 * PortCounters are read with a MAD_IFC firmware command through BAR0
 * and the HCA's mailboxes, the MAD core's from its state in the primary's
 * heap: neither is reachable from another process. A secondary sends
 * MTHCA_MP_NAME with the ethdev port; the primary, on EAL's IPC thread,
 * reads the counters as its own xstats_get does and answers with them
 * (DPDK's multi-process guide, "Communication between multiple
 * processes"). The request and its answer fit one rte_mp_msg.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>

#include "mthca.h"
#include "mthca_mp.h"

#define MTHCA_MP_NAME		"net_mthca_ib_counters"
#define MTHCA_MP_TIMEOUT_S	1

struct mp_request {
	uint16_t port_id;
};

struct mp_answer {
	int32_t status;				/**< 0 or a negative errno */
	uint64_t v[MTHCA_IB_COUNTERS];
};

static_assert(sizeof(struct mp_answer) <= RTE_MP_MAX_PARAM_LEN, "one rte_mp_msg");

static mthca_mp_read_t mp_read;	/* set once, before the action is registered */

static int
mp_answer(const struct rte_mp_msg *msg, const void *peer)
{
	const struct mp_request *rq = (const void *)msg->param;
	struct rte_mp_msg out;
	struct mp_answer *a = (void *)out.param;

	memset(&out, 0, sizeof(out));
	snprintf(out.name, sizeof(out.name), "%s", MTHCA_MP_NAME);
	out.len_param = sizeof(*a);
	if (msg->len_param != sizeof(*rq)) {
		MTHCA_LOG(ERR, "request of %d bytes, not %zu", msg->len_param, sizeof(*rq));
		a->status = -EINVAL;
	} else {
		a->status = mp_read(rq->port_id, a->v);
	}
	return rte_mp_reply(&out, peer);
}

int
mthca_mp_init_primary(mthca_mp_read_t read)
{
	static bool done;
	int ret;

	if (done)
		return 0;
	mp_read = read;
	ret = rte_mp_action_register(MTHCA_MP_NAME, mp_answer);
	/* ENOTSUP: the process runs with --in-memory or no IPC; no secondary can come */
	if (ret != 0 && rte_errno != EEXIST && rte_errno != ENOTSUP) {
		MTHCA_LOG(ERR, "rte_mp_action_register(%s): %s", MTHCA_MP_NAME,
			  rte_strerror(rte_errno));
		return -rte_errno;
	}
	done = true;
	return 0;
}

int
mthca_mp_ib_counters(uint16_t port_id, uint64_t v[MTHCA_IB_COUNTERS])
{
	struct timespec ts = { .tv_sec = MTHCA_MP_TIMEOUT_S };
	struct rte_mp_reply rep;
	struct rte_mp_msg req;
	struct mp_request *rq = (void *)req.param;
	const struct mp_answer *a;
	int ret;

	memset(&req, 0, sizeof(req));
	snprintf(req.name, sizeof(req.name), "%s", MTHCA_MP_NAME);
	req.len_param = sizeof(*rq);
	rq->port_id = port_id;
	memset(&rep, 0, sizeof(rep));
	if (rte_mp_request_sync(&req, &rep, &ts) != 0 || rep.nb_received != 1) {
		MTHCA_LOG(ERR, "port %u: the primary process did not answer %s", port_id,
			  MTHCA_MP_NAME);
		free(rep.msgs);
		return -ETIMEDOUT;
	}
	a = (const void *)rep.msgs[0].param;
	if (rep.msgs[0].len_param != sizeof(*a)) {
		MTHCA_LOG(ERR, "port %u: answer of %d bytes, not %zu", port_id,
			  rep.msgs[0].len_param, sizeof(*a));
		ret = -EBADMSG;
	} else {
		ret = a->status;
		memcpy(v, a->v, sizeof(a->v));
	}
	free(rep.msgs);
	return ret;
}
