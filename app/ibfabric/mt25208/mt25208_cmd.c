/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * MT25208 model: the HCR protocol (Linux mthca_cmd_post_hcr()) and the command dispatch.
 *
 * The host writes HCR words 0..5, a write barrier, then word 6 with GO
 * (mthca_cmd_post_hcr()). The model polls word 6; once GO is seen it reads
 * words 0..5 (the acquire load of word 6 orders them after the host's
 * barrier), runs the command to completion, writes the immediate output into
 * words 3/4 and the status into word 6 bits 31..24, and clears GO with a
 * release store, so the host sees the output before GO reads 0 (Linux
 * mthca_cmd_poll() reads them only then). With E set the completion is also an
 * EQE of type 0x0a on the EQ mapped to command events, carrying the token
 * (mthca_cmd_event()); it is posted after GO is cleared, as a firmware that
 * "took" the command would.
 *
 * A command runs synchronously, so at most one is ever outstanding (the
 * host may have up to max_cmds = 1 << QUERY_FW 0x0f; it never needs to).
 */

#include <inttypes.h>
#include <string.h>

#include "fab_log.h"
#include "fab_node.h"
#include "mt25208.h"
#include "mt25208_guard.h"

typedef uint8_t (*mt25208_cmd_fn)(struct mt25208 *dev, struct mt25208_cmd *c);

/* Which firmware states a command is accepted in (bit per enum value). */
#define ST_BOOT		(1u << MT25208_FW_BOOT)
#define ST_RUN		(1u << MT25208_FW_RUN)
#define ST_HCA		(1u << MT25208_FW_HCA)
#define ST_ANY		(ST_BOOT | ST_RUN | ST_HCA)

struct cmd_desc {
	mt25208_cmd_fn fn;
	const char *name;
	uint8_t states;
};

static uint8_t
cmd_enable_lam(struct mt25208 *dev, struct mt25208_cmd *c)
{
	(void)c;
	/* No local attached memory: mem-free mode (mthca_ENABLE_LAM()). */
	dev->lam_queried = true;
	return MT_STAT_LAM_NOT_PRE;
}

static uint8_t
cmd_nop(struct mt25208 *dev, struct mt25208_cmd *c)
{
	(void)dev;
	(void)c;
	return MT_STAT_OK;
}

static uint8_t
cmd_sync_tpt(struct mt25208 *dev, struct mt25208_cmd *c)
{
	/* The translation cache is flushed after every command (mt25208_tc_flush). */
	(void)dev;
	(void)c;
	return MT_STAT_OK;
}

#define CMD(op, f, st) [MT_OP_##op] = { .fn = (f), .name = #op, .states = (st) }

static const struct cmd_desc cmd_table[0x1000] = {
	CMD(QUERY_FW, mt25208_cmd_query_fw, ST_ANY),
	CMD(ENABLE_LAM, cmd_enable_lam, ST_ANY),
	CMD(MAP_FA, mt25208_cmd_map_fa, ST_ANY),
	CMD(UNMAP_FA, mt25208_cmd_unmap_fa, ST_ANY),
	CMD(RUN_FW, mt25208_cmd_run_fw, ST_ANY),
	CMD(QUERY_DEV_LIM, mt25208_cmd_query_dev_lim, ST_ANY),
	CMD(SET_ICM_SIZE, mt25208_cmd_set_icm_size, ST_ANY),
	CMD(MAP_ICM_AUX, mt25208_cmd_map_icm_aux, ST_ANY),
	CMD(UNMAP_ICM_AUX, mt25208_cmd_unmap_icm_aux, ST_ANY),
	CMD(MAP_ICM, mt25208_cmd_map_icm, ST_ANY),
	CMD(UNMAP_ICM, mt25208_cmd_unmap_icm, ST_ANY),
	CMD(INIT_HCA, mt25208_cmd_init_hca, ST_ANY),
	CMD(QUERY_ADAPTER, mt25208_cmd_query_adapter, ST_ANY),
	CMD(CLOSE_HCA, mt25208_cmd_close_hca, ST_ANY),
	CMD(SYS_DIS, mt25208_cmd_sys_dis, ST_ANY),
	CMD(NOP, cmd_nop, ST_RUN | ST_HCA),
	CMD(INIT_IB, mt25208_cmd_init_ib, ST_HCA),
	CMD(CLOSE_IB, mt25208_cmd_close_ib, ST_HCA),
	CMD(SET_IB, mt25208_cmd_set_ib, ST_HCA),
	CMD(SW2HW_MPT, mt25208_cmd_sw2hw_mpt, ST_HCA),
	CMD(HW2SW_MPT, mt25208_cmd_hw2sw_mpt, ST_HCA),
	CMD(QUERY_MPT, mt25208_cmd_query_mpt, ST_HCA),
	CMD(WRITE_MTT, mt25208_cmd_write_mtt, ST_HCA),
	CMD(SYNC_TPT, cmd_sync_tpt, ST_HCA),
	CMD(MAP_EQ, mt25208_cmd_map_eq, ST_HCA),
	CMD(SW2HW_EQ, mt25208_cmd_sw2hw_eq, ST_HCA),
	CMD(HW2SW_EQ, mt25208_cmd_hw2sw_eq, ST_HCA),
	CMD(QUERY_EQ, mt25208_cmd_query_eq, ST_HCA),
	CMD(SW2HW_CQ, mt25208_cmd_sw2hw_cq, ST_HCA),
	CMD(HW2SW_CQ, mt25208_cmd_hw2sw_cq, ST_HCA),
	CMD(QUERY_CQ, mt25208_cmd_query_cq, ST_HCA),
	CMD(RESIZE_CQ, mt25208_cmd_resize_cq, ST_HCA),
	CMD(RST2INIT, mt25208_cmd_modify_qp, ST_HCA),
	CMD(INIT2INIT, mt25208_cmd_modify_qp, ST_HCA),
	CMD(INIT2RTR, mt25208_cmd_modify_qp, ST_HCA),
	CMD(RTR2RTS, mt25208_cmd_modify_qp, ST_HCA),
	CMD(RTS2RTS, mt25208_cmd_modify_qp, ST_HCA),
	CMD(SQERR2RTS, mt25208_cmd_modify_qp, ST_HCA),
	CMD(2ERR, mt25208_cmd_modify_qp, ST_HCA),
	CMD(RTS2SQD, mt25208_cmd_modify_qp, ST_HCA),
	CMD(SQD2RTS, mt25208_cmd_modify_qp, ST_HCA),
	CMD(SQD2SQD, mt25208_cmd_modify_qp, ST_HCA),
	CMD(ERR2RST, mt25208_cmd_modify_qp, ST_HCA),
	CMD(QUERY_QP, mt25208_cmd_query_qp, ST_HCA),
	CMD(CONF_SPECIAL_QP, mt25208_cmd_conf_special_qp, ST_HCA),
	CMD(MAD_IFC, mt25208_cmd_mad_ifc, ST_HCA),
	CMD(READ_MGM, mt25208_cmd_read_mgm, ST_HCA),
	CMD(WRITE_MGM, mt25208_cmd_write_mgm, ST_HCA),
	CMD(MGID_HASH, mt25208_cmd_mgid_hash, ST_HCA),
};

static uint32_t *
hcr_word(struct mt25208 *dev, unsigned int off)
{
	return (uint32_t *)(void *)(dev->bar0 + MT_BAR0_HCR + off);
}

/* One 32-bit register read from the host-shared BAR (host byte order of the wire: BE). */
static uint32_t
hcr_read(struct mt25208 *dev, unsigned int off)
{
	uint32_t v = __atomic_load_n(hcr_word(dev, off), __ATOMIC_RELAXED);

	return mt_get32(&v, 0);
}

static void
hcr_write(struct mt25208 *dev, unsigned int off, uint32_t val, int order)
{
	uint32_t v;

	mt_put32(&v, 0, val);
	__atomic_store_n(hcr_word(dev, off), v, order);
}

static uint8_t
cmd_run(struct mt25208 *dev, struct mt25208_cmd *c)
{
	const struct cmd_desc *d = &cmd_table[c->opcode];
	uint8_t st;

	if (d->fn == NULL) {
		FAB_ERR("%s: opcode 0x%03x not supported", dev->node->name, c->opcode);
		return MT_STAT_BAD_OP;
	}
	if (dev->catas)
		return MT_STAT_INTERNAL_ERR;
	if (!(d->states & (1u << dev->fw_state))) {
		FAB_ERR("%s: %s refused in firmware state %d", dev->node->name, d->name,
			(int)dev->fw_state);
		return MT_STAT_BAD_SYS_STATE;
	}
	st = d->fn(dev, c);
	/* any command may change MPT, MTT, ICM or state: the TPT cache goes (SYNC_TPT too) */
	mt25208_tc_flush(dev);
	/*
	 * Every refusal is reported once here with the command's fields (the
	 * handlers add the offending field where they know it). ENABLE_LAM's
	 * 0x22 and MAD_IFC's 0x30 are normal answers, not refusals.
	 */
	if (st != MT_STAT_OK && !(c->opcode == MT_OP_ENABLE_LAM && st == MT_STAT_LAM_NOT_PRE) &&
	    !(c->opcode == MT_OP_MAD_IFC && st == MT_STAT_BAD_PKT))
		FAB_INFO("%s: %s in_param 0x%" PRIx64 " in_mod 0x%x op_mod %u: status 0x%02x",
			 dev->node->name, d->name, c->in_param, c->in_mod, c->op_mod, st);
	FAB_DBG("%s: %s in 0x%" PRIx64 " mod 0x%x opmod %u out 0x%" PRIx64 " -> status 0x%02x",
		dev->node->name, d->name, c->in_param, c->in_mod, c->op_mod, c->out_param, st);
	return st;
}

struct cmd_run_arg {
	struct mt25208_cmd *c;
	uint8_t st;
};

static void
cmd_run_guarded(struct mt25208 *dev, void *arg)
{
	struct cmd_run_arg *a = arg;

	a->st = cmd_run(dev, a->c);
}

bool
mt25208_cmd_go(struct mt25208 *dev)
{
	uint32_t v = __atomic_load_n(hcr_word(dev, MT_HCR_CMD), __ATOMIC_ACQUIRE);

	return (mt_get32(&v, 0) & MT_HCR_GO) != 0;
}

/* Take and run the command in the HCR if GO is set. */
static bool
hcr_poll(struct mt25208 *dev)
{
	struct cmd_run_arg ra;
	struct mt25208_cmd c;
	uint32_t w6, v;
	uint8_t st, eqe[MT_EQE_DATA_SIZE];

	v = __atomic_load_n(hcr_word(dev, MT_HCR_CMD), __ATOMIC_ACQUIRE);
	w6 = mt_get32(&v, 0);
	if (!(w6 & MT_HCR_GO))
		return false;

	memset(&c, 0, sizeof(c));
	c.in_param = (uint64_t)hcr_read(dev, MT_HCR_IN_HI) << 32 | hcr_read(dev, MT_HCR_IN_LO);
	c.in_mod = hcr_read(dev, MT_HCR_IN_MOD);
	c.out_param = (uint64_t)hcr_read(dev, MT_HCR_OUT_HI) << 32 |
		      hcr_read(dev, MT_HCR_OUT_LO);
	c.token = mt_hcr_token(hcr_read(dev, MT_HCR_TOKEN));
	c.opcode = mt_hcr_opcode(w6);
	c.op_mod = mt_hcr_opmod(w6);
	c.event = (w6 & MT_HCR_E) != 0;

	dev->stats.cmds++;
	/* A bus error on host memory is a DMA fault: 0x01 (mt25208_guard.h). */
	ra.c = &c;
	ra.st = MT_STAT_INTERNAL_ERR;
	if (mt25208_guard(dev, cmd_run_guarded, &ra) != 0)
		ra.st = MT_STAT_INTERNAL_ERR;
	st = ra.st;
	if (st != MT_STAT_OK)
		dev->stats.cmd_errors++;
	if (c.event && dev->ev_eqn[MT_EV_CMD] == MT25208_NO_EQ) {
		/* Event completion asked for, but no EQ takes command events. */
		FAB_ERR("%s: command 0x%03x with E set but no EQ mapped for command events",
			dev->node->name, c.opcode);
		c.event = false;
	}

	hcr_write(dev, MT_HCR_OUT_HI, (uint32_t)(c.out_imm >> 32), __ATOMIC_RELAXED);
	hcr_write(dev, MT_HCR_OUT_LO, (uint32_t)c.out_imm, __ATOMIC_RELAXED);
	/* Release: the outputs above and the mailbox are visible before GO clears. */
	hcr_write(dev, MT_HCR_CMD, mt_hcr_done(w6, st), __ATOMIC_RELEASE);

	if (c.event) {
		/* EQE data starts at EQE byte 4: token 0x06, status 0x0f, out 0x10. */
		memset(eqe, 0, sizeof(eqe));
		mt_put16(eqe, MT_EQE_CMD_TOKEN - MT_EQE_DATA, c.token);
		mt_put8(eqe, MT_EQE_CMD_STATUS - MT_EQE_DATA, st);
		mt_put64(eqe, MT_EQE_CMD_OUT - MT_EQE_DATA, c.out_imm);
		mt25208_event(dev, MT_EV_CMD, 0, eqe);
	}
	return true;
}

/* The reset register (mthca_reset()): BE32 1 at BAR0 + 0xf0010. */
static bool
reset_poll(struct mt25208 *dev)
{
	uint32_t *r = (uint32_t *)(void *)(dev->bar0 + MT_BAR0_RESET);
	uint32_t v;

	/* Load first: an exchange on every poll would dirty the host's cache line. */
	if (__atomic_load_n(r, __ATOMIC_RELAXED) == 0)
		return false;
	v = __atomic_exchange_n(r, 0, __ATOMIC_ACQ_REL);
	if (mt_get32(&v, 0) == MT_RESET_MAGIC) {
		FAB_INFO("%s: reset by the host", dev->node->name);
		mt25208_reset(dev);
	}
	return true;
}

bool
mt25208_poll(struct mt25208 *dev)
{
	bool busy;

	busy = reset_poll(dev);
	busy |= mt25208_eq_poll_regs(dev);
	busy |= hcr_poll(dev);
	return busy;
}
