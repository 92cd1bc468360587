/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * ibfabric core: the fabric (its nodes, packet queue, counters and the
 * hooks through which the core reaches the device model and the local
 * clients) and its allocation and lookups (fabric.c).
 *
 * Layers, one header each (lower ones first; each file includes what it
 * uses):
 * - fab_node.h: nodes, ports, cables, limits (data only).
 * - fab_pkt.h: packets and their headers; pkt.c builds and parses them.
 * - fabric.h: the fabric, its hooks to the model and clients; fabric.c.
 * - fab_link.h: link.c (cables, the delivery FIFO, faults), capture.c.
 * - fab_route.h: switch.c forwarding, node_io.c receive and send paths.
 * - port_state.h: port_state.c, physical/logical state and traps.
 * - fw/fw_agents.h: sma.c / pma.c, firmware agents; fw/dr.h: DR rules.
 * - topo/topo.h: net files in (topo_parse.c) and the generator.
 * - clients/ctl.h, clients/umad2sim.h: the command interpreter and the
 *   ibsim protocol server; mt25208/: the HCA model.
 * - fab_log.h: logging.
 */

#ifndef _IBFABRIC_FABRIC_H_
#define _IBFABRIC_FABRIC_H_

#include <stdint.h>
#include <stdio.h>

#include "fab_node.h"

struct fab_hdrs;
struct fab_pkt;
struct umad2sim;

/* ------------------------------------------------------------------ */
/* The fabric                                                          */

struct fab_pcap;

/**
 * A "do <command>" line of a net file (ibsim's extension): topo_parse.c
 * appends one per line in file order; ctl.c runs them after start;
 * fabric_free() frees them.
 */
struct fab_do_cmd {
	struct fab_do_cmd *next;
	const char *file;		/**< net file (or included file), in this allocation */
	unsigned int line;		/**< its line, for messages */
	char text[];			/**< the command, "do" and outer blanks removed */
};

struct fabric {
	struct fab_node **nodes;
	unsigned int nnodes;
	unsigned int nodes_cap;
	void *name_index;		/**< fabric.c: name -> node */
	struct fab_port *sm_port;	/**< first port in the file (ibsim's default attach) */
	struct fab_do_cmd *do_cmds;	/**< net-file "do" lines, in order (topo_parse.c) */

	/* Packet scheduling (link.c): one FIFO keeps every link in order. */
	struct fab_pkt *q_head;
	struct fab_pkt *q_tail;
	struct fab_pkt *free_pkts;
	uint64_t pkts_moved;
	uint64_t pkts_dropped;

	/* Whole-fabric capture, or NULL (link.c) */
	struct fab_pcap *pcap_all;

	/* Random source for drop/corruption faults (link.c) */
	uint64_t rng;

	/* Counters of bad input (never fatal) */
	uint64_t bad_ctl_msgs;
	uint64_t bad_mads;
	/** Lines of the net file(s) warned about and skipped (topo_parse.c). */
	unsigned int topo_warnings;

	int verbose;

	/**
	 * The event loop for @p ms milliseconds while taking no commands
	 * (ibsim's "Wait": a script pauses, the fabric and its clients go
	 * on), set by main.c; NULL where there is no loop (unit tests).
	 * Returns 0, or 1 if the wait ended because ibfabric is quitting.
	 */
	int (*run_for)(struct fabric *f, unsigned int ms);
	void *run_ctx;

	/* ibsim client protocol server (umad2sim.c), or NULL: its own state */
	struct umad2sim *u2s;

	/*
	 * Hooks to the local clients (the host stacks of the nodes: the ibsim
	 * protocol server sets them when it opens), or NULL. The core never
	 * calls a client otherwise, as it calls the MT25208 model only
	 * through hca_recv.
	 * - client_deliver: a MAD (headers @p h) reached @p port for its
	 *   host stack, not answered by firmware. Returns 0 when a client
	 *   took it (and @p p), -ENOENT when none did (the core drops it).
	 * - client_drop: @p p, sent by a client (p->origin >= 0), cannot be
	 *   delivered and is about to be freed: tell its sender.
	 */
	int (*client_deliver)(struct fabric *f, struct fab_port *port,
			      const struct fab_hdrs *h, struct fab_pkt *p);
	void (*client_drop)(struct fabric *f, const struct fab_pkt *p);

	/*
	 * Receive hook of the MT25208 device model, or NULL: set by the
	 * model when it exists. node_io.c gives it every packet that reaches a
	 * port of an active HCA (node->active_hca), QP0/QP1 included, after
	 * pkt_parse() (headers @p h, both CRCs checked). Takes ownership.
	 */
	void (*hca_recv)(struct fabric *f, struct fab_port *in, struct fab_pkt *p,
			 const struct fab_hdrs *h);
	/*
	 * The model's per-function counters of failed driver checks, for the
	 * console ("hca <node> errors"): one line per check to @p out. Set
	 * with hca_recv; NULL without a model.
	 */
	void (*hca_errors)(struct fabric *f, struct fab_node *n, FILE *out);
	/*
	 * What the model's function holds for its driver (QPs, CQs, EQs,
	 * MPTs, MTT entries, ICM pages, MCGs), for the console ("hca <node>
	 * resources"): one line to @p out. Set with hca_recv.
	 */
	void (*hca_resources)(struct fabric *f, struct fab_node *n, FILE *out);
	/*
	 * A fault for the console ("hca <node> fail-send <qpn>"): the next
	 * send WQE QP @p qpn of the model executes completes in error. One
	 * line to @p out; 0, or -EINVAL when @p qpn is not a UD QP in RTS
	 * (the line then starts "error: "). Set with hca_recv.
	 */
	int (*hca_fail_send)(struct fabric *f, struct fab_node *n, uint32_t qpn, FILE *out);
};

/* ------------------------------------------------------------------ */
/* fabric.c */

/** Create an empty fabric. Returns NULL on allocation failure. */
struct fabric *fabric_new(void);
/** Free a fabric and everything it owns (NULL is fine). */
void fabric_free(struct fabric *f);
/**
 * Add a node named @p name with @p nports ports (plus port 0 for a
 * switch), with default SMA state. GUIDs are derived from the name
 * (stable per name) unless the caller sets them afterwards.
 * Returns NULL with errno EEXIST (duplicate name), EINVAL or ENOMEM.
 */
struct fab_node *fabric_add_node(struct fabric *f, enum fab_node_type type,
				 const char *name, unsigned int nports);
struct fab_node *fabric_find_node(const struct fabric *f, const char *name);
/** Find the node whose NodeDescription is @p desc (linear). */
struct fab_node *fabric_find_node_by_desc(const struct fabric *f, const char *desc);
/** Port owning unicast @p lid (LMC range honoured), or NULL. Linear; control paths only. */
struct fab_port *fabric_find_port_by_lid(const struct fabric *f, uint16_t lid);
/** Cable @p a to @p b. Returns 0, or -EBUSY if either end is cabled elsewhere. */
int fabric_connect(struct fabric *f, struct fab_port *a, struct fab_port *b);
/** Set GUIDs of a node (node, system image, and derived port GUIDs). */
void fabric_set_node_guid(struct fab_node *n, uint64_t guid);
/** Stable 64-bit GUID for a node name (FNV-1a based, Mellanox-like OUI). */
uint64_t fabric_guid_for_name(const char *name, enum fab_node_type type);

#endif /* _IBFABRIC_FABRIC_H_ */
