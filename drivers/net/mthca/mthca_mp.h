/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Primary/secondary messages (rte_mp): a secondary process reads the IB
 * counters of a port through the primary, which owns the HCA's command
 * interface (BAR0 is mapped in the primary only).
 */

#ifndef _MTHCA_MP_H_
#define _MTHCA_MP_H_

#include <stdint.h>

#include "mthca_stats.h"

/** How the primary reads the IB counters of a port (mthca_stats_ib_read_port()). */
typedef int (*mthca_mp_read_t)(uint16_t port_id, uint64_t v[MTHCA_IB_COUNTERS]);

/**
 * Primary: answer the secondaries' requests with @p read (once per
 * process; a function pointer, so that this file, which the statistics
 * call, does not call them back: doc/guides/nics/mthca.rst, "Files").
 * 0 or a negative errno.
 */
int mthca_mp_init_primary(mthca_mp_read_t read);

/**
 * Secondary: the raw IB counters of ethdev @p port_id, read by the
 * primary (mthca_stats_ib_read()). 0, or a negative errno: -ETIMEDOUT
 * when the primary did not answer within a second, -ENODEV when it does
 * not know the port, the primary's errno otherwise.
 */
int mthca_mp_ib_counters(uint16_t port_id, uint64_t v[MTHCA_IB_COUNTERS]);

#endif /* _MTHCA_MP_H_ */
