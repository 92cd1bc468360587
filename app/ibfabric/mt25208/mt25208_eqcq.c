/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * MT25208 model: event queues and completion-queue contexts (mthca_eq.c, mthca_cq.c).
 *
 * EQ: SW2HW_EQ / HW2SW_EQ / QUERY_EQ / MAP_EQ, EQE posting through the EQ
 * buffer's MR (the driver registers it at IOVA 0, mthca_init_eq_table()), the BAR0
 * arm and set-CI registers of mem-free mode (arbel_eq_req_not()) and interrupts:
 * the EQC "intr" byte names an MSI-X vector when bit 7 is set (Linux
 * writes 128 + n for MSI-X vector n, mthca_init_eq_table()), else the INTx line;
 * each is an eventfd the host got with GET_IRQ on the IOMMU socket.
 *
 * CQ: SW2HW_CQ / HW2SW_CQ / QUERY_CQ / RESIZE_CQ. The CQ context lives in
 * ICM; ownership is a bitmap. CQE writing is the data path's.
 */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "fab_log.h"
#include "fab_node.h"
#include "mt25208.h"
#include "mt25208_mbox.h"

/* ------------------------------------------------------------------ */
/* Interrupts and registers                                            */

static void
eq_irq(struct mt25208 *dev, struct mt25208_eq *eq)
{
	uint64_t one = 1;
	int fd;

	if (eq->intr & 0x80) {
		fd = (eq->intr & 0x7f) < MT25208_MAX_VECTORS ?
		     dev->vec_fd[eq->intr & 0x7f] : -1;
	} else {
		fd = dev->intx_fd;
		dev->intx_asserted = true;	/* level: until CLR_INT */
	}
	if (!eq->always_armed)
		eq->armed = false;
	dev->stats.irqs++;
	if (fd >= 0 && write(fd, &one, sizeof(one)) != sizeof(one))
		FAB_DBG("%s: interrupt eventfd write failed", dev->node->name);
}

static uint32_t
eq_set_ci(struct mt25208 *dev, unsigned int eqn)
{
	uint32_t *r = (uint32_t *)(void *)(dev->bar0 + MT_BAR0_EQ_SET_CI + 8 * eqn);
	uint32_t v = __atomic_load_n(r, __ATOMIC_ACQUIRE);

	return mt_get32(&v, 0);
}

/*
 * INTx is level-triggered (mthca_hw.rst "Driver rules"): once asserted, the line stays up until
 * the driver writes its pin's bit to CLR_INT (Linux mthca_arbel_interrupt
 * writes swab32(1 << inta_pin) at clr_int + 4 for pins below 32; PRM
 * arbelprm_clr_int_st). The eventfd stands for the line: while it stays
 * up, a host that consumed the eventfd without clearing gets it again.
 */
static bool
intx_poll(struct mt25208 *dev)
{
	uint32_t *r = (uint32_t *)(void *)(dev->bar0 + MT_BAR0_CLR_INT +
					   (MT25208_INTA_PIN < 32 ? 4 : 0));
	uint32_t bit = 1u << (MT25208_INTA_PIN & 31), v;
	struct pollfd pfd;
	uint64_t one = 1;

	if (__atomic_load_n(r, __ATOMIC_RELAXED) != 0) {
		v = __atomic_exchange_n(r, 0, __ATOMIC_ACQ_REL);
		if (mt_get32(&v, 0) & bit)
			dev->intx_asserted = false;
	}
	if (!dev->intx_asserted || dev->intx_fd < 0)
		return false;
	pfd.fd = dev->intx_fd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 0) == 0 && write(dev->intx_fd, &one, sizeof(one)) == sizeof(one))
		dev->stats.irqs++;
	return false;
}

bool
mt25208_eq_poll_regs(struct mt25208 *dev)
{
	uint32_t *r = (uint32_t *)(void *)(dev->bar0 + MT_BAR0_EQ_ARM + 4);
	uint32_t v, mask;
	unsigned int n;

	intx_poll(dev);
	/* Load first: an exchange on every poll would dirty the host's cache line. */
	if (__atomic_load_n(r, __ATOMIC_RELAXED) == 0)
		return false;
	/* Take the mask and clear it at once, so a host write in between is kept. */
	v = __atomic_exchange_n(r, 0, __ATOMIC_ACQ_REL);
	mask = mt_get32(&v, 0);
	dev->eq_arm_seen = mask;
	for (n = 0; n < MT_NUM_EQ; n++) {
		struct mt25208_eq *eq = &dev->eq[n];

		if (!(mask & (1u << n)) || !eq->hw)
			continue;
		eq->armed = true;
		/*
		 * EQEs the host has not consumed yet (posted after its drain)
		 * raise the interrupt at once, or it would never come.
		 */
		if (eq->prod != eq_set_ci(dev, n))
			eq_irq(dev, eq);
	}
	return true;
}

int
mt25208_eq_post(struct mt25208 *dev, uint8_t eqn, uint8_t type, uint8_t subtype,
		const uint8_t *data)
{
	struct mt25208_eq *eq;
	uint32_t nent, cons;
	uint8_t *eqe, *ctx;
	uint64_t va;

	if (eqn >= MT_NUM_EQ || !dev->eq[eqn].hw) {
		dev->stats.events_dropped++;
		return -ENOENT;
	}
	eq = &dev->eq[eqn];
	nent = 1u << eq->log_nent;
	cons = eq_set_ci(dev, eqn);
	/*
	 * An EQ of 2^n entries holds 2^n - 1 EQEs, as a CQ does (PRM
	 * completion_queue_context.producer_counter: overrun when producer + 1
	 * would equal the consumer); the PRM states no other bound for the EQ,
	 * and Linux sizes its EQs with MTHCA_NUM_SPARE_EQE spares and at least
	 * 2 entries (mthca_create_eq(): max(nent, 2)), which this bound keeps
	 * safe. The model's choice: mthca_hw.rst, "Completions and events".
	 */
	if (eq->prod - cons >= nent - 1) {
		/* Full: the EQ goes to overflow status (struct mthca_eq_context status 9). */
		eq->overflows++;
		dev->stats.events_dropped++;
		ctx = mt25208_icm_ptr(dev, dev->cfg.eqc_base + (uint64_t)eqn * MT25208_EQC_SZ,
				      MT_EQC_SIZE);
		if (ctx != NULL)
			mt_eqc_set_status(ctx, MT_EQ_STATUS_OVERFLOW);
		return -ENOSPC;
	}
	va = eq->start + (uint64_t)(eq->prod & (nent - 1)) * MT_EQE_SIZE;
	/* the EQC pd is the PD the EQ is accessed with (PRM eqc.pd) */
	eqe = mt25208_mr_translate(dev, eq->lkey, eq->pd, va, MT_EQE_SIZE, true);
	if (eqe == NULL) {
		uint8_t probe[MT_EQE_SIZE];

		if (mt25208_mr_access(dev, eq->lkey, MT25208_PD_ANY, va, probe, sizeof(probe),
				      false) == 0)
			mt25208_check_fail(dev, MT25208_CHK_EQ_PD, eqn, &eq->logged,
					   "EQC pd is not the PD of its L_Key");
		else
			FAB_ERR("%s: EQ %u: EQE %u not writable through lkey 0x%08x",
				dev->node->name, eqn, eq->prod, eq->lkey);
		ctx = mt25208_icm_ptr(dev, dev->cfg.eqc_base + (uint64_t)eqn * MT25208_EQC_SZ,
				      MT_EQC_SIZE);
		if (ctx != NULL)
			mt_eqc_set_status(ctx, MT_EQ_STATUS_WRITE_FAIL);
		dev->stats.events_dropped++;
		return -EFAULT;
	}
	memset(eqe, 0, MT_EQE_OWNER);
	mt_put8(eqe, MT_EQE_TYPE, type);
	mt_put8(eqe, MT_EQE_SUBTYPE, subtype);
	if (data != NULL)
		memcpy(eqe + MT_EQE_DATA, data, MT_EQE_DATA_SIZE);
	/* Release: the EQE body is visible before software owns it (struct mthca_eqe). */
	__atomic_store_n(eqe + MT_EQE_OWNER, (uint8_t)0, __ATOMIC_RELEASE);
	eq->prod++;
	eq->posted++;
	dev->stats.events++;
	if (eq->armed)
		eq_irq(dev, eq);
	return 0;
}

int
mt25208_event(struct mt25208 *dev, uint8_t type, uint8_t subtype, const uint8_t *data)
{
	uint8_t eqn = type < 64 ? dev->ev_eqn[type] : MT25208_NO_EQ;

	if (eqn == MT25208_NO_EQ) {
		dev->stats.events_dropped++;
		return -ENOENT;
	}
	return mt25208_eq_post(dev, eqn, type, subtype, data);
}

/* ------------------------------------------------------------------ */
/* EQ commands                                                         */

static uint8_t
eq_check(struct mt25208 *dev, uint32_t eqn, const char *cmd)
{
	if (eqn >= (1u << dev->cfg.log_eq) || eqn >= MT_NUM_EQ) {
		FAB_ERR("%s: %s: EQN %u out of range (%u EQs)", dev->node->name, cmd, eqn,
			1u << dev->cfg.log_eq);
		return MT_STAT_BAD_INDEX;
	}
	if (eqn < (1u << MT25208_LOG_RSVD_EQ)) {
		FAB_ERR("%s: %s: EQN %u is reserved", dev->node->name, cmd, eqn);
		return MT_STAT_BAD_RESOURCE;
	}
	return MT_STAT_OK;
}

static void *
eq_ctx(struct mt25208 *dev, uint32_t eqn)
{
	return mt25208_icm_ptr(dev, dev->cfg.eqc_base + (uint64_t)eqn * MT25208_EQC_SZ,
			       MT_EQC_SIZE);
}

uint8_t
mt25208_cmd_sw2hw_eq(struct mt25208 *dev, struct mt25208_cmd *c)
{
	struct mt25208_eq *eq;
	uint8_t *ctx, st;
	const uint8_t *mb;
	uint8_t state;
	uint32_t ci;

	st = eq_check(dev, c->in_mod, "SW2HW_EQ");
	if (st != MT_STAT_OK)
		return st;
	eq = &dev->eq[c->in_mod];
	if (eq->hw)
		return MT_STAT_BAD_RES_STATE;
	ctx = eq_ctx(dev, c->in_mod);
	if (ctx == NULL) {
		FAB_ERR("%s: SW2HW_EQ: EQ %u context ICM not mapped", dev->node->name, c->in_mod);
		return MT_STAT_BAD_RESOURCE;
	}
	mb = mt25208_mbox_in(dev, c, MT_EQC_SIZE);
	if (mb == NULL)
		return MT_STAT_INTERNAL_ERR;
	if (mt_eqc_log_size(mb) > MT25208_LOG_MAX_EQ_SZ) {
		FAB_ERR("%s: SW2HW_EQ: EQ %u log size %u above %u", dev->node->name,
			c->in_mod, mt_eqc_log_size(mb), MT25208_LOG_MAX_EQ_SZ);
		return MT_STAT_EXCEED_LIM;
	}
	memcpy(ctx, mb, MT_EQC_SIZE);
	memset(eq, 0, sizeof(*eq));
	eq->hw = true;
	eq->log_nent = mt_eqc_log_size(mb);
	eq->intr = mt_eqc_intr(mb);
	eq->lkey = mt_eqc_lkey(mb);
	eq->pd = mt_eqc_pd(mb);
	eq->start = mt_eqc_start(mb);
	eq->prod = mt_eqc_prod(mb);
	/*
	 * The consumer index starts from the context (PRM eqc.consumer_indx,
	 * "must be initialized to zero while opening EQ"), not from what the
	 * set-CI register held for an earlier EQ of this number.
	 */
	mt_put32(&ci, 0, mt_eqc_cons(mb));
	__atomic_store_n((uint32_t *)(void *)(dev->bar0 + MT_BAR0_EQ_SET_CI + 8 * c->in_mod), ci,
			 __ATOMIC_RELEASE);
	state = mt_eqc_state(mb);
	eq->armed = state == MT_EQ_STATE_ARMED || state == MT_EQ_STATE_ALWAYS_ARMED;
	eq->always_armed = state == MT_EQ_STATE_ALWAYS_ARMED;
	return MT_STAT_OK;
}

/* Write the live indices into the ICM context (HW2SW_EQ / QUERY_EQ). */
static uint8_t
eq_out(struct mt25208 *dev, struct mt25208_cmd *c, bool to_sw)
{
	struct mt25208_eq *eq;
	uint8_t *ctx, *mb, st;

	/* in_mod comes from the host: index the EQ table only once checked */
	st = eq_check(dev, c->in_mod, to_sw ? "HW2SW_EQ" : "QUERY_EQ");
	if (st != MT_STAT_OK)
		return st;
	eq = &dev->eq[c->in_mod];
	if (!eq->hw)
		return MT_STAT_BAD_RES_STATE;
	ctx = eq_ctx(dev, c->in_mod);
	mb = mt25208_mbox_out(dev, c, MT_EQC_SIZE);
	if (mb == NULL)
		return MT_STAT_INTERNAL_ERR;
	if (ctx != NULL) {
		mt_eqc_set_prod(ctx, eq->prod);
		mt_eqc_set_cons(ctx, eq_set_ci(dev, c->in_mod));
		memcpy(mb, ctx, MT_EQC_SIZE);
	} else {
		memset(mb, 0, MT_EQC_SIZE);
	}
	if (to_sw)
		eq->hw = false;
	return MT_STAT_OK;
}

uint8_t
mt25208_cmd_hw2sw_eq(struct mt25208 *dev, struct mt25208_cmd *c)
{
	return eq_out(dev, c, true);
}

uint8_t
mt25208_cmd_query_eq(struct mt25208 *dev, struct mt25208_cmd *c)
{
	return eq_out(dev, c, false);
}

uint8_t
mt25208_cmd_map_eq(struct mt25208 *dev, struct mt25208_cmd *c)
{
	uint32_t eqn = c->in_mod & 0xff;
	bool unmap = (c->in_mod & MT_MAP_EQ_UNMAP) != 0;
	unsigned int t;
	uint8_t st;

	st = eq_check(dev, eqn, "MAP_EQ");
	if (st != MT_STAT_OK)
		return st;
	if (!unmap && !dev->eq[eqn].hw) {
		FAB_ERR("%s: MAP_EQ: EQ %u is not in hardware ownership", dev->node->name, eqn);
		return MT_STAT_BAD_RES_STATE;
	}
	for (t = 0; t < 64; t++) {
		if (!(c->in_param & (1ull << t)))
			continue;
		if (unmap) {
			if (dev->ev_eqn[t] == eqn)
				dev->ev_eqn[t] = MT25208_NO_EQ;
		} else {
			dev->ev_eqn[t] = (uint8_t)eqn;
		}
	}
	return MT_STAT_OK;
}

/* ------------------------------------------------------------------ */
/* CQ commands                                                         */

static uint8_t
cq_check(struct mt25208 *dev, uint32_t cqn, const char *cmd, uint32_t *ix)
{
	*ix = cqn & ((1u << dev->cfg.log_cq) - 1);
	if (cqn > 0xffffff) {
		FAB_ERR("%s: %s: CQN 0x%x has more than 24 bits", dev->node->name, cmd, cqn);
		return MT_STAT_BAD_INDEX;
	}
	if (*ix < (1u << MT25208_LOG_RSVD_CQ)) {
		FAB_ERR("%s: %s: CQN 0x%x is reserved", dev->node->name, cmd, cqn);
		return MT_STAT_BAD_RESOURCE;
	}
	return MT_STAT_OK;
}

static bool
cq_is_hw(const struct mt25208 *dev, uint32_t ix)
{
	return (dev->cq_hw[ix / 8] >> (ix % 8)) & 1;
}

static void
cq_set_hw(struct mt25208 *dev, uint32_t ix, bool hw)
{
	if (hw)
		dev->cq_hw[ix / 8] |= (uint8_t)(1u << (ix % 8));
	else
		dev->cq_hw[ix / 8] &= (uint8_t)~(1u << (ix % 8));
}

uint8_t
mt25208_cmd_sw2hw_cq(struct mt25208 *dev, struct mt25208_cmd *c)
{
	const uint8_t *mb;
	uint8_t *ctx, st;
	uint32_t ix, eqn;

	st = cq_check(dev, c->in_mod, "SW2HW_CQ", &ix);
	if (st != MT_STAT_OK)
		return st;
	if (cq_is_hw(dev, ix))
		return MT_STAT_BAD_RES_STATE;
	ctx = mt25208_cqc(dev, c->in_mod);
	if (ctx == NULL) {
		FAB_ERR("%s: SW2HW_CQ: CQ 0x%x context ICM not mapped", dev->node->name, c->in_mod);
		return MT_STAT_BAD_RESOURCE;
	}
	mb = mt25208_mbox_in(dev, c, MT_CQC_SIZE);
	if (mb == NULL)
		return MT_STAT_INTERNAL_ERR;
	if (mt_cqc_log_size(mb) > MT25208_LOG_MAX_CQ_SZ) {
		FAB_ERR("%s: SW2HW_CQ: CQ 0x%x log size %u above %u", dev->node->name,
			c->in_mod, mt_cqc_log_size(mb), MT25208_LOG_MAX_CQ_SZ);
		return MT_STAT_EXCEED_LIM;
	}
	/* c_eqn outside 0..63: legal, the CQ reports no completion events (PRM) */
	eqn = mt_cqc_comp_eqn(mb);
	if (eqn < MT25208_CQ_EQN_LIMIT && (eqn >= MT_NUM_EQ || !dev->eq[eqn].hw)) {
		FAB_ERR("%s: SW2HW_CQ: CQ 0x%x completion EQN %u is not a live EQ",
			dev->node->name, c->in_mod, eqn);
		return MT_STAT_BAD_PARAM;
	}
	if (mt_cqc_uar(mb) >= (1u << dev->cfg.log_uar)) {
		FAB_ERR("%s: SW2HW_CQ: CQ 0x%x UAR %u out of range", dev->node->name,
			c->in_mod, mt_cqc_uar(mb));
		return MT_STAT_BAD_PARAM;
	}
	memcpy(ctx, mb, MT_CQC_SIZE);
	cq_set_hw(dev, ix, true);
	mt25208_dp_watch(dev, mt_cqc_uar(mb), MT25208_DP_NO_QP);
	return MT_STAT_OK;
}

static uint8_t
cq_out(struct mt25208 *dev, struct mt25208_cmd *c, bool to_sw)
{
	uint8_t *ctx, *mb, st;
	uint32_t ix;

	st = cq_check(dev, c->in_mod, to_sw ? "HW2SW_CQ" : "QUERY_CQ", &ix);
	if (st != MT_STAT_OK)
		return st;
	if (!cq_is_hw(dev, ix))
		return MT_STAT_BAD_RES_STATE;
	ctx = mt25208_cqc(dev, c->in_mod);
	mb = mt25208_mbox_out(dev, c, MT_CQC_SIZE);
	if (mb == NULL)
		return MT_STAT_INTERNAL_ERR;
	if (ctx != NULL)
		memcpy(mb, ctx, MT_CQC_SIZE);
	else
		memset(mb, 0, MT_CQC_SIZE);
	if (to_sw)
		cq_set_hw(dev, ix, false);
	return MT_STAT_OK;
}

uint8_t
mt25208_cmd_hw2sw_cq(struct mt25208 *dev, struct mt25208_cmd *c)
{
	return cq_out(dev, c, true);
}

uint8_t
mt25208_cmd_query_cq(struct mt25208 *dev, struct mt25208_cmd *c)
{
	return cq_out(dev, c, false);
}

uint8_t
mt25208_cmd_resize_cq(struct mt25208 *dev, struct mt25208_cmd *c)
{
	const uint8_t *mb;
	uint8_t *ctx, *rec, st, lg;
	uint32_t ix, ci, outstanding;

	st = cq_check(dev, c->in_mod, "RESIZE_CQ", &ix);
	if (st != MT_STAT_OK)
		return st;
	if (c->op_mod != 1) {
		FAB_ERR("%s: RESIZE_CQ: op_modifier %u (must be 1)", dev->node->name, c->op_mod);
		return MT_STAT_BAD_PARAM;
	}
	if (!cq_is_hw(dev, ix))
		return MT_STAT_BAD_RES_STATE;
	ctx = mt25208_cqc(dev, c->in_mod);
	if (ctx == NULL)
		return MT_STAT_BAD_RESOURCE;
	mb = mt25208_mbox_in(dev, c, 0x20);
	if (mb == NULL)
		return MT_STAT_INTERNAL_ERR;
	lg = mt_get8(mb, MT_RCQ_LOG_SIZE);
	if (lg > MT25208_LOG_MAX_CQ_SZ)
		return MT_STAT_EXCEED_LIM;
	/* MTHCA_CMD_STAT_BAD_SIZE (0x40): more outstanding CQEs than the new size holds. */
	rec = mt25208_db_rec(dev, mt_cqc_uar(ctx), mt_cqc_ci_db(ctx));
	ci = rec != NULL ? mt_get32(rec, 0) : mt_cqc_cons(ctx);
	outstanding = mt_cqc_prod(ctx) - ci;
	if (outstanding >= (1u << lg))
		return MT_STAT_BAD_SIZE;
	mt_put32(ctx, MT_CQC_LOGSIZE_UAR, ((uint32_t)lg << 24) | mt_cqc_uar(ctx));
	mt_put32(ctx, MT_CQC_LKEY, mt_get32(mb, MT_RCQ_LKEY));
	mt_put64(ctx, MT_CQC_START, 0);
	return MT_STAT_OK;
}
