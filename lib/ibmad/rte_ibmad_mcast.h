/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _RTE_IBMAD_MCAST_H_
#define _RTE_IBMAD_MCAST_H_

/**
 * @file
 * The multicast join manager: the only way for local users (IPoIB's
 * broadcast, IPv4/IPv6 and send-only groups) to join an IB multicast
 * group, in the role of Linux's drivers/infiniband/core/multicast.c
 * (ib_sa_join_multicast(), ib_sa_free_multicast()).
 *
 * An SA join (Set(MCMemberRecord), IBA 15.2.5.17) is a query, not a
 * membership: the SA keeps one JoinState per port and group, so two local
 * users sending their own joins and leaves would leave each other's
 * membership. The manager counts members per port, MGID and JoinState
 * bit:
 * - the port's JoinState for a group is the union of its members' bits;
 *   a member bringing a bit the SA has not granted yet makes the manager
 *   send a join with the union; a member whose bits are granted already
 *   is answered from the group's record (after the checks of Linux
 *   cmp_rec() on the components it asked for), without an SA query;
 * - when the last member holding a bit leaves, one SA leave
 *   (Delete(MCMemberRecord)) goes out for that bit only;
 * - one SA transaction per group is in flight at a time;
 * - client reregister, SM change, LID change and P_Key change events of
 *   the port (rte_ib_dev.h) make the manager join every group again,
 *   once per burst of events, and call every member back with the new
 *   answer; while that join fails (SA away) it is retried with an
 *   exponential backoff of 1 s to 16 s (Linux IPoIB's
 *   ipoib_mcast_join_task()), and members are told of each failure;
 * - an answer that does not match the request (another MGID, an MTU or
 *   rate code that is no MTU or rate, a unicast MLID) is an error,
 *   counted, and never handed to members.
 *
 * Threading: the manager's work (SA queries, timers, member callbacks)
 * runs in the MAD core's passes (rte_ibmad.h: its control thread, its
 * service or rte_ibmad_poll()), without the MAD core's locks held.
 * rte_ibmad_mcast_join() and rte_ibmad_mcast_leave() only record the
 * request and wake the MAD core; they may be called from any control
 * thread and from the manager's own callbacks.
 */

#include <stdint.h>

#include <rte_compat.h>

#include <rte_ib_dev.h>
#include <rte_ib_records.h>

#ifdef __cplusplus
extern "C" {
#endif

/** First delay before a failed re-join is sent again, ms. */
#define RTE_IBMAD_MCAST_BACKOFF_MIN_MS 1000
/** Longest delay between re-join attempts, ms (IPOIB_MAX_BACKOFF_SECONDS). */
#define RTE_IBMAD_MCAST_BACKOFF_MAX_MS 16000

/**
 * A member's news: @p status 0 with the group's MCMemberRecord as the SA
 * answered it (MLID, Q_Key, MTU, rate, SL, P_Key, flow label, traffic
 * class, hop limit, scope; JoinState is the port's, all members'), after
 * the first join and after every re-join; or an error, @p rec NULL:
 * a negative errno (-ETIMEDOUT: no answer; -ENETUNREACH: no SM known;
 * -EPROTO: an answer that does not match the request; -EINVAL: the group
 * exists with components other than those the member asked for; other
 * transport errors of rte_ibmad_sa_query()) or a positive SA status
 * (enum rte_ibmad_sa_status, rte_ibmad_sa_strerror()).
 *
 * After an error of its first join, a member holds no membership and
 * gets no further callback; it is freed by rte_ibmad_mcast_leave(). After
 * an error of a re-join, the member stays and the manager retries.
 * @p rec is valid during the callback only. Runs in a MAD core pass, no
 * MAD core lock held; may call rte_ibmad_mcast_join() and
 * rte_ibmad_mcast_leave() (its own member included).
 */
typedef void (*rte_ibmad_mcast_cb)(uint64_t member_id, int status,
				   const struct rte_ib_sa_mcmember_rec *rec,
				   void *arg);

/** Counters of one port's join manager, since its first join. */
struct rte_ibmad_mcast_stats {
	uint64_t joins;           /**< Members that joined (API calls). */
	uint64_t leaves;          /**< Members that left (API calls). */
	uint64_t sa_joins;        /**< Set(MCMemberRecord) sent to the SA. */
	uint64_t sa_leaves;       /**< Delete(MCMemberRecord) sent to the SA. */
	uint64_t sa_errors;       /**< SA joins answered with an error. */
	uint64_t bad_answers;     /**< SA answers refused: not the request's. */
	uint64_t rejoins;         /**< Re-joins sent (after events, retries included). */
	uint64_t events;          /**< Port events that asked for re-joins. */
	uint64_t callbacks;       /**< Member callbacks run. */
	uint32_t groups;          /**< Groups held now. */
	uint32_t members;         /**< Members held now. */
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Join a multicast group as one more local member. The SA join (if one
 * is needed) is sent from the MAD core's next pass; @p cb reports the
 * outcome then.
 *
 * @param dev
 *   Device.
 * @param port
 *   Port, 1-based.
 * @param rec
 *   The MCMemberRecord template (copied): MGID (required, a multicast
 *   GID: first byte 0xFF), JoinState (required: one or more of
 *   RTE_IB_SA_MC_JOIN_*), and what @p comp_mask selects among P_Key,
 *   Q_Key, MTU and rate (with their selectors), SL, flow label, traffic
 *   class, hop limit, scope. PortGID is the port's GID 0 unless
 *   @p comp_mask has RTE_IB_SA_MCMEMBER_REC_PORT_GID.
 * @param comp_mask
 *   ComponentMask of the join (RTE_IB_SA_MCMEMBER_REC_*); MGID, PortGID
 *   and JoinState are always added.
 * @param cb
 *   Callback, see rte_ibmad_mcast_cb.
 * @param arg
 *   Passed to @p cb.
 * @param member_id
 *   Where to store the member's id, for rte_ibmad_mcast_leave().
 * @return
 *   0, or -1 with rte_errno: EINVAL (NULL argument, MGID not multicast,
 *   JoinState 0 or above 4 bits; named in the log), ENODEV (the port's
 *   GID 0 unknown), ENOMEM, or the errors of making the SA client's port
 *   context (ENOSPC: too many ports; rte_ibmad_agent_register()'s).
 *   Call it from a control thread, or from a member callback for a port
 *   that already has members: the first join on a port registers an
 *   rte_ib event handler, which a MAD core callback must not do.
 */
__rte_experimental
int rte_ibmad_mcast_join(struct rte_ib_device *dev, uint8_t port,
			 const struct rte_ib_sa_mcmember_rec *rec,
			 uint64_t comp_mask, rte_ibmad_mcast_cb cb, void *arg,
			 uint64_t *member_id);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Leave: the member is gone (no callback runs for it after this returns,
 * unless called from another thread while its callback runs). The SA
 * leave of the bits no other member holds is sent from the MAD core's
 * next pass.
 *
 * @return
 *   0, or -1 with rte_errno = ENOENT (no such member).
 */
__rte_experimental
int rte_ibmad_mcast_leave(uint64_t member_id);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The join manager's counters of a port.
 *
 * @return
 *   0, or -1 with rte_errno: EINVAL (NULL), ENOENT (no join on the port
 *   yet).
 */
__rte_experimental
int rte_ibmad_mcast_stats_get(struct rte_ib_device *dev, uint8_t port,
			      struct rte_ibmad_mcast_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_IBMAD_MCAST_H_ */
