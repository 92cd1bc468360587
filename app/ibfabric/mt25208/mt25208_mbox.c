/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * MT25208 model: command mailboxes. The input and output mailbox of a
 * firmware command in host memory (Linux mthca_alloc_mailbox(): the
 * HCR's in_param / out_param are their bus addresses), reached through
 * the IOMMU windows. Every command handler (mt25208_icm.c, _mr.c,
 * _eqcq.c, _qp_ctx.c, _mad.c, _mcg.c, _fw.c) reads and writes them here;
 * mt25208_cmd.c only dispatches, so no handler calls back into it.
 */

#include <inttypes.h>
#include <stddef.h>

#include "fab_log.h"
#include "fab_node.h"
#include "mt25208.h"
#include "mt25208_mbox.h"

void *
mt25208_mbox_in(struct mt25208 *dev, const struct mt25208_cmd *c, size_t len)
{
	void *p = mt25208_dma_ptr(dev, c->in_param, len, false);

	if (p == NULL)
		FAB_ERR("%s: command 0x%03x: input mailbox at 0x%" PRIx64 " not reachable",
			dev->node->name, c->opcode, c->in_param);
	return p;
}

void *
mt25208_mbox_out(struct mt25208 *dev, const struct mt25208_cmd *c, size_t len)
{
	void *p = mt25208_dma_ptr(dev, c->out_param, len, true);

	if (p == NULL)
		FAB_ERR("%s: command 0x%03x: output mailbox at 0x%" PRIx64 " not reachable",
			dev->node->name, c->opcode, c->out_param);
	return p;
}
