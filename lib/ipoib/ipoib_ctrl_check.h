/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _IPOIB_CTRL_CHECK_H_
#define _IPOIB_CTRL_CHECK_H_

/*
 * The control side's checks of what it takes from the wire and from the
 * SA: ARP and ND messages the L3 view handles (ipoib_neigh.c) and
 * PathRecord answers (ipoib_path.c). Pure functions: no state, no
 * allocation, no log; each says why it refused (a short name for the
 * counters and tests). Private to librte_ipoib and its tests.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_ib_records.h>

#include "rte_ipoib.h"

/* An ARP message over IPoIB as the L3 view's control side sees it. */
struct ipoib_ctrl_arp {
	uint16_t oper;                  /* 1 request, 2 reply */
	struct rte_ipoib_hwaddr sha;    /* sender address */
	uint8_t sip[16];                /* sender IP, ::ffff:a.b.c.d */
	uint8_t tip[16];                /* target IP, ::ffff:a.b.c.d */
};

/*
 * Decode and check an ARP message (RFC 826 in the RFC 4391 9.1.1 form,
 * from the ARP header on, @p len bytes): rte_ipoib_arp_parse()'s checks,
 * then: the sender IP a unicast host address (not 0.0.0.0 unless a probe,
 * RFC 5227 2.1.1, not multicast, not broadcast), the target IP not
 * multicast or broadcast, the sender's QPN not the multicast QPN.
 * Returns 0, or -1 with *@p why naming the check.
 */
int ipoib_ctrl_arp_decode(const void *buf, size_t len, struct ipoib_ctrl_arp *out,
			  const char **why);

/* A Neighbour Solicitation or Advertisement with its IPoIB option. */
struct ipoib_ctrl_nd {
	uint8_t type;                   /* 135 NS, 136 NA */
	uint8_t src[16];                /* IPv6 source */
	uint8_t dst[16];                /* IPv6 destination */
	uint8_t target[16];             /* target address */
	bool has_lla;                   /* @c lla valid (SLLA of NS, TLLA of NA) */
	bool solicited;                 /* NA: S flag */
	struct rte_ipoib_hwaddr lla;
};

/*
 * Decode and check an NS or NA (RFC 4861 7.1.1, 7.1.2) in the IPoIB form
 * (RFC 4391 9.1.2), from the IPv6 header on: rte_ipoib_nd_find_lla()'s
 * checks (hop limit 255, code 0, options, checksum), then: type 135 or
 * 136, the ICMPv6 body at least 24 bytes, the target not multicast; an
 * NS from the unspecified address has no source option and goes to a
 * solicited-node group; an NA to a multicast destination is not
 * solicited; the option's QPN is not the multicast QPN.
 * Returns 0, or -1 with *@p why naming the check.
 */
int ipoib_ctrl_nd_decode(const void *ip6, size_t len, struct ipoib_ctrl_nd *out,
			 const char **why);

/*
 * Pick the usable record of a PathRecord answer to the query for
 * (@p dgid, @p pkey): the first whose DGID is @p dgid, whose P_Key has
 * the base of @p pkey, whose DLID is a unicast LID, SL within 0..15, MTU
 * code an MTU (1..5, IBA 15.2.5.16 table "MTU") and rate code a rate
 * (2..10). Returns its index, or -1 with *@p why naming the check the
 * last record failed (or "no record").
 */
int ipoib_ctrl_path_pick(const struct rte_ib_sa_path_rec *recs, unsigned int nb,
			 const struct rte_ib_gid *dgid, uint16_t pkey, const char **why);

/*
 * Groups an IGMP or MLD report or leave names (RFC 2236, 3376, 2710,
 * 3810), from the IPv4 or IPv6 header @p ip on. Up to @p max groups, as
 * 16-byte addresses (IPv4 as ::ffff:a.b.c.d), in @p groups, with in
 * @p join true for a listener's report (join), false for a leave.
 * Returns the number found, 0 for anything else (not IGMP/MLD, a query,
 * malformed).
 */
unsigned int ipoib_ctrl_mc_report(const uint8_t *ip, size_t len, uint8_t (*groups)[16],
				  bool *join, unsigned int max);

#endif /* _IPOIB_CTRL_CHECK_H_ */
