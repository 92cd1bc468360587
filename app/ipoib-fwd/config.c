/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The app's command line (after EAL's "--"): every option checked before
 * any port is touched; a bad one is refused naming the option and the value.
 */

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "ipoib_fwd.h"

struct fwd_config fwd_cfg = {
	.mode = FWD_MODE_IO,
	.burst = FWD_DEF_BURST,
	.nb_queues = 1,
	.nb_rxd = FWD_DEF_RXD,
	.nb_txd = FWD_DEF_TXD,
	.txonly_len = FWD_DEF_TXONLY_LEN,
	.link_timeout = FWD_DEF_LINK_TIMEOUT,
};

static const char *const mode_names[FWD_MODE_COUNT] = {
	[FWD_MODE_IO] = "io",
	[FWD_MODE_RXONLY] = "rxonly",
	[FWD_MODE_TXONLY] = "txonly",
	[FWD_MODE_ADDRSWAP] = "addrswap",
	[FWD_MODE_ROUTE] = "route",
};

/* --txonly-ip-dst given: --txonly-dest-ip would overwrite it */
static bool ip_dst_given;

enum {
	OPT_NB_CORES = 256,
	OPT_FWD_MODE,
	OPT_STATS_PERIOD,
	OPT_BURST,
	OPT_RXQ,
	OPT_RXD,
	OPT_TXD,
	OPT_TXONLY_DEST,
	OPT_TXONLY_DEST_IP,
	OPT_TXONLY_LEN,
	OPT_TXONLY_COUNT,
	OPT_TXONLY_PPS,
	OPT_TXONLY_IP_SRC,
	OPT_TXONLY_IP_DST,
	OPT_RECORD_CYCLES,
	OPT_IDLE_YIELD,
	OPT_LINK_TIMEOUT,
	OPT_REPLY_QPN,
	OPT_ROUTE,
};

static const struct option long_opts[] = {
	{ "portmask", required_argument, NULL, 'p' },
	{ "nb-cores", required_argument, NULL, OPT_NB_CORES },
	{ "forward-mode", required_argument, NULL, OPT_FWD_MODE },
	{ "stats-period", required_argument, NULL, OPT_STATS_PERIOD },
	{ "burst", required_argument, NULL, OPT_BURST },
	{ "rxq", required_argument, NULL, OPT_RXQ },
	{ "rxd", required_argument, NULL, OPT_RXD },
	{ "txd", required_argument, NULL, OPT_TXD },
	{ "txonly-dest", required_argument, NULL, OPT_TXONLY_DEST },
	{ "txonly-dest-ip", required_argument, NULL, OPT_TXONLY_DEST_IP },
	{ "txonly-len", required_argument, NULL, OPT_TXONLY_LEN },
	{ "txonly-count", required_argument, NULL, OPT_TXONLY_COUNT },
	{ "txonly-pps", required_argument, NULL, OPT_TXONLY_PPS },
	{ "txonly-ip-src", required_argument, NULL, OPT_TXONLY_IP_SRC },
	{ "txonly-ip-dst", required_argument, NULL, OPT_TXONLY_IP_DST },
	{ "record-core-cycles", no_argument, NULL, OPT_RECORD_CYCLES },
	{ "idle-yield", no_argument, NULL, OPT_IDLE_YIELD },
	{ "link-timeout", required_argument, NULL, OPT_LINK_TIMEOUT },
	{ "reply-qpn", required_argument, NULL, OPT_REPLY_QPN },
	{ "route", required_argument, NULL, OPT_ROUTE },
	{ "interactive", no_argument, NULL, 'i' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

void
fwd_config_usage(const char *prog)
{
	printf("usage: %s [EAL options] -- [options]\n"
	       "  -p, --portmask=HEX        ports to use (default: all)\n"
	       "  --nb-cores=N              forwarding lcores (default: every worker lcore)\n"
	       "  --forward-mode=MODE       io, rxonly, txonly, addrswap, route (default io)\n"
	       "  --route=ETH:L3            route: IP between Ethernet port ETH and L3 port\n"
	       "                            L3 (net_ipoib mode=l3, net_tun); repeatable\n"
	       "  --stats-period=SEC        print statistics every SEC seconds\n"
	       "  --burst=N                 packets per burst, 1..%d (default %d)\n"
	       "  --rxq=N                   rx and tx queues per port, 1..%d (default 1)\n"
	       "  --rxd=N, --txd=N          ring sizes (default %d, %d)\n"
	       "  --txonly-dest=LID:QPN[:QKEY]  IB destination of txonly and io on IB ports\n"
	       "  --txonly-dest-ip=IP       txonly to IPv4/IPv6 address IP on an L3 port (net_ipoib\n"
	       "                            mode=l3 resolves it through lib/ipoib first)\n"
	       "  --txonly-len=N            IPoIB payload bytes, %d..4096 (default %d)\n"
	       "  --txonly-count=N          datagrams per stream, then stop sending\n"
	       "  --txonly-pps=N            pace each stream to N datagrams/s\n"
	       "  --txonly-ip-src=IP, --txonly-ip-dst=IP  addresses of txonly (IPv6 source\n"
	       "                            with an IPv6 --txonly-dest-ip)\n"
	       "  --reply-qpn=QPN           addrswap: reply to this QPN, not the source QPN\n"
	       "  --record-core-cycles      count TSC cycles per packet\n"
	       "  --idle-yield              yield the CPU after a pass that moved nothing\n"
	       "  --link-timeout=SEC        wait this long for the links (default %d)\n"
	       "  -i, --interactive         prompt (show port stats|xstats|info, show ib port,\n"
	       "                            show ipoib neigh|path|mcast, start, stop, quit)\n",
	       prog, FWD_MAX_BURST, FWD_DEF_BURST, FWD_MAX_QUEUES, FWD_DEF_RXD, FWD_DEF_TXD,
	       FWD_MIN_TXONLY_LEN, FWD_DEF_TXONLY_LEN, FWD_DEF_LINK_TIMEOUT);
}

/*
 * @p s as an unsigned number in [@p min, @p max] (base 0: decimal, 0x hex),
 * or -1 with "--@p opt=@p s: ..." logged.
 */
static int
parse_uint(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
	char *end;

	errno = 0;
	if (*s == '\0' || *s == '-' || *s == '+') {
		FWD_LOG(ERR, "--%s=%s: not a number", opt, s);
		return -1;
	}
	*v = strtoull(s, &end, 0);
	if (errno != 0 || *end != '\0') {
		FWD_LOG(ERR, "--%s=%s: not a number", opt, s);
		return -1;
	}
	if (*v < min || *v > max) {
		FWD_LOG(ERR, "--%s=%s: out of range %" PRIu64 "..%" PRIu64, opt, s, min, max);
		return -1;
	}
	return 0;
}

static int
parse_ipv4(const char *opt, const char *s, uint32_t *ip)
{
	struct in_addr a;

	if (inet_pton(AF_INET, s, &a) != 1) {
		FWD_LOG(ERR, "--%s=%s: not an IPv4 address", opt, s);
		return -1;
	}
	*ip = a.s_addr;
	return 0;
}

/*
 * --txonly-ip-src: IPv4, or IPv6 (then used with an IPv6 --txonly-dest-ip).
 */
static int
parse_ip_src(const char *s)
{
	struct in6_addr a6;

	if (inet_pton(AF_INET6, s, &a6) == 1) {
		memcpy(fwd_cfg.ip6_src, &a6, 16);
		return 0;
	}
	if (strchr(s, ':') != NULL) {
		FWD_LOG(ERR, "--txonly-ip-src=%s: not an IPv4 or IPv6 address", s);
		return -1;
	}
	return parse_ipv4("txonly-ip-src", s, &fwd_cfg.ip_src);
}

int
fwd_config_dest_ip(const char *s)
{
	struct in6_addr a6;
	struct in_addr a4;

	if (inet_pton(AF_INET, s, &a4) == 1) {
		const uint8_t *b = (const uint8_t *)&a4.s_addr;

		if (b[0] >= 224 || b[0] == 0 || b[0] == 127) {
			FWD_LOG(ERR, "--txonly-dest-ip=%s: not a unicast address", s);
			return -1;
		}
		memset(fwd_cfg.dest_ip, 0, 10);
		fwd_cfg.dest_ip[10] = fwd_cfg.dest_ip[11] = 0xff;
		memcpy(fwd_cfg.dest_ip + 12, &a4.s_addr, 4);
		fwd_cfg.ip_dst = a4.s_addr;
		fwd_cfg.ip6 = false;
	} else if (inet_pton(AF_INET6, s, &a6) == 1) {
		static const uint8_t zero[16];

		/* RFC 4291 2.5.2, 2.5.3, 2.7: no unspecified, loopback, multicast */
		if (a6.s6_addr[0] == 0xff || memcmp(a6.s6_addr, zero, 16) == 0 ||
		    (memcmp(a6.s6_addr, zero, 15) == 0 && a6.s6_addr[15] == 1)) {
			FWD_LOG(ERR, "--txonly-dest-ip=%s: not a unicast address", s);
			return -1;
		}
		memcpy(fwd_cfg.dest_ip, &a6, 16);
		memcpy(fwd_cfg.ip6_dst, &a6, 16);
		fwd_cfg.ip6 = true;
	} else {
		FWD_LOG(ERR, "--txonly-dest-ip=%s: not an IPv4 or IPv6 address", s);
		return -1;
	}
	fwd_cfg.dest_ip_set = true;
	return 0;
}

/*
 * --route=ETH:L3, two ethdev port ids; each port in one route at most
 * (whether they exist and have the right kind is checked with the ports).
 */
static int
parse_route(const char *s)
{
	unsigned long eth, l3;
	char *end;
	unsigned int i;

	if (fwd_cfg.nb_routes == FWD_MAX_ROUTES) {
		FWD_LOG(ERR, "--route=%s: more than %u routes", s, FWD_MAX_ROUTES);
		return -1;
	}
	errno = 0;
	eth = strtoul(s, &end, 10);
	if (!isdigit((unsigned char)*s) || *end != ':' || errno != 0) {
		FWD_LOG(ERR, "--route=%s: not ETH_PORT:L3_PORT (two port ids)", s);
		return -1;
	}
	l3 = strtoul(end + 1, &end, 10);
	if (!isdigit((unsigned char)s[strcspn(s, ":") + 1]) || *end != '\0' || errno != 0) {
		FWD_LOG(ERR, "--route=%s: not ETH_PORT:L3_PORT (two port ids)", s);
		return -1;
	}
	if (eth >= RTE_MAX_ETHPORTS || l3 >= RTE_MAX_ETHPORTS) {
		FWD_LOG(ERR, "--route=%s: port ids are 0..%u", s, RTE_MAX_ETHPORTS - 1);
		return -1;
	}
	if (eth == l3) {
		FWD_LOG(ERR, "--route=%s: the Ethernet and the L3 port are the same", s);
		return -1;
	}
	for (i = 0; i < fwd_cfg.nb_routes; i++)
		if (fwd_cfg.routes[i].eth == eth || fwd_cfg.routes[i].l3 == eth ||
		    fwd_cfg.routes[i].eth == l3 || fwd_cfg.routes[i].l3 == l3) {
			FWD_LOG(ERR, "--route=%s: a port of --route=%u:%u already", s,
				fwd_cfg.routes[i].eth, fwd_cfg.routes[i].l3);
			return -1;
		}
	fwd_cfg.routes[fwd_cfg.nb_routes].eth = (uint16_t)eth;
	fwd_cfg.routes[fwd_cfg.nb_routes].l3 = (uint16_t)l3;
	fwd_cfg.nb_routes++;
	return 0;
}

/* A field of --txonly-dest=@p s: a number in [@p min, @p max], or -1 naming it. */
static int
dest_field(const char *s, const char *what, const char *f, uint64_t min, uint64_t max,
	   uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(f, &end, 0);
	if (*f == '\0' || *f == '-' || *f == '+' || errno != 0 || *end != '\0' ||
	    *v < min || *v > max) {
		FWD_LOG(ERR, "--txonly-dest=%s: %s \"%s\" is not a number in 0x%" PRIx64
			"..0x%" PRIx64, s, what, f, min, max);
		return -1;
	}
	return 0;
}

/* LID:QPN[:QKEY] (IBA 4.1.3: unicast LIDs 1..0xbfff; 9.7.5.1.1: 24-bit QPNs) */
int
fwd_config_dest(const char *s)
{
	char buf[64], *f[3], *p;
	unsigned int n = 0;
	uint64_t lid, qpn, qkey = 0;

	if (strlen(s) >= sizeof(buf)) {
		FWD_LOG(ERR, "--txonly-dest=%s: not LID:QPN[:QKEY]", s);
		return -1;
	}
	strcpy(buf, s);
	for (p = buf, f[n++] = p; (p = strchr(p, ':')) != NULL; f[n++] = ++p) {
		*p = '\0';
		if (n == RTE_DIM(f)) {
			n++;
			break;
		}
	}
	if (n < 2 || n > RTE_DIM(f)) {
		FWD_LOG(ERR, "--txonly-dest=%s: not LID:QPN[:QKEY]", s);
		return -1;
	}
	if (dest_field(s, "LID", f[0], RTE_IB_LID_UNICAST_MIN, RTE_IB_LID_UNICAST_MAX,
		       &lid) != 0 ||
	    /* QP0 and QP1 are the management QPs: not a datagram destination here */
	    dest_field(s, "QPN", f[1], 2, 0xffffff, &qpn) != 0 ||
	    (n == 3 && dest_field(s, "Q_Key", f[2], 0, UINT32_MAX, &qkey) != 0))
		return -1;
	fwd_cfg.dest_lid = (uint16_t)lid;
	fwd_cfg.dest_qpn = (uint32_t)qpn;
	fwd_cfg.dest_qkey = (uint32_t)qkey;
	fwd_cfg.dest_qkey_set = n == 3;
	fwd_cfg.dest_set = true;
	return 0;
}

static int
parse_mode(const char *s)
{
	unsigned int i;

	for (i = 0; i < FWD_MODE_COUNT; i++)
		if (strcmp(s, mode_names[i]) == 0) {
			fwd_cfg.mode = (enum fwd_mode)i;
			return 0;
		}
	FWD_LOG(ERR, "--forward-mode=%s: not one of io, rxonly, txonly, addrswap, route", s);
	return -1;
}

static int
parse_one(int c, const char *arg)
{
	uint64_t v;

	switch (c) {
	case 'p':
		if (parse_uint("portmask", arg, 1, UINT64_MAX, &v) != 0)
			return -1;
		fwd_cfg.portmask = v;
		return 0;
	case OPT_NB_CORES:
		if (parse_uint("nb-cores", arg, 1, RTE_MAX_LCORE, &v) != 0)
			return -1;
		fwd_cfg.nb_cores = (unsigned int)v;
		return 0;
	case OPT_FWD_MODE:
		return parse_mode(arg);
	case OPT_STATS_PERIOD:
		if (parse_uint("stats-period", arg, 0, 3600, &v) != 0)
			return -1;
		fwd_cfg.stats_period = (unsigned int)v;
		return 0;
	case OPT_BURST:
		if (parse_uint("burst", arg, 1, FWD_MAX_BURST, &v) != 0)
			return -1;
		fwd_cfg.burst = (uint16_t)v;
		return 0;
	case OPT_RXQ:
		if (parse_uint("rxq", arg, 1, FWD_MAX_QUEUES, &v) != 0)
			return -1;
		fwd_cfg.nb_queues = (uint16_t)v;
		return 0;
	case OPT_RXD:
	case OPT_TXD:
		if (parse_uint(c == OPT_RXD ? "rxd" : "txd", arg, 32, 16384, &v) != 0)
			return -1;
		if (c == OPT_RXD)
			fwd_cfg.nb_rxd = (uint16_t)v;
		else
			fwd_cfg.nb_txd = (uint16_t)v;
		return 0;
	case OPT_TXONLY_DEST:
		return fwd_config_dest(arg);
	case OPT_REPLY_QPN:
		if (parse_uint("reply-qpn", arg, 2, 0xffffff, &v) != 0)
			return -1;
		fwd_cfg.reply_qpn = (uint32_t)v;
		return 0;
	case OPT_TXONLY_DEST_IP:
		return fwd_config_dest_ip(arg);
	case OPT_ROUTE:
		return parse_route(arg);
	case OPT_TXONLY_LEN:
		if (parse_uint("txonly-len", arg, FWD_MIN_TXONLY_LEN, 4096, &v) != 0)
			return -1;
		fwd_cfg.txonly_len = (uint16_t)v;
		return 0;
	case OPT_TXONLY_COUNT:
		if (parse_uint("txonly-count", arg, 1, UINT64_MAX, &v) != 0)
			return -1;
		fwd_cfg.txonly_count = v;
		return 0;
	case OPT_TXONLY_PPS:
		if (parse_uint("txonly-pps", arg, 1, 1000000000, &v) != 0)
			return -1;
		fwd_cfg.txonly_pps = v;
		return 0;
	case OPT_TXONLY_IP_SRC:
		return parse_ip_src(arg);
	case OPT_TXONLY_IP_DST:
		ip_dst_given = true;
		return parse_ipv4("txonly-ip-dst", arg, &fwd_cfg.ip_dst);
	case OPT_RECORD_CYCLES:
		fwd_cfg.record_cycles = true;
		return 0;
	case OPT_IDLE_YIELD:
		fwd_cfg.idle_yield = true;
		return 0;
	case OPT_LINK_TIMEOUT:
		if (parse_uint("link-timeout", arg, 0, 3600, &v) != 0)
			return -1;
		fwd_cfg.link_timeout = (unsigned int)v;
		return 0;
	case 'i':
		fwd_cfg.interactive = true;
		return 0;
	default:
		return -1;
	}
}

int
fwd_config_parse(int argc, char **argv)
{
	int c;

	/* RFC 2544's benchmarking range (198.18.0.0/15) as testpmd's txonly */
	fwd_cfg.ip_src = htonl(0xc6120001);
	fwd_cfg.ip_dst = htonl(0xc6120002);
	/* and RFC 5180's IPv6 benchmarking prefix, 2001:2::/48 */
	inet_pton(AF_INET6, "2001:2::1", fwd_cfg.ip6_src);
	inet_pton(AF_INET6, "2001:2::2", fwd_cfg.ip6_dst);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":p:ih", long_opts, NULL)) != -1) {
		if (c == 'h') {
			fwd_config_usage(argv[0]);
			return 1;
		}
		if (c == '?') {
			if (optopt != 0)
				FWD_LOG(ERR, "-%c: unknown option", optopt);
			else
				FWD_LOG(ERR, "%s: unknown option", argv[optind - 1]);
			return -1;
		}
		if (c == ':') {
			FWD_LOG(ERR, "%s: needs a value", argv[optind - 1]);
			return -1;
		}
		if (parse_one(c, optarg) != 0)
			return -1;
	}
	if (optind < argc) {
		FWD_LOG(ERR, "%s: unexpected argument", argv[optind]);
		return -1;
	}
	if (fwd_cfg.interactive && fwd_cfg.stats_period != 0) {
		FWD_LOG(ERR, "--stats-period=%u: not with -i (use show port stats)",
			fwd_cfg.stats_period);
		return -1;
	}
	if (fwd_cfg.mode != FWD_MODE_TXONLY &&
	    (fwd_cfg.txonly_count != 0 || fwd_cfg.txonly_pps != 0)) {
		FWD_LOG(ERR, "--txonly-count/--txonly-pps: only with --forward-mode=txonly");
		return -1;
	}
	if (fwd_cfg.dest_ip_set && ip_dst_given) {
		FWD_LOG(ERR, "--txonly-ip-dst and --txonly-dest-ip: give one destination address");
		return -1;
	}
	if (fwd_cfg.dest_ip_set && fwd_cfg.dest_set) {
		FWD_LOG(ERR, "--txonly-dest-ip and --txonly-dest: give one destination");
		return -1;
	}
	if (fwd_cfg.dest_ip_set && fwd_cfg.mode != FWD_MODE_TXONLY) {
		FWD_LOG(ERR, "--txonly-dest-ip: only with --forward-mode=txonly");
		return -1;
	}
	if (fwd_cfg.mode == FWD_MODE_ROUTE && fwd_cfg.nb_routes == 0) {
		FWD_LOG(ERR, "--forward-mode=route: give --route=ETH_PORT:L3_PORT");
		return -1;
	}
	if (fwd_cfg.mode != FWD_MODE_ROUTE && fwd_cfg.nb_routes != 0) {
		FWD_LOG(ERR, "--route=%u:%u: only with --forward-mode=route",
			fwd_cfg.routes[0].eth, fwd_cfg.routes[0].l3);
		return -1;
	}
	if (fwd_cfg.mode != FWD_MODE_ADDRSWAP && fwd_cfg.reply_qpn != 0) {
		FWD_LOG(ERR, "--reply-qpn=0x%x: only with --forward-mode=addrswap",
			fwd_cfg.reply_qpn);
		return -1;
	}
	if ((fwd_cfg.nb_rxd & (fwd_cfg.nb_rxd - 1)) != 0 ||
	    (fwd_cfg.nb_txd & (fwd_cfg.nb_txd - 1)) != 0) {
		FWD_LOG(ERR, "--rxd=%u --txd=%u: ring sizes are powers of two",
			fwd_cfg.nb_rxd, fwd_cfg.nb_txd);
		return -1;
	}
	return 0;
}

const char *
fwd_mode_name(enum fwd_mode mode)
{
	return mode < FWD_MODE_COUNT ? mode_names[mode] : "?";
}
