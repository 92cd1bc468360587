/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file Private to ibfabric's MT25208 model: the data path (mt25208_dp.c) and
 * the hardware formats only it touches: UAR doorbells, doorbell records, WQE
 * segments, the UD address vector and the CQE (Linux mthca_wqe.h, mthca_cq.c,
 * mthca_av.c, mthca_doorbell.h; rdma-core providers/mthca). The command-side
 * formats are in mt25208_hw.h; these are kept beside the one file that uses
 * them, with the same rule: only the accessors below swap or mask a hardware
 * field.
 *
 * Firmware-private state per QP lives in the QP's extended context
 * (EQPC, MT25208_EQPC_SZ bytes in ICM, zeroed at RST2INIT by
 * mt25208_qp_ctx.c): the SQ and RQ counters the HCA has consumed. The
 * CQ producer index and arming state live in the CQ context (CQC prod,
 * flags state), the QP's next PSN in the QPC, as in the silicon.
 */

#ifndef _IBFABRIC_MT25208_DP_H_
#define _IBFABRIC_MT25208_DP_H_

#include <stdbool.h>
#include <stdint.h>

#include "mt25208_hw.h"

struct mt25208;
struct fab_port;
struct fab_pkt;
struct fab_hdrs;

/* ------------------------------------------------------------------ */
/* UAR doorbells (mthca_doorbell.h, mthca_arbel_post_send(), mthca_arbel_arm_cq()) */

#define MT_UAR_SEND_DB			0x10	/**< hi: [31:24] count, [23:8] start, [5] F, [4:0] op */
#define MT_UAR_CQ_DB			0x20	/**< hi: [29:28] sn, [27:24] cmd, [23:0] CQN */

/*
 * A doorbell as one 64-bit load of its UAR slot (the host stores it with
 * one 64-bit big-endian store, high word first in memory, mthca_write64()).
 */
static inline uint32_t mt_db_hi(uint64_t raw) { return (uint32_t)(be64toh(raw) >> 32); }
static inline uint32_t mt_db_lo(uint64_t raw) { return (uint32_t)be64toh(raw); }
static inline uint32_t mt_send_db_qpn(uint32_t lo) { return lo >> 8; }
static inline uint8_t mt_cq_db_sn(uint32_t hi) { return (hi >> 28) & 3; }
static inline uint8_t mt_cq_db_cmd(uint32_t hi) { return (hi >> 24) & 0xf; }
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

#define MT_WQE_F_CQ_UPDATE		(1u << 3)
#define MT_WQE_F_SOLICIT		(1u << 1)
/* MLX segment flags (struct mthca_mlx_seg) */
#define MT_MLX_VL15			(1u << 17)
#define MT_MLX_SLR			(1u << 16)
#define MT_MLX_RLID			0x0c	/**< BE16 */
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
static inline uint8_t mt_av_port(const void *av) { return mt_get8(av, MT_AV_PORT_PD); }
static inline bool mt_av_grh(const void *av) { return (mt_get8(av, MT_AV_G_SLID) & 0x80) != 0; }
static inline uint8_t mt_av_path_bits(const void *av) { return mt_get8(av, MT_AV_G_SLID) & 0x7f; }
static inline uint16_t mt_av_dlid(const void *av) { return mt_get16(av, MT_AV_DLID); }
static inline uint8_t mt_av_gid_index(const void *av) { return mt_get8(av, MT_AV_GID_INDEX); }
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
#define MT_EQPC_FLAGS			0x08	/**< BE32: [0] flushed up to the records */

/* ------------------------------------------------------------------ */
/* Entry points                                                         */

/**
 * Attach data-path state to @p dev (dev->dp, dev->dp_reset) and make the
 * model the receiver of its node's packets (node->hca, fabric.hca_recv).
 * Call once after mt25208_new(). 0 or -ENOMEM.
 */
int mt25208_dp_init(struct mt25208 *dev);
/** Free what mt25208_dp_init made; NULL-safe. */
void mt25208_dp_free(struct mt25208 *dev);
/**
 * Poll the UAR doorbells and doorbell records of @p dev, execute posted
 * send WQEs, flush queues in error, report port state changes. Returns
 * true if anything happened (the caller's spin/back-off decision).
 */
bool mt25208_dp_poll(struct mt25208 *dev);
/**
 * A packet @p p, parsed and CRC-checked into @p h, arrived at @p in, a
 * port of @p dev's node (node_io.c calls this for every packet reaching an
 * active HCA, QP0/QP1 included). Takes ownership of @p p.
 */
void mt25208_port_recv(struct mt25208 *dev, struct fab_port *in, struct fab_pkt *p,
		       const struct fab_hdrs *h);

/** Data-path counters (ctl "show", tests). */
struct mt25208_dp_stats {
	uint64_t doorbells;
	uint64_t sends;
	uint64_t recvs;
	uint64_t cqes;
	uint64_t err_cqes;
	uint64_t drop_no_qp;
	uint64_t drop_qp_state;
	uint64_t drop_pkey;
	uint64_t drop_qkey;
	uint64_t drop_no_wqe;
	uint64_t drop_malformed;
	uint64_t cq_overruns;
	uint64_t comp_events;
	uint64_t port_events;
	uint64_t mcast_copies;
};
const struct mt25208_dp_stats *mt25208_dp_stats(const struct mt25208 *dev);

#endif /* _IBFABRIC_MT25208_DP_H_ */
