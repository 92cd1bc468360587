/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Firmware commands on the HCR (Linux mthca_cmd.c): polled mode only.
 * One command at a time under dev->cmd_lock; the two 4 KiB mailboxes of
 * the device are used under the same lock.
 */

#ifndef _MTHCA_CMD_H_
#define _MTHCA_CMD_H_

#include <stdint.h>

struct mthca_dev;

/**
 * Post a command and wait for it. The caller holds dev->cmd_lock.
 *
 * @return the firmware status (MTHCA_ST_*, >= 0), or -ETIMEDOUT / -EIO
 *   when the HCR never completes (the HCA is then marked catastrophic).
 */
int mthca_cmd_locked(struct mthca_dev *dev, uint64_t in_param, uint64_t *out_param,
		     uint32_t in_mod, uint8_t op_mod, uint16_t op);

/** mthca_cmd_locked() taking and releasing dev->cmd_lock. */
int mthca_cmd(struct mthca_dev *dev, uint64_t in_param, uint64_t *out_param,
	      uint32_t in_mod, uint8_t op_mod, uint16_t op);

/**
 * Post a command whose input is dev->mbox_in (already filled) and/or whose
 * output is dev->mbox_out. The caller holds dev->cmd_lock.
 */
int mthca_cmd_box_locked(struct mthca_dev *dev, uint16_t op, uint8_t op_mod,
			 uint32_t in_mod, bool in_box, bool out_box);

/** Name of an opcode, for logs. */
const char *mthca_cmd_name(uint16_t op);

/** Linux mthca_status_to_errno(): a negative errno for a firmware status. */
int mthca_status_errno(int status);

#endif /* _MTHCA_CMD_H_ */
