/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Telemetry endpoints of the interfaces (dpdk-telemetry.py), what Linux
 * IPoIB's debugfs files show: /ipoib/interfaces, /ipoib/neigh,<if>,
 * /ipoib/path,<if>, /ipoib/mcast,<if>. They run on the telemetry thread
 * and read the interface through rte_ipoib_if_walk.h (which takes its
 * lock) after finding it by name (the registry's lock).
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_telemetry.h>

#include "rte_ipoib_if_walk.h"
#include "ipoib_if_priv.h"
#include "ipoib_private.h"

/*
 * A GID as a telemetry dictionary key: 32 hex digits. Keys may hold only
 * alphanumerics, '_' and '/' (rte_telemetry.h), so the usual colon form
 * would be refused and the entry lost.
 */
static void
gid_key(const uint8_t *g, char *s, size_t n)
{
	size_t i, off = 0;

	for (i = 0; i < 16 && off < n; i++)
		off += snprintf(s + off, n - off, "%02x", g[i]);
}

static void
list_one(struct rte_ipoib_if *ifp, void *arg)
{
	rte_tel_data_add_array_string(arg, ifp->name);
}

static int
tel_interfaces(const char *cmd, const char *params, struct rte_tel_data *d)
{
	RTE_SET_USED(cmd);
	RTE_SET_USED(params);
	rte_tel_data_start_array(d, RTE_TEL_STRING_VAL);
	ipoib_if_foreach(list_one, d);
	return 0;
}

/* One endpoint's dictionary and how many entries it holds. */
struct tel_ctx {
	struct rte_tel_data *d;
	unsigned int n;
};

/* Telemetry's reply is bounded: stop a walk after this many entries. */
#define TEL_MAX_ENTRIES 1000

/*
 * One entry per bound address, as ip neigh lists them ("ip=-" for a
 * neighbour with none): ip, hw, path, age in seconds. The widest, an
 * IPv6 address of 39 characters and six digits of age, takes 127, what
 * a telemetry string holds (RTE_TEL_MAX_STRING_LEN); the age is capped
 * there.
 */
static int
neigh_one(const struct rte_ipoib_neigh_info *ni, void *arg)
{
	struct tel_ctx *c = arg;
	char key[24], hw[RTE_IPOIB_HWADDR_FMT_SIZE], ip[RTE_IPOIB_IP_FMT_SIZE] = "-";
	char val[RTE_TEL_MAX_STRING_LEN];
	unsigned int i = 0;

	rte_ipoib_hwaddr_format(&ni->hw, hw, sizeof(hw));
	do {
		if (i < ni->nb_ip)
			rte_ipoib_ip_format(ni->ip[i], ip, sizeof(ip));
		snprintf(key, sizeof(key), "%u", c->n++);
		snprintf(val, sizeof(val), "ip=%s hw=%s path=%s age_s=%" PRIu64, ip, hw,
			 ni->has_path ? "yes" : "no", RTE_MIN(ni->idle_ms / 1000, UINT64_C(999999)));
		rte_tel_data_add_dict_string(c->d, key, val);
	} while (++i < ni->nb_ip && c->n < TEL_MAX_ENTRIES);
	return c->n >= TEL_MAX_ENTRIES;
}

static int
path_one(const struct rte_ipoib_path_info *pi, void *arg)
{
	static const char *const st[] = {
		[RTE_IPOIB_PATH_QUERYING] = "querying",
		[RTE_IPOIB_PATH_RESOLVED] = "resolved",
		[RTE_IPOIB_PATH_REFRESHING] = "refreshing",
		[RTE_IPOIB_PATH_FAILED] = "failed",
	};
	struct tel_ctx *c = arg;
	char g[48], val[200];

	gid_key(pi->dgid.raw, g, sizeof(g));
	snprintf(val, sizeof(val),
		 "pkey=0x%04x dlid=%u sl=%u mtu=%u rate=%u state=%s queued=%u failures=%u",
		 pi->pkey, pi->dlid, pi->sl, pi->mtu, pi->rate, st[pi->state], pi->queued,
		 pi->failures);
	rte_tel_data_add_dict_string(c->d, g, val);
	return ++c->n >= TEL_MAX_ENTRIES;
}

static int
mcast_one(const struct rte_ipoib_mcast_info *gi, void *arg)
{
	static const char *const st[] = {
		[RTE_IPOIB_MCAST_IDLE] = "idle",
		[RTE_IPOIB_MCAST_JOINING] = "joining",
		[RTE_IPOIB_MCAST_JOINED] = "joined",
	};
	struct tel_ctx *c = arg;
	char g[48], val[160];

	gid_key(gi->mgid.raw, g, sizeof(g));
	snprintf(val, sizeof(val), "state=%s join_state=0x%x mlid=0x%04x refs=%u%s%s",
		 st[gi->state], gi->join_state, gi->mlid, gi->refs,
		 gi->bcast ? " broadcast" : "", gi->sendonly ? " sendonly" : "");
	rte_tel_data_add_dict_string(c->d, g, val);
	return ++c->n >= TEL_MAX_ENTRIES;
}

/* The interface named @p params: a dictionary of its neighbours (@p kind 0),
 * paths (1) or groups (2). */
static int
tel_walk(const char *params, struct rte_tel_data *d, int kind)
{
	struct tel_ctx c = { .d = d };
	struct rte_ipoib_if *ifp;

	if (params == NULL)
		return -1;
	ifp = rte_ipoib_if_find(params);
	if (ifp == NULL)
		return -1;
	rte_tel_data_start_dict(d);
	if (kind == 0)
		rte_ipoib_if_neigh_walk(ifp, neigh_one, &c);
	else if (kind == 1)
		rte_ipoib_if_path_walk(ifp, path_one, &c);
	else
		rte_ipoib_if_mcast_walk(ifp, mcast_one, &c);
	return 0;
}

static int
tel_neigh(const char *cmd, const char *params, struct rte_tel_data *d)
{
	RTE_SET_USED(cmd);
	return tel_walk(params, d, 0);
}

static int
tel_path(const char *cmd, const char *params, struct rte_tel_data *d)
{
	RTE_SET_USED(cmd);
	return tel_walk(params, d, 1);
}

static int
tel_mcast(const char *cmd, const char *params, struct rte_tel_data *d)
{
	RTE_SET_USED(cmd);
	return tel_walk(params, d, 2);
}

void
ipoib_telemetry_init(void)
{
	static bool done;

	if (__atomic_exchange_n(&done, true, __ATOMIC_ACQ_REL))
		return;
	rte_telemetry_register_cmd("/ipoib/interfaces", tel_interfaces,
				   "IPoIB interfaces. No parameters");
	rte_telemetry_register_cmd("/ipoib/neigh", tel_neigh,
				   "Neighbours of an interface. Parameters: interface name");
	rte_telemetry_register_cmd("/ipoib/path", tel_path,
				   "Paths of an interface. Parameters: interface name");
	rte_telemetry_register_cmd("/ipoib/mcast", tel_mcast,
				   "Multicast groups of an interface. Parameters: interface name");
}
