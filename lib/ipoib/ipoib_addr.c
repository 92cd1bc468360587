/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * IPoIB addresses: the 20-byte link-layer address in text, the multicast
 * GIDs of RFC 4391 4, the IPv6 interface identifier (RFC 4391 8) and the
 * UD MTU (RFC 4391 7).
 */

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>

#include "rte_ipoib.h"
#include "ipoib_private.h"

int
rte_ipoib_hwaddr_format(const struct rte_ipoib_hwaddr *hw, char *buf, size_t size)
{
	const uint8_t *p = (const uint8_t *)hw;
	size_t i, off = 0;

	if (hw == NULL || buf == NULL)
		return ipoib_err(EINVAL);
	if (size < RTE_IPOIB_HWADDR_FMT_SIZE)
		return ipoib_err(ENOSPC);
	for (i = 0; i < RTE_IPOIB_ALEN; i++)
		off += snprintf(buf + off, size - off, i == 0 ? "%02x" : ":%02x", p[i]);
	return (int)off;
}

int
rte_ipoib_ip_format(const uint8_t ip[16], char *buf, size_t size)
{
	static const uint8_t v4_prefix[12] = { [10] = 0xff, [11] = 0xff };
	bool v4;

	if (ip == NULL || buf == NULL)
		return ipoib_err(EINVAL);
	if (size < RTE_IPOIB_IP_FMT_SIZE)
		return ipoib_err(ENOSPC);
	v4 = memcmp(ip, v4_prefix, sizeof(v4_prefix)) == 0;
	if (inet_ntop(v4 ? AF_INET : AF_INET6, v4 ? ip + 12 : ip, buf, (socklen_t)size) == NULL)
		return ipoib_err(ENOSPC);
	return (int)strlen(buf);
}

static int
hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int
rte_ipoib_hwaddr_parse(const char *str, struct rte_ipoib_hwaddr *hw)
{
	uint8_t out[RTE_IPOIB_ALEN];
	const char *s = str;
	int i, d, v, n;

	if (str == NULL || hw == NULL)
		goto inval;
	for (i = 0; i < RTE_IPOIB_ALEN; i++) {
		if (i > 0 && *s++ != ':')
			goto inval;
		v = 0;
		for (n = 0; n < 2 && (d = hex_digit((unsigned char)*s)) >= 0; n++, s++)
			v = v << 4 | d;
		if (n == 0)
			goto inval;
		out[i] = (uint8_t)v;
	}
	if (*s != '\0')
		goto inval;
	memcpy(hw, out, sizeof(out));
	return 0;
inval:
	rte_errno = EINVAL;
	return -1;
}

/*
 * The common head of every IPoIB MGID (RFC 4391 4):
 * 0xFF, 0x1<scope> (flags 1: a transient group), the 16-bit signature,
 * the P_Key with its full-membership bit set ("the P_Key ... with the
 * high order bit set", as Linux sets it in the broadcast address).
 */
static int
mgid_head(uint16_t sig, uint16_t pkey, uint8_t scope, struct rte_ib_gid *mgid)
{
	if (mgid == NULL || scope == 0 || scope > 0xe ||
	    !rte_ib_pkey_is_valid(pkey))
		return ipoib_err(EINVAL);
	pkey |= RTE_IB_PKEY_FULL_MEMBER;
	memset(mgid->raw, 0, sizeof(mgid->raw));
	mgid->raw[0] = 0xff;
	mgid->raw[1] = 0x10 | scope;
	mgid->raw[2] = sig >> 8;
	mgid->raw[3] = sig & 0xff;
	mgid->raw[4] = pkey >> 8;
	mgid->raw[5] = pkey & 0xff;
	return 0;
}

int
rte_ipoib_bcast_mgid(uint16_t pkey, uint8_t scope, struct rte_ib_gid *mgid)
{
	if (mgid_head(RTE_IPOIB_MGID_SIG_IPV4, pkey, scope, mgid) < 0)
		return -1;
	memset(&mgid->raw[12], 0xff, 4);
	return 0;
}

int
rte_ipoib_ipv4_mc_mgid(rte_be32_t group, uint16_t pkey, uint8_t scope,
		       struct rte_ib_gid *mgid)
{
	uint32_t g = rte_be_to_cpu_32(group);

	if ((g & 0xf0000000u) != 0xe0000000u)
		return ipoib_err(EINVAL);
	if (mgid_head(RTE_IPOIB_MGID_SIG_IPV4, pkey, scope, mgid) < 0)
		return -1;
	/* The class-D prefix 1110 is implied; its 28 bits follow. */
	mgid->raw[12] = (g >> 24) & 0x0f;
	mgid->raw[13] = (g >> 16) & 0xff;
	mgid->raw[14] = (g >> 8) & 0xff;
	mgid->raw[15] = g & 0xff;
	return 0;
}

int
rte_ipoib_ipv6_mc_mgid(const uint8_t group[16], uint16_t pkey, uint8_t scope,
		       struct rte_ib_gid *mgid)
{
	if (group == NULL || group[0] != 0xff)
		return ipoib_err(EINVAL);
	if (mgid_head(RTE_IPOIB_MGID_SIG_IPV6, pkey, scope, mgid) < 0)
		return -1;
	memcpy(&mgid->raw[6], &group[6], 10);
	return 0;
}

void
rte_ipoib_ipv6_iid(uint64_t guid, uint8_t iid[8])
{
	rte_be64_t be = rte_cpu_to_be_64(guid);

	memcpy(iid, &be, 8);
	iid[0] ^= 0x02;
}

void
rte_ipoib_ipv6_link_local(uint64_t guid, uint8_t addr[16])
{
	memset(addr, 0, 16);
	addr[0] = 0xfe;
	addr[1] = 0x80;
	rte_ipoib_ipv6_iid(guid, &addr[8]);
}

uint32_t
rte_ipoib_ud_mtu(uint32_t ib_mtu)
{
	if (ib_mtu < RTE_IPOIB_IB_MTU_MIN || ib_mtu > RTE_IPOIB_IB_MTU_MAX ||
	    (ib_mtu & (ib_mtu - 1)) != 0)
		return 0;
	return ib_mtu - RTE_IPOIB_ENCAP_LEN;
}
