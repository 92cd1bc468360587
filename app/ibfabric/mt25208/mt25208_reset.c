/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * MT25208 model: life cycle. Creation in power-on state, reset (the BAR0
 * reset register of mthca_reset(), SYS_DIS, a host that went away), the
 * catastrophic-error buffer (poll_catas()).
 *
 * Power-on state: HCR idle (GO clear), every register zero, boot
 * firmware, no ICM, no contexts, no special QPs, ports disabled on the
 * fabric. Reset does not touch the IOMMU (DMA windows, eventfds): those
 * belong to the host's side of the bus; only the host going away drops
 * them.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fab_log.h"
#include "fab_node.h"
#include "fabric.h"
#include "mt25208.h"
#include "port_state.h"

static void
ports_down(struct mt25208 *dev)
{
	unsigned int i;

	for (i = 1; i <= dev->nports; i++) {
		dev->port[i].ib_up = false;
		port_state_admin(dev->fab, &dev->node->ports[i], false);
	}
}

/*
 * Everything of the power-on state but the BAR contents: firmware back
 * to boot, no FW/aux/ICM pages, no contexts, ports down. Shared by a
 * reset and by SYS_DIS, which must leave the HCR to complete itself.
 */
static void
power_on_state(struct mt25208 *dev)
{
	dev->fw_state = MT25208_FW_BOOT;
	mt25208_tc_flush(dev);
	dev->fa_pages = 0;
	dev->lam_queried = false;
	dev->icm_size = 0;
	dev->aux_needed = 0;
	dev->aux_pages = 0;
	free(dev->icm);
	dev->icm = NULL;
	dev->icm_npages = 0;
	free(dev->cq_hw);
	dev->cq_hw = NULL;
	memset(&dev->cfg, 0, sizeof(dev->cfg));
	memset(dev->eq, 0, sizeof(dev->eq));
	memset(dev->ev_eqn, MT25208_NO_EQ, sizeof(dev->ev_eqn));
	dev->eq_arm_seen = 0;
	memset(dev->sqp_base, 0, sizeof(dev->sqp_base));
	memset(dev->port, 0, sizeof(dev->port));
	dev->catas = false;
	ports_down(dev);
	if (dev->dp_reset != NULL)
		dev->dp_reset(dev);
}

void
mt25208_reset(struct mt25208 *dev)
{
	memset(dev->bar0, 0, MT_BAR0_SIZE);
	dev->intx_asserted = false;
	if (dev->bar2 != NULL)
		memset(dev->bar2, 0, dev->bar2_len);
	power_on_state(dev);
	dev->stats.resets++;
}

/* Forget the host's side of the bus: DMA windows and interrupt eventfds. */
static void
iommu_drop(struct mt25208 *dev)
{
	unsigned int i;

	while (dev->nwins > 0)
		mt25208_dma_unmap(dev, dev->wins[0].iova, dev->wins[0].len);
	for (i = 0; i < MT25208_MAX_VECTORS; i++) {
		if (dev->vec_fd[i] >= 0)
			close(dev->vec_fd[i]);
		dev->vec_fd[i] = -1;
	}
	if (dev->intx_fd >= 0)
		close(dev->intx_fd);
	dev->intx_fd = -1;
}

void
mt25208_host_gone(struct mt25208 *dev)
{
	FAB_INFO("%s: host gone: HCA reset to power-on state", dev->node->name);
	mt25208_reset(dev);
	iommu_drop(dev);
}

void
mt25208_catas(struct mt25208 *dev, uint8_t type, const char *why, uint64_t addr)
{
	uint8_t *buf = dev->bar0 + MT_BAR0_CATAS;

	FAB_ERR("%s: catastrophic error type 0x%02x: %s (address 0x%" PRIx64 ")",
		dev->node->name, type, why, addr);
	if (dev->catas)
		return;
	dev->catas = true;
	/* Word 0 bits 31..24: the type; then the address, for the host's log. */
	mt_put32(buf, 4, (uint32_t)(addr >> 32));
	mt_put32(buf, 8, (uint32_t)addr);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	mt_put32(buf, 0, ((uint32_t)type << 24) | 1u);
	mt25208_event(dev, MT_EV_LOCAL_CATAS, 0, NULL);
}

uint8_t
mt25208_cmd_sys_dis(struct mt25208 *dev, struct mt25208_cmd *c)
{
	/*
	 * SYS_DIS shuts the system down; a mem-free HCA never enabled LAM, so
	 * Linux's DISABLE_LAM-as-SYS_DIS never comes (Linux mthca_DISABLE_LAM()). The model
	 * returns to the power-on state (no FW, aux or ICM pages, ports
	 * down: mthca_hw.rst) but keeps the HCR for this completion.
	 */
	if (dev->fw_state == MT25208_FW_BOOT)
		return MT_STAT_BAD_SYS_STATE;
	if (dev->fw_state == MT25208_FW_HCA)
		mt25208_cmd_close_hca(dev, c);
	power_on_state(dev);
	return MT_STAT_OK;
}

struct mt25208 *
mt25208_new(struct fabric *f, struct fab_node *node, uint8_t *bar0, uint8_t *bar2,
	    size_t bar2_len)
{
	struct mt25208 *dev;
	unsigned int i;

	if (f == NULL || node == NULL || bar0 == NULL || node->type != FAB_NODE_CA ||
	    node->nports == 0 || node->nports > MT25208_MAX_PORTS) {
		errno = EINVAL;
		return NULL;
	}
	dev = calloc(1, sizeof(*dev));
	if (dev == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	dev->fab = f;
	dev->node = node;
	dev->nports = node->nports;
	dev->bar0 = bar0;
	dev->bar2 = bar2;
	dev->bar2_len = bar2_len;
	for (i = 0; i < MT25208_MAX_VECTORS; i++)
		dev->vec_fd[i] = -1;
	dev->intx_fd = -1;
	node->vendor_id = 0x0002c9;	/* Mellanox OUI, as NodeInfo VendorID */
	node->device_id = MT_PCI_DEVICE_ARBEL;
	node->revision = MT_PCI_REVISION;
	mt25208_reset(dev);
	dev->stats.resets = 0;
	return dev;
}

void
mt25208_free(struct mt25208 *dev)
{
	if (dev == NULL)
		return;
	iommu_drop(dev);
	free(dev->icm);
	free(dev->cq_hw);
	free(dev);
}
