/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * hca_host: a host that drives ibfabric's MT25208 model with no driver,
 * from public sources alone (Linux mthca, rdma-core, iPXE's arbel.c and
 * the PRM layouts of its MT25218_PRM.h; doc/guides/nics/mthca_hw.rst).
 * It plays what a PMD would do, in the most direct way: raw HCR commands,
 * WQEs, CQEs and EQEs it builds and parses itself. Single-threaded; every
 * call polls.
 *
 * Two host styles, both of which run on real silicon (enum hh_style):
 * Linux's and iPXE's. A test runs each scenario in both, so the model is
 * held to what the hardware reads, not to one driver's habits.
 *
 * Files: hh_pci.c (PCI function directory, BAR mmaps, IOMMU/MSI-X socket,
 * DMA arena), hh_cmd.c (HCR protocol, polled and event mode), hh_res.c
 * (mem-free bring-up, ICM, MRs, EQs, CQs, QPs), hh_dp.c (WQEs, doorbells,
 * CQ polling, the QP0 SMA loop), hca_host.c (scenarios and checks).
 */

#ifndef _HH_H_
#define _HH_H_

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hh_hw.h"

#define HH_NUM_EQ	3
#define HH_MAX_UARPG	128	/* UAR pages for queues */
#define HH_UARPG_FIRST	16	/* queue UARs start at driver UAR + this */
#define HH_UARPG_CQ	(1u << 31)	/* key of a CQ's page: CQN | this */
#define HH_RECV_SLOT	4096	/* receive buffer per RQ entry: GRH + 2 KiB MTU fits */
#define HH_MLX_SLOT	512	/* MLX send slot: headers at +0, MAD at +128 */
#define HH_EQ_COMP	0
#define HH_EQ_ASYNC	1
#define HH_EQ_CMD	2

extern int hh_verbose;

/**
 * How the host lays out and hands over its queues. Both are what a real
 * driver does on MT25208 silicon (doc/guides/nics/mthca_hw.rst, "Host
 * styles").
 */
enum hh_style {
	/**
	 * Linux mthca: each QP's WQEs in one buffer, receive queue first,
	 * behind an MTT-translated MR that starts at 0 (wqe_base 0, WQE
	 * addresses are offsets); EQ and CQ buffers behind MRs at 0; full
	 * modify-QP mailboxes with optparam bits; 256 KiB UAR context per
	 * UAR (mthca_alloc_qp_common(), mthca_alloc_wqe_buf(),
	 * __mthca_modify_qp()); 64-bit doorbell stores (mthca_write64()).
	 */
	HH_STYLE_LINUX = 0,
	/**
	 * iPXE arbel.c: SQ and RQ in separate buffers at their bus
	 * addresses, reached through one physical MPT (key prefix 0x77,
	 * arbel_setup_mpt()) with wqe_base = bits 63:32 and
	 * snd/rcv_wqe_base = bits 31:0 (arbel_create_qp()); EQ and CQ at
	 * their bus addresses; RST2INIT with the whole context but no
	 * local_qpn, then near-empty INIT2RTR / RTR2RTS mailboxes and the
	 * Q_Key by RTS2RTS (arbel_modify_qp()); 4 KiB UAR context pages
	 * (arbel_alloc_icm()); doorbells as two 32-bit stores
	 * (arbel_ring_doorbell()).
	 */
	HH_STYLE_IPXE = 1,
};

/**
 * One driver bug the host commits on purpose, for the buggy-driver matrix
 * (hh_matrix.c). Each names the place a real driver would get it wrong;
 * doc/guides/nics/mthca_hw.rst, "Driver rules", says what the hardware
 * does instead. hh_dev.bugs holds a set of them; 0 is a correct host.
 */
enum hh_bug {
	HH_BUG_NO_SEND_DB = 1u << 0,	/**< WQE and record written, no UAR doorbell */
	HH_BUG_DB_QPN = 1u << 1,	/**< doorbell qpn names another QP (hh_dev.bug_qpn) */
	HH_BUG_DB_COUNTER = 1u << 2,	/**< doorbell wqe_counter one ahead */
	HH_BUG_DB_CNT0 = 1u << 3,	/**< doorbell wqe_cnt 0 */
	HH_BUG_NEXT_DBD = 1u << 4,	/**< next segment always1 (DBD) clear */
	HH_BUG_CTRL_ALWAYS1 = 1u << 5,	/**< ctrl segment always1 clear */
	HH_BUG_RSC0 = 1u << 6,		/**< QPC rsc 0 (receive WQEs never set the C bit) */
	HH_BUG_AV_PD = 1u << 7,		/**< AV pd not the QP's */
	HH_BUG_AV_PORT = 1u << 8,	/**< AV port_number not the QP's */
	HH_BUG_AV_RGID = 1u << 9,	/**< AV rgid[31:0] 0 with the G bit clear */
	HH_BUG_WQE_BASE = 1u << 10,	/**< QPC wqe_base one too high */
	HH_BUG_FW_UNMASKED = 1u << 11,	/**< QUERY_FW register addresses used unmasked */
	HH_BUG_MLX_RLID = 1u << 12,	/**< MLX ctrl rlid not the header's DLID */
	HH_BUG_DR_NO_D = 1u << 13,	/**< directed-route reply without the D bit */
	HH_BUG_CQ_PD = 1u << 14,	/**< CQC pd not the PD of the CQ buffer's L_Key */
	HH_BUG_EQ_PD = 1u << 15,	/**< EQC pd not the PD of the EQ buffer's L_Key */
	/**
	 * Not a bug: CQC c_eqn 64, outside 0..63, which the PRM allows for a
	 * CQ that reports no completion events (a poll-only CQ).
	 */
	HH_BUG_CQ_NO_EQN = 1u << 16,
};

/** "linux" / "ipxe". */
const char *hh_style_name(enum hh_style s);
/** Parse a style name; -EINVAL for anything else. */
int hh_style_parse(const char *name, enum hh_style *s);
#define HH_LOG(...)	do { if (hh_verbose) { fprintf(stderr, "hca_host: " __VA_ARGS__); fputc('\n', stderr); } } while (0)
#define HH_ERR(...)	do { fprintf(stderr, "hca_host: error: " __VA_ARGS__); fputc('\n', stderr); } while (0)

/** A piece of the DMA arena: host pointer and IOVA. */
struct hh_buf {
	uint8_t *va;
	uint64_t iova;
	size_t len;
};

/** Memory region: MPT slot, L_Key, and what it covers. */
struct hh_mr {
	uint32_t index;
	uint32_t lkey;
	uint32_t first_seg;
	struct hh_buf buf;
};

struct hh_eq {
	uint32_t eqn;
	uint32_t nent;
	uint32_t cons;
	struct hh_buf buf;
	struct hh_mr mr;
	int irq_fd;		/**< eventfd from GET_IRQ, or -1 */
};

struct hh_cq {
	uint32_t cqn;
	uint32_t uar;		/**< its own UAR page (one doorbell slot per queue) */
	uint32_t nent;
	uint32_t cons;
	uint32_t arm_sn;
	uint32_t set_ci_db;	/**< record handle (hh_dbr): UAR page << 16 | index */
	uint32_t arm_db;
	struct hh_buf buf;
	struct hh_mr mr;
};

struct hh_qp {
	uint32_t qpn;		/**< hardware QPN */
	enum hh_style style;
	uint8_t st;		/**< HH_QPST_UD or HH_QPST_MLX */
	uint8_t port;
	uint32_t qkey;
	uint32_t sq_max, rq_max;
	uint32_t sq_shift, rq_shift;
	uint32_t send_off;	/**< Linux: SQ offset in buf; iPXE: 0 */
	uint8_t *sq_va, *rq_va;	/**< first send / receive WQE */
	/** The 32-bit WQE addresses the HCA sees (nda, CQE wqe): bits 31:0 */
	uint32_t sq_addr, rq_addr;
	uint32_t wqe_base;	/**< QPC wqe_base: bits 63:32 of both */
	uint32_t wqe_lkey;	/**< QPC wqe_lkey */
	uint32_t sq_head, rq_head;
	uint32_t uar;		/**< its own UAR page: usr_page, doorbells, records */
	uint32_t sq_db, rq_db;	/**< record handles (hh_dbr) */
	struct hh_cq *scq, *rcq;
	struct hh_buf buf;	/**< Linux: RQ then SQ; iPXE: the SQ */
	struct hh_buf rbuf;	/**< iPXE: the RQ */
	struct hh_mr mr;	/**< Linux: the WQE MR at 0 */
	struct hh_buf data;	/**< receive buffers, one 2 KiB slot per RQ entry */
	struct hh_buf hdr;	/**< MLX header slots (72 bytes each), QP0/QP1 */
	uint16_t psn;
	/* QP0/QP1: send completions the agent saw (hh_sma_poll()) */
	unsigned int sends_ok, sends_err;
	uint8_t last_err_synd;
};

struct hh_dev {
	/*
	 * In-process use (unit tests): called whenever the host waits for
	 * the device, so the test can run the model; NULL across processes.
	 */
	void (*idle)(void *arg);
	void *idle_arg;
	/** In-process: hand out an eventfd for MSI-X @p vector instead of GET_IRQ. */
	int (*get_irq)(void *arg, uint32_t vector);

	/** Host style; kept across hh_open() / hh_attach_mem(). */
	enum hh_style style;
	/** enum hh_bug set the host commits now; kept across hh_open(). */
	uint32_t bugs;
	uint32_t bug_qpn;	/**< HH_BUG_DB_QPN: the QPN the doorbell names */
	unsigned long dropped_writes;	/**< BAR0 writes beyond the BAR (master aborts) */

	char dir[PATH_MAX];
	int sock;
	bool in_process;
	volatile uint8_t *bar0;
	size_t bar0_len;
	volatile uint8_t *bar2;
	size_t bar2_len;

	/* DMA arena: one memfd registered as one IOMMU window */
	int dma_fd;
	uint8_t *dma_va;
	uint64_t dma_iova;
	size_t dma_size;
	size_t dma_used;

	struct hh_buf mbox_in, mbox_out;

	/* command interface */
	bool events;
	uint16_t token;
	uint32_t last_status;

	/* QUERY_FW */
	uint16_t fw_pages;
	uint64_t fw_ver;
	uint8_t log_max_cmds;
	uint64_t clr_int_base, catas_base, eq_arm_base, eq_set_ci_base;
	uint32_t catas_size;

	/* QUERY_DEV_LIM, decoded */
	uint32_t rsvd_qps, rsvd_cqs, rsvd_eqs, rsvd_mrws, rsvd_uars, rsvd_pds;
	uint32_t rsvd_mtt_segs, rsvd_srqs, rsvd_mgms;
	uint32_t qpc_sz, eqpc_sz, cqc_sz, eqc_sz, srqc_sz, mpt_sz, uar_scr_sz;
	uint32_t eec_sz, eeec_sz;
	uint32_t uar_size, num_ports, flags;
	uint64_t max_icm;
	uint8_t mtu_cap, width_cap, vl_cap;
	uint8_t log_max_qp_sz;	/**< log2 of the most WQEs a queue may have */
	uint32_t gid_len, pkey_len;

	/* profile (ICM virtual addresses) */
	uint64_t qpc_base, eqpc_base, eec_base, eeec_base, srqc_base, cqc_base;
	uint64_t eqc_base, rdb_base, mc_base, mpt_base, mtt_base, uar_scr_base;
	uint64_t uarc_base, icm_total;
	uint32_t uarc_size;	/**< UAR context per UAR: 256 KiB (Linux), 4 KiB (iPXE) */
	uint32_t num_qps, num_cqs, num_srqs, num_mpts, num_mtt_segs, num_mcgs;
	uint32_t num_uars;
	uint8_t *mtt_host;	/**< host memory behind the MTT table */
	uint32_t aux_pages;

	/* driver objects */
	uint8_t inta_pin;
	uint32_t uar;		/**< driver UAR index */
	struct hh_buf dbr;	/**< doorbell-record page 0 of the driver UAR */
	uint32_t next_dbr;
	/*
	 * One UAR page per queue (doc/guides/nics/mthca_hw.rst, "Doorbells":
	 * one doorbell slot per queue), each with its first UARC page of
	 * records; page 0 is the driver UAR's. Keyed by queue so a queue
	 * created again on the same number reuses its page.
	 */
	struct hh_uarpg {
		uint32_t key;
		uint32_t uar;
		struct hh_buf dbr;
		uint32_t next_dbr;
	} uarpg[HH_MAX_UARPG];
	unsigned int nuarpg;
	uint32_t pd;
	struct hh_mr ntmr;	/**< physical, no translation (iPXE: its one global MPT) */
	uint32_t next_mpt;
	uint32_t next_mtt_seg;
	uint32_t sqp_start;
	struct hh_eq eq[HH_NUM_EQ];
	bool eq_up;
};

/* hh_pci.c */
int hh_open(struct hh_dev *d, const char *pci_dir, size_t dma_size);
/**
 * In-process attach (unit tests): BARs and DMA memory the caller made;
 * @p dma_va is reachable by the device at @p dma_iova (the caller
 * registered it). Keeps d->idle / d->get_irq set before the call.
 */
int hh_attach_mem(struct hh_dev *d, uint8_t *bar0, uint8_t *bar2, size_t bar2_len,
		  uint8_t *dma_va, uint64_t dma_iova, size_t dma_size);
/** CLOCK_MONOTONIC in microseconds. */
uint64_t hh_now_us(void);
/** Wait a little for the device (runs d->idle in-process). */
void hh_idle(struct hh_dev *d, unsigned int spins);
void hh_close(struct hh_dev *d);
int hh_dma_alloc(struct hh_dev *d, size_t len, size_t align, struct hh_buf *b);
int hh_iommu_map(struct hh_dev *d, int fd, uint64_t iova, uint64_t len, uint64_t off);
int hh_iommu_unmap(struct hh_dev *d, uint64_t iova, uint64_t len);
int hh_get_irq(struct hh_dev *d, uint32_t vector);
uint32_t hh_bar0_read32(struct hh_dev *d, uint32_t off);
/** A 32-bit BAR0 store; one beyond the BAR is lost (counted in dropped_writes). */
void hh_bar0_write32(struct hh_dev *d, uint64_t off, uint32_t v);
void hh_uar_write64(struct hh_dev *d, uint32_t uar, uint32_t off, uint32_t hi, uint32_t lo);

/* hh_cmd.c */
/** Post a command; returns the firmware status (>= 0) or -ETIMEDOUT. */
int hh_cmd(struct hh_dev *d, uint64_t in_param, uint64_t *out_param,
	   uint32_t in_mod, uint8_t op_mod, uint16_t op);
int hh_cmd_box(struct hh_dev *d, uint16_t op, uint8_t op_mod, uint32_t in_mod,
	       bool in_box, bool out_box);
const char *hh_op_name(uint16_t op);

/* hh_res.c */
int hh_bringup(struct hh_dev *d);
int hh_setup_eqs(struct hh_dev *d);
int hh_teardown(struct hh_dev *d);
int hh_mr_phys(struct hh_dev *d, struct hh_mr *mr);
int hh_mr_mtt(struct hh_dev *d, struct hh_mr *mr, const struct hh_buf *b, uint32_t access);
int hh_uar_get(struct hh_dev *d, uint32_t key, uint32_t *pg);
uint32_t hh_dbr_alloc(struct hh_dev *d, uint32_t pg, uint32_t qn, enum hh_dbr_type type);
uint8_t *hh_dbr(struct hh_dev *d, uint32_t idx);
int hh_cq_create(struct hh_dev *d, struct hh_cq *cq, uint32_t cqn, uint32_t nent);
/** As hh_cq_create(), its completion events to EQ @p comp_eqn. */
int hh_cq_create_on(struct hh_dev *d, struct hh_cq *cq, uint32_t cqn, uint32_t nent,
		    uint32_t comp_eqn);
/** SW2HW_EQ of EQ @p eqn, @p nent EQEs, EQC intr @p intr (mthca_create_eq()). */
int hh_eq_create(struct hh_dev *d, struct hh_eq *eq, uint32_t eqn, uint32_t nent, uint8_t intr);
/** HW2SW_EQ (mthca_free_eq()); the buffer stays in the arena. */
int hh_eq_destroy(struct hh_dev *d, struct hh_eq *eq);
int hh_qp_create(struct hh_dev *d, struct hh_qp *qp, uint32_t qpn, uint8_t st, uint8_t port,
		 struct hh_cq *scq, struct hh_cq *rcq, uint32_t depth);
/** As hh_qp_create() with separate send and receive queue depths. */
int hh_qp_create_sized(struct hh_dev *d, struct hh_qp *qp, uint32_t qpn, uint8_t st,
		       uint8_t port, struct hh_cq *scq, struct hh_cq *rcq, uint32_t sq_depth,
		       uint32_t rq_depth);
int hh_qp_modify(struct hh_dev *d, struct hh_qp *qp, enum hh_qp_state from, enum hh_qp_state to,
		 uint16_t pkey_index);
/** Any transition command @p op (mthca_MODIFY_QP()) with the mailbox for state @p to. */
int hh_qp_cmd(struct hh_dev *d, struct hh_qp *qp, uint16_t op, enum hh_qp_state from,
	      enum hh_qp_state to, uint16_t pkey_index);
int hh_qp_up(struct hh_dev *d, struct hh_qp *qp, uint16_t pkey_index);
/**
 * Back to RESET with empty rings, as a driver recovers a QP in ERR
 * (2RST, producer counters and doorbell records to 0, rings relinked);
 * hh_qp_up() and receives again make it usable.
 */
int hh_qp_reset(struct hh_dev *d, struct hh_qp *qp);
int hh_init_ib(struct hh_dev *d, uint8_t port);
int hh_mad_ifc(struct hh_dev *d, uint8_t port, const uint8_t *mad, uint8_t *resp,
	       const uint8_t *ext, uint16_t slid, uint8_t op_mod);
/** Next EQE of @p eq (owner bit clear), consumed; NULL if empty. */
const uint8_t *hh_eq_next(struct hh_dev *d, struct hh_eq *eq);
void hh_eq_arm(struct hh_dev *d, struct hh_eq *eq);

/* hh_dp.c */
struct hh_ud_dest {
	uint16_t dlid;
	uint32_t dqpn;
	uint32_t qkey;
	uint8_t sl;
	uint8_t port;
	bool grh;		/**< send a GRH (multicast needs one) */
	uint8_t dgid[16];
};
/** Send / receive WQE @p i of @p qp: host pointer and the address the HCA reports. */
uint8_t *hh_sq_wqe(const struct hh_qp *qp, uint32_t i);
uint8_t *hh_rq_wqe(const struct hh_qp *qp, uint32_t i);
uint32_t hh_sq_addr(const struct hh_qp *qp, uint32_t i);
uint32_t hh_rq_addr(const struct hh_qp *qp, uint32_t i);
/** Ring index of the receive WQE a CQE's wqe field names. */
uint32_t hh_rq_index(const struct hh_qp *qp, uint32_t wqe);
int hh_post_recv(struct hh_dev *d, struct hh_qp *qp, uint32_t n);
int hh_post_recv_sge(struct hh_dev *d, struct hh_qp *qp, uint32_t lkey, uint64_t addr,
		     uint32_t len);
int hh_post_ud_send(struct hh_dev *d, struct hh_qp *qp, const struct hh_ud_dest *dst,
		    uint32_t lkey, uint64_t addr, uint32_t len, bool signaled);
/**
 * Post @p n UD sends behind doorbells of at most @p per_db WQEs each
 * (Linux: MTHCA_ARBEL_MAX_WQES_PER_SEND_DB, 255). A @p per_db above 255
 * is the bug of one doorbell for them all: wqe_cnt keeps 8 bits.
 */
int hh_post_ud_send_batch(struct hh_dev *d, struct hh_qp *qp, const struct hh_ud_dest *dst,
			  uint32_t lkey, uint64_t addr, uint32_t len, uint32_t n,
			  uint32_t per_db);
int hh_post_mlx_send(struct hh_dev *d, struct hh_qp *qp, const uint8_t *hdr, uint32_t hdr_len,
		     const uint8_t *mad, bool vl15, bool slr, uint8_t sl, uint16_t dlid);
/** LRH + BTH + DETH (28 bytes) of a UD SEND_ONLY carrying 256 bytes, for an MLX send. */
void hh_build_ud_headers(uint8_t *h, uint8_t vl, uint8_t sl, uint16_t dlid, uint16_t slid,
			 uint16_t pkey, uint32_t dqp, uint32_t psn, uint32_t qkey, uint32_t sqp);
/** Poll one CQE (copied into @p cqe, 32 bytes); 1 got one, 0 empty. */
int hh_cq_poll(struct hh_dev *d, struct hh_cq *cq, uint8_t *cqe);
/** Wait up to @p ms for a CQE (service @p sma QP0/QP1 loops meanwhile if set). */
int hh_cq_wait(struct hh_dev *d, struct hh_cq *cq, uint8_t *cqe, int ms);
void hh_cq_arm(struct hh_dev *d, struct hh_cq *cq, bool solicited);
/** The QP0/QP1 agent: answer received SMPs/PMA MADs via MAD_IFC. Returns MADs handled. */
int hh_sma_poll(struct hh_dev *d, struct hh_qp *qp0, struct hh_qp *qp1, uint16_t *port_lid);

#endif /* _HH_H_ */
