/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The app's command line (after EAL's "--"): every option is checked
 * before any port is touched, and a bad one is refused naming the option
 * and the value.
 */

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "kernel_link.h"

struct klink_config klink_cfg = {
	.kind = KLINK_KIND_TAP,
	.iface = KLINK_DEF_IFACE,
	.ib_port = 0,
	.data_lcores = 1,
	.burst = KLINK_DEF_BURST,
	.idle_us = KLINK_DEF_IDLE_US,
	.stats_period = 0,
	.vhost_path = "/dev/vhost-net",
};

const char *const klink_kind_names[KLINK_KIND_COUNT] = {
	[KLINK_KIND_TAP] = "tap",
	[KLINK_KIND_TUN] = "tun",
	[KLINK_KIND_VIRTIO] = "virtio_user",
};

enum {
	OPT_KIND = 256,
	OPT_IFACE,
	OPT_PORT,
	OPT_DATA_LCORES,
	OPT_BURST,
	OPT_IDLE_SLEEP,
	OPT_STATS_PERIOD,
	OPT_VHOST_PATH,
};

static const struct option long_opts[] = {
	{ "kind", required_argument, NULL, OPT_KIND },
	{ "iface", required_argument, NULL, OPT_IFACE },
	{ "port", required_argument, NULL, OPT_PORT },
	{ "data-lcores", required_argument, NULL, OPT_DATA_LCORES },
	{ "burst", required_argument, NULL, OPT_BURST },
	{ "idle-sleep", required_argument, NULL, OPT_IDLE_SLEEP },
	{ "stats-period", required_argument, NULL, OPT_STATS_PERIOD },
	{ "vhost-path", required_argument, NULL, OPT_VHOST_PATH },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

void
klink_config_usage(const char *prog)
{
	printf("usage: %s [EAL options] -- [options]\n"
	       "  --kind=KIND          kernel side: tap (Ethernet, for net_ipoib mode=eth),\n"
	       "                       tun (IP, for mode=l3), virtio_user (Ethernet over\n"
	       "                       vhost-net) (default tap)\n"
	       "  --iface=NAME         kernel interface name (default %s)\n"
	       "  --port=PORT          the IB-side port, by id or name (default 0)\n"
	       "  --data-lcores=N      1: both directions on one worker lcore,\n"
	       "                       2: one worker lcore each (default 1)\n"
	       "  --burst=N            packets per burst, 1..%d (default %d)\n"
	       "  --idle-sleep=US      nap US microseconds once idle, 0: busy poll,\n"
	       "                       0..%d (default %d)\n"
	       "  --stats-period=SEC   print statistics every SEC seconds (default: at exit)\n"
	       "  --vhost-path=PATH    vhost-net device of virtio_user (default %s)\n",
	       prog, KLINK_DEF_IFACE, KLINK_MAX_BURST, KLINK_DEF_BURST, KLINK_MAX_IDLE_US,
	       KLINK_DEF_IDLE_US, klink_cfg.vhost_path);
}

/* @p s as a decimal number in [@p min, @p max], or -1 naming option and value. */
static int
parse_uint(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
	char *end;

	errno = 0;
	if (*s == '\0' || !isdigit((unsigned char)*s)) {
		KLINK_LOG(ERR, "--%s=%s: not a number", opt, s);
		return -1;
	}
	*v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0') {
		KLINK_LOG(ERR, "--%s=%s: not a number", opt, s);
		return -1;
	}
	if (*v < min || *v > max) {
		KLINK_LOG(ERR, "--%s=%s: out of range %" PRIu64 "..%" PRIu64, opt, s, min, max);
		return -1;
	}
	return 0;
}

/*
 * A name the kernel accepts for an interface: Linux's dev_valid_name()
 * (net/core/dev.c) refuses "", "." and "..", names of IFNAMSIZ bytes or
 * more, and any '/', ':' or white space.
 */
static int
parse_iface(const char *s)
{
	const char *c;

	if (*s == '\0' || strcmp(s, ".") == 0 || strcmp(s, "..") == 0) {
		KLINK_LOG(ERR, "--iface=%s: not an interface name", s);
		return -1;
	}
	if (strlen(s) >= IF_NAMESIZE) {
		KLINK_LOG(ERR, "--iface=%s: longer than %d characters", s, IF_NAMESIZE - 1);
		return -1;
	}
	for (c = s; *c != '\0'; c++) {
		if (*c == '/' || *c == ':' || *c == ',' || *c == '=' ||
		    isspace((unsigned char)*c)) {
			/* ',' and '=' would split the device arguments */
			KLINK_LOG(ERR, "--iface=%s: '%c' not allowed in an interface name",
				  s, *c);
			return -1;
		}
	}
	strcpy(klink_cfg.iface, s);
	return 0;
}

/* --port: a port id, or an ethdev name (net_ipoib0) looked up now. */
static int
parse_port(const char *s)
{
	uint64_t v;
	uint16_t id;

	if (isdigit((unsigned char)*s)) {
		if (parse_uint("port", s, 0, RTE_MAX_ETHPORTS - 1, &v) != 0)
			return -1;
		klink_cfg.ib_port = (uint16_t)v;
		return 0;
	}
	if (rte_eth_dev_get_port_by_name(s, &id) != 0) {
		KLINK_LOG(ERR, "--port=%s: no port of that name", s);
		return -1;
	}
	klink_cfg.ib_port = id;
	return 0;
}

static int
parse_kind(const char *s)
{
	unsigned int k;

	for (k = 0; k < KLINK_KIND_COUNT; k++) {
		if (strcmp(s, klink_kind_names[k]) == 0) {
			klink_cfg.kind = k;
			return 0;
		}
	}
	KLINK_LOG(ERR, "--kind=%s: not one of tap, tun, virtio_user", s);
	return -1;
}

/* What the options need of each other and of EAL, once all are read. */
static int
config_check(bool vhost_path_set)
{
	if (!rte_eth_dev_is_valid_port(klink_cfg.ib_port)) {
		KLINK_LOG(ERR, "--port=%u: no such port (%u ports; give the IB side with --vdev or -a)",
			  klink_cfg.ib_port, rte_eth_dev_count_avail());
		return -1;
	}
	if (rte_lcore_count() < klink_cfg.data_lcores + 1) {
		KLINK_LOG(ERR, "--data-lcores=%u: needs %u worker lcores, EAL has %u (-l)",
			  klink_cfg.data_lcores, klink_cfg.data_lcores,
			  rte_lcore_count() - 1);
		return -1;
	}
	if (vhost_path_set && klink_cfg.kind != KLINK_KIND_VIRTIO) {
		KLINK_LOG(ERR, "--vhost-path=%s: only with --kind=virtio_user",
			  klink_cfg.vhost_path);
		return -1;
	}
	/* virtio_user's vhost-kernel backend opens it (the vhost_net module) */
	if (klink_cfg.kind == KLINK_KIND_VIRTIO &&
	    access(klink_cfg.vhost_path, R_OK | W_OK) != 0) {
		KLINK_LOG(ERR, "--kind=virtio_user: %s: %s (load the vhost_net module)",
			  klink_cfg.vhost_path, strerror(errno));
		return -1;
	}
	return 0;
}

/* 0: run; 1: --help printed; -1: a bad option, logged by name and value. */
int
klink_config_parse(int argc, char **argv)
{
	const char *prog = argv[0];
	bool vhost_path_set = false;
	uint64_t v;
	int opt;

	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":h", long_opts, NULL)) != -1) {
		switch (opt) {
		case OPT_KIND:
			if (parse_kind(optarg) != 0)
				return -1;
			break;
		case OPT_IFACE:
			if (parse_iface(optarg) != 0)
				return -1;
			break;
		case OPT_PORT:
			if (parse_port(optarg) != 0)
				return -1;
			break;
		case OPT_DATA_LCORES:
			if (parse_uint("data-lcores", optarg, 1, 2, &v) != 0)
				return -1;
			klink_cfg.data_lcores = (unsigned int)v;
			break;
		case OPT_BURST:
			if (parse_uint("burst", optarg, 1, KLINK_MAX_BURST, &v) != 0)
				return -1;
			klink_cfg.burst = (unsigned int)v;
			break;
		case OPT_IDLE_SLEEP:
			if (parse_uint("idle-sleep", optarg, 0, KLINK_MAX_IDLE_US, &v) != 0)
				return -1;
			klink_cfg.idle_us = (unsigned int)v;
			break;
		case OPT_STATS_PERIOD:
			if (parse_uint("stats-period", optarg, 0, KLINK_MAX_STATS_PERIOD,
				       &v) != 0)
				return -1;
			klink_cfg.stats_period = (unsigned int)v;
			break;
		case OPT_VHOST_PATH:
			if (*optarg == '\0' || strchr(optarg, ',') != NULL) {
				KLINK_LOG(ERR, "--vhost-path=%s: not a usable path", optarg);
				return -1;
			}
			klink_cfg.vhost_path = optarg;
			vhost_path_set = true;
			break;
		case 'h':
			klink_config_usage(prog);
			return 1;
		case ':':
			KLINK_LOG(ERR, "%s: needs a value", argv[optind - 1]);
			return -1;
		default:
			KLINK_LOG(ERR, "%s: unknown option", argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		KLINK_LOG(ERR, "%s: unexpected argument", argv[optind]);
		return -1;
	}
	return config_check(vhost_path_set);
}
