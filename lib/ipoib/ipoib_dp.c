/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The data-path context (struct rte_ipoib_dp): creation, counters, drop
 * reason names, and what both bursts share out of line: long bursts in
 * chunks, events to the control side.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ring.h>

#include "ipoib_dp.h"

static const char *const drop_names[RTE_IPOIB_DROP_MAX] = {
	[RTE_IPOIB_DROP_NONE] = "none",
	[RTE_IPOIB_DROP_NO_NEIGH] = "no_neigh",
	[RTE_IPOIB_DROP_NO_PATH] = "no_path",
	[RTE_IPOIB_DROP_QUEUE_FULL] = "queue_full",
	[RTE_IPOIB_DROP_BAD_LENGTH] = "bad_length",
	[RTE_IPOIB_DROP_BAD_ETHERTYPE] = "bad_ethertype",
	[RTE_IPOIB_DROP_WRONG_PKEY] = "wrong_pkey",
	[RTE_IPOIB_DROP_OVERSIZE] = "oversize",
	[RTE_IPOIB_DROP_BAD_ARP] = "bad_arp",
	[RTE_IPOIB_DROP_BAD_ND] = "bad_nd",
	[RTE_IPOIB_DROP_BAD_MCAST] = "bad_mcast",
	[RTE_IPOIB_DROP_NO_ROOM] = "no_room",
	[RTE_IPOIB_DROP_LOOPED] = "looped",
};

const char *
rte_ipoib_drop_reason_name(enum rte_ipoib_drop_reason reason)
{
	if ((unsigned int)reason >= RTE_IPOIB_DROP_MAX)
		return "unknown";
	return drop_names[reason];
}

struct rte_ipoib_dp *
rte_ipoib_dp_create(const struct rte_ipoib_dp_conf *conf)
{
	struct rte_ib_gid mgid;
	struct rte_ipoib_dp *dp;

	if (conf == NULL || conf->tbl == NULL ||
	    (conf->mode != RTE_IPOIB_MODE_ETH && conf->mode != RTE_IPOIB_MODE_L3) ||
	    conf->mtu < 68 || conf->mtu > RTE_IPOIB_UD_MTU_MAX ||
	    rte_ipoib_hwaddr_is_mcast(&conf->local) || conf->nb_tx_qpn > RTE_IPOIB_DP_MAX_TX_QPN ||
	    rte_ipoib_bcast_mgid(conf->pkey, conf->scope, &mgid) != 0)
		return ipoib_null(EINVAL);
	if (rte_ib_mbuf_dynfield_register() < 0)
		return NULL;
	dp = ipoib_mem_aligned(RTE_CACHE_LINE_SIZE, sizeof(*dp));
	if (dp == NULL)
		return ipoib_null(ENOMEM);
	memset(dp, 0, sizeof(*dp));
	dp->conf = *conf;
	rte_ipoib_mac_from_hwaddr(&conf->local, &dp->local_mac);
	rte_ipoib_mcast_hwaddr(&mgid, &dp->bcast_hw);
	dp->bcast_sig = ipoib_hash_hw(&conf->tbl->by_hw, &dp->bcast_hw);
	memcpy(&dp->local_mac_word, dp->local_mac.addr_bytes, RTE_ETHER_ADDR_LEN);
	dp->local_qpn = rte_ipoib_hwaddr_qpn(&conf->local);
	dp->local_src_key = ipoib_src_key_w(conf->local_lid, dp->local_qpn);
	dp->age_tick = rte_get_tsc_hz() / RTE_IPOIB_NEIGH_STAMP_HZ;
	dp->unknown_gap = rte_get_tsc_hz();
	return dp;
}

void
rte_ipoib_dp_free(struct rte_ipoib_dp *dp)
{
	ipoib_mem_free(dp);
}

void
rte_ipoib_dp_local_mac(const struct rte_ipoib_dp *dp, struct rte_ether_addr *mac)
{
	if (dp == NULL || mac == NULL) {
		rte_errno = EINVAL;
		return;
	}
	*mac = dp->local_mac;
}

int
rte_ipoib_dp_stats_get(const struct rte_ipoib_dp *dp, struct rte_ipoib_dp_stats *st)
{
	if (dp == NULL || st == NULL)
		return ipoib_err(EINVAL);
	*st = dp->st;
	return 0;
}

/* A burst longer than the staged lookups take, in chunks, kept in order. */
uint16_t
ipoib_burst_in_chunks(struct rte_ipoib_dp *dp, struct rte_mbuf **pkts, uint16_t nb,
		uint16_t (*fn)(struct rte_ipoib_dp *, struct rte_mbuf **, uint16_t))
{
	uint16_t done, ok = 0;

	for (done = 0; done < nb; done += IPOIB_STAGE_MAX) {
		uint16_t k = RTE_MIN(nb - done, IPOIB_STAGE_MAX);
		uint16_t n = fn(dp, pkts + done, k);

		memmove(pkts + ok, pkts + done, n * sizeof(*pkts));
		ok += n;
	}
	return ok;
}

void
ipoib_dp_report(struct rte_ipoib_dp *dp, uint8_t type, const struct rte_ipoib_hwaddr *hw,
       const uint8_t *ip, uint16_t slid, uint32_t qpn)
{
	struct rte_ipoib_event ev;

	if (dp->conf.events == NULL)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	ev.slid = slid;
	ev.qpn = qpn;
	if (hw != NULL) {
		ev.hw = *hw;
	} else if (ip != NULL) {
		ev.is_ip = 1;
		memcpy(ev.ip, ip, 16);
	}
	if (rte_ring_enqueue_elem(dp->conf.events, &ev, sizeof(ev)) == 0)
		dp->st.events++;
	else
		dp->st.events_lost++;
}

void
ipoib_dp_miss(struct rte_ipoib_dp *dp, uint8_t kind, const void *key, size_t len)
{
	memset(&dp->miss, 0, sizeof(dp->miss));
	dp->miss.kind = kind;
	memcpy(dp->miss.key, key, len);
}

unsigned int
ipoib_dp_hold(struct rte_ipoib_dp *dp, struct rte_mbuf *m)
{
	/*
	 * The control side keeps it until the neighbour appears (Linux
	 * queues on the neighbour while its path resolves, ipoib_start_xmit(),
	 * and on the group while it joins, ipoib_mcast_send()).
	 */
	if (dp->conf.held == NULL || dp->miss.kind == 0)
		return RTE_IPOIB_DROP_NO_NEIGH;
	dp->miss.m = m;
	if (rte_ring_mp_enqueue_elem(dp->conf.held, &dp->miss, sizeof(dp->miss)) != 0)
		return RTE_IPOIB_DROP_NO_NEIGH;
	dp->st.held++;
	return IPOIB_ENCAP_QUEUED;
}
