/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * IPoIB interfaces (rte_ipoib_if.h): life cycle, the UD ethdev below,
 * the data-path contexts and rings, the bursts, link state, port events,
 * and the tick that runs the control side in the MAD core's passes.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>
#include <rte_ring.h>
#include <rte_ring_elem.h>

#include <rte_ib_mbuf.h>
#include <rte_ibmad_ctrl.h>

#include "ipoib_if_priv.h"
#include "ipoib_private.h"

/*
 * The registry of interfaces: names, and the ids by which callbacks of
 * other libraries find an interface that may have gone (registry_lock,
 * taken before nothing of ours, held only to look up or mark).
 */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static TAILQ_HEAD(, rte_ipoib_if) registry = TAILQ_HEAD_INITIALIZER(registry);
static uint64_t registry_next_id = 1;

/*
 * RTE_IPOIB_IF_DEFAULT_DESC: as deep as dpdk-ipoib-fwd and testpmd make
 * a raw port's rings. A UD receiver has no RNR, so a datagram that finds
 * the receive ring empty while the data lcore is descheduled is lost (the
 * model's drop_no_wqe); a send ring that empties while the sending lcore
 * is descheduled leaves the HCA idle (ipoib.rst, "Performance").
 */
#define IPOIB_TBL_NEIGH 4096
#define IPOIB_TBL_PATH 1024

struct rte_ipoib_if *
ipoib_if_by_id_lock(uint64_t id)
{
	struct rte_ipoib_if *ifp;

	pthread_mutex_lock(&registry_lock);
	TAILQ_FOREACH(ifp, &registry, next)
		if (ifp->id == id)
			return ifp;
	pthread_mutex_unlock(&registry_lock);
	return NULL;
}

void
ipoib_if_registry_unlock(void)
{
	pthread_mutex_unlock(&registry_lock);
}

void
ipoib_if_foreach(void (*fn)(struct rte_ipoib_if *ifp, void *arg), void *arg)
{
	struct rte_ipoib_if *ifp;

	pthread_mutex_lock(&registry_lock);
	TAILQ_FOREACH(ifp, &registry, next)
		fn(ifp, arg);
	pthread_mutex_unlock(&registry_lock);
}

static struct rte_ipoib_if *
registry_find_locked(const char *name)
{
	struct rte_ipoib_if *ifp;

	TAILQ_FOREACH(ifp, &registry, next)
		if (strcmp(ifp->name, name) == 0)
			return ifp;
	return NULL;
}

struct rte_ipoib_if *
rte_ipoib_if_find(const char *name)
{
	struct rte_ipoib_if *ifp;

	if (name == NULL)
		return ipoib_null(EINVAL);
	pthread_mutex_lock(&registry_lock);
	ifp = registry_find_locked(name);
	pthread_mutex_unlock(&registry_lock);
	if (ifp == NULL)
		rte_errno = ENOENT;
	return ifp;
}

void
ipoib_if_lock(struct rte_ipoib_if *ifp)
{
	pthread_mutex_lock(&ifp->lock);
	ifp->lock_depth++;
}

/* The link callback runs after the last unlock: it may call us back. */
void
ipoib_if_unlock(struct rte_ipoib_if *ifp)
{
	bool report = false, up = false;

	if (--ifp->lock_depth == 0 && ifp->link_report) {
		ifp->link_report = false;
		report = ifp->conf.link_cb != NULL;
		up = ifp->link_up;
	}
	pthread_mutex_unlock(&ifp->lock);
	if (report)
		ifp->conf.link_cb(ifp, up, ifp->conf.link_cb_arg);
}

void
ipoib_if_inbox_put(struct rte_ipoib_if *ifp, struct ipoib_inbox_item *it)
{
	pthread_mutex_lock(&ifp->inbox_lock);
	STAILQ_INSERT_TAIL(&ifp->inbox, it, next);
	pthread_mutex_unlock(&ifp->inbox_lock);
	rte_ibmad_ctrl_timer_arm(ifp->timer, rte_ibmad_ctrl_now_ms());
}

void
ipoib_if_ah_release(void *ctx, struct rte_ib_ah *ah)
{
	struct rte_ipoib_if *ifp = ctx;
	struct ipoib_ah_dead *d;

	/*
	 * Mbufs sent with the handle may still sit in the device's send
	 * queue after the grace period (the table's readers end it when
	 * they hand packets over, not when the device is done): the
	 * handle lives IPOIB_AH_LINGER_MS more, unless the device stopped.
	 */
	if (ifp->dying || !ifp->lower_started)
		goto now;
	d = malloc(sizeof(*d));
	if (d == NULL)
		goto now;
	d->ah = ah;
	d->at_ms = rte_ibmad_ctrl_now_ms();
	STAILQ_INSERT_TAIL(&ifp->ah_dead, d, next);
	return;
now:
	rte_ib_ah_destroy(ah);
}

static void
ah_reap(struct rte_ipoib_if *ifp, uint64_t now_ms, bool all)
{
	struct ipoib_ah_dead *d;

	while ((d = STAILQ_FIRST(&ifp->ah_dead)) != NULL &&
	       (all || now_ms - d->at_ms >= IPOIB_AH_LINGER_MS)) {
		STAILQ_REMOVE_HEAD(&ifp->ah_dead, next);
		rte_ib_ah_destroy(d->ah);
		free(d);
	}
}

int
ipoib_if_ctrl_xmit(struct rte_ipoib_if *ifp, struct rte_mbuf *m)
{
	if (rte_ring_mp_enqueue(ifp->ctrl_tx, m) != 0) {
		rte_pktmbuf_free(m);
		ifp->st.ctrl_tx_lost++;
		return -ENOBUFS;
	}
	return 0;
}

void
ipoib_if_link_eval(struct rte_ipoib_if *ifp)
{
	bool up = ifp->started && ifp->port_active && ifp->bcast_joined &&
		ifp->pkey_index != UINT16_MAX && ifp->dp_rx[0] != NULL;

	if (up == ifp->link_up)
		return;
	ifp->link_up = up;
	ifp->st.link_changes++;
	ifp->link_report = true;
	IPOIB_LOG(INFO, "%s: link %s (port %s, broadcast %s, pkey 0x%04x index %u)",
		  ifp->name, up ? "up" : "down", ifp->port_active ? "ACTIVE" : "not active",
		  ifp->bcast_joined ? "joined" : "not joined", ifp->pkey, ifp->pkey_index);
}

static void
dp_stats_add(struct rte_ipoib_dp_stats *sum, const struct rte_ipoib_dp_stats *s)
{
	unsigned int i;

	sum->encap_pkts += s->encap_pkts;
	sum->queued += s->queued;
	sum->held += s->held;
	sum->decap_pkts += s->decap_pkts;
	sum->arp_rewritten += s->arp_rewritten;
	sum->nd_rewritten += s->nd_rewritten;
	sum->events += s->events;
	sum->events_lost += s->events_lost;
	for (i = 0; i < RTE_IPOIB_DROP_MAX; i++)
		sum->drops[i] += s->drops[i];
}

/* Replace the contexts by @p rx and @p tx (NULL: none), after the readers. */
static void
dp_swap(struct rte_ipoib_if *ifp, struct rte_ipoib_dp **rx, struct rte_ipoib_dp **tx)
{
	struct rte_ipoib_dp *old_rx[RTE_IPOIB_IF_MAX_QUEUES];
	struct rte_ipoib_dp *old_tx[RTE_IPOIB_IF_MAX_QUEUES];
	struct rte_ipoib_dp_stats st;
	unsigned int q;

	for (q = 0; q < ifp->conf.nb_rx_queues; q++)
		old_rx[q] = __atomic_exchange_n(&ifp->dp_rx[q], rx != NULL ? rx[q] : NULL,
						__ATOMIC_ACQ_REL);
	for (q = 0; q < ifp->conf.nb_tx_queues; q++)
		old_tx[q] = __atomic_exchange_n(&ifp->dp_tx[q], tx != NULL ? tx[q] : NULL,
						__ATOMIC_ACQ_REL);
	/* A burst holds its context from online to offline (the bursts below). */
	if (ifp->qsbr != NULL)
		rte_rcu_qsbr_synchronize(ifp->qsbr, RTE_QSBR_THRID_INVALID);
	for (q = 0; q < ifp->conf.nb_rx_queues; q++)
		if (old_rx[q] != NULL && rte_ipoib_dp_stats_get(old_rx[q], &st) == 0) {
			dp_stats_add(&ifp->dp_gone, &st);
			dp_stats_add(&ifp->dp_gone_dir[0], &st);
		}
	for (q = 0; q < ifp->conf.nb_tx_queues; q++)
		if (old_tx[q] != NULL && rte_ipoib_dp_stats_get(old_tx[q], &st) == 0) {
			dp_stats_add(&ifp->dp_gone, &st);
			dp_stats_add(&ifp->dp_gone_dir[1], &st);
		}
	for (q = 0; q < ifp->conf.nb_rx_queues; q++)
		rte_ipoib_dp_free(old_rx[q]);
	for (q = 0; q < ifp->conf.nb_tx_queues; q++)
		rte_ipoib_dp_free(old_tx[q]);
}

int
ipoib_if_dp_rebuild(struct rte_ipoib_if *ifp)
{
	struct rte_ipoib_dp *rx[RTE_IPOIB_IF_MAX_QUEUES] = { NULL };
	struct rte_ipoib_dp *tx[RTE_IPOIB_IF_MAX_QUEUES] = { NULL };
	struct rte_ipoib_dp_conf c;
	unsigned int q;

	if (!ifp->started || !ifp->bcast_joined || ifp->pkey_index == UINT16_MAX) {
		dp_swap(ifp, NULL, NULL);
		ipoib_hold_dp_set(ifp, NULL);
		return 0;
	}
	memset(&c, 0, sizeof(c));
	c.mode = ifp->conf.mode;
	c.tbl = ifp->tbl;
	c.local = ifp->hwaddr;
	c.local_lid = ifp->lid;
	c.pkey = ifp->pkey;
	c.pkey_index = ifp->pkey_index;
	c.scope = ifp->conf.scope;
	c.qkey = ifp->qkey;
	c.mtu = ifp->mtu;
	c.events = ifp->events;
	c.held = ifp->held;
	c.nb_tx_qpn = ifp->conf.nb_tx_queues;
	memcpy(c.tx_qpn, ifp->tx_qpn, sizeof(ifp->tx_qpn[0]) * c.nb_tx_qpn);
	for (q = 0; q < ifp->conf.nb_rx_queues; q++)
		if ((rx[q] = rte_ipoib_dp_create(&c)) == NULL)
			goto err_free;
	for (q = 0; q < ifp->conf.nb_tx_queues; q++)
		if ((tx[q] = rte_ipoib_dp_create(&c)) == NULL)
			goto err_free;
	dp_swap(ifp, rx, tx);
	ipoib_hold_dp_set(ifp, &c);
	return 0;
err_free:
	IPOIB_LOG(ERR, "%s: data-path context: %s", ifp->name, rte_strerror(rte_errno));
	for (q = 0; q < RTE_IPOIB_IF_MAX_QUEUES; q++) {
		rte_ipoib_dp_free(rx[q]);
		rte_ipoib_dp_free(tx[q]);
	}
	return -ENOMEM;
}

/* Port state and LID as lib/ib cached them (every event refreshes it). */
static void
port_refresh(struct rte_ipoib_if *ifp)
{
	struct rte_ib_port_attr pa;

	if (rte_ib_port_attr_cached(ifp->dev, ifp->ib_port, &pa) != 0)
		return;
	ifp->port_active = pa.state == RTE_IB_PORT_ACTIVE;
	ifp->lid = pa.lid;
}

static int
lower_start(struct rte_ipoib_if *ifp)
{
	int rc;

	if (ifp->lower_started)
		return 0;
	rc = rte_eth_dev_start(ifp->lower_port_id);
	if (rc != 0) {
		IPOIB_LOG(ERR, "%s: start of ethdev %u: %s", ifp->name, ifp->lower_port_id,
			  rte_strerror(-rc));
		return rc;
	}
	if (ifp->qkey != 0)
		rte_ib_ud_qkey_set(ifp->lower_port_id, ifp->qkey);
	__atomic_store_n(&ifp->lower_started, true, __ATOMIC_RELEASE);
	return 0;
}

static void
lower_stop(struct rte_ipoib_if *ifp)
{
	unsigned int q;

	if (!ifp->lower_started)
		return;
	__atomic_store_n(&ifp->lower_started, false, __ATOMIC_RELEASE);
	/* The bursts check lower_started inside their read-side section. */
	rte_rcu_qsbr_synchronize(ifp->qsbr, RTE_QSBR_THRID_INVALID);
	rte_eth_dev_stop(ifp->lower_port_id);
	for (q = 0; q < ifp->conf.nb_tx_queues; q++) {
		rte_pktmbuf_free_bulk(ifp->txq[q].pend, ifp->txq[q].nb_pend);
		ifp->txq[q].nb_pend = 0;
	}
	ah_reap(ifp, 0, true);
}

/*
 * The P_Key and its index: a parent's is the one at index 0, a child's
 * is looked up (RFC 4391 4: a child waits until the SM programs it).
 * Returns true when either changed.
 */
static bool
pkey_refresh(struct rte_ipoib_if *ifp)
{
	uint16_t pkey = ifp->pkey, idx = UINT16_MAX;

	if (!ifp->child) {
		if (rte_ib_query_pkey(ifp->dev, ifp->ib_port, 0, &pkey) == 0 &&
		    rte_ib_pkey_is_valid(pkey)) {
			idx = 0;
			pkey |= RTE_IB_PKEY_FULL_MEMBER;
		}
	} else if (rte_ib_pkey_find(ifp->dev, ifp->ib_port, ifp->pkey, &idx) != 0) {
		idx = UINT16_MAX;
	}
	if (pkey == ifp->pkey && idx == ifp->pkey_index)
		return false;
	IPOIB_LOG(INFO, "%s: pkey 0x%04x index %u -> pkey 0x%04x index %u", ifp->name,
		  ifp->pkey, ifp->pkey_index, pkey, idx);
	ifp->pkey = pkey;
	ifp->pkey_index = idx;
	return true;
}

static void
bcast_addr_set(struct rte_ipoib_if *ifp)
{
	struct rte_ib_gid mgid;

	if (rte_ipoib_bcast_mgid(ifp->pkey, ifp->conf.scope, &mgid) == 0)
		rte_ipoib_mcast_hwaddr(&mgid, &ifp->bcast);
}

/*
 * The P_Key or its index changed: a parent leaves every group and joins
 * the new broadcast group (its address changed); a child whose P_Key
 * appeared, moved or went restarts its UD port on the index.
 */
static void
pkey_changed(struct rte_ipoib_if *ifp)
{
	bool was_started = ifp->started;

	if (!was_started) {
		bcast_addr_set(ifp);
		return;
	}
	ipoib_mcast_stop(ifp);
	ipoib_neigh_flush(ifp);
	ifp->bcast_joined = false;
	ipoib_if_dp_rebuild(ifp);
	ipoib_if_link_eval(ifp);
	bcast_addr_set(ifp);
	if (ifp->child) {
		lower_stop(ifp);
		if (ifp->pkey_index == UINT16_MAX)
			return;
		rte_ib_ud_port_pkey_index_set(ifp->lower_port_id, ifp->pkey_index);
		if (lower_start(ifp) != 0)
			return;
	}
	ipoib_mcast_start(ifp);
}

static void
port_events(struct rte_ipoib_if *ifp, uint32_t ev)
{
	uint16_t old_lid = ifp->lid;

	port_refresh(ifp);
	if ((ev & (1u << RTE_IB_EVENT_PKEY_CHANGE)) != 0 && pkey_refresh(ifp))
		pkey_changed(ifp);
	if (ifp->lid != old_lid && ifp->started)
		ipoib_if_dp_rebuild(ifp);
	if ((ev & (1u << RTE_IB_EVENT_SM_CHANGE | 1u << RTE_IB_EVENT_LID_CHANGE |
		   1u << RTE_IB_EVENT_CLIENT_REREGISTER | 1u << RTE_IB_EVENT_PORT_ACTIVE)) != 0) {
		/* Another SM may answer send-only joins otherwise. */
		if (ev & (1u << RTE_IB_EVENT_SM_CHANGE | 1u << RTE_IB_EVENT_CLIENT_REREGISTER))
			ipoib_mcast_cpi_query(ifp);
		if (ev & (1u << RTE_IB_EVENT_SM_CHANGE))
			ipoib_paths_port_event(ifp, RTE_IB_EVENT_SM_CHANGE);
		else if (ev & (1u << RTE_IB_EVENT_CLIENT_REREGISTER))
			ipoib_paths_port_event(ifp, RTE_IB_EVENT_CLIENT_REREGISTER);
		else if (ev & (1u << RTE_IB_EVENT_LID_CHANGE))
			ipoib_paths_port_event(ifp, RTE_IB_EVENT_LID_CHANGE);
	}
}

static void
inbox_drain(struct rte_ipoib_if *ifp)
{
	struct ipoib_inbox items = STAILQ_HEAD_INITIALIZER(items);
	struct ipoib_inbox_item *it;

	pthread_mutex_lock(&ifp->inbox_lock);
	STAILQ_CONCAT(&items, &ifp->inbox);
	pthread_mutex_unlock(&ifp->inbox_lock);
	while ((it = STAILQ_FIRST(&items)) != NULL) {
		STAILQ_REMOVE_HEAD(&items, next);
		if (it->kind == IPOIB_INBOX_PATH)
			ipoib_paths_answer(ifp, it);
		else if (it->kind == IPOIB_INBOX_CPI)
			ipoib_mcast_cpi_answer(ifp, it);
		else
			ipoib_mcast_answer(ifp, it);
		free(it);
	}
}

static void
rings_drain(struct rte_ipoib_if *ifp)
{
	struct rte_ipoib_event ev[32];
	struct rte_mbuf *m[32];
	unsigned int n, i, done = 0;

	while (done < IPOIB_EVENTS_PER_TICK) {
		n = rte_ring_sc_dequeue_burst_elem(ifp->events, ev, sizeof(ev[0]), RTE_DIM(ev),
						   NULL);
		if (n == 0)
			break;
		ifp->st.events += n;
		for (i = 0; i < n; i++)
			ipoib_neigh_event(ifp, &ev[i]);
		done += n;
	}
	done = 0;
	while (done < IPOIB_EVENTS_PER_TICK) {
		n = rte_ring_sc_dequeue_burst(ifp->ctrl_rx, (void **)m, RTE_DIM(m), NULL);
		if (n == 0)
			break;
		for (i = 0; i < n; i++)
			ipoib_neigh_ctrl_pkt(ifp, m[i]);
		done += n;
	}
}

/* The control side's work, in a pass of the MAD core (a ctrl timer). */
static void
if_tick(struct rte_ibmad_ctrl_timer *timer, void *arg)
{
	struct rte_ipoib_if *ifp = arg;
	uint64_t now = rte_ibmad_ctrl_now_ms();
	uint32_t ev;

	ipoib_if_lock(ifp);
	ev = __atomic_exchange_n(&ifp->pending_events, 0, __ATOMIC_ACQ_REL);
	if (ev != 0)
		port_events(ifp, ev);
	/* The P_Key poll: a child waits for the SM to program its P_Key. */
	if (ifp->pkey_index == UINT16_MAX && now >= ifp->next_pkey_poll_ms) {
		ifp->next_pkey_poll_ms = now + 1000;
		if (pkey_refresh(ifp))
			pkey_changed(ifp);
	}
	inbox_drain(ifp);
	if (ifp->started) {
		rings_drain(ifp);
		ipoib_mcast_tick(ifp, now);
		ipoib_paths_tick(ifp, now);
		ipoib_hold_tick(ifp, now);
	}
	rte_ipoib_tbl_reclaim(ifp->tbl);
	ah_reap(ifp, now, false);
	ipoib_if_link_eval(ifp);
	rte_ibmad_ctrl_timer_arm(timer, now + (ifp->started ? IPOIB_TICK_MS : IPOIB_TICK_IDLE_MS));
	ipoib_if_unlock(ifp);
}

/* rte_ib's events: noted for the tick, nothing else (lib/ib's lock is held). */
static void
if_event(const struct rte_ib_event *event, void *arg)
{
	struct rte_ipoib_if *ifp = ipoib_if_by_id_lock((uintptr_t)arg);

	if (ifp == NULL)
		return;
	if (event->dev == ifp->dev && (event->port == ifp->ib_port || event->port == 0) &&
	    (unsigned int)event->type < 32) {
		__atomic_fetch_or(&ifp->pending_events, 1u << event->type, __ATOMIC_RELEASE);
		rte_ibmad_ctrl_timer_arm(ifp->timer, rte_ibmad_ctrl_now_ms());
	}
	ipoib_if_registry_unlock();
}

static int
conf_check(const struct rte_ipoib_if_conf *c)
{
	if (c->mode != RTE_IPOIB_MODE_ETH && c->mode != RTE_IPOIB_MODE_L3) {
		IPOIB_LOG(ERR, "mode=%d: not eth (0) or l3 (1)", (int)c->mode);
		return -EINVAL;
	}
	if (c->nb_rx_queues != 1) {
		IPOIB_LOG(ERR, "nb_rx_queues=%u: must be 1 (the address names one QP)",
			  c->nb_rx_queues);
		return -EINVAL;
	}
	if (c->nb_tx_queues < 1 || c->nb_tx_queues > RTE_IPOIB_IF_MAX_QUEUES) {
		IPOIB_LOG(ERR, "nb_tx_queues=%u: not 1..%u", c->nb_tx_queues,
			  RTE_IPOIB_IF_MAX_QUEUES);
		return -EINVAL;
	}
	if (c->mp == NULL) {
		IPOIB_LOG(ERR, "mp=NULL: a mempool is needed");
		return -EINVAL;
	}
	if (c->scope > 14) {
		IPOIB_LOG(ERR, "scope=%u: not 0..14", c->scope);
		return -EINVAL;
	}
	if (c->mtu != 0 && (c->mtu < 68 || c->mtu > RTE_IPOIB_UD_MTU_MAX)) {
		IPOIB_LOG(ERR, "mtu=%u: not 0 or 68..%u", c->mtu, RTE_IPOIB_UD_MTU_MAX);
		return -EINVAL;
	}
	if (c->pkey != 0 && !rte_ib_pkey_is_valid(c->pkey)) {
		IPOIB_LOG(ERR, "pkey=0x%04x: the invalid P_Key", c->pkey);
		return -EINVAL;
	}
	if (c->name != NULL && (c->name[0] == '\0' ||
				strlen(c->name) >= RTE_IPOIB_IF_NAMESIZE)) {
		IPOIB_LOG(ERR, "name=\"%s\": empty or longer than %u", c->name,
			  RTE_IPOIB_IF_NAMESIZE - 1);
		return -EINVAL;
	}
	return 0;
}

/* The UD ethdev: one rx queue, the tx queues, their QPNs. */
static int
lower_setup(struct rte_ipoib_if *ifp)
{
	const struct rte_ipoib_if_conf *c = &ifp->conf;
	uint16_t port = ifp->lower_port_id;
	int socket = rte_eth_dev_socket_id(port);
	struct rte_ib_ud_queue_info qi;
	struct rte_eth_conf ec;
	unsigned int q;
	int rc;

	if (socket < 0)
		socket = SOCKET_ID_ANY;
	memset(&ec, 0, sizeof(ec));
	rc = rte_eth_dev_configure(port, 1, c->nb_tx_queues, &ec);
	if (rc == 0)
		rc = rte_eth_rx_queue_setup(port, 0, c->nb_rx_desc ? c->nb_rx_desc :
					    RTE_IPOIB_IF_DEFAULT_DESC, socket, NULL, c->mp);
	for (q = 0; rc == 0 && q < c->nb_tx_queues; q++)
		rc = rte_eth_tx_queue_setup(port, q, c->nb_tx_desc ? c->nb_tx_desc :
					    RTE_IPOIB_IF_DEFAULT_DESC, socket, NULL);
	if (rc != 0) {
		IPOIB_LOG(ERR, "%s: ethdev %u: configure or queue setup: %s", ifp->name, port,
			  rte_strerror(-rc));
		return rc;
	}
	if (rte_ib_ud_queue_info(port, 0, false, &qi) != 0) {
		IPOIB_LOG(ERR, "%s: ethdev %u: rx queue 0's QP: %s", ifp->name, port,
			  rte_strerror(rte_errno));
		return -rte_errno;
	}
	rte_ipoib_hwaddr_set(&ifp->hwaddr, 0, qi.qpn, &ifp->hwaddr_gid);
	for (q = 0; q < c->nb_tx_queues; q++) {
		if (rte_ib_ud_queue_info(port, q, true, &qi) != 0)
			return -rte_errno;
		ifp->tx_qpn[q] = qi.qpn;
	}
	return 0;
}

static int
if_alloc_parts(struct rte_ipoib_if *ifp)
{
	unsigned int nb = ifp->conf.nb_rx_queues + ifp->conf.nb_tx_queues, i;
	struct rte_ipoib_tbl_conf tc;
	char name[RTE_RING_NAMESIZE];
	size_t sz;

	sz = rte_rcu_qsbr_get_memsize(nb);
	ifp->qsbr = rte_zmalloc("ipoib_qsbr", sz, RTE_CACHE_LINE_SIZE);
	if (ifp->qsbr == NULL || rte_rcu_qsbr_init(ifp->qsbr, nb) != 0)
		return -ENOMEM;
	/* One reader id per queue; each burst goes online and offline. */
	for (i = 0; i < nb; i++)
		rte_rcu_qsbr_thread_register(ifp->qsbr, i);
	memset(&tc, 0, sizeof(tc));
	tc.max_neigh = IPOIB_TBL_NEIGH;
	tc.max_path = IPOIB_TBL_PATH;
	tc.queue_len = RTE_IPOIB_PATH_QUEUE_MAX;
	tc.qsbr = ifp->qsbr;
	tc.ah_free = ipoib_if_ah_release;
	tc.ah_free_ctx = ifp;
	ifp->tbl = rte_ipoib_tbl_create(&tc);
	if (ifp->tbl == NULL)
		return -rte_errno;
	snprintf(name, sizeof(name), "ipoib%" PRIu64 "_ev", ifp->id);
	ifp->events = rte_ring_create_elem(name, sizeof(struct rte_ipoib_event),
					   IPOIB_EVENT_RING, SOCKET_ID_ANY, RING_F_SC_DEQ);
	snprintf(name, sizeof(name), "ipoib%" PRIu64 "_crx", ifp->id);
	ifp->ctrl_rx = rte_ring_create(name, IPOIB_CTRL_RING, SOCKET_ID_ANY, RING_F_SC_DEQ);
	snprintf(name, sizeof(name), "ipoib%" PRIu64 "_ctx", ifp->id);
	ifp->ctrl_tx = rte_ring_create(name, IPOIB_CTRL_RING, SOCKET_ID_ANY, RING_F_SC_DEQ);
	snprintf(name, sizeof(name), "ipoib%" PRIu64 "_hld", ifp->id);
	ifp->held = rte_ring_create_elem(name, sizeof(struct rte_ipoib_held), IPOIB_HELD_RING,
					 SOCKET_ID_ANY, RING_F_SC_DEQ);
	if (ifp->events == NULL || ifp->ctrl_rx == NULL || ifp->ctrl_tx == NULL ||
	    ifp->held == NULL)
		return -rte_errno;
	ifp->timer = rte_ibmad_ctrl_timer_create(if_tick, ifp);
	if (ifp->timer == NULL)
		return -rte_errno;
	return 0;
}

static void
ring_free_mbufs(struct rte_ring *r)
{
	void *m;

	if (r == NULL)
		return;
	while (rte_ring_dequeue(r, &m) == 0)
		rte_pktmbuf_free(m);
	rte_ring_free(r);
}

/* Frees what if_alloc_parts() and create made; NULL-tolerant, any stage. */
static void
if_free(struct rte_ipoib_if *ifp)
{
	struct ipoib_inbox_item *it;

	rte_ibmad_ctrl_timer_free(ifp->timer);
	ifp->dying = true;
	dp_swap(ifp, NULL, NULL);
	ipoib_hold_dp_set(ifp, NULL);
	ipoib_hold_flush(ifp);
	rte_ring_free(ifp->held);
	ipoib_mcast_fini(ifp);
	ipoib_paths_fini(ifp);
	while ((it = STAILQ_FIRST(&ifp->inbox)) != NULL) {
		STAILQ_REMOVE_HEAD(&ifp->inbox, next);
		free(it);
	}
	rte_ipoib_tbl_free(ifp->tbl);
	ring_free_mbufs(ifp->ctrl_tx);
	ring_free_mbufs(ifp->ctrl_rx);
	rte_ring_free(ifp->events);
	ah_reap(ifp, 0, true);
	rte_free(ifp->qsbr);
	pthread_mutex_destroy(&ifp->inbox_lock);
	pthread_mutex_destroy(&ifp->lock);
	free(ifp);
}

struct rte_ipoib_if *
rte_ipoib_if_create(const struct rte_ipoib_if_conf *conf)
{
	struct rte_ipoib_if *ifp = NULL, *o;
	pthread_mutexattr_t ma;
	struct rte_ib_device *dev;
	uint16_t idx = UINT16_MAX;
	uint8_t ib_port;
	int rc;

	if (conf == NULL)
		return ipoib_null(EINVAL);
	rc = conf_check(conf);
	if (rc != 0)
		return ipoib_null(-rc);
	dev = rte_ib_device_from_port_id(conf->ib_port_id, &ib_port);
	if (dev == NULL || dev->eth_port_id[ib_port - 1] != conf->ib_port_id) {
		IPOIB_LOG(ERR, "ib_port_id=%u: not the ethdev of an IB port", conf->ib_port_id);
		return ipoib_null(ENODEV);
	}
	ifp = calloc(1, sizeof(*ifp));
	if (ifp == NULL)
		return ipoib_null(ENOMEM);
	ifp->conf = *conf;
	ifp->conf.name = NULL;
	if (ifp->conf.scope == 0)
		ifp->conf.scope = RTE_IPOIB_SCOPE_LINK;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&ifp->lock, &ma);
	pthread_mutexattr_destroy(&ma);
	pthread_mutex_init(&ifp->inbox_lock, NULL);
	STAILQ_INIT(&ifp->inbox);
	STAILQ_INIT(&ifp->ah_dead);
	TAILQ_INIT(&ifp->groups);
	TAILQ_INIT(&ifp->holds);
	ifp->dev = dev;
	ifp->ib_port = ib_port;
	ifp->ib_port_id = conf->ib_port_id;
	ifp->lower_port_id = conf->ib_port_id;
	ifp->child = conf->pkey != 0;
	ifp->pkey = conf->pkey | RTE_IB_PKEY_FULL_MEMBER;
	ifp->pkey_index = UINT16_MAX;
	if (!ifp->child)
		ifp->pkey = 0;
	pkey_refresh(ifp);
	if (!ifp->child && ifp->pkey_index == UINT16_MAX) {
		IPOIB_LOG(ERR, "ib_port_id=%u: no valid P_Key at index 0", conf->ib_port_id);
		rc = -ENODEV;
		goto err_free;
	}
	/* Names: "ib<ethdev of the IB port>", a child "<that>.<pkey>". */
	if (conf->name != NULL)
		snprintf(ifp->name, sizeof(ifp->name), "%s", conf->name);
	else if (ifp->child)
		snprintf(ifp->name, sizeof(ifp->name), "ib%u.%04x", conf->ib_port_id, ifp->pkey);
	else
		snprintf(ifp->name, sizeof(ifp->name), "ib%u", conf->ib_port_id);
	pthread_mutex_lock(&registry_lock);
	rc = 0;
	if (registry_find_locked(ifp->name) != NULL)
		rc = -EEXIST;
	TAILQ_FOREACH(o, &registry, next)
		if (o->dev == dev && o->ib_port == ib_port && o->child == ifp->child &&
		    (!o->child || o->pkey == ifp->pkey))
			rc = -EEXIST;
	ifp->id = registry_next_id++;
	pthread_mutex_unlock(&registry_lock);
	if (rc != 0) {
		IPOIB_LOG(ERR, "%s: an interface with this name, or with pkey 0x%04x on %s port %u, exists",
			  ifp->name, ifp->pkey, dev->name, ib_port);
		goto err_free;
	}
	if (rte_ib_query_gid(dev, ib_port, 0, &ifp->hwaddr_gid) != 0) {
		rc = -rte_errno;
		goto err_free;
	}
	if (ifp->child) {
		idx = ifp->pkey_index == UINT16_MAX ? 0 : ifp->pkey_index;
		if (rte_ib_ud_port_create(dev, ib_port, idx, &ifp->lower_port_id) != 0) {
			rc = -rte_errno;
			IPOIB_LOG(ERR, "%s: UD port for pkey 0x%04x: %s", ifp->name, ifp->pkey,
				  rte_strerror(rte_errno));
			goto err_free;
		}
	}
	rc = lower_setup(ifp);
	if (rc == 0)
		rc = if_alloc_parts(ifp);
	if (rc == 0)
		rc = ipoib_paths_init(ifp);
	if (rc == 0)
		rc = ipoib_mcast_init(ifp);
	if (rc != 0)
		goto err_lower;
	bcast_addr_set(ifp);
	port_refresh(ifp);
	ifp->mtu = conf->mtu;
	pthread_mutex_lock(&registry_lock);
	TAILQ_INSERT_TAIL(&registry, ifp, next);
	pthread_mutex_unlock(&registry_lock);
	if (rte_ib_register_event_handler(dev, if_event, (void *)(uintptr_t)ifp->id) != 0) {
		rc = -rte_errno;
		pthread_mutex_lock(&registry_lock);
		TAILQ_REMOVE(&registry, ifp, next);
		pthread_mutex_unlock(&registry_lock);
		goto err_lower;
	}
	ipoib_telemetry_init();
	rte_ibmad_ctrl_timer_arm(ifp->timer, rte_ibmad_ctrl_now_ms() + IPOIB_TICK_IDLE_MS);
	IPOIB_LOG(INFO, "%s: on %s port %u, ethdev %u, pkey 0x%04x index %u, qpn 0x%06x",
		  ifp->name, dev->name, ib_port, ifp->lower_port_id, ifp->pkey, ifp->pkey_index,
		  rte_ipoib_hwaddr_qpn(&ifp->hwaddr));
	return ifp;
err_lower:
	if (ifp->child && ifp->lower_port_id != ifp->ib_port_id)
		rte_ib_ud_port_destroy(ifp->lower_port_id);
err_free:
	if_free(ifp);
	return ipoib_null(-rc);
}

int
rte_ipoib_if_start(struct rte_ipoib_if *ifp)
{
	int rc = 0;

	if (ifp == NULL)
		return ipoib_err(EINVAL);
	ipoib_if_lock(ifp);
	if (ifp->started)
		goto out;
	if (ifp->pkey_index != UINT16_MAX) {
		rc = lower_start(ifp);
		if (rc != 0)
			goto out;
	}
	ifp->started = true;
	port_refresh(ifp);
	ipoib_mcast_start(ifp);
	rte_ibmad_ctrl_timer_arm(ifp->timer, rte_ibmad_ctrl_now_ms());
out:
	ipoib_if_unlock(ifp);
	return ipoib_ret(rc);
}

int
rte_ipoib_if_stop(struct rte_ipoib_if *ifp)
{
	if (ifp == NULL)
		return ipoib_err(EINVAL);
	ipoib_if_lock(ifp);
	if (ifp->started) {
		ifp->started = false;
		ipoib_mcast_stop(ifp);
		ipoib_neigh_flush(ifp);
		ifp->bcast_joined = false;
		dp_swap(ifp, NULL, NULL);
		ipoib_hold_dp_set(ifp, NULL);
		ipoib_hold_flush(ifp);
		ipoib_if_link_eval(ifp);
		lower_stop(ifp);
	}
	ipoib_if_unlock(ifp);
	return 0;
}

void
rte_ipoib_if_destroy(struct rte_ipoib_if *ifp)
{
	if (ifp == NULL)
		return;
	rte_ipoib_if_stop(ifp);
	pthread_mutex_lock(&registry_lock);
	TAILQ_REMOVE(&registry, ifp, next);
	pthread_mutex_unlock(&registry_lock);
	rte_ib_unregister_event_handler(ifp->dev, if_event, (void *)(uintptr_t)ifp->id);
	/* Waits for a tick in progress; the lock is not held here. */
	rte_ibmad_ctrl_timer_free(ifp->timer);
	ifp->timer = NULL;
	ipoib_if_lock(ifp);
	ifp->dying = true;
	ipoib_if_unlock(ifp);
	if (ifp->child)
		rte_ib_ud_port_destroy(ifp->lower_port_id);
	IPOIB_LOG(INFO, "%s: destroyed", ifp->name);
	if_free(ifp);
}

/* L3 view: ARP and ND go to the control side, not to the application. */
static uint16_t
divert_ctrl(struct rte_ipoib_if *ifp, struct ipoib_txq *q, struct rte_mbuf **pkts, uint16_t nb)
{
	uint16_t i, k = 0;

	for (i = 0; i < nb; i++) {
		struct rte_mbuf *m = pkts[i];
		const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
		bool ctrl = (m->packet_type & RTE_PTYPE_L2_MASK) == RTE_PTYPE_L2_ETHER_ARP ||
			((p[0] >> 4) == 6 && m->data_len >= 41 && p[6] == 58 &&
			 p[40] >= 133 && p[40] <= 137);

		if (!ctrl) {
			pkts[k++] = m;
		} else if (rte_ring_mp_enqueue(ifp->ctrl_rx, m) != 0) {
			rte_pktmbuf_free(m);
			q->rx_ctrl_lost++;
		}
	}
	return k;
}

uint16_t
rte_ipoib_if_rx_burst(struct rte_ipoib_if *ifp, uint16_t qid, struct rte_mbuf **pkts,
		      uint16_t nb_pkts)
{
	struct rte_ipoib_dp *dp;
	uint16_t nb = 0, i;

	if (unlikely(qid >= ifp->conf.nb_rx_queues))
		return 0;
	rte_rcu_qsbr_thread_online(ifp->qsbr, qid);
	if (unlikely(!__atomic_load_n(&ifp->lower_started, __ATOMIC_ACQUIRE)))
		goto out;
	nb = rte_eth_rx_burst(ifp->lower_port_id, qid, pkts, nb_pkts);
	if (nb == 0)
		goto out;
	/*
	 * The device has just written every header line of the burst (the
	 * HCA's DMA, another core in the model): all of them asked for
	 * before decap reads the first, so that the misses overlap instead
	 * of coming one packet at a time.
	 */
	for (i = 0; i < nb; i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	dp = __atomic_load_n(&ifp->dp_rx[qid], __ATOMIC_ACQUIRE);
	if (unlikely(dp == NULL)) {
		ifp->txq[qid].down_drops += nb;
		rte_pktmbuf_free_bulk(pkts, nb);
		nb = 0;
		goto out;
	}
	nb = rte_ipoib_decap_burst(dp, pkts, nb);
	if (ifp->conf.mode == RTE_IPOIB_MODE_L3 && nb != 0)
		nb = divert_ctrl(ifp, &ifp->txq[qid], pkts, nb);
out:
	rte_rcu_qsbr_thread_offline(ifp->qsbr, qid);
	return nb;
}

/* Control packets queued by the control side: tx queue 0 sends them. */
static void
ctrl_drain(struct rte_ipoib_if *ifp, struct ipoib_txq *q)
{
	struct rte_mbuf *m[32];
	unsigned int n, s;

	n = rte_ring_sc_dequeue_burst(ifp->ctrl_tx, (void **)m, RTE_DIM(m), NULL);
	if (n == 0)
		return;
	s = rte_eth_tx_burst(ifp->lower_port_id, 0, m, n);
	q->ctrl_sent += s;
	if (s < n) {
		q->ctrl_lost += n - s;
		rte_pktmbuf_free_bulk(m + s, n - s);
	}
}

uint16_t
rte_ipoib_if_tx_burst(struct rte_ipoib_if *ifp, uint16_t qid, struct rte_mbuf **pkts,
		      uint16_t nb_pkts)
{
	const uint16_t rid = ifp->conf.nb_rx_queues + qid;
	struct ipoib_txq *q;
	struct rte_ipoib_dp *dp;
	uint16_t n = 0, r, s;

	if (unlikely(qid >= ifp->conf.nb_tx_queues))
		return 0;
	q = &ifp->txq[qid];
	rte_rcu_qsbr_thread_online(ifp->qsbr, rid);
	if (unlikely(!__atomic_load_n(&ifp->lower_started, __ATOMIC_ACQUIRE)))
		goto drop;
	if (qid == 0 && !rte_ring_empty(ifp->ctrl_tx))
		ctrl_drain(ifp, q);
	/* What the device refused last time goes first, in order. */
	if (q->nb_pend != 0) {
		s = rte_eth_tx_burst(ifp->lower_port_id, qid, q->pend, q->nb_pend);
		memmove(q->pend, q->pend + s, (q->nb_pend - s) * sizeof(q->pend[0]));
		q->nb_pend -= s;
		if (q->nb_pend != 0) {
			q->dev_full++;
			goto out;
		}
	}
	if (nb_pkts == 0)
		goto out;
	dp = __atomic_load_n(&ifp->dp_tx[qid], __ATOMIC_ACQUIRE);
	if (unlikely(dp == NULL))
		goto drop;
	n = RTE_MIN(nb_pkts, IPOIB_TXQ_PEND);
	r = rte_ipoib_encap_burst(dp, pkts, n);
	s = rte_eth_tx_burst(ifp->lower_port_id, qid, pkts, r);
	if (s < r) {
		memcpy(q->pend, pkts + s, (r - s) * sizeof(pkts[0]));
		q->nb_pend = r - s;
		q->dev_full++;
	}
	goto out;
drop:
	n = nb_pkts;
	if (n != 0) {
		q->down_drops += n;
		rte_pktmbuf_free_bulk(pkts, n);
	}
out:
	rte_rcu_qsbr_thread_offline(ifp->qsbr, rid);
	return n;
}

bool
rte_ipoib_if_tx0_pending(const struct rte_ipoib_if *ifp)
{
	return !rte_ring_empty(ifp->ctrl_tx) ||
		__atomic_load_n(&ifp->txq[0].nb_pend, __ATOMIC_RELAXED) != 0;
}

int
rte_ipoib_if_info_get(const struct rte_ipoib_if *cifp, struct rte_ipoib_if_info *info)
{
	struct rte_ipoib_if *ifp = (struct rte_ipoib_if *)(uintptr_t)cifp;

	if (ifp == NULL || info == NULL)
		return ipoib_err(EINVAL);
	memset(info, 0, sizeof(*info));
	ipoib_if_lock(ifp);
	snprintf(info->name, sizeof(info->name), "%s", ifp->name);
	info->dev = ifp->dev;
	info->ib_port = ifp->ib_port;
	info->lower_port_id = ifp->lower_port_id;
	info->pkey = ifp->pkey;
	info->pkey_index = ifp->pkey_index;
	info->lid = ifp->lid;
	info->qkey = ifp->qkey;
	info->ud_mtu = ifp->ud_mtu;
	info->mtu = ifp->mtu;
	info->hwaddr = ifp->hwaddr;
	info->bcast = ifp->bcast;
	rte_ipoib_mac_from_hwaddr(&ifp->hwaddr, &info->mac);
	info->link_up = ifp->link_up;
	info->mode = ifp->conf.mode;
	ipoib_if_unlock(ifp);
	return 0;
}

int
rte_ipoib_if_mtu_set(struct rte_ipoib_if *ifp, uint32_t mtu)
{
	uint32_t max;
	int rc = 0;

	if (ifp == NULL)
		return ipoib_err(EINVAL);
	ipoib_if_lock(ifp);
	max = ifp->ud_mtu != 0 ? ifp->ud_mtu : RTE_IPOIB_UD_MTU_MAX;
	if (mtu < 68 || mtu > max) {
		IPOIB_LOG(ERR, "%s: mtu=%u: not 68..%u (the broadcast group's UD MTU)",
			  ifp->name, mtu, max);
		rc = -EINVAL;
		goto out;
	}
	ifp->conf.mtu = mtu;
	if (ifp->ud_mtu != 0 && ifp->mtu != mtu) {
		ifp->mtu = mtu;
		rc = ipoib_if_dp_rebuild(ifp);
	} else {
		ifp->mtu = mtu;
	}
out:
	ipoib_if_unlock(ifp);
	return ipoib_ret(rc);
}

int
rte_ipoib_if_mcast_add(struct rte_ipoib_if *ifp, const uint8_t ip[16])
{
	int rc;

	if (ifp == NULL || ip == NULL)
		return ipoib_err(EINVAL);
	ipoib_if_lock(ifp);
	rc = ipoib_mcast_ref(ifp, ip, true);
	ipoib_if_unlock(ifp);
	return ipoib_ret(rc);
}

int
rte_ipoib_if_mcast_del(struct rte_ipoib_if *ifp, const uint8_t ip[16])
{
	int rc;

	if (ifp == NULL || ip == NULL)
		return ipoib_err(EINVAL);
	ipoib_if_lock(ifp);
	rc = ipoib_mcast_unref(ifp, ip, true);
	ipoib_if_unlock(ifp);
	return ipoib_ret(rc);
}

int
rte_ipoib_if_addr_set(struct rte_ipoib_if *ifp, const uint8_t ip[16], bool del)
{
	uint8_t g[16];
	unsigned int i;
	int rc = 0;

	if (ifp == NULL || ip == NULL)
		return ipoib_err(EINVAL);
	if (ip[0] == 0xff || (ipoib_ip_is_v4(ip) && (ip[12] >= 0xe0 || ip[12] == 0))) {
		IPOIB_LOG(ERR, "%s: address %02x%02x...: multicast, broadcast or zero",
			  ifp->name, ip[0], ip[1]);
		return ipoib_err(EINVAL);
	}
	ipoib_if_lock(ifp);
	for (i = 0; i < ifp->nb_addrs; i++)
		if (memcmp(ifp->addrs[i], ip, 16) == 0)
			break;
	if (del) {
		if (i == ifp->nb_addrs) {
			rc = -ENOENT;
			goto out;
		}
		memmove(ifp->addrs[i], ifp->addrs[i + 1], (ifp->nb_addrs - i - 1) * 16);
		ifp->nb_addrs--;
		if (!ipoib_ip_is_v4(ip)) {
			ipoib_solicited_node(ip, g);
			ipoib_mcast_unref(ifp, g, false);
		}
		goto out;
	}
	if (i < ifp->nb_addrs)
		goto out;
	if (ifp->nb_addrs == RTE_IPOIB_IF_MAX_ADDRS) {
		rc = -ENOSPC;
		goto out;
	}
	memcpy(ifp->addrs[ifp->nb_addrs++], ip, 16);
	if (!ipoib_ip_is_v4(ip)) {
		ipoib_solicited_node(ip, g);
		ipoib_mcast_ref(ifp, g, false);
	}
out:
	ipoib_if_unlock(ifp);
	return ipoib_ret(rc);
}

int
rte_ipoib_if_stats_get(const struct rte_ipoib_if *cifp, struct rte_ipoib_if_stats *st)
{
	struct rte_ipoib_if *ifp = (struct rte_ipoib_if *)(uintptr_t)cifp;
	struct rte_ipoib_dp_stats d;
	struct rte_ipoib_dp *dp;
	unsigned int q;

	if (ifp == NULL || st == NULL)
		return ipoib_err(EINVAL);
	ipoib_if_lock(ifp);
	*st = ifp->st;
	st->dp = ifp->dp_gone;
	for (q = 0; q < ifp->conf.nb_rx_queues; q++) {
		dp = ifp->dp_rx[q];
		if (dp != NULL && rte_ipoib_dp_stats_get(dp, &d) == 0)
			dp_stats_add(&st->dp, &d);
	}
	for (q = 0; q < ifp->conf.nb_tx_queues; q++) {
		dp = ifp->dp_tx[q];
		if (dp != NULL && rte_ipoib_dp_stats_get(dp, &d) == 0)
			dp_stats_add(&st->dp, &d);
		st->ctrl_tx += ifp->txq[q].ctrl_sent;
		st->ctrl_tx_lost += ifp->txq[q].ctrl_lost;
		st->tx_dev_full += ifp->txq[q].dev_full;
		st->ctrl_drops += ifp->txq[q].rx_ctrl_lost;
	}
	st->path_refused = ifp->pc.path_refused;
	st->path_drops = ifp->pc.path_drops;
	ipoib_if_unlock(ifp);
	return 0;
}

int
rte_ipoib_if_dir_stats_get(const struct rte_ipoib_if *cifp, bool tx, struct rte_ipoib_dp_stats *st)
{
	struct rte_ipoib_if *ifp = (struct rte_ipoib_if *)(uintptr_t)cifp;
	struct rte_ipoib_dp_stats d;
	struct rte_ipoib_dp *dp;
	unsigned int q, nb;

	if (ifp == NULL || st == NULL)
		return ipoib_err(EINVAL);
	ipoib_if_lock(ifp);
	*st = ifp->dp_gone_dir[tx];
	nb = tx ? ifp->conf.nb_tx_queues : ifp->conf.nb_rx_queues;
	for (q = 0; q < nb; q++) {
		dp = tx ? ifp->dp_tx[q] : ifp->dp_rx[q];
		if (dp != NULL && rte_ipoib_dp_stats_get(dp, &d) == 0)
			dp_stats_add(st, &d);
	}
	ipoib_if_unlock(ifp);
	return 0;
}
