/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * Receive and send paths of nodes: switch forwarding (switch.c) and
 * the node I/O of every node type (node_io.c): LID routing, directed
 * route, loop-back, local delivery to firmware, model and clients.
 */

#ifndef _IBFABRIC_FAB_ROUTE_H_
#define _IBFABRIC_FAB_ROUTE_H_

#include <stdint.h>

struct fab_hdrs;
struct fab_pkt;
struct fab_port;
struct fabric;

/* switch.c (called by node_io.c's fab_port_recv) */

/** Switch receive path for the parsed packet @p p (headers @p h) arriving at @p in. */
void switch_recv(struct fabric *f, struct fab_port *in, struct fab_pkt *p,
		 const struct fab_hdrs *h);

/* ------------------------------------------------------------------ */
/* switch.c / node_io.c: receive and send paths */

/** A packet arrived at @p in (called by fabric_run). Takes ownership. */
void fab_port_recv(struct fabric *f, struct fab_port *in, struct fab_pkt *p);

/** Where a MAD sent by a local agent (a umad2sim client) goes. */
struct fab_mad_addr {
	uint16_t dlid;			/**< 0xffff: directed route (permissive) */
	uint16_t slid;			/**< 0: fill in the port's LID */
	uint32_t dqp;
	uint32_t sqp;
	uint32_t qkey;
	uint8_t sl;
	uint16_t pkey_index;
};

/**
 * Send a MAD from the local agent on @p port (CA port, or switch port 0)
 * through the node's SMI/GSI: DR SMPs get IBA 14.2.2 outgoing processing,
 * packets to the node itself are looped back. @p origin is the client
 * slot (or -1 for the firmware itself, e.g. traps).
 */
void fab_node_send_mad(struct fabric *f, struct fab_port *port,
		       const struct fab_mad_addr *a, const uint8_t *mad,
		       uint32_t mad_len, int origin, uint32_t origin_gen);

/**
 * Send @p p, built at the node of @p port (a CA port, or switch port 0),
 * LID-routed by its LRH DLID: loop-back to the node itself, out the CA
 * port, or through the switch's LFT (node_io.c; used by switch.c).
 */
void fab_node_output(struct fabric *f, struct fab_port *port, struct fab_pkt *p);
/**
 * Firmware answered the request in @p p (headers @p h) with @p mad
 * (now a response): turn @p p into the reply and send it back, directed
 * route per IBA 14.2.2 for class 0x81, else LID-routed with LIDs and QPs
 * swapped (node_io.c; used by switch.c). @p port: CA port or switch port 0.
 */
void fab_node_reply(struct fabric *f, struct fab_port *port, struct fab_pkt *p,
		    const struct fab_hdrs *h, const uint8_t *mad);
/**
 * @p p (headers @p h) is addressed to the node of @p port (CA port or
 * switch port 0), any directed-route step already done; it arrived on
 * the physical port @p in. QP0: the SMA, or the local SM for a returning
 * DR SMP; QP1: P_Key and Q_Key checks, the PMA for PerfMgt requests,
 * else the local clients (node_io.c; used by switch.c).
 */
void fab_node_local(struct fabric *f, struct fab_port *port, struct fab_port *in,
		    struct fab_pkt *p, const struct fab_hdrs *h);

#endif /* _IBFABRIC_FAB_ROUTE_H_ */
