/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * MT25208 (InfiniHost III Ex, "Arbel", mem-free mode) hardware facts for
 * ibfabric's device model: PCI identity, the BAR0 register map, the HCR,
 * firmware opcodes and statuses, mailbox layouts, ICM context layouts
 * (EQC, CQC, QPC, MPT, MTT, MGM) and the EQE.
 *
 * Written from Linux drivers/infiniband/hw/mthca (cited by function or
 * struct), the PRM layouts of iPXE's MT25218_PRM.h and
 * doc/guides/nics/mthca_hw.rst, independently of drivers/net/mthca/mthca_hw.h: the two must
 * agree only through the hardware, as a driver and silicon do.
 *
 * Everything the HCA reads or writes in host memory is big-endian
 * (Linux MTHCA_GET / MTHCA_PUT). Only the accessors below swap; no .c file of the model
 * byte-swaps a hardware field.
 */

#ifndef _IBFABRIC_MT25208_HW_H_
#define _IBFABRIC_MT25208_HW_H_

#include <endian.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Big-endian field access at a byte offset (MTHCA_GET/PUT semantics)  */

static inline uint8_t
mt_get8(const void *base, size_t off)
{
	return ((const uint8_t *)base)[off];
}

static inline uint16_t
mt_get16(const void *base, size_t off)
{
	uint16_t v;

	memcpy(&v, (const uint8_t *)base + off, sizeof(v));
	return be16toh(v);
}

static inline uint32_t
mt_get32(const void *base, size_t off)
{
	uint32_t v;

	memcpy(&v, (const uint8_t *)base + off, sizeof(v));
	return be32toh(v);
}

static inline uint64_t
mt_get64(const void *base, size_t off)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)base + off, sizeof(v));
	return be64toh(v);
}

static inline void
mt_put8(void *base, size_t off, uint8_t v)
{
	((uint8_t *)base)[off] = v;
}

static inline void
mt_put16(void *base, size_t off, uint16_t v)
{
	v = htobe16(v);
	memcpy((uint8_t *)base + off, &v, sizeof(v));
}

static inline void
mt_put32(void *base, size_t off, uint32_t v)
{
	v = htobe32(v);
	memcpy((uint8_t *)base + off, &v, sizeof(v));
}

static inline void
mt_put64(void *base, size_t off, uint64_t v)
{
	v = htobe64(v);
	memcpy((uint8_t *)base + off, &v, sizeof(v));
}

/* ------------------------------------------------------------------ */
/* PCI identity (Linux mthca_main.c mthca_pci_table)                    */

#define MT_PCI_VENDOR_MELLANOX		0x15b3
#define MT_PCI_DEVICE_ARBEL		0x6282	/**< MT25208 native (mem-free capable) */
#define MT_PCI_SUBSYS_DEVICE		0x6282	/**< model's choice: same as device */
#define MT_PCI_CLASS_IB			0x0c0600 /**< serial bus, InfiniBand */
#define MT_PCI_REVISION			0xa0	/**< model's choice */

#define MT_BAR0_SIZE			(1u << 20) /**< exactly 1 MiB (__mthca_init_one()) */
#define MT_BAR2_LOG_UAR_MB		3	/**< DEV_LIM 0x49: 8 MiB of UARs */
#define MT_BAR2_SIZE			(1u << (20 + MT_BAR2_LOG_UAR_MB))
#define MT_UAR_PAGE_SIZE		4096u	/**< mthca_uar_alloc() */

/* ------------------------------------------------------------------ */
/* BAR0 register map (mthca_config_reg.h, mthca_QUERY_FW(), arbel_eq_req_not()) */

#define MT_BAR0_HCR			0x80680	/**< 7 x BE32 */
#define MT_BAR0_ECR			0x80700	/**< Tavor only, unused in mem-free */
#define MT_BAR0_ECR_CLR			0x80708
#define MT_BAR0_CLR_INT			0xf00d8	/**< reported by QUERY_FW 0x20 */
#define MT_BAR0_RESET			0xf0010	/**< BE32 1 = reset (mthca_reset()) */
#define MT_RESET_MAGIC			1u
/* Model's choices, reported by QUERY_FW (firmware-defined: mthca_hw.rst). */
#define MT_BAR0_CATAS			0x80000	/**< QUERY_FW 0x30 */
#define MT_CATAS_WORDS			16	/**< QUERY_FW 0x38 */
#define MT_BAR0_EQ_ARM			0xa0000	/**< QUERY_FW 0x40; the mask is at +4 */
#define MT_BAR0_EQ_SET_CI		0xa0800	/**< QUERY_FW 0x48; 32 x 8 bytes */
#define MT_NUM_EQ			32	/**< mthca_init_eq_table() */

/* Catastrophic error types, word 0 bits 31..24 (poll_catas()). */
#define MT_CATAS_INTERNAL		0x00
#define MT_CATAS_UPLINK_BUS		0x03

/* ------------------------------------------------------------------ */
/* HCR (mthca_config_reg.h)                                                    */

#define MT_HCR_IN_HI			0x00
#define MT_HCR_IN_LO			0x04
#define MT_HCR_IN_MOD			0x08
#define MT_HCR_OUT_HI			0x0c
#define MT_HCR_OUT_LO			0x10
#define MT_HCR_TOKEN			0x14	/**< [31:16] token */
#define MT_HCR_CMD			0x18	/**< [31:24] status, [23] go, [22] e, [15:12] opmod, [11:0] op */
#define MT_HCR_SIZE			0x1c

#define MT_HCR_GO			(1u << 23)
#define MT_HCR_E			(1u << 22)
#define MT_HCR_POLL_TOKEN		0xffff

static inline uint16_t mt_hcr_opcode(uint32_t w) { return w & 0xfff; }
static inline uint8_t mt_hcr_opmod(uint32_t w) { return (w >> 12) & 0xf; }
static inline uint16_t mt_hcr_token(uint32_t w) { return w >> 16; }
/** The command word after completion: status in [31:24], go and e clear. */
static inline uint32_t mt_hcr_done(uint32_t w, uint8_t status)
{
	return ((uint32_t)status << 24) | (w & 0xf000u) | (w & 0xfffu);
}

/* ------------------------------------------------------------------ */
/* Firmware opcodes (Linux mthca_cmd.c CMD_*)                          */

enum mt_op {
	MT_OP_SYS_EN = 0x001,
	MT_OP_SYS_DIS = 0x002,
	MT_OP_QUERY_DEV_LIM = 0x003,
	MT_OP_QUERY_FW = 0x004,
	MT_OP_QUERY_DDR = 0x005,
	MT_OP_QUERY_ADAPTER = 0x006,
	MT_OP_INIT_HCA = 0x007,
	MT_OP_CLOSE_HCA = 0x008,
	MT_OP_INIT_IB = 0x009,
	MT_OP_CLOSE_IB = 0x00a,
	MT_OP_QUERY_HCA = 0x00b,
	MT_OP_SET_IB = 0x00c,
	MT_OP_SW2HW_MPT = 0x00d,
	MT_OP_QUERY_MPT = 0x00e,
	MT_OP_HW2SW_MPT = 0x00f,
	MT_OP_READ_MTT = 0x010,
	MT_OP_WRITE_MTT = 0x011,
	MT_OP_MAP_EQ = 0x012,
	MT_OP_SW2HW_EQ = 0x013,
	MT_OP_HW2SW_EQ = 0x014,
	MT_OP_QUERY_EQ = 0x015,
	MT_OP_SW2HW_CQ = 0x016,
	MT_OP_HW2SW_CQ = 0x017,
	MT_OP_QUERY_CQ = 0x018,
	MT_OP_RST2INIT = 0x019,
	MT_OP_INIT2RTR = 0x01a,
	MT_OP_RTR2RTS = 0x01b,
	MT_OP_RTS2RTS = 0x01c,
	MT_OP_SQERR2RTS = 0x01d,
	MT_OP_2ERR = 0x01e,
	MT_OP_RTS2SQD = 0x01f,
	MT_OP_SQD2RTS = 0x020,
	MT_OP_ERR2RST = 0x021,
	MT_OP_QUERY_QP = 0x022,
	MT_OP_CONF_SPECIAL_QP = 0x023,
	MT_OP_MAD_IFC = 0x024,
	MT_OP_READ_MGM = 0x025,
	MT_OP_WRITE_MGM = 0x026,
	MT_OP_MGID_HASH = 0x027,
	MT_OP_RESIZE_CQ = 0x02c,
	MT_OP_INIT2INIT = 0x02d,
	MT_OP_SYNC_TPT = 0x02f,
	MT_OP_NOP = 0x031,
	MT_OP_SQD2SQD = 0x038,
	MT_OP_RUN_FW = 0xff6,
	MT_OP_DISABLE_LAM = 0xff7,
	MT_OP_ENABLE_LAM = 0xff8,
	MT_OP_UNMAP_ICM = 0xff9,
	MT_OP_MAP_ICM = 0xffa,
	MT_OP_UNMAP_ICM_AUX = 0xffb,
	MT_OP_MAP_ICM_AUX = 0xffc,
	MT_OP_SET_ICM_SIZE = 0xffd,
	MT_OP_UNMAP_FA = 0xffe,
	MT_OP_MAP_FA = 0xfff,
};

/* Command statuses (Linux mthca_cmd.h MTHCA_CMD_STAT_*). */
enum mt_status {
	MT_STAT_OK = 0x00,
	MT_STAT_INTERNAL_ERR = 0x01,
	MT_STAT_BAD_OP = 0x02,
	MT_STAT_BAD_PARAM = 0x03,
	MT_STAT_BAD_SYS_STATE = 0x04,
	MT_STAT_BAD_RESOURCE = 0x05,
	MT_STAT_RESOURCE_BUSY = 0x06,
	MT_STAT_EXCEED_LIM = 0x08,
	MT_STAT_BAD_RES_STATE = 0x09,
	MT_STAT_BAD_INDEX = 0x0a,
	MT_STAT_BAD_QP_STATE = 0x10,
	MT_STAT_BAD_SEG_PARAM = 0x20,
	MT_STAT_REG_BOUND = 0x21,
	MT_STAT_LAM_NOT_PRE = 0x22,
	MT_STAT_BAD_PKT = 0x30,
	MT_STAT_BAD_SIZE = 0x40,
};

#define MT_MAILBOX_SIZE			4096u	/**< mthca_cmd.h */

/* ------------------------------------------------------------------ */
/* QUERY_FW output (mthca_QUERY_FW())                                         */

#define MT_QFW_FW_PAGES			0x00	/**< BE16, 4 KiB pages for MAP_FA */
#define MT_QFW_VER_MAJOR		0x02	/**< BE16 */
#define MT_QFW_VER_SUBMINOR		0x04	/**< BE16 */
#define MT_QFW_VER_MINOR		0x06	/**< BE16 */
#define MT_QFW_LOG_MAX_CMDS		0x0f
#define MT_QFW_CMD_DBELL		0x10	/**< BE32 bit 0 */
#define MT_QFW_CLR_INT_BASE		0x20	/**< BE64 */
#define MT_QFW_CATAS_BASE		0x30	/**< BE64 */
#define MT_QFW_CATAS_SIZE		0x38	/**< BE32, words */
#define MT_QFW_EQ_ARM_BASE		0x40	/**< BE64 */
#define MT_QFW_EQ_SET_CI_BASE		0x48	/**< BE64 */
#define MT_QFW_OUT_SIZE			0x100
/** High bits of the register addresses QUERY_FW reports (model's choice, above BAR0). */
#define MT_QFW_ADDR_HIGH		0x00000000fe000000ull

/* ------------------------------------------------------------------ */
/* QUERY_DEV_LIM output (mthca_QUERY_DEV_LIM()): byte offsets                      */

#define MT_QDL_LOG_MAX_SRQ_SZ		0x10
#define MT_QDL_LOG_MAX_QP_SZ		0x11
#define MT_QDL_LOG_RSVD_QP		0x12
#define MT_QDL_LOG_MAX_QP		0x13
#define MT_QDL_LOG_RSVD_SRQ		0x14	/**< [7:4] */
#define MT_QDL_LOG_MAX_SRQ		0x15
#define MT_QDL_LOG_RSVD_EEC		0x16
#define MT_QDL_LOG_MAX_EEC		0x17
#define MT_QDL_LOG_MAX_CQ_SZ		0x19
#define MT_QDL_LOG_RSVD_CQ		0x1a
#define MT_QDL_LOG_MAX_CQ		0x1b
#define MT_QDL_LOG_MAX_MPT		0x1d
#define MT_QDL_LOG_RSVD_EQ		0x1e
#define MT_QDL_LOG_MAX_EQ		0x1f
#define MT_QDL_LOG_RSVD_MTT		0x20	/**< [7:4] */
#define MT_QDL_LOG_MAX_MRW_SZ		0x21
#define MT_QDL_LOG_RSVD_MRW		0x22
#define MT_QDL_LOG_MAX_MTT_SEG		0x23
#define MT_QDL_LOG_MAX_RA_REQ_QP	0x29
#define MT_QDL_LOG_MAX_RA_RES_QP	0x2b
#define MT_QDL_LOG_MAX_RA_GLOBAL	0x2f
#define MT_QDL_ACK_DELAY		0x35
#define MT_QDL_MTU_WIDTH		0x36	/**< [7:4] MTU, [3:0] width */
#define MT_QDL_VL_PORT			0x37	/**< [7:4] VL cap, [3:0] ports */
#define MT_QDL_LOG_MAX_GID		0x3b
#define MT_QDL_RATE_SUPPORT		0x3c	/**< BE16 */
#define MT_QDL_LOG_MAX_PKEY		0x3f
#define MT_QDL_FLAGS			0x44	/**< BE32 */
#define MT_QDL_UAR_SZ			0x48	/**< [7:4] reserved UARs (count) */
#define MT_QDL_LOG_UAR_SZ		0x49	/**< log MB */
#define MT_QDL_LOG_MIN_PAGE		0x4b
#define MT_QDL_MAX_SG_SQ		0x51
#define MT_QDL_MAX_DESC_SQ		0x52	/**< BE16 */
#define MT_QDL_MAX_SG_RQ		0x55
#define MT_QDL_MAX_DESC_RQ		0x56	/**< BE16 */
#define MT_QDL_LOG_QP_PER_MCG		0x61
#define MT_QDL_RSVD_MGM			0x62
#define MT_QDL_LOG_MAX_MCG		0x63
#define MT_QDL_RSVD_PD			0x64	/**< [7:4] */
#define MT_QDL_LOG_MAX_PD		0x65
#define MT_QDL_EEC_ENTRY_SZ		0x80	/**< BE16 each, bytes */
#define MT_QDL_QPC_ENTRY_SZ		0x82
#define MT_QDL_EEEC_ENTRY_SZ		0x84
#define MT_QDL_EQPC_ENTRY_SZ		0x86
#define MT_QDL_EQC_ENTRY_SZ		0x88
#define MT_QDL_CQC_ENTRY_SZ		0x8a
#define MT_QDL_SRQ_ENTRY_SZ		0x8c
#define MT_QDL_UAR_SCR_ENTRY_SZ		0x8e
#define MT_QDL_MTT_ENTRY_SZ		0x90
#define MT_QDL_MPT_ENTRY_SZ		0x92
#define MT_QDL_LOG_MAX_PBL		0x96
#define MT_QDL_BMME_FLAGS		0x97
#define MT_QDL_RSVD_LKEY		0x98	/**< BE32 */
#define MT_QDL_LAMR			0x9f
#define MT_QDL_MAX_ICM_SZ		0xa0	/**< BE64 */
#define MT_QDL_OUT_SIZE			0x100

/* Capability flags at 0x44 (mthca_QUERY_DEV_LIM()). */
#define MT_DEV_CAP_RC			(1u << 0)
#define MT_DEV_CAP_UC			(1u << 1)
#define MT_DEV_CAP_UD			(1u << 2)
#define MT_DEV_CAP_SRQ			(1u << 6)
#define MT_DEV_CAP_BAD_PKEY_CNT		(1u << 8)
#define MT_DEV_CAP_BAD_QKEY_CNT		(1u << 9)
#define MT_DEV_CAP_UD_AV_PORT		(1u << 20)
#define MT_DEV_CAP_UD_MCAST		(1u << 21)

/* ------------------------------------------------------------------ */
/* QUERY_ADAPTER output (mthca_QUERY_ADAPTER())                                    */

#define MT_QAD_VENDOR_ID		0x00
#define MT_QAD_DEVICE_ID		0x04
#define MT_QAD_REVISION_ID		0x08
#define MT_QAD_INTA_PIN			0x10
#define MT_QAD_VSD			0x20
#define MT_QAD_BOARD_ID			0xf0	/**< VSD + 0xd0, 16 bytes, byte-reversed per 4 */
#define MT_QAD_OUT_SIZE			0x100

/* ------------------------------------------------------------------ */
/* INIT_HCA input (mthca_INIT_HCA()). A base's low byte is overlaid by a log. */

#define MT_IHCA_FLAGS1			0x00c
#define MT_IHCA_FLAGS2			0x014	/**< bit 1 big-endian host, bit 0 UD AV port check */
#define MT_IHCA_FLAGS2_UDP		(1u << 0)	/**< PRM init_hca udp: check the AV's port */
#define MT_IHCA_QPC_BASE		0x030
#define MT_IHCA_LOG_QP			0x037
#define MT_IHCA_EEC_BASE		0x040
#define MT_IHCA_LOG_EEC			0x047
#define MT_IHCA_SRQC_BASE		0x048
#define MT_IHCA_LOG_SRQ			0x04f
#define MT_IHCA_CQC_BASE		0x050
#define MT_IHCA_LOG_CQ			0x057
#define MT_IHCA_EQPC_BASE		0x060
#define MT_IHCA_EEEC_BASE		0x070
#define MT_IHCA_EQC_BASE		0x080
#define MT_IHCA_LOG_EQ			0x087
#define MT_IHCA_RDB_BASE		0x090
#define MT_IHCA_MC_BASE			0x0c0
#define MT_IHCA_LOG_MC_ENTRY_SZ		0x0d2	/**< BE16 */
#define MT_IHCA_MC_HASH_SZ		0x0d6	/**< BE16 */
#define MT_IHCA_LOG_MC_TABLE_SZ		0x0db
#define MT_IHCA_MPT_BASE		0x0f0
#define MT_IHCA_LOG_MPT			0x0fb
#define MT_IHCA_MTT_BASE		0x100
#define MT_IHCA_UAR_BASE		0x120
#define MT_IHCA_LOG_UARC_SZ		0x129
#define MT_IHCA_LOG_UAR			0x12a
#define MT_IHCA_UAR_PAGE_SZ		0x12b
#define MT_IHCA_UAR_SCR_BASE		0x130
#define MT_IHCA_UARC_BASE		0x138
#define MT_IHCA_IN_SIZE			0x200

/** A table base from INIT_HCA: the low byte may hold a log, so drop it. */
static inline uint64_t
mt_ihca_base(const void *mb, size_t off)
{
	return mt_get64(mb, off) & ~0xffull;
}

/* ------------------------------------------------------------------ */
/* INIT_IB input (mthca_INIT_IB()), SET_IB input (mthca_SET_IB())                      */

#define MT_IIB_FLAGS			0x00	/**< [15:12] MTU, [11:8] width, [7:4] VL cap */
#define MT_IIB_MAX_GID			0x06
#define MT_IIB_MAX_PKEY			0x0a
#define MT_IIB_GUID0			0x10
#define MT_IIB_NODE_GUID		0x18
#define MT_IIB_SI_GUID			0x20
#define MT_IIB_IN_SIZE			56
#define MT_IIB_FLAG_SET_SI_GUID		(1u << 18)
#define MT_IIB_FLAG_SET_NODE_GUID	(1u << 17)
#define MT_IIB_FLAG_SET_GUID0		(1u << 16)

static inline uint8_t mt_iib_mtu(uint32_t fl) { return (fl >> 12) & 0xf; }
static inline uint8_t mt_iib_width(uint32_t fl) { return (fl >> 8) & 0xf; }
static inline uint8_t mt_iib_vl_cap(uint32_t fl) { return (fl >> 4) & 0xf; }

#define MT_SIB_FLAGS			0x00	/**< bit 18 set SI GUID, bit 0 reset Q_Key violations */
#define MT_SIB_CAP_MASK			0x04
#define MT_SIB_SI_GUID			0x08
#define MT_SIB_FLAG_RQK			(1u << 0)

/* ------------------------------------------------------------------ */
/* ICM page lists for MAP_FA / MAP_ICM_AUX / MAP_ICM (mthca_map_cmd())       */

#define MT_ICM_PAGE_SHIFT		12
#define MT_ICM_PAGE_SIZE		(1u << MT_ICM_PAGE_SHIFT)
#define MT_MAP_ENTRY_SIZE		16
#define MT_MAP_MAX_ENTRIES		(MT_MAILBOX_SIZE / MT_MAP_ENTRY_SIZE)

static inline uint64_t mt_map_virt(const void *e) { return mt_get64(e, 0); }
/** Bus address of a page-list block: the low 12 bits hold its size code. */
static inline uint64_t mt_map_pa(const void *e) { return mt_get64(e, 8) & ~0xfffull; }
/** log2(block size) of a page-list entry. */
static inline unsigned int mt_map_log_size(const void *e)
{
	return (unsigned int)(mt_get64(e, 8) & 0xfff) + MT_ICM_PAGE_SHIFT;
}

/* ------------------------------------------------------------------ */
/* EQ context (struct mthca_eq_context), 0x40 bytes                                  */

#define MT_EQC_SIZE			0x40
#define MT_EQC_FLAGS			0x00
#define MT_EQC_START			0x04	/**< BE64 */
#define MT_EQC_LOGSIZE			0x0c	/**< [31:24] */
#define MT_EQC_INTR			0x17
#define MT_EQC_PD			0x18
#define MT_EQC_LKEY			0x1c
#define MT_EQC_CONS			0x28
#define MT_EQC_PROD			0x2c

#define MT_EQ_STATUS_OK			0x0
#define MT_EQ_STATUS_OVERFLOW		0x9
#define MT_EQ_STATUS_WRITE_FAIL		0xa
#define MT_EQ_OWNER_HW			0x1
#define MT_EQ_STATE_ARMED		0x1
#define MT_EQ_STATE_FIRED		0x2
#define MT_EQ_STATE_ALWAYS_ARMED	0x3

static inline uint8_t mt_eqc_status(const void *c) { return mt_get32(c, MT_EQC_FLAGS) >> 28; }
static inline uint8_t mt_eqc_owner(const void *c) { return (mt_get32(c, MT_EQC_FLAGS) >> 24) & 0xf; }
/** EQ state, bits 11..8 without the Arbel marker bit 11. */
static inline uint8_t mt_eqc_state(const void *c) { return (mt_get32(c, MT_EQC_FLAGS) >> 8) & 0x7; }
static inline uint64_t mt_eqc_start(const void *c) { return mt_get64(c, MT_EQC_START); }
static inline uint8_t mt_eqc_log_size(const void *c) { return mt_get32(c, MT_EQC_LOGSIZE) >> 24; }
static inline uint8_t mt_eqc_intr(const void *c) { return mt_get8(c, MT_EQC_INTR); }
static inline uint32_t mt_eqc_pd(const void *c) { return mt_get32(c, MT_EQC_PD) & 0xffffff; }
static inline uint32_t mt_eqc_lkey(const void *c) { return mt_get32(c, MT_EQC_LKEY); }
static inline uint32_t mt_eqc_cons(const void *c) { return mt_get32(c, MT_EQC_CONS); }
static inline uint32_t mt_eqc_prod(const void *c) { return mt_get32(c, MT_EQC_PROD); }
static inline void mt_eqc_set_cons(void *c, uint32_t v) { mt_put32(c, MT_EQC_CONS, v); }
static inline void mt_eqc_set_prod(void *c, uint32_t v) { mt_put32(c, MT_EQC_PROD, v); }
static inline void mt_eqc_set_status(void *c, uint8_t st)
{
	mt_put32(c, MT_EQC_FLAGS, (mt_get32(c, MT_EQC_FLAGS) & 0x0fffffffu) |
		 ((uint32_t)st << 28));
}

/* MAP_EQ (mthca_MAP_EQ()): in_modifier bit 31 = unmap, low bits = EQN. */
#define MT_MAP_EQ_UNMAP			(1u << 31)

/* EQE (struct mthca_eqe), 32 bytes */
#define MT_EQE_SIZE			32
#define MT_EQE_TYPE			0x01
#define MT_EQE_SUBTYPE			0x03
#define MT_EQE_DATA			0x04	/**< 24 bytes of event data */
#define MT_EQE_DATA_SIZE		24
#define MT_EQE_OWNER			0x1f	/**< bit 7 = HW owns */
#define MT_EQE_OWNER_HW			0x80
/* Command completion data (type 0x0a), offsets from the EQE start. */
#define MT_EQE_CMD_TOKEN		0x06	/**< BE16 */
#define MT_EQE_CMD_STATUS		0x0f
#define MT_EQE_CMD_OUT			0x10	/**< BE64 */
/* Port change (type 0x09): BE32 at 0x0c, port in bits 29..28. */
#define MT_EQE_PORT			0x0c

enum mt_event {
	MT_EV_COMP = 0x00,
	MT_EV_PATH_MIG = 0x01,
	MT_EV_COMM_EST = 0x02,
	MT_EV_SQ_DRAINED = 0x03,
	MT_EV_CQ_ERROR = 0x04,
	MT_EV_WQ_CATAS = 0x05,
	MT_EV_EEC_CATAS = 0x06,
	MT_EV_PATH_MIG_FAIL = 0x07,
	MT_EV_LOCAL_CATAS = 0x08,
	MT_EV_PORT_CHANGE = 0x09,
	MT_EV_CMD = 0x0a,
	MT_EV_EQ_OVERFLOW = 0x0f,
	MT_EV_WQ_INVAL_REQ = 0x10,
	MT_EV_WQ_ACCESS = 0x11,
};
#define MT_EV_PORT_ACTIVE_SUBTYPE	0x4
#define MT_EV_PORT_DOWN_SUBTYPE		0x1

/* ------------------------------------------------------------------ */
/* CQ context (struct mthca_cq_context), 0x40 bytes                                  */

#define MT_CQC_SIZE			0x40
#define MT_CQC_FLAGS			0x00
#define MT_CQC_START			0x04	/**< BE64 */
#define MT_CQC_LOGSIZE_UAR		0x0c	/**< [31:24] log CQEs, [23:0] UAR */
#define MT_CQC_ERR_EQN			0x10
#define MT_CQC_COMP_EQN			0x14
#define MT_CQC_PD			0x18
#define MT_CQC_LKEY			0x1c
#define MT_CQC_LAST_NOTIFIED		0x20
#define MT_CQC_SOLICIT_PROD		0x24
#define MT_CQC_CONS			0x28
#define MT_CQC_PROD			0x2c
#define MT_CQC_CQN			0x30
#define MT_CQC_CI_DB			0x34
#define MT_CQC_ARM_DB			0x38

static inline uint8_t mt_cqc_status(const void *c) { return mt_get32(c, MT_CQC_FLAGS) >> 28; }
static inline uint8_t mt_cqc_state(const void *c) { return (mt_get32(c, MT_CQC_FLAGS) >> 8) & 0xf; }
static inline uint64_t mt_cqc_start(const void *c) { return mt_get64(c, MT_CQC_START); }
static inline uint8_t mt_cqc_log_size(const void *c) { return mt_get32(c, MT_CQC_LOGSIZE_UAR) >> 24; }
static inline uint32_t mt_cqc_uar(const void *c) { return mt_get32(c, MT_CQC_LOGSIZE_UAR) & 0xffffff; }
static inline uint32_t mt_cqc_err_eqn(const void *c) { return mt_get32(c, MT_CQC_ERR_EQN); }
/* c_eqn[7:0]: 0..63 names an EQ, anything else means no completion events (PRM) */
static inline uint32_t mt_cqc_comp_eqn(const void *c) { return mt_get32(c, MT_CQC_COMP_EQN) & 0xff; }
static inline uint32_t mt_cqc_pd(const void *c) { return mt_get32(c, MT_CQC_PD) & 0xffffff; }
static inline uint32_t mt_cqc_lkey(const void *c) { return mt_get32(c, MT_CQC_LKEY); }
static inline uint32_t mt_cqc_cons(const void *c) { return mt_get32(c, MT_CQC_CONS); }
static inline uint32_t mt_cqc_prod(const void *c) { return mt_get32(c, MT_CQC_PROD); }
static inline uint32_t mt_cqc_cqn(const void *c) { return mt_get32(c, MT_CQC_CQN) & 0xffffff; }
static inline uint32_t mt_cqc_ci_db(const void *c) { return mt_get32(c, MT_CQC_CI_DB); }
static inline uint32_t mt_cqc_arm_db(const void *c) { return mt_get32(c, MT_CQC_ARM_DB); }
static inline void mt_cqc_set_prod(void *c, uint32_t v) { mt_put32(c, MT_CQC_PROD, v); }
static inline void mt_cqc_set_cons(void *c, uint32_t v) { mt_put32(c, MT_CQC_CONS, v); }
static inline void mt_cqc_set_state(void *c, uint8_t st)
{
	mt_put32(c, MT_CQC_FLAGS, (mt_get32(c, MT_CQC_FLAGS) & ~0xf00u) |
		 ((uint32_t)(st & 0xf) << 8));
}

#define MT_CQ_STATE_DISARMED		0x0
#define MT_CQ_STATE_ARMED		0x1
#define MT_CQ_STATE_ARMED_SOL		0x4
#define MT_CQ_STATE_FIRED		0xa

/* RESIZE_CQ input (mthca_RESIZE_CQ()) */
#define MT_RCQ_LOG_SIZE			0x0c
#define MT_RCQ_LKEY			0x1c

/* ------------------------------------------------------------------ */
/* QP context (mthca_qp.c). Offsets are QPC offsets; the modify mailbox  */
/* holds the optparam mask at 0 and the QPC at MT_QP_MBOX_QPC.          */

#define MT_QP_MBOX_OPTMASK		0x000
#define MT_QP_MBOX_QPC			0x008
#define MT_QP_MBOX_SIZE			0x200
#define MT_QPC_SIZE			0x100

#define MT_QPC_FLAGS			0x00	/**< [31:28] state, [23:16] ST, [12:11] PM */
#define MT_QPC_MTU_MSGMAX		0x08
#define MT_QPC_RQ_SIZE_STRIDE		0x09
#define MT_QPC_SQ_SIZE_STRIDE		0x0a
#define MT_QPC_RLKEY_SCHED		0x0b
#define MT_QPC_USR_PAGE			0x0c
#define MT_QPC_LOCAL_QPN		0x10
#define MT_QPC_REMOTE_QPN		0x14
#define MT_QPC_PRI_PATH			0x20
#define MT_QPC_ALT_PATH			0x40
#define MT_QPC_RDD			0x60
#define MT_QPC_PD			0x64
#define MT_QPC_WQE_BASE			0x68
#define MT_QPC_WQE_LKEY			0x6c
#define MT_QPC_PARAMS1			0x70
#define MT_QPC_NEXT_SEND_PSN		0x78
#define MT_QPC_CQN_SND			0x7c
#define MT_QPC_SND_WQE_BASE		0x80
#define MT_QPC_SND_DB_INDEX		0x84
#define MT_QPC_LAST_ACKED_PSN		0x88
#define MT_QPC_SSN			0x8c
#define MT_QPC_PARAMS2			0x90
#define MT_QPC_RNR_NEXTRECVPSN		0x94
#define MT_QPC_RA_BUFF_INDX		0x98
#define MT_QPC_CQN_RCV			0x9c
#define MT_QPC_RCV_WQE_BASE		0xa0
#define MT_QPC_RCV_DB_INDEX		0xa4
#define MT_QPC_QKEY			0xa8
#define MT_QPC_SRQN			0xac
#define MT_QPC_RMSN			0xb0
#define MT_QPC_RQ_WQE_COUNTER		0xb4	/**< BE16 */
#define MT_QPC_SQ_WQE_COUNTER		0xb6	/**< BE16 */

/* Address path (struct mthca_qp_path), offsets inside a 32-byte path. */
#define MT_PATH_PORT_PKEY		0x00	/**< [25:24] port, [6:0] P_Key index */
#define MT_PATH_RNR_RETRY		0x04
#define MT_PATH_G_MYLMC			0x05
#define MT_PATH_RLID			0x06
#define MT_PATH_ACKTO			0x08
#define MT_PATH_MGID_INDEX		0x09
#define MT_PATH_STATIC_RATE		0x0a
#define MT_PATH_HOP_LIMIT		0x0b
#define MT_PATH_SL_TC_FL		0x0c
#define MT_PATH_RGID			0x10
#define MT_PATH_SIZE			0x20

enum mt_qp_state {
	MT_QPS_RESET = 0,
	MT_QPS_INIT = 1,
	MT_QPS_RTR = 2,
	MT_QPS_RTS = 3,
	MT_QPS_SQE = 4,
	MT_QPS_SQD = 5,
	MT_QPS_ERR = 6,
	MT_QPS_DRAINING = 7,
};

enum mt_qp_st {
	MT_QP_ST_RC = 0,
	MT_QP_ST_UC = 1,
	MT_QP_ST_RD = 2,
	MT_QP_ST_UD = 3,
	MT_QP_ST_MLX = 7,
};

/* Optional-parameter mask bits (MTHCA_QP_OPTPAR_*). */
#define MT_QP_OPT_ALT_PATH		(1u << 0)
#define MT_QP_OPT_RRE			(1u << 1)
#define MT_QP_OPT_RAE			(1u << 2)
#define MT_QP_OPT_RWE			(1u << 3)
#define MT_QP_OPT_PKEY_INDEX		(1u << 4)
#define MT_QP_OPT_Q_KEY			(1u << 5)
#define MT_QP_OPT_RNR_TIMEOUT		(1u << 6)
#define MT_QP_OPT_PRIMARY_PATH		(1u << 7)
#define MT_QP_OPT_SRA_MAX		(1u << 8)
#define MT_QP_OPT_RRA_MAX		(1u << 9)
#define MT_QP_OPT_PM_STATE		(1u << 10)
#define MT_QP_OPT_PORT_NUM		(1u << 11)
#define MT_QP_OPT_RETRY_COUNT		(1u << 12)
#define MT_QP_OPT_ALT_RNR_RETRY		(1u << 13)
#define MT_QP_OPT_ACK_TIMEOUT		(1u << 14)
#define MT_QP_OPT_RNR_RETRY		(1u << 15)
#define MT_QP_OPT_SCHED_QUEUE		(1u << 16)

/* Modify-QP in_modifier and ERR2RST op_mod (Linux mthca_MODIFY_QP()). */
#define MT_QP_INMOD_QPN_MASK		0xffffffu
#define MT_QP_INMOD_EE			(1u << 24)
#define MT_QP_INMOD_SQD_EVENT		(1u << 31)
#define MT_ERR2RST_OPMOD_WRITE_OUT	2
#define MT_ERR2RST_OPMOD_NO_OUT		3

static inline uint8_t mt_qpc_state(const void *c) { return mt_get32(c, MT_QPC_FLAGS) >> 28; }
static inline uint8_t mt_qpc_st(const void *c) { return (mt_get32(c, MT_QPC_FLAGS) >> 16) & 0xff; }
static inline uint8_t mt_qpc_pm(const void *c) { return (mt_get32(c, MT_QPC_FLAGS) >> 11) & 0x3; }
static inline void mt_qpc_set_state(void *c, uint8_t st)
{
	mt_put32(c, MT_QPC_FLAGS, (mt_get32(c, MT_QPC_FLAGS) & 0x0fffffffu) |
		 ((uint32_t)(st & 0xf) << 28));
}
static inline uint8_t mt_qpc_mtu(const void *c) { return mt_get8(c, MT_QPC_MTU_MSGMAX) >> 5; }
static inline uint8_t mt_qpc_msgmax(const void *c) { return mt_get8(c, MT_QPC_MTU_MSGMAX) & 0x1f; }
/**
 * log2 of the RQ entry count: PRM log_rq_size [22:19], 4 bits (bit 23 is
 * reserved), so at most 2^15 WQEs; 0 is a one-entry queue.
 */
static inline uint8_t mt_qpc_rq_log_size(const void *c) { return (mt_get8(c, MT_QPC_RQ_SIZE_STRIDE) >> 3) & 0xf; }
/** log2 of the RQ stride in bytes (bits 2..0 hold log2 - 4). */
static inline uint8_t mt_qpc_rq_log_stride(const void *c) { return (mt_get8(c, MT_QPC_RQ_SIZE_STRIDE) & 7) + 4; }
/** PRM log_sq_size [14:11], 4 bits like the RQ's. */
static inline uint8_t mt_qpc_sq_log_size(const void *c) { return (mt_get8(c, MT_QPC_SQ_SIZE_STRIDE) >> 3) & 0xf; }
static inline uint8_t mt_qpc_sq_log_stride(const void *c) { return (mt_get8(c, MT_QPC_SQ_SIZE_STRIDE) & 7) + 4; }
static inline uint32_t mt_qpc_usr_page(const void *c) { return mt_get32(c, MT_QPC_USR_PAGE) & 0xffffff; }
static inline uint32_t mt_qpc_local_qpn(const void *c) { return mt_get32(c, MT_QPC_LOCAL_QPN) & 0xffffff; }
static inline uint32_t mt_qpc_remote_qpn(const void *c) { return mt_get32(c, MT_QPC_REMOTE_QPN) & 0xffffff; }
static inline uint8_t mt_qpc_port(const void *c) { return (mt_get32(c, MT_QPC_PRI_PATH + MT_PATH_PORT_PKEY) >> 24) & 3; }
static inline uint8_t mt_qpc_pkey_index(const void *c) { return mt_get32(c, MT_QPC_PRI_PATH + MT_PATH_PORT_PKEY) & 0x7f; }
static inline uint32_t mt_qpc_pd(const void *c) { return mt_get32(c, MT_QPC_PD) & 0xffffff; }
static inline uint32_t mt_qpc_wqe_base(const void *c) { return mt_get32(c, MT_QPC_WQE_BASE); }
static inline uint32_t mt_qpc_wqe_lkey(const void *c) { return mt_get32(c, MT_QPC_WQE_LKEY); }
static inline uint32_t mt_qpc_next_send_psn(const void *c) { return mt_get32(c, MT_QPC_NEXT_SEND_PSN) & 0xffffff; }
static inline uint32_t mt_qpc_cqn_snd(const void *c) { return mt_get32(c, MT_QPC_CQN_SND) & 0xffffff; }
static inline uint32_t mt_qpc_snd_wqe_base(const void *c) { return mt_get32(c, MT_QPC_SND_WQE_BASE); }
static inline uint32_t mt_qpc_snd_db_index(const void *c) { return mt_get32(c, MT_QPC_SND_DB_INDEX); }
static inline uint32_t mt_qpc_cqn_rcv(const void *c) { return mt_get32(c, MT_QPC_CQN_RCV) & 0xffffff; }
static inline uint32_t mt_qpc_rcv_wqe_base(const void *c) { return mt_get32(c, MT_QPC_RCV_WQE_BASE); }
static inline uint32_t mt_qpc_rcv_db_index(const void *c) { return mt_get32(c, MT_QPC_RCV_DB_INDEX); }
static inline uint32_t mt_qpc_qkey(const void *c) { return mt_get32(c, MT_QPC_QKEY); }
static inline uint32_t mt_qpc_srqn(const void *c) { return mt_get32(c, MT_QPC_SRQN); }
/** params1 bit 3 SSC: every send WQE generates a CQE. */
static inline int mt_qpc_ssc(const void *c) { return (mt_get32(c, MT_QPC_PARAMS1) >> 3) & 1; }
/** params2 bit 3 RSC: every receive WQE generates a CQE. */
static inline int mt_qpc_rsc(const void *c) { return (mt_get32(c, MT_QPC_PARAMS2) >> 3) & 1; }

/* CONF_SPECIAL_QP op_mod (mthca_CONF_SPECIAL_QP()). */
#define MT_SQP_SMI			0
#define MT_SQP_GSI			1

/* ------------------------------------------------------------------ */
/* MAD_IFC (mthca_MAD_IFC())                                                */

#define MT_MAD_IFC_MAD			0x000	/**< 256 bytes */
#define MT_MAD_IFC_MY_QPN		0x100
#define MT_MAD_IFC_RQPN			0x108
#define MT_MAD_IFC_SL			0x10c	/**< [7:4] */
#define MT_MAD_IFC_G_PATH		0x10d
#define MT_MAD_IFC_RLID			0x10e
#define MT_MAD_IFC_PKEY_IX		0x112
#define MT_MAD_IFC_GRH			0x140
#define MT_MAD_IFC_SIZE			256
#define MT_MAD_IFC_IGNORE_MKEY		(1u << 0)
#define MT_MAD_IFC_IGNORE_BKEY		(1u << 1)
#define MT_MAD_IFC_EXT_INFO		(1u << 2)

/* ------------------------------------------------------------------ */
/* MPT entry (struct mthca_mpt_entry), 0x40 bytes; keys; MTT (mthca_mr.c)        */

#define MT_MPT_SIZE			0x40
#define MT_MPT_FLAGS			0x00
#define MT_MPT_PAGE_SIZE		0x04
#define MT_MPT_KEY			0x08
#define MT_MPT_PD			0x0c
#define MT_MPT_START			0x10	/**< BE64 */
#define MT_MPT_LENGTH			0x18	/**< BE64 */
#define MT_MPT_LKEY			0x20
#define MT_MPT_MTT_ADDR			0x2c	/**< BE64 at a 4-aligned offset */
#define MT_MPT_MTT_SIZE			0x34

#define MT_MPT_STATUS_SW		0xf	/**< flags [31:28] */
#define MT_MPT_STATUS_HW		0x0
#define MT_MPT_FLAG_MIO			(1u << 17)
#define MT_MPT_FLAG_BIND_ENABLE		(1u << 15)
#define MT_MPT_FLAG_ATOMIC		(1u << 14)
#define MT_MPT_FLAG_REMOTE_WRITE	(1u << 13)
#define MT_MPT_FLAG_REMOTE_READ		(1u << 12)
#define MT_MPT_FLAG_LOCAL_WRITE		(1u << 11)
#define MT_MPT_FLAG_LOCAL_READ		(1u << 10)
#define MT_MPT_FLAG_PHYSICAL		(1u << 9)
#define MT_MPT_FLAG_REGION		(1u << 8)

static inline uint8_t mt_mpt_status(const void *m) { return mt_get32(m, MT_MPT_FLAGS) >> 28; }
static inline uint32_t mt_mpt_flags(const void *m) { return mt_get32(m, MT_MPT_FLAGS) & 0x0fffffffu; }
static inline void mt_mpt_set_status(void *m, uint8_t st)
{
	mt_put32(m, MT_MPT_FLAGS, mt_mpt_flags(m) | ((uint32_t)st << 28));
}
/** Bytes per MTT entry, log2 (page size code + 12). */
static inline uint8_t mt_mpt_log_page(const void *m) { return (mt_get32(m, MT_MPT_PAGE_SIZE) & 0x1f) + 12; }
static inline uint32_t mt_mpt_key(const void *m) { return mt_get32(m, MT_MPT_KEY); }
static inline uint32_t mt_mpt_pd(const void *m) { return mt_get32(m, MT_MPT_PD) & 0xffffff; }
static inline uint64_t mt_mpt_start(const void *m) { return mt_get64(m, MT_MPT_START); }
static inline uint64_t mt_mpt_length(const void *m) { return mt_get64(m, MT_MPT_LENGTH); }
static inline uint64_t mt_mpt_mtt_addr(const void *m) { return mt_get64(m, MT_MPT_MTT_ADDR); }

/** Arbel L_Key/R_Key -> hw index: rotate right by 8 (arbel_key_to_hw_index()). */
static inline uint32_t mt_key_to_index(uint32_t key) { return (key >> 8) | (key << 24); }
/** hw index -> L_Key: rotate left by 8. */
static inline uint32_t mt_index_to_key(uint32_t ix) { return (ix << 8) | (ix >> 24); }

#define MT_INVAL_LKEY			0x100	/**< MTHCA_INVAL_LKEY */

#define MT_MTT_ENTRY_SIZE		8
#define MT_MTT_SEG_SIZE			64
#define MT_MTT_PRESENT			1ull
static inline uint64_t mt_mtt_addr(uint64_t e) { return e & ~0xfffull; }
static inline int mt_mtt_present(uint64_t e) { return (int)(e & MT_MTT_PRESENT); }

/* WRITE_MTT mailbox (mthca_arbel_write_mtt_seg()) */
#define MT_WMTT_ADDR			0x00	/**< BE64 ICM VA of the first entry */
#define MT_WMTT_ENTRIES			0x10
#define MT_WMTT_MAX			((MT_MAILBOX_SIZE - MT_WMTT_ENTRIES) / MT_MTT_ENTRY_SIZE)

/* ------------------------------------------------------------------ */
/* MGM entry (struct mthca_mgm), 256 bytes                                   */

#define MT_MGM_SIZE			0x100
#define MT_MGM_NEXT			0x00	/**< [31:6] next index */
#define MT_MGM_GID			0x10
#define MT_MGM_QP			0x20	/**< 56 x BE32: [31] valid, [23:0] QPN */
#define MT_MGM_QP_PER_MGM		56
#define MT_MGM_QP_VALID			(1u << 31)

static inline uint32_t mt_mgm_next(const void *m) { return mt_get32(m, MT_MGM_NEXT) >> 6; }
static inline uint32_t mt_mgm_qp(const void *m, unsigned int i) { return mt_get32(m, MT_MGM_QP + 4 * i); }

/* ------------------------------------------------------------------ */
/* Doorbell records (mthca_alloc_db()): 8 bytes, 512 per 4 KiB UARC page      */

#define MT_DB_REC_SIZE			8
#define MT_UARC_SIZE_DEFAULT		(256u * 1024)

/* ------------------------------------------------------------------ */
/* UAR doorbells (PRM arbelprm_send_doorbell_st, arbelprm_cq_cmd_doorbell_st; Linux mthca_doorbell.h) */

#define MT_UAR_SEND_DB			0x10	/**< hi: [31:24] wqe_cnt, [23:8] wqe_counter, [5] f, [4:0] nopcode */
#define MT_UAR_CQ_DB			0x20	/**< hi: [29:28] cmd_sn, [26:24] cmd, [23:0] cqn */

/*
 * A doorbell as one 64-bit load of its UAR slot: the first word (the
 * PRM's dword 0, "hi") at the lower address, big-endian (Linux
 * mthca_write64()).
 */
static inline uint32_t mt_db_hi(uint64_t raw) { return (uint32_t)(be64toh(raw) >> 32); }
static inline uint32_t mt_db_lo(uint64_t raw) { return (uint32_t)be64toh(raw); }
static inline uint32_t mt_send_db_qpn(uint32_t lo) { return lo >> 8; }
static inline uint8_t mt_send_db_nds(uint32_t lo) { return lo & 0x3f; }
static inline uint8_t mt_send_db_op(uint32_t hi) { return hi & 0x1f; }
static inline uint32_t mt_send_db_counter(uint32_t hi) { return (hi >> 8) & 0xffff; }
static inline uint32_t mt_send_db_cnt(uint32_t hi) { return hi >> 24; }
static inline uint8_t mt_cq_db_sn(uint32_t hi) { return (hi >> 28) & 3; }
static inline uint8_t mt_cq_db_cmd(uint32_t hi) { return (hi >> 24) & 0x7; }
static inline uint32_t mt_cq_db_cqn(uint32_t hi) { return hi & 0xffffff; }
#define MT_CQ_DB_REQ_NOT_SOL		1	/**< mem-free: solicited only */
#define MT_CQ_DB_REQ_NOT		2	/**< mem-free: next completion */

/* ------------------------------------------------------------------ */
/* Doorbell records (mthca_alloc_db(), enum mthca_db_type)                                       */

static inline uint32_t mt_dbr_counter(const void *r) { return mt_get32(r, 0); }
static inline uint8_t mt_dbr_type(const void *r) { return (mt_get32(r, 4) >> 5) & 7; }
static inline uint8_t mt_dbr_arm_sn(const void *r) { return (mt_get32(r, 4) >> 3) & 3; }
static inline uint8_t mt_dbr_arm_cmd(const void *r) { return mt_get32(r, 4) & 7; }
/** QPN / CQN / SRQN the record belongs to (identity word bits 31..8). */
static inline uint32_t mt_dbr_qn(const void *r) { return mt_get32(r, 4) >> 8; }
#define MT_DBR_CQ_ARM			2
#define MT_DBR_SQ			3

/* ------------------------------------------------------------------ */
/* WQE segments (mthca_wqe.h)                                                  */

#define MT_WQE_NDA_OP			0x00	/**< [31:6] next WQE offset, [4:0] its opcode */
#define MT_WQE_EE_NDS			0x04	/**< [7] DBD, [6] F, [5:0] next size (16 B units) */
#define MT_WQE_FLAGS			0x08
#define MT_WQE_IMM			0x0c
#define MT_WQE_NEXT_SIZE		16
#define MT_WQE_MAX_SIZE			1024	/**< 6-bit size in 16-byte units */

static inline uint8_t mt_wqe_next_op(const void *w) { return mt_get32(w, MT_WQE_NDA_OP) & 0x1f; }
static inline uint32_t mt_wqe_next_off(const void *w) { return mt_get32(w, MT_WQE_NDA_OP) & ~0x3fu; }
static inline uint8_t mt_wqe_next_size(const void *w) { return mt_get32(w, MT_WQE_EE_NDS) & 0x3f; }
static inline uint32_t mt_wqe_flags(const void *w) { return mt_get32(w, MT_WQE_FLAGS); }

/* Send ctrl segment (PRM arbelprm_wqe_segment_ctrl_send_st); c is also the receive WQE's */
#define MT_WQE_F_CQ_UPDATE		(1u << 3)	/**< c */
#define MT_WQE_F_SOLICIT		(1u << 1)	/**< s */
#define MT_WQE_F_ALWAYS1		(1u << 0)	/**< always1 */
/** Next segment ee_nds bit 7: always1 (Linux MTHCA_NEXT_DBD). */
#define MT_WQE_NDS_ALWAYS1		(1u << 7)
/* MLX segment flags (struct mthca_mlx_seg) */
#define MT_MLX_VL15			(1u << 17)
#define MT_MLX_SLR			(1u << 16)
#define MT_MLX_RLID			0x0c	/**< BE16: must match the LRH DLID */
#define MT_MLX_VCRC			0x0e	/**< 2 bytes: the VCRC if not 0, else the HCA's */
#define MT_MLX_ICRC_HCA			0	/**< HCA computes the ICRC; last dword 0 */
#define MT_MLX_ICRC_SW			3	/**< last dword is the ICRC, not 0 */
static inline uint8_t mt_mlx_icrc(uint32_t flags) { return (flags >> 4) & 3; }
static inline uint8_t mt_mlx_sl(uint32_t flags) { return (flags >> 8) & 0xf; }

/* Send opcodes (MTHCA_OPCODE_*) */
#define MT_OP_SEND			0x0a
#define MT_OP_SEND_IMM			0x0b

/* UD segment, mem-free (struct mthca_arbel_ud_seg): AV (32), dqpn, qkey, 8 reserved */
#define MT_UD_SEG_SIZE			48
#define MT_UD_AV			0x00
#define MT_UD_DQPN			0x20
#define MT_UD_QKEY			0x24
/* Address vector (struct mthca_av) */
#define MT_AV_PORT_PD			0x00
#define MT_AV_G_SLID			0x05
#define MT_AV_DLID			0x06
#define MT_AV_GID_INDEX			0x09
#define MT_AV_HOP_LIMIT			0x0b
#define MT_AV_SL_TC_FL			0x0c
#define MT_AV_DGID			0x10
/** PRM port_number [25:24] and pd [23:0] (the AV's first word). */
static inline uint8_t mt_av_port(const void *av) { return (mt_get32(av, MT_AV_PORT_PD) >> 24) & 3; }
static inline uint32_t mt_av_pd(const void *av) { return mt_get32(av, MT_AV_PORT_PD) & 0xffffff; }
/** HCA-wide GID index: (port - 1) * 2^log_max_gid + gid_index, 6 bits. */
static inline uint8_t mt_av_mgid_index(const void *av) { return mt_get8(av, MT_AV_GID_INDEX) & 0x3f; }
/** rgid[31:0]: with G clear it must be 0x2 (Linux mthca_create_ah, "Arbel workaround"). */
static inline uint32_t mt_av_rgid_low(const void *av) { return mt_get32(av, MT_AV_DGID + 12); }
#define MT_AV_RGID_NO_GRH		2u
static inline bool mt_av_grh(const void *av) { return (mt_get8(av, MT_AV_G_SLID) & 0x80) != 0; }
static inline uint8_t mt_av_path_bits(const void *av) { return mt_get8(av, MT_AV_G_SLID) & 0x7f; }
static inline uint16_t mt_av_dlid(const void *av) { return mt_get16(av, MT_AV_DLID); }
static inline uint8_t mt_av_hop_limit(const void *av) { return mt_get8(av, MT_AV_HOP_LIMIT); }
static inline uint8_t mt_av_sl(const void *av) { return mt_get32(av, MT_AV_SL_TC_FL) >> 28; }
static inline uint8_t mt_av_tclass(const void *av) { return (mt_get32(av, MT_AV_SL_TC_FL) >> 20) & 0xff; }
static inline uint32_t mt_av_flow_label(const void *av) { return mt_get32(av, MT_AV_SL_TC_FL) & 0xfffff; }
static inline uint32_t mt_ud_dqpn(const void *ud) { return mt_get32(ud, MT_UD_DQPN) & 0xffffff; }
static inline uint32_t mt_ud_qkey(const void *ud) { return mt_get32(ud, MT_UD_QKEY); }
/** IBA 10.2.4: a Q_Key with bit 31 set means "the sending QP's own Q_Key". */
#define MT_QKEY_USE_QP			(1u << 31)

/* Data segment (struct mthca_data_seg) and inline segment (rdma-core struct mthca_inline_seg) */
#define MT_DSEG_SIZE			16
#define MT_DSEG_BYTE_COUNT		0x00
#define MT_DSEG_LKEY			0x04
#define MT_DSEG_ADDR			0x08
#define MT_DSEG_INLINE			(1u << 31)
static inline uint32_t mt_dseg_count(const void *s) { return mt_get32(s, MT_DSEG_BYTE_COUNT); }
static inline uint32_t mt_dseg_lkey(const void *s) { return mt_get32(s, MT_DSEG_LKEY); }
static inline uint64_t mt_dseg_addr(const void *s) { return mt_get64(s, MT_DSEG_ADDR); }

/* ------------------------------------------------------------------ */
/* CQE (struct mthca_cqe, struct mthca_err_cqe), 32 bytes                                        */

#define MT_CQE_SIZE			32
#define MT_CQE_MY_QPN			0x00
#define MT_CQE_RQPN			0x08
#define MT_CQE_SL_IPOK			0x0c	/**< [7:4] SL */
#define MT_CQE_G_MLPATH			0x0d	/**< [7] GRH, [6:0] DLID path bits */
#define MT_CQE_RLID			0x0e
#define MT_CQE_IMM_PKEY			0x10	/**< [31:16] P_Key index, or the immediate */
#define MT_CQE_SYNDROME			0x10
#define MT_CQE_VENDOR_ERR		0x11
#define MT_CQE_BYTE_CNT			0x14
#define MT_CQE_WQE			0x18
#define MT_CQE_OPCODE			0x1c
#define MT_CQE_IS_SEND			0x1d	/**< [7] send completion */
#define MT_CQE_OWNER			0x1f	/**< [7] HW owns */
#define MT_CQE_OWNER_HW			0x80
#define MT_CQE_OP_ERR_RECV		0xfe
#define MT_CQE_OP_ERR_SEND		0xff

/** Syndromes of error CQEs (handle_error_cqe()). */
enum mt_syndrome {
	MT_SYND_LOCAL_LENGTH = 0x01,
	MT_SYND_LOCAL_QP_OP = 0x02,
	MT_SYND_LOCAL_PROT = 0x04,
	MT_SYND_WR_FLUSH = 0x05,
	MT_SYND_LOCAL_ACCESS = 0x11,
};
/** vendor_err values of the model (implementation-defined, struct mthca_err_cqe). */
#define MT_VENDOR_ERR_NONE		0x00
#define MT_VENDOR_ERR_DMA_FAULT		0xd1	/**< data DMA outside every IOMMU window */

static inline void mt_cqe_set_qpn(void *e, uint32_t v) { mt_put32(e, MT_CQE_MY_QPN, v & 0xffffff); }
static inline void mt_cqe_set_rqpn(void *e, uint32_t v) { mt_put32(e, MT_CQE_RQPN, v & 0xffffff); }
static inline void mt_cqe_set_sl(void *e, uint8_t sl) { mt_put8(e, MT_CQE_SL_IPOK, (uint8_t)(sl << 4)); }
static inline void mt_cqe_set_g_path(void *e, bool grh, uint8_t bits)
{
	mt_put8(e, MT_CQE_G_MLPATH, (uint8_t)((grh ? 0x80 : 0) | (bits & 0x7f)));
}
static inline void mt_cqe_set_rlid(void *e, uint16_t v) { mt_put16(e, MT_CQE_RLID, v); }
static inline void mt_cqe_set_pkey_index(void *e, uint16_t ix) { mt_put32(e, MT_CQE_IMM_PKEY, (uint32_t)ix << 16); }
static inline void mt_cqe_set_imm(void *e, uint32_t imm) { mt_put32(e, MT_CQE_IMM_PKEY, imm); }
static inline void mt_cqe_set_byte_cnt(void *e, uint32_t v) { mt_put32(e, MT_CQE_BYTE_CNT, v); }
static inline void mt_cqe_set_wqe(void *e, uint32_t v) { mt_put32(e, MT_CQE_WQE, v); }
static inline void mt_cqe_set_opcode(void *e, uint8_t op, bool is_send)
{
	mt_put8(e, MT_CQE_OPCODE, op);
	mt_put8(e, MT_CQE_IS_SEND, is_send ? 0x80 : 0);
}
static inline void mt_cqe_set_error(void *e, uint8_t synd, uint8_t vendor, bool is_send)
{
	mt_put8(e, MT_CQE_SYNDROME, synd);
	mt_put8(e, MT_CQE_VENDOR_ERR, vendor);
	mt_put8(e, MT_CQE_OPCODE, is_send ? MT_CQE_OP_ERR_SEND : MT_CQE_OP_ERR_RECV);
}

/* CQ_ERROR event syndromes (mthca_eq_int(); 2 is the model's access-violation value) */
#define MT_CQ_ERR_OVERRUN		1
#define MT_CQ_ERR_ACCESS		2
#define MT_EQE_CQ_SYNDROME		0x0f	/**< offset in the EQE */

/* ------------------------------------------------------------------ */
/* The model's private EQPC layout (firmware-defined; Linux only maps it)     */

#define MT_EQPC_SQ_DONE			0x00	/**< BE32: SQ WQEs executed (16-bit counter) */
#define MT_EQPC_RQ_DONE			0x04	/**< BE32: RQ WQEs consumed */
#define MT_EQPC_FLAGS			0x08	/**< BE32: reserved */
#define MT_EQPC_SQ_TARGET		0x0c	/**< BE32: SQ WQEs the doorbells named (16-bit) */
#define MT_EQPC_LOGGED			0x10	/**< BE32: checks logged on this QP (bit per check) */

#endif /* _IBFABRIC_MT25208_HW_H_ */
