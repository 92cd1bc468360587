/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * net_ipoib's dev_ops: an ethdev face on an IPoIB interface (lib/ipoib,
 * rte_ipoib_if.h). What each op does is in doc/guides/nics/ipoib.rst.
 */

#include <errno.h>
#include <string.h>

#include <rte_alarm.h>

#include "ipoib_ethdev.h"

static int
ipoib_dev_configure(struct rte_eth_dev *dev)
{
	struct ipoib_priv *priv = dev->data->dev_private;
	uint32_t mtu = dev->data->mtu;

	/*
	 * ethdev makes an unset MTU 1500 before calling us: then the mtu=
	 * devarg, when given, is the port's MTU.
	 */
	if (priv->args.mtu != 0 && mtu == RTE_ETHER_MTU)
		mtu = priv->args.mtu;
	if (rte_ipoib_if_mtu_set(priv->ifp, mtu) != 0) {
		IPOIB_PMD_LOG(ERR, "port %u: mtu=%u: not 68..the UD MTU", dev->data->port_id, mtu);
		return -EINVAL;
	}
	dev->data->mtu = (uint16_t)mtu;
	return 0;
}

static int
ipoib_dev_start(struct rte_eth_dev *dev)
{
	struct ipoib_priv *priv = dev->data->dev_private;
	uint16_t q;

	if (rte_ipoib_if_start(priv->ifp) != 0) {
		IPOIB_PMD_LOG(ERR, "port %u: start: %s", dev->data->port_id,
			      rte_strerror(rte_errno));
		return -rte_errno;
	}
	for (q = 0; q < dev->data->nb_rx_queues; q++)
		dev->data->rx_queue_state[q] = RTE_ETH_QUEUE_STATE_STARTED;
	for (q = 0; q < dev->data->nb_tx_queues; q++)
		dev->data->tx_queue_state[q] = RTE_ETH_QUEUE_STATE_STARTED;
	return 0;
}

static int
ipoib_dev_stop(struct rte_eth_dev *dev)
{
	struct ipoib_priv *priv = dev->data->dev_private;
	struct rte_eth_link link;
	uint16_t q;

	rte_ipoib_if_stop(priv->ifp);
	memset(&link, 0, sizeof(link));
	rte_eth_linkstatus_set(dev, &link);
	for (q = 0; q < dev->data->nb_rx_queues; q++)
		dev->data->rx_queue_state[q] = RTE_ETH_QUEUE_STATE_STOPPED;
	for (q = 0; q < dev->data->nb_tx_queues; q++)
		dev->data->tx_queue_state[q] = RTE_ETH_QUEUE_STATE_STOPPED;
	return 0;
}

static int
ipoib_dev_close(struct rte_eth_dev *dev)
{
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return 0;
	ipoib_priv_release(dev->data->dev_private);
	return 0;
}

static int
ipoib_dev_infos_get(struct rte_eth_dev *dev, struct rte_eth_dev_info *info)
{
	struct ipoib_priv *priv = dev->data->dev_private;
	struct rte_ipoib_if_info in;
	struct rte_eth_dev_info lower;
	uint32_t l2 = priv->args.mode == RTE_IPOIB_MODE_ETH ? RTE_ETHER_HDR_LEN : 0;

	if (rte_ipoib_if_info_get(priv->ifp, &in) != 0)
		return -rte_errno;
	info->if_index = 0;
	info->max_rx_queues = 1;
	info->max_tx_queues = priv->args.txq;
	info->min_mtu = RTE_ETHER_MIN_MTU;
	/* Before the broadcast join the UD MTU is not known: the largest. */
	info->max_mtu = (uint16_t)(in.ud_mtu != 0 ? in.ud_mtu : RTE_IPOIB_UD_MTU_MAX);
	info->max_rx_pktlen = info->max_mtu + l2;
	info->min_rx_bufsize = 0;
	info->max_mac_addrs = 1;
	/* Any nb_desc is taken: the rings are the interface's (ipoib.rst, "Queues"). */
	info->rx_desc_lim.nb_max = UINT16_MAX;
	info->tx_desc_lim.nb_max = UINT16_MAX;
	info->default_rxportconf.ring_size = RTE_IPOIB_IF_DEFAULT_DESC;
	info->default_txportconf.ring_size = RTE_IPOIB_IF_DEFAULT_DESC;
	if (rte_eth_dev_info_get(priv->lower_port_id, &lower) == 0)
		info->speed_capa = lower.speed_capa;
	return 0;
}

/* Up when lib/ipoib says so (port ACTIVE and broadcast joined); speed of the IB port. */
static int
ipoib_link_update(struct rte_eth_dev *dev, int wait)
{
	struct ipoib_priv *priv = dev->data->dev_private;
	struct rte_eth_link link, lower;
	struct rte_ipoib_if_info in;

	RTE_SET_USED(wait);
	memset(&link, 0, sizeof(link));
	if (priv->ifp != NULL && rte_ipoib_if_info_get(priv->ifp, &in) == 0 && in.link_up &&
	    dev->data->dev_started) {
		link.link_status = RTE_ETH_LINK_UP;
		link.link_duplex = RTE_ETH_LINK_FULL_DUPLEX;
		link.link_speed = RTE_ETH_SPEED_NUM_UNKNOWN;
		if (rte_eth_link_get_nowait(priv->lower_port_id, &lower) == 0)
			link.link_speed = lower.link_speed;
	}
	return rte_eth_linkstatus_set(dev, &link);
}

/*
 * The LSC event, on EAL's interrupt thread as every PMD's: lib/ipoib
 * reports link changes on its control thread (often inside its timer),
 * where an application callback that stops or closes the port would wait
 * for that very timer; an alarm runs it outside.
 */
static void
ipoib_lsc_alarm(void *arg)
{
	uint16_t port_id = (uint16_t)(uintptr_t)arg;
	struct rte_eth_dev *dev = &rte_eth_devices[port_id];
	struct ipoib_priv *priv;

	/* Closing cancels the alarm first; this is only a second guard. */
	if (dev->data == NULL || (priv = dev->data->dev_private) == NULL ||
	    __atomic_load_n(&priv->closing, __ATOMIC_ACQUIRE))
		return;
	__atomic_store_n(&priv->lsc_pending, false, __ATOMIC_RELEASE);
	if (ipoib_link_update(dev, 0) == 0)
		rte_eth_dev_callback_process(dev, RTE_ETH_EVENT_INTR_LSC, NULL);
}

void
ipoib_link_cb(struct rte_ipoib_if *ifp, bool up, void *arg)
{
	uint16_t port_id = (uint16_t)(uintptr_t)arg;
	struct ipoib_priv *priv = rte_eth_devices[port_id].data->dev_private;

	RTE_SET_USED(ifp);
	IPOIB_PMD_LOG(INFO, "port %u: link %s", port_id, up ? "up" : "down");
	if (__atomic_load_n(&priv->closing, __ATOMIC_ACQUIRE))
		return;
	if (!__atomic_exchange_n(&priv->lsc_pending, true, __ATOMIC_ACQ_REL) &&
	    rte_eal_alarm_set(1, ipoib_lsc_alarm, arg) != 0)
		__atomic_store_n(&priv->lsc_pending, false, __ATOMIC_RELEASE);
}

void
ipoib_lsc_cancel(uint16_t port_id)
{
	rte_eal_alarm_cancel(ipoib_lsc_alarm, (void *)(uintptr_t)port_id);
}

static int
ipoib_mtu_set(struct rte_eth_dev *dev, uint16_t mtu)
{
	struct ipoib_priv *priv = dev->data->dev_private;

	if (rte_ipoib_if_mtu_set(priv->ifp, mtu) != 0) {
		IPOIB_PMD_LOG(ERR, "port %u: mtu=%u: not 68..the broadcast group's UD MTU",
			      dev->data->port_id, mtu);
		return -EINVAL;
	}
	return 0;
}

/* The MAC is the IPoIB address's (rte_ipoib_mac_from_hwaddr()): fixed. */
static int
ipoib_mac_addr_set(struct rte_eth_dev *dev, struct rte_ether_addr *mac)
{
	char want[RTE_ETHER_ADDR_FMT_SIZE], have[RTE_ETHER_ADDR_FMT_SIZE];

	if (rte_is_same_ether_addr(mac, &dev->data->mac_addrs[0]))
		return 0;
	rte_ether_format_addr(want, sizeof(want), mac);
	rte_ether_format_addr(have, sizeof(have), &dev->data->mac_addrs[0]);
	IPOIB_PMD_LOG(ERR, "port %u: MAC %s refused: a net_ipoib port's MAC is %s, derived from its IPoIB address (QPN and GID)",
		      dev->data->port_id, want, have);
	return -EINVAL;
}

int
ipoib_mac_group(const struct rte_ether_addr *mac, uint8_t ip[16])
{
	const uint8_t *m = mac->addr_bytes;

	memset(ip, 0, 16);
	if (m[0] == 0x01 && m[1] == 0x00 && m[2] == 0x5e && m[3] < 0x80) {
		/* RFC 1112 6.4: 23 bits of the group; the one in 224.0.0.0/9. */
		ip[10] = 0xff;
		ip[11] = 0xff;
		ip[12] = 224;
		ip[13] = m[3];
		ip[14] = m[4];
		ip[15] = m[5];
		return 0;
	}
	if (m[0] == 0x33 && m[1] == 0x33) {
		/* RFC 2464 7: 32 bits of the group; the link-local one. */
		ip[0] = 0xff;
		ip[1] = 0x02;
		if (m[2] == 0xff) {
			ip[11] = 0x01;  /* RFC 4291 2.7.1: solicited-node ff02::1:ffxx:xxxx */
		}
		memcpy(ip + 12, m + 2, 4);
		return 0;
	}
	return -1;
}

static bool
mc_listed(const struct rte_ether_addr *set, uint32_t nb, const struct rte_ether_addr *mac)
{
	uint32_t i;

	for (i = 0; i < nb; i++)
		if (rte_is_same_ether_addr(&set[i], mac))
			return true;
	return false;
}

/* The difference with the last list: groups joined and left (lib/ipoib counts references). */
static int
ipoib_set_mc_addr_list(struct rte_eth_dev *dev, struct rte_ether_addr *set, uint32_t nb)
{
	struct ipoib_priv *priv = dev->data->dev_private;
	char s[RTE_ETHER_ADDR_FMT_SIZE];
	uint8_t ip[16];
	uint32_t i;

	if (nb > IPOIB_MC_MAX) {
		IPOIB_PMD_LOG(ERR, "port %u: %u multicast MACs: at most %u", dev->data->port_id,
			      nb, IPOIB_MC_MAX);
		return -ENOSPC;
	}
	for (i = 0; i < nb; i++) {
		if (ipoib_mac_group(&set[i], ip) != 0) {
			rte_ether_format_addr(s, sizeof(s), &set[i]);
			IPOIB_PMD_LOG(ERR, "port %u: %s is not an IPv4 (01:00:5e) or IPv6 (33:33) multicast MAC",
				      dev->data->port_id, s);
			return -EINVAL;
		}
	}
	for (i = 0; i < priv->nb_mc; i++)
		if (!mc_listed(set, nb, &priv->mc[i]) && ipoib_mac_group(&priv->mc[i], ip) == 0)
			rte_ipoib_if_mcast_del(priv->ifp, ip);
	for (i = 0; i < nb; i++)
		if (!mc_listed(priv->mc, priv->nb_mc, &set[i]) && !mc_listed(set, i, &set[i]) &&
		    ipoib_mac_group(&set[i], ip) == 0 && rte_ipoib_if_mcast_add(priv->ifp, ip) != 0)
			IPOIB_PMD_LOG(WARNING, "port %u: group of MAC %u: %s", dev->data->port_id, i,
				      rte_strerror(rte_errno));
	/* Duplicates kept once: each joined once. */
	priv->nb_mc = 0;
	for (i = 0; i < nb; i++)
		if (!mc_listed(priv->mc, priv->nb_mc, &set[i]))
			priv->mc[priv->nb_mc++] = set[i];
	return 0;
}

static int
ipoib_rx_queue_setup(struct rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc,
		     unsigned int socket, const struct rte_eth_rxconf *conf, struct rte_mempool *mp)
{
	struct ipoib_priv *priv = dev->data->dev_private;

	RTE_SET_USED(nb_desc);
	RTE_SET_USED(socket);
	RTE_SET_USED(conf);
	RTE_SET_USED(mp);
	if (qid != 0)
		return -EINVAL;
	/* Buffers come from the interface's pool (ipoib.rst, "Receive buffers"). */
	priv->rxq[0].priv = priv;
	priv->rxq[0].qid = 0;
	dev->data->rx_queues[0] = &priv->rxq[0];
	return 0;
}

static int
ipoib_tx_queue_setup(struct rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc,
		     unsigned int socket, const struct rte_eth_txconf *conf)
{
	struct ipoib_priv *priv = dev->data->dev_private;

	RTE_SET_USED(nb_desc);
	RTE_SET_USED(socket);
	RTE_SET_USED(conf);
	if (qid >= priv->args.txq)
		return -EINVAL;
	priv->txq[qid].priv = priv;
	priv->txq[qid].qid = qid;
	dev->data->tx_queues[qid] = &priv->txq[qid];
	return 0;
}

const struct eth_dev_ops ipoib_ops = {
	.dev_configure = ipoib_dev_configure,
	.dev_start = ipoib_dev_start,
	.dev_stop = ipoib_dev_stop,
	.dev_close = ipoib_dev_close,
	.dev_infos_get = ipoib_dev_infos_get,
	.link_update = ipoib_link_update,
	.mtu_set = ipoib_mtu_set,
	.mac_addr_set = ipoib_mac_addr_set,
	.set_mc_addr_list = ipoib_set_mc_addr_list,
	.stats_get = ipoib_stats_get,
	.stats_reset = ipoib_stats_reset,
	.xstats_get = ipoib_xstats_get,
	.xstats_get_names = ipoib_xstats_get_names,
	.xstats_reset = ipoib_stats_reset,
	.rx_queue_setup = ipoib_rx_queue_setup,
	.tx_queue_setup = ipoib_tx_queue_setup,
};

/*
 * A secondary process (dpdk-dumpcap, dpdk-proc-info) sees the port
 * through its shared data: dev_private, the queues and their counters
 * are in shared memory, the interface (lib/ipoib) is in the primary's
 * heap and out of reach. So: what the devargs and the shared data say,
 * and bursts that move nothing (the primary owns the queues). Capture
 * needs nothing more: pdump's callbacks run in the primary's bursts.
 */
static uint16_t
ipoib_secondary_burst(void *q, struct rte_mbuf **pkts, uint16_t nb)
{
	RTE_SET_USED(q);
	RTE_SET_USED(pkts);
	RTE_SET_USED(nb);
	return 0;
}

/* The primary owns the port: a secondary lets go of its view only. */
static int
ipoib_secondary_close(struct rte_eth_dev *dev)
{
	RTE_SET_USED(dev);
	return 0;
}

static int
ipoib_secondary_infos_get(struct rte_eth_dev *dev, struct rte_eth_dev_info *info)
{
	struct ipoib_priv *priv = dev->data->dev_private;
	uint32_t l2 = priv->args.mode == RTE_IPOIB_MODE_ETH ? RTE_ETHER_HDR_LEN : 0;

	info->if_index = 0;
	info->max_rx_queues = 1;
	info->max_tx_queues = priv->args.txq;
	info->min_mtu = RTE_ETHER_MIN_MTU;
	/* The UD MTU is the interface's: the port's MTU is what is shared. */
	info->max_mtu = dev->data->mtu;
	info->max_rx_pktlen = info->max_mtu + l2;
	info->max_mac_addrs = 1;
	info->rx_desc_lim.nb_max = UINT16_MAX;
	info->tx_desc_lim.nb_max = UINT16_MAX;
	return 0;
}

/* The link the primary last set (dev->data->dev_link is shared). */
static int
ipoib_secondary_link_update(struct rte_eth_dev *dev, int wait)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(wait);
	return 0;
}

/* The queues' own counters; the drops are lib/ipoib's, in the primary. */
static int
ipoib_secondary_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st)
{
	struct ipoib_priv *priv = dev->data->dev_private;
	unsigned int q;

	st->ipackets = priv->rxq[0].st.pkts;
	st->ibytes = priv->rxq[0].st.bytes;
	st->q_ipackets[0] = st->ipackets;
	st->q_ibytes[0] = st->ibytes;
	for (q = 0; q < priv->args.txq; q++) {
		st->opackets += priv->txq[q].st.pkts;
		st->obytes += priv->txq[q].st.bytes;
		if (q < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			st->q_opackets[q] = priv->txq[q].st.pkts;
			st->q_obytes[q] = priv->txq[q].st.bytes;
		}
	}
	return 0;
}

static const struct eth_dev_ops ipoib_secondary_ops = {
	.dev_close = ipoib_secondary_close,
	.dev_infos_get = ipoib_secondary_infos_get,
	.link_update = ipoib_secondary_link_update,
	.stats_get = ipoib_secondary_stats_get,
};

void
ipoib_secondary_setup(struct rte_eth_dev *eth)
{
	eth->dev_ops = &ipoib_secondary_ops;
	eth->rx_pkt_burst = ipoib_secondary_burst;
	eth->tx_pkt_burst = ipoib_secondary_burst;
}
