/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Queue control (ethdev callbacks): setup builds a queue's CQ and UD QP
 * in RESET; start moves the QP to RTS and fills the receive ring; stop
 * takes the QP back to RESET and returns the mbufs; release destroys
 * everything. The transmit watch recovers a send queue after an error
 * completion. Statistics are mthca_stats.c's.
 */

#ifndef _MTHCA_QUEUE_H_
#define _MTHCA_QUEUE_H_

#include <ethdev_driver.h>

struct mthca_rxq;
struct mthca_txq;
struct rte_ib_ud_queue_info;

int mthca_rx_queue_setup(struct rte_eth_dev *eth, uint16_t idx, uint16_t nb_desc,
			 unsigned int socket, const struct rte_eth_rxconf *conf,
			 struct rte_mempool *mp);
int mthca_tx_queue_setup(struct rte_eth_dev *eth, uint16_t idx, uint16_t nb_desc,
			 unsigned int socket, const struct rte_eth_txconf *conf);
void mthca_rx_queue_release(struct rte_eth_dev *eth, uint16_t idx);
void mthca_tx_queue_release(struct rte_eth_dev *eth, uint16_t idx);
int mthca_rxq_start(struct mthca_rxq *rxq);
int mthca_txq_start(struct mthca_txq *txq);
void mthca_rxq_stop(struct mthca_rxq *rxq);
void mthca_txq_stop(struct mthca_txq *txq);
void mthca_rxq_release(struct mthca_rxq *rxq);
void mthca_txq_release(struct mthca_txq *txq);

/** Period of a started port's transmit watch: how soon a stalled send queue recovers. */
#define MTHCA_TX_WATCH_US	10000
/**
 * Start the transmit watch of @p eth (EAL alarm): it recovers every send
 * queue its burst stalled after an error completion (struct mthca_txq).
 * Call when the port has started; it re-arms while the port is started.
 * 0 or a negative errno.
 */
int mthca_tx_watch_start(struct rte_eth_dev *eth);
/** Stop it, waiting for a pass under way; call before any queue is stopped. */
void mthca_tx_watch_stop(struct rte_eth_dev *eth);

/** QPN, Q_Key, P_Key index of rx or tx queue @p idx; -EINVAL when not set up. */
int mthca_queue_info(struct rte_eth_dev *eth, uint16_t idx, bool tx,
		     struct rte_ib_ud_queue_info *info);
/**
 * The Q_Key of every queue of @p eth: live QPs at once (RTS->RTS), the others
 * at their start. Stops at the first QP that refuses it (its errno).
 */
int mthca_queues_qkey_set(struct rte_eth_dev *eth, uint32_t qkey);

#endif /* _MTHCA_QUEUE_H_ */
