/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _IB_PRIVATE_H_
#define _IB_PRIVATE_H_

/*
 * Private to librte_ib: the log type and macro shared by its files.
 */

#include <rte_log.h>

/** Log type "lib.ib", registered in ib_log.c. */
extern int ib_logtype;

/** Log with the calling function's name; call sites give no newline. */
#define IB_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, ib_logtype, "%s(): " fmt "\n", \
		__func__, ##__VA_ARGS__)

#endif /* _IB_PRIVATE_H_ */
