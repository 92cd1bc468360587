/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * ipoib_host: a DPDK host on net_mthca with one IPoIB interface
 * (rte_ipoib_if.h, Ethernet view) on its port, for test_ipoib_if.py.
 * The main thread polls the interface's queue 0 and reads commands on
 * stdin, one answer block per command:
 *
 *   host -> "READY name=.. lid=.. qpn=0x.. mac=.." once created and started
 *   test -> "INFO"    <- "OK link=<0|1> lid=.. qpn=0x.. qkey=0x.. mtu=.. ud_mtu=..
 *                         pkey=0x.. mac=..:..:.."
 *   test -> "ARP <ip>"  an Ethernet ARP request who-has <ip> from 10.0.0.<lid>,
 *                       to ff:ff:ff:ff:ff:ff  <- "OK sent=<0|1>"
 *   test -> "UDP <mac> <count>"  IPv4/UDP frames of 100 bytes to <mac>
 *                       <- "OK consumed=<n>"
 *   test -> "RX"      <- "OK arp=<n> ipv4=<n> other=<n> arp_src=<mac> ipv4_src=<mac>"
 *                       (frames received, last source MACs)
 *   test -> "STATS"   <- "OK neigh_added=.. path_queries=.. path_errors=..
 *                         path_refused=.. mcast_joins=.. mcast_errors=.. link_changes=..
 *                         events=.. ctrl_tx=.. looped=.. no_neigh=.. queued=.."
 *   test -> "IP4 <ip> <count>"  (mode l3) bare IPv4/UDP packets to <ip>
 *                       <- "OK consumed=<n>"
 *   test -> "MADD <ip>" | "MDEL <ip>"  rte_ipoib_if_mcast_add()/del() of an
 *                       IPv4 or IPv6 group  <- "OK" or "ERR <errno>"
 *   test -> "MLD <ipv6 group>"  (mode eth) an MLDv2 report, CHANGE_TO_EXCLUDE
 *                       of no source (a listener joins), to ff02::16
 *                       <- "OK sent=<0|1>"
 *   test -> "CHILD <pkey hex>"  a child interface on that P_Key, created and
 *                       started  <- "OK name=.. pkey=0x.. pkey_index=.. lower=.."
 *   test -> "UNCHILD"   the child destroyed
 *   test -> "USE <0|1>" the following commands are for the parent (0) or child
 *   test -> "QUIT"
 *
 * Arguments after the EAL's: "l3 <a.b.c.d>" makes the interface's view
 * L3 with that local address (rte_ipoib_if_addr_set()).
 */

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_ib_dev.h>
#include <rte_ib_mbuf.h>
#include <rte_mbuf.h>

#include <rte_ipoib_if.h>

/* The parent, a child; ifp: the one commands are for ("USE"). */
static struct rte_ipoib_if *ifs[2], *ifp;
static unsigned int cur;
static struct rte_mempool *pool;
static uint64_t nb_arp[2], nb_ipv4[2], nb_other[2];
static bool l3;
static uint8_t local_ip[4];
static char arp_src[2][24] = { "none", "none" }, ipv4_src[2][24] = { "none", "none" };

static void
mac_str(const uint8_t *m, char *s, size_t n)
{
	snprintf(s, n, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
}

static void
poll_one(unsigned int k)
{
	struct rte_mbuf *m[32];
	uint16_t n, i;

	n = rte_ipoib_if_rx_burst(ifs[k], 0, m, RTE_DIM(m));
	for (i = 0; i < n; i++) {
		const uint8_t *e = rte_pktmbuf_mtod(m[i], const uint8_t *);
		uint16_t type = (uint16_t)(e[12] << 8 | e[13]);

		if (l3) {
			if ((e[0] >> 4) == 4)
				nb_ipv4[k]++;
			else
				nb_other[k]++;
			continue;
		}
		if (type == RTE_ETHER_TYPE_ARP) {
			nb_arp[k]++;
			mac_str(e + 6, arp_src[k], sizeof(arp_src[k]));
		} else if (type == RTE_ETHER_TYPE_IPV4) {
			nb_ipv4[k]++;
			mac_str(e + 6, ipv4_src[k], sizeof(ipv4_src[k]));
		} else {
			nb_other[k]++;
		}
	}
	rte_pktmbuf_free_bulk(m, n);
	/* Nothing to send: queue 0 still sends what the control side queued. */
	rte_ipoib_if_tx_burst(ifs[k], 0, NULL, 0);
}

static void
poll_rx(void)
{
	unsigned int k;

	for (k = 0; k < RTE_DIM(ifs); k++)
		if (ifs[k] != NULL)
			poll_one(k);
}

static void
do_info(void)
{
	struct rte_ipoib_if_info in;
	char mac[24];

	if (rte_ipoib_if_info_get(ifp, &in) != 0) {
		printf("ERR info: %s\n", rte_strerror(rte_errno));
		return;
	}
	mac_str(in.mac.addr_bytes, mac, sizeof(mac));
	printf("OK link=%d lid=%u qpn=0x%06x qkey=0x%08x mtu=%u ud_mtu=%u pkey=0x%04x "
	       "pkey_index=%u mac=%s name=%s\n", in.link_up, in.lid,
	       rte_ipoib_hwaddr_qpn(&in.hwaddr), in.qkey, in.mtu, in.ud_mtu, in.pkey,
	       in.pkey_index, mac, in.name);
}

static struct rte_mbuf *
frame(const uint8_t *dst, uint16_t type, size_t len, uint8_t **body)
{
	struct rte_ipoib_if_info in;
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	uint8_t *e;

	if (m == NULL || rte_ipoib_if_info_get(ifp, &in) != 0)
		return NULL;
	e = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)(14 + len));
	memcpy(e, dst, 6);
	memcpy(e + 6, in.mac.addr_bytes, 6);
	e[12] = type >> 8;
	e[13] = type & 0xff;
	memset(e + 14, 0, len);
	*body = e + 14;
	return m;
}

static void
do_arp(unsigned int a, unsigned int b, unsigned int c, unsigned int d)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	struct rte_ipoib_if_info in;
	struct rte_mbuf *m;
	uint8_t *p;

	rte_ipoib_if_info_get(ifp, &in);
	m = frame(bcast, RTE_ETHER_TYPE_ARP, 28, &p);
	if (m == NULL) {
		printf("ERR no mbuf\n");
		return;
	}
	/* RFC 826 over Ethernet: lib/ipoib rewrites it to the RFC 4391 form. */
	p[1] = 1;
	p[2] = 0x08;
	p[4] = 6;
	p[5] = 4;
	p[7] = 1;
	memcpy(p + 8, in.mac.addr_bytes, 6);
	p[14] = 10;
	p[17] = (uint8_t)in.lid;
	p[24] = a;
	p[25] = b;
	p[26] = c;
	p[27] = d;
	printf("OK sent=%u\n", rte_ipoib_if_tx_burst(ifp, 0, &m, 1));
}

static void
do_udp(const char *mac, unsigned int count)
{
	unsigned int v[6], i, done = 0;
	uint8_t dst[6];
	struct rte_mbuf *m;
	uint8_t *p;

	if (sscanf(mac, "%x:%x:%x:%x:%x:%x", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) != 6) {
		printf("ERR mac %s\n", mac);
		return;
	}
	for (i = 0; i < 6; i++)
		dst[i] = (uint8_t)v[i];
	for (i = 0; i < count; i++) {
		m = frame(dst, RTE_ETHER_TYPE_IPV4, 100, &p);
		if (m == NULL)
			break;
		p[0] = 0x45;
		p[3] = 100;
		p[8] = 64;
		p[9] = 17;
		p[12] = 10;
		p[15] = 1;
		p[16] = 10;
		p[19] = 2;
		p[25] = 80;    /* UDP length */
		done += rte_ipoib_if_tx_burst(ifp, 0, &m, 1);
		poll_rx();
	}
	printf("OK consumed=%u\n", done);
}

static void
do_ip4(unsigned int a, unsigned int b, unsigned int c, unsigned int d, unsigned int count)
{
	unsigned int i, done = 0;
	struct rte_mbuf *m;
	uint8_t *p;

	for (i = 0; i < count; i++) {
		m = rte_pktmbuf_alloc(pool);
		if (m == NULL)
			break;
		p = (uint8_t *)rte_pktmbuf_append(m, 100);
		if (p == NULL) {
			rte_pktmbuf_free(m);
			break;
		}
		memset(p, 0, 100);
		p[0] = 0x45;
		p[3] = 100;
		p[8] = 64;
		p[9] = 17;
		memcpy(p + 12, local_ip, 4);
		p[16] = a;
		p[17] = b;
		p[18] = c;
		p[19] = d;
		p[25] = 80;
		m->packet_type = RTE_PTYPE_L3_IPV4;
		done += rte_ipoib_if_tx_burst(ifp, 0, &m, 1);
		poll_rx();
	}
	printf("OK consumed=%u\n", done);
}

/* A child on P_Key @p pkey, created and started at run time. */
static void
do_child(const struct rte_ipoib_if_conf *parent, unsigned int pkey)
{
	struct rte_ipoib_if_conf c = *parent;
	struct rte_ipoib_if_info in;

	if (ifs[1] != NULL) {
		printf("ERR a child exists\n");
		return;
	}
	c.pkey = (uint16_t)pkey;
	ifs[1] = rte_ipoib_if_create(&c);
	if (ifs[1] == NULL || rte_ipoib_if_start(ifs[1]) != 0) {
		printf("ERR child: %s\n", rte_strerror(rte_errno));
		rte_ipoib_if_destroy(ifs[1]);
		ifs[1] = NULL;
		return;
	}
	rte_ipoib_if_info_get(ifs[1], &in);
	printf("OK name=%s pkey=0x%04x pkey_index=%u lower=%u\n", in.name, in.pkey, in.pkey_index,
	       in.lower_port_id);
}

static void
do_unchild(void)
{
	if (cur == 1) {
		cur = 0;
		ifp = ifs[0];
	}
	rte_ipoib_if_destroy(ifs[1]);
	ifs[1] = NULL;
	nb_arp[1] = nb_ipv4[1] = nb_other[1] = 0;
	printf("OK\n");
}

/* 16 bytes of @p text: an IPv6 address, or IPv4 as ::ffff:a.b.c.d. */
static int
ip_parse(const char *text, uint8_t ip[16])
{
	memset(ip, 0, 16);
	if (inet_pton(AF_INET, text, ip + 12) == 1) {
		ip[10] = 0xff;
		ip[11] = 0xff;
		return 0;
	}
	return inet_pton(AF_INET6, text, ip) == 1 ? 0 : -1;
}

static void
do_mcast(const char *text, bool add)
{
	uint8_t ip[16];
	int rc;

	if (ip_parse(text, ip) != 0) {
		printf("ERR address %s\n", text);
		return;
	}
	rc = add ? rte_ipoib_if_mcast_add(ifp, ip) : rte_ipoib_if_mcast_del(ifp, ip);
	if (rc != 0)
		printf("ERR %s\n", rte_strerror(rte_errno));
	else
		printf("OK\n");
}

/* RFC 3810 5.2: one record, CHANGE_TO_EXCLUDE_MODE with no source. */
static void
do_mld(const char *text)
{
	static const uint8_t dst[6] = { 0x33, 0x33, 0, 0, 0, 0x16 };
	uint8_t g[16], *p;
	struct rte_mbuf *m;
	uint32_t sum = 0;
	unsigned int i;

	if (ip_parse(text, g) != 0 || g[0] != 0xff) {
		printf("ERR group %s\n", text);
		return;
	}
	m = frame(dst, RTE_ETHER_TYPE_IPV6, 40 + 8 + 28, &p);
	if (m == NULL) {
		printf("ERR no mbuf\n");
		return;
	}
	p[0] = 0x60;
	p[5] = 8 + 28;
	p[6] = 0;            /* Hop-by-Hop, Router Alert (RFC 2711) */
	p[7] = 1;
	p[8] = 0xfe;         /* fe80::1 */
	p[9] = 0x80;
	p[23] = 1;
	p[24] = 0xff;        /* ff02::16 */
	p[25] = 0x02;
	p[39] = 0x16;
	p[40] = 58;
	p[42] = 5;
	p[43] = 2;
	p[48] = 143;
	p[55] = 1;
	p[56] = 4;
	memcpy(p + 60, g, 16);
	/* ICMPv6 checksum over the pseudo-header and the 28 bytes. */
	for (i = 8; i < 40; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	sum += 28 + 58;
	for (i = 48; i < 76; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	sum = ~sum & 0xffff;
	p[50] = sum >> 8;
	p[51] = sum & 0xff;
	printf("OK sent=%u\n", rte_ipoib_if_tx_burst(ifp, 0, &m, 1));
}

static void
do_stats(void)
{
	struct rte_ipoib_if_stats st;

	if (rte_ipoib_if_stats_get(ifp, &st) != 0) {
		printf("ERR stats\n");
		return;
	}
	printf("OK neigh_added=%" PRIu64 " path_queries=%" PRIu64 " path_errors=%" PRIu64
	       " path_refused=%" PRIu64 " mcast_joins=%" PRIu64 " mcast_errors=%" PRIu64
	       " link_changes=%" PRIu64 " events=%" PRIu64 " ctrl_tx=%" PRIu64
	       " looped=%" PRIu64 " no_neigh=%" PRIu64 " queued=%" PRIu64
	       " arp_answered=%" PRIu64 " ctrl_drops=%" PRIu64 "\n",
	       st.neigh_added, st.path_queries, st.path_errors, st.path_refused, st.mcast_joins,
	       st.mcast_errors, st.link_changes, st.events, st.ctrl_tx,
	       st.dp.drops[RTE_IPOIB_DROP_LOOPED], st.dp.drops[RTE_IPOIB_DROP_NO_NEIGH],
	       st.dp.queued, st.arp_answered, st.ctrl_drops);
}

int
main(int argc, char **argv)
{
	struct rte_ipoib_if_conf conf;
	struct rte_ipoib_if_info in;
	struct pollfd pfd = { .fd = 0, .events = POLLIN };
	char line[256], arg[64];
	unsigned int a, b, c, d, e;
	char mac[24];
	int i;

	i = rte_eal_init(argc, argv);
	if (i < 0) {
		printf("ERR rte_eal_init: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	pool = rte_pktmbuf_pool_create("ipoib_host", 4095, 64, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				       rte_socket_id());
	memset(&conf, 0, sizeof(conf));
	conf.ib_port_id = 0;
	l3 = i + 2 < argc && strcmp(argv[i + 1], "l3") == 0 &&
		inet_pton(AF_INET, argv[i + 2], local_ip) == 1;
	conf.mode = l3 ? RTE_IPOIB_MODE_L3 : RTE_IPOIB_MODE_ETH;
	conf.nb_rx_queues = 1;
	conf.nb_tx_queues = 2;
	conf.mp = pool;
	ifp = pool == NULL ? NULL : rte_ipoib_if_create(&conf);
	ifs[0] = ifp;
	if (ifp == NULL || rte_ipoib_if_start(ifp) != 0) {
		printf("ERR interface: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	if (l3) {
		uint8_t a6[16] = { [10] = 0xff, [11] = 0xff };

		memcpy(a6 + 12, local_ip, 4);
		if (rte_ipoib_if_addr_set(ifp, a6, false) != 0) {
			printf("ERR address: %s\n", rte_strerror(rte_errno));
			return 1;
		}
	}
	rte_ipoib_if_info_get(ifp, &in);
	mac_str(in.mac.addr_bytes, mac, sizeof(mac));
	printf("READY name=%s lid=%u qpn=0x%06x mac=%s\n", in.name, in.lid,
	       rte_ipoib_hwaddr_qpn(&in.hwaddr), mac);
	for (;;) {
		poll_rx();
		if (poll(&pfd, 1, 1) <= 0)
			continue;
		if (fgets(line, sizeof(line), stdin) == NULL)
			break;
		if (sscanf(line, "CHILD %x", &a) == 1)
			do_child(&conf, a);
		else if (strncmp(line, "UNCHILD", 7) == 0)
			do_unchild();
		else if (sscanf(line, "USE %u", &a) == 1 && a < 2 && ifs[a] != NULL)
			ifp = ifs[cur = a], printf("OK\n");
		else if (strncmp(line, "INFO", 4) == 0)
			do_info();
		else if (sscanf(line, "ARP %u.%u.%u.%u", &a, &b, &c, &d) == 4)
			do_arp(a, b, c, d);
		else if (sscanf(line, "IP4 %u.%u.%u.%u %u", &a, &b, &c, &d, &e) == 5)
			do_ip4(a, b, c, d, e);
		else if (sscanf(line, "MADD %63s", arg) == 1)
			do_mcast(arg, true);
		else if (sscanf(line, "MDEL %63s", arg) == 1)
			do_mcast(arg, false);
		else if (sscanf(line, "MLD %63s", arg) == 1)
			do_mld(arg);
		else if (sscanf(line, "UDP %63s %u", arg, &a) == 2)
			do_udp(arg, a);
		else if (strncmp(line, "RX", 2) == 0)
			printf("OK arp=%" PRIu64 " ipv4=%" PRIu64 " other=%" PRIu64
			       " arp_src=%s ipv4_src=%s\n", nb_arp[cur], nb_ipv4[cur], nb_other[cur],
			       arp_src[cur], ipv4_src[cur]);
		else if (strncmp(line, "STATS", 5) == 0)
			do_stats();
		else if (strncmp(line, "QUIT", 4) == 0)
			break;
		else
			printf("ERR unknown command: %s", line);
	}
	rte_ipoib_if_destroy(ifs[1]);
	rte_ipoib_if_destroy(ifs[0]);
	rte_eal_cleanup();
	printf("OK bye\n");
	return 0;
}
