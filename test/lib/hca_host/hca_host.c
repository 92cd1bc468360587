/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * hca_host: driver-less conformance harness for ibfabric's MT25208 model.
 *
 *   hca_host commands PCI_DIR          every implemented command, its output
 *                                      bytes and an error status each; reset
 *   hca_host faults PCI_DIR            DMA fault, bad L_Key, WQE fetch fault,
 *                                      flush on error (no SM needed)
 *   hca_host ud PCI_A PCI_B            two hosts: QP0 agent until both ports
 *                                      are Active (OpenSM), one UD datagram
 *                                      each way, CQ arming and completion
 *                                      events, a P_Key violation, Q_Key drop,
 *                                      local length error
 *   hca_host pkey PCI_A PCI_B          two hosts under OpenSM's partitions
 *                                      (test_hca_host.py writes them): the
 *                                      IBA 10.9.3 membership rows, both ways
 *   hca_host serve PCI_DIR             bring up and answer SMPs until killed
 *                                      (the host-disappears test kills it)
 *   hca_host bench PCI_A PCI_B SIZE N  UD datagrams per second A -> B
 *   hca_host bench_serve PCI_A PCI_B   the same, one burst per "SIZE N" line
 *                                      read from stdin (hh_bench.c)
 *   hca_host shrink PCI_A PCI_B        B truncates its DMA memory while A's
 *                                      datagrams arrive: B's HCA reports the
 *                                      catastrophic error, A works on
 *   hca_host shrink_send PCI_A PCI_B   the same, B cutting its payload buffer
 *                                      and sending from it
 *   hca_host matrix PCI_A PCI_B [ROW]  the buggy-driver matrix (hh_matrix.c):
 *                                      each row's bug, then the row without it
 *
 * "-s ipxe" before the scenario runs it as iPXE's arbel.c drives the
 * silicon instead of Linux's mthca (enum hh_style in hh.h); the checks
 * are the same. "-b dr_no_d" makes the QP0 agent answer directed-route
 * SMPs without the D bit (a matrix row OpenSM must notice). "-c PATH"
 * names ibfabric's control socket, where the matrix reads the model's
 * check counters (hh_ctl.h); the matrix needs it.
 *
 * Expected values are derived from Linux mthca and rdma-core (cited by
 * function), doc/guides/nics/mthca_hw.rst,
 * the IBA and the ibfabric topology, never read back from the model.
 * Output: one "ok"/"FAIL" line per check; exit 0 or 1 (a check failed). The
 * test gives a PCI function ibfabric made: a device file missing from it
 * is a failure, never a skip (doc/guides/testing.rst, no silent skips).
 */

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hh_bench.h"
#include "hh_host.h"
#include "hh_matrix.h"

#define DMA_SIZE	(96u << 20)
#define UD_QKEY		HH_HOST_UD_QKEY
#define QP_DEPTH	HH_HOST_QP_DEPTH

static unsigned int failures, checks;
static enum hh_style style;	/* host style of every host a scenario brings up */
static uint32_t host_bugs;	/* enum hh_bug every host commits (-b) */
static const char *ctl_path;	/* ibfabric's control socket (-c), for the matrix */

#define CHECK(cond, ...) do { \
	checks++; \
	if (cond) { \
		if (hh_verbose) { printf("ok   "); printf(__VA_ARGS__); printf("\n"); } \
	} else { \
		failures++; \
		printf("FAIL %s:%d: ", __FILE__, __LINE__); \
		printf(__VA_ARGS__); \
		printf("\n"); \
	} \
} while (0)

#define CHECK_EQ(a, b, what) do { \
	unsigned long long _a = (unsigned long long)(a), _b = (unsigned long long)(b); \
	CHECK(_a == _b, "%s: got 0x%llx, expected 0x%llx", what, _a, _b); \
} while (0)

#define REQUIRE(cond, ...) do { \
	bool _ok = (cond); \
	CHECK(_ok, __VA_ARGS__); \
	if (!_ok) \
		return -1; \
} while (0)

static volatile sig_atomic_t stop;

static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void
nap(unsigned int us)
{
	struct timespec ts = { 0, (long)us * 1000 };

	nanosleep(&ts, NULL);
}

/* ---- hosts ---------------------------------------------------------------- */

/* The PCI function exists (the test saw ibfabric make it): any file missing fails. */
static int
no_device(const char *dir, int ret)
{
	printf("FAIL %s: cannot open the PCI function's files: %s\n", dir, strerror(-ret));
	return 1;
}

static int
host_up(struct hh_host *h, const char *dir)
{
	int ret;

	h->d.style = style;
	h->d.bugs = host_bugs;
	ret = hh_open(&h->d, dir, DMA_SIZE);

	if (ret != 0)
		return ret;
	return hh_host_up(h);
}

/* Hosts "A" and "B" brought up; 0, or hh_open()'s or hh_host_up()'s error. */
static int
hosts_up(struct hh_host *a, const char *da, struct hh_host *b, const char *db)
{
	int ret;

	a->name = "A";
	b->name = "B";
	ret = host_up(a, da);
	return ret != 0 ? ret : host_up(b, db);
}

#define host_service(h)		hh_host_service(h)
#define get_port_info(h)	hh_host_port_info(h)
#define ud_qpn(h, i)		hh_host_qpn(h, i)

/* ---- commands ------------------------------------------------------------ */

static int
scenario_commands(const char *dir)
{
	struct hh_dev dev = { .style = style }, *d = &dev;
	const uint8_t *o;
	uint8_t mad[256], resp[256];
	uint64_t out, v;
	unsigned int i;
	int st, ret;

	ret = hh_open(d, dir, DMA_SIZE);
	if (ret != 0)
		return no_device(dir, ret);

	/* mthca_hw.rst state table: resource commands need RUN_FW/INIT_HCA first */
	st = hh_cmd_box(d, HH_OP_QUERY_DEV_LIM, 0, 0, false, true);
	CHECK_EQ(st, HH_ST_BAD_SYS_STATE, "QUERY_DEV_LIM before RUN_FW");
	st = hh_cmd(d, d->mbox_in.iova, NULL, 0, 0, HH_OP_INIT_HCA);
	CHECK_EQ(st, HH_ST_BAD_SYS_STATE, "INIT_HCA before RUN_FW");
	st = hh_cmd(d, 0, NULL, 0, 0, 0x7fe);
	CHECK_EQ(st, HH_ST_BAD_OP, "unknown opcode 0x7fe");
	/* every command of an initialised HCA refuses the boot firmware (mthca_hw.rst) */
	{
		static const uint16_t hca_ops[] = {
			HH_OP_INIT_IB, HH_OP_CLOSE_IB, HH_OP_SET_IB, HH_OP_SW2HW_MPT,
			HH_OP_HW2SW_MPT, HH_OP_QUERY_MPT, HH_OP_WRITE_MTT, HH_OP_SYNC_TPT,
			HH_OP_MAP_EQ, HH_OP_SW2HW_EQ, HH_OP_HW2SW_EQ, HH_OP_QUERY_EQ,
			HH_OP_SW2HW_CQ, HH_OP_HW2SW_CQ, HH_OP_QUERY_CQ, HH_OP_RESIZE_CQ,
			HH_OP_RST2INIT, HH_OP_INIT2INIT, HH_OP_INIT2RTR, HH_OP_RTR2RTS,
			HH_OP_RTS2RTS, HH_OP_SQERR2RTS, HH_OP_2ERR, HH_OP_RTS2SQD,
			HH_OP_SQD2RTS, HH_OP_SQD2SQD, HH_OP_2RST, HH_OP_QUERY_QP,
			HH_OP_CONF_SPECIAL_QP, HH_OP_MAD_IFC, HH_OP_READ_MGM, HH_OP_WRITE_MGM,
			HH_OP_MGID_HASH, HH_OP_NOP,
		};

		memset(d->mbox_in.va, 0, HH_MAILBOX_SIZE);
		for (i = 0; i < sizeof(hca_ops) / sizeof(hca_ops[0]); i++) {
			out = d->mbox_out.iova;
			st = hh_cmd(d, d->mbox_in.iova, &out, 1, 0, hca_ops[i]);
			CHECK_EQ(st, HH_ST_BAD_SYS_STATE, hh_op_name(hca_ops[i]));
		}
	}
	st = hh_cmd(d, 1u << 20, NULL, 0, 0, HH_OP_SET_ICM_SIZE);
	CHECK_EQ(st, HH_ST_BAD_SYS_STATE, "SET_ICM_SIZE before RUN_FW");
	st = hh_cmd(d, d->mbox_in.iova, NULL, 1, 0, HH_OP_MAP_ICM_AUX);
	/* the aux area comes after RUN_FW (mthca_hw.rst state table, which gives the code) */
	CHECK_EQ(st, HH_ST_BAD_SYS_STATE, "MAP_ICM_AUX before RUN_FW");
	/* teardown commands on the boot firmware: mthca_hw.rst state table, 0x04 */
	st = hh_cmd(d, 0, NULL, 0, 0, HH_OP_CLOSE_HCA);
	CHECK_EQ(st, HH_ST_BAD_SYS_STATE, "CLOSE_HCA on the boot firmware");
	st = hh_cmd(d, 0, NULL, 0, 0, HH_OP_UNMAP_ICM_AUX);
	CHECK_EQ(st, HH_ST_BAD_SYS_STATE, "UNMAP_ICM_AUX on the boot firmware");
	/* mthca_hw.rst state table: nothing mapped in BOOT, nothing to unmap */
	st = hh_cmd(d, 0, NULL, 0, 0, HH_OP_UNMAP_FA);
	CHECK_EQ(st, HH_ST_BAD_SYS_STATE, "UNMAP_FA on the boot firmware, no FW area");
	st = hh_cmd(d, 0, NULL, 0, 0, HH_OP_RUN_FW);
	/* cmd does not fix it; mthca_hw.rst state table: RUN_FW needs the FW area, else 0x04 */
	CHECK_EQ(st, HH_ST_BAD_SYS_STATE, "RUN_FW before MAP_FA");
	/* MAP_FA of a page whose bus address no window covers */
	memset(d->mbox_in.va, 0, 16);
	hh_put64(d->mbox_in.va, 8, 0x2000);
	st = hh_cmd(d, d->mbox_in.iova, NULL, 1, 0, HH_OP_MAP_FA);
	/* Linux mthca_cmd.h: 0x01 INTERNAL_ERR, "e.g. bus error" */
	CHECK_EQ(st, HH_ST_INTERNAL_ERR, "MAP_FA of unreachable bus address 0x2000");
	/* an output mailbox outside every DMA window: the firmware's bus error */
	out = 0x1000;
	st = hh_cmd(d, 0, &out, 0, 0, HH_OP_QUERY_FW);
	CHECK_EQ(st, HH_ST_INTERNAL_ERR, "QUERY_FW with out mailbox at unmapped IOVA 0x1000");

	/* QUERY_FW, byte by byte (mthca_QUERY_FW()) */
	st = hh_cmd_box(d, HH_OP_QUERY_FW, 0, 0, false, true);
	CHECK_EQ(st, HH_ST_OK, "QUERY_FW");
	o = d->mbox_out.va;
	v = ((uint64_t)hh_get16(o, 2) << 32) | ((uint64_t)hh_get16(o, 6) << 16) | hh_get16(o, 4);
	CHECK(v >= ((5ull << 32) | (3ull << 16)), "QUERY_FW version %u.%u.%u >= 5.3.0 (Arbel native)",
	      hh_get16(o, 2), hh_get16(o, 6), hh_get16(o, 4));
	CHECK(hh_get16(o, HH_QFW_FW_PAGES) > 0, "QUERY_FW firmware area %u pages > 0",
	      hh_get16(o, HH_QFW_FW_PAGES));
	CHECK(hh_get8(o, HH_QFW_LOG_MAX_CMDS) <= 8, "QUERY_FW log max commands %u",
	      hh_get8(o, HH_QFW_LOG_MAX_CMDS));
	CHECK_EQ(hh_get32(o, HH_QFW_CMD_DB) & 1, 0, "QUERY_FW command doorbells not offered");
	{
		uint64_t clr = hh_get64(o, HH_QFW_CLR_INT_BASE) & (HH_BAR0_SIZE - 1);
		uint64_t arm = hh_get64(o, HH_QFW_EQ_ARM_BASE) & (HH_BAR0_SIZE - 1);
		uint64_t sci = hh_get64(o, HH_QFW_EQ_SET_CI_BASE) & (HH_BAR0_SIZE - 1);
		uint64_t cat = hh_get64(o, HH_QFW_CATAS_BASE) & (HH_BAR0_SIZE - 1);
		uint32_t catsz = hh_get32(o, HH_QFW_CATAS_SIZE) * 4;
		struct { uint64_t a, l; const char *n; } r[] = {
			{ HH_HCR_BASE, 0x1c, "HCR" }, { clr, 8, "clear-int" }, { arm, 8, "EQ arm" },
			{ sci, 32 * 8, "EQ set_ci" }, { cat, catsz, "catas buffer" },
			{ HH_RESET_OFF, 4, "reset" },
		};
		unsigned int a, b;

		for (a = 0; a < 6; a++) {
			CHECK(r[a].a % 4 == 0 && r[a].a + r[a].l <= HH_BAR0_SIZE,
			      "QUERY_FW %s at BAR0+0x%llx (len 0x%llx) inside BAR0", r[a].n,
			      (unsigned long long)r[a].a, (unsigned long long)r[a].l);
			for (b = a + 1; b < 6; b++)
				CHECK(r[a].a + r[a].l <= r[b].a || r[b].a + r[b].l <= r[a].a,
				      "QUERY_FW %s and %s do not overlap", r[a].n, r[b].n);
		}
		CHECK(catsz > 0, "QUERY_FW catastrophic buffer of %u bytes", catsz);
		for (i = 0; i < catsz; i += 4)
			if (hh_bar0_read32(d, (uint32_t)cat + i) != 0)
				break;
		CHECK(i >= catsz, "catastrophic buffer reads all zero on a healthy device");
	}

	/* the whole bring-up (hh_res.c checks each status) */
	ret = hh_bringup(d);
	REQUIRE(ret == 0, "mem-free bring-up QUERY_FW .. INIT_HCA .. QUERY_ADAPTER");

	/* QUERY_DEV_LIM consistency (mthca_QUERY_DEV_LIM()), re-read */
	st = hh_cmd_box(d, HH_OP_QUERY_DEV_LIM, 0, 0, false, true);
	CHECK_EQ(st, HH_ST_OK, "QUERY_DEV_LIM after INIT_HCA");
	o = d->mbox_out.va;
	CHECK(d->num_ports >= 1 && d->num_ports <= 2, "DEV_LIM ports %u", d->num_ports);
	CHECK(d->uar_size == d->bar2_len, "DEV_LIM UAR area %u = BAR2 length %zu", d->uar_size,
	      d->bar2_len);
	CHECK(d->flags & HH_DEV_LIM_FLAG_UD, "DEV_LIM flags 0x%x include UD", d->flags);
	CHECK(d->mtu_cap >= 1 && d->mtu_cap <= 5, "DEV_LIM MTU cap %u is an IB MTU", d->mtu_cap);
	for (i = 0; i < 9; i++) {
		static const unsigned int offs[] = { HH_QDL_QPC_SZ, HH_QDL_EQPC_SZ, HH_QDL_EQC_SZ,
			HH_QDL_CQC_SZ, HH_QDL_SRQC_SZ, HH_QDL_MPT_SZ, HH_QDL_UAR_SCR_SZ,
			HH_QDL_EEC_SZ, HH_QDL_EEEC_SZ };
		uint16_t sz = hh_get16(o, offs[i]);

		CHECK(sz != 0 && (sz & (sz - 1)) == 0, "DEV_LIM entry size at 0x%02x = %u is a power of two",
		      offs[i], sz);
	}
	CHECK(hh_get8(o, HH_QDL_MAX_SG) >= 1 && hh_get16(o, HH_QDL_MAX_DESC) >= 64,
	      "DEV_LIM max SG %u, max descriptor %u bytes", hh_get8(o, HH_QDL_MAX_SG),
	      hh_get16(o, HH_QDL_MAX_DESC));
	CHECK(d->aux_pages > 0, "SET_ICM_SIZE asked for %u aux pages", d->aux_pages);
	CHECK(d->inta_pin < 64, "QUERY_ADAPTER INTA pin %u", d->inta_pin);
	st = hh_cmd(d, 0, NULL, 0, 0, HH_OP_RUN_FW);
	/* mthca_hw.rst state table: RUN_FW only on the boot firmware, INIT_HCA only in RUN */
	CHECK_EQ(st, HH_ST_BAD_SYS_STATE, "RUN_FW twice");
	st = hh_cmd(d, d->mbox_in.iova, NULL, 0, 0, HH_OP_INIT_HCA);
	CHECK_EQ(st, HH_ST_BAD_SYS_STATE, "INIT_HCA twice");
	/* mthca_hw.rst state table: UNMAP_ICM_AUX and UNMAP_FA come after CLOSE_HCA, else 0x04 */
	st = hh_cmd(d, 0, NULL, 0, 0, HH_OP_UNMAP_ICM_AUX);
	CHECK_EQ(st, HH_ST_BAD_SYS_STATE, "UNMAP_ICM_AUX of an initialised HCA");
	st = hh_cmd(d, 0, NULL, 0, 0, HH_OP_UNMAP_FA);
	CHECK_EQ(st, HH_ST_BAD_SYS_STATE, "UNMAP_FA of an initialised HCA");
	/* MAP_ICM of a page whose bus address is outside every window */
	memset(d->mbox_in.va, 0, 32);
	hh_put64(d->mbox_in.va, 0, d->uarc_base + (uint64_t)(d->uar + 5) * d->uarc_size);
	hh_put64(d->mbox_in.va, 8, 0x2000);
	st = hh_cmd(d, d->mbox_in.iova, NULL, 1, 0, HH_OP_MAP_ICM);
	CHECK_EQ(st, HH_ST_INTERNAL_ERR, "MAP_ICM of unreachable bus address 0x2000 (bus error)");

	/* EQs, MAP_EQ, event mode, NOP with an interrupt (Linux mthca_setup_hca()) */
	ret = hh_setup_eqs(d);
	REQUIRE(ret == 0, "EQs, MAP_EQ, NOP in event mode with an interrupt, CONF_SPECIAL_QP");
	memset(d->mbox_in.va, 0, HH_EQC_SIZE);
	st = hh_cmd(d, d->mbox_in.iova, NULL, d->eq[0].eqn, 0, HH_OP_SW2HW_EQ);
	/* mthca_cmd.h: 0x09 "not in the appropriate state or ownership", 0x0a "index out of range" */
	CHECK_EQ(st, HH_ST_BAD_RES_STATE, "SW2HW_EQ on an EQ in hardware ownership");
	st = hh_cmd(d, d->mbox_in.iova, NULL, 40, 0, HH_OP_SW2HW_EQ);
	CHECK_EQ(st, HH_ST_BAD_INDEX, "SW2HW_EQ EQN 40 (> 31)");
	st = hh_cmd(d, 0, NULL, 0, 0, HH_OP_NOP);
	CHECK_EQ(st, HH_ST_OK, "NOP (event mode) completes with a CMD EQE carrying its token");
	st = hh_cmd(d, HH_EQ_CMD_MASK, NULL, 20, 0, HH_OP_MAP_EQ);
	CHECK_EQ(st, HH_ST_BAD_RES_STATE, "MAP_EQ to EQ 20, not in hardware ownership");
	st = hh_cmd_box(d, HH_OP_HW2SW_EQ, 0, 20, false, true);
	CHECK_EQ(st, HH_ST_BAD_RES_STATE, "HW2SW_EQ of EQ 20, not in hardware ownership");
	st = hh_cmd(d, 0, NULL, d->sqp_start, 7, HH_OP_CONF_SPECIAL_QP);
	/* Linux mthca_cmd.h: BAD_OP, "opcode modifier not supported" */
	CHECK_EQ(st, HH_ST_BAD_OP, "CONF_SPECIAL_QP op_mod 7");
	st = hh_cmd(d, 0x1000, NULL, 0, 0, HH_OP_MGID_HASH);
	/* Linux mthca_cmd.h: bus error; mthca_hw.rst: a mailbox outside the DMA windows is 0x01 */
	CHECK_EQ(st, HH_ST_INTERNAL_ERR, "MGID_HASH with its mailbox at unmapped IOVA 0x1000");
	st = hh_cmd(d, 0, NULL, 3, 0, HH_OP_CLOSE_IB);
	/* cmd does not fix it; mthca_hw.rst: "A bad port is 0x03" */
	CHECK_EQ(st, HH_ST_BAD_PARAM, "CLOSE_IB port 3");

	/* QUERY_EQ: the context given to SW2HW_EQ (struct mthca_eq_context) */
	st = hh_cmd_box(d, HH_OP_QUERY_EQ, 0, d->eq[HH_EQ_COMP].eqn, false, true);
	CHECK_EQ(st, HH_ST_OK, "QUERY_EQ");
	o = d->mbox_out.va;
	CHECK_EQ(hh_get32(o, HH_EQC_LOGSIZE) >> 24, 6, "QUERY_EQ log2(entries)");
	CHECK_EQ(hh_get8(o, HH_EQC_INTR), 128, "QUERY_EQ intr (MSI-X vector 0)");
	CHECK_EQ(hh_get32(o, HH_EQC_PD) & 0xffffff, d->pd, "QUERY_EQ PD");
	CHECK_EQ(hh_get32(o, HH_EQC_LKEY), d->eq[HH_EQ_COMP].mr.lkey, "QUERY_EQ L_Key");
	st = hh_cmd_box(d, HH_OP_QUERY_EQ, 0, 20, false, true);
	CHECK_EQ(st, HH_ST_BAD_RES_STATE, "QUERY_EQ of EQ 20, not in hardware ownership");

	/* QUERY_MPT: the entry given to SW2HW_MPT, now hardware-owned (struct mthca_mpt_entry) */
	st = hh_cmd_box(d, HH_OP_QUERY_MPT, 0, d->ntmr.index, false, true);
	CHECK_EQ(st, HH_ST_OK, "QUERY_MPT");
	o = d->mbox_out.va;
	CHECK_EQ(hh_get32(o, HH_MPT_FLAGS) >> 28, 0, "QUERY_MPT ownership: hardware");
	CHECK_EQ(hh_get32(o, HH_MPT_FLAGS) & 0x0fffffff, HH_MPT_F_MIO | HH_MPT_F_REGION |
		 HH_MPT_F_PHYSICAL | HH_MPT_F_LOCAL_READ | HH_MPT_F_LOCAL_WRITE, "QUERY_MPT flags");
	CHECK_EQ(hh_get32(o, HH_MPT_KEY), hh_key_to_mkey(d->ntmr.lkey), "QUERY_MPT key");
	CHECK_EQ(hh_get32(o, HH_MPT_PD), d->pd, "QUERY_MPT PD");
	CHECK_EQ(hh_get64(o, HH_MPT_START), 0, "QUERY_MPT start");
	CHECK_EQ(hh_get64(o, HH_MPT_LEN), ~0ull, "QUERY_MPT length");
	/* Linux mthca_cmd.h: 0x0a "index out of range", 0x05 "access to reserved resource" */
	st = hh_cmd_box(d, HH_OP_QUERY_MPT, 0, d->num_mpts + 3, false, true);
	CHECK_EQ(st, HH_ST_BAD_INDEX, "QUERY_MPT of an index beyond the MPT table");
	st = hh_cmd_box(d, HH_OP_QUERY_MPT, 0, 0, false, true);
	CHECK_EQ(st, HH_ST_BAD_RESOURCE, "QUERY_MPT of reserved MPT 0");

	/* WRITE_MTT: the entries land in the MTT's ICM (mthca_arbel_write_mtt_seg()) */
	{
		uint32_t seg = d->next_mtt_seg++;
		uint8_t *m = d->mbox_in.va;

		memset(m, 0, 64);
		hh_put64(m, HH_WMTT_ADDR, d->mtt_base + (uint64_t)seg * HH_MTT_SEG_SIZE);
		hh_put64(m, HH_WMTT_ENTRIES, 0x12345000ull | HH_MTT_PRESENT);
		hh_put64(m, HH_WMTT_ENTRIES + 8, 0x6789a000ull | HH_MTT_PRESENT);
		st = hh_cmd(d, d->mbox_in.iova, NULL, 2, 0, HH_OP_WRITE_MTT);
		CHECK_EQ(st, HH_ST_OK, "WRITE_MTT of 2 entries");
		CHECK(memcmp(d->mtt_host + (size_t)seg * HH_MTT_SEG_SIZE, m + HH_WMTT_ENTRIES, 16) == 0,
		      "WRITE_MTT entries are in the MTT table's ICM pages");
		hh_put64(m, HH_WMTT_ADDR, d->mtt_base + (uint64_t)d->num_mtt_segs * HH_MTT_SEG_SIZE +
			 (1u << 20));
		st = hh_cmd(d, d->mbox_in.iova, NULL, 2, 0, HH_OP_WRITE_MTT);
		/* Linux mthca_cmd.h: out of range (0x03), as below the table */
		CHECK_EQ(st, HH_ST_BAD_PARAM, "WRITE_MTT beyond the MTT table");
		/* the first entry past the table: never written into the next table */
		hh_put64(m, HH_WMTT_ADDR, d->mtt_base + (uint64_t)d->num_mtt_segs * HH_MTT_SEG_SIZE);
		st = hh_cmd(d, d->mbox_in.iova, NULL, 2, 0, HH_OP_WRITE_MTT);
		CHECK(st != HH_ST_OK, "WRITE_MTT just past the MTT table: status 0x%02x", st);
	}
	st = hh_cmd(d, 0, NULL, 0, 0, HH_OP_SYNC_TPT);
	CHECK_EQ(st, HH_ST_OK, "SYNC_TPT");

	/* UNMAP_ICM of one UARC page mapped for it */
	{
		struct hh_buf pg;
		uint64_t va = d->uarc_base + (uint64_t)(d->uar + 6) * d->uarc_size;
		uint8_t *m = d->mbox_in.va;

		REQUIRE(hh_dma_alloc(d, 4096, 4096, &pg) == 0, "page for MAP_ICM");
		memset(m, 0, 16);
		hh_put64(m, 0, va);
		hh_put64(m, 8, pg.iova);
		st = hh_cmd(d, d->mbox_in.iova, NULL, 1, 0, HH_OP_MAP_ICM);
		CHECK_EQ(st, HH_ST_OK, "MAP_ICM of one UARC page");
		st = hh_cmd(d, va, NULL, 1, 0, HH_OP_UNMAP_ICM);
		CHECK_EQ(st, HH_ST_OK, "UNMAP_ICM of that page");
		st = hh_cmd(d, d->icm_total + (1ull << 20), NULL, 1, 0, HH_OP_UNMAP_ICM);
		/* 0x03 "out of range"; mthca_hw.rst: ICM addresses outside the size are 0x03 */
		CHECK_EQ(st, HH_ST_BAD_PARAM, "UNMAP_ICM beyond the ICM size");
	}

	/* MPT */
	st = hh_cmd(d, d->mbox_in.iova, NULL, d->ntmr.index, 0, HH_OP_SW2HW_MPT);
	/* Linux mthca_cmd.h: 0x09 "not in the appropriate state or ownership" */
	CHECK_EQ(st, HH_ST_BAD_RES_STATE, "SW2HW_MPT on an MPT in hardware ownership");
	st = hh_cmd(d, 0, NULL, d->next_mpt + 100, 1, HH_OP_HW2SW_MPT);
	CHECK_EQ(st, HH_ST_BAD_RES_STATE, "HW2SW_MPT of a software-owned MPT");

	/* CQ */
	{
		struct hh_cq cq;
		struct hh_qp qp;

		ret = hh_cq_create(d, &cq, d->rsvd_cqs + 7, 64);
		CHECK_EQ(ret, 0, "SW2HW_CQ");
		st = hh_cmd(d, d->mbox_in.iova, NULL, cq.cqn, 0, HH_OP_SW2HW_CQ);
		/* Linux mthca_cmd.h: 0x09 "not in the appropriate state or ownership" */
		CHECK_EQ(st, HH_ST_BAD_RES_STATE, "SW2HW_CQ twice");
		st = hh_cmd_box(d, HH_OP_HW2SW_CQ, 0, d->rsvd_cqs + 8, false, true);
		CHECK_EQ(st, HH_ST_BAD_RES_STATE, "HW2SW_CQ of a CQ never given to hardware");
		st = hh_cmd_box(d, HH_OP_QUERY_CQ, 0, cq.cqn, false, true);
		CHECK_EQ(st, HH_ST_OK, "QUERY_CQ");
		o = d->mbox_out.va;
		CHECK_EQ(hh_get32(o, HH_CQC_LOGSIZE_UAR), (6u << 24) | cq.uar, "QUERY_CQ log size, UAR");
		CHECK_EQ(hh_get32(o, HH_CQC_COMP_EQN), d->eq[HH_EQ_COMP].eqn, "QUERY_CQ completion EQN");
		CHECK_EQ(hh_get32(o, HH_CQC_LKEY), cq.mr.lkey, "QUERY_CQ L_Key");
		CHECK_EQ(hh_get32(o, HH_CQC_CQN) & 0xffffff, cq.cqn, "QUERY_CQ CQN");
		CHECK_EQ(hh_get32(o, HH_CQC_CI_DB), cq.set_ci_db & 0xffff,
			 "QUERY_CQ set_ci record index");
		CHECK_EQ(hh_get32(o, HH_CQC_STATE_DB), cq.arm_db & 0xffff,
			 "QUERY_CQ arm record index");
		st = hh_cmd_box(d, HH_OP_QUERY_CQ, 0, d->rsvd_cqs + 8, false, true);
		CHECK_EQ(st, HH_ST_BAD_RES_STATE, "QUERY_CQ of a CQ not in hardware ownership");
		{
			struct hh_buf nb;
			struct hh_mr nmr;
			uint8_t *m = d->mbox_in.va;

			REQUIRE(hh_dma_alloc(d, 128 * HH_CQE_SIZE, 4096, &nb) == 0 &&
				hh_mr_mtt(d, &nmr, &nb, HH_MPT_F_LOCAL_WRITE) == 0, "new CQ buffer");
			memset(m, 0, HH_RCQ_SIZE);
			hh_put8(m, HH_RCQ_LOG_SIZE, 7);
			hh_put32(m, HH_RCQ_LKEY, nmr.lkey);
			st = hh_cmd(d, d->mbox_in.iova, NULL, cq.cqn, 1, HH_OP_RESIZE_CQ);
			CHECK_EQ(st, HH_ST_OK, "RESIZE_CQ to 128 entries");
			st = hh_cmd_box(d, HH_OP_QUERY_CQ, 0, cq.cqn, false, true);
			CHECK(st == HH_ST_OK && hh_get32(d->mbox_out.va, HH_CQC_LOGSIZE_UAR) >> 24 == 7 &&
			      hh_get32(d->mbox_out.va, HH_CQC_LKEY) == nmr.lkey,
			      "QUERY_CQ after RESIZE_CQ: log size 7, the new L_Key");
			st = hh_cmd(d, d->mbox_in.iova, NULL, d->rsvd_cqs + 8, 1, HH_OP_RESIZE_CQ);
			CHECK_EQ(st, HH_ST_BAD_RES_STATE, "RESIZE_CQ of a CQ not in hardware ownership");
		}

		/* QP transitions (mthca_MODIFY_QP()) */
		ret = hh_qp_create(d, &qp, d->sqp_start + 20, HH_QPST_UD, 1, &cq, &cq, 16);
		CHECK_EQ(ret, 0, "UD QP buffers");
		qp.qkey = 0x22222222;
		st = hh_qp_modify(d, &qp, HH_QPS_INIT, HH_QPS_RTR, 0);
		CHECK_EQ(st, HH_ST_BAD_QP_STATE, "INIT2RTR on a QP in RESET");
		st = hh_qp_modify(d, &qp, HH_QPS_RESET, HH_QPS_INIT, 0);
		CHECK_EQ(st, HH_ST_OK, "RST2INIT");
		st = hh_qp_cmd(d, &qp, HH_OP_INIT2INIT, HH_QPS_INIT, HH_QPS_INIT, 0);
		CHECK_EQ(st, HH_ST_OK, "INIT2INIT");
		st = hh_qp_modify(d, &qp, HH_QPS_INIT, HH_QPS_RTR, 0);
		CHECK_EQ(st, HH_ST_OK, "INIT2RTR");
		st = hh_cmd_box(d, HH_OP_QUERY_QP, 0, qp.qpn, false, true);
		CHECK_EQ(st, HH_ST_OK, "QUERY_QP");
		o = d->mbox_out.va;
		CHECK_EQ(hh_get32(o, HH_QPM_FLAGS) >> 28, HH_QPS_RTR, "QUERY_QP state");
		CHECK_EQ((hh_get32(o, HH_QPM_FLAGS) >> 16) & 0xff, HH_QPST_UD, "QUERY_QP service type");
		if (style == HH_STYLE_LINUX)
			CHECK_EQ(hh_get32(o, HH_QPM_QKEY), 0x22222222,
				 "QUERY_QP Q_Key kept across INIT2RTR without optpar");
		CHECK_EQ(hh_get32(o, HH_QPM_PRI_PATH) >> 24 & 3, 1, "QUERY_QP port");
		CHECK_EQ(hh_get32(o, HH_QPM_LOCAL_QPN) & 0xffffff, qp.qpn, "QUERY_QP local QPN");
		st = hh_qp_modify(d, &qp, HH_QPS_RTR, HH_QPS_RTS, 0);
		CHECK_EQ(st, HH_ST_OK, "RTR2RTS");
		st = hh_qp_cmd(d, &qp, HH_OP_RTS2RTS, HH_QPS_RTS, HH_QPS_RTS, 0);
		CHECK_EQ(st, HH_ST_OK, "RTS2RTS");
		/* Linux set it at RST2INIT, iPXE by this RTS2RTS (Q_Key optparam) */
		st = hh_cmd_box(d, HH_OP_QUERY_QP, 0, qp.qpn, false, true);
		CHECK(st == HH_ST_OK && hh_get32(d->mbox_out.va, HH_QPM_QKEY) == 0x22222222,
		      "QUERY_QP Q_Key 0x22222222 in RTS");
		st = hh_qp_cmd(d, &qp, HH_OP_SQERR2RTS, HH_QPS_SQE, HH_QPS_RTS, 0);
		CHECK_EQ(st, HH_ST_BAD_QP_STATE, "SQERR2RTS on a QP in RTS");
		st = hh_qp_cmd(d, &qp, HH_OP_RTS2SQD, HH_QPS_RTS, HH_QPS_SQD, 0);
		CHECK_EQ(st, HH_ST_OK, "RTS2SQD");
		st = hh_qp_cmd(d, &qp, HH_OP_SQD2SQD, HH_QPS_SQD, HH_QPS_SQD, 0);
		CHECK_EQ(st, HH_ST_OK, "SQD2SQD");
		st = hh_qp_cmd(d, &qp, HH_OP_SQD2RTS, HH_QPS_SQD, HH_QPS_RTS, 0);
		CHECK_EQ(st, HH_ST_OK, "SQD2RTS");
		st = hh_qp_cmd(d, &qp, HH_OP_SQD2RTS, HH_QPS_SQD, HH_QPS_RTS, 0);
		CHECK_EQ(st, HH_ST_BAD_QP_STATE, "SQD2RTS on a QP in RTS");
		st = hh_qp_modify(d, &qp, HH_QPS_RTS, HH_QPS_ERR, 0);
		CHECK_EQ(st, HH_ST_OK, "2ERR");
		st = hh_qp_modify(d, &qp, HH_QPS_ERR, HH_QPS_RESET, 0);
		CHECK_EQ(st, HH_ST_OK, "2RST (ERR2RST, op_mod 3)");
		st = hh_cmd_box(d, HH_OP_QUERY_QP, 0, qp.qpn, false, true);
		/* cmd does not say (Linux never queries a RESET QP); the model answers it */
		CHECK_EQ(st, HH_ST_OK, "QUERY_QP after 2RST");
		CHECK_EQ(hh_get32(d->mbox_out.va, HH_QPM_FLAGS) >> 28, HH_QPS_RESET,
			 "QUERY_QP after 2RST: state RESET");
		st = hh_cmd_box(d, HH_OP_HW2SW_CQ, 0, cq.cqn, false, true);
		CHECK_EQ(st, HH_ST_OK, "HW2SW_CQ");
		CHECK_EQ(hh_get32(d->mbox_out.va, HH_CQC_CQN) & 0xffffff, cq.cqn,
			 "HW2SW_CQ context CQN");
	}

	/* MAD_IFC: NodeInfo, NodeDescription, PortInfo from the firmware SMA */
	memset(mad, 0, sizeof(mad));
	mad[0] = 1; mad[1] = 0x01; mad[2] = 1; mad[3] = 0x01;
	hh_put64(mad, 8, 0xabcdef0011223344ull);
	hh_put16(mad, 16, 0x0011);
	st = hh_mad_ifc(d, 1, mad, resp, NULL, 0, 3);
	CHECK_EQ(st, HH_ST_OK, "MAD_IFC SubnGet(NodeInfo)");
	CHECK_EQ(resp[0], 1, "NodeInfo response base version");
	CHECK_EQ(resp[1], 0x01, "NodeInfo response class");
	CHECK_EQ(resp[3], 0x81, "NodeInfo response method GetResp");
	CHECK_EQ(hh_get16(resp, 4) & 0x7fff, 0, "NodeInfo response status");
	CHECK_EQ(hh_get64(resp, 8), 0xabcdef0011223344ull, "NodeInfo response TID echoed");
	CHECK_EQ(hh_get16(resp, 16), 0x0011, "NodeInfo response attribute");
	CHECK_EQ(resp[64 + 2], 1, "NodeInfo NodeType = CA");
	CHECK_EQ(resp[64 + 3], d->num_ports, "NodeInfo NumPorts = DEV_LIM ports");
	CHECK(hh_get64(resp, 64 + 12) != 0, "NodeInfo NodeGUID non-zero");
	CHECK_EQ(hh_get16(resp, 64 + 30), HH_PCI_DEVICE_ARBEL, "NodeInfo DeviceID = PCI device");
	CHECK_EQ(hh_get32(resp, 64 + 36) & 0xffffff, 0x0002c9, "NodeInfo VendorID = Mellanox OUI");
	CHECK_EQ(resp[64 + 36], 1, "NodeInfo LocalPortNum (IBA 14.2.5.3: byte 36)");
	hh_put16(mad, 16, 0x0010);
	st = hh_mad_ifc(d, 1, mad, resp, NULL, 0, 3);
	CHECK_EQ(st, HH_ST_OK, "MAD_IFC SubnGet(NodeDescription)");
	CHECK(resp[64] != 0, "NodeDescription non-empty: \"%.64s\"", (const char *)resp + 64);
	hh_put16(mad, 16, 0x0015);
	hh_put32(mad, 20, 1);
	st = hh_mad_ifc(d, 1, mad, resp, NULL, 0, 3);
	CHECK_EQ(st, HH_ST_OK, "MAD_IFC SubnGet(PortInfo 1)");
	CHECK_EQ(hh_get16(resp, 64 + 16), 0, "PortInfo LID 0 before any SM");
	CHECK((resp[64 + 32] & 0xf) >= 1 && (resp[64 + 32] & 0xf) <= 2,
	      "PortInfo port state 0x%x Down/Init before INIT_IB and SM", resp[64 + 32] & 0xf);
	st = hh_mad_ifc(d, 3, mad, resp, NULL, 0, 3);
	/* cmd does not fix it; mthca_hw.rst: "A bad port is 0x03" */
	CHECK_EQ(st, HH_ST_BAD_PARAM, "MAD_IFC on port 3");
	mad[1] = 0x77;	/* a class firmware does not serve */
	st = hh_mad_ifc(d, 1, mad, resp, NULL, 0, 3);
	/* mthca_hw.rst: other classes answer 0x30 BAD_PKT (mthca_MAD_IFC(): drop the MAD) */
	CHECK_EQ(st, HH_ST_BAD_PKT, "MAD_IFC of class 0x77");

	/* INIT_IB / CLOSE_IB */
	st = hh_init_ib(d, 3);
	CHECK_EQ(st, HH_ST_BAD_PARAM, "INIT_IB port 3 (mthca_hw.rst: a bad port is 0x03)");
	st = hh_init_ib(d, 1);
	CHECK_EQ(st, HH_ST_OK, "INIT_IB port 1");
	{
		const uint8_t *pi;
		uint32_t cap;
		uint8_t *m = d->mbox_in.va;

		hh_put16(mad, 16, 0x0015);
		hh_put32(mad, 20, 1);
		mad[1] = 0x01;
		st = hh_mad_ifc(d, 1, mad, resp, NULL, 0, 3);
		cap = hh_get32(resp, 64 + 20);
		/* SET_IB (mthca_SET_IB()): the capability mask is what PortInfo reports */
		memset(m, 0, HH_SIB_SIZE);
		hh_put32(m, HH_SIB_CAP_MASK, cap | (1u << 16));
		st = hh_cmd(d, d->mbox_in.iova, NULL, 1, 0, HH_OP_SET_IB);
		CHECK_EQ(st, HH_ST_OK, "SET_IB port 1");
		st = hh_mad_ifc(d, 1, mad, resp, NULL, 0, 3);
		pi = resp;
		CHECK_EQ(hh_get32(pi, 64 + 20), cap | (1u << 16),
			 "PortInfo CapabilityMask after SET_IB (IsCommunicationManagementSupported added)");
		st = hh_cmd(d, d->mbox_in.iova, NULL, 3, 0, HH_OP_SET_IB);
		CHECK_EQ(st, HH_ST_BAD_PARAM, "SET_IB port 3 (mthca_hw.rst: a bad port is 0x03)");
	}
	st = hh_cmd(d, 0, NULL, 1, 0, HH_OP_CLOSE_IB);
	CHECK_EQ(st, HH_ST_OK, "CLOSE_IB port 1");

	/* multicast table (mthca_mcg.c) */
	{
		uint8_t mgid[16] = { 0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0, 0, 0, 0, 0,
				     0xff, 0xff, 0xff, 0xff };
		uint64_t h1 = 0, h2 = 0;

		memcpy(d->mbox_in.va, mgid, 16);
		st = hh_cmd(d, d->mbox_in.iova, &h1, 0, 0, HH_OP_MGID_HASH);
		CHECK_EQ(st, HH_ST_OK, "MGID_HASH");
		CHECK((h1 & 0xffff) < d->num_mcgs / 2, "MGID_HASH %llu < hash size %u",
		      (unsigned long long)(h1 & 0xffff), d->num_mcgs / 2);
		st = hh_cmd(d, d->mbox_in.iova, &h2, 0, 0, HH_OP_MGID_HASH);
		CHECK(st == HH_ST_OK && (h1 & 0xffff) == (h2 & 0xffff), "MGID_HASH deterministic");
		memset(d->mbox_in.va, 0, HH_MGM_ENTRY_SIZE);
		memcpy(d->mbox_in.va + HH_MGM_GID, mgid, 16);
		hh_put32(d->mbox_in.va, HH_MGM_QP, HH_MGM_QP_VALID | 0x123);
		memcpy(resp, d->mbox_in.va, HH_MGM_ENTRY_SIZE);
		st = hh_cmd(d, d->mbox_in.iova, NULL, (uint32_t)(h1 & 0xffff), 0, HH_OP_WRITE_MGM);
		CHECK_EQ(st, HH_ST_OK, "WRITE_MGM");
		st = hh_cmd_box(d, HH_OP_READ_MGM, 0, (uint32_t)(h1 & 0xffff), false, true);
		CHECK_EQ(st, HH_ST_OK, "READ_MGM");
		CHECK(memcmp(d->mbox_out.va, resp, HH_MGM_ENTRY_SIZE) == 0,
		      "READ_MGM returns the 256 bytes written");
		st = hh_cmd_box(d, HH_OP_READ_MGM, 0, d->num_mcgs + 5, false, true);
		/* 0x0a "index out of range"; mthca_hw.rst: MGM index beyond the table */
		CHECK_EQ(st, HH_ST_BAD_INDEX, "READ_MGM index beyond the table");
		memset(d->mbox_in.va, 0, HH_MGM_ENTRY_SIZE);
		hh_cmd(d, d->mbox_in.iova, NULL, (uint32_t)(h1 & 0xffff), 0, HH_OP_WRITE_MGM);
	}

	/* teardown in Linux's order (__mthca_remove_one()) */
	ret = hh_teardown(d);
	CHECK_EQ(ret, 0, "teardown: CLOSE_IB, CONF_SPECIAL_QP 0, MAP_EQ unmap, HW2SW_EQ, CLOSE_HCA, "
		 "UNMAP_ICM_AUX, UNMAP_FA");
	st = hh_cmd_box(d, HH_OP_QUERY_ADAPTER, 0, 0, false, true);
	/* UNMAP_FA went back to the boot firmware: mthca_hw.rst state table, 0x04 */
	CHECK_EQ(st, HH_ST_BAD_SYS_STATE, "QUERY_ADAPTER after CLOSE_HCA and UNMAP_FA");

	/* after UNMAP_FA the boot firmware runs: nothing to disable */
	st = hh_cmd(d, 0, NULL, 0, 0, HH_OP_SYS_DIS);
	CHECK_EQ(st, HH_ST_BAD_SYS_STATE, "SYS_DIS on the boot firmware");

	/* mthca_reset(): the reset register brings back power-on state */
	hh_bar0_write32(d, HH_RESET_OFF, 1);
	nap(200000);
	CHECK_EQ(hh_bar0_read32(d, HH_HCR_BASE + HH_HCR_CMD) & HH_HCR_GO, 0, "GO clear after reset");
	st = hh_cmd_box(d, HH_OP_QUERY_DEV_LIM, 0, 0, false, true);
	CHECK_EQ(st, HH_ST_BAD_SYS_STATE, "QUERY_DEV_LIM after reset (boot firmware again)");
	memset(d->eq, 0, sizeof(d->eq));
	for (i = 0; i < HH_NUM_EQ; i++)
		d->eq[i].irq_fd = -1;
	d->eq_up = false;
	d->dma_used = 2 * HH_MAILBOX_SIZE;
	ret = hh_bringup(d);
	CHECK_EQ(ret, 0, "bring-up again after reset");
	/* SYS_DIS of a running HCA: back to the boot firmware */
	st = hh_cmd(d, 0, NULL, 0, 0, HH_OP_SYS_DIS);
	CHECK_EQ(st, HH_ST_OK, "SYS_DIS after INIT_HCA");
	st = hh_cmd_box(d, HH_OP_QUERY_DEV_LIM, 0, 0, false, true);
	CHECK_EQ(st, HH_ST_BAD_SYS_STATE, "QUERY_DEV_LIM after SYS_DIS");
	/*
	 * CLOSE_HCA goes back to RUN (mthca_hw.rst state table): a second
	 * CLOSE_HCA is 0x04; after UNMAP_FA (boot firmware) UNMAP_ICM_AUX and
	 * CLOSE_HCA are 0x04. Started right after the SYS_DIS above, which
	 * returns to the power-on state (mthca_hw.rst: no FW, aux or ICM
	 * pages), so a whole bring-up works again without a reset.
	 */
	d->dma_used = 2 * HH_MAILBOX_SIZE;
	ret = hh_bringup(d);
	CHECK_EQ(ret, 0, "bring-up again right after SYS_DIS");
	st = hh_cmd(d, 0, NULL, 0, 0, HH_OP_CLOSE_HCA);
	CHECK_EQ(st, HH_ST_OK, "CLOSE_HCA");
	st = hh_cmd(d, 0, NULL, 0, 0, HH_OP_CLOSE_HCA);
	CHECK_EQ(st, HH_ST_BAD_SYS_STATE, "CLOSE_HCA twice");
	st = hh_cmd(d, 0, NULL, 0, 0, HH_OP_UNMAP_ICM_AUX);
	CHECK_EQ(st, HH_ST_OK, "UNMAP_ICM_AUX after CLOSE_HCA");
	st = hh_cmd(d, 0, NULL, 0, 0, HH_OP_UNMAP_FA);
	CHECK_EQ(st, HH_ST_OK, "UNMAP_FA after CLOSE_HCA");
	st = hh_cmd(d, 0, NULL, 0, 0, HH_OP_UNMAP_ICM_AUX);
	CHECK_EQ(st, HH_ST_BAD_SYS_STATE, "UNMAP_ICM_AUX after UNMAP_FA");
	st = hh_cmd(d, 0, NULL, 0, 0, HH_OP_CLOSE_HCA);
	CHECK_EQ(st, HH_ST_BAD_SYS_STATE, "CLOSE_HCA after UNMAP_FA");
	st = hh_cmd_box(d, HH_OP_QUERY_DEV_LIM, 0, 0, false, true);
	CHECK_EQ(st, HH_ST_BAD_SYS_STATE, "QUERY_DEV_LIM after UNMAP_FA");
	hh_close(d);
	return 0;
}

/*
 * Point CQ @p cq's buffer at bus address @p bus: Linux-style, its MTT
 * entry (the CQ's MR starts at 0); iPXE-style, HW2SW_CQ and SW2HW_CQ
 * again with that start address.
 */
static int
cq_move(struct hh_dev *d, struct hh_cq *cq, uint64_t bus)
{
	uint8_t *m = d->mbox_in.va;

	if (d->style == HH_STYLE_LINUX) {
		hh_put64(d->mtt_host, cq->mr.first_seg * HH_MTT_SEG_SIZE, bus | HH_MTT_PRESENT);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		return 0;
	}
	if (hh_cmd_box(d, HH_OP_HW2SW_CQ, 0, cq->cqn, false, true) != HH_ST_OK)
		return -EIO;
	memcpy(m, d->mbox_out.va, HH_CQC_SIZE);
	hh_put32(m, HH_CQC_FLAGS, HH_CQC_FLAGS_INIT);
	hh_put64(m, HH_CQC_START, bus);
	return hh_cmd(d, d->mbox_in.iova, NULL, cq->cqn, 0, HH_OP_SW2HW_CQ) == HH_ST_OK ? 0 : -EIO;
}

/* ---- faults -------------------------------------------------------------- */

#define wait_cqe(h, cq, cqe, ms)	hh_host_wait_cqe(h, cq, cqe, ms)

static int
scenario_faults(const char *dir)
{
	static struct hh_host H;
	struct hh_host *h = &H;
	struct hh_ud_dest dst = { .dlid = 1, .dqpn = 0x77, .qkey = UD_QKEY, .sl = 0, .port = 1 };
	uint8_t cqe[32];
	int ret, st;

	h->name = "A";
	ret = host_up(h, dir);
	if (ret == -ENOENT)
		return no_device(dir, ret);
	REQUIRE(ret == 0, "bring-up, EQs, CQs, QP0/QP1/UD QPs to RTS");

	/* a good send first: success CQE (the wire may drop it: no SM, port down) */
	memset(h->payload.va, 0x5a, 256);
	hh_post_ud_send(&h->d, &h->ud, &dst, h->payload_mr.lkey, 0, 256, true);
	REQUIRE(wait_cqe(h, &h->scq, cqe, 2000), "send CQE for a UD send");
	CHECK_EQ(hh_get8(cqe, HH_CQE_OPCODE), HH_OPCODE_SEND, "send CQE opcode SEND");
	CHECK_EQ(hh_get8(cqe, HH_CQE_IS_SEND) & 0x80, 0x80, "send CQE is_send");
	CHECK_EQ(hh_get32(cqe, HH_CQE_MY_QPN), h->ud.qpn, "send CQE my_qpn");
	CHECK_EQ(hh_get32(cqe, HH_CQE_WQE), hh_sq_addr(&h->ud, 0), "send CQE wqe = WQE 0");

	/* gather through the physical MR from an IOVA no window covers */
	hh_post_ud_send(&h->d, &h->ud, &dst, h->d.ntmr.lkey, 0x100000, 256, true);
	REQUIRE(wait_cqe(h, &h->scq, cqe, 2000), "CQE for a send gathering from unmapped IOVA");
	CHECK_EQ(hh_get8(cqe, HH_CQE_OPCODE), HH_CQE_OP_ERR_SEND, "DMA fault: send error CQE");
	CHECK_EQ(hh_get8(cqe, HH_CQE_SYNDROME), 0x11, "DMA fault: syndrome LOCAL_ACCESS_ERR");
	CHECK_EQ(hh_get32(cqe, HH_CQE_WQE), hh_sq_addr(&h->ud, 1), "DMA fault: wqe = WQE 1");
	/* the QP is in error: the next WQE, unsignaled, is flushed (mthca_hw.rst) */
	hh_post_ud_send(&h->d, &h->ud, &dst, h->payload_mr.lkey, 0, 16, false);
	REQUIRE(wait_cqe(h, &h->scq, cqe, 2000), "flush CQE for an unsignaled WQE after error");
	CHECK_EQ(hh_get8(cqe, HH_CQE_SYNDROME), HH_SYND_WR_FLUSH, "flush: syndrome WR_FLUSH_ERR");
	/* receive WQEs posted before the error are flushed too, in order */
	{
		unsigned int n = 0;

		while (wait_cqe(h, &h->rcq, cqe, 300)) {
			CHECK_EQ(hh_get8(cqe, HH_CQE_OPCODE), HH_CQE_OP_ERR_RECV,
				 "receive flush CQE opcode 0xfe");
			CHECK_EQ(hh_get32(cqe, HH_CQE_WQE), hh_rq_addr(&h->ud, n),
				 "receive flush CQEs in WQE order");
			n++;
		}
		CHECK_EQ(n, QP_DEPTH / 2, "every posted receive WQE flushed");
	}

	/* bad L_Key on the second UD QP: local protection error */
	hh_post_ud_send(&h->d, &h->ud_bad, &dst, h->payload_mr.lkey ^ 0x01, 0, 64, true);
	REQUIRE(wait_cqe(h, &h->scq, cqe, 2000), "CQE for a send with a wrong L_Key");
	CHECK_EQ(hh_get8(cqe, HH_CQE_SYNDROME), HH_SYND_LOCAL_PROT,
		 "bad L_Key: syndrome LOCAL_PROT_ERR");
	CHECK_EQ(hh_get32(cqe, HH_CQE_MY_QPN), h->ud_bad.qpn, "bad L_Key: my_qpn");

	/* beyond the MTT-translated region's length: also a protection error */
	{
		struct hh_qp qp;

		ret = hh_qp_create(&h->d, &qp, ud_qpn(h, 5), HH_QPST_UD, 1, &h->scq, &h->rcq, 16);
		qp.qkey = UD_QKEY;
		if (ret == 0)
			ret = hh_qp_up(&h->d, &qp, 0);
		REQUIRE(ret == 0, "third UD QP to RTS");
		hh_post_ud_send(&h->d, &qp, &dst, h->payload_mr.lkey, h->payload.len - 8, 64, true);
		REQUIRE(wait_cqe(h, &h->scq, cqe, 2000), "CQE for a gather past the region's end");
		CHECK_EQ(hh_get8(cqe, HH_CQE_SYNDROME), HH_SYND_LOCAL_PROT,
			 "out-of-bounds gather: syndrome LOCAL_PROT_ERR");
	}
	CHECK_EQ(hh_bar0_read32(&h->d, (uint32_t)(h->d.catas_base & (HH_BAR0_SIZE - 1))), 0,
		 "no catastrophic error for data DMA faults");

	/*
	 * A CQ whose one MTT entry names a bus address outside every IOMMU
	 * window: the CQE write is a bus error, a catastrophic error
	 * (Linux poll_catas()): the buffer's word 0 has type 3 (uplink bus error) in bits
	 * 31..24, and firmware stops answering commands.
	 */
	{
		static struct hh_cq cq;
		static struct hh_qp qp;
		uint32_t catas = (uint32_t)(h->d.catas_base & (HH_BAR0_SIZE - 1)), w0 = 0;
		int i;

		ret = hh_cq_create(&h->d, &cq, h->d.rsvd_cqs + 9, 64);
		if (ret == 0)
			ret = hh_qp_create(&h->d, &qp, ud_qpn(h, 6), HH_QPST_UD, 1, &cq, &cq, 16);
		qp.qkey = UD_QKEY;
		if (ret == 0)
			ret = hh_qp_up(&h->d, &qp, 0);
		REQUIRE(ret == 0, "CQ and QP for the bus-error case");
		REQUIRE(cq_move(&h->d, &cq, 0x3000) == 0, "CQ buffer moved to bus address 0x3000");
		hh_post_ud_send(&h->d, &qp, &dst, h->payload_mr.lkey, 0, 64, true);
		for (i = 0; i < 2000 && w0 == 0; i++) {
			w0 = hh_bar0_read32(&h->d, catas);
			nap(1000);
		}
		CHECK(w0 != 0, "catastrophic error buffer written after a CQE DMA fault");
		CHECK_EQ(w0 >> 24, 3, "catastrophic error type: uplink bus error");
		st = hh_cmd(&h->d, 0, NULL, 0x1f, 0, HH_OP_NOP);
		/* poll_catas() gives no status; mthca_hw.rst: every command fails with 0x01 */
		CHECK_EQ(st, HH_ST_INTERNAL_ERR, "commands refused after a catastrophic error");
		/* the reset register brings it back (mthca_reset()) */
		hh_bar0_write32(&h->d, HH_RESET_OFF, 1);
		nap(200000);
		CHECK_EQ(hh_bar0_read32(&h->d, catas), 0, "reset clears the catastrophic buffer");
	}
	hh_close(&h->d);
	return 0;
}

/* ---- two hosts, OpenSM ------------------------------------------------------ */

static int
wait_active(struct hh_host *a, struct hh_host *b, int ms)
{
	uint64_t end = hh_now_us() + (uint64_t)ms * 1000;

	while (hh_now_us() < end && !stop) {
		host_service(a);
		if (b != NULL)
			host_service(b);
		if (a->port_active && (b == NULL || b->port_active))
			return 1;
		nap(200);
	}
	return 0;
}

/* ---- partitions across processes (IBA 10.9.3) ----------------------------- */

/*
 * OpenSM runs with the partition file test_hca_host.py writes (and -W,
 * allow_both_pkeys): Default=0x7fff ALL=full; 0x0123 hosta=both (full and
 * limited), hostb=limited; 0x0456 both limited. Each host reads the P_Key
 * table OpenSM programmed (SubnGet(P_KeyTable) via MAD_IFC), makes one UD
 * QP per P_Key, and the rows below send between them. A refused row is
 * printed ("refused: ...") for the test to find its trap 257.
 */
#define PK_MAX	8

struct pk_host {
	struct hh_host h;
	uint16_t pkeys[32];
	struct hh_qp qp[PK_MAX];
	uint16_t qp_pkey[PK_MAX];
	unsigned int nqp;
};

static int
pk_read_table(struct pk_host *p)
{
	const uint8_t *resp = hh_host_smp_get(&p->h, 0x0016, 0);	/* P_KeyTable block 0 */
	unsigned int i;

	if (resp == NULL)
		return -1;
	for (i = 0; i < 32; i++)
		p->pkeys[i] = hh_get16(resp, 64 + 2 * i);
	return 0;
}

static int
pk_index(const struct pk_host *p, uint16_t pkey)
{
	unsigned int i;

	for (i = 0; i < 32; i++)
		if (p->pkeys[i] == pkey)
			return (int)i;
	return -1;
}

static bool
pk_has_all(const struct pk_host *p, const uint16_t *want, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (pk_index(p, want[i]) < 0)
			return false;
	return true;
}

static struct hh_qp *
pk_qp(struct pk_host *p, uint16_t pkey)
{
	unsigned int i;

	for (i = 0; i < p->nqp; i++)
		if (p->qp_pkey[i] == pkey)
			return &p->qp[i];
	return NULL;
}

static int
pk_make_qps(struct pk_host *p, const uint16_t *want, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n && i < PK_MAX; i++) {
		struct hh_qp *qp = &p->qp[i];
		int ix = pk_index(p, want[i]);

		REQUIRE(ix >= 0, "%s: P_Key 0x%04x in the table", p->h.name, want[i]);
		REQUIRE(hh_qp_create(&p->h.d, qp, hh_host_qpn(&p->h, 20 + i), HH_QPST_UD, 1,
				     &p->h.scq, &p->h.rcq, 16) == 0, "%s: QP for P_Key 0x%04x",
			p->h.name, want[i]);
		qp->qkey = UD_QKEY;
		REQUIRE(hh_qp_up(&p->h.d, qp, (uint16_t)ix) == 0, "%s: QP at P_Key index %d to RTS",
			p->h.name, ix);
		REQUIRE(hh_post_recv(&p->h.d, qp, 8) == 0, "receives");
		p->qp_pkey[i] = want[i];
		p->nqp = i + 1;
	}
	return 0;
}

struct pk_row {
	bool a_to_b;
	uint16_t tx, rx;	/**< P_Key of the sending QP, of the receiving QP */
	bool ok;
	const char *rule;
};

static const struct pk_row pk_rows[] = {
	{ true, 0x8123, 0x0123, true, "full to limited: delivered" },
	{ false, 0x0123, 0x8123, true, "limited to full: delivered" },
	{ true, 0x0123, 0x0123, false, "limited/limited: refused" },
	{ false, 0x0123, 0x0123, false, "limited/limited, the receiver also a full member: refused" },
	{ true, 0x0456, 0x0456, false, "limited/limited, second partition: refused" },
	{ false, 0x0456, 0x0456, false, "limited/limited, second partition: refused" },
	{ true, 0x8123, 0x0456, false, "partition 0x0123 to a QP of 0x0456: refused" },
	{ false, 0x0456, 0x8123, false, "partition 0x0456 to a QP of 0x0123: refused" },
	{ true, 0xffff, 0xffff, true, "default partition: delivered" },
	{ false, 0xffff, 0xffff, true, "default partition: delivered" },
	{ true, 0xffff, 0x0123, false, "default partition to a QP of 0x0123: refused" },
	{ false, 0x0123, 0xffff, false, "partition 0x0123 to a QP of the default one: refused" },
};

static int
pk_run_row(struct pk_host *a, struct pk_host *b, const struct pk_row *r)
{
	struct pk_host *tx = r->a_to_b ? a : b, *rx = r->a_to_b ? b : a;
	struct hh_qp *sq = pk_qp(tx, r->tx), *rq = pk_qp(rx, r->rx);
	struct hh_ud_dest dst = { .dlid = rx->h.lid, .qkey = UD_QKEY, .port = 1 };
	uint8_t cqe[32];

	REQUIRE(sq != NULL && rq != NULL, "QPs of the row");
	dst.dqpn = rq->qpn;
	hh_post_ud_send(&tx->h.d, sq, &dst, tx->h.payload_mr.lkey, 0, 64, true);
	REQUIRE(wait_cqe(&tx->h, &tx->h.scq, cqe, 3000), "%s send CQE", tx->h.name);
	if (r->ok) {
		REQUIRE(wait_cqe(&rx->h, &rx->h.rcq, cqe, 3000), "%s -> %s P_Key 0x%04x to 0x%04x: %s",
			tx->h.name, rx->h.name, r->tx, r->rx, r->rule);
		CHECK_EQ(hh_get32(cqe, HH_CQE_MY_QPN), rq->qpn, "delivered to the addressed QP");
		CHECK_EQ(hh_get32(cqe, HH_CQE_RQPN) & 0xffffff, sq->qpn, "from the sending QP");
		hh_post_recv(&rx->h.d, rq, 1);
	} else {
		CHECK(!wait_cqe(&rx->h, &rx->h.rcq, cqe, 300), "%s -> %s P_Key 0x%04x to 0x%04x: %s",
		      tx->h.name, rx->h.name, r->tx, r->rx, r->rule);
		printf("refused: LID %u QP 0x%x -> LID %u QP 0x%x\n", tx->h.lid, sq->qpn,
		       rx->h.lid, rq->qpn);
		fflush(stdout);
	}
	return 0;
}

/*
 * Sends on two of A's QPs rung back to back: both complete and both are
 * delivered. In the iPXE style both doorbells go to the one UAR page's
 * send slot, which the model polls as shared memory; the second must not
 * overwrite the first before the model took it (hh_uar_write64()).
 */
static int
pk_back_to_back(struct pk_host *a, struct pk_host *b)
{
	struct hh_qp *s1 = pk_qp(a, 0xffff), *s2 = pk_qp(a, 0x8123);
	struct hh_qp *r1 = pk_qp(b, 0xffff), *r2 = pk_qp(b, 0x0123);
	struct hh_ud_dest d1 = { .dlid = b->h.lid, .qkey = UD_QKEY, .port = 1 };
	struct hh_ud_dest d2 = d1;
	uint8_t cqe[32];
	unsigned int i;

	REQUIRE(s1 != NULL && s2 != NULL && r1 != NULL && r2 != NULL, "QPs of two partitions");
	d1.dqpn = r1->qpn;
	d2.dqpn = r2->qpn;
	hh_post_ud_send(&a->h.d, s1, &d1, a->h.payload_mr.lkey, 0, 64, true);
	hh_post_ud_send(&a->h.d, s2, &d2, a->h.payload_mr.lkey, 0, 64, true);
	for (i = 0; i < 2; i++)
		REQUIRE(wait_cqe(&a->h, &a->h.scq, cqe, 3000),
			"send CQE %u of two sends on two QPs rung back to back", i + 1);
	for (i = 0; i < 2; i++)
		REQUIRE(wait_cqe(&b->h, &b->h.rcq, cqe, 3000),
			"receive CQE %u of two sends on two QPs rung back to back", i + 1);
	hh_post_recv(&b->h.d, r1, 1);
	hh_post_recv(&b->h.d, r2, 1);
	return 0;
}

static int
scenario_pkey(const char *da, const char *db)
{
	static const uint16_t want_a[] = { 0xffff, 0x8123, 0x0123, 0x0456 };
	static const uint16_t want_b[] = { 0xffff, 0x0123, 0x0456 };
	static struct pk_host A, B;
	const uint8_t *pi;
	uint64_t end;
	unsigned int i;
	int ret;

	A.h.name = "A";
	B.h.name = "B";
	ret = host_up(&A.h, da);
	if (ret == 0)
		ret = host_up(&B.h, db);
	if (ret == -ENOENT)
		return no_device(da, ret);
	REQUIRE(ret == 0, "both hosts up");
	REQUIRE(wait_active(&A.h, &B.h, 60000), "both ports ACTIVE with OpenSM");
	pi = get_port_info(&A.h);
	REQUIRE(pi != NULL, "PortInfo of A");
	A.h.lid = hh_get16(pi, 64 + 16);
	pi = get_port_info(&B.h);
	REQUIRE(pi != NULL, "PortInfo of B");
	B.h.lid = hh_get16(pi, 64 + 16);
	/* OpenSM programs the P_Key tables in the sweep after the LIDs */
	end = hh_now_us() + 30000000ull;
	while (hh_now_us() < end && !stop) {
		host_service(&A.h);
		host_service(&B.h);
		if (pk_read_table(&A) == 0 && pk_read_table(&B) == 0 &&
		    pk_has_all(&A, want_a, 4) && pk_has_all(&B, want_b, 3))
			break;
		nap(200);
	}
	printf("P_Key tables: A");
	for (i = 0; i < 8; i++)
		printf(" %04x", A.pkeys[i]);
	printf(", B");
	for (i = 0; i < 8; i++)
		printf(" %04x", B.pkeys[i]);
	printf("\n");
	REQUIRE(pk_has_all(&A, want_a, 4), "A's table: default, 0x8123 and 0x0123 (both), 0x0456");
	REQUIRE(pk_has_all(&B, want_b, 3), "B's table: default, 0x0123 (limited), 0x0456");
	REQUIRE(pk_make_qps(&A, want_a, 4) == 0, "A's QPs");
	REQUIRE(pk_make_qps(&B, want_b, 3) == 0, "B's QPs");
	for (i = 0; i < sizeof(pk_rows) / sizeof(pk_rows[0]); i++)
		REQUIRE(pk_run_row(&A, &B, &pk_rows[i]) == 0, "row %u", i);
	REQUIRE(pk_back_to_back(&A, &B) == 0, "two QPs' doorbells back to back");
	hh_close(&A.h.d);
	hh_close(&B.h.d);
	return 0;
}

static int
scenario_ud(const char *da, const char *db)
{
	static struct hh_host A, B;
	struct hh_ud_dest dst;
	const uint8_t *pi;
	uint8_t cqe[32];
	uint16_t viol0, viol1;
	unsigned int len, i;
	int ret;

	ret = hosts_up(&A, da, &B, db);
	if (ret == -ENOENT)
		return no_device(da, ret);
	REQUIRE(ret == 0, "both hosts up (bring-up, EQs, QP0/QP1/UD QPs)");
	REQUIRE(wait_active(&A, &B, 60000),
		"both ports ACTIVE (PORT_CHANGE EQE subtype 4) with OpenSM over our QP0 agents");
	pi = get_port_info(&A);
	REQUIRE(pi != NULL, "PortInfo of A");
	A.lid = hh_get16(pi, 64 + 16);
	CHECK_EQ(pi[64 + 32] & 0xf, 4, "A PortInfo state ACTIVE");
	pi = get_port_info(&B);
	REQUIRE(pi != NULL, "PortInfo of B");
	B.lid = hh_get16(pi, 64 + 16);
	viol0 = hh_get16(pi, 64 + 46);
	CHECK(A.lid != 0 && B.lid != 0 && A.lid != B.lid, "LIDs set by OpenSM: A %u, B %u", A.lid,
	      B.lid);

	/* CQ arming: next-completion on B's receive CQ, then a datagram */
	hh_cq_arm(&B.d, &B.rcq, false);
	for (len = 256, i = 0; i < 2; i++, len = 2044) {
		uint8_t *rx;
		uint32_t k;

		for (k = 0; k < len; k++)
			A.payload.va[k] = (uint8_t)(k * 7 + i);
		dst = (struct hh_ud_dest){ .dlid = B.lid, .dqpn = B.ud.qpn, .qkey = UD_QKEY, .port = 1 };
		hh_post_ud_send(&A.d, &A.ud, &dst, A.payload_mr.lkey, 0, len, true);
		REQUIRE(wait_cqe(&A, &A.scq, cqe, 3000), "A send CQE (%u bytes)", len);
		CHECK_EQ(hh_get8(cqe, HH_CQE_OPCODE), HH_OPCODE_SEND, "A send CQE opcode");
		REQUIRE(wait_cqe(&B, &B.rcq, cqe, 3000), "B receive CQE (%u bytes)", len);
		CHECK_EQ(hh_get32(cqe, HH_CQE_MY_QPN), B.ud.qpn, "receive CQE my_qpn");
		CHECK_EQ(hh_get32(cqe, HH_CQE_RQPN) & 0xffffff, A.ud.qpn, "receive CQE rqpn = DETH SrcQP");
		CHECK_EQ(hh_get8(cqe, HH_CQE_SL) >> 4, 0, "receive CQE SL");
		CHECK_EQ(hh_get8(cqe, HH_CQE_G_PATH), 0, "receive CQE no GRH, path bits 0");
		CHECK_EQ(hh_get16(cqe, HH_CQE_RLID), A.lid, "receive CQE rlid = A's LID");
		CHECK_EQ(hh_get32(cqe, HH_CQE_IMM_PKEY) >> 16, 0, "receive CQE P_Key index 0");
		CHECK_EQ(hh_get32(cqe, HH_CQE_BYTE_CNT), 40 + len, "receive CQE byte_cnt = 40 + payload");
		CHECK_EQ(hh_get32(cqe, HH_CQE_WQE), hh_rq_addr(&B.ud, i), "receive CQE wqe");
		CHECK_EQ(hh_get8(cqe, HH_CQE_OPCODE), 0x64, "receive CQE opcode UD SEND_ONLY");
		CHECK_EQ(hh_get8(cqe, HH_CQE_IS_SEND), 0, "receive CQE is_send 0");
		rx = B.ud.data.va + (size_t)i * HH_RECV_SLOT;
		CHECK(memcmp(rx + 40, A.payload.va, len) == 0, "payload of %u bytes at +40 intact", len);
		if (i == 0) {
			const uint8_t *eqe;
			struct pollfd pfd = { .fd = B.d.eq[HH_EQ_COMP].irq_fd, .events = POLLIN };
			uint64_t v;

			uint64_t until = hh_now_us() + 1000000;
			unsigned int spins = 0;

			/* the HCA writes the EQE after the CQE: it may trail it a little */
			while ((eqe = hh_eq_next(&B.d, &B.d.eq[HH_EQ_COMP])) == NULL &&
			       hh_now_us() < until)
				hh_idle(&B.d, ++spins);
			REQUIRE(eqe != NULL, "completion EQE for the armed CQ");
			CHECK_EQ(hh_get8(eqe, HH_EQE_TYPE), HH_EV_COMP, "completion EQE type 0");
			CHECK_EQ(hh_get32(eqe, HH_EQE_DATA) & 0xffffff, B.rcq.cqn, "completion EQE CQN");
			CHECK(poll(&pfd, 1, 500) == 1 && read(pfd.fd, &v, 8) == 8,
			      "completion EQ interrupt (eventfd) signalled");
			hh_eq_arm(&B.d, &B.d.eq[HH_EQ_COMP]);
			B.rcq.arm_sn++;
		}
	}
	/* disarmed after firing: the second datagram raised no EQE */
	CHECK(hh_eq_next(&B.d, &B.d.eq[HH_EQ_COMP]) == NULL, "CQ disarmed after one event");

	/*
	 * A global datagram: GRH with DGID = B's port GID (GidPrefix from
	 * PortInfo, port GUID from NodeInfo, IBA 4.1.1). The receive CQE has
	 * the GRH bit and the GRH fills the first 40 bytes (IBA 11.4.1.2);
	 * the capture then holds a GRH packet whose ICRC masks the whole LRH,
	 * TClass, FlowLabel and HopLmt (IBA 7.8.1), checked by the test.
	 */
	{
		struct hh_ud_dest g = { .dlid = B.lid, .dqpn = B.ud.qpn, .qkey = UD_QKEY,
					.port = 1, .grh = true };
		const uint8_t *ni;
		uint8_t *rx;
		uint32_t j;

		pi = get_port_info(&B);
		REQUIRE(pi != NULL, "PortInfo of B");
		memcpy(g.dgid, pi + 64 + 8, 8);
		ni = hh_host_smp_get(&B, 0x0011, 0);
		REQUIRE(ni != NULL, "B NodeInfo");
		memcpy(g.dgid + 8, ni + 64 + 20, 8);	/* NodeInfo PortGUID */
		for (j = 0; j < 300; j++)
			A.payload.va[j] = (uint8_t)(j ^ 0xc3);
		hh_post_ud_send(&A.d, &A.ud, &g, A.payload_mr.lkey, 0, 300, true);
		REQUIRE(wait_cqe(&A, &A.scq, cqe, 3000), "A send CQE (GRH)");
		REQUIRE(wait_cqe(&B, &B.rcq, cqe, 3000), "B receive CQE (GRH)");
		CHECK_EQ(hh_get8(cqe, HH_CQE_G_PATH) & 0x80, 0x80, "receive CQE GRH bit");
		CHECK_EQ(hh_get32(cqe, HH_CQE_BYTE_CNT), 40 + 300, "GRH datagram byte_cnt");
		rx = B.ud.data.va + (size_t)hh_rq_index(&B.ud, hh_get32(cqe, HH_CQE_WQE)) *
		     HH_RECV_SLOT;
		CHECK_EQ(rx[0] >> 4, 6, "GRH IPVer 6 in the first 40 bytes");
		CHECK(memcmp(rx + 24, g.dgid, 16) == 0, "GRH DGID = B's GID");
		CHECK(memcmp(rx + 40, A.payload.va, 300) == 0, "GRH datagram payload intact");
	}

	/* Q_Key mismatch: silently dropped (IBA 10.2.4) */
	dst.qkey = 0x33333333;
	dst.dqpn = B.ud.qpn;
	hh_post_ud_send(&A.d, &A.ud, &dst, A.payload_mr.lkey, 0, 64, true);
	REQUIRE(wait_cqe(&A, &A.scq, cqe, 3000), "A send CQE (Q_Key 0x33333333)");
	CHECK(!wait_cqe(&B, &B.rcq, cqe, 300), "B: no receive CQE for a wrong Q_Key");

	/* P_Key violation: A's second QP sends with P_Key 0 (index 1 of OpenSM's table) */
	dst = (struct hh_ud_dest){ .dlid = B.lid, .dqpn = B.ud.qpn, .qkey = UD_QKEY, .port = 1 };
	/* the test finds this packet and B's trap 257 in the capture */
	printf("bad P_Key datagram: LID %u QP 0x%x -> LID %u QP 0x%x\n", A.lid, A.ud_bad.qpn,
	       B.lid, B.ud.qpn);
	fflush(stdout);
	hh_post_ud_send(&A.d, &A.ud_bad, &dst, A.payload_mr.lkey, 0, 64, true);
	REQUIRE(wait_cqe(&A, &A.scq, cqe, 3000), "A send CQE (bad P_Key QP)");
	CHECK(!wait_cqe(&B, &B.rcq, cqe, 300), "B: no receive CQE for a P_Key violation");
	pi = get_port_info(&B);
	viol1 = pi != NULL ? hh_get16(pi, 64 + 46) : 0;
	CHECK_EQ(viol1, (uint16_t)(viol0 + 1), "B PortInfo P_KeyViolations counted the packet");

	/* B -> A too, from B's receive side view: local length error on A */
	hh_post_recv_sge(&A.d, &A.ud, A.d.ntmr.lkey, A.ud.data.iova, 100);
	dst = (struct hh_ud_dest){ .dlid = A.lid, .dqpn = A.ud.qpn, .qkey = UD_QKEY, .port = 1 };
	/* A's RQ holds 32 full-size receives, then this short one:
	 * drain A's posted receives with full-size datagrams, then hit the short one */
	for (i = 0; i < QP_DEPTH / 2; i++) {
		hh_post_ud_send(&B.d, &B.ud, &dst, B.payload_mr.lkey, 0, 64, false);
		REQUIRE(wait_cqe(&A, &A.rcq, cqe, 3000), "A receive %u", i);
	}
	hh_post_ud_send(&B.d, &B.ud, &dst, B.payload_mr.lkey, 0, 256, true);
	REQUIRE(wait_cqe(&A, &A.rcq, cqe, 3000), "A receive CQE into a 100-byte buffer");
	CHECK_EQ(hh_get8(cqe, HH_CQE_OPCODE), HH_CQE_OP_ERR_RECV, "short buffer: receive error CQE");
	CHECK_EQ(hh_get8(cqe, HH_CQE_SYNDROME), HH_SYND_LOCAL_LENGTH,
		 "short buffer: syndrome LOCAL_LENGTH_ERR");
	hh_close(&A.d);
	hh_close(&B.d);
	return 0;
}

static int
scenario_matrix(const char *da, const char *db, int nrows, char **rows)
{
	static struct hh_host A, B;
	char names[512], *all[32], *save = NULL, *tok;
	const uint8_t *pi;
	int n = 0, ret;

	ret = hosts_up(&A, da, &B, db);
	REQUIRE(ret == 0, "both hosts up (bring-up, EQs, QP0/QP1/UD QPs)");
	REQUIRE(wait_active(&A, &B, 60000), "both ports ACTIVE with OpenSM over our QP0 agents");
	pi = get_port_info(&A);
	REQUIRE(pi != NULL, "PortInfo of A");
	A.lid = hh_get16(pi, 64 + 16);
	pi = get_port_info(&B);
	REQUIRE(pi != NULL, "PortInfo of B");
	B.lid = hh_get16(pi, 64 + 16);
	if (nrows == 0) {
		hh_matrix_rows(names, sizeof(names));
		for (tok = strtok_r(names, " ", &save); tok != NULL && n < 32;
		     tok = strtok_r(NULL, " ", &save))
			all[n++] = tok;
		rows = all;
		nrows = n;
	}
	ret = hh_matrix(&A, &B, ctl_path, nrows, rows, &checks, &failures);
	hh_close(&A.d);
	hh_close(&B.d);
	return ret;
}

static int
scenario_serve(const char *dir)
{
	static struct hh_host H;
	int ret;

	H.name = "host";
	ret = host_up(&H, dir);
	if (ret == -ENOENT)
		return no_device(dir, ret);
	REQUIRE(ret == 0, "bring-up");
	printf("hca_host: up\n");
	fflush(stdout);
	while (!stop) {
		bool was = H.port_active;

		host_service(&H);
		if (H.port_active != was) {
			printf("hca_host: port %s\n", H.port_active ? "ACTIVE" : "DOWN");
			fflush(stdout);
		}
		nap(500);
	}
	hh_close(&H.d);
	return 0;
}

/* Both hosts up and ACTIVE for the bench; 0, or 1 with the reason printed. */
static int
bench_hosts_up(struct hh_host *a, const char *da, struct hh_host *b, const char *db)
{
	int ret = hosts_up(a, da, b, db);

	if (ret != 0) {
		printf("FAIL bench: bring-up: %s\n", strerror(-ret));
		return 1;
	}
	if (!wait_active(a, b, 60000)) {
		printf("FAIL bench: ports not ACTIVE after 60 s (A %s, B %s)\n",
		       a->port_active ? "ACTIVE" : "not", b->port_active ? "ACTIVE" : "not");
		return 1;
	}
	hh_bench_prepare(a, b);
	return 0;
}

static int
scenario_bench(const char *da, const char *db, unsigned int len, unsigned int count)
{
	static struct hh_host A, B;
	unsigned int got;
	uint64_t us;

	if (bench_hosts_up(&A, da, &B, db) != 0)
		return 1;
	got = hh_bench_burst(&A, &B, len, count, 1, &us);
	printf("bench: %u-byte UD datagrams: %u of %u received in %.3f s = %.0f pps\n", len, got,
	       count, us / 1e6, got / (us / 1e6));
	return got == count ? 0 : 1;
}

/* Bursts on request (hh_bench_serve()): many short runs, one bring-up. */
static int
scenario_bench_serve(const char *da, const char *db)
{
	static struct hh_host A, B;
	int rc;

	if (bench_hosts_up(&A, da, &B, db) != 0)
		return 1;
	rc = hh_bench_serve(&A, &B, &stop);
	hh_close(&A.d);
	hh_close(&B.d);
	return rc;
}

/*
 * A host that truncates the memory it registered while UD traffic runs
 * (doc/guides/nics/mthca_hw.rst, "The IOMMU socket"): hca_host's memfd
 * is made without MFD_ALLOW_SEALING, so the model cannot seal it and the
 * truncation succeeds. The model's next receive into B's memory is a bus
 * error: B's HCA raises the catastrophic error (uplink bus error, type 3
 * in word 0 of the buffer QUERY_FW names, Linux poll_catas()) and the
 * packet is lost; A, another function of the same ibfabric, works on:
 * every send completes without error and a datagram A sends to itself
 * arrives intact. After the truncation nothing here touches B's memory
 * (this process would take the SIGBUS); B's BAR0 is a separate file.
 *
 * @p send: B cuts only its payload buffer (its last allocation) and then
 * sends from it: the WQE is fetched, the gather is the bus error (the
 * send path's outcome is the same catastrophic error).
 */
static int
scenario_shrink(const char *da, const char *db, bool send)
{
	static struct hh_host A, B;
	struct hh_ud_dest dst;
	unsigned int sent = 0, got = 0, done = 0, inflight = 0, bad_send = 0, i;
	uint32_t catas, w0 = 0;
	bool shrunk = false;
	uint8_t cqe[32];
	uint64_t until;
	int ret;

	ret = hosts_up(&A, da, &B, db);
	if (ret == -ENOENT)
		return no_device(da, ret);
	REQUIRE(ret == 0, "both hosts up");
	REQUIRE(wait_active(&A, &B, 60000), "both ports ACTIVE under OpenSM");
	A.lid = hh_get16(get_port_info(&A), 64 + 16);
	B.lid = hh_get16(get_port_info(&B), 64 + 16);
	catas = (uint32_t)(B.d.catas_base & (HH_BAR0_SIZE - 1));
	CHECK_EQ(hh_bar0_read32(&B.d, catas), 0, "B: no catastrophic error before");
	dst = (struct hh_ud_dest){ .dlid = B.lid, .dqpn = B.ud.qpn, .qkey = UD_QKEY, .port = 1 };
	hh_post_recv(&B.d, &B.ud, QP_DEPTH / 2);
	until = hh_now_us() + 20000000;
	/* 400 datagrams A -> B; B's memory goes away after the 32nd arrived. */
	while (done < 400 && hh_now_us() < until && !stop) {
		while (sent < 400 && inflight < 16) {
			hh_post_ud_send(&A.d, &A.ud, &dst, A.payload_mr.lkey, 0, 1024, true);
			sent++;
			inflight++;
		}
		while (hh_cq_poll(&A.d, &A.scq, cqe)) {
			inflight--;
			done++;
			bad_send += hh_get8(cqe, HH_CQE_OPCODE) != HH_OPCODE_SEND;
		}
		while (!shrunk && hh_cq_poll(&B.d, &B.rcq, cqe)) {
			got++;
			hh_post_recv(&B.d, &B.ud, 1);
		}
		if (!shrunk && got >= 32) {
			off_t cut = send ? (off_t)(B.payload.iova - B.d.dma_iova) : 0;

			REQUIRE(!send || (size_t)cut + B.payload.len == B.d.dma_used,
				"B's payload is its last allocation");
			REQUIRE(ftruncate(B.d.dma_fd, cut) == 0, "B truncates its DMA memfd: %s",
				strerror(errno));
			shrunk = true;
			printf("B truncated its memory to %lld bytes after %u datagrams arrived,"
			       " %u sent\n", (long long)cut, got, sent);
			if (send) {
				struct hh_ud_dest to_a = { .dlid = A.lid, .dqpn = A.ud.qpn,
							   .qkey = UD_QKEY, .port = 1 };

				/* its WQE is below the cut, its payload above */
				hh_post_ud_send(&B.d, &B.ud, &to_a, B.payload_mr.lkey, 0, 256,
						true);
			}
		}
		host_service(&A);
	}
	REQUIRE(shrunk, "traffic ran: %u datagrams reached B before the truncation", got);
	CHECK_EQ(done, 400, "A: every send completed");
	CHECK_EQ(bad_send, 0, "A: send completions without error");

	/* B: the catastrophic error of a data-path bus error. */
	until = hh_now_us() + 3000000;
	while ((w0 = hh_bar0_read32(&B.d, catas)) == 0 && hh_now_us() < until)
		nap(1000);
	CHECK(w0 != 0, "B: catastrophic error buffer written after the bus error");
	CHECK_EQ(w0 >> 24, 3, "B: catastrophic error type: uplink bus error");

	/* A works on: a datagram to itself arrives intact. */
	for (i = 0; i < 64; i++)
		A.payload.va[i] = (uint8_t)(i * 3 + 1);
	hh_post_recv(&A.d, &A.ud, 1);
	dst = (struct hh_ud_dest){ .dlid = A.lid, .dqpn = A.ud.qpn, .qkey = UD_QKEY, .port = 1 };
	hh_post_ud_send(&A.d, &A.ud, &dst, A.payload_mr.lkey, 0, 64, true);
	REQUIRE(wait_cqe(&A, &A.scq, cqe, 3000), "A: send CQE to itself after B's fault");
	CHECK_EQ(hh_get8(cqe, HH_CQE_OPCODE), HH_OPCODE_SEND, "A: send to itself succeeded");
	REQUIRE(wait_cqe(&A, &A.rcq, cqe, 3000), "A: receive CQE from itself after B's fault");
	CHECK_EQ(hh_get8(cqe, HH_CQE_OPCODE), 0x64, "A: receive CQE opcode UD SEND_ONLY");
	CHECK_EQ(hh_get16(cqe, HH_CQE_RLID), A.lid, "A: receive CQE rlid = its own LID");
	for (i = 0; i < QP_DEPTH && hh_rq_addr(&A.ud, i) != hh_get32(cqe, HH_CQE_WQE); i++)
		;
	REQUIRE(i < QP_DEPTH, "A: receive CQE names one of A's receive WQEs");
	CHECK(memcmp(A.ud.data.va + (size_t)i * HH_RECV_SLOT + 40, A.payload.va, 64) == 0,
	      "A: payload to itself intact");
	return 0;
}

int
main(int argc, char **argv)
{
	int rc;

	setvbuf(stdout, NULL, _IOLBF, 0);
	hh_verbose = getenv("HCA_HOST_VERBOSE") != NULL;
	while (argc >= 3 && argv[1][0] == '-') {
		if (strcmp(argv[1], "-s") == 0 && hh_style_parse(argv[2], &style) == 0) {
			;
		} else if (strcmp(argv[1], "-b") == 0 && strcmp(argv[2], "dr_no_d") == 0) {
			host_bugs = HH_BUG_DR_NO_D;
		} else if (strcmp(argv[1], "-c") == 0) {
			ctl_path = argv[2];
		} else {
			fprintf(stderr, "hca_host: bad option %s %s\n", argv[1], argv[2]);
			return 2;
		}
		argc -= 2;
		argv += 2;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	if (argc >= 3 && strcmp(argv[1], "commands") == 0)
		rc = scenario_commands(argv[2]);
	else if (argc >= 3 && strcmp(argv[1], "faults") == 0)
		rc = scenario_faults(argv[2]);
	else if (argc >= 4 && strcmp(argv[1], "ud") == 0)
		rc = scenario_ud(argv[2], argv[3]);
	else if (argc >= 4 && strcmp(argv[1], "pkey") == 0)
		rc = scenario_pkey(argv[2], argv[3]);
	else if (argc >= 4 && strcmp(argv[1], "shrink") == 0)
		rc = scenario_shrink(argv[2], argv[3], false);
	else if (argc >= 4 && strcmp(argv[1], "shrink_send") == 0)
		rc = scenario_shrink(argv[2], argv[3], true);
	else if (argc >= 4 && strcmp(argv[1], "matrix") == 0)
		rc = scenario_matrix(argv[2], argv[3], argc - 4, argv + 4);
	else if (argc >= 3 && strcmp(argv[1], "serve") == 0)
		rc = scenario_serve(argv[2]);
	else if (argc >= 4 && strcmp(argv[1], "bench_serve") == 0)
		return scenario_bench_serve(argv[2], argv[3]);
	else if (argc >= 6 && strcmp(argv[1], "bench") == 0)
		return scenario_bench(argv[2], argv[3], (unsigned int)atoi(argv[4]),
				      (unsigned int)atoi(argv[5]));
	else {
		fprintf(stderr, "usage: hca_host [-s linux|ipxe] [-b dr_no_d] [-c CTL_SOCKET] "
			"commands|faults|serve PCI_DIR | "
			"ud|pkey|shrink|shrink_send|bench_serve PCI_A PCI_B | "
			"bench PCI_A PCI_B SIZE COUNT | "
			"matrix PCI_A PCI_B [ROW...]\n");
		return 2;
	}
	printf("hca_host %s (%s host): %u checks, %u failed\n", argv[1], hh_style_name(style),
	       checks, failures);
	return rc != 0 || failures != 0 ? 1 : 0;
}
