/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The user-MAD service (rte_ibmad_umad.h): IB ports found through an
 * rte_ib client, their device files (umad_fs.c) and attributes
 * (umad_sysfs.c), and the backend that turns an open file's agents into
 * rte_ibmad agents, as Linux's user_mad.c turns them into ib_mad agents.
 *
 * Locks, outermost first: svc.lock (the port table), a port's mu (its
 * agent list; held around rte_ibmad calls so that a device removal and a
 * client's send or unregister do not cross), then the MAD core's lock,
 * then a file's locks (taken in the agent callbacks). Nothing here is
 * taken inside a MAD core callback except the file's.
 */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_ibmad.h>

#include <ib_proto.h>
#include "ibumad_private.h"
#include "rte_ibmad_umad.h"
#include "umad_fs.h"
#include "umad_sysfs.h"

RTE_LOG_REGISTER_DEFAULT(ibumad_logtype, NOTICE);

/* Seconds between two refreshes of every port's attributes. */
#define UMAD_REFRESH_S 1
/*
 * Agents: 32 per file (UMAD_MAX_AGENTS, Linux IB_UMAD_MAX_AGENTS), at
 * most UMAD_AGENTS_PER_PROC per client process on a port, and at most
 * UMAD_AGENTS_MAX for all clients, so that the application's own agents
 * (its SA client) keep UMAD_AGENTS_RESERVED of the MAD core's table and
 * one greedy client leaves room for OpenSM and the diags. Past either
 * limit, ENOMEM, as past the per-file one.
 */
#define UMAD_AGENTS_RESERVED 32
#define UMAD_AGENTS_MAX (RTE_IBMAD_MAX_AGENTS - UMAD_AGENTS_RESERVED)
#define UMAD_AGENTS_PER_PROC (2 * UMAD_MAX_AGENTS)

struct umad_port;

/* One umad agent of an open file: an rte_ibmad agent. */
struct umad_agent {
	TAILQ_ENTRY(umad_agent) next;
	struct umad_port *port;
	struct umad_file *file;
	unsigned int id;               /* slot in the file */
	struct rte_ibmad_agent *a;     /* NULL once the device is gone */
	bool rmpp;                     /* the MAD core runs its RMPP */
};

/* What a send remembers for its completion (Linux ib_umad_packet). */
struct umad_send_ctx {
	struct umad_agent *agent;
	struct ib_user_mad_hdr hdr;
	uint8_t mad_hdr[UMAD_MGMT_MAD_HDR];
};

struct umad_port {
	pthread_mutex_t mu;
	struct rte_ib_device *dev;
	uint8_t port_num;
	unsigned int id;
	bool live;
	TAILQ_HEAD(, umad_agent) agents;
};

static struct {
	pthread_mutex_t lock;
	bool running;
	char dev_dir[PATH_MAX - 16];
	char sys_dir[PATH_MAX - 16];
	char run_dir[PATH_MAX - 16];
	unsigned int rx_queue;
	struct umad_fs *fs;
	struct umad_port *ports[UMAD_FS_MAX_PORTS];
	unsigned int next_id;
	pthread_t refresher;
	/* wake_lock: only around stopping/dirty, never held during work */
	pthread_mutex_t wake_lock;
	bool stopping;
	bool dirty;                    /* a port event: refresh now */
	pthread_cond_t stop_cond;      /* stopping or dirty */
	uint64_t sends, send_errors, timeouts, rx_drops, rmpp_refused;
	uint64_t agents;               /* umad agents registered now */
} svc = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.wake_lock = PTHREAD_MUTEX_INITIALIZER,
	.stop_cond = PTHREAD_COND_INITIALIZER,
};

static void
stat_add(uint64_t *counter)
{
	__atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
}

/* The umad header of a received MAD (Linux recv_handler()). */
static void
recv_hdr(const struct rte_ib_mad_wc *wc, struct ib_user_mad_hdr *hdr)
{
	memset(hdr, 0, sizeof(*hdr));
	hdr->qpn = rte_cpu_to_be_32(wc->src_qpn);
	hdr->lid = rte_cpu_to_be_16(wc->slid);
	hdr->sl = wc->sl;
	hdr->path_bits = wc->path_bits;
	hdr->pkey_index = wc->pkey_index;
	if (wc->flags & RTE_IB_MAD_WC_GRH) {
		const uint8_t *g = (const uint8_t *)&wc->grh;
		uint32_t w0;

		/* GRH: IPVer/TClass/FlowLabel, then HopLmt at 7, SGID at 8. */
		memcpy(&w0, g, sizeof(w0));
		w0 = rte_be_to_cpu_32(w0);
		hdr->grh_present = 1;
		hdr->traffic_class = (uint8_t)(w0 >> 20);
		hdr->flow_label = rte_cpu_to_be_32(w0 & 0xfffff);
		hdr->hop_limit = g[7];
		memcpy(hdr->gid, g + 8, sizeof(hdr->gid));
	}
}

static uint64_t
mad_tid(const uint8_t *mad)
{
	rte_be64_t tid;

	memcpy(&tid, mad + 8, sizeof(tid));
	return rte_be_to_cpu_64(tid);
}

/*
 * An RMPP ACK, STOP or ABORT a client writes (IBA 13.6.2.1: Active,
 * RMPPType 2-4) names a transfer by its TID, and on the wire it comes
 * from this port's LID, as the transfer's own receiver's or sender's
 * does when both ends are on this host or the forger shares its LID
 * with them: the source rule cannot tell them apart (ibmad_lib.rst,
 * "Trust"). The service knows who writes it, so it is sent only for a
 * transfer of the writer's own:
 *
 *  - not from an agent whose RMPP the MAD core runs: the core ACKs,
 *    stops and aborts that agent's transfers itself (Linux would send
 *    it as one MAD, ib_send_rmpp_mad(); it names no transfer of the
 *    writer's that the kernel does not already answer);
 *  - of a request's kind (R bit clear): the MAD core puts the agent's
 *    own TID high part into it, as ib_umad_write() does, so it can only
 *    name the agent's own request;
 *  - of a response's kind, which keeps its TID (another agent's, the
 *    requester's): only when a request of that TID and class from the
 *    LID it goes to was handed to this file (the writer answers it, or
 *    reassembles its segments itself). Linux sends any.
 *
 * Else EINVAL, counted in rmpp_refused.
 */
static int
rmpp_ctl_check(const struct umad_agent *ag, const struct ib_user_mad_hdr *hdr,
	       const uint8_t *mad, size_t len)
{
	const char *why;

	if (len < UMAD_MIN_WRITE_DATA || !ib_mad_is_rmpp_active(mad) ||
	    mad[IB_RMPP_OFF_TYPE] < IB_RMPP_TYPE_ACK ||
	    mad[IB_RMPP_OFF_TYPE] > IB_RMPP_TYPE_ABORT)
		return 0;
	if (ag->rmpp)
		why = "its agent's RMPP is the MAD core's";
	else if (!ib_mad_is_response(mad))
		return 0;
	else if (umad_file_seen(ag->file, mad_tid(mad), mad[1],
				rte_be_to_cpu_16(hdr->lid)))
		return 0;
	else
		why = "no request of it from that LID was handed to the file";
	stat_add(&svc.rmpp_refused);
	IBUMAD_LOG(NOTICE, "umad%u agent %u: RMPP type %u for TID 0x%016" PRIx64
		   " to LID 0x%04x: %s: refused", ag->port->id, ag->id,
		   mad[IB_RMPP_OFF_TYPE], mad_tid(mad), rte_be_to_cpu_16(hdr->lid), why);
	return -EINVAL;
}

/* Queue for the agent's file; a full queue (or a closing file) drops. */
static void
deliver(struct umad_agent *ag, const struct ib_user_mad_hdr *hdr,
	const void *mad, size_t len)
{
	if (umad_file_deliver(ag->file, ag->id, hdr, mad, len) < 0)
		stat_add(&svc.rx_drops);
}

static void
agent_recv(struct rte_ibmad_agent *a, const struct rte_ibmad_recv *recv,
	   void *arg)
{
	struct umad_agent *ag = arg;
	struct ib_user_mad_hdr hdr;

	RTE_SET_USED(a);
	recv_hdr(recv->wc, &hdr);
	/* A request: the client is a party to its transfers. */
	if (!ib_mad_is_response(recv->mad))
		umad_file_seen_add(ag->file, mad_tid(recv->mad), recv->mad[1],
				   recv->wc->slid);
	deliver(ag, &hdr, recv->mad, recv->len);
}

static void
agent_sent(struct rte_ibmad_agent *a, const struct rte_ibmad_send_result *res,
	   void *arg)
{
	struct umad_send_ctx *ctx = res->context;
	struct umad_agent *ag = arg;
	struct ib_user_mad_hdr hdr;
	rte_be64_t tid;

	RTE_SET_USED(a);
	if (ctx == NULL)
		return;
	if (res->status == 0 && res->response != NULL) {
		/* The response goes to the agent's queue like any MAD. */
		recv_hdr(res->response->wc, &hdr);
		deliver(ag, &hdr, res->response->mad, res->response->len);
	} else if (res->status == -ETIMEDOUT) {
		/*
		 * Linux send_handler(): the user's header with ETIMEDOUT and
		 * the request's common MAD header, TID as sent.
		 */
		stat_add(&svc.timeouts);
		hdr = ctx->hdr;
		hdr.status = ETIMEDOUT;
		tid = rte_cpu_to_be_64(res->tid);
		memcpy(ctx->mad_hdr + 8, &tid, sizeof(tid));
		deliver(ag, &hdr, ctx->mad_hdr, sizeof(ctx->mad_hdr));
	}
	free(ctx);
}

/* May @f's process have one agent more on @p? p->mu is held. */
static int
agent_room_locked(const struct umad_port *p, const struct umad_file *f)
{
	const struct umad_agent *ag;
	unsigned int mine = 0;

	if (__atomic_load_n(&svc.agents, __ATOMIC_RELAXED) >= UMAD_AGENTS_MAX) {
		IBUMAD_LOG(WARNING, "umad%u: %u agents of clients already: ENOMEM",
			  p->id, UMAD_AGENTS_MAX);
		return -ENOMEM;
	}
	if (f->owner == 0)
		return 0;
	TAILQ_FOREACH(ag, &p->agents, next)
		if (ag->file->owner == f->owner)
			mine++;
	if (mine >= UMAD_AGENTS_PER_PROC) {
		IBUMAD_LOG(WARNING, "umad%u: process %d has %u agents already: ENOMEM",
			  p->id, (int)f->owner, mine);
		return -ENOMEM;
	}
	return 0;
}

static int
be_agent_register(void *port, struct umad_file *f, unsigned int id,
		  const struct umad_reg *reg, void **handle)
{
	struct umad_port *p = port;
	struct rte_ibmad_agent_conf conf;
	struct umad_agent *ag;
	int rc = 0;

	ag = calloc(1, sizeof(*ag));
	if (ag == NULL)
		return -ENOMEM;
	ag->port = p;
	ag->file = f;
	ag->id = id;
	memset(&conf, 0, sizeof(conf));
	conf.port = p->port_num;
	conf.qpn = (uint8_t)reg->qpn;
	conf.mgmt_class = reg->mgmt_class;
	conf.class_version = reg->class_version;
	conf.oui = reg->oui;
	memcpy(conf.method_mask, reg->method_mask, sizeof(conf.method_mask));
	/* The kernel does RMPP unless the user asked to (IB_USER_MAD_USER_RMPP). */
	conf.rmpp_version = !(reg->flags & IB_USER_MAD_USER_RMPP) ?
		reg->rmpp_version : 0;
	ag->rmpp = conf.rmpp_version != 0;
	IBUMAD_LOG(DEBUG, "umad%u agent %u: class 0x%02x version %u, RMPP %u",
		  p->id, id, reg->mgmt_class, reg->class_version, conf.rmpp_version);
	conf.recv_cb = agent_recv;
	conf.send_cb = agent_sent;
	conf.arg = ag;
	/* One client per open file: it may answer on any of its agents. */
	conf.owner = (uint64_t)(uintptr_t)f;
	pthread_mutex_lock(&p->mu);
	if (!p->live)
		rc = -EPIPE;      /* Linux: the device is gone */
	else
		rc = agent_room_locked(p, f);
	if (rc == 0) {
		conf.dev = p->dev;
		ag->a = rte_ibmad_agent_register(&conf);
		if (ag->a == NULL)
			rc = -rte_errno;
		else
			TAILQ_INSERT_TAIL(&p->agents, ag, next);
	}
	pthread_mutex_unlock(&p->mu);
	if (rc < 0) {
		free(ag);
		return rc;
	}
	stat_add(&svc.agents);
	*handle = ag;
	return 0;
}

static void
be_agent_unregister(void *port, void *handle)
{
	struct umad_port *p = port;
	struct umad_agent *ag = handle;

	pthread_mutex_lock(&p->mu);
	TAILQ_REMOVE(&p->agents, ag, next);
	if (ag->a != NULL)
		rte_ibmad_agent_unregister(ag->a);
	pthread_mutex_unlock(&p->mu);
	__atomic_fetch_sub(&svc.agents, 1, __ATOMIC_RELAXED);
	free(ag);
}

static int
be_send(void *port, void *handle, const struct ib_user_mad_hdr *hdr,
	const void *mad, size_t len)
{
	struct umad_port *p = port;
	struct umad_agent *ag = handle;
	struct rte_ibmad_send_params sp;
	struct umad_send_ctx *ctx;
	int rc;

	rc = rmpp_ctl_check(ag, hdr, mad, len);
	if (rc < 0)
		return rc;
	ctx = malloc(sizeof(*ctx));
	if (ctx == NULL)
		return -ENOMEM;
	ctx->agent = ag;
	ctx->hdr = *hdr;
	memcpy(ctx->mad_hdr, mad, sizeof(ctx->mad_hdr));

	memset(&sp, 0, sizeof(sp));
	sp.mad = mad;
	sp.len = (uint32_t)len;
	sp.ah_attr.dlid = rte_be_to_cpu_16(hdr->lid);
	sp.ah_attr.sl = hdr->sl;
	sp.ah_attr.src_path_bits = hdr->path_bits;
	sp.ah_attr.port_num = p->port_num;
	if (hdr->grh_present) {
		sp.ah_attr.ah_flags = RTE_IB_AH_GRH;
		memcpy(sp.ah_attr.grh.dgid.raw, hdr->gid, sizeof(hdr->gid));
		sp.ah_attr.grh.flow_label = rte_be_to_cpu_32(hdr->flow_label);
		sp.ah_attr.grh.sgid_index = hdr->gid_index;
		sp.ah_attr.grh.hop_limit = hdr->hop_limit;
		sp.ah_attr.grh.traffic_class = hdr->traffic_class;
	}
	sp.remote_qpn = rte_be_to_cpu_32(hdr->qpn);
	sp.remote_qkey = rte_be_to_cpu_32(hdr->qkey);
	sp.pkey_index = hdr->pkey_index;
	sp.timeout_ms = RTE_MIN(hdr->timeout_ms, (uint32_t)RTE_IBMAD_MAX_TIMEOUT_MS);
	sp.retries = (uint8_t)RTE_MIN(hdr->retries, (uint32_t)RTE_IBMAD_MAX_RETRIES);
	sp.context = ctx;

	IBUMAD_LOG(DEBUG, "umad%u agent %u: send class 0x%02x method 0x%02x, %zu bytes, "
		  "RMPP flags 0x%x, timeout %u ms", p->id, ag->id,
		  ((const uint8_t *)mad)[1], ((const uint8_t *)mad)[3], len,
		  ((const uint8_t *)mad)[26], hdr->timeout_ms);
	pthread_mutex_lock(&p->mu);
	if (ag->a == NULL)
		rc = -EPIPE;
	else if (rte_ibmad_send(ag->a, &sp, NULL) < 0)
		rc = -rte_errno;
	pthread_mutex_unlock(&p->mu);
	if (rc < 0) {
		free(ctx);
		stat_add(&svc.send_errors);
		return rc;
	}
	stat_add(&svc.sends);
	return 0;
}

static const struct umad_backend_ops backend_ops = {
	.agent_register = be_agent_register,
	.agent_unregister = be_agent_unregister,
	.send = be_send,
};

static int
port_set_issm(void *port, bool on)
{
	struct umad_port *p = port;
	int rc = -EPIPE;

	pthread_mutex_lock(&p->mu);
	if (p->live)
		rc = rte_ib_modify_port(p->dev, p->port_num,
					on ? RTE_IB_PORT_CAP_SM : 0,
					on ? 0 : RTE_IB_PORT_CAP_SM) < 0 ?
			-rte_errno : 0;
	pthread_mutex_unlock(&p->mu);
	if (rc < 0)
		IBUMAD_LOG(WARNING, "%s port %u: cannot %s IsSM: %s",
			  p->dev->name, p->port_num, on ? "set" : "clear",
			  strerror(-rc));
	return rc;
}

/*
 * Events run on the MAD core's thread: the attributes are rewritten by
 * the refresher, woken now, so that no MAD waits for file system work
 * (a second or more per event on a busy disk, longer than an SM waits
 * for an SMP's response).
 */
static void
port_event(const struct rte_ib_event *ev, void *arg)
{
	RTE_SET_USED(arg);
	if (ev->port == 0)
		return;
	pthread_mutex_lock(&svc.wake_lock);
	svc.dirty = true;
	pthread_cond_broadcast(&svc.stop_cond);
	pthread_mutex_unlock(&svc.wake_lock);
}

static int
client_add(struct rte_ib_device *dev)
{
	struct umad_fs_port fp;
	struct umad_port *p;
	unsigned int base, i;
	int rc;

	pthread_mutex_lock(&svc.lock);
	if (!svc.running || svc.next_id + dev->phys_port_cnt > UMAD_FS_MAX_PORTS) {
		pthread_mutex_unlock(&svc.lock);
		return svc.running ? -ENOSPC : 0;
	}
	base = svc.next_id;
	svc.next_id += dev->phys_port_cnt;
	for (i = 0; i < dev->phys_port_cnt; i++) {
		p = calloc(1, sizeof(*p));
		if (p == NULL)
			break;
		pthread_mutex_init(&p->mu, NULL);
		TAILQ_INIT(&p->agents);
		p->dev = dev;
		p->port_num = (uint8_t)(i + 1);
		p->id = base + i;
		p->live = true;
		svc.ports[base + i] = p;
	}
	/* Under the lock: the refresher writes the same files. */
	rc = umad_sysfs_add_device(svc.sys_dir, dev, base);
	pthread_mutex_unlock(&svc.lock);
	if (rc < 0)
		IBUMAD_LOG(ERR, "%s: attributes under %s: %s", dev->name,
			  svc.sys_dir, strerror(-rc));
	rte_ib_register_event_handler(dev, port_event, NULL);
	for (i = 0; i < dev->phys_port_cnt; i++) {
		p = svc.ports[base + i];
		if (p == NULL)
			continue;
		memset(&fp, 0, sizeof(fp));
		fp.ops = &backend_ops;
		fp.port = p;
		fp.set_issm = port_set_issm;
		fp.rx_max = svc.rx_queue;
		umad_fs_add_port(svc.fs, p->id, &fp);
		IBUMAD_LOG(INFO, "%s port %u: umad%u, issm%u", dev->name,
			  p->port_num, p->id, p->id);
	}
	return rc;
}

static void
client_remove(struct rte_ib_device *dev)
{
	struct umad_agent *ag;
	struct umad_port *p;
	unsigned int i, base = UINT_MAX;

	rte_ib_unregister_event_handler(dev, port_event, NULL);
	for (i = 0; i < UMAD_FS_MAX_PORTS; i++) {
		p = svc.ports[i];
		if (p == NULL || p->dev != dev || !p->live)
			continue;
		if (base == UINT_MAX)
			base = i;
		umad_fs_remove_port(svc.fs, i);
		pthread_mutex_lock(&p->mu);
		p->live = false;
		/* Open files keep their slots; their agents die now. */
		TAILQ_FOREACH(ag, &p->agents, next) {
			rte_ibmad_agent_unregister(ag->a);
			ag->a = NULL;
		}
		pthread_mutex_unlock(&p->mu);
	}
	if (base != UINT_MAX)
		umad_sysfs_remove_device(svc.sys_dir, dev, base);
}

static const struct rte_ib_client umad_client = {
	.name = "umad",
	.add = client_add,
	.remove = client_remove,
};

static void
stats_read(struct rte_ibmad_umad_stats *st)
{
	struct umad_chan_counts cc = { 0 };
	unsigned int files = 0, issm = 0;

	if (svc.fs != NULL) {
		umad_fs_counts(svc.fs, &files, &issm);
		umad_fs_chan_counts(svc.fs, &cc);
	}
	st->channels = cc.attached;
	st->chan_refused = cc.refused;
	st->chan_bad_writes = cc.bad_writes;
	st->chan_accept_pauses = cc.accept_pauses;
	st->files = files;
	st->issm = issm;
	st->agents = __atomic_load_n(&svc.agents, __ATOMIC_RELAXED);
	st->rx_drops = __atomic_load_n(&svc.rx_drops, __ATOMIC_RELAXED) + cc.rx_drops;
	st->sends = __atomic_load_n(&svc.sends, __ATOMIC_RELAXED);
	st->send_errors = __atomic_load_n(&svc.send_errors, __ATOMIC_RELAXED);
	st->timeouts = __atomic_load_n(&svc.timeouts, __ATOMIC_RELAXED);
	st->rmpp_refused = __atomic_load_n(&svc.rmpp_refused, __ATOMIC_RELAXED);
}

/*
 * <run dir>/stats: the counters as "name value" lines, for whoever has
 * no handle on the process (a test, an operator after a client died).
 * Called with svc.lock held.
 */
static void
stats_write(void)
{
	struct rte_ibmad_umad_stats st;
	char text[768];
	int rc;

	stats_read(&st);
	snprintf(text, sizeof(text),
		 "files %" PRIu64 "\nagents %" PRIu64 "\nissm %" PRIu64 "\n"
		 "rx_drops %" PRIu64 "\nsends %" PRIu64 "\nsend_errors %" PRIu64 "\n"
		 "timeouts %" PRIu64 "\nchannels %" PRIu64 "\nchan_refused %" PRIu64
		 "\nchan_bad_writes %" PRIu64 "\nchan_accept_pauses %" PRIu64
		 "\nrmpp_refused %" PRIu64 "\n",
		 st.files, st.agents, st.issm, st.rx_drops, st.sends,
		 st.send_errors, st.timeouts, st.channels, st.chan_refused,
		 st.chan_bad_writes, st.chan_accept_pauses, st.rmpp_refused);
	rc = umad_sysfs_put_file(svc.run_dir, "stats", text);
	if (rc < 0)
		IBUMAD_LOG(DEBUG, "%s/stats: %s", svc.run_dir, strerror(-rc));
}

/* After a port event, and now and then for changes that raise none
 * (INIT -> ARMED).
 */
static void *
refresher(void *arg)
{
	struct timespec until;
	unsigned int i;
	bool stop;

	RTE_SET_USED(arg);
	for (;;) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += UMAD_REFRESH_S;
		pthread_mutex_lock(&svc.wake_lock);
		while (!svc.stopping && !svc.dirty &&
		       pthread_cond_timedwait(&svc.stop_cond, &svc.wake_lock,
					      &until) == 0)
			;
		stop = svc.stopping;
		svc.dirty = false;
		pthread_mutex_unlock(&svc.wake_lock);
		if (stop)
			break;
		pthread_mutex_lock(&svc.lock);
		for (i = 0; i < svc.next_id; i++) {
			struct umad_port *p = svc.ports[i];

			if (p == NULL || !p->live)
				continue;
			umad_sysfs_update_port(svc.sys_dir, p->dev, p->port_num);
			umad_sysfs_update_counters(svc.sys_dir, p->dev,
						   p->port_num);
		}
		stats_write();
		pthread_mutex_unlock(&svc.lock);
	}
	return NULL;
}

static int
make_dirs(const char *run_dir)
{
	if (mkdir(run_dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	if (mkdir(svc.dev_dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	if (mkdir(svc.sys_dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	return umad_sysfs_init(svc.sys_dir);
}

int
rte_ibmad_umad_start(const struct rte_ibmad_umad_conf *conf)
{
	char chan_path[PATH_MAX];
	int rc;

	if (conf == NULL || conf->run_dir == NULL || conf->run_dir[0] == '\0' ||
	    strlen(conf->run_dir) > sizeof(svc.dev_dir) - 8) {
		rte_errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&svc.lock);
	if (svc.running) {
		pthread_mutex_unlock(&svc.lock);
		rte_errno = EALREADY;
		return -1;
	}
	snprintf(svc.dev_dir, sizeof(svc.dev_dir), "%s/dev", conf->run_dir);
	snprintf(svc.sys_dir, sizeof(svc.sys_dir), "%s/sys", conf->run_dir);
	snprintf(svc.run_dir, sizeof(svc.run_dir), "%s", conf->run_dir);
	svc.rx_queue = conf->rx_queue;
	rc = make_dirs(conf->run_dir);
	if (rc < 0) {
		pthread_mutex_unlock(&svc.lock);
		IBUMAD_LOG(ERR, "run directory %s: %s", conf->run_dir, strerror(-rc));
		rte_errno = -rc;
		return -1;
	}
	svc.fs = umad_fs_start(svc.dev_dir);
	if (svc.fs == NULL) {
		rc = errno;
		pthread_mutex_unlock(&svc.lock);
		IBUMAD_LOG(ERR, "cannot serve %s: %s", svc.dev_dir, strerror(rc));
		rte_errno = rc;
		return -1;
	}
	snprintf(chan_path, sizeof(chan_path), "%s/umad.sock", conf->run_dir);
	rc = umad_fs_chan_start(svc.fs, chan_path);
	if (rc < 0)
		IBUMAD_LOG(WARNING, "%s: no channel (%s): MADs go through FUSE",
			  chan_path, strerror(-rc));
	svc.running = true;
	svc.stopping = false;
	svc.dirty = false;
	pthread_create(&svc.refresher, NULL, refresher, NULL);
	pthread_mutex_unlock(&svc.lock);
	if (rte_ib_register_client(&umad_client) < 0) {
		rc = rte_errno;
		rte_ibmad_umad_stop();
		rte_errno = rc;
		return -1;
	}
	IBUMAD_LOG(INFO, "user-MAD service: devices in %s, attributes in %s",
		  svc.dev_dir, svc.sys_dir);
	return 0;
}

void
rte_ibmad_umad_stop(void)
{
	unsigned int i;

	pthread_mutex_lock(&svc.lock);
	if (!svc.running) {
		pthread_mutex_unlock(&svc.lock);
		return;
	}
	pthread_mutex_unlock(&svc.lock);
	pthread_mutex_lock(&svc.wake_lock);
	svc.stopping = true;
	pthread_cond_broadcast(&svc.stop_cond);
	pthread_mutex_unlock(&svc.wake_lock);
	pthread_join(svc.refresher, NULL);
	/* remove() of every device: agents unregistered, files withdrawn. */
	rte_ib_unregister_client(&umad_client);
	umad_fs_stop(svc.fs);
	pthread_mutex_lock(&svc.lock);
	svc.fs = NULL;
	for (i = 0; i < UMAD_FS_MAX_PORTS; i++) {
		/* Open files died with the unmount: no handle points here now. */
		if (svc.ports[i] != NULL) {
			pthread_mutex_destroy(&svc.ports[i]->mu);
			free(svc.ports[i]);
			svc.ports[i] = NULL;
		}
	}
	svc.next_id = 0;
	svc.running = false;
	pthread_mutex_unlock(&svc.lock);
}

int
rte_ibmad_umad_stats_get(struct rte_ibmad_umad_stats *stats)
{
	if (stats == NULL) {
		rte_errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&svc.lock);
	if (!svc.running) {
		pthread_mutex_unlock(&svc.lock);
		rte_errno = ENOENT;
		return -1;
	}
	stats_read(stats);
	pthread_mutex_unlock(&svc.lock);
	return 0;
}

/* A normal exit unmounts; after a kill the next start detaches the mount. */
RTE_FINI(umad_exit_stop)
{
	rte_ibmad_umad_stop();
}

/* DPDK_IB_UMAD_DIR starts the service in any application, testpmd too. */
RTE_INIT(umad_env_start)
{
	const char *dir = getenv(RTE_IBMAD_UMAD_ENV);
	struct rte_ibmad_umad_conf conf = { .run_dir = dir };

	if (dir != NULL && dir[0] != '\0' && rte_ibmad_umad_start(&conf) < 0)
		fprintf(stderr, "ibumad: %s=%s: user-MAD service not started: %s\n",
			RTE_IBMAD_UMAD_ENV, dir, rte_strerror(rte_errno));
}
