/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * net_ipoib's devargs: one small check per key; the first bad pair
 * stops parsing with a message naming its key and value.
 */

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_kvargs.h>

#include "ipoib_args.h"

/* Keys given at most once; ipv4 and ipv6 may repeat. */
static const char *const single_keys[] = {
	IPOIB_ARG_DEV, IPOIB_ARG_PORT, IPOIB_ARG_PKEY, IPOIB_ARG_MODE,
	IPOIB_ARG_TXQ, IPOIB_ARG_MTU, IPOIB_ARG_IFNAME,
};

static int __rte_format_printf(4, 5)
bad(struct ipoib_args *a, const char *key, const char *value, const char *fmt, ...)
{
	char why[192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(a->err, sizeof(a->err), "%s=%s: %s", key, value, why);
	return -EINVAL;
}

/* A whole decimal or 0x-hex number in 0..@p max. */
static int
number(const char *v, unsigned long max, unsigned long *out)
{
	char *end;

	if (v[0] == '\0' || v[0] == '-' || v[0] == '+' || isspace((unsigned char)v[0]))
		return -1;
	errno = 0;
	*out = strtoul(v, &end, 0);
	if (errno != 0 || *end != '\0' || *out > max)
		return -1;
	return 0;
}

/* A PCI address as EAL names devices: [domain:]bus:devid.function, hex. */
static bool
is_pci_addr(const char *v)
{
	unsigned int d, b, s, f;
	char tail;

	return sscanf(v, "%x:%x:%x.%x%c", &d, &b, &s, &f, &tail) == 4 ||
		sscanf(v, "%x:%x.%x%c", &b, &s, &f, &tail) == 3;
}

static int
parse_dev(struct ipoib_args *a, const char *v)
{
	size_t i, n = strlen(v);

	if (n == 0 || n >= sizeof(a->dev))
		return bad(a, IPOIB_ARG_DEV, v, "an ethdev name is 1 to %zu characters",
			   sizeof(a->dev) - 1);
	for (i = 0; i < n; i++)
		if (!isgraph((unsigned char)v[i]))
			return bad(a, IPOIB_ARG_DEV, v, "character 0x%02x at byte %zu",
				   (unsigned char)v[i], i);
	memcpy(a->dev, v, n + 1);
	return 0;
}

static int
parse_pkey(struct ipoib_args *a, const char *v)
{
	unsigned long x;

	if (number(v, 0xffff, &x) != 0)
		return bad(a, IPOIB_ARG_PKEY, v, "not a number 0..0xffff");
	/* IBA 10.9.1.2: 0x0000 and 0x8000 (base 0 with either membership) are invalid. */
	if (x == 0x8000)
		return bad(a, IPOIB_ARG_PKEY, v, "the invalid P_Key (IBA 10.9.1.2)");
	a->pkey = (uint16_t)x;
	return 0;
}

static int
parse_mode(struct ipoib_args *a, const char *v)
{
	if (strcmp(v, "eth") == 0)
		a->mode = RTE_IPOIB_MODE_ETH;
	else if (strcmp(v, "l3") == 0)
		a->mode = RTE_IPOIB_MODE_L3;
	else
		return bad(a, IPOIB_ARG_MODE, v, "not eth or l3");
	return 0;
}

static int
parse_txq(struct ipoib_args *a, const char *v)
{
	unsigned long x;

	if (number(v, RTE_IPOIB_IF_MAX_QUEUES, &x) != 0 || x == 0)
		return bad(a, IPOIB_ARG_TXQ, v, "not 1..%u", RTE_IPOIB_IF_MAX_QUEUES);
	a->txq = (uint16_t)x;
	return 0;
}

static int
parse_mtu(struct ipoib_args *a, const char *v)
{
	unsigned long x;

	/* RFC 791's minimum to the largest UD MTU (4096 less the 4-byte header). */
	if (number(v, RTE_IPOIB_UD_MTU_MAX, &x) != 0 || x < 68)
		return bad(a, IPOIB_ARG_MTU, v, "not 68..%u", RTE_IPOIB_UD_MTU_MAX);
	a->mtu = (uint32_t)x;
	return 0;
}

/* One address of ipv4= or ipv6=, checked as rte_ipoib_if_addr_set() will. */
static int
add_addr(struct ipoib_args *a, const char *key, const char *v, const char *item, bool v6)
{
	uint8_t ip[16] = { 0 };
	unsigned int i;

	if (v6) {
		if (inet_pton(AF_INET6, item, ip) != 1)
			return bad(a, key, v, "\"%s\" is not an IPv6 address", item);
		if (ip[0] == 0xff)
			return bad(a, key, v, "\"%s\" is multicast", item);
		for (i = 0; i < 16 && ip[i] == 0; i++)
			;
		if (i == 16)
			return bad(a, key, v, "\"%s\" is the unspecified address", item);
	} else {
		if (inet_pton(AF_INET, item, ip + 12) != 1)
			return bad(a, key, v, "\"%s\" is not a dotted IPv4 address", item);
		if (ip[12] == 0 || ip[12] >= 0xe0)
			return bad(a, key, v, "\"%s\" is zero, multicast or reserved", item);
		ip[10] = 0xff;
		ip[11] = 0xff;
	}
	for (i = 0; i < a->nb_addrs; i++)
		if (memcmp(a->addrs[i], ip, 16) == 0)
			return bad(a, key, v, "\"%s\" given twice", item);
	if (a->nb_addrs == RTE_IPOIB_IF_MAX_ADDRS)
		return bad(a, key, v, "more than %u addresses", RTE_IPOIB_IF_MAX_ADDRS);
	memcpy(a->addrs[a->nb_addrs++], ip, 16);
	return 0;
}

static int
parse_addrs(struct ipoib_args *a, const char *key, const char *v, bool v6)
{
	char item[INET6_ADDRSTRLEN + 1];
	const char *p = v, *end;
	size_t n;
	int rc;

	do {
		end = strchr(p, ';');
		n = end != NULL ? (size_t)(end - p) : strlen(p);
		if (n == 0 || n >= sizeof(item))
			return bad(a, key, v, "an empty or overlong address");
		memcpy(item, p, n);
		item[n] = '\0';
		rc = add_addr(a, key, v, item, v6);
		if (rc != 0)
			return rc;
		p = end != NULL ? end + 1 : NULL;
	} while (p != NULL);
	return 0;
}

static int
parse_ifname(struct ipoib_args *a, const char *v)
{
	size_t i, n = strlen(v);

	if (n == 0 || n >= sizeof(a->ifname))
		return bad(a, IPOIB_ARG_IFNAME, v, "a name is 1 to %zu characters",
			   sizeof(a->ifname) - 1);
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)v[i]) && v[i] != '.' && v[i] != '_' && v[i] != '-')
			return bad(a, IPOIB_ARG_IFNAME, v, "character 0x%02x at byte %zu is not one of [A-Za-z0-9._-]",
				   (unsigned char)v[i], i);
	memcpy(a->ifname, v, n + 1);
	return 0;
}

static int
parse_pair(struct ipoib_args *a, const char *key, const char *v, unsigned long *port)
{
	if (strcmp(key, IPOIB_ARG_DEV) == 0)
		return parse_dev(a, v);
	if (strcmp(key, IPOIB_ARG_PORT) == 0) {
		/* IBA 14.2.5.6: end ports are numbered from 1; 255 is reserved. */
		if (number(v, 254, port) != 0 || *port == 0)
			return bad(a, key, v, "not an IB port number 1..254");
		return 0;
	}
	if (strcmp(key, IPOIB_ARG_PKEY) == 0)
		return parse_pkey(a, v);
	if (strcmp(key, IPOIB_ARG_MODE) == 0)
		return parse_mode(a, v);
	if (strcmp(key, IPOIB_ARG_TXQ) == 0)
		return parse_txq(a, v);
	if (strcmp(key, IPOIB_ARG_MTU) == 0)
		return parse_mtu(a, v);
	if (strcmp(key, IPOIB_ARG_IPV4) == 0)
		return parse_addrs(a, key, v, false);
	if (strcmp(key, IPOIB_ARG_IPV6) == 0)
		return parse_addrs(a, key, v, true);
	if (strcmp(key, IPOIB_ARG_IFNAME) == 0)
		return parse_ifname(a, v);
	return bad(a, key, v, "unknown key (keys: dev, port, pkey, mode, txq, mtu, ipv4, ipv6, ifname)");
}

/* dev= with port=: the ethdev net_mthca names "<pci>" (port 1) or "<pci>_p<n>". */
static int
resolve_port(struct ipoib_args *a, unsigned long port)
{
	char pci[RTE_ETH_NAME_MAX_LEN];
	char v[24];

	snprintf(v, sizeof(v), "%lu", port);
	if (a->dev[0] == '\0')
		return bad(a, IPOIB_ARG_PORT, v, "needs dev=<PCI address of the HCA>");
	if (!is_pci_addr(a->dev))
		return bad(a, IPOIB_ARG_PORT, v, "dev=%s is not a PCI address", a->dev);
	if (port == 1)
		return 0;
	memcpy(pci, a->dev, sizeof(pci));
	if ((size_t)snprintf(a->dev, sizeof(a->dev), "%s_p%lu", pci, port) >= sizeof(a->dev))
		return bad(a, IPOIB_ARG_PORT, v, "dev=%s: name too long", pci);
	return 0;
}

int
ipoib_args_parse(const char *text, struct ipoib_args *a)
{
	unsigned long port = 0;
	struct rte_kvargs *kv;
	unsigned int i, k;
	int rc = 0;

	memset(a, 0, sizeof(*a));
	a->mode = RTE_IPOIB_MODE_ETH;
	a->txq = 1;
	if (text == NULL || text[0] == '\0') {
		snprintf(a->err, sizeof(a->err), "%s=: missing; name the IB port's ethdev",
			 IPOIB_ARG_DEV);
		return -EINVAL;
	}
	kv = rte_kvargs_parse(text, NULL);
	if (kv == NULL) {
		snprintf(a->err, sizeof(a->err), "\"%s\": not key=value pairs separated by ','",
			 text);
		return -EINVAL;
	}
	for (k = 0; rc == 0 && k < RTE_DIM(single_keys); k++)
		if (rte_kvargs_count(kv, single_keys[k]) > 1)
			rc = bad(a, single_keys[k], rte_kvargs_get(kv, single_keys[k]),
				 "key given more than once");
	for (i = 0; rc == 0 && i < kv->count; i++) {
		const struct rte_kvargs_pair *p = &kv->pairs[i];

		if (p->value == NULL)
			rc = bad(a, p->key, "", "needs a value");
		else
			rc = parse_pair(a, p->key, p->value, &port);
	}
	if (rc == 0 && port != 0)
		rc = resolve_port(a, port);
	if (rc == 0 && a->dev[0] == '\0')
		rc = bad(a, IPOIB_ARG_DEV, "", "missing; name the IB port's ethdev");
	rte_kvargs_free(kv);
	return rc;
}
