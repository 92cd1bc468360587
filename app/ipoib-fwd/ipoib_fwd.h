/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * dpdk-ipoib-fwd: private header shared by the app's files.
 *
 * Who does what:
 * - the main lcore parses the arguments (config.c), sets the ports up and
 *   waits for their links (ports.c), then either prints statistics every
 *   --stats-period seconds until SIGINT/SIGTERM (stats.c) or runs the
 *   interactive prompt (cmdline.c);
 * - worker lcores run the forwarding loop (lcore.c) over their streams,
 *   each stream handled by the engine of --forward-mode (fwd_*.c);
 * - one control thread (ports.c) creates the address handles that the
 *   addrswap engine asks for, since rte_ib_ah_create() is control side;
 * - net_ipoib ports are read through their lib/ipoib interface
 *   (fwd_pmd_ipoib.h) on the main lcore only: show ipoib, the progress
 *   lines while their joins and paths resolve (ipoib_show.c).
 */

#ifndef _IPOIB_FWD_H_
#define _IPOIB_FWD_H_

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include <rte_ib_dev.h>

struct rte_ipoib_if;

extern int ipoib_fwd_logtype;

/** The app's log macro: names the function, appends the newline. */
#define FWD_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, ipoib_fwd_logtype, "ipoib-fwd: %s(): " fmt "\n", \
		__func__, ##__VA_ARGS__)

#define FWD_MAX_PORTS		RTE_MAX_ETHPORTS
#define FWD_MAX_QUEUES		16
#define FWD_MAX_BURST		512
#define FWD_DEF_BURST		32
#define FWD_DEF_RXD		1024
#define FWD_DEF_TXD		1024
#define FWD_DEF_TXONLY_LEN	64
/* 4-byte IPoIB header + 20-byte IPv4 header + 8-byte UDP header */
#define FWD_MIN_TXONLY_LEN	32
#define FWD_DEF_LINK_TIMEOUT	90
#define FWD_UDP_PORT		9	/* discard (RFC 863), as testpmd's txonly */
/* LIDs 1..0xbfff are unicast (IBA 4.1.3): one cached AH each, per port */
#define FWD_AH_CACHE_SIZE	(RTE_IB_LID_UNICAST_MAX + 1)
#define FWD_AH_REQ_RING		1024
#define FWD_MAX_ROUTES		16

/* Why the route engine dropped a packet (fwd_route.c), one counter each. */
enum fwd_route_drop {
	FWD_RDROP_MALFORMED,		/* shorter than its headers say */
	FWD_RDROP_NOT_IP,		/* neither IPv4, IPv6 nor ARP */
	FWD_RDROP_NOT_ROUTABLE,		/* multicast, broadcast, link-local, unspecified */
	FWD_RDROP_TTL,			/* TTL or hop limit would reach 0 */
	FWD_RDROP_ARP_NOT_OURS,		/* ARP not a request we proxy (probe, gratuitous) */
	FWD_RDROP_ND_NOT_OURS,		/* ICMPv6 ND we do not proxy (DAD, link-local) */
	FWD_RDROP_NO_HEADROOM,		/* no room for the Ethernet header */
	FWD_RDROP_TX_FULL,		/* the port's tx ring was full */
	FWD_RDROP_COUNT,
};

enum fwd_mode {
	FWD_MODE_IO,
	FWD_MODE_RXONLY,
	FWD_MODE_TXONLY,
	FWD_MODE_ADDRSWAP,
	FWD_MODE_ROUTE,
	FWD_MODE_COUNT,
};

/** Everything the command line sets (config.c). */
struct fwd_config {
	uint64_t portmask;		/**< --portmask; 0: every port. */
	unsigned int nb_cores;		/**< --nb-cores; 0: every worker lcore. */
	enum fwd_mode mode;		/**< --forward-mode. */
	unsigned int stats_period;	/**< --stats-period, seconds; 0: none. */
	uint16_t burst;			/**< --burst. */
	uint16_t nb_queues;		/**< --rxq (tx queues as many). */
	uint16_t nb_rxd, nb_txd;	/**< --rxd, --txd. */
	bool dest_set;			/**< --txonly-dest given. */
	uint16_t dest_lid;		/**< --txonly-dest LID. */
	uint32_t dest_qpn;		/**< --txonly-dest QPN. */
	bool dest_qkey_set;		/**< --txonly-dest gave a Q_Key. */
	uint32_t dest_qkey;		/**< --txonly-dest Q_Key. */
	uint32_t reply_qpn;		/**< --reply-qpn; 0: the source QPN. */
	uint16_t txonly_len;		/**< --txonly-len: IPoIB payload bytes. */
	uint64_t txonly_count;		/**< --txonly-count per stream; 0: no limit. */
	uint64_t txonly_pps;		/**< --txonly-pps per stream; 0: no pacing. */
	uint32_t ip_src, ip_dst;	/**< --txonly-ip-src/-dst, network order. */
	bool dest_ip_set;		/**< --txonly-dest-ip given. */
	bool ip6;			/**< txonly sends IPv6 (--txonly-dest-ip was one). */
	uint8_t ip6_src[16], ip6_dst[16];	/**< IPv6 addresses of txonly. */
	uint8_t dest_ip[16];		/**< --txonly-dest-ip, IPv4 as ::ffff:a.b.c.d. */
	struct {
		uint16_t eth;		/**< Ethernet port (net_tap, net_memif...). */
		uint16_t l3;		/**< L3 port (net_ipoib mode=l3, net_tun). */
	} routes[FWD_MAX_ROUTES];	/**< --route pairs. */
	unsigned int nb_routes;
	bool record_cycles;		/**< --record-core-cycles. */
	bool idle_yield;		/**< --idle-yield. */
	bool interactive;		/**< -i. */
	unsigned int link_timeout;	/**< --link-timeout, seconds. */
};

/** One ethdev the app uses. Written by the main lcore before forwarding starts. */
struct fwd_port {
	uint16_t port_id;		/**< ethdev port id. */
	uint16_t peer;			/**< ethdev port id its streams transmit on. */
	struct rte_ib_device *ibdev;	/**< Its IB device; NULL: not a raw IB port. */
	uint8_t ib_port;		/**< IB port number, 1-based. */
	uint32_t tx_qkey;		/**< Q_Key of its tx queue 0 (rte_ib_ud_queue_info). */
	struct rte_ib_ah *dest_ah;	/**< AH for --txonly-dest on this port. */
	struct rte_ether_addr mac;	/**< Its MAC (txonly on an Ethernet port). */
	struct rte_ipoib_if *ipoib;	/**< net_ipoib: its lib/ipoib interface, else NULL. */
	bool l3;			/**< Carries bare IP packets (net_ipoib mode=l3, net_tun). */
	char driver[32];		/**< Driver name, for messages. */
	/*
	 * addrswap: the AH of each source LID, written once by the control
	 * thread (release) and read by the worker (acquire); freed after the
	 * workers and the port have stopped.
	 */
	struct rte_ib_ah **ah_cache;
	uint8_t *ah_asked;		/**< 1: the LID is in ah_req or cached. */
	struct rte_ring *ah_req;	/**< LIDs workers want an AH for (MP/SC). */
};

/** One rx queue -> tx queue flow, run by one lcore. */
struct fwd_stream {
	struct fwd_port *rxp;		/**< Receiving port. */
	struct fwd_port *txp;		/**< Transmitting port. */
	uint16_t rxq, txq;		/**< Queue ids. */
	unsigned int lcore;		/**< Worker lcore that runs it. */
	/* written by the worker only (relaxed), read by the main lcore */
	uint64_t rx_pkts;		/**< Packets received. */
	uint64_t tx_pkts;		/**< Packets the PMD took. */
	uint64_t tx_full;		/**< Dropped: tx ring full. */
	uint64_t no_ah;			/**< Dropped: no AH for the source LID yet (addrswap). */
	uint64_t busy_cycles;		/**< --record-core-cycles: TSC in bursts with work. */
	uint64_t busy_pkts;		/**< Packets those cycles handled. */
	/* route: drops by reason, [0] of rxp (Ethernet), [1] of txp (L3) */
	uint64_t rdrop[2][FWD_RDROP_COUNT];
	uint64_t arp_replies;		/**< route: proxy ARP replies sent. */
	uint64_t na_sent;		/**< route: proxy Neighbour Advertisements sent. */
	uint64_t flooded;		/**< route: sent to broadcast, peer MAC unknown. */
	/* txonly */
	uint64_t tx_left;		/**< Datagrams left to send (--txonly-count). */
	uint64_t next_tsc;		/**< Next send due (--txonly-pps). */
	uint64_t tsc_per_pkt;		/**< TSC between sends (--txonly-pps). */
} __rte_cache_aligned;

/** A forwarding engine (fwd_<name>.c). */
struct fwd_engine {
	const char *name;
	/** Control side, before the workers start: 0 or a negative errno (logged). */
	int (*prepare)(void);
	/** One pass over @p fs on its worker; returns the packets handled. */
	uint16_t (*run)(struct fwd_stream *fs);
};

extern struct fwd_config fwd_cfg;
extern struct fwd_port fwd_ports[FWD_MAX_PORTS];
extern unsigned int fwd_nb_ports;
extern struct fwd_stream *fwd_streams;
extern unsigned int fwd_nb_streams;
extern struct rte_mempool *fwd_pool;
extern volatile bool fwd_quit;
extern const struct fwd_engine *const fwd_engines[FWD_MODE_COUNT];

extern const struct fwd_engine fwd_engine_io;
extern const struct fwd_engine fwd_engine_rxonly;
extern const struct fwd_engine fwd_engine_txonly;
extern const struct fwd_engine fwd_engine_addrswap;
extern const struct fwd_engine fwd_engine_route;

/* A worker's counter update; the main lcore reads them while it runs. */
static inline void
fwd_count(uint64_t *c, uint64_t n)
{
	__atomic_store_n(c, *c + n, __ATOMIC_RELAXED);
}

/* Send @p n mbufs on @p fs's tx queue; what the ring does not take is freed and counted. */
static inline uint16_t
fwd_tx(struct fwd_stream *fs, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t k = rte_eth_tx_burst(fs->txp->port_id, fs->txq, pkts, n);

	fwd_count(&fs->tx_pkts, k);
	if (unlikely(k < n)) {
		fwd_count(&fs->tx_full, n - k);
		rte_pktmbuf_free_bulk(pkts + k, n - k);
	}
	return k;
}

/* main.c */
/**
 * The signals a kernel port (net_tap) raises per packet it gets: blocked
 * in every thread but the forwarding lcores (main.c, lcore.c).
 */
void fwd_rx_signals(sigset_t *set);

/* config.c */
/** Parse the app's arguments (after EAL's): 0, or -1 with the option named in the log. */
int fwd_config_parse(int argc, char **argv);
/** The usage text, on stdout. */
void fwd_config_usage(const char *prog);
/** Parse LID:QPN[:QKEY] into --txonly-dest's fields: 0, or -1 naming the field. */
int fwd_config_dest(const char *s);
/** Parse --txonly-dest-ip=@p s (IPv4 or IPv6): 0, or -1 naming the value. */
int fwd_config_dest_ip(const char *s);
/** "io", "rxonly", ... */
const char *fwd_mode_name(enum fwd_mode mode);

/* ports.c */
/** Configure and start the ports of --portmask: 0 or a negative errno. */
int fwd_ports_setup(void);
/** Wait for every link, one progress line a second: 0, or -ETIMEDOUT. */
int fwd_ports_wait_link(void);
/** Create the AHs --txonly-dest needs: 0 or a negative errno. */
int fwd_ports_dest_ah(void);
/** Forget the --txonly-dest AHs (forwarding stopped); they are freed at the close. */
void fwd_ports_dest_retire(void);
/** Start the thread that serves the AH requests of addrswap: 0 or a negative errno. */
int fwd_ports_ah_service_start(void);
/** Stop the ports, then free their AHs, close them. */
void fwd_ports_close(void);
/** The fwd_port of ethdev @p port_id, or NULL. */
struct fwd_port *fwd_port_by_id(uint16_t port_id);
/** Print the rte_ib attributes of @p fp (show ib port). */
void fwd_port_ib_show(const struct fwd_port *fp);
/** Name of an IB PortState. */
const char *fwd_ib_state_name(unsigned int state);

/* ipoib_show.c: net_ipoib ports, main lcore */
/** "show ipoib neigh|path|mcast" of port @p port_id. */
void fwd_ipoib_show(uint16_t port_id, const char *what);
/** One progress word of a net_ipoib port: "broadcast joined", ... into @p buf. */
void fwd_ipoib_progress(const struct fwd_port *fp, char *buf, size_t len);
/** Resolve --txonly-dest-ip on the net_ipoib ports, a progress line a second: 0 or -errno. */
int fwd_ipoib_resolve_dest(void);

/* fwd_route.c */
/** Name of a route drop reason ("ttl_exceeded"...). */
const char *fwd_route_drop_name(enum fwd_route_drop r);
/** Print the route engine's per-route counters (proxy replies, peer MAC). */
void fwd_route_stats(void);

/* lcore.c */
/** Build the streams and map them to worker lcores: 0 or a negative errno. */
int fwd_streams_setup(void);
/** Run the engine's prepare, then launch the workers: 0 or a negative errno. */
int fwd_start(void);
/** Stop the workers and wait for them. */
void fwd_stop(void);
/** true while the workers run. */
bool fwd_running(void);

/* stats.c */
/** Reset the period snapshots (forwarding starts). */
void fwd_stats_begin(void);
/** Print one period's line per port (stats-period / show port stats). */
void fwd_stats_period(void);
/** Print the totals since the start (exit, stop). */
void fwd_stats_final(void);
/** Print a port's ethdev statistics (show port stats). */
void fwd_stats_port(uint16_t port_id);
/** Print a port's xstats (show port xstats). */
void fwd_stats_xstats(uint16_t port_id);
/** Print a port's description (show port info). */
void fwd_stats_info(uint16_t port_id);

/* cmdline.c */
/** Run the prompt on stdin until quit, EOF or a signal. */
void fwd_prompt(void);

#endif /* _IPOIB_FWD_H_ */
