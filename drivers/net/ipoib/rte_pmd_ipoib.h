/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _RTE_PMD_IPOIB_H_
#define _RTE_PMD_IPOIB_H_

/**
 * @file
 * net_ipoib's one public function: the IPoIB interface under a port, for
 * applications that show or change what the ethdev API cannot (its
 * neighbours, paths, groups, local addresses: rte_ipoib_if.h).
 */

#include <stdint.h>

#include <rte_compat.h>

#include <rte_ipoib_if.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The interface of a net_ipoib port. It lives until the port is closed.
 *
 * @param port_id
 *   An ethdev port.
 * @return
 *   The interface, or NULL with rte_errno ENODEV (no such port) or
 *   ENOTSUP (not a net_ipoib port).
 */
__rte_experimental
struct rte_ipoib_if *rte_pmd_ipoib_get_if(uint16_t port_id);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_PMD_IPOIB_H_ */
