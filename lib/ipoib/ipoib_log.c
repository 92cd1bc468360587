/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The library's one log type; its name, "lib.ipoib", comes from
 * -DRTE_LOG_DEFAULT_LOGTYPE in lib/ipoib/meson.build.
 */

#include <rte_log.h>

#include "ipoib_private.h"

RTE_LOG_REGISTER_DEFAULT(ipoib_logtype, NOTICE);
