/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * sa_host: a DPDK host on net_mthca that asks the fabric's SA with the
 * SA client of librte_ibmad (rte_ibmad_sa.h), for test_sa_client.py,
 * which asks the same questions with saquery and compares. Commands on
 * stdin, one answer block per command on stdout:
 *
 *   host -> "READY lid=<lid> sm_lid=<lid> gid=<port GID> rx_qpn=<n> tx_qpn=<n>"
 *   test -> "PR <dlid>"      PathRecord GetTable SLID=self DLID=<dlid>
 *        <- "PR dlid=.. slid=.. sl=.. mtu=.. rate=.. pkey=0x.. pkt_life=.."
 *           per record, then "OK <n>" or "ERR <status name>"
 *   test -> "JOIN <mgid>"    MCMemberRecord Set, full member, the
 *                            broadcast group's parameters (as IPoIB does)
 *        <- "OK mlid=0x...." or "ERR ..."
 *   test -> "JOINQ <mgid> <qkey>"  MCMemberRecord Set, full member, creating
 *                            the group with Q_Key <qkey>, P_Key 0xffff, SL,
 *                            FlowLabel and TClass 0 (no GetTable first:
 *                            works with an SA that sends no RMPP)
 *        <- "OK mlid=0x.... qkey=0x........"
 *   test -> "LEAVE <mgid>"   MCMemberRecord Delete of this port
 *   test -> "ATTACH <mgid> <mlid>" | "DETACH <mgid> <mlid>"
 *                            rte_ib_mcast_attach/detach of the rx queue's QP
 *   test -> "MSEND <mgid> <mlid> <qkey> <count> <size>"
 *                            datagrams to the group (GRH, DQPN 0xffffff)
 *   test -> "MRECV <mgid> <count> <ms>"  receive for up to <ms>
 *        <- "OK mrecv got=<n> grh=<with GRH to mgid> bad=<n>"
 *   test -> "MC <mgid>"      MCMemberRecord Get of one group
 *        <- "MC mgid=.. mlid=0x.. qkey=0x.. mtu=.. rate=.. sl=.." "OK 1"
 *   test -> "QPS <file> <ms> <depth>"  PathRecord Get to the destinations
 *                            of <file>, <depth> outstanding for <ms>
 *                            (sa_host_qps.h, test/bench/bench_sa_qps.py)
 *        <- "OK qps=.. slice_med=.. done=.. errors=.. timeouts=.. bad=.."
 *   test -> "MAD <dlid> <class> <ms>"  a Get (ClassVersion 1, attribute
 *                            0x0010) from an agent of the MAD core to QP1 of
 *                            <dlid>, one attempt of <ms>
 *        <- "SENT tid=0x<tid>" at once; then "MAD slid=.. tid=0x.. data=0x.."
 *           (byte 64 of the answer) and "OK", or "ERR <errno name>"
 *   test -> "SUB <trap>"     InformInfo subscription (rte_ibmad_sa_subscribe)
 *        <- "OK sub=<id>"; later "NOTICE trap=<n> generic=<0|1>
 *           issuer_lid=<lid> gid=<GID of DataDetails>" per Report taken
 *   test -> "SASTATS"        <- "OK queries=.. answers=.. sa_errors=..
 *                            mad_errors=.. bad_answers=.. failures=..
 *                            reports=.. reports_dropped=.."
 *                            (rte_ibmad_sa_stats_get())
 *   test -> "MJOIN <mgid> <qkey> <join_state>"  one more member of the group
 *                            through the join manager (rte_ibmad_mcast.h),
 *                            created as JOINQ does
 *        <- "OK member=<id> mlid=0x.... join_state=0x.": its first callback
 *           (or "ERR <status>"); later callbacks (re-joins) any time as
 *           "MCAST member=<id> status=<n> mlid=0x...."
 *   test -> "MLEAVE <id>"    the member leaves
 *   test -> "MSTATS"         <- "OK sa_joins=.. sa_leaves=.. rejoins=.. events=..
 *                            callbacks=.. groups=.. members=.."
 *   any time "EVENT <name> port=<p> lid=<lid> sm_lid=<lid>": a port event
 *   test -> "QUIT"
 *
 * With the argument "idle" after the EAL's, it only serves its port (and
 * the user-MAD service, for an OpenSM on this host) until QUIT.
 *
 * The user-MAD service is librte_ibumad's: linked here, it starts when
 * DPDK_IB_UMAD_DIR names a run directory (rte_ibmad_umad.h), and the host
 * stops with "ERR" if it asked for the service and did not get it.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_ib_dev.h>
#include <rte_ib_mbuf.h>
#include <rte_ib_records.h>
#include <rte_ibmad_mcast.h>
#include <rte_ibmad.h>
#include <rte_ibmad_sa.h>
#include <rte_ibmad_umad.h>
#include <rte_mbuf.h>

#include "sa_host_qps.h"

static struct rte_ib_device *ibdev;
static uint8_t ib_port;

/* One query at a time: the main thread waits for its callback. */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static bool done;
static int result;
static unsigned int nb;
static uint8_t recs[64 * 1024];

static void
query_cb(int status, const void *r, unsigned int n, void *arg)
{
	size_t size = *(const size_t *)arg;

	pthread_mutex_lock(&mu);
	result = status;
	nb = 0;
	if (status == 0 && n > 0) {
		nb = (unsigned int)RTE_MIN((size_t)n, sizeof(recs) / size);
		memcpy(recs, r, nb * size);
	}
	done = true;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&mu);
}

/* Wait for the callback of the command in progress; its status. */
static int
wait_result(void)
{
	pthread_mutex_lock(&mu);
	while (!done)
		pthread_cond_wait(&cv, &mu);
	done = false;
	pthread_mutex_unlock(&mu);
	return result;
}

/* Wait for the callback; false (and ERR printed) on a failed query. */
static bool
wait_done(void)
{
	if (wait_result() != 0) {
		printf("ERR %s\n", rte_ibmad_sa_strerror(result));
		return false;
	}
	return true;
}

static bool
start_failed(int ret)
{
	if (ret == 0)
		return false;
	printf("ERR query not sent: %s\n", rte_strerror(rte_errno));
	return true;
}

static void
gid_str(const struct rte_ib_gid *g, char *buf, size_t len)
{
	inet_ntop(AF_INET6, g->raw, buf, (socklen_t)len);
}

static void
do_path(uint16_t slid, uint16_t dlid)
{
	static size_t size = sizeof(struct rte_ib_sa_path_rec);
	const struct rte_ib_sa_path_rec *p = (const void *)recs;
	struct rte_ib_sa_path_rec q;
	unsigned int i;

	memset(&q, 0, sizeof(q));
	q.slid = slid;
	q.dlid = dlid;
	if (start_failed(rte_ibmad_sa_path_rec_get(ibdev, ib_port, &q,
						   RTE_IB_SA_PATH_REC_SLID |
						   RTE_IB_SA_PATH_REC_DLID,
						   NULL, query_cb, &size, NULL)) ||
	    !wait_done())
		return;
	for (i = 0; i < nb; i++)
		printf("PR dlid=%u slid=%u sl=%u mtu=%u rate=%u pkey=0x%04x "
		       "pkt_life=%u\n", p[i].dlid, p[i].slid, p[i].sl, p[i].mtu,
		       p[i].rate, p[i].pkey, p[i].packet_life_time);
	printf("OK %u\n", nb);
}

/* The broadcast group of the default partition (RFC 4391 section 4). */
static const char bcast[] = "ff12:401b:ffff::ffff:ffff";

static bool
get_group(const char *mgid, struct rte_ib_sa_mcmember_rec *out, bool print)
{
	static size_t size = sizeof(struct rte_ib_sa_mcmember_rec);
	struct rte_ib_sa_mcmember_rec q;
	char s[64];

	memset(&q, 0, sizeof(q));
	if (inet_pton(AF_INET6, mgid, q.mgid.raw) != 1) {
		printf("ERR not a GID: %s\n", mgid);
		return false;
	}
	if (start_failed(rte_ibmad_sa_mcmember_rec_query(ibdev, ib_port,
			 RTE_IB_SA_METHOD_GET_TABLE, &q, RTE_IB_SA_MCMEMBER_REC_MGID,
			 NULL, query_cb, &size, NULL)) || !wait_done())
		return false;
	if (nb == 0) {
		printf("ERR no such group\n");
		return false;
	}
	memcpy(out, recs, sizeof(*out));
	if (print) {
		gid_str(&out->mgid, s, sizeof(s));
		printf("MC mgid=%s mlid=0x%04x qkey=0x%08x mtu=%u rate=%u sl=%u "
		       "pkey=0x%04x\n", s, out->mlid, out->qkey, out->mtu,
		       out->rate, out->sl, out->pkey);
		printf("OK 1\n");
	}
	return true;
}

/* Port events as the SA client sees them (test_sa_faults.py). */
static void
event_print(const struct rte_ib_event *ev, void *arg)
{
	struct rte_ib_port_attr pa;

	RTE_SET_USED(arg);
	memset(&pa, 0, sizeof(pa));
	if (ev->port != 0)
		rte_ib_port_attr_cached(ev->dev, ev->port, &pa);
	printf("EVENT %s port=%u lid=%u sm_lid=%u\n", rte_ib_event_name(ev->type),
	       ev->port, pa.lid, pa.sm_lid);
}

static void
notice_print(struct rte_ib_device *dev, uint8_t port,
	     const struct rte_ib_notice *notice, void *arg)
{
	struct rte_ib_gid gid;
	char s[64];

	RTE_SET_USED(dev);
	RTE_SET_USED(port);
	RTE_SET_USED(arg);
	/* The GID of traps 64 to 67 (IBA 13.4.8.2), raw DataDetails for others */
	rte_ib_notice_gid(notice, &gid);
	gid_str(&gid, s, sizeof(s));
	printf("NOTICE trap=%u generic=%u issuer_lid=%u gid=%s\n",
	       notice->trap_number, notice->is_generic, notice->issuer_lid, s);
}

static void
do_subscribe(unsigned int trap)
{
	uint64_t id;

	if (start_failed(rte_ibmad_sa_subscribe(ibdev, ib_port, (uint16_t)trap,
						notice_print, NULL, &id)))
		return;
	printf("OK sub=%" PRIu64 "\n", id);
}

static void
do_sastats(void)
{
	struct rte_ibmad_sa_stats st;

	if (rte_ibmad_sa_stats_get(ibdev, ib_port, &st) != 0) {
		printf("ERR stats: %s\n", rte_strerror(rte_errno));
		return;
	}
	printf("OK queries=%" PRIu64 " answers=%" PRIu64 " sa_errors=%" PRIu64
	       " mad_errors=%" PRIu64 " bad_answers=%" PRIu64 " failures=%" PRIu64
	       " reports=%" PRIu64 " reports_dropped=%" PRIu64 "\n", st.queries,
	       st.answers, st.sa_errors, st.mad_errors, st.bad_answers, st.failures,
	       st.reports, st.reports_dropped);
}

enum join_how { JOIN_LIKE_BCAST, JOIN_QKEY, LEAVE };

static void
do_join(const char *mgid, enum join_how how, uint32_t qkey)
{
	static size_t size = sizeof(struct rte_ib_sa_mcmember_rec);
	const struct rte_ib_sa_mcmember_rec *got = (const void *)recs;
	struct rte_ib_sa_mcmember_rec b, q;
	bool leave = how == LEAVE;
	uint64_t mask;

	memset(&b, 0, sizeof(b));
	if (how == JOIN_LIKE_BCAST && !get_group(bcast, &b, false))
		return;
	memset(&q, 0, sizeof(q));
	if (inet_pton(AF_INET6, mgid, q.mgid.raw) != 1) {
		printf("ERR not a GID: %s\n", mgid);
		return;
	}
	if (rte_ib_query_gid(ibdev, ib_port, 0, &q.port_gid) != 0) {
		printf("ERR no port GID\n");
		return;
	}
	q.join_state = RTE_IB_SA_MC_JOIN_FULL_MEMBER;
	mask = RTE_IB_SA_MCMEMBER_REC_MGID | RTE_IB_SA_MCMEMBER_REC_PORT_GID |
		RTE_IB_SA_MCMEMBER_REC_JOIN_STATE;
	if (how == JOIN_QKEY) {
		/* what creating a group needs (IBA 15.2.5.17; OpenSM refuses less) */
		q.qkey = qkey;
		q.pkey = 0xffff;	/* the default partition, full member */
		mask |= RTE_IB_SA_MCMEMBER_REC_QKEY | RTE_IB_SA_MCMEMBER_REC_PKEY |
			RTE_IB_SA_MCMEMBER_REC_SL | RTE_IB_SA_MCMEMBER_REC_FLOW_LABEL |
			RTE_IB_SA_MCMEMBER_REC_TRAFFIC_CLASS;
	} else if (!leave) {
		/* A new group takes the broadcast group's parameters (Linux
		 * ipoib_mcast_join(): Q_Key, MTU, TClass, P_Key, rate, SL,
		 * FlowLabel, HopLimit).
		 */
		q.qkey = b.qkey;
		q.pkey = b.pkey;
		q.mtu_selector = RTE_IB_SA_SELECTOR_EQ;
		q.mtu = b.mtu;
		q.rate_selector = RTE_IB_SA_SELECTOR_EQ;
		q.rate = b.rate;
		q.sl = b.sl;
		q.flow_label = b.flow_label;
		q.hop_limit = b.hop_limit;
		q.traffic_class = b.traffic_class;
		mask |= RTE_IB_SA_MCMEMBER_REC_QKEY | RTE_IB_SA_MCMEMBER_REC_PKEY |
			RTE_IB_SA_MCMEMBER_REC_MTU_SELECTOR |
			RTE_IB_SA_MCMEMBER_REC_MTU |
			RTE_IB_SA_MCMEMBER_REC_RATE_SELECTOR |
			RTE_IB_SA_MCMEMBER_REC_RATE | RTE_IB_SA_MCMEMBER_REC_SL |
			RTE_IB_SA_MCMEMBER_REC_FLOW_LABEL |
			RTE_IB_SA_MCMEMBER_REC_HOP_LIMIT |
			RTE_IB_SA_MCMEMBER_REC_TRAFFIC_CLASS;
	}
	if (start_failed(rte_ibmad_sa_mcmember_rec_query(ibdev, ib_port,
			 leave ? RTE_IB_SA_METHOD_DELETE : RTE_IB_METHOD_SET, &q,
			 mask, NULL, query_cb, &size, NULL)) || !wait_done())
		return;
	if (nb == 0) {
		printf("ERR no record in the answer\n");
		return;
	}
	printf("OK mlid=0x%04x qkey=0x%08x\n", got->mlid, got->qkey);
}

/* MJOIN waits for its member's first callback; later ones are printed. */
static uint64_t mjoin_waiting;

static void
mcast_cb(uint64_t id, int status, const struct rte_ib_sa_mcmember_rec *rec,
	 void *arg)
{
	RTE_SET_USED(arg);
	pthread_mutex_lock(&mu);
	if (id == mjoin_waiting && !done) {
		result = status;
		if (status == 0)
			memcpy(recs, rec, sizeof(*rec));
		done = true;
		pthread_cond_signal(&cv);
	} else {
		printf("MCAST member=%" PRIu64 " status=%d mlid=0x%04x\n", id, status,
		       rec != NULL ? rec->mlid : 0);
	}
	pthread_mutex_unlock(&mu);
}

static void
do_mjoin(const char *mgid, uint32_t qkey, unsigned int join_state)
{
	const struct rte_ib_sa_mcmember_rec *got = (const void *)recs;
	struct rte_ib_sa_mcmember_rec q;
	uint64_t id;
	bool ok;

	memset(&q, 0, sizeof(q));
	if (inet_pton(AF_INET6, mgid, q.mgid.raw) != 1) {
		printf("ERR not a GID: %s\n", mgid);
		return;
	}
	q.qkey = qkey;
	q.pkey = 0xffff;
	q.join_state = (uint8_t)join_state;
	pthread_mutex_lock(&mu);
	done = false;
	/* The callback runs on the MAD core's thread, after this unlock. */
	if (rte_ibmad_mcast_join(ibdev, ib_port, &q, RTE_IB_SA_MCMEMBER_REC_QKEY |
				 RTE_IB_SA_MCMEMBER_REC_PKEY | RTE_IB_SA_MCMEMBER_REC_SL |
				 RTE_IB_SA_MCMEMBER_REC_FLOW_LABEL |
				 RTE_IB_SA_MCMEMBER_REC_TRAFFIC_CLASS,
				 mcast_cb, NULL, &id) != 0) {
		pthread_mutex_unlock(&mu);
		printf("ERR join: %s\n", rte_strerror(rte_errno));
		return;
	}
	mjoin_waiting = id;
	pthread_mutex_unlock(&mu);
	ok = wait_done();
	pthread_mutex_lock(&mu);
	mjoin_waiting = 0;
	pthread_mutex_unlock(&mu);
	if (!ok)
		return;
	printf("OK member=%" PRIu64 " mlid=0x%04x join_state=0x%x\n", id, got->mlid,
	       got->join_state);
}

static void
do_mstats(void)
{
	struct rte_ibmad_mcast_stats st;

	if (rte_ibmad_mcast_stats_get(ibdev, ib_port, &st) != 0) {
		printf("ERR stats: %s\n", rte_strerror(rte_errno));
		return;
	}
	printf("OK sa_joins=%" PRIu64 " sa_leaves=%" PRIu64 " rejoins=%" PRIu64
	       " events=%" PRIu64 " callbacks=%" PRIu64 " sa_errors=%" PRIu64
	       " groups=%u members=%u\n", st.sa_joins, st.sa_leaves, st.rejoins,
	       st.events, st.callbacks, st.sa_errors, st.groups, st.members);
}

static struct rte_mempool *pool;
static uint16_t port_id;

static uint8_t
pattern(uint64_t seq, uint32_t i)
{
	return (uint8_t)(seq * 29 + i * 5 + 3);
}

/* ATTACH/DETACH: the rx queue's UD QP to/from the group (rte_ib device op). */
static void
do_attach(const char *mgid, unsigned int mlid, uint32_t qpn, bool attach)
{
	struct rte_ib_gid g;
	int ret;

	if (inet_pton(AF_INET6, mgid, g.raw) != 1) {
		printf("ERR not a GID: %s\n", mgid);
		return;
	}
	ret = attach ? rte_ib_mcast_attach(ibdev, &g, (uint16_t)mlid, qpn) :
		       rte_ib_mcast_detach(ibdev, &g, (uint16_t)mlid, qpn);
	if (ret != 0)
		printf("ERR %s QP 0x%x: %s\n", attach ? "attach" : "detach", qpn,
		       rte_strerror(rte_errno));
	else
		printf("OK %s\n", attach ? "attached" : "detached");
}

/* MSEND: @p count datagrams of @p size bytes to the group, with a GRH. */
static void
do_msend(const char *mgid, unsigned int mlid, uint32_t qkey, unsigned int count,
	 unsigned int size)
{
	struct rte_ib_ah_attr attr;
	struct rte_ib_ah *ah;
	struct rte_mbuf *m;
	unsigned int c, j;

	memset(&attr, 0, sizeof(attr));
	attr.dlid = (uint16_t)mlid;
	attr.port_num = ib_port;
	attr.ah_flags = RTE_IB_AH_GRH;
	attr.grh.hop_limit = 1;
	if (inet_pton(AF_INET6, mgid, attr.grh.dgid.raw) != 1 || size < 8) {
		printf("ERR MSEND %s size %u\n", mgid, size);
		return;
	}
	ah = rte_ib_ah_create(ibdev, &attr);
	if (ah == NULL) {
		printf("ERR ah_create: %s\n", rte_strerror(rte_errno));
		return;
	}
	for (c = 0; c < count; c++) {
		uint64_t seq = c, stall = rte_get_timer_cycles() + rte_get_timer_hz();
		uint8_t *p;

		m = rte_pktmbuf_alloc(pool);
		if (m == NULL)
			break;
		p = (uint8_t *)rte_pktmbuf_append(m, size);
		memcpy(p, &seq, sizeof(seq));
		for (j = sizeof(seq); j < size; j++)
			p[j] = pattern(seq, j);
		rte_ib_mbuf_addr(m)->tx.ah = ah;
		rte_ib_mbuf_addr(m)->tx.dest_qpn = 0xffffff;	/* IBA 10.8.3.2: multicast */
		rte_ib_mbuf_addr(m)->tx.qkey = qkey;
		while (rte_eth_tx_burst(port_id, 0, &m, 1) == 0 && rte_get_timer_cycles() < stall)
			;
		/* paced: the receiver's ring is 256 WQEs */
		rte_delay_us_sleep(200);
	}
	rte_delay_ms(50);
	rte_eth_tx_burst(port_id, 0, NULL, 0);
	rte_ib_ah_destroy(ah);
	printf("%s msent %u\n", c == count ? "OK" : "ERR", c);
}

/* MRECV: what reaches the rx queue for up to @p ms, checked. */
static void
do_mrecv(const char *mgid, unsigned int count, unsigned int ms)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() * ms / 1000;
	unsigned int got = 0, grh = 0, bad = 0;
	struct rte_mbuf *m[32];
	struct rte_ib_gid g;

	if (inet_pton(AF_INET6, mgid, g.raw) != 1) {
		printf("ERR not a GID: %s\n", mgid);
		return;
	}
	while (got + bad < count && rte_get_timer_cycles() < end) {
		uint16_t n = rte_eth_rx_burst(port_id, 0, m, RTE_DIM(m)), i;

		for (i = 0; i < n; i++) {
			const struct rte_ib_grh *h = rte_ib_mbuf_grh(m[i]);
			const uint8_t *p = rte_pktmbuf_mtod(m[i], const uint8_t *);
			uint32_t j, len = m[i]->pkt_len;
			uint64_t seq = UINT64_MAX;
			bool ok = len >= sizeof(seq);

			if (ok)
				memcpy(&seq, p, sizeof(seq));
			for (j = sizeof(seq); ok && j < len; j++)
				ok = p[j] == pattern(seq, j);
			if (ok)
				got++;
			else
				bad++;
			grh += h != NULL && memcmp(h->dgid.raw, g.raw, sizeof(g.raw)) == 0;
			rte_pktmbuf_free(m[i]);
		}
	}
	printf("OK mrecv got=%u grh=%u bad=%u\n", got, grh, bad);
}

/* The agent of the MAD command, and what its send callback saw. */
static struct rte_ibmad_agent *mad_agent;
static uint16_t mad_slid;
static uint8_t mad_data;

static void
mad_cb(struct rte_ibmad_agent *agent, const struct rte_ibmad_send_result *r,
       void *arg)
{
	RTE_SET_USED(agent);
	RTE_SET_USED(arg);
	pthread_mutex_lock(&mu);
	result = r->status;
	if (r->status == 0 && r->response != NULL) {
		mad_slid = r->response->wc->slid;
		mad_data = r->response->mad[64];
	}
	done = true;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&mu);
}

static void
do_mad(uint16_t dlid, uint8_t mgmt_class, uint32_t ms)
{
	struct rte_ibmad_agent_conf c;
	struct rte_ibmad_send_params p;
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rte_ib_mad_hdr *h = (struct rte_ib_mad_hdr *)mad;
	uint64_t tid;

	if (mad_agent == NULL) {
		memset(&c, 0, sizeof(c));
		c.dev = ibdev;
		c.port = ib_port;
		c.qpn = 1;
		c.send_cb = mad_cb;
		mad_agent = rte_ibmad_agent_register(&c);
		if (mad_agent == NULL) {
			printf("ERR agent: %s\n", rte_strerror(rte_errno));
			return;
		}
	}
	memset(mad, 0, sizeof(mad));
	h->base_version = RTE_IB_MAD_BASE_VERSION;
	h->mgmt_class = mgmt_class;
	h->class_version = 1;
	h->method = RTE_IB_METHOD_GET;
	h->attr_id = rte_cpu_to_be_16(0x0010);
	memset(&p, 0, sizeof(p));
	p.mad = mad;
	p.len = sizeof(mad);
	p.ah_attr.dlid = dlid;
	p.remote_qpn = 1;
	p.remote_qkey = RTE_IB_QP1_QKEY;
	p.timeout_ms = ms;
	mad_slid = 0;
	mad_data = 0;
	if (rte_ibmad_send(mad_agent, &p, &tid) < 0) {
		printf("ERR %s\n", rte_strerror(rte_errno));
		return;
	}
	printf("SENT tid=0x%016" PRIx64 "\n", tid);
	if (wait_result() != 0) {
		printf("ERR %s\n", rte_strerror(-result));
		return;
	}
	printf("MAD slid=%u tid=0x%016" PRIx64 " data=0x%02x\nOK\n", mad_slid, tid,
	       mad_data);
}

int
main(int argc, char **argv)
{
	struct rte_eth_conf conf;
	struct rte_ib_port_attr pa;
	struct rte_ib_sa_mcmember_rec group;
	struct rte_ib_gid gid;
	char line[256], arg[128], s[64];
	struct rte_ib_ud_queue_info qi;
	uint32_t qpn, txqpn;
	unsigned int a, b, c, d;
	bool idle;
	int i;

	i = rte_eal_init(argc, argv);
	if (i < 0) {
		printf("ERR rte_eal_init: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (getenv(RTE_IBMAD_UMAD_ENV) != NULL && getenv(RTE_IBMAD_UMAD_ENV)[0] != '\0') {
		struct rte_ibmad_umad_stats st;

		if (rte_ibmad_umad_stats_get(&st) < 0) {
			printf("ERR %s=%s: user-MAD service not running: %s\n",
			       RTE_IBMAD_UMAD_ENV, getenv(RTE_IBMAD_UMAD_ENV),
			       rte_strerror(rte_errno));
			return 1;
		}
	}
	/* "idle": only serve the port (an SM host), answer no commands. */
	idle = i + 1 < argc && strcmp(argv[i + 1], "idle") == 0;
	if (rte_ib_mbuf_dynfield_register() < 0) {
		printf("ERR rte_ib mbuf dynfield: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	pool = rte_pktmbuf_pool_create("sa_host", 2047, 64, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE, rte_socket_id());
	ibdev = rte_ib_device_from_port_id(port_id, &ib_port);
	memset(&conf, 0, sizeof(conf));
	if (pool == NULL || ibdev == NULL ||
	    rte_eth_dev_configure(port_id, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(port_id, 0, 256, 0, NULL, pool) != 0 ||
	    rte_eth_tx_queue_setup(port_id, 0, 256, 0, NULL) != 0 ||
	    rte_eth_dev_start(port_id) != 0) {
		printf("ERR setup: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	if (idle) {
		printf("IDLE\n");
		while (fgets(line, sizeof(line), stdin) != NULL &&
		       strncmp(line, "QUIT", 4) != 0)
			;
		goto out;
	}
	/* The SM makes the port ACTIVE through the MAD core. */
	for (i = 0; i < 900; i++) {
		if (rte_ib_query_port(ibdev, ib_port, &pa) == 0 &&
		    pa.state == RTE_IB_PORT_ACTIVE && pa.sm_lid != 0)
			break;
		rte_delay_ms(100);
	}
	if (i == 900 || rte_ib_query_gid(ibdev, ib_port, 0, &gid) != 0) {
		printf("ERR port %u not ACTIVE under an SM\n", ib_port);
		return 1;
	}
	gid_str(&gid, s, sizeof(s));
	/* rte_ib names the UD QPs of the ethdev, which the SA client's MADs never use. */
	qpn = rte_ib_ud_queue_info(port_id, 0, false, &qi) == 0 ? qi.qpn : 0;
	txqpn = rte_ib_ud_queue_info(port_id, 0, true, &qi) == 0 ? qi.qpn : 0;
	printf("READY lid=%u sm_lid=%u gid=%s rx_qpn=%u tx_qpn=%u\n", pa.lid, pa.sm_lid, s, qpn,
	       txqpn);
	rte_ib_register_event_handler(ibdev, event_print, NULL);
	while (fgets(line, sizeof(line), stdin) != NULL) {
		if (sscanf(line, "PR %u", &a) == 1)
			do_path(pa.lid, (uint16_t)a);
		else if (sscanf(line, "JOINQ %127s %x", arg, &a) == 2)
			do_join(arg, JOIN_QKEY, a);
		else if (sscanf(line, "JOIN %127s", arg) == 1)
			do_join(arg, JOIN_LIKE_BCAST, 0);
		else if (sscanf(line, "LEAVE %127s", arg) == 1)
			do_join(arg, LEAVE, 0);
		else if (sscanf(line, "ATTACH %127s %x", arg, &a) == 2)
			do_attach(arg, a, qpn, true);
		else if (sscanf(line, "DETACH %127s %x", arg, &a) == 2)
			do_attach(arg, a, qpn, false);
		else if (sscanf(line, "MSEND %127s %x %x %u %u", arg, &a, &b, &c, &d) == 5)
			do_msend(arg, a, b, c, d);
		else if (sscanf(line, "MRECV %127s %u %u", arg, &a, &b) == 3)
			do_mrecv(arg, a, b);
		else if (sscanf(line, "MC %127s", arg) == 1)
			get_group(arg, &group, true);
		else if (sscanf(line, "QPS %127s %u %u", arg, &a, &b) == 3)
			sa_host_qps(ibdev, ib_port, pa.lid, &gid, arg, a, b);
		else if (sscanf(line, "MAD %u %x %u", &a, &b, &c) == 3)
			do_mad((uint16_t)a, (uint8_t)b, c);
		else if (sscanf(line, "SUB %u", &a) == 1)
			do_subscribe(a);
		else if (sscanf(line, "MJOIN %127s %x %x", arg, &a, &b) == 3)
			do_mjoin(arg, a, b);
		else if (sscanf(line, "MLEAVE %u", &a) == 1)
			printf(rte_ibmad_mcast_leave(a) == 0 ? "OK left\n" : "ERR no member\n");
		else if (strncmp(line, "MSTATS", 6) == 0)
			do_mstats();
		else if (strncmp(line, "SASTATS", 7) == 0)
			do_sastats();
		else if (strncmp(line, "QUIT", 4) == 0)
			break;
		else
			printf("ERR unknown command: %s", line);
	}
out:
	rte_eth_dev_stop(port_id);
	rte_eth_dev_close(port_id);
	rte_eal_cleanup();
	printf("OK bye\n");
	return 0;
}
