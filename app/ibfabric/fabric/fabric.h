/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * ibfabric core data model: the fabric, its nodes (switches, channel
 * adapters), their ports and cables, the packets that travel on them, and
 * the entry points each module of the simulator provides to the others.
 *
 * Threading: ibfabric is a single-threaded event loop (main.c). Every
 * structure here is owned by that thread; nothing is locked.
 *
 * Module map (one responsibility per file):
 * - topo_parse.c / topo_gen.c: net files in, fabric out; fat-tree generator.
 * - fabric.c: allocation, lookup by name/GUID/LID, GUID assignment.
 * - pkt.c: LRH/GRH/BTH/DETH build and parse, ICRC/VCRC.
 * - link.c: cables: in-order delivery queue, drop/corrupt faults, pcap.
 * - switch.c: switch receive: LFT/MFT forwarding, local delivery.
 * - node_io.c: channel-adapter receive (QP0/QP1 dispatch) and the node send path.
 * - dr.c: directed-route SMP rules of IBA 14.2.2 (pure functions).
 * - sma.c / pma.c: firmware SMA (IBA 14) and PMA (IBA 16.1) attributes.
 * - port_state.c: physical and logical port state machine, traps.
 * - umad2sim.c: server side of ibsim's client protocol (OpenSM, diags).
 * - ctl.c: console and control-socket commands.
 * - main.c: option parsing, event loop, signals.
 */

#ifndef _IBFABRIC_FABRIC_H_
#define _IBFABRIC_FABRIC_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ib_proto.h"	/* lib/ib: LIDs, classes, Q_Keys (no DPDK) */

/* ------------------------------------------------------------------ */
/* Limits                                                              */

#define FAB_NAME_MAX		64	/**< node id string from the net file */
#define FAB_DESC_MAX		64	/**< NodeDescription is 64 bytes, IBA 14.2.5.2 */
#define FAB_MAX_PORTS		254	/**< NodeInfo NumPorts is 8 bits; 255 reserved */
#define FAB_PKEY_TABLE_SIZE	64	/**< PartitionCap we advertise per port */
#define FAB_GUID_CAP		8	/**< GUIDCap: one GUIDInfo block */
#define FAB_LFT_CAP		49152	/**< LinearFDBCap: unicast LIDs 0..0xbfff */
#define FAB_MFT_CAP		1024	/**< MulticastFDBCap: MLIDs 0xc000..0xc3ff */
#define FAB_PKT_MAX		4224	/**< LRH+GRH+BTH+DETH+4096 payload+ICRC+VCRC, rounded */

#define FAB_NO_PORT		0xff	/**< LFT/MFT "no route" port value */

enum fab_node_type {
	FAB_NODE_CA = 1,	/**< NodeInfo NodeType values, IBA 14.2.5.3 */
	FAB_NODE_SWITCH = 2,
	FAB_NODE_ROUTER = 3,
};

/** PortInfo PortState (logical), IBA 14.2.5.6 table 155. */
enum fab_port_state {
	FAB_PORT_NOP = 0,
	FAB_PORT_DOWN = 1,
	FAB_PORT_INIT = 2,
	FAB_PORT_ARMED = 3,
	FAB_PORT_ACTIVE = 4,
};

/** PortInfo PortPhysicalState, IBA 14.2.5.6. */
enum fab_phys_state {
	FAB_PHYS_NOP = 0,
	FAB_PHYS_SLEEP = 1,
	FAB_PHYS_POLLING = 2,
	FAB_PHYS_DISABLED = 3,
	FAB_PHYS_TRAINING = 4,
	FAB_PHYS_LINKUP = 5,
	FAB_PHYS_LINK_ERR_RECOVERY = 6,
};

/* ------------------------------------------------------------------ */
/* Counters (PMA PortCounters / PortCountersExtended, IBA 16.1.3.5/6)   */

struct fab_port_counters {
	uint64_t xmit_data;		/**< in 32-bit words, as the PMA reports */
	uint64_t rcv_data;		/**< in 32-bit words */
	uint64_t xmit_pkts;
	uint64_t rcv_pkts;
	uint64_t unicast_xmit_pkts;
	uint64_t unicast_rcv_pkts;
	uint64_t multicast_xmit_pkts;
	uint64_t multicast_rcv_pkts;
	uint32_t symbol_errors;
	uint32_t link_error_recovery;
	uint32_t link_downed;
	uint32_t rcv_errors;		/**< bad CRC, malformed */
	uint32_t rcv_remote_phys_errors;
	uint32_t rcv_switch_relay_errors; /**< no route in the LFT/MFT */
	uint32_t xmit_discards;		/**< dropped at egress: link down, fault */
	uint32_t xmit_constraint_errors;
	uint32_t rcv_constraint_errors;	/**< P_Key check failures */
	uint32_t local_link_integrity_errors;
	uint32_t excessive_buffer_overrun_errors;
	uint32_t vl15_dropped;
	uint32_t xmit_wait;
};

/* ------------------------------------------------------------------ */
/* Nodes and ports                                                     */

struct fab_node;
struct fab_link;
struct fab_client;

/**
 * One physical port. Port 0 of a switch is its management port: it has
 * the switch's LID and PortInfo but no cable.
 *
 * The PortInfo fields are kept decoded; sma.c encodes/decodes the wire
 * attribute. Only fields that have behaviour in the simulator, or that an
 * SM sets and reads back, are stored.
 */
struct fab_port {
	struct fab_node *node;
	uint8_t num;			/**< port number; 0 = switch port 0 */
	struct fab_port *peer;		/**< other end of the cable, or NULL */
	struct fab_link *link;		/**< this port's egress direction, or NULL */
	uint64_t guid;			/**< port GUID (CA: node GUID + num; switch: node GUID) */

	/* PortInfo, IBA 14.2.5.6 */
	uint64_t mkey;
	uint64_t gid_prefix;
	uint16_t lid;
	uint16_t sm_lid;		/**< MasterSMLID */
	uint32_t cap_mask;
	uint16_t cap_mask2;
	uint16_t diag_code;
	uint16_t mkey_lease_period;
	uint8_t link_width_enabled;
	uint8_t link_width_supported;
	uint8_t link_width_active;
	uint8_t link_speed_supported;
	uint8_t link_speed_enabled;
	uint8_t link_speed_active;
	/*
	 * Extended speeds (IBA 14.2.5.6, valid while CapabilityMask has
	 * IsExtendedSpeedsSupported): bit 1 FDR, 2 EDR, 4 HDR, 8 NDR.
	 * ext2 (CapabilityMask2 IsExtendedSpeeds2Supported): bit 1 XDR.
	 * mlnx: Mellanox MlnxExtPortInfo LinkSpeed, bit 1 FDR10 (attribute
	 * 0xff90, as rdma-core's libibnetdisc reads it on QDR links).
	 */
	uint8_t link_speed_ext_supported;
	uint8_t link_speed_ext_enabled;
	uint8_t link_speed_ext_active;
	uint8_t link_speed_ext2_supported;
	uint8_t link_speed_ext2_enabled;
	uint8_t link_speed_ext2_active;
	uint8_t mlnx_speed_supported;
	uint8_t mlnx_speed_enabled;
	uint8_t mlnx_speed_active;
	uint8_t state;			/**< enum fab_port_state */
	uint8_t phys_state;		/**< enum fab_phys_state */
	uint8_t link_down_default;	/**< LinkDownDefaultState: 1 sleep, 2 polling */
	uint8_t mkey_protect;
	uint8_t lmc;
	uint8_t neighbor_mtu;
	uint8_t sm_sl;
	uint8_t vl_cap;
	uint8_t init_type;
	uint8_t vl_high_limit;
	uint8_t vl_arb_high_cap;
	uint8_t vl_arb_low_cap;
	uint8_t init_type_reply;
	uint8_t mtu_cap;
	uint8_t vl_stall_count;
	uint8_t hoq_life;
	uint8_t op_vls;
	uint8_t pkey_enforce_in;
	uint8_t pkey_enforce_out;
	uint8_t filter_raw_in;
	uint8_t filter_raw_out;
	uint16_t mkey_violations;
	uint16_t pkey_violations;
	uint16_t qkey_violations;
	uint8_t guid_cap;
	uint8_t client_reregister;
	uint8_t subnet_timeout;
	uint8_t resp_time_value;
	uint8_t local_phy_errors;
	uint8_t overrun_errors;
	uint16_t max_credit_hint;
	uint32_t link_round_trip_latency;
	bool admin_up;			/**< false after "link down" or a Disable */
	/** The peer before an ibsim "Unlink"/"Clear", for "ReLink" (ctl_ibsim.c). */
	struct fab_port *prev_peer;
	uint8_t err_pct;		/**< ibsim "Error": % of packets lost arriving here */
	uint16_t err_attr;		/**< ... only MADs of this AttributeID; 0: any packet */

	/* Other per-port SMA tables */
	uint16_t pkeys[FAB_PKEY_TABLE_SIZE];	/**< P_KeyTable, high bit = full member */
	uint64_t guids[FAB_GUID_CAP];		/**< GUIDInfo; [0] = port GUID */
	uint8_t sl2vl[16];			/**< SLtoVLMappingTable (CA, or sw out-port from in-port 0..) */
	uint8_t vlarb[4][64];			/**< VLArbitrationTable: 4 blocks of 32 {vl, weight} */

	struct fab_port_counters cnt;
	uint16_t pma_counter_select;

	/* umad2sim clients attached here (linked through fab_client.next_on_port) */
	struct fab_client *clients;

	/* pcap capture of this port's traffic, both directions, or NULL */
	void *pcap;
};

/** Switch-only state (SwitchInfo, IBA 14.2.5.4, and forwarding tables). */
struct fab_switch {
	uint16_t lft_top;		/**< LinearFDBTop */
	uint8_t default_port;
	uint8_t default_mcast_primary;
	uint8_t default_mcast_not_primary;
	uint8_t life_time_value;	/**< with PortStateChange bit in sma.c */
	bool port_state_change;
	uint8_t lids_per_port;
	uint16_t partition_enforcement_cap;
	uint8_t enhanced_port0;
	uint16_t mcast_fdb_top;
	uint8_t lft[FAB_LFT_CAP];	/**< egress port per unicast DLID */
	/** MFT: one port mask bit per port, per MLID (index = mlid - 0xc000). */
	uint16_t (*mft)[16];		/**< [FAB_MFT_CAP][16 position blocks] */
};

struct fab_node {
	enum fab_node_type type;
	char name[FAB_NAME_MAX];	/**< the id string in the net file */
	char desc[FAB_DESC_MAX + 1];	/**< NodeDescription (NUL-terminated copy) */
	uint64_t node_guid;
	uint64_t sys_guid;
	uint32_t vendor_id;		/**< 24 bits */
	uint16_t device_id;
	uint32_t revision;
	uint8_t nports;			/**< NumPorts (not counting switch port 0) */
	struct fab_port *ports;		/**< [0..nports]; CAs leave [0] unused */
	struct fab_switch *sw;		/**< switches only, else NULL */
	bool active_hca;		/**< an MT25208 a host may attach to */
	void *hca;			/**< its device model (struct mt25208), or NULL */
	unsigned int index;		/**< position in fabric.nodes */
	unsigned int line;		/**< net-file line of its header, for messages */
};

/* ------------------------------------------------------------------ */
/* Packets                                                             */

/**
 * A packet in flight. @c data holds the exact wire bytes, LRH first and
 * VCRC last. The fields after @c data are side-band metadata that no
 * real wire carries; the simulator uses them only to report to a
 * umad2sim client that its MAD could not be delivered (ibsim's
 * immediate status-110 echo), never to make forwarding decisions.
 */
struct fab_pkt {
	struct fab_pkt *next;		/**< queue link (link.c) */
	struct fab_port *dst;		/**< receiving port while queued */
	uint32_t len;			/**< bytes in data */
	int origin;			/**< umad2sim client slot that sent it, or -1 */
	uint32_t origin_gen;		/**< that slot's generation, to ignore reused slots */
	uint16_t mad_len;		/**< ibsim "length" of the MAD the client wrote */
	/**
	 * True while the ICRC and VCRC in @c data were computed by pkt.c
	 * over exactly these bytes (pkt_build_ud, pkt_update_crcs,
	 * pkt_set_lids) and nothing has changed them since. Then the
	 * checks of pkt_parse/pkt_parse_link/pkt_check_icrc cannot fail
	 * and are skipped: the outcome is that of checking, at a fraction
	 * of the cost (a 2 KiB datagram is otherwise CRCed five times on
	 * its way). Whoever changes @c data without pkt_update_crcs() must
	 * clear it: link.c's corruption fault and the in-place DR
	 * hop-pointer updates do. The conformance capture test checks every
	 * captured packet's CRCs independently, so a writer that forgot
	 * would be caught there.
	 */
	bool crc_valid;
	/**
	 * The ICRC/VCRC trailer has not been written yet (pkt_build_ud_lazy):
	 * no model of a receiver ever reads it while crc_valid holds, so it
	 * is computed only when something will look at the wire bytes: a
	 * capture, a corruption fault (so that the damage is detectable), an
	 * in-place edit. pkt_seal() writes it. Implies crc_valid.
	 */
	bool crc_pending;
	uint8_t data[FAB_PKT_MAX];
};

/** Header fields of a parsed packet (pkt.c). Offsets index fab_pkt.data. */
struct fab_hdrs {
	/* LRH, IBA 7.7 */
	uint8_t vl;
	uint8_t lver;
	uint8_t sl;
	uint8_t lnh;			/**< 2 = IBA local (BTH), 3 = IBA global (GRH) */
	uint16_t dlid;
	uint16_t slid;
	uint16_t pkt_len_words;		/**< LRH PktLen, 4-byte words from LRH to ICRC */
	/* GRH, IBA 8.3, when lnh == 3 */
	bool has_grh;
	uint8_t tclass;
	uint32_t flow_label;
	uint8_t hop_limit;
	uint8_t next_hdr;
	uint8_t sgid[16];
	uint8_t dgid[16];
	/* BTH, IBA 9.2 */
	uint8_t opcode;
	uint8_t solicited;
	uint8_t migreq;
	uint8_t pad;
	uint8_t tver;
	uint16_t pkey;
	uint32_t dest_qp;
	uint8_t ack_req;
	uint32_t psn;
	/* DETH, IBA 9.3.3 */
	uint32_t qkey;
	uint32_t src_qp;
	/* payload (the MAD for QP0/QP1), without pad */
	uint32_t payload_off;
	uint32_t payload_len;
};

/** Addressing for building a UD packet (pkt_build_ud). */
struct fab_pkt_addr {
	uint8_t vl;			/**< 15 for SMPs (QP0), else from SL */
	uint8_t sl;
	uint16_t dlid;
	uint16_t slid;
	bool grh;
	uint8_t tclass;
	uint32_t flow_label;
	uint8_t hop_limit;
	uint8_t sgid[16];
	uint8_t dgid[16];
	uint16_t pkey;
	uint32_t dest_qp;
	uint32_t psn;
	uint32_t qkey;
	uint32_t src_qp;
	bool solicited;
};

#define FAB_BTH_OP_UD_SEND_ONLY		0x64
#define FAB_BTH_OP_UD_SEND_ONLY_IMM	0x65

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
	unsigned int line;		/**< net-file line, for messages */
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

/* ------------------------------------------------------------------ */
/* topo_parse.c / topo_gen.c */

/**
 * Read a net file (ibsim / ibnetdiscover format) into @p f. On error,
 * writes "file:line: what" into @p err and returns -1; @p f may hold a
 * partial fabric and must be freed by the caller.
 */
int topo_parse_file(struct fabric *f, const char *path, char *err, size_t errlen);
/** Same, from memory (@p name is used in messages). */
int topo_parse_buf(struct fabric *f, const char *name, const char *buf, size_t len,
		   char *err, size_t errlen);
/** The "ibfabric gen ..." sub-command. Returns a process exit code. */
int topo_gen_main(int argc, char **argv);

/* ------------------------------------------------------------------ */
/* pkt.c */

/**
 * Build a UD SEND-only packet (LRH, optional GRH, BTH, DETH, payload,
 * pad, ICRC, VCRC) carrying @p len bytes of @p payload into @p p.
 * Returns 0 or -EMSGSIZE.
 */
int pkt_build_ud(struct fab_pkt *p, const struct fab_pkt_addr *a,
		 const void *payload, uint32_t len);
/**
 * Parse and check @p p: lengths, LRH LVer/LNH, BTH TVer, opcode, ICRC and
 * VCRC. Returns 0, -EBADMSG (malformed) or -EILSEQ (bad CRC).
 */
int pkt_parse(const struct fab_pkt *p, struct fab_hdrs *h);
/**
 * pkt_parse() without the ICRC check: what a switch verifies on every hop
 * (the VCRC, IBA 7.8.2); the ICRC is end to end (IBA 7.8.1) and checked
 * with pkt_check_icrc() where a packet ends or is rewritten.
 */
int pkt_parse_link(const struct fab_pkt *p, struct fab_hdrs *h);
/** Check the ICRC of a packet that pkt_parse_link() accepted: 0 or -EILSEQ. */
int pkt_check_icrc(const struct fab_pkt *p);
/**
 * pkt_build_ud() without writing the ICRC/VCRC trailer yet (see
 * fab_pkt.crc_pending): for the data path, where most packets are never
 * captured. pkt_seal() writes the trailer; link.c does before a capture
 * or a fault, and any code that edits the bytes must do it first.
 */
int pkt_build_ud_lazy(struct fab_pkt *p, const struct fab_pkt_addr *a,
		      const void *payload, uint32_t len);
/**
 * Where pkt_build_ud() puts the payload of a UD SEND-only packet (with or
 * without a GRH): a caller may assemble the payload there and pass that
 * pointer, saving a copy.
 */
uint32_t pkt_ud_payload_offset(bool grh);
/** Write the pending ICRC/VCRC trailer of @p p, if any. */
void pkt_seal(struct fab_pkt *p);
/** Recompute ICRC and VCRC after the payload or a variant field changed. */
void pkt_update_crcs(struct fab_pkt *p);
/**
 * Rewrite the LRH DLID/SLID (for DR SMPs turned around); the CRCs are
 * regenerated, lazily (the trailer is written by pkt_seal()).
 */
void pkt_set_lids(struct fab_pkt *p, uint16_t dlid, uint16_t slid);

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

/* ------------------------------------------------------------------ */
/* sma.c / pma.c: firmware agents. They work in place on a 256-byte MAD. */

enum fab_mad_result {
	FAB_MAD_IGNORE = 0,		/**< not ours, or no reply (e.g. a response) */
	FAB_MAD_REPLY,			/**< @c mad now holds the response */
	FAB_MAD_CONSUMED,		/**< handled, no reply (TrapRepress) */
};

/**
 * Firmware SMA of @p node for an SMP (class 0x01 or 0x81) that arrived on
 * @p in (port 0 for a switch's own SMA). Turns the request into its
 * GetResp with the status IBA 13.4.7 / 14.2.5 require.
 */
enum fab_mad_result sma_process(struct fabric *f, struct fab_node *node,
				struct fab_port *in, uint8_t *mad);
/** Firmware PMA (class 0x04) of @p node, request arrived on @p in. */
enum fab_mad_result pma_process(struct fabric *f, struct fab_node *node,
				struct fab_port *in, uint8_t *mad);
/** Default SMA state for a new node/port (fabric.c calls these). */
void sma_init_node(struct fab_node *n);
void sma_init_port(struct fab_port *p);

/* ------------------------------------------------------------------ */
/* port_state.c */

/**
 * Re-evaluate physical state of @p p and its peer after cabling, a
 * console link down/up or a PortInfo Set of PortPhysicalState. LinkUp
 * needs both ends cabled and admin up; logical state falls to Down when
 * the link goes, and rises to Init when it comes up (IBA 7.2).
 * Generates trap 128 from the switch, when its SM is known.
 */
void port_state_link_update(struct fabric *f, struct fab_port *p);
/** Console link down/up of the cable at @p p. */
void port_state_admin(struct fabric *f, struct fab_port *p, bool up);
/**
 * Apply a PortInfo Set of PortState (IBA 14.2.5.6 table 155, C14-?):
 * returns 0, or -EINVAL for an invalid transition (the SMA then answers
 * with status "invalid value in attribute").
 */
int port_state_set_logical(struct fabric *f, struct fab_port *p, uint8_t new_state);
/** Send trap @p trap_num (Notice attribute) from @p p to its MasterSMLID. */
void port_state_send_trap(struct fabric *f, struct fab_port *p, uint16_t trap_num,
			  const uint8_t *details, size_t details_len);
/**
 * PortInfo CapabilityMask of CA port @p p changed (umad2sim.c: SET_ISSM
 * toggles IsSM): send trap 144 (IBA 14.2.5.1 table 146) with the new mask
 * to the port's MasterSMLID. Nothing is sent while MasterSMLID or the
 * port's LID is 0.
 */
void port_state_cap_mask_changed(struct fabric *f, struct fab_port *p);

/* ------------------------------------------------------------------ */
/* ctl.c: one command interpreter for console, control socket, scripts */

#define CTL_QUIT	1	/**< ctl_exec: the command was "quit" */

/**
 * Run one command line (empty lines and '#' comments do nothing),
 * writing its line-oriented output to @p out. A bad command prints one
 * "error: ..." line, changes nothing and returns -EINVAL; "quit"
 * returns CTL_QUIT; else 0.
 */
int ctl_exec(struct fabric *f, const char *line, FILE *out);
/** Print "error: <what>" on @p out (one line); returns -EINVAL. */
int ctl_err(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/**
 * ibsim's console commands (ctl_ibsim.c), in ibsim's spelling (any case,
 * whole word): "Dump", "Route", "Link", "ReLink", "Unlink", "Clear",
 * "Guid", "Error", "PerformanceSet", "Baselid", "Verbose", "Wait",
 * "Attached", "X", "Start", "!<file>". Returns -ENOENT if @p line is none
 * of them, else as ctl_exec().
 */
int ctl_ibsim_exec(struct fabric *f, const char *line, FILE *out);
/** Run every line of @p path; stops at the first error ("file:line: error: ..."). */
int ctl_source(struct fabric *f, const char *path, FILE *out);
/** Run the net file's "do" lines (f->do_cmds) in order; same return as ctl_source. */
int ctl_run_do_cmds(struct fabric *f, FILE *out);

/* ------------------------------------------------------------------ */
/* Logging */

extern int fab_log_level;	/**< 0 errors, 1 info, 2 debug */
void fab_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define FAB_ERR(...)	fab_log(0, __VA_ARGS__)
#define FAB_INFO(...)	fab_log(1, __VA_ARGS__)
/** A recovered anomaly: "ibfabric: warning: ...", unless -q. */
void fab_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define FAB_DBG(...)	do { if (fab_log_level >= 2) fab_log(2, __VA_ARGS__); } while (0)

#endif /* _IBFABRIC_FABRIC_H_ */
