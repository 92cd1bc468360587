/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _IPOIB_INDEX_H_
#define _IPOIB_INDEX_H_

/*
 * Private to librte_ipoib: the lock-free hash index, a component of its
 * own (ipoib_index.c): keys of up to IPOIB_HASH_WORDS 32-bit words to
 * entry pointers, one writer at a time (the caller's lock), readers
 * without locks whose entries the caller keeps readable until their
 * quiescent state (rte_rcu_qsbr). It knows nothing of IPoIB: an entry is
 * a pointer, its key is the caller's, matched by the caller's function.
 *
 * Use: ipoib_htab_init() for a number of entries; ipoib_htab_sig() of the
 * key; ipoib_htab_insert() and ipoib_htab_remove() with that signature
 * (writer); ipoib_htab_lookup() (readers); ipoib_htab_fini().
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/*
 * The lock-free hash index: buckets of four slots, their four signatures
 * first so that one 16-byte compare finds the candidates (as rte_hash
 * compares a bucket's signatures), then their entries, all on one cache
 * line; a key is found in the IPOIB_HTAB_WINDOW buckets from its home
 * or, when those were full as it was inserted, in those from its second
 * home (ipoib_htab_home2(): two choices, and the index at most a quarter
 * full, ipoib_htab_init(), so that a key is not refused for want of a free
 * slot near its home); readers look in the second window only while
 * some entry is there (nb_second). The signature is a keyed hash
 * (ipoib_htab_sig()).
 * Writer (under tbl->lock): a new slot gets its signature, then its
 * entry with a release store; a removed slot gets a NULL entry with a
 * release store. Reader: signatures, then entry (acquire), then the full
 * key in the entry, which stays readable until the reader's quiescent
 * state. The signature is only a filter: a stale one can only make a
 * lookup of a key that is being inserted or removed in that same slot
 * miss.
 */
#define IPOIB_HTAB_SLOTS 4
#define IPOIB_HTAB_WINDOW 4

struct ipoib_hbucket {
	uint32_t sig[IPOIB_HTAB_SLOTS];
	void *ent[IPOIB_HTAB_SLOTS];
} __rte_cache_aligned;

/* Bit s set: slot s of @p b has signature @p sig. */
static __rte_always_inline unsigned int
ipoib_hbucket_match(const struct ipoib_hbucket *b, uint32_t sig)
{
#if defined(__SSE2__)
	__m128i v = _mm_load_si128((const __m128i *)(const void *)b->sig);

	return (unsigned int)_mm_movemask_ps(_mm_castsi128_ps(
		_mm_cmpeq_epi32(v, _mm_set1_epi32((int)sig))));
#else
	unsigned int s, m = 0;

	for (s = 0; s < IPOIB_HTAB_SLOTS; s++)
		m |= (unsigned int)(__atomic_load_n(&b->sig[s], __ATOMIC_RELAXED) == sig) << s;
	return m;
#endif
}

/* 32-bit pieces of the longest key a hash index takes (a path's 20 bytes). */
#define IPOIB_HASH_WORDS 5

struct ipoib_htab {
	uint32_t mask;                       /**< Buckets - 1. */
	uint32_t count;                      /**< Entries (control side). */
	uint32_t nb_second;                  /**< Entries in their second window (atomic). */
	struct ipoib_hbucket *b;
	uint64_t mul[IPOIB_HASH_WORDS];      /**< The hash's random multipliers... */
	uint64_t add;                        /**< ...and addend (ipoib_htab_sig()). */
};

/*
 * The signature of a key given as @p n 32-bit pieces @p x: Dietzfelbinger's
 * multiply-add-shift hash (the high half of a + sum of m[i] * x[i] mod
 * 2^64, with random 64-bit a and m[i] per index: strongly universal), so
 * that keys a peer chooses (an ARP sender's hardware address, an IP
 * address) cannot be made to share a window. A CRC, even seeded, would
 * let them: it is linear, so that two keys whose difference is in its
 * kernel collide whatever the seed.
 */
static __rte_always_inline uint32_t
ipoib_htab_sig(const struct ipoib_htab *t, const uint32_t *x, unsigned int n)
{
	uint64_t h = t->add;
	unsigned int i;

	for (i = 0; i < n; i++)
		h += t->mul[i] * x[i];
	/*
	 * Then MurmurHash3's 64-bit finaliser (a bijection): the sum alone
	 * is only pairwise independent, and keys in arithmetic progression
	 * (consecutive QPNs behind a few LIDs) stay one in the bucket
	 * index, which with some multipliers piled a fifth of them into
	 * full buckets and refused keys.
	 */
	h ^= h >> 33;
	h *= UINT64_C(0xff51afd7ed558ccd);
	h ^= h >> 33;
	h *= UINT64_C(0xc4ceb9fe1a85ec53);
	h ^= h >> 33;
	return (uint32_t)(h >> 32);
}

/* A key's second home, from its signature (a bijection, then the halves swapped). */
static __rte_always_inline uint32_t
ipoib_htab_home2(uint32_t sig)
{
	uint32_t v = sig * 0x9e3779b1u;

	return v << 16 | v >> 16;
}

/* The entry for @p key in the window from bucket @p home, or NULL. */
static __rte_always_inline void *
ipoib_htab_window(const struct ipoib_htab *t, uint32_t home, const void *key, uint32_t sig,
		  bool (*match)(const void *ent, const void *key))
{
	unsigned int w;

	for (w = 0; w < IPOIB_HTAB_WINDOW; w++) {
		const struct ipoib_hbucket *b = &t->b[(home + w) & t->mask];
		unsigned int m = ipoib_hbucket_match(b, sig);

		while (m != 0) {
			void *e = __atomic_load_n(&b->ent[rte_bsf32(m)], __ATOMIC_ACQUIRE);

			if (e != NULL && match(e, key))
				return e;
			m &= m - 1;
		}
	}
	return NULL;
}

/*
 * Lock-free lookup; @p match is a constant the compiler inlines. The
 * second window only while an entry is there: the writer counts it
 * before it stores the entry (release), so that a reader that sees no
 * count could not have seen the entry either.
 */
static __rte_always_inline void *
ipoib_htab_lookup(const struct ipoib_htab *t, const void *key, uint32_t sig,
		  bool (*match)(const void *ent, const void *key))
{
	void *e = ipoib_htab_window(t, sig, key, sig, match);

	if (likely(e != NULL) || likely(__atomic_load_n(&t->nb_second, __ATOMIC_RELAXED) == 0))
		return e;
	return ipoib_htab_window(t, ipoib_htab_home2(sig), key, sig, match);
}

/** Buckets for @p max entries (at most a quarter full); 0 or -ENOMEM. */
int ipoib_htab_init(struct ipoib_htab *t, uint32_t max);

/** Free the buckets; an index never initialised (zeroed) too. */
void ipoib_htab_fini(struct ipoib_htab *t);

/** Insert @p ent of signature @p sig; 0, or -ENOSPC when both windows are full. */
int ipoib_htab_insert(struct ipoib_htab *t, uint32_t sig, void *ent);

/** Remove @p ent of signature @p sig (no-op when absent). */
void ipoib_htab_remove(struct ipoib_htab *t, uint32_t sig, const void *ent);

/*
 * Bucket arrays of 2 MiB and more are asked to live in transparent huge
 * pages (madvise(2) MADV_HUGEPAGE; advice only, ignored where THP is
 * off): a burst's lookups land in random buckets, and with 4 KiB pages
 * each would also miss the TLB (doc/guides/prog_guide/ipoib_lib.rst,
 * Performance).
 */
#define IPOIB_HUGE_SZ (UINT64_C(2) << 20)

/*
 * The library's heap: every allocation and free of its tables, indexes
 * and contexts goes through these. A test build (-DIPOIB_TEST_HOOKS,
 * ipoib_internal_dep in test/) makes any one allocation fail on demand
 * and counts what is live (struct ipoib_mem_hook), so that a test checks
 * that each failure is reported and nothing is freed twice or leaked.
 */
#ifdef IPOIB_TEST_HOOKS
struct ipoib_mem_hook {
	uint64_t fail_at;     /**< The allocation (counted in nb_alloc) that fails; 0: none. */
	uint64_t nb_alloc;    /**< Allocations asked for. */
	int64_t live;         /**< Allocations given and not freed yet. */
	int64_t live_bytes;   /**< Their usable bytes (malloc_usable_size(3)). */
};
extern struct ipoib_mem_hook ipoib_mem_hook;

void *ipoib_mem_aligned(size_t align, size_t size);
void *ipoib_mem_zalloc(size_t size);
void ipoib_mem_free(void *p);
#else
/** @p size bytes aligned to @p align (aligned_alloc(3)), or NULL. */
static inline void *
ipoib_mem_aligned(size_t align, size_t size)
{
	return aligned_alloc(align, size);
}

/** @p size zeroed bytes, or NULL. */
static inline void *
ipoib_mem_zalloc(size_t size)
{
	return calloc(1, size);
}

/** Free what the two above (or ipoib_index_mem_alloc()) gave; NULL is a no-op. */
static inline void
ipoib_mem_free(void *p)
{
	free(p);
}
#endif

/** The alignment of an allocation that needs no more than malloc's. */
#define IPOIB_MEM_ALIGN_MIN 16

/**
 * Memory for an index or a table of @p size bytes, cache-line aligned;
 * from 2 MiB up, aligned to and advised into transparent huge pages.
 * Freed with ipoib_mem_free().
 */
void *ipoib_index_mem_alloc(size_t size);

#endif /* _IPOIB_INDEX_H_ */
