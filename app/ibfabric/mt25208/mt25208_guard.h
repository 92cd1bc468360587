/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * Bus errors on host memory become DMA faults, never a signal.
 *
 * A host maps its DMA windows from files it owns. A memfd is sealed
 * against shrinking when it is mapped (pcisim.c), but a file that cannot
 * be sealed (hugetlbfs, tmpfs) may be truncated by the host afterwards:
 * the model's next access to a page past the new end raises SIGBUS. Every
 * entry into the model that touches host memory runs under
 * mt25208_guard(): a SIGBUS whose address lies in one of that device's
 * windows ends the call early, the window is revoked (its pages replaced
 * by anonymous memory, then removed from the window table: later
 * accesses are ordinary DMA faults) and the caller reports the fault as
 * doc/guides/nics/mthca_hw.rst says (a command: status 0x01; the data
 * path: a catastrophic error). Any other SIGBUS keeps its default action.
 */

#ifndef _IBFABRIC_MT25208_GUARD_H_
#define _IBFABRIC_MT25208_GUARD_H_

#include <stdint.h>

struct mt25208;

/**
 * Run @p fn(@p dev, @p arg) under the bus-error guard.
 * @return 0 when @p fn returned, or -EFAULT when a bus error on one of
 *   @p dev's windows ended it (the window is revoked, the fault counted
 *   and logged with its bus address).
 */
int mt25208_guard(struct mt25208 *dev, void (*fn)(struct mt25208 *dev, void *arg), void *arg);

#endif /* _IBFABRIC_MT25208_GUARD_H_ */
