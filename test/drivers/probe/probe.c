/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * A few-line DPDK PCI driver for 15b3:6282 (MT25208, Arbel native), built
 * as a shared object and loaded into Debian's dpdk-testpmd with -d. It
 * maps nothing (no RTE_PCI_DRV_NEED_MAPPING) and only logs, so the probe
 * of ibfabric's simulated PCI function can be shown before the mthca PMD
 * exists: EAL logs "Probe PCI driver: ibfabric_probe (15b3:6282) device:
 * 0000:10:00.0" and this driver adds one line of its own.
 */

#include <rte_common.h>
#include <rte_log.h>
#include <rte_pci.h>
#include <bus_pci_driver.h>

static int
probe_pci_probe(struct rte_pci_driver *drv, struct rte_pci_device *dev)
{
	RTE_SET_USED(drv);
	RTE_LOG(NOTICE, EAL, "ibfabric_probe: MT25208 %s, BAR0 %" PRIu64 " bytes, BAR2 %"
		PRIu64 " bytes\n", dev->name, dev->mem_resource[0].len,
		dev->mem_resource[2].len);
	return 0;
}

static int
probe_pci_remove(struct rte_pci_device *dev)
{
	RTE_SET_USED(dev);
	return 0;
}

static const struct rte_pci_id probe_pci_ids[] = {
	{ RTE_PCI_DEVICE(0x15b3, 0x6282) },
	{ .vendor_id = 0 },
};

static struct rte_pci_driver probe_pci_driver = {
	.id_table = probe_pci_ids,
	.probe = probe_pci_probe,
	.remove = probe_pci_remove,
};

RTE_PMD_REGISTER_PCI(ibfabric_probe, probe_pci_driver);
