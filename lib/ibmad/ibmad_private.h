/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _IBMAD_PRIVATE_H_
#define _IBMAD_PRIVATE_H_

/*
 * Private to librte_ibmad.
 *
 * Locking and lifetime:
 * - ibmad_lock (recursive) protects the device list, every agent and
 *   send slot, and the stats. The work loop holds it while it processes
 *   queued MADs and timers and while it runs agent callbacks.
 * - Nothing that holds lib/ib's device-list lock takes ibmad_lock: the MAD
 *   core registers no rte_ib event handler, and the events it raises from
 *   snooped SMPs are queued under ibmad_lock and dispatched after it is
 *   released.
 * - struct ibmad_dev::rx_lock (spinlock) protects the receive queue; the
 *   PMD's thread fills it through rte_ib_device_mad_recv().
 * - struct ibmad_dev::intr_lock is held around ops->intr_process, without
 *   ibmad_lock, so that removing a device waits for a call in progress.
 * - A struct ibmad_dev lives from the client add to the client remove of
 *   its device; agents of a removed device stay (mdev NULL) until their
 *   owner unregisters them. An agent unregistered while callbacks are
 *   running is freed when the outermost work pass ends.
 */

#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_errno.h>
#include <rte_log.h>
#include <rte_spinlock.h>

#include <ib_driver.h>
#include <rte_ib_dev.h>

#include "rte_ibmad.h"

extern int ibmad_logtype;

/** Log with the calling function's name; call sites give no newline. */
#define IBMAD_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, ibmad_logtype, "%s(): " fmt "\n", \
		__func__, ##__VA_ARGS__)

/**
 * The public return convention from an internal one: a negative errno
 * becomes -1 with rte_errno set; anything else is returned as is.
 */
static inline int
ibmad_ret(int ret)
{
	if (ret < 0) {
		rte_errno = -ret;
		return -1;
	}
	return ret;
}

/** Most events queued from one work pass. */
#define IBMAD_MAX_PENDING_EVENTS 16
/** Poll interval of a device without an interrupt fd, ms. */
#define IBMAD_NO_FD_POLL_MS 10

/** One received MAD in a device's queue. */
struct ibmad_rx_entry {
	struct rte_ib_mad_wc wc;
	uint8_t mad[RTE_IB_MAD_SIZE];
};

/** What the MAD core keeps of a device it serves. */
struct ibmad_dev {
	struct rte_ib_device *dev;
	int intr_fd;                       /* -1: polled */
	pthread_mutex_t intr_lock;
	rte_spinlock_t rx_lock;
	uint32_t rx_head;                  /* next to fill, free-running */
	uint32_t rx_tail;                  /* next to process */
	uint64_t rx_queue_full;            /* under rx_lock */
	struct ibmad_rx_entry rx[RTE_IBMAD_RECV_QUEUE];
	struct rte_ibmad_stats stats;      /* under ibmad_lock */
	char node_desc[RTE_IB_NODE_DESC_LEN];
};

/** Send slot states. */
enum ibmad_send_state {
	IBMAD_SEND_FREE = 0,
	IBMAD_SEND_WAIT,        /* posted (or to repost), awaiting response */
	IBMAD_SEND_DONE,        /* finished, callback pending with status */
};

/** One outstanding send of an agent. */
struct ibmad_send {
	enum ibmad_send_state state;
	int status;                        /* for IBMAD_SEND_DONE */
	uint64_t tid;                      /* host order */
	uint64_t deadline_ms;              /* IBMAD_SEND_WAIT */
	uint32_t timeout_ms;
	uint8_t retries_left;
	void *context;
	struct rte_ib_mad_send_buf buf;    /* buf.mad points at mad[] */
	uint8_t mad[RTE_IB_MAD_SIZE];
	/* RMPP (mad_rmpp_io.c): the message being segmented, its state. */
	uint8_t *rmpp_msg;
	struct ibmad_rmpp_send *rmpp_tx;
	/* RMPP: the response being reassembled. */
	struct ibmad_rmpp_recv *rmpp_rx;
	uint32_t user_timeout_ms;          /* for the response after RMPP */
	uint8_t rmpp_retries;              /* per window, again at each ACK */
	/* RMPP figures, logged when a transfer ends (mad_rmpp_io.c). */
	uint64_t rmpp_t0_us;               /* first segment sent or taken */
	uint32_t rmpp_acks;                /* ACKs taken (send), sent (receive) */
	uint32_t rmpp_resends;             /* windows resent after a time-out */
	uint32_t rmpp_drops;               /* segments not taken (receive) */
	/*
	 * A request to this port itself, or a directed-route request that
	 * came back into one of this device's ports (mad_send.c, "Answers
	 * from this host"): the high TID of the local agent it was handed
	 * to (0: none, or the device answered), and whether its answer may
	 * be taken (to_self only).
	 */
	bool to_self;
	bool dr_back;
	bool self_ok;
	uint32_t server_hi;
	uint64_t server_owner;             /* its conf.owner */
};

struct rte_ibmad_agent {
	struct ibmad_dev *mdev;            /* NULL once the device is gone */
	struct rte_ibmad_agent_conf conf;
	uint32_t hi_tid;
	uint32_t next_tid;                 /* low 32 bits of the next TID */
	bool dead;                         /* unregistered, free pending */
	struct ibmad_send sends[RTE_IBMAD_MAX_OUTSTANDING];
};

/* mad_core.c */
extern pthread_mutex_t ibmad_lock;
/* Held by a pass from its first piece of work to its last callback. */
extern pthread_mutex_t ibmad_run_lock;
uint64_t ibmad_now_ms(void);
typedef void (*ibmad_stats_fn)(const char *name, const struct rte_ibmad_stats *st, void *arg);
/*
 * Call @p fn with the counters of every served device, or of the one
 * named @p name, under ibmad_lock (so @p fn must not call back into the
 * MAD core). Returns the number of devices @p fn was called for.
 */
int ibmad_stats_walk(const char *name, ibmad_stats_fn fn, void *arg);
void ibmad_wake(void);
/* The passes' epoll set, opened on first use; or -errno. */
int ibmad_epoll_fd(void);
/* Does the calling thread run a pass? The control thread's own pass? */
bool ibmad_in_pass(void);
bool ibmad_in_thread_pass(void);

/* mad_ctrl.c: epoll data of a control-API fd, IBMAD_CTRL_TAG | its id. */
#define IBMAD_CTRL_TAG (UINT64_C(1) << 63)
struct epoll_event;
/*
 * The control-API work of a pass: the callbacks of the @p nb_evs fds of
 * @p evs, of the timers due, of the calls queued; lowers *@p next_deadline
 * to the earliest armed timer (0 with calls queued meanwhile). Caller
 * holds ibmad_run_lock, not ibmad_lock. Returns the callbacks run.
 */
int ibmad_ctrl_run(const struct epoll_event *evs, unsigned int nb_evs,
		   uint64_t *next_deadline);
/**
 * A send now waits until @p deadline_ms: wake the control thread only if
 * it sleeps past that (a wake-up per SMP was a thread switch per SMP),
 * never for a send the thread makes itself (its pass plans its sleep after
 * its callbacks). Caller holds ibmad_lock.
 */
void ibmad_wake_for_deadline(uint64_t deadline_ms);
void ibmad_event_queue(struct rte_ib_device *dev, enum rte_ib_event_type type,
		       uint8_t port);
struct ibmad_dev *ibmad_dev_of(const struct rte_ib_device *dev);
int ibmad_rx_loopback(struct ibmad_dev *mdev, const struct rte_ib_mad_wc *wc,
		      const uint8_t *mad);
bool ibmad_in_callback(void);
void ibmad_callback_enter(void);
void ibmad_callback_leave(void);

/* mad_agent.c */
extern struct rte_ibmad_agent *ibmad_agents[RTE_IBMAD_MAX_AGENTS];
struct rte_ibmad_agent *ibmad_agent_find_request(const struct ibmad_dev *mdev,
						 uint8_t port, uint8_t qpn,
						 const uint8_t *mad);
struct rte_ibmad_agent *ibmad_agent_find_response(const struct ibmad_dev *mdev,
						  uint8_t port, uint8_t qpn,
						  const uint8_t *mad);
bool ibmad_agent_is_live(const struct rte_ibmad_agent *agent);
void ibmad_agents_detach(struct ibmad_dev *mdev);
void ibmad_agents_reap(void);

/* mad_rmpp_io.c */
struct ibmad_rx_entry;
int ibmad_rmpp_send_start(struct rte_ibmad_agent *agent, struct ibmad_send *s,
			  const uint8_t *msg, size_t len);
bool ibmad_rmpp_recv_hook(struct ibmad_dev *mdev, struct ibmad_rx_entry *e,
			  bool response);
int ibmad_rmpp_send_timeout(struct rte_ibmad_agent *agent, struct ibmad_send *s,
			    uint64_t now);
/* A segmented send gives up: its figures line (mad_rmpp_io.c). */
void ibmad_rmpp_send_failed(struct rte_ibmad_agent *agent,
			    const struct ibmad_send *s);
/* A slot's RMPP buffers, taken out of it while its callback runs. */
struct ibmad_rmpp_hold {
	uint8_t *msg;
	struct ibmad_rmpp_send *tx;
	struct ibmad_rmpp_recv *rx;
};
void ibmad_rmpp_detach(struct ibmad_send *s, struct ibmad_rmpp_hold *hold);
void ibmad_rmpp_release(struct ibmad_rmpp_hold *hold);
void ibmad_rmpp_free(struct ibmad_send *s);

/* mad_send.c */
void ibmad_send_finish(struct rte_ibmad_agent *agent, struct ibmad_send *s,
		       int status, const struct rte_ibmad_recv *resp);
int ibmad_send_post(struct ibmad_dev *mdev, uint8_t port, uint8_t qpn,
		    const struct rte_ib_mad_send_buf *buf);
/*
 * Complete @agent's send that @resp answers: same TID, class and source.
 * 1: completed; 0: no send has that TID and class; -1: one has, but
 * @resp comes from elsewhere (dropped and counted by reason).
 */
int ibmad_send_match(struct rte_ibmad_agent *agent,
		     const struct rte_ibmad_recv *resp);

/* Whether an answer to send @s comes from the peer @s went to. */
enum ibmad_src {
	IBMAD_SRC_SAME = 0,
	IBMAD_SRC_LID,          /* another SLID, or back to other path bits */
	IBMAD_SRC_GID,          /* another SGID, or a GRH on one side only */
	IBMAD_SRC_ROUTE,        /* DR SMP: another HopCount, path, DrSLID/DrDLID */
	IBMAD_SRC_LOCAL,        /* to this port itself: not the agent that got it */
};
enum ibmad_src ibmad_send_source(const struct ibmad_dev *mdev,
				 const struct ibmad_send *s,
				 const struct rte_ib_mad_wc *wc,
				 const uint8_t *mad);
/* Count and log an answer dropped for @why. */
void ibmad_send_source_count(struct ibmad_dev *mdev, enum ibmad_src why,
			     const struct rte_ib_mad_wc *wc, const uint8_t *mad);
/*
 * The outstanding request, sent by this port to itself, whose TID and
 * class @mad carries (a request looped back, or an answer to one), or
 * NULL. Caller holds ibmad_lock.
 */
struct ibmad_send *ibmad_send_self_find(const struct ibmad_dev *mdev,
					uint8_t port, uint8_t qpn,
					const uint8_t *mad);
/*
 * The outstanding directed-route request of an agent of @mdev, on any
 * port, whose TID, class and route (send_dr_route_same()) @mad carries
 * (the request arriving at this device at the end of its directed part,
 * or an answer on its route), or NULL; never one of HopCount 0 (to_self).
 * Caller holds ibmad_lock.
 */
struct ibmad_send *ibmad_send_dr_back_find(const struct ibmad_dev *mdev,
					   const uint8_t *mad);
/* Whether @mad to or from @lid on @port stays on this port (its own
 * LIDs; a directed route of no hops).
 */
bool ibmad_addr_is_self(const struct ibmad_dev *mdev, uint8_t port,
			const uint8_t *mad, uint16_t lid);
/* 32 random bits (getrandom(), else a clock mix): TID parts. */
uint32_t ibmad_tid_random(void);
void ibmad_send_cancel_all(struct rte_ibmad_agent *agent, int status);
int ibmad_send_run_timers(uint64_t now, uint64_t *next_deadline);

/* sa_client.c: the SA client's port context (and its event handler),
 * made now rather than at the first query. 0 or -1 with rte_errno.
 */
int ibmad_sa_port_open(struct rte_ib_device *dev, uint8_t port);

/* sa_mcast.c: the join manager's work, run by each MAD core pass with no
 * MAD core lock held; lowers *@next_deadline to its next timer.
 */
void ibmad_mcast_run(uint64_t now, uint64_t *next_deadline);
/* sa_mcast.c: a port event, from the SA client's event handler. */
void ibmad_mcast_event(struct rte_ib_device *dev, uint8_t port,
		       enum rte_ib_event_type type);

/* mad_recv.c; ibmad_local_answer() results: */
#define IBMAD_LOCAL_NOT_MINE  0    /* not for the device: on to agents */
#define IBMAD_LOCAL_REPLY     1    /* out holds the device's reply */
#define IBMAD_LOCAL_CONSUMED  2    /* taken, no reply */
void ibmad_recv_process(struct ibmad_dev *mdev, struct ibmad_rx_entry *e);
bool ibmad_class_is_smp(uint8_t mgmt_class);

/* Vendor classes of range 2 (0x30-0x4F): dispatched by OUI (IBA 13.4.3). */
static inline bool
ibmad_class_has_oui(uint8_t mgmt_class)
{
	return mgmt_class >= 0x30 && mgmt_class <= 0x4f;
}

/* The OUI of a range-2 vendor MAD: after the common and RMPP headers
 * and a reserved byte (Linux struct ib_vendor_mad).
 */
static inline uint32_t
ibmad_mad_oui(const uint8_t *mad)
{
	return (uint32_t)mad[37] << 16 | (uint32_t)mad[38] << 8 | mad[39];
}
int ibmad_local_answer(struct ibmad_dev *mdev, uint8_t port,
		       const struct rte_ib_mad_wc *wc, const uint8_t *in,
		       uint8_t *out);
void ibmad_reply_addr(const struct rte_ib_mad_wc *wc, uint8_t qpn,
		      struct rte_ib_mad_send_buf *buf);

#endif /* _IBMAD_PRIVATE_H_ */
