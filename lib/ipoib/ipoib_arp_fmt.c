/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * ARP over IPoIB (RFC 826 with the values of RFC 4391 9.1.1): hardware
 * type 32, 20-byte hardware addresses.
 */

#include <errno.h>
#include <string.h>

#include <rte_arp.h>
#include <rte_errno.h>
#include <rte_ether.h>

#include "rte_ipoib.h"
#include "ipoib_private.h"

int
rte_ipoib_arp_build(struct rte_ipoib_arp *arp, uint16_t oper,
		    const struct rte_ipoib_hwaddr *sha, rte_be32_t spa,
		    const struct rte_ipoib_hwaddr *tha, rte_be32_t tpa)
{
	if (arp == NULL || sha == NULL ||
	    (oper != RTE_ARP_OP_REQUEST && oper != RTE_ARP_OP_REPLY))
		return ipoib_err(EINVAL);
	arp->htype = rte_cpu_to_be_16(RTE_IPOIB_ARP_HRD);
	arp->ptype = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	arp->hlen = RTE_IPOIB_ALEN;
	arp->plen = 4;
	arp->oper = rte_cpu_to_be_16(oper);
	arp->sha = *sha;
	arp->spa = spa;
	if (tha != NULL)
		arp->tha = *tha;
	else
		memset(&arp->tha, 0, sizeof(arp->tha));
	arp->tpa = tpa;
	return 0;
}

enum rte_ipoib_drop_reason
ipoib_arp_check(const void *buf, size_t len)
{
	const struct rte_ipoib_arp *arp = buf;
	uint16_t oper;

	if (len < sizeof(*arp))
		return RTE_IPOIB_DROP_BAD_LENGTH;
	oper = rte_be_to_cpu_16(arp->oper);
	if (arp->htype != rte_cpu_to_be_16(RTE_IPOIB_ARP_HRD) ||
	    arp->ptype != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) ||
	    arp->hlen != RTE_IPOIB_ALEN || arp->plen != 4 ||
	    (oper != RTE_ARP_OP_REQUEST && oper != RTE_ARP_OP_REPLY) ||
	    rte_ipoib_hwaddr_is_mcast(&arp->sha))
		return RTE_IPOIB_DROP_BAD_ARP;
	return RTE_IPOIB_DROP_NONE;
}

const struct rte_ipoib_arp *
rte_ipoib_arp_parse(const void *buf, size_t len)
{
	enum rte_ipoib_drop_reason r;

	if (buf == NULL || ((uintptr_t)buf & 3) != 0)
		return ipoib_null(EINVAL);
	r = ipoib_arp_check(buf, len);
	if (r != RTE_IPOIB_DROP_NONE) {
		rte_errno = r == RTE_IPOIB_DROP_BAD_LENGTH ? EMSGSIZE : EINVAL;
		return NULL;
	}
	return buf;
}
