/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The library's one log type; its name, "lib.ib", comes from
 * -DRTE_LOG_DEFAULT_LOGTYPE in lib/ib/meson.build.
 */

#include <rte_log.h>

#include "ib_private.h"

RTE_LOG_REGISTER_DEFAULT(ib_logtype, NOTICE);
