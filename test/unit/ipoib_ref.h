/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _IPOIB_REF_H_
#define _IPOIB_REF_H_

/*
 * Reference computations of the lib/ipoib tests, written apart from the
 * library so that its results are checked, not repeated.
 */

#include <stdint.h>

/*
 * ICMPv6 checksum (RFC 4443 2.3) of @p len bytes at @p icmp in the IPv6
 * packet @p ip6: RFC 1071's sum over big-endian 16-bit words of the
 * pseudo-header (RFC 8200 8.1) and the message, complemented. Over a
 * message whose checksum field is right, it is 0.
 */
static inline uint16_t
ref_cksum(const uint8_t *ip6, const uint8_t *icmp, uint32_t len)
{
	uint32_t sum = 0, i;

	for (i = 8; i < 40; i += 2)
		sum += (uint32_t)ip6[i] << 8 | ip6[i + 1];
	sum += len >> 16;
	sum += len & 0xffff;
	sum += 58;
	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)icmp[i] << 8 | icmp[i + 1];
	if (len & 1)
		sum += (uint32_t)icmp[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

#endif /* _IPOIB_REF_H_ */
