/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _IPOIB_PRIVATE_H_
#define _IPOIB_PRIVATE_H_

/*
 * Private to librte_ipoib: log macro, ND constants, the table entries and
 * the lock-free hash index the data lcores read.
 */

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_prefetch.h>
#include <rte_rcu_qsbr.h>
#include <rte_ring.h>
#include <rte_spinlock.h>

#include "rte_ipoib.h"
#include "rte_ipoib_table.h"
#include "ipoib_index.h"

/** Log type "lib.ipoib", registered in ipoib_log.c. */
extern int ipoib_logtype;

/** Log with the calling function's name; call sites give no newline. */
#define IPOIB_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, ipoib_logtype, "%s(): " fmt "\n", \
		__func__, ##__VA_ARGS__)

/*
 * The public return convention (rte_errno and -1 or NULL) from an
 * internal one, as lib/ib's ib_ret().
 */
static inline int
ipoib_ret(int ret)
{
	if (ret < 0) {
		rte_errno = -ret;
		return -1;
	}
	return ret;
}

/** Fail with -1 and rte_errno @p err (a positive errno). */
static inline int
ipoib_err(int err)
{
	rte_errno = err;
	return -1;
}

/** Fail with NULL and rte_errno @p err (a positive errno). */
static inline void *
ipoib_null(int err)
{
	rte_errno = err;
	return NULL;
}

/* IPv6 header offsets (RFC 8200 3). */
#define IPOIB_IP6_HDR_LEN 40
#define IPOIB_IP6_NH_OFF 6
#define IPOIB_IP6_SRC_OFF 8
#define IPOIB_IP6_DST_OFF 24

/* ND message types (RFC 4861 4) and link-layer address options (4.6.1). */
#define IPOIB_ND_RS 133
#define IPOIB_ND_RA 134
#define IPOIB_ND_NS 135
#define IPOIB_ND_NA 136
#define IPOIB_ND_REDIRECT 137
#define IPOIB_ND_OPT_SLLA 1
#define IPOIB_ND_OPT_TLLA 2
/** Most LLA options one message may carry through the rewrite. */
#define IPOIB_ND_MAX_LLA 4

/** An ND message that passed ipoib_nd_check(). */
struct ipoib_nd_msg {
	size_t icmp_len;                    /**< ICMPv6 length (payload length). */
	unsigned int nb_lla;                /**< LLA options found. */
	uint16_t lla_off[IPOIB_ND_MAX_LLA]; /**< Their offsets in the ICMPv6 message. */
};

enum rte_ipoib_drop_reason ipoib_arp_check(const void *buf, size_t len);
enum rte_ipoib_drop_reason ipoib_nd_check(const uint8_t *ip6, size_t len, bool verify,
					  struct ipoib_nd_msg *msg);
bool ipoib_ip6_is_nd(const uint8_t *ip6, size_t len);
/** ICMPv6 checksum of @p icmp (@p len bytes) in IPv6 packet @p ip6. */
uint16_t ipoib_icmp6_cksum(const uint8_t *ip6, const uint8_t *icmp, uint32_t len);

/*
 * Objects unlinked from the table and freed after a grace period.
 * Control side only, under tbl->lock.
 */
enum ipoib_defer_kind {
	IPOIB_DEFER_NEIGH,
	IPOIB_DEFER_PATH,
	IPOIB_DEFER_BIND,
	IPOIB_DEFER_AH,
};

struct ipoib_defer {
	STAILQ_ENTRY(ipoib_defer) next;
	uint64_t token;              /**< rte_rcu_qsbr_start() at unlinking. */
	enum ipoib_defer_kind kind;
	void *obj;                   /**< The object (for AH: the handle). */
};

/*
 * An object's place in a front index (struct ipoib_front): the slot it
 * occupies, or -1 while it waits on its slot set's list for one of its
 * four slots (IPOIB_FRONT_WAYS) to free up. Control side only, under
 * tbl->lock.
 */
struct ipoib_front_link {
	TAILQ_ENTRY(ipoib_front_link) next;  /**< On the waiting list. */
	void *obj;                           /**< The neighbour or binding. */
	uint32_t home;                       /**< Its home slot. */
	int32_t slot;                        /**< Slot occupied, or -1. */
};

TAILQ_HEAD(ipoib_front_list, ipoib_front_link);

/*
 * A secondary index entry (IP address or (SLID, QPN) to a neighbour).
 * Immutable once published; replaced, never edited, so that a reader
 * never compares a key that is changing.
 */
struct ipoib_bind {
	uint8_t key[16];
	struct rte_ipoib_neigh *neigh;
	uint8_t mac[8];              /**< The neighbour's MAC: decap needs no more. */
	struct ipoib_front_link front; /**< (SLID, QPN) bindings: by_src_front. */
	struct ipoib_defer defer;
};

/* What decapsulation reads stays in one line at the pool's 32-byte spacing. */
static_assert(offsetof(struct ipoib_bind, mac) + 8 <= 32,
	      "a binding's burst fields are its first 32 bytes");

/*
 * A neighbour. The key fields (mackey, hw, qpn) are written before the
 * entry is published and never change; path and ah are published by the
 * control side with release stores and read with acquire; last_used is
 * written by data lcores (relaxed, coarse) and read by the control side.
 * The rest is the control side's, under tbl->lock. Freed after a grace
 * period.
 *
 * ah mirrors path->ah (NULL without a path), so that a transmit reads one
 * cache line, this entry's first: the control side rewrites it on every
 * neighbour of a path whose handle changes, before the old handle's grace
 * period starts (rte_ipoib_path_set_ah()).
 */
struct rte_ipoib_neigh {
	/* first cache line: what the bursts read */
	uint8_t mackey[8];                   /**< Ethernet-view MAC, 2 zero bytes. */
	struct rte_ib_ah *ah;                /**< Atomic: the path's handle. */
	uint64_t last_used;                  /**< TSC, atomic relaxed. */
	struct rte_ipoib_path *path;         /**< Atomic. */
	uint32_t qpn;                        /**< hw's QPN, host order. */
	struct rte_ipoib_hwaddr hw;          /**< As added (flags kept). */
	/* control side */
	bool mac_indexed;
	struct ipoib_bind *ip[RTE_IPOIB_NEIGH_MAX_IP]; /**< Bound IPs, oldest first, then NULL. */
	struct ipoib_bind *src;              /**< (DLID, QPN) binding, or NULL. */
	struct ipoib_front_link front;       /**< In by_mac_front (unicast only). */
	/*
	 * While the neighbour is in a MAC front slot: that slot's copy's
	 * stamp, which the transmit bursts write instead of last_used
	 * (struct ipoib_fcopy). Atomic: rte_ipoib_neigh_last_used() reads it.
	 */
	uint64_t *slot_stamp;
	TAILQ_ENTRY(rte_ipoib_neigh) path_link;
	TAILQ_ENTRY(rte_ipoib_neigh) all_link;
	struct ipoib_defer defer;
} __rte_cache_aligned;

static_assert(offsetof(struct rte_ipoib_neigh, hw) + sizeof(struct rte_ipoib_hwaddr) <=
	      RTE_CACHE_LINE_SIZE, "a neighbour's burst fields share its first cache line");

TAILQ_HEAD(ipoib_neigh_list, rte_ipoib_neigh);

/*
 * A path. key (DGID, P_Key) fixed at creation; ah published with a
 * release store; queue: multi-producer (data lcores), single consumer
 * (control side). dlid and the rest: control side.
 */
struct rte_ipoib_path {
	uint8_t key[24];                     /**< DGID, P_Key (big-endian), zeros. */
	struct rte_ib_ah *ah;                /**< Atomic. */
	struct rte_ring *queue;              /**< Pending packets, inline memory. */
	uint16_t dlid;
	uint32_t nb_neigh;
	struct ipoib_neigh_list neighs;
	TAILQ_ENTRY(rte_ipoib_path) all_link;
	struct ipoib_defer defer;
};

/*
 * A front slot's copy of what a burst's fast path reads of the entry in
 * that slot, so that a table the caches do not hold costs one miss per
 * packet (this line) instead of two (the slot, then the entry): the MAC
 * front keeps a neighbour's key, handle (the mirror of its path's) and
 * QPN, the source front a binding's key and the neighbour's MAC. Two per
 * cache line, a set's four (IPOIB_FRONT_WAYS) on two adjacent lines.
 *
 * The control side (under tbl->lock, the only writer) rewrites a copy
 * whenever its slot changes hands or the neighbour's handle changes,
 * behind a sequence count: the count made odd, a release fence, the
 * fields, the count made even with a release store (ipoib_table.c,
 * fcopy_begin()/fcopy_end()). A reader (ipoib_fcopy_read()) reads the
 * count with acquire, the fields, an acquire fence, the count again, and
 * trusts the fields only when the count was even and did not change:
 * otherwise it could pair one neighbour's key with another's handle or
 * QPN, which would send a packet to the wrong QP. A reader that finds a
 * copy being rewritten does not wait: it takes the packet the general
 * way, through the hash index and the entry. The handle read
 * from a copy is protected as the one read from an entry: the control
 * side rewrites every copy that holds a handle before the handle's grace
 * period starts. stamp is not covered by the count: the transmit
 * writes it, coarsely, as it writes an entry's last_used, and
 * the control side folds it into the neighbour's last_used when the
 * neighbour leaves the slot; a burst that read the copy just before the
 * slot changed hands may stamp the next neighbour, which ageing
 * tolerates (one tick too young).
 */
struct ipoib_fcopy {
	uint32_t seq;                        /**< Atomic; odd while rewritten. */
	uint32_t qpn;                        /**< MAC: the neighbour's QPN; source: 0. */
	uint64_t key;                        /**< The entry's key word; free: all ones. */
	uint64_t val;                        /**< MAC: handle pointer; source: MAC word. */
	uint64_t stamp;                      /**< MAC: TSC of last use (atomic, relaxed). */
};

static_assert(sizeof(struct ipoib_fcopy) * 2 == RTE_CACHE_LINE_SIZE ||
	      RTE_CACHE_LINE_SIZE != 64, "two slots' copies share one cache line");

/*
 * Slots per front set: an entry takes its home slot, else another of the
 * set (home ^ 1, on the same cache line of copies, then home ^ 2 and
 * home ^ 3, on the line beside it, which the L2's adjacent-line
 * prefetcher tends to bring with the first), else waits.
 */
#define IPOIB_FRONT_WAYS 4

/*
 * The copy of slot (index ^ @p k) of @p c's set: the copy arrays are
 * aligned to a set's two lines (front_init()), so that it is @p c's
 * address xor k copies.
 */
static __rte_always_inline struct ipoib_fcopy *
ipoib_fcopy_way(const struct ipoib_fcopy *c, unsigned int k)
{
	return (struct ipoib_fcopy *)((uintptr_t)c ^ (k * sizeof(*c)));
}

/*
 * Of the two copies on @p c's line (slots index and index ^ 1), the one
 * whose key is @p key if the other's is not, else @p c: chosen by
 * arithmetic, not by a branch, since with addresses that clash which of
 * the two holds a key is a coin toss that a branch would mispredict. The
 * key read here only chooses; ipoib_fcopy_read() checks it again.
 */
static __rte_always_inline struct ipoib_fcopy *
ipoib_fcopy_pick(const struct ipoib_fcopy *c, uint64_t key)
{
	const struct ipoib_fcopy *o = ipoib_fcopy_way(c, 1);
	uintptr_t other = __atomic_load_n(&o->key, __ATOMIC_RELAXED) == key;

	return (struct ipoib_fcopy *)((uintptr_t)c ^ (other * sizeof(*c)));
}

/*
 * A consistent read of copy @p c: its key, value and (when @p qpn is not
 * NULL) QPN. False when the control side was rewriting it meanwhile (the
 * caller takes the general way; it never waits). An odd first count
 * makes (s1 & ~1) differ from any later count: one compare checks both.
 */
static __rte_always_inline bool
ipoib_fcopy_read(const struct ipoib_fcopy *c, uint64_t *key, uint64_t *val, uint32_t *qpn)
{
	uint32_t s1 = __atomic_load_n(&c->seq, __ATOMIC_ACQUIRE);

	*key = __atomic_load_n(&c->key, __ATOMIC_RELAXED);
	*val = __atomic_load_n(&c->val, __ATOMIC_RELAXED);
	if (qpn != NULL)
		*qpn = __atomic_load_n(&c->qpn, __ATOMIC_RELAXED);
	/* The fields are read before the count is read again. */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&c->seq, __ATOMIC_RELAXED) == (s1 & ~1u);
}

enum ipoib_front_kind {
	IPOIB_FRONT_MAC,                     /**< Neighbours by MAC key. */
	IPOIB_FRONT_SRC,                     /**< Source bindings by (SLID, QPN). */
};

/*
 * A front index: a direct-mapped array of entry pointers, indexed by bits
 * the key already carries (ipoib_mac_front_idx(), ipoib_src_front_idx()),
 * in front of a hash index that holds every entry. A lookup reads one
 * slot and the entry it points to, whose full key it verifies; an entry
 * may also sit in another slot of its set of four (home ^ 1, on the same
 * line of copies, then home ^ 2 and home ^ 3). A key in none (its slots
 * taken by others) is found in the hash index. A free slot points to @c none, an entry whose key (all
 * ones) no key matches, so that a reader tests no NULL. Writer (under
 * tbl->lock): an entry's key is written before the entry is stored in a
 * slot with a release store; a slot is given back @c none with a release
 * store before the entry's grace period starts;
 * an entry that finds all the slots of its set taken waits on the set's
 * list in @c waiting and takes a slot of the set when one is freed
 * (ipoib_table.c). Each slot also has a copy of its entry's burst fields
 * in @c copy (struct ipoib_fcopy), rewritten before the slot pointer is
 * stored; the transmit, and the receive over big tables, read the copy
 * instead of the entry.
 */
struct ipoib_front {
	uint32_t mask;                       /**< Slots - 1. */
	void **slot;                         /**< Atomic entry pointers. */
	struct ipoib_fcopy *copy;            /**< Per slot: its entry's burst fields. */
	void *none;                          /**< What a free slot holds. */
	enum ipoib_front_kind kind;
	uint32_t nb_waiting;                 /**< Entries waiting (control side). */
	struct ipoib_front_list *waiting;    /**< Per slot set: who waits for it. */
};

/*
 * Objects of one kind (neighbours, bindings) in one array sized at
 * creation, so that they share the bucket arrays' huge pages; control
 * side only (under tbl->lock). See ipoib_table.c.
 */
struct ipoib_pool {
	uint8_t *base;                       /**< cap objects of size bytes. */
	size_t size;
	size_t align;                        /**< Of the objects beyond the array. */
	uint32_t cap;
	uint32_t next;                       /**< Objects never handed out start here. */
	uint32_t nb_free;
	uint32_t *free;                      /**< Indices handed back (a stack). */
};

struct rte_ipoib_tbl {
	/* read by data lcores */
	struct ipoib_htab by_hw;             /**< hwaddr -> neighbour. */
	struct ipoib_htab by_mac;            /**< MAC -> neighbour. */
	struct ipoib_htab by_ip;             /**< IP -> ipoib_bind. */
	struct ipoib_htab by_src;            /**< (SLID, QPN) -> ipoib_bind. */
	struct ipoib_htab by_path;           /**< (DGID, P_Key) -> path (control). */
	struct ipoib_front mac_front;        /**< In front of by_mac. */
	struct ipoib_front src_front;        /**< In front of by_src. */
	/* control side */
	struct rte_ipoib_tbl_conf conf;
	rte_spinlock_t lock;
	struct ipoib_pool neigh_pool;
	struct ipoib_pool bind_pool;         /**< IP and source bindings. */
	uint32_t nb_ip;                      /**< IP bindings... */
	uint32_t max_ip;                     /**< ...and how many there may be. */
	uint32_t nb_neigh;
	uint32_t nb_path;
	uint32_t nb_deferred;
	uint64_t nb_freed;
	struct ipoib_neigh_list neighs;
	TAILQ_HEAD(, rte_ipoib_path) paths;
	STAILQ_HEAD(, ipoib_defer) deferred;
};

static inline uint32_t
ipoib_hash_hw(const struct ipoib_htab *t, const struct rte_ipoib_hwaddr *hw)
{
	uint32_t x[5];

	memcpy(x, hw->gid, 16);
	x[4] = rte_ipoib_hwaddr_qpn(hw);
	return ipoib_htab_sig(t, x, 5);
}


static inline uint32_t
ipoib_hash_16(const struct ipoib_htab *t, const uint8_t k[16])
{
	uint32_t x[4];

	memcpy(x, k, 16);
	return ipoib_htab_sig(t, x, 4);
}

static inline bool
ipoib_neigh_hw_match(const void *ent, const void *key)
{
	const struct rte_ipoib_neigh *n = ent;

	return rte_ipoib_hwaddr_equal(&n->hw, key);
}

static inline bool
ipoib_neigh_mac_match(const void *ent, const void *key)
{
	const struct rte_ipoib_neigh *n = ent;

	return memcmp(n->mackey, key, 8) == 0;
}

static inline bool
ipoib_bind_match(const void *ent, const void *key)
{
	const struct ipoib_bind *b = ent;

	return memcmp(b->key, key, 16) == 0;
}

/** Most packets one burst pass handles (longer bursts go in chunks). */
#define IPOIB_STAGE_MAX 64

/* An 8-byte key (a MAC key, a source key word) held in a word. */
static __rte_always_inline uint32_t
ipoib_hash_w8(const struct ipoib_htab *t, uint64_t k)
{
	uint32_t x[2];

	memcpy(x, &k, 8);
	return ipoib_htab_sig(t, x, 2);
}

/* The same, of a key held in 8 bytes. */
static inline uint32_t
ipoib_hash_8(const struct ipoib_htab *t, const uint8_t k[8])
{
	uint64_t w;

	memcpy(&w, k, 8);
	return ipoib_hash_w8(t, w);
}

/*
 * ipoib_hash_16() of a key whose last 8 bytes are zero, its first in a
 * word: the zero pieces add nothing.
 */
static __rte_always_inline uint32_t
ipoib_hash_w16(const struct ipoib_htab *t, uint64_t k)
{
	return ipoib_hash_w8(t, k);
}

/* ipoib_neigh_mac_match() for a key in a word. */
static __rte_always_inline bool
ipoib_neigh_mac_match_w(const void *ent, const void *key)
{
	const struct rte_ipoib_neigh *n = ent;
	uint64_t a, b;

	memcpy(&a, n->mackey, 8);
	memcpy(&b, key, 8);
	return a == b;
}

/* ipoib_bind_match() for a 16-byte key whose last 8 bytes are zero. */
static __rte_always_inline bool
ipoib_bind_match_w(const void *ent, const void *key)
{
	const struct ipoib_bind *bd = ent;
	uint64_t a[2], b;

	memcpy(a, bd->key, 16);
	memcpy(&b, key, 8);
	return a[0] == b && a[1] == 0;
}

/*
 * The 16-byte key of a (SLID, QPN) source binding: its first 8 bytes are
 * those of the rte_ib dynfield's rx view (source QPN, SLID, P_Key index)
 * with the QPN's reserved bits and the P_Key index zeroed, so that a
 * burst takes its key with one load and a mask (ipoib_src_key_of());
 * zeros after. Built as whole words, so that the hash that reads it back
 * as words is not stalled by byte stores.
 */
static __rte_always_inline uint64_t
ipoib_src_key_w(uint16_t slid, uint32_t qpn)
{
	struct {
		uint32_t qpn;
		uint16_t slid;
		uint16_t zero;
	} k = { qpn & RTE_IPOIB_QPN_MASK, slid, 0 };
	uint64_t w;

	static_assert(sizeof(k) == 8, "a source key is one word");
	memcpy(&w, &k, sizeof(w));
	return w;
}

static inline void
ipoib_src_key(uint16_t slid, uint32_t qpn, uint8_t key[16])
{
	uint64_t w[2] = { ipoib_src_key_w(slid, qpn), 0 };

	memcpy(key, w, 16);
}

/* The key bits of the dynfield rx view's first word (see ipoib_src_key_w()). */
#define IPOIB_SRC_KEY_MASK ipoib_src_key_w(UINT16_MAX, UINT32_MAX)

/*
 * Front index slots (struct ipoib_front), from bits the keys carry, no
 * hash. A MAC of the Ethernet view is 02 and the low 40 bits of (port
 * GUID xor QPN << 16) (rte_ipoib_mac_from_hwaddr()): its low bits are the
 * GUID's, which a vendor hands out in sequence, so that distinct ports
 * take distinct slots. A source is its LID, which the SM hands out
 * densely from 1 (OpenSM's osm_lid_mgr.c), with its QPN's three bytes
 * summed in by one multiply, so that a port's several QPs (child
 * interfaces, or LIDs shared past 48K ports) spread. Keys that fill a
 * slot set anyway are found in the hash index.
 */
static __rte_always_inline uint32_t
ipoib_mac_front_idx(uint64_t key, uint32_t mask)
{
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	return (uint32_t)(__builtin_bswap64(key) >> 16) & mask;
#else
	return (uint32_t)(key >> 16) & mask;
#endif
}

static __rte_always_inline uint32_t
ipoib_src_front_idx(uint64_t key, uint32_t mask)
{
	/*
	 * The LID alone, not the bits after it: a burst may pass the
	 * dynfield's word, which has the P_Key index there (decap_word()).
	 */
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	uint32_t q = (uint32_t)key, s = (uint16_t)(key >> 32);
#else
	uint32_t q = (uint32_t)(key >> 32), s = (uint32_t)key >> 16;
#endif
	/* q * 0x10101: the QPN's three bytes added up into the low bits. */
	return (s ^ q * 0x10101u) & mask;
}

/*
 * Slot @p idx of a front's array @p slot, read by a data lcore: an entry,
 * or the front's none. Acquire: the entry's key is complete when seen.
 */
static __rte_always_inline void *
ipoib_slot_get(void *const *slot, uint32_t idx)
{
	return __atomic_load_n(&slot[idx], __ATOMIC_ACQUIRE);
}

static __rte_always_inline void *
ipoib_front_get(const struct ipoib_front *f, uint32_t idx)
{
	return ipoib_slot_get(f->slot, idx);
}

/*
 * A neighbour by MAC key @p key (never 0) whose front slot @p idx was
 * read as @p n: @p n when its key matches, else the other slots of the
 * set, else the hash index. Out of line: the bursts inline only the
 * first compare.
 */
struct rte_ipoib_neigh *ipoib_mac_lookup_slow(const struct rte_ipoib_tbl *tbl, uint64_t key,
					      uint32_t idx);

/* The same for a source binding by key @p key (ipoib_src_key_w()). */
const struct ipoib_bind *ipoib_src_lookup_slow(const struct rte_ipoib_tbl *tbl, uint64_t key,
					       uint32_t idx);

/*
 * The 8-byte key of a MAC (its 6 bytes, two zero bytes), built in a
 * register: a word read back from a 4-byte and a 2-byte store would wait
 * for both to reach the cache (no store-to-load forwarding).
 */
static __rte_always_inline uint64_t
ipoib_mac_key(const uint8_t *mac)
{
	uint32_t lo;
	uint16_t hi;

	memcpy(&lo, mac, 4);
	memcpy(&hi, mac + 4, 2);
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	return lo | (uint64_t)hi << 32;
#else
	return (uint64_t)lo << 32 | (uint64_t)hi << 16;
#endif
}

/* A neighbour by MAC key, front then hash; 0 finds nothing. */
static __rte_always_inline struct rte_ipoib_neigh *
ipoib_mac_lookup(const struct rte_ipoib_tbl *tbl, uint64_t key)
{
	uint32_t idx = ipoib_mac_front_idx(key, tbl->mac_front.mask);
	struct rte_ipoib_neigh *n = ipoib_front_get(&tbl->mac_front, idx);
	uint64_t k;

	memcpy(&k, n->mackey, 8);
	if (likely(k == key))
		return n;
	return key != 0 ? ipoib_mac_lookup_slow(tbl, key, idx) : NULL;
}

/* A source binding by key (ipoib_src_key_w()), front then hash. */
static __rte_always_inline const struct ipoib_bind *
ipoib_src_lookup(const struct rte_ipoib_tbl *tbl, uint64_t key)
{
	uint32_t idx = ipoib_src_front_idx(key, tbl->src_front.mask);
	const struct ipoib_bind *b = ipoib_front_get(&tbl->src_front, idx);
	uint64_t k;

	memcpy(&k, b->key, 8);
	if (likely(k == key))
		return b;
	return ipoib_src_lookup_slow(tbl, key, idx);
}

#endif /* _IPOIB_PRIVATE_H_ */
