/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _IB_DRIVER_H_
#define _IB_DRIVER_H_

/**
 * @file
 * The driver side of the IB device core, as ethdev_driver.h is for
 * ethdev: what an IB PMD calls (register, unregister, events, received
 * MADs) and the special-QP hooks the MAD core (rte_ibmad) uses. Every
 * symbol is __rte_internal: build with -DALLOW_INTERNAL_API.
 *
 * PMD contract, in order:
 * 1. fill a zeroed struct rte_ib_device (name, node_guid, node_type,
 *    phys_port_cnt, ops, dev_private, eth_port_id[], node_desc) once the
 *    HCA can answer its ops (query_port, process_mad, mad_send may still
 *    fail with -ENETDOWN while the special QPs are not up);
 * 2. rte_ib_device_register(): clients (the MAD core) are told of it and
 *    start serving it: the MAD core's control thread sleeps on ops->intr_fd
 *    and calls ops->intr_process when it fires;
 * 3. from intr_process (or any control-side thread): received QP0/QP1
 *    MADs go to rte_ib_device_mad_recv(), port up/down to
 *    rte_ib_dispatch_event();
 * 4. rte_ib_device_unregister() before tearing down what the ops use:
 *    on return no core or client code calls the ops any more.
 *
 * The MAD core is a client that serves every registered device; a PMD
 * whose ports should answer the SM links librte_ibmad (meson: ibmad_dep),
 * so that loading the PMD (e.g. dpdk-testpmd -d) loads the MAD core too.
 */

#include <stdint.h>

#include <rte_compat.h>

#include <rte_ib_dev.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Handler of received QP0/QP1 MADs, installed by the MAD core. Runs on
 * the thread that called rte_ib_device_mad_recv(); must copy what it
 * keeps.
 */
typedef void (*rte_ib_mad_recv_cb)(struct rte_ib_device *dev,
				   const struct rte_ib_mad_wc *wc,
				   const void *mad, uint32_t len, void *arg);

/**
 * Register an IB device (PMD, control side). Checks the fields the PMD
 * filled, caches every port's attributes, GID and P_Key tables when the
 * ops answer, then calls every client's add callback.
 *
 * @param dev
 *   Device, owned by the PMD, valid until rte_ib_device_unregister()
 *   returns.
 * @return
 *   0, or -1 with rte_errno: EINVAL (field named in the log), EEXIST
 *   (name taken, or already registered), ENOSPC (RTE_IB_MAX_DEVICES),
 *   ENOMEM.
 */
__rte_internal
int rte_ib_device_register(struct rte_ib_device *dev);

/**
 * Unregister an IB device (PMD, control side): clients' remove callbacks
 * run, handlers registered for this device are dropped. Must not be
 * called from an event handler or client callback of the same device.
 *
 * @return
 *   0, or -1 with rte_errno = EINVAL (not registered).
 */
__rte_internal
int rte_ib_device_unregister(struct rte_ib_device *dev);

/**
 * Raise an asynchronous event (PMD or MAD core, control side): refresh
 * the port cache from the device, then call every matching handler.
 *
 * @return
 *   0, or -1 with rte_errno = EINVAL (bad device, type or port).
 */
__rte_internal
int rte_ib_dispatch_event(const struct rte_ib_event *event);

/**
 * Deliver a MAD received on QP0 or QP1 (PMD, control side).
 *
 * @param dev
 *   Device.
 * @param wc
 *   Completion: port and receiving QP (0 or 1) must be valid.
 * @param mad
 *   The MAD (copied by the handler before it returns).
 * @param len
 *   Its length, RTE_IB_MAD_SIZE.
 * @return
 *   0, or -1 with rte_errno: EINVAL (bad argument), ENODEV (no MAD core
 *   serves this device: drop and count it).
 */
__rte_internal
int rte_ib_device_mad_recv(struct rte_ib_device *dev,
			   const struct rte_ib_mad_wc *wc,
			   const void *mad, uint32_t len);

/**
 * Install (or with @p cb NULL remove) the receive handler of @p dev (MAD
 * core, control side).
 *
 * @return
 *   0, or -1 with rte_errno: EINVAL, EBUSY (another handler installed).
 */
__rte_internal
int rte_ib_device_set_mad_handler(struct rte_ib_device *dev,
				  rte_ib_mad_recv_cb cb, void *arg);

/**
 * Send a MAD on special QP @p qpn of @p port (MAD core, control side).
 *
 * @return
 *   0, or -1 with rte_errno: EINVAL, ENOTSUP, EAGAIN (queue full),
 *   ENETDOWN (special QP not up), or the op's error.
 */
__rte_internal
int rte_ib_mad_send(struct rte_ib_device *dev, uint8_t port, uint8_t qpn,
		    const struct rte_ib_mad_send_buf *buf);

/**
 * Hand a MAD to the device's own agents (MAD core, control side).
 *
 * @return
 *   RTE_IB_MAD_RESULT_* bits (>= 0), or -1 with rte_errno: EINVAL,
 *   ENOTSUP, or the op's error.
 */
__rte_internal
int rte_ib_process_mad(struct rte_ib_device *dev, uint8_t port,
		       const struct rte_ib_mad_wc *in_wc, const void *in_mad,
		       void *out_mad);

/**
 * @return
 *   The device's interrupt fd (ops->intr_fd), or -1 when it has none.
 */
__rte_internal
int rte_ib_device_intr_fd(struct rte_ib_device *dev);

/**
 * Run ops->intr_process (MAD core, control side).
 *
 * @return
 *   0, or -1 with rte_errno (ENOTSUP when the op is missing).
 */
__rte_internal
int rte_ib_device_intr_process(struct rte_ib_device *dev);

#ifdef __cplusplus
}
#endif

#endif /* _IB_DRIVER_H_ */
