/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Receive and send queues: one UD QP with its own CQ per queue. The hot
 * fields of each queue come first; the queue belongs to one data lcore,
 * the control thread touches it only while the port is stopped.
 */

#ifndef _MTHCA_RXTX_H_
#define _MTHCA_RXTX_H_

#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_ib_dev.h>
#include <rte_ib_mbuf.h>

#include "mthca.h"

/** Gather entries per send WQE: UD WQE of 16 + 48 + 4 x 16 = 128 bytes. */
#define MTHCA_TX_MAX_SEGS	4
/**
 * log2 of the send WQE stride that MTHCA_TX_MAX_SEGS gives (Linux
 * mthca_alloc_wqe_buf: the smallest power of two that holds the largest
 * WQE): a constant, so the burst shifts by an immediate.
 */
#define MTHCA_TX_WQE_SHIFT	7

/**
 * Transmit offloads: gather, and fast free (every mbuf of a queue from one
 * mempool with a reference count of 1, as the application promises).
 */
#define MTHCA_TX_OFFLOADS	(RTE_ETH_TX_OFFLOAD_MULTI_SEGS | \
				 RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE)

/** Most receive completions one rx_burst call handles. */
#define MTHCA_RX_BURST_MAX	64

/** An address handle: the core's header and the mem-free UD address vector. */
struct mthca_ah {
	struct rte_ib_ah ib;
	uint8_t av[MTHCA_AV_SIZE] __rte_aligned(16);
};

/** Software view of a CQ, for the burst functions. */
struct mthca_cq_ring {
	uint8_t *cqes;
	uint32_t cons;
	uint32_t mask;
	volatile uint8_t *set_ci_rec;
};

struct mthca_rxq {
	struct mthca_cq_ring cq;
	uint8_t *wqes;			/**< RQ WQE ring (one 64-byte WQE, one SGE each) */
	uint32_t head;			/**< WQEs posted (free-running) */
	uint32_t mask;
	volatile uint8_t *rq_rec;
	uint32_t lkey;
	bool addr_va;			/**< WQE addresses are virtual (MTT region) */
	/** offsetof(struct rte_mbuf, buf_addr) if addr_va, else of buf_iova */
	uint32_t addr_field;
	uint16_t port_id;
	uint8_t ib_port;
	struct rte_mempool *mp;
	struct rte_mbuf **elts;		/**< mbuf of each RQ slot */
	uint64_t mbuf_init;		/**< rearm_data of a received mbuf */
	uint32_t buf_off;		/**< WQE address - buffer address (GRH slot) */
	int dynoff;			/**< rte_ib mbuf dynfield offset */
	uint64_t packets, bytes, errors, nombuf;
	/* control */
	uint16_t idx;
	uint16_t nb_desc;
	struct mthca_port *priv;
	struct mthca_cq hwcq;
	struct mthca_qp qp;
	struct mthca_mr mr;		/**< MTT region over the mempool, if registered */
} __rte_cache_aligned;

/**
 * Error completions of a send queue, by syndrome (the tx_qN_err_* xstats):
 * those a UD send can get, and the rest.
 */
enum mthca_tx_err {
	MTHCA_TX_ERR_LOCAL_LENGTH,	/**< MTHCA_SYND_LOCAL_LENGTH */
	MTHCA_TX_ERR_LOCAL_QP_OP,	/**< MTHCA_SYND_LOCAL_QP_OP */
	MTHCA_TX_ERR_LOCAL_PROT,	/**< MTHCA_SYND_LOCAL_PROT */
	MTHCA_TX_ERR_LOCAL_ACCESS,	/**< MTHCA_SYND_LOCAL_ACCESS */
	MTHCA_TX_ERR_OTHER,		/**< any other but WR_FLUSH */
	MTHCA_TX_ERR_NUM
};

/**
 * A send queue. The burst (one data lcore) owns every field while
 * stalled is 0. An error completion takes the QP to ERR (IBA 10.3.1):
 * the burst that reaps it sets err_seen, and at its end stores stalled 1
 * (release: the ring, the counters and everything it wrote before), after
 * which no burst touches the queue and tx_burst returns 0. The port's
 * transmit watch (mthca_queue.c, EAL alarm thread) then owns it: it takes
 * the QP through RESET back to RTS, gives the mbufs of the WQEs still
 * outstanding back, resets the ring, and stores stalled 0 (release) to
 * hand it back. Queue setup and release run while the port is stopped
 * and the watch cancelled.
 */
struct mthca_txq {
	struct mthca_cq_ring cq;
	uint32_t stalled;		/**< 1: the ring is the transmit watch's (see above) */
	bool err_seen;			/**< a burst reaped an error completion (burst only) */
	uint8_t *wqes;			/**< SQ ring */
	uint32_t head, tail;		/**< posted / completed (free-running) */
	uint32_t mask;
	uint32_t send_off;		/**< SQ offset in the QP buffer (WQE addresses) */
	uint32_t last_comp;		/**< ring index of the last completed WQE */
	volatile uint8_t *sq_rec;
	volatile uint8_t *db;		/**< UAR send doorbell */
	uint32_t qpn;
	rte_be32_t lkey_be;		/**< L_Key of every gather entry, big-endian */
	int dynoff;			/**< rte_ib mbuf dynfield offset */
	bool fast_free;			/**< RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE */
	bool prefetchw;			/**< the CPU has PREFETCHW (mthca_cpu_has_prfchw()) */
	uint32_t chains;		/**< slots tagged MTHCA_TX_ELT_CHAIN, not yet retired */
	/** mbuf of each SQ slot; a chain is tagged MTHCA_TX_ELT_CHAIN under fast_free */
	struct rte_mbuf **elts;
	uint64_t packets, bytes, errors, no_ah;
	uint64_t err_cqe[MTHCA_TX_ERR_NUM];	/**< error completions by syndrome */
	/** WQEs that completed flushed, or whose mbufs a recovery took back */
	uint64_t flushed;
	uint64_t recoveries;		/**< ERR -> RESET -> RTS cycles done (control) */
	/* control */
	uint16_t idx;
	uint16_t nb_desc;
	bool recover_failed;		/**< the last recovery failed (logged once) */
	struct mthca_port *priv;
	struct mthca_cq hwcq;
	struct mthca_qp qp;
} __rte_cache_aligned;

/*
 * Under fast free the retired run goes back to the mempool in one
 * rte_mempool_put_bulk(), which knows nothing of chains: a multi-segment
 * packet's slot carries this bit (mbufs are cache-line aligned) and is
 * freed segment by segment instead.
 */
#define MTHCA_TX_ELT_CHAIN	((uintptr_t)1)

/** The mbuf of an SQ slot, without its tag. */
static inline struct rte_mbuf *
mthca_tx_elt(struct rte_mbuf *e)
{
	return (struct rte_mbuf *)((uintptr_t)e & ~MTHCA_TX_ELT_CHAIN);
}

/** The CPU reports PRFCHW (PREFETCHW); false off x86-64. */
bool mthca_cpu_has_prfchw(void);
/*
 * The bursts start on a cache line (MTHCA_BURST_ALIGN): where they fell
 * followed the size of the code linked before them, and bench_mthca's
 * tx_burst took 17-19 cycles a packet at 64 B at one place and 33-40
 * at the next, 32 bytes on (git log of this line).
 */
#define MTHCA_BURST_ALIGN __rte_aligned(RTE_CACHE_LINE_SIZE)

MTHCA_BURST_ALIGN uint16_t mthca_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n);
MTHCA_BURST_ALIGN uint16_t mthca_tx_burst(void *q, struct rte_mbuf **pkts, uint16_t n);
/** rte_eth_rx_descriptor_status(): DONE once the offset-th next completion is ours. */
int mthca_rx_descriptor_status(void *q, uint16_t offset);

#endif /* _MTHCA_RXTX_H_ */
