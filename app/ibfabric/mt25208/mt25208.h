/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * Private to ibfabric's MT25208 device model: the state of one simulated
 * HCA and the internal API between its files.
 *
 * Files: mt25208_cmd.c (HCR protocol, command dispatch, polling of the
 * BAR0 registers), mt25208_fw.c (QUERY_FW/RUN_FW/QUERY_DEV_LIM/
 * QUERY_ADAPTER/INIT_HCA/CLOSE_HCA), mt25208_dma.c (DMA windows),
 * mt25208_mbox.c (command mailboxes), mt25208_icm.c (ICM translation,
 * MAP_FA/SET_ICM_SIZE/MAP_ICM*), mt25208_mr.c (MPT/MTT, lkeys),
 * mt25208_eqcq.c (EQ/CQ contexts, MAP_EQ, EQE posting, interrupts),
 * mt25208_qp_ctx.c (QP transitions, CONF_SPECIAL_QP), mt25208_mad.c
 * (MAD_IFC -> the node's SMA/PMA), mt25208_mcg.c (MGM table),
 * mt25208_reset.c (reset, catastrophic error, host gone), pcisim.c (the
 * PCI function and its IOMMU/MSI-X socket), mt25208_host.c (every
 * function of a fabric in the event loop, polling policy), mt25208_dp*.c
 * (data path: mt25208_dp.c the poll loop, _doorbell, _send, _recv, _cqe).
 *
 * Threading: everything runs on ibfabric's single event-loop thread. The
 * BARs are shared memory that the host writes at any time: the model reads
 * registers with 32-bit atomic loads and takes the HCR only when GO is set.
 *
 * Contexts (EQC, CQC, QPC, EQPC, MPT, MTT, MGM) live in ICM, i.e. in host
 * pages the driver gave with MAP_ICM: the model reads and writes them
 * there (the host could read them back), as the silicon does. Only the 32
 * EQs also have a private mirror (struct mt25208_eq), because the model
 * needs their producer index and arming on every event.
 */

#ifndef _IBFABRIC_MT25208_H_
#define _IBFABRIC_MT25208_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mt25208_hw.h"

struct fab_node;
struct fabric;

#define MT25208_MAX_PORTS	2	/**< MTHCA_MAX_PORTS */
#define MT25208_MAX_WINS	256	/**< DMA windows one host may register */
#define MT25208_MAX_VECTORS	32	/**< MSI-X vectors the model offers */
#define MT25208_PD_ANY		UINT32_MAX /**< mt25208_mr_access(): skip the PD check */
#define MT25208_NO_EQ		0xff
/** CQC c_eqn at or above this: the CQ reports no completion events (PRM c_eqn). */
#define MT25208_CQ_EQN_LIMIT	64

/* ------------------------------------------------------------------ */
/* Limits the model's firmware reports (QUERY_DEV_LIM / QUERY_FW).      */
/* Choices, documented in doc/guides/nics/mthca_hw.rst.                 */

#define MT25208_FW_MAJOR	5
#define MT25208_FW_MINOR	3
#define MT25208_FW_SUBMINOR	0
#define MT25208_FW_PAGES	16	/**< firmware area, 4 KiB pages */
#define MT25208_LOG_MAX_CMDS	3
#define MT25208_LOG_RSVD_QP	4	/**< 16 reserved QPs -> sqp_start 16 */
#define MT25208_LOG_MAX_QP	18
/*
 * WQEs per queue: QPC log_sq_size/log_rq_size are 4-bit fields (PRM
 * arbelprm_queue_pair_ee_context_entry_st), so silicon cannot take more
 * than 2^15. Linux's mthca reports DEV_LIM's figure as max_qp_wr; 16384
 * is the model's choice: no public figure of this chip's firmware was
 * found (doc/guides/nics/mthca_hw.rst, "Open points").
 */
#define MT25208_LOG_MAX_QP_SZ	14
#define MT25208_LOG_RSVD_CQ	4
#define MT25208_LOG_MAX_CQ	18
#define MT25208_LOG_MAX_CQ_SZ	17
#define MT25208_LOG_RSVD_EQ	2	/**< EQNs 0..3 reserved */
#define MT25208_LOG_MAX_EQ	5
#define MT25208_LOG_MAX_EQ_SZ	20	/**< model's limit on one EQ */
#define MT25208_LOG_MAX_MPT	20
#define MT25208_LOG_RSVD_MPT	4
#define MT25208_LOG_RSVD_MTT	4	/**< 16 entries = 2 segments */
#define MT25208_LOG_MAX_MTT_SEG	21
#define MT25208_LOG_MAX_MRW_SZ	32
#define MT25208_LOG_MAX_MCG	13
#define MT25208_LOG_QP_PER_MCG	5
#define MT25208_LOG_MAX_PD	15
#define MT25208_LOG_GID		5	/**< 32 GIDs per port (rdma-core assumes 32) */
#define MT25208_LOG_PKEY	6	/**< = FAB_PKEY_TABLE_SIZE */
#define MT25208_MAX_SG		16
#define MT25208_MAX_DESC	512
#define MT25208_MTU_CAP		4	/**< IB MTU 2048 */
#define MT25208_WIDTH_CAP	3	/**< 1x and 4x */
#define MT25208_VL_CAP		4	/**< VL0..7 */
#define MT25208_RSVD_UARS	1
#define MT25208_MAX_ICM		(1ull << 31)
#define MT25208_QPC_SZ		256
#define MT25208_EQPC_SZ		32
#define MT25208_EEC_SZ		256
#define MT25208_EEEC_SZ		32
#define MT25208_EQC_SZ		64
#define MT25208_CQC_SZ		64
#define MT25208_SRQC_SZ		32
#define MT25208_UAR_SCR_SZ	32
#define MT25208_MPT_SZ		64
#define MT25208_INTA_PIN	0
#define MT25208_DEV_CAPS	(MT_DEV_CAP_RC | MT_DEV_CAP_UC | MT_DEV_CAP_UD | \
				 MT_DEV_CAP_BAD_PKEY_CNT | MT_DEV_CAP_BAD_QKEY_CNT | \
				 MT_DEV_CAP_UD_AV_PORT | MT_DEV_CAP_UD_MCAST)
/** SET_ICM_SIZE: the model asks for one aux page per MiB of ICM (at least 1). */
#define MT25208_AUX_PER_PAGES	256

/** Firmware state machine (mthca_hw.rst; Linux mthca_init_arbel(), __mthca_remove_one()). */
enum mt25208_fw_state {
	MT25208_FW_BOOT = 0,	/**< power-on: boot firmware, QUERY_FW/ENABLE_LAM/MAP_FA */
	MT25208_FW_RUN,		/**< RUN_FW done: DEV_LIM, ICM sizing and mapping */
	MT25208_FW_HCA,		/**< INIT_HCA done: every resource command */
};

/**
 * One entry of the translation cache (mt25208_mr.c): an L_Key's MPT,
 * checked and decoded once, and the host address of the last page it
 * translated. Valid while gen == mt25208.tc_gen: every firmware command,
 * DMA window change and reset bumps tc_gen, as the silicon's TPT cache is
 * flushed by SYNC_TPT and by the commands that change the tables. A hit
 * still reads the live MPT's status and key word, so a driver remapping
 * an FMR in ICM (new key) never hits a stale entry.
 */
struct mt25208_tc {
	uint32_t lkey;
	uint32_t gen;		/**< tc_gen when filled; 0 never matches */
	uint32_t pd;
	uint32_t flags;
	uint64_t start;
	uint64_t length;
	const uint8_t *mpt;	/**< the MPT entry in ICM (host memory) */
	uint64_t pg_va;		/**< region VA of the cached page, UINT64_MAX: none */
	uint8_t *pg_host;	/**< host address of that page */
	uint8_t log_page;	/**< MTT page size; 12 for a physical region's cached pages */
	bool physical;
};

#define MT25208_TC_SIZE		16	/**< translation cache entries (power of two) */

/** One DMA window registered through the IOMMU socket (or by a test). */
struct mt25208_dma_win {
	uint64_t iova;
	uint64_t len;
	uint8_t *host;		/**< host address of iova */
	void *map;		/**< mmap() to undo, or NULL when the caller owns it */
	size_t map_len;
};

/** One 4 KiB ICM page: the host bus address behind it (MAP_ICM). */
struct mt25208_icm_page {
	uint64_t pa;		/**< bus address | 1 when mapped, 0 unmapped */
	uint8_t *host;		/**< cached translation of pa, NULL = recompute */
};

/** Private mirror of one EQ (EQC stays in ICM too). */
struct mt25208_eq {
	bool hw;		/**< SW2HW_EQ done, not yet HW2SW_EQ */
	bool armed;		/**< next EQE raises the interrupt (arbel_eq_req_not()) */
	bool always_armed;
	uint8_t log_nent;
	uint8_t intr;		/**< EQC 0x17: MSI-X vector if bit 7, else INTx */
	uint32_t lkey;
	uint32_t pd;
	uint64_t start;
	uint32_t prod;		/**< free-running producer index */
	uint64_t posted;
	uint64_t overflows;
	uint32_t logged;	/**< mt25208_check_fail(): checks logged for this EQ */
};

/** INIT_HCA configuration (mthca_INIT_HCA(), decoded once). */
struct mt25208_hca_cfg {
	uint64_t qpc_base, eqpc_base, eec_base, eeec_base, srqc_base, cqc_base;
	uint64_t eqc_base, rdb_base, mc_base, mpt_base, mtt_base;
	/*
	 * End of the MTT table in ICM. INIT_HCA gives no MTT size (the
	 * profile's segment count stays with the driver), so the table ends
	 * where the next table above it begins, or at the largest MTT the
	 * firmware advertises (QUERY_DEV_LIM log_max_mtt_seg): a WRITE_MTT
	 * or an MPT past it would land in another table's contexts.
	 */
	uint64_t mtt_end;
	uint64_t uar_scr_base, uarc_base;
	uint8_t log_qp, log_srq, log_cq, log_eq, log_mpt, log_mc, log_uar;
	uint8_t log_uarc_pages;	/**< UARC bytes per UAR = 4096 << this */
	uint16_t mc_hash_sz;
	uint32_t flags2;
};

/** Per IB port (1-based index). */
struct mt25208_port {
	bool ib_up;		/**< INIT_IB done, not yet CLOSE_IB */
	uint8_t mtu_cap;
	uint8_t width_cap;
	uint8_t vl_cap;
	uint16_t max_gid;
	uint16_t max_pkey;
};

/** Counters (ctl "show" and tests). */
struct mt25208_stats {
	uint64_t cmds;
	uint64_t cmd_errors;
	uint64_t dma_faults;
	uint64_t events;
	uint64_t events_dropped;	/**< no EQ mapped, EQ full or unreachable */
	uint64_t irqs;
	uint64_t resets;
	uint64_t hosts;			/**< hosts attached since start */
};

/** Hardware-owned resources of one function (see mt25208_res.c for each count). */
struct mt25208_resources {
	uint32_t qps;		/**< QPs not in RESET */
	uint32_t cqs;		/**< CQs in hardware ownership */
	uint32_t eqs;		/**< EQs in hardware ownership */
	uint32_t mpts;		/**< MPT entries in hardware ownership */
	uint64_t mtt_entries;	/**< MTT entries those MPTs translate through */
	uint32_t icm_pages;	/**< pages mapped with MAP_ICM */
	uint32_t uarc_pages;	/**< of which in the UAR context (doorbell record) table */
	uint32_t aux_pages;	/**< MAP_ICM_AUX pages */
	uint32_t fa_pages;	/**< MAP_FA pages */
	uint32_t mcgs;		/**< MGM entries with at least one QP */
	uint32_t mcg_qps;	/**< QPs attached over all MGM entries */
};

/**
 * Named checks of what a driver writes (mt25208_check.c; the table in
 * doc/guides/nics/mthca_hw.rst, "What the model checks"): each counts per
 * function and logs once per queue.
 */
enum mt25208_check {
	MT25208_CHK_DB_QP,		/**< send doorbell names no QP in a send state */
	MT25208_CHK_DB_UAR,		/**< rung on a UAR page not the QP's usr_page */
	MT25208_CHK_DB_WQE_CNT,		/**< wqe_cnt 0 */
	MT25208_CHK_DB_WQE_COUNTER,	/**< wqe_counter not what the HCA executed */
	MT25208_CHK_DB_NDS_OP,		/**< nopcode/nds not the first WQE's */
	MT25208_CHK_WQE_CHAIN,		/**< next segment does not name the next slot */
	MT25208_CHK_WQE_DBD,		/**< next segment always-1 (DBD) bit clear */
	MT25208_CHK_CTRL_ALWAYS1,	/**< send ctrl segment always-1 bit clear */
	MT25208_CHK_AV_PD,		/**< UD AV PD is not the QP's */
	MT25208_CHK_AV_PORT,		/**< UD AV port is not the QP's (INIT_HCA udp set) */
	MT25208_CHK_AV_GID_INDEX,	/**< mgid_index outside the QP port's GIDs */
	MT25208_CHK_AV_RGID,		/**< G clear and rgid[31:0] not 0x2 */
	MT25208_CHK_MLX_RLID,		/**< MLX rlid is not the LRH DLID */
	MT25208_CHK_MLX_ICRC,		/**< MLX icrc mode reserved or last dword wrong */
	MT25208_CHK_CQ_PD,		/**< CQC pd is not the PD of the CQ's L_Key */
	MT25208_CHK_EQ_PD,		/**< EQC pd is not the PD of the EQ's L_Key */
	MT25208_CHK_COUNT
};

struct mt25208 {
	struct fabric *fab;
	struct fab_node *node;		/**< the active CA node; node->hca == this */
	uint8_t nports;

	/* BARs: shared memory the host maps; the model polls registers in it */
	uint8_t *bar0;			/**< MT_BAR0_SIZE */
	uint8_t *bar2;			/**< UARs, bar2_len */
	size_t bar2_len;

	/* IOMMU: host DMA windows, sorted by iova */
	struct mt25208_dma_win wins[MT25208_MAX_WINS];
	unsigned int nwins;
	unsigned int last_win;		/**< lookup hint */

	/* MSI-X / INTx: eventfds handed out by pcisim (-1 = none) */
	int vec_fd[MT25208_MAX_VECTORS];
	int intx_fd;
	bool intx_asserted;		/**< INTx line up until CLR_INT */

	/* Firmware */
	enum mt25208_fw_state fw_state;
	uint32_t fa_pages;		/**< MAP_FA pages mapped */
	bool lam_queried;
	uint64_t icm_size;		/**< SET_ICM_SIZE, 0 = not set */
	uint32_t aux_needed;		/**< pages SET_ICM_SIZE asked for */
	uint32_t aux_pages;		/**< MAP_ICM_AUX pages mapped */
	struct mt25208_icm_page *icm;	/**< [icm_size / 4096] */
	size_t icm_npages;
	struct mt25208_hca_cfg cfg;
	uint8_t *cq_hw;			/**< bitmap, 1 << cfg.log_cq bits: SW2HW_CQ done */

	/* Events */
	struct mt25208_eq eq[MT_NUM_EQ];
	uint8_t ev_eqn[64];		/**< MAP_EQ: event type -> EQN, or MT25208_NO_EQ */
	uint32_t eq_arm_seen;		/**< last arm mask read (for tests) */

	/* Special QPs (CONF_SPECIAL_QP): first QPN of each pair, 0 = none */
	uint32_t sqp_base[2];		/**< [MT_SQP_SMI], [MT_SQP_GSI] */

	struct mt25208_port port[MT25208_MAX_PORTS + 1];

	/* Catastrophic error raised: commands fail until reset (poll_catas()) */
	bool catas;

	struct mt25208_stats stats;
	uint64_t checks[MT25208_CHK_COUNT];	/**< failed checks, per enum mt25208_check */
	/** What was still hardware-owned when the last CLOSE_HCA ran (mt25208_res.c). */
	struct mt25208_resources at_close;

	/* Translation cache of L_Keys (MPT/MTT/ICM/DMA lookups), see struct mt25208_tc */
	struct mt25208_tc tc[MT25208_TC_SIZE];
	uint32_t tc_gen;			/**< bumped to invalidate every entry */

	/* Owners elsewhere */
	void *pci;			/**< pcisim.c's function, or NULL (unit tests) */
	void *dp;			/**< mt25208_dp.c's state */
	/** Called by mt25208_reset() so the data path drops its state; may be NULL. */
	void (*dp_reset)(struct mt25208 *dev);
	/** Called by mt25208_dp_watch(): set by mt25208_dp_init(), may be NULL. */
	void (*dp_watch)(struct mt25208 *dev, uint32_t uar, uint32_t qpn);
};

/* ------------------------------------------------------------------ */
/* mt25208_reset.c: life cycle                                          */

/**
 * Create the model of @p node over BAR memory the caller provides
 * (pcisim's shared files, or plain memory in unit tests), zeroed, in
 * power-on state; its ports are down on the fabric.
 * Returns NULL with errno ENOMEM or EINVAL.
 */
struct mt25208 *mt25208_new(struct fabric *f, struct fab_node *node,
			    uint8_t *bar0, uint8_t *bar2, size_t bar2_len);
/** Free the model (not the BARs); NULL is fine. */
void mt25208_free(struct mt25208 *dev);
/**
 * Back to power-on state (the reset register, SYS_DIS, host gone): HCR,
 * registers, firmware state, ICM map, contexts, special QPs; ports go
 * down on the fabric. DMA windows and eventfds stay (they belong to the
 * IOMMU, not the HCA).
 */
void mt25208_reset(struct mt25208 *dev);
/** The host disappeared: reset, drop every DMA window and eventfd. */
void mt25208_host_gone(struct mt25208 *dev);
/**
 * Raise a catastrophic error of @p type (MT_CATAS_*): fill the error
 * buffer in BAR0, post a local catastrophic error event, refuse commands
 * until reset. @p why and @p addr are logged.
 */
void mt25208_catas(struct mt25208 *dev, uint8_t type, const char *why, uint64_t addr);

/* ------------------------------------------------------------------ */
/* mt25208_check.c: named driver checks                                 */

/** Short name of @p chk ("db_wqe_cnt"), for logs and the console. */
const char *mt25208_check_name(enum mt25208_check chk);
/**
 * Check @p chk failed on queue @p qn: count it; log it with its PRM field
 * unless bit @p chk of @p *logged is set (then set it). @p logged may be
 * NULL (log every time); @p detail may be NULL.
 */
void mt25208_check_fail(struct mt25208 *dev, enum mt25208_check chk, uint32_t qn,
			uint32_t *logged, const char *detail);
/** One line per check: "hca_error node=... check=... count=... field=...". */
void mt25208_checks_show(const struct mt25208 *dev, FILE *out);

/* ------------------------------------------------------------------ */
/* mt25208_res.c: what the driver holds (console "hca <node> resources") */


/**
 * Count what @p dev's driver holds now (scans the ICM tables: console
 * speed, not data path). CLOSE_HCA calls it before dropping the
 * contexts, into mt25208.at_close: what the driver had not given back.
 */
void mt25208_resources(struct mt25208 *dev, struct mt25208_resources *r);
/** One line: "hca_resources node=... qps=... cqs=... ...". */
void mt25208_resources_show(struct mt25208 *dev, FILE *out);

/* ------------------------------------------------------------------ */
/* mt25208_cmd.c: the register side                                     */

/**
 * Poll BAR0: reset register, HCR go bit (runs at most one command), EQ
 * arm register. Returns true if anything happened (for the caller's
 * spin/back-off decision).
 */
bool mt25208_poll(struct mt25208 *dev);

/**
 * True when the HCR holds a command with GO set, not yet taken. The load
 * has acquire order: every store the host made before it wrote GO (a
 * doorbell in BAR2 among them) is visible to the caller after it.
 */
bool mt25208_cmd_go(struct mt25208 *dev);

/* ------------------------------------------------------------------ */
/* mt25208_dma.c: DMA windows; mt25208_icm.c: ICM                     */

/**
 * Register the DMA window [iova, iova+len) backed by @p host. @p map /
 * @p map_len, if not NULL, are munmap()ed when the window goes.
 * Returns 0, -EINVAL (zero length, wrap), -EEXIST (overlap), -ENOSPC.
 */
int mt25208_dma_map(struct mt25208 *dev, uint64_t iova, uint64_t len, uint8_t *host,
		    void *map, size_t map_len);
/** Remove the window starting at @p iova of length @p len. 0 or -ENOENT. */
int mt25208_dma_unmap(struct mt25208 *dev, uint64_t iova, uint64_t len);
/**
 * Host pointer for a DMA access [iova, iova+len) by the HCA, or NULL on a
 * DMA fault (no single window covers it). Faults are counted and logged
 * with the address; never fatal to ibfabric.
 */
void *mt25208_dma_ptr(struct mt25208 *dev, uint64_t iova, size_t len, bool write);
/** mt25208_dma_ptr() without counting or logging a fault: NULL when no window covers it. */
void *mt25208_dma_lookup(struct mt25208 *dev, uint64_t iova, size_t len);
/** Invalidate every translation cache entry (tables, windows or state changed). */
static inline void
mt25208_tc_flush(struct mt25208 *dev)
{
	if (++dev->tc_gen == 0)
		dev->tc_gen = 1;
}

/**
 * Host pointer for ICM virtual address @p va, @p len bytes not crossing a
 * 4 KiB page, or NULL when that ICM page is not mapped (or its backing
 * page is not DMA-reachable).
 */
void *mt25208_icm_ptr(struct mt25208 *dev, uint64_t va, size_t len);

/** Context lookups in ICM (index masked with the table size); NULL if unmapped. */
void *mt25208_qpc(struct mt25208 *dev, uint32_t qpn);
/** Extended QPC: MT25208_EQPC_SZ firmware-private bytes per QP, zeroed at RST2INIT. */
void *mt25208_eqpc(struct mt25208 *dev, uint32_t qpn);
void *mt25208_cqc(struct mt25208 *dev, uint32_t cqn);
/** CQC of a CQ in hardware ownership (SW2HW_CQ done), else NULL. */
void *mt25208_cq_get(struct mt25208 *dev, uint32_t cqn);
void *mt25208_mpt(struct mt25208 *dev, uint32_t index);
/**
 * Host pointer of the 8-byte doorbell record @p index of UAR @p uar
 * (mthca_alloc_db(): UARC base + uar * uarc_size + index * 8), or NULL.
 */
void *mt25208_db_rec(struct mt25208 *dev, uint32_t uar, uint32_t index);

/* ------------------------------------------------------------------ */
/* mt25208_mr.c: memory protection                                      */

/**
 * Translate [va, va+len) of the region named by @p lkey with the checks
 * the HCA does: MPT in hardware ownership, key match, @p pd (the CQ's or
 * EQ's context PD, or MT25208_PD_ANY), local read / local write access,
 * bounds; then MTT (or physical) translation and DMA. Returns
 * the host pointer when the whole range is contiguous in host memory, else
 * NULL (use mt25208_mr_access() for ranges that cross MTT pages).
 */
void *mt25208_mr_translate(struct mt25208 *dev, uint32_t lkey, uint32_t pd, uint64_t va,
			   uint32_t len, bool write);
/**
 * As mt25208_mr_translate(), for a hint (a prefetch) only: NULL also when
 * the range is not DMA-reachable, without counting or logging a DMA fault,
 * so that only the access that uses the range reports it.
 */
void *mt25208_mr_peek(struct mt25208 *dev, uint32_t lkey, uint32_t pd, uint64_t va,
		      uint32_t len, bool write);
/**
 * Copy @p len bytes between @p buf and region @p lkey at @p va (@p write:
 * buf -> memory), page by page. @p pd: the QP's PD, or MT25208_PD_ANY.
 * Returns 0, -EACCES (key, PD, access or bounds: a local protection error)
 * or -EFAULT (MTT entry not present or DMA fault).
 */
int mt25208_mr_access(struct mt25208 *dev, uint32_t lkey, uint32_t pd, uint64_t va,
		      void *buf, uint32_t len, bool write);

/* ------------------------------------------------------------------ */
/* mt25208_eqcq.c: events                                               */

/**
 * Write one EQE (type @p type, subtype @p subtype, 24 bytes of event data
 * @p data, or zeros when NULL) to EQ @p eqn, hand it to software (owner
 * bit) and raise the EQ's interrupt if it is armed.
 * Returns 0, -ENOENT (EQ not in hardware ownership), -ENOSPC (full: the EQ
 * goes to overflow status) or -EFAULT (EQ buffer unreachable).
 */
int mt25208_eq_post(struct mt25208 *dev, uint8_t eqn, uint8_t type, uint8_t subtype,
		    const uint8_t *data);
/** Post an asynchronous event to the EQ MAP_EQ chose for @p type; no EQ = dropped. */
int mt25208_event(struct mt25208 *dev, uint8_t type, uint8_t subtype, const uint8_t *data);
/** Read the EQ arm and set-CI registers (mt25208_poll calls it). */
bool mt25208_eq_poll_regs(struct mt25208 *dev);

/* ------------------------------------------------------------------ */
/* mt25208_qp_ctx.c                                                     */

/**
 * Whether @p qpn is a special QP (CONF_SPECIAL_QP); if so its port
 * (1-based) and kind (MT_SQP_SMI = QP0, MT_SQP_GSI = QP1).
 */
bool mt25208_qp_special(const struct mt25208 *dev, uint32_t qpn, uint8_t *port,
			uint8_t *kind);
/** QPN of special QP @p kind on @p port, or 0 when not configured. */
uint32_t mt25208_sqp_qpn(const struct mt25208 *dev, uint8_t kind, uint8_t port);

/* ------------------------------------------------------------------ */
/* mt25208_dp.c, called by the command side                             */

#define MT25208_DP_NO_QP	UINT32_MAX
/**
 * The firmware learnt of a queue on UAR page @p uar (a QP transition, or
 * SW2HW_CQ with @p qpn MT25208_DP_NO_QP): the data path polls that page's
 * doorbells from now on, and flushes QP @p qpn if it is in ERR, or runs
 * the WQEs doorbells named while it was not in RTS if it is. No-op
 * without a data path (unit tests of the command side).
 */
static inline void
mt25208_dp_watch(struct mt25208 *dev, uint32_t uar, uint32_t qpn)
{
	/*
	 * Through the hook the data path set: the command side (QP and CQ
	 * contexts) sits below the data path, which calls into it, and
	 * tells it things without calling up (no circle among the files).
	 */
	if (dev->dp_watch != NULL)
		dev->dp_watch(dev, uar, qpn);
}

/* ------------------------------------------------------------------ */
/* mt25208_mcg.c                                                        */

/** The firmware's MGID hash (MGID_HASH and received multicast use it). */
uint32_t mt25208_mgid_hash(const struct mt25208 *dev, const uint8_t *mgid);
/**
 * MGM entry (host pointer into ICM) holding @p mgid, following the hash
 * chain, or NULL.
 */
void *mt25208_mgm_find(struct mt25208 *dev, const uint8_t *mgid);

/* ------------------------------------------------------------------ */
/* Command handlers (mt25208_cmd.c dispatches; one file per area)       */

/** One firmware command as taken from the HCR. */
struct mt25208_cmd {
	uint64_t in_param;
	uint64_t out_param;
	uint32_t in_mod;
	uint16_t opcode;
	uint8_t op_mod;
	uint16_t token;
	bool event;		/**< E bit: complete through the command EQ */
	uint64_t out_imm;	/**< immediate output (SET_ICM_SIZE, MGID_HASH) */
};

/* The command mailboxes: mt25208_mbox.h. */

/* mt25208_icm.c */
uint8_t mt25208_cmd_query_fw(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_query_dev_lim(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_query_adapter(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_map_fa(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_unmap_fa(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_run_fw(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_set_icm_size(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_map_icm_aux(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_unmap_icm_aux(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_map_icm(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_unmap_icm(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_init_hca(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_close_hca(struct mt25208 *dev, struct mt25208_cmd *c);
/* mt25208_mr.c */
uint8_t mt25208_cmd_sw2hw_mpt(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_hw2sw_mpt(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_query_mpt(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_write_mtt(struct mt25208 *dev, struct mt25208_cmd *c);
/* mt25208_eqcq.c */
uint8_t mt25208_cmd_sw2hw_eq(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_hw2sw_eq(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_query_eq(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_map_eq(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_sw2hw_cq(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_hw2sw_cq(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_query_cq(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_resize_cq(struct mt25208 *dev, struct mt25208_cmd *c);
/* mt25208_qp_ctx.c */
uint8_t mt25208_cmd_modify_qp(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_query_qp(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_conf_special_qp(struct mt25208 *dev, struct mt25208_cmd *c);
/* mt25208_mad.c */
uint8_t mt25208_cmd_mad_ifc(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_init_ib(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_close_ib(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_set_ib(struct mt25208 *dev, struct mt25208_cmd *c);
/* mt25208_mcg.c */
uint8_t mt25208_cmd_read_mgm(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_write_mgm(struct mt25208 *dev, struct mt25208_cmd *c);
uint8_t mt25208_cmd_mgid_hash(struct mt25208 *dev, struct mt25208_cmd *c);
/* mt25208_reset.c */
uint8_t mt25208_cmd_sys_dis(struct mt25208 *dev, struct mt25208_cmd *c);

#endif /* _IBFABRIC_MT25208_H_ */
