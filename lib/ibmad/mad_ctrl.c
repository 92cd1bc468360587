/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The control-thread API (rte_ibmad_ctrl.h): other clients' fds, timers
 * and calls, run by the MAD core's passes (mad_core.c) after its own work.
 *
 * Locking and lifetime:
 * - ctrl_lock (a mutex, held briefly, never across a callback) protects
 *   the three lists, every registration's fields and ctrl_running.
 * - ibmad_run_lock serialises passes, so callbacks never overlap. A
 *   removal from outside a pass takes it, and so waits for the pass in
 *   progress: once it returns, the callback is neither running nor due.
 * - The epoll data of a registered fd is its id (never reused), not its
 *   address: a pass's epoll_wait() runs before ibmad_run_lock, so an event
 *   may name a registration that was removed meanwhile; the lookup under
 *   ctrl_lock then finds nothing.
 * - A registration removed inside a pass leaves its list at once; if its
 *   own callback is the one running (ctrl_running), it is freed when that
 *   callback returns, else at once.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/queue.h>
#include <time.h>

#include <rte_common.h>

#include "ibmad_private.h"
#include "rte_ibmad_ctrl.h"

/* Events a client may ask for (rte_ibmad_ctrl_fd_add()). */
#define CTRL_FD_EVENTS (EPOLLIN | EPOLLOUT | EPOLLPRI | EPOLLRDHUP | EPOLLET)

struct rte_ibmad_ctrl_fd {
	TAILQ_ENTRY(rte_ibmad_ctrl_fd) next;
	uint64_t id;                    /* epoll data: IBMAD_CTRL_TAG | id */
	int fd;
	rte_ibmad_ctrl_fd_cb_t cb;
	void *arg;
	bool dead;                      /* removed by its own callback */
};

enum ctrl_timer_state {
	CTRL_TIMER_IDLE,
	CTRL_TIMER_ARMED,               /* in ctrl_armed */
	CTRL_TIMER_DUE,                 /* in ctrl_due, for the current pass */
};

struct rte_ibmad_ctrl_timer {
	TAILQ_ENTRY(rte_ibmad_ctrl_timer) next;
	enum ctrl_timer_state state;
	uint64_t deadline_ms;
	rte_ibmad_ctrl_timer_cb_t cb;
	void *arg;
	bool dead;                      /* freed by its own callback */
};

struct ctrl_call {
	TAILQ_ENTRY(ctrl_call) next;
	rte_ibmad_ctrl_call_t fn;
	void *arg;
};

static pthread_mutex_t ctrl_lock = PTHREAD_MUTEX_INITIALIZER;
static TAILQ_HEAD(, rte_ibmad_ctrl_fd) ctrl_fds = TAILQ_HEAD_INITIALIZER(ctrl_fds);
/* Armed timers, by deadline; equal deadlines in arming order. */
static TAILQ_HEAD(ctrl_timer_list, rte_ibmad_ctrl_timer) ctrl_armed =
	TAILQ_HEAD_INITIALIZER(ctrl_armed);
/* Timers the current pass found due, not yet run. */
static struct ctrl_timer_list ctrl_due = TAILQ_HEAD_INITIALIZER(ctrl_due);
static TAILQ_HEAD(ctrl_call_list, ctrl_call) ctrl_calls =
	TAILQ_HEAD_INITIALIZER(ctrl_calls);
static uint64_t ctrl_next_id;
/* The registration whose callback runs now, or NULL. */
static const void *ctrl_running;

/*
 * Outside a pass, wait for the one in progress to end and keep others out
 * (ibmad_run_lock); inside one, it is already ours.
 */
static bool
ctrl_pass_exclude(void)
{
	if (ibmad_in_pass())
		return false;
	pthread_mutex_lock(&ibmad_run_lock);
	return true;
}

static void
ctrl_pass_release(bool locked)
{
	if (locked)
		pthread_mutex_unlock(&ibmad_run_lock);
}

/*
 * A new earliest deadline or a queued call: wake the control thread,
 * unless this is the control thread's own pass (which plans its sleep
 * after its callbacks, ibmad_ctrl_run()).
 */
static void
ctrl_wake(void)
{
	if (!ibmad_in_thread_pass())
		ibmad_wake();
}

static int
ctrl_events_check(uint32_t events)
{
	if ((events & ~(uint32_t)CTRL_FD_EVENTS) != 0) {
		IBMAD_LOG(ERR, "events=0x%x: 0x%x not allowed (EPOLLIN, EPOLLOUT, EPOLLPRI, EPOLLRDHUP, EPOLLET)",
			  events, events & ~(uint32_t)CTRL_FD_EVENTS);
		return -EINVAL;
	}
	return 0;
}

struct rte_ibmad_ctrl_fd *
rte_ibmad_ctrl_fd_add(int fd, uint32_t events, rte_ibmad_ctrl_fd_cb_t cb,
		      void *arg)
{
	struct rte_ibmad_ctrl_fd *reg;
	struct epoll_event ev;
	int epfd, ret;

	if (fd < 0 || cb == NULL) {
		IBMAD_LOG(ERR, "fd=%d, cb=%p: need an fd and a callback", fd,
			  (void *)(uintptr_t)cb);
		rte_errno = EINVAL;
		return NULL;
	}
	ret = ctrl_events_check(events);
	if (ret < 0) {
		rte_errno = -ret;
		return NULL;
	}
	epfd = ibmad_epoll_fd();
	if (epfd < 0) {
		rte_errno = -epfd;
		return NULL;
	}
	reg = calloc(1, sizeof(*reg));
	if (reg == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	reg->fd = fd;
	reg->cb = cb;
	reg->arg = arg;
	pthread_mutex_lock(&ctrl_lock);
	reg->id = ++ctrl_next_id;
	memset(&ev, 0, sizeof(ev));
	ev.events = events;
	ev.data.u64 = IBMAD_CTRL_TAG | reg->id;
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		ret = errno;
		pthread_mutex_unlock(&ctrl_lock);
		IBMAD_LOG(ERR, "fd=%d: epoll: %s", fd, strerror(ret));
		free(reg);
		rte_errno = ret;
		return NULL;
	}
	TAILQ_INSERT_TAIL(&ctrl_fds, reg, next);
	pthread_mutex_unlock(&ctrl_lock);
	return reg;
}

int
rte_ibmad_ctrl_fd_events_set(struct rte_ibmad_ctrl_fd *reg, uint32_t events)
{
	struct epoll_event ev;
	int ret;

	if (reg == NULL) {
		rte_errno = EINVAL;
		return -1;
	}
	ret = ctrl_events_check(events);
	if (ret < 0)
		return ibmad_ret(ret);
	memset(&ev, 0, sizeof(ev));
	ev.events = events;
	ev.data.u64 = IBMAD_CTRL_TAG | reg->id;
	if (epoll_ctl(ibmad_epoll_fd(), EPOLL_CTL_MOD, reg->fd, &ev) < 0) {
		ret = -errno;
		IBMAD_LOG(ERR, "fd=%d: epoll: %s", reg->fd, strerror(-ret));
	}
	return ibmad_ret(ret);
}

void
rte_ibmad_ctrl_fd_del(struct rte_ibmad_ctrl_fd *reg)
{
	bool locked;

	if (reg == NULL)
		return;
	locked = ctrl_pass_exclude();
	pthread_mutex_lock(&ctrl_lock);
	TAILQ_REMOVE(&ctrl_fds, reg, next);
	/* An fd closed already has left the set by itself. */
	epoll_ctl(ibmad_epoll_fd(), EPOLL_CTL_DEL, reg->fd, NULL);
	if (reg == ctrl_running)
		reg->dead = true;
	else
		free(reg);
	pthread_mutex_unlock(&ctrl_lock);
	ctrl_pass_release(locked);
}

struct rte_ibmad_ctrl_timer *
rte_ibmad_ctrl_timer_create(rte_ibmad_ctrl_timer_cb_t cb, void *arg)
{
	struct rte_ibmad_ctrl_timer *t;

	if (cb == NULL) {
		IBMAD_LOG(ERR, "timer: no callback");
		rte_errno = EINVAL;
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (t == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	t->cb = cb;
	t->arg = arg;
	t->state = CTRL_TIMER_IDLE;
	return t;
}

/* Take @p t off its list. Caller holds ctrl_lock. */
static void
ctrl_timer_unlink_locked(struct rte_ibmad_ctrl_timer *t)
{
	if (t->state == CTRL_TIMER_ARMED)
		TAILQ_REMOVE(&ctrl_armed, t, next);
	else if (t->state == CTRL_TIMER_DUE)
		TAILQ_REMOVE(&ctrl_due, t, next);
	t->state = CTRL_TIMER_IDLE;
}

int
rte_ibmad_ctrl_timer_arm(struct rte_ibmad_ctrl_timer *t, uint64_t deadline_ms)
{
	struct rte_ibmad_ctrl_timer *it;
	bool first;

	if (t == NULL) {
		rte_errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&ctrl_lock);
	ctrl_timer_unlink_locked(t);
	t->deadline_ms = deadline_ms;
	/* After every timer due no later: equal deadlines fire as armed. */
	TAILQ_FOREACH(it, &ctrl_armed, next)
		if (it->deadline_ms > deadline_ms)
			break;
	if (it != NULL)
		TAILQ_INSERT_BEFORE(it, t, next);
	else
		TAILQ_INSERT_TAIL(&ctrl_armed, t, next);
	t->state = CTRL_TIMER_ARMED;
	first = TAILQ_FIRST(&ctrl_armed) == t;
	pthread_mutex_unlock(&ctrl_lock);
	/* A later deadline than the first changes nobody's sleep. */
	if (first)
		ctrl_wake();
	return 0;
}

void
rte_ibmad_ctrl_timer_disarm(struct rte_ibmad_ctrl_timer *t)
{
	if (t == NULL)
		return;
	pthread_mutex_lock(&ctrl_lock);
	ctrl_timer_unlink_locked(t);
	pthread_mutex_unlock(&ctrl_lock);
}

void
rte_ibmad_ctrl_timer_free(struct rte_ibmad_ctrl_timer *t)
{
	bool locked;

	if (t == NULL)
		return;
	locked = ctrl_pass_exclude();
	pthread_mutex_lock(&ctrl_lock);
	ctrl_timer_unlink_locked(t);
	if (t == ctrl_running)
		t->dead = true;
	else
		free(t);
	pthread_mutex_unlock(&ctrl_lock);
	ctrl_pass_release(locked);
}

uint64_t
rte_ibmad_ctrl_now_ms(void)
{
	return ibmad_now_ms();
}

int
rte_ibmad_ctrl_call(rte_ibmad_ctrl_call_t fn, void *arg)
{
	struct ctrl_call *c;

	if (fn == NULL) {
		IBMAD_LOG(ERR, "call: no function");
		rte_errno = EINVAL;
		return -1;
	}
	c = malloc(sizeof(*c));
	if (c == NULL) {
		rte_errno = ENOMEM;
		return -1;
	}
	c->fn = fn;
	c->arg = arg;
	pthread_mutex_lock(&ctrl_lock);
	TAILQ_INSERT_TAIL(&ctrl_calls, c, next);
	pthread_mutex_unlock(&ctrl_lock);
	ctrl_wake();
	return 0;
}

/* Run the callback of the fd registered as @p id, if it still is. */
static bool
ctrl_fd_run(uint64_t id, uint32_t events)
{
	struct rte_ibmad_ctrl_fd *reg;

	pthread_mutex_lock(&ctrl_lock);
	TAILQ_FOREACH(reg, &ctrl_fds, next)
		if (reg->id == id)
			break;
	if (reg == NULL) {
		pthread_mutex_unlock(&ctrl_lock);
		return false;
	}
	ctrl_running = reg;
	pthread_mutex_unlock(&ctrl_lock);

	reg->cb(reg->fd, events, reg->arg);

	pthread_mutex_lock(&ctrl_lock);
	ctrl_running = NULL;
	if (reg->dead)
		free(reg);
	pthread_mutex_unlock(&ctrl_lock);
	return true;
}

/* Run the timers due at @p now, earliest first. */
static int
ctrl_timers_run(uint64_t now)
{
	struct rte_ibmad_ctrl_timer *t;
	int n = 0;

	pthread_mutex_lock(&ctrl_lock);
	while ((t = TAILQ_FIRST(&ctrl_armed)) != NULL && t->deadline_ms <= now) {
		TAILQ_REMOVE(&ctrl_armed, t, next);
		TAILQ_INSERT_TAIL(&ctrl_due, t, next);
		t->state = CTRL_TIMER_DUE;
	}
	/* A callback may disarm, re-arm or free any of those still due. */
	while ((t = TAILQ_FIRST(&ctrl_due)) != NULL) {
		TAILQ_REMOVE(&ctrl_due, t, next);
		t->state = CTRL_TIMER_IDLE;
		ctrl_running = t;
		pthread_mutex_unlock(&ctrl_lock);

		t->cb(t, t->arg);
		n++;

		pthread_mutex_lock(&ctrl_lock);
		ctrl_running = NULL;
		if (t->dead)
			free(t);
	}
	pthread_mutex_unlock(&ctrl_lock);
	return n;
}

/* Run the calls queued before now, in order. */
static int
ctrl_calls_run(void)
{
	struct ctrl_call_list calls = TAILQ_HEAD_INITIALIZER(calls);
	struct ctrl_call *c;
	int n = 0;

	pthread_mutex_lock(&ctrl_lock);
	TAILQ_CONCAT(&calls, &ctrl_calls, next);
	pthread_mutex_unlock(&ctrl_lock);
	while ((c = TAILQ_FIRST(&calls)) != NULL) {
		TAILQ_REMOVE(&calls, c, next);
		c->fn(c->arg);
		free(c);
		n++;
	}
	return n;
}

int
ibmad_ctrl_run(const struct epoll_event *evs, unsigned int nb_evs,
	       uint64_t *next_deadline)
{
	unsigned int i;
	int n = 0;

	for (i = 0; i < nb_evs; i++)
		n += ctrl_fd_run(evs[i].data.u64 & ~IBMAD_CTRL_TAG, evs[i].events);
	n += ctrl_timers_run(ibmad_now_ms());
	n += ctrl_calls_run();

	/* What the callbacks armed or queued: the next pass's plan. */
	pthread_mutex_lock(&ctrl_lock);
	if (!TAILQ_EMPTY(&ctrl_calls))
		*next_deadline = 0;
	else if (!TAILQ_EMPTY(&ctrl_armed))
		*next_deadline = RTE_MIN(*next_deadline,
					 TAILQ_FIRST(&ctrl_armed)->deadline_ms);
	pthread_mutex_unlock(&ctrl_lock);
	return n;
}
