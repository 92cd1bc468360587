/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _RTE_IBMAD_CTRL_H_
#define _RTE_IBMAD_CTRL_H_

/**
 * @file
 * The MAD core's control thread, open to other clients: file descriptors,
 * deadlines (timers) and calls from other threads, each with a callback
 * that runs where the MAD core's own work runs (rte_ibmad.h, Threading):
 * the "ibmad-ctrl" thread, the "ibmad" service, or rte_ibmad_poll().
 * The user-MAD service (librte_ibumad) and IPoIB's control side are its
 * clients; any number of clients may register any number of each.
 *
 * Where and how callbacks run:
 * - In a pass of the MAD core, after its own work (received MADs, send
 *   time-outs, port events): first the fds found ready by that pass's
 *   epoll_wait(), then the timers whose deadline has come (earliest
 *   first; equal deadlines in the order they were armed), then the calls
 *   queued before the pass took them, in the order they were made.
 * - One at a time: passes are serialised, so no two callbacks of this API
 *   (nor a callback and an agent callback of rte_ibmad.h) ever run at once.
 * - Without the MAD core's locks held: a callback may send MADs,
 *   (un)register agents, and call every function of this file, including
 *   removing its own or another registration.
 * - Nothing blocks: a callback must not wait (no blocking read, sleep,
 *   lock held by a thread that waits for the MAD core), since every
 *   device's MADs and every other client wait for it. It must not call
 *   rte_ibmad_poll() or rte_ibmad_ctrl_thread_set(), nor register or
 *   unregister rte_ib devices or clients.
 *
 * Removal (rte_ibmad_ctrl_fd_del(), rte_ibmad_ctrl_timer_free()) is safe
 * from anywhere: from a callback it takes effect at once (a registration
 * removed by an earlier callback of the same pass does not run); from
 * another thread it waits until the pass in progress, if any, has ended,
 * so once it returns the callback is not running and never runs again
 * and its argument may be freed. Such a thread must therefore not hold a
 * lock that a callback takes.
 *
 * Fds are watched with epoll: level-triggered unless EPOLLET is given,
 * so a callback that leaves data unread runs again in the next pass.
 * Several passes may find the same fd ready (a service lcore and the
 * thread), so the fd should be non-blocking and its callback should
 * expect to find nothing. Close an fd only after removing it.
 *
 * Timers are on CLOCK_MONOTONIC (rte_ibmad_ctrl_now_ms()), to the
 * millisecond: a timer never fires before its deadline, and the control
 * thread sleeps until the earliest deadline of its timers and sends.
 */

#include <stdint.h>

#include <rte_compat.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A file descriptor registered on the control thread. Opaque. */
struct rte_ibmad_ctrl_fd;

/** A timer of the control thread. Opaque. */
struct rte_ibmad_ctrl_timer;

/**
 * Called when a registered fd is ready.
 *
 * @param fd
 *   The registered fd.
 * @param events
 *   The epoll events that were reported (EPOLLIN, EPOLLOUT, EPOLLHUP, ...).
 * @param arg
 *   The argument given at registration.
 */
typedef void (*rte_ibmad_ctrl_fd_cb_t)(int fd, uint32_t events, void *arg);

/**
 * Called when a timer's deadline has come; the timer is disarmed by then
 * and may be re-armed (or freed) from the callback.
 *
 * @param timer
 *   The timer.
 * @param arg
 *   The argument given to rte_ibmad_ctrl_timer_create().
 */
typedef void (*rte_ibmad_ctrl_timer_cb_t)(struct rte_ibmad_ctrl_timer *timer,
					  void *arg);

/** A function for rte_ibmad_ctrl_call() to run on the control thread. */
typedef void (*rte_ibmad_ctrl_call_t)(void *arg);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Watch @p fd in the MAD core's passes: @p cb runs there whenever @p fd
 * reports one of @p events. Any thread, any time (before a device exists,
 * too: the fd is served once something runs passes).
 *
 * @param fd
 *   The fd; the caller keeps it open until rte_ibmad_ctrl_fd_del().
 * @param events
 *   epoll events to watch: EPOLLIN, EPOLLOUT, EPOLLPRI, EPOLLRDHUP,
 *   EPOLLET (EPOLLHUP and EPOLLERR are always reported).
 * @param cb
 *   The callback.
 * @param arg
 *   Passed to @p cb; owned by the caller.
 * @return
 *   The registration, or NULL with rte_errno: EINVAL (@p fd negative,
 *   @p cb NULL, an event outside the list), EEXIST (@p fd is already
 *   registered), ENOMEM, or the errno of epoll_ctl() (EBADF, EPERM: not
 *   pollable).
 */
__rte_experimental
struct rte_ibmad_ctrl_fd *rte_ibmad_ctrl_fd_add(int fd, uint32_t events,
						rte_ibmad_ctrl_fd_cb_t cb,
						void *arg);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Change the events an fd is watched for. Any thread, or a callback.
 *
 * @param reg
 *   A registration of rte_ibmad_ctrl_fd_add().
 * @param events
 *   As for rte_ibmad_ctrl_fd_add().
 * @return
 *   0, or -1 with rte_errno: EINVAL (@p reg NULL, an event outside the
 *   list), or the errno of epoll_ctl().
 */
__rte_experimental
int rte_ibmad_ctrl_fd_events_set(struct rte_ibmad_ctrl_fd *reg,
				 uint32_t events);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Stop watching an fd and free its registration (the fd stays open).
 * From a callback: at once, the registration's callback does not run
 * again, even if the same pass found the fd ready. From another thread:
 * returns once the pass in progress (and so the callback, if running)
 * has ended; see the file's description.
 *
 * @param reg
 *   A registration, or NULL (nothing to do).
 */
__rte_experimental
void rte_ibmad_ctrl_fd_del(struct rte_ibmad_ctrl_fd *reg);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Create a timer, disarmed. Any thread.
 *
 * @param cb
 *   Runs in a pass once the armed deadline has come.
 * @param arg
 *   Passed to @p cb; owned by the caller.
 * @return
 *   The timer, or NULL with rte_errno: EINVAL (@p cb NULL), ENOMEM.
 */
__rte_experimental
struct rte_ibmad_ctrl_timer *
rte_ibmad_ctrl_timer_create(rte_ibmad_ctrl_timer_cb_t cb, void *arg);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Arm (or re-arm) a timer for an absolute deadline; an armed timer's
 * earlier deadline is replaced. A deadline already past fires in the next
 * pass (in the current one's successor when armed from a callback). From
 * another thread, wakes the control thread if it would sleep past the
 * deadline. Any thread, or a callback (its own timer too).
 *
 * @param timer
 *   The timer.
 * @param deadline_ms
 *   CLOCK_MONOTONIC milliseconds (rte_ibmad_ctrl_now_ms() + delay).
 * @return
 *   0, or -1 with rte_errno EINVAL (@p timer NULL).
 */
__rte_experimental
int rte_ibmad_ctrl_timer_arm(struct rte_ibmad_ctrl_timer *timer,
			     uint64_t deadline_ms);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Disarm a timer: its callback does not run for the deadline it had.
 * Does not wait for a callback running on the control thread (use
 * rte_ibmad_ctrl_timer_free() for that). Any thread, or a callback.
 *
 * @param timer
 *   The timer, or NULL (nothing to do).
 */
__rte_experimental
void rte_ibmad_ctrl_timer_disarm(struct rte_ibmad_ctrl_timer *timer);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Disarm and free a timer. From a callback (its own timer too): at once,
 * the memory is released when that callback returns. From another
 * thread: returns once the pass in progress has ended, as
 * rte_ibmad_ctrl_fd_del().
 *
 * @param timer
 *   The timer, or NULL (nothing to do).
 */
__rte_experimental
void rte_ibmad_ctrl_timer_free(struct rte_ibmad_ctrl_timer *timer);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The clock of the timers. Any thread.
 *
 * @return
 *   CLOCK_MONOTONIC, in milliseconds.
 */
__rte_experimental
uint64_t rte_ibmad_ctrl_now_ms(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Have @p fn(@p arg) run once in a pass of the MAD core (on the control
 * thread when it runs), and wake that thread. Calls run in the order they
 * were made. Returns at once, without waiting for @p fn: a thread that
 * needs the result waits for it its own way (it must not be a callback).
 * Any thread, or a callback (the call then runs in a later pass).
 *
 * @param fn
 *   The function.
 * @param arg
 *   Its argument; owned by the caller.
 * @return
 *   0, or -1 with rte_errno: EINVAL (@p fn NULL), ENOMEM.
 */
__rte_experimental
int rte_ibmad_ctrl_call(rte_ibmad_ctrl_call_t fn, void *arg);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_IBMAD_CTRL_H_ */
