/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * net_mthca private state: the HCA (struct mthca_dev, one per PCI
 * function, shared by its ports), the ethdev of one IB port (struct
 * mthca_port), queues, limits, devargs keys and the log macro.
 *
 * Threads: the HCA is built at probe and torn down when its last port is
 * closed, both on the thread that calls the ethdev API. Firmware commands
 * may be posted from any control thread (ethdev callbacks, the EAL
 * interrupt thread, an IB control thread): dev->cmd_lock serialises them.
 * Queues belong to one data lcore each.
 */

#ifndef _MTHCA_H_
#define _MTHCA_H_

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_dev.h>
#include <rte_errno.h>
#include <rte_ether.h>
#include <rte_log.h>
#include <rte_memzone.h>

#include "mthca_hw.h"

/** How many xstats the MAD core's counters give (mthca_queue.c mad_xstats). */
#define MTHCA_MAD_XSTATS	10

extern int mthca_logtype;
#define MTHCA_LOG(level, ...) \
	rte_log(RTE_LOG_ ## level, mthca_logtype, \
		RTE_FMT("%s(): " RTE_FMT_HEAD(__VA_ARGS__,) "\n", __func__, \
			RTE_FMT_TAIL(__VA_ARGS__,)))

/* devargs */
#define MTHCA_ARG_NODE_DESC		"node_desc"
#define MTHCA_NODE_DESC_LEN		64	/**< IBA 14.2.5.2 NodeDescription */

#define MTHCA_MAX_PORTS			2
#define MTHCA_NUM_EQ			2	/**< completion and async */
#define MTHCA_EQ_COMP			0
#define MTHCA_EQ_ASYNC			1
#define MTHCA_EQ_NENT			256	/**< 128 + Linux's 128 spare entries */
#define MTHCA_MAX_QUEUES		16	/**< rx and tx queues per port */
#define MTHCA_MAX_UD_PORTS		16	/**< UD ports (rte_ib_ud_port_create) per HCA */
#define MTHCA_MAX_DESC			4096
#define MTHCA_MIN_DESC			16
#define MTHCA_CMD_TIMEOUT_MS		10000
#define MTHCA_DEFAULT_QKEY		0x00000b1b

/** A DMA buffer: one IOVA-contiguous memzone. */
struct mthca_dma {
	const struct rte_memzone *mz;
	uint8_t *va;
	uint64_t iova;
	size_t len;
};

/** Memory region: MPT slot (hw index), L_Key and its MTT range. */
struct mthca_mr {
	uint32_t index;
	uint32_t lkey;
	uint32_t first_seg;	/**< first MTT segment, if any */
	uint32_t nseg;		/**< 0: physical (no translation) */
	bool live;		/**< SW2HW_MPT done */
};

/**
 * A UAR page of one queue: its doorbells in BAR2 and its doorbell-record
 * page, mapped into the UAR's context area (UARC) in ICM. Every QP and
 * every CQ has its own, so no doorbell overwrites another queue's
 * (doc/guides/nics/mthca_hw.rst, driver rules).
 */
struct mthca_uar {
	uint32_t index;
	volatile uint8_t *page;		/**< the UAR page in BAR2 */
	struct mthca_dma rec;		/**< doorbell records 0..511 of this UAR */
	bool mapped;			/**< rec is mapped into the UARC */
};
#define MTHCA_DBR_FIRST		0	/**< SQ, CQ set-CI record */
#define MTHCA_DBR_SECOND	1	/**< RQ, CQ arm record */

struct mthca_eq {
	uint32_t eqn;
	uint32_t nent;
	uint32_t cons;		/**< free-running consumer counter */
	uint8_t vector;		/**< MSI-X vector */
	bool live;
	int irq_fd;		/**< eventfd (GET_IRQ), or -1 */
	struct mthca_dma buf;
	struct mthca_mr mr;
};

struct mthca_cq {
	uint32_t cqn;
	uint32_t nent;
	uint32_t cons;		/**< free-running consumer index */
	uint32_t arm_sn;
	volatile uint8_t *set_ci_rec;
	volatile uint8_t *arm_rec;
	bool live;
	struct mthca_uar uar;
	struct mthca_dma buf;
	struct mthca_mr mr;
};

/** A UD or MLX queue pair. */
struct mthca_qp {
	uint32_t qpn;		/**< hardware QPN */
	uint8_t st;		/**< MTHCA_QPST_UD or MTHCA_QPST_MLX */
	uint8_t port;
	uint8_t state;
	uint16_t pkey_index;
	uint32_t qkey;
	uint32_t sq_max, rq_max;	/**< powers of two; 0 = no such queue */
	uint32_t sq_shift, rq_shift;
	uint32_t rq_max_gs;
	uint32_t send_off;	/**< SQ offset in the QP buffer */
	uint32_t sq_head, rq_head;
	volatile uint8_t *sq_rec;
	volatile uint8_t *rq_rec;
	struct mthca_cq *scq, *rcq;
	bool live;		/**< QP context handed to hardware (state != RESET) */
	struct mthca_uar uar;
	struct mthca_dma buf;
	struct mthca_mr mr;	/**< MTT region at I/O address 0 over buf */
};

/** Allocator over [0, n): a bitmap, first fit. */
struct mthca_bitmap {
	uint64_t *bits;
	uint32_t n;
};

struct mthca_dev;
struct mthca_sim;
struct mthca_sqp;
struct rte_ib_device;

/**
 * The ethdev of one IB port (eth_dev->data->dev_private), or a UD port: a
 * further ethdev on an IB port whose queues use another P_Key index
 * (rte_ib_ud_port_create, an IPoIB P_Key child's).
 */
struct mthca_port {
	struct mthca_dev *dev;
	uint16_t port_id;	/**< ethdev port */
	uint8_t port;		/**< IB port number, 1-based */
	bool ud;		/**< a UD port (in dev->ud_port[]), not dev->eth_port[] */
	uint16_t pkey_index;	/**< P_Key index of the queues' QPs from their next start */
	bool started;
	uint16_t mtu;
	/* cached PortInfo (MAD_IFC), refreshed by link_update / events */
	uint8_t state;		/**< IBA PortState: 1 Down .. 4 Active */
	uint8_t phys_state;
	uint8_t width_active;	/**< IBA LinkWidthActive bits */
	uint8_t speed_active;	/**< IBA LinkSpeedActive */
	uint8_t max_mtu;	/**< IB MTU enum */
	uint8_t active_mtu;
	uint16_t lid;
	struct rte_ether_addr mac;	/**< made up from the port GUID; ethdev needs one */
	uint32_t qkey;		/**< Q_Key of the data QPs */
	uint64_t pma_base[16];	/**< PMA PortCounters (raw) at the last stats reset */
	/** The MAD core's counters (the mad_ xstats) at the last stats reset */
	uint64_t mad_base[MTHCA_MAD_XSTATS];
};

/** Q_Key of @p p's data QPs. */
static inline uint32_t
mthca_port_qkey(const struct mthca_port *p)
{
	return p->qkey;
}

/**
 * What the layers below the ethdev report or ask of it: the EQ drain
 * (mthca_eq.c), the simulated function (mthca_sim.c) and the rte_ib ops
 * (mthca_ib.c, for UD ports) call these, never a function of
 * mthca_ethdev.c, and the EQ drain none of mthca_ib.c either, so no PMD
 * file calls into one that calls it back (doc/guides/nics/mthca.rst,
 * "Files"). Set once at probe (mthca_ethdev.c), before the EQs exist;
 * read-only afterwards.
 */
struct mthca_event_ops {
	/** PORT_CHANGE event of @p port (EAL interrupt thread, EQ alarm). */
	void (*port_change)(struct mthca_dev *dev, uint8_t port, bool active);
	/** Completion event of CQ @p cqn (EQ drain, under eq_lock). */
	void (*cq_event)(struct mthca_dev *dev, uint32_t cqn);
	/**
	 * The device is gone (the simulated function's socket closed): no
	 * command is posted any more, every port goes down with an LSC
	 * event, the IB device raises DEVICE_FATAL. Closing the ports then
	 * only frees host memory.
	 */
	void (*gone)(struct mthca_dev *dev);
	/**
	 * A UD port on IB port @p port whose queues use @p pkey_index, named
	 * "<the port's ethdev name>.<pkey hex>"; probed, not configured.
	 * -EEXIST (name taken), -ENOSPC (MTHCA_MAX_UD_PORTS), -ENOMEM.
	 */
	int (*ud_port_create)(struct mthca_dev *dev, uint8_t port, uint16_t pkey_index,
			      uint16_t pkey, uint16_t *port_id);
	/** 0 and its IB port when @p port_id is a UD port of @p dev, else -ENODEV. */
	int (*ud_port_lookup)(struct mthca_dev *dev, uint16_t port_id, uint8_t *port);
	/** The struct mthca_port of ethdev @p port_id if it is one of @p dev's, else NULL. */
	struct mthca_port *(*port_of)(struct mthca_dev *dev, uint16_t port_id);
};

/** The HCA: one per PCI function. */
struct mthca_dev {
	const struct mthca_event_ops *ev;	/**< upcalls, set at probe */
	char name[RTE_DEV_NAME_MAX_LEN];
	struct rte_pci_device *pci;
	struct mthca_sim *sim;		/**< simulated function, or NULL */
	volatile uint8_t *bar0;
	size_t bar0_len;
	volatile uint8_t *bar2;
	size_t bar2_len;
	char node_desc[MTHCA_NODE_DESC_LEN + 1];
	unsigned int nports_open;	/**< ethdevs not yet closed */
	uint16_t eth_port[MTHCA_MAX_PORTS];
	/** UD ports' ethdevs, RTE_MAX_ETHPORTS when free; written by their create
	 *  and close (control side), read by the port events and the rte_ib
	 *  core's lookup: ud_lock protects it */
	uint16_t ud_port[MTHCA_MAX_UD_PORTS];
	pthread_mutex_t ud_lock;
	unsigned int dma_seq;		/**< memzone name counter */

	pthread_mutex_t cmd_lock;
	struct mthca_dma mbox_in, mbox_out;
	bool catastrophic;		/**< a command timed out: give up on the HCA */

	/* QUERY_FW */
	uint64_t fw_ver;
	uint16_t fw_pages;
	uint64_t eq_arm_off, eq_set_ci_off, clr_int_off;

	/* QUERY_DEV_LIM, decoded */
	uint32_t rsvd_qps, rsvd_cqs, rsvd_eqs, rsvd_mrws, rsvd_uars, rsvd_pds, rsvd_mtt_segs;
	uint32_t qpc_sz, eqpc_sz, cqc_sz, eqc_sz, srqc_sz, mpt_sz, uar_scr_sz, eec_sz, eeec_sz;
	uint32_t uar_size, num_ports, dev_flags, max_qp_sz, max_cq_sz;
	uint32_t max_sg, max_desc_sz;
	uint64_t max_icm;
	uint8_t mtu_cap, width_cap, vl_cap;
	uint32_t gid_len, pkey_len;
	uint8_t inta_pin;
	char board_id[MTHCA_QAD_BOARD_ID_LEN + 1];

	/* ICM profile: bases (ICM virtual addresses) and counts */
	uint64_t qpc_base, eqpc_base, eec_base, eeec_base, srqc_base, cqc_base;
	uint64_t eqc_base, rdb_base, mc_base, mpt_base, mtt_base, uar_scr_base, uarc_base;
	uint64_t icm_total;
	uint32_t num_qps, num_cqs, num_mpts, num_mtt_segs, num_mcgs, num_uars;
	uint8_t *mtt_host;		/**< host memory behind the MTT table */
	uint8_t *mgm_host;		/**< host memory behind the MGM table */

	/* what is mapped, for teardown */
	bool fw_mapped, fw_running, aux_mapped, hca_up;
	struct mthca_dma fw_area, aux_area;
#define MTHCA_ICM_TABLES 10
	struct {
		uint64_t virt;
		uint32_t pages;
		struct mthca_dma mem;
	} icm[MTHCA_ICM_TABLES];
	unsigned int nicm;

	/* driver objects */
	struct mthca_bitmap uar_map;
	uint32_t pd;
	struct mthca_mr ntmr;		/**< physical, no translation: bus addresses */
	struct mthca_bitmap mpt_map, mtt_map, cq_map, qp_map;
	uint32_t sqp_start;		/**< hardware QPN of QP0 port 1 */
	bool sqp_conf;
	struct mthca_eq eq[MTHCA_NUM_EQ];
	bool eq_mapped;
	pthread_mutex_t eq_lock;	/**< one drainer of the EQs at a time */
	struct rte_intr_handle *intr[MTHCA_NUM_EQ];
	bool intr_registered[MTHCA_NUM_EQ];
	bool eq_alarm;			/**< EQs polled by an alarm (real hardware) */
	/** The completion EQ's eventfd is the IB device's intr_fd: the MAD core's
	 *  thread wakes on it and drains the EQs itself (mthca_ib.c), with no
	 *  hand-off through the EAL interrupt thread. */
	bool comp_irq_direct;
	uint64_t comp_events;
	bool ib_up[MTHCA_MAX_PORTS];

	/* the IB device (mthca_ib.c) */
	struct rte_ib_device *ibdev;
	struct mthca_sqp *sqp[MTHCA_MAX_PORTS];	/**< QP0/QP1 of each port */
	int ctl_fd;			/**< eventfd: control-side work (special CQs) */
	struct mthca_bitmap amgm_map;	/**< MGM overflow entries */
	pthread_mutex_t mcg_lock;
};

/* mthca_dma.c */
int mthca_dma_alloc(struct mthca_dev *dev, size_t len, size_t align, struct mthca_dma *d);
void mthca_dma_free(struct mthca_dma *d);
int mthca_bitmap_init(struct mthca_bitmap *b, uint32_t n, uint32_t reserved);
void mthca_bitmap_free(struct mthca_bitmap *b);
/** Allocate @p count consecutive entries aligned to @p align; -1 if none. */
int64_t mthca_bitmap_alloc(struct mthca_bitmap *b, uint32_t count, uint32_t align);
void mthca_bitmap_release(struct mthca_bitmap *b, uint32_t first, uint32_t count);
uint32_t mthca_bitmap_used(const struct mthca_bitmap *b);

/* mthca_hca.c */
int mthca_hca_init(struct mthca_dev *dev);
void mthca_hca_close(struct mthca_dev *dev);
/** A UAR page and its doorbell-record page for one queue. */
int mthca_uar_alloc(struct mthca_dev *dev, struct mthca_uar *u);
void mthca_uar_free(struct mthca_dev *dev, struct mthca_uar *u);
/** Doorbell record @p idx of @p u: counter 0, identity (qn << 8) | (type << 5). */
volatile uint8_t *mthca_dbr_init(struct mthca_uar *u, uint32_t idx, uint32_t qn,
				 uint32_t type);

/** A 32-bit big-endian register of BAR0 (HCR, EQ set-CI and arm, reset). */
static inline void
mthca_bar0_write32(struct mthca_dev *dev, uint64_t off, uint32_t v)
{
	mthca_mmio_write32(dev->bar0 + off, v);
}

static inline uint32_t
mthca_bar0_read32(struct mthca_dev *dev, uint64_t off)
{
	return mthca_mmio_read32(dev->bar0 + off);
}

/* mthca_mr.c */
int mthca_mr_phys(struct mthca_dev *dev, struct mthca_mr *mr);
/** MTT region: I/O address @p start, @p npages 4 KiB pages at @p iovas. */
int mthca_mr_pages(struct mthca_dev *dev, struct mthca_mr *mr, uint64_t start,
		   const uint64_t *iovas, uint32_t npages, uint32_t access);
/** MTT region at I/O address 0 over an IOVA-contiguous buffer. */
int mthca_mr_buf(struct mthca_dev *dev, struct mthca_mr *mr, const struct mthca_dma *buf,
		 uint32_t access);
void mthca_mr_free(struct mthca_dev *dev, struct mthca_mr *mr);

/* mthca_eq.c */
int mthca_eq_init(struct mthca_dev *dev);
void mthca_eq_cleanup(struct mthca_dev *dev);
/** Drain the EQs; events go up through dev->ev (struct mthca_event_ops). */
void mthca_eq_poll(struct mthca_dev *dev);
/** Drain the completion EQ only (the MAD core's thread), arm every EQ. */
void mthca_eq_poll_comp(struct mthca_dev *dev);

/* mthca_cq.c */
int mthca_cq_create(struct mthca_dev *dev, struct mthca_cq *cq, uint32_t nent);
void mthca_cq_destroy(struct mthca_dev *dev, struct mthca_cq *cq);

/* mthca_qp.c */
int mthca_qp_create(struct mthca_dev *dev, struct mthca_qp *qp, uint32_t qpn, uint8_t st,
		    uint8_t port, struct mthca_cq *scq, struct mthca_cq *rcq,
		    uint32_t sq_depth, uint32_t rq_depth, uint32_t rq_max_gs,
		    uint32_t sq_max_gs);
/** RESET -> INIT -> RTR -> RTS; a QP0 reaching RTR brings its port up (INIT_IB). */
int mthca_qp_up(struct mthca_dev *dev, struct mthca_qp *qp);
/** RESET -> INIT only: receives may be posted from INIT on. */
int mthca_qp_init(struct mthca_dev *dev, struct mthca_qp *qp);
/** INIT -> RTR -> RTS, with INIT_IB for a QP0 at RTR. */
int mthca_qp_rts(struct mthca_dev *dev, struct mthca_qp *qp);
/**
 * Set the Q_Key of @p qp: a live QP in RTS takes it at once (RTS->RTS with
 * the Q_Key optional parameter), a QP in RESET at its next RST2INIT.
 * -EBUSY in another state; on failure the QP keeps its Q_Key.
 */
int mthca_qp_qkey_set(struct mthca_dev *dev, struct mthca_qp *qp, uint32_t qkey);
/** Any state -> RESET (the doorbell records restart at 0). */
int mthca_qp_reset(struct mthca_dev *dev, struct mthca_qp *qp);
void mthca_qp_destroy(struct mthca_dev *dev, struct mthca_qp *qp);
int64_t mthca_qpn_alloc(struct mthca_dev *dev);
void mthca_qpn_free(struct mthca_dev *dev, uint32_t qpn);

/* mthca_ib.c: the rte_ib device of the HCA and its special QPs */
int mthca_ib_register(struct mthca_dev *dev);
void mthca_ib_unregister(struct mthca_dev *dev);
void mthca_ib_port_event(struct mthca_dev *dev, uint8_t port, bool active);
void mthca_ib_port_close(struct mthca_dev *dev, uint8_t port);
void mthca_ib_fatal(struct mthca_dev *dev);
/** A completion event for CQ @p cqn (EQ drain): wakes the control side if it is a special CQ. */
void mthca_ib_cq_event(struct mthca_dev *dev, uint32_t cqn);

/* mthca_mcg.c: multicast groups (MGM table) */
int mthca_mcg_attach(struct mthca_dev *dev, const uint8_t gid[16], uint32_t qpn);
int mthca_mcg_detach(struct mthca_dev *dev, const uint8_t gid[16], uint32_t qpn);

#endif /* _MTHCA_H_ */
