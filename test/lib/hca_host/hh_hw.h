/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * Hardware facts of the MT25208 (InfiniHost III Ex, mem-free mode) as the
 * driver-less conformance harness ("hca_host") sees them. Written from the
 * public sources: Linux drivers/infiniband/hw/mthca and rdma-core
 * providers/mthca (cited by function or struct), the PRM layouts of
 * iPXE's MT25218_PRM.h and doc/guides/nics/mthca_hw.rst,
 * independently of the device model's app/ibfabric/mt25208/mt25208_hw.h and of the
 * PMD's mthca_hw.h, so that the three check each other (ARCHITECTURE rule
 * 2).
 *
 * Everything the HCA reads or writes in host memory is big-endian; fields
 * are reached only through the hh_get/hh_put helpers at the offsets below.
 */

#ifndef _HH_HW_H_
#define _HH_HW_H_

#include <endian.h>
#include <stdint.h>
#include <string.h>

/* ---- big-endian field helpers (one place that swaps) ------------------ */

static inline uint8_t hh_get8(const void *b, unsigned int off)
{
	return ((const uint8_t *)b)[off];
}

static inline uint16_t hh_get16(const void *b, unsigned int off)
{
	uint16_t v;

	memcpy(&v, (const uint8_t *)b + off, 2);
	return be16toh(v);
}

static inline uint32_t hh_get32(const void *b, unsigned int off)
{
	uint32_t v;

	memcpy(&v, (const uint8_t *)b + off, 4);
	return be32toh(v);
}

static inline uint64_t hh_get64(const void *b, unsigned int off)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)b + off, 8);
	return be64toh(v);
}

static inline void hh_put8(void *b, unsigned int off, uint8_t v)
{
	((uint8_t *)b)[off] = v;
}

static inline void hh_put16(void *b, unsigned int off, uint16_t v)
{
	v = htobe16(v);
	memcpy((uint8_t *)b + off, &v, 2);
}

static inline void hh_put32(void *b, unsigned int off, uint32_t v)
{
	v = htobe32(v);
	memcpy((uint8_t *)b + off, &v, 4);
}

static inline void hh_put64(void *b, unsigned int off, uint64_t v)
{
	v = htobe64(v);
	memcpy((uint8_t *)b + off, &v, 8);
}

/* ---- PCI identity (core constants) ------------------------------------ */

#define HH_PCI_VENDOR		0x15b3
#define HH_PCI_DEVICE_ARBEL	0x6282
#define HH_PCI_CLASS		0x0c0600
#define HH_BAR0_SIZE		(1u << 20)	/* __mthca_init_one(): exactly 1 MiB */

/* ---- BAR0: HCR (mthca_config_reg.h) ---------------------------------------------- */

#define HH_HCR_BASE		0x80680
#define HH_HCR_IN_HI		0x00
#define HH_HCR_IN_LO		0x04
#define HH_HCR_IN_MOD		0x08
#define HH_HCR_OUT_HI		0x0c
#define HH_HCR_OUT_LO		0x10
#define HH_HCR_TOKEN		0x14	/* token in bits 31..16 */
#define HH_HCR_CMD		0x18
#define HH_HCR_GO		(1u << 23)
#define HH_HCR_E		(1u << 22)
#define HH_HCR_OPMOD_SHIFT	12
#define HH_HCR_STATUS_SHIFT	24
#define HH_CMD_POLL_TOKEN	0xffff

#define HH_RESET_OFF		0xf0010	/* mthca_reset(): BE32 1 resets */

/* ---- firmware opcodes (core constants) -------------------------------- */

enum hh_op {
	HH_OP_SYS_DIS = 0x002,
	HH_OP_QUERY_DEV_LIM = 0x003,
	HH_OP_QUERY_FW = 0x004,
	HH_OP_QUERY_ADAPTER = 0x006,
	HH_OP_INIT_HCA = 0x007,
	HH_OP_CLOSE_HCA = 0x008,
	HH_OP_INIT_IB = 0x009,
	HH_OP_CLOSE_IB = 0x00a,
	HH_OP_SET_IB = 0x00c,
	HH_OP_SW2HW_MPT = 0x00d,
	HH_OP_QUERY_MPT = 0x00e,
	HH_OP_HW2SW_MPT = 0x00f,
	HH_OP_WRITE_MTT = 0x011,
	HH_OP_QUERY_EQ = 0x015,
	HH_OP_QUERY_CQ = 0x018,
	HH_OP_RTS2RTS = 0x01c,
	HH_OP_SQERR2RTS = 0x01d,
	HH_OP_RTS2SQD = 0x01f,
	HH_OP_SQD2RTS = 0x020,
	HH_OP_RESIZE_CQ = 0x02c,
	HH_OP_INIT2INIT = 0x02d,
	HH_OP_SYNC_TPT = 0x02f,
	HH_OP_SQD2SQD = 0x038,
	HH_OP_MAP_EQ = 0x012,
	HH_OP_SW2HW_EQ = 0x013,
	HH_OP_HW2SW_EQ = 0x014,
	HH_OP_SW2HW_CQ = 0x016,
	HH_OP_HW2SW_CQ = 0x017,
	HH_OP_RST2INIT = 0x019,
	HH_OP_INIT2RTR = 0x01a,
	HH_OP_RTR2RTS = 0x01b,
	HH_OP_2ERR = 0x01e,
	HH_OP_2RST = 0x021,
	HH_OP_QUERY_QP = 0x022,
	HH_OP_CONF_SPECIAL_QP = 0x023,
	HH_OP_MAD_IFC = 0x024,
	HH_OP_READ_MGM = 0x025,
	HH_OP_WRITE_MGM = 0x026,
	HH_OP_MGID_HASH = 0x027,
	HH_OP_NOP = 0x031,
	HH_OP_RUN_FW = 0xff6,
	HH_OP_UNMAP_ICM = 0xff9,
	HH_OP_MAP_ICM = 0xffa,
	HH_OP_UNMAP_ICM_AUX = 0xffb,
	HH_OP_MAP_ICM_AUX = 0xffc,
	HH_OP_SET_ICM_SIZE = 0xffd,
	HH_OP_UNMAP_FA = 0xffe,
	HH_OP_MAP_FA = 0xfff,
	HH_OP_ENABLE_LAM = 0xff8,
};

/* ---- command statuses (MTHCA_CMD_STAT_*) ----------------------------------------- */

enum hh_status {
	HH_ST_OK = 0x00,
	HH_ST_INTERNAL_ERR = 0x01,
	HH_ST_BAD_OP = 0x02,
	HH_ST_BAD_PARAM = 0x03,
	HH_ST_BAD_SYS_STATE = 0x04,
	HH_ST_BAD_RESOURCE = 0x05,
	HH_ST_RESOURCE_BUSY = 0x06,
	HH_ST_EXCEED_LIM = 0x08,
	HH_ST_BAD_RES_STATE = 0x09,
	HH_ST_BAD_INDEX = 0x0a,
	HH_ST_BAD_QP_STATE = 0x10,
	HH_ST_BAD_SEG_PARAM = 0x20,
	HH_ST_LAM_NOT_PRE = 0x22,
	HH_ST_BAD_PKT = 0x30,
};

#define HH_MAILBOX_SIZE		4096

/* ---- QUERY_FW output (mthca_QUERY_FW()) ----------------------------------------- */

#define HH_QFW_FW_PAGES		0x00	/* BE16 */
#define HH_QFW_VER		0x00	/* BE64, bits 63..48 = fw_pages */
#define HH_QFW_LOG_MAX_CMDS	0x0f
#define HH_QFW_CMD_DB		0x10	/* bit 0 */
#define HH_QFW_CLR_INT_BASE	0x20
#define HH_QFW_CATAS_BASE	0x30
#define HH_QFW_CATAS_SIZE	0x38	/* 32-bit words */
#define HH_QFW_EQ_ARM_BASE	0x40
#define HH_QFW_EQ_SET_CI_BASE	0x48

/* ---- QUERY_DEV_LIM output (mthca_QUERY_DEV_LIM()) ----------------------------------- */

#define HH_QDL_LOG_MAX_QP_SZ	0x11
#define HH_QDL_RSVD_QP		0x12	/* & 0x0f */
#define HH_QDL_MAX_QP		0x13	/* & 0x1f */
#define HH_QDL_RSVD_SRQ		0x14	/* >> 4 */
#define HH_QDL_MAX_SRQ		0x15
#define HH_QDL_LOG_MAX_CQ_SZ	0x19
#define HH_QDL_RSVD_CQ		0x1a	/* & 0x0f */
#define HH_QDL_MAX_CQ		0x1b	/* & 0x1f */
#define HH_QDL_MAX_MPT		0x1d	/* & 0x3f */
#define HH_QDL_RSVD_EQ		0x1e	/* & 0x0f */
#define HH_QDL_MAX_EQ		0x1f	/* & 0x07 */
#define HH_QDL_RSVD_MTT		0x20	/* >> 4, log entries */
#define HH_QDL_RSVD_MRW		0x22	/* & 0x0f */
#define HH_QDL_MAX_MTT_SEG	0x23	/* & 0x3f */
#define HH_QDL_MTU_WIDTH	0x36
#define HH_QDL_VL_PORTS		0x37
#define HH_QDL_LOG_GID		0x3b	/* & 0x0f */
#define HH_QDL_LOG_PKEY		0x3f	/* & 0x0f */
#define HH_QDL_FLAGS		0x44
#define HH_QDL_RSVD_UAR		0x48	/* >> 4, a number */
#define HH_QDL_UAR_SZ		0x49	/* & 0x3f, log MB */
#define HH_QDL_MIN_PAGE		0x4b
#define HH_QDL_MAX_SG		0x51
#define HH_QDL_MAX_DESC		0x52
#define HH_QDL_MAX_SG_RQ	0x55
#define HH_QDL_MAX_DESC_RQ	0x56
#define HH_QDL_RSVD_MGM		0x62	/* & 0x0f, a number */
#define HH_QDL_MAX_MCG		0x63
#define HH_QDL_RSVD_PD		0x64	/* >> 4, a number */
#define HH_QDL_EEC_SZ		0x80
#define HH_QDL_QPC_SZ		0x82
#define HH_QDL_EEEC_SZ		0x84
#define HH_QDL_EQPC_SZ		0x86
#define HH_QDL_EQC_SZ		0x88
#define HH_QDL_CQC_SZ		0x8a
#define HH_QDL_SRQC_SZ		0x8c
#define HH_QDL_UAR_SCR_SZ	0x8e
#define HH_QDL_MPT_SZ		0x92
#define HH_QDL_MAX_ICM		0xa0
#define HH_DEV_LIM_FLAG_UD	(1u << 2)
#define HH_DEV_LIM_FLAG_SRQ	(1u << 6)

/* ---- QUERY_ADAPTER (mthca_QUERY_ADAPTER()) ------------------------------------------ */

#define HH_QAD_INTA_PIN		0x10

/* ---- INIT_HCA input (mthca_INIT_HCA()) ----------------------------------------- */

#define HH_IHCA_FLAGS2		0x014
#define HH_IHCA_QPC_BASE	0x030
#define HH_IHCA_LOG_QP		0x037
#define HH_IHCA_EEC_BASE	0x040
#define HH_IHCA_LOG_EEC		0x047
#define HH_IHCA_SRQC_BASE	0x048
#define HH_IHCA_LOG_SRQ		0x04f
#define HH_IHCA_CQC_BASE	0x050
#define HH_IHCA_LOG_CQ		0x057
#define HH_IHCA_EQPC_BASE	0x060
#define HH_IHCA_EEEC_BASE	0x070
#define HH_IHCA_EQC_BASE	0x080
#define HH_IHCA_LOG_EQ		0x087
#define HH_IHCA_RDB_BASE	0x090
#define HH_IHCA_MC_BASE		0x0c0
#define HH_IHCA_LOG_MC_ENTRY	0x0d2
#define HH_IHCA_MC_HASH_SZ	0x0d6
#define HH_IHCA_LOG_MC_TABLE	0x0db
#define HH_IHCA_MPT_BASE	0x0f0
#define HH_IHCA_LOG_MPT		0x0fb
#define HH_IHCA_MTT_BASE	0x100
#define HH_IHCA_LOG_UARC	0x129
#define HH_IHCA_LOG_UAR		0x12a
#define HH_IHCA_UAR_PAGE_SZ	0x12b
#define HH_IHCA_UAR_SCR_BASE	0x130
#define HH_IHCA_UARC_BASE	0x138
#define HH_IHCA_SIZE		0x200

/* ---- INIT_IB input (mthca_INIT_IB()) ------------------------------------------ */

#define HH_IIB_FLAGS		0x00
#define HH_IIB_MAX_GID		0x06
#define HH_IIB_MAX_PKEY		0x0a
#define HH_IIB_SIZE		56

/* ---- page lists for MAP_FA / MAP_ICM_AUX / MAP_ICM (mthca_map_cmd()) ----------- */

#define HH_MAP_ENTRY_SIZE	16
#define HH_MAP_MAX_ENTRIES	(HH_MAILBOX_SIZE / HH_MAP_ENTRY_SIZE)

/* ---- MPT entry (struct mthca_mpt_entry) --------------------------------------------- */

#define HH_MPT_FLAGS		0x00
#define HH_MPT_PAGE_SZ		0x04
#define HH_MPT_KEY		0x08
#define HH_MPT_PD		0x0c
#define HH_MPT_START		0x10
#define HH_MPT_LEN		0x18
#define HH_MPT_MTT_ADDR		0x2c
#define HH_MPT_SIZE		0x40
#define HH_MPT_F_SW_OWNS	(0xfu << 28)
#define HH_MPT_F_MIO		(1u << 17)
#define HH_MPT_F_LOCAL_WRITE	(1u << 11)
#define HH_MPT_F_LOCAL_READ	(1u << 10)
#define HH_MPT_F_PHYSICAL	(1u << 9)
#define HH_MPT_F_REGION		(1u << 8)
#define HH_MTT_PRESENT		1ull
#define HH_MTT_SEG_SIZE		64	/* 8 entries per segment */

/** arbel_key_to_hw_index(): L_Key = rotate-left-8(hw index). */
static inline uint32_t hh_index_to_key(uint32_t idx)
{
	return (idx << 8) | (idx >> 24);
}

/** The MPT's memory-key field for L_Key @p lkey (rotate right by 8). */
static inline uint32_t hh_key_to_mkey(uint32_t lkey)
{
	return (lkey >> 8) | (lkey << 24);
}

/* iPXE arbel.h: its one PD and the prefix of its one memory key */
#define HH_IPXE_GLOBAL_PD	0x123456u
#define HH_IPXE_MKEY_PREFIX	0x77000000u

/* ---- EQ context (struct mthca_eq_context) and MAP_EQ masks (mthca_MAP_EQ()) ------------------ */

#define HH_EQC_FLAGS		0x00
#define HH_EQC_START		0x04
#define HH_EQC_LOGSIZE		0x0c
#define HH_EQC_INTR		0x17
#define HH_EQC_PD		0x18
#define HH_EQC_LKEY		0x1c
#define HH_EQC_CONS		0x28
#define HH_EQC_PROD		0x2c
#define HH_EQC_SIZE		0x40
#define HH_EQC_FLAGS_ARBEL_INIT	0x01040900u	/* OK, HW owns, TR, armed, Arbel */
#define HH_EQ_ASYNC_MASK	0x00000000000343feull
#define HH_EQ_CMD_MASK		0x0000000000000400ull

/* ---- EQE (struct mthca_eqe) ----------------------------------------------------- */

#define HH_EQE_SIZE		32
#define HH_EQE_TYPE		0x01
#define HH_EQE_SUBTYPE		0x03
#define HH_EQE_DATA		0x04
#define HH_EQE_CMD_TOKEN	0x06
#define HH_EQE_CMD_STATUS	0x0f
#define HH_EQE_CMD_OUT		0x10
#define HH_EQE_PORT		0x0c
#define HH_EQE_CQERR_SYND	0x0f
#define HH_EQE_OWNER		0x1f
#define HH_OWNER_HW		0x80

enum hh_event {
	HH_EV_COMP = 0x00,
	HH_EV_CQ_ERROR = 0x04,
	HH_EV_WQ_CATAS = 0x05,
	HH_EV_LOCAL_CATAS = 0x08,
	HH_EV_PORT_CHANGE = 0x09,
	HH_EV_CMD = 0x0a,
	HH_EV_WQ_ACCESS = 0x11,
};
#define HH_PORT_CHANGE_ACTIVE	0x04
#define HH_PORT_CHANGE_DOWN	0x01

/* ---- CQ context (struct mthca_cq_context) ---------------------------------------------- */

#define HH_CQC_FLAGS		0x00
#define HH_CQC_START		0x04
#define HH_CQC_LOGSIZE_UAR	0x0c
#define HH_CQC_ERR_EQN		0x10
#define HH_CQC_COMP_EQN		0x14
#define HH_CQC_PD		0x18
#define HH_CQC_LKEY		0x1c
#define HH_CQC_CQN		0x30
#define HH_CQC_CI_DB		0x34
#define HH_CQC_STATE_DB		0x38
#define HH_CQC_SIZE		0x40
#define HH_CQC_FLAGS_INIT	0x00040000u	/* OK, disarmed, TR */
/* RESIZE_CQ input (mthca_RESIZE_CQ()) */
#define HH_RCQ_LOG_SIZE		0x0c
#define HH_RCQ_LKEY		0x1c
#define HH_RCQ_SIZE		0x40
/* SET_IB input (mthca_SET_IB()) */
#define HH_SIB_FLAGS		0x00
#define HH_SIB_CAP_MASK		0x04
#define HH_SIB_SIZE		0x40
/* WRITE_MTT mailbox (mthca_arbel_write_mtt_seg()) */
#define HH_WMTT_ADDR		0x00
#define HH_WMTT_ENTRIES		0x10

/* ---- CQE (struct mthca_cqe, struct mthca_err_cqe) ---------------------- */

#define HH_CQE_SIZE		32
#define HH_CQE_MY_QPN		0x00
#define HH_CQE_RQPN		0x08
#define HH_CQE_SL		0x0c
#define HH_CQE_G_PATH		0x0d
#define HH_CQE_RLID		0x0e
#define HH_CQE_IMM_PKEY		0x10
#define HH_CQE_SYNDROME		0x10
#define HH_CQE_VENDOR_ERR	0x11
#define HH_CQE_BYTE_CNT		0x14
#define HH_CQE_WQE		0x18
#define HH_CQE_OPCODE		0x1c
#define HH_CQE_IS_SEND		0x1d
#define HH_CQE_OWNER		0x1f
#define HH_CQE_OP_ERR_RECV	0xfe
#define HH_CQE_OP_ERR_SEND	0xff

enum hh_syndrome {
	HH_SYND_LOCAL_LENGTH = 0x01,
	HH_SYND_LOCAL_QP_OP = 0x02,
	HH_SYND_LOCAL_PROT = 0x04,
	HH_SYND_WR_FLUSH = 0x05,
};

/* ---- doorbell records (mthca_alloc_db()) ------------------------------------------- */

#define HH_DBR_SIZE		8
#define HH_DBR_PER_PAGE		512
enum hh_dbr_type {
	HH_DBR_CQ_SET_CI = 1,
	HH_DBR_CQ_ARM = 2,
	HH_DBR_SQ = 3,
	HH_DBR_RQ = 4,
};
#define HH_UARC_SIZE		(256u << 10)	/* per UAR, Linux uarc_size default */

/* ---- UAR doorbells (mthca_doorbell.h, mthca_arbel_arm_cq()) ------------ */

#define HH_UAR_PAGE		4096
#define HH_UAR_SEND		0x10
#define HH_UAR_CQ		0x20
#define HH_CQ_DB_REQ_NOT_SOL	1u
#define HH_CQ_DB_REQ_NOT	2u

/* ---- QP (mthca_qp.c) -------------------------------------------------------- */

enum hh_qp_state {
	HH_QPS_RESET = 0, HH_QPS_INIT = 1, HH_QPS_RTR = 2, HH_QPS_RTS = 3,
	HH_QPS_SQE = 4, HH_QPS_SQD = 5, HH_QPS_ERR = 6,
};
enum hh_qp_st { HH_QPST_UD = 3, HH_QPST_MLX = 7 };

/* modify mailbox offsets (QPC offset + 8) */
#define HH_QPM_OPTMASK		0x000
#define HH_QPM_FLAGS		0x008
#define HH_QPM_MTU_MSGMAX	0x010
#define HH_QPM_RQ_SIZE_STRIDE	0x011
#define HH_QPM_SQ_SIZE_STRIDE	0x012
#define HH_QPM_USR_PAGE		0x014
#define HH_QPM_LOCAL_QPN	0x018
#define HH_QPM_PRI_PATH		0x028	/* port_pkey at +0 */
#define HH_QPM_PD		0x06c
#define HH_QPM_WQE_BASE		0x070
#define HH_QPM_WQE_LKEY		0x074
#define HH_QPM_PARAMS1		0x078
#define HH_QPM_NEXT_SEND_PSN	0x080
#define HH_QPM_CQN_SND		0x084
#define HH_QPM_SND_WQE_BASE	0x088
#define HH_QPM_SND_DB_INDEX	0x08c
#define HH_QPM_PARAMS2		0x098
#define HH_QPM_RNR_NEXTRECVPSN	0x09c
#define HH_QPM_RA_BUFF_INDX	0x0a0
#define HH_QPM_CQN_RCV		0x0a4
#define HH_QPM_RCV_WQE_BASE	0x0a8
#define HH_QPM_RCV_DB_INDEX	0x0ac
#define HH_QPM_QKEY		0x0b0
#define HH_QPM_SIZE		0x200
#define HH_QP_OPTPAR_PKEY_INDEX	(1u << 4)
#define HH_QP_OPTPAR_Q_KEY	(1u << 5)
#define HH_QP_OPTPAR_PORT_NUM	(1u << 11)
#define HH_QP_PARAMS1_SSC	(1u << 3)
#define HH_QP_PARAMS2_RSC	(1u << 3)
#define HH_QP_MTU_MSGMAX_UD	0x8b	/* MTU 2048 << 5 | 11 */
#define HH_QP_MTU_MSGMAX_IPXE	0x9f	/* MTU 2048 << 5 | 31, arbel_modify_qp() */

/* ---- WQE segments (mthca_wqe.h) ----------------------------------------------- */

#define HH_WQE_NDA_OP		0x00
#define HH_WQE_EE_NDS		0x04
#define HH_WQE_FLAGS		0x08
#define HH_WQE_IMM		0x0c
#define HH_NDS_DBD		(1u << 7)
#define HH_WQE_F_CQ_UPDATE	(1u << 3)
#define HH_WQE_F_SOLICIT	(1u << 1)
#define HH_WQE_F_ALWAYS1	(1u << 0)
#define HH_MLX_VL15		(1u << 17)
#define HH_MLX_SLR		(1u << 16)
#define HH_MLX_RLID		0x0c
#define HH_OPCODE_SEND		0x0a
#define HH_OPCODE_SEND_IMM	0x0b
/* UD segment (48 bytes): AV 32, dqpn, qkey, reserved 8 */
#define HH_UD_AV		0x00
#define HH_UD_DQPN		0x20
#define HH_UD_QKEY		0x24
#define HH_UD_SEG_SIZE		48
/* AV (struct mthca_av) */
#define HH_AV_PORT_PD		0x00
#define HH_AV_G_SLID		0x05
#define HH_AV_DLID		0x06
#define HH_AV_GID_INDEX		0x09
#define HH_AV_MSG_SR		0x0a
#define HH_AV_HOP_LIMIT		0x0b
#define HH_AV_SL_TC_FL		0x0c
#define HH_AV_DGID		0x10
/* data segment (struct mthca_data_seg) */
#define HH_DSEG_BYTE_COUNT	0x00
#define HH_DSEG_LKEY		0x04
#define HH_DSEG_ADDR		0x08
#define HH_DSEG_SIZE		16
#define HH_INLINE_SEG		(1u << 31)
#define HH_INVAL_LKEY		0x100

/* ---- MGM entry (struct mthca_mgm) ---------------------------------------------- */

#define HH_MGM_NEXT		0x00
#define HH_MGM_GID		0x10
#define HH_MGM_QP		0x20
#define HH_MGM_ENTRY_SIZE	256
#define HH_MGM_QP_VALID		(1u << 31)

#endif /* _HH_HW_H_ */
