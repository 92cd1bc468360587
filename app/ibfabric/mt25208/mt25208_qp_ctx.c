/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * MT25208 model: QP contexts (mthca_qp.c): the state-transition commands,
 * QUERY_QP and CONF_SPECIAL_QP.
 *
 * The QPC is the 256-byte context in ICM at QPC base + index * 256; the
 * modify mailbox carries the optional-parameter mask at 0 and the QPC at
 * 8 (struct mthca_qp_context). RST2INIT takes the whole context. Later transitions
 * take the fields that have no optpar bit fresh from the mailbox and keep
 * the optpar-governed ones unless their bit is set (MTHCA_QP_OPTPAR_*: "a UD
 * Q_Key set at RST2INIT must survive an INIT2RTR whose mailbox has Q_Key
 * = 0 and bit 5 clear"). The EQPC (firmware-private, 32 bytes per QP) is
 * zeroed whenever a QP leaves RESET, for the data path's counters.
 */

#include <inttypes.h>
#include <string.h>

#include "mt25208.h"

/* A field governed by an optpar bit: word offset in the QPC and bit mask. */
struct qp_opt_field {
	uint32_t opt;
	uint16_t off;
	uint32_t mask;
};

static const struct qp_opt_field qp_opt_fields[] = {
	{ MT_QP_OPT_PM_STATE, MT_QPC_FLAGS, 0x00001800 },
	{ MT_QP_OPT_SCHED_QUEUE, MT_QPC_MTU_MSGMAX, 0x000000ff },
	{ MT_QP_OPT_PKEY_INDEX, MT_QPC_PRI_PATH + 0x00, 0x0000007f },
	{ MT_QP_OPT_PORT_NUM, MT_QPC_PRI_PATH + 0x00, 0x03000000 },
	{ MT_QP_OPT_RNR_RETRY, MT_QPC_PRI_PATH + 0x04, 0xff000000 },
	{ MT_QP_OPT_PRIMARY_PATH, MT_QPC_PRI_PATH + 0x04, 0x00ffffff },
	{ MT_QP_OPT_ACK_TIMEOUT, MT_QPC_PRI_PATH + 0x08, 0xff000000 },
	{ MT_QP_OPT_PRIMARY_PATH, MT_QPC_PRI_PATH + 0x08, 0x00ffffff },
	{ MT_QP_OPT_PRIMARY_PATH, MT_QPC_PRI_PATH + 0x0c, 0xffffffff },
	{ MT_QP_OPT_PRIMARY_PATH, MT_QPC_PRI_PATH + 0x10, 0xffffffff },
	{ MT_QP_OPT_PRIMARY_PATH, MT_QPC_PRI_PATH + 0x14, 0xffffffff },
	{ MT_QP_OPT_PRIMARY_PATH, MT_QPC_PRI_PATH + 0x18, 0xffffffff },
	{ MT_QP_OPT_PRIMARY_PATH, MT_QPC_PRI_PATH + 0x1c, 0xffffffff },
	{ MT_QP_OPT_ALT_PATH, MT_QPC_ALT_PATH + 0x00, 0xffffffff },
	{ MT_QP_OPT_ALT_PATH, MT_QPC_ALT_PATH + 0x04, 0x00ffffff },
	{ MT_QP_OPT_ALT_RNR_RETRY, MT_QPC_ALT_PATH + 0x04, 0xff000000 },
	{ MT_QP_OPT_ALT_PATH, MT_QPC_ALT_PATH + 0x08, 0xffffffff },
	{ MT_QP_OPT_ALT_PATH, MT_QPC_ALT_PATH + 0x0c, 0xffffffff },
	{ MT_QP_OPT_ALT_PATH, MT_QPC_ALT_PATH + 0x10, 0xffffffff },
	{ MT_QP_OPT_ALT_PATH, MT_QPC_ALT_PATH + 0x14, 0xffffffff },
	{ MT_QP_OPT_ALT_PATH, MT_QPC_ALT_PATH + 0x18, 0xffffffff },
	{ MT_QP_OPT_ALT_PATH, MT_QPC_ALT_PATH + 0x1c, 0xffffffff },
	{ MT_QP_OPT_SRA_MAX, MT_QPC_PARAMS1, 0x00e00000 },
	{ MT_QP_OPT_RETRY_COUNT, MT_QPC_PARAMS1, 0x00070000 },
	{ MT_QP_OPT_RRA_MAX, MT_QPC_PARAMS2, 0x00e00000 },
	{ MT_QP_OPT_RRE, MT_QPC_PARAMS2, 0x00008000 },
	{ MT_QP_OPT_RWE, MT_QPC_PARAMS2, 0x00004000 },
	{ MT_QP_OPT_RAE, MT_QPC_PARAMS2, 0x00002000 },
	{ MT_QP_OPT_RNR_TIMEOUT, MT_QPC_RNR_NEXTRECVPSN, 0x1f000000 },
	{ MT_QP_OPT_Q_KEY, MT_QPC_QKEY, 0xffffffff },
};

/* mthca_MODIFY_QP(): the state a transition starts from (bit per state) and ends in. */
struct qp_trans {
	uint16_t from;
	uint8_t to;
};

#define QS(s) (1u << MT_QPS_##s)

static const struct qp_trans *
qp_trans_of(uint16_t op)
{
	static const struct qp_trans rst2init = { QS(RESET), MT_QPS_INIT };
	static const struct qp_trans init2init = { QS(INIT), MT_QPS_INIT };
	static const struct qp_trans init2rtr = { QS(INIT), MT_QPS_RTR };
	static const struct qp_trans rtr2rts = { QS(RTR), MT_QPS_RTS };
	static const struct qp_trans rts2rts = { QS(RTS), MT_QPS_RTS };
	static const struct qp_trans sqerr2rts = { QS(SQE), MT_QPS_RTS };
	static const struct qp_trans rts2sqd = { QS(RTS), MT_QPS_SQD };
	static const struct qp_trans sqd2rts = { QS(SQD), MT_QPS_RTS };
	static const struct qp_trans sqd2sqd = { QS(SQD), MT_QPS_SQD };
	static const struct qp_trans any2err = { 0xff, MT_QPS_ERR };
	static const struct qp_trans any2rst = { 0xff, MT_QPS_RESET };

	switch (op) {
	case MT_OP_RST2INIT: return &rst2init;
	case MT_OP_INIT2INIT: return &init2init;
	case MT_OP_INIT2RTR: return &init2rtr;
	case MT_OP_RTR2RTS: return &rtr2rts;
	case MT_OP_RTS2RTS: return &rts2rts;
	case MT_OP_SQERR2RTS: return &sqerr2rts;
	case MT_OP_RTS2SQD: return &rts2sqd;
	case MT_OP_SQD2RTS: return &sqd2rts;
	case MT_OP_SQD2SQD: return &sqd2sqd;
	case MT_OP_2ERR: return &any2err;
	case MT_OP_ERR2RST: return &any2rst;
	default: return NULL;
	}
}

bool
mt25208_qp_special(const struct mt25208 *dev, uint32_t qpn, uint8_t *port, uint8_t *kind)
{
	unsigned int k;

	for (k = 0; k < 2; k++) {
		uint32_t b = dev->sqp_base[k];

		if (b != 0 && qpn >= b && qpn < b + dev->nports) {
			if (port != NULL)
				*port = (uint8_t)(qpn - b + 1);
			if (kind != NULL)
				*kind = (uint8_t)k;
			return true;
		}
	}
	return false;
}

uint32_t
mt25208_sqp_qpn(const struct mt25208 *dev, uint8_t kind, uint8_t port)
{
	if (kind > 1 || port == 0 || port > dev->nports || dev->sqp_base[kind] == 0)
		return 0;
	return dev->sqp_base[kind] + port - 1u;
}

/* Checks on a context entering INIT from RESET (mthca_qp.c enums, struct mthca_qp_path). */
static uint8_t
qp_check_new(struct mt25208 *dev, uint32_t qpn, const uint8_t *qpc)
{
	uint8_t st = mt_qpc_st(qpc), port = mt_qpc_port(qpc), sport = 0, kind = 0;
	bool special = mt25208_qp_special(dev, qpn, &sport, &kind);

	if (st != MT_QP_ST_RC && st != MT_QP_ST_UC && st != MT_QP_ST_UD &&
	    st != MT_QP_ST_MLX) {
		FAB_ERR("%s: RST2INIT: QP 0x%x service type %u not supported",
			dev->node->name, qpn, st);
		return MT_STAT_BAD_PARAM;
	}
	if ((st == MT_QP_ST_MLX) != special) {
		FAB_ERR("%s: RST2INIT: QP 0x%x service type %u: MLX is for the special QPs only",
			dev->node->name, qpn, st);
		return MT_STAT_BAD_PARAM;
	}
	if (port == 0 || port > dev->nports || (special && port != sport)) {
		FAB_ERR("%s: RST2INIT: QP 0x%x port %u (device has %u ports%s)",
			dev->node->name, qpn, port, dev->nports,
			special ? ", special QP of another port" : "");
		return MT_STAT_BAD_PARAM;
	}
	if (mt_qpc_pkey_index(qpc) >= (1u << MT25208_LOG_PKEY)) {
		FAB_ERR("%s: RST2INIT: QP 0x%x P_Key index %u >= %u", dev->node->name, qpn,
			mt_qpc_pkey_index(qpc), 1u << MT25208_LOG_PKEY);
		return MT_STAT_BAD_PARAM;
	}
	return MT_STAT_OK;
}

/* Merge a later transition's mailbox QPC @p in into the live @p qpc. */
static void
qp_merge(uint8_t *qpc, const uint8_t *in, uint32_t optmask, bool mlx)
{
	uint8_t old[MT_QPC_SIZE];
	unsigned int i;

	memcpy(old, qpc, sizeof(old));
	memcpy(qpc, in, MT_QPC_SIZE);
	for (i = 0; i < sizeof(qp_opt_fields) / sizeof(qp_opt_fields[0]); i++) {
		const struct qp_opt_field *f = &qp_opt_fields[i];
		uint32_t v;

		/* MLX QPs always carry their fixed port (struct mthca_qp_path). */
		if (f->opt == MT_QP_OPT_PORT_NUM && mlx)
			continue;
		if (optmask & f->opt)
			continue;
		v = (mt_get32(qpc, f->off) & ~f->mask) | (mt_get32(old, f->off) & f->mask);
		mt_put32(qpc, f->off, v);
	}
}

uint8_t
mt25208_cmd_modify_qp(struct mt25208 *dev, struct mt25208_cmd *c)
{
	const struct qp_trans *t = qp_trans_of(c->opcode);
	uint32_t qpn = c->in_mod & MT_QP_INMOD_QPN_MASK, ix;
	uint8_t *qpc, *eqpc, *mb, cur, st;
	const uint8_t *in;

	if (t == NULL)
		return MT_STAT_BAD_OP;
	if (c->in_mod & MT_QP_INMOD_EE) {
		FAB_ERR("%s: modify QP: EE bit set in in_modifier 0x%x (no RD)",
			dev->node->name, c->in_mod);
		return MT_STAT_BAD_PARAM;
	}
	ix = qpn & ((1u << dev->cfg.log_qp) - 1);
	if (ix < (1u << MT25208_LOG_RSVD_QP)) {
		FAB_ERR("%s: modify QP: QPN 0x%x is reserved", dev->node->name, qpn);
		return MT_STAT_BAD_RESOURCE;
	}
	qpc = mt25208_qpc(dev, qpn);
	eqpc = mt25208_eqpc(dev, qpn);
	if (qpc == NULL || eqpc == NULL) {
		FAB_ERR("%s: modify QP: QP 0x%x context ICM not mapped", dev->node->name, qpn);
		return MT_STAT_BAD_RESOURCE;
	}
	cur = mt_qpc_state(qpc);
	if (!(t->from & (1u << cur)))
		return MT_STAT_BAD_QP_STATE;

	if (c->opcode == MT_OP_ERR2RST) {
		if (c->op_mod != MT_ERR2RST_OPMOD_WRITE_OUT &&
		    c->op_mod != MT_ERR2RST_OPMOD_NO_OUT) {
			FAB_ERR("%s: ERR2RST: op_modifier %u (valid 2, 3)", dev->node->name,
				c->op_mod);
			return MT_STAT_BAD_PARAM;
		}
		if (c->op_mod == MT_ERR2RST_OPMOD_WRITE_OUT) {
			mb = mt25208_mbox_out(dev, c, MT_QP_MBOX_SIZE);
			if (mb == NULL)
				return MT_STAT_INTERNAL_ERR;
			memset(mb, 0, MT_QP_MBOX_SIZE);
			memcpy(mb + MT_QP_MBOX_QPC, qpc, MT_QPC_SIZE);
			mt_qpc_set_state(mb + MT_QP_MBOX_QPC, MT_QPS_RESET);
		}
		mt_qpc_set_state(qpc, MT_QPS_RESET);
		memset(eqpc, 0, MT25208_EQPC_SZ);
		return MT_STAT_OK;
	}
	if (c->opcode == MT_OP_2ERR) {
		/* The data path flushes outstanding WQEs when it sees ERR. */
		mt_qpc_set_state(qpc, MT_QPS_ERR);
		return MT_STAT_OK;
	}

	in = mt25208_mbox_in(dev, c, MT_QP_MBOX_SIZE);
	if (in == NULL)
		return MT_STAT_INTERNAL_ERR;
	if (mt_qpc_local_qpn(in + MT_QP_MBOX_QPC) != qpn) {
		FAB_ERR("%s: modify QP 0x%x: context local QPN is 0x%x", dev->node->name,
			qpn, mt_qpc_local_qpn(in + MT_QP_MBOX_QPC));
		return MT_STAT_BAD_PARAM;
	}
	if (c->opcode == MT_OP_RST2INIT) {
		st = qp_check_new(dev, qpn, in + MT_QP_MBOX_QPC);
		if (st != MT_STAT_OK)
			return st;
		memcpy(qpc, in + MT_QP_MBOX_QPC, MT_QPC_SIZE);
		memset(eqpc, 0, MT25208_EQPC_SZ);
	} else {
		if (mt_qpc_st(in + MT_QP_MBOX_QPC) != mt_qpc_st(qpc)) {
			FAB_ERR("%s: modify QP 0x%x: service type changed from %u to %u",
				dev->node->name, qpn, mt_qpc_st(qpc),
				mt_qpc_st(in + MT_QP_MBOX_QPC));
			return MT_STAT_BAD_PARAM;
		}
		qp_merge(qpc, in + MT_QP_MBOX_QPC, mt_get32(in, MT_QP_MBOX_OPTMASK),
			 mt_qpc_st(qpc) == MT_QP_ST_MLX);
	}
	mt_qpc_set_state(qpc, t->to);

	/* The model drains at once: RTS->SQD with the event bit reports it now. */
	if (c->opcode == MT_OP_RTS2SQD && (c->in_mod & MT_QP_INMOD_SQD_EVENT)) {
		uint8_t data[MT_EQE_DATA_SIZE] = { 0 };

		mt_put32(data, 0, qpn);
		mt25208_event(dev, MT_EV_SQ_DRAINED, 0, data);
	}
	return MT_STAT_OK;
}

uint8_t
mt25208_cmd_query_qp(struct mt25208 *dev, struct mt25208_cmd *c)
{
	uint32_t qpn = c->in_mod & MT_QP_INMOD_QPN_MASK;
	uint8_t *qpc, *mb;

	if (c->in_mod & MT_QP_INMOD_EE)
		return MT_STAT_BAD_PARAM;
	if ((qpn & ((1u << dev->cfg.log_qp) - 1)) < (1u << MT25208_LOG_RSVD_QP))
		return MT_STAT_BAD_RESOURCE;
	qpc = mt25208_qpc(dev, qpn);
	if (qpc == NULL)
		return MT_STAT_BAD_RESOURCE;
	mb = mt25208_mbox_out(dev, c, MT_QP_MBOX_SIZE);
	if (mb == NULL)
		return MT_STAT_INTERNAL_ERR;
	memset(mb, 0, MT_QP_MBOX_SIZE);
	memcpy(mb + MT_QP_MBOX_QPC, qpc, MT_QPC_SIZE);
	return MT_STAT_OK;
}

uint8_t
mt25208_cmd_conf_special_qp(struct mt25208 *dev, struct mt25208_cmd *c)
{
	uint32_t base = c->in_mod, other;

	if (c->op_mod > MT_SQP_GSI) {
		/*
		 * 2 and 3 name raw IPv6 / Ethertype QPs, which the command has
		 * but this HCA does not model (no DEV_LIM flags 4, 5): a bad
		 * parameter. Anything above is no opcode modifier of the
		 * command at all (MTHCA_CMD_STAT_BAD_OP: "opcode modifier not supported").
		 */
		FAB_ERR("%s: CONF_SPECIAL_QP: op_modifier %u not supported",
			dev->node->name, c->op_mod);
		return c->op_mod <= 3 ? MT_STAT_BAD_PARAM : MT_STAT_BAD_OP;
	}
	if (base == 0) {
		dev->sqp_base[c->op_mod] = 0;
		return MT_STAT_OK;
	}
	other = dev->sqp_base[c->op_mod ^ 1];
	if (base > MT_QP_INMOD_QPN_MASK || base + MT25208_MAX_PORTS > (1u << dev->cfg.log_qp) ||
	    base < (1u << MT25208_LOG_RSVD_QP) ||
	    (other != 0 && base < other + MT25208_MAX_PORTS && other < base + MT25208_MAX_PORTS)) {
		FAB_ERR("%s: CONF_SPECIAL_QP: first QPN 0x%x invalid (reserved, out of"
			" range or overlapping the other pair at 0x%x)",
			dev->node->name, base, other);
		return MT_STAT_BAD_PARAM;
	}
	dev->sqp_base[c->op_mod] = base;
	return MT_STAT_OK;
}
