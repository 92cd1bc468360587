/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * hca_host: ibfabric's control socket (--ctl), read for the MT25208
 * model's named driver checks ("hca <node> errors",
 * doc/guides/tools/ibfabric.rst; doc/guides/nics/mthca_hw.rst, "What the
 * model checks"). The matrix asserts that a row's bug is the one the
 * model counted, which silicon cannot show when its outcome is "nothing".
 */

#ifndef _HH_CTL_H_
#define _HH_CTL_H_

#include <stddef.h>

#define HH_CTL_MAX_CHECKS	32
#define HH_CTL_NAME_MAX		32

/** The counters of one node's named checks, as "hca <node> errors" lists them. */
struct hh_checks {
	unsigned int n;
	char name[HH_CTL_MAX_CHECKS][HH_CTL_NAME_MAX];
	unsigned long long count[HH_CTL_MAX_CHECKS];
};

/**
 * Ask the ibfabric control socket at @p path for node @p node's check
 * counters (@p node: a node name or NodeDescription). 0, or -1 with the
 * reason in @p why (@p len bytes).
 */
int hh_ctl_checks(const char *path, const char *node, struct hh_checks *out, char *why,
		  size_t len);
/** Counter of check @p name in @p c, or -1 when @p c has no such check. */
long long hh_ctl_count(const struct hh_checks *c, const char *name);

#endif /* _HH_CTL_H_ */
