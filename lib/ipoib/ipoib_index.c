/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The lock-free hash index, writer side (ipoib_index.h describes it), and
 * the memory of indexes and tables.
 */

#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>

#include <rte_random.h>

#include "ipoib_index.h"

#ifdef IPOIB_TEST_HOOKS
struct ipoib_mem_hook ipoib_mem_hook;

static void *
mem_hook_count(void *p)
{
	if (p != NULL) {
		__atomic_fetch_add(&ipoib_mem_hook.live, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&ipoib_mem_hook.live_bytes, (int64_t)malloc_usable_size(p),
				   __ATOMIC_RELAXED);
	}
	return p;
}

static bool
mem_hook_fails(void)
{
	uint64_t n = __atomic_add_fetch(&ipoib_mem_hook.nb_alloc, 1, __ATOMIC_RELAXED);

	return n == __atomic_load_n(&ipoib_mem_hook.fail_at, __ATOMIC_RELAXED);
}

void *
ipoib_mem_aligned(size_t align, size_t size)
{
	return mem_hook_fails() ? NULL : mem_hook_count(aligned_alloc(align, size));
}

void *
ipoib_mem_zalloc(size_t size)
{
	return mem_hook_fails() ? NULL : mem_hook_count(calloc(1, size));
}

void
ipoib_mem_free(void *p)
{
	if (p == NULL)
		return;
	__atomic_fetch_sub(&ipoib_mem_hook.live, 1, __ATOMIC_RELAXED);
	__atomic_fetch_sub(&ipoib_mem_hook.live_bytes, (int64_t)malloc_usable_size(p),
			   __ATOMIC_RELAXED);
	free(p);
}
#endif

void *
ipoib_index_mem_alloc(size_t size)
{
	void *p;

	if (size < IPOIB_HUGE_SZ)
		return ipoib_mem_aligned(RTE_CACHE_LINE_SIZE, size);
	size = RTE_ALIGN_CEIL(size, IPOIB_HUGE_SZ);
	p = ipoib_mem_aligned(IPOIB_HUGE_SZ, size);
#ifdef MADV_HUGEPAGE
	if (p != NULL)
		(void)madvise(p, size, MADV_HUGEPAGE);
#endif
	return p;
}

/*
 * The hash's key material, random per index (getrandom(2); rte_rand()
 * where the kernel has no entropy to give yet): a peer cannot know which
 * keys collide. Multipliers odd, as the hash family asks.
 */
static void
htab_seed(struct ipoib_htab *t)
{
	uint64_t r[IPOIB_HASH_WORDS + 1];
	unsigned int i;

	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r))
		for (i = 0; i < RTE_DIM(r); i++)
			r[i] = rte_rand();
	for (i = 0; i < IPOIB_HASH_WORDS; i++)
		t->mul[i] = r[i] | 1;
	t->add = r[IPOIB_HASH_WORDS];
}

/*
 * Buckets for @p max entries: as many (a quarter of the slots used at
 * most; at half, as before, one window per key refused about one insert
 * in 5,000 and two windows still one in 160,000 once entries came and
 * went, where at a quarter neither refused one in 1.5 million).
 */
int
ipoib_htab_init(struct ipoib_htab *t, uint32_t max)
{
	uint32_t nb = rte_align32pow2(RTE_MAX(max, 1u));

	t->b = ipoib_index_mem_alloc((size_t)nb * sizeof(*t->b));
	if (t->b == NULL)
		return -ENOMEM;
	memset(t->b, 0, (size_t)nb * sizeof(*t->b));
	t->mask = nb - 1;
	t->count = 0;
	t->nb_second = 0;
	htab_seed(t);
	return 0;
}

/* A free slot of the window from bucket @p home (its bucket in @p bp), or -1. */
static int
htab_free_slot(struct ipoib_htab *t, uint32_t home, struct ipoib_hbucket **bp)
{
	unsigned int w, s;

	for (w = 0; w < IPOIB_HTAB_WINDOW; w++) {
		struct ipoib_hbucket *b = &t->b[(home + w) & t->mask];

		for (s = 0; s < IPOIB_HTAB_SLOTS; s++) {
			if (b->ent[s] == NULL) {
				*bp = b;
				return (int)s;
			}
		}
	}
	return -1;
}

int
ipoib_htab_insert(struct ipoib_htab *t, uint32_t sig, void *ent)
{
	struct ipoib_hbucket *b;
	int s = htab_free_slot(t, sig, &b);

	if (s < 0) {
		/*
		 * The home window is full, so that a free slot of the second
		 * is in none of its buckets: ipoib_htab_remove() finds an entry in
		 * the home window or knows it was a second window's. Counted
		 * first: a reader that sees the entry sees the count (the
		 * entry's release store).
		 */
		s = htab_free_slot(t, ipoib_htab_home2(sig), &b);
		if (s < 0)
			return -ENOSPC;
		__atomic_store_n(&t->nb_second, t->nb_second + 1, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&b->sig[s], sig, __ATOMIC_RELAXED);
	/* Orders the signature and the entry's key before the entry. */
	__atomic_store_n(&b->ent[s], ent, __ATOMIC_RELEASE);
	t->count++;
	return 0;
}

/* Clear @p ent from the window from bucket @p home; false if not there. */
static bool
htab_clear(struct ipoib_htab *t, uint32_t home, const void *ent)
{
	unsigned int w, s;

	for (w = 0; w < IPOIB_HTAB_WINDOW; w++) {
		struct ipoib_hbucket *b = &t->b[(home + w) & t->mask];

		for (s = 0; s < IPOIB_HTAB_SLOTS; s++) {
			if (b->ent[s] == ent) {
				__atomic_store_n(&b->ent[s], NULL, __ATOMIC_RELEASE);
				t->count--;
				return true;
			}
		}
	}
	return false;
}

void
ipoib_htab_remove(struct ipoib_htab *t, uint32_t sig, const void *ent)
{
	if (!htab_clear(t, sig, ent) && htab_clear(t, ipoib_htab_home2(sig), ent))
		__atomic_store_n(&t->nb_second, t->nb_second - 1, __ATOMIC_RELAXED);
}

void
ipoib_htab_fini(struct ipoib_htab *t)
{
	ipoib_mem_free(t->b);
	t->b = NULL;
}
