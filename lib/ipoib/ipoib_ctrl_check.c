/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The control side's input checks (ipoib_ctrl_check.h): ARP and ND of
 * the L3 view, PathRecord answers, IGMP/MLD reports seen on transmit.
 */

#include <string.h>

#include <rte_byteorder.h>

#include "ipoib_ctrl_check.h"

#define REFUSE(w) do { *why = (w); return -1; } while (0)

static void
v4_mapped(rte_be32_t a, uint8_t ip[16])
{
	memset(ip, 0, 10);
	ip[10] = 0xff;
	ip[11] = 0xff;
	memcpy(ip + 12, &a, 4);
}

int
ipoib_ctrl_arp_decode(const void *buf, size_t len, struct ipoib_ctrl_arp *out,
		      const char **why)
{
	uint8_t copy[sizeof(struct rte_ipoib_arp)];
	const struct rte_ipoib_arp *a;
	uint32_t sip, tip;

	if (buf == NULL || len < sizeof(copy))
		REFUSE("arp_short");
	/* A copy: rte_ipoib_arp_parse() wants 4-byte alignment. */
	memcpy(copy, buf, sizeof(copy));
	a = rte_ipoib_arp_parse(copy, sizeof(copy));
	if (a == NULL)
		REFUSE("arp_header");
	sip = rte_be_to_cpu_32(a->spa);
	tip = rte_be_to_cpu_32(a->tpa);
	/* RFC 5227 2.1.1: a probe has sender IP 0; only a request may. */
	if (sip == 0 && a->oper != RTE_BE16(1))
		REFUSE("arp_sender_ip_zero");
	if ((sip >> 28) == 0xe || sip == UINT32_MAX)
		REFUSE("arp_sender_ip_group");
	if ((tip >> 28) == 0xe || tip == UINT32_MAX || tip == 0)
		REFUSE("arp_target_ip");
	if (rte_ipoib_hwaddr_qpn(&a->sha) == RTE_IPOIB_QPN_MCAST)
		REFUSE("arp_sender_qpn");
	out->oper = rte_be_to_cpu_16(a->oper);
	out->sha = a->sha;
	v4_mapped(a->spa, out->sip);
	v4_mapped(a->tpa, out->tip);
	return 0;
}

/* ff02::1:ffXX:XXXX (RFC 4291 2.7.1). */
static bool
is_solicited_node(const uint8_t *a)
{
	static const uint8_t pfx[13] = { 0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xff };

	return memcmp(a, pfx, sizeof(pfx)) == 0;
}

static bool
is_unspecified(const uint8_t *a)
{
	static const uint8_t zero[16];

	return memcmp(a, zero, 16) == 0;
}

int
ipoib_ctrl_nd_decode(const void *ip6, size_t len, struct ipoib_ctrl_nd *out,
		     const char **why)
{
	const uint8_t *p = ip6;
	uint8_t opt;
	int rc;

	if (p == NULL || len < 40 + 24)
		REFUSE("nd_short");
	if ((p[0] >> 4) != 6 || p[6] != 58)
		REFUSE("nd_not_icmpv6");
	out->type = p[40];
	if (out->type != 135 && out->type != 136)
		REFUSE("nd_type");
	opt = out->type == 135 ? 1 : 2;
	rc = rte_ipoib_nd_find_lla(p, len, opt, &out->lla);
	if (rc < 0)
		REFUSE("nd_message");
	/* The payload length, checked by the above, covers the fixed part. */
	if (((uint32_t)p[4] << 8 | p[5]) < 24)
		REFUSE("nd_short");
	out->has_lla = rc == 1;
	memcpy(out->src, p + 8, 16);
	memcpy(out->dst, p + 24, 16);
	memcpy(out->target, p + 48, 16);
	out->solicited = out->type == 136 && (p[44] & 0x40) != 0;
	if (out->target[0] == 0xff)
		REFUSE("nd_target_group");
	if (out->src[0] == 0xff)
		REFUSE("nd_source_group");
	if (out->type == 135 && is_unspecified(out->src)) {
		/* RFC 4861 7.1.1: DAD, to a solicited-node group, no option. */
		if (out->has_lla)
			REFUSE("nd_dad_with_option");
		if (!is_solicited_node(out->dst))
			REFUSE("nd_dad_destination");
	}
	/* RFC 4861 7.1.2: solicited NAs are unicast. */
	if (out->type == 136 && out->solicited && out->dst[0] == 0xff)
		REFUSE("nd_solicited_to_group");
	if (out->has_lla && rte_ipoib_hwaddr_qpn(&out->lla) == RTE_IPOIB_QPN_MCAST)
		REFUSE("nd_option_qpn");
	return 0;
}

int
ipoib_ctrl_path_pick(const struct rte_ib_sa_path_rec *recs, unsigned int nb,
		     const struct rte_ib_gid *dgid, uint16_t pkey, const char **why)
{
	unsigned int i;

	*why = "no_record";
	if (recs == NULL || dgid == NULL)
		return -1;
	for (i = 0; i < nb; i++) {
		const struct rte_ib_sa_path_rec *r = &recs[i];

		if (memcmp(r->dgid.raw, dgid->raw, sizeof(dgid->raw)) != 0)
			*why = "path_other_dgid";
		else if ((r->pkey & 0x7fff) != (pkey & 0x7fff))
			*why = "path_other_pkey";
		else if (r->dlid == 0 || r->dlid >= 0xc000)
			*why = "path_dlid";
		else if (r->sl > 15)
			*why = "path_sl";
		else if (r->mtu < 1 || r->mtu > 5)
			*why = "path_mtu";
		else if (r->rate < 2 || r->rate > 10)
			*why = "path_rate";
		else
			return (int)i;
	}
	return -1;
}

/* An IGMP message's groups (RFC 2236 2, RFC 3376 4.2). */
static unsigned int
igmp_groups(const uint8_t *g, size_t len, uint8_t (*groups)[16], bool *join, unsigned int max)
{
	unsigned int n = 0, nrec, i;
	rte_be32_t a;
	size_t off;

	if (len < 8)
		return 0;
	switch (g[0]) {
	case 0x12: /* v1 report */
	case 0x16: /* v2 report */
	case 0x17: /* v2 leave */
		if (g[4] >> 4 != 0xe || max == 0)
			return 0;
		memcpy(&a, g + 4, 4);
		v4_mapped(a, groups[0]);
		join[0] = g[0] != 0x17;
		return 1;
	case 0x22: /* v3 report */
		nrec = (unsigned int)g[6] << 8 | g[7];
		off = 8;
		for (i = 0; i < nrec && n < max; i++) {
			unsigned int type, aux, nsrc;

			if (off + 8 > len)
				break;
			type = g[off];
			aux = g[off + 1];
			nsrc = (unsigned int)g[off + 2] << 8 | g[off + 3];
			memcpy(&a, g + off + 4, 4);
			if ((g[off + 4] >> 4) == 0xe && type >= 1 && type <= 6) {
				v4_mapped(a, groups[n]);
				/* EXCLUDE modes listen; INCLUDE of nothing leaves. */
				join[n] = type == 2 || type == 4 || (nsrc != 0 && type != 6);
				if (join[n] || ((type == 1 || type == 3) && nsrc == 0))
					n++;
			}
			off += 8 + 4 * (size_t)nsrc + 4 * (size_t)aux;
		}
		return n;
	default:
		return 0;
	}
}

/* An MLD message's groups (RFC 2710 3, RFC 3810 5.2). */
static unsigned int
mld_groups(const uint8_t *m, size_t len, uint8_t (*groups)[16], bool *join, unsigned int max)
{
	unsigned int n = 0, nrec, i;
	size_t off;

	if (len < 8)
		return 0;
	switch (m[0]) {
	case 131: /* v1 report */
	case 132: /* v1 done */
		if (len < 24 || m[8] != 0xff || max == 0)
			return 0;
		memcpy(groups[0], m + 8, 16);
		join[0] = m[0] == 131;
		return 1;
	case 143: /* v2 report */
		nrec = (unsigned int)m[6] << 8 | m[7];
		off = 8;
		for (i = 0; i < nrec && n < max; i++) {
			unsigned int type, aux, nsrc;

			if (off + 20 > len)
				break;
			type = m[off];
			aux = m[off + 1];
			nsrc = (unsigned int)m[off + 2] << 8 | m[off + 3];
			if (m[off + 4] == 0xff && type >= 1 && type <= 6) {
				memcpy(groups[n], m + off + 4, 16);
				join[n] = type == 2 || type == 4 || (nsrc != 0 && type != 6);
				if (join[n] || ((type == 1 || type == 3) && nsrc == 0))
					n++;
			}
			off += 20 + 16 * (size_t)nsrc + 4 * (size_t)aux;
		}
		return n;
	default:
		return 0;
	}
}

unsigned int
ipoib_ctrl_mc_report(const uint8_t *ip, size_t len, uint8_t (*groups)[16], bool *join,
		     unsigned int max)
{
	size_t hl;
	uint8_t nh;

	if (ip == NULL || len < 20)
		return 0;
	if ((ip[0] >> 4) == 4) {
		hl = (size_t)(ip[0] & 0xf) * 4;
		if (ip[9] != 2 || hl < 20 || hl > len)
			return 0;
		return igmp_groups(ip + hl, len - hl, groups, join, max);
	}
	if ((ip[0] >> 4) != 6 || len < 40)
		return 0;
	/* MLD follows a Hop-by-Hop header with Router Alert (RFC 2711). */
	nh = ip[6];
	hl = 40;
	if (nh == 0) {
		if (len < hl + 8)
			return 0;
		nh = ip[hl];
		hl += ((size_t)ip[hl + 1] + 1) * 8;
	}
	if (nh != 58 || hl > len)
		return 0;
	return mld_groups(ip + hl, len - hl, groups, join, max);
}
