/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * Minimal unit-test runner for dpdk-ipoib, modelled on DPDK's app/test
 * (test.h): a case is a function returning TEST_SUCCESS, TEST_FAILED or
 * TEST_SKIPPED; a suite lists cases with optional setup/teardown; the
 * runner prints one line per case and a summary, and its exit code is
 * what meson expects (0 pass, 1 fail, 77 skip).
 *
 * No silent skips (doc/guides/testing.rst): a case may only skip when the
 * suite lists it with TEST_CASE_MAY_SKIP() and the reason. A case that
 * returns TEST_SKIPPED without one fails: a check that did not run is not
 * a check that passed.
 */

#ifndef _DPDK_IPOIB_TEST_H_
#define _DPDK_IPOIB_TEST_H_

#include <stdio.h>
#include <string.h>

#define TEST_SUCCESS 0
#define TEST_FAILED -1
#define TEST_SKIPPED 77

/** Fail the current case with a message when @p cond is false. */
#define TEST_ASSERT(cond, msg, ...) do { \
	if (!(cond)) { \
		printf("  %s:%d: assertion '%s' failed: " msg "\n", \
		       __FILE__, __LINE__, #cond, ##__VA_ARGS__); \
		return TEST_FAILED; \
	} \
} while (0)

#define TEST_ASSERT_EQUAL(a, b, msg, ...) do { \
	unsigned long long _a = (unsigned long long)(a); \
	unsigned long long _b = (unsigned long long)(b); \
	if (_a != _b) { \
		printf("  %s:%d: %s == %s failed (0x%llx != 0x%llx): " msg "\n", \
		       __FILE__, __LINE__, #a, #b, _a, _b, ##__VA_ARGS__); \
		return TEST_FAILED; \
	} \
} while (0)

#define TEST_ASSERT_SUCCESS(val, msg, ...) TEST_ASSERT_EQUAL(val, 0, msg, ##__VA_ARGS__)
#define TEST_ASSERT_FAIL(val, msg, ...) TEST_ASSERT((val) != 0, msg, ##__VA_ARGS__)

/** Compare two byte buffers; on mismatch print both around the first difference. */
#define TEST_ASSERT_BUFFERS_EQUAL(a, b, len, msg, ...) do { \
	const unsigned char *_pa = (const unsigned char *)(a); \
	const unsigned char *_pb = (const unsigned char *)(b); \
	size_t _l = (len), _i; \
	for (_i = 0; _i < _l; _i++) \
		if (_pa[_i] != _pb[_i]) \
			break; \
	if (_i != _l) { \
		printf("  %s:%d: buffers differ at byte %zu (0x%02x != 0x%02x): " msg "\n", \
		       __FILE__, __LINE__, _i, _pa[_i], _pb[_i], ##__VA_ARGS__); \
		test_hexdump("  got     ", _pa, _l); \
		test_hexdump("  expected", _pb, _l); \
		return TEST_FAILED; \
	} \
} while (0)

/** Most cleanups registered by one case (test_defer()). */
#define TEST_MAX_DEFERRED 1024

struct test_deferred {
	void (*fn)(void *arg);
	void *arg;
};

static struct test_deferred test_deferred_list[TEST_MAX_DEFERRED];
static unsigned int test_deferred_count;

/**
 * Undo something the current case started (an agent, a send in flight, a
 * thread): @p fn(@p arg) runs after the case and its teardown, whether
 * the case passed or an assertion returned early, last registered first.
 * A case that leaves work in flight when it fails must not let that work
 * land on its dead stack frame in a later case.
 *
 * @return
 *   0, or -1 when the list is full (@p fn then runs at once).
 */
static inline int
test_defer(void (*fn)(void *arg), void *arg)
{
	if (test_deferred_count == TEST_MAX_DEFERRED) {
		printf("  test_defer: more than %d cleanups: run at once\n",
		       TEST_MAX_DEFERRED);
		fn(arg);
		return -1;
	}
	test_deferred_list[test_deferred_count].fn = fn;
	test_deferred_list[test_deferred_count].arg = arg;
	test_deferred_count++;
	return 0;
}

static inline void
test_deferred_run(void)
{
	while (test_deferred_count > 0) {
		test_deferred_count--;
		test_deferred_list[test_deferred_count].fn(
			test_deferred_list[test_deferred_count].arg);
	}
}

struct unit_test_case {
	int (*setup)(void);
	void (*teardown)(void);
	int (*testcase)(void);
	const char *name;
	/** Why this case may return TEST_SKIPPED; NULL: a skip is a failure. */
	const char *skip_reason;
};

#define TEST_CASE(fn) { NULL, NULL, fn, #fn, NULL }
#define TEST_CASE_ST(setup, teardown, fn) { setup, teardown, fn, #fn, NULL }
/** A case that may skip, for the reason given (printed when it does). */
#define TEST_CASE_MAY_SKIP(fn, reason) { NULL, NULL, fn, #fn, reason }
#define TEST_CASES_END() { NULL, NULL, NULL, NULL, NULL }

struct unit_test_suite {
	const char *suite_name;
	int (*setup)(void);
	void (*teardown)(void);
	struct unit_test_case unit_test_cases[];
};

static inline void
test_hexdump(const char *title, const unsigned char *p, size_t len)
{
	size_t i;

	printf("%s:", title);
	for (i = 0; i < len; i++)
		printf("%s%02x", (i % 16) == 0 ? "\n    " : " ", p[i]);
	printf("\n");
}

/**
 * Run every case of @p suite.
 *
 * @return
 *   0 when every case passed or was skipped for its declared reason (and
 *   at least one passed), 77 when every case was skipped for its declared
 *   reason, 1 otherwise (a failure, or a skip the suite did not declare).
 */
static inline int
unit_test_suite_runner(const struct unit_test_suite *suite)
{
	const struct unit_test_case *tc;
	unsigned int passed = 0, failed = 0, skipped = 0;
	int rc;

	printf(" + ------------------------------------------------------- +\n");
	printf(" + Test Suite : %s\n", suite->suite_name);
	if (suite->setup != NULL && suite->setup() != 0) {
		printf(" + Suite setup failed\n");
		return 1;
	}
	for (tc = suite->unit_test_cases; tc->testcase != NULL; tc++) {
		rc = TEST_SUCCESS;
		if (tc->setup != NULL)
			rc = tc->setup();
		if (rc == TEST_SUCCESS)
			rc = tc->testcase();
		else if (rc != TEST_SKIPPED)
			rc = TEST_FAILED;
		if (tc->teardown != NULL)
			tc->teardown();
		test_deferred_run();
		if (rc == TEST_SKIPPED && tc->skip_reason == NULL) {
			printf("  %s skipped, but the suite declares no skip for it: failed\n",
			       tc->name);
			rc = TEST_FAILED;
		}
		if (rc == TEST_SUCCESS) {
			passed++;
			printf(" + TestCase [%3u] : %s succeeded\n",
			       passed + failed + skipped, tc->name);
		} else if (rc == TEST_SKIPPED) {
			skipped++;
			printf(" + TestCase [%3u] : %s skipped (declared: %s)\n",
			       passed + failed + skipped, tc->name, tc->skip_reason);
		} else {
			failed++;
			printf(" + TestCase [%3u] : %s failed\n",
			       passed + failed + skipped, tc->name);
		}
	}
	if (suite->teardown != NULL)
		suite->teardown();
	printf(" + Tests Total : %3u, Passed : %3u, Failed : %3u, Skipped : %3u\n",
	       passed + failed + skipped, passed, failed, skipped);
	printf(" + ------------------------------------------------------- +\n");
	if (failed != 0)
		return 1;
	return passed == 0 ? 77 : 0;
}

#endif /* _DPDK_IPOIB_TEST_H_ */
