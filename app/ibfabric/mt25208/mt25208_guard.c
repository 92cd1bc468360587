/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>

#include "fab_log.h"
#include "fab_node.h"
#include "mt25208.h"
#include "mt25208_guard.h"

struct guard {
	struct guard *prev;
	struct mt25208 *dev;
	sigjmp_buf env;
	volatile int win;		/* window the fault hit */
	volatile uintptr_t addr;	/* faulting host address */
};

static __thread struct guard *guard_cur;
static bool guard_installed;

/* The window of @p dev holding host address @p a, or -1 (async-signal-safe). */
static int
guard_win(const struct mt25208 *dev, uintptr_t a)
{
	unsigned int i;

	for (i = 0; i < dev->nwins; i++) {
		uintptr_t h = (uintptr_t)dev->wins[i].host;

		if (a >= h && a - h < dev->wins[i].len)
			return (int)i;
	}
	return -1;
}

static void
guard_handler(int sig, siginfo_t *si, void *uc)
{
	struct guard *g = guard_cur;
	uintptr_t a = (uintptr_t)si->si_addr;
	int w;

	(void)uc;
	if (g != NULL && (w = guard_win(g->dev, a)) >= 0) {
		g->win = w;
		g->addr = a;
		/* The mask was not saved (hot path): SA_NODEFER left SIGBUS unblocked. */
		siglongjmp(g->env, 1);
	}
	/* Not host memory: a bug of ours. The default action, on return. */
	signal(sig, SIG_DFL);
}

static void
guard_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = guard_handler;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, NULL) == 0)
		guard_installed = true;
}

/* The host shrank the file behind window @p w: take the window away. */
static void
guard_revoke(struct mt25208 *dev, int w, uintptr_t addr)
{
	struct mt25208_dma_win *win = &dev->wins[w];
	uint64_t iova = win->iova, len = win->len;
	uint64_t bus = iova + (addr - (uintptr_t)win->host);

	dev->stats.dma_faults++;
	FAB_ERR("%s: DMA fault: bus error at bus address 0x%" PRIx64 " (window 0x%" PRIx64
		"+0x%" PRIx64 "): the host truncated the memory it registered; window revoked",
		dev->node->name, bus, iova, len);
	/*
	 * Anonymous pages in place first, so nothing still pointing into the
	 * window can fault again, then the window goes as an unmap would.
	 */
	(void)mmap(win->host, len, PROT_READ | PROT_WRITE,
		   MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	(void)mt25208_dma_unmap(dev, iova, len);
}

int
mt25208_guard(struct mt25208 *dev, void (*fn)(struct mt25208 *dev, void *arg), void *arg)
{
	struct guard g;

	if (!guard_installed)
		guard_install();
	g.prev = guard_cur;
	g.dev = dev;
	g.win = -1;
	g.addr = 0;
	if (sigsetjmp(g.env, 0) == 0) {
		guard_cur = &g;
		fn(dev, arg);
		guard_cur = g.prev;
		return 0;
	}
	guard_cur = g.prev;
	guard_revoke(dev, g.win, g.addr);
	return -EFAULT;
}
