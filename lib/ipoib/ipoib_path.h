/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _IPOIB_PATH_H_
#define _IPOIB_PATH_H_

/*
 * Paths and neighbours of an interface (ipoib_path.c, ipoib_neigh.c),
 * as ipoib_if.c calls them. All control side, interface lock held.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_ib_dev.h>
#include <rte_ib_records.h>
#include <rte_mbuf.h>

struct rte_ipoib_if;
struct rte_ipoib_event;
struct rte_ipoib_path;
struct ipoib_inbox_item;

/* SA PathRecord queries an interface sends at most per second. */
#define IPOIB_SA_QPS 32
/* First and longest delay before a failed query is sent again, ms. */
#define IPOIB_PATH_BACKOFF_MIN_MS 1000
#define IPOIB_PATH_BACKOFF_MAX_MS 16000
/* Control packets held per unresolved path (the L3 view's replies). */
#define IPOIB_PATH_CTRL_PEND 3
/* New neighbours learned, ARP/ND handled, at most per second. */
#define IPOIB_LEARN_PER_S 256
#define IPOIB_CTRL_PKTS_PER_S 256
/* Events taken from the ring per tick. */
#define IPOIB_EVENTS_PER_TICK 256

/* A path's control state: one per table path of a unicast DGID. */
struct ipoib_pathent {
	TAILQ_ENTRY(ipoib_pathent) next;
	struct rte_ib_gid dgid;
	uint16_t pkey;
	struct rte_ipoib_path *path;      /* the table's */
	struct rte_ib_ah *ah;             /* published in path (the table frees it) */
	uint64_t token;                   /* query in flight, 0: none */
	uint64_t query_id;                /* its id at the SA client */
	bool resolved;                    /* an AH is published */
	bool refresh;                     /* query again, keeping the AH */
	uint16_t dlid;
	uint8_t sl;
	uint8_t rate;
	uint8_t mtu;                      /* enum rte_ib_mtu */
	uint32_t backoff_ms;
	uint64_t retry_at_ms;
	uint64_t resolved_ms;
	uint32_t failures;
	struct rte_mbuf *ctrl_pend[IPOIB_PATH_CTRL_PEND];
	uint8_t nb_ctrl_pend;
};
TAILQ_HEAD(ipoib_pathents, ipoib_pathent);

/* A token bucket: @c rate a second, at most @c rate held. */
struct ipoib_bucket {
	uint32_t rate;
	uint32_t tokens;
	uint64_t last_ms;
};

/* The state of paths and neighbours; owned by ipoib_path.c/ipoib_neigh.c. */
struct ipoib_pathctl {
	struct ipoib_pathents paths;
	uint32_t nb_paths;
	uint64_t next_token;
	struct ipoib_bucket sa;           /* queries towards the SA */
	struct ipoib_bucket learn;        /* new neighbours */
	struct ipoib_bucket ctrl;         /* ARP/ND handled (L3 view) */
	uint64_t path_refused;            /* answers refused */
	uint64_t path_drops;              /* queued packets of failed paths */
};

int ipoib_paths_init(struct rte_ipoib_if *ifp);
void ipoib_paths_fini(struct rte_ipoib_if *ifp);
/* One event from the data lcores' ring. */
void ipoib_neigh_event(struct rte_ipoib_if *ifp, const struct rte_ipoib_event *ev);
/* Start resolving next hop @p ip of the L3 view (rte_ipoib_if_resolve()). */
void ipoib_neigh_resolve(struct rte_ipoib_if *ifp, const uint8_t ip[16]);
/* A control packet (ARP, ND) the L3 view's rx diverted; consumed. */
void ipoib_neigh_ctrl_pkt(struct rte_ipoib_if *ifp, struct rte_mbuf *m);
/* A port event: refresh paths in place (SM, LID change, reregister). */
void ipoib_paths_port_event(struct rte_ipoib_if *ifp, enum rte_ib_event_type type);
/* Periodic work: retries, ageing, draining resolved queues. */
void ipoib_paths_tick(struct rte_ipoib_if *ifp, uint64_t now_ms);
/* A PathRecord answer from the inbox. */
void ipoib_paths_answer(struct rte_ipoib_if *ifp, const struct ipoib_inbox_item *it);
/* The path entry of (@p dgid, interface P_Key), made (and queried) if new. */
struct ipoib_pathent *ipoib_path_get(struct rte_ipoib_if *ifp, const struct rte_ib_gid *dgid);
/* Hold a control packet for @p pe until it resolves (sent at once if it is). */
void ipoib_path_ctrl_send(struct rte_ipoib_if *ifp, struct ipoib_pathent *pe,
			  struct rte_mbuf *m, uint32_t dqpn);
/* Remove paths no neighbour uses any more. */
void ipoib_paths_gc(struct rte_ipoib_if *ifp);
/* Neighbour ageing (RTE_IPOIB_NEIGH_TIMEOUT_MS). */
void ipoib_neigh_age(struct rte_ipoib_if *ifp, uint64_t now_ms);
/* Drop every neighbour but the groups'. */
void ipoib_neigh_flush(struct rte_ipoib_if *ifp);

/* Take a token of @p b at @p now_ms: false when there is none. */
bool ipoib_bucket_take(struct ipoib_bucket *b, uint64_t now_ms);

#endif /* _IPOIB_PATH_H_ */
