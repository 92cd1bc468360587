/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * ipoib_lockstep: the rate of one HCA sending from its IB port 1 to its
 * IB port 2 over the fabric, one lcore in lockstep, for
 * bench_ipoib_fabric.py lockstep (bench_ipoib_lockstep, issue 26). The
 * lcore sends a burst of BURST datagrams, receives all of them, frees
 * them, and goes on: the lcore and the HCA model (ibfabric's thread)
 * never run ahead of each other, so the rate is what the driver stack
 * and the model cost per datagram, not what share of the two vCPUs the
 * scheduler gives a sender and a receiver (test/fabric/mthca_host.c
 * bench_full() does the same for net_mthca).
 *
 * usage: ipoib_lockstep <EAL args> -- raw|rawread|ipoib <rounds> <bytes>...
 *
 *   ipoib  net_ipoib0 (mode=l3) sends IPv4/UDP datagrams of <bytes> - 4
 *          to 10.0.0.2, which net_ipoib1 (mode=l3, the other port of the
 *          HCA) owns; both come from --vdev. Datagrams are sent first
 *          until one arrives (ARP, PathRecord and address handle
 *          resolved);
 *   raw    the HCA's two net_mthca ethdevs (no vdev): port 1's sends the
 *          same datagram behind the 4-byte IPoIB header (<bytes> in all)
 *          to port 2's LID and receive QPN through an address handle;
 *   rawread raw, and each received datagram's IPoIB header is read (its
 *          type checked) before it is freed: what any receiver that looks
 *          at the packet pays, the line the model's core has just written
 *          (bench_ipoib_fabric.py reports it beside, not as the peer).
 *
 * <bytes> is what crosses the fabric per datagram (the IPoIB payload: 68
 * for a 64-byte IP datagram, 2048 at a 2044-byte IP MTU). Per size and
 * way of waiting, a tenth of <rounds> warms up untimed, then <rounds>
 * rounds are timed with the TSC: allocate and fill BURST mbufs,
 * rte_eth_tx_burst() until all are taken, receive, free. The receive
 * waits in one of two ways, one after the other:
 *
 *   poll   rte_eth_rx_burst() until as many arrived as were sent (the
 *          model delivers them one by one: each call takes about one);
 *   full   first until the receive ring's BURST-th descriptor is done
 *          (rte_eth_rx_descriptor_status() on the net_mthca ethdev under
 *          net_ipoib1, which is only read), then rte_eth_rx_burst(): the
 *          bursts are full, as in test/fabric/mthca_host.c bench_full().
 *
 * A round that waits ROUND_MS in vain is a stall: what it misses is lost,
 * unless it comes later. Prints per size and way
 *
 *   RATE mode=<mode> wait=poll|full len=<bytes> pps=<datagrams/s>
 *        lost=<n> stalls=<n>
 *        tx_cyc=<TSC cycles per datagram in tx_burst>
 *        rx_cyc=<cycles per datagram in rx_bursts that returned some>
 *        rx_per_burst=<datagrams per rx_burst that returned some>
 *        empty_polls=<polls per round that found the round incomplete>
 *        cpu=<this thread's CPU time / wall time of the timed rounds>
 *
 * then, for the log, every xstat of the two ports that is not 0 ("XSTAT")
 * and, for net_ipoib, what the receive side's data path decapsulated and
 * reported to the interface's event ring ("EVENTS decap= events=
 * events_lost="), and exits 0, or prints "ERR <what>" and exits 1.
 */

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include <rte_ib_dev.h>
#include <rte_ib_mbuf.h>
#include <rte_ipoib_if.h>
#include <rte_pmd_ipoib.h>

#define BURST		32
#define NB_DESC		1024	/* a raw port's rings, as net_ipoib's (RTE_IPOIB_IF_DEFAULT_DESC) */
#define NB_MBUF		8191
#define ROUND_MS	50	/* a round waits this long for its datagrams */
#define RESOLVE_S	30	/* the first datagram's ARP, PathRecord and AH */
#define LINK_S		90	/* both ports up: ACTIVE, and for net_ipoib joined */
#define IPOIB_HDR_LEN	4
#define MAX_LEN		4096
#define UDP_PORT	9	/* discard */

static struct rte_mempool *pool;
static uint16_t tx_port, rx_port;
/* the net_mthca ethdev whose receive ring rx_port's datagrams land in */
static uint16_t ring_port;
static bool raw;
static bool read_hdr;	/* rawread */
static uint64_t bad_type;	/* rawread: datagrams whose type was not IPv4 */
static bool ports_found;	/* tx_port and rx_port are set */
/* raw: where port 1's datagrams go */
static struct rte_ib_ah *dest_ah;
static uint32_t dest_qpn, dest_qkey;
static uint8_t tmpl[MAX_LEN];

/* IPv4 + UDP of @p ip_len bytes at @p p, 10.0.0.1 to 10.0.0.2. */
static void
ip_udp_build(uint8_t *p, uint16_t ip_len)
{
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)p;
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	uint16_t i;

	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(ip_len);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = RTE_BE32(RTE_IPV4(10, 0, 0, 1));
	ip->dst_addr = RTE_BE32(RTE_IPV4(10, 0, 0, 2));
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp->src_port = RTE_BE16(UDP_PORT);
	udp->dst_port = RTE_BE16(UDP_PORT);
	udp->dgram_len = rte_cpu_to_be_16(ip_len - sizeof(*ip));
	udp->dgram_cksum = 0;
	for (i = sizeof(*ip) + sizeof(*udp); i < ip_len; i++)
		p[i] = (uint8_t)i;
}

/* The template of @p len bytes on the wire: 0, or -1 after printing ERR. */
static int
tmpl_build(uint16_t len)
{
	uint16_t ip_len = len - IPOIB_HDR_LEN;

	if (len > MAX_LEN || ip_len < sizeof(struct rte_ipv4_hdr) + sizeof(struct rte_udp_hdr)) {
		printf("ERR length %u: from %zu to %u bytes\n", len, IPOIB_HDR_LEN +
		       sizeof(struct rte_ipv4_hdr) + sizeof(struct rte_udp_hdr), MAX_LEN);
		return -1;
	}
	if (raw) {
		/* RFC 4391 6.: the type, then 16 reserved bits */
		tmpl[0] = RTE_ETHER_TYPE_IPV4 >> 8;
		tmpl[1] = RTE_ETHER_TYPE_IPV4 & 0xff;
		tmpl[2] = tmpl[3] = 0;
		ip_udp_build(tmpl + IPOIB_HDR_LEN, ip_len);
	} else {
		ip_udp_build(tmpl, ip_len);
	}
	return 0;
}

/* @p n mbufs of the template, @p len bytes on the wire: 0 or -ENOBUFS. */
static int
burst_fill(struct rte_mbuf **m, unsigned int n, uint16_t len)
{
	uint16_t data_len = raw ? len : len - IPOIB_HDR_LEN;
	unsigned int i;

	if (rte_pktmbuf_alloc_bulk(pool, m, n) != 0)
		return -ENOBUFS;
	for (i = 0; i < n; i++) {
		memcpy(rte_pktmbuf_mtod(m[i], void *), tmpl, data_len);
		m[i]->data_len = data_len;
		m[i]->pkt_len = data_len;
		if (raw) {
			struct rte_ib_mbuf_addr *a = rte_ib_mbuf_addr(m[i]);

			a->tx.ah = dest_ah;
			a->tx.dest_qpn = dest_qpn;
			a->tx.qkey = dest_qkey;
		} else {
			m[i]->packet_type = RTE_PTYPE_L3_IPV4;
		}
	}
	return 0;
}

/*
 * What arrives on the receiving port within @p ms, freed: how much. The
 * sending port is polled too: a net_ipoib port learns its peer from the
 * ARP reply its own rx_burst takes (the timed rounds poll only the
 * receiving port: nothing comes back once the peer is known).
 */
static uint64_t
drain(unsigned int ms)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() * ms / 1000, n = 0;
	struct rte_mbuf *m[BURST];
	uint16_t k;

	while (rte_get_timer_cycles() < end) {
		k = rte_eth_rx_burst(rx_port, 0, m, BURST);
		if (k > 0) {
			rte_pktmbuf_free_bulk(m, k);
			n += k;
		}
		k = rte_eth_rx_burst(tx_port, 0, m, BURST);
		if (k > 0)
			rte_pktmbuf_free_bulk(m, k);
		/* the sender's completions reaped, its control packets flushed */
		rte_eth_tx_burst(tx_port, 0, NULL, 0);
	}
	return n;
}

/* Every xstat of ethdev @p port that is not 0, one "XSTAT" line each. */
static void
xstats_print(uint16_t port)
{
	struct rte_eth_xstat_name *names = NULL;
	struct rte_eth_xstat *xs = NULL;
	int n, i;

	n = rte_eth_xstats_get_names(port, NULL, 0);
	if (n > 0) {
		names = calloc(n, sizeof(*names));
		xs = calloc(n, sizeof(*xs));
	}
	if (names != NULL && xs != NULL && rte_eth_xstats_get_names(port, names, n) == n &&
	    rte_eth_xstats_get(port, xs, n) == n) {
		for (i = 0; i < n; i++)
			if (xs[i].value != 0)
				printf("XSTAT ethdev=%u %s=%" PRIu64 "\n", port,
				       names[xs[i].id].name, xs[i].value);
	}
	free(names);
	free(xs);
}

/* net_ipoib: the receive side's data-path events, one "EVENTS" line. */
static void
events_print(void)
{
	struct rte_ipoib_dp_stats st;

	if (raw || rte_ipoib_if_dir_stats_get(rte_pmd_ipoib_get_if(rx_port), false, &st) != 0)
		return;
	printf("EVENTS decap=%" PRIu64 " events=%" PRIu64 " events_lost=%" PRIu64 "\n",
	       st.decap_pkts, st.events, st.events_lost);
}

/*
 * net_ipoib: one datagram every 10 ms until one arrives (the first ones
 * wait for ARP, the PathRecord and the address handle in lib/ipoib; the
 * receiving port's rx_burst flushes its ARP reply). 0, or -1 after ERR.
 */
static int
resolve(uint16_t len)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() * RESOLVE_S;
	struct rte_mbuf *m;
	unsigned int tries = 0;

	while (rte_get_timer_cycles() < end) {
		if (burst_fill(&m, 1, len) != 0) {
			printf("ERR resolve: no mbuf\n");
			return -1;
		}
		tries++;
		if (rte_eth_tx_burst(tx_port, 0, &m, 1) == 0)
			rte_pktmbuf_free(m);
		if (drain(10) > 0) {
			drain(100);
			printf("RESOLVED after %u datagrams\n", tries);
			return 0;
		}
	}
	xstats_print(tx_port);
	xstats_print(rx_port);
	printf("ERR resolve: nothing arrived in %u s (%u datagrams)\n", RESOLVE_S, tries);
	return -1;
}

/* This thread's CPU time so far, ns (/proc/thread-self/schedstat), or 0. */
static uint64_t
thread_cpu_ns(void)
{
	FILE *f = fopen("/proc/thread-self/schedstat", "r");
	uint64_t run = 0;

	if (f == NULL)
		return 0;
	if (fscanf(f, "%" SCNu64, &run) != 1)
		run = 0;
	fclose(f);
	return run;
}

/* rawread: each datagram's IPoIB type (RFC 4391 6), as a receiver reads it. */
static void
hdr_check(struct rte_mbuf **m, uint16_t k)
{
	uint16_t i;

	for (i = 0; i < k; i++) {
		const uint8_t *p = rte_pktmbuf_mtod(m[i], const uint8_t *);

		bad_type += m[i]->data_len < IPOIB_HDR_LEN ||
			(p[0] << 8 | p[1]) != RTE_ETHER_TYPE_IPV4;
	}
}

struct lockstep_stats {
	uint64_t sent, rcvd, stalls, empty_polls;
	uint64_t want;	/* received once the round is complete */
	uint64_t tx_cyc, rx_cyc;	/* in tx_bursts; in rx_bursts that returned some */
	uint64_t rx_calls;		/* rx_bursts that returned some */
};

/*
 * @p rounds lockstep rounds of @p len bytes: 0, or -1 after ERR. With
 * @p full, the receive waits until the ring's BURST-th descriptor is
 * done, so that rx_burst takes the round's datagrams at once (as
 * mthca_host's bench_full()); otherwise rx_burst polls until all came.
 */
static int
lockstep(uint16_t len, unsigned int rounds, bool full, struct lockstep_stats *st)
{
	uint64_t hz = rte_get_timer_hz(), wait = hz * ROUND_MS / 1000, t0, t1, stall;
	struct rte_mbuf *m[BURST];
	unsigned int r;
	uint16_t n, k;

	memset(st, 0, sizeof(*st));
	for (r = 0; r < rounds; r++) {
		if (burst_fill(m, BURST, len) != 0) {
			printf("ERR round %u: no mbuf\n", r);
			return -1;
		}
		stall = rte_get_timer_cycles() + wait;
		/* the part a full send ring refused, again */
		for (n = 0; n < BURST; ) {
			t0 = rte_rdtsc();
			n += rte_eth_tx_burst(tx_port, 0, m + n, BURST - n);
			t1 = rte_rdtsc();
			st->tx_cyc += t1 - t0;
			if (n < BURST && rte_get_timer_cycles() > stall) {
				printf("ERR round %u: the send ring took %u of %u in %u ms\n",
				       r, n, BURST, ROUND_MS);
				rte_pktmbuf_free_bulk(m + n, BURST - n);
				return -1;
			}
		}
		st->sent += BURST;
		st->want += BURST;
		stall = rte_get_timer_cycles() + wait;
		while (full && rte_eth_rx_descriptor_status(ring_port, 0, BURST - 1) !=
		       RTE_ETH_RX_DESC_DONE) {
			st->empty_polls++;
			/* the rx_burst loop below counts the stall */
			if (rte_get_timer_cycles() > stall)
				break;
		}
		while (st->rcvd < st->want) {
			t0 = rte_rdtsc();
			k = rte_eth_rx_burst(rx_port, 0, m, BURST);
			t1 = rte_rdtsc();
			if (k == 0) {
				st->empty_polls++;
				if (rte_get_timer_cycles() > stall) {
					/* given up: the next round waits for its own */
					st->stalls++;
					st->want = st->rcvd;
					break;
				}
				continue;
			}
			st->rx_cyc += t1 - t0;
			st->rx_calls++;
			st->rcvd += k;
			if (read_hdr)
				hdr_check(m, k);
			rte_pktmbuf_free_bulk(m, k);
		}
	}
	return 0;
}

/* One way of waiting at one size: warm-up, timed rounds, the RATE line. */
static int
run_wait(uint16_t len, unsigned int rounds, bool full)
{
	struct lockstep_stats st;
	uint64_t t0, t1, c0, c1, late;
	double s;

	if (lockstep(len, rounds / 10 + 1, full, &st) != 0)
		return -1;
	drain(20);
	c0 = thread_cpu_ns();
	t0 = rte_rdtsc_precise();
	if (lockstep(len, rounds, full, &st) != 0)
		return -1;
	t1 = rte_rdtsc_precise();
	c1 = thread_cpu_ns();
	/* a datagram a stall gave up on may still come: not lost then */
	late = drain(50);
	s = (double)(t1 - t0) / rte_get_tsc_hz();
	printf("RATE mode=%s wait=%s len=%u pps=%.0f lost=%" PRIu64 " stalls=%" PRIu64
	       " tx_cyc=%.1f rx_cyc=%.1f rx_per_burst=%.1f empty_polls=%.1f cpu=%.2f\n",
	       read_hdr ? "rawread" : raw ? "raw" : "ipoib", full ? "full" : "poll", len, st.rcvd / s,
	       st.sent - RTE_MIN(st.sent, st.rcvd + late), st.stalls,
	       (double)st.tx_cyc / st.sent, st.rcvd ? (double)st.rx_cyc / st.rcvd : 0.0,
	       st.rx_calls ? (double)st.rcvd / st.rx_calls : 0.0,
	       (double)st.empty_polls / rounds, c1 > c0 ? (c1 - c0) / (s * 1e9) : 0.0);
	return 0;
}

/* One size, polling then full bursts: 0, or -1 after ERR. */
static int
run_size(uint16_t len, unsigned int rounds)
{
	if (tmpl_build(len) != 0)
		return -1;
	if (!raw && resolve(len) != 0)
		return -1;
	if (run_wait(len, rounds, false) != 0 || run_wait(len, rounds, true) != 0)
		return -1;
	return 0;
}

/* Ethdev @p port configured, one queue each way, started: 0 or -1 after ERR. */
static int
port_start(uint16_t port)
{
	struct rte_eth_conf conf;
	int ret;

	memset(&conf, 0, sizeof(conf));
	ret = rte_eth_dev_configure(port, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(port, 0, NB_DESC, rte_eth_dev_socket_id(port),
					     NULL, pool);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port, 0, NB_DESC, rte_eth_dev_socket_id(port),
					     NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	if (ret != 0) {
		printf("ERR ethdev %u: set-up: %s\n", port, strerror(-ret));
		return -1;
	}
	return 0;
}

/* Both ports' links up within LINK_S: 0, or -1 after ERR. */
static int
links_wait(void)
{
	uint64_t start = rte_get_timer_cycles(), hz = rte_get_timer_hz();
	struct rte_eth_link a, b;

	do {
		if (rte_eth_link_get_nowait(tx_port, &a) == 0 &&
		    rte_eth_link_get_nowait(rx_port, &b) == 0 &&
		    a.link_status == RTE_ETH_LINK_UP && b.link_status == RTE_ETH_LINK_UP) {
			printf("LINKS up after %.1f s\n",
			       (double)(rte_get_timer_cycles() - start) / hz);
			return 0;
		}
		rte_delay_ms(20);
	} while (rte_get_timer_cycles() - start < LINK_S * hz);
	printf("ERR links of ethdevs %u and %u not up in %u s\n", tx_port, rx_port, LINK_S);
	return -1;
}

/* raw: the two net_mthca ethdevs, and port 2's LID, QPN, Q_Key. */
static int
raw_ports(void)
{
	struct rte_ib_device *dev = NULL, *d;
	struct rte_ib_ud_queue_info qi;
	struct rte_ib_ah_attr attr;
	struct rte_ib_port_attr pa;
	bool have_tx = false, have_rx = false;
	uint16_t pid;
	uint8_t ib_port;

	RTE_ETH_FOREACH_DEV(pid) {
		d = rte_ib_device_from_port_id(pid, &ib_port);
		if (d == NULL || (dev != NULL && d != dev))
			continue;
		dev = d;
		if (ib_port == 1) {
			tx_port = pid;
			have_tx = true;
		} else if (ib_port == 2) {
			rx_port = pid;
			have_rx = true;
		}
	}
	if (!have_tx || !have_rx) {
		printf("ERR raw: no HCA with ethdevs on IB ports 1 and 2\n");
		return -1;
	}
	ports_found = true;
	if (port_start(tx_port) != 0 || port_start(rx_port) != 0 || links_wait() != 0)
		return -1;
	if (rte_ib_query_port(dev, 2, &pa) != 0 ||
	    rte_ib_ud_queue_info(rx_port, 0, false, &qi) != 0) {
		printf("ERR raw: IB port 2's LID or receive QP: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.dlid = pa.lid;
	attr.port_num = 1;
	dest_ah = rte_ib_ah_create(dev, &attr);
	if (dest_ah == NULL) {
		printf("ERR raw: address handle for LID %u: %s\n", pa.lid, rte_strerror(rte_errno));
		return -1;
	}
	dest_qpn = qi.qpn;
	dest_qkey = qi.qkey;
	ring_port = rx_port;
	printf("RAW ethdev %u (IB port 1) -> ethdev %u (IB port 2): LID %u QPN 0x%06x\n",
	       tx_port, rx_port, pa.lid, dest_qpn);
	return 0;
}

/* ipoib: net_ipoib0 sends, net_ipoib1 receives. */
static int
ipoib_ports(void)
{
	struct rte_ipoib_if_info ii;

	if (rte_eth_dev_get_port_by_name("net_ipoib0", &tx_port) != 0 ||
	    rte_eth_dev_get_port_by_name("net_ipoib1", &rx_port) != 0 ||
	    rte_pmd_ipoib_get_if(tx_port) == NULL || rte_pmd_ipoib_get_if(rx_port) == NULL) {
		printf("ERR ipoib: give --vdev=net_ipoib0,... and --vdev=net_ipoib1,...\n");
		return -1;
	}
	ports_found = true;
	if (port_start(tx_port) != 0 || port_start(rx_port) != 0 || links_wait() != 0)
		return -1;
	/* only read: its descriptors' status, the interface's own ring */
	if (rte_ipoib_if_info_get(rte_pmd_ipoib_get_if(rx_port), &ii) != 0) {
		printf("ERR ipoib: net_ipoib1's interface: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	ring_port = ii.lower_port_id;
	printf("IPOIB ethdev %u (net_ipoib0) -> ethdev %u (net_ipoib1, over ethdev %u)\n",
	       tx_port, rx_port, ring_port);
	return 0;
}

int
main(int argc, char **argv)
{
	unsigned int rounds;
	int ret, i, rc = 0;
	char *end;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("ERR rte_eal_init: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	argc -= ret;
	argv += ret;
	if (argc < 4 || (strcmp(argv[1], "raw") != 0 && strcmp(argv[1], "rawread") != 0 &&
			 strcmp(argv[1], "ipoib") != 0)) {
		printf("ERR usage: ipoib_lockstep <EAL args> -- raw|rawread|ipoib <rounds> <bytes>...\n");
		return 1;
	}
	read_hdr = strcmp(argv[1], "rawread") == 0;
	raw = read_hdr || strcmp(argv[1], "raw") == 0;
	rounds = (unsigned int)strtoul(argv[2], &end, 0);
	if (*end != '\0' || rounds == 0) {
		printf("ERR rounds %s\n", argv[2]);
		return 1;
	}
	/* room for a 4096-byte datagram, and the 40-byte GRH in the headroom */
	pool = rte_pktmbuf_pool_create("lockstep", NB_MBUF, 256, 0,
				       RTE_PKTMBUF_HEADROOM + MAX_LEN, rte_socket_id());
	if (pool == NULL || rte_ib_mbuf_dynfield_register() < 0) {
		printf("ERR mbuf pool or rte_ib dynfield: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	if ((raw ? raw_ports() : ipoib_ports()) != 0)
		rc = 1;
	for (i = 3; rc == 0 && i < argc; i++) {
		unsigned long len = strtoul(argv[i], &end, 0);

		if (*end != '\0' || len > MAX_LEN) {
			printf("ERR length %s\n", argv[i]);
			rc = 1;
		} else if (run_size((uint16_t)len, rounds) != 0) {
			rc = 1;
		}
	}
	if (rc == 0 && bad_type != 0) {
		printf("ERR rawread: %" PRIu64 " datagrams whose IPoIB type was not IPv4\n", bad_type);
		rc = 1;
	}
	if (ports_found) {
		drain(50);
		/* for the log: what the ports counted (net_ipoib: its events too) */
		xstats_print(tx_port);
		xstats_print(rx_port);
		events_print();
		rte_eth_dev_stop(tx_port);
		rte_eth_dev_stop(rx_port);
		/* the stopped send queue holds no datagram naming it */
		if (dest_ah != NULL)
			rte_ib_ah_destroy(dest_ah);
		rte_eth_dev_close(tx_port);
		rte_eth_dev_close(rx_port);
	}
	rte_eal_cleanup();
	return rc;
}
