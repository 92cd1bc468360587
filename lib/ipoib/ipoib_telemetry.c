/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Telemetry endpoints of the interfaces (dpdk-telemetry.py), what Linux
 * IPoIB's debugfs files show: /ipoib/interfaces, /ipoib/neigh,<if>,
 * /ipoib/path,<if>, /ipoib/mcast,<if>. They run on the telemetry thread
 * and take the interface's lock (and the registry's to find it).
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_telemetry.h>

#include "ipoib_if_priv.h"
#include "ipoib_private.h"

static void
gid_str(const uint8_t *g, char *s, size_t n)
{
	snprintf(s, n, "%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x",
		 g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10], g[11],
		 g[12], g[13], g[14], g[15]);
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

/* The interface named @p params, its lock held, or NULL. */
static struct rte_ipoib_if *
tel_find_lock(const char *params)
{
	struct rte_ipoib_if *ifp;

	if (params == NULL)
		return NULL;
	ifp = rte_ipoib_if_find(params);
	if (ifp != NULL)
		ipoib_if_lock(ifp);
	return ifp;
}

struct neigh_ctx {
	struct rte_tel_data *d;
	uint64_t now;
	unsigned int n;
};

static int
neigh_one(struct rte_ipoib_neigh *n, void *arg)
{
	struct neigh_ctx *c = arg;
	char key[24], hw[RTE_IPOIB_HWADDR_FMT_SIZE], val[160];
	const struct rte_ipoib_path *p = rte_ipoib_neigh_path(n);
	uint64_t age = (c->now - rte_ipoib_neigh_last_used(n)) / (rte_get_tsc_hz() / 1000 + 1);

	rte_ipoib_hwaddr_format(rte_ipoib_neigh_hwaddr(n), hw, sizeof(hw));
	snprintf(key, sizeof(key), "%u", c->n++);
	snprintf(val, sizeof(val), "hw=%s path=%s age_ms=%" PRIu64, hw, p ? "yes" : "none", age);
	rte_tel_data_add_dict_string(c->d, key, val);
	return c->n >= 1000;
}

static int
tel_neigh(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_ipoib_if *ifp = tel_find_lock(params);
	struct neigh_ctx c = { .d = d, .now = rte_rdtsc() };

	RTE_SET_USED(cmd);
	if (ifp == NULL)
		return -1;
	rte_tel_data_start_dict(d);
	rte_ipoib_neigh_walk(ifp->tbl, neigh_one, &c);
	ipoib_if_unlock(ifp);
	return 0;
}

static int
tel_path(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_ipoib_if *ifp = tel_find_lock(params);
	struct ipoib_pathent *pe;
	char g[48], val[200];

	RTE_SET_USED(cmd);
	if (ifp == NULL)
		return -1;
	rte_tel_data_start_dict(d);
	TAILQ_FOREACH(pe, &ifp->pc.paths, next) {
		gid_str(pe->dgid.raw, g, sizeof(g));
		snprintf(val, sizeof(val),
			 "pkey=0x%04x dlid=%u sl=%u mtu=%u rate=%u state=%s queued=%u failures=%u",
			 pe->pkey, pe->dlid, pe->sl, pe->mtu, pe->rate,
			 pe->token != 0 ? (pe->resolved ? "refreshing" : "querying") :
			 pe->resolved ? "resolved" : "failed", pe->nb_ctrl_pend, pe->failures);
		rte_tel_data_add_dict_string(d, g, val);
	}
	ipoib_if_unlock(ifp);
	return 0;
}

static int
tel_mcast(const char *cmd, const char *params, struct rte_tel_data *d)
{
	static const char *const st[] = { "idle", "joining", "joined" };
	struct rte_ipoib_if *ifp = tel_find_lock(params);
	struct ipoib_mcgroup *gr;
	char g[48], val[160];

	RTE_SET_USED(cmd);
	if (ifp == NULL)
		return -1;
	rte_tel_data_start_dict(d);
	TAILQ_FOREACH(gr, &ifp->groups, next) {
		gid_str(gr->mgid.raw, g, sizeof(g));
		snprintf(val, sizeof(val), "state=%s join_state=0x%x mlid=0x%04x refs=%u%s%s",
			 st[gr->state], gr->join_state, gr->mlid, gr->refs,
			 gr->bcast ? " broadcast" : "", gr->sendonly ? " sendonly" : "");
		rte_tel_data_add_dict_string(d, g, val);
	}
	ipoib_if_unlock(ifp);
	return 0;
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
