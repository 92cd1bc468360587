/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * Logging of the simulator (log.c): errors, info, debug, warnings.
 */

#ifndef _IBFABRIC_FAB_LOG_H_
#define _IBFABRIC_FAB_LOG_H_

/* ------------------------------------------------------------------ */
/* Logging */

extern int fab_log_level;	/**< 0 errors, 1 info, 2 debug */
void fab_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define FAB_ERR(...)	fab_log(0, __VA_ARGS__)
#define FAB_INFO(...)	fab_log(1, __VA_ARGS__)
/** A recovered anomaly: "ibfabric: warning: ...", unless -q. */
void fab_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define FAB_DBG(...)	do { if (fab_log_level >= 2) fab_log(2, __VA_ARGS__); } while (0)

#endif /* _IBFABRIC_FAB_LOG_H_ */
