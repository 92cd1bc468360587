/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * mthca_host: a small DPDK host for the fabric tests. It probes net_mthca
 * on the simulated MT25208 it is given (-a), so the PMD and the MAD core
 * it links bring the port up under the fabric's SM, then exchanges UD
 * datagrams with a peer host driven by the test script over stdin/stdout:
 *
 *   host  -> "READY lid=<lid> qpn=<rx qpn> txqpn=<tx qpn> port=<ethdev port>"
 *   test  -> "PEER <lid> <tx qpn>"                        what the sender must be
 *   test  -> "SEND <dlid> <dqpn> <count> <size> <pps>"  send datagrams
 *   test  -> "RECV <count> <timeout ms>"                  receive and verify
 *   test  -> "STATS"                                      ethdev stats, xstats
 *   test  -> "CYCLE <n>"                                  n stop/start cycles
 *   test  -> "STOP" | "START"                             stop or start every ethdev
 *   test  -> "CLOSE"                                      stop and close every ethdev
 *                                                         (then only QUIT)
 *   test  -> "NOAH <n>"                                   n mbufs without an AH
 *   test  -> "SEGS <dlid> <dqpn> <count> <size> <segs>"   multi-segment sends
 *   test  -> "HOLD <n> <timeout ms>"                      receive, keep the mbufs
 *   test  -> "RELEASE"                                    free the kept mbufs
 *   test  -> "BENCH <size> <count> [<rx ring> <in flight>]"
 *                                                         ethdev 0 -> ethdev 2 (a second
 *                                                         HCA in this process), one thread;
 *                                                         ethdev 2's receive ring and the
 *                                                         datagrams in flight (default
 *                                                         NB_RX_DESC, NB_DESC)
 *   test  -> "QINFO"                                      rte_ib_ud_queue_info of queue 0
 *        <- "OK qinfo port=<ethdev> ib_port=<n> rx_qpn=<> rx_qkey=0x<> rx_pkey_index=<>
 *            rx_live=<0|1> tx_qpn=<> tx_qkey=0x<> tx_pkey_index=<> tx_live=<0|1>"
 *   test  -> "QKEY <hex>"                                 rte_ib_ud_qkey_set on the ethdev in use
 *   test  -> "SQKEY <hex>"                                the Q_Key this host's sends carry
 *                                                         (default QKEY)
 *   test  -> "UDPORT <pkey hex>"                          rte_ib_ud_port_create on the P_Key's
 *                                                         index (waits up to 30 s for the SM
 *                                                         to put it in the table), configured,
 *                                                         started, from a pool of its own
 *        <- "OK udport port=<ethdev> pkey_index=<n> qpn=<rx> txqpn=<tx> name=<ethdev name>"
 *   test  -> "USE <ethdev>"                               SEND/RECV/STATS/QINFO/QKEY on it; RECV
 *                                                         expects its queue's P_Key index
 *   test  -> "UDDEL <ethdev>"                             rte_ib_ud_port_destroy; its pool freed
 *   test  -> "TXRING <n>"                                 transmit ring of n slots (stop, set
 *                                                         up, start)
 *   test  -> "BURST <dlid> <dqpn> <n> <size>"             n datagrams in one tx_burst
 *   test  -> "RESET"                                      rte_eth_stats_reset, then every
 *                                                         counter and xstat not zero
 *   test  -> "MBUFS"                                      <- "OK mbufs in_use <n> size <n>"
 *                                                         of the host's mempool
 *   test  -> "QUIT"
 *   host  -> "EVENT LSC up|down"                          on a link state change
 *   host  -> "LINK state=<IB port state> up=<0|1>"        before READY, each change of either
 *
 * Every datagram carries a 64-bit sequence number and a pattern derived
 * from it; the receiver checks both, the source QPN and the SLID.
 * Results are "OK ..." or "ERR ..." lines.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ib_dev.h>
#include <rte_ib_mbuf.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_memzone.h>

#define NB_DESC		1024
#define NB_RX_DESC	4096
#define NB_UD_DESC	1024	/* a UD port's rings */
#define BURST		32
#define QKEY		0x00000b1bu	/* net_mthca's default Q_Key */

#define HOLD_MAX	16384

static uint16_t port_id;
static struct rte_mbuf *held[HOLD_MAX];
static unsigned int nheld;
static struct rte_mempool *pool;
static struct rte_ib_device *ibdev;
static uint8_t ib_port;
static uint16_t bench_rx_ring = NB_RX_DESC;	/* ethdev 2's receive ring now */
static uint32_t send_qkey = QKEY;		/* the Q_Key of this host's sends */
static uint16_t rx_pkey_index;			/* what RECV expects of the ethdev in use */
static struct rte_mempool *ud_pool;		/* the UD port's mbufs */

/* The QPN of queue 0 of @p port (rx or tx) through rte_ib, 0 when it fails. */
static uint32_t
queue_qpn(uint16_t port, bool tx)
{
	struct rte_ib_ud_queue_info qi;

	return rte_ib_ud_queue_info(port, 0, tx, &qi) == 0 ? qi.qpn : 0;
}

/*
 * A UD QP has no address filter to open: the PMD refuses promiscuous and
 * all-multicast mode instead of claiming them (doc/guides/nics/mthca.rst,
 * Limitations), and turning them off succeeds.
 */
static int
filters_check(uint16_t port_id)
{
	if (rte_eth_promiscuous_enable(port_id) != -ENOTSUP ||
	    rte_eth_allmulticast_enable(port_id) != -ENOTSUP ||
	    rte_eth_promiscuous_get(port_id) != 0 ||
	    rte_eth_allmulticast_get(port_id) != 0 ||
	    rte_eth_promiscuous_disable(port_id) != 0 ||
	    rte_eth_allmulticast_disable(port_id) != 0) {
		fprintf(stderr, "port %u: promiscuous/allmulticast not refused\n",
			port_id);
		return -EPROTO;
	}
	return 0;
}

static int
port_setup_pool(uint16_t port_id, struct rte_mempool *mp, uint16_t nb_rx)
{
	struct rte_eth_dev_info info;
	struct rte_eth_conf conf;
	int ret;

	memset(&conf, 0, sizeof(conf));
	conf.intr_conf.lsc = 1;
	/* every mbuf comes from one pool with a reference count of 1 */
	ret = rte_eth_dev_info_get(port_id, &info);
	if (ret != 0)
		return ret;
	conf.txmode.offloads = info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	ret = rte_eth_dev_configure(port_id, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(port_id, 0, nb_rx, 0, NULL, mp);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port_id, 0, RTE_MIN(nb_rx, (uint16_t)NB_DESC), 0, NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port_id);
	if (ret == 0)
		ret = filters_check(port_id);
	return ret;
}

static int
port_setup(uint16_t port_id)
{
	return port_setup_pool(port_id, pool, NB_RX_DESC);
}

static uint8_t
pattern(uint64_t seq, uint32_t i)
{
	return (uint8_t)(seq * 31 + i * 7 + 1);
}

static void
do_send(uint16_t dlid, uint32_t dqpn, uint64_t count, uint32_t size, uint64_t pps)
{
	struct rte_ib_ah_attr attr;
	struct rte_ib_ah *ah;
	struct rte_mbuf *m[BURST];
	uint64_t sent = 0, hz = rte_get_timer_hz(), start = rte_get_timer_cycles();

	memset(&attr, 0, sizeof(attr));
	attr.dlid = dlid;
	attr.port_num = ib_port;
	ah = rte_ib_ah_create(ibdev, &attr);
	if (ah == NULL) {
		printf("ERR ah_create: %s\n", rte_strerror(rte_errno));
		return;
	}
	while (sent < count) {
		unsigned int n = RTE_MIN((uint64_t)BURST, count - sent), i, k;
		uint64_t due = start + (sent * hz) / pps;

		/* pace by sleeping: the machine has 2 cores for the model and both hosts */
		while (rte_get_timer_cycles() < due)
			usleep(100);
		if (rte_pktmbuf_alloc_bulk(pool, m, n) != 0)
			continue;
		for (i = 0; i < n; i++) {
			uint8_t *p = (uint8_t *)rte_pktmbuf_append(m[i], size);
			struct rte_ib_mbuf_addr *a = rte_ib_mbuf_addr(m[i]);
			uint64_t seq = sent + i;
			uint32_t j;

			memcpy(p, &seq, sizeof(seq));
			for (j = sizeof(seq); j < size; j++)
				p[j] = pattern(seq, j);
			a->tx.ah = ah;
			a->tx.dest_qpn = dqpn;
			a->tx.qkey = send_qkey;
		}
		for (k = 0; k < n;) {
			uint16_t t = rte_eth_tx_burst(port_id, 0, m + k, n - k);
			uint64_t stall = rte_get_timer_cycles() + hz;

			k += t;
			/* a send queue that never drains: the device is gone */
			while (t == 0 && k < n && rte_get_timer_cycles() < stall)
				t = rte_eth_tx_burst(port_id, 0, m + k, n - k), k += t;
			if (k < n && t == 0) {
				rte_pktmbuf_free_bulk(m + k, n - k);
				printf("ERR stalled after %" PRIu64 "\n", sent + k);
				rte_ib_ah_destroy(ah);
				return;
			}
		}
		sent += n;
	}
	/* let the last completions come back before the AH goes */
	rte_delay_ms(100);
	rte_eth_tx_burst(port_id, 0, NULL, 0);
	rte_ib_ah_destroy(ah);
	printf("OK sent %" PRIu64 "\n", sent);
}

static void
do_recv(uint64_t count, uint32_t timeout_ms, uint32_t peer_qpn, uint16_t peer_lid)
{
	uint64_t got = 0, bad = 0, dup = 0, end = rte_get_timer_cycles() +
		rte_get_timer_hz() * timeout_ms / 1000;
	uint8_t *seen = calloc(count, 1);
	struct rte_mbuf *m[BURST];

	if (seen == NULL)
		return;
	while (got < count && rte_get_timer_cycles() < end) {
		uint16_t n = rte_eth_rx_burst(port_id, 0, m, BURST), i;

		for (i = 0; i < n; i++) {
			const uint8_t *p = rte_pktmbuf_mtod(m[i], const uint8_t *);
			struct rte_ib_mbuf_addr *a = rte_ib_mbuf_addr(m[i]);
			uint64_t seq;
			uint32_t j, len = m[i]->pkt_len;
			bool ok = len >= sizeof(seq);

			if (ok) {
				memcpy(&seq, p, sizeof(seq));
				ok = seq < count && (peer_qpn == 0 || a->rx.src_qpn == peer_qpn) &&
				     (peer_lid == 0 || a->rx.slid == peer_lid) && a->rx.port == ib_port &&
				     /* SL 0, LMC 0, the ethdev's P_Key index, no GRH */
				     a->rx.sl == 0 && a->rx.path_bits == 0 &&
				     a->rx.pkey_index == rx_pkey_index &&
				     a->rx.flags == 0;
				for (j = sizeof(seq); ok && j < len; j++)
					ok = p[j] == pattern(seq, j);
			}
			if (!ok)
				bad++;
			else if (seen[seq]++)
				dup++;
			else
				got++;
			rte_pktmbuf_free(m[i]);
		}
	}
	free(seen);
	printf("%s received %" PRIu64 " of %" PRIu64 " bad %" PRIu64 " dup %" PRIu64 "\n",
	       got == count && bad == 0 && dup == 0 ? "OK" : "ERR", got, count, bad, dup);
}

static void
do_stats(void)
{
	struct rte_eth_xstat_name *names;
	struct rte_eth_xstat *xs;
	struct rte_eth_stats st;
	int n, i;

	rte_eth_stats_get(port_id, &st);
	printf("STAT ipackets %" PRIu64 " opackets %" PRIu64 " ibytes %" PRIu64 " obytes %"
	       PRIu64 " ierrors %" PRIu64 " oerrors %" PRIu64 " rx_nombuf %" PRIu64 "\n",
	       st.ipackets, st.opackets, st.ibytes, st.obytes, st.ierrors, st.oerrors,
	       st.rx_nombuf);
	n = rte_eth_xstats_get_names(port_id, NULL, 0);
	names = calloc(n, sizeof(*names));
	xs = calloc(n, sizeof(*xs));
	if (names != NULL && xs != NULL && rte_eth_xstats_get_names(port_id, names, n) == n &&
	    rte_eth_xstats_get(port_id, xs, n) == n)
		for (i = 0; i < n; i++)
			printf("XSTAT %s %" PRIu64 "\n", names[i].name, xs[i].value);
	free(names);
	free(xs);
	printf("OK stats\n");
}

static int
lsc_event(uint16_t port, enum rte_eth_event_type type, void *arg, void *ret)
{
	struct rte_eth_link link;

	RTE_SET_USED(type);
	RTE_SET_USED(arg);
	RTE_SET_USED(ret);
	if (rte_eth_link_get_nowait(port, &link) == 0)
		printf("EVENT LSC %s\n", link.link_status ? "up" : "down");
	return 0;
}

static void
do_noah(unsigned int n)
{
	struct rte_mbuf *m[BURST];
	unsigned int i, k, sent = 0;

	while (sent < n) {
		unsigned int b = RTE_MIN(n - sent, (unsigned int)BURST);

		if (rte_pktmbuf_alloc_bulk(pool, m, b) != 0)
			break;
		for (i = 0; i < b; i++) {
			rte_pktmbuf_append(m[i], 64);
			rte_ib_mbuf_addr(m[i])->tx.ah = NULL;
		}
		for (k = 0; k < b;)
			k += rte_eth_tx_burst(port_id, 0, m + k, b - k);
		sent += b;
	}
	printf("OK noah %u\n", sent);
}

static void
do_segs(uint16_t dlid, uint32_t dqpn, unsigned int count, uint32_t size, unsigned int segs)
{
	struct rte_ib_ah_attr attr;
	struct rte_ib_ah *ah;
	unsigned int c, i;

	memset(&attr, 0, sizeof(attr));
	attr.dlid = dlid;
	attr.port_num = ib_port;
	ah = rte_ib_ah_create(ibdev, &attr);
	if (ah == NULL || segs == 0 || size < 8 * segs) {
		printf("ERR segs setup\n");
		return;
	}
	for (c = 0; c < count; c++) {
		struct rte_mbuf *head = NULL, *m;
		uint64_t seq = c;
		uint32_t off = 0;

		for (i = 0; i < segs; i++) {
			uint32_t len = i + 1 < segs ? size / segs : size - off, j;
			uint8_t *p;

			m = rte_pktmbuf_alloc(pool);
			if (m == NULL)
				break;
			p = (uint8_t *)rte_pktmbuf_append(m, len);
			for (j = 0; j < len; j++)
				p[j] = pattern(seq, off + j);
			if (i == 0)
				memcpy(p, &seq, sizeof(seq));
			off += len;
			if (head == NULL)
				head = m;
			else
				rte_pktmbuf_chain(head, m);
		}
		if (head == NULL || i < segs) {
			printf("ERR segs alloc\n");
			return;
		}
		rte_ib_mbuf_addr(head)->tx.ah = ah;
		rte_ib_mbuf_addr(head)->tx.dest_qpn = dqpn;
		rte_ib_mbuf_addr(head)->tx.qkey = send_qkey;
		while (rte_eth_tx_burst(port_id, 0, &head, 1) == 0)
			;
		usleep(200);
	}
	rte_delay_ms(100);
	rte_eth_tx_burst(port_id, 0, NULL, 0);
	rte_ib_ah_destroy(ah);
	printf("OK segs %u\n", count);
}

static void
do_hold(unsigned int n, uint32_t timeout_ms)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() * timeout_ms / 1000;
	struct rte_mbuf *m[BURST];

	while (nheld < n && nheld < HOLD_MAX && rte_get_timer_cycles() < end) {
		uint16_t k = rte_eth_rx_burst(port_id, 0, m, BURST), i;

		for (i = 0; i < k; i++) {
			if (nheld < HOLD_MAX)
				held[nheld++] = m[i];
			else
				rte_pktmbuf_free(m[i]);
		}
	}
	printf("OK held %u\n", nheld);
}

static void
do_release(void)
{
	unsigned int n = nheld;

	rte_pktmbuf_free_bulk(held, nheld);
	nheld = 0;
	printf("OK released %u\n", n);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t
median(uint64_t *v, unsigned int n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

#define BENCH_FULL_ROUNDS	2000

/* BURST mbufs of @p size bytes addressed to QP @p rqpn through @p ah. */
static int
bench_alloc(struct rte_mbuf **m, uint32_t size, struct rte_ib_ah *ah, uint32_t rqpn)
{
	unsigned int i;

	if (rte_pktmbuf_alloc_bulk(pool, m, BURST) != 0)
		return -ENOBUFS;
	for (i = 0; i < BURST; i++) {
		struct rte_ib_mbuf_addr *a = rte_ib_mbuf_addr(m[i]);

		rte_pktmbuf_append(m[i], size);
		a->tx.ah = ah;
		a->tx.dest_qpn = rqpn;
		a->tx.qkey = send_qkey;
	}
	return 0;
}

/* What is still on the way from ethdev 0 to ethdev 2: received and freed. */
static void
bench_drain(void)
{
	struct rte_mbuf *m[BURST];
	uint16_t k;

	rte_delay_ms(50);
	while ((k = rte_eth_rx_burst(2, 0, m, BURST)) > 0)
		rte_pktmbuf_free_bulk(m, k);
	rte_eth_tx_burst(0, 0, NULL, 0);
}

/*
 * The vCPU's speed now: about a burst's worth of work on lines no other
 * core touches (BENCH_REF_PASSES passes over 32 records of 64 bytes, read
 * and combined, 4 words of another 32 written; 4 KiB in all, in L1 after
 * the first round), timed like the bursts. A hypervisor that shares the
 * physical core or slows it shows here as much as in the bursts; what
 * the bursts cost beyond it is their own work and the lines the model's
 * core hands over (doc/guides/testing.rst, "bench_mthca").
 */
#define BENCH_REF_PASSES	4

static uint64_t
bench_ref(void)
{
	static struct {
		uint64_t w[8];
	} __rte_cache_aligned src[BURST], dst[BURST];
	uint64_t t0, t1, acc = 0;
	unsigned int i;

	t0 = rte_rdtsc();
	for (i = 0; i < BURST * BENCH_REF_PASSES; i++) {
		const uint64_t *a = src[i & (BURST - 1)].w;
		uint64_t *d = dst[(i * 7) & (BURST - 1)].w;

		acc += a[0] ^ (a[1] >> 3);
		d[0] = rte_bswap64(acc);
		d[1] = a[2] | (acc << 32);
		d[2] = a[3] + i;
		d[3] = acc >> 7;
		src[i & (BURST - 1)].w[0] = acc;
	}
	/* the stores are the point: keep them */
	__asm__ volatile("" : : "r"(acc) : "memory");
	t1 = rte_rdtsc();
	return t1 - t0;
}

/* Context switches of this thread so far (voluntary and not), 0 where unknown. */
static uint64_t
thread_csw(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru) != 0)
		return 0;
	return (uint64_t)ru.ru_nvcsw + (uint64_t)ru.ru_nivcsw;
}

/*
 * The PMD's cost at full bursts: tx_burst of 32, then wait (without
 * calling rx_burst) until rte_eth_rx_descriptor_status() says the 32nd
 * completion is there, then rx_burst of 32. rdtsc around each call; the
 * medians, the minima and the means over the rounds, per packet (on a machine other
 * work shares, the minimum is the call no preemption or cache eviction
 * by another process disturbed). What is counted: tx_burst from
 * entry to return, which includes reaping the previous burst's send
 * completion and freeing its 32 mbufs in bulk; rx_burst from entry to
 * return for exactly 32 completions: CQE reads, mbuf fills, 32 fresh
 * mbufs from the mempool and their receive WQEs, the CQ and RQ records.
 * Not counted: the caller's mbuf allocation and rte_pktmbuf_free_bulk of
 * what rx_burst returned, and the wait for the model. Each round starts
 * with bench_ref(), whose median and least are the third entries of
 * @p med and @p min; @p per_ref gets the medians over the rounds of each
 * call's cycles over its round's reference; @p csw is how often the
 * thread was switched out meanwhile (a switch inside a timed call makes
 * it an outlier, which the median ignores while they are few). Not
 * inlined: valgrind --tool=callgrind --toggle-collect=bench_full counts
 * the full bursts alone (doc/guides/nics/mthca.rst, "Performance").
 */
static __rte_noinline int
bench_full(struct rte_ib_ah *ah, uint32_t rqpn, uint32_t size, double med[3], double min[3],
	   double mean[2], double per_ref[2], uint64_t *csw)
{
	static uint64_t txs[BENCH_FULL_ROUNDS], rxs[BENCH_FULL_ROUNDS], refs[BENCH_FULL_ROUNDS];
	/* per mille of the round's reference */
	static uint64_t txr[BENCH_FULL_ROUNDS], rxr[BENCH_FULL_ROUNDS];
	uint64_t hz = rte_get_timer_hz(), t0, t1, stall, txsum = 0, rxsum = 0;
	struct rte_mbuf *m[BURST];
	unsigned int r, ntx = 0, nrx = 0;
	uint16_t n, k;

	*csw = thread_csw();
	for (r = 0; r < BENCH_FULL_ROUNDS; r++) {
		refs[r] = bench_ref();
		if (bench_alloc(m, size, ah, rqpn) != 0)
			return -ENOBUFS;
		t0 = rte_rdtsc();
		n = rte_eth_tx_burst(0, 0, m, BURST);
		t1 = rte_rdtsc();
		if (n < BURST) {
			rte_pktmbuf_free_bulk(m + n, BURST - n);
			return -ENOSPC;
		}
		txr[ntx] = (t1 - t0) * 1000 / RTE_MAX(refs[r], (uint64_t)1);
		txs[ntx++] = t1 - t0;
		txsum += t1 - t0;
		stall = rte_get_timer_cycles() + hz;
		while (rte_eth_rx_descriptor_status(2, 0, BURST - 1) != RTE_ETH_RX_DESC_DONE)
			if (rte_get_timer_cycles() > stall)
				return -ETIMEDOUT;	/* datagrams lost: UD is unreliable */
		t0 = rte_rdtsc();
		k = rte_eth_rx_burst(2, 0, m, BURST);
		t1 = rte_rdtsc();
		if (k == BURST) {
			rxr[nrx] = (t1 - t0) * 1000 / RTE_MAX(refs[r], (uint64_t)1);
			rxs[nrx++] = t1 - t0;
			rxsum += t1 - t0;
		}
		rte_pktmbuf_free_bulk(m, k);
	}
	*csw = thread_csw() - *csw;
	/* sorted by median(): the least is the call nothing else disturbed */
	med[0] = (double)median(txs, ntx) / BURST;
	med[1] = (double)median(rxs, nrx) / BURST;
	med[2] = (double)median(refs, BENCH_FULL_ROUNDS) / BURST;
	min[0] = ntx ? (double)txs[0] / BURST : 0.0;
	min[1] = nrx ? (double)rxs[0] / BURST : 0.0;
	min[2] = (double)refs[0] / BURST;
	/* the work a call leaves to later calls shows here, not in the median */
	mean[0] = ntx ? (double)txsum / ntx / BURST : 0.0;
	mean[1] = nrx ? (double)rxsum / nrx / BURST : 0.0;
	per_ref[0] = median(txr, ntx) / 1000.0;
	per_ref[1] = median(rxr, nrx) / 1000.0;
	return 0;
}

/*
 * Ethdev 2's receive queue set up again with @p ring descriptors. The ring
 * is FIFO: the buffer a datagram lands in was posted a ring earlier, so
 * the ring's size is how much memory the model's receive copies cycle
 * through (doc/guides/nics/mthca.rst, "Performance").
 */
static int
bench_rx_resize(uint16_t ring)
{
	int ret;

	if (ring == bench_rx_ring)
		return 0;
	ret = rte_eth_dev_stop(2);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(2, 0, ring, 0, NULL, pool);
	if (ret == 0)
		ret = rte_eth_dev_start(2);
	if (ret == 0)
		bench_rx_ring = ring;
	return ret;
}

/*
 * This thread's time on a CPU and waiting on a run queue so far, ns
 * (/proc/thread-self/schedstat; 0 where there is none): how much of a rate
 * run the scheduler let the thread run, for the bench's CPU shares.
 */
static void
thread_schedstat(uint64_t *run, uint64_t *wait)
{
	FILE *f = fopen("/proc/thread-self/schedstat", "r");

	*run = 0;
	*wait = 0;
	if (f == NULL)
		return;
	if (fscanf(f, "%" SCNu64 " %" SCNu64, run, wait) != 2) {
		*run = 0;
		*wait = 0;
	}
	fclose(f);
}

/*
 * The end-to-end rate, both hosts in this one thread (as hca_host bench),
 * at most @p inflight datagrams in flight into a receive ring of
 * @p rx_ring; rdtsc around every tx_burst and every rx_burst that
 * returned packets (polls that found nothing are waiting for the model,
 * not PMD work), divided by the packets they moved, and how full those rx
 * bursts were. Then bench_full().
 */
static void
do_bench(uint32_t size, uint64_t count, uint32_t rx_ring, uint32_t inflight)
{
	uint64_t txc = 0, rxc = 0, txn = 0, rxn = 0, rxcalls = 0, t0, t1, start, end;
	uint64_t run0, wait0, run1, wait1;
	uint64_t hz = rte_get_timer_hz();
	double med[3] = { 0, 0, 0 }, min[3] = { 0, 0, 0 }, mean[2] = { 0, 0 };
	double per_ref[2] = { 0, 0 };
	uint64_t csw = 0;
	struct rte_ib_port_attr pa;
	struct rte_ib_ah_attr attr;
	struct rte_ib_device *rdev;
	struct rte_mbuf *m[BURST];
	struct rte_ib_ah *ah;
	uint32_t rqpn;
	uint8_t rport;
	int ret;

	/* a burst beyond the limit must still find receive WQEs: UD drops otherwise */
	if (inflight < BURST || rx_ring > UINT16_MAX || rx_ring < inflight + BURST) {
		printf("ERR bench: in flight %u must be >= %u and <= rx ring %u - %u\n",
		       inflight, BURST, rx_ring, BURST);
		return;
	}
	rdev = rte_ib_device_from_port_id(2, &rport);
	if (rte_eth_dev_count_avail() < 3 || rdev == NULL ||
	    rte_ib_query_port(rdev, rport, &pa) != 0 || pa.state != RTE_IB_PORT_ACTIVE ||
	    (rqpn = queue_qpn(2, false)) == 0) {
		printf("ERR bench needs a second HCA (ethdev 2) with an ACTIVE port\n");
		return;
	}
	ret = bench_rx_resize((uint16_t)rx_ring);
	if (ret != 0 || (rqpn = queue_qpn(2, false)) == 0) {
		printf("ERR bench: ethdev 2 with a receive ring of %u: %s\n", rx_ring,
		       strerror(ret != 0 ? -ret : rte_errno));
		return;
	}
	memset(&attr, 0, sizeof(attr));
	attr.dlid = pa.lid;
	attr.port_num = ib_port;
	ah = rte_ib_ah_create(ibdev, &attr);
	if (ah == NULL)
		return;
	thread_schedstat(&run0, &wait0);
	start = rte_get_timer_cycles();
	end = start + 120 * hz;
	while (rxn < count && rte_get_timer_cycles() < end) {
		uint16_t n, k;

		if (txn < count && txn - rxn < inflight && bench_alloc(m, size, ah, rqpn) == 0) {
			t0 = rte_rdtsc();
			n = rte_eth_tx_burst(0, 0, m, BURST);
			t1 = rte_rdtsc();
			txc += t1 - t0;
			txn += n;
			if (n < BURST)
				rte_pktmbuf_free_bulk(m + n, BURST - n);
		}
		t0 = rte_rdtsc();
		k = rte_eth_rx_burst(2, 0, m, BURST);
		t1 = rte_rdtsc();
		if (k > 0) {
			rxc += t1 - t0;
			rxn += k;
			rxcalls++;
			rte_pktmbuf_free_bulk(m, k);
		}
	}
	end = rte_get_timer_cycles();
	thread_schedstat(&run1, &wait1);
	bench_drain();
	ret = rxn == count ? bench_full(ah, rqpn, size, med, min, mean, per_ref, &csw) : -EIO;
	bench_drain();
	rte_ib_ah_destroy(ah);
	if (ret != 0) {
		printf("ERR bench size %u: received %" PRIu64 " of %" PRIu64 ", full bursts: %s\n",
		       size, rxn, count, strerror(-ret));
		return;
	}
	printf("OK bench size %u rx_ring %u in_flight %u sent %" PRIu64 " received %" PRIu64
	       " pps %.0f "
	       "tx_cycles_per_pkt %.1f rx_cycles_per_pkt %.1f rx_pkts_per_burst %.1f "
	       "full32_tx_cycles_per_pkt %.1f full32_rx_cycles_per_pkt %.1f "
	       "full32_tx_min_cycles_per_pkt %.1f full32_rx_min_cycles_per_pkt %.1f "
	       "rate_ns %.0f rate_cpu_ns %" PRIu64 " rate_wait_ns %" PRIu64 " "
	       "full32_ref_cycles_per_pkt %.1f full32_ref_min_cycles_per_pkt %.1f "
	       "full32_tx_per_ref %.2f full32_rx_per_ref %.2f full32_switches %" PRIu64 " "
	       "full32_tx_mean_cycles_per_pkt %.1f full32_rx_mean_cycles_per_pkt %.1f\n",
	       size,
	       rx_ring, inflight, txn, rxn,
	       rxn * (double)hz / (end - start), txn ? (double)txc / txn : 0.0,
	       rxn ? (double)rxc / rxn : 0.0, rxcalls ? (double)rxn / rxcalls : 0.0, med[0],
	       med[1], min[0], min[1], (end - start) * 1e9 / hz, run1 - run0, wait1 - wait0,
	       med[2], min[2], per_ref[0], per_ref[1], csw, mean[0], mean[1]);
}

/* The transmit queue set up again with @p n slots. */
static void
do_txring(unsigned int n)
{
	int ret = rte_eth_dev_stop(port_id);

	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port_id, 0, (uint16_t)n, 0, NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port_id);
	if (ret != 0)
		printf("ERR txring %u: %s\n", n, strerror(-ret));
	else
		printf("OK txring %u\n", n);
}

/*
 * @p n datagrams of @p size bytes handed to one rte_eth_tx_burst(), the
 * ring empty before (the previous burst reaped): how many it took. Then
 * their completions are reaped.
 */
static void
do_burst(uint16_t dlid, uint32_t dqpn, unsigned int n, uint32_t size)
{
	struct rte_mbuf *m[HOLD_MAX];
	struct rte_ib_ah_attr attr;
	struct rte_ib_ah *ah;
	unsigned int i, j;
	uint16_t took;

	memset(&attr, 0, sizeof(attr));
	attr.dlid = dlid;
	attr.port_num = ib_port;
	ah = rte_ib_ah_create(ibdev, &attr);
	if (ah == NULL || n > RTE_DIM(m) || size < 8 ||
	    rte_pktmbuf_alloc_bulk(pool, m, n) != 0) {
		printf("ERR burst setup\n");
		if (ah != NULL)
			rte_ib_ah_destroy(ah);
		return;
	}
	for (i = 0; i < n; i++) {
		uint8_t *p = (uint8_t *)rte_pktmbuf_append(m[i], size);
		uint64_t seq = i;

		memcpy(p, &seq, sizeof(seq));
		for (j = sizeof(seq); j < size; j++)
			p[j] = pattern(seq, j);
		rte_ib_mbuf_addr(m[i])->tx.ah = ah;
		rte_ib_mbuf_addr(m[i])->tx.dest_qpn = dqpn;
		rte_ib_mbuf_addr(m[i])->tx.qkey = QKEY;
	}
	took = rte_eth_tx_burst(port_id, 0, m, (uint16_t)n);
	if (took < n)
		rte_pktmbuf_free_bulk(m + took, n - took);
	rte_delay_ms(200);
	rte_eth_tx_burst(port_id, 0, NULL, 0);
	rte_ib_ah_destroy(ah);
	printf("OK burst %u of %u\n", took, n);
}

/*
 * rte_eth_stats_reset(), then at once every basic counter and xstat:
 * each one not zero is printed.
 */
static void
do_reset(void)
{
	struct rte_eth_xstat_name *names;
	struct rte_eth_xstat *xs;
	struct rte_eth_stats st;
	unsigned int bad = 0;
	int n, i, ret;

	n = rte_eth_xstats_get_names(port_id, NULL, 0);
	names = calloc(n, sizeof(*names));
	xs = calloc(n, sizeof(*xs));
	if (names == NULL || xs == NULL || rte_eth_xstats_get_names(port_id, names, n) != n) {
		printf("ERR reset setup\n");
		goto out;
	}
	ret = rte_eth_stats_reset(port_id);
	if (ret != 0 || rte_eth_stats_get(port_id, &st) != 0 ||
	    rte_eth_xstats_get(port_id, xs, n) != n) {
		printf("ERR reset: %d\n", ret);
		goto out;
	}
	if (st.ipackets | st.opackets | st.ibytes | st.obytes | st.imissed | st.ierrors |
	    st.oerrors | st.rx_nombuf) {
		printf("NONZERO stats ipackets %" PRIu64 " opackets %" PRIu64 " ierrors %"
		       PRIu64 " oerrors %" PRIu64 " rx_nombuf %" PRIu64 "\n", st.ipackets,
		       st.opackets, st.ierrors, st.oerrors, st.rx_nombuf);
		bad++;
	}
	for (i = 0; i < n; i++)
		if (xs[i].value != 0) {
			printf("NONZERO %s %" PRIu64 "\n", names[i].name, xs[i].value);
			bad++;
		}
	printf("OK reset xstats %d nonzero %u\n", n, bad);
out:
	free(names);
	free(xs);
}

static void
count_mz(const struct rte_memzone *mz, void *arg)
{
	RTE_SET_USED(mz);
	(*(unsigned int *)arg)++;
}

/* n stop/start cycles; the DMA memory (memzones) the PMD holds before and after */
static void
do_cycle(unsigned int n)
{
	unsigned int i, before = 0, after = 0;
	size_t free0, free1;
	struct rte_malloc_socket_stats ms;

	unsigned int mb0 = rte_mempool_avail_count(pool), mb1;

	rte_memzone_walk(count_mz, &before);
	rte_malloc_get_socket_stats(rte_socket_id(), &ms);
	free0 = ms.heap_freesz_bytes;
	for (i = 0; i < n; i++)
		if (rte_eth_dev_stop(port_id) != 0 || rte_eth_dev_start(port_id) != 0) {
			printf("ERR cycle %u\n", i);
			return;
		}
	rte_memzone_walk(count_mz, &after);
	rte_malloc_get_socket_stats(rte_socket_id(), &ms);
	free1 = ms.heap_freesz_bytes;
	mb1 = rte_mempool_avail_count(pool);
	printf("OK cycles %u memzones %u %u heap_free %zu %zu mbufs %u %u\n", n, before, after,
	       free0, free1, mb0, mb1);
}

static void
do_qinfo(void)
{
	struct rte_ib_ud_queue_info rx, tx;

	if (rte_ib_ud_queue_info(port_id, 0, false, &rx) != 0 ||
	    rte_ib_ud_queue_info(port_id, 0, true, &tx) != 0) {
		printf("ERR qinfo port %u: %s\n", port_id, rte_strerror(rte_errno));
		return;
	}
	printf("OK qinfo port=%u ib_port=%u rx_qpn=%u rx_qkey=0x%08x rx_pkey_index=%u rx_live=%u "
	       "tx_qpn=%u tx_qkey=0x%08x tx_pkey_index=%u tx_live=%u\n", port_id, rx.ib_port,
	       rx.qpn, rx.qkey, rx.pkey_index, rx.live, tx.qpn, tx.qkey, tx.pkey_index, tx.live);
}

static void
do_use(uint16_t port)
{
	struct rte_ib_ud_queue_info qi;

	if (rte_ib_ud_queue_info(port, 0, false, &qi) != 0) {
		printf("ERR use %u: %s\n", port, rte_strerror(rte_errno));
		return;
	}
	port_id = port;
	rx_pkey_index = qi.pkey_index;
	printf("OK use %u\n", port);
}

/* A UD port on the P_Key @p pkey, set up as the others, from a pool of its own. */
static void
do_udport(uint16_t pkey)
{
	char name[RTE_ETH_NAME_MAX_LEN];
	uint16_t idx = 0, pid = RTE_MAX_ETHPORTS;
	int i, ret;

	/* the SM's Set(P_KeyTable) refreshes the core's cache (PKEY_CHANGE) */
	for (i = 0; i < 300 && rte_ib_pkey_find(ibdev, ib_port, pkey, &idx) != 0; i++)
		rte_delay_ms(100);
	if (i == 300) {
		printf("ERR udport: P_Key 0x%04x not in the table of port %u\n", pkey, ib_port);
		return;
	}
	if (ud_pool == NULL)
		ud_pool = rte_pktmbuf_pool_create("mthca_host_ud", 2047, 256, 0,
						  RTE_MBUF_DEFAULT_BUF_SIZE, rte_socket_id());
	if (ud_pool == NULL) {
		printf("ERR udport pool: %s\n", rte_strerror(rte_errno));
		return;
	}
	if (rte_ib_ud_port_create(ibdev, ib_port, idx, &pid) != 0) {
		printf("ERR udport create: %s\n", rte_strerror(rte_errno));
		return;
	}
	ret = port_setup_pool(pid, ud_pool, NB_UD_DESC);
	if (ret == 0)
		ret = rte_eth_dev_get_name_by_port(pid, name);
	if (ret != 0) {
		printf("ERR udport %u setup: %s\n", pid, strerror(-ret));
		return;
	}
	printf("OK udport port=%u pkey_index=%u qpn=%u txqpn=%u name=%s\n", pid, idx,
	       queue_qpn(pid, false), queue_qpn(pid, true), name);
}

static void
do_uddel(uint16_t pid)
{
	uint8_t p;

	if (rte_ib_ud_port_destroy(pid) != 0) {
		printf("ERR uddel %u: %s\n", pid, rte_strerror(rte_errno));
		return;
	}
	if (rte_ib_device_from_port_id(pid, &p) != NULL || rte_eth_dev_is_valid_port(pid)) {
		printf("ERR uddel %u: the ethdev is still there\n", pid);
		return;
	}
	/* every mbuf of the UD port's queues came back with its stop */
	if (rte_mempool_full(ud_pool) == 0) {
		printf("ERR uddel %u: %u mbufs of %u not back\n", pid,
		       rte_mempool_in_use_count(ud_pool), ud_pool->size);
		return;
	}
	rte_mempool_free(ud_pool);
	ud_pool = NULL;
	if (port_id == pid)
		port_id = 0;
	printf("OK uddel %u\n", pid);
}

/* STOP, START, CLOSE: every ethdev of the process, so the whole HCA follows */
static void
do_ports(const char *what)
{
	uint16_t pid;
	int ret = 0;

	RTE_ETH_FOREACH_DEV(pid) {
		if (strcmp(what, "STOP") == 0)
			ret = rte_eth_dev_stop(pid);
		else if (strcmp(what, "START") == 0)
			ret = rte_eth_dev_start(pid);
		else if ((ret = rte_eth_dev_stop(pid)) == 0)
			ret = rte_eth_dev_close(pid);	/* ethdev refuses to close a started port */
		if (ret != 0) {
			printf("ERR %s port %u: %s\n", what, pid, strerror(-ret));
			return;
		}
	}
	printf("OK %s\n", what);
}

int
main(int argc, char **argv)
{
	struct rte_ib_port_attr pa;
	char line[256];
	uint32_t qpn = 0, txqpn = 0, peer_qpn = 0;
	uint16_t peer_lid = 0;
	int ret, i, last_state = -2, last_up = -2;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("ERR rte_eal_init: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (rte_eth_dev_count_avail() == 0) {
		printf("ERR no ethdev\n");
		return 1;
	}
	port_id = 0;
	/* port 0 can hold 4095 mbufs beyond its ring (HOLD); every other port a ring */
	pool = rte_pktmbuf_pool_create("mthca_host", 8191 + NB_RX_DESC *
				       (rte_eth_dev_count_avail() - 1), 256, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE, rte_socket_id());
	ibdev = rte_ib_device_from_port_id(port_id, &ib_port);
	if (pool == NULL || ibdev == NULL || rte_ib_mbuf_dynfield_register() < 0) {
		printf("ERR setup: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	rte_eth_dev_callback_register(RTE_ETH_ALL, RTE_ETH_EVENT_INTR_LSC, lsc_event, NULL);
	RTE_ETH_FOREACH_DEV(port_id) {
		ret = port_setup(port_id);
		if (ret != 0) {
			printf("ERR port %u setup: %s\n", port_id, strerror(-ret));
			return 1;
		}
	}
	port_id = 0;
	qpn = queue_qpn(port_id, false);
	txqpn = queue_qpn(port_id, true);
	if (qpn == 0 || txqpn == 0) {
		printf("ERR queue QPNs: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	/*
	 * The SM makes the port ACTIVE through the MAD core: wait for it,
	 * showing the IB port state and the ethdev link as either changes.
	 */
	for (i = 0; i < 3000; i++) {
		struct rte_eth_link link;
		/*
		 * The link first: a port state read after it is never older. With
		 * LSC on, this reads what the PMD's events set (no link_update).
		 */
		int up = rte_eth_link_get_nowait(port_id, &link) == 0 ? link.link_status : -1;
		int st = rte_ib_query_port(ibdev, ib_port, &pa) == 0 ? (int)pa.state : -1;

		if (st != last_state || up != last_up)
			printf("LINK state=%d up=%d\n", st, up);
		last_state = st;
		last_up = up;
		/* the PORT_CHANGE event brings the link up after the port state */
		if (st == RTE_IB_PORT_ACTIVE && up == RTE_ETH_LINK_UP)
			break;
		rte_delay_ms(20);
	}
	if (i == 3000) {
		printf("ERR port %u not ACTIVE\n", ib_port);
		return 1;
	}
	printf("READY lid=%u qpn=%u txqpn=%u port=%u\n", pa.lid, qpn, txqpn, port_id);
	while (fgets(line, sizeof(line), stdin) != NULL) {
		unsigned int a, b, c, d, e;

		if (sscanf(line, "PEER %u %u", &a, &b) == 2) {
			peer_lid = (uint16_t)a;
			peer_qpn = b;
			printf("OK peer\n");
		} else if (sscanf(line, "SEND %u %u %u %u %u", &a, &b, &c, &d, &e) == 5) {
			do_send((uint16_t)a, b, c, d, e);
		} else if (sscanf(line, "RECV %u %u", &a, &b) == 2) {
			do_recv(a, b, peer_qpn, peer_lid);
		} else if (strncmp(line, "STATS", 5) == 0) {
			do_stats();
		} else if (sscanf(line, "CYCLE %u", &a) == 1) {
			do_cycle(a);
		} else if ((ret = sscanf(line, "BENCH %u %u %u %u", &a, &b, &c, &d)) >= 2) {
			do_bench(a, b, ret == 4 ? c : NB_RX_DESC, ret == 4 ? d : NB_DESC);
		} else if (sscanf(line, "NOAH %u", &a) == 1) {
			do_noah(a);
		} else if (sscanf(line, "SEGS %u %u %u %u %u", &a, &b, &c, &d, &e) == 5) {
			do_segs((uint16_t)a, b, c, d, e);
		} else if (sscanf(line, "HOLD %u %u", &a, &b) == 2) {
			do_hold(a, b);
		} else if (strncmp(line, "RELEASE", 7) == 0) {
			do_release();
		} else if (strncmp(line, "STOP", 4) == 0 || strncmp(line, "START", 5) == 0) {
			do_ports(line[2] == 'O' ? "STOP" : "START");
		} else if (strncmp(line, "CLOSE", 5) == 0) {
			rte_pktmbuf_free_bulk(held, nheld);
			nheld = 0;
			do_ports("CLOSE");
		} else if (strncmp(line, "QINFO", 5) == 0) {
			do_qinfo();
		} else if (sscanf(line, "QKEY %x", &a) == 1) {
			if (rte_ib_ud_qkey_set(port_id, a) != 0)
				printf("ERR qkey 0x%08x: %s\n", a, rte_strerror(rte_errno));
			else
				printf("OK qkey 0x%08x\n", a);
		} else if (sscanf(line, "SQKEY %x", &a) == 1) {
			send_qkey = a;
			printf("OK sqkey 0x%08x\n", a);
		} else if (sscanf(line, "UDPORT %x", &a) == 1) {
			do_udport((uint16_t)a);
		} else if (sscanf(line, "USE %u", &a) == 1) {
			do_use((uint16_t)a);
		} else if (sscanf(line, "UDDEL %u", &a) == 1) {
			do_uddel((uint16_t)a);
		} else if (sscanf(line, "TXRING %u", &a) == 1) {
			do_txring(a);
		} else if (sscanf(line, "BURST %u %u %u %u", &a, &b, &c, &d) == 4) {
			do_burst((uint16_t)a, b, c, d);
		} else if (strncmp(line, "RESET", 5) == 0) {
			do_reset();
		} else if (strncmp(line, "MBUFS", 5) == 0) {
			printf("OK mbufs in_use %u size %u\n", rte_mempool_in_use_count(pool),
			       pool->size);
		} else if (strncmp(line, "QUIT", 4) == 0) {
			break;
		} else {
			printf("ERR unknown command: %s", line);
		}
	}
	do_release();
	RTE_ETH_FOREACH_DEV(port_id) {
		rte_eth_dev_stop(port_id);
		rte_eth_dev_close(port_id);
	}
	rte_eal_cleanup();
	printf("OK bye\n");
	return 0;
}
