/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _IB_PRIVATE_H_
#define _IB_PRIVATE_H_

/*
 * Private to librte_ib: the log type and macro shared by its files, and
 * the core's per-device state.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_errno.h>
#include <rte_log.h>
#include <rte_rwlock.h>

#include "ib_driver.h"
#include "rte_ib_dev.h"

/** Log type "lib.ib", registered in ib_log.c. */
extern int ib_logtype;

/** Log with the calling function's name; call sites give no newline. */
#define IB_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, ib_logtype, "%s(): " fmt "\n", \
		__func__, ##__VA_ARGS__)

/**
 * The public return convention from an internal one: a negative errno
 * becomes -1 with rte_errno set; anything else is returned as is.
 */
static inline int
ib_ret(int ret)
{
	if (ret < 0) {
		rte_errno = -ret;
		return -1;
	}
	return ret;
}

/** What the core caches of one port (Linux ib_cache). */
struct ib_port_cache {
	struct rte_ib_port_attr attr;
	struct rte_ib_gid gid[RTE_IB_CACHE_GIDS];
	uint16_t pkey[RTE_IB_CACHE_PKEYS];
	uint16_t nb_gid;      /**< Valid entries of gid[]. */
	uint16_t nb_pkey;     /**< Valid entries of pkey[]. */
	bool valid;           /**< attr was read from the device. */
};

/**
 * The core's state of a registered device, allocated by
 * rte_ib_device_register() and freed by rte_ib_device_unregister().
 * lock protects port[] (written by the cache refresh, control side, read
 * anywhere); mad_lock protects the MAD handler and is read-held while the
 * handler runs, so that removing it waits for a delivery in progress. Two
 * locks, so that a MAD handler may raise an event (a cache refresh).
 */
struct ib_device_core {
	rte_rwlock_t lock;
	struct ib_port_cache port[RTE_IB_DEV_MAX_PORTS];
	rte_rwlock_t mad_lock;
	rte_ib_mad_recv_cb mad_cb;
	void *mad_arg;
};

/** true when @p port is a port of @p dev (1..phys_port_cnt). */
static inline bool
ib_port_is_valid(const struct rte_ib_device *dev, uint8_t port)
{
	return port >= 1 && port <= dev->phys_port_cnt;
}

/**
 * Re-read @p port's attributes, GIDs and P_Keys from the device into the
 * cache (ib_cache.c). Control side; failures are logged and leave the
 * previous contents.
 */
void ib_cache_refresh(struct rte_ib_device *dev, uint8_t port);
/**
 * The registered device behind ethdev @p port_id: the ethdev of one of
 * its physical ports (eth_port_id[]), or a UD port its PMD created
 * (ops->ud_port_lookup). Takes ib_lock; control side.
 *
 * @param ib_port
 *   Filled with the IB port, 1-based; may be NULL.
 * @param ud
 *   Set to true for a UD port, false for a physical port's ethdev.
 * @return
 *   The device, or NULL (no rte_errno set).
 */
struct rte_ib_device *ib_device_of_port(uint16_t port_id, uint8_t *ib_port,
					bool *ud);
/**
 * Call @p fn for every registered device, or only for the one named
 * @p name, with ib_lock held: the device cannot be unregistered while
 * @p fn runs, so @p fn may read it and its cache (not call its ops,
 * which may raise events). A non-zero return of @p fn stops the walk.
 *
 * @return
 *   The number of devices @p fn was called for.
 */
int ib_device_foreach(const char *name, int (*fn)(struct rte_ib_device *dev, void *arg),
		      void *arg);
void ib_cache_set_attr(struct rte_ib_device *dev, uint8_t port,
		       const struct rte_ib_port_attr *attr);

#endif /* _IB_PRIVATE_H_ */
