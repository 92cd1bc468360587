/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _RTE_IB_RECORDS_H_
#define _RTE_IB_RECORDS_H_

/**
 * @file
 * SA records in host form, their component masks, and their field
 * tables for the rte_ib_pack.h engine: PathRecord (IBA 15.2.5.16) and
 * MCMemberRecord (IBA 15.2.5.17).
 *
 * Host structs follow the engine's rule: integers in host byte order,
 * GIDs in wire order (struct rte_ib_gid). Component-mask bits are named
 * RTE_IB_SA_<REC>_REC_<FIELD> after the struct member and numbered in
 * record order, as ComponentMask numbers a record's components (IBA
 * 15.2.1.1); a reserved component keeps its bit number but has no name.
 *
 * Everything here is reentrant; the layouts are const and shared.
 */

#include <stddef.h>
#include <stdint.h>

#include <rte_compat.h>

#include "rte_ib_pack.h"
#include "rte_ib_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Selector codes of MTU, Rate and PacketLifeTime (IBA 15.2.5.16). */
enum rte_ib_sa_selector {
	RTE_IB_SA_SELECTOR_GT = 0,      /**< Greater than the value. */
	RTE_IB_SA_SELECTOR_LT = 1,      /**< Less than the value. */
	RTE_IB_SA_SELECTOR_EQ = 2,      /**< Exactly the value. */
	RTE_IB_SA_SELECTOR_MAX = 3,     /**< Largest available. */
};

/*
 * PathRecord (IBA 15.2.5.16, table "PathRecord"), 64 bytes.
 */

/** Size of a PathRecord on the wire. */
#define RTE_IB_SA_PATH_REC_SIZE 64

/** A PathRecord in host form. */
struct rte_ib_sa_path_rec {
	uint64_t service_id;       /**< ServiceID (64 bits, words 0-1). */
	struct rte_ib_gid dgid;    /**< DGID. */
	struct rte_ib_gid sgid;    /**< SGID. */
	uint16_t dlid;             /**< DLID. */
	uint16_t slid;             /**< SLID. */
	uint8_t raw_traffic;       /**< RawTraffic (1 bit). */
	uint32_t flow_label;       /**< FlowLabel (20 bits). */
	uint8_t hop_limit;         /**< HopLimit. */
	uint8_t traffic_class;     /**< TClass. */
	uint8_t reversible;        /**< Reversible (1 bit). */
	uint8_t numb_path;         /**< NumbPath (7 bits). */
	uint16_t pkey;             /**< P_Key. */
	uint16_t qos_class;        /**< QoSClass (12 bits). */
	uint8_t sl;                /**< SL (4 bits). */
	uint8_t mtu_selector;      /**< MTUSelector (2 bits). */
	uint8_t mtu;               /**< MTU (6 bits, enum rte_ib_mtu). */
	uint8_t rate_selector;     /**< RateSelector (2 bits). */
	uint8_t rate;              /**< Rate (6 bits, enum rte_ib_rate). */
	uint8_t packet_life_time_selector; /**< PacketLifeTimeSelector. */
	uint8_t packet_life_time;  /**< PacketLifeTime (6 bits). */
	uint8_t preference;        /**< Preference. */
};

/*
 * PathRecord ComponentMask bits. ServiceID took over the two 32-bit
 * reserved components that began the record in IBA 1.1, so it owns
 * bits 0 and 1; bit 7 is the reserved field after RawTraffic.
 */
#define RTE_IB_SA_PATH_REC_SERVICE_ID \
	(RTE_IB_SA_COMP_MASK(0) | RTE_IB_SA_COMP_MASK(1))
#define RTE_IB_SA_PATH_REC_DGID                      RTE_IB_SA_COMP_MASK(2)
#define RTE_IB_SA_PATH_REC_SGID                      RTE_IB_SA_COMP_MASK(3)
#define RTE_IB_SA_PATH_REC_DLID                      RTE_IB_SA_COMP_MASK(4)
#define RTE_IB_SA_PATH_REC_SLID                      RTE_IB_SA_COMP_MASK(5)
#define RTE_IB_SA_PATH_REC_RAW_TRAFFIC               RTE_IB_SA_COMP_MASK(6)
/* bit 7: Reserved */
#define RTE_IB_SA_PATH_REC_FLOW_LABEL                RTE_IB_SA_COMP_MASK(8)
#define RTE_IB_SA_PATH_REC_HOP_LIMIT                 RTE_IB_SA_COMP_MASK(9)
#define RTE_IB_SA_PATH_REC_TRAFFIC_CLASS             RTE_IB_SA_COMP_MASK(10)
#define RTE_IB_SA_PATH_REC_REVERSIBLE                RTE_IB_SA_COMP_MASK(11)
#define RTE_IB_SA_PATH_REC_NUMB_PATH                 RTE_IB_SA_COMP_MASK(12)
#define RTE_IB_SA_PATH_REC_PKEY                      RTE_IB_SA_COMP_MASK(13)
#define RTE_IB_SA_PATH_REC_QOS_CLASS                 RTE_IB_SA_COMP_MASK(14)
#define RTE_IB_SA_PATH_REC_SL                        RTE_IB_SA_COMP_MASK(15)
#define RTE_IB_SA_PATH_REC_MTU_SELECTOR              RTE_IB_SA_COMP_MASK(16)
#define RTE_IB_SA_PATH_REC_MTU                       RTE_IB_SA_COMP_MASK(17)
#define RTE_IB_SA_PATH_REC_RATE_SELECTOR             RTE_IB_SA_COMP_MASK(18)
#define RTE_IB_SA_PATH_REC_RATE                      RTE_IB_SA_COMP_MASK(19)
#define RTE_IB_SA_PATH_REC_PACKET_LIFE_TIME_SELECTOR RTE_IB_SA_COMP_MASK(20)
#define RTE_IB_SA_PATH_REC_PACKET_LIFE_TIME          RTE_IB_SA_COMP_MASK(21)
#define RTE_IB_SA_PATH_REC_PREFERENCE                RTE_IB_SA_COMP_MASK(22)

/*
 * MCMemberRecord (IBA 15.2.5.17, table "MCMemberRecord"), 52 bytes; in a
 * GetTable response each record takes 56 (AttributeOffset 7).
 */

/** Size of an MCMemberRecord on the wire. */
#define RTE_IB_SA_MCMEMBER_REC_SIZE 52

/** JoinState bits (IBA 15.2.5.17; SendOnlyFullMember added in 1.2.1). */
#define RTE_IB_SA_MC_JOIN_FULL_MEMBER           0x1
#define RTE_IB_SA_MC_JOIN_NON_MEMBER            0x2
#define RTE_IB_SA_MC_JOIN_SEND_ONLY_NON_MEMBER  0x4
#define RTE_IB_SA_MC_JOIN_SEND_ONLY_FULL_MEMBER 0x8

/** Multicast GID scopes (IBA 4.1.1, the MGID's 4-bit scope). */
#define RTE_IB_MC_SCOPE_LINK_LOCAL   0x2
#define RTE_IB_MC_SCOPE_SITE_LOCAL   0x5
#define RTE_IB_MC_SCOPE_ORG_LOCAL    0x8
#define RTE_IB_MC_SCOPE_GLOBAL       0xe

/** An MCMemberRecord in host form. */
struct rte_ib_sa_mcmember_rec {
	struct rte_ib_gid mgid;     /**< MGID. */
	struct rte_ib_gid port_gid; /**< PortGID. */
	uint32_t qkey;              /**< Q_Key. */
	uint16_t mlid;              /**< MLID. */
	uint8_t mtu_selector;       /**< MTUSelector (2 bits). */
	uint8_t mtu;                /**< MTU (6 bits). */
	uint8_t traffic_class;      /**< TClass. */
	uint16_t pkey;              /**< P_Key. */
	uint8_t rate_selector;      /**< RateSelector (2 bits). */
	uint8_t rate;               /**< Rate (6 bits). */
	uint8_t packet_life_time_selector; /**< PacketLifeTimeSelector. */
	uint8_t packet_life_time;   /**< PacketLifeTime (6 bits). */
	uint8_t sl;                 /**< SL (4 bits). */
	uint32_t flow_label;        /**< FlowLabel (20 bits). */
	uint8_t hop_limit;          /**< HopLimit. */
	uint8_t scope;              /**< Scope (4 bits). */
	uint8_t join_state;         /**< JoinState (4 bits, RTE_IB_SA_MC_JOIN_*). */
	uint8_t proxy_join;         /**< ProxyJoin (1 bit). */
};

/* MCMemberRecord ComponentMask bits; bit 18 is the trailing Reserved. */
#define RTE_IB_SA_MCMEMBER_REC_MGID                  RTE_IB_SA_COMP_MASK(0)
#define RTE_IB_SA_MCMEMBER_REC_PORT_GID              RTE_IB_SA_COMP_MASK(1)
#define RTE_IB_SA_MCMEMBER_REC_QKEY                  RTE_IB_SA_COMP_MASK(2)
#define RTE_IB_SA_MCMEMBER_REC_MLID                  RTE_IB_SA_COMP_MASK(3)
#define RTE_IB_SA_MCMEMBER_REC_MTU_SELECTOR          RTE_IB_SA_COMP_MASK(4)
#define RTE_IB_SA_MCMEMBER_REC_MTU                   RTE_IB_SA_COMP_MASK(5)
#define RTE_IB_SA_MCMEMBER_REC_TRAFFIC_CLASS         RTE_IB_SA_COMP_MASK(6)
#define RTE_IB_SA_MCMEMBER_REC_PKEY                  RTE_IB_SA_COMP_MASK(7)
#define RTE_IB_SA_MCMEMBER_REC_RATE_SELECTOR         RTE_IB_SA_COMP_MASK(8)
#define RTE_IB_SA_MCMEMBER_REC_RATE                  RTE_IB_SA_COMP_MASK(9)
#define RTE_IB_SA_MCMEMBER_REC_PACKET_LIFE_TIME_SELECTOR RTE_IB_SA_COMP_MASK(10)
#define RTE_IB_SA_MCMEMBER_REC_PACKET_LIFE_TIME      RTE_IB_SA_COMP_MASK(11)
#define RTE_IB_SA_MCMEMBER_REC_SL                    RTE_IB_SA_COMP_MASK(12)
#define RTE_IB_SA_MCMEMBER_REC_FLOW_LABEL            RTE_IB_SA_COMP_MASK(13)
#define RTE_IB_SA_MCMEMBER_REC_HOP_LIMIT             RTE_IB_SA_COMP_MASK(14)
#define RTE_IB_SA_MCMEMBER_REC_SCOPE                 RTE_IB_SA_COMP_MASK(15)
#define RTE_IB_SA_MCMEMBER_REC_JOIN_STATE            RTE_IB_SA_COMP_MASK(16)
#define RTE_IB_SA_MCMEMBER_REC_PROXY_JOIN            RTE_IB_SA_COMP_MASK(17)

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   The PathRecord layout (name "PathRecord"), for rte_ib_pack(),
 *   rte_ib_unpack() and rte_ib_record_dump(). Never NULL.
 */
__rte_experimental
const struct rte_ib_record_layout *
rte_ib_sa_path_rec_layout(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   The MCMemberRecord layout (name "MCMemberRecord"). Never NULL.
 */
__rte_experimental
const struct rte_ib_record_layout *
rte_ib_sa_mcmember_rec_layout(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Pack a PathRecord; reserved fields are written as zero.
 *
 * @param rec
 *   Record to pack, read only.
 * @param buf
 *   Output, at least RTE_IB_SA_PATH_REC_SIZE bytes (e.g. the data of an
 *   SA MAD).
 * @param len
 *   Size of @p buf.
 * @return
 *   0, or -1 with rte_errno EINVAL (NULL argument, @p len too small) or
 *   ERANGE (a value too wide for its field; the field is logged).
 */
__rte_experimental
int
rte_ib_sa_path_rec_pack(const struct rte_ib_sa_path_rec *rec, void *buf,
			size_t len);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Unpack a PathRecord; reserved bits are ignored.
 *
 * @param buf
 *   Wire record, at least RTE_IB_SA_PATH_REC_SIZE bytes.
 * @param len
 *   Size of @p buf.
 * @param rec
 *   Output; every member is written.
 * @return
 *   0, or -1 with rte_errno EINVAL (NULL argument, @p len too small).
 */
__rte_experimental
int
rte_ib_sa_path_rec_unpack(const void *buf, size_t len,
			  struct rte_ib_sa_path_rec *rec);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Pack an MCMemberRecord; reserved fields are written as zero.
 *
 * @param rec
 *   Record to pack, read only.
 * @param buf
 *   Output, at least RTE_IB_SA_MCMEMBER_REC_SIZE bytes.
 * @param len
 *   Size of @p buf.
 * @return
 *   0, or -1 with rte_errno EINVAL or ERANGE as rte_ib_sa_path_rec_pack().
 */
__rte_experimental
int
rte_ib_sa_mcmember_rec_pack(const struct rte_ib_sa_mcmember_rec *rec,
			    void *buf, size_t len);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Unpack an MCMemberRecord; reserved bits are ignored.
 *
 * @param buf
 *   Wire record, at least RTE_IB_SA_MCMEMBER_REC_SIZE bytes.
 * @param len
 *   Size of @p buf.
 * @param rec
 *   Output; every member is written.
 * @return
 *   0, or -1 with rte_errno EINVAL (NULL argument, @p len too small).
 */
__rte_experimental
int
rte_ib_sa_mcmember_rec_unpack(const void *buf, size_t len,
			      struct rte_ib_sa_mcmember_rec *rec);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_IB_RECORDS_H_ */
