/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _IBUMAD_PRIVATE_H_
#define _IBUMAD_PRIVATE_H_

/*
 * Private to librte_ibumad, the user-MAD service: its log type
 * (lib.ibumad). The service reaches the MAD core only through
 * lib/ibmad's public headers (rte_ibmad.h, rte_ibmad_ctrl.h).
 */

#include <rte_log.h>

extern int ibumad_logtype;

/** Log with the calling function's name; call sites give no newline. */
#define IBUMAD_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, ibumad_logtype, "%s(): " fmt "\n", \
		__func__, ##__VA_ARGS__)

#endif /* _IBUMAD_PRIVATE_H_ */
