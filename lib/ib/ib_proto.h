/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _IB_PROTO_H_
#define _IB_PROTO_H_

/**
 * @file
 * InfiniBand wire constants and predicates that every side of the
 * project needs: lib/ib (rte_ib_types.h builds on them) and ibfabric,
 * which is the hardware and uses nothing else from lib/ (it reaches this
 * header through an include directory and links nothing).
 *
 * Plain C11, no DPDK header: values and pure functions only, host order.
 * References are to the InfiniBand Architecture Specification, volume 1
 * (IBA), release 1.3.
 */

#include <stdbool.h>
#include <stdint.h>

/* LIDs (IBA 4.1.3; the LID address space, 7.11.1). */
#define IB_LID_RESERVED		0x0000	/**< never a valid address */
#define IB_LID_UNICAST_MIN	0x0001
#define IB_LID_UNICAST_MAX	0xbfff
#define IB_LID_MULTICAST_MIN	0xc000
#define IB_LID_MULTICAST_MAX	0xfffe
#define IB_LID_PERMISSIVE	0xffff	/**< any port; directed-route SMPs */

/** Whether @p lid is a unicast LID (0x0001-0xbfff). */
static inline bool
ib_lid_is_unicast(uint16_t lid)
{
	return lid >= IB_LID_UNICAST_MIN && lid <= IB_LID_UNICAST_MAX;
}

/** Whether @p lid is a multicast LID (0xc000-0xfffe). */
static inline bool
ib_lid_is_multicast(uint16_t lid)
{
	return lid >= IB_LID_MULTICAST_MIN && lid <= IB_LID_MULTICAST_MAX;
}

/** Whether @p lid is the permissive LID. */
static inline bool
ib_lid_is_permissive(uint16_t lid)
{
	return lid == IB_LID_PERMISSIVE;
}

/**
 * Whether unicast @p lid reaches a port of base LID @p base and LID Mask
 * Control @p lmc: the port answers the 2^LMC LIDs that differ from its
 * base LID only in the low LMC bits (IBA 7.11.1). A port without a LID
 * (0) answers none.
 */
static inline bool
ib_lid_in_lmc_range(uint16_t base, uint8_t lmc, uint16_t lid)
{
	uint16_t mask = (uint16_t)~((1u << (lmc & 7)) - 1);

	return base != IB_LID_RESERVED && ib_lid_is_unicast(lid) && (lid & mask) == (base & mask);
}

/* Management datagrams (IBA 13.4). */
#define IB_MAD_SIZE		256	/**< every MAD on the wire, IBA 13.4.1 */
#define IB_QP1_QKEY		0x80010000u	/**< GSI's well-known Q_Key, IBA 10.2.4 */

/* Management classes (IBA 13.4.4 table 128). */
#define IB_MGMT_CLASS_SMI	0x01	/**< LID-routed SMP */
#define IB_MGMT_CLASS_SA	0x03	/**< SubnAdm */
#define IB_MGMT_CLASS_PERF	0x04	/**< PerfMgt */
#define IB_MGMT_CLASS_BM	0x05	/**< BaseBoard management */
#define IB_MGMT_CLASS_SMI_DR	0x81	/**< directed-route SMP */

/** Whether @p mgmt_class is a subnet management (SMP) class, QP0's. */
static inline bool
ib_mgmt_class_is_smp(uint8_t mgmt_class)
{
	return mgmt_class == IB_MGMT_CLASS_SMI || mgmt_class == IB_MGMT_CLASS_SMI_DR;
}

/* RMPP (IBA 13.6): the header's place in a MAD (IBA 13.6.2.1, figure 179). */
#define IB_MAD_OFF_MGMT_CLASS	1	/**< MgmtClass, byte 1 of the MAD */
#define IB_MAD_OFF_METHOD	3	/**< R bit and Method (IBA 13.4.2) */
#define IB_MAD_OFF_ATTR_MOD_LSB	23	/**< last byte of the big-endian AttributeModifier */
#define IB_MAD_METHOD_RESP	0x80	/**< the R bit of Method (IBA 13.4.5) */
#define IB_MAD_METHOD_TRAP_REPRESS 0x07	/**< TrapRepress, which answers a Trap */
#define IB_RMPP_OFF_TYPE	25	/**< RMPPType */
#define IB_RMPP_OFF_FLAGS	26	/**< [7:3] RRespTime, [2:0] RMPPFlags */
#define IB_RMPP_TYPE_ACK	2	/**< RMPPType ACK; STOP 3, ABORT 4 */
#define IB_RMPP_TYPE_ABORT	4
#define IB_RMPP_FLAG_ACTIVE	0x01	/**< RMPPFlags.Active */

/**
 * Whether the MAD @p mad (at least its first 24 bytes) is a response
 * (Linux ib_response_mad()): the Method's R bit (IBA 13.4.5), TrapRepress
 * (which answers a Trap), or BM's response bit, bit 0 of the
 * AttributeModifier (big-endian, bytes 20-23).
 */
static inline bool
ib_mad_is_response(const uint8_t *mad)
{
	return (mad[IB_MAD_OFF_METHOD] & IB_MAD_METHOD_RESP) != 0 ||
		mad[IB_MAD_OFF_METHOD] == IB_MAD_METHOD_TRAP_REPRESS ||
		(mad[IB_MAD_OFF_MGMT_CLASS] == IB_MGMT_CLASS_BM &&
		 (mad[IB_MAD_OFF_ATTR_MOD_LSB] & 1) != 0);
}

/**
 * Whether @p mgmt_class may use RMPP: SubnAdm, DevMgt, DevAdm, BIS and the
 * vendor classes of range 2 (Linux ib_is_mad_class_rmpp()).
 */
static inline bool
ib_mgmt_class_is_rmpp(uint8_t mgmt_class)
{
	return mgmt_class == IB_MGMT_CLASS_SA ||
		mgmt_class == 0x06 ||   /* DevMgt */
		mgmt_class == 0x10 ||   /* DevAdm */
		mgmt_class == 0x12 ||   /* BIS */
		(mgmt_class >= 0x30 && mgmt_class <= 0x4f); /* vendor range 2 */
}

/**
 * Whether the MAD @p mad (at least its first IB_RMPP_OFF_FLAGS + 1 bytes)
 * is an RMPP MAD: a class that may use RMPP, with the Active flag set.
 */
static inline bool
ib_mad_is_rmpp_active(const uint8_t *mad)
{
	return ib_mgmt_class_is_rmpp(mad[IB_MAD_OFF_MGMT_CLASS]) &&
		(mad[IB_RMPP_OFF_FLAGS] & IB_RMPP_FLAG_ACTIVE) != 0;
}

#endif /* _IB_PROTO_H_ */
