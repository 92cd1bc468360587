/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _IPOIB_IF_PRIV_H_
#define _IPOIB_IF_PRIV_H_

/*
 * An interface's private state, shared by its control-side files:
 * ipoib_if.c (life cycle, lower ethdev, link state, port events),
 * ipoib_mcast.c (broadcast and other groups), ipoib_path.c (SA
 * PathRecord queries, address handles), ipoib_neigh.c (event ring,
 * learning, ageing, ARP/ND of the L3 view), ipoib_telemetry.c.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_ring.h>

#include <rte_ib_dev.h>

#include "rte_ipoib_if.h"
#include "ipoib_path.h"

struct rte_ipoib_if {
	char name[RTE_IPOIB_IF_NAMESIZE];
	struct rte_ipoib_if_conf conf;
	pthread_mutex_t lock;             /* control side */
	struct rte_ib_device *dev;
	uint8_t ib_port;
	uint16_t lower_port_id;           /* UD ethdev below */
	bool child;                       /* lower is a UD port we made */
	uint16_t pkey;                    /* full-member bit set */
	uint16_t pkey_index;              /* 0xffff: not in the table */
	uint16_t lid;
	uint32_t qkey;
	uint32_t ud_mtu;
	uint32_t mtu;
	struct rte_ipoib_hwaddr hwaddr;
	struct rte_ipoib_hwaddr bcast;
	struct rte_ib_sa_mcmember_rec bcast_rec; /* as the SA answered */
	bool port_active;
	bool bcast_joined;
	bool link_up;
	bool started;
	struct rte_ipoib_tbl *tbl;
	struct rte_ring *events;          /* data lcores -> control, MP/SC */
	struct rte_ring *ctrl_tx;         /* control -> tx queue 0, MP/SC */
	struct rte_ipoib_dp *dp_tx[RTE_IPOIB_IF_MAX_QUEUES];
	struct rte_ipoib_dp *dp_rx[RTE_IPOIB_IF_MAX_QUEUES];
	struct ipoib_pathctl pc;          /* ipoib_path.c / ipoib_neigh.c */
	struct rte_ipoib_if_stats st;     /* control-side counters */
};

/* ipoib_if.c: queue a control packet (already in the IPoIB form, its
 * rte_ib dynfield tx view filled) for transmission on tx queue 0; freed
 * and counted when the ring is full. Control side.
 */
int ipoib_if_ctrl_xmit(struct rte_ipoib_if *ifp, struct rte_mbuf *m);

#endif /* _IPOIB_IF_PRIV_H_ */
