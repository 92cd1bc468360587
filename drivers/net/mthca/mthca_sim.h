/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * A simulated PCI function (ibfabric, doc/guides/tools/ibfabric.rst): the
 * BAR files resource0/resource2 mapped here, DMA windows registered and
 * interrupt eventfds fetched over the function's iommu.sock, which plays
 * the IOMMU and the MSI-X table. On real hardware none of this is used.
 */

#ifndef _MTHCA_SIM_H_
#define _MTHCA_SIM_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mthca_dev;
struct rte_pci_device;

/**
 * Is @p pci a simulated function? True when the directory of the device
 * under rte_pci_get_sysfs_path() (SYSFS_PCI_DEVICES) holds an iommu.sock.
 */
bool mthca_sim_detect(const struct rte_pci_device *pci);

/**
 * Map the BARs, connect to iommu.sock, register every memseg as a DMA
 * window with IOVA = DPDK's, and follow later memory with a memory
 * event callback. Fills dev->bar0/bar2 and their lengths.
 */
int mthca_sim_open(struct mthca_dev *dev);

/** Fetch the eventfd of MSI-X vector @p vector; the fd or a negative errno. */
int mthca_sim_get_irq(struct mthca_dev *dev, uint32_t vector);

/** Unregister the windows and the callback, unmap the BARs, close the socket. */
void mthca_sim_close(struct mthca_dev *dev);

#endif /* _MTHCA_SIM_H_ */
