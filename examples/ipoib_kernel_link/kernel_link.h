/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef KERNEL_LINK_H
#define KERNEL_LINK_H

/*
 * dpdk-ipoib-kernel-link (doc/guides/sample_app_ug/ipoib_kernel_link.rst):
 * one ethdev port (the IB side, a net_ipoib port or any ethdev) bridged to
 * the kernel through a port the app creates (net_tap, net_tun or
 * virtio_user over vhost-net). State shared by the files of the app.
 */

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <net/if.h>

#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_log.h>

extern int klink_logtype;
#define KLINK_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, klink_logtype, "kernel-link: " fmt "\n", \
		##__VA_ARGS__)

#define KLINK_DEF_BURST		32
#define KLINK_MAX_BURST		512
#define KLINK_DEF_IDLE_US	50
#define KLINK_MAX_IDLE_US	10000
/* Timer slack of a data lcore that naps (prctl PR_SET_TIMERSLACK). */
#define KLINK_TIMER_SLACK_NS	1000
#define KLINK_MAX_STATS_PERIOD	3600
#define KLINK_NB_DESC		1024
#define KLINK_DEF_IFACE		"ipoib0"
/* Empty polls in a row before a data lcore naps (--idle-sleep). */
#define KLINK_IDLE_POLLS	1024

/* What the kernel side is (--kind). */
enum klink_kind {
	KLINK_KIND_TAP,		/**< net_tap: Ethernet frames (net_ipoib mode=eth) */
	KLINK_KIND_TUN,		/**< net_tun: bare IP packets (net_ipoib mode=l3) */
	KLINK_KIND_VIRTIO,	/**< virtio_user over /dev/vhost-net: Ethernet */
	KLINK_KIND_COUNT,
};

/* The command line, parsed once by klink_config_parse() before any port. */
struct klink_config {
	enum klink_kind kind;
	char iface[IF_NAMESIZE];	/**< kernel interface name */
	uint16_t ib_port;		/**< IB-side ethdev port id */
	unsigned int data_lcores;	/**< 1: both directions on one lcore; 2: one each */
	unsigned int burst;
	unsigned int idle_us;		/**< nap when idle, 0: busy poll */
	unsigned int stats_period;	/**< seconds, 0: final statistics only */
	const char *vhost_path;		/**< vhost-net device of virtio_user */
};

extern struct klink_config klink_cfg;
extern const char *const klink_kind_names[KLINK_KIND_COUNT];

/*
 * The signals a kernel port may raise per packet: net_tap's rx trigger
 * (F_SETOWN to the process; SIGIO or a real-time signal). main.c blocks
 * them in every thread; the data lcore that polls the kernel port takes
 * them (fwd.c).
 */
void klink_rx_signals(sigset_t *set);

/*
 * One direction, rx on one port, tx on the other. The counters are written
 * only by the data lcore that owns the direction and read by the main
 * lcore (relaxed atomics: a statistics line may be a burst behind).
 */
struct klink_dir {
	const char *name;	/**< "ib->kernel" or "kernel->ib" */
	uint16_t rx_port;
	uint16_t tx_port;
	uint64_t rx_pkts;
	uint64_t tx_pkts;
	uint64_t tx_drops;	/**< received but not taken by tx: freed */
} __rte_cache_aligned;

/* The two ports and the directions between them. */
struct klink_ports {
	uint16_t ib;
	uint16_t kernel;
	char kernel_name[RTE_ETH_NAME_MAX_LEN];
	struct klink_dir dir[2];	/**< [0] ib->kernel, [1] kernel->ib */
};

extern volatile bool klink_quit;

int klink_config_parse(int argc, char **argv);
void klink_config_usage(const char *prog);

int klink_kport_create(struct klink_ports *p);
void klink_kport_destroy(struct klink_ports *p);
int klink_kport_mirror_mtu(const struct klink_ports *p);
int klink_kport_mirror_link(const struct klink_ports *p, int *kernel_up);

int klink_fwd_start(struct klink_ports *p);
void klink_fwd_wait(void);

#endif /* KERNEL_LINK_H */
