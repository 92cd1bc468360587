/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * hca_host: the IOMMU / MSI-X socket of ibfabric's simulated PCI function,
 * seen from the host. The protocol (doc/guides/nics/mthca_hw.rst): a
 * SOCK_SEQPACKET socket "iommu.sock" in the device directory; one request
 * per message, one reply each, fields in host byte order; a versioned
 * 8-byte header {u16 version = 1, u16 type, u32 seq}; replies have type
 * | 0x8000 and carry {s32 status (0 or -errno), u32 reserved}.
 * MAP {u64 iova, u64 len, u64 offset} with the memory's fd (SCM_RIGHTS);
 * UNMAP {u64 iova, u64 len}; GET_IRQ {u32 vector (MSI-X 0..31, or
 * 0xffffffff = INTx), u32 reserved}, whose reply carries an eventfd.
 * These are the host's own definitions of that wire format; nothing is
 * shared with ibfabric's sources.
 */

#ifndef _HH_IOMMU_H_
#define _HH_IOMMU_H_

#include <stdint.h>

#define HH_IOMMU_SOCK_NAME	"iommu.sock"
#define HH_IOMMU_VERSION	1
#define HH_IOMMU_MAP		1
#define HH_IOMMU_UNMAP		2
#define HH_IOMMU_GET_IRQ	3
#define HH_IOMMU_REPLY		0x8000

struct hh_iommu_hdr {
	uint16_t version;
	uint16_t type;
	uint32_t seq;
};

struct hh_iommu_map {
	struct hh_iommu_hdr hdr;
	uint64_t iova;
	uint64_t len;
	uint64_t offset;
};

struct hh_iommu_unmap {
	struct hh_iommu_hdr hdr;
	uint64_t iova;
	uint64_t len;
};

struct hh_iommu_get_irq {
	struct hh_iommu_hdr hdr;
	uint32_t vector;
	uint32_t reserved;
};

struct hh_iommu_reply {
	struct hh_iommu_hdr hdr;
	int32_t status;
	uint32_t reserved;
};

_Static_assert(sizeof(struct hh_iommu_map) == 32, "MAP message is 32 bytes");
_Static_assert(sizeof(struct hh_iommu_unmap) == 24, "UNMAP message is 24 bytes");
_Static_assert(sizeof(struct hh_iommu_get_irq) == 16, "GET_IRQ message is 16 bytes");
_Static_assert(sizeof(struct hh_iommu_reply) == 16, "reply is 16 bytes");

#endif /* _HH_IOMMU_H_ */
