/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _RTE_IBMAD_UMAD_H_
#define _RTE_IBMAD_UMAD_H_

/**
 * @file
 * The user-MAD service: the kernel's /dev/infiniband/umadN and issmN
 * interface (ABI version 5, <rdma/ib_user_mad.h>, Linux
 * Documentation/infiniband/user_mad.rst) and the sysfs attributes
 * libibumad reads, served by a DPDK process for its IB ports, so that
 * unmodified OpenSM and infiniband-diags run on a DPDK host.
 *
 * Under a run directory DIR the service keeps:
 *   - DIR/dev: a FUSE file system with umad<I> and issm<I> per IB port;
 *   - DIR/sys/class/infiniband and DIR/sys/class/infiniband_mad: the
 *     attributes, rewritten when a port changes.
 * usertools/dpdk-ib-ns runs a command in a private mount namespace where
 * DIR/dev is /dev/infiniband and DIR/sys/class is /sys/class.
 *
 * Every MAD goes through rte_ibmad agents (one per registered umad
 * agent), so the SMI rules, TransactionIDs, timeouts and retries are the
 * MAD core's. A slow or stuck reader loses MADs (counted), and never
 * delays the MAD core's thread.
 *
 * The service also starts by itself in any DPDK application when the
 * environment variable DPDK_IB_UMAD_DIR names a run directory when
 * librte_ibmad is loaded.
 */

#include <stdint.h>

#include <rte_compat.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Environment variable that starts the service at load time. */
#define RTE_IBMAD_UMAD_ENV "DPDK_IB_UMAD_DIR"

/** Configuration of the user-MAD service. */
struct rte_ibmad_umad_conf {
	/** Run directory (created if missing); holds dev/ and sys/. */
	const char *run_dir;
	/** MADs queued per open umad file before drops; 0: 256. */
	unsigned int rx_queue;
};

/**
 * Counters of the service, also written once a second as "name value"
 * lines to <run dir>/stats.
 */
struct rte_ibmad_umad_stats {
	uint64_t rx_drops;     /**< MADs dropped: a reader's queue was full. */
	uint64_t sends;        /**< MADs written by clients and sent. */
	uint64_t send_errors;  /**< Writes the MAD core refused. */
	uint64_t timeouts;     /**< Sends that ended with ETIMEDOUT. */
	uint64_t files;        /**< umad files open now. */
	uint64_t agents;       /**< Agents registered on them now. */
	uint64_t issm;         /**< issm files held now (ports with IsSM). */
	uint64_t channels;     /**< Files whose MADs go through a channel now. */
	uint64_t chan_refused; /**< Channel connections refused (bad token...). */
	uint64_t chan_bad_writes; /**< Channel messages refused as writes. */
	uint64_t chan_accept_pauses; /**< Channel accepts paused: no fd left. */
	/** RMPP ACKs, STOPs and ABORTs refused: not the writer's transfer. */
	uint64_t rmpp_refused;
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Start the service for every IB device, present and future.
 *
 * @param conf
 *   Configuration; copied.
 * @return
 *   0, or -1 with rte_errno: EALREADY (running), EINVAL, or the error of
 *   creating the run directory or mounting the file system (the log
 *   names it).
 */
__rte_experimental
int rte_ibmad_umad_start(const struct rte_ibmad_umad_conf *conf);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Stop the service: unmount, remove the attribute tree, unregister every
 * agent. Open files get ENODEV afterwards.
 */
__rte_experimental
void rte_ibmad_umad_stop(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   0, or -1 with rte_errno = ENOENT when the service is not running.
 */
__rte_experimental
int rte_ibmad_umad_stats_get(struct rte_ibmad_umad_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_IBMAD_UMAD_H_ */
