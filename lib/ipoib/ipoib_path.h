/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _IPOIB_PATH_H_
#define _IPOIB_PATH_H_

/*
 * Paths and neighbours of an interface (ipoib_path.c, ipoib_neigh.c),
 * as ipoib_if.c calls them. All control side, interface lock held.
 */

#include <stdint.h>

#include <rte_ib_dev.h>
#include <rte_mbuf.h>

struct rte_ipoib_if;
struct rte_ipoib_event;

/* The state of paths and neighbours; owned by ipoib_path.c/ipoib_neigh.c. */
struct ipoib_pathctl {
	void *priv;                       /* their own allocation */
};

int ipoib_paths_init(struct rte_ipoib_if *ifp);
void ipoib_paths_fini(struct rte_ipoib_if *ifp);
/* One event from the data lcores' ring. */
void ipoib_neigh_event(struct rte_ipoib_if *ifp, const struct rte_ipoib_event *ev);
/* A control packet (ARP, ND) the L3 view's rx diverted; consumed. */
void ipoib_neigh_ctrl_pkt(struct rte_ipoib_if *ifp, struct rte_mbuf *m);
/* A port event: refresh paths in place (SM, LID change, reregister). */
void ipoib_paths_port_event(struct rte_ipoib_if *ifp, enum rte_ib_event_type type);
/* Periodic work: retries, ageing, draining resolved queues. */
void ipoib_paths_tick(struct rte_ipoib_if *ifp, uint64_t now_ms);

#endif /* _IPOIB_PATH_H_ */
