/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * net_mthca: PCI table, probe and remove, devargs, the ethdev operations
 * and the driver registration. One ethdev per IB port of the HCA.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include <bus_pci_driver.h>
#include <ethdev_driver.h>
#include <ethdev_pci.h>
#include <rte_kvargs.h>
#include <rte_malloc.h>

#include "mthca.h"
#include "mthca_cmd.h"
#include "mthca_mp.h"
#include "mthca_port.h"
#include "mthca_queue.h"
#include "mthca_rxtx.h"
#include "mthca_sim.h"
#include "mthca_stats.h"

RTE_LOG_REGISTER_DEFAULT(mthca_logtype, NOTICE);

static const char *const valid_args[] = {
	MTHCA_ARG_NODE_DESC,
	NULL,
};

/* Linux mthca_pci_table: every mthca HCA, Mellanox and Topspin branded. */
static const struct rte_pci_id mthca_pci_id_map[] = {
	{ RTE_PCI_DEVICE(MTHCA_VENDOR_MELLANOX, MTHCA_DEV_TAVOR) },
	{ RTE_PCI_DEVICE(MTHCA_VENDOR_MELLANOX, MTHCA_DEV_ARBEL_COMPAT) },
	{ RTE_PCI_DEVICE(MTHCA_VENDOR_MELLANOX, MTHCA_DEV_ARBEL) },
	{ RTE_PCI_DEVICE(MTHCA_VENDOR_MELLANOX, MTHCA_DEV_SINAI_OLD) },
	{ RTE_PCI_DEVICE(MTHCA_VENDOR_MELLANOX, MTHCA_DEV_SINAI) },
	{ RTE_PCI_DEVICE(MTHCA_VENDOR_TOPSPIN, MTHCA_DEV_TAVOR) },
	{ RTE_PCI_DEVICE(MTHCA_VENDOR_TOPSPIN, MTHCA_DEV_ARBEL_COMPAT) },
	{ RTE_PCI_DEVICE(MTHCA_VENDOR_TOPSPIN, MTHCA_DEV_ARBEL) },
	{ RTE_PCI_DEVICE(MTHCA_VENDOR_TOPSPIN, MTHCA_DEV_SINAI_OLD) },
	{ RTE_PCI_DEVICE(MTHCA_VENDOR_TOPSPIN, MTHCA_DEV_SINAI) },
	{ .vendor_id = 0 },
};

/* ---- devargs ------------------------------------------------------------ */

static int
parse_node_desc(const char *key, const char *value, void *arg)
{
	char shown[4 * MTHCA_NODE_DESC_LEN + 1];
	char *out = arg;
	size_t i, j, o;

	if (value == NULL || value[0] == '\0' || strlen(value) > MTHCA_NODE_DESC_LEN) {
		MTHCA_LOG(ERR, "%s=%s: a NodeDescription is 1 to %d characters", key,
			  value != NULL ? value : "", MTHCA_NODE_DESC_LEN);
		return -EINVAL;
	}
	/*
	 * NodeDescription is UTF-8 text (IBA 14.2.5.2) that SMs and diags
	 * print as is: no control characters (C0 and DEL; UTF-8 bytes from
	 * 0x80 up are text). Logged escaped, not echoed raw.
	 */
	for (i = 0; value[i] != '\0'; i++)
		if ((unsigned char)value[i] < 0x20 || value[i] == 0x7f)
			break;
	if (value[i] != '\0') {
		for (j = 0, o = 0; value[j] != '\0' && o + 5 < sizeof(shown); j++) {
			unsigned char c = (unsigned char)value[j];

			if (c < 0x20 || c == 0x7f)
				o += snprintf(shown + o, sizeof(shown) - o, "\\x%02x", c);
			else
				shown[o++] = (char)c;
		}
		shown[o] = '\0';
		MTHCA_LOG(ERR, "%s=%s: control character 0x%02x at byte %zu: a NodeDescription is printable text",
			  key, shown, (unsigned char)value[i], i);
		return -EINVAL;
	}
	snprintf(out, MTHCA_NODE_DESC_LEN + 1, "%s", value);
	return 0;
}

static int
parse_devargs(const struct rte_devargs *da, struct mthca_dev *dev)
{
	struct rte_kvargs *kv;
	int ret = 0;

	if (da == NULL || da->args == NULL || da->args[0] == '\0')
		return 0;
	kv = rte_kvargs_parse(da->args, valid_args);
	if (kv == NULL) {
		MTHCA_LOG(ERR, "%s: bad devargs \"%s\"; valid keys: %s", dev->name, da->args,
			  MTHCA_ARG_NODE_DESC);
		return -EINVAL;
	}
	if (rte_kvargs_count(kv, MTHCA_ARG_NODE_DESC) > 1) {
		MTHCA_LOG(ERR, "%s: %s given more than once", dev->name, MTHCA_ARG_NODE_DESC);
		ret = -EINVAL;
	} else if (rte_kvargs_count(kv, MTHCA_ARG_NODE_DESC) == 1) {
		ret = rte_kvargs_process(kv, MTHCA_ARG_NODE_DESC, parse_node_desc, dev->node_desc);
	}
	rte_kvargs_free(kv);
	return ret;
}

/* ---- link --------------------------------------------------------------- */

static const struct eth_dev_ops ops;

static void
port_link_fill(const struct mthca_port *p, struct rte_eth_link *link)
{
	memset(link, 0, sizeof(*link));
	link->link_duplex = RTE_ETH_LINK_FULL_DUPLEX;
	link->link_autoneg = RTE_ETH_LINK_FIXED;
	/* IBA 14.2.5.6: logical state Active is when data may flow */
	link->link_status = p->state == 4 ? RTE_ETH_LINK_UP : RTE_ETH_LINK_DOWN;
	link->link_speed = link->link_status == RTE_ETH_LINK_UP ?
			   mthca_port_rate_mbps(p->width_active, p->speed_active) :
			   RTE_ETH_SPEED_NUM_NONE;
}

static int
port_refresh(struct mthca_port *p)
{
	struct mthca_port_info pi;
	int ret;

	ret = mthca_port_query(p->dev, p->port, &pi);
	if (ret != 0) {
		p->state = 1;
		return ret;
	}
	p->state = pi.state;
	p->phys_state = pi.phys_state;
	p->width_active = pi.width_active;
	p->speed_active = pi.speed_active;
	p->active_mtu = pi.mtu_active;
	p->max_mtu = pi.mtu_cap;
	p->lid = pi.lid;
	return 0;
}

static int
mthca_dev_link_update(struct rte_eth_dev *eth, int wait)
{
	struct mthca_port *p = eth->data->dev_private;
	struct rte_eth_link link;

	RTE_SET_USED(wait);
	port_refresh(p);
	port_link_fill(p, &link);
	return rte_eth_linkstatus_set(eth, &link);
}

static struct mthca_port *
mthca_port_of(struct mthca_dev *dev, uint16_t port_id)
{
	struct mthca_port *p;

	if (!rte_eth_dev_is_valid_port(port_id) ||
	    rte_eth_devices[port_id].dev_ops != &ops)
		return NULL;
	p = rte_eth_devices[port_id].data->dev_private;
	return p != NULL && p->dev == dev ? p : NULL;
}

/*
 * The ethdevs on IB port @p port: its own and its UD ports', copied under
 * ud_lock so that no callback runs with the lock held (an LSC callback may
 * destroy a UD port).
 */
static unsigned int
port_ethdevs(struct mthca_dev *dev, uint8_t port, uint16_t *ids)
{
	unsigned int i, n = 0;

	if (dev->eth_port[port - 1] != RTE_MAX_ETHPORTS)
		ids[n++] = dev->eth_port[port - 1];
	pthread_mutex_lock(&dev->ud_lock);
	for (i = 0; i < MTHCA_MAX_UD_PORTS; i++) {
		struct mthca_port *p;

		if (dev->ud_port[i] == RTE_MAX_ETHPORTS)
			continue;
		p = rte_eth_devices[dev->ud_port[i]].data->dev_private;
		if (p->port == port)
			ids[n++] = dev->ud_port[i];
	}
	pthread_mutex_unlock(&dev->ud_lock);
	return n;
}

/* Link of every ethdev on IB port @p port after a change; LSC callbacks. */
static void
port_link_changed(struct mthca_dev *dev, uint8_t port, bool active, bool refresh)
{
	uint16_t ids[1 + MTHCA_MAX_UD_PORTS];
	unsigned int i, n = port_ethdevs(dev, port, ids);

	for (i = 0; i < n; i++) {
		struct mthca_port *p = mthca_port_of(dev, ids[i]);
		struct rte_eth_dev *eth;
		struct rte_eth_link link;

		if (p == NULL)
			continue;	/* a UD port destroyed since */
		eth = &rte_eth_devices[ids[i]];
		if (!refresh || port_refresh(p) != 0 || !active)
			p->state = active ? 4 : 1;
		port_link_fill(p, &link);
		/* rte_eth_linkstatus_set() returns 0 when the status changed */
		if (rte_eth_linkstatus_set(eth, &link) == 0 && eth->data->dev_conf.intr_conf.lsc)
			rte_eth_dev_callback_process(eth, RTE_ETH_EVENT_INTR_LSC, NULL);
	}
}

/* Called from the EQ drain (EAL interrupt thread) on a PORT_CHANGE event. */
static void
mthca_port_event(struct mthca_dev *dev, uint8_t port, bool active)
{
	if (port == 0 || port > dev->num_ports)
		return;
	MTHCA_LOG(INFO, "%s: port %u %s", dev->name, port, active ? "active" : "down");
	port_link_changed(dev, port, active, true);
	mthca_ib_port_event(dev, port, active);
}

static void
mthca_dev_gone(struct mthca_dev *dev)
{
	unsigned int p;

	dev->catastrophic = true;
	for (p = 1; p <= dev->num_ports && p <= MTHCA_MAX_PORTS; p++) {
		port_link_changed(dev, (uint8_t)p, false, false);
		mthca_ib_port_event(dev, (uint8_t)p, false);
	}
	mthca_ib_fatal(dev);
}


/* ---- ethdev operations -------------------------------------------------- */

static uint16_t
ib_mtu_bytes(uint8_t mtu)
{
	return mtu >= 1 && mtu <= 5 ? (uint16_t)(128u << mtu) : 2048;
}

static int
mthca_dev_infos_get(struct rte_eth_dev *eth, struct rte_eth_dev_info *info)
{
	struct mthca_port *p = eth->data->dev_private;
	struct mthca_dev *dev = p->dev;
	uint16_t mtu = RTE_MIN(ib_mtu_bytes(dev->mtu_cap), 2048);

	/* UD QPs carry at most 2048 bytes (QPC mtu_msgmax of UD, Linux) */
	info->min_mtu = RTE_ETHER_MIN_MTU;
	info->max_mtu = mtu;
	info->max_rx_pktlen = mtu;
	info->min_rx_bufsize = MTHCA_GRH_SIZE;
	info->max_rx_queues = MTHCA_MAX_QUEUES;
	info->max_tx_queues = MTHCA_MAX_QUEUES;
	info->max_mac_addrs = 1;
	info->rx_desc_lim.nb_max = RTE_MIN(dev->max_qp_sz, (uint32_t)MTHCA_MAX_DESC);
	info->rx_desc_lim.nb_min = MTHCA_MIN_DESC;
	info->rx_desc_lim.nb_align = 1;
	info->tx_desc_lim = info->rx_desc_lim;
	info->tx_desc_lim.nb_seg_max = MTHCA_TX_MAX_SEGS;
	info->tx_desc_lim.nb_mtu_seg_max = MTHCA_TX_MAX_SEGS;
	/* gather and fast free are the only offloads done */
	info->tx_offload_capa = MTHCA_TX_OFFLOADS;
	info->rx_offload_capa = 0;
	info->speed_capa = RTE_ETH_LINK_SPEED_10G | RTE_ETH_LINK_SPEED_20G;
	info->default_rxportconf.ring_size = 512;
	info->default_txportconf.ring_size = 512;
	info->default_rxportconf.nb_queues = 1;
	info->default_txportconf.nb_queues = 1;
	return 0;
}

static int
mthca_dev_configure(struct rte_eth_dev *eth)
{
	struct rte_eth_conf *c = &eth->data->dev_conf;

	if (c->rxmode.mq_mode != RTE_ETH_MQ_RX_NONE) {
		MTHCA_LOG(ERR, "port %u: rx mq_mode %d: no RSS on an IB port", eth->data->port_id,
			  c->rxmode.mq_mode);
		return -EINVAL;
	}
	if (c->rxmode.offloads != 0 || (c->txmode.offloads & ~MTHCA_TX_OFFLOADS)) {
		MTHCA_LOG(ERR, "port %u: offloads rx 0x%" PRIx64 " tx 0x%" PRIx64
			  " not supported", eth->data->port_id, c->rxmode.offloads,
			  c->txmode.offloads);
		return -ENOTSUP;
	}
	return 0;
}

static int mthca_dev_stop(struct rte_eth_dev *eth);

static int
mthca_dev_start(struct rte_eth_dev *eth)
{
	struct mthca_port *p = eth->data->dev_private;
	uint16_t i;
	int ret = 0;

	for (i = 0; i < eth->data->nb_rx_queues && ret == 0; i++)
		ret = mthca_rxq_start(eth->data->rx_queues[i]);
	for (i = 0; i < eth->data->nb_tx_queues && ret == 0; i++)
		ret = mthca_txq_start(eth->data->tx_queues[i]);
	if (ret != 0) {
		for (i = 0; i < eth->data->nb_rx_queues; i++)
			mthca_rxq_stop(eth->data->rx_queues[i]);
		for (i = 0; i < eth->data->nb_tx_queues; i++)
			mthca_txq_stop(eth->data->tx_queues[i]);
		return ret;
	}
	for (i = 0; i < eth->data->nb_rx_queues; i++)
		eth->data->rx_queue_state[i] = RTE_ETH_QUEUE_STATE_STARTED;
	for (i = 0; i < eth->data->nb_tx_queues; i++)
		eth->data->tx_queue_state[i] = RTE_ETH_QUEUE_STATE_STARTED;
	p->started = true;
	ret = mthca_tx_watch_start(eth);
	if (ret != 0) {
		mthca_dev_stop(eth);
		return ret;
	}
	mthca_dev_link_update(eth, 0);
	return 0;
}

static int
mthca_dev_stop(struct rte_eth_dev *eth)
{
	struct mthca_port *p = eth->data->dev_private;
	uint16_t i;

	p->started = false;
	eth->data->dev_started = 0;
	/* before the queues: a recovery under way finishes, none starts */
	mthca_tx_watch_stop(eth);
	for (i = 0; i < eth->data->nb_rx_queues; i++) {
		mthca_rxq_stop(eth->data->rx_queues[i]);
		eth->data->rx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
	}
	for (i = 0; i < eth->data->nb_tx_queues; i++) {
		mthca_txq_stop(eth->data->tx_queues[i]);
		eth->data->tx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
	}
	return 0;
}

static void mthca_dev_free(struct mthca_dev *dev);

static int
mthca_dev_close(struct rte_eth_dev *eth)
{
	struct mthca_port *p = eth->data->dev_private;
	struct mthca_dev *dev = p->dev;
	uint16_t i;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return 0;
	if (p->started)
		mthca_dev_stop(eth);
	for (i = 0; i < eth->data->nb_rx_queues; i++) {
		mthca_rxq_release(eth->data->rx_queues[i]);
		eth->data->rx_queues[i] = NULL;
	}
	for (i = 0; i < eth->data->nb_tx_queues; i++) {
		mthca_txq_release(eth->data->tx_queues[i]);
		eth->data->tx_queues[i] = NULL;
	}
	if (p->ud) {
		pthread_mutex_lock(&dev->ud_lock);
		for (i = 0; i < MTHCA_MAX_UD_PORTS; i++)
			if (dev->ud_port[i] == p->port_id)
				dev->ud_port[i] = RTE_MAX_ETHPORTS;
		pthread_mutex_unlock(&dev->ud_lock);
	} else {
		dev->eth_port[p->port - 1] = RTE_MAX_ETHPORTS;
	}
	eth->data->mac_addrs = NULL;	/* p->mac, freed with the private data */
	if (--dev->nports_open == 0)
		mthca_dev_free(dev);
	return 0;
}

static int
mthca_dev_reset(struct rte_eth_dev *eth)
{
	struct mthca_port *p = eth->data->dev_private;
	uint16_t i;

	/* back to the configured-but-not-started state: queues recreated */
	if (p->started)
		mthca_dev_stop(eth);
	for (i = 0; i < eth->data->nb_rx_queues; i++) {
		mthca_rxq_release(eth->data->rx_queues[i]);
		eth->data->rx_queues[i] = NULL;
	}
	for (i = 0; i < eth->data->nb_tx_queues; i++) {
		mthca_txq_release(eth->data->tx_queues[i]);
		eth->data->tx_queues[i] = NULL;
	}
	eth->data->nb_rx_queues = 0;
	eth->data->nb_tx_queues = 0;
	return 0;
}

static int
mthca_dev_mtu_set(struct rte_eth_dev *eth, uint16_t mtu)
{
	struct mthca_port *p = eth->data->dev_private;
	uint16_t max = RTE_MIN(ib_mtu_bytes(p->active_mtu ? p->active_mtu : p->dev->mtu_cap),
			       2048);

	if (mtu > max) {
		MTHCA_LOG(ERR, "port %u: MTU %u above the IB port's %u", eth->data->port_id, mtu,
			  max);
		return -EINVAL;
	}
	p->mtu = mtu;
	return 0;
}

static int
mthca_dev_fw_version_get(struct rte_eth_dev *eth, char *fw, size_t len)
{
	struct mthca_port *p = eth->data->dev_private;
	unsigned int maj, min, sub;
	int n;

	mthca_fw_ver_split(p->dev->fw_ver, &maj, &min, &sub);
	n = snprintf(fw, len, "%u.%u.%u", maj, min, sub) + 1;
	return (size_t)n > len ? n : 0;
}

/*
 * A UD QP receives only datagrams whose destination QPN is its own, or
 * those of the multicast groups it is attached to (IBA 10.8.1, 10.5.2.3):
 * there is no address filter to open, so promiscuous and all-multicast
 * reception cannot be turned on. Turning them off is what the port
 * always is. Multicast groups are joined through the SA and attached
 * with rte_ib_mcast_attach() (doc/guides/nics/mthca.rst).
 */
static int
mthca_dev_filter_open(struct rte_eth_dev *eth)
{
	RTE_SET_USED(eth);
	return -ENOTSUP;
}

static int
mthca_dev_filter_close(struct rte_eth_dev *eth)
{
	RTE_SET_USED(eth);
	return 0;
}

static const struct eth_dev_ops ops = {
	.dev_configure = mthca_dev_configure,
	.dev_start = mthca_dev_start,
	.dev_stop = mthca_dev_stop,
	.dev_close = mthca_dev_close,
	.dev_reset = mthca_dev_reset,
	.dev_infos_get = mthca_dev_infos_get,
	.link_update = mthca_dev_link_update,
	.promiscuous_enable = mthca_dev_filter_open,
	.promiscuous_disable = mthca_dev_filter_close,
	.allmulticast_enable = mthca_dev_filter_open,
	.allmulticast_disable = mthca_dev_filter_close,
	.mtu_set = mthca_dev_mtu_set,
	.fw_version_get = mthca_dev_fw_version_get,
	.stats_get = mthca_dev_stats_get,
	.stats_reset = mthca_dev_stats_reset,
	.xstats_get = mthca_dev_xstats_get,
	.xstats_get_names = mthca_dev_xstats_get_names,
	.xstats_reset = mthca_dev_stats_reset,
	.rx_queue_setup = mthca_rx_queue_setup,
	.tx_queue_setup = mthca_tx_queue_setup,
	.rx_queue_release = mthca_rx_queue_release,
	.tx_queue_release = mthca_tx_queue_release,
};

/* ---- probe and remove --------------------------------------------------- */

static void
mthca_dev_free(struct mthca_dev *dev)
{
	mthca_ib_unregister(dev);
	mthca_hca_close(dev);
	if (dev->sim != NULL)
		mthca_sim_close(dev);
	else if (dev->bar0 != NULL)
		rte_pci_unmap_device(dev->pci);
	pthread_mutex_destroy(&dev->ud_lock);
	pthread_mutex_destroy(&dev->mcg_lock);
	pthread_mutex_destroy(&dev->eq_lock);
	pthread_mutex_destroy(&dev->cmd_lock);
	rte_free(dev);
}

static const char *
refused_mode(uint16_t device_id)
{
	switch (device_id) {
	case MTHCA_DEV_TAVOR:
		return "MT23108 InfiniHost (Tavor): HCA-attached memory, not mem-free";
	case MTHCA_DEV_ARBEL_COMPAT:
		return "MT25208 InfiniHost III Ex in MT23108 (Tavor) compatibility mode";
	case MTHCA_DEV_SINAI:
	case MTHCA_DEV_SINAI_OLD:
		return "MT25204 InfiniHost III Lx (Sinai)";
	default:
		return NULL;
	}
}

static int
map_bars(struct mthca_dev *dev)
{
	struct rte_pci_device *pci = dev->pci;
	int ret;

	if (mthca_sim_detect(pci))
		return mthca_sim_open(dev);
	if (pci->kdrv != RTE_PCI_KDRV_VFIO && pci->kdrv != RTE_PCI_KDRV_IGB_UIO &&
	    pci->kdrv != RTE_PCI_KDRV_UIO_GENERIC) {
		MTHCA_LOG(ERR, "%s: not bound to vfio-pci or uio_pci_generic and not a "
			  "simulated function", dev->name);
		return -ENODEV;
	}
	ret = rte_pci_map_device(pci);
	if (ret != 0) {
		MTHCA_LOG(ERR, "%s: cannot map the BARs", dev->name);
		return -ENODEV;
	}
	dev->bar0 = pci->mem_resource[MTHCA_BAR_HCR].addr;
	dev->bar0_len = pci->mem_resource[MTHCA_BAR_HCR].len;
	dev->bar2 = pci->mem_resource[MTHCA_BAR_UAR].addr;
	dev->bar2_len = pci->mem_resource[MTHCA_BAR_UAR].len;
	if (dev->bar2 == NULL) {
		MTHCA_LOG(ERR, "%s: no BAR2 (UAR pages)", dev->name);
		return -ENODEV;
	}
	/* Linux mthca_reset: BE32 1 to the reset register, wait a second */
	mthca_bar0_write32(dev, MTHCA_RESET_OFFSET, MTHCA_RESET_VALUE);
	sleep(1);
	return 0;
}

/* The ethdev name of IB port @p port of PCI function @p pci: "_p2" added for port 2. */
static void
port_name(const char *pci, uint8_t port, char *name, size_t len)
{
	if (port == 1)
		snprintf(name, len, "%s", pci);
	else
		snprintf(name, len, "%.48s_p%u", pci, port);
}

/*
 * The ethdev @p name on IB port @p port, probed: for the port itself, or
 * with @p ud for a UD port on it (whose MAC, made up as the port's, holds
 * @p pkey instead of the PCI address's first byte).
 */
static int
port_alloc(struct mthca_dev *dev, uint8_t port, const char *name, bool ud, uint16_t pkey,
	   uint16_t pkey_index, struct mthca_port **out)
{
	struct rte_eth_dev *eth;
	struct mthca_port *p;

	if (rte_eth_dev_allocated(name) != NULL) {
		MTHCA_LOG(ERR, "%s: ethdev %s exists", dev->name, name);
		return -EEXIST;
	}
	eth = rte_eth_dev_allocate(name);
	if (eth == NULL) {
		MTHCA_LOG(ERR, "%s: no ethdev %s for port %u", dev->name, name, port);
		return -ENOSPC;
	}
	p = rte_zmalloc_socket(name, sizeof(*p), RTE_CACHE_LINE_SIZE, dev->pci->device.numa_node);
	if (p == NULL) {
		rte_eth_dev_release_port(eth);
		return -ENOMEM;
	}
	p->dev = dev;
	p->port = port;
	p->ud = ud;
	p->pkey_index = pkey_index;
	p->port_id = eth->data->port_id;
	p->mtu = 2048;
	p->state = 1;
	/* the Q_Key OpenSM gives the IPoIB broadcast group by default */
	p->qkey = MTHCA_DEFAULT_QKEY;
	eth->data->dev_private = p;
	eth->device = &dev->pci->device;
	eth->dev_ops = &ops;
	eth->rx_pkt_burst = mthca_rx_burst;
	eth->tx_pkt_burst = mthca_tx_burst;
	eth->rx_descriptor_status = mthca_rx_descriptor_status;
	eth->data->mtu = 2048;
	eth->data->dev_flags |= RTE_ETH_DEV_INTR_LSC;
	/* ethdev wants a MAC: a locally administered one from the PCI address and port */
	p->mac.addr_bytes[0] = ud ? 0x06 : 0x02;
	p->mac.addr_bytes[1] = ud ? (uint8_t)(pkey >> 8) : 0x15;
	p->mac.addr_bytes[2] = ud ? (uint8_t)pkey : 0xb3;
	p->mac.addr_bytes[3] = dev->pci->addr.bus;
	p->mac.addr_bytes[4] = (uint8_t)((dev->pci->addr.devid << 3) | dev->pci->addr.function);
	p->mac.addr_bytes[5] = port;
	eth->data->mac_addrs = &p->mac;
	dev->nports_open++;
	port_refresh(p);
	*out = p;
	return 0;
}

static int
port_create(struct mthca_dev *dev, uint8_t port)
{
	char name[RTE_ETH_NAME_MAX_LEN];
	struct mthca_port *p;
	int ret;

	port_name(dev->name, port, name, sizeof(name));
	ret = port_alloc(dev, port, name, false, 0, 0, &p);
	if (ret != 0)
		return ret;
	dev->eth_port[port - 1] = p->port_id;
	rte_eth_dev_probing_finish(&rte_eth_devices[p->port_id]);
	return 0;
}

static int
mthca_ud_port_create(struct mthca_dev *dev, uint8_t port, uint16_t pkey_index, uint16_t pkey,
		     uint16_t *port_id)
{
	char name[RTE_ETH_NAME_MAX_LEN], parent[RTE_ETH_NAME_MAX_LEN];
	struct mthca_port *p;
	unsigned int i;
	int ret;

	port_name(dev->name, port, parent, sizeof(parent));
	snprintf(name, sizeof(name), "%.56s.%04x", parent, pkey);
	pthread_mutex_lock(&dev->ud_lock);
	for (i = 0; i < MTHCA_MAX_UD_PORTS && dev->ud_port[i] != RTE_MAX_ETHPORTS; i++)
		;
	pthread_mutex_unlock(&dev->ud_lock);
	if (i == MTHCA_MAX_UD_PORTS) {
		MTHCA_LOG(ERR, "%s: UD port %s: all %u UD ports in use", dev->name, name,
			  MTHCA_MAX_UD_PORTS);
		return -ENOSPC;
	}
	ret = port_alloc(dev, port, name, true, pkey, pkey_index, &p);
	if (ret != 0)
		return ret;
	/* only this control thread fills slots: slot i is still free */
	pthread_mutex_lock(&dev->ud_lock);
	dev->ud_port[i] = p->port_id;
	pthread_mutex_unlock(&dev->ud_lock);
	rte_eth_dev_probing_finish(&rte_eth_devices[p->port_id]);
	MTHCA_LOG(INFO, "%s: UD port %s (ethdev %u) on port %u, P_Key index %u", dev->name,
		  name, p->port_id, port, pkey_index);
	*port_id = p->port_id;
	return 0;
}

static int
mthca_ud_port_lookup(struct mthca_dev *dev, uint16_t port_id, uint8_t *port)
{
	unsigned int i;
	int ret = -ENODEV;

	pthread_mutex_lock(&dev->ud_lock);
	for (i = 0; i < MTHCA_MAX_UD_PORTS && ret != 0; i++)
		if (dev->ud_port[i] == port_id && port_id != RTE_MAX_ETHPORTS) {
			*port = ((struct mthca_port *)
				 rte_eth_devices[port_id].data->dev_private)->port;
			ret = 0;
		}
	pthread_mutex_unlock(&dev->ud_lock);
	return ret;
}

/* what the layers below report or ask of the ethdevs (struct mthca_event_ops) */
static const struct mthca_event_ops mthca_events = {
	.port_change = mthca_port_event,
	.cq_event = mthca_ib_cq_event,
	.gone = mthca_dev_gone,
	.ud_port_create = mthca_ud_port_create,
	.ud_port_lookup = mthca_ud_port_lookup,
	.port_of = mthca_port_of,
};

/*
 * A secondary process (dpdk-proc-info) sees the primary's ports: their
 * shared data, queues and counters, read-only in spirit. It has neither
 * BAR mapped nor the HCA's command interface, so it gets the callbacks
 * that only read shared memory or ask the primary (mthca_mp.c), and
 * bursts that move nothing.
 */
static uint16_t
secondary_burst(void *queue, struct rte_mbuf **pkts, uint16_t n)
{
	RTE_SET_USED(queue);
	RTE_SET_USED(pkts);
	RTE_SET_USED(n);
	return 0;
}

/* The link as the primary last saw it (eth->data->dev_link is shared). */
static int
secondary_link_update(struct rte_eth_dev *eth, int wait)
{
	RTE_SET_USED(eth);
	RTE_SET_USED(wait);
	return 0;
}

/* The primary owns the port: a secondary only lets go of its view. */
static int
secondary_close(struct rte_eth_dev *eth)
{
	RTE_SET_USED(eth);
	return 0;
}

static const struct eth_dev_ops secondary_ops = {
	.dev_close = secondary_close,
	.dev_infos_get = mthca_dev_infos_get,
	.link_update = secondary_link_update,
	.stats_get = mthca_dev_stats_get,
	.stats_reset = mthca_dev_stats_reset,
	.xstats_get = mthca_dev_xstats_get,
	.xstats_get_names = mthca_dev_xstats_get_names,
	.xstats_reset = mthca_dev_stats_reset,
};

/* Attach to the primary's ports of @p pci (UD ports stay the primary's). */
static int
secondary_probe(struct rte_pci_device *pci)
{
	char name[RTE_ETH_NAME_MAX_LEN];
	unsigned int found = 0;
	uint8_t port;

	for (port = 1; port <= MTHCA_MAX_PORTS; port++) {
		struct rte_eth_dev *eth;

		port_name(pci->device.name, port, name, sizeof(name));
		eth = rte_eth_dev_attach_secondary(name);
		if (eth == NULL)
			continue;
		eth->device = &pci->device;
		eth->dev_ops = &secondary_ops;
		eth->rx_pkt_burst = secondary_burst;
		eth->tx_pkt_burst = secondary_burst;
		rte_eth_dev_probing_finish(eth);
		found++;
	}
	if (found == 0) {
		MTHCA_LOG(ERR, "%s: the primary process has no port of this HCA",
			  pci->device.name);
		return -ENODEV;
	}
	return 0;
}

static int
mthca_pci_probe(struct rte_pci_driver *drv, struct rte_pci_device *pci)
{
	const char *mode = refused_mode(pci->id.device_id);
	struct mthca_dev *dev;
	unsigned int i;
	int ret;

	RTE_SET_USED(drv);
	if (mode != NULL) {
		MTHCA_LOG(ERR, "%s: %04x:%04x is an %s; net_mthca drives only the MT25208 in "
			  "native (mem-free) mode", pci->device.name, pci->id.vendor_id,
			  pci->id.device_id, mode);
		return -ENOTSUP;
	}
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return secondary_probe(pci);
	ret = mthca_mp_init_primary(mthca_stats_ib_read_port);
	if (ret != 0)
		return ret;
	dev = rte_zmalloc("mthca_dev", sizeof(*dev), 0);
	if (dev == NULL)
		return -ENOMEM;
	snprintf(dev->name, sizeof(dev->name), "%s", pci->device.name);
	dev->pci = pci;
	dev->ev = &mthca_events;
	for (i = 0; i < MTHCA_MAX_PORTS; i++)
		dev->eth_port[i] = RTE_MAX_ETHPORTS;
	for (i = 0; i < MTHCA_MAX_UD_PORTS; i++)
		dev->ud_port[i] = RTE_MAX_ETHPORTS;
	pthread_mutex_init(&dev->ud_lock, NULL);
	pthread_mutex_init(&dev->cmd_lock, NULL);
	pthread_mutex_init(&dev->eq_lock, NULL);
	pthread_mutex_init(&dev->mcg_lock, NULL);
	dev->ctl_fd = -1;
	ret = parse_devargs(pci->device.devargs, dev);
	if (ret != 0)
		goto err;
	ret = map_bars(dev);
	if (ret != 0)
		goto err;
	if (dev->bar0_len != MTHCA_BAR0_SIZE) {
		MTHCA_LOG(ERR, "%s: BAR0 is %zu bytes, not 1 MiB", dev->name, dev->bar0_len);
		ret = -ENODEV;
		goto err;
	}
	ret = mthca_hca_init(dev);
	if (ret != 0)
		goto err;
	for (i = 1; i <= dev->num_ports; i++) {
		ret = port_create(dev, (uint8_t)i);
		if (ret != 0)
			goto err_ports;
	}
	ret = mthca_ib_register(dev);
	if (ret != 0)
		goto err_ports;
	return 0;
err_ports:
	if (dev->nports_open == 0) {
		mthca_dev_free(dev);
		return ret;
	}
	for (i = 0; i < MTHCA_MAX_PORTS; i++) {
		struct rte_eth_dev *eth;

		if (dev->eth_port[i] == RTE_MAX_ETHPORTS)
			continue;
		eth = &rte_eth_devices[dev->eth_port[i]];
		mthca_dev_close(eth);	/* frees dev with the last port */
		rte_eth_dev_release_port(eth);
	}
	return ret;
err:
	mthca_dev_free(dev);
	return ret;
}

static int
mthca_pci_remove(struct rte_pci_device *pci)
{
	uint16_t port_id;

	RTE_ETH_FOREACH_DEV_OF(port_id, &pci->device) {
		struct rte_eth_dev *eth = &rte_eth_devices[port_id];

		rte_eth_dev_close(port_id);
		if (eth->state != RTE_ETH_DEV_UNUSED)
			rte_eth_dev_release_port(eth);
	}
	return 0;
}

static struct rte_pci_driver mthca_pci_driver = {
	.id_table = mthca_pci_id_map,
	/* no RTE_PCI_DRV_NEED_MAPPING: a simulated function has no kernel driver */
	.drv_flags = RTE_PCI_DRV_INTR_LSC,
	.probe = mthca_pci_probe,
	.remove = mthca_pci_remove,
};

RTE_PMD_REGISTER_PCI(net_mthca, mthca_pci_driver);
RTE_PMD_REGISTER_PCI_TABLE(net_mthca, mthca_pci_id_map);
RTE_PMD_REGISTER_KMOD_DEP(net_mthca, "* vfio-pci | uio_pci_generic");
RTE_PMD_REGISTER_PARAM_STRING(net_mthca, MTHCA_ARG_NODE_DESC "=<string of at most 64 bytes> ");
