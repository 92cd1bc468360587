/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The neighbour and path tables: control-side writers under one lock,
 * lock-free readers (ipoib_private.h describes the index), reclamation
 * after a QSBR grace period (rte_rcu_qsbr).
 */

#include <errno.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_random.h>

#include "ipoib_private.h"
#include "ipoib_dp.h"

#define IPOIB_QUEUE_LEN_DEFAULT 8
#define IPOIB_QUEUE_LEN_MAX 1024


/*
 * Neighbours and bindings: the second cache line a burst reads, after
 * the bucket. They come from one array per kind, sized by max_neigh
 * (bindings: two per neighbour) and advised into huge pages like the
 * buckets, handed back after their grace period; objects beyond the
 * array (bindings replaced faster than grace periods end) come from
 * malloc. With AddressSanitizer everything comes from malloc, so that a
 * read after the grace period is reported (test ipoib_rcu).
 */
#if defined(__SANITIZE_ADDRESS__)
#define IPOIB_POOL_MALLOC_ONLY 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IPOIB_POOL_MALLOC_ONLY 1
#endif
#endif

/*
 * Objects are spaced by their size rounded to their alignment (at least
 * IPOIB_POOL_ALIGN), not to a cache line: a binding (96 bytes) is read by
 * a burst only in its first 32, which never straddle two lines at that
 * spacing, so that the lines the bursts read spread over every set of
 * the caches (at 128 bytes they would all fall in even sets, and crowd
 * them out at 100,000 bindings). Neighbours are cache-aligned types.
 */
#define IPOIB_POOL_ALIGN 32

static int
pool_init(struct ipoib_pool *pool, size_t size, size_t align, uint32_t cap)
{
	memset(pool, 0, sizeof(*pool));
	pool->align = RTE_MAX(align, (size_t)IPOIB_POOL_ALIGN);
	pool->size = RTE_ALIGN_CEIL(size, pool->align);
#ifdef IPOIB_POOL_MALLOC_ONLY
	cap = 0;
#endif
	if (cap == 0)
		return 0;
	/* Not touched here: pages are faulted in as objects are handed out. */
	pool->base = ipoib_index_mem_alloc(pool->size * cap);
	pool->free = ipoib_mem_aligned(IPOIB_MEM_ALIGN_MIN, sizeof(*pool->free) * cap);
	/* On failure, what was had is pool_fini()'s (rte_ipoib_tbl_free()). */
	if (pool->base == NULL || pool->free == NULL)
		return -ENOMEM;
	pool->cap = cap;
	return 0;
}

static void
pool_fini(struct ipoib_pool *pool)
{
	ipoib_mem_free(pool->base);
	ipoib_mem_free(pool->free);
}

/* A zeroed object, or NULL. */
static void *
pool_get(struct ipoib_pool *pool)
{
	void *p;

	if (pool->nb_free != 0)
		p = pool->base + pool->size * pool->free[--pool->nb_free];
	else if (pool->next < pool->cap)
		p = pool->base + pool->size * pool->next++;
	else
		p = ipoib_mem_aligned(pool->align, pool->size);
	if (p != NULL)
		memset(p, 0, pool->size);
	return p;
}

static void
pool_put(struct ipoib_pool *pool, void *p)
{
	uint8_t *o = p;

	if (o == NULL)
		return;
	if (o >= pool->base && o < pool->base + pool->size * pool->cap)
		pool->free[pool->nb_free++] = (uint32_t)((size_t)(o - pool->base) / pool->size);
	else
		ipoib_mem_free(p);
}

/* ---- the front indexes (writer side; ipoib_private.h) ---- */

/* What free slots hold: entries whose key, all ones, no key matches. */
static struct rte_ipoib_neigh neigh_none = {
	.mackey = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
};
static struct ipoib_bind bind_none = {
	.key = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
};

static int
front_init(struct ipoib_front *f, uint32_t max, void *none, enum ipoib_front_kind kind)
{
	/*
	 * Four times the entries, in sets of four: a set holds about one
	 * entry, so that with random keys about 0.4 % find their set full
	 * (and wait, reached only through the hash index), where pairs at
	 * twice the entries left 7-10 % waiting.
	 */
	uint32_t nb = rte_align32pow2(RTE_MAX(4 * max, 64u)), i;
	/* A set's copies on two whole lines (ipoib_fcopy_way()). */
	size_t set_sz = IPOIB_FRONT_WAYS * sizeof(*f->copy), copy_sz = (size_t)nb * sizeof(*f->copy);

	f->slot = ipoib_index_mem_alloc((size_t)nb * sizeof(*f->slot));
	f->copy = copy_sz < IPOIB_HUGE_SZ ?
		ipoib_mem_aligned(RTE_MAX(set_sz, (size_t)RTE_CACHE_LINE_SIZE), copy_sz) :
		ipoib_index_mem_alloc(copy_sz);
	f->waiting = ipoib_mem_aligned(IPOIB_MEM_ALIGN_MIN,
				       (size_t)nb / IPOIB_FRONT_WAYS * sizeof(*f->waiting));
	if (f->slot == NULL || f->copy == NULL || f->waiting == NULL)
		return -ENOMEM;
	for (i = 0; i < nb; i++) {
		f->slot[i] = none;
		/* A free slot's copy: a key no key matches, as none's. */
		memset(&f->copy[i], 0, sizeof(f->copy[i]));
		f->copy[i].key = UINT64_MAX;
	}
	for (i = 0; i < nb / IPOIB_FRONT_WAYS; i++)
		TAILQ_INIT(&f->waiting[i]);
	f->none = none;
	f->kind = kind;
	f->mask = nb - 1;
	f->nb_waiting = 0;
	return 0;
}

static void
front_fini(struct ipoib_front *f)
{
	ipoib_mem_free(f->slot);
	ipoib_mem_free(f->copy);
	ipoib_mem_free(f->waiting);
}

/*
 * The writer's side of a copy's sequence count (struct ipoib_fcopy):
 * odd before the first field changes (the release fence orders the odd
 * count before the field stores, so that a reader that sees a new field
 * sees the count changed), even with a release store after the last.
 * Control side only, under tbl->lock.
 */
static void
fcopy_begin(struct ipoib_fcopy *c)
{
	__atomic_store_n(&c->seq, c->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static void
fcopy_end(struct ipoib_fcopy *c)
{
	__atomic_store_n(&c->seq, c->seq + 1, __ATOMIC_RELEASE);
}

/* Raise @p n's last_used to @p t (data lcores may store it meanwhile). */
static void
neigh_stamp_max(struct rte_ipoib_neigh *n, uint64_t t)
{
	uint64_t cur = __atomic_load_n(&n->last_used, __ATOMIC_RELAXED);

	while (cur < t && !__atomic_compare_exchange_n(&n->last_used, &cur, t, false,
						      __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

/*
 * Slot @p s of @p f gets @p obj (an entry, or f->none): its copy is
 * rewritten, then the slot pointer is stored (release: the entry's key
 * is written before it is seen). A neighbour leaving a MAC slot takes the
 * stamp the bursts wrote there; one arriving brings its own.
 */
static void
front_slot_set(struct ipoib_front *f, uint32_t s, void *obj)
{
	struct ipoib_fcopy *c = &f->copy[s];
	uint64_t key = UINT64_MAX, val = 0, stamp = 0;
	uint32_t qpn = 0;

	if (f->kind == IPOIB_FRONT_MAC) {
		struct rte_ipoib_neigh *old = f->slot[s], *n = obj;

		if (old != f->none) {
			__atomic_store_n(&old->slot_stamp, NULL, __ATOMIC_RELAXED);
			neigh_stamp_max(old, __atomic_load_n(&c->stamp, __ATOMIC_RELAXED));
		}
		if (n != f->none) {
			memcpy(&key, n->mackey, 8);
			val = (uintptr_t)n->ah;
			qpn = n->qpn;
			stamp = __atomic_load_n(&n->last_used, __ATOMIC_RELAXED);
		}
	} else if (obj != f->none) {
		const struct ipoib_bind *b = obj;

		memcpy(&key, b->key, 8);
		memcpy(&val, b->mac, 8);
	}
	fcopy_begin(c);
	__atomic_store_n(&c->key, key, __ATOMIC_RELAXED);
	__atomic_store_n(&c->val, val, __ATOMIC_RELAXED);
	__atomic_store_n(&c->qpn, qpn, __ATOMIC_RELAXED);
	__atomic_store_n(&c->stamp, stamp, __ATOMIC_RELAXED);
	fcopy_end(c);
	__atomic_store_n(&f->slot[s], obj, __ATOMIC_RELEASE);
	if (f->kind == IPOIB_FRONT_MAC && obj != f->none)
		__atomic_store_n(&((struct rte_ipoib_neigh *)obj)->slot_stamp, &c->stamp,
				 __ATOMIC_RELAXED);
}

/* Put @p l in a free slot of its set, else on the set's waiting list. */
static void
front_place(struct ipoib_front *f, struct ipoib_front_link *l)
{
	unsigned int k;

	for (k = 0; k < IPOIB_FRONT_WAYS; k++) {
		uint32_t s = l->home ^ k;

		if (f->slot[s] == f->none) {
			l->slot = (int32_t)s;
			front_slot_set(f, s, l->obj);
			return;
		}
	}
	l->slot = -1;
	TAILQ_INSERT_TAIL(&f->waiting[l->home / IPOIB_FRONT_WAYS], l, next);
	f->nb_waiting++;
}

static void
front_add(struct ipoib_front *f, struct ipoib_front_link *l, void *obj, uint32_t home)
{
	l->obj = obj;
	l->home = home;
	front_place(f, l);
}

/* Take @p l out; the first entry waiting for its slot set takes the slot. */
static void
front_del(struct ipoib_front *f, struct ipoib_front_link *l)
{
	struct ipoib_front_list *wl = &f->waiting[l->home / IPOIB_FRONT_WAYS];
	struct ipoib_front_link *w;
	uint32_t s;

	if (l->slot < 0) {
		TAILQ_REMOVE(wl, l, next);
		f->nb_waiting--;
		return;
	}
	s = (uint32_t)l->slot;
	l->slot = -1;
	front_slot_set(f, s, f->none);
	w = TAILQ_FIRST(wl);
	if (w != NULL) {
		TAILQ_REMOVE(wl, w, next);
		f->nb_waiting--;
		front_place(f, w);
	}
}

/*
 * @p n's handle (the mirror of its path's) becomes @p ah, in the entry
 * and in its MAC slot's copy if it has one, before the caller lets the
 * old handle's grace period start.
 */
static void
neigh_set_ah_locked(struct rte_ipoib_tbl *tbl, struct rte_ipoib_neigh *n, struct rte_ib_ah *ah)
{
	struct ipoib_fcopy *c;

	/* Release: whatever the handle's creator wrote is seen with it. */
	__atomic_store_n(&n->ah, ah, __ATOMIC_RELEASE);
	if (!n->mac_indexed || n->front.slot < 0)
		return;
	c = &tbl->mac_front.copy[n->front.slot];
	fcopy_begin(c);
	__atomic_store_n(&c->val, (uintptr_t)ah, __ATOMIC_RELAXED);
	fcopy_end(c);
}

/* ---- deferred free ---- */

static void
obj_free_now(struct rte_ipoib_tbl *tbl, struct ipoib_defer *d)
{
	switch (d->kind) {
	case IPOIB_DEFER_NEIGH:
		pool_put(&tbl->neigh_pool, d->obj);
		break;
	case IPOIB_DEFER_BIND:
		pool_put(&tbl->bind_pool, d->obj);
		break;
	case IPOIB_DEFER_PATH:
		ipoib_mem_free(d->obj);
		break;
	case IPOIB_DEFER_AH:
		if (tbl->conf.ah_free != NULL)
			tbl->conf.ah_free(tbl->conf.ah_free_ctx, d->obj);
		ipoib_mem_free(d);
		break;
	}
	tbl->nb_freed++;
}

/* Called under tbl->lock, after @p obj is unreachable from the index. */
static void
defer(struct rte_ipoib_tbl *tbl, struct ipoib_defer *d, enum ipoib_defer_kind kind,
      void *obj)
{
	d->kind = kind;
	d->obj = obj;
	if (tbl->conf.qsbr == NULL) {
		obj_free_now(tbl, d);
		return;
	}
	d->token = rte_rcu_qsbr_start(tbl->conf.qsbr);
	STAILQ_INSERT_TAIL(&tbl->deferred, d, next);
	tbl->nb_deferred++;
}

static int
defer_ah(struct rte_ipoib_tbl *tbl, struct rte_ib_ah *ah)
{
	struct ipoib_defer *d;

	if (ah == NULL || tbl->conf.ah_free == NULL)
		return 0;
	d = ipoib_mem_zalloc(sizeof(*d));
	if (d == NULL)
		return -ENOMEM;
	defer(tbl, d, IPOIB_DEFER_AH, ah);
	return 0;
}

static unsigned int
reclaim_locked(struct rte_ipoib_tbl *tbl)
{
	struct ipoib_defer *d;

	/* Tokens grow in list order: stop at the first one still in use. */
	while ((d = STAILQ_FIRST(&tbl->deferred)) != NULL) {
		if (rte_rcu_qsbr_check(tbl->conf.qsbr, d->token, false) != 1)
			break;
		STAILQ_REMOVE_HEAD(&tbl->deferred, next);
		tbl->nb_deferred--;
		obj_free_now(tbl, d);
	}
	return tbl->nb_deferred;
}

unsigned int
rte_ipoib_tbl_reclaim(struct rte_ipoib_tbl *tbl)
{
	unsigned int left;

	if (tbl == NULL) {
		rte_errno = EINVAL;
		return 0;
	}
	rte_spinlock_lock(&tbl->lock);
	left = reclaim_locked(tbl);
	rte_spinlock_unlock(&tbl->lock);
	return left;
}

/* ---- table ---- */

struct rte_ipoib_tbl *
rte_ipoib_tbl_create(const struct rte_ipoib_tbl_conf *conf)
{
	struct rte_ipoib_tbl *tbl;
	int rc;

	if (conf == NULL)
		return ipoib_null(EINVAL);
	/* The memory bound of rte_ipoib_table.h (RTE_IPOIB_TBL_MAX_NEIGH). */
	if (conf->max_neigh == 0 || conf->max_neigh > RTE_IPOIB_TBL_MAX_NEIGH) {
		IPOIB_LOG(ERR, "max_neigh=%u: not in 1..%u", conf->max_neigh,
			  RTE_IPOIB_TBL_MAX_NEIGH);
		return ipoib_null(EINVAL);
	}
	if (conf->max_path == 0 || conf->max_path > RTE_IPOIB_TBL_MAX_PATH) {
		IPOIB_LOG(ERR, "max_path=%u: not in 1..%u", conf->max_path,
			  RTE_IPOIB_TBL_MAX_PATH);
		return ipoib_null(EINVAL);
	}
	/* Any count: the queue is an exact-size ring (IPoIB's is 3). */
	if (conf->queue_len > IPOIB_QUEUE_LEN_MAX) {
		IPOIB_LOG(ERR, "queue_len=%u: more than %u",
			  conf->queue_len, IPOIB_QUEUE_LEN_MAX);
		return ipoib_null(EINVAL);
	}
	tbl = ipoib_mem_zalloc(sizeof(*tbl));
	if (tbl == NULL)
		return ipoib_null(ENOMEM);
	tbl->conf = *conf;
	/* a source binding per neighbour, IP ones twice as many (RTE_IPOIB_NEIGH_MAX_IP) */
	tbl->max_ip = 2 * conf->max_neigh;
	if (tbl->conf.queue_len == 0)
		tbl->conf.queue_len = IPOIB_QUEUE_LEN_DEFAULT;
	rte_spinlock_init(&tbl->lock);
	TAILQ_INIT(&tbl->neighs);
	TAILQ_INIT(&tbl->paths);
	STAILQ_INIT(&tbl->deferred);
	rc = pool_init(&tbl->neigh_pool, sizeof(struct rte_ipoib_neigh),
		       alignof(struct rte_ipoib_neigh), conf->max_neigh);
	if (rc == 0)
		rc = pool_init(&tbl->bind_pool, sizeof(struct ipoib_bind),
			       alignof(struct ipoib_bind), 3 * conf->max_neigh);
	if (rc == 0)
		rc = ipoib_htab_init(&tbl->by_hw, conf->max_neigh);
	if (rc == 0)
		rc = ipoib_htab_init(&tbl->by_mac, conf->max_neigh);
	if (rc == 0)
		rc = ipoib_htab_init(&tbl->by_ip, 2 * conf->max_neigh);
	if (rc == 0)
		rc = ipoib_htab_init(&tbl->by_src, conf->max_neigh);
	if (rc == 0)
		rc = ipoib_htab_init(&tbl->by_path, conf->max_path);
	if (rc == 0)
		rc = front_init(&tbl->mac_front, conf->max_neigh, &neigh_none,
					IPOIB_FRONT_MAC);
	if (rc == 0)
		rc = front_init(&tbl->src_front, conf->max_neigh, &bind_none,
					IPOIB_FRONT_SRC);
	if (rc != 0) {
		rte_ipoib_tbl_free(tbl);
		rte_errno = -rc;
		return NULL;
	}
	return tbl;
}

static void
path_flush_queue(struct rte_ipoib_path *path)
{
	struct rte_mbuf *m;

	while (rte_ring_sc_dequeue(path->queue, (void **)&m) == 0)
		rte_pktmbuf_free(m);
}

void
rte_ipoib_tbl_free(struct rte_ipoib_tbl *tbl)
{
	struct rte_ipoib_neigh *n;
	struct rte_ipoib_path *p;
	struct ipoib_defer *d;
	unsigned int i;

	if (tbl == NULL)
		return;
	while ((d = STAILQ_FIRST(&tbl->deferred)) != NULL) {
		STAILQ_REMOVE_HEAD(&tbl->deferred, next);
		obj_free_now(tbl, d);
	}
	while ((n = TAILQ_FIRST(&tbl->neighs)) != NULL) {
		TAILQ_REMOVE(&tbl->neighs, n, all_link);
		for (i = 0; i < RTE_IPOIB_NEIGH_MAX_IP; i++)
			pool_put(&tbl->bind_pool, n->ip[i]);
		pool_put(&tbl->bind_pool, n->src);
		pool_put(&tbl->neigh_pool, n);
	}
	while ((p = TAILQ_FIRST(&tbl->paths)) != NULL) {
		TAILQ_REMOVE(&tbl->paths, p, all_link);
		path_flush_queue(p);
		if (p->ah != NULL && tbl->conf.ah_free != NULL)
			tbl->conf.ah_free(tbl->conf.ah_free_ctx, p->ah);
		ipoib_mem_free(p);
	}
	ipoib_htab_fini(&tbl->by_hw);
	ipoib_htab_fini(&tbl->by_mac);
	ipoib_htab_fini(&tbl->by_ip);
	ipoib_htab_fini(&tbl->by_src);
	ipoib_htab_fini(&tbl->by_path);
	front_fini(&tbl->mac_front);
	front_fini(&tbl->src_front);
	pool_fini(&tbl->neigh_pool);
	pool_fini(&tbl->bind_pool);
	ipoib_mem_free(tbl);
}

int
rte_ipoib_tbl_stats_get(struct rte_ipoib_tbl *tbl, struct rte_ipoib_tbl_stats *st)
{
	if (tbl == NULL || st == NULL)
		return ipoib_err(EINVAL);
	rte_spinlock_lock(&tbl->lock);
	st->nb_neigh = tbl->nb_neigh;
	st->nb_path = tbl->nb_path;
	st->nb_deferred = tbl->nb_deferred;
	st->nb_freed = tbl->nb_freed;
	rte_spinlock_unlock(&tbl->lock);
	return 0;
}

void
rte_ipoib_mac_from_hwaddr(const struct rte_ipoib_hwaddr *hw, struct rte_ether_addr *mac)
{
	uint64_t guid = 0, v;
	unsigned int i;

	if (hw == NULL || mac == NULL) {
		rte_errno = EINVAL;
		return;
	}
	for (i = 8; i < RTE_IB_GID_LEN; i++)
		guid = guid << 8 | hw->gid[i];
	v = (guid ^ ((uint64_t)rte_ipoib_hwaddr_qpn(hw) << 16)) & UINT64_C(0xffffffffff);
	mac->addr_bytes[0] = 0x02;
	for (i = 0; i < 5; i++)
		mac->addr_bytes[1 + i] = (uint8_t)(v >> (32 - 8 * i));
}

/* ---- paths ---- */

static void
path_key(const struct rte_ib_gid *dgid, uint16_t pkey, uint8_t key[24])
{
	memset(key, 0, 24);
	memcpy(key, dgid->raw, RTE_IB_GID_LEN);
	key[16] = pkey >> 8;
	key[17] = pkey & 0xff;
}

/* A path key's 20 bytes that are not always zero, hashed. */
static uint32_t
path_sig(const struct ipoib_htab *t, const uint8_t key[24])
{
	uint32_t x[5];

	memcpy(x, key, 20);
	return ipoib_htab_sig(t, x, 5);
}

static bool
path_match(const void *ent, const void *key)
{
	return memcmp(((const struct rte_ipoib_path *)ent)->key, key, 24) == 0;
}

struct rte_ipoib_path *
rte_ipoib_path_lookup(struct rte_ipoib_tbl *tbl, const struct rte_ib_gid *dgid,
		      uint16_t pkey)
{
	struct rte_ipoib_path *p;
	uint8_t key[24];

	/* The invalid P_Key (base 0: 0x0000, 0x8000) names no partition (IBA 10.9.1.2). */
	if (tbl == NULL || dgid == NULL || !rte_ib_pkey_is_valid(pkey))
		return ipoib_null(EINVAL);
	path_key(dgid, pkey, key);
	p = ipoib_htab_lookup(&tbl->by_path, key, path_sig(&tbl->by_path, key), path_match);
	if (p == NULL)
		rte_errno = ENOENT;
	return p;
}

struct rte_ipoib_path *
rte_ipoib_path_add(struct rte_ipoib_tbl *tbl, const struct rte_ib_gid *dgid, uint16_t pkey)
{
	struct rte_ipoib_path *p;
	uint32_t qsize;
	size_t rsize;
	int rc;

	if (tbl == NULL || dgid == NULL)
		return ipoib_null(EINVAL);
	/* The invalid P_Key (base 0: 0x0000, 0x8000) names no partition (IBA 10.9.1.2). */
	if (!rte_ib_pkey_is_valid(pkey)) {
		IPOIB_LOG(ERR, "pkey=0x%04x: the invalid P_Key", pkey);
		return ipoib_null(EINVAL);
	}
	qsize = tbl->conf.queue_len;
	rsize = rte_ring_get_memsize(rte_align32pow2(qsize + 1));
	p = ipoib_mem_aligned(RTE_CACHE_LINE_SIZE,
			      RTE_ALIGN_CEIL(sizeof(*p), RTE_CACHE_LINE_SIZE) + rsize);
	if (p == NULL)
		return ipoib_null(ENOMEM);
	memset(p, 0, sizeof(*p));
	path_key(dgid, pkey, p->key);
	TAILQ_INIT(&p->neighs);
	p->queue = (struct rte_ring *)((uint8_t *)p +
				       RTE_ALIGN_CEIL(sizeof(*p), RTE_CACHE_LINE_SIZE));
	/* Producers: every data lcore; consumer: the control side. */
	rc = rte_ring_init(p->queue, "ipoib_path", qsize, RING_F_SC_DEQ | RING_F_EXACT_SZ);
	if (rc != 0) {
		ipoib_mem_free(p);
		rte_errno = -rc;
		return NULL;
	}
	rte_spinlock_lock(&tbl->lock);
	if (ipoib_htab_lookup(&tbl->by_path, p->key, path_sig(&tbl->by_path, p->key),
			      path_match) != NULL)
		rc = -EEXIST;
	else if (tbl->nb_path >= tbl->conf.max_path)
		rc = -ENOSPC;
	else
		rc = ipoib_htab_insert(&tbl->by_path, path_sig(&tbl->by_path, p->key), p);
	if (rc == 0) {
		TAILQ_INSERT_TAIL(&tbl->paths, p, all_link);
		tbl->nb_path++;
	}
	rte_spinlock_unlock(&tbl->lock);
	if (rc != 0) {
		ipoib_mem_free(p);
		rte_errno = -rc;
		return NULL;
	}
	return p;
}

static int src_rebind_locked(struct rte_ipoib_tbl *tbl, struct rte_ipoib_neigh *n);

int
rte_ipoib_path_set_ah(struct rte_ipoib_tbl *tbl, struct rte_ipoib_path *path,
		      struct rte_ib_ah *ah, uint16_t dlid)
{
	struct rte_ipoib_neigh *n;
	struct rte_ib_ah *old;
	int rc = 0;

	if (tbl == NULL || path == NULL)
		return ipoib_err(EINVAL);
	rte_spinlock_lock(&tbl->lock);
	/* Release: whatever the handle's creator wrote is seen with it. */
	old = __atomic_exchange_n(&path->ah, ah, __ATOMIC_ACQ_REL);
	TAILQ_FOREACH(n, &path->neighs, path_link)
		neigh_set_ah_locked(tbl, n, ah);
	/* Only now is the old handle unreachable: its grace period starts. */
	if (old != ah)
		rc = defer_ah(tbl, old);
	if (path->dlid != dlid || ah == NULL) {
		path->dlid = ah != NULL ? dlid : 0;
		TAILQ_FOREACH(n, &path->neighs, path_link)
			if (rc == 0)
				rc = src_rebind_locked(tbl, n);
	}
	rte_spinlock_unlock(&tbl->lock);
	return ipoib_ret(rc);
}

unsigned int
rte_ipoib_path_drain(struct rte_ipoib_tbl *tbl, struct rte_ipoib_path *path,
		     struct rte_mbuf **pkts, unsigned int n)
{
	struct rte_ib_ah *ah;
	unsigned int got, i;

	if (tbl == NULL || path == NULL || pkts == NULL) {
		rte_errno = EINVAL;
		return 0;
	}
	got = rte_ring_sc_dequeue_burst(path->queue, (void **)pkts, n, NULL);
	ah = __atomic_load_n(&path->ah, __ATOMIC_ACQUIRE);
	if (ah != NULL)
		for (i = 0; i < got; i++)
			ipoib_mbuf_set_ah(pkts[i], ah);
	return got;
}

int
rte_ipoib_path_del(struct rte_ipoib_tbl *tbl, struct rte_ipoib_path *path)
{
	int rc = 0;

	if (tbl == NULL || path == NULL)
		return ipoib_err(EINVAL);
	rte_spinlock_lock(&tbl->lock);
	if (path->nb_neigh != 0) {
		rc = -EBUSY;
		goto out;
	}
	ipoib_htab_remove(&tbl->by_path, path_sig(&tbl->by_path, path->key), path);
	TAILQ_REMOVE(&tbl->paths, path, all_link);
	tbl->nb_path--;
	/*
	 * No neighbour points here, so no data lcore can enqueue any more
	 * once those that read the pointer earlier are quiescent; the queue
	 * is flushed now and again when the memory is freed.
	 */
	path_flush_queue(path);
	if (defer_ah(tbl, path->ah) != 0 && tbl->conf.ah_free != NULL)
		IPOIB_LOG(ERR, "path: out of memory deferring its address handle");
	defer(tbl, &path->defer, IPOIB_DEFER_PATH, path);
out:
	rte_spinlock_unlock(&tbl->lock);
	return ipoib_ret(rc);
}

/* ---- neighbours ---- */

static void
bind_drop_locked(struct rte_ipoib_tbl *tbl, struct ipoib_htab *t, struct ipoib_bind **bp)
{
	struct ipoib_bind *b = *bp;

	if (b == NULL)
		return;
	ipoib_htab_remove(t, ipoib_hash_16(t, b->key), b);
	if (t == &tbl->by_src)
		front_del(&tbl->src_front, &b->front);
	*bp = NULL;
	defer(tbl, &b->defer, IPOIB_DEFER_BIND, b);
}

/* A binding of @p key to @p n from the pool, not indexed yet; NULL when none is left. */
static struct ipoib_bind *
bind_alloc(struct rte_ipoib_tbl *tbl, struct rte_ipoib_neigh *n, const uint8_t key[16])
{
	struct ipoib_bind *b = pool_get(&tbl->bind_pool);

	if (b == NULL)
		return NULL;
	memcpy(b->key, key, 16);
	b->neigh = n;
	memcpy(b->mac, n->mackey, sizeof(b->mac));
	return b;
}

/* Index @p b (signature @p sig) in @p t: 0, or the error with @p b back in the pool. */
static int
bind_insert(struct rte_ipoib_tbl *tbl, struct ipoib_htab *t, uint32_t sig, struct ipoib_bind *b)
{
	int rc = ipoib_htab_insert(t, sig, b);

	if (rc != 0)
		pool_put(&tbl->bind_pool, b);
	return rc;
}

/* @p n's source binding (DLID, QPN) set to @p key, taken from another neighbour if it had it. */
static int
src_bind_locked(struct rte_ipoib_tbl *tbl, struct rte_ipoib_neigh *n, const uint8_t key[16])
{
	struct ipoib_htab *t = &tbl->by_src;
	uint32_t sig = ipoib_hash_16(t, key);
	struct ipoib_bind *b, *other;
	uint64_t w;
	int rc;

	other = ipoib_htab_lookup(t, key, sig, ipoib_bind_match);
	if (other != NULL && other->neigh == n && n->src == other)
		return 0;
	b = bind_alloc(tbl, n, key);
	if (b == NULL)
		return -ENOMEM;
	if (other != NULL) {
		/* The key moves to @p n: unlink it from its old neighbour. */
		bind_drop_locked(tbl, t, &other->neigh->src);
	}
	bind_drop_locked(tbl, t, &n->src);
	rc = bind_insert(tbl, t, sig, b);
	if (rc != 0)
		return rc;
	memcpy(&w, key, 8);
	front_add(&tbl->src_front, &b->front, b, ipoib_src_front_idx(w, tbl->src_front.mask));
	n->src = b;
	return 0;
}

static int
src_rebind_locked(struct rte_ipoib_tbl *tbl, struct rte_ipoib_neigh *n)
{
	struct rte_ipoib_path *p = n->path;
	uint8_t key[16];

	if (p == NULL || p->dlid == 0 || rte_ipoib_hwaddr_is_mcast(&n->hw)) {
		bind_drop_locked(tbl, &tbl->by_src, &n->src);
		return 0;
	}
	ipoib_src_key(p->dlid, rte_ipoib_hwaddr_qpn(&n->hw), key);
	return src_bind_locked(tbl, n, key);
}

static void
neigh_link_path_locked(struct rte_ipoib_tbl *tbl, struct rte_ipoib_neigh *n,
		       struct rte_ipoib_path *path)
{
	struct rte_ipoib_path *old = n->path;

	if (old == path)
		return;
	if (old != NULL) {
		TAILQ_REMOVE(&old->neighs, n, path_link);
		old->nb_neigh--;
	}
	if (path != NULL) {
		TAILQ_INSERT_TAIL(&path->neighs, n, path_link);
		path->nb_neigh++;
	}
	/* Release: the path's key and queue are initialised before use. */
	__atomic_store_n(&n->path, path, __ATOMIC_RELEASE);
	neigh_set_ah_locked(tbl, n, path != NULL ? path->ah : NULL);
}

struct rte_ipoib_neigh *
rte_ipoib_neigh_add(struct rte_ipoib_tbl *tbl, const struct rte_ipoib_hwaddr *hw,
		    struct rte_ipoib_path *path)
{
	struct rte_ipoib_neigh *n;
	struct rte_ether_addr mac;
	uint32_t sig;
	int rc = 0;

	if (tbl == NULL || hw == NULL)
		return ipoib_null(EINVAL);
	sig = ipoib_hash_hw(&tbl->by_hw, hw);
	rte_spinlock_lock(&tbl->lock);
	n = pool_get(&tbl->neigh_pool);
	if (n == NULL) {
		rc = -ENOMEM;
		goto err_unlock;
	}
	n->hw = *hw;
	n->qpn = rte_ipoib_hwaddr_qpn(hw);
	n->last_used = rte_rdtsc();
	if (ipoib_htab_lookup(&tbl->by_hw, hw, sig, ipoib_neigh_hw_match) != NULL) {
		rc = -EEXIST;
		goto err_unlock;
	}
	if (tbl->nb_neigh >= tbl->conf.max_neigh) {
		rc = -ENOSPC;
		goto err_unlock;
	}
	if (!rte_ipoib_hwaddr_is_mcast(hw)) {
		rte_ipoib_mac_from_hwaddr(hw, &mac);
		memcpy(n->mackey, mac.addr_bytes, RTE_ETHER_ADDR_LEN);
		if (ipoib_htab_lookup(&tbl->by_mac, n->mackey,
				      ipoib_hash_8(&tbl->by_mac, n->mackey),
				      ipoib_neigh_mac_match) != NULL) {
			rc = -EEXIST;
			goto err_unlock;
		}
		rc = ipoib_htab_insert(&tbl->by_mac, ipoib_hash_8(&tbl->by_mac, n->mackey), n);
		if (rc != 0)
			goto err_unlock;
		n->mac_indexed = true;
	}
	rc = ipoib_htab_insert(&tbl->by_hw, sig, n);
	if (rc != 0 && n->mac_indexed)
		goto err_unindex_mac;
	if (rc != 0)
		goto err_unlock;
	if (n->mac_indexed) {
		uint64_t k;

		memcpy(&k, n->mackey, 8);
		front_add(&tbl->mac_front, &n->front, n,
			  ipoib_mac_front_idx(k, tbl->mac_front.mask));
	}
	TAILQ_INSERT_TAIL(&tbl->neighs, n, all_link);
	tbl->nb_neigh++;
	neigh_link_path_locked(tbl, n, path);
	rc = src_rebind_locked(tbl, n);
	rte_spinlock_unlock(&tbl->lock);
	if (rc != 0)
		IPOIB_LOG(WARNING, "neighbour qpn 0x%06x: no (SLID, QPN) index: %s",
			  rte_ipoib_hwaddr_qpn(hw), strerror(-rc));
	return n;

err_unindex_mac:
	/* Published in the MAC index: a reader may hold it until quiescent. */
	ipoib_htab_remove(&tbl->by_mac, ipoib_hash_8(&tbl->by_mac, n->mackey), n);
	defer(tbl, &n->defer, IPOIB_DEFER_NEIGH, n);
	n = NULL;
err_unlock:
	pool_put(&tbl->neigh_pool, n);
	rte_spinlock_unlock(&tbl->lock);
	rte_errno = -rc;
	return NULL;
}

int
rte_ipoib_neigh_set_path(struct rte_ipoib_tbl *tbl, struct rte_ipoib_neigh *neigh,
			 struct rte_ipoib_path *path)
{
	int rc;

	if (tbl == NULL || neigh == NULL)
		return ipoib_err(EINVAL);
	rte_spinlock_lock(&tbl->lock);
	neigh_link_path_locked(tbl, neigh, path);
	rc = src_rebind_locked(tbl, neigh);
	rte_spinlock_unlock(&tbl->lock);
	return ipoib_ret(rc);
}

/* Unbind IP @p i of @p n; the later ones move down. */
static void
ip_unbind_locked(struct rte_ipoib_tbl *tbl, struct rte_ipoib_neigh *n, unsigned int i)
{
	bind_drop_locked(tbl, &tbl->by_ip, &n->ip[i]);
	memmove(&n->ip[i], &n->ip[i + 1], (RTE_IPOIB_NEIGH_MAX_IP - 1 - i) * sizeof(n->ip[0]));
	n->ip[RTE_IPOIB_NEIGH_MAX_IP - 1] = NULL;
	tbl->nb_ip--;
}

static unsigned int
ip_count(const struct rte_ipoib_neigh *n)
{
	unsigned int i;

	for (i = 0; i < RTE_IPOIB_NEIGH_MAX_IP && n->ip[i] != NULL; i++)
		;
	return i;
}

static int
ip_bind_locked(struct rte_ipoib_tbl *tbl, struct rte_ipoib_neigh *n, const uint8_t key[16])
{
	struct ipoib_htab *t = &tbl->by_ip;
	uint32_t sig = ipoib_hash_16(t, key);
	struct ipoib_bind *b, *other;
	unsigned int i, k;
	int rc;

	other = ipoib_htab_lookup(t, key, sig, ipoib_bind_match);
	if (other != NULL) {
		struct rte_ipoib_neigh *on = other->neigh;

		if (on == n)
			return 0;
		/* The address moves to @p n: unbound from its old neighbour. */
		for (i = 0; on->ip[i] != other; i++)
			;
		ip_unbind_locked(tbl, on, i);
	}
	k = ip_count(n);
	/* No room for one more, in the neighbour or in the table: its oldest goes. */
	if (k == RTE_IPOIB_NEIGH_MAX_IP || (tbl->nb_ip >= tbl->max_ip && k != 0)) {
		ip_unbind_locked(tbl, n, 0);
		k--;
	}
	if (tbl->nb_ip >= tbl->max_ip)
		return -ENOSPC;
	b = bind_alloc(tbl, n, key);
	if (b == NULL)
		return -ENOMEM;
	rc = bind_insert(tbl, t, sig, b);
	if (rc != 0)
		return rc;
	n->ip[k] = b;
	tbl->nb_ip++;
	return 0;
}

int
rte_ipoib_neigh_bind_ip(struct rte_ipoib_tbl *tbl, struct rte_ipoib_neigh *neigh,
			const uint8_t ip[16])
{
	int rc;

	if (tbl == NULL || neigh == NULL || ip == NULL)
		return ipoib_err(EINVAL);
	rte_spinlock_lock(&tbl->lock);
	rc = ip_bind_locked(tbl, neigh, ip);
	rte_spinlock_unlock(&tbl->lock);
	return ipoib_ret(rc);
}

int
rte_ipoib_neigh_del(struct rte_ipoib_tbl *tbl, struct rte_ipoib_neigh *neigh)
{
	if (tbl == NULL || neigh == NULL)
		return ipoib_err(EINVAL);
	rte_spinlock_lock(&tbl->lock);
	while (neigh->ip[0] != NULL)
		ip_unbind_locked(tbl, neigh, 0);
	bind_drop_locked(tbl, &tbl->by_src, &neigh->src);
	if (neigh->mac_indexed) {
		ipoib_htab_remove(&tbl->by_mac, ipoib_hash_8(&tbl->by_mac, neigh->mackey), neigh);
		front_del(&tbl->mac_front, &neigh->front);
	}
	ipoib_htab_remove(&tbl->by_hw, ipoib_hash_hw(&tbl->by_hw, &neigh->hw), neigh);
	neigh_link_path_locked(tbl, neigh, NULL);
	TAILQ_REMOVE(&tbl->neighs, neigh, all_link);
	tbl->nb_neigh--;
	defer(tbl, &neigh->defer, IPOIB_DEFER_NEIGH, neigh);
	rte_spinlock_unlock(&tbl->lock);
	return 0;
}

int
rte_ipoib_neigh_walk(struct rte_ipoib_tbl *tbl,
		     int (*fn)(struct rte_ipoib_neigh *neigh, void *arg), void *arg)
{
	struct rte_ipoib_neigh *n, *next;
	int rc = 0;

	if (tbl == NULL || fn == NULL)
		return ipoib_err(EINVAL);
	/* Unlocked: fn may call the locking functions; control side only. */
	for (n = TAILQ_FIRST(&tbl->neighs); n != NULL; n = next) {
		next = TAILQ_NEXT(n, all_link);
		rc = fn(n, arg);
		if (rc != 0)
			break;
	}
	return rc;
}

/* ---- lock-free readers ---- */

struct rte_ipoib_neigh *
rte_ipoib_neigh_lookup(const struct rte_ipoib_tbl *tbl, const struct rte_ipoib_hwaddr *hw)
{
	if (tbl == NULL || hw == NULL)
		return ipoib_null(EINVAL);
	return ipoib_htab_lookup(&tbl->by_hw, hw, ipoib_hash_hw(&tbl->by_hw, hw),
				 ipoib_neigh_hw_match);
}

struct rte_ipoib_neigh *
ipoib_mac_lookup_slow(const struct rte_ipoib_tbl *tbl, uint64_t key, uint32_t idx)
{
	unsigned int k;

	for (k = 1; k < IPOIB_FRONT_WAYS; k++) {
		struct rte_ipoib_neigh *n = ipoib_front_get(&tbl->mac_front, idx ^ k);

		if (ipoib_neigh_mac_match_w(n, &key))
			return n;
	}
	return ipoib_htab_lookup(&tbl->by_mac, &key, ipoib_hash_w8(&tbl->by_mac, key),
				 ipoib_neigh_mac_match_w);
}

const struct ipoib_bind *
ipoib_src_lookup_slow(const struct rte_ipoib_tbl *tbl, uint64_t key, uint32_t idx)
{
	unsigned int k;

	for (k = 1; k < IPOIB_FRONT_WAYS; k++) {
		const struct ipoib_bind *b = ipoib_front_get(&tbl->src_front, idx ^ k);

		if (ipoib_bind_match_w(b, &key))
			return b;
	}
	return ipoib_htab_lookup(&tbl->by_src, &key, ipoib_hash_w16(&tbl->by_src, key),
				 ipoib_bind_match_w);
}

static __rte_always_inline uint64_t
mac_key(const struct rte_ether_addr *mac)
{
	return ipoib_mac_key(mac->addr_bytes);
}

struct rte_ipoib_neigh *
rte_ipoib_neigh_lookup_mac(const struct rte_ipoib_tbl *tbl, const struct rte_ether_addr *mac)
{
	if (tbl == NULL || mac == NULL)
		return ipoib_null(EINVAL);
	return ipoib_mac_lookup(tbl, mac_key(mac));
}

unsigned int
rte_ipoib_neigh_lookup_mac_bulk(const struct rte_ipoib_tbl *tbl,
				const struct rte_ether_addr *macs, unsigned int n,
				struct rte_ipoib_neigh **out)
{
	const struct ipoib_front *f;
	unsigned int i, found = 0;

	if (tbl == NULL || (n != 0 && (macs == NULL || out == NULL))) {
		rte_errno = EINVAL;
		return 0;
	}
	f = &tbl->mac_front;
	/*
	 * Every slot prefetched, then every slot's entry, then the keys
	 * verified: the misses of a pass overlap (as in the bursts).
	 */
	for (i = 0; i < n; i++)
		rte_prefetch0(&f->slot[ipoib_mac_front_idx(mac_key(&macs[i]), f->mask)]);
	for (i = 0; i < n; i++) {
		out[i] = ipoib_front_get(f, ipoib_mac_front_idx(mac_key(&macs[i]), f->mask));
		rte_prefetch0(out[i]);
	}
	for (i = 0; i < n; i++) {
		uint64_t key = mac_key(&macs[i]), k;

		memcpy(&k, out[i]->mackey, 8);
		if (unlikely(k != key))
			out[i] = key != 0 ? ipoib_mac_lookup_slow(tbl, key,
					ipoib_mac_front_idx(key, f->mask)) : NULL;
		found += out[i] != NULL;
	}
	return found;
}

struct rte_ipoib_neigh *
rte_ipoib_neigh_lookup_ip(const struct rte_ipoib_tbl *tbl, const uint8_t ip[16])
{
	const struct ipoib_bind *b;

	if (tbl == NULL || ip == NULL)
		return ipoib_null(EINVAL);
	b = ipoib_htab_lookup(&tbl->by_ip, ip, ipoib_hash_16(&tbl->by_ip, ip), ipoib_bind_match);
	return b != NULL ? b->neigh : NULL;
}

struct rte_ipoib_neigh *
rte_ipoib_neigh_lookup_src(const struct rte_ipoib_tbl *tbl, uint16_t slid, uint32_t qpn)
{
	const struct ipoib_bind *b;

	if (tbl == NULL)
		return ipoib_null(EINVAL);
	b = ipoib_src_lookup(tbl, ipoib_src_key_w(slid, qpn));
	return b != NULL ? b->neigh : NULL;
}

const struct rte_ipoib_hwaddr *
rte_ipoib_neigh_hwaddr(const struct rte_ipoib_neigh *neigh)
{
	if (neigh == NULL)
		return ipoib_null(EINVAL);
	return &neigh->hw;
}

void
rte_ipoib_neigh_mac(const struct rte_ipoib_neigh *neigh, struct rte_ether_addr *mac)
{
	if (neigh == NULL || mac == NULL) {
		rte_errno = EINVAL;
		return;
	}
	memcpy(mac->addr_bytes, neigh->mackey, RTE_ETHER_ADDR_LEN);
}

uint64_t
rte_ipoib_neigh_last_used(const struct rte_ipoib_neigh *neigh)
{
	const uint64_t *s;
	uint64_t t;

	if (neigh == NULL) {
		rte_errno = EINVAL;
		return 0;
	}
	t = __atomic_load_n(&neigh->last_used, __ATOMIC_RELAXED);
	s = __atomic_load_n(&neigh->slot_stamp, __ATOMIC_RELAXED);

	/*
	 * The stamp the transmit bursts keep in the neighbour's MAC slot
	 * (struct ipoib_fcopy). Copies live as long as the table: a slot
	 * that changed hands meanwhile gives its next neighbour's stamp,
	 * which only makes this one look used a little later than it was.
	 */
	if (s != NULL)
		t = RTE_MAX(t, __atomic_load_n(s, __ATOMIC_RELAXED));
	return t;
}

struct rte_ipoib_path *
rte_ipoib_neigh_path(const struct rte_ipoib_neigh *neigh)
{
	if (neigh == NULL)
		return ipoib_null(EINVAL);
	return __atomic_load_n(&neigh->path, __ATOMIC_ACQUIRE);
}
