/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * MT25208 model: the named driver checks (doc/guides/nics/mthca_hw.rst,
 * "What the model checks"). Each is one condition a driver can break, one
 * outcome silicon gives (the caller does it), one PRM field. Here: their
 * names, the per-function counters and the log line, once per queue.
 */

#include <inttypes.h>
#include <stdio.h>

#include "fab_log.h"
#include "fab_node.h"
#include "mt25208.h"

static const struct {
	const char *name;
	const char *field;
	const char *outcome;
} checks[MT25208_CHK_COUNT] = {
	[MT25208_CHK_DB_QP] = { "db_qp", "send_doorbell.qpn",
		"doorbell ignored: no QP in a send state" },
	[MT25208_CHK_DB_UAR] = { "db_uar", "queue_pair_ee_context_entry.usr_page",
		"doorbell ignored: rung on another UAR page than the QP's" },
	[MT25208_CHK_DB_WQE_CNT] = { "db_wqe_cnt", "send_doorbell.wqe_cnt",
		"doorbell ignored: wqe_cnt 0" },
	[MT25208_CHK_DB_WQE_COUNTER] = { "db_wqe_counter", "send_doorbell.wqe_counter",
		"WQ catastrophic error, QP to ERR" },
	[MT25208_CHK_DB_NDS_OP] = { "db_nds_op", "send_doorbell.nopcode/nds",
		"local QP operation error CQE" },
	[MT25208_CHK_WQE_CHAIN] = { "wqe_chain", "wqe_segment_next.nda_31_6/nds/nopcode",
		"local QP operation error CQE" },
	[MT25208_CHK_WQE_DBD] = { "wqe_dbd", "wqe_segment_next.always1",
		"local QP operation error CQE" },
	[MT25208_CHK_CTRL_ALWAYS1] = { "ctrl_always1", "wqe_segment_ctrl_send.always1",
		"local QP operation error CQE" },
	[MT25208_CHK_AV_PD] = { "av_pd", "ud_address_vector.pd",
		"local QP operation error CQE" },
	[MT25208_CHK_AV_PORT] = { "av_port", "ud_address_vector.port_number",
		"local QP operation error CQE" },
	[MT25208_CHK_AV_GID_INDEX] = { "av_gid_index", "ud_address_vector.mgid_index",
		"local QP operation error CQE" },
	[MT25208_CHK_AV_RGID] = { "av_rgid", "ud_address_vector.rgid_31_0",
		"local QP operation error CQE" },
	[MT25208_CHK_MLX_RLID] = { "mlx_rlid", "wqe_segment_ctrl_mlx.rlid",
		"local QP operation error CQE" },
	[MT25208_CHK_MLX_ICRC] = { "mlx_icrc", "wqe_segment_ctrl_mlx.icrc",
		"local QP operation error CQE" },
	[MT25208_CHK_CQ_PD] = { "cq_pd", "completion_queue_context.pd",
		"CQE not written: CQ write failure, CQ error event (access violation)" },
	[MT25208_CHK_EQ_PD] = { "eq_pd", "eqc.pd",
		"EQE not written: EQ write failure, the event is lost" },
};

const char *
mt25208_check_name(enum mt25208_check chk)
{
	return chk < MT25208_CHK_COUNT ? checks[chk].name : "?";
}

void
mt25208_check_fail(struct mt25208 *dev, enum mt25208_check chk, uint32_t qn, uint32_t *logged,
		   const char *detail)
{
	if (chk >= MT25208_CHK_COUNT)
		return;
	dev->checks[chk]++;
	/* once per queue: a driver that breaks a rule breaks it on every WQE */
	if (logged != NULL) {
		if (*logged & (1u << chk))
			return;
		*logged |= 1u << chk;
	}
	FAB_ERR("%s: queue 0x%x: %s (PRM %s): %s%s%s", dev->node->name, qn, checks[chk].name,
		checks[chk].field, checks[chk].outcome, detail != NULL ? "; " : "",
		detail != NULL ? detail : "");
}

void
mt25208_checks_show(const struct mt25208 *dev, FILE *out)
{
	unsigned int i;

	for (i = 0; i < MT25208_CHK_COUNT; i++)
		fprintf(out, "hca_error node=\"%s\" check=%s count=%" PRIu64 " field=%s\n",
			dev->node->name, checks[i].name, dev->checks[i], checks[i].field);
}
