/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * lib/ipoib's allocations, white box (issue 29): built on
 * ipoib_internal_dep, whose heap hook (struct ipoib_mem_hook,
 * ipoib_index.h) makes the n-th allocation fail and counts what is live.
 * rte_ipoib_tbl_create() is made to fail at each of its allocations in
 * turn: every failure must return NULL with rte_errno ENOMEM and leave
 * nothing allocated (a double free shows as fewer live allocations than
 * before, or as AddressSanitizer's report in the ASan build; a leak as
 * more). Then the table's memory against the bound rte_ipoib_table.h
 * documents, and its size limits.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>

#include <rte_ipoib_table.h>

#include "test.h"

#include "ipoib_index.h"

static void
hook_reset(uint64_t fail_at)
{
	ipoib_mem_hook.nb_alloc = 0;
	ipoib_mem_hook.fail_at = fail_at;
}

/*
 * Create with @p max_neigh and @p max_path, the k-th allocation failing,
 * for k = 1, 2, ... until a create succeeds; returns the number of
 * allocations the successful one made (0 on a failed check).
 */
static unsigned int
fail_every_step(uint32_t max_neigh, uint32_t max_path)
{
	struct rte_ipoib_tbl_conf c = { .max_neigh = max_neigh, .max_path = max_path };
	int64_t live0 = ipoib_mem_hook.live, bytes0 = ipoib_mem_hook.live_bytes;
	struct rte_ipoib_tbl *t;
	uint64_t k;

	for (k = 1; k < 1000; k++) {
		hook_reset(k);
		rte_errno = 0;
		t = rte_ipoib_tbl_create(&c);
		if (t != NULL) {
			unsigned int made = (unsigned int)ipoib_mem_hook.nb_alloc;

			hook_reset(0);
			rte_ipoib_tbl_free(t);
			if (ipoib_mem_hook.live != live0 || ipoib_mem_hook.live_bytes != bytes0) {
				printf("max_neigh %u: %" PRId64 " allocations live after free\n",
				       max_neigh, ipoib_mem_hook.live - live0);
				return 0;
			}
			/* The k-th allocation was not reached: all k - 1 failed. */
			if (made != k - 1) {
				printf("max_neigh %u: %u allocations, %" PRIu64 " failed\n",
				       max_neigh, made, k - 1);
				return 0;
			}
			return made;
		}
		if (rte_errno != ENOMEM) {
			printf("max_neigh %u, allocation %" PRIu64 " failing: rte_errno %d, not ENOMEM\n",
			       max_neigh, k, rte_errno);
			return 0;
		}
		if (ipoib_mem_hook.nb_alloc < k) {
			printf("max_neigh %u: failed before allocation %" PRIu64 "\n", max_neigh, k);
			return 0;
		}
		if (ipoib_mem_hook.live != live0 || ipoib_mem_hook.live_bytes != bytes0) {
			printf("max_neigh %u, allocation %" PRIu64 " failing: %" PRId64
			       " allocations live (negative: freed twice)\n",
			       max_neigh, k, ipoib_mem_hook.live - live0);
			return 0;
		}
	}
	printf("max_neigh %u: still failing after %" PRIu64 " allocations\n", max_neigh, k);
	return 0;
}

static int
test_create_fails_at_every_allocation(void)
{
	/* Small arrays, then arrays of 2 MiB and more (huge-page advice). */
	unsigned int small = fail_every_step(16, 16);
	unsigned int big = fail_every_step(65536, 1024);

	/*
	 * At least: the table, 2 pools of 2 arrays (not with ASan, whose
	 * pools are malloc only), 5 hash indexes, 2 fronts of 3 arrays.
	 */
	TEST_ASSERT(small >= 12, "small table: %u allocations", small);
	TEST_ASSERT(big >= 12, "big table: %u allocations", big);
	return TEST_SUCCESS;
}

static int
test_path_add_fails(void)
{
	struct rte_ipoib_tbl_conf c = { .max_neigh = 16, .max_path = 16 };
	struct rte_ipoib_tbl_stats st;
	struct rte_ib_gid dgid;
	struct rte_ipoib_tbl *t;
	int64_t live0;

	hook_reset(0);
	t = rte_ipoib_tbl_create(&c);
	TEST_ASSERT(t != NULL, "create");
	memset(&dgid, 0, sizeof(dgid));
	dgid.raw[0] = 0xfe;
	dgid.raw[1] = 0x80;
	dgid.raw[15] = 1;
	live0 = ipoib_mem_hook.live;
	hook_reset(1);
	TEST_ASSERT(rte_ipoib_path_add(t, &dgid, 0xffff) == NULL && rte_errno == ENOMEM,
		    "path_add with its allocation failing");
	TEST_ASSERT_EQUAL(ipoib_mem_hook.live, live0, "path_add failed: live allocations");
	TEST_ASSERT_SUCCESS(rte_ipoib_tbl_stats_get(t, &st), "stats");
	TEST_ASSERT_EQUAL(st.nb_path, 0u, "path counted");
	hook_reset(0);
	TEST_ASSERT(rte_ipoib_path_add(t, &dgid, 0xffff) != NULL, "path_add again");
	rte_ipoib_tbl_free(t);
	return TEST_SUCCESS;
}

/* The smallest power of two >= @p x (x >= 1). */
static uint64_t
pow2(uint64_t x)
{
	uint64_t p = 1;

	while (p < x)
		p <<= 1;
	return p;
}

/*
 * A table's memory stays within rte_ipoib_table.h's bound:
 * RTE_IPOIB_TBL_MEM_NEIGH per neighbour (rounded up to a power of two,
 * at least 16), RTE_IPOIB_TBL_MEM_PATH per path (rounded), 4 KiB, and
 * 2 MiB per array of 2 MiB or more (11 at most).
 */
static int
test_memory_bound(void)
{
	static const uint32_t sizes[][2] = { { 1, 1 }, { 100, 50 }, { 65536, 1024 },
					     { 100000, 4096 } };
	unsigned int i;

	for (i = 0; i < RTE_DIM(sizes); i++) {
		struct rte_ipoib_tbl_conf c = { .max_neigh = sizes[i][0],
						.max_path = sizes[i][1] };
		int64_t bytes0 = ipoib_mem_hook.live_bytes, used;
		uint64_t bound = RTE_IPOIB_TBL_MEM_NEIGH * RTE_MAX(pow2(c.max_neigh), 16u) +
			RTE_IPOIB_TBL_MEM_PATH * pow2(c.max_path) + 4096;
		struct rte_ipoib_tbl *t;

		/* Below 2 MiB in all, no array is of 2 MiB: no rounding to add. */
		if (bound >= (UINT64_C(2) << 20))
			bound += 11 * (UINT64_C(2) << 20);

		hook_reset(0);
		t = rte_ipoib_tbl_create(&c);
		TEST_ASSERT(t != NULL, "create %u neighbours", c.max_neigh);
		used = ipoib_mem_hook.live_bytes - bytes0;
		rte_ipoib_tbl_free(t);
		printf("%u neighbours, %u paths: %" PRId64 " bytes, bound %" PRIu64 "\n",
		       c.max_neigh, c.max_path, used, bound);
		TEST_ASSERT(used > 0 && (uint64_t)used <= bound,
			    "%u neighbours: %" PRId64 " bytes over the bound %" PRIu64,
			    c.max_neigh, used, bound);
	}
	return TEST_SUCCESS;
}

/*
 * The limits: RTE_IPOIB_TBL_MAX_NEIGH and _MAX_PATH pass the checks (the
 * first allocation, made to fail, is reached: ENOMEM, without taking a
 * GiB here), one more is refused before anything is allocated.
 */
static int
test_size_limits(void)
{
	struct rte_ipoib_tbl_conf c = { .max_neigh = RTE_IPOIB_TBL_MAX_NEIGH,
					.max_path = RTE_IPOIB_TBL_MAX_PATH };

	hook_reset(1);
	TEST_ASSERT(rte_ipoib_tbl_create(&c) == NULL && rte_errno == ENOMEM &&
		    ipoib_mem_hook.nb_alloc == 1, "the limits: accepted, first allocation failed");
	c.max_neigh = RTE_IPOIB_TBL_MAX_NEIGH + 1;
	hook_reset(1);
	TEST_ASSERT(rte_ipoib_tbl_create(&c) == NULL && rte_errno == EINVAL &&
		    ipoib_mem_hook.nb_alloc == 0, "max_neigh over the limit");
	c.max_neigh = RTE_IPOIB_TBL_MAX_NEIGH;
	c.max_path = RTE_IPOIB_TBL_MAX_PATH + 1;
	hook_reset(1);
	TEST_ASSERT(rte_ipoib_tbl_create(&c) == NULL && rte_errno == EINVAL &&
		    ipoib_mem_hook.nb_alloc == 0, "max_path over the limit");
	c.max_path = UINT32_MAX;
	hook_reset(1);
	TEST_ASSERT(rte_ipoib_tbl_create(&c) == NULL && rte_errno == EINVAL &&
		    ipoib_mem_hook.nb_alloc == 0, "max_path UINT32_MAX");
	hook_reset(0);
	return TEST_SUCCESS;
}

static struct unit_test_suite ipoib_alloc_suite = {
	.suite_name = "lib/ipoib allocations",
	.unit_test_cases = {
		TEST_CASE(test_create_fails_at_every_allocation),
		TEST_CASE(test_path_add_fails),
		TEST_CASE(test_memory_bound),
		TEST_CASE(test_size_limits),
		TEST_CASES_END()
	}
};

int
main(void)
{
	return unit_test_suite_runner(&ipoib_alloc_suite);
}
