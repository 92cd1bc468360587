/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The HCR protocol in polled mode (Linux mthca_cmd_post_hcr and
 * mthca_cmd_poll): refuse while GO is set, write words 0..5, barrier, the
 * command word with GO last; poll GO; read the immediate output and the
 * status. 32-bit accesses only.
 */

#include <errno.h>
#include <time.h>

#include <rte_cycles.h>

#include "mthca.h"
#include "mthca_cmd.h"

static inline volatile uint8_t *
hcr(struct mthca_dev *dev, unsigned int word_off)
{
	return dev->bar0 + MTHCA_HCR_BASE + word_off;
}

static bool
hcr_go(struct mthca_dev *dev)
{
	return (mthca_mmio_read32(hcr(dev, MTHCA_HCR_CMD)) & MTHCA_HCR_GO) != 0;
}

/*
 * Wait for GO to clear: spin first (a busy model answers in microseconds),
 * then sleep in small steps (an idle one polls its BAR every 1 ms;
 * doc/guides/nics/mthca_hw.rst, "Polling and latency").
 */
static int
hcr_wait(struct mthca_dev *dev, unsigned int timeout_ms)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() * timeout_ms / 1000;
	unsigned int spins = 0;

	while (hcr_go(dev)) {
		if (rte_get_timer_cycles() > end)
			return -ETIMEDOUT;
		if (++spins > 2000) {
			struct timespec ts = { 0, 20000 };

			nanosleep(&ts, NULL);
		} else {
			rte_pause();
		}
	}
	return 0;
}

int
mthca_cmd_locked(struct mthca_dev *dev, uint64_t in_param, uint64_t *out_param,
		 uint32_t in_mod, uint8_t op_mod, uint16_t op)
{
	uint64_t out = out_param != NULL ? *out_param : 0;
	uint32_t word;
	int st;

	if (dev->catastrophic)
		return -EIO;
	if (hcr_go(dev)) {
		MTHCA_LOG(ERR, "%s: HCR busy before %s", dev->name, mthca_cmd_name(op));
		return -EBUSY;
	}
	mthca_mmio_write32(hcr(dev, MTHCA_HCR_IN_PARAM_HI), (uint32_t)(in_param >> 32));
	mthca_mmio_write32(hcr(dev, MTHCA_HCR_IN_PARAM_LO), (uint32_t)in_param);
	mthca_mmio_write32(hcr(dev, MTHCA_HCR_IN_MOD), in_mod);
	mthca_mmio_write32(hcr(dev, MTHCA_HCR_OUT_PARAM_HI), (uint32_t)(out >> 32));
	mthca_mmio_write32(hcr(dev, MTHCA_HCR_OUT_PARAM_LO), (uint32_t)out);
	mthca_mmio_write32(hcr(dev, MTHCA_HCR_TOKEN), (uint32_t)MTHCA_HCR_POLL_TOKEN << 16);
	/* words 0..5 before the go word (rte_write32 puts a barrier first) */
	mthca_mmio_write32(hcr(dev, MTHCA_HCR_CMD), MTHCA_HCR_GO |
			   ((uint32_t)op_mod << MTHCA_HCR_OPMOD_SHIFT) | op);
	if (hcr_wait(dev, MTHCA_CMD_TIMEOUT_MS) != 0) {
		MTHCA_LOG(ERR, "%s: %s (in_mod 0x%x) did not complete in %u ms", dev->name,
			  mthca_cmd_name(op), in_mod, MTHCA_CMD_TIMEOUT_MS);
		dev->catastrophic = true;
		return -ETIMEDOUT;
	}
	/* GO clear: output and status are complete (Linux reads them after) */
	rte_io_rmb();
	if (out_param != NULL)
		*out_param = ((uint64_t)mthca_mmio_read32(hcr(dev, MTHCA_HCR_OUT_PARAM_HI)) << 32) |
			     mthca_mmio_read32(hcr(dev, MTHCA_HCR_OUT_PARAM_LO));
	word = mthca_mmio_read32(hcr(dev, MTHCA_HCR_CMD));
	st = (int)(word >> MTHCA_HCR_STATUS_SHIFT);
	if (st != MTHCA_ST_OK)
		MTHCA_LOG(DEBUG, "%s: %s (in_mod 0x%x, op_mod %u): status 0x%02x", dev->name,
			  mthca_cmd_name(op), in_mod, op_mod, st);
	return st;
}

int
mthca_cmd(struct mthca_dev *dev, uint64_t in_param, uint64_t *out_param,
	  uint32_t in_mod, uint8_t op_mod, uint16_t op)
{
	int st;

	pthread_mutex_lock(&dev->cmd_lock);
	st = mthca_cmd_locked(dev, in_param, out_param, in_mod, op_mod, op);
	pthread_mutex_unlock(&dev->cmd_lock);
	return st;
}

int
mthca_cmd_box_locked(struct mthca_dev *dev, uint16_t op, uint8_t op_mod, uint32_t in_mod,
		     bool in_box, bool out_box)
{
	uint64_t out = out_box ? dev->mbox_out.iova : 0;

	return mthca_cmd_locked(dev, in_box ? dev->mbox_in.iova : 0, &out, in_mod, op_mod, op);
}

int
mthca_status_errno(int status)
{
	switch (status) {
	case MTHCA_ST_OK:
		return 0;
	case MTHCA_ST_INTERNAL_ERR:
		return -EIO;
	case MTHCA_ST_BAD_OP:
		return -EPERM;
	case MTHCA_ST_BAD_SYS_STATE:
		return -ENXIO;
	case MTHCA_ST_BAD_RESOURCE:
	case MTHCA_ST_BAD_RES_STATE:
	case MTHCA_ST_BAD_INDEX:
		return -EBADF;
	case MTHCA_ST_RESOURCE_BUSY:
		return -EBUSY;
	case MTHCA_ST_EXCEED_LIM:
		return -ENOMEM;
	case MTHCA_ST_LAM_NOT_PRE:
		return -EAGAIN;
	case MTHCA_ST_BAD_PKT:
		return -EBADMSG;
	default:
		return status < 0 ? status : -EINVAL;
	}
}

const char *
mthca_cmd_name(uint16_t op)
{
	switch (op) {
	case MTHCA_CMD_QUERY_DEV_LIM: return "QUERY_DEV_LIM";
	case MTHCA_CMD_QUERY_FW: return "QUERY_FW";
	case MTHCA_CMD_QUERY_ADAPTER: return "QUERY_ADAPTER";
	case MTHCA_CMD_INIT_HCA: return "INIT_HCA";
	case MTHCA_CMD_CLOSE_HCA: return "CLOSE_HCA";
	case MTHCA_CMD_INIT_IB: return "INIT_IB";
	case MTHCA_CMD_CLOSE_IB: return "CLOSE_IB";
	case MTHCA_CMD_SET_IB: return "SET_IB";
	case MTHCA_CMD_SW2HW_MPT: return "SW2HW_MPT";
	case MTHCA_CMD_HW2SW_MPT: return "HW2SW_MPT";
	case MTHCA_CMD_WRITE_MTT: return "WRITE_MTT";
	case MTHCA_CMD_MAP_EQ: return "MAP_EQ";
	case MTHCA_CMD_SW2HW_EQ: return "SW2HW_EQ";
	case MTHCA_CMD_HW2SW_EQ: return "HW2SW_EQ";
	case MTHCA_CMD_SW2HW_CQ: return "SW2HW_CQ";
	case MTHCA_CMD_HW2SW_CQ: return "HW2SW_CQ";
	case MTHCA_CMD_RST2INIT_QP: return "RST2INIT_QP";
	case MTHCA_CMD_INIT2RTR_QP: return "INIT2RTR_QP";
	case MTHCA_CMD_RTR2RTS_QP: return "RTR2RTS_QP";
	case MTHCA_CMD_RTS2RTS_QP: return "RTS2RTS_QP";
	case MTHCA_CMD_2ERR_QP: return "2ERR_QP";
	case MTHCA_CMD_2RST_QP: return "2RST_QP";
	case MTHCA_CMD_CONF_SPECIAL_QP: return "CONF_SPECIAL_QP";
	case MTHCA_CMD_MAD_IFC: return "MAD_IFC";
	case MTHCA_CMD_READ_MGM: return "READ_MGM";
	case MTHCA_CMD_WRITE_MGM: return "WRITE_MGM";
	case MTHCA_CMD_MGID_HASH: return "MGID_HASH";
	case MTHCA_CMD_NOP: return "NOP";
	case MTHCA_CMD_RUN_FW: return "RUN_FW";
	case MTHCA_CMD_ENABLE_LAM: return "ENABLE_LAM";
	case MTHCA_CMD_UNMAP_ICM: return "UNMAP_ICM";
	case MTHCA_CMD_MAP_ICM: return "MAP_ICM";
	case MTHCA_CMD_UNMAP_ICM_AUX: return "UNMAP_ICM_AUX";
	case MTHCA_CMD_MAP_ICM_AUX: return "MAP_ICM_AUX";
	case MTHCA_CMD_SET_ICM_SIZE: return "SET_ICM_SIZE";
	case MTHCA_CMD_UNMAP_FA: return "UNMAP_FA";
	case MTHCA_CMD_MAP_FA: return "MAP_FA";
	default: return "command";
	}
}
