/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _RTE_IBMAD_SA_H_
#define _RTE_IBMAD_SA_H_

/**
 * @file
 * The SA client: queries to the Subnet Administrator (IBA 15) from the
 * control side, asynchronous and cancellable, as the seeds'
 * ib_sa_path_rec_get(), ib_sa_mcmember_rec_query() and
 * ib_sa_cancel_query() (Linux drivers/infiniband/core/sa_query.c) are,
 * for a run-to-completion world: nothing waits; a callback gets the
 * records (unpacked by lib/ib's field tables, rte_ib_records.h) or a
 * named error.
 *
 * The SA's address is kept per port from the port's attributes (SM LID
 * and SL, P_Key index of the default partition) and refreshed on SM
 * change, LID change and client reregister events (the seeds'
 * update_sm_ah()).
 *
 * Callbacks run on the MAD core's thread (rte_ibmad.h), with its lock
 * held: they may start or cancel queries, and must not block.
 */

#include <stdint.h>

#include <rte_compat.h>

#include <rte_ib_attrs.h>
#include <rte_ib_dev.h>
#include <rte_ib_records.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Outcome of a query: 0, a negative errno from the transport, or a
 * positive SA status (MAD Status bits 15:8, IBA 15.2.1.2, table
 * "SA MAD status") shifted down, named here.
 */
enum rte_ibmad_sa_status {
	RTE_IBMAD_SA_OK = 0,                   /**< Records (maybe none). */
	RTE_IBMAD_SA_ERR_NO_RESOURCES = 1,     /**< ERR_NO_RESOURCES. */
	RTE_IBMAD_SA_ERR_REQ_INVALID = 2,      /**< ERR_REQ_INVALID. */
	RTE_IBMAD_SA_ERR_NO_RECORDS = 3,       /**< ERR_NO_RECORDS. */
	RTE_IBMAD_SA_ERR_TOO_MANY_RECORDS = 4, /**< ERR_TOO_MANY_RECORDS. */
	RTE_IBMAD_SA_ERR_REQ_INVALID_GID = 5,  /**< ERR_REQ_INVALID_GID. */
	RTE_IBMAD_SA_ERR_REQ_INSUFFICIENT_COMPONENTS = 6, /**< ERR_REQ_INSUFFICIENT_COMPONENTS. */
	RTE_IBMAD_SA_ERR_REQ_DENIED = 7,       /**< ERR_REQ_DENIED. */
	/**
	 * A common MAD status (IBA 13.4.7, table "MAD Common Status"), ORed
	 * with its low byte: 0x01 busy, 0x02 redirect required, and the
	 * invalid-field code of bits 4:2: 0x04 bad base or class version,
	 * 0x08 method not supported, 0x0c method/attribute combination not
	 * supported, 0x1c invalid attribute or modifier value.
	 */
	RTE_IBMAD_SA_ERR_MAD = 0x100,
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Name of a query outcome ("ERR_NO_RECORDS", "timed out", ...).
 */
__rte_experimental
const char *rte_ibmad_sa_strerror(int status);

/**
 * Result of a query. @p recs holds @p nb_recs host structs of the
 * queried record (struct rte_ib_sa_path_rec for a PathRecord ...), valid
 * during the callback only.
 */
typedef void (*rte_ibmad_sa_cb)(int status, const void *recs,
				unsigned int nb_recs, void *arg);

/** Counters of one port's SA client, since its first query. */
struct rte_ibmad_sa_stats {
	uint64_t queries;         /**< Queries sent. */
	uint64_t answers;         /**< Answered with records (maybe none). */
	uint64_t sa_errors;       /**< Answered with an SA status. */
	uint64_t mad_errors;      /**< Answered with a common MAD status. */
	uint64_t bad_answers;     /**< Answers that did not decode (-EPROTO). */
	uint64_t failures;        /**< Time-outs, cancels, transport errors. */
	uint64_t reports;         /**< Reports taken from the SA's LID. */
	uint64_t reports_dropped; /**< Reports from another LID, dropped. */
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The SA client's counters of a port. Control side.
 *
 * @return
 *   0, or -1 with rte_errno: EINVAL (NULL), ENOENT (no SA client on the
 *   port yet).
 */
__rte_experimental
int rte_ibmad_sa_stats_get(struct rte_ib_device *dev, uint8_t port,
			   struct rte_ibmad_sa_stats *stats);

/** Options of a query; zero means the default. */
struct rte_ibmad_sa_opts {
	uint32_t timeout_ms;   /**< Per attempt; default 1000. */
	uint8_t retries;       /**< Default 3. */
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Send an SA query: @p method (Get, GetTable, Set, Delete) of attribute
 * @p attr_id with the record @p rec (host form, packed with the
 * attribute's table) and ComponentMask @p comp_mask. Control side.
 *
 * @param dev
 *   Device.
 * @param port
 *   Port, 1-based.
 * @param query_id
 *   Where to store the query's id, for rte_ibmad_sa_cancel(); may be NULL.
 * @return
 *   0 (the callback will run, later, exactly once), or -1 with
 *   rte_errno: EINVAL (bad argument; attribute without a table), ENODEV
 *   (no SA client on the port), ENETUNREACH (no SM known yet: SM LID 0),
 *   or the MAD core's send errors.
 */
__rte_experimental
int rte_ibmad_sa_query(struct rte_ib_device *dev, uint8_t port,
		       uint8_t method, uint16_t attr_id, uint64_t comp_mask,
		       const void *rec, const struct rte_ibmad_sa_opts *opts,
		       rte_ibmad_sa_cb cb, void *arg, uint64_t *query_id);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Cancel a query: its callback runs later with -ECANCELED (unless it
 * already ran). Control side.
 *
 * @return
 *   0, or -1 with rte_errno = ENOENT.
 */
__rte_experimental
int rte_ibmad_sa_cancel(uint64_t query_id);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * PathRecord query (the seeds' ib_sa_path_rec_get()): SubnAdmGet when
 * @p comp_mask has RTE_IB_SA_PATH_REC_NUMB_PATH and @p rec's numb_path
 * is 1 (one path: the callback gets one record, or an SA error such as
 * RTE_IBMAD_SA_ERR_NO_RECORDS), SubnAdmGetTable otherwise (every
 * matching path). Parameters and return as rte_ibmad_sa_query().
 */
__rte_experimental
int rte_ibmad_sa_path_rec_get(struct rte_ib_device *dev, uint8_t port,
			      const struct rte_ib_sa_path_rec *rec,
			      uint64_t comp_mask,
			      const struct rte_ibmad_sa_opts *opts,
			      rte_ibmad_sa_cb cb, void *arg,
			      uint64_t *query_id);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * MCMemberRecord Set (join, with JoinState in @p rec), Delete (leave) or
 * Get/GetTable: the seeds' ib_sa_mcmember_rec_query().
 */
__rte_experimental
int rte_ibmad_sa_mcmember_rec_query(struct rte_ib_device *dev, uint8_t port,
				    uint8_t method,
				    const struct rte_ib_sa_mcmember_rec *rec,
				    uint64_t comp_mask,
				    const struct rte_ibmad_sa_opts *opts,
				    rte_ibmad_sa_cb cb, void *arg,
				    uint64_t *query_id);

/**
 * A Report(Notice) from the SA for a subscription: @p notice unpacked
 * (rte_ib_attrs.h; rte_ib_notice_gid() gives the GID of traps 64-67).
 * The client has already answered the SA with ReportResp.
 */
typedef void (*rte_ibmad_sa_notice_cb)(struct rte_ib_device *dev,
				       uint8_t port,
				       const struct rte_ib_notice *notice,
				       void *arg);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Subscribe to a generic trap (Set(InformInfo), IBA 13.4.8.3 and
 * 15.2.5.12): RTE_IB_TRAP_GID_IN_SERVICE (64),
 * RTE_IB_TRAP_GID_OUT_OF_SERVICE (65), ... The SA's Reports reach
 * @p cb (only Reports whose source is the SA's LID, where the
 * subscription was made: others are dropped unanswered and counted in
 * rte_ibmad_sa_stats::reports_dropped); the subscription is sent again
 * after a client reregister
 * event (IBA 14.4.11, the SM asks for it). The SA's answer to the Set
 * is logged; a failure does not cancel the subscription, which is
 * retried at the next reregister.
 *
 * @return
 *   0 and *@p sub_id, or -1 with rte_errno as rte_ibmad_sa_query().
 */
__rte_experimental
int rte_ibmad_sa_subscribe(struct rte_ib_device *dev, uint8_t port,
			   uint16_t trap_number, rte_ibmad_sa_notice_cb cb,
			   void *arg, uint64_t *sub_id);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * End a subscription (Set(InformInfo) with Subscribe 0).
 *
 * @return
 *   0, or -1 with rte_errno = ENOENT.
 */
__rte_experimental
int rte_ibmad_sa_unsubscribe(uint64_t sub_id);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_IBMAD_SA_H_ */
