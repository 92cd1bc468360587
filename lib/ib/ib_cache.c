/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The port cache (Linux ib_cache): port attributes and the first entries
 * of the GID and P_Key tables, read from the device at registration and
 * after every event, so that consumers on any thread can look them up
 * without a firmware command.
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>

#include "ib_private.h"

void
ib_cache_refresh(struct rte_ib_device *dev, uint8_t port)
{
	struct ib_device_core *core = dev->core;
	struct ib_port_cache fresh;
	uint16_t i, n;
	int ret;

	if (dev->ops->query_port == NULL)
		return;
	memset(&fresh, 0, sizeof(fresh));
	ret = dev->ops->query_port(dev, port, &fresh.attr);
	if (ret < 0) {
		IB_LOG(WARNING, "%s port %u: query_port failed: %s",
		       dev->name, port, strerror(-ret));
		return;
	}
	fresh.valid = true;
	/* Whole tables where the PMD reads them in blocks (the refresh runs
	 * on the MAD core's thread, between two passes). Else the tables are
	 * read up to the first failure: an entry the device cannot read now
	 * is asked for again on the next lookup.
	 */
	n = RTE_MIN(fresh.attr.gid_tbl_len, RTE_IB_CACHE_GIDS);
	if (dev->ops->query_gid_table != NULL &&
	    dev->ops->query_gid_table(dev, port, n, fresh.gid) == 0)
		fresh.nb_gid = n;
	for (i = fresh.nb_gid; dev->ops->query_gid != NULL && i < n; i++) {
		if (dev->ops->query_gid(dev, port, i, &fresh.gid[i]) < 0)
			break;
		fresh.nb_gid = i + 1;
	}
	n = RTE_MIN(fresh.attr.pkey_tbl_len, RTE_IB_CACHE_PKEYS);
	if (dev->ops->query_pkey_table != NULL &&
	    dev->ops->query_pkey_table(dev, port, n, fresh.pkey) == 0)
		fresh.nb_pkey = n;
	for (i = fresh.nb_pkey; dev->ops->query_pkey != NULL && i < n; i++) {
		if (dev->ops->query_pkey(dev, port, i, &fresh.pkey[i]) < 0)
			break;
		fresh.nb_pkey = i + 1;
	}
	rte_rwlock_write_lock(&core->lock);
	core->port[port - 1] = fresh;
	rte_rwlock_write_unlock(&core->lock);
}

/*
 * Only the attributes, as rte_ib_query_port() just read them: one device
 * query, where a full refresh costs one per table entry too (about a
 * hundred firmware commands on an MT25208, each a MAD_IFC). The tables
 * change only with the events that refresh them (Linux ib_cache_update()
 * runs on those events only, never on ib_query_port()).
 */
void
ib_cache_set_attr(struct rte_ib_device *dev, uint8_t port,
		  const struct rte_ib_port_attr *attr)
{
	struct ib_device_core *core = dev->core;

	rte_rwlock_write_lock(&core->lock);
	core->port[port - 1].attr = *attr;
	core->port[port - 1].valid = true;
	rte_rwlock_write_unlock(&core->lock);
}

int
rte_ib_port_attr_cached(struct rte_ib_device *dev, uint8_t port,
			struct rte_ib_port_attr *attr)
{
	struct ib_device_core *core;

	if (dev == NULL || attr == NULL || dev->core == NULL ||
	    !ib_port_is_valid(dev, port)) {
		rte_errno = EINVAL;
		return -1;
	}
	core = dev->core;
	rte_rwlock_read_lock(&core->lock);
	*attr = core->port[port - 1].attr;
	rte_rwlock_read_unlock(&core->lock);
	return 0;
}

int
rte_ib_pkey_find(struct rte_ib_device *dev, uint8_t port, uint16_t pkey,
		 uint16_t *index)
{
	const struct ib_port_cache *pc;
	int partial = -1;
	int found = -1;
	uint16_t i;

	if (dev == NULL || index == NULL || dev->core == NULL ||
	    !ib_port_is_valid(dev, port)) {
		rte_errno = EINVAL;
		return -1;
	}
	rte_rwlock_read_lock(&dev->core->lock);
	pc = &dev->core->port[port - 1];
	for (i = 0; i < pc->nb_pkey && found < 0; i++) {
		if (!rte_ib_pkey_is_valid(pc->pkey[i]) ||
		    rte_ib_pkey_base(pc->pkey[i]) != rte_ib_pkey_base(pkey))
			continue;
		if (rte_ib_pkey_is_full_member(pc->pkey[i]))
			found = i;
		else if (partial < 0)
			partial = i;
	}
	rte_rwlock_read_unlock(&dev->core->lock);
	if (found < 0)
		found = partial;
	if (found < 0) {
		rte_errno = ENOENT;
		return -1;
	}
	*index = (uint16_t)found;
	return 0;
}

/* Cached entry @p index of table @p gid (or pkey) when present. */
static bool
ib_cache_gid(struct rte_ib_device *dev, uint8_t port, uint16_t index,
	     struct rte_ib_gid *gid)
{
	const struct ib_port_cache *pc;
	bool hit;

	rte_rwlock_read_lock(&dev->core->lock);
	pc = &dev->core->port[port - 1];
	hit = index < pc->nb_gid;
	if (hit)
		*gid = pc->gid[index];
	rte_rwlock_read_unlock(&dev->core->lock);
	return hit;
}

static bool
ib_cache_pkey(struct rte_ib_device *dev, uint8_t port, uint16_t index,
	      uint16_t *pkey)
{
	const struct ib_port_cache *pc;
	bool hit;

	rte_rwlock_read_lock(&dev->core->lock);
	pc = &dev->core->port[port - 1];
	hit = index < pc->nb_pkey;
	if (hit)
		*pkey = pc->pkey[index];
	rte_rwlock_read_unlock(&dev->core->lock);
	return hit;
}

int
rte_ib_query_gid(struct rte_ib_device *dev, uint8_t port, uint16_t index,
		 struct rte_ib_gid *gid)
{
	int ret;

	if (dev == NULL || gid == NULL || dev->core == NULL ||
	    !ib_port_is_valid(dev, port)) {
		rte_errno = EINVAL;
		return -1;
	}
	if (ib_cache_gid(dev, port, index, gid))
		return 0;
	if (dev->ops->query_gid == NULL) {
		rte_errno = ENOTSUP;
		return -1;
	}
	ret = dev->ops->query_gid(dev, port, index, gid);
	return ib_ret(ret);
}

int
rte_ib_query_pkey(struct rte_ib_device *dev, uint8_t port, uint16_t index,
		  uint16_t *pkey)
{
	int ret;

	if (dev == NULL || pkey == NULL || dev->core == NULL ||
	    !ib_port_is_valid(dev, port)) {
		rte_errno = EINVAL;
		return -1;
	}
	if (ib_cache_pkey(dev, port, index, pkey))
		return 0;
	if (dev->ops->query_pkey == NULL) {
		rte_errno = ENOTSUP;
		return -1;
	}
	ret = dev->ops->query_pkey(dev, port, index, pkey);
	return ib_ret(ret);
}
