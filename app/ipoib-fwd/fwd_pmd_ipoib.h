/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The one call the app makes into net_ipoib: the lib/ipoib interface
 * behind a net_ipoib port (rte_pmd_ipoib.h). In a build without the
 * driver every port answers NULL, so route and txonly-dest-ip still work
 * on other L3 ports (net_tun) and "show ipoib" says the port is not a
 * net_ipoib port.
 */

#ifndef _FWD_PMD_IPOIB_H_
#define _FWD_PMD_IPOIB_H_

#include <rte_common.h>

#ifdef FWD_HAS_NET_IPOIB
#include <rte_pmd_ipoib.h>
#else
struct rte_ipoib_if;

static inline struct rte_ipoib_if *
rte_pmd_ipoib_get_if(uint16_t port_id)
{
	RTE_SET_USED(port_id);
	return NULL;
}
#endif

#endif /* _FWD_PMD_IPOIB_H_ */
