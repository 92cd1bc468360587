/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * MT25208 model: QP contexts: the state-transition commands, QUERY_QP and
 * CONF_SPECIAL_QP (doc/guides/nics/mthca_hw.rst, "QP transitions").
 *
 * The QPC is the 256-byte context in ICM at QPC base + index * 256; the
 * modify mailbox carries the optional-parameter mask at 0 and the QPC at
 * 8 (PRM arbelprm_qp_ee_state_transitions_st). RST2INIT takes the whole
 * context. A later transition takes only the fields the IBA requires for
 * it (IBA 11.2.5.2, the "required" column of the QP state transition
 * table, per service type) and those its optparam mask names; every other
 * mailbox field is ignored, as iPXE's near-empty INIT2RTR/RTR2RTS
 * mailboxes rely on (iPXE arbel_modify_qp). local_qpn and state are
 * "valid for QUERY and ERR2RST only" (PRM
 * arbelprm_queue_pair_ee_context_entry_st): the QPN comes from the input
 * modifier, the state from the command. The EQPC (firmware-private, 32
 * bytes per QP) is zeroed whenever a QP leaves RESET, for the data path's
 * counters.
 */

#include <inttypes.h>
#include <string.h>

#include "fab_log.h"
#include "fab_node.h"
#include "mt25208.h"
#include "mt25208_mbox.h"

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

/*
 * A field a later transition always takes (IBA 11.2.5.2 required
 * attributes): the transition, the service types (bit per MT_QP_ST_*),
 * the QPC word and mask.
 */
struct qp_req_field {
	uint16_t op;
	uint8_t sts;
	uint16_t off;
	uint32_t mask;
};

#define ST_RC	(1u << MT_QP_ST_RC)
#define ST_UC	(1u << MT_QP_ST_UC)
#define ST_ALL	0xffu

static const struct qp_req_field qp_req_fields[] = {
	/* INIT2RTR, connected: path MTU, destination QPN, RQ PSN, the AV */
	{ MT_OP_INIT2RTR, ST_RC | ST_UC, MT_QPC_MTU_MSGMAX, 0xff000000 },
	{ MT_OP_INIT2RTR, ST_RC | ST_UC, MT_QPC_REMOTE_QPN, 0x00ffffff },
	{ MT_OP_INIT2RTR, ST_RC | ST_UC, MT_QPC_RNR_NEXTRECVPSN, 0x00ffffff },
	{ MT_OP_INIT2RTR, ST_RC | ST_UC, MT_QPC_PRI_PATH + 0x04, 0x00ffffff },
	{ MT_OP_INIT2RTR, ST_RC | ST_UC, MT_QPC_PRI_PATH + 0x08, 0x00ffffff },
	{ MT_OP_INIT2RTR, ST_RC | ST_UC, MT_QPC_PRI_PATH + 0x0c, 0xffffffff },
	{ MT_OP_INIT2RTR, ST_RC | ST_UC, MT_QPC_PRI_PATH + 0x10, 0xffffffff },
	{ MT_OP_INIT2RTR, ST_RC | ST_UC, MT_QPC_PRI_PATH + 0x14, 0xffffffff },
	{ MT_OP_INIT2RTR, ST_RC | ST_UC, MT_QPC_PRI_PATH + 0x18, 0xffffffff },
	{ MT_OP_INIT2RTR, ST_RC | ST_UC, MT_QPC_PRI_PATH + 0x1c, 0xffffffff },
	/* INIT2RTR, RC: responder resources, minimum RNR NAK timer */
	{ MT_OP_INIT2RTR, ST_RC, MT_QPC_PARAMS2, 0x00e00000 },
	{ MT_OP_INIT2RTR, ST_RC, MT_QPC_RNR_NEXTRECVPSN, 0x1f000000 },
	/* RTR2RTS: SQ PSN for every type; RC adds timeout, retries, initiator depth */
	{ MT_OP_RTR2RTS, ST_ALL, MT_QPC_NEXT_SEND_PSN, 0x00ffffff },
	{ MT_OP_RTR2RTS, ST_RC, MT_QPC_PRI_PATH + 0x08, 0xff000000 },
	{ MT_OP_RTR2RTS, ST_RC, MT_QPC_PRI_PATH + 0x04, 0xff000000 },
	{ MT_OP_RTR2RTS, ST_RC, MT_QPC_PARAMS1, 0x00e70000 },
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
	/*
	 * log_sq_size [14:11] and log_rq_size [22:19] are 4 bits: a driver
	 * asking for 2^16 sets the reserved bit above them. The firmware
	 * refuses that, and a size beyond what QUERY_DEV_LIM advertised.
	 */
	if ((qpc[MT_QPC_SQ_SIZE_STRIDE] | qpc[MT_QPC_RQ_SIZE_STRIDE]) & 0x80 ||
	    mt_qpc_sq_log_size(qpc) > MT25208_LOG_MAX_QP_SZ ||
	    mt_qpc_rq_log_size(qpc) > MT25208_LOG_MAX_QP_SZ) {
		FAB_ERR("%s: RST2INIT: QP 0x%x queue size bytes 0x%02x 0x%02x: log sizes are 4 bits,"
			" at most %u (QUERY_DEV_LIM)", dev->node->name, qpn,
			qpc[MT_QPC_SQ_SIZE_STRIDE], qpc[MT_QPC_RQ_SIZE_STRIDE],
			MT25208_LOG_MAX_QP_SZ);
		return MT_STAT_BAD_PARAM;
	}
	return MT_STAT_OK;
}

static void
qp_take(uint8_t *qpc, const uint8_t *in, uint16_t off, uint32_t mask)
{
	mt_put32(qpc, off, (mt_get32(qpc, off) & ~mask) | (mt_get32(in, off) & mask));
}

/*
 * Apply a later transition's mailbox QPC @p in to the live @p qpc: the
 * fields the transition requires for the QP's service type, then those
 * @p optmask names. A special QP keeps its port (CONF_SPECIAL_QP fixed it).
 */
static void
qp_merge(uint8_t *qpc, const uint8_t *in, uint16_t op, uint32_t optmask)
{
	uint8_t st = mt_qpc_st(qpc);
	unsigned int i;

	for (i = 0; i < sizeof(qp_req_fields) / sizeof(qp_req_fields[0]); i++) {
		const struct qp_req_field *f = &qp_req_fields[i];

		if (f->op == op && st < 8 && (f->sts & (1u << st)))
			qp_take(qpc, in, f->off, f->mask);
	}
	for (i = 0; i < sizeof(qp_opt_fields) / sizeof(qp_opt_fields[0]); i++) {
		const struct qp_opt_field *f = &qp_opt_fields[i];

		if (f->opt == MT_QP_OPT_PORT_NUM && st == MT_QP_ST_MLX)
			continue;
		if (optmask & f->opt)
			qp_take(qpc, in, f->off, f->mask);
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
		/* The data path flushes outstanding WQEs. */
		mt_qpc_set_state(qpc, MT_QPS_ERR);
		mt25208_dp_watch(dev, mt_qpc_usr_page(qpc), qpn);
		return MT_STAT_OK;
	}

	in = mt25208_mbox_in(dev, c, MT_QP_MBOX_SIZE);
	if (in == NULL)
		return MT_STAT_INTERNAL_ERR;
	if (c->opcode == MT_OP_RST2INIT) {
		st = qp_check_new(dev, qpn, in + MT_QP_MBOX_QPC);
		if (st != MT_STAT_OK)
			return st;
		memcpy(qpc, in + MT_QP_MBOX_QPC, MT_QPC_SIZE);
		/* PRM local_qpn_een: the record's position; the mailbox's value is ignored */
		mt_put32(qpc, MT_QPC_LOCAL_QPN, (mt_get32(qpc, MT_QPC_LOCAL_QPN) & 0xff000000u) |
			 qpn);
		memset(eqpc, 0, MT25208_EQPC_SZ);
	} else {
		qp_merge(qpc, in + MT_QP_MBOX_QPC, c->opcode, mt_get32(in, MT_QP_MBOX_OPTMASK));
	}
	mt_qpc_set_state(qpc, t->to);
	mt25208_dp_watch(dev, mt_qpc_usr_page(qpc), qpn);

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
