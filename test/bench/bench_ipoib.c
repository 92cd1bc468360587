/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * lib/ipoib data-path cost, one core: cycles per packet of
 * rte_ipoib_encap_burst() (Ethernet view: MAC lookup, neighbour, path,
 * dynfield) and rte_ipoib_decap_burst() (source by (SLID, QPN), Ethernet
 * header) at bursts of 32, with 1, 1,000 and 100,000 neighbours, each on
 * its own resolved path, destinations and sources drawn at random. The
 * goal (issue 17) is 20 cycles per packet or less.
 *
 * Also measured in the same run, for the choices made:
 * - the lookup alone, the library's index against rte_hash (lock-free
 *   read-write concurrency flag, bulk lookup of 32), same keys;
 * - the kernel's path for the same frames, where it can be measured: an
 *   Ethernet frame written to a TAP device (in a network namespace of
 *   this process) goes through the kernel's receive path and IP input.
 *
 * Timed with the TSC around a span of SPAN bursts, each of its own
 * freshly built packets (building is not counted, and happens before the
 * span): one pair of TSC reads costs about 100 cycles, a sixth of a burst,
 * which a span of eight spreads over 256 packets. Each figure is the
 * median span divided by its packets. Each figure twice: packets just
 * written (as frames an application has just built), and packets written
 * 64 bursts earlier (from L2 or further, as data a NIC wrote; see
 * COLD_BURSTS). Prints one line per figure; exit status 0 unless
 * something failed to set up (the goal is reported, not enforced: the
 * machine is shared).
 *
 * Memory: 4 KiB pages by default (--no-huge, as the unit tests run), or
 * with --hugepages the EAL's 2 MiB hugepages (--in-memory: a hugetlbfs
 * memfd, no mount and no files), as a DPDK data plane is deployed. The
 * page size matters here more than anything in the library: the bursts
 * of a figure touch some 150 mbufs' pages, more than the first-level
 * data TLB holds, so that with 4 KiB pages nearly every packet walks the
 * second-level TLB (in a virtual machine, a miss there is a nested page
 * walk). The page size of the mbufs is printed. bench_ipoib.py reserves
 * the hugepages and runs both.
 */

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_ib_dev.h>
#include <rte_ib_mbuf.h>
#include <rte_mbuf.h>

#include <rte_ipoib_encap.h>

#define BURST 32
/* Bursts per pair of TSC reads (see bench_bursts()). */
#define SPAN 8
#define ITERS_MIN 20000
#define FRAME_LEN 74       /* 14 + IPv4 20 + UDP 8 + 32 bytes */

static struct rte_mempool *pool;
static struct rte_ib_ah the_ah;

static uint64_t
rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Peers' GUIDs: consecutive (the MAC front index, the MAC's low bits,
 * then fills its slots in order: the best case), or with random low 24
 * bits (i above them, so that GIDs and MACs stay distinct), whose front
 * slots clash as they would among the nodes of a fabric.
 */
static bool random_guids;

static void
peer(uint32_t i, struct rte_ipoib_hwaddr *hw)
{
	uint64_t x = 0x9e3779b97f4a7c15ull * (i + 1);
	struct rte_ib_gid g;

	x = (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9ull;
	rte_ib_gid_set(&g, RTE_IB_GID_DEFAULT_PREFIX, random_guids ?
		       0x0002c90000000000ull | (uint64_t)i << 24 | ((x >> 32) & 0xffffff) :
		       0x0002c90300000000ull + 16 + i);
	rte_ipoib_hwaddr_set(hw, 0, 0x48, &g);
}

static uint32_t
peer_qpn(uint32_t i)
{
	return 0x48 + (i / 40000) * 0x100;
}

static uint16_t
peer_lid(uint32_t i)
{
	return (uint16_t)(16 + i % 40000);
}

/*
 * Per-burst samples, summarised by their median: the machine is shared,
 * and a burst that was preempted would otherwise weigh on the mean.
 */
static uint64_t *samples;

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static double
median_per(unsigned int n, unsigned int per)
{
	qsort(samples, n, sizeof(*samples), cmp_u64);
	return (double)samples[n / 2] / per;
}

struct setup {
	struct rte_ipoib_tbl *tbl;
	struct rte_ipoib_dp *dp;
	struct rte_ether_addr *macs;
	uint32_t n;
};

static int
setup(struct setup *s, uint32_t n)
{
	struct rte_ipoib_tbl_conf tc = { .max_neigh = n + 1, .max_path = n + 1 };
	struct rte_ipoib_dp_conf dc = {
		.mode = RTE_IPOIB_MODE_ETH, .local_lid = 1, .pkey = 0xffff, .scope = 2,
		.qkey = 0x0b1b, .mtu = 2044,
	};
	struct rte_ib_gid g;
	uint32_t i;

	memset(s, 0, sizeof(*s));
	s->n = n;
	s->tbl = rte_ipoib_tbl_create(&tc);
	s->macs = calloc(n, sizeof(*s->macs));
	if (s->tbl == NULL || s->macs == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		struct rte_ipoib_hwaddr hw;
		struct rte_ipoib_path *p;

		peer(i, &hw);
		rte_ipoib_hwaddr_gid(&hw, &g);
		p = rte_ipoib_path_add(s->tbl, &g, 0xffff);
		/*
		 * A subnet has at most 48K unicast LIDs: above 40000 peers, LIDs
		 * are shared and QPNs differ (by 0x100, so that the derived
		 * MACs, GUID xor QPN << 16, stay distinct).
		 */
		hw.flags_qpn = rte_cpu_to_be_32(peer_qpn(i));
		if (p == NULL || rte_ipoib_path_set_ah(s->tbl, p, &the_ah, peer_lid(i)) != 0 ||
		    rte_ipoib_neigh_add(s->tbl, &hw, p) == NULL) {
			printf("neighbour %u: %s\n", i, rte_strerror(rte_errno));
			return -1;
		}
		rte_ipoib_mac_from_hwaddr(&hw, &s->macs[i]);
	}
	rte_ib_gid_set(&g, RTE_IB_GID_DEFAULT_PREFIX, 0x0002c90300000001ull);
	rte_ipoib_hwaddr_set(&dc.local, 0, 0x47, &g);
	dc.tbl = s->tbl;
	s->dp = rte_ipoib_dp_create(&dc);
	return s->dp == NULL ? -1 : 0;
}

static void
teardown(struct setup *s)
{
	rte_ipoib_dp_free(s->dp);
	rte_ipoib_tbl_free(s->tbl);
	free(s->macs);
}

static void
udp_frame(uint8_t *p, const uint8_t *dst)
{
	memcpy(p, dst, 6);
	memcpy(p + 6, "\x02\x03\x00\x47\x00\x01", 6);
	p[12] = 0x08;
	p[13] = 0x00;
	memset(p + 14, 0, 28);
	p[14] = 0x45;
	p[17] = FRAME_LEN - 14;
	p[22] = 64;
	p[23] = 17;
	p[26] = 10;
	p[30] = 10;
	p[33] = 1;
}

/*
 * Where a burst's packets are when it is timed. HOT: built just before
 * its span (the span's SPAN bursts are built one after the other, then
 * timed one after the other), as when the application has just written
 * the frames it sends: 256 packets, whose lines the bursts touch (mbuf,
 * dynfield, headers: about 48 KiB) are in L1 or L2. COLD: built
 * COLD_BURSTS bursts earlier, with the other bursts' packets (about
 * 512 KiB of mbufs and data) written since, so that they come from L2
 * or further, as data a NIC wrote into memory.
 */
#define COLD_BURSTS 64

static_assert(COLD_BURSTS % SPAN == 0, "spans tile the ring of bursts");

enum temp { HOT, COLD };

typedef void (*fill_fn)(struct setup *s, struct rte_mbuf **m, uint64_t *seed);
typedef uint16_t (*burst_fn)(struct rte_ipoib_dp *dp, struct rte_mbuf **m, uint16_t n);

static struct rte_mbuf *ring_m[COLD_BURSTS][BURST];

static int
refill(struct setup *s, struct rte_mbuf **m, fill_fn fill, uint64_t *seed)
{
	if (rte_pktmbuf_alloc_bulk(pool, m, BURST) != 0)
		return -1;
	fill(s, m, seed);
	return 0;
}

/*
 * Median cycles per packet of @p fn over @p iters bursts filled by
 * @p fill, timed SPAN bursts at a time: the ring of bursts (SPAN deep
 * for HOT, COLD_BURSTS for COLD) is used a span at a time; a span's
 * bursts are sent (every one must keep all its packets), then rebuilt,
 * then the next span is timed.
 */
static double
bench_bursts(struct setup *s, unsigned int iters, enum temp t, fill_fn fill, burst_fn fn,
	     uint64_t seed)
{
	unsigned int depth = t == HOT ? SPAN : COLD_BURSTS, spans = iters / SPAN, it, k;
	bool full[COLD_BURSTS] = { false };
	uint16_t n[SPAN];
	int rc = 0;

	for (k = 0; k < depth && rc == 0; k++) {
		rc = refill(s, ring_m[k], fill, &seed);
		full[k] = rc == 0;
	}
	for (it = 0; it < spans && rc == 0; it++) {
		struct rte_mbuf *(*m)[BURST] = &ring_m[(it * SPAN) % depth];
		uint64_t t0;

		t0 = rte_rdtsc_precise();
		for (k = 0; k < SPAN; k++)
			n[k] = fn(s->dp, m[k], BURST);
		samples[it] = rte_rdtsc_precise() - t0;
		for (k = 0; k < SPAN && rc == 0; k++) {
			unsigned int r = (it * SPAN + k) % depth;

			/* What was not returned was dropped, and freed by the library. */
			rte_pktmbuf_free_bulk(m[k], n[k]);
			full[r] = false;
			rc = n[k] == BURST ? refill(s, m[k], fill, &seed) : -1;
			full[r] = rc == 0;
		}
		/* A failed span: its later bursts were sent, not refilled. */
		for (; k < SPAN; k++) {
			rte_pktmbuf_free_bulk(m[k], n[k]);
			full[(it * SPAN + k) % depth] = false;
		}
	}
	for (k = 0; k < depth; k++)
		if (full[k])
			rte_pktmbuf_free_bulk(ring_m[k], BURST);
	return rc == 0 ? median_per(spans, SPAN * BURST) : -1;
}

static void
fill_encap(struct setup *s, struct rte_mbuf **m, uint64_t *seed)
{
	unsigned int i;

	for (i = 0; i < BURST; i++)
		udp_frame((uint8_t *)rte_pktmbuf_append(m[i], FRAME_LEN),
			  s->macs[rng(seed) % s->n].addr_bytes);
}

static void
fill_decap(struct setup *s, struct rte_mbuf **m, uint64_t *seed)
{
	uint8_t eth[FRAME_LEN], tmpl[FRAME_LEN - 10];
	unsigned int i;

	/* The IPoIB form of the frame: header 08 00 00 00, then the IP packet. */
	udp_frame(eth, s->macs[0].addr_bytes);
	memcpy(tmpl, "\x08\x00\x00\x00", 4);
	memcpy(tmpl + 4, eth + 14, FRAME_LEN - 14);
	for (i = 0; i < BURST; i++) {
		struct rte_ib_mbuf_addr *a = rte_ib_mbuf_addr(m[i]);
		uint32_t k = rng(seed) % s->n;

		memcpy(rte_pktmbuf_append(m[i], sizeof(tmpl)), tmpl, sizeof(tmpl));
		memset(a, 0, sizeof(*a));
		a->rx.src_qpn = peer_qpn(k);
		a->rx.slid = peer_lid(k);
	}
}

static double
bench_encap(struct setup *s, unsigned int iters, enum temp t)
{
	return bench_bursts(s, iters, t, fill_encap, rte_ipoib_encap_burst,
			    88172645463325252ull);
}

static double
bench_decap(struct setup *s, unsigned int iters, enum temp t)
{
	return bench_bursts(s, iters, t, fill_decap, rte_ipoib_decap_burst,
			    1181783497276652981ull);
}

/* The MAC lookup alone: the library's index, then rte_hash on the same keys. */
static void
bench_lookup(struct setup *s, unsigned int iters, double *own, double *rh)
{
	struct rte_hash_parameters hp = {
		.name = "bench_mac", .entries = s->n < 8 ? 8 : s->n * 2,
		.key_len = 8, .hash_func = rte_hash_crc, .socket_id = SOCKET_ID_ANY,
		.extra_flag = RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF,
	};
	uint64_t keys[BURST], seed = 2463534242ull, found = 0, hits;
	struct rte_ipoib_neigh *nb[BURST];
	struct rte_ether_addr mb[BURST];
	const void *kp[BURST];
	void *data[BURST];
	struct rte_hash *h;
	unsigned int it, i;

	for (it = 0; it < iters; it++) {
		uint64_t t0;

		for (i = 0; i < BURST; i++)
			mb[i] = s->macs[rng(&seed) % s->n];
		t0 = rte_rdtsc_precise();
		found += rte_ipoib_neigh_lookup_mac_bulk(s->tbl, mb, BURST, nb);
		samples[it] = rte_rdtsc_precise() - t0;
	}
	*own = found == (uint64_t)iters * BURST ? median_per(iters, BURST) : -1;
	*rh = -1;
	h = rte_hash_create(&hp);
	if (h == NULL)
		return;
	for (i = 0; i < s->n; i++) {
		uint64_t k = 0;

		memcpy(&k, s->macs[i].addr_bytes, 6);
		if (rte_hash_add_key_data(h, &k, (void *)(uintptr_t)(i + 1)) < 0)
			goto out;
	}
	found = 0;
	seed = 2463534242ull;
	for (it = 0; it < iters; it++) {
		uint64_t t0;

		for (i = 0; i < BURST; i++) {
			keys[i] = 0;
			memcpy(&keys[i], s->macs[rng(&seed) % s->n].addr_bytes, 6);
			kp[i] = &keys[i];
		}
		t0 = rte_rdtsc_precise();
		found += rte_hash_lookup_bulk_data(h, kp, BURST, &hits, data);
		samples[it] = rte_rdtsc_precise() - t0;
	}
	if (found == (uint64_t)iters * BURST)
		*rh = median_per(iters, BURST);
out:
	rte_hash_free(h);
}

/*
 * What the timing itself costs: the two rte_rdtsc_precise() around an
 * empty span (median), included in every figure above (divided by the
 * span's SPAN * BURST packets).
 */
static double
bench_timer(unsigned int iters)
{
	unsigned int it;

	for (it = 0; it < iters; it++) {
		uint64_t t0 = rte_rdtsc_precise();

		samples[it] = rte_rdtsc_precise() - t0;
	}
	return median_per(iters, 1);
}

/*
 * The kernel's receive path for the same frames: write() into a TAP
 * device in a private network namespace (this process's own; nothing
 * outside it sees the traffic). Returns cycles per frame or -1 with the
 * reason in @p why.
 */
static double
bench_kernel_tap(unsigned int frames, const char **why)
{
	struct ifreq ifr;
	uint8_t f[FRAME_LEN];
	uint64_t t0, cycles;
	unsigned int i;
	int fd, sk;

	if (unshare(CLONE_NEWNET) != 0) {
		*why = "unshare(CLONE_NEWNET) refused (needs CAP_SYS_ADMIN)";
		return -1;
	}
	fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK);
	if (fd < 0) {
		*why = "no /dev/net/tun";
		return -1;
	}
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "ipoibbench0");
	sk = socket(AF_INET, SOCK_DGRAM, 0);
	if (ioctl(fd, TUNSETIFF, &ifr) != 0 || sk < 0) {
		*why = "TUNSETIFF refused";
		close(fd);
		return -1;
	}
	ifr.ifr_flags = IFF_UP | IFF_RUNNING;
	if (ioctl(sk, SIOCSIFFLAGS, &ifr) != 0) {
		*why = "cannot bring the TAP up";
		close(sk);
		close(fd);
		return -1;
	}
	/* To another host's MAC and IP: the kernel receives, then drops in IP. */
	udp_frame(f, (const uint8_t *)"\x02\x00\x00\x00\x00\x99");
	t0 = rte_rdtsc_precise();
	for (i = 0; i < frames; i++)
		if (write(fd, f, sizeof(f)) != (ssize_t)sizeof(f))
			break;
	cycles = rte_rdtsc_precise() - t0;
	close(sk);
	close(fd);
	if (i != frames) {
		*why = "write to the TAP failed";
		return -1;
	}
	return (double)cycles / frames;
}

int
main(int argc, char **argv)
{
	char *eal[] = {
		argv[0], (char *)"--no-huge", (char *)"-m", (char *)"512", (char *)"--no-pci",
		(char *)"--no-shconf", (char *)"--file-prefix=bench_ipoib", (char *)"-l",
		(char *)"0", (char *)"--log-level=lib.eal:error", NULL,
	};
	static const uint32_t sizes[] = { 1, 1000, 100000 };
	unsigned int iters = ITERS_MIN, k;
	const char *why = NULL;
	double tap, timer;
	int fail = 0;

	uint32_t only = 0;
	void *obj;

	/* [--hugepages] [bursts per figure [one table size]] */
	if (argc > 1 && strcmp(argv[1], "--hugepages") == 0) {
		eal[1] = (char *)"--in-memory";
		eal[3] = (char *)"64";
		argv++;
		argc--;
	}
	if (argc > 1)
		iters = (unsigned int)strtoul(argv[1], NULL, 0);
	if (argc > 2)
		only = (uint32_t)strtoul(argv[2], NULL, 0);
	if (rte_eal_init(RTE_DIM(eal) - 1, eal) < 0) {
		printf("bench_ipoib: EAL initialisation failed: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	samples = calloc(iters, sizeof(*samples));
	if (samples == NULL)
		return 1;
	pool = rte_pktmbuf_pool_create("bench", 4096, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				       SOCKET_ID_ANY);
	if (pool == NULL)
		return 1;
	if (iters < SPAN) {
		printf("bench_ipoib: at least %d bursts per figure\n", SPAN);
		return 1;
	}
	if (rte_mempool_get(pool, &obj) != 0)
		return 1;
	printf("bench_ipoib: 1 core, burst %d, %u bursts per figure timed %d at a time "
	       "(median span), TSC %.2f GHz, mbufs on %zu KiB pages\n",
	       BURST, iters, SPAN, rte_get_tsc_hz() / 1e9,
	       (size_t)(rte_mem_virt2memseg_list(obj)->page_sz >> 10));
	rte_mempool_put(pool, obj);
	/*
	 * The sizes with consecutive GUIDs (the goal's figures), then 1,000
	 * and 100,000 with random ones; one table size given by hand: that
	 * size only, any size, consecutive.
	 */
	for (k = 0; k < (only != 0 ? 1 : RTE_DIM(sizes) + 2); k++) {
		uint32_t n = only != 0 ? only : k < RTE_DIM(sizes) ? sizes[k] :
			k == RTE_DIM(sizes) ? 1000 : 100000;
		const char *kind;
		struct setup s;
		double enc, dec, enc_c, dec_c, own, rh;

		random_guids = only == 0 && k >= RTE_DIM(sizes);
		kind = random_guids ? "random GUIDs" : "";
		if (setup(&s, n) != 0) {
			printf("neighbours %u %s: setup failed\n", n, kind);
			return 1;
		}
		enc = bench_encap(&s, iters, HOT);
		dec = bench_decap(&s, iters, HOT);
		enc_c = bench_encap(&s, iters, COLD);
		dec_c = bench_decap(&s, iters, COLD);
		bench_lookup(&s, iters, &own, &rh);
		printf("neighbours %6u%s%s: encap %6.1f cycles/pkt, decap %6.1f cycles/pkt "
		       "(goal <= 20: %s); MAC lookup alone, bulk of 32: own index %5.1f, "
		       "rte_hash LF %5.1f cycles/key\n", n, *kind ? " " : "", kind, enc, dec,
		       enc <= 20 && dec <= 20 ? "met" : "missed", own, rh);
		printf("neighbours %6u%s%s, packets not in L1 (written %d bursts before): "
		       "encap %6.1f cycles/pkt, decap %6.1f cycles/pkt (goal <= 20: %s)\n",
		       n, *kind ? " " : "", kind, COLD_BURSTS, enc_c, dec_c,
		       enc_c <= 20 && dec_c <= 20 ? "met" : "missed");
		if (enc < 0 || dec < 0 || enc_c < 0 || dec_c < 0 || own < 0)
			fail = 1;
		teardown(&s);
	}
	timer = bench_timer(iters);
	printf("timing: %.0f cycles for the TSC reads around a span of %d bursts (%.2f per "
	       "packet, included in the figures above)\n", timer, SPAN, timer / (SPAN * BURST));
	tap = bench_kernel_tap(iters, &why);
	if (tap < 0)
		printf("kernel TAP path: not measured: %s\n", why);
	else
		printf("kernel TAP path (write() of the same 74-byte frame into a TAP, "
		       "kernel receive and IP input): %.0f cycles/pkt\n", tap);
	rte_mempool_free(pool);
	rte_eal_cleanup();
	return fail;
}
