/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/* The public net_mthca API (rte_pmd_mthca.h). */

#include <errno.h>
#include <string.h>

#include <ethdev_driver.h>
#include <rte_errno.h>

#include "mthca.h"
#include "mthca_rxtx.h"
#include "rte_pmd_mthca.h"

static struct rte_eth_dev *
mthca_eth(uint16_t port_id)
{
	struct rte_eth_dev *eth;

	if (!rte_eth_dev_is_valid_port(port_id))
		return NULL;
	eth = &rte_eth_devices[port_id];
	if (eth->device == NULL || eth->device->driver == NULL ||
	    strcmp(eth->device->driver->name, "net_mthca") != 0)
		return NULL;
	return eth;
}

int
rte_pmd_mthca_queue_qpn(uint16_t port_id, uint16_t queue_id, int tx, uint32_t *qpn)
{
	struct rte_eth_dev *eth = mthca_eth(port_id);

	if (eth == NULL) {
		rte_errno = ENODEV;
		return -1;
	}
	if (qpn == NULL) {
		rte_errno = EINVAL;
		return -1;
	}
	if (tx) {
		struct mthca_txq *q = queue_id < eth->data->nb_tx_queues ?
				      eth->data->tx_queues[queue_id] : NULL;

		if (q == NULL) {
			rte_errno = EINVAL;
			return -1;
		}
		*qpn = q->qp.qpn;
	} else {
		struct mthca_rxq *q = queue_id < eth->data->nb_rx_queues ?
				      eth->data->rx_queues[queue_id] : NULL;

		if (q == NULL) {
			rte_errno = EINVAL;
			return -1;
		}
		*qpn = q->qp.qpn;
	}
	return 0;
}

int
rte_pmd_mthca_set_qkey(uint16_t port_id, uint32_t qkey)
{
	struct rte_eth_dev *eth = mthca_eth(port_id);
	struct mthca_port *p;

	if (eth == NULL) {
		rte_errno = ENODEV;
		return -1;
	}
	if (qkey & 0x80000000u) {
		rte_errno = EINVAL;
		return -1;
	}
	p = eth->data->dev_private;
	p->qkey = qkey;
	return 0;
}
