/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The IB address mbuf dynfield (rte_ib_mbuf.h).
 */

#include <rte_errno.h>
#include <rte_mbuf_dyn.h>

#include "ib_private.h"
#include "rte_ib_mbuf.h"

int rte_ib_mbuf_dynfield_offset = -1;

int
rte_ib_mbuf_dynfield_register(void)
{
	static const struct rte_mbuf_dynfield desc = {
		.name = RTE_IB_MBUF_DYNFIELD_NAME,
		.size = sizeof(struct rte_ib_mbuf_addr),
		.align = __alignof__(struct rte_ib_mbuf_addr),
	};
	int offset;

	/* rte_mbuf_dynfield_register() returns the existing offset when
	 * the same name was registered with the same parameters, in this
	 * process or the primary: that is what makes this idempotent.
	 */
	offset = rte_mbuf_dynfield_register(&desc);
	if (offset < 0) {
		IB_LOG(ERR, "mbuf dynfield %s: %s", desc.name,
		       rte_strerror(rte_errno));
		return -1;
	}
	rte_ib_mbuf_dynfield_offset = offset;
	return offset;
}
