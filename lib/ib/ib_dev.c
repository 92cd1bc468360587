/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The IB device core: the device list, clients, event handlers, and the
 * checked wrappers around the PMD's ops (rte_ib_dev.h, ib_driver.h).
 *
 * Two locks (see rte_ib_dev.h for the contract):
 * - ib_lock (recursive) protects devices[], clients[] and handlers[]
 *   and is held while handlers run, so that a handler can call the API
 *   and an unregistered handler never runs again;
 * - ib_reg_lock serialises device and client (un)registration and is
 *   held, without ib_lock, while client add/remove callbacks run: a
 *   client's remove may wait for a thread of its own that is in the
 *   middle of dispatching an event (which takes ib_lock).
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>

#include "ib_private.h"

static pthread_mutex_t ib_lock;
static pthread_mutex_t ib_reg_lock = PTHREAD_MUTEX_INITIALIZER;

/* Registered devices in registration order. Protected by ib_lock. */
static struct rte_ib_device *devices[RTE_IB_MAX_DEVICES];
static unsigned int nb_devices;

/* Registered clients in registration order. Protected by ib_lock. */
static const struct rte_ib_client *clients[RTE_IB_MAX_CLIENTS];
static unsigned int nb_clients;

/* Event handler slots; a free slot has cb == NULL. Protected by ib_lock. */
static struct {
	struct rte_ib_device *dev;
	rte_ib_event_cb cb;
	void *arg;
} handlers[RTE_IB_MAX_EVENT_HANDLERS];

RTE_INIT(ib_lock_init)
{
	pthread_mutexattr_t attr;

	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&ib_lock, &attr);
	pthread_mutexattr_destroy(&attr);
}

/* Index of @p dev in devices[], or -1. Caller holds ib_lock. */
static int
ib_device_index_locked(const struct rte_ib_device *dev)
{
	unsigned int i;

	for (i = 0; i < nb_devices; i++)
		if (devices[i] == dev)
			return (int)i;
	return -1;
}

/* true when @p dev is registered. */
static bool
ib_device_is_registered(const struct rte_ib_device *dev)
{
	int idx;

	pthread_mutex_lock(&ib_lock);
	idx = ib_device_index_locked(dev);
	pthread_mutex_unlock(&ib_lock);
	return idx >= 0;
}

/* Check what the PMD filled in; name the first bad field. */
static int
ib_device_check(const struct rte_ib_device *dev)
{
	size_t len = strnlen(dev->name, sizeof(dev->name));

	if (len == 0 || len == sizeof(dev->name)) {
		IB_LOG(ERR, "device name: empty or not NUL-terminated within %d bytes",
		       RTE_IB_DEV_NAME_MAX);
		return -EINVAL;
	}
	if (dev->ops == NULL) {
		IB_LOG(ERR, "%s: ops is NULL", dev->name);
		return -EINVAL;
	}
	if (dev->phys_port_cnt < 1 || dev->phys_port_cnt > RTE_IB_DEV_MAX_PORTS) {
		IB_LOG(ERR, "%s: phys_port_cnt=%u: not within 1..%d", dev->name,
		       dev->phys_port_cnt, RTE_IB_DEV_MAX_PORTS);
		return -EINVAL;
	}
	if (dev->node_type < RTE_IB_NODE_CA || dev->node_type > RTE_IB_NODE_ROUTER) {
		IB_LOG(ERR, "%s: node_type=%u: not a CA, switch or router",
		       dev->name, dev->node_type);
		return -EINVAL;
	}
	if (dev->core != NULL) {
		IB_LOG(ERR, "%s: already registered (core is set)", dev->name);
		return -EEXIST;
	}
	return 0;
}

int
rte_ib_device_register(struct rte_ib_device *dev)
{
	const struct rte_ib_client *snap[RTE_IB_MAX_CLIENTS];
	struct ib_device_core *core;
	unsigned int i, n;
	int ret;

	if (dev == NULL) {
		rte_errno = EINVAL;
		return -1;
	}
	ret = ib_device_check(dev);
	if (ret < 0) {
		rte_errno = -ret;
		return -1;
	}
	core = calloc(1, sizeof(*core));
	if (core == NULL) {
		rte_errno = ENOMEM;
		return -1;
	}
	rte_rwlock_init(&core->lock);
	rte_rwlock_init(&core->mad_lock);

	pthread_mutex_lock(&ib_reg_lock);
	pthread_mutex_lock(&ib_lock);
	ret = 0;
	if (nb_devices == RTE_IB_MAX_DEVICES) {
		IB_LOG(ERR, "%s: %d devices already registered", dev->name,
		       RTE_IB_MAX_DEVICES);
		ret = -ENOSPC;
	}
	for (i = 0; ret == 0 && i < nb_devices; i++) {
		if (strcmp(devices[i]->name, dev->name) == 0) {
			IB_LOG(ERR, "%s: name already registered", dev->name);
			ret = -EEXIST;
		}
	}
	if (ret < 0) {
		pthread_mutex_unlock(&ib_lock);
		pthread_mutex_unlock(&ib_reg_lock);
		free(core);
		rte_errno = -ret;
		return -1;
	}
	dev->core = core;
	pthread_mutex_unlock(&ib_lock);

	/* Fill the cache before anyone can find the device. */
	for (i = 1; i <= dev->phys_port_cnt; i++)
		ib_cache_refresh(dev, (uint8_t)i);

	pthread_mutex_lock(&ib_lock);
	devices[nb_devices++] = dev;
	n = nb_clients;
	memcpy(snap, clients, n * sizeof(snap[0]));
	pthread_mutex_unlock(&ib_lock);

	IB_LOG(INFO, "%s: registered, node GUID 0x%016" PRIx64 ", %u port(s)",
	       dev->name, dev->node_guid, dev->phys_port_cnt);
	for (i = 0; i < n; i++) {
		ret = snap[i]->add != NULL ? snap[i]->add(dev) : 0;
		if (ret < 0)
			IB_LOG(WARNING, "%s: client %s: add failed: %s",
			       dev->name, snap[i]->name, strerror(-ret));
	}
	pthread_mutex_unlock(&ib_reg_lock);
	return 0;
}

int
rte_ib_device_unregister(struct rte_ib_device *dev)
{
	const struct rte_ib_client *snap[RTE_IB_MAX_CLIENTS];
	unsigned int i, n;
	int idx;

	if (dev == NULL) {
		rte_errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&ib_reg_lock);
	pthread_mutex_lock(&ib_lock);
	idx = ib_device_index_locked(dev);
	n = nb_clients;
	memcpy(snap, clients, n * sizeof(snap[0]));
	pthread_mutex_unlock(&ib_lock);
	if (idx < 0) {
		pthread_mutex_unlock(&ib_reg_lock);
		IB_LOG(ERR, "%s: not registered", dev->name);
		rte_errno = EINVAL;
		return -1;
	}
	/* Clients go in reverse order of registration (Linux
	 * disable_device): a later client may build on an earlier one.
	 */
	for (i = n; i > 0; i--)
		if (snap[i - 1]->remove != NULL)
			snap[i - 1]->remove(dev);

	pthread_mutex_lock(&ib_lock);
	idx = ib_device_index_locked(dev);
	memmove(&devices[idx], &devices[idx + 1],
		(nb_devices - idx - 1) * sizeof(devices[0]));
	nb_devices--;
	for (i = 0; i < RTE_DIM(handlers); i++)
		if (handlers[i].cb != NULL && handlers[i].dev == dev)
			handlers[i].cb = NULL;
	free(dev->core);
	dev->core = NULL;
	pthread_mutex_unlock(&ib_lock);
	pthread_mutex_unlock(&ib_reg_lock);
	IB_LOG(INFO, "%s: unregistered", dev->name);
	return 0;
}

struct rte_ib_device *
rte_ib_device_get_by_name(const char *name)
{
	struct rte_ib_device *dev = NULL;
	unsigned int i;

	if (name == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	pthread_mutex_lock(&ib_lock);
	for (i = 0; i < nb_devices && dev == NULL; i++)
		if (strcmp(devices[i]->name, name) == 0)
			dev = devices[i];
	pthread_mutex_unlock(&ib_lock);
	if (dev == NULL)
		rte_errno = ENODEV;
	return dev;
}

int
ib_device_foreach(const char *name, int (*fn)(struct rte_ib_device *dev, void *arg), void *arg)
{
	unsigned int i;
	int n = 0;

	pthread_mutex_lock(&ib_lock);
	for (i = 0; i < nb_devices; i++) {
		if (name != NULL && strcmp(devices[i]->name, name) != 0)
			continue;
		n++;
		if (fn(devices[i], arg) != 0)
			break;
	}
	pthread_mutex_unlock(&ib_lock);
	return n;
}

struct rte_ib_device *
ib_device_of_port(uint16_t port_id, uint8_t *ib_port, bool *ud)
{
	struct rte_ib_device *dev = NULL;
	unsigned int i, p;
	uint8_t port = 0;

	if (port_id == RTE_IB_NO_ETH_PORT)
		return NULL;
	pthread_mutex_lock(&ib_lock);
	for (i = 0; i < nb_devices && dev == NULL; i++) {
		for (p = 0; p < devices[i]->phys_port_cnt; p++) {
			if (devices[i]->eth_port_id[p] != port_id)
				continue;
			dev = devices[i];
			port = (uint8_t)(p + 1);
			*ud = false;
			break;
		}
	}
	/* not the ethdev of a physical port: perhaps a UD port of a device */
	for (i = 0; i < nb_devices && dev == NULL; i++) {
		const struct rte_ib_dev_ops *ops = devices[i]->ops;

		if (ops->ud_port_lookup != NULL &&
		    ops->ud_port_lookup(devices[i], port_id, &port) == 0 &&
		    ib_port_is_valid(devices[i], port)) {
			dev = devices[i];
			*ud = true;
		}
	}
	pthread_mutex_unlock(&ib_lock);
	if (dev != NULL && ib_port != NULL)
		*ib_port = port;
	return dev;
}

struct rte_ib_device *
rte_ib_device_from_port_id(uint16_t port_id, uint8_t *ib_port)
{
	struct rte_ib_device *dev;
	bool ud;

	dev = ib_device_of_port(port_id, ib_port, &ud);
	if (dev == NULL)
		rte_errno = ENODEV;
	return dev;
}

unsigned int
rte_ib_device_list(struct rte_ib_device **devs, unsigned int n)
{
	unsigned int i, count;

	pthread_mutex_lock(&ib_lock);
	count = nb_devices;
	for (i = 0; i < count && i < n && devs != NULL; i++)
		devs[i] = devices[i];
	pthread_mutex_unlock(&ib_lock);
	return count;
}

/* Index of @p client in clients[], or -1. Caller holds ib_lock. */
static int
ib_client_index_locked(const struct rte_ib_client *client)
{
	unsigned int i;

	for (i = 0; i < nb_clients; i++)
		if (clients[i] == client)
			return (int)i;
	return -1;
}

int
rte_ib_register_client(const struct rte_ib_client *client)
{
	struct rte_ib_device *snap[RTE_IB_MAX_DEVICES];
	unsigned int i, n;
	int ret = 0;

	if (client == NULL || client->name == NULL) {
		rte_errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&ib_reg_lock);
	pthread_mutex_lock(&ib_lock);
	if (ib_client_index_locked(client) >= 0)
		ret = -EEXIST;
	if (ret == 0 && nb_clients == RTE_IB_MAX_CLIENTS)
		ret = -ENOSPC;
	if (ret == 0)
		clients[nb_clients++] = client;
	n = nb_devices;
	memcpy(snap, devices, n * sizeof(snap[0]));
	pthread_mutex_unlock(&ib_lock);
	if (ret < 0) {
		pthread_mutex_unlock(&ib_reg_lock);
		IB_LOG(ERR, "client %s: %s", client->name, strerror(-ret));
		rte_errno = -ret;
		return -1;
	}
	for (i = 0; i < n && client->add != NULL; i++) {
		ret = client->add(snap[i]);
		if (ret < 0)
			IB_LOG(WARNING, "%s: client %s: add failed: %s",
			       snap[i]->name, client->name, strerror(-ret));
	}
	pthread_mutex_unlock(&ib_reg_lock);
	return 0;
}

int
rte_ib_unregister_client(const struct rte_ib_client *client)
{
	struct rte_ib_device *snap[RTE_IB_MAX_DEVICES];
	unsigned int i, n;
	int idx;

	if (client == NULL) {
		rte_errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&ib_reg_lock);
	pthread_mutex_lock(&ib_lock);
	idx = ib_client_index_locked(client);
	if (idx >= 0) {
		memmove(&clients[idx], &clients[idx + 1],
			(nb_clients - idx - 1) * sizeof(clients[0]));
		nb_clients--;
	}
	n = nb_devices;
	memcpy(snap, devices, n * sizeof(snap[0]));
	pthread_mutex_unlock(&ib_lock);
	if (idx < 0) {
		pthread_mutex_unlock(&ib_reg_lock);
		rte_errno = ENOENT;
		return -1;
	}
	for (i = 0; i < n && client->remove != NULL; i++)
		client->remove(snap[i]);
	pthread_mutex_unlock(&ib_reg_lock);
	return 0;
}

int
rte_ib_register_event_handler(struct rte_ib_device *dev, rte_ib_event_cb cb,
			      void *arg)
{
	int free_slot = -1;
	unsigned int i;
	int ret = 0;

	if (cb == NULL) {
		rte_errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&ib_lock);
	if (dev != NULL && ib_device_index_locked(dev) < 0)
		ret = -EINVAL;
	for (i = 0; ret == 0 && i < RTE_DIM(handlers); i++) {
		if (handlers[i].cb == NULL) {
			if (free_slot < 0)
				free_slot = (int)i;
		} else if (handlers[i].cb == cb && handlers[i].dev == dev &&
			   handlers[i].arg == arg) {
			ret = -EEXIST;
		}
	}
	if (ret == 0 && free_slot < 0)
		ret = -ENOSPC;
	if (ret == 0) {
		handlers[free_slot].dev = dev;
		handlers[free_slot].arg = arg;
		handlers[free_slot].cb = cb;
	}
	pthread_mutex_unlock(&ib_lock);
	return ib_ret(ret);
}

int
rte_ib_unregister_event_handler(struct rte_ib_device *dev, rte_ib_event_cb cb,
				void *arg)
{
	unsigned int i;
	int ret = -ENOENT;

	pthread_mutex_lock(&ib_lock);
	for (i = 0; i < RTE_DIM(handlers); i++) {
		if (handlers[i].cb != NULL && handlers[i].cb == cb &&
		    handlers[i].dev == dev && handlers[i].arg == arg) {
			handlers[i].cb = NULL;
			ret = 0;
			break;
		}
	}
	pthread_mutex_unlock(&ib_lock);
	return ib_ret(ret);
}

int
rte_ib_dispatch_event(const struct rte_ib_event *event)
{
	struct rte_ib_device *dev;
	rte_ib_event_cb cb;
	unsigned int i;

	if (event == NULL || event->dev == NULL || event->type < 0 ||
	    event->type >= RTE_IB_EVENT_MAX ||
	    !ib_device_is_registered(event->dev)) {
		rte_errno = EINVAL;
		return -1;
	}
	dev = event->dev;
	if (event->type == RTE_IB_EVENT_DEVICE_FATAL ? event->port != 0 :
	    !ib_port_is_valid(dev, event->port)) {
		IB_LOG(ERR, "%s: event %s: port %u out of range", dev->name,
		       rte_ib_event_name(event->type), event->port);
		rte_errno = EINVAL;
		return -1;
	}
	if (event->port != 0)
		ib_cache_refresh(dev, event->port);
	IB_LOG(INFO, "%s port %u: %s", dev->name, event->port,
	       rte_ib_event_name(event->type));

	/* The slots are scanned in place under the recursive lock: a
	 * handler that unregisters (itself or another) only clears a
	 * slot, and one registered meanwhile may or may not see this
	 * event.
	 */
	pthread_mutex_lock(&ib_lock);
	for (i = 0; i < RTE_DIM(handlers); i++) {
		cb = handlers[i].cb;
		if (cb == NULL ||
		    (handlers[i].dev != NULL && handlers[i].dev != dev))
			continue;
		cb(event, handlers[i].arg);
	}
	pthread_mutex_unlock(&ib_lock);
	return 0;
}

const char *
rte_ib_event_name(enum rte_ib_event_type type)
{
	static const char * const names[RTE_IB_EVENT_MAX] = {
		[RTE_IB_EVENT_PORT_ACTIVE] = "PORT_ACTIVE",
		[RTE_IB_EVENT_PORT_ERR] = "PORT_ERR",
		[RTE_IB_EVENT_LID_CHANGE] = "LID_CHANGE",
		[RTE_IB_EVENT_PKEY_CHANGE] = "PKEY_CHANGE",
		[RTE_IB_EVENT_SM_CHANGE] = "SM_CHANGE",
		[RTE_IB_EVENT_CLIENT_REREGISTER] = "CLIENT_REREGISTER",
		[RTE_IB_EVENT_GID_CHANGE] = "GID_CHANGE",
		[RTE_IB_EVENT_DEVICE_FATAL] = "DEVICE_FATAL",
	};

	if ((unsigned int)type >= RTE_IB_EVENT_MAX)
		return "UNKNOWN";
	return names[type];
}

uint32_t
rte_ib_link_rate_mbps(uint8_t width, uint8_t speed)
{
	uint32_t lanes, lane_mbps;

	switch (width) {
	case RTE_IB_WIDTH_1X:
		lanes = 1;
		break;
	case RTE_IB_WIDTH_4X:
		lanes = 4;
		break;
	case RTE_IB_WIDTH_8X:
		lanes = 8;
		break;
	case RTE_IB_WIDTH_12X:
		lanes = 12;
		break;
	default:
		return 0;
	}
	switch (speed) {
	case RTE_IB_SPEED_SDR:
		lane_mbps = 2500;
		break;
	case RTE_IB_SPEED_DDR:
		lane_mbps = 5000;
		break;
	case RTE_IB_SPEED_QDR:
		lane_mbps = 10000;
		break;
	default:
		return 0;
	}
	return lanes * lane_mbps;
}
