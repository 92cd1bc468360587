/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _IPOIB_ARGS_H_
#define _IPOIB_ARGS_H_

/*
 * net_ipoib's devargs (doc/guides/nics/ipoib.rst, "Devargs"): parsed
 * into plain values, with no ethdev or EAL state touched, so the parser
 * runs alone in the unit test ipoib_devargs.
 */

#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_ipoib_if.h>

#define IPOIB_ARG_DEV    "dev"
#define IPOIB_ARG_PORT   "port"
#define IPOIB_ARG_PKEY   "pkey"
#define IPOIB_ARG_MODE   "mode"
#define IPOIB_ARG_TXQ    "txq"
#define IPOIB_ARG_MTU    "mtu"
#define IPOIB_ARG_IPV4   "ipv4"
#define IPOIB_ARG_IPV6   "ipv6"
#define IPOIB_ARG_IFNAME "ifname"

/** Room for the message naming what was wrong. */
#define IPOIB_ARGS_ERRLEN 512

/** What the devargs say, defaults filled in. */
struct ipoib_args {
	/** Ethdev name of the IB port: dev=, or dev=<PCI> with port=<n>. */
	char dev[RTE_ETH_NAME_MAX_LEN];
	uint16_t pkey;                  /**< 0: the parent (P_Key at index 0). */
	enum rte_ipoib_mode mode;       /**< eth (default) or l3. */
	uint16_t txq;                   /**< Send queues, 1 by default. */
	uint32_t mtu;                   /**< 0: the broadcast group's UD MTU. */
	/** Local addresses, IPv4 as ::ffff:a.b.c.d. */
	uint8_t addrs[RTE_IPOIB_IF_MAX_ADDRS][16];
	unsigned int nb_addrs;
	char ifname[RTE_IPOIB_IF_NAMESIZE]; /**< "" for lib/ipoib's default. */
	/** Why parsing failed, naming the key and the value. */
	char err[IPOIB_ARGS_ERRLEN];
};

/**
 * Parse @p text (the vdev's argument string, NULL for none) into @p a.
 *
 * @return 0, or -EINVAL with @c a->err saying which key and value are
 *   wrong and why.
 */
int ipoib_args_parse(const char *text, struct ipoib_args *a);

/** The parameter string for RTE_PMD_REGISTER_PARAM_STRING. */
#define IPOIB_PARAM_STRING \
	IPOIB_ARG_DEV "=<ethdev name of the IB port, or its PCI address> " \
	IPOIB_ARG_PORT "=<IB port 1..254 with a PCI address> " \
	IPOIB_ARG_PKEY "=<0x0001..0xffff, 0 or absent: the parent> " \
	IPOIB_ARG_MODE "=eth|l3 " \
	IPOIB_ARG_TXQ "=<1..16> " \
	IPOIB_ARG_MTU "=<68..4092> " \
	IPOIB_ARG_IPV4 "=<a.b.c.d[;a.b.c.d...]> " \
	IPOIB_ARG_IPV6 "=<IPv6 address[;...]> " \
	IPOIB_ARG_IFNAME "=<interface name, 1..31 of [A-Za-z0-9._-]> "

#endif /* _IPOIB_ARGS_H_ */
