/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * net_ipoib's probe and remove: the devargs, the interface (lib/ipoib)
 * on the IB port's ethdev; the port then owns the ethdev under the
 * interface (that one, or a child's UD port) so that applications
 * iterating ports (RTE_ETH_FOREACH_DEV) leave it alone, as failsafe and
 * netvsc do with their sub-devices.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bus_vdev_driver.h>
#include <ethdev_vdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "ipoib_ethdev.h"

RTE_LOG_REGISTER_DEFAULT(ipoib_logtype, NOTICE);

void
ipoib_priv_release(struct ipoib_priv *priv)
{
	if (priv == NULL)
		return;
	/*
	 * No LSC alarm may run while the interface is freed (it reads it):
	 * no new ones from here, and rte_eal_alarm_cancel() waits for one
	 * that is running.
	 */
	__atomic_store_n(&priv->closing, true, __ATOMIC_RELEASE);
	ipoib_lsc_cancel(priv->port_id);
	rte_ipoib_if_destroy(priv->ifp);
	priv->ifp = NULL;
	if (priv->owner_id != 0) {
		rte_eth_dev_owner_delete(priv->owner_id);
		priv->owner_id = 0;
	}
	rte_mempool_free(priv->pool);
	priv->pool = NULL;
}

/*
 * The IB port's ethdev dev= names. A parent sits on it, so it must be
 * free; a child sits on a UD port of its own (rte_ib_ud_port_create()),
 * and another net_ipoib port may own the IB port's ethdev.
 */
static int
lower_find(const char *name, struct ipoib_priv *priv)
{
	struct rte_eth_dev_owner cur;
	uint16_t port;

	if (rte_eth_dev_get_port_by_name(priv->args.dev, &port) != 0) {
		IPOIB_PMD_LOG(ERR, "%s: dev=%s: no such ethdev (net_mthca names an IB port <PCI address> or <PCI address>_p<port>)",
			      name, priv->args.dev);
		return -ENODEV;
	}
	if (priv->args.pkey == 0 && rte_eth_dev_owner_get(port, &cur) == 0 &&
	    cur.id != RTE_ETH_DEV_NO_OWNER) {
		IPOIB_PMD_LOG(ERR, "%s: dev=%s: ethdev %u is already owned by \"%s\"", name,
			      priv->args.dev, port, cur.name);
		return -EBUSY;
	}
	priv->lower_port_id = port;
	return 0;
}

/* The ethdev under the interface (the IB port's, or a child's UD port), made ours. */
static int
lower_own(const char *name, struct ipoib_priv *priv, uint16_t lower)
{
	struct rte_eth_dev_owner owner;
	int rc;

	rc = rte_eth_dev_owner_new(&priv->owner_id);
	if (rc != 0)
		return rc;
	memset(&owner, 0, sizeof(owner));
	owner.id = priv->owner_id;
	snprintf(owner.name, sizeof(owner.name), "%s", name);
	rc = rte_eth_dev_owner_set(lower, &owner);
	if (rc != 0) {
		IPOIB_PMD_LOG(ERR, "%s: ethdev %u under the interface: owner_set: %s", name, lower,
			      rte_strerror(-rc));
		return rc;
	}
	priv->lower_port_id = lower;
	return 0;
}

static int
if_make(const char *name, struct ipoib_priv *priv)
{
	struct rte_ipoib_if_conf conf;
	char pool[RTE_MEMPOOL_NAMESIZE];
	unsigned int i;

	snprintf(pool, sizeof(pool), "ipoib_p%u", priv->port_id);
	priv->pool = rte_pktmbuf_pool_create(pool, IPOIB_POOL_MBUFS, 64, 0, IPOIB_POOL_DATA_ROOM,
					     rte_eth_dev_socket_id(priv->lower_port_id));
	if (priv->pool == NULL) {
		IPOIB_PMD_LOG(ERR, "%s: mempool %s of %u mbufs: %s", name, pool, IPOIB_POOL_MBUFS,
			      rte_strerror(rte_errno));
		return -rte_errno;
	}
	memset(&conf, 0, sizeof(conf));
	conf.name = priv->args.ifname[0] != '\0' ? priv->args.ifname : NULL;
	conf.ib_port_id = priv->lower_port_id;
	conf.pkey = priv->args.pkey;
	conf.mode = priv->args.mode;
	conf.nb_rx_queues = 1;
	conf.nb_tx_queues = priv->args.txq;
	conf.mp = priv->pool;
	conf.mtu = priv->args.mtu;
	conf.link_cb = ipoib_link_cb;
	conf.link_cb_arg = (void *)(uintptr_t)priv->port_id;
	priv->ifp = rte_ipoib_if_create(&conf);
	if (priv->ifp == NULL) {
		int e = rte_errno;

		if (e == ENODEV)
			IPOIB_PMD_LOG(ERR, "%s: dev=%s: ethdev %u is not an IB port's", name,
				      priv->args.dev, priv->lower_port_id);
		else if (e == EEXIST)
			IPOIB_PMD_LOG(ERR, "%s: dev=%s,pkey=0x%04x,ifname=%s: an interface with this P_Key on this port, or this name, exists",
				      name, priv->args.dev, priv->args.pkey, priv->args.ifname);
		else
			IPOIB_PMD_LOG(ERR, "%s: interface on dev=%s: %s", name, priv->args.dev,
				      rte_strerror(e));
		return -e;
	}
	for (i = 0; i < priv->args.nb_addrs; i++)
		if (rte_ipoib_if_addr_set(priv->ifp, priv->args.addrs[i], false) != 0) {
			IPOIB_PMD_LOG(ERR, "%s: address %u of ipv4=/ipv6=: %s", name, i,
				      rte_strerror(rte_errno));
			return -rte_errno;
		}
	return 0;
}

/*
 * A secondary process (dpdk-dumpcap) probes the primary's vdevs (the
 * vdev bus asks the primary for them): it attaches to the port's shared
 * data and gets what reads it only (ipoib_secondary_setup()).
 */
static int
secondary_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct rte_eth_dev *eth;

	eth = rte_eth_dev_attach_secondary(name);
	if (eth == NULL) {
		IPOIB_PMD_LOG(ERR, "%s: the primary process has no such port", name);
		return -ENODEV;
	}
	eth->device = &vdev->device;
	ipoib_secondary_setup(eth);
	rte_eth_dev_probing_finish(eth);
	return 0;
}

static int
ipoib_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct rte_ipoib_if_info in;
	struct rte_eth_dev *eth;
	struct ipoib_priv *priv;
	struct ipoib_args args;
	uint16_t q;
	int rc;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return secondary_probe(vdev);
	if (ipoib_args_parse(rte_vdev_device_args(vdev), &args) != 0) {
		IPOIB_PMD_LOG(ERR, "%s: bad devargs: %s", name, args.err);
		return -EINVAL;
	}
	eth = rte_eth_vdev_allocate(vdev, sizeof(*priv));
	if (eth == NULL)
		return -ENOMEM;
	priv = eth->data->dev_private;
	priv->args = args;
	priv->port_id = eth->data->port_id;
	rte_spinlock_init(&priv->tx0_lock);
	priv->rxq[0].priv = priv;
	for (q = 0; q < RTE_IPOIB_IF_MAX_QUEUES; q++) {
		priv->txq[q].priv = priv;
		priv->txq[q].qid = q;
	}
	rc = lower_find(name, priv);
	if (rc == 0)
		rc = if_make(name, priv);
	if (rc == 0 && rte_ipoib_if_info_get(priv->ifp, &in) != 0)
		rc = -rte_errno;
	if (rc == 0)
		rc = lower_own(name, priv, in.lower_port_id);
	if (rc == 0) {
		eth->data->mac_addrs = rte_zmalloc(name, sizeof(struct rte_ether_addr), 0);
		if (eth->data->mac_addrs == NULL)
			rc = -ENOMEM;
	}
	if (rc != 0) {
		ipoib_priv_release(priv);
		rte_eth_dev_release_port(eth);
		return rc;
	}
	rte_ether_addr_copy(&in.mac, &eth->data->mac_addrs[0]);
	eth->dev_ops = &ipoib_ops;
	eth->rx_pkt_burst = ipoib_rx_burst;
	eth->tx_pkt_burst = ipoib_tx_burst;
	eth->data->dev_flags |= RTE_ETH_DEV_INTR_LSC;
	rte_eth_dev_probing_finish(eth);
	IPOIB_PMD_LOG(INFO, "%s: port %u on %s (ethdev %u), interface %s, pkey 0x%04x, mode %s",
		      name, priv->port_id, args.dev, priv->lower_port_id, in.name, in.pkey,
		      args.mode == RTE_IPOIB_MODE_ETH ? "eth" : "l3");
	return 0;
}

static int
ipoib_remove(struct rte_vdev_device *vdev)
{
	struct rte_eth_dev *eth = rte_eth_dev_allocated(rte_vdev_device_name(vdev));

	/* Closed already: rte_eth_dev_close() released the port. */
	if (eth == NULL)
		return 0;
	if (rte_eal_process_type() == RTE_PROC_PRIMARY)
		ipoib_priv_release(eth->data->dev_private);
	return rte_eth_dev_release_port(eth);
}

static struct rte_vdev_driver ipoib_vdev_driver = {
	.probe = ipoib_probe,
	.remove = ipoib_remove,
};

RTE_PMD_REGISTER_VDEV(net_ipoib, ipoib_vdev_driver);
RTE_PMD_REGISTER_PARAM_STRING(net_ipoib, IPOIB_PARAM_STRING);
