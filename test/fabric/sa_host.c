/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * sa_host: a DPDK host on net_mthca that asks the fabric's SA with the
 * SA client of librte_ibmad (rte_ibmad_sa.h), for test_sa_client.py,
 * which asks the same questions with saquery and compares. Commands on
 * stdin, one answer block per command on stdout:
 *
 *   host -> "READY lid=<lid> sm_lid=<lid> gid=<port GID>"
 *   test -> "PR <dlid>"      PathRecord GetTable SLID=self DLID=<dlid>
 *        <- "PR dlid=.. slid=.. sl=.. mtu=.. rate=.. pkey=0x.. pkt_life=.."
 *           per record, then "OK <n>" or "ERR <status name>"
 *   test -> "JOIN <mgid>"    MCMemberRecord Set, full member, the
 *                            broadcast group's parameters (as IPoIB does)
 *        <- "OK mlid=0x...." or "ERR ..."
 *   test -> "LEAVE <mgid>"   MCMemberRecord Delete of this port
 *   test -> "MC <mgid>"      MCMemberRecord Get of one group
 *        <- "MC mgid=.. mlid=0x.. qkey=0x.. mtu=.. rate=.. sl=.." "OK 1"
 *   test -> "SUB <trap>"     InformInfo subscription (rte_ibmad_sa_subscribe)
 *        <- "OK sub=<id>"; later "NOTICE trap=<n> generic=<0|1>" per Report
 *   any time "EVENT <name> port=<p> lid=<lid> sm_lid=<lid>": a port event
 *   test -> "QUIT"
 *
 * With the argument "idle" after the EAL's, it only serves its port (and
 * the user-MAD service, for an OpenSM on this host) until QUIT.
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
#include <rte_ib_records.h>
#include <rte_ibmad_sa.h>
#include <rte_mbuf.h>
#include <rte_pmd_mthca.h>

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

/* Wait for the callback; false (and ERR printed) on a failed query. */
static bool
wait_done(void)
{
	pthread_mutex_lock(&mu);
	while (!done)
		pthread_cond_wait(&cv, &mu);
	done = false;
	pthread_mutex_unlock(&mu);
	if (result != 0) {
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
	RTE_SET_USED(dev);
	RTE_SET_USED(port);
	RTE_SET_USED(arg);
	printf("NOTICE trap=%u generic=%u\n", notice->trap_number,
	       notice->is_generic);
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
do_join(const char *mgid, bool leave)
{
	static size_t size = sizeof(struct rte_ib_sa_mcmember_rec);
	struct rte_ib_sa_mcmember_rec b, q;
	uint64_t mask;

	if (!get_group(bcast, &b, false))
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
	if (!leave) {
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
	printf("OK mlid=0x%04x\n", ((const struct rte_ib_sa_mcmember_rec *)
				    (const void *)recs)->mlid);
}

int
main(int argc, char **argv)
{
	struct rte_eth_conf conf;
	struct rte_ib_port_attr pa;
	struct rte_mempool *pool;
	struct rte_ib_sa_mcmember_rec group;
	struct rte_ib_gid gid;
	char line[256], arg[128], s[64];
	uint16_t port_id = 0;
	uint32_t qpn;
	unsigned int a;
	bool idle;
	int i;

	i = rte_eal_init(argc, argv);
	if (i < 0) {
		printf("ERR rte_eal_init: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* "idle": only serve the port (an SM host), answer no commands. */
	idle = i + 1 < argc && strcmp(argv[i + 1], "idle") == 0;
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
	/* net_mthca's own API names the QP the SA client's MADs never use. */
	if (rte_pmd_mthca_queue_qpn(port_id, 0, 0, &qpn) != 0)
		qpn = 0;
	printf("READY lid=%u sm_lid=%u gid=%s rx_qpn=%u\n", pa.lid, pa.sm_lid, s, qpn);
	rte_ib_register_event_handler(ibdev, event_print, NULL);
	while (fgets(line, sizeof(line), stdin) != NULL) {
		if (sscanf(line, "PR %u", &a) == 1)
			do_path(pa.lid, (uint16_t)a);
		else if (sscanf(line, "JOIN %127s", arg) == 1)
			do_join(arg, false);
		else if (sscanf(line, "LEAVE %127s", arg) == 1)
			do_join(arg, true);
		else if (sscanf(line, "MC %127s", arg) == 1)
			get_group(arg, &group, true);
		else if (sscanf(line, "SUB %u", &a) == 1)
			do_subscribe(a);
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
