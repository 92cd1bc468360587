/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _RTE_PMD_MTHCA_H_
#define _RTE_PMD_MTHCA_H_

/**
 * @file
 * What is particular to net_mthca, the PMD of Mellanox InfiniHost III Ex
 * HCAs (MT25208, mem-free mode). Each ethdev is one IB port; each rx and
 * tx queue is one UD queue pair. IB addressing of packets travels in the
 * rte_ib mbuf dynfield (rte_ib_mbuf.h); the IB device of the HCA is found
 * with rte_ib_device_from_port_id().
 *
 * Threading: control path (any thread that may call the ethdev API on
 * the port), not concurrent with configuration of the same port.
 */

#include <stdint.h>

#include <rte_compat.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The queue pair number of a queue: what a peer puts in the destination
 * QPN of its datagrams (rx queue) or sees as their source QPN (tx queue).
 * Valid from the queue's setup until its release.
 *
 * @param port_id
 *   An ethdev of net_mthca.
 * @param queue_id
 *   The queue.
 * @param tx
 *   0 for the rx queue @p queue_id, 1 for the tx queue.
 * @param[out] qpn
 *   The QPN (24 bits).
 * @return
 *   0, or -1 with rte_errno: ENODEV (not a net_mthca port), EINVAL (no
 *   such queue set up, or @p qpn NULL).
 */
__rte_experimental
int rte_pmd_mthca_queue_qpn(uint16_t port_id, uint16_t queue_id, int tx, uint32_t *qpn);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Set the Q_Key of the port's UD queue pairs (default 0x00000b1b, the
 * Q_Key OpenSM gives the IPoIB broadcast group). Datagrams whose DETH
 * Q_Key differs are dropped by the HCA (IBA 10.2.4). Takes effect at the
 * next rte_eth_dev_start().
 *
 * @param port_id
 *   An ethdev of net_mthca.
 * @param qkey
 *   The Q_Key; bit 31 must be clear (controlled Q_Keys are for
 *   privileged QPs, IBA 10.2.4).
 * @return
 *   0, or -1 with rte_errno: ENODEV, EINVAL (bit 31 set).
 */
__rte_experimental
int rte_pmd_mthca_set_qkey(uint16_t port_id, uint32_t qkey);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_PMD_MTHCA_H_ */
