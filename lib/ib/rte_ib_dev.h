/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _RTE_IB_DEV_H_
#define _RTE_IB_DEV_H_

/**
 * @file
 * The IB device core: InfiniBand devices registered by IB PMDs, their
 * ports, address handles, multicast attachment, the special-QP (QP0/QP1)
 * hooks the MAD core uses, and asynchronous events.
 *
 * A PMD fills a struct rte_ib_device (name, GUID, ports, ops) and
 * registers it with rte_ib_device_register() (ib_driver.h). Consumers
 * (rte_ibmad, rte_ipoib, applications) find it by name or by ethdev port
 * and call the rte_ib_*() wrappers below, never the ops directly.
 *
 * Threading:
 * - Every function here is for the control side (the main lcore, a
 *   control thread, a service lcore): the ops may issue firmware commands
 *   and sleep. None is for a data lcore's burst loop.
 * - The device list and the event handler list are protected by one
 *   recursive lock: handlers and client callbacks run with it held, so
 *   they may call this API (including unregistering themselves), and once
 *   an unregister call returns its callback never runs again.
 * - The per-port cache (rte_ib_port_attr_cached(), rte_ib_pkey_find())
 *   is behind a reader-writer lock and refreshed by the core before an
 *   event is handed to handlers.
 *
 * Lifetime: a struct rte_ib_device pointer obtained from a lookup stays
 * valid until the PMD unregisters the device; consumers learn of that
 * through their struct rte_ib_client remove callback.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_compat.h>

#include <rte_ib_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Longest device name, with its NUL. */
#define RTE_IB_DEV_NAME_MAX 64
/** NodeDescription length (IBA 14.2.5.2): 64 bytes, NUL padded. */
#define RTE_IB_NODE_DESC_LEN 64
/** Most ports a device may have. */
#define RTE_IB_DEV_MAX_PORTS 4
/** Most devices registered at once. */
#define RTE_IB_MAX_DEVICES 32
/** Most event handlers registered at once. */
#define RTE_IB_MAX_EVENT_HANDLERS 64
/** Most clients registered at once. */
#define RTE_IB_MAX_CLIENTS 8
/** GID table entries kept in the port cache (larger tables: ask the device). */
#define RTE_IB_CACHE_GIDS 32
/** P_Key table entries kept in the port cache (larger tables: ask the device). */
#define RTE_IB_CACHE_PKEYS 64
/** ethdev port id meaning "no ethdev for this IB port". */
#define RTE_IB_NO_ETH_PORT UINT16_MAX

/** NodeInfo:NodeType (IBA 14.2.5.3). */
enum rte_ib_node_type {
	RTE_IB_NODE_CA = 1,     /**< Channel adapter. */
	RTE_IB_NODE_SWITCH = 2, /**< Switch. */
	RTE_IB_NODE_ROUTER = 3, /**< Router. */
};

/** PortInfo:PortState (IBA 14.2.5.6). */
enum rte_ib_port_state {
	RTE_IB_PORT_NOP = 0,          /**< No state change (in a Set). */
	RTE_IB_PORT_DOWN = 1,         /**< Down. */
	RTE_IB_PORT_INIT = 2,         /**< Initialize. */
	RTE_IB_PORT_ARMED = 3,        /**< Armed. */
	RTE_IB_PORT_ACTIVE = 4,       /**< Active. */
	RTE_IB_PORT_ACTIVE_DEFER = 5, /**< ActiveDefer. */
};

/** PortInfo:PortPhysicalState (IBA 14.2.5.6). */
enum rte_ib_port_phys_state {
	RTE_IB_PORT_PHYS_SLEEP = 1,
	RTE_IB_PORT_PHYS_POLLING = 2,
	RTE_IB_PORT_PHYS_DISABLED = 3,
	RTE_IB_PORT_PHYS_TRAINING = 4,
	RTE_IB_PORT_PHYS_LINK_UP = 5,
	RTE_IB_PORT_PHYS_LINK_ERROR_RECOVERY = 6,
	RTE_IB_PORT_PHYS_PHY_TEST = 7,
};

/** PortInfo:LinkWidthActive (IBA 14.2.5.6). */
enum rte_ib_port_width {
	RTE_IB_WIDTH_1X = 1,
	RTE_IB_WIDTH_4X = 2,
	RTE_IB_WIDTH_8X = 4,
	RTE_IB_WIDTH_12X = 8,
};

/** PortInfo:LinkSpeedActive (IBA 14.2.5.6). */
enum rte_ib_port_speed {
	RTE_IB_SPEED_SDR = 1, /**< 2.5 Gb/s per lane. */
	RTE_IB_SPEED_DDR = 2, /**< 5 Gb/s per lane. */
	RTE_IB_SPEED_QDR = 4, /**< 10 Gb/s per lane. */
};

/** PortInfo:CapabilityMask bits (IBA 14.2.5.6), host order. */
#define RTE_IB_PORT_CAP_SM              (UINT32_C(1) << 1)
#define RTE_IB_PORT_CAP_NOTICE          (UINT32_C(1) << 2)
#define RTE_IB_PORT_CAP_TRAP            (UINT32_C(1) << 3)
#define RTE_IB_PORT_CAP_OPT_IPD         (UINT32_C(1) << 4)
#define RTE_IB_PORT_CAP_AUTO_MIGR       (UINT32_C(1) << 5)
#define RTE_IB_PORT_CAP_SL_MAP          (UINT32_C(1) << 6)
#define RTE_IB_PORT_CAP_MKEY_NVRAM      (UINT32_C(1) << 7)
#define RTE_IB_PORT_CAP_PKEY_NVRAM      (UINT32_C(1) << 8)
#define RTE_IB_PORT_CAP_LED_INFO        (UINT32_C(1) << 9)
#define RTE_IB_PORT_CAP_SM_DISABLED     (UINT32_C(1) << 10)
#define RTE_IB_PORT_CAP_SYS_IMAGE_GUID  (UINT32_C(1) << 11)
#define RTE_IB_PORT_CAP_PKEY_SW_EXT_PORT_TRAP (UINT32_C(1) << 12)
#define RTE_IB_PORT_CAP_CM              (UINT32_C(1) << 16)
#define RTE_IB_PORT_CAP_SNMP_TUNNEL     (UINT32_C(1) << 17)
#define RTE_IB_PORT_CAP_REINIT          (UINT32_C(1) << 18)
#define RTE_IB_PORT_CAP_DEVICE_MGMT     (UINT32_C(1) << 19)
#define RTE_IB_PORT_CAP_VENDOR_CLASS    (UINT32_C(1) << 20)
#define RTE_IB_PORT_CAP_DR_NOTICE       (UINT32_C(1) << 21)
#define RTE_IB_PORT_CAP_CAP_MASK_NOTICE (UINT32_C(1) << 22)
#define RTE_IB_PORT_CAP_BOOT_MGMT       (UINT32_C(1) << 23)
#define RTE_IB_PORT_CAP_LINK_LATENCY    (UINT32_C(1) << 24)
#define RTE_IB_PORT_CAP_CLIENT_REREG    (UINT32_C(1) << 25)

/** Device attributes (the verbs' query device, IBA 11.2.1.2). */
struct rte_ib_device_attr {
	/** Firmware version: major << 32 | minor << 16 | subminor. */
	uint64_t fw_ver;
	uint64_t sys_image_guid;   /**< SystemImageGUID, host order. */
	uint32_t vendor_id;        /**< IEEE OUI of the vendor, 24 bits. */
	uint32_t vendor_part_id;   /**< Vendor's part id (PCI device id). */
	uint32_t hw_ver;           /**< Hardware revision. */
	uint32_t max_qp;           /**< Queue pairs. */
	uint32_t max_qp_wr;        /**< Work requests per queue. */
	uint32_t max_sge;          /**< Scatter/gather entries per WQE. */
	uint32_t max_cq;           /**< Completion queues. */
	uint32_t max_cqe;          /**< Entries per completion queue. */
	uint32_t max_pd;           /**< Protection domains. */
	uint32_t max_mr;           /**< Memory regions. */
	uint32_t max_ah;           /**< Address handles. */
	uint32_t max_mcast_grp;    /**< Multicast groups. */
	uint32_t max_mcast_qp_attach; /**< QPs per multicast group. */
	uint16_t max_pkeys;        /**< P_Key table entries per port. */
	uint8_t local_ca_ack_delay; /**< LocalCADelay (IBA 14.2.5.7). */
};

/** Port attributes, mostly PortInfo fields (IBA 14.2.5.6), host order. */
struct rte_ib_port_attr {
	uint32_t cap_mask;         /**< CapabilityMask, RTE_IB_PORT_CAP_*. */
	uint32_t max_msg_sz;       /**< Largest message, bytes. */
	uint32_t bad_pkey_cntr;    /**< P_KeyViolations. */
	uint32_t qkey_viol_cntr;   /**< Q_KeyViolations. */
	uint16_t lid;              /**< Base LID; 0 until the SM assigns one. */
	uint16_t sm_lid;           /**< MasterSMLID. */
	uint16_t gid_tbl_len;      /**< GID table entries. */
	uint16_t pkey_tbl_len;     /**< P_Key table entries. */
	uint8_t state;             /**< PortState, enum rte_ib_port_state. */
	uint8_t phys_state;        /**< enum rte_ib_port_phys_state. */
	uint8_t max_mtu;           /**< NeighborMTU capability, enum rte_ib_mtu. */
	uint8_t active_mtu;        /**< MTU in use, enum rte_ib_mtu. */
	uint8_t lmc;               /**< LID mask count. */
	uint8_t sm_sl;             /**< MasterSMSL. */
	uint8_t max_vl_num;        /**< VLCap. */
	uint8_t subnet_timeout;    /**< SubnetTimeOut. */
	uint8_t init_type_reply;   /**< InitTypeReply. */
	uint8_t active_width;      /**< enum rte_ib_port_width. */
	uint8_t active_speed;      /**< enum rte_ib_port_speed. */
};

/** rte_ib_ah_attr::ah_flags: the address carries a GRH. */
#define RTE_IB_AH_GRH 0x01

/** Attributes of an address handle: what a UD send needs to reach a port. */
struct rte_ib_ah_attr {
	uint16_t dlid;             /**< Destination LID, host order. */
	uint8_t sl;                /**< Service level, 0..15. */
	uint8_t src_path_bits;     /**< Low LMC bits of the source LID. */
	uint8_t static_rate;       /**< enum rte_ib_rate, 0 = port rate. */
	uint8_t port_num;          /**< Sending port, 1-based. */
	uint8_t ah_flags;          /**< RTE_IB_AH_*. */
	/** Global route, used when ah_flags has RTE_IB_AH_GRH. */
	struct {
		struct rte_ib_gid dgid;   /**< Destination GID. */
		uint32_t flow_label;      /**< 20 bits. */
		uint8_t sgid_index;       /**< Source GID table index. */
		uint8_t hop_limit;        /**< HopLmt. */
		uint8_t traffic_class;    /**< TClass. */
	} grh;
};

struct rte_ib_device;

/**
 * Address handle. A PMD embeds this header first in its own struct that
 * holds the hardware address vector; the core fills it in
 * rte_ib_ah_create(). Data lcores pass the pointer in the mbuf dynfield
 * (rte_ib_mbuf.h) and only the PMD's burst looks behind it.
 *
 * Lifetime: the creator destroys it with rte_ib_ah_destroy() only once no
 * mbuf that names it is still queued for transmit (for example when the
 * tx completions have passed it, as IPoIB's AH reaper does).
 */
struct rte_ib_ah {
	struct rte_ib_device *dev;  /**< Owning device, set by the core. */
	struct rte_ib_ah_attr attr; /**< Attributes, set by the core. */
};

/** rte_ib_mad_wc::flags: the receive carried a GRH (rte_ib_mad_wc::grh). */
#define RTE_IB_MAD_WC_GRH 0x01

/**
 * Completion of a MAD received on QP0 or QP1, as the PMD reports it.
 */
struct rte_ib_mad_wc {
	struct rte_ib_grh grh;     /**< The GRH, when flags has RTE_IB_MAD_WC_GRH. */
	uint32_t src_qpn;          /**< Source QPN (DETH), 24 bits. */
	uint16_t slid;             /**< Source LID, host order. */
	uint16_t pkey_index;       /**< P_Key index the packet matched. */
	uint8_t sl;                /**< Service level. */
	uint8_t path_bits;         /**< DLID path bits. */
	uint8_t port;              /**< Receiving port, 1-based. */
	uint8_t qpn;               /**< Receiving QP: 0 (SMI) or 1 (GSI). */
	uint8_t flags;             /**< RTE_IB_MAD_WC_*. */
};

/**
 * A MAD to send on QP0 or QP1. The PMD builds the packet headers (LRH,
 * GRH, BTH, DETH) from these fields, as special QPs on mthca use MLX
 * transport (Linux mthca_build_mlx_header()).
 */
struct rte_ib_mad_send_buf {
	/**
	 * Destination: dlid (0xFFFF for a directed-route SMP from QP0), sl,
	 * src_path_bits, port_num and the GRH. static_rate is ignored.
	 */
	struct rte_ib_ah_attr ah_attr;
	uint32_t remote_qpn;       /**< 0 or 1 for management, 24 bits. */
	uint32_t remote_qkey;      /**< Q_Key; ignored on QP0. */
	uint16_t pkey_index;       /**< P_Key index for BTH:P_Key. */
	uint16_t len;              /**< Bytes at @c mad: RTE_IB_MAD_SIZE. */
	const void *mad;           /**< The MAD; the PMD copies it before returning. */
};

/**
 * A UD queue of an IB port's ethdev (rte_ib_ud_queue_info()): what an
 * upper layer (IPoIB) needs of it without knowing the PMD. Each rx and
 * each tx queue of such an ethdev is one UD QP.
 */
struct rte_ib_ud_queue_info {
	/**
	 * QPN, 24 bits: the destination QPN peers put in their datagrams
	 * (rx queue), the source QPN they see (tx queue).
	 */
	uint32_t qpn;
	/**
	 * Q_Key: a datagram whose DETH Q_Key differs is dropped by the HCA
	 * (rx queue); the one sent when a send's Q_Key has bit 31 set (IBA
	 * 10.2.4, tx queue).
	 */
	uint32_t qkey;
	uint16_t pkey_index;  /**< P_Key table index the QP uses. */
	uint8_t ib_port;      /**< IB port, 1-based. */
	/**
	 * 1: the QP is out of RESET (queue started) and the values are
	 * those of its context; 0: the values its next start takes.
	 */
	uint8_t live;
};

/** rte_ib_process_mad() result bit: @c out_mad holds a reply to send. */
#define RTE_IB_MAD_RESULT_REPLY 0x01

/**
 * Device operations a PMD provides. Every op runs on the control side
 * (may sleep in a firmware command), is called by the core only with
 * arguments it already checked (port within 1..phys_port_cnt, non-NULL
 * buffers), and returns 0 or a negative errno unless stated. An op left
 * NULL makes its wrapper fail with ENOTSUP.
 */
struct rte_ib_dev_ops {
	/** Fill @p attr (QUERY_DEV_LIM and QUERY_ADAPTER on mthca). */
	int (*query_device)(struct rte_ib_device *dev,
			    struct rte_ib_device_attr *attr);
	/** Fill @p attr for @p port (PortInfo through MAD_IFC on mthca). */
	int (*query_port)(struct rte_ib_device *dev, uint8_t port,
			  struct rte_ib_port_attr *attr);
	/** GID table entry @p index of @p port. */
	int (*query_gid)(struct rte_ib_device *dev, uint8_t port,
			 uint16_t index, struct rte_ib_gid *gid);
	/** P_Key table entry @p index of @p port, host order. */
	int (*query_pkey)(struct rte_ib_device *dev, uint8_t port,
			  uint16_t index, uint16_t *pkey);
	/**
	 * Set and clear CapabilityMask bits of @p port (IsSM for an SM on
	 * this host, Linux ib_modify_port()); @p set and @p clear never
	 * share a bit.
	 */
	int (*modify_port)(struct rte_ib_device *dev, uint8_t port,
			   uint32_t set, uint32_t clear);
	/**
	 * Create an address handle: allocate the PMD's struct embedding
	 * struct rte_ib_ah, build its hardware address vector from @p attr
	 * and store the header's address in @p ah. The core fills the
	 * header's fields afterwards.
	 */
	int (*ah_create)(struct rte_ib_device *dev,
			 const struct rte_ib_ah_attr *attr,
			 struct rte_ib_ah **ah);
	/** Free an address handle made by ah_create. */
	int (*ah_destroy)(struct rte_ib_device *dev, struct rte_ib_ah *ah);
	/** Attach data QP @p qpn to the multicast group @p gid / @p lid. */
	int (*mcast_attach)(struct rte_ib_device *dev,
			    const struct rte_ib_gid *gid, uint16_t lid,
			    uint32_t qpn);
	/** Detach data QP @p qpn from the multicast group @p gid / @p lid. */
	int (*mcast_detach)(struct rte_ib_device *dev,
			    const struct rte_ib_gid *gid, uint16_t lid,
			    uint32_t qpn);
	/**
	 * Send one MAD on special QP @p qpn (0 or 1) of @p port. The PMD
	 * copies the MAD before returning. -EAGAIN when the send queue is
	 * full, -ENETDOWN when the special QP is not up (yet).
	 */
	int (*mad_send)(struct rte_ib_device *dev, uint8_t port, uint8_t qpn,
			const struct rte_ib_mad_send_buf *buf);
	/**
	 * Hand a MAD addressed to the local port to the device's own
	 * management agents (MAD_IFC on mthca: the firmware's SMA and PMA,
	 * Linux mthca_process_mad()). On success returns a non-negative
	 * set of RTE_IB_MAD_RESULT_* bits; with RTE_IB_MAD_RESULT_REPLY,
	 * @p out_mad (RTE_IB_MAD_SIZE bytes) holds the reply, with the D bit
	 * of a directed-route SMP's Status set.
	 */
	int (*process_mad)(struct rte_ib_device *dev, uint8_t port,
			   const struct rte_ib_mad_wc *in_wc,
			   const void *in_mad, void *out_mad);
	/**
	 * File descriptor that becomes readable when the device has work
	 * for the control side (received MADs, events): the PMD's event
	 * queue interrupt eventfd. -1 when the device has none; the MAD
	 * core then calls intr_process every few milliseconds.
	 */
	int (*intr_fd)(struct rte_ib_device *dev);
	/**
	 * Do the control-side work the fd signalled: first clear the fd
	 * (read the eventfd's counter), so that an interrupt arriving
	 * during the drain makes it readable again, then drain the event
	 * queue, hand received QP0/QP1 MADs to rte_ib_device_mad_recv(),
	 * raise events with rte_ib_dispatch_event() (and the ethdev LSC
	 * callbacks, rte_eth_dev_callback_process()), re-arm the
	 * interrupt. Called by the MAD core's control thread (or service)
	 * only, never concurrently with itself; must not block.
	 */
	int (*intr_process)(struct rte_ib_device *dev);
	/**
	 * Optional: the first @p n entries of the GID table of @p port in
	 * one go, for the core's cache refresh (on mthca one PortInfo and
	 * one GUIDInfo per 8 entries, where query_gid costs two firmware
	 * commands per entry). NULL: the core calls query_gid per entry.
	 */
	int (*query_gid_table)(struct rte_ib_device *dev, uint8_t port,
			       uint16_t n, struct rte_ib_gid *gids);
	/** Optional: the first @p n P_Key table entries, as query_gid_table. */
	int (*query_pkey_table)(struct rte_ib_device *dev, uint8_t port,
				uint16_t n, uint16_t *pkeys);
	/**
	 * Fill @p info for rx (@p tx false) or tx queue @p queue_id of
	 * ethdev @p port_id, an ethdev of @p dev (a physical port's or a
	 * UD port's; the core checked). -EINVAL when no such queue is set
	 * up.
	 */
	int (*ud_queue_info)(struct rte_ib_device *dev, uint16_t port_id,
			     uint16_t queue_id, bool tx,
			     struct rte_ib_ud_queue_info *info);
	/**
	 * Set the Q_Key of every UD QP of ethdev @p port_id, live ones at
	 * once (RTS->RTS with the Q_Key optional parameter, IBA 11.2.5.2;
	 * Linux mthca_modify_qp), the others at their start. @p qkey has
	 * bit 31 clear (the core checked).
	 */
	int (*ud_qkey_set)(struct rte_ib_device *dev, uint16_t port_id,
			   uint32_t qkey);
	/**
	 * Create a UD port: a further ethdev on IB port @p ib_port whose
	 * queues' QPs use P_Key index @p pkey_index (within the port's
	 * P_Key table, the core checked); store its ethdev port id in
	 * @p port_id. The port is left as rte_eth_dev_probing_finish()
	 * leaves a probed one: to be configured and started by the caller.
	 * ud_port_lookup must know it before this returns.
	 */
	int (*ud_port_create)(struct rte_ib_device *dev, uint8_t ib_port,
			      uint16_t pkey_index, uint16_t *port_id);
	/**
	 * Stop, close and release UD port @p port_id (a UD port of @p dev,
	 * the core checked), without disturbing the other ethdevs of the
	 * device.
	 */
	int (*ud_port_destroy)(struct rte_ib_device *dev, uint16_t port_id);
	/**
	 * Make ethdev @p port_id's queues use P_Key index @p pkey_index
	 * (within the table, the core checked) from their next start.
	 */
	int (*ud_port_pkey_index_set)(struct rte_ib_device *dev,
				      uint16_t port_id, uint16_t pkey_index);
	/**
	 * 0 and the IB port in @p ib_port when @p port_id is a UD port of
	 * @p dev (made by ud_port_create, not yet destroyed), else -ENODEV.
	 * Called with the core's device lock held: must not block or call
	 * back into rte_ib.
	 */
	int (*ud_port_lookup)(struct rte_ib_device *dev, uint16_t port_id,
			      uint8_t *ib_port);
};

/**
 * An IB device, filled by its PMD before rte_ib_device_register(). The
 * fields above @c core are the PMD's to set before registering and are
 * read-only afterwards; @c core is the core's.
 */
struct rte_ib_device {
	char name[RTE_IB_DEV_NAME_MAX];      /**< Unique name, e.g. "mthca0". */
	/**
	 * NodeDescription (IBA 14.2.5.2) the MAD core answers with, NUL
	 * padded; empty means "<host name> <device name>" (Linux
	 * node_desc_override / ib_device node_desc).
	 */
	char node_desc[RTE_IB_NODE_DESC_LEN];
	uint64_t node_guid;                  /**< NodeGUID, host order. */
	const struct rte_ib_dev_ops *ops;    /**< The PMD's operations. */
	void *dev_private;                   /**< The PMD's state. */
	/** ethdev port of each IB port (index port - 1), or RTE_IB_NO_ETH_PORT. */
	uint16_t eth_port_id[RTE_IB_DEV_MAX_PORTS];
	uint8_t node_type;                   /**< enum rte_ib_node_type. */
	uint8_t phys_port_cnt;               /**< Ports, 1..RTE_IB_DEV_MAX_PORTS. */
	struct ib_device_core *core;         /**< Core state; NULL when not registered. */
};

/** Asynchronous events (the seeds' ib_event_type). */
enum rte_ib_event_type {
	RTE_IB_EVENT_PORT_ACTIVE,       /**< Port went to ACTIVE. */
	RTE_IB_EVENT_PORT_ERR,          /**< Port left ACTIVE. */
	RTE_IB_EVENT_LID_CHANGE,        /**< LID or LMC changed (snooped Set(PortInfo)). */
	RTE_IB_EVENT_PKEY_CHANGE,       /**< P_Key table changed (snooped Set(P_KeyTable)). */
	RTE_IB_EVENT_SM_CHANGE,         /**< MasterSMLID or SL changed. */
	RTE_IB_EVENT_CLIENT_REREGISTER, /**< Set(PortInfo) with ClientReregister. */
	RTE_IB_EVENT_GID_CHANGE,        /**< GID table changed. */
	RTE_IB_EVENT_DEVICE_FATAL,      /**< Device failed; port is 0. */
	RTE_IB_EVENT_MAX,               /**< Number of event types. */
};

/** One asynchronous event. */
struct rte_ib_event {
	struct rte_ib_device *dev;      /**< Device. */
	enum rte_ib_event_type type;    /**< What happened. */
	uint8_t port;                   /**< Port, 1-based; 0 for device events. */
};

/**
 * Event handler. Runs on the thread that dispatched the event (the MAD
 * core's control thread or the PMD's interrupt thread), with the core's
 * lock held; it may call this API but must not block for long.
 */
typedef void (*rte_ib_event_cb)(const struct rte_ib_event *event, void *arg);

/**
 * A client of IB devices (the seeds' ib_client): told of every device
 * registered and unregistered, whether before or after the client itself
 * registers.
 */
struct rte_ib_client {
	const char *name;                          /**< For logs. */
	/** A device was registered; return 0 or a negative errno (logged). */
	int (*add)(struct rte_ib_device *dev);
	/** A device is being unregistered; undo what add did. */
	void (*remove)(struct rte_ib_device *dev);
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Find a registered device by name. Control side.
 *
 * @param name
 *   Device name.
 * @return
 *   The device, or NULL with rte_errno = ENODEV (EINVAL if @p name is
 *   NULL).
 */
__rte_experimental
struct rte_ib_device *rte_ib_device_get_by_name(const char *name);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Find the IB device and port behind an ethdev port: the ethdev of a
 * physical IB port, or a UD port (rte_ib_ud_port_create()). Control side.
 *
 * @param port_id
 *   ethdev port id.
 * @param ib_port
 *   Where to store the IB port number (1-based); may be NULL.
 * @return
 *   The device, or NULL with rte_errno = ENODEV.
 */
__rte_experimental
struct rte_ib_device *rte_ib_device_from_port_id(uint16_t port_id,
						 uint8_t *ib_port);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * List the registered devices, in registration order. Control side.
 *
 * @param devs
 *   Array to fill; may be NULL when @p n is 0.
 * @param n
 *   Size of @p devs.
 * @return
 *   The number of registered devices (may exceed @p n; only @p n are
 *   stored).
 */
__rte_experimental
unsigned int rte_ib_device_list(struct rte_ib_device **devs, unsigned int n);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Query device attributes. Control side.
 *
 * @return
 *   0, or -1 with rte_errno: EINVAL (NULL argument, device not
 *   registered), ENOTSUP (op missing), or the op's error.
 */
__rte_experimental
int rte_ib_query_device(struct rte_ib_device *dev,
			struct rte_ib_device_attr *attr);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Query a port's attributes from the device (and refresh the cache).
 * Control side.
 *
 * @param dev
 *   Device.
 * @param port
 *   Port, 1..phys_port_cnt.
 * @param attr
 *   Filled on success.
 * @return
 *   0, or -1 with rte_errno: EINVAL (bad argument or port), ENOTSUP,
 *   or the op's error.
 */
__rte_experimental
int rte_ib_query_port(struct rte_ib_device *dev, uint8_t port,
		      struct rte_ib_port_attr *attr);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * A port's attributes as last cached by the core (at registration, on
 * every event, on rte_ib_query_port()); no device access. Any thread.
 *
 * @return
 *   0, or -1 with rte_errno = EINVAL (bad argument or port).
 */
__rte_experimental
int rte_ib_port_attr_cached(struct rte_ib_device *dev, uint8_t port,
			    struct rte_ib_port_attr *attr);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Read GID table entry @p index of @p port (from the cache when it holds
 * the entry). Control side.
 *
 * @return
 *   0, or -1 with rte_errno: EINVAL (bad argument, port or index beyond
 *   the table), ENOTSUP, or the op's error.
 */
__rte_experimental
int rte_ib_query_gid(struct rte_ib_device *dev, uint8_t port, uint16_t index,
		     struct rte_ib_gid *gid);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Read P_Key table entry @p index of @p port, host order (from the cache
 * when it holds the entry). Control side.
 *
 * @return
 *   0, or -1 with rte_errno: EINVAL, ENOTSUP, or the op's error.
 */
__rte_experimental
int rte_ib_query_pkey(struct rte_ib_device *dev, uint8_t port, uint16_t index,
		      uint16_t *pkey);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Find the P_Key table index of @p pkey on @p port in the cache (Linux
 * ib_find_cached_pkey): an entry with the same 15-bit base, a full member
 * entry preferred when both exist. Any thread.
 *
 * @param pkey
 *   P_Key to look up, host order; the membership bit is ignored.
 * @param index
 *   Filled with the index on success.
 * @return
 *   0, or -1 with rte_errno: EINVAL (bad argument or port), ENOENT (not
 *   in the table).
 */
__rte_experimental
int rte_ib_pkey_find(struct rte_ib_device *dev, uint8_t port, uint16_t pkey,
		     uint16_t *index);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Set and clear CapabilityMask bits of a port (e.g. RTE_IB_PORT_CAP_SM
 * for an SM running on this host). Control side.
 *
 * @return
 *   0, or -1 with rte_errno: EINVAL (bad port, or @p set and @p clear
 *   overlap), ENOTSUP, or the op's error.
 */
__rte_experimental
int rte_ib_modify_port(struct rte_ib_device *dev, uint8_t port, uint32_t set,
		       uint32_t clear);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Create an address handle for UD sends. Control side.
 *
 * @param dev
 *   Device.
 * @param attr
 *   Address: port_num within the device, sl <= 15, a unicast or
 *   multicast dlid (or the permissive LID), flow_label within 20 bits.
 * @return
 *   The handle, or NULL with rte_errno: EINVAL (bad attribute, named in
 *   the log), ENOTSUP, ENOMEM or the op's error.
 */
__rte_experimental
struct rte_ib_ah *rte_ib_ah_create(struct rte_ib_device *dev,
				   const struct rte_ib_ah_attr *attr);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Destroy an address handle. The caller guarantees that no queued mbuf
 * still names it (see struct rte_ib_ah). Control side.
 *
 * @param ah
 *   Handle; NULL is a no-op.
 * @return
 *   0, or -1 with rte_errno: EINVAL, ENOTSUP, or the op's error.
 */
__rte_experimental
int rte_ib_ah_destroy(struct rte_ib_ah *ah);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Attach data QP @p qpn to multicast group @p gid (LID @p lid), so its
 * receives include the group's packets. Control side.
 *
 * @return
 *   0, or -1 with rte_errno: EINVAL (not a multicast GID or LID, QPN
 *   beyond 24 bits), ENOTSUP, or the op's error.
 */
__rte_experimental
int rte_ib_mcast_attach(struct rte_ib_device *dev, const struct rte_ib_gid *gid,
			uint16_t lid, uint32_t qpn);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Detach data QP @p qpn from multicast group @p gid. Control side.
 *
 * @return
 *   0, or -1 with rte_errno as rte_ib_mcast_attach().
 */
__rte_experimental
int rte_ib_mcast_detach(struct rte_ib_device *dev, const struct rte_ib_gid *gid,
			uint16_t lid, uint32_t qpn);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Register an event handler. Control side.
 *
 * @param dev
 *   Device whose events to receive, or NULL for every device.
 * @param cb
 *   Handler (see rte_ib_event_cb for its context).
 * @param arg
 *   Passed to @p cb.
 * @return
 *   0, or -1 with rte_errno: EINVAL (NULL @p cb), EEXIST (same dev, cb
 *   and arg already registered), ENOSPC (RTE_IB_MAX_EVENT_HANDLERS).
 */
__rte_experimental
int rte_ib_register_event_handler(struct rte_ib_device *dev,
				  rte_ib_event_cb cb, void *arg);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Unregister an event handler; once this returns, @p cb no longer runs
 * for this registration. Control side; a handler may unregister itself.
 *
 * @return
 *   0, or -1 with rte_errno = ENOENT (no such registration).
 */
__rte_experimental
int rte_ib_unregister_event_handler(struct rte_ib_device *dev,
				    rte_ib_event_cb cb, void *arg);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Register a client: its add callback runs now for every registered
 * device, and later for each new one; remove runs on unregistration of a
 * device and for every device when the client unregisters. Control side.
 *
 * @param client
 *   Client; must stay valid until rte_ib_unregister_client() returns.
 * @return
 *   0, or -1 with rte_errno: EINVAL, EEXIST, ENOSPC (RTE_IB_MAX_CLIENTS).
 */
__rte_experimental
int rte_ib_register_client(const struct rte_ib_client *client);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Unregister a client, calling its remove for every registered device.
 * Control side.
 *
 * @return
 *   0, or -1 with rte_errno = ENOENT.
 */
__rte_experimental
int rte_ib_unregister_client(const struct rte_ib_client *client);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   A constant name for @p type ("PORT_ACTIVE", ...), "UNKNOWN" when out
 *   of range. Any thread.
 */
__rte_experimental
const char *rte_ib_event_name(enum rte_ib_event_type type);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Signalling rate of a link in Mb/s: lanes of @p width times the lane
 * rate of @p speed (4x SDR = 10000, 4x DDR = 20000). Any thread.
 *
 * @return
 *   The rate, or 0 for a width or speed code that is not one.
 */
__rte_experimental
uint32_t rte_ib_link_rate_mbps(uint8_t width, uint8_t speed);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * QPN, Q_Key and P_Key index of a UD queue of an IB port's ethdev, so
 * that an upper layer (net_ipoib) can address peers and fill its
 * hardware address without knowing the PMD. Control side, not
 * concurrently with the configuration of the same ethdev. Valid from the
 * queue's setup until its release.
 *
 * @param port_id
 *   The ethdev of an IB port, or a UD port.
 * @param queue_id
 *   The queue.
 * @param tx
 *   false for rx queue @p queue_id, true for tx queue @p queue_id.
 * @param info
 *   Filled on success.
 * @return
 *   0, or -1 with rte_errno: ENODEV (@p port_id is not an IB port's
 *   ethdev), EINVAL (@p info NULL, or no such queue set up), ENOTSUP
 *   (the PMD lacks the op).
 */
__rte_experimental
int rte_ib_ud_queue_info(uint16_t port_id, uint16_t queue_id, bool tx,
			 struct rte_ib_ud_queue_info *info);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Set the Q_Key of every UD QP of an IB port's ethdev. Live QPs (a
 * started port) take it at once, by an RTS->RTS modify whose optional
 * Q_Key parameter IBA 11.2.5.2 allows; queues started later take it at
 * their start. From then on the HCA drops datagrams that carry another
 * Q_Key (IBA 10.2.4) and sends carry it when their own Q_Key has bit 31
 * set. Meant for the broadcast group's Q_Key, which the SA gives after
 * the port is up (RFC 4391 section 5). Control side, not concurrently
 * with the configuration of the same ethdev; data lcores may keep
 * calling bursts.
 *
 * @param port_id
 *   The ethdev of an IB port, or a UD port.
 * @param qkey
 *   Q_Key; bit 31 must be clear (controlled Q_Keys are for privileged
 *   QPs, IBA 10.2.4).
 * @return
 *   0, or -1 with rte_errno: ENODEV (not an IB port's ethdev), EINVAL
 *   (bit 31 set), ENOTSUP (the PMD lacks the op), or the op's error (the
 *   modify of a live QP failed: EIO; QPs already modified keep @p qkey).
 */
__rte_experimental
int rte_ib_ud_qkey_set(uint16_t port_id, uint32_t qkey);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Create a UD port: a further ethdev on IB port @p ib_port of @p dev
 * whose UD QPs (one per rx and per tx queue, as the physical port's
 * ethdev) use P_Key index @p pkey_index, for traffic in another
 * partition (an IPoIB P_Key child interface, RFC 4391 section 4). It
 * is created and destroyed at run time without disturbing the ethdevs
 * already running on the device. rte_ib_device_from_port_id() maps it
 * to @p dev and @p ib_port; its link state follows the IB port's; it
 * keeps statistics of its own. The caller configures, sets up and
 * starts it as any ethdev. Control side.
 *
 * @param dev
 *   A registered device.
 * @param ib_port
 *   Its port, 1..phys_port_cnt.
 * @param pkey_index
 *   Index in the port's P_Key table (rte_ib_pkey_find()).
 * @param port_id
 *   Filled with the new ethdev's port id.
 * @return
 *   0, or -1 with rte_errno: EINVAL (device not registered, bad port,
 *   @p pkey_index beyond the P_Key table, @p port_id NULL), ENOTSUP (the
 *   PMD has no UD ports), ENOSPC (no ethdev or UD port slot left),
 *   ENOMEM, or the op's error.
 */
__rte_experimental
int rte_ib_ud_port_create(struct rte_ib_device *dev, uint8_t ib_port,
			  uint16_t pkey_index, uint16_t *port_id);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Destroy a UD port made by rte_ib_ud_port_create(): stop it, free its
 * queues, QPs and mbufs, close and release its ethdev. The other
 * ethdevs of the device keep running. Control side; no lcore may call
 * its bursts any more.
 *
 * @param port_id
 *   The UD port.
 * @return
 *   0, or -1 with rte_errno: ENODEV (not an IB port's ethdev), EINVAL
 *   (the ethdev of a physical port, not a UD port), ENOTSUP, or the
 *   op's error.
 */
__rte_experimental
int rte_ib_ud_port_destroy(uint16_t port_id);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Change the P_Key index of an IB port's ethdev or UD port, when the SM
 * moved its P_Key to another index of the table (find the new one with
 * rte_ib_pkey_find() on a PKEY_CHANGE event). Takes effect at the next
 * start of its queues (a QP takes its P_Key index when it leaves RESET):
 * stop and start the ethdev to apply it at once. Control side, not
 * concurrently with the configuration of the same ethdev.
 *
 * @param port_id
 *   The ethdev of an IB port, or a UD port.
 * @param pkey_index
 *   Index in the port's P_Key table.
 * @return
 *   0, or -1 with rte_errno: ENODEV (not an IB port's ethdev), EINVAL
 *   (@p pkey_index beyond the P_Key table), ENOTSUP.
 */
__rte_experimental
int rte_ib_ud_port_pkey_index_set(uint16_t port_id, uint16_t pkey_index);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_IB_DEV_H_ */
