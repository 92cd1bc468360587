/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * An IB port seen through firmware: PortInfo and PortCounters read with
 * MAD_IFC (the firmware's own SMA and PMA, Linux mthca_query_port and
 * the PMA path of mthca_process_mad), decoded into the fields the ethdev
 * and the IB device ops report.
 */

#ifndef _MTHCA_PORT_H_
#define _MTHCA_PORT_H_

#include <stdint.h>

struct mthca_dev;

/** PortInfo fields net_mthca uses (IBA 14.2.5.6). */
struct mthca_port_info {
	uint64_t gid_prefix;
	uint16_t lid;
	uint16_t sm_lid;
	uint32_t cap_mask;
	uint8_t state;		/**< PortState */
	uint8_t phys_state;	/**< PortPhysicalState */
	uint8_t lmc;
	uint8_t width_active;	/**< LinkWidthActive: 1 1x, 2 4x, 4 8x, 8 12x */
	uint8_t speed_active;	/**< LinkSpeedActive: 1 SDR, 2 DDR, 4 QDR */
	uint8_t mtu_active;	/**< NeighborMTU */
	uint8_t mtu_cap;	/**< MTUCap */
	uint8_t sm_sl;
	uint8_t vl_cap;
	uint8_t subnet_timeout;
	uint8_t init_type_reply;
	uint16_t pkey_violations;
	uint16_t qkey_violations;
};

/** The 16 PortCounters of the PMA (IBA 16.1.3.5), in that order. */
#define MTHCA_PMA_NUM_COUNTERS 16

/** A PortCounters field as an xstat: its name and the factor to its unit. */
struct mthca_pma_xstat {
	const char *name;	/**< xstat name */
	uint8_t scale;		/**< 4 for the data counters (4-byte words), else 1 */
};
/** The PortCounters as xstats, in mthca_port_counters() order (mthca_port.c). */
extern const struct mthca_pma_xstat mthca_pma_xstats[MTHCA_PMA_NUM_COUNTERS];

/**
 * Send a MAD to the firmware of @p port with MAD_IFC (no receive
 * completion: M_Key and B_Key checks off, Linux mthca_MAD_IFC without
 * in_wc). @p out receives the 256-byte reply.
 *
 * @return 0, -EBADMSG (firmware dropped it: status 0x30), or a negative errno.
 */
int mthca_mad_ifc_local(struct mthca_dev *dev, uint8_t port, const uint8_t *in, uint8_t *out);

/** Read PortInfo of @p port. */
int mthca_port_query(struct mthca_dev *dev, uint8_t port, struct mthca_port_info *pi);

/** Read the PMA PortCounters of @p port (values widened to 64 bits). */
int mthca_port_counters(struct mthca_dev *dev, uint8_t port,
			uint64_t cnt[MTHCA_PMA_NUM_COUNTERS]);

/** Read NodeInfo: node GUID, system image GUID, device ID, revision, vendor ID. */
int mthca_node_info(struct mthca_dev *dev, uint64_t *node_guid, uint64_t *sys_guid,
		    uint16_t *dev_id, uint32_t *rev, uint32_t *vendor);

/** Link rate in Mb/s of a width and speed code (4x SDR 10000, 4x DDR 20000). */
uint32_t mthca_port_rate_mbps(uint8_t width, uint8_t speed);

#endif /* _MTHCA_PORT_H_ */
