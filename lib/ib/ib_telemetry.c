/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Telemetry endpoints of the IB devices (dpdk-telemetry.py; the
 * attributes Linux shows under /sys/class/infiniband/<dev>/ports/<n>/):
 * /ib/devices and /ib/port,<device>,<port>. They run on the telemetry
 * thread and read the port cache only (what the core last read from
 * the device: at registration, on every port event, on
 * rte_ib_query_port()), with the device list's lock held, so a device
 * cannot go away under them and no firmware command is posted.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_telemetry.h>

#include "ib_private.h"

static int
list_one(struct rte_ib_device *dev, void *arg)
{
	rte_tel_data_add_array_string(arg, dev->name);
	return 0;
}

static int
tel_devices(const char *cmd, const char *params, struct rte_tel_data *d)
{
	RTE_SET_USED(cmd);
	RTE_SET_USED(params);
	rte_tel_data_start_array(d, RTE_TEL_STRING_VAL);
	ib_device_foreach(NULL, list_one, d);
	return 0;
}

/* PortState names as ibstat prints them (IBA 14.2.5.6, Table 146). */
static const char *
state_name(uint8_t state)
{
	static const char *const names[] = {
		"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER",
	};

	return state < RTE_DIM(names) ? names[state] : "UNKNOWN";
}

struct port_ctx {
	struct rte_tel_data *d;
	uint8_t port;
	int ret;
};

static void
gid_str(const struct rte_ib_gid *g, char *s, size_t n)
{
	const uint8_t *b = g->raw;

	snprintf(s, n, "%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
		 b[12], b[13], b[14], b[15]);
}

static void
add_hex(struct rte_tel_data *d, const char *key, uint64_t v, int width)
{
	char s[24];

	snprintf(s, sizeof(s), "0x%0*" PRIx64, width, v);
	rte_tel_data_add_dict_string(d, key, s);
}

/* The cached attributes and tables of ctx->port of @p dev (ib_lock held). */
static int
port_one(struct rte_ib_device *dev, void *arg)
{
	static const uint8_t no_guid[8];
	struct port_ctx *c = arg;
	struct rte_tel_data *gids, *pkeys;
	const struct ib_port_cache *pc;
	char s[48];
	uint16_t i;

	if (!ib_port_is_valid(dev, c->port) || dev->core == NULL) {
		c->ret = -EINVAL;
		return 1;
	}
	gids = rte_tel_data_alloc();
	pkeys = rte_tel_data_alloc();
	if (gids == NULL || pkeys == NULL) {
		rte_tel_data_free(gids);
		rte_tel_data_free(pkeys);
		c->ret = -ENOMEM;
		return 1;
	}
	rte_tel_data_start_array(gids, RTE_TEL_STRING_VAL);
	rte_tel_data_start_array(pkeys, RTE_TEL_STRING_VAL);
	rte_rwlock_read_lock(&dev->core->lock);
	pc = &dev->core->port[c->port - 1];
	rte_tel_data_add_dict_string(c->d, "state", state_name(pc->attr.state));
	rte_tel_data_add_dict_int(c->d, "phys_state", pc->attr.phys_state);
	rte_tel_data_add_dict_int(c->d, "lid", pc->attr.lid);
	rte_tel_data_add_dict_int(c->d, "lmc", pc->attr.lmc);
	rte_tel_data_add_dict_int(c->d, "sm_lid", pc->attr.sm_lid);
	rte_tel_data_add_dict_int(c->d, "sm_sl", pc->attr.sm_sl);
	add_hex(c->d, "cap_mask", pc->attr.cap_mask, 8);
	rte_tel_data_add_dict_int(c->d, "active_mtu", pc->attr.active_mtu);
	rte_tel_data_add_dict_int(c->d, "active_width", pc->attr.active_width);
	rte_tel_data_add_dict_int(c->d, "active_speed", pc->attr.active_speed);
	rte_tel_data_add_dict_int(c->d, "rate_mbps",
		(int)rte_ib_link_rate_mbps(pc->attr.active_width, pc->attr.active_speed));
	/* the port's own MAD counters: PortInfo P_KeyViolations, Q_KeyViolations */
	rte_tel_data_add_dict_u64(c->d, "pkey_violations", pc->attr.bad_pkey_cntr);
	rte_tel_data_add_dict_u64(c->d, "qkey_violations", pc->attr.qkey_viol_cntr);
	/*
	 * The entries in use: a GID with an interface ID (its low 8 bytes,
	 * RFC 4291 2.5.1; unset entries hold the subnet prefix alone), a
	 * P_Key with a partition number (0x0000 and 0x8000 are invalid,
	 * IBA 10.9.1.2).
	 */
	for (i = 0; i < pc->nb_gid; i++) {
		if (memcmp(pc->gid[i].raw + 8, no_guid, sizeof(no_guid)) == 0)
			continue;
		gid_str(&pc->gid[i], s, sizeof(s));
		rte_tel_data_add_array_string(gids, s);
	}
	for (i = 0; i < pc->nb_pkey; i++) {
		if (!rte_ib_pkey_is_valid(pc->pkey[i]))
			continue;
		snprintf(s, sizeof(s), "0x%04x", pc->pkey[i]);
		rte_tel_data_add_array_string(pkeys, s);
	}
	rte_rwlock_read_unlock(&dev->core->lock);
	add_hex(c->d, "node_guid", dev->node_guid, 16);
	if (dev->eth_port_id[c->port - 1] != RTE_IB_NO_ETH_PORT)
		rte_tel_data_add_dict_int(c->d, "eth_port", dev->eth_port_id[c->port - 1]);
	rte_tel_data_add_dict_container(c->d, "gids", gids, 0);
	rte_tel_data_add_dict_container(c->d, "pkeys", pkeys, 0);
	c->ret = 0;
	return 1;
}

/* /ib/port,<device>,<port> */
static int
tel_port(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char name[RTE_IB_DEV_NAME_MAX];
	struct port_ctx c = { .d = d, .ret = -ENODEV };
	const char *comma;
	char *end;
	unsigned long port;

	RTE_SET_USED(cmd);
	if (params == NULL || (comma = strrchr(params, ',')) == NULL ||
	    (size_t)(comma - params) >= sizeof(name))
		return -EINVAL;
	port = strtoul(comma + 1, &end, 10);
	if (comma[1] == '\0' || *end != '\0' || port < 1 || port > RTE_IB_DEV_MAX_PORTS)
		return -EINVAL;
	memcpy(name, params, comma - params);
	name[comma - params] = '\0';
	c.port = (uint8_t)port;
	rte_tel_data_start_dict(d);
	if (ib_device_foreach(name, port_one, &c) == 0)
		return -ENODEV;
	return c.ret;
}

RTE_INIT(ib_telemetry_init)
{
	rte_telemetry_register_cmd("/ib/devices", tel_devices,
				   "IB devices. No parameters");
	rte_telemetry_register_cmd("/ib/port", tel_port,
				   "An IB port: state, LIDs, GIDs, P_Keys. Parameters: device,port");
}
