/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/* The shared counting of bench_sa_qps's two clients (sa_qps.h). */

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sa_qps.h"

unsigned int
sa_qps_load(const char *file, struct sa_qps_dest **out, char *err, size_t errlen)
{
	struct sa_qps_dest *d = NULL, *grown;
	unsigned int n = 0, cap = 0, line = 0, lid;
	char buf[256], gid[64];
	FILE *f;

	*out = NULL;
	f = fopen(file, "r");
	if (f == NULL) {
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		return 0;
	}
	while (fgets(buf, sizeof(buf), f) != NULL) {
		line++;
		if (buf[strspn(buf, " \t")] == '#' || buf[strspn(buf, " \t\n")] == '\0')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			grown = realloc(d, cap * sizeof(*d));
			if (grown == NULL) {
				snprintf(err, errlen, "%s: out of memory", file);
				goto fail;
			}
			d = grown;
		}
		if (sscanf(buf, "%u %63s", &lid, gid) != 2 || lid == 0 || lid > 0xbfff ||
		    inet_pton(AF_INET6, gid, d[n].gid) != 1) {
			snprintf(err, errlen, "%s:%u: not \"<unicast lid> <gid>\": %.60s",
				 file, line, buf);
			goto fail;
		}
		d[n++].lid = (uint16_t)lid;
	}
	fclose(f);
	if (n == 0) {
		snprintf(err, errlen, "%s: no destinations", file);
		free(d);
		return 0;
	}
	*out = d;
	return n;
fail:
	fclose(f);
	free(d);
	return 0;
}

uint64_t
sa_qps_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

bool
sa_qps_start(struct sa_qps_stats *s, unsigned int ms)
{
	memset(s, 0, sizeof(*s));
	if (ms < SA_QPS_SLICE_MS || ms / SA_QPS_SLICE_MS > SA_QPS_MAX_SLICES)
		return false;
	s->window_ns = (uint64_t)ms * 1000000u;
	s->t0_ns = sa_qps_now_ns();
	return true;
}

bool
sa_qps_open(const struct sa_qps_stats *s, uint64_t now_ns)
{
	return now_ns - s->t0_ns < s->window_ns;
}

bool
sa_qps_answer(struct sa_qps_stats *s, uint64_t now_ns, const struct sa_qps_dest *d,
	      uint16_t my_lid, const uint8_t *my_gid, uint16_t slid, uint16_t dlid,
	      const uint8_t *sgid, const uint8_t *dgid)
{
	uint64_t slice;

	if (slid != my_lid || dlid != d->lid || memcmp(sgid, my_gid, 16) != 0 ||
	    memcmp(dgid, d->gid, 16) != 0) {
		s->bad++;
		return false;
	}
	if (!sa_qps_open(s, now_ns)) {
		s->late++;
		return true;
	}
	s->done++;
	slice = (now_ns - s->t0_ns) / (SA_QPS_SLICE_MS * 1000000u);
	s->slices[slice]++;
	return true;
}

static int
cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

void
sa_qps_print(const struct sa_qps_stats *s, unsigned int depth, unsigned int nb_dests)
{
	unsigned int n = (unsigned int)(s->window_ns / (SA_QPS_SLICE_MS * 1000000u));
	unsigned int sorted[SA_QPS_MAX_SLICES];
	double per_s = 1000.0 / SA_QPS_SLICE_MS;

	memcpy(sorted, s->slices, n * sizeof(sorted[0]));
	qsort(sorted, n, sizeof(sorted[0]), cmp_uint);
	printf("OK qps=%.1f slice_med=%.1f slice_min=%.1f done=%u late=%u errors=%u "
	       "timeouts=%u bad=%u send_errors=%u depth=%u dests=%u\n",
	       s->done / (s->window_ns / 1e9), sorted[n / 2] * per_s, sorted[0] * per_s,
	       s->done, s->late, s->errors, s->timeouts, s->bad, s->send_errors, depth,
	       nb_dests);
	fflush(stdout);
}
