/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The ICM profile of net_mthca (Linux mthca_make_profile): which context
 * tables the HCA's ICM holds, how many entries each gets by default, and
 * how they are laid out (each at least a page, sorted by size, largest
 * first, so that every table is aligned to its size). A driver choice,
 * not a hardware format: the entry sizes come from the caller
 * (QUERY_DEV_LIM and the PMD's mthca_hw.h).
 *
 * This header is plain C with no DPDK or driver include, so that the
 * driver-less test host (test/lib/hca_host) builds the same profile from
 * this one definition instead of a copy. The fabric model (app/ibfabric)
 * does not include it: the model and the PMD share only the hardware
 * interface (doc/guides/nics/mthca_hw.rst).
 */

#ifndef _MTHCA_PROFILE_H_
#define _MTHCA_PROFILE_H_

#include <stdbool.h>
#include <stdint.h>

/* Default entries: 2 ports x (16 rx + 16 tx) queues, the special QPs, and room. */
#define MTHCA_PROF_NUM_QPS		1024
#define MTHCA_PROF_NUM_CQS		1024
#define MTHCA_PROF_NUM_MPTS		1024
#define MTHCA_PROF_NUM_MTT_SEGS		16384	/* 131072 pages of 4 KiB: 512 MiB registered */
#define MTHCA_PROF_NUM_MCGS		256	/* 128 hash buckets + 128 overflow entries */
#define MTHCA_PROF_RDB_PER_QP		4	/* Linux MTHCA_RDB_ENTRY_SIZE x 4 per QP */

/** The ICM tables of a mem-free HCA, in Linux mthca_make_profile's order. */
enum mthca_icm_table {
	MTHCA_ICM_QPC,
	MTHCA_ICM_EEC,
	MTHCA_ICM_SRQC,
	MTHCA_ICM_CQC,
	MTHCA_ICM_EQPC,
	MTHCA_ICM_EEEC,
	MTHCA_ICM_EQC,
	MTHCA_ICM_RDB,
	MTHCA_ICM_MCG,
	MTHCA_ICM_MPT,
	MTHCA_ICM_MTT,
	MTHCA_ICM_UAR_SCR,
	MTHCA_ICM_UARC,
	MTHCA_ICM_NUM
};

/** A profile: the caller fills entry_size and count, mthca_icm_layout() the rest. */
struct mthca_icm_profile {
	uint64_t entry_size[MTHCA_ICM_NUM];	/**< in: bytes per entry */
	uint64_t count[MTHCA_ICM_NUM];		/**< in: entries (0: a page, unused) */
	uint64_t size[MTHCA_ICM_NUM];		/**< out: bytes, at least a page */
	uint64_t base[MTHCA_ICM_NUM];		/**< out: ICM virtual address */
	uint8_t order[MTHCA_ICM_NUM];		/**< out: the tables by base */
	uint64_t total;				/**< out: ICM bytes of the profile */
};

/** Names of the tables, for logs. */
static inline const char *
mthca_icm_table_name(enum mthca_icm_table t)
{
	static const char *const names[MTHCA_ICM_NUM] = {
		"QPC", "EEC", "SRQC", "CQC", "EQPC", "EEEC", "EQC", "RDB", "MCG",
		"MPT", "MTT", "UAR_SCR", "UARC",
	};

	return t < MTHCA_ICM_NUM ? names[t] : "?";
}

/** Whether the table is backed with host pages at bring-up (the others are unused). */
static inline bool
mthca_icm_table_backed(enum mthca_icm_table t)
{
	return t != MTHCA_ICM_EEC && t != MTHCA_ICM_SRQC && t != MTHCA_ICM_EEEC &&
	       t != MTHCA_ICM_UAR_SCR && t != MTHCA_ICM_UARC;
}

/**
 * A default count doubled until it is at least 4 times the reserved
 * entries, so it stays a power of two (as Linux mthca_make_profile keeps
 * room beyond what the firmware reserves).
 */
static inline uint32_t
mthca_prof_scale(uint32_t n, uint32_t rsvd)
{
	while (n < 4 * rsvd)
		n <<= 1;
	return n;
}

/** Sizes (at least @p page each), stable sort by size decreasing, bases from 0. */
static inline void
mthca_icm_layout(struct mthca_icm_profile *p, uint64_t page)
{
	unsigned int i, j;
	uint64_t total = 0;

	for (i = 0; i < MTHCA_ICM_NUM; i++) {
		p->size[i] = p->entry_size[i] * p->count[i];
		if (p->size[i] < page)
			p->size[i] = page;
		p->order[i] = (uint8_t)i;
	}
	for (i = 0; i < MTHCA_ICM_NUM; i++)
		for (j = 0; j + 1 < MTHCA_ICM_NUM - i; j++)
			if (p->size[p->order[j + 1]] > p->size[p->order[j]]) {
				uint8_t t = p->order[j];

				p->order[j] = p->order[j + 1];
				p->order[j + 1] = t;
			}
	for (i = 0; i < MTHCA_ICM_NUM; i++) {
		p->base[p->order[i]] = total;
		total += p->size[p->order[i]];
	}
	p->total = total;
}

#endif /* _MTHCA_PROFILE_H_ */
