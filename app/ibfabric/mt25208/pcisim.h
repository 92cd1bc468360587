/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * ibfabric's simulated PCI function for an MT25208 model: a sysfs-shaped
 * device directory that DPDK's PCI bus scans (SYSFS_PCI_DEVICES), BAR0
 * and BAR2 as shared-memory files the host maps, and the IOMMU / MSI-X
 * stand-in socket.
 *
 * Device directory <pci-root>/0000:<bus>:00.0/:
 *   vendor, device, subsystem_vendor, subsystem_device, class, numa_node,
 *   revision, resource (kernel format: "start end flags" in hex for 6 BARs
 *   and the ROM), config (256 bytes of type-0 config space), driver ->
 *   <pci-root>/drivers/ibfabric-sim, resource0 (1 MiB) and resource2
 *   (UARs) -> files in /dev/shm, iommu.sock.
 *
 * IOMMU socket protocol (SOCK_SEQPACKET, one message per request, one
 * reply each; fields in the host's byte order, little-endian on x86;
 * documented in doc/guides/nics/mthca_hw.rst). It carries only what a
 * PCI device's IOMMU and MSI-X table would: DMA windows and interrupts.
 * Closing the socket means the host is gone.
 *
 * Threading: ibfabric's event-loop thread only.
 */

#ifndef _IBFABRIC_PCISIM_H_
#define _IBFABRIC_PCISIM_H_

#include <stdint.h>

struct fab_node;
struct fabric;

#define PCISIM_PROTO_VERSION	1

/** Message types (requests; a reply has PCISIM_MSG_REPLY set). */
enum pcisim_msg_type {
	PCISIM_MSG_MAP = 1,	/**< DMA window; the memory's fd rides along (SCM_RIGHTS) */
	PCISIM_MSG_UNMAP = 2,	/**< remove a window given by iova and len */
	PCISIM_MSG_GET_IRQ = 3,	/**< get the eventfd of an interrupt vector (SCM_RIGHTS) */
	/**
	 * From the model, unasked, as a reply with status -EBUSY: the
	 * function has a host already; the connection closes after it.
	 */
	PCISIM_MSG_BUSY = 4,
};
#define PCISIM_MSG_REPLY	0x8000

#define PCISIM_IRQ_INTX		0xffffffffu	/**< GET_IRQ vector: the INTx line */

/** Every message starts with this header. */
struct pcisim_hdr {
	uint16_t version;	/**< PCISIM_PROTO_VERSION */
	uint16_t type;		/**< enum pcisim_msg_type, | PCISIM_MSG_REPLY in replies */
	uint32_t seq;		/**< chosen by the host, echoed in the reply */
};

/** MAP request: [iova, iova + len) is the memory at @c offset of the passed fd. */
struct pcisim_map {
	struct pcisim_hdr hdr;
	uint64_t iova;
	uint64_t len;		/**< multiple of 4096 */
	uint64_t offset;	/**< into the fd, multiple of 4096 */
};

/** UNMAP request: exactly a window given by MAP before. */
struct pcisim_unmap {
	struct pcisim_hdr hdr;
	uint64_t iova;
	uint64_t len;
};

/** GET_IRQ request: MSI-X vector 0..31 (EQC intr 0x80 | n), or PCISIM_IRQ_INTX. */
struct pcisim_get_irq {
	struct pcisim_hdr hdr;
	uint32_t vector;
	uint32_t reserved;
};

/** Reply to every request; a GET_IRQ success carries the eventfd. */
struct pcisim_reply {
	struct pcisim_hdr hdr;
	int32_t status;		/**< 0 or a negative errno */
	uint32_t reserved;
};

struct pcisim_fn;
struct mt25208;

/**
 * Publish the PCI function of active CA @p node under @p root (created if
 * needed) at bus @p bus, with a new MT25208 model (node->hca is set).
 * Returns NULL with errno set; every partial result is undone.
 */
struct pcisim_fn *pcisim_create(struct fabric *f, struct fab_node *node, const char *root,
				unsigned int bus);
/** Remove the directory, files and socket; free the model. NULL is fine. */
void pcisim_destroy(struct pcisim_fn *fn);
/** The model behind @p fn. */
struct mt25208 *pcisim_dev(struct pcisim_fn *fn);
/** The device directory path. */
const char *pcisim_dir(const struct pcisim_fn *fn);
/** Listening socket (poll for input: a host connects). */
int pcisim_listen_fd(const struct pcisim_fn *fn);
/** The attached host's socket, or -1. */
int pcisim_conn_fd(const struct pcisim_fn *fn);
/**
 * Accept a host on the listening socket. Returns the new connection fd
 * (to be polled), or -1 when there was none or a host is already attached
 * (the newcomer is refused: one host per function, as with a real device).
 */
int pcisim_accept(struct pcisim_fn *fn);
/**
 * Serve one message from the attached host. Returns 0, or -1 when the
 * host is gone (the socket was closed): the HCA is reset to power-on
 * state, its ports go down, the connection is closed; the caller must
 * drop the fd from its poll set first (pcisim_conn_fd() before calling).
 */
int pcisim_conn_ready(struct pcisim_fn *fn);

/**
 * Remove BAR files of ibfabric runs that were killed before they could
 * (/dev/shm/ibfabric-<pid>-*, that process gone). Returns how
 * many were removed.
 */
unsigned int pcisim_clean_stale_bars(void);

#endif /* _IBFABRIC_PCISIM_H_ */
