/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * Cables (link.c): the packet pool, the in-order delivery FIFO, link
 * faults; and the captures that watch them (capture.c).
 */

#ifndef _IBFABRIC_FAB_LINK_H_
#define _IBFABRIC_FAB_LINK_H_

#include <stdbool.h>
#include <stdint.h>

struct fab_hdrs;
struct fab_pkt;
struct fab_port;
struct fabric;

/* ------------------------------------------------------------------ */
/* link.c */

struct fab_pkt *fab_pkt_alloc(struct fabric *f);
void fab_pkt_free(struct fabric *f, struct fab_pkt *p);
/**
 * Transmit @p p out of @p out: counts it, captures it, applies the
 * link's faults and queues it for the peer port (in order). A port
 * without a LinkUp peer drops it (counted in xmit_discards) and reports
 * the drop to the origin client. Takes ownership of @p p.
 */
void fab_port_xmit(struct fabric *f, struct fab_port *out, struct fab_pkt *p);
/** Deliver queued packets until the fabric is quiet. Returns packets moved. */
unsigned int fabric_run(struct fabric *f, unsigned int budget);
/** Whether packets are queued. */
bool fabric_busy(const struct fabric *f);
/**
 * ibsim's "Error" fault at @p in, which has err_pct set: true if @p p
 * (headers @p h), just arrived, is lost (and then freed, counted in
 * PortRcvErrors when no attribute is named, its sender told as for any
 * lost MAD).
 */
bool fab_link_rx_error(struct fabric *f, struct fab_port *in, struct fab_pkt *p,
		       const struct fab_hdrs *h);
/** Fault rates per million packets on the link leaving @p p (both 0 = none). */
int fab_link_set_faults(struct fab_port *p, uint32_t drop_ppm, uint32_t corrupt_ppm);
/** Start capture of @p port (NULL = every link) into @p path. 0 or -errno. */
int fab_capture_start(struct fabric *f, struct fab_port *port, const char *path);
void fab_capture_stop(struct fabric *f, struct fab_port *port);
/**
 * A packet could not be delivered: free it and, if a umad2sim client sent
 * it, echo the original MAD back to that client with status 110
 * (ETIMEDOUT), as ibsim does.
 */
void fab_pkt_drop(struct fabric *f, struct fab_pkt *p, const char *why);
/**
 * Queue @p p for @p dst without a cable (a node's loop-back to itself):
 * it keeps its place in the fabric's single FIFO. Takes ownership.
 */
void fab_pkt_enqueue(struct fabric *f, struct fab_port *dst, struct fab_pkt *p);
/** Free the per-link state of @p p (faults, port capture); fabric_free calls it per port. */
void fab_link_free(struct fab_port *p);
/** Free queued and pooled packets and the whole-fabric capture; fabric_free calls it. */
void fab_pkt_pool_free(struct fabric *f);

/* capture.c (used by link.c) */

/** Write @p p, sent out of @p out, to every capture that covers that link. */
void fab_capture_pkt(struct fabric *f, const struct fab_port *out, const struct fab_pkt *p);

#endif /* _IBFABRIC_FAB_LINK_H_ */
