/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * IPv6 Neighbour Discovery over IPoIB: the link-layer address options in
 * the form of RFC 4391 9.1.2 (length 3, two bytes of padding, the 20-byte
 * address), ND message checks (RFC 4861 4 and 6.1, 7.1) and the ICMPv6
 * checksum (RFC 4443 2.3).
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_ip.h>

#include "rte_ipoib.h"
#include "ipoib_private.h"

uint16_t
ipoib_icmp6_cksum(const uint8_t *ip6, const uint8_t *icmp, uint32_t len)
{
	uint8_t ph[8];
	uint32_t sum;

	/* Pseudo-header (RFC 8200 8.1): addresses, length, next header. */
	ph[0] = len >> 24;
	ph[1] = len >> 16;
	ph[2] = len >> 8;
	ph[3] = len;
	ph[4] = 0;
	ph[5] = 0;
	ph[6] = 0;
	ph[7] = IPPROTO_ICMPV6;
	sum = __rte_raw_cksum(ip6 + IPOIB_IP6_SRC_OFF, 32, 0);
	sum = __rte_raw_cksum(ph, sizeof(ph), sum);
	sum = __rte_raw_cksum(icmp, len, sum);
	return (uint16_t)~__rte_raw_cksum_reduce(sum);
}

/* Size of the fixed part of each ND message (RFC 4861 4.1 to 4.5). */
static size_t
nd_fixed_len(uint8_t type)
{
	switch (type) {
	case IPOIB_ND_RS:
		return 8;
	case IPOIB_ND_RA:
		return 16;
	case IPOIB_ND_NS:
	case IPOIB_ND_NA:
		return 24;
	case IPOIB_ND_REDIRECT:
		return 40;
	default:
		return 0;
	}
}

bool
ipoib_ip6_is_nd(const uint8_t *ip6, size_t len)
{
	if (len < IPOIB_IP6_HDR_LEN + 1 || ip6[IPOIB_IP6_NH_OFF] != IPPROTO_ICMPV6)
		return false;
	return nd_fixed_len(ip6[IPOIB_IP6_HDR_LEN]) != 0;
}

enum rte_ipoib_drop_reason
ipoib_nd_check(const uint8_t *ip6, size_t len, bool verify, struct ipoib_nd_msg *msg)
{
	const uint8_t *icmp = ip6 + IPOIB_IP6_HDR_LEN;
	size_t plen, fixed, off;

	if (len < IPOIB_IP6_HDR_LEN)
		return RTE_IPOIB_DROP_BAD_LENGTH;
	plen = (size_t)ip6[4] << 8 | ip6[5];
	if ((ip6[0] >> 4) != 6 || ip6[IPOIB_IP6_NH_OFF] != IPPROTO_ICMPV6)
		return RTE_IPOIB_DROP_BAD_ND;
	if (plen > len - IPOIB_IP6_HDR_LEN || plen < 4)
		return RTE_IPOIB_DROP_BAD_LENGTH;
	fixed = nd_fixed_len(icmp[0]);
	/* RFC 4861 6.1.1/7.1.1: hop limit 255, code 0, fixed part present. */
	if (fixed == 0 || icmp[1] != 0 || ip6[7] != 255)
		return RTE_IPOIB_DROP_BAD_ND;
	if (plen < fixed)
		return RTE_IPOIB_DROP_BAD_LENGTH;
	if (verify && ipoib_icmp6_cksum(ip6, icmp, plen) != 0)
		return RTE_IPOIB_DROP_BAD_ND;
	msg->icmp_len = plen;
	msg->nb_lla = 0;
	for (off = fixed; off < plen; ) {
		size_t olen;

		/* RFC 4861 4.6: a zero-length option makes the packet invalid. */
		if (plen - off < 2 || icmp[off + 1] == 0)
			return RTE_IPOIB_DROP_BAD_ND;
		olen = (size_t)icmp[off + 1] * 8;
		if (olen > plen - off)
			return RTE_IPOIB_DROP_BAD_ND;
		if (icmp[off] == IPOIB_ND_OPT_SLLA || icmp[off] == IPOIB_ND_OPT_TLLA) {
			if (msg->nb_lla == IPOIB_ND_MAX_LLA)
				return RTE_IPOIB_DROP_BAD_ND;
			msg->lla_off[msg->nb_lla++] = (uint16_t)off;
		}
		off += olen;
	}
	return RTE_IPOIB_DROP_NONE;
}

int
rte_ipoib_nd_opt_lla_build(struct rte_ipoib_nd_opt_lla *opt, uint8_t type,
			   const struct rte_ipoib_hwaddr *hw)
{
	if (opt == NULL || hw == NULL ||
	    (type != IPOIB_ND_OPT_SLLA && type != IPOIB_ND_OPT_TLLA))
		return ipoib_err(EINVAL);
	opt->type = type;
	opt->len = RTE_IPOIB_ND_OPT_LLA_LEN / 8;
	opt->pad[0] = 0;
	opt->pad[1] = 0;
	opt->addr = *hw;
	return 0;
}

int
rte_ipoib_nd_find_lla(const void *ip6, size_t len, uint8_t type,
		      struct rte_ipoib_hwaddr *hw)
{
	const uint8_t *p = ip6;
	struct ipoib_nd_msg msg;
	enum rte_ipoib_drop_reason r;
	unsigned int i;

	if (p == NULL || (type != IPOIB_ND_OPT_SLLA && type != IPOIB_ND_OPT_TLLA))
		return ipoib_err(EINVAL);
	r = ipoib_nd_check(p, len, false, &msg);
	if (r != RTE_IPOIB_DROP_NONE) {
		rte_errno = r == RTE_IPOIB_DROP_BAD_LENGTH ? EMSGSIZE : EINVAL;
		return -1;
	}
	if (ipoib_icmp6_cksum(p, p + IPOIB_IP6_HDR_LEN, msg.icmp_len) != 0)
		return ipoib_err(EBADMSG);
	for (i = 0; i < msg.nb_lla; i++) {
		const uint8_t *o = p + IPOIB_IP6_HDR_LEN + msg.lla_off[i];

		if (o[0] != type)
			continue;
		if (o[1] != RTE_IPOIB_ND_OPT_LLA_LEN / 8) {
			rte_errno = EPROTO;
			return -1;
		}
		if (hw != NULL)
			memcpy(hw, o + 4, RTE_IPOIB_ALEN);
		return 1;
	}
	return 0;
}

int
rte_ipoib_nd_build(void *buf, size_t size, uint8_t icmp_type,
		   const uint8_t src[16], const uint8_t dst[16],
		   const uint8_t target[16], const struct rte_ipoib_hwaddr *hw)
{
	const size_t icmp_len = 24 + RTE_IPOIB_ND_OPT_LLA_LEN;
	struct rte_ipoib_nd_opt_lla opt;
	uint8_t *p = buf, *icmp;
	uint16_t ck;

	if (p == NULL || src == NULL || dst == NULL || target == NULL || hw == NULL ||
	    (icmp_type != IPOIB_ND_NS && icmp_type != IPOIB_ND_NA))
		return ipoib_err(EINVAL);
	if (size < IPOIB_IP6_HDR_LEN + icmp_len)
		return ipoib_err(ENOSPC);
	memset(p, 0, IPOIB_IP6_HDR_LEN + icmp_len);
	p[0] = 0x60;
	p[4] = 0;
	p[5] = icmp_len;
	p[IPOIB_IP6_NH_OFF] = IPPROTO_ICMPV6;
	p[7] = 255;
	memcpy(p + IPOIB_IP6_SRC_OFF, src, 16);
	memcpy(p + IPOIB_IP6_DST_OFF, dst, 16);
	icmp = p + IPOIB_IP6_HDR_LEN;
	icmp[0] = icmp_type;
	/* NA: solicited and override (RFC 4861 4.4), as a reply to an NS. */
	if (icmp_type == IPOIB_ND_NA)
		icmp[4] = 0x60;
	memcpy(icmp + 8, target, 16);
	rte_ipoib_nd_opt_lla_build(&opt, icmp_type == IPOIB_ND_NS ?
				   IPOIB_ND_OPT_SLLA : IPOIB_ND_OPT_TLLA, hw);
	memcpy(icmp + 24, &opt, sizeof(opt));
	ck = ipoib_icmp6_cksum(p, icmp, icmp_len);
	memcpy(icmp + 2, &ck, 2);
	return (int)(IPOIB_IP6_HDR_LEN + icmp_len);
}
