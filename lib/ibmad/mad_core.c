/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The MAD core's life cycle and work loop: the rte_ib client that starts
 * serving each device, the receive queue the PMD fills, and the loop that
 * the control thread, the service and rte_ibmad_poll() run.
 *
 * One pass: epoll (interrupt fds of the devices and a wake-up eventfd;
 * the control thread blocks there until the earliest send deadline),
 * then under ibmad_run_lock: ops->intr_process of the devices that fired (or
 * have no fd), the received MADs, the send timers and completions under
 * ibmad_lock, then the port events raised meanwhile, with no MAD core
 * lock held, and last the clients of the control-thread API (mad_ctrl.c).
 * ibmad_run_lock serialises passes, so the thread, a service lcore and
 * rte_ibmad_poll() may all run without doing work twice, and a device is
 * removed only between passes.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_service_component.h>

#include "ibmad_private.h"

RTE_LOG_REGISTER_DEFAULT(ibmad_logtype, NOTICE);

pthread_mutex_t ibmad_lock;
pthread_mutex_t ibmad_run_lock = PTHREAD_MUTEX_INITIALIZER;
/* Serialises the one-time opening of the epoll set and the eventfd. */
static pthread_mutex_t epoll_open_lock = PTHREAD_MUTEX_INITIALIZER;

/* Served devices; the epoll data of a device fd is its index here.
 * Written under ibmad_run_lock and ibmad_lock, read under either.
 */
static struct ibmad_dev *ibmad_devs[RTE_IB_MAX_DEVICES];

/* Written once under epoll_open_lock, then only read. */
static int epfd = -1;
static int wake_fd = -1;
#define WAKE_TAG UINT32_MAX
/* Most events one pass takes from epoll (more wait for the next). */
#define PASS_MAX_EVENTS (RTE_IB_MAX_DEVICES + 64)

/* Does this thread run a pass (hold ibmad_run_lock)? The control thread's? */
static RTE_DEFINE_PER_LCORE(bool, in_pass);
static RTE_DEFINE_PER_LCORE(bool, in_thread_pass);

/* Control thread. thread_want: the application's choice (default on). */
static bool thread_want = true;
static bool thread_running;
static volatile bool thread_stop;
static pthread_t thread_id;
/* When the control thread looks at the send timers next (the deadline its
 * last pass found); 0 until its first pass. Under ibmad_lock.
 */
static uint64_t thread_plan_ms;
/* The earliest deadline of the sends the control thread made itself since
 * its pass looked at the timers (callbacks, the aux fd's turn): its sleep
 * is planned from them at the end of the pass, without a wake-up. Under
 * ibmad_lock.
 */
static uint64_t thread_own_ms = UINT64_MAX;

static bool service_registered;
static uint32_t service_id;

/* Events raised during a pass, dispatched after it (under ibmad_lock). */
static struct rte_ib_event pending_ev[IBMAD_MAX_PENDING_EVENTS];
static unsigned int nb_pending_ev;

/* Depth of callbacks being run: an agent unregistered inside one is freed
 * once the depth is back to 0. Under ibmad_lock.
 */
static unsigned int callback_depth;

RTE_INIT(ibmad_lock_init)
{
	pthread_mutexattr_t attr;

	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&ibmad_lock, &attr);
	pthread_mutexattr_destroy(&attr);
}

uint64_t
ibmad_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void
ibmad_wake(void)
{
	uint64_t one = 1;

	if (wake_fd >= 0 && write(wake_fd, &one, sizeof(one)) < 0 &&
	    errno != EAGAIN)
		IBMAD_LOG(WARNING, "wake-up eventfd: %s", strerror(errno));
}

void
ibmad_event_queue(struct rte_ib_device *dev, enum rte_ib_event_type type,
		  uint8_t port)
{
	if (nb_pending_ev == RTE_DIM(pending_ev)) {
		IBMAD_LOG(WARNING, "%s port %u: event %s dropped: %d pending",
			  dev->name, port, rte_ib_event_name(type),
			  IBMAD_MAX_PENDING_EVENTS);
		return;
	}
	pending_ev[nb_pending_ev].dev = dev;
	pending_ev[nb_pending_ev].type = type;
	pending_ev[nb_pending_ev].port = port;
	nb_pending_ev++;
}

void
ibmad_wake_for_deadline(uint64_t deadline_ms)
{
	/* Without the thread, a service lcore or the application polls. */
	if (!thread_running || thread_plan_ms == 0) {
		ibmad_wake();
		return;
	}
	/*
	 * A send of the thread's own pass (the channel's turn sends each SMP
	 * OpenSM writes): the pass plans the sleep after it. The eventfd
	 * write and the read that cleared it were two syscalls per SMP.
	 */
	if (pthread_equal(pthread_self(), thread_id)) {
		thread_own_ms = RTE_MIN(thread_own_ms, deadline_ms);
		return;
	}
	if (deadline_ms < thread_plan_ms) {
		/* Its next pass comes now: later sends of a burst need no wake. */
		thread_plan_ms = deadline_ms;
		ibmad_wake();
	}
}

bool
ibmad_in_callback(void)
{
	return callback_depth != 0;
}

void
ibmad_callback_enter(void)
{
	callback_depth++;
}

void
ibmad_callback_leave(void)
{
	callback_depth--;
}

/* Copy a MAD into @p mdev's queue; false when the queue is full. */
static bool
ibmad_rx_put(struct ibmad_dev *mdev, const struct rte_ib_mad_wc *wc,
	     const void *mad, uint32_t len)
{
	struct ibmad_rx_entry *e;
	bool full;

	rte_spinlock_lock(&mdev->rx_lock);
	full = mdev->rx_head - mdev->rx_tail == RTE_IBMAD_RECV_QUEUE;
	if (full) {
		mdev->rx_queue_full++;
	} else {
		e = &mdev->rx[mdev->rx_head % RTE_IBMAD_RECV_QUEUE];
		e->wc = *wc;
		memset(e->mad, 0, sizeof(e->mad));
		memcpy(e->mad, mad, RTE_MIN(len, (uint32_t)RTE_IB_MAD_SIZE));
		mdev->rx_head++;
	}
	rte_spinlock_unlock(&mdev->rx_lock);
	return !full;
}

/* Receive handler installed on each device (any thread of the PMD). */
static void
ibmad_rx_enqueue(struct rte_ib_device *dev, const struct rte_ib_mad_wc *wc,
		 const void *mad, uint32_t len, void *arg)
{
	RTE_SET_USED(dev);
	/* The loop drains the queues after intr_process: a MAD delivered
	 * from the loop's own pass needs no wake-up.
	 */
	if (ibmad_rx_put(arg, wc, mad, len) &&
	    !(thread_running && pthread_equal(pthread_self(), thread_id)))
		ibmad_wake();
}

struct ibmad_dev *
ibmad_dev_of(const struct rte_ib_device *dev)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(ibmad_devs); i++)
		if (ibmad_devs[i] != NULL && ibmad_devs[i]->dev == dev)
			return ibmad_devs[i];
	return NULL;
}

int
ibmad_rx_loopback(struct ibmad_dev *mdev, const struct rte_ib_mad_wc *wc,
		  const uint8_t *mad)
{
	if (!ibmad_rx_put(mdev, wc, mad, RTE_IB_MAD_SIZE))
		return -ENOBUFS;
	ibmad_wake();
	return 0;
}

/* Process the queued MADs of @p mdev. Caller holds ibmad_lock. */
static int
ibmad_rx_drain_locked(struct ibmad_dev *mdev)
{
	struct ibmad_rx_entry *e;
	uint32_t tail;
	int n = 0;

	for (;;) {
		rte_spinlock_lock(&mdev->rx_lock);
		tail = mdev->rx_tail;
		e = tail != mdev->rx_head ?
			&mdev->rx[tail % RTE_IBMAD_RECV_QUEUE] : NULL;
		rte_spinlock_unlock(&mdev->rx_lock);
		if (e == NULL)
			break;
		/* In place: the slot is not reused before rx_tail moves. */
		mdev->stats.rx++;
		ibmad_recv_process(mdev, e);
		rte_spinlock_lock(&mdev->rx_lock);
		mdev->rx_tail = tail + 1;
		rte_spinlock_unlock(&mdev->rx_lock);
		n++;
	}
	return n;
}

bool
ibmad_in_pass(void)
{
	return RTE_PER_LCORE(in_pass);
}

bool
ibmad_in_thread_pass(void)
{
	return RTE_PER_LCORE(in_thread_pass);
}

/* Open the epoll set and the wake-up eventfd once. */
static int
ibmad_epoll_open(void)
{
	struct epoll_event ev;
	int efd, wfd, ret = 0;

	pthread_mutex_lock(&epoll_open_lock);
	if (epfd >= 0)
		goto out;
	efd = epoll_create1(EPOLL_CLOEXEC);
	if (efd < 0) {
		ret = -errno;
		goto out;
	}
	wfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (wfd < 0) {
		ret = -errno;
		goto err_close_epoll;
	}
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	ev.data.u32 = WAKE_TAG;
	if (epoll_ctl(efd, EPOLL_CTL_ADD, wfd, &ev) < 0) {
		ret = -errno;
		goto err_close_wake;
	}
	wake_fd = wfd;
	epfd = efd;
	goto out;

err_close_wake:
	close(wfd);
err_close_epoll:
	close(efd);
out:
	pthread_mutex_unlock(&epoll_open_lock);
	return ret;
}

int
ibmad_epoll_fd(void)
{
	int ret = ibmad_epoll_open();

	return ret < 0 ? ret : epfd;
}

/*
 * One pass; @p wait_ms is the epoll timeout (-1: until something).
 * @p thread: the control thread's pass, which sleeps until
 * @p next_deadline after it.
 */
static int
ibmad_pass(int wait_ms, uint64_t *next_deadline, bool thread)
{
	struct rte_ib_event ev[IBMAD_MAX_PENDING_EVENTS];
	bool fired[RTE_IB_MAX_DEVICES] = { false };
	struct epoll_event evs[PASS_MAX_EVENTS];
	unsigned int i, nb_ev, nb_ctrl = 0;
	uint64_t drain;
	int n, done = 0;

	*next_deadline = UINT64_MAX;
	n = epfd >= 0 ? epoll_wait(epfd, evs, RTE_DIM(evs), wait_ms) : 0;
	for (i = 0; n > 0 && i < (unsigned int)n; i++) {
		/* Control-thread API fds first: their data is a 64-bit tag. */
		if (evs[i].data.u64 & IBMAD_CTRL_TAG) {
			evs[nb_ctrl++] = evs[i];
		} else if (evs[i].data.u32 == WAKE_TAG) {
			if (read(wake_fd, &drain, sizeof(drain)) < 0)
				drain = 0;
		} else if (evs[i].data.u32 < RTE_DIM(fired)) {
			fired[evs[i].data.u32] = true;
		}
	}

	pthread_mutex_lock(&ibmad_run_lock);
	RTE_PER_LCORE(in_pass) = true;
	RTE_PER_LCORE(in_thread_pass) = thread;
	/* The PMD's interrupt work runs without ibmad_lock: it delivers
	 * MADs to the queues and may raise events through lib/ib.
	 */
	for (i = 0; i < RTE_DIM(ibmad_devs); i++) {
		if (ibmad_devs[i] == NULL)
			continue;
		if (ibmad_devs[i]->intr_fd < 0 || fired[i])
			rte_ib_device_intr_process(ibmad_devs[i]->dev);
	}
	pthread_mutex_lock(&ibmad_lock);
	for (i = 0; i < RTE_DIM(ibmad_devs); i++)
		if (ibmad_devs[i] != NULL)
			done += ibmad_rx_drain_locked(ibmad_devs[i]);
	done += ibmad_send_run_timers(ibmad_now_ms(), next_deadline);
	ibmad_agents_reap();
	nb_ev = nb_pending_ev;
	memcpy(ev, pending_ev, nb_ev * sizeof(ev[0]));
	nb_pending_ev = 0;
	for (i = 0; i < RTE_DIM(ibmad_devs); i++)
		if (ibmad_devs[i] != NULL && ibmad_devs[i]->intr_fd < 0 &&
		    *next_deadline > ibmad_now_ms() + IBMAD_NO_FD_POLL_MS)
			*next_deadline = ibmad_now_ms() + IBMAD_NO_FD_POLL_MS;
	if (thread)
		thread_plan_ms = *next_deadline;
	pthread_mutex_unlock(&ibmad_lock);

	for (i = 0; i < nb_ev; i++)
		rte_ib_dispatch_event(&ev[i]);
	/* Without ibmad_lock, as an application thread: it may send. */
	done += ibmad_ctrl_run(evs, nb_ctrl, next_deadline);
	/* The join manager's SA queries, backoff timers and callbacks. */
	ibmad_mcast_run(ibmad_now_ms(), next_deadline);
	if (thread) {
		/* What the pass itself sent, after its look at the timers. */
		pthread_mutex_lock(&ibmad_lock);
		*next_deadline = RTE_MIN(*next_deadline, thread_own_ms);
		thread_plan_ms = *next_deadline;
		thread_own_ms = UINT64_MAX;
		pthread_mutex_unlock(&ibmad_lock);
	}
	RTE_PER_LCORE(in_thread_pass) = false;
	RTE_PER_LCORE(in_pass) = false;
	pthread_mutex_unlock(&ibmad_run_lock);
	return done;
}

static uint32_t
ibmad_thread_main(void *arg)
{
	uint64_t next = UINT64_MAX, now;
	int wait_ms;

	RTE_SET_USED(arg);
	while (!thread_stop) {
		now = ibmad_now_ms();
		if (next == UINT64_MAX)
			wait_ms = -1;
		else
			wait_ms = next <= now ? 0 : (int)RTE_MIN(next - now, 60000u);
		ibmad_pass(wait_ms, &next, true);
	}
	return 0;
}

static void *
ibmad_thread_start_routine(void *arg)
{
	return (void *)(uintptr_t)ibmad_thread_main(arg);
}

/* Start the control thread if wanted and not running. Caller holds
 * ibmad_lock.
 */
static int
ibmad_thread_start_locked(void)
{
	int ret;

	if (!thread_want || thread_running)
		return 0;
	thread_stop = false;
	thread_plan_ms = 0;
	ret = rte_ctrl_thread_create(&thread_id, "ibmad-ctrl", NULL,
				     ibmad_thread_start_routine, NULL);
	if (ret != 0) {
		IBMAD_LOG(ERR, "control thread: %s", strerror(ret));
		return -ret;
	}
	thread_running = true;
	return 0;
}

static void
ibmad_thread_stop(void)
{
	pthread_t tid;

	pthread_mutex_lock(&ibmad_lock);
	if (!thread_running) {
		pthread_mutex_unlock(&ibmad_lock);
		return;
	}
	thread_stop = true;
	tid = thread_id;
	thread_running = false;
	pthread_mutex_unlock(&ibmad_lock);
	ibmad_wake();
	pthread_join(tid, NULL);
}

static int32_t
ibmad_service_run(void *arg)
{
	uint64_t next;

	RTE_SET_USED(arg);
	return ibmad_pass(0, &next, false) > 0 ? 0 : -EAGAIN;
}

/* Register the service once EAL is up. Caller holds ibmad_lock. */
static void
ibmad_service_register_locked(void)
{
	struct rte_service_spec spec;

	if (service_registered)
		return;
	memset(&spec, 0, sizeof(spec));
	snprintf(spec.name, sizeof(spec.name), "ibmad");
	spec.callback = ibmad_service_run;
	spec.capabilities = RTE_SERVICE_CAP_MT_SAFE;
	if (rte_service_component_register(&spec, &service_id) != 0) {
		IBMAD_LOG(WARNING, "service ibmad: not registered: %s",
			  rte_strerror(rte_errno));
		return;
	}
	rte_service_component_runstate_set(service_id, 1);
	service_registered = true;
}

/* Default NodeDescription: "<host name> <device name>" (Linux ib_device
 * node_desc as set from utsname by drivers, node_desc_override).
 */
static void
ibmad_node_desc_init(struct ibmad_dev *mdev)
{
	char host[RTE_IB_NODE_DESC_LEN];
	char desc[2 * RTE_IB_NODE_DESC_LEN + RTE_IB_DEV_NAME_MAX];

	memset(mdev->node_desc, 0, sizeof(mdev->node_desc));
	if (mdev->dev->node_desc[0] != '\0') {
		memcpy(mdev->node_desc, mdev->dev->node_desc,
		       sizeof(mdev->node_desc));
		return;
	}
	if (gethostname(host, sizeof(host)) != 0)
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	snprintf(desc, sizeof(desc), "%s %s", host, mdev->dev->name);
	/* NodeDescription is 64 bytes, NUL padded, not NUL terminated. */
	memcpy(mdev->node_desc, desc,
	       RTE_MIN(strlen(desc), sizeof(mdev->node_desc)));
}

static int
ibmad_dev_add(struct rte_ib_device *dev)
{
	struct ibmad_dev *mdev;
	struct epoll_event ev;
	int slot = -1, ret;
	unsigned int i;

	mdev = calloc(1, sizeof(*mdev));
	if (mdev == NULL)
		return -ENOMEM;
	mdev->dev = dev;
	rte_spinlock_init(&mdev->rx_lock);
	ibmad_node_desc_init(mdev);

	pthread_mutex_lock(&ibmad_run_lock);
	ret = ibmad_epoll_open();
	for (i = 0; ret == 0 && i < RTE_DIM(ibmad_devs) && slot < 0; i++)
		if (ibmad_devs[i] == NULL)
			slot = (int)i;
	if (ret == 0 && slot < 0)
		ret = -ENOSPC;
	if (ret < 0)
		goto err_unlock;
	mdev->intr_fd = rte_ib_device_intr_fd(dev);
	if (mdev->intr_fd >= 0) {
		memset(&ev, 0, sizeof(ev));
		ev.events = EPOLLIN;
		ev.data.u32 = (uint32_t)slot;
		if (epoll_ctl(epfd, EPOLL_CTL_ADD, mdev->intr_fd, &ev) < 0) {
			ret = -errno;
			IBMAD_LOG(ERR, "%s: intr fd %d: epoll: %s", dev->name,
				  mdev->intr_fd, strerror(errno));
			goto err_unlock;
		}
	}
	if (rte_ib_device_set_mad_handler(dev, ibmad_rx_enqueue, mdev) < 0) {
		ret = -rte_errno;
		goto err_del_fd;
	}
	pthread_mutex_lock(&ibmad_lock);
	ibmad_devs[slot] = mdev;
	ibmad_service_register_locked();
	ret = ibmad_thread_start_locked();
	pthread_mutex_unlock(&ibmad_lock);
	pthread_mutex_unlock(&ibmad_run_lock);
	ibmad_wake();
	IBMAD_LOG(INFO, "%s: served (%s, NodeDescription \"%.*s\")", dev->name,
		  mdev->intr_fd >= 0 ? "interrupt fd" : "polled",
		  RTE_IB_NODE_DESC_LEN, mdev->node_desc);
	return ret;

err_del_fd:
	if (mdev->intr_fd >= 0)
		epoll_ctl(epfd, EPOLL_CTL_DEL, mdev->intr_fd, NULL);
err_unlock:
	pthread_mutex_unlock(&ibmad_run_lock);
	free(mdev);
	IBMAD_LOG(ERR, "%s: not served: %s", dev->name, strerror(-ret));
	return ret;
}

static void
ibmad_dev_remove(struct rte_ib_device *dev)
{
	struct ibmad_dev *mdev = NULL;
	unsigned int i;

	/* Between passes: no intr_process, no queue drain in progress. */
	pthread_mutex_lock(&ibmad_run_lock);
	for (i = 0; i < RTE_DIM(ibmad_devs) && mdev == NULL; i++)
		if (ibmad_devs[i] != NULL && ibmad_devs[i]->dev == dev)
			mdev = ibmad_devs[i];
	if (mdev == NULL) {
		pthread_mutex_unlock(&ibmad_run_lock);
		return;
	}
	/* Waits for a delivery from the PMD's own thread in progress. */
	rte_ib_device_set_mad_handler(dev, NULL, NULL);
	if (mdev->intr_fd >= 0)
		epoll_ctl(epfd, EPOLL_CTL_DEL, mdev->intr_fd, NULL);
	pthread_mutex_lock(&ibmad_lock);
	ibmad_devs[i - 1] = NULL;
	ibmad_agents_detach(mdev);
	/* Events raised for the device must not outlive it. */
	for (i = 0; i < nb_pending_ev; i++)
		if (pending_ev[i].dev == dev)
			pending_ev[i] = pending_ev[--nb_pending_ev], i--;
	pthread_mutex_unlock(&ibmad_lock);
	pthread_mutex_unlock(&ibmad_run_lock);
	IBMAD_LOG(INFO, "%s: no longer served", dev->name);
	free(mdev);
}

static const struct rte_ib_client ibmad_client = {
	.name = "ibmad",
	.add = ibmad_dev_add,
	.remove = ibmad_dev_remove,
};

RTE_INIT(ibmad_client_init)
{
	if (rte_ib_register_client(&ibmad_client) < 0)
		IBMAD_LOG(ERR, "cannot register with lib/ib: %s",
			  rte_strerror(rte_errno));
}

RTE_FINI(ibmad_client_fini)
{
	ibmad_thread_stop();
	rte_ib_unregister_client(&ibmad_client);
}

int
rte_ibmad_poll(void)
{
	uint64_t next;

	return ibmad_pass(0, &next, false);
}

int
rte_ibmad_ctrl_thread_set(bool run)
{
	bool any = false;
	unsigned int i;
	int ret = 0;

	if (!run) {
		pthread_mutex_lock(&ibmad_lock);
		thread_want = false;
		pthread_mutex_unlock(&ibmad_lock);
		ibmad_thread_stop();
		return 0;
	}
	pthread_mutex_lock(&ibmad_lock);
	thread_want = true;
	for (i = 0; i < RTE_DIM(ibmad_devs); i++)
		any |= ibmad_devs[i] != NULL;
	if (any)
		ret = ibmad_thread_start_locked();
	pthread_mutex_unlock(&ibmad_lock);
	return ibmad_ret(ret);
}

int
rte_ibmad_service_id_get(uint32_t *id)
{
	int ret = 0;

	pthread_mutex_lock(&ibmad_lock);
	if (!service_registered || id == NULL)
		ret = -ENOENT;
	else
		*id = service_id;
	pthread_mutex_unlock(&ibmad_lock);
	return ibmad_ret(ret);
}

int
ibmad_stats_walk(const char *name, ibmad_stats_fn fn, void *arg)
{
	struct rte_ibmad_stats st;
	unsigned int i;
	int n = 0;

	pthread_mutex_lock(&ibmad_lock);
	for (i = 0; i < RTE_DIM(ibmad_devs); i++) {
		struct ibmad_dev *md = ibmad_devs[i];

		if (md == NULL || (name != NULL && strcmp(md->dev->name, name) != 0))
			continue;
		st = md->stats;
		rte_spinlock_lock(&md->rx_lock);
		st.rx_queue_full = md->rx_queue_full;
		rte_spinlock_unlock(&md->rx_lock);
		fn(md->dev->name, &st, arg);
		n++;
	}
	pthread_mutex_unlock(&ibmad_lock);
	return n;
}

int
rte_ibmad_stats_get(struct rte_ib_device *dev, struct rte_ibmad_stats *stats)
{
	unsigned int i;
	int ret = -ENODEV;

	if (stats == NULL) {
		rte_errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&ibmad_lock);
	for (i = 0; i < RTE_DIM(ibmad_devs); i++) {
		if (ibmad_devs[i] == NULL || ibmad_devs[i]->dev != dev)
			continue;
		*stats = ibmad_devs[i]->stats;
		rte_spinlock_lock(&ibmad_devs[i]->rx_lock);
		stats->rx_queue_full = ibmad_devs[i]->rx_queue_full;
		rte_spinlock_unlock(&ibmad_devs[i]->rx_lock);
		ret = 0;
	}
	pthread_mutex_unlock(&ibmad_lock);
	return ibmad_ret(ret);
}
