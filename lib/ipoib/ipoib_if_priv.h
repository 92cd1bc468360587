/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _IPOIB_IF_PRIV_H_
#define _IPOIB_IF_PRIV_H_

/*
 * An interface's private state, shared by its control-side files:
 * ipoib_if.c (life cycle, lower ethdev, link state, port events, the
 * tick), ipoib_mcast.c (broadcast and other groups), ipoib_path.c (SA
 * PathRecord queries, address handles), ipoib_neigh.c (event ring,
 * learning, ageing, ARP/ND of the L3 view), ipoib_telemetry.c.
 *
 * Threads and locks:
 * - lock (recursive) serialises the control side: the public calls of
 *   rte_ipoib_if.h and the tick (ipoib_if_tick(), a timer of the MAD
 *   core's passes, rte_ibmad_ctrl.h). Everything below marked "control"
 *   is written under it.
 * - Callbacks of other libraries never take it: the SA client calls back
 *   with the MAD core's lock held, rte_ib event handlers with lib/ib's,
 *   and a thread holding @c lock calls into both. They put what they
 *   learned in the inbox (inbox_lock, a leaf lock held for a list
 *   operation only) or in pending_events (atomic bits), find the
 *   interface by its id under the registry's lock (ipoib_if.c), and arm
 *   the tick, which does the work under @c lock.
 * - Data lcores touch only: dp_rx/dp_tx (read with acquire, replaced by
 *   the control side after a grace period of qsbr), txq (each its own
 *   queue's), the rings, and the table.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_rcu_qsbr.h>
#include <rte_ring.h>

#include <rte_ib_dev.h>
#include <rte_ib_records.h>

#include "rte_ipoib_if.h"
#include "ipoib_path.h"

/* An IPv4 address in its ::ffff:a.b.c.d form. */
static inline bool
ipoib_ip_is_v4(const uint8_t ip[16])
{
	static const uint8_t pfx[12] = { [10] = 0xff, [11] = 0xff };

	return memcmp(ip, pfx, sizeof(pfx)) == 0;
}

/* ff02::1:ffXX:XXXX, the solicited-node group of @p ip (RFC 4291 2.7.1). */
static inline void
ipoib_solicited_node(const uint8_t ip[16], uint8_t g[16])
{
	memset(g, 0, 16);
	g[0] = 0xff;
	g[1] = 0x02;
	g[11] = 0x01;
	g[12] = 0xff;
	memcpy(g + 13, ip + 13, 3);
}

struct rte_ibmad_ctrl_timer;

/* Tick period while started, and while stopped or the port is down. */
#define IPOIB_TICK_MS 4
#define IPOIB_TICK_IDLE_MS 100
/* Sizes of the event ring and of the control rings, packets. */
#define IPOIB_EVENT_RING 1024
#define IPOIB_CTRL_RING 256
/* Encapsulated packets a tx queue holds back when the device is full. */
#define IPOIB_TXQ_PEND 64
/* An address handle is destroyed this long after the table let it go. */
#define IPOIB_AH_LINGER_MS 2000

/*
 * Packets held for their neighbour (ipoib_hold.c): the held ring's size;
 * at most so many destinations, so many packets per unicast destination
 * (issue 26: three, the seed's limit per unresolved path) and per group
 * (Linux IPOIB_MAX_MCAST_QUEUE is 64; 16 cover a join's round trip at
 * the rates a sender without a group sends), for at most IPOIB_HOLD_MS;
 * a group that was not made within IPOIB_HOLD_NOGROUP_MS was refused.
 */
#define IPOIB_HELD_RING 256
#define IPOIB_HOLD_DESTS 64
#define IPOIB_HOLD_UCAST 3
#define IPOIB_HOLD_MCAST 16
#define IPOIB_HOLD_MS 5000
#define IPOIB_HOLD_NOGROUP_MS 500

/* Resolutions the L3 view started lately: one request a second per IP. */
#define IPOIB_RECENT 32

/* Something a callback of another library learned (ipoib_if_inbox_put()). */
enum ipoib_inbox_kind {
	IPOIB_INBOX_PATH,     /* a PathRecord query ended */
	IPOIB_INBOX_MCAST,    /* a join manager callback */
	IPOIB_INBOX_CPI,      /* the SA's ClassPortInfo */
};

struct ipoib_inbox_item {
	STAILQ_ENTRY(ipoib_inbox_item) next;
	uint8_t kind;            /* enum ipoib_inbox_kind */
	uint8_t nb_recs;         /* PathRecords in recs (at most 4 kept) */
	bool has_rec;            /* mcast: @c mc valid */
	int status;              /* 0, -errno or SA status */
	uint64_t id;             /* path, cpi: query token; mcast: member id */
	uint32_t cap_mask2;      /* cpi: CapabilityMask2 */
	union {
		struct rte_ib_sa_path_rec path[4];
		struct rte_ib_sa_mcmember_rec mc;
	} rec;
};
STAILQ_HEAD(ipoib_inbox, ipoib_inbox_item);

/*
 * What an SA query's callback carries (PathRecord, ClassPortInfo): the
 * interface, found again by id, and the query's token, matched against
 * the newest query when its inbox item is taken.
 */
struct ipoib_sa_query_arg {
	uint64_t if_id;
	uint64_t token;
};

/* An address handle waiting out IPOIB_AH_LINGER_MS (ipoib_if.c). */
struct ipoib_ah_dead {
	STAILQ_ENTRY(ipoib_ah_dead) next;
	struct rte_ib_ah *ah;
	uint64_t at_ms;
};
STAILQ_HEAD(ipoib_ah_list, ipoib_ah_dead);

/* Join states of a group (ipoib_mcast.c). */
enum ipoib_mc_state {
	IPOIB_MC_IDLE,        /* not asked yet, or waiting to retry */
	IPOIB_MC_JOINING,     /* a member of the join manager, no answer yet */
	IPOIB_MC_JOINED,      /* answered: MLID, AH, neighbour in the table */
};

/* What the SA's ClassPortInfo told (ipoib_mcast.c). */
enum ipoib_cpi_state {
	IPOIB_CPI_NONE,       /* not asked (no SM yet), or to ask again */
	IPOIB_CPI_QUERYING,   /* a query in flight */
	IPOIB_CPI_KNOWN,      /* answered: sendonly_full is the SA's */
	IPOIB_CPI_FAILED,     /* no answer: send-only joins are non-member */
};

/* A multicast group of an interface (control). */
struct ipoib_mcgroup {
	TAILQ_ENTRY(ipoib_mcgroup) next;
	struct rte_ib_gid mgid;
	uint8_t ip[16];               /* the IP group; zero for broadcast */
	bool bcast;                   /* the partition's broadcast group */
	bool dflt;                    /* a default group (all-hosts, all-nodes) */
	uint32_t refs;                /* full-member users (adds, reports, defaults) */
	uint32_t api_refs;            /* of them, rte_ipoib_if_mcast_add() */
	bool sendonly;                /* joined send-only (refs == 0) */
	bool leaving;                 /* to leave at the next tick */
	enum ipoib_mc_state state;
	bool member;                  /* member_id valid */
	uint8_t join_state;           /* what member_id asked */
	uint64_t member_id;
	uint16_t mlid;                /* attached at this MLID when attached */
	bool attached;
	struct rte_ib_sa_mcmember_rec rec;
	bool reported;                /* one of refs is from IGMP/MLD reports */
	struct rte_ib_ah *ah;         /* the path's handle (the table frees it) */
	struct rte_ipoib_path *path;  /* table path of the MGID, AH to MLID */
	struct rte_ipoib_neigh *neigh;
	uint32_t backoff_ms;
	uint64_t retry_at_ms;
	uint64_t joined_ms;
};
TAILQ_HEAD(ipoib_mcgroups, ipoib_mcgroup);

struct ipoib_hold;
TAILQ_HEAD(ipoib_holds, ipoib_hold);

/* One data-path queue's own state (its lcore's). */
struct ipoib_txq {
	struct rte_mbuf *pend[IPOIB_TXQ_PEND]; /* encapsulated, the device was full */
	uint16_t nb_pend;
	uint64_t ctrl_sent;           /* control packets sent (queue 0) */
	uint64_t ctrl_lost;           /* control packets the device refused */
	uint64_t dev_full;            /* bursts that found the device full */
	uint64_t down_drops;          /* packets dropped: no context (link down) */
	uint64_t rx_ctrl_lost;        /* rx queue: L3 control packets, ring full */
} __rte_cache_aligned;

struct rte_ipoib_if {
	TAILQ_ENTRY(rte_ipoib_if) next;   /* the registry, under its lock */
	uint64_t id;                      /* the registry's: callbacks' key */
	char name[RTE_IPOIB_IF_NAMESIZE];
	struct rte_ipoib_if_conf conf;
	pthread_mutex_t lock;             /* control side, recursive */
	unsigned int lock_depth;          /* under lock */
	bool link_report;                 /* link_cb to call at the last unlock */
	struct rte_ib_device *dev;
	uint8_t ib_port;
	uint16_t ib_port_id;              /* the IB port's own ethdev */
	uint16_t lower_port_id;           /* UD ethdev below */
	bool child;                       /* lower is a UD port we made */
	bool lower_started;
	uint16_t pkey;                    /* full-member bit set */
	uint16_t pkey_index;              /* 0xffff: not in the table */
	uint16_t lid;
	uint32_t qkey;
	uint32_t ud_mtu;
	uint32_t mtu;
	uint32_t tx_qpn[RTE_IPOIB_IF_MAX_QUEUES];
	struct rte_ib_gid hwaddr_gid;     /* port GID 0 */
	struct rte_ipoib_hwaddr hwaddr;
	struct rte_ipoib_hwaddr bcast;
	struct rte_ib_sa_mcmember_rec bcast_rec; /* as the SA answered */
	bool port_active;
	bool bcast_joined;
	bool link_up;
	bool started;
	bool dying;                       /* destroy in progress */
	struct rte_ipoib_tbl *tbl;
	struct rte_rcu_qsbr *qsbr;        /* readers: one id per queue */
	struct rte_ring *events;          /* data lcores -> control, MP/SC */
	struct rte_ring *ctrl_rx;         /* L3 view's ARP/ND -> control, MP/SC */
	struct rte_ring *ctrl_tx;         /* control -> tx queue 0, MP/SC */
	struct rte_ring *held;            /* data lcores -> control, MP/SC */
	struct ipoib_holds holds;         /* control (ipoib_hold.c) */
	unsigned int nb_holds;
	struct rte_ipoib_dp *hold_dp;     /* control: sends the held packets */
	struct rte_ipoib_dp *dp_tx[RTE_IPOIB_IF_MAX_QUEUES];
	struct rte_ipoib_dp *dp_rx[RTE_IPOIB_IF_MAX_QUEUES];
	struct rte_ipoib_dp_stats dp_gone;  /* counters of replaced contexts */
	struct rte_ipoib_dp_stats dp_gone_dir[2]; /* the same by direction: rx, tx */
	struct ipoib_txq txq[RTE_IPOIB_IF_MAX_QUEUES];
	struct rte_ibmad_ctrl_timer *timer;
	uint32_t pending_events;          /* 1 << rte_ib_event_type, atomic */
	pthread_mutex_t inbox_lock;       /* leaf */
	struct ipoib_inbox inbox;
	struct ipoib_ah_list ah_dead;     /* control */
	struct ipoib_mcgroups groups;     /* control */
	enum ipoib_cpi_state cpi;         /* control (ipoib_mcast.c) */
	uint64_t cpi_token;               /* the query in flight */
	uint64_t cpi_retry_ms;
	bool sendonly_full;               /* SA: SendOnlyFullMember supported */
	uint64_t next_pkey_poll_ms;
	uint64_t next_age_ms;
	uint8_t addrs[RTE_IPOIB_IF_MAX_ADDRS][16]; /* local addresses (L3 view) */
	uint8_t nb_addrs;
	struct {
		uint8_t ip[16];
		uint64_t at_ms;
	} recent[IPOIB_RECENT];           /* control (ipoib_neigh.c) */
	struct ipoib_pathctl pc;          /* ipoib_path.c / ipoib_neigh.c */
	struct rte_ipoib_if_stats st;     /* control-side counters */
};

/* ipoib_if.c: queue a control packet (already in the IPoIB form, its
 * rte_ib dynfield tx view filled) for transmission on tx queue 0; freed
 * and counted when the ring is full. Control side.
 */
int ipoib_if_ctrl_xmit(struct rte_ipoib_if *ifp, struct rte_mbuf *m);

/* ipoib_if.c: an interface by registry id, its registry lock held on
 * success (release with ipoib_if_registry_unlock()); for callbacks.
 */
struct rte_ipoib_if *ipoib_if_by_id_lock(uint64_t id);
void ipoib_if_registry_unlock(void);

/* ipoib_if.c: hand an item to the tick (callbacks; takes inbox_lock). */
void ipoib_if_inbox_put(struct rte_ipoib_if *ifp, struct ipoib_inbox_item *it);

/* ipoib_if.c: recompute the link state; the change, if any, is reported
 * by the caller's ipoib_if_unlock(). Control.
 */
void ipoib_if_link_eval(struct rte_ipoib_if *ifp);
/* ipoib_if.c: take the lock / release it and run a pending link callback. */
void ipoib_if_lock(struct rte_ipoib_if *ifp);
void ipoib_if_unlock(struct rte_ipoib_if *ifp);
/* ipoib_if.c: the data-path contexts anew from the current values. Control. */
int ipoib_if_dp_rebuild(struct rte_ipoib_if *ifp);
/* ipoib_if.c: table's ah_free: destroy later (IPOIB_AH_LINGER_MS). */
void ipoib_if_ah_release(void *ctx, struct rte_ib_ah *ah);

/* ipoib_mcast.c, control. */
int ipoib_mcast_init(struct rte_ipoib_if *ifp);
void ipoib_mcast_fini(struct rte_ipoib_if *ifp);
/* Join the broadcast group and the default groups (all-hosts, all-nodes). */
int ipoib_mcast_start(struct rte_ipoib_if *ifp);
/* Leave every group, detach, drop their table entries. */
void ipoib_mcast_stop(struct rte_ipoib_if *ifp);
/* A full-member user of an IP group (IPv4 as ::ffff:a.b.c.d) comes or goes. */
int ipoib_mcast_ref(struct rte_ipoib_if *ifp, const uint8_t ip[16], bool api);
int ipoib_mcast_unref(struct rte_ipoib_if *ifp, const uint8_t ip[16], bool api);
/* An IGMP/MLD report (@p join) or leave seen on transmit. */
void ipoib_mcast_report(struct rte_ipoib_if *ifp, const uint8_t ip[16], bool join);
/* A packet for group @p hw that has no neighbour: send-only join. */
void ipoib_mcast_sendonly(struct rte_ipoib_if *ifp, const struct rte_ipoib_hwaddr *hw);
/* Ask the SA's ClassPortInfo (again: SM change, client reregister). */
void ipoib_mcast_cpi_query(struct rte_ipoib_if *ifp);
/* Its answer, from the inbox. */
void ipoib_mcast_cpi_answer(struct rte_ipoib_if *ifp, const struct ipoib_inbox_item *it);
/* A join manager callback, from the inbox. */
void ipoib_mcast_answer(struct rte_ipoib_if *ifp, const struct ipoib_inbox_item *it);
/* Retries, leaves, unused send-only groups. */
void ipoib_mcast_tick(struct rte_ipoib_if *ifp, uint64_t now_ms);
/* The group of @p mgid, or NULL. */
struct ipoib_mcgroup *ipoib_mcast_find(struct rte_ipoib_if *ifp, const struct rte_ib_gid *mgid);

/* ipoib_hold.c, control. */
/* The held ring sorted, packets whose neighbour came sent, others aged. */
void ipoib_hold_tick(struct rte_ipoib_if *ifp, uint64_t now_ms);
/* The context that sends held packets, like the tx queues' (NULL: none). */
void ipoib_hold_dp_set(struct rte_ipoib_if *ifp, const struct rte_ipoib_dp_conf *c);
/* Drop every held packet (counted). */
void ipoib_hold_flush(struct rte_ipoib_if *ifp);

/* ipoib_telemetry.c: register the endpoints (once). */
void ipoib_telemetry_init(void);
/* ipoib_if.c: call @p fn for every interface, registry lock held. */
void ipoib_if_foreach(void (*fn)(struct rte_ipoib_if *ifp, void *arg), void *arg);

#endif /* _IPOIB_IF_PRIV_H_ */
