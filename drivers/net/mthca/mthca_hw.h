/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * Every hardware fact net_mthca uses: PCI IDs, the BAR0 command register
 * (HCR), firmware opcodes and statuses, mailbox and context layouts, ICM,
 * MPT/MTT, EQE, CQE, QP context, WQE segments, UAR doorbells and doorbell
 * records of the InfiniHost III Ex (MT25208 "Arbel") in mem-free mode.
 *
 * Sources (facts only, no code): Linux drivers/infiniband/hw/mthca/
 * (mthca_cmd.c, mthca_main.c, mthca_eq.c, mthca_cq.c, mthca_qp.c,
 * mthca_mr.c, mthca_memfree.c, mthca_wqe.h, mthca_doorbell.h, mthca_av.c,
 * mthca_mad.c), rdma-core providers/mthca/ (qp.c, cq.c, wqe.h), and
 * Mellanox's PRM layouts as published in iPXE's MT25218_PRM.h
 * (arbelprm_*_st), which win where they differ from what Linux writes.
 * The project's own record of the interface and of the driver rules is
 * doc/guides/nics/mthca_hw.rst.
 *
 * Written independently of the device model's header: the two must only
 * agree through the hardware interface.
 *
 * Everything the HCA reads or writes in host memory is big-endian; fields
 * are reached only through the accessors in this file, which swap.
 */

#ifndef _MTHCA_HW_H_
#define _MTHCA_HW_H_

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_io.h>

/* ---- big-endian field accessors ---------------------------------------- */

static inline uint8_t
mthca_get8(const void *b, unsigned int off)
{
	return ((const uint8_t *)b)[off];
}

static inline uint16_t
mthca_get16(const void *b, unsigned int off)
{
	uint16_t v;

	memcpy(&v, (const uint8_t *)b + off, sizeof(v));
	return rte_be_to_cpu_16(v);
}

static inline uint32_t
mthca_get32(const void *b, unsigned int off)
{
	uint32_t v;

	memcpy(&v, (const uint8_t *)b + off, sizeof(v));
	return rte_be_to_cpu_32(v);
}

static inline uint64_t
mthca_get64(const void *b, unsigned int off)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)b + off, sizeof(v));
	return rte_be_to_cpu_64(v);
}

static inline void
mthca_put8(void *b, unsigned int off, uint8_t v)
{
	((uint8_t *)b)[off] = v;
}

static inline void
mthca_put16(void *b, unsigned int off, uint16_t v)
{
	v = rte_cpu_to_be_16(v);
	memcpy((uint8_t *)b + off, &v, sizeof(v));
}

static inline void
mthca_put32(void *b, unsigned int off, uint32_t v)
{
	v = rte_cpu_to_be_32(v);
	memcpy((uint8_t *)b + off, &v, sizeof(v));
}

static inline void
mthca_put64(void *b, unsigned int off, uint64_t v)
{
	v = rte_cpu_to_be_64(v);
	memcpy((uint8_t *)b + off, &v, sizeof(v));
}

/* ---- MMIO: 32-bit big-endian registers, 64-bit doorbells ---------------- */

/** One 32-bit big-endian register write (barrier before, rte_write32). */
static inline void
mthca_mmio_write32(volatile void *addr, uint32_t v)
{
	rte_write32(rte_cpu_to_be_32(v), addr);
}

static inline uint32_t
mthca_mmio_read32(const volatile void *addr)
{
	return rte_be_to_cpu_32(rte_read32(addr));
}

/**
 * A doorbell: one 64-bit store of the big-endian image, high word first
 * in memory (Linux mthca_write64; rdma-core mmio_write64_be). The caller
 * orders descriptor and record stores before it (rte_io_wmb()).
 */
static inline void
mthca_doorbell64(volatile void *addr, uint32_t hi, uint32_t lo)
{
	rte_write64_relaxed(rte_cpu_to_be_64(((uint64_t)hi << 32) | lo), addr);
}

/* ---- PCI identity (Linux mthca_main.c mthca_pci_table) ----------------- */

#define MTHCA_VENDOR_MELLANOX		0x15b3
#define MTHCA_VENDOR_TOPSPIN		0x1867
#define MTHCA_DEV_TAVOR			0x5a44	/**< MT23108 InfiniHost */
#define MTHCA_DEV_ARBEL_COMPAT		0x6278	/**< MT25208 in MT23108 compatibility mode */
#define MTHCA_DEV_ARBEL			0x6282	/**< MT25208 InfiniHost III Ex, native */
#define MTHCA_DEV_SINAI			0x6274	/**< MT25204 InfiniHost III Lx */
#define MTHCA_DEV_SINAI_OLD		0x5e8c	/**< MT25204, older device ID */

/** BAR0 must be exactly 1 MiB (Linux __mthca_init_one: "Missing DCS"). */
#define MTHCA_BAR0_SIZE			(1u << 20)
#define MTHCA_BAR_HCR			0	/**< BAR index of the registers */
#define MTHCA_BAR_UAR			2	/**< BAR index of the UAR pages */

/* ---- BAR0: HCR (Linux mthca_cmd.c, mthca_config_reg.h) ------------------ */

#define MTHCA_HCR_BASE			0x80680
#define MTHCA_HCR_IN_PARAM_HI		0x00
#define MTHCA_HCR_IN_PARAM_LO		0x04
#define MTHCA_HCR_IN_MOD		0x08
#define MTHCA_HCR_OUT_PARAM_HI		0x0c
#define MTHCA_HCR_OUT_PARAM_LO		0x10
#define MTHCA_HCR_TOKEN			0x14	/**< token in bits 31..16 */
#define MTHCA_HCR_CMD			0x18	/**< go/event/opmod/opcode; status on completion */
#define MTHCA_HCR_GO			(1u << 23)
#define MTHCA_HCR_E			(1u << 22)
#define MTHCA_HCR_OPMOD_SHIFT		12
#define MTHCA_HCR_STATUS_SHIFT		24
#define MTHCA_HCR_POLL_TOKEN		0xffff
/** Reset register: BE32 1 resets the HCA (Linux mthca_reset). */
#define MTHCA_RESET_OFFSET		0xf0010
#define MTHCA_RESET_VALUE		1u

/* ---- firmware opcodes (Linux mthca_cmd.c) ------------------------------- */

#define MTHCA_CMD_QUERY_DEV_LIM		0x003
#define MTHCA_CMD_QUERY_FW		0x004
#define MTHCA_CMD_QUERY_ADAPTER		0x006
#define MTHCA_CMD_INIT_HCA		0x007
#define MTHCA_CMD_CLOSE_HCA		0x008
#define MTHCA_CMD_INIT_IB		0x009
#define MTHCA_CMD_CLOSE_IB		0x00a
#define MTHCA_CMD_SET_IB		0x00c
#define MTHCA_CMD_SW2HW_MPT		0x00d
#define MTHCA_CMD_HW2SW_MPT		0x00f
#define MTHCA_CMD_WRITE_MTT		0x011
#define MTHCA_CMD_MAP_EQ		0x012
#define MTHCA_CMD_SW2HW_EQ		0x013
#define MTHCA_CMD_HW2SW_EQ		0x014
#define MTHCA_CMD_SW2HW_CQ		0x016
#define MTHCA_CMD_HW2SW_CQ		0x017
#define MTHCA_CMD_RST2INIT_QP		0x019
#define MTHCA_CMD_INIT2RTR_QP		0x01a
#define MTHCA_CMD_RTR2RTS_QP		0x01b
#define MTHCA_CMD_RTS2RTS_QP		0x01c	/**< Linux CMD_RTS2RTS_QPEE */
#define MTHCA_CMD_2ERR_QP		0x01e
#define MTHCA_CMD_2RST_QP		0x021	/**< ERR2RST: any state to RESET */
#define MTHCA_CMD_CONF_SPECIAL_QP	0x023
#define MTHCA_CMD_MAD_IFC		0x024
#define MTHCA_CMD_READ_MGM		0x025
#define MTHCA_CMD_WRITE_MGM		0x026
#define MTHCA_CMD_MGID_HASH		0x027
#define MTHCA_CMD_NOP			0x031
#define MTHCA_CMD_RUN_FW		0xff6
#define MTHCA_CMD_ENABLE_LAM		0xff8
#define MTHCA_CMD_UNMAP_ICM		0xff9
#define MTHCA_CMD_MAP_ICM		0xffa
#define MTHCA_CMD_UNMAP_ICM_AUX		0xffb
#define MTHCA_CMD_MAP_ICM_AUX		0xffc
#define MTHCA_CMD_SET_ICM_SIZE		0xffd
#define MTHCA_CMD_UNMAP_FA		0xffe
#define MTHCA_CMD_MAP_FA		0xfff

/* statuses (Linux mthca_cmd.h) */
#define MTHCA_ST_OK			0x00
#define MTHCA_ST_INTERNAL_ERR		0x01
#define MTHCA_ST_BAD_OP			0x02
#define MTHCA_ST_BAD_PARAM		0x03
#define MTHCA_ST_BAD_SYS_STATE		0x04
#define MTHCA_ST_BAD_RESOURCE		0x05
#define MTHCA_ST_RESOURCE_BUSY		0x06
#define MTHCA_ST_EXCEED_LIM		0x08
#define MTHCA_ST_BAD_RES_STATE		0x09
#define MTHCA_ST_BAD_INDEX		0x0a
#define MTHCA_ST_BAD_QPEE_STATE		0x10
#define MTHCA_ST_LAM_NOT_PRE		0x22	/**< ENABLE_LAM on a mem-free HCA */
#define MTHCA_ST_BAD_PKT		0x30	/**< MAD_IFC: drop the MAD */

#define MTHCA_MAILBOX_SIZE		4096

/* ---- QUERY_FW output (Linux mthca_QUERY_FW) ----------------------------- */

#define MTHCA_QFW_FW_PAGES		0x00	/**< 16 bits: FW area, 4 KiB pages */
#define MTHCA_QFW_VER			0x00	/**< 64 bits; bits 47..0 the version */
#define MTHCA_QFW_LOG_MAX_CMDS		0x0f
#define MTHCA_QFW_CLR_INT_BASE		0x20
#define MTHCA_QFW_CATAS_BASE		0x30
#define MTHCA_QFW_CATAS_SIZE		0x38
#define MTHCA_QFW_EQ_ARM_BASE		0x40
#define MTHCA_QFW_EQ_SET_CI_BASE	0x48

/** Firmware version fields: major 47..32, subminor 31..16, minor 15..0. */
static inline void
mthca_fw_ver_split(uint64_t raw, unsigned int *maj, unsigned int *min, unsigned int *sub)
{
	*maj = (unsigned int)(raw >> 32) & 0xffff;
	*sub = (unsigned int)(raw >> 16) & 0xffff;
	*min = (unsigned int)raw & 0xffff;
}

/* ---- QUERY_DEV_LIM output (Linux mthca_QUERY_DEV_LIM) ------------------- */

#define MTHCA_QDL_LOG_MAX_QP_SZ		0x11
#define MTHCA_QDL_RSVD_QP		0x12	/* & 0x0f, log */
#define MTHCA_QDL_LOG_MAX_QP		0x13	/* & 0x1f */
#define MTHCA_QDL_LOG_MAX_CQ_SZ		0x19
#define MTHCA_QDL_RSVD_CQ		0x1a	/* & 0x0f, log */
#define MTHCA_QDL_LOG_MAX_CQ		0x1b	/* & 0x1f */
#define MTHCA_QDL_LOG_MAX_MPT		0x1d	/* & 0x3f */
#define MTHCA_QDL_RSVD_EQ		0x1e	/* & 0x0f, log */
#define MTHCA_QDL_RSVD_MTT		0x20	/* >> 4, log of MTT entries */
#define MTHCA_QDL_RSVD_MRW		0x22	/* & 0x0f, log */
#define MTHCA_QDL_LOG_MAX_MTT_SEG	0x23	/* & 0x3f */
#define MTHCA_QDL_MTU_WIDTH		0x36	/* mtu cap 7..4, width cap 3..0 */
#define MTHCA_QDL_VL_PORTS		0x37	/* vl cap 7..4, ports 3..0 */
#define MTHCA_QDL_LOG_GID		0x3b	/* & 0x0f */
#define MTHCA_QDL_LOG_PKEY		0x3f	/* & 0x0f */
#define MTHCA_QDL_FLAGS			0x44
#define MTHCA_QDL_RSVD_UAR		0x48	/* >> 4, a number */
#define MTHCA_QDL_UAR_SZ		0x49	/* & 0x3f, log MiB */
#define MTHCA_QDL_MIN_PAGE		0x4b	/* log */
#define MTHCA_QDL_MAX_SG_SQ		0x51
#define MTHCA_QDL_MAX_DESC_SQ		0x52	/* 16 bits */
#define MTHCA_QDL_MAX_SG_RQ		0x55
#define MTHCA_QDL_MAX_DESC_RQ		0x56	/* 16 bits */
#define MTHCA_QDL_LOG_MAX_QP_MCG	0x61
#define MTHCA_QDL_RSVD_MGM		0x62	/* & 0x0f, a number */
#define MTHCA_QDL_LOG_MAX_MCG		0x63
#define MTHCA_QDL_RSVD_PD		0x64	/* >> 4, a number */
#define MTHCA_QDL_LOG_MAX_PD		0x65	/* & 0x3f */
#define MTHCA_QDL_EEC_SZ		0x80
#define MTHCA_QDL_QPC_SZ		0x82
#define MTHCA_QDL_EEEC_SZ		0x84
#define MTHCA_QDL_EQPC_SZ		0x86
#define MTHCA_QDL_EQC_SZ		0x88
#define MTHCA_QDL_CQC_SZ		0x8a
#define MTHCA_QDL_SRQC_SZ		0x8c
#define MTHCA_QDL_UAR_SCR_SZ		0x8e
#define MTHCA_QDL_MPT_SZ		0x92
#define MTHCA_QDL_MAX_ICM		0xa0	/* 64 bits */
#define MTHCA_DEV_LIM_FLAG_UD		(1u << 2)
#define MTHCA_DEV_LIM_FLAG_SRQ		(1u << 6)
#define MTHCA_DEV_LIM_FLAG_UD_MCAST	(1u << 21)

/* ---- QUERY_ADAPTER output ------------------------------------------------ */

#define MTHCA_QAD_INTA_PIN		0x10
#define MTHCA_QAD_VSD			0x20
#define MTHCA_QAD_BOARD_ID		0xf0	/**< 16 bytes, byte-reversed per 4 */
#define MTHCA_QAD_BOARD_ID_LEN		16

/* ---- page lists: MAP_FA, MAP_ICM_AUX, MAP_ICM (Linux mthca_map_cmd) ---- */

#define MTHCA_MAP_ENTRY_SIZE		16	/**< +0 ICM VA (MAP_ICM), +8 bus | log2(size)-12 */
#define MTHCA_MAP_MAX_ENTRIES		(MTHCA_MAILBOX_SIZE / MTHCA_MAP_ENTRY_SIZE)
#define MTHCA_ICM_PAGE_SIZE		4096u
/** UNMAP_ICM size in pages of one 256 KiB table chunk (Linux mthca_table_put). */
#define MTHCA_ICM_CHUNK_PAGES		64

/* ---- INIT_HCA input (Linux mthca_INIT_HCA; 0x200 bytes zeroed) ---------- */

#define MTHCA_IHCA_SIZE			0x200
#define MTHCA_IHCA_FLAGS2		0x014	/**< bit 0: check port of UD AVs */
#define MTHCA_IHCA_FLAGS2_UD_PORT_CHECK	(1u << 0)
#define MTHCA_IHCA_QPC_BASE		0x030
#define MTHCA_IHCA_LOG_QP		0x037	/**< overlays the base's low byte */
#define MTHCA_IHCA_EEC_BASE		0x040
#define MTHCA_IHCA_LOG_EEC		0x047
#define MTHCA_IHCA_SRQC_BASE		0x048
#define MTHCA_IHCA_LOG_SRQ		0x04f
#define MTHCA_IHCA_CQC_BASE		0x050
#define MTHCA_IHCA_LOG_CQ		0x057
#define MTHCA_IHCA_EQPC_BASE		0x060
#define MTHCA_IHCA_EEEC_BASE		0x070
#define MTHCA_IHCA_EQC_BASE		0x080
#define MTHCA_IHCA_LOG_EQ		0x087
#define MTHCA_IHCA_RDB_BASE		0x090
#define MTHCA_IHCA_MC_BASE		0x0c0
#define MTHCA_IHCA_LOG_MC_ENTRY		0x0d2	/* 16 bits */
#define MTHCA_IHCA_MC_HASH_SZ		0x0d6	/* 16 bits */
#define MTHCA_IHCA_LOG_MC_TABLE		0x0db
#define MTHCA_IHCA_MPT_BASE		0x0f0
#define MTHCA_IHCA_LOG_MPT		0x0fb
#define MTHCA_IHCA_MTT_BASE		0x100
#define MTHCA_IHCA_LOG_UARC		0x129
#define MTHCA_IHCA_LOG_UAR		0x12a
#define MTHCA_IHCA_UAR_PAGE_SZ		0x12b
#define MTHCA_IHCA_UAR_SCR_BASE		0x130
#define MTHCA_IHCA_UARC_BASE		0x138

#define MTHCA_NUM_EQS			32	/**< EQ contexts in the profile */
#define MTHCA_LOG_NUM_EQS		5
#define MTHCA_RDB_ENTRY_SIZE		32
#define MTHCA_MGM_ENTRY_SIZE		256
#define MTHCA_LOG_MGM_ENTRY_SIZE	8
#define MTHCA_MTT_SEG_SIZE		64	/**< 8 MTT entries per segment */
#define MTHCA_MTT_ENTRY_SIZE		8
#define MTHCA_MTT_PRESENT		1ull
/** Doorbell-record area per UAR in ICM (Linux MTHCA_DEFAULT_NUM_UARC_SIZE). */
#define MTHCA_UARC_SIZE			(1u << 18)
#define MTHCA_UAR_PAGE_SIZE		4096u

/* ---- INIT_IB input (Linux mthca_INIT_IB; 56 bytes) ---------------------- */

#define MTHCA_IIB_SIZE			56
#define MTHCA_IIB_FLAGS			0x00	/* mtu 15..12, width 11..8, vl 7..4 */
#define MTHCA_IIB_MAX_GID		0x06
#define MTHCA_IIB_MAX_PKEY		0x0a

/* ---- SET_IB input (Linux mthca_SET_IB; 0x40 bytes) ---------------------- */

#define MTHCA_SIB_SIZE			0x40
#define MTHCA_SIB_FLAGS			0x00
#define MTHCA_SIB_CAP_MASK		0x04

/* ---- MAD_IFC (Linux mthca_MAD_IFC) --------------------------------------- */

#define MTHCA_MAD_SIZE			256
#define MTHCA_MIFC_EXT			0x100	/**< ext info: the receive completion */
#define MTHCA_MIFC_EXT_MY_QPN		0x100
#define MTHCA_MIFC_EXT_RQPN		0x108
#define MTHCA_MIFC_EXT_SL		0x10c	/* SL in 7..4 */
#define MTHCA_MIFC_EXT_G_PATH		0x10d	/* GRH bit 7, path bits 6..0 */
#define MTHCA_MIFC_EXT_RLID		0x10e
#define MTHCA_MIFC_EXT_PKEY_IX		0x112
#define MTHCA_MIFC_EXT_GRH		0x140
#define MTHCA_MIFC_IN_SIZE		0x200
#define MTHCA_MIFC_OPMOD_NO_MKEY	(1u << 0)
#define MTHCA_MIFC_OPMOD_NO_BKEY	(1u << 1)
#define MTHCA_MIFC_OPMOD_EXT		(1u << 2)

/* ---- MPT entry (Linux struct mthca_mpt_entry; 0x40 bytes) --------------- */

#define MTHCA_MPT_SIZE			0x40
#define MTHCA_MPT_FLAGS			0x00
#define MTHCA_MPT_PAGE_SZ		0x04	/**< log2(bytes per MTT entry) - 12 */
#define MTHCA_MPT_KEY			0x08
#define MTHCA_MPT_PD			0x0c
#define MTHCA_MPT_START			0x10
#define MTHCA_MPT_LEN			0x18
#define MTHCA_MPT_MTT_ADDR		0x2c	/* 64 bits at a 4-aligned offset */
#define MTHCA_MPT_F_SW_OWNS		(0xfu << 28)
#define MTHCA_MPT_F_MIO			(1u << 17)
#define MTHCA_MPT_F_LOCAL_WRITE		(1u << 11)
#define MTHCA_MPT_F_LOCAL_READ		(1u << 10)
#define MTHCA_MPT_F_PHYSICAL		(1u << 9)
#define MTHCA_MPT_F_REGION		(1u << 8)

/** L_Key of an MPT hw index (Linux arbel_hw_index_to_key: rotate left 8). */
static inline uint32_t
mthca_index_to_key(uint32_t ind)
{
	return (ind << 8) | (ind >> 24);
}

/** L_Key marking an unused receive scatter entry (Linux MTHCA_INVAL_LKEY). */
#define MTHCA_INVAL_LKEY		0x100

/* ---- EQ context (Linux struct mthca_eq_context; 0x40 bytes) ------------- */

#define MTHCA_EQC_SIZE			0x40
#define MTHCA_EQC_FLAGS			0x00
#define MTHCA_EQC_START			0x04	/* 64 bits */
#define MTHCA_EQC_LOGSIZE		0x0c	/* log2(nent) in 31..24 */
#define MTHCA_EQC_INTR			0x17
#define MTHCA_EQC_PD			0x18
#define MTHCA_EQC_LKEY			0x1c
/** Status OK, owner HW, TR, state armed, Arbel marker (Linux mthca_create_eq). */
#define MTHCA_EQC_FLAGS_INIT		0x01040900u
/** EQC intr byte naming MSI-X vector n (Linux uses 128 + n). */
#define MTHCA_EQC_INTR_MSIX(n)		(0x80u | (n))

/* EQE (Linux struct mthca_eqe; 32 bytes) */
#define MTHCA_EQE_SIZE			32
#define MTHCA_EQE_TYPE			0x01
#define MTHCA_EQE_SUBTYPE		0x03
#define MTHCA_EQE_DATA			0x04	/**< CQN / QPN in bits 23..0 */
#define MTHCA_EQE_PORT			0x0c	/**< port in bits 29..28 */
#define MTHCA_EQE_OWNER			0x1f
#define MTHCA_OWNER_HW			0x80

#define MTHCA_EVT_COMP			0x00
#define MTHCA_EVT_CQ_ERROR		0x04
#define MTHCA_EVT_WQ_CATAS		0x05
#define MTHCA_EVT_LOCAL_CATAS		0x08
#define MTHCA_EVT_PORT_CHANGE		0x09
#define MTHCA_EVT_CMD			0x0a
#define MTHCA_EVT_EQ_OVERFLOW		0x0f
#define MTHCA_EVT_WQ_INVAL_REQ		0x10
#define MTHCA_EVT_WQ_ACCESS		0x11
#define MTHCA_PORT_CHANGE_ACTIVE	0x04
/** Async events Linux maps (MTHCA_ASYNC_EVENT_MASK, no SRQ). */
#define MTHCA_ASYNC_EVENT_MASK		0x00000000000343feull
#define MTHCA_MAP_EQ_UNMAP		(1u << 31)

/* ---- CQ context (Linux struct mthca_cq_context; 0x40 bytes) ------------- */

#define MTHCA_CQC_SIZE			0x40
#define MTHCA_CQC_FLAGS			0x00
#define MTHCA_CQC_START			0x04
#define MTHCA_CQC_LOGSIZE_UAR		0x0c
#define MTHCA_CQC_ERR_EQN		0x10
#define MTHCA_CQC_COMP_EQN		0x14
#define MTHCA_CQC_PD			0x18
#define MTHCA_CQC_LKEY			0x1c
#define MTHCA_CQC_CQN			0x30
#define MTHCA_CQC_CI_DB			0x34
#define MTHCA_CQC_STATE_DB		0x38
/** Status OK, disarmed, TR (Linux mthca_init_cq). */
#define MTHCA_CQC_FLAGS_INIT		0x00040000u

/* ---- CQE (Linux struct mthca_cqe / mthca_err_cqe; 32 bytes) ------------- */

/** A successful CQE as the HCA writes it; all fields big-endian. */
struct mthca_cqe {
	rte_be32_t my_qpn;	/**< [23:0] QPN */
	rte_be32_t my_ee;
	rte_be32_t rqpn;	/**< [23:0] source QPN */
	uint8_t sl_ipok;	/**< [7:4] SL */
	uint8_t g_mlpath;	/**< [7] GRH, [6:0] DLID path bits */
	rte_be16_t rlid;	/**< source LID */
	rte_be32_t imm_pkey;	/**< [31:16] P_Key index */
	rte_be32_t byte_cnt;	/**< UD receive: 40 (GRH area) + payload */
	rte_be32_t wqe;		/**< address (low 32 bits) of the WQE */
	uint8_t opcode;		/**< 0xfe / 0xff: error CQE */
	uint8_t is_send;	/**< [7] send completion */
	uint8_t reserved;
	uint8_t owner;		/**< [7] 1 = hardware owns */
};
#define MTHCA_CQE_SIZE			32
#define MTHCA_CQE_ERR_OPCODE_MASK	0xfe
#define MTHCA_CQE_SYNDROME		0x10	/**< byte, error CQE */
#define MTHCA_CQE_VENDOR_ERR		0x11
/* error CQE syndromes a UD send can get (Linux mthca_cq.c, enum MTHCA_ERROR_CQE_SYNDROME_*) */
#define MTHCA_SYND_LOCAL_LENGTH		0x01
#define MTHCA_SYND_LOCAL_QP_OP		0x02
#define MTHCA_SYND_LOCAL_PROT		0x04
#define MTHCA_SYND_WR_FLUSH		0x05
#define MTHCA_SYND_LOCAL_ACCESS		0x11

static inline uint8_t
mthca_cqe_syndrome(const struct mthca_cqe *c)
{
	return mthca_get8(c, MTHCA_CQE_SYNDROME);
}

/**
 * The CQE is the software's (owner bit clear). A relaxed load: the caller
 * orders the body after it with a read barrier (rte_io_rmb()).
 */
static __rte_always_inline bool
mthca_cqe_sw_owned(const struct mthca_cqe *c)
{
	return !(__atomic_load_n(&c->owner, __ATOMIC_RELAXED) & MTHCA_OWNER_HW);
}

/** Hand the CQE back to the HCA (owner bit set, Linux set_cqe_hw). */
static __rte_always_inline void
mthca_cqe_set_hw(struct mthca_cqe *c)
{
	c->owner = MTHCA_OWNER_HW;
}

/** An error CQE (opcode 0xfe receive, 0xff send; Linux MTHCA_ERROR_CQE_OPCODE_MASK). */
static __rte_always_inline bool
mthca_cqe_is_error(const struct mthca_cqe *c)
{
	return (c->opcode & MTHCA_CQE_ERR_OPCODE_MASK) == MTHCA_CQE_ERR_OPCODE_MASK;
}

/** A send completion (is_send [7]; an error CQE of a send has opcode 0xff). */
static inline bool
mthca_cqe_is_send(const struct mthca_cqe *c)
{
	return (c->is_send & 0x80) != 0 || c->opcode == 0xff;
}

/** The QP the completion is of, 24 bits. */
static inline uint32_t
mthca_cqe_qpn(const struct mthca_cqe *c)
{
	return rte_be_to_cpu_32(c->my_qpn) & 0xffffff;
}

/** The low 32 bits of the completed WQE's address. */
static inline uint32_t
mthca_cqe_wqe(const struct mthca_cqe *c)
{
	return rte_be_to_cpu_32(c->wqe);
}

/** UD receive: the source QPN (DETH), 24 bits. */
static inline uint32_t
mthca_cqe_src_qpn(const struct mthca_cqe *c)
{
	return rte_be_to_cpu_32(c->rqpn) & 0xffffff;
}

/** UD receive: the source LID. */
static inline uint16_t
mthca_cqe_slid(const struct mthca_cqe *c)
{
	return rte_be_to_cpu_16(c->rlid);
}

/** UD receive: the P_Key index the packet matched. */
static inline uint16_t
mthca_cqe_pkey_index(const struct mthca_cqe *c)
{
	return (uint16_t)(rte_be_to_cpu_32(c->imm_pkey) >> 16);
}

/** UD receive: the SL. */
static inline uint8_t
mthca_cqe_sl(const struct mthca_cqe *c)
{
	return c->sl_ipok >> 4;
}

/** UD receive: the DLID path bits. */
static inline uint8_t
mthca_cqe_path_bits(const struct mthca_cqe *c)
{
	return c->g_mlpath & 0x7f;
}

/** UD receive: a GRH came (it is in the first 40 bytes of the scatter list). */
static inline bool
mthca_cqe_has_grh(const struct mthca_cqe *c)
{
	return (c->g_mlpath & 0x80) != 0;
}

/* ---- QP modify mailbox (Linux struct mthca_qp_param; 0x200 bytes) ------- */

#define MTHCA_QPM_SIZE			0x200
#define MTHCA_QPM_OPTMASK		0x000
#define MTHCA_QPM_FLAGS			0x008	/* state 31..28, ST 23..16, PM 12..11, DE 8 */
#define MTHCA_QPM_MTU_MSGMAX		0x010
#define MTHCA_QPM_RQ_SIZE_STRIDE	0x011
#define MTHCA_QPM_SQ_SIZE_STRIDE	0x012
#define MTHCA_QPM_USR_PAGE		0x014
#define MTHCA_QPM_LOCAL_QPN		0x018
#define MTHCA_QPM_PRI_PATH		0x028	/**< port 25..24, P_Key index 6..0 */
#define MTHCA_QPM_PD			0x06c
#define MTHCA_QPM_WQE_BASE		0x070	/**< bits 63..32 of WQE addresses (PRM) */
#define MTHCA_QPM_WQE_LKEY		0x074
#define MTHCA_QPM_PARAMS1		0x078
#define MTHCA_QPM_NEXT_SEND_PSN		0x080
#define MTHCA_QPM_CQN_SND		0x084
#define MTHCA_QPM_SND_WQE_BASE		0x088
#define MTHCA_QPM_SND_DB_INDEX		0x08c
#define MTHCA_QPM_PARAMS2		0x098
#define MTHCA_QPM_RA_BUFF		0x0a0
#define MTHCA_QPM_CQN_RCV		0x0a4
#define MTHCA_QPM_RCV_WQE_BASE		0x0a8
#define MTHCA_QPM_RCV_DB_INDEX		0x0ac
#define MTHCA_QPM_QKEY			0x0b0

#define MTHCA_QPS_RESET			0
#define MTHCA_QPS_INIT			1
#define MTHCA_QPS_RTR			2
#define MTHCA_QPS_RTS			3
#define MTHCA_QPST_UD			3
#define MTHCA_QPST_MLX			7
#define MTHCA_QP_PM_MIGRATED		3
#define MTHCA_QP_FLAG_DE		(1u << 8)
/** Path MTU 2048 (IB enum 4) and max message 2^11: UD and MLX QPs. */
#define MTHCA_QP_MTU_MSGMAX_UD		((4u << 5) | 11)
#define MTHCA_QP_OPTPAR_PKEY_INDEX	(1u << 4)
#define MTHCA_QP_OPTPAR_Q_KEY		(1u << 5)
#define MTHCA_QP_OPTPAR_PORT_NUM	(1u << 11)
/** ACK req freq 10, flight limit 9, SWE (Linux __mthca_modify_qp). */
#define MTHCA_QP_PARAMS1_DEFAULT	((10u << 28) | (9u << 24) | (1u << 14))
#define MTHCA_QP_PARAMS1_SSC		(1u << 3)
#define MTHCA_QP_PARAMS2_RSC		(1u << 3)

static inline uint32_t
mthca_qpm_flags(uint32_t state, uint32_t st)
{
	return (state << 28) | (st << 16) | (MTHCA_QP_PM_MIGRATED << 11) | MTHCA_QP_FLAG_DE;
}

/* ---- WQE segments (Linux mthca_wqe.h, rdma-core wqe.h, PRM) -------------- */

/** Next/control segment, first 16 bytes of every WQE. */
struct mthca_next_seg {
	rte_be32_t nda_op;	/**< [31:6] next WQE address low bits, [4:0] its opcode */
	rte_be32_t ee_nds;	/**< [7] DBD, [6] fence, [5:0] next WQE size (16 B units) */
	rte_be32_t flags;	/**< [3] C, [1] S, [0] always 1 (PRM) */
	rte_be32_t imm;
};

/** Data (gather/scatter) segment, 16 bytes. */
struct mthca_data_seg {
	rte_be32_t byte_count;	/**< [31] 0 = pointer */
	rte_be32_t lkey;
	rte_be64_t addr;
};

/** Mem-free UD segment: the 32-byte address vector by value, then DQPN, Q_Key. */
struct mthca_ud_seg {
	uint8_t av[32];
	rte_be32_t dqpn;
	rte_be32_t qkey;
	rte_be32_t reserved[2];
};

/** MLX segment (QP0/QP1), replaces flags/imm of the next segment. */
struct mthca_mlx_seg {
	rte_be32_t nda_op;
	rte_be32_t ee_nds;
	rte_be32_t flags;	/**< [17] VL15, [16] SLR, [11:8] SL, [3] C */
	rte_be16_t rlid;	/**< must equal the LRH DLID (PRM ctrl_mlx) */
	rte_be16_t vcrc;	/**< 0: the HCA computes it */
};

#define MTHCA_NEXT_DBD			(1u << 7)
/** ee_nds [5:0]: the next WQE's size in 16-byte units. */
#define MTHCA_NEXT_SIZE_MASK		0x3fu
#define MTHCA_NEXT_CQ_UPDATE		(1u << 3)
#define MTHCA_NEXT_SOLICIT		(1u << 1)
#define MTHCA_NEXT_ALWAYS1		(1u << 0)	/**< PRM: ctrl segment bit 0 is 1 */
#define MTHCA_MLX_VL15			(1u << 17)
#define MTHCA_MLX_SLR			(1u << 16)
#define MTHCA_INLINE_SEG		(1u << 31)
#define MTHCA_OPCODE_SEND		0x0a
/** WQEs one send doorbell may name (Linux MTHCA_ARBEL_MAX_WQES_PER_SEND_DB). */
#define MTHCA_MAX_WQES_PER_DB		255
/** Bytes of the receive scatter list taken by the GRH slot of a UD datagram. */
#define MTHCA_GRH_SIZE			40

static inline void
mthca_dseg_set(struct mthca_data_seg *d, uint32_t len, uint32_t lkey, uint64_t addr)
{
	d->byte_count = rte_cpu_to_be_32(len);
	d->lkey = rte_cpu_to_be_32(lkey);
	d->addr = rte_cpu_to_be_64(addr);
}

static inline void
mthca_next_set_op(struct mthca_next_seg *n, uint32_t next_addr_lo, uint32_t op)
{
	n->nda_op = rte_cpu_to_be_32(next_addr_lo | op);
}

static inline void
mthca_next_set_nds(struct mthca_next_seg *n, uint32_t size16)
{
	n->ee_nds = rte_cpu_to_be_32(MTHCA_NEXT_DBD | size16);
}

/** The next WQE's size in 16-byte units, as mthca_next_set_nds() wrote it. */
static inline uint32_t
mthca_next_size(const struct mthca_next_seg *n)
{
	return rte_be_to_cpu_32(n->ee_nds) & MTHCA_NEXT_SIZE_MASK;
}

static inline void
mthca_next_set_flags(struct mthca_next_seg *n, uint32_t flags)
{
	n->flags = rte_cpu_to_be_32(flags);
}

/** MLX control fields: flags (MTHCA_MLX_*, SL, C), the LRH DLID; VCRC by the HCA. */
static inline void
mthca_mlx_seg_set(struct mthca_mlx_seg *w, uint32_t flags, uint16_t rlid)
{
	w->flags = rte_cpu_to_be_32(flags);
	w->rlid = rte_cpu_to_be_16(rlid);
	w->vcrc = 0;
}

/**
 * An inline segment of @p len bytes, all zero, in place of a data segment:
 * with len 4 after an MLX WQE's headers and payload, the ICRC slot the HCA
 * fills (Linux mthca_arbel_post_send, MLX: "data seg" of 4 inline bytes).
 */
static inline void
mthca_dseg_set_inline_zero(struct mthca_data_seg *d, uint32_t len)
{
	d->byte_count = rte_cpu_to_be_32(MTHCA_INLINE_SEG | len);
	d->lkey = 0;
}

static inline void
mthca_ud_seg_set(struct mthca_ud_seg *u, const uint8_t *av, uint32_t dqpn, uint32_t qkey)
{
	memcpy(u->av, av, sizeof(u->av));
	u->dqpn = rte_cpu_to_be_32(dqpn & 0xffffff);
	u->qkey = rte_cpu_to_be_32(qkey);
	u->reserved[0] = 0;
	u->reserved[1] = 0;
}

/* ---- UD address vector, mem-free (Linux mthca_create_ah, PRM) ------------ */

#define MTHCA_AV_SIZE			32
#define MTHCA_AV_PORT_PD		0x00	/* port 31..24, PD 23..0 */
#define MTHCA_AV_G_SLID			0x05	/* GRH 7, path bits 6..0 */
#define MTHCA_AV_DLID			0x06
#define MTHCA_AV_GID_INDEX		0x09
#define MTHCA_AV_MSG_SR			0x0a	/* msg size code 7..4 (3 = 2 KiB), rate 3..0 */
#define MTHCA_AV_HOP_LIMIT		0x0b
#define MTHCA_AV_SL_TC_FL		0x0c	/* SL 31..28, TClass 27..20, flow 19..0 */
#define MTHCA_AV_DGID			0x10
/** rgid[31:0] without a GRH (PRM; Linux mthca_create_ah "Arbel workaround"). */
#define MTHCA_AV_RGID_NO_GRH		2u

/* ---- UAR doorbells (Linux mthca_doorbell.h, mthca_qp.c, mthca_cq.c) ------ */

#define MTHCA_UAR_SEND_DB		0x10
#define MTHCA_UAR_CQ_DB			0x20

/** Send doorbell high word: count, start counter, fence, first opcode. */
static inline uint32_t
mthca_send_db_hi(uint32_t nreq, uint32_t start, uint32_t op)
{
	return (nreq << 24) | ((start & 0xffff) << 8) | op;
}

/** Send doorbell low word: QPN, size of the first WQE. */
static inline uint32_t
mthca_send_db_lo(uint32_t qpn, uint32_t size16)
{
	return (qpn << 8) | size16;
}

#define MTHCA_CQ_DB_REQ_NOT_SOL		1u
#define MTHCA_CQ_DB_REQ_NOT		2u

/** CQ doorbell high word: arm sequence number, command, CQN (Linux mthca_arbel_arm_cq). */
static inline uint32_t
mthca_cq_db_hi(uint32_t sn, uint32_t cmd, uint32_t cqn)
{
	return ((sn & 3) << 28) | (cmd << 24) | cqn;
}

/* doorbell records (Linux mthca_memfree.h) */
#define MTHCA_DBR_SIZE			8
#define MTHCA_DBR_PER_PAGE		(4096 / MTHCA_DBR_SIZE)
#define MTHCA_DBR_CQ_SET_CI		1u
#define MTHCA_DBR_CQ_ARM		2u
#define MTHCA_DBR_SQ			3u
#define MTHCA_DBR_RQ			4u

static inline uint32_t
mthca_dbr_identity(uint32_t qn, uint32_t type)
{
	return (qn << 8) | (type << 5);
}

/** Word 1 of a CQ arm record: identity, arm sequence number, command. */
static inline uint32_t
mthca_dbr_cq_arm(uint32_t cqn, uint32_t sn, uint32_t cmd)
{
	return mthca_dbr_identity(cqn, MTHCA_DBR_CQ_ARM) | ((sn & 3) << 3) | cmd;
}

/* ---- MGM entry (Linux mthca_mcg.c; 256 bytes) ---------------------------- */

#define MTHCA_MGM_NEXT			0x00	/* next index 31..6 */
#define MTHCA_MGM_GID			0x10
#define MTHCA_MGM_QP			0x20	/* 56 x BE32: valid 31, QPN 23..0 */
#define MTHCA_MGM_QP_VALID		(1u << 31)
#define MTHCA_QP_PER_MGM		56

#endif /* _MTHCA_HW_H_ */
