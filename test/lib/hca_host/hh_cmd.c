/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * hca_host: the HCR protocol (Linux mthca_cmd_post_hcr()). Words 0..5 first, a barrier, then
 * the go word; polled commands (token 0xffff) finish when GO clears and
 * report status in bits 31..24 of word 6; event-mode commands (E set,
 * after MAP_EQ of the command EQ) finish with a type 0x0a EQE carrying
 * the token, the status and the immediate output (mthca_cmd_event()).
 */

#include <errno.h>
#include <time.h>

#include "hh.h"

#define HH_CMD_TIMEOUT_MS	5000

static uint64_t
now_ms(void)
{
	return hh_now_us() / 1000;
}


const char *
hh_op_name(uint16_t op)
{
	switch (op) {
	case HH_OP_QUERY_FW: return "QUERY_FW";
	case HH_OP_ENABLE_LAM: return "ENABLE_LAM";
	case HH_OP_MAP_FA: return "MAP_FA";
	case HH_OP_UNMAP_FA: return "UNMAP_FA";
	case HH_OP_RUN_FW: return "RUN_FW";
	case HH_OP_QUERY_DEV_LIM: return "QUERY_DEV_LIM";
	case HH_OP_SET_ICM_SIZE: return "SET_ICM_SIZE";
	case HH_OP_MAP_ICM_AUX: return "MAP_ICM_AUX";
	case HH_OP_UNMAP_ICM_AUX: return "UNMAP_ICM_AUX";
	case HH_OP_MAP_ICM: return "MAP_ICM";
	case HH_OP_UNMAP_ICM: return "UNMAP_ICM";
	case HH_OP_INIT_HCA: return "INIT_HCA";
	case HH_OP_CLOSE_HCA: return "CLOSE_HCA";
	case HH_OP_QUERY_ADAPTER: return "QUERY_ADAPTER";
	case HH_OP_INIT_IB: return "INIT_IB";
	case HH_OP_CLOSE_IB: return "CLOSE_IB";
	case HH_OP_SW2HW_MPT: return "SW2HW_MPT";
	case HH_OP_HW2SW_MPT: return "HW2SW_MPT";
	case HH_OP_MAP_EQ: return "MAP_EQ";
	case HH_OP_SW2HW_EQ: return "SW2HW_EQ";
	case HH_OP_HW2SW_EQ: return "HW2SW_EQ";
	case HH_OP_SW2HW_CQ: return "SW2HW_CQ";
	case HH_OP_HW2SW_CQ: return "HW2SW_CQ";
	case HH_OP_RST2INIT: return "RST2INIT";
	case HH_OP_INIT2RTR: return "INIT2RTR";
	case HH_OP_RTR2RTS: return "RTR2RTS";
	case HH_OP_2ERR: return "2ERR";
	case HH_OP_2RST: return "2RST";
	case HH_OP_QUERY_QP: return "QUERY_QP";
	case HH_OP_CONF_SPECIAL_QP: return "CONF_SPECIAL_QP";
	case HH_OP_MAD_IFC: return "MAD_IFC";
	case HH_OP_READ_MGM: return "READ_MGM";
	case HH_OP_WRITE_MGM: return "WRITE_MGM";
	case HH_OP_MGID_HASH: return "MGID_HASH";
	case HH_OP_NOP: return "NOP";
	case HH_OP_SYS_DIS: return "SYS_DIS";
	default: return "?";
	}
}

static int
wait_go_clear(struct hh_dev *d)
{
	uint64_t end = now_ms() + HH_CMD_TIMEOUT_MS;
	unsigned int spins = 0;

	while (hh_bar0_read32(d, HH_HCR_BASE + HH_HCR_CMD) & HH_HCR_GO) {
		if (now_ms() > end)
			return -ETIMEDOUT;
		hh_idle(d, ++spins);
	}
	return 0;
}

int
hh_cmd(struct hh_dev *d, uint64_t in_param, uint64_t *out_param,
       uint32_t in_mod, uint8_t op_mod, uint16_t op)
{
	uint32_t hcr = HH_HCR_BASE;
	uint16_t token = d->events ? ++d->token : HH_CMD_POLL_TOKEN;
	uint64_t out = out_param != NULL ? *out_param : 0;
	uint32_t word;
	int ret;

	if (d->events && token == HH_CMD_POLL_TOKEN)
		token = ++d->token;
	/* as Linux mthca_cmd_post_hcr(): never write the HCR while GO reads 1 */
	ret = wait_go_clear(d);
	if (ret != 0) {
		HH_ERR("%s: GO still set before posting", hh_op_name(op));
		return ret;
	}
	hh_bar0_write32(d, hcr + HH_HCR_IN_HI, in_param >> 32);
	hh_bar0_write32(d, hcr + HH_HCR_IN_LO, (uint32_t)in_param);
	hh_bar0_write32(d, hcr + HH_HCR_IN_MOD, in_mod);
	hh_bar0_write32(d, hcr + HH_HCR_OUT_HI, out >> 32);
	hh_bar0_write32(d, hcr + HH_HCR_OUT_LO, (uint32_t)out);
	hh_bar0_write32(d, hcr + HH_HCR_TOKEN, (uint32_t)token << 16);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	word = HH_HCR_GO | (d->events ? HH_HCR_E : 0) |
	       ((uint32_t)(op_mod & 0xf) << HH_HCR_OPMOD_SHIFT) | (op & 0xfff);
	hh_bar0_write32(d, hcr + HH_HCR_CMD, word);

	ret = wait_go_clear(d);
	if (ret != 0) {
		HH_ERR("%s: no completion (GO stuck)", hh_op_name(op));
		return ret;
	}
	if (!d->events) {
		word = hh_bar0_read32(d, hcr + HH_HCR_CMD);
		if (out_param != NULL)
			*out_param = ((uint64_t)hh_bar0_read32(d, hcr + HH_HCR_OUT_HI) << 32) |
				     hh_bar0_read32(d, hcr + HH_HCR_OUT_LO);
		d->last_status = word >> HH_HCR_STATUS_SHIFT;
	} else {
		struct hh_eq *eq = &d->eq[HH_EQ_CMD];
		uint64_t end = now_ms() + HH_CMD_TIMEOUT_MS;
		const uint8_t *eqe;
		unsigned int spins = 0;

		for (;;) {
			eqe = hh_eq_next(d, eq);
			if (eqe != NULL) {
				if (hh_get8(eqe, HH_EQE_TYPE) != HH_EV_CMD) {
					HH_ERR("command EQ: unexpected event type 0x%02x",
					       hh_get8(eqe, HH_EQE_TYPE));
					continue;
				}
				if (hh_get16(eqe, HH_EQE_CMD_TOKEN) != token) {
					HH_ERR("command EQ: token 0x%04x, expected 0x%04x",
					       hh_get16(eqe, HH_EQE_CMD_TOKEN), token);
					continue;
				}
				d->last_status = hh_get8(eqe, HH_EQE_CMD_STATUS);
				if (out_param != NULL)
					*out_param = hh_get64(eqe, HH_EQE_CMD_OUT);
				break;
			}
			if (now_ms() > end) {
				HH_ERR("%s: no command-completion EQE", hh_op_name(op));
				return -ETIMEDOUT;
			}
			hh_idle(d, ++spins);
		}
		hh_eq_arm(d, eq);
	}
	HH_LOG("%s op_mod %u in_mod 0x%x -> status 0x%02x", hh_op_name(op), op_mod, in_mod,
	       d->last_status);
	return (int)d->last_status;
}

int
hh_cmd_box(struct hh_dev *d, uint16_t op, uint8_t op_mod, uint32_t in_mod,
	   bool in_box, bool out_box)
{
	uint64_t out = out_box ? d->mbox_out.iova : 0;

	if (out_box)
		memset(d->mbox_out.va, 0, HH_MAILBOX_SIZE);
	return hh_cmd(d, in_box ? d->mbox_in.iova : 0, &out, in_mod, op_mod, op);
}
