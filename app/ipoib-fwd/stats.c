/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Statistics, on the main lcore: per port packets, Mpps and Gbit/s (from
 * the ethdev counters, relative to the start of forwarding), drops by
 * reason (the port's xstats whose names say drop, discard, missed,
 * nombuf or no_ah, and the app's own: tx ring full, no AH yet), and with
 * --record-core-cycles the TSC cycles per packet of each lcore; in route
 * mode the route engine's drops by reason and a line per route. Every
 * figure is "name=value" on one line per port, for people and scripts.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_lcore.h>

#include "ipoib_fwd.h"

static const char *const drop_words[] = { "drop", "discard", "missed", "nombuf", "no_ah" };

/* per port, in fwd_ports order; main lcore only */
static struct {
	struct rte_eth_stats base;	/* at the start */
	struct rte_eth_stats last;	/* at the last period */
	uint64_t *xs_base;		/* every xstat at the start */
	unsigned int nb_xs;
} pst[FWD_MAX_PORTS];
static uint64_t start_tsc, last_tsc;

static bool
is_drop(const char *name)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(drop_words); i++)
		if (strcasestr(name, drop_words[i]) != NULL)
			return true;
	return false;
}

/* The xstats of @p pid: names and values (caller frees both), their count or -1. */
static int
xstats_read(uint16_t pid, struct rte_eth_xstat_name **names, struct rte_eth_xstat **xs)
{
	int n = rte_eth_xstats_get_names(pid, NULL, 0);

	*names = NULL;
	*xs = NULL;
	if (n <= 0)
		return n == 0 ? 0 : -1;
	*names = calloc(n, sizeof(**names));
	*xs = calloc(n, sizeof(**xs));
	if (*names == NULL || *xs == NULL || rte_eth_xstats_get_names(pid, *names, n) != n ||
	    rte_eth_xstats_get(pid, *xs, n) != n) {
		free(*names);
		free(*xs);
		*names = NULL;
		*xs = NULL;
		return -1;
	}
	return n;
}

void
fwd_stats_begin(void)
{
	unsigned int i;
	int k, n;

	for (i = 0; i < fwd_nb_ports; i++) {
		struct rte_eth_xstat_name *names;
		struct rte_eth_xstat *xs;

		rte_eth_stats_get(fwd_ports[i].port_id, &pst[i].base);
		pst[i].last = pst[i].base;
		free(pst[i].xs_base);
		pst[i].xs_base = NULL;
		pst[i].nb_xs = 0;
		n = xstats_read(fwd_ports[i].port_id, &names, &xs);
		if (n > 0) {
			pst[i].xs_base = calloc(n, sizeof(uint64_t));
			if (pst[i].xs_base != NULL) {
				for (k = 0; k < n; k++)
					pst[i].xs_base[k] = xs[k].value;
				pst[i].nb_xs = n;
			}
		}
		free(names);
		free(xs);
	}
	start_tsc = last_tsc = rte_get_timer_cycles();
}

/*
 * The route engine's drops of port @p i (its own side of each stream: the
 * Ethernet port's are [0], the L3 port's [1]) appended to @p buf at *@p off;
 * their total.
 */
static uint64_t
route_drops(unsigned int i, char *buf, size_t len, size_t *off)
{
	uint64_t total = 0, v;
	unsigned int s, r;

	for (r = 0; r < FWD_RDROP_COUNT; r++) {
		v = 0;
		for (s = 0; s < fwd_nb_streams; s++) {
			if (fwd_streams[s].rxp == &fwd_ports[i])
				v += __atomic_load_n(&fwd_streams[s].rdrop[0][r], __ATOMIC_RELAXED);
			if (fwd_streams[s].txp == &fwd_ports[i])
				v += __atomic_load_n(&fwd_streams[s].rdrop[1][r], __ATOMIC_RELAXED);
		}
		total += v;
		if (v != 0 && *off < len)
			*off += snprintf(buf + *off, len - *off, " app_route_%s=%" PRIu64,
					 fwd_route_drop_name(r), v);
	}
	return total;
}

/* The port's drops since the start, by reason, after " drops=<total>". */
static void
drops_print(unsigned int i)
{
	struct rte_eth_xstat_name *names;
	struct rte_eth_xstat *xs;
	uint64_t total = 0, tx_full = 0, no_ah = 0;
	char reasons[1024];
	size_t off = 0;
	unsigned int s;
	int k, n;

	reasons[0] = '\0';
	n = xstats_read(fwd_ports[i].port_id, &names, &xs);
	for (k = 0; k < n; k++) {
		uint64_t v = xs[k].value;

		if (!is_drop(names[k].name))
			continue;
		if ((unsigned int)k < pst[i].nb_xs && v >= pst[i].xs_base[k])
			v -= pst[i].xs_base[k];
		total += v;
		if (v != 0 && off < sizeof(reasons))
			off += snprintf(reasons + off, sizeof(reasons) - off, " %s=%" PRIu64,
					names[k].name, v);
	}
	free(names);
	free(xs);
	for (s = 0; s < fwd_nb_streams; s++) {
		if (fwd_streams[s].txp == &fwd_ports[i])
			tx_full += __atomic_load_n(&fwd_streams[s].tx_full, __ATOMIC_RELAXED);
		if (fwd_streams[s].txp == &fwd_ports[i])
			no_ah += __atomic_load_n(&fwd_streams[s].no_ah, __ATOMIC_RELAXED);
	}
	total += tx_full + no_ah;
	if (tx_full != 0 && off < sizeof(reasons))
		off += snprintf(reasons + off, sizeof(reasons) - off, " app_tx_full=%" PRIu64,
				tx_full);
	if (no_ah != 0 && off < sizeof(reasons))
		off += snprintf(reasons + off, sizeof(reasons) - off, " app_no_ah=%" PRIu64,
				no_ah);
	if (fwd_cfg.mode == FWD_MODE_ROUTE)
		total += route_drops(i, reasons, sizeof(reasons), &off);
	printf(" drops=%" PRIu64 "%s\n", total, reasons);
}

/* One port's line: totals since the start, rates from @p from over @p sec seconds. */
static void
port_line(unsigned int i, const struct rte_eth_stats *from, double sec)
{
	struct rte_eth_stats st;
	const struct rte_eth_stats *b = &pst[i].base;

	rte_eth_stats_get(fwd_ports[i].port_id, &st);
	if (sec <= 0)
		sec = 1e-9;
	printf("Port %u: rx_packets=%" PRIu64 " rx_mpps=%.4f rx_gbps=%.4f tx_packets=%" PRIu64
	       " tx_mpps=%.4f tx_gbps=%.4f", fwd_ports[i].port_id, st.ipackets - b->ipackets,
	       (st.ipackets - from->ipackets) / sec / 1e6,
	       (st.ibytes - from->ibytes) * 8.0 / sec / 1e9, st.opackets - b->opackets,
	       (st.opackets - from->opackets) / sec / 1e6,
	       (st.obytes - from->obytes) * 8.0 / sec / 1e9);
	drops_print(i);
	pst[i].last = st;
}

static void
cycles_lines(void)
{
	unsigned int lcore, s;

	if (!fwd_cfg.record_cycles)
		return;
	RTE_LCORE_FOREACH_WORKER(lcore) {
		uint64_t cyc = 0, pkts = 0;
		bool used = false;

		for (s = 0; s < fwd_nb_streams; s++) {
			if (fwd_streams[s].lcore != lcore)
				continue;
			used = true;
			cyc += __atomic_load_n(&fwd_streams[s].busy_cycles, __ATOMIC_RELAXED);
			pkts += __atomic_load_n(&fwd_streams[s].busy_pkts, __ATOMIC_RELAXED);
		}
		if (used)
			printf("Lcore %u: packets=%" PRIu64 " cycles_per_packet=%.1f\n", lcore,
			       pkts, pkts ? (double)cyc / pkts : 0.0);
	}
}

void
fwd_stats_period(void)
{
	uint64_t now = rte_get_timer_cycles(), hz = rte_get_timer_hz();
	double sec = (double)(now - last_tsc) / hz;
	unsigned int i;

	printf("Statistics at %.1f s (period %.1f s):\n", (double)(now - start_tsc) / hz, sec);
	for (i = 0; i < fwd_nb_ports; i++) {
		struct rte_eth_stats from = pst[i].last;

		port_line(i, &from, sec);
	}
	if (fwd_cfg.mode == FWD_MODE_ROUTE)
		fwd_route_stats();
	cycles_lines();
	last_tsc = now;
	fflush(stdout);
}

void
fwd_stats_final(void)
{
	uint64_t now = rte_get_timer_cycles(), hz = rte_get_timer_hz();
	double sec = (double)(now - start_tsc) / hz;
	unsigned int i;

	printf("Final statistics after %.1f s (rates: averages):\n", sec);
	for (i = 0; i < fwd_nb_ports; i++) {
		struct rte_eth_stats from = pst[i].base;

		port_line(i, &from, sec);
	}
	if (fwd_cfg.mode == FWD_MODE_ROUTE)
		fwd_route_stats();
	cycles_lines();
	fflush(stdout);
}

void
fwd_stats_port(uint16_t port_id)
{
	struct rte_eth_stats st;
	int ret = rte_eth_stats_get(port_id, &st);

	if (ret != 0) {
		printf("Port %u: stats: %s\n", port_id, strerror(-ret));
		return;
	}
	printf("  ######## NIC statistics for port %u ########\n"
	       "  RX-packets: %" PRIu64 "  RX-missed: %" PRIu64 "  RX-bytes: %" PRIu64 "\n"
	       "  RX-errors: %" PRIu64 "  RX-nombuf: %" PRIu64 "\n"
	       "  TX-packets: %" PRIu64 "  TX-errors: %" PRIu64 "  TX-bytes: %" PRIu64 "\n",
	       port_id, st.ipackets, st.imissed, st.ibytes, st.ierrors, st.rx_nombuf,
	       st.opackets, st.oerrors, st.obytes);
}

void
fwd_stats_xstats(uint16_t port_id)
{
	struct rte_eth_xstat_name *names;
	struct rte_eth_xstat *xs;
	int n = xstats_read(port_id, &names, &xs), k;

	if (n < 0) {
		printf("Port %u: xstats: cannot read\n", port_id);
		return;
	}
	printf("  ######## NIC extended statistics for port %u ########\n", port_id);
	for (k = 0; k < n; k++)
		printf("  %s: %" PRIu64 "\n", names[k].name, xs[k].value);
	free(names);
	free(xs);
}

void
fwd_stats_info(uint16_t port_id)
{
	struct fwd_port *fp = fwd_port_by_id(port_id);
	struct rte_eth_dev_info info;
	struct rte_eth_link link;
	struct rte_ether_addr mac;
	uint16_t mtu = 0;

	if (rte_eth_dev_info_get(port_id, &info) != 0) {
		printf("Port %u: no info\n", port_id);
		return;
	}
	memset(&link, 0, sizeof(link));
	rte_eth_link_get_nowait(port_id, &link);
	rte_eth_macaddr_get(port_id, &mac);
	rte_eth_dev_get_mtu(port_id, &mtu);
	printf("  ******** Infos for port %u ********\n"
	       "  Driver name: %s\n  Device name: %s\n  MAC address: " RTE_ETHER_ADDR_PRT_FMT
	       "\n  Link status: %s\n  Link speed: %s\n  MTU: %u\n  Queues: %u rx, %u tx\n",
	       port_id, info.driver_name, rte_dev_name(info.device), RTE_ETHER_ADDR_BYTES(&mac),
	       link.link_status ? "up" : "down", rte_eth_link_speed_to_str(link.link_speed),
	       mtu, fwd_cfg.nb_queues, fwd_cfg.nb_queues);
	if (fp != NULL && fp->ibdev != NULL)
		printf("  IB device: %s port %u, tx Q_Key 0x%08x\n", fp->ibdev->name, fp->ib_port,
		       fp->tx_qkey);
	if (fp != NULL)
		printf("  Forwards to: port %u\n", fp->peer);
}
