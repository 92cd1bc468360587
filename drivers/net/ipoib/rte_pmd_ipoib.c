/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/* rte_pmd_ipoib.h: a port's interface, recognised by its dev_ops. */

#include <errno.h>

#include <rte_errno.h>

#include "ipoib_ethdev.h"
#include "rte_pmd_ipoib.h"

struct rte_ipoib_if *
rte_pmd_ipoib_get_if(uint16_t port_id)
{
	struct rte_eth_dev *dev;

	if (!rte_eth_dev_is_valid_port(port_id)) {
		rte_errno = ENODEV;
		return NULL;
	}
	dev = &rte_eth_devices[port_id];
	if (dev->dev_ops != &ipoib_ops || dev->data->dev_private == NULL) {
		rte_errno = ENOTSUP;
		return NULL;
	}
	return ((struct ipoib_priv *)dev->data->dev_private)->ifp;
}
