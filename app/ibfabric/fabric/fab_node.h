/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * Nodes, ports and cables of the simulated fabric: limits, the node and
 * port state the SMA and PMA expose (IBA 14.2.5, 16.1), switch forwarding
 * tables. Data only: the functions that act on them are in the headers
 * of the layers above (fabric.h, port_state.h, fab_route.h ...).
 *
 * Threading: ibfabric is a single-threaded event loop (main.c). Every
 * structure here is owned by that thread; nothing is locked.
 */

#ifndef _IBFABRIC_FAB_NODE_H_
#define _IBFABRIC_FAB_NODE_H_

#include <stdbool.h>
#include <stdint.h>

/* ------------------------------------------------------------------ */
/* Limits                                                              */

#define FAB_NAME_MAX		64	/**< node id string from the net file */
#define FAB_DESC_MAX		64	/**< NodeDescription is 64 bytes, IBA 14.2.5.2 */
#define FAB_MAX_PORTS		254	/**< NodeInfo NumPorts is 8 bits; 255 reserved */
#define FAB_PKEY_TABLE_SIZE	64	/**< PartitionCap we advertise per port */
#define FAB_GUID_CAP		8	/**< GUIDCap: one GUIDInfo block */
#define FAB_LFT_CAP		49152	/**< LinearFDBCap: unicast LIDs 0..0xbfff */
#define FAB_MFT_CAP		1024	/**< MulticastFDBCap: MLIDs 0xc000..0xc3ff */

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

#endif /* _IBFABRIC_FAB_NODE_H_ */
