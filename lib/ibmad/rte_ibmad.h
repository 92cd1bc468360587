/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _RTE_IBMAD_H_
#define _RTE_IBMAD_H_

/**
 * @file
 * The MAD core: QP0/QP1 management datagrams of every registered IB
 * device (rte_ib_dev.h), as Linux's MAD layer (drivers/infiniband/core
 * mad.c, smi.c, agent.c) does them in the kernel.
 *
 * - It serves a device as soon as the PMD registers it (it is a
 *   struct rte_ib_client); nothing to call for an application such as
 *   testpmd: directed-route SMI processing (IBA 14.2.2), SMPs and PMA
 *   MADs for the local port handed to the device's firmware (MAD_IFC),
 *   NodeDescription from the device, snooping of Set(PortInfo) and
 *   Set(P_KeyTable) into port events, locally generated traps forwarded to
 *   the SM, unsupported Get/Set answered as IBA 13.4.7 says.
 * - Agents (rte_ibmad_agent_register()) send MADs with timeouts and
 *   retries and receive responses (matched by TransactionID, whose high 32
 *   bits identify the agent, by class, and by source: the LID or GID the
 *   request went to, or for a directed-route SMP its route) and
 *   unsolicited MADs of their class, version and methods.
 *
 * Threading: all work runs off the data lcores, by default on a DPDK
 * control thread ("ibmad-ctrl") that sleeps in epoll on the devices'
 * interrupt fds and a wake-up eventfd, with the earliest timeout as its
 * epoll timeout (no busy loop). The same work is registered as an
 * rte_service ("ibmad") for applications that map service lcores, and
 * rte_ibmad_poll() runs it once for applications that want neither
 * (rte_ibmad_ctrl_thread_set()). Callbacks run on whichever of these
 * does the work, with the MAD core's (recursive) lock held: they may
 * call rte_ibmad_*() (including unregistering their own agent; not
 * rte_ibmad_poll() nor rte_ibmad_ctrl_thread_set()) and the rte_ib_*()
 * port and address-handle functions, but must not block, nor call
 * rte_ib_*() functions that take lib/ib's device list lock (lookups,
 * (un)registration of devices, clients and event handlers): the lock order
 * is lib/ib's lock, then the MAD core's, so an rte_ib event handler may
 * call rte_ibmad_*().
 * All functions are for the control side; none is for a data lcore.
 *
 * Limits: every queue is bounded (RTE_IBMAD_MAX_*); nothing is allocated
 * per MAD.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_compat.h>

#include <rte_ib_dev.h>
#include <rte_ib_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Most agents registered at once (all devices). */
#define RTE_IBMAD_MAX_AGENTS 256
/** Most sends outstanding per agent (awaiting a response or a callback). */
#define RTE_IBMAD_MAX_OUTSTANDING 64
/** Received MADs queued per device between the PMD and the MAD core. */
#define RTE_IBMAD_RECV_QUEUE 256
/** Longest timeout of one send attempt, ms. */
#define RTE_IBMAD_MAX_TIMEOUT_MS 60000
/** Most retries of one send. */
#define RTE_IBMAD_MAX_RETRIES 16
/** Longest RMPP message sent or reassembled (headers and payload), bytes. */
#define RTE_IBMAD_RMPP_MAX_MSG (4u << 20)

struct rte_ibmad_agent;

/** A received MAD, as handed to an agent. Valid during the callback only. */
struct rte_ibmad_recv {
	struct rte_ib_device *dev;       /**< Receiving device. */
	uint8_t port;                    /**< Receiving port, 1-based. */
	uint8_t qpn;                     /**< Receiving QP, 0 or 1. */
	const struct rte_ib_mad_wc *wc;  /**< Source address of the MAD. */
	/**
	 * The MAD: RTE_IB_MAD_SIZE bytes, or for a response reassembled by
	 * RMPP (an agent with rmpp_version) the whole message: the first
	 * segment, then the payload of the later ones (IBA 13.6).
	 */
	const uint8_t *mad;
	uint32_t len;                    /**< Bytes at @c mad. */
};

/** Outcome of one rte_ibmad_send(). */
struct rte_ibmad_send_result {
	uint64_t tid;                    /**< TransactionID sent, host order. */
	void *context;                   /**< rte_ibmad_send_params::context. */
	/**
	 * 0: sent (and, when a response was awaited, answered);
	 * -ETIMEDOUT: no response after every retry;
	 * -ECANCELED: cancelled (rte_ibmad_cancel(), agent unregistered);
	 * -ENODEV: the device was unregistered;
	 * -EIO: the device refused the send on every attempt.
	 */
	int status;
	/** The response when status is 0 and one was awaited, else NULL. */
	const struct rte_ibmad_recv *response;
};

/** Unsolicited MAD for an agent. */
typedef void (*rte_ibmad_recv_cb)(struct rte_ibmad_agent *agent,
				  const struct rte_ibmad_recv *recv, void *arg);

/** Completion of a send. */
typedef void (*rte_ibmad_send_cb)(struct rte_ibmad_agent *agent,
				  const struct rte_ibmad_send_result *result,
				  void *arg);

/** What an agent is and receives. */
struct rte_ibmad_agent_conf {
	struct rte_ib_device *dev;   /**< Device. */
	uint8_t port;                /**< Port, 1-based. */
	uint8_t qpn;                 /**< 0 (SMI: SM classes only) or 1 (GSI). */
	/**
	 * Class whose unsolicited MADs the agent takes (with
	 * class_version and method_mask); 0 for an agent that only sends
	 * and receives responses.
	 */
	uint8_t mgmt_class;
	uint8_t class_version;       /**< ClassVersion of mgmt_class. */
	/**
	 * Methods received unsolicited: bit m (m < 128) of the 128-bit mask,
	 * word m / 64, bit m % 64. Responses never go by this mask.
	 */
	uint64_t method_mask[2];
	rte_ibmad_recv_cb recv_cb;   /**< Unsolicited MADs; may be NULL. */
	rte_ibmad_send_cb send_cb;   /**< Send completions; may be NULL. */
	/**
	 * 1: the MAD core runs RMPP (IBA 13.6) for this agent: a send of an
	 * RMPP class with the RMPP Active flag is segmented (any length up
	 * to 4 MiB, windows and ACKs, resent from the last ACK after a
	 * time-out), and a multi-segment response is reassembled and ACKed
	 * before it completes the send (Linux agents with rmpp_version).
	 * 0: RMPP headers pass untouched, one MAD at a time.
	 */
	uint8_t rmpp_version;
	void *arg;                   /**< Passed to both callbacks. */
	/**
	 * For a vendor class of range 2 (0x30-0x4F), required: the 24-bit
	 * OUI whose unsolicited MADs (OUI in bytes 37-39) the agent takes;
	 * agents of other OUIs may take the same class and methods (Linux
	 * ib_register_mad_agent() with an OUI). Ignored for other classes.
	 */
	uint32_t oui;
	/**
	 * 0, or the client the agent belongs to: agents of one non-zero
	 * owner are one client (the user-MAD service gives each open file
	 * its own). A request this port sends to itself may be answered
	 * only by the agent it was handed to, or another agent of the same
	 * owner (a client that receives on one agent and answers on
	 * another, as OpenSM does); another local agent's response is
	 * refused with EPERM.
	 */
	uint64_t owner;
};

/** A MAD to send and where. */
struct rte_ibmad_send_params {
	const void *mad;             /**< The MAD; copied before the call returns. */
	/**
	 * RTE_IB_MAD_SIZE; for an RMPP agent and a MAD with the RMPP Active
	 * flag, the message length (its headers and payload, as many
	 * segments as it takes).
	 */
	uint32_t len;
	/** Destination (port_num is ignored: the agent's port sends). */
	struct rte_ib_ah_attr ah_attr;
	uint32_t remote_qpn;         /**< Destination QP (1 for a GSI class). */
	uint32_t remote_qkey;        /**< Its Q_Key (RTE_IB_QP1_QKEY for QP1). */
	uint16_t pkey_index;         /**< P_Key index. */
	/**
	 * ms to wait for the response of each attempt; 0 when no response
	 * is awaited (the send completes once posted).
	 */
	uint32_t timeout_ms;
	uint8_t retries;             /**< Extra attempts after a timeout. */
	void *context;               /**< Returned in the result. */
};

/** Counters of one device (all ports), since registration. */
struct rte_ibmad_stats {
	uint64_t rx;                 /**< MADs received from the device. */
	uint64_t rx_queue_full;      /**< Dropped: receive queue full. */
	/** Dropped: bad version, class on the wrong QP, unknown RMPPType. */
	uint64_t rx_invalid;
	uint64_t rx_smi_discard;     /**< Dropped by the DR rules (IBA 14.2.2). */
	uint64_t rx_local;           /**< Answered or consumed by the device (MAD_IFC). */
	uint64_t rx_local_error;     /**< MAD_IFC failed. */
	uint64_t rx_agent;           /**< Handed to an agent (requests). */
	uint64_t rx_response;        /**< Responses matched to a send. */
	uint64_t rx_unmatched;       /**< Responses matching no outstanding send. */
	uint64_t rx_no_agent;        /**< Requests no agent takes (Get/Set answered). */
	uint64_t traps_forwarded;    /**< Local traps forwarded to the SM. */
	uint64_t tx;                 /**< MADs posted to the device. */
	uint64_t tx_error;           /**< Posts the device refused. */
	uint64_t retries;            /**< Sends repeated after a timeout. */
	uint64_t timeouts;           /**< Sends failed with -ETIMEDOUT. */
	uint64_t events;             /**< Port events raised from snooped SMPs. */
	/**
	 * Dropped: an answer (response, RMPP DATA, ACK, STOP or ABORT) with
	 * the TransactionID and class of an outstanding send, from another
	 * LID or GID than the one the send went to.
	 */
	uint64_t rx_bad_source;
	/**
	 * Dropped: a directed-route answer with the TransactionID of an
	 * outstanding SMP, on another route (HopCount, InitialPath,
	 * DrSLID, DrDLID).
	 */
	uint64_t rx_bad_route;
	/**
	 * RMPP reassemblies aborted (ABORT sent): a malformed segment, or
	 * segments beyond the length the first segment announced.
	 */
	uint64_t rmpp_rx_aborted;
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Register an agent. Control side.
 *
 * @param conf
 *   What the agent is; copied.
 * @return
 *   The agent, or NULL with rte_errno: EINVAL (bad field, named in the
 *   log: unknown device, port, QP, an SM class on QP1 or another class on
 *   QP0, method bits without a class), EBUSY (another agent already takes
 *   one of these methods of this class and version on this port and QP),
 *   ENOSPC (RTE_IBMAD_MAX_AGENTS), ENOMEM.
 */
__rte_experimental
struct rte_ibmad_agent *
rte_ibmad_agent_register(const struct rte_ibmad_agent_conf *conf);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Unregister an agent: every outstanding send completes with -ECANCELED
 * (its callback runs before this returns), then the agent is freed.
 * Control side; may be called from the agent's own callback.
 *
 * @param agent
 *   Agent; NULL is a no-op.
 * @return
 *   0, or -1 with rte_errno = EINVAL (not a registered agent).
 */
__rte_experimental
int rte_ibmad_agent_unregister(struct rte_ibmad_agent *agent);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   The high 32 bits of the TransactionIDs of @p agent's requests.
 */
__rte_experimental
uint32_t rte_ibmad_agent_hi_tid(const struct rte_ibmad_agent *agent);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Send a MAD. For a request (no R bit, not TrapRepress) the MAD core
 * writes the agent's high part into TransactionID bits 63:32 and keeps
 * the caller's low 32 bits (Linux ib_umad_write()), or chooses a fresh
 * low part when the caller left them 0; a response keeps the TID of the
 * request it answers. Directed-route
 * SMPs go through the SMI rules first; one addressed to this node's own
 * SMA is answered by the device without touching the wire. The result
 * callback runs later, never inside this call. Control side.
 *
 * @param agent
 *   Sending agent.
 * @param params
 *   The MAD and its destination.
 * @param tid
 *   Where to store the TransactionID sent (host order); may be NULL.
 * @return
 *   0, or -1 with rte_errno: EINVAL (bad parameter, named in the log;
 *   DR SMP refused by the SMI rules), ENODEV (device unregistered),
 *   ENOBUFS (RTE_IBMAD_MAX_OUTSTANDING sends outstanding), ENETDOWN
 *   (the device's special QP is not up), EIO (the device refused it).
 */
__rte_experimental
int rte_ibmad_send(struct rte_ibmad_agent *agent,
		   const struct rte_ibmad_send_params *params, uint64_t *tid);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Cancel an outstanding send: its callback runs later with -ECANCELED.
 * Control side.
 *
 * @return
 *   0, or -1 with rte_errno = ENOENT (no such send outstanding).
 */
__rte_experimental
int rte_ibmad_cancel(struct rte_ibmad_agent *agent, uint64_t tid);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Send @p resp as the response to @p req, back to its source (Linux
 * agent_send_response(): LID, SL, path bits, P_Key index, QPN and the GRH
 * of the request; Q_Key RTE_IB_QP1_QKEY on QP1). The TID is kept; for a
 * directed-route SMP the D bit is set. Control side, typically from the
 * agent's recv callback.
 *
 * @return
 *   0, or -1 with rte_errno as rte_ibmad_send().
 */
__rte_experimental
int rte_ibmad_respond(struct rte_ibmad_agent *agent,
		      const struct rte_ibmad_recv *req, const void *resp);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Do the pending work once without blocking: drain the devices'
 * interrupts and receive queues, complete sends, fire timeouts. For
 * applications that run neither the control thread nor the service.
 *
 * @return
 *   The number of MADs and completions processed (>= 0).
 */
__rte_experimental
int rte_ibmad_poll(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Run (the default) or stop the control thread. With it stopped the
 * application runs the service (rte_ibmad_service_id_get()) on a service
 * lcore, or calls rte_ibmad_poll(). Control side; the thread starts
 * once EAL is up and a device is registered.
 *
 * @return
 *   0, or -1 with rte_errno from rte_ctrl_thread_create().
 */
__rte_experimental
int rte_ibmad_ctrl_thread_set(bool run);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The id of the "ibmad" service, registered with the first device.
 *
 * @return
 *   0, or -1 with rte_errno = ENOENT (not registered yet).
 */
__rte_experimental
int rte_ibmad_service_id_get(uint32_t *id);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Counters of a device served by the MAD core. Any thread.
 *
 * @return
 *   0, or -1 with rte_errno = ENODEV (not served).
 */
__rte_experimental
int rte_ibmad_stats_get(struct rte_ib_device *dev,
			struct rte_ibmad_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_IBMAD_H_ */
