/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Private to ibfabric's MT25208 model: the command mailboxes
 * (mt25208_mbox.c), for the command handlers.
 */

#ifndef _IBFABRIC_MT25208_MBOX_H_
#define _IBFABRIC_MT25208_MBOX_H_

#include <stddef.h>

struct mt25208;
struct mt25208_cmd;

/**
 * Input mailbox of @p c (@p len bytes at in_param), or NULL after a DMA
 * fault (counted, logged); output mailbox at out_param likewise.
 */
void *mt25208_mbox_in(struct mt25208 *dev, const struct mt25208_cmd *c, size_t len);
void *mt25208_mbox_out(struct mt25208 *dev, const struct mt25208_cmd *c, size_t len);

#endif /* _IBFABRIC_MT25208_MBOX_H_ */
