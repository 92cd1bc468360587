/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The ports: configure and start them, wait for their links (an IB port's
 * link is up once the SM has made it ACTIVE), the address handles of raw
 * IB ports (--txonly-dest, and the addrswap cache filled by a control
 * thread), "show ib port", and the close.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include <rte_ib_mbuf.h>
#include <rte_ipoib_if.h>

#include "fwd_pmd_ipoib.h"
#include "ipoib_fwd.h"

struct fwd_port fwd_ports[FWD_MAX_PORTS];
unsigned int fwd_nb_ports;
struct rte_mempool *fwd_pool;

/* --txonly-dest AHs replaced at the prompt: a reaped send may still name one */
static struct rte_ib_ah *retired[64];
static unsigned int nb_retired;
static pthread_t ah_thread;
static bool ah_thread_on;
static volatile bool ah_thread_stop;

struct fwd_port *
fwd_port_by_id(uint16_t port_id)
{
	unsigned int i;

	for (i = 0; i < fwd_nb_ports; i++)
		if (fwd_ports[i].port_id == port_id)
			return &fwd_ports[i];
	return NULL;
}

const char *
fwd_ib_state_name(unsigned int state)
{
	static const char *const names[] = {
		[RTE_IB_PORT_NOP] = "NOP", [RTE_IB_PORT_DOWN] = "DOWN",
		[RTE_IB_PORT_INIT] = "INIT", [RTE_IB_PORT_ARMED] = "ARMED",
		[RTE_IB_PORT_ACTIVE] = "ACTIVE", [RTE_IB_PORT_ACTIVE_DEFER] = "ACTIVE_DEFER",
	};

	return state < RTE_DIM(names) ? names[state] : "?";
}

static const char *
phys_state_name(unsigned int state)
{
	static const char *const names[] = {
		[0] = "?", [RTE_IB_PORT_PHYS_SLEEP] = "Sleep",
		[RTE_IB_PORT_PHYS_POLLING] = "Polling", [RTE_IB_PORT_PHYS_DISABLED] = "Disabled",
		[RTE_IB_PORT_PHYS_TRAINING] = "PortConfigurationTraining",
		[RTE_IB_PORT_PHYS_LINK_UP] = "LinkUp",
		[RTE_IB_PORT_PHYS_LINK_ERROR_RECOVERY] = "LinkErrorRecovery",
		[RTE_IB_PORT_PHYS_PHY_TEST] = "PhyTest",
	};

	return state < RTE_DIM(names) ? names[state] : "?";
}

static int
port_setup_one(struct fwd_port *fp)
{
	struct rte_eth_dev_info info;
	struct rte_eth_conf conf;
	uint16_t pid = fp->port_id, q;
	int ret;

	ret = rte_eth_dev_info_get(pid, &info);
	if (ret != 0)
		return ret;
	if (fwd_cfg.nb_queues > info.max_rx_queues || fwd_cfg.nb_queues > info.max_tx_queues) {
		FWD_LOG(ERR, "--rxq=%u: port %u (%s) has at most %u rx and %u tx queues",
			fwd_cfg.nb_queues, pid, info.driver_name, info.max_rx_queues,
			info.max_tx_queues);
		return -EINVAL;
	}
	memset(&conf, 0, sizeof(conf));
	if (*info.dev_flags & RTE_ETH_DEV_INTR_LSC)
		conf.intr_conf.lsc = 1;
	ret = rte_eth_dev_configure(pid, fwd_cfg.nb_queues, fwd_cfg.nb_queues, &conf);
	if (ret != 0) {
		FWD_LOG(ERR, "port %u: configure: %s", pid, strerror(-ret));
		return ret;
	}
	for (q = 0; q < fwd_cfg.nb_queues; q++) {
		ret = rte_eth_rx_queue_setup(pid, q, fwd_cfg.nb_rxd, rte_eth_dev_socket_id(pid),
					     NULL, fwd_pool);
		if (ret == 0)
			ret = rte_eth_tx_queue_setup(pid, q, fwd_cfg.nb_txd,
						     rte_eth_dev_socket_id(pid), NULL);
		if (ret != 0) {
			FWD_LOG(ERR, "port %u queue %u: setup (rxd %u, txd %u): %s", pid, q,
				fwd_cfg.nb_rxd, fwd_cfg.nb_txd, strerror(-ret));
			return ret;
		}
	}
	ret = rte_eth_dev_start(pid);
	if (ret != 0) {
		FWD_LOG(ERR, "port %u: start: %s", pid, strerror(-ret));
		return ret;
	}
	rte_eth_macaddr_get(pid, &fp->mac);
	snprintf(fp->driver, sizeof(fp->driver), "%s", info.driver_name);
	fp->ibdev = rte_ib_device_from_port_id(pid, &fp->ib_port);
	fp->ipoib = rte_pmd_ipoib_get_if(pid);
	/* DPDK's tap driver registers its TUN flavour as its own driver */
	fp->l3 = strcmp(info.driver_name, "net_tun") == 0;
	if (fp->ipoib != NULL) {
		struct rte_ipoib_if_info ii;

		if (rte_ipoib_if_info_get(fp->ipoib, &ii) != 0) {
			FWD_LOG(ERR, "port %u: rte_ipoib_if_info_get: %s", pid,
				rte_strerror(rte_errno));
			return -rte_errno;
		}
		fp->l3 = ii.mode == RTE_IPOIB_MODE_L3;
		printf("Port %u: %s, IPoIB interface %s (mode %s) on IB device %s port %u\n",
		       pid, info.driver_name, ii.name, fp->l3 ? "l3" : "eth",
		       ii.dev != NULL ? ii.dev->name : "?", ii.ib_port);
	} else if (fp->ibdev != NULL) {
		struct rte_ib_ud_queue_info qi;

		if (rte_ib_ud_queue_info(pid, 0, true, &qi) != 0) {
			FWD_LOG(ERR, "port %u: rte_ib_ud_queue_info: %s", pid,
				rte_strerror(rte_errno));
			return -rte_errno;
		}
		fp->tx_qkey = qi.qkey;
		printf("Port %u: %s, IB device %s port %u, tx QPN 0x%06x Q_Key 0x%08x\n", pid,
		       info.driver_name, fp->ibdev->name, fp->ib_port, qi.qpn, qi.qkey);
		if (rte_ib_ud_queue_info(pid, 0, false, &qi) == 0)
			printf("Port %u: rx QPN 0x%06x (the QPN peers send to)\n", pid, qi.qpn);
	} else {
		printf("Port %u: %s, MAC " RTE_ETHER_ADDR_PRT_FMT "\n", pid, info.driver_name,
		       RTE_ETHER_ADDR_BYTES(&fp->mac));
	}
	return 0;
}

int
fwd_ports_setup(void)
{
	unsigned int nb_mbufs, i;
	uint16_t pid;
	int ret;

	RTE_ETH_FOREACH_DEV(pid) {
		if (fwd_cfg.portmask != 0 && (pid >= 64 || !(fwd_cfg.portmask & (1ULL << pid))))
			continue;
		fwd_ports[fwd_nb_ports++].port_id = pid;
	}
	if (fwd_cfg.portmask != 0) {
		for (i = 0; i < 64; i++)
			if ((fwd_cfg.portmask & (1ULL << i)) && !rte_eth_dev_is_valid_port(i)) {
				FWD_LOG(ERR, "--portmask=0x%" PRIx64 ": no port %u (%u ports)",
					fwd_cfg.portmask, i, rte_eth_dev_count_avail());
				return -ENODEV;
			}
	}
	if (fwd_nb_ports == 0) {
		FWD_LOG(ERR, "no ethdev port: give the devices to EAL (-a, --vdev, -d)");
		return -ENODEV;
	}
	/* each port's rings full, plus what the lcores hold in their bursts */
	nb_mbufs = fwd_nb_ports * fwd_cfg.nb_queues * (fwd_cfg.nb_rxd + fwd_cfg.nb_txd +
		   2 * FWD_MAX_BURST) + 4096;
	/* room for a 4096-byte datagram (IB MTU 4096) in one segment */
	fwd_pool = rte_pktmbuf_pool_create("ipoib_fwd", nb_mbufs, 256, 0,
					   RTE_PKTMBUF_HEADROOM + 4096, rte_socket_id());
	if (fwd_pool == NULL) {
		FWD_LOG(ERR, "mbuf pool of %u: %s", nb_mbufs, rte_strerror(rte_errno));
		return -rte_errno;
	}
	if (rte_ib_mbuf_dynfield_register() < 0) {
		FWD_LOG(ERR, "rte_ib mbuf dynfield: %s", rte_strerror(rte_errno));
		return -rte_errno;
	}
	for (i = 0; i < fwd_nb_ports; i++) {
		ret = port_setup_one(&fwd_ports[i]);
		if (ret != 0)
			return ret;
		/* testpmd's paired topology: 0<->1, 2<->3; an odd last port with itself */
		fwd_ports[i].peer = fwd_ports[(i ^ 1) < fwd_nb_ports ? (i ^ 1) : i].port_id;
	}
	return 0;
}

/* "port 0 up, port 1 down (IB INIT)": the state of every link into @p buf. */
static bool
links_state(char *buf, size_t len)
{
	bool all_up = true;
	size_t off = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < fwd_nb_ports && off < len; i++) {
		struct fwd_port *fp = &fwd_ports[i];
		struct rte_ib_port_attr pa;
		struct rte_eth_link link;
		bool up;

		memset(&link, 0, sizeof(link));
		up = rte_eth_link_get_nowait(fp->port_id, &link) == 0 &&
		     link.link_status == RTE_ETH_LINK_UP;
		/*
		 * Only IB links are waited for (the SM, the broadcast join): an
		 * Ethernet port's state is shown, since net_tap cannot see its
		 * interface once moved to another network namespace and then
		 * reports it down while it forwards.
		 */
		if (fp->ibdev != NULL || fp->ipoib != NULL)
			all_up &= up;
		off += snprintf(buf + off, len - off, "%sport %u %s", i ? ", " : "",
				fp->port_id, up ? "up" : "down");
		if (fp->ibdev != NULL && off < len &&
		    rte_ib_port_attr_cached(fp->ibdev, fp->ib_port, &pa) == 0)
			off += snprintf(buf + off, len - off, " (IB %s, LID %u)",
					fwd_ib_state_name(pa.state), pa.lid);
		if (fp->ipoib != NULL && off < len) {
			char word[128];

			fwd_ipoib_progress(fp, word, sizeof(word));
			off += snprintf(buf + off, len - off, " (%s)", word);
		}
	}
	return all_up;
}

int
fwd_ports_wait_link(void)
{
	uint64_t hz = rte_get_timer_hz(), start = rte_get_timer_cycles(), next = start;
	char buf[1024];

	for (;;) {
		uint64_t now = rte_get_timer_cycles();
		bool up = links_state(buf, sizeof(buf));

		if (up) {
			printf("Links up after %.1f s: %s\n", (double)(now - start) / hz, buf);
			return 0;
		}
		if (fwd_quit)
			return -EINTR;
		if (now - start >= fwd_cfg.link_timeout * hz) {
			FWD_LOG(ERR, "links not up after --link-timeout=%u s: %s (an IB port "
				"needs a subnet manager to become ACTIVE)", fwd_cfg.link_timeout,
				buf);
			return -ETIMEDOUT;
		}
		if (now >= next) {
			printf("Waiting for links (%u s): %s\n", (unsigned int)((now - start) / hz),
			       buf);
			next += hz;
		}
		rte_delay_ms(50);
	}
}

static struct rte_ib_ah *
ah_for_lid(struct fwd_port *fp, uint16_t lid)
{
	struct rte_ib_ah_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.dlid = lid;
	attr.port_num = fp->ib_port;
	return rte_ib_ah_create(fp->ibdev, &attr);
}

int
fwd_ports_dest_ah(void)
{
	unsigned int i;

	for (i = 0; i < fwd_nb_ports; i++) {
		struct fwd_port *fp = &fwd_ports[i];

		if (fp->ibdev == NULL || fp->dest_ah != NULL)
			continue;
		fp->dest_ah = ah_for_lid(fp, fwd_cfg.dest_lid);
		if (fp->dest_ah == NULL) {
			FWD_LOG(ERR, "port %u: address handle for --txonly-dest LID %u: %s",
				fp->port_id, fwd_cfg.dest_lid, rte_strerror(rte_errno));
			return -rte_errno;
		}
	}
	return 0;
}

void
fwd_ports_dest_retire(void)
{
	unsigned int i;

	for (i = 0; i < fwd_nb_ports; i++) {
		struct fwd_port *fp = &fwd_ports[i];

		if (fp->dest_ah == NULL)
			continue;
		if (nb_retired < RTE_DIM(retired))
			retired[nb_retired++] = fp->dest_ah;
		else
			rte_ib_ah_destroy(fp->dest_ah);	/* full: fwd_stop() reaped the queues */
		fp->dest_ah = NULL;
	}
}

/*
 * The control thread of addrswap: takes the LIDs the workers found no AH
 * for, creates one each, publishes it (release: the AH is complete before
 * a worker can load its pointer).
 */
static void *
ah_service(void *arg __rte_unused)
{
	while (!ah_thread_stop) {
		unsigned int i, n, k;

		for (i = 0; i < fwd_nb_ports; i++) {
			struct fwd_port *fp = &fwd_ports[i];
			void *req[32];

			if (fp->ah_req == NULL)
				continue;
			n = rte_ring_sc_dequeue_burst(fp->ah_req, req, RTE_DIM(req), NULL);
			for (k = 0; k < n; k++) {
				uint16_t lid = (uint16_t)(uintptr_t)req[k];
				struct rte_ib_ah *ah = ah_for_lid(fp, lid);

				/* a failed LID stays asked: its datagrams keep counting no_ah */
				if (ah == NULL) {
					FWD_LOG(WARNING, "port %u: address handle for LID %u: %s",
						fp->port_id, lid, rte_strerror(rte_errno));
					continue;
				}
				__atomic_store_n(&fp->ah_cache[lid], ah, __ATOMIC_RELEASE);
			}
		}
		usleep(1000);
	}
	return NULL;
}

int
fwd_ports_ah_service_start(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < fwd_nb_ports; i++) {
		struct fwd_port *fp = &fwd_ports[i];
		char name[RTE_RING_NAMESIZE];

		if (fp->ibdev == NULL || fp->ah_cache != NULL)
			continue;
		snprintf(name, sizeof(name), "fwd_ah_%u", fp->port_id);
		fp->ah_cache = calloc(FWD_AH_CACHE_SIZE, sizeof(*fp->ah_cache));
		fp->ah_asked = calloc(FWD_AH_CACHE_SIZE, 1);
		fp->ah_req = rte_ring_create(name, FWD_AH_REQ_RING, rte_socket_id(),
					     RING_F_SC_DEQ);
		if (fp->ah_cache == NULL || fp->ah_asked == NULL || fp->ah_req == NULL) {
			FWD_LOG(ERR, "port %u: AH cache: %s", fp->port_id, strerror(ENOMEM));
			return -ENOMEM;
		}
	}
	if (ah_thread_on)
		return 0;
	ah_thread_stop = false;
	ret = rte_ctrl_thread_create(&ah_thread, "ipoib-fwd-ah", NULL, ah_service, NULL);
	if (ret != 0) {
		FWD_LOG(ERR, "AH thread: %s", strerror(ret));
		return -ret;
	}
	ah_thread_on = true;
	return 0;
}

void
fwd_ports_close(void)
{
	unsigned int i, lid;

	if (ah_thread_on) {
		ah_thread_stop = true;
		pthread_join(ah_thread, NULL);
		ah_thread_on = false;
	}
	for (i = 0; i < fwd_nb_ports; i++) {
		struct fwd_port *fp = &fwd_ports[i];
		int ret;

		/* the datagrams still queued name the AHs: stop the port first */
		ret = rte_eth_dev_stop(fp->port_id);
		if (ret != 0)
			FWD_LOG(WARNING, "port %u: stop: %s", fp->port_id, strerror(-ret));
		rte_ib_ah_destroy(fp->dest_ah);
		fp->dest_ah = NULL;
		if (fp->ah_cache != NULL)
			for (lid = 0; lid < FWD_AH_CACHE_SIZE; lid++)
				rte_ib_ah_destroy(fp->ah_cache[lid]);
		free(fp->ah_cache);
		free(fp->ah_asked);
		rte_ring_free(fp->ah_req);
		fp->ah_cache = NULL;
		fp->ah_asked = NULL;
		fp->ah_req = NULL;
		rte_eth_dev_close(fp->port_id);
	}
	while (nb_retired > 0)
		rte_ib_ah_destroy(retired[--nb_retired]);
	rte_mempool_free(fwd_pool);
	fwd_pool = NULL;
}

void
fwd_port_ib_show(const struct fwd_port *fp)
{
	struct rte_ib_device *dev = fp->ibdev;
	uint8_t port = fp->ib_port;
	struct rte_ib_port_attr pa;
	struct rte_ib_gid gid;
	char line[512];
	size_t off = 0;
	uint16_t i, pkey;

	/* a net_ipoib port shows the IB port under its interface */
	if (dev == NULL && fp->ipoib != NULL) {
		struct rte_ipoib_if_info ii;

		if (rte_ipoib_if_info_get(fp->ipoib, &ii) == 0) {
			dev = ii.dev;
			port = ii.ib_port;
		}
	}
	if (dev == NULL) {
		printf("Port %u: not an IB port\n", fp->port_id);
		return;
	}
	if (rte_ib_query_port(dev, port, &pa) != 0) {
		printf("Port %u: %s port %u: query: %s\n", fp->port_id, dev->name, port,
		       rte_strerror(rte_errno));
		return;
	}
	printf("IB port of ethdev %u: %s port %u\n", fp->port_id, dev->name, port);
	printf("  State: %s\n  Physical state: %s\n  LID: %u\n  SM LID: %u\n  LMC: %u\n"
	       "  MTU: %u\n  Rate: %u Gb/s\n", fwd_ib_state_name(pa.state),
	       phys_state_name(pa.phys_state), pa.lid, pa.sm_lid, pa.lmc,
	       rte_ib_mtu_to_bytes(pa.active_mtu),
	       rte_ib_link_rate_mbps(pa.active_width, pa.active_speed) / 1000);
	if (rte_ib_query_gid(dev, port, 0, &gid) == 0) {
		printf("  GID[0]: ");
		for (i = 0; i < RTE_IB_GID_LEN; i += 2)
			printf("%s%02x%02x", i ? ":" : "", gid.raw[i], gid.raw[i + 1]);
		printf("\n");
	}
	for (i = 0; i < pa.pkey_tbl_len && off < sizeof(line); i++)
		if (rte_ib_query_pkey(dev, port, i, &pkey) == 0 &&
		    (pkey & 0x7fff) != 0)
			off += snprintf(line + off, sizeof(line) - off, " [%u]0x%04x", i, pkey);
	printf("  P_Keys:%s\n", off ? line : " none");
}
