/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The control-thread API of lib/ibmad (rte_ibmad_ctrl.h), driven through
 * rte_ibmad_poll(): the passes that the control thread runs when a device
 * is served run here in the test's thread, or in a "poller" thread of the
 * test where a rule is about another thread. No device, no EAL: the API
 * needs neither.
 *
 * The rules, one case each (the header's words):
 * - any number of fds, each callback with its own fd, events and arg;
 * - timers fire earliest deadline first, equal deadlines in arming
 *   order, never before their deadline, and may re-arm themselves;
 * - a registration removed by a callback does not run afterwards, even
 *   when the same pass found it due;
 * - removal from another thread does not return while the callback runs;
 * - rte_ibmad_ctrl_call() runs the function on the pass's thread, in the
 *   order of the calls.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_ibmad.h>
#include <rte_ibmad_ctrl.h>

#include "test.h"

#define NB_FDS 100      /* more than one pass takes from epoll */
#define NB_TIMERS 200
#define NB_CALLS 100

static void
sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void
efd_signal(int fd)
{
	uint64_t one = 1;

	if (write(fd, &one, sizeof(one)) != sizeof(one))
		printf("  eventfd %d: write: %s\n", fd, strerror(errno));
}

static void
efd_drain(int fd)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		printf("  eventfd %d: read: %s\n", fd, strerror(errno));
}

/* Poll until @p done() or @p ms have passed. */
static bool
poll_until(bool (*done)(void), unsigned int ms)
{
	uint64_t end = rte_ibmad_ctrl_now_ms() + ms;

	while (!done()) {
		if (rte_ibmad_ctrl_now_ms() > end)
			return false;
		rte_ibmad_poll();
		sleep_ms(1);
	}
	return true;
}

/* A thread that runs passes until told to stop. */
static atomic_bool poller_stop;
static pthread_t poller_tid;

static void *
poller_main(void *arg)
{
	RTE_SET_USED(arg);
	while (!atomic_load(&poller_stop)) {
		rte_ibmad_poll();
		sleep_ms(1);
	}
	return NULL;
}

static int
poller_start(void)
{
	atomic_store(&poller_stop, false);
	return pthread_create(&poller_tid, NULL, poller_main, NULL);
}

static void
poller_join(void)
{
	atomic_store(&poller_stop, true);
	pthread_join(poller_tid, NULL);
}

/* --- many fds --- */

struct fd_slot {
	int fd;
	struct rte_ibmad_ctrl_fd *reg;
	unsigned int runs;
	int seen_fd;
	uint32_t seen_events;
	bool wrong_arg;
};
static struct fd_slot slots[NB_FDS];
static unsigned int fd_runs_total;

static void
slot_cb(int fd, uint32_t events, void *arg)
{
	struct fd_slot *s = arg;

	if (s < slots || s >= slots + NB_FDS) {
		fd_runs_total++;
		return;
	}
	s->runs++;
	s->seen_fd = fd;
	s->seen_events = events;
	fd_runs_total++;
	efd_drain(fd);
}

static bool
odd_slots_ran(void)
{
	return fd_runs_total >= NB_FDS / 2;
}

static int
test_fd_many(void)
{
	struct rte_ibmad_ctrl_fd *bad;
	unsigned int i;
	int ret = TEST_FAILED;

	memset(slots, 0, sizeof(slots));
	fd_runs_total = 0;
	for (i = 0; i < NB_FDS; i++)
		slots[i].fd = -1;
	for (i = 0; i < NB_FDS; i++) {
		slots[i].fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (slots[i].fd < 0)
			goto out;
		slots[i].reg = rte_ibmad_ctrl_fd_add(slots[i].fd, EPOLLIN, slot_cb,
						     &slots[i]);
		if (slots[i].reg == NULL) {
			printf("  fd %d: %s\n", slots[i].fd, rte_strerror(rte_errno));
			goto out;
		}
	}
	/* Bad input: rejected with its reason, nothing registered. */
	bad = rte_ibmad_ctrl_fd_add(-1, EPOLLIN, slot_cb, NULL);
	if (bad != NULL || rte_errno != EINVAL) {
		printf("  fd -1: accepted or not EINVAL (%d)\n", rte_errno);
		goto out;
	}
	bad = rte_ibmad_ctrl_fd_add(slots[0].fd, EPOLLIN | EPOLLONESHOT, slot_cb, NULL);
	if (bad != NULL || rte_errno != EINVAL) {
		printf("  EPOLLONESHOT: accepted or not EINVAL (%d)\n", rte_errno);
		goto out;
	}
	bad = rte_ibmad_ctrl_fd_add(slots[0].fd, EPOLLIN, slot_cb, NULL);
	if (bad != NULL || rte_errno != EEXIST) {
		printf("  fd %d twice: accepted or not EEXIST (%d)\n", slots[0].fd,
		       rte_errno);
		goto out;
	}
	for (i = 1; i < NB_FDS; i += 2)
		efd_signal(slots[i].fd);
	if (!poll_until(odd_slots_ran, 2000)) {
		printf("  %u of %u callbacks in 2 s\n", fd_runs_total, NB_FDS / 2);
		goto out;
	}
	/* Passes with nothing ready run nothing more. */
	for (i = 0; i < 5; i++)
		rte_ibmad_poll();
	for (i = 0; i < NB_FDS; i++) {
		struct fd_slot *s = &slots[i];

		if (s->runs != (i & 1)) {
			printf("  slot %u (fd %d): %u runs, want %u\n", i, s->fd,
			       s->runs, i & 1);
			goto out;
		}
		if (s->runs == 1 && (s->seen_fd != s->fd || !(s->seen_events & EPOLLIN))) {
			printf("  slot %u: called with fd %d events 0x%x, want fd %d EPOLLIN\n",
			       i, s->seen_fd, s->seen_events, s->fd);
			goto out;
		}
	}
	/* EPOLLOUT of an eventfd is always ready: events_set takes effect. */
	if (rte_ibmad_ctrl_fd_events_set(slots[0].reg, EPOLLOUT) != 0)
		goto out;
	rte_ibmad_poll();
	if (slots[0].runs != 1 || !(slots[0].seen_events & EPOLLOUT)) {
		printf("  EPOLLOUT: %u runs, events 0x%x\n", slots[0].runs,
		       slots[0].seen_events);
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	for (i = 0; i < NB_FDS; i++) {
		rte_ibmad_ctrl_fd_del(slots[i].reg);
		if (slots[i].fd >= 0)
			close(slots[i].fd);
	}
	return ret;
}

/* --- timers --- */

static struct rte_ibmad_ctrl_timer *timers[NB_TIMERS];
static uint64_t timer_deadline[NB_TIMERS];
static unsigned int fired[NB_TIMERS * 2];
static uint64_t fired_at[NB_TIMERS * 2];
static unsigned int nb_fired;

static void
timer_cb(struct rte_ibmad_ctrl_timer *t, void *arg)
{
	RTE_SET_USED(t);
	if (nb_fired < RTE_DIM(fired)) {
		fired[nb_fired] = (unsigned int)(uintptr_t)arg;
		fired_at[nb_fired] = rte_ibmad_ctrl_now_ms();
	}
	nb_fired++;
}

static int rearm_left;

static void
rearm_cb(struct rte_ibmad_ctrl_timer *t, void *arg)
{
	RTE_SET_USED(arg);
	nb_fired++;
	if (--rearm_left > 0)
		rte_ibmad_ctrl_timer_arm(t, rte_ibmad_ctrl_now_ms() + 2);
}

static bool
rearm_done(void)
{
	return rearm_left == 0;
}

static bool
one_fired(void)
{
	return nb_fired >= 1;
}

static int
test_timer_order(void)
{
	struct rte_ibmad_ctrl_timer *later = NULL, *self = NULL;
	uint64_t now = rte_ibmad_ctrl_now_ms(), later_deadline;
	unsigned int i, j, perm[NB_TIMERS];
	int ret = TEST_FAILED;

	nb_fired = 0;
	memset(timers, 0, sizeof(timers));
	/* A shuffled order of arming; pairs share a deadline (i / 2). */
	for (i = 0; i < NB_TIMERS; i++)
		perm[i] = i;
	srand(1234);
	for (i = NB_TIMERS - 1; i > 0; i--) {
		unsigned int k = (unsigned int)rand() % (i + 1), x = perm[i];

		perm[i] = perm[k];
		perm[k] = x;
	}
	for (i = 0; i < NB_TIMERS; i++) {
		timers[i] = rte_ibmad_ctrl_timer_create(timer_cb, (void *)(uintptr_t)i);
		if (timers[i] == NULL)
			goto out;
	}
	/* All past: one pass fires them all, in deadline order. */
	for (j = 0; j < NB_TIMERS; j++) {
		i = perm[j];
		timer_deadline[i] = now - 1000 + i / 2;
		if (rte_ibmad_ctrl_timer_arm(timers[i], timer_deadline[i]) != 0)
			goto out;
	}
	/* Re-arming replaces the deadline: 0 goes from first to last. */
	rte_ibmad_ctrl_timer_arm(timers[0], now - 1);
	timer_deadline[0] = now - 1;
	/* Disarmed: never fires. */
	rte_ibmad_ctrl_timer_disarm(timers[1]);
	rte_ibmad_poll();
	if (nb_fired != NB_TIMERS - 1) {
		printf("  %u timers fired in one pass, want %u\n", nb_fired,
		       NB_TIMERS - 1);
		goto out;
	}
	for (j = 1; j < nb_fired; j++) {
		unsigned int a = fired[j - 1], b = fired[j];
		uint64_t da = timer_deadline[a], db = timer_deadline[b];

		if (da > db) {
			printf("  timer %u (deadline %" PRIu64 ") fired before timer %u (%" PRIu64 ")\n",
			       a, da, b, db);
			goto out;
		}
		/* Equal deadlines: the one armed first fires first. */
		if (da == db) {
			unsigned int pa = 0, pb = 0, k;

			for (k = 0; k < NB_TIMERS; k++) {
				if (perm[k] == a)
					pa = k;
				if (perm[k] == b)
					pb = k;
			}
			if (pa > pb) {
				printf("  timers %u and %u (both %" PRIu64 "): armed %u-th and %u-th, fired in the other order\n",
				       a, b, da, pa, pb);
				goto out;
			}
		}
	}
	if (fired[nb_fired - 1] != 0) {
		printf("  re-armed timer 0 fired at %u-th place, not last\n", nb_fired);
		goto out;
	}
	for (j = 0; j < nb_fired; j++)
		if (fired[j] == 1) {
			printf("  disarmed timer 1 fired\n");
			goto out;
		}

	/* A future deadline: not before it. */
	nb_fired = 0;
	later = rte_ibmad_ctrl_timer_create(timer_cb, (void *)(uintptr_t)7);
	later_deadline = rte_ibmad_ctrl_now_ms() + 30;
	if (later == NULL || rte_ibmad_ctrl_timer_arm(later, later_deadline) != 0)
		goto out;
	rte_ibmad_poll();
	if (nb_fired != 0) {
		printf("  timer due in 30 ms fired at once\n");
		goto out;
	}
	if (!poll_until(one_fired, 1000) || fired_at[0] < later_deadline) {
		printf("  timer due at %" PRIu64 ": fired %u times, at %" PRIu64 "\n",
		       later_deadline, nb_fired, fired_at[0]);
		goto out;
	}

	/* Re-armed from its own callback, three runs in all. */
	nb_fired = 0;
	rearm_left = 3;
	self = rte_ibmad_ctrl_timer_create(rearm_cb, NULL);
	if (self == NULL || rte_ibmad_ctrl_timer_arm(self, rte_ibmad_ctrl_now_ms()) != 0)
		goto out;
	if (!poll_until(rearm_done, 1000) || nb_fired != 3) {
		printf("  self re-arming timer: %u runs, want 3\n", nb_fired);
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	for (i = 0; i < NB_TIMERS; i++)
		rte_ibmad_ctrl_timer_free(timers[i]);
	rte_ibmad_ctrl_timer_free(later);
	rte_ibmad_ctrl_timer_free(self);
	return ret;
}

/* --- removal inside a callback --- */

struct pair {
	int efd[2];
	struct rte_ibmad_ctrl_fd *reg[2];
	struct rte_ibmad_ctrl_timer *tm[2];
	unsigned int runs;
};
static struct pair pr;

/* Whichever runs first removes its peer and itself. */
static void
pair_fd_cb(int fd, uint32_t events, void *arg)
{
	unsigned int me = (unsigned int)(uintptr_t)arg;

	RTE_SET_USED(events);
	pr.runs++;
	efd_drain(fd);
	rte_ibmad_ctrl_fd_del(pr.reg[1 - me]);
	pr.reg[1 - me] = NULL;
	rte_ibmad_ctrl_fd_del(pr.reg[me]);
	pr.reg[me] = NULL;
}

static void
pair_timer_cb(struct rte_ibmad_ctrl_timer *t, void *arg)
{
	unsigned int me = (unsigned int)(uintptr_t)arg;

	pr.runs++;
	rte_ibmad_ctrl_timer_free(pr.tm[1 - me]);
	pr.tm[1 - me] = NULL;
	rte_ibmad_ctrl_timer_free(t);
	pr.tm[me] = NULL;
}

static int
test_remove_in_callback(void)
{
	uint64_t now = rte_ibmad_ctrl_now_ms();
	int ret = TEST_FAILED;
	unsigned int i;

	memset(&pr, 0, sizeof(pr));
	pr.efd[0] = pr.efd[1] = -1;
	for (i = 0; i < 2; i++) {
		pr.efd[i] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (pr.efd[i] < 0)
			goto out;
		pr.reg[i] = rte_ibmad_ctrl_fd_add(pr.efd[i], EPOLLIN, pair_fd_cb,
						  (void *)(uintptr_t)i);
		if (pr.reg[i] == NULL)
			goto out;
	}
	/* Both ready before the pass: its epoll_wait() reports both. */
	efd_signal(pr.efd[0]);
	efd_signal(pr.efd[1]);
	rte_ibmad_poll();
	rte_ibmad_poll();
	if (pr.runs != 1) {
		printf("  fds: %u callbacks ran, want 1 (the peer was removed)\n",
		       pr.runs);
		goto out;
	}
	/* Both due in the same pass. */
	pr.runs = 0;
	for (i = 0; i < 2; i++) {
		pr.tm[i] = rte_ibmad_ctrl_timer_create(pair_timer_cb,
						       (void *)(uintptr_t)i);
		if (pr.tm[i] == NULL ||
		    rte_ibmad_ctrl_timer_arm(pr.tm[i], now - 10) != 0)
			goto out;
	}
	rte_ibmad_poll();
	rte_ibmad_poll();
	if (pr.runs != 1) {
		printf("  timers: %u callbacks ran, want 1 (the peer was freed)\n",
		       pr.runs);
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	for (i = 0; i < 2; i++) {
		rte_ibmad_ctrl_fd_del(pr.reg[i]);
		rte_ibmad_ctrl_timer_free(pr.tm[i]);
		if (pr.efd[i] >= 0)
			close(pr.efd[i]);
	}
	return ret;
}

/* --- removal from another thread --- */

static atomic_int slow_in;       /* the slow callback is running */
static atomic_uint slow_runs;

static void
slow_work(void)
{
	atomic_store(&slow_in, 1);
	sleep_ms(200);
	atomic_fetch_add(&slow_runs, 1);
	atomic_store(&slow_in, 0);
}

static void
slow_fd_cb(int fd, uint32_t events, void *arg)
{
	RTE_SET_USED(events);
	RTE_SET_USED(arg);
	efd_drain(fd);
	slow_work();
}

static void
slow_timer_cb(struct rte_ibmad_ctrl_timer *t, void *arg)
{
	RTE_SET_USED(t);
	RTE_SET_USED(arg);
	slow_work();
}

/* Wait for the poller to be inside the slow callback. */
static bool
wait_slow_in(void)
{
	unsigned int i;

	for (i = 0; i < 2000 && !atomic_load(&slow_in); i++)
		sleep_ms(1);
	return atomic_load(&slow_in);
}

static int
test_remove_other_thread(void)
{
	struct rte_ibmad_ctrl_timer *tm = NULL;
	struct rte_ibmad_ctrl_fd *reg = NULL;
	int efd, ret = TEST_FAILED;
	bool poller = false;

	atomic_store(&slow_in, 0);
	atomic_store(&slow_runs, 0);
	efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (efd < 0)
		return TEST_FAILED;
	reg = rte_ibmad_ctrl_fd_add(efd, EPOLLIN, slow_fd_cb, NULL);
	if (reg == NULL || poller_start() != 0)
		goto out;
	poller = true;
	efd_signal(efd);
	if (!wait_slow_in()) {
		printf("  the fd's callback never ran\n");
		goto out;
	}
	rte_ibmad_ctrl_fd_del(reg);
	reg = NULL;
	if (atomic_load(&slow_in) || atomic_load(&slow_runs) != 1) {
		printf("  rte_ibmad_ctrl_fd_del() returned while the callback ran\n");
		goto out;
	}
	efd_signal(efd);
	sleep_ms(50);
	if (atomic_load(&slow_runs) != 1) {
		printf("  callback ran after rte_ibmad_ctrl_fd_del()\n");
		goto out;
	}

	tm = rte_ibmad_ctrl_timer_create(slow_timer_cb, NULL);
	if (tm == NULL || rte_ibmad_ctrl_timer_arm(tm, rte_ibmad_ctrl_now_ms()) != 0)
		goto out;
	if (!wait_slow_in()) {
		printf("  the timer's callback never ran\n");
		goto out;
	}
	rte_ibmad_ctrl_timer_free(tm);
	tm = NULL;
	if (atomic_load(&slow_in) || atomic_load(&slow_runs) != 2) {
		printf("  rte_ibmad_ctrl_timer_free() returned while the callback ran\n");
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	if (poller)
		poller_join();
	rte_ibmad_ctrl_fd_del(reg);
	rte_ibmad_ctrl_timer_free(tm);
	close(efd);
	return ret;
}

/* --- calls from another thread --- */

static pthread_t call_thread[NB_CALLS];
static unsigned int call_order[NB_CALLS];
static atomic_uint nb_calls;

static void
call_fn(void *arg)
{
	unsigned int n = atomic_load(&nb_calls);

	call_thread[n] = pthread_self();
	call_order[n] = (unsigned int)(uintptr_t)arg;
	atomic_store(&nb_calls, n + 1);
}

static int
test_call_cross_thread(void)
{
	unsigned int i;
	int ret = TEST_FAILED;

	atomic_store(&nb_calls, 0);
	if (rte_ibmad_ctrl_call(NULL, NULL) == 0 || rte_errno != EINVAL) {
		printf("  a NULL function was accepted\n");
		return TEST_FAILED;
	}
	if (poller_start() != 0)
		return TEST_FAILED;
	for (i = 0; i < NB_CALLS; i++)
		if (rte_ibmad_ctrl_call(call_fn, (void *)(uintptr_t)i) != 0)
			goto out;
	for (i = 0; i < 2000 && atomic_load(&nb_calls) < NB_CALLS; i++)
		sleep_ms(1);
	if (atomic_load(&nb_calls) != NB_CALLS) {
		printf("  %u of %u calls ran in 2 s\n", atomic_load(&nb_calls), NB_CALLS);
		goto out;
	}
	for (i = 0; i < NB_CALLS; i++) {
		if (!pthread_equal(call_thread[i], poller_tid)) {
			printf("  call %u ran on another thread than the passes'\n", i);
			goto out;
		}
		if (call_order[i] != i) {
			printf("  %u-th call to run was call %u\n", i, call_order[i]);
			goto out;
		}
	}
	ret = TEST_SUCCESS;
out:
	poller_join();
	return ret;
}

static struct unit_test_suite suite = {
	.suite_name = "ibmad_ctrl",
	.unit_test_cases = {
		TEST_CASE(test_fd_many),
		TEST_CASE(test_timer_order),
		TEST_CASE(test_remove_in_callback),
		TEST_CASE(test_remove_other_thread),
		TEST_CASE(test_call_cross_thread),
		TEST_CASES_END(),
	},
};

int
main(void)
{
	return unit_test_suite_runner(&suite);
}
