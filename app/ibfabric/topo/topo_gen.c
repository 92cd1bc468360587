/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * "ibfabric gen": writes net files for fabrics too large to write by
 * hand. The output is the plain subset of the format that ibsim 0.10
 * parses as well as ibfabric: one record per node, a blank line after
 * each (ibsim drops a header that follows a record without one), every
 * cable listed at both ends, lines far below ibsim's 255-byte limit.
 *
 * Hosts come first, so that the first port of the file (ibsim's default
 * attach point, where OpenSM goes without SIM_HOST) is a CA port.
 */

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "fab_node.h"
#include "topo.h"

/* Unicast LIDs 0x0001..0xbfff (IBA 4.1.3): every node needs one. */
#define GEN_MAX_LIDS		0xbfff
/* The "--hosts N" shape: 36-port leaves, half down to hosts, half up. */
#define GEN_HOSTS_PER_LEAF	(TOPO_GEN_RADIX / 2)

static unsigned int
digits(unsigned int n)
{
	unsigned int d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

static unsigned int
width_for(unsigned int count, unsigned int min)
{
	unsigned int d = digits(count);

	return d > min ? d : min;
}

static unsigned int
max_u(unsigned int a, unsigned int b)
{
	return a > b ? a : b;
}

int
topo_fattree_check(struct topo_fattree *t, char *err, size_t errlen)
{
	unsigned long long hosts, leaf_need, spine_need;

	if (t->leaves == 0) {
		snprintf(err, errlen, "--leaves 0: a fat tree needs at least one leaf");
		return -1;
	}
	if (t->hosts_per_leaf == 0) {
		snprintf(err, errlen, "--hosts-per-leaf 0: leaves need hosts");
		return -1;
	}
	if (t->leaves > 1 && t->spines == 0) {
		snprintf(err, errlen, "--spines 0: %u leaves need spines to reach each other",
			 t->leaves);
		return -1;
	}
	if (t->links_per_spine == 0)
		t->links_per_spine = 1;
	hosts = (unsigned long long)t->leaves * t->hosts_per_leaf;
	if (t->hosts == 0)
		t->hosts = hosts > UINT_MAX ? UINT_MAX : (unsigned int)hosts;
	if (t->hosts > hosts) {
		snprintf(err, errlen, "%u hosts do not fit on %u leaves of %u hosts",
			 t->hosts, t->leaves, t->hosts_per_leaf);
		return -1;
	}
	leaf_need = t->hosts_per_leaf + (unsigned long long)t->spines * t->links_per_spine;
	spine_need = (unsigned long long)t->leaves * t->links_per_spine;
	if (leaf_need > FAB_MAX_PORTS) {
		snprintf(err, errlen,
			 "a leaf needs %llu ports (hosts-per-leaf %u + spines %u x links-per-spine %u), more than %d",
			 leaf_need, t->hosts_per_leaf, t->spines, t->links_per_spine, FAB_MAX_PORTS);
		return -1;
	}
	if (t->spines != 0 && spine_need > FAB_MAX_PORTS) {
		snprintf(err, errlen,
			 "a spine needs %llu ports (leaves %u x links-per-spine %u), more than %d",
			 spine_need, t->leaves, t->links_per_spine, FAB_MAX_PORTS);
		return -1;
	}
	if (t->leaf_ports == 0)
		t->leaf_ports = max_u(TOPO_GEN_RADIX, (unsigned int)leaf_need);
	if (t->spine_ports == 0)
		t->spine_ports = max_u(TOPO_GEN_RADIX, (unsigned int)spine_need);
	if (t->leaf_ports < leaf_need || t->leaf_ports > FAB_MAX_PORTS) {
		snprintf(err, errlen, "--ports %u: a leaf needs %llu..%d ports", t->leaf_ports,
			 leaf_need, FAB_MAX_PORTS);
		return -1;
	}
	if (t->spines != 0 && (t->spine_ports < spine_need || t->spine_ports > FAB_MAX_PORTS)) {
		snprintf(err, errlen, "--ports %u: a spine needs %llu..%d ports", t->spine_ports,
			 spine_need, FAB_MAX_PORTS);
		return -1;
	}
	if ((unsigned long long)t->hosts + t->leaves + t->spines > GEN_MAX_LIDS) {
		snprintf(err, errlen, "%llu nodes need more unicast LIDs than a subnet has (%d)",
			 (unsigned long long)t->hosts + t->leaves + t->spines, GEN_MAX_LIDS);
		return -1;
	}
	return 0;
}

int
topo_fattree_for_hosts(struct topo_fattree *t, unsigned int hosts, char *err, size_t errlen)
{
	/* Spine counts that split a leaf's 18 uplinks evenly. */
	static const unsigned int divisors[] = { 1, 2, 3, 6, 9, 18 };
	unsigned int leaves, i;

	memset(t, 0, sizeof(*t));
	if (hosts == 0) {
		snprintf(err, errlen, "--hosts 0: nothing to build");
		return -1;
	}
	/*
	 * Full bisection with 36-port switches: up to 18 hosts and as many
	 * uplinks per leaf, spines = leaves / 2 (rounded up to a divisor of
	 * 18), which gives up to 648 hosts (36 leaves, 18 spines). Beyond
	 * that the 18 spines need more than 36 ports (a director's radix,
	 * up to NumPorts 254, so 4572 hosts).
	 * Two leaves at least, so that even a small tree has spines.
	 */
	leaves = (hosts + GEN_HOSTS_PER_LEAF - 1) / GEN_HOSTS_PER_LEAF;
	if (leaves < 2 && hosts >= 2)
		leaves = 2;
	if (leaves > FAB_MAX_PORTS) {
		snprintf(err, errlen,
			 "--hosts %u: more than %d leaves of %d hosts; give the shape (--leaves, --hosts-per-leaf, --spines)",
			 hosts, FAB_MAX_PORTS, GEN_HOSTS_PER_LEAF);
		return -1;
	}
	t->leaves = leaves;
	t->hosts = hosts;
	t->hosts_per_leaf = (hosts + leaves - 1) / leaves;
	if (leaves > 1) {
		for (i = 0; i < sizeof(divisors) / sizeof(divisors[0]); i++)
			if (divisors[i] * 2 >= leaves)
				break;
		if (i == sizeof(divisors) / sizeof(divisors[0]))
			i--;
		t->spines = divisors[i];
		/* As many uplinks as hosts (rounded up), so no leaf is oversubscribed. */
		t->links_per_spine = (t->hosts_per_leaf + t->spines - 1) / t->spines;
	}
	return topo_fattree_check(t, err, errlen);
}

/* Leaf that host @p h (0-based) hangs off, and its port there. */
static void
host_place(const struct topo_fattree *t, unsigned int h, unsigned int *leaf,
	   unsigned int *port)
{
	*leaf = h / t->hosts_per_leaf;
	*port = h % t->hosts_per_leaf + 1;
}

int
topo_gen_fattree(FILE *out, const struct topo_fattree *t)
{
	unsigned int hw = width_for(t->hosts, 4);
	unsigned int lw = width_for(t->leaves, 3);
	unsigned int sw = width_for(t->spines, 2);
	unsigned int h, l, s, k, leaf, port, first, last;
	unsigned int K = t->links_per_spine, H = t->hosts_per_leaf;

	fprintf(out, "# Two-level fat tree written by \"ibfabric gen fattree\":\n"
		"# %u hosts, %u leaves (%u ports, %u hosts each), %u spines (%u ports),\n"
		"# %u cable(s) from each leaf to each spine. Every cable is listed at\n"
		"# both ends. The first port in the file (ibsim's default attach) is\n"
		"# H%0*u[1].\n\n",
		t->hosts, t->leaves, t->leaf_ports, H, t->spines, t->spine_ports, K, (int)hw, 1u);
	for (h = 0; h < t->hosts; h++) {
		host_place(t, h, &leaf, &port);
		fprintf(out, "Ca\t1 \"H%0*u\"%s\n[1]\t\"L%0*u\"[%u]\n\n", (int)hw, h + 1,
			h < t->active ? " active=mt25208" : "", (int)lw, leaf + 1, port);
	}
	for (l = 0; l < t->leaves; l++) {
		fprintf(out, "Switch\t%u \"L%0*u\"\n", t->leaf_ports, (int)lw, l + 1);
		first = l * H;
		last = first + H < t->hosts ? first + H : t->hosts;
		for (h = first; h < last; h++)
			fprintf(out, "[%u]\t\"H%0*u\"[1]\n", h - first + 1, (int)hw, h + 1);
		/* Uplinks after the host ports: spine s, cable k on port H + s*K + k + 1. */
		for (s = 0; s < t->spines; s++)
			for (k = 0; k < K; k++)
				fprintf(out, "[%u]\t\"S%0*u\"[%u]\n", H + s * K + k + 1,
					(int)sw, s + 1, l * K + k + 1);
		fputc('\n', out);
	}
	for (s = 0; s < t->spines; s++) {
		fprintf(out, "Switch\t%u \"S%0*u\"\n", t->spine_ports, (int)sw, s + 1);
		for (l = 0; l < t->leaves; l++)
			for (k = 0; k < K; k++)
				fprintf(out, "[%u]\t\"L%0*u\"[%u]\n", l * K + k + 1, (int)lw, l + 1,
					H + s * K + k + 1);
		fputc('\n', out);
	}
	return ferror(out) ? -1 : 0;
}

int
topo_gen_switch(FILE *out, unsigned int hosts, unsigned int ports, unsigned int active,
		char *err, size_t errlen)
{
	unsigned int hw = width_for(hosts, 4);
	unsigned int h;

	if (hosts == 0 || hosts > FAB_MAX_PORTS) {
		snprintf(err, errlen, "--hosts %u: one switch takes 1..%d hosts", hosts,
			 FAB_MAX_PORTS);
		return -1;
	}
	if (ports == 0)
		ports = max_u(TOPO_GEN_RADIX, hosts);
	if (ports < hosts || ports > FAB_MAX_PORTS) {
		snprintf(err, errlen, "--ports %u: %u hosts need %u..%d ports", ports, hosts,
			 hosts, FAB_MAX_PORTS);
		return -1;
	}
	fprintf(out, "# One switch written by \"ibfabric gen switch\": %u hosts on a\n"
		"# %u-port switch. The first port in the file (ibsim's default attach)\n"
		"# is H%0*u[1].\n\n", hosts, ports, (int)hw, 1u);
	for (h = 0; h < hosts; h++)
		fprintf(out, "Ca\t1 \"H%0*u\"%s\n[1]\t\"S01\"[%u]\n\n", (int)hw, h + 1,
			h < active ? " active=mt25208" : "", h + 1);
	fprintf(out, "Switch\t%u \"S01\"\n", ports);
	for (h = 0; h < hosts; h++)
		fprintf(out, "[%u]\t\"H%0*u\"[1]\n", h + 1, (int)hw, h + 1);
	fputc('\n', out);
	return ferror(out) ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* Command line */

static void
gen_usage(FILE *out)
{
	fprintf(out,
		"usage: ibfabric gen fattree --leaves L --hosts-per-leaf H --spines S\n"
		"                            [--links-per-spine K] [--ports P] [options]\n"
		"       ibfabric gen fattree --hosts N [options]\n"
		"       ibfabric gen switch --hosts N [--ports P] [options]\n"
		"options:\n"
		"  -o, --output FILE   write the net file to FILE (default: stdout)\n"
		"  --active N          mark the first N hosts active=mt25208\n"
		"  --ports P           switch NumPorts (default: 36, or what is needed)\n"
		"  -h, --help          this text\n"
		"Names: hosts H0001.., leaves L001.., spines S01..; see\n"
		"doc/guides/tools/ibfabric_topology.rst.\n");
}

static int
gen_number(const char *opt, const char *arg, unsigned int max, unsigned int *out)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno != 0 || end == arg || *end != '\0' || arg[0] == '-' || v > max) {
		fprintf(stderr, "ibfabric gen: %s %s: expected a number 0..%u\n", opt, arg, max);
		return -1;
	}
	*out = (unsigned int)v;
	return 0;
}

enum {
	OPT_LEAVES = 256,
	OPT_HPL,
	OPT_SPINES,
	OPT_LPS,
	OPT_HOSTS,
	OPT_PORTS,
	OPT_ACTIVE,
};

int
topo_gen_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "leaves", required_argument, NULL, OPT_LEAVES },
		{ "hosts-per-leaf", required_argument, NULL, OPT_HPL },
		{ "spines", required_argument, NULL, OPT_SPINES },
		{ "links-per-spine", required_argument, NULL, OPT_LPS },
		{ "hosts", required_argument, NULL, OPT_HOSTS },
		{ "ports", required_argument, NULL, OPT_PORTS },
		{ "active", required_argument, NULL, OPT_ACTIVE },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct topo_fattree t;
	unsigned int leaves = 0, hpl = 0, spines = 0, lps = 0, hosts = 0, ports = 0, active = 0;
	bool shape = false, have_hosts = false;
	const char *kind, *output = NULL, *optname;
	char err[256] = "";
	FILE *out;
	int c, rc;

	if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		gen_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	kind = argv[1];
	if (strcmp(kind, "fattree") != 0 && strcmp(kind, "switch") != 0) {
		fprintf(stderr, "ibfabric gen: unknown fabric kind \"%s\" (fattree, switch)\n", kind);
		return 2;
	}
	/* glibc re-initialises getopt fully, permutation included, on optind 0. */
	optind = 0;
	opterr = 1;
	while ((c = getopt_long(argc - 1, argv + 1, "o:h", opts, NULL)) != -1) {
		unsigned int *dst = NULL;

		switch (c) {
		case OPT_LEAVES: dst = &leaves; optname = "--leaves"; shape = true; break;
		case OPT_HPL: dst = &hpl; optname = "--hosts-per-leaf"; shape = true; break;
		case OPT_SPINES: dst = &spines; optname = "--spines"; shape = true; break;
		case OPT_LPS: dst = &lps; optname = "--links-per-spine"; break;
		case OPT_HOSTS: dst = &hosts; optname = "--hosts"; have_hosts = true; break;
		case OPT_PORTS: dst = &ports; optname = "--ports"; break;
		case OPT_ACTIVE: dst = &active; optname = "--active"; break;
		case 'o':
			output = optarg;
			continue;
		case 'h':
			gen_usage(stdout);
			return 0;
		default:
			gen_usage(stderr);
			return 2;
		}
		if (gen_number(optname, optarg, GEN_MAX_LIDS, dst) != 0)
			return 2;
	}
	if (optind < argc - 1) {
		fprintf(stderr, "ibfabric gen: unexpected argument \"%s\"\n", argv[optind + 1]);
		return 2;
	}

	if (active > TOPO_ACTIVE_MAX) {
		/* ibfabric would refuse the file it writes (topo_parse.c). */
		fprintf(stderr, "ibfabric gen: --active %u: at most %u active HCAs"
			" (one PCI bus each)\n", active, TOPO_ACTIVE_MAX);
		return 2;
	}

	memset(&t, 0, sizeof(t));
	if (strcmp(kind, "switch") == 0) {
		if (!have_hosts || shape || lps != 0) {
			fprintf(stderr, "ibfabric gen switch: give --hosts N (and optionally --ports P)\n");
			return 2;
		}
	} else if (shape) {
		if (leaves == 0 || hpl == 0 || (leaves > 1 && spines == 0)) {
			fprintf(stderr,
				"ibfabric gen fattree: give --leaves, --hosts-per-leaf and --spines (or only --hosts)\n");
			return 2;
		}
		t.leaves = leaves;
		t.hosts_per_leaf = hpl;
		t.spines = spines;
		t.links_per_spine = lps != 0 ? lps : 1;
		t.hosts = have_hosts ? hosts : 0;
		t.leaf_ports = ports;
		t.spine_ports = ports;
		if (topo_fattree_check(&t, err, sizeof(err)) != 0) {
			fprintf(stderr, "ibfabric gen fattree: %s\n", err);
			return 2;
		}
	} else {
		if (!have_hosts) {
			fprintf(stderr,
				"ibfabric gen fattree: give --hosts N, or the shape (--leaves, --hosts-per-leaf, --spines)\n");
			return 2;
		}
		if (lps != 0 || ports != 0) {
			fprintf(stderr,
				"ibfabric gen fattree: --links-per-spine and --ports need the shape (--leaves, --hosts-per-leaf, --spines); --hosts N picks 36-port switches\n");
			return 2;
		}
		if (topo_fattree_for_hosts(&t, hosts, err, sizeof(err)) != 0) {
			fprintf(stderr, "ibfabric gen fattree: %s\n", err);
			return 2;
		}
	}
	t.active = active;

	out = stdout;
	if (output != NULL) {
		out = fopen(output, "w");
		if (out == NULL) {
			fprintf(stderr, "ibfabric gen: %s: %s\n", output, strerror(errno));
			return 1;
		}
	}
	if (strcmp(kind, "switch") == 0)
		rc = topo_gen_switch(out, hosts, ports, active, err, sizeof(err));
	else
		rc = topo_gen_fattree(out, &t);
	if (rc != 0 && err[0] != '\0' && strcmp(kind, "switch") == 0)
		fprintf(stderr, "ibfabric gen switch: %s\n", err);
	if (out != stdout) {
		if (fclose(out) != 0 && rc == 0) {
			fprintf(stderr, "ibfabric gen: %s: %s\n", output, strerror(errno));
			rc = -1;
		}
	} else if (fflush(out) != 0) {
		rc = -1;
	}
	if (rc != 0 && output != NULL)
		remove(output);
	return rc == 0 ? 0 : 1;
}
