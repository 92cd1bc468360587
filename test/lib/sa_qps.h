/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef SA_QPS_H
#define SA_QPS_H

/*
 * What the two clients of test/bench/bench_sa_qps.py share, so that they
 * count alike: the destination file, the check of each PathRecord answer,
 * the clock, the per-slice completion counts and the result line. Plain
 * C: one client is a DPDK host (test/fabric/sa_host, librte_ibmad's SA
 * client), the other runs on libibumad (test/bench/sa_qps_umad).
 */

#include <stdbool.h>
#include <stdint.h>

/* Completions are counted per slice of the run, 100 ms each. */
#define SA_QPS_SLICE_MS 100
#define SA_QPS_MAX_SLICES 1200
#define SA_QPS_MAX_DEPTH 256

struct sa_qps_dest {
	uint16_t lid;          /**< the destination port's base LID */
	uint8_t gid[16];       /**< its GID, network order */
};

struct sa_qps_stats {
	uint64_t t0_ns;        /**< start of the measured window */
	uint64_t window_ns;    /**< its length */
	unsigned int done;     /**< checked answers inside the window */
	unsigned int late;     /**< checked answers after it (the drain) */
	unsigned int errors;   /**< SA status or transport errors */
	unsigned int timeouts; /**< queries never answered */
	unsigned int bad;      /**< answers with another path than asked */
	unsigned int send_errors; /**< queries that could not be sent */
	unsigned int slices[SA_QPS_MAX_SLICES];
};

/**
 * Read @p file: one "<lid> <gid>" per line ('#' starts a comment).
 * @return the number of destinations (*@p out malloc'ed), or 0 with a
 *   message naming the file and line in @p err.
 */
unsigned int sa_qps_load(const char *file, struct sa_qps_dest **out,
			 char *err, size_t errlen);

/** CLOCK_MONOTONIC in ns. */
uint64_t sa_qps_now_ns(void);

/** Start a window of @p ms from now; false if longer than the slices allow. */
bool sa_qps_start(struct sa_qps_stats *s, unsigned int ms);

/** True while the window is open: keep sending. */
bool sa_qps_open(const struct sa_qps_stats *s, uint64_t now_ns);

/**
 * Check one answer: the path asked for, from (@p my_lid, @p my_gid) to
 * @p d. Counts it as done (in its slice), late or bad.
 * @return true if it matched.
 */
bool sa_qps_answer(struct sa_qps_stats *s, uint64_t now_ns,
		   const struct sa_qps_dest *d, uint16_t my_lid,
		   const uint8_t *my_gid, uint16_t slid, uint16_t dlid,
		   const uint8_t *sgid, const uint8_t *dgid);

/**
 * Print the result line: "OK qps=<done/window> slice_med=<q/s>
 * slice_min=<q/s> done= late= errors= timeouts= bad= send_errors= depth=
 * dests=". The caller judges the counts.
 */
void sa_qps_print(const struct sa_qps_stats *s, unsigned int depth,
		  unsigned int nb_dests);

#endif /* SA_QPS_H */
