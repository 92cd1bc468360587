/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Unit tests of ibfabric's MT25208 device model, firmware side, driven
 * in-process through its BAR0 memory: the test plays the host, writing
 * HCR words exactly as mthca_cmd_post_hcr() says (words 0..5, then word 6 with GO)
 * and reading back word 6 and the output mailboxes. Host memory is one
 * DMA window registered directly (no IOMMU socket).
 *
 * Expected bytes are derived from Linux mthca (cited by function) and from the
 * model's documented choices (doc/guides/nics/mthca_hw.rst), not from the
 * model's code.
 *
 * Test profile (a small one, built by hand like Linux's mthca_make_profile
 * would for these counts), ICM virtual layout:
 *   QPC  0x0000 64 QPs x 256 = 16 KiB    EQPC 0x4000 64 x 32 (one page)
 *   CQC  0x5000 64 CQs x 64  = 4 KiB     EQC  0x6000 32 x 64 (one page)
 *   MPT  0x7000 64 x 64      = 4 KiB     MTT  0x8000 one page (8 segments)
 *   MCG  0x9000 16 x 256     = 4 KiB     RDB  0xa000 one page
 *   UARC 0xb000 2 UARs x 4 KiB           total ICM 0x10000 (16 pages)
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "fab_log.h"
#include "fab_node.h"
#include "fabric.h"
#include "mad.h"
#include "mt25208.h"
#include "port_state.h"
#include "test.h"

#define HOST_IOVA	0x100000000ull	/* bus address of the host window */
#define HOST_SIZE	(8u << 20)

#define ICM_QPC		0x0000
#define ICM_EQPC	0x4000
#define ICM_CQC		0x5000
#define ICM_EQC		0x6000
#define ICM_MPT		0x7000
#define ICM_MTT		0x8000
#define ICM_MCG		0x9000
#define ICM_RDB		0xa000
#define ICM_UARC	0xb000
#define ICM_SIZE	0x10000
#define MT_OP_SUSPEND_T	0x032	/* SUSPEND (Linux CMD_SUSPEND_QP) */

static struct fabric *fab;
static struct fab_node *ca, *sw;
static struct mt25208 *dev;
static uint8_t *bar0, *host;
static uint64_t host_next;	/* bump allocator offset in the window */

/* ------------------------------------------------------------------ */
/* Host side helpers                                                   */

/* 4 KiB-aligned zeroed host buffer; returns its bus address. */
static uint64_t
host_alloc(size_t len)
{
	uint64_t off = host_next;

	host_next += (len + 4095) & ~(size_t)4095;
	memset(host + off, 0, len);
	return HOST_IOVA + off;
}

static uint8_t *
hp(uint64_t iova)
{
	return host + (iova - HOST_IOVA);
}

static void
hcr_put(unsigned int off, uint32_t v)
{
	mt_put32(bar0 + MT_BAR0_HCR + off, 0, v);
}

static uint32_t
hcr_get(unsigned int off)
{
	return mt_get32(bar0 + MT_BAR0_HCR + off, 0);
}

/* Post one command (polled: token 0xffff, mthca_cmd_post_hcr()) and let the model run. */
static int
cmd_ev(uint16_t op, uint8_t opmod, uint64_t in, uint32_t in_mod, uint64_t out,
       uint64_t *imm, bool event, uint16_t token)
{
	uint32_t w6;

	hcr_put(MT_HCR_IN_HI, (uint32_t)(in >> 32));
	hcr_put(MT_HCR_IN_LO, (uint32_t)in);
	hcr_put(MT_HCR_IN_MOD, in_mod);
	hcr_put(MT_HCR_OUT_HI, (uint32_t)(out >> 32));
	hcr_put(MT_HCR_OUT_LO, (uint32_t)out);
	hcr_put(MT_HCR_TOKEN, (uint32_t)token << 16);
	hcr_put(MT_HCR_CMD, MT_HCR_GO | (event ? MT_HCR_E : 0) |
		((uint32_t)opmod << 12) | op);
	if (!mt25208_poll(dev))
		return -1000;
	w6 = hcr_get(MT_HCR_CMD);
	if (w6 & MT_HCR_GO)
		return -1001;
	if (imm != NULL)
		*imm = (uint64_t)hcr_get(MT_HCR_OUT_HI) << 32 | hcr_get(MT_HCR_OUT_LO);
	return (int)(w6 >> 24);
}

static int
cmd(uint16_t op, uint8_t opmod, uint64_t in, uint32_t in_mod, uint64_t out, uint64_t *imm)
{
	return cmd_ev(op, opmod, in, in_mod, out, imm, false, MT_HCR_POLL_TOKEN);
}

/* Page list with one entry (mthca_map_cmd()): virt, bus address | (log2 size - 12). */
static uint64_t
page_list1(uint64_t virt, uint64_t pa, unsigned int log_size)
{
	uint64_t mb = host_alloc(4096);

	mt_put64(hp(mb), 0, virt);
	mt_put64(hp(mb), 8, pa | (log_size - 12));
	return mb;
}

static uint64_t fw_area, icm_mem;

static int
bring_up_to_run(void)
{
	uint64_t out = host_alloc(4096);

	if (cmd(MT_OP_QUERY_FW, 0, 0, 0, out, NULL) != 0)
		return -1;
	if (cmd(MT_OP_ENABLE_LAM, 0, 0, 0, out, NULL) != MT_STAT_LAM_NOT_PRE)
		return -2;
	/* 16 FW pages = one 64 KiB block, 64 KiB aligned. */
	host_next = (host_next + 0xffff) & ~0xffffull;
	fw_area = host_alloc(16 * 4096);
	if (cmd(MT_OP_MAP_FA, 0, page_list1(0, fw_area, 16), 1, 0, NULL) != 0)
		return -3;
	if (cmd(MT_OP_RUN_FW, 0, 0, 0, 0, NULL) != 0)
		return -4;
	return 0;
}

static uint64_t
init_hca_mbox(void)
{
	uint64_t mb = host_alloc(4096);
	uint8_t *m = hp(mb);

	/* mthca_INIT_HCA(): bases, then logs over the low byte of each base. */
	mt_put32(m, 0x014, 1);
	mt_put64(m, 0x030, ICM_QPC);
	mt_put8(m, 0x037, 6);
	mt_put64(m, 0x050, ICM_CQC);
	mt_put8(m, 0x057, 6);
	mt_put64(m, 0x060, ICM_EQPC);
	mt_put64(m, 0x080, ICM_EQC);
	mt_put8(m, 0x087, 5);
	mt_put64(m, 0x090, ICM_RDB);
	mt_put64(m, 0x0c0, ICM_MCG);
	mt_put16(m, 0x0d2, 8);
	mt_put16(m, 0x0d6, 8);
	mt_put8(m, 0x0db, 4);
	mt_put64(m, 0x0f0, ICM_MPT);
	mt_put8(m, 0x0fb, 6);
	mt_put64(m, 0x100, ICM_MTT);
	mt_put8(m, 0x129, 0);
	mt_put8(m, 0x12a, 1);
	mt_put8(m, 0x12b, 0);
	mt_put64(m, 0x138, ICM_UARC);
	return mb;
}

static int
bring_up(void)
{
	uint64_t aux, aux_mem;

	if (bring_up_to_run() != 0)
		return -1;
	if (cmd(MT_OP_SET_ICM_SIZE, 0, ICM_SIZE, 0, 0, &aux) != 0 || aux != 1)
		return -2;
	aux_mem = host_alloc(4096);
	if (cmd(MT_OP_MAP_ICM_AUX, 0, page_list1(0, aux_mem, 12), 1, 0, NULL) != 0)
		return -3;
	host_next = (host_next + 0xffff) & ~0xffffull;
	icm_mem = host_alloc(ICM_SIZE);
	if (cmd(MT_OP_MAP_ICM, 0, page_list1(0, icm_mem, 16), 1, 0, NULL) != 0)
		return -4;
	if (cmd(MT_OP_INIT_HCA, 0, init_hca_mbox(), 0, 0, NULL) != 0)
		return -5;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Fixture                                                             */

static int
setup(void)
{
	fab = fabric_new();
	if (fab == NULL)
		return TEST_FAILED;
	ca = fabric_add_node(fab, FAB_NODE_CA, "H1", 2);
	sw = fabric_add_node(fab, FAB_NODE_SWITCH, "S1", 4);
	if (ca == NULL || sw == NULL || fabric_connect(fab, &ca->ports[1], &sw->ports[1]) != 0)
		return TEST_FAILED;
	port_state_link_update(fab, &ca->ports[1]);
	ca->active_hca = true;
	bar0 = aligned_alloc(4096, MT_BAR0_SIZE);
	host = aligned_alloc(4096, HOST_SIZE);
	if (bar0 == NULL || host == NULL)
		return TEST_FAILED;
	memset(bar0, 0, MT_BAR0_SIZE);
	host_next = 0;
	dev = mt25208_new(fab, ca, bar0, NULL, 0);
	if (dev == NULL)
		return TEST_FAILED;
	if (mt25208_dma_map(dev, HOST_IOVA, HOST_SIZE, host, NULL, 0) != 0)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

static void
teardown(void)
{
	mt25208_free(dev);
	dev = NULL;
	fabric_free(fab);
	fab = NULL;
	free(bar0);
	free(host);
}

static int
setup_up(void)
{
	if (setup() != TEST_SUCCESS)
		return TEST_FAILED;
	return bring_up() == 0 ? TEST_SUCCESS : TEST_FAILED;
}

/* ------------------------------------------------------------------ */
/* Boot firmware and the state machine                                 */

static int
test_query_fw(void)
{
	uint64_t out = host_alloc(4096);
	uint8_t exp[0x100];

	memset(hp(out), 0xee, 0x100);
	TEST_ASSERT_EQUAL(cmd(MT_OP_QUERY_FW, 0, 0, 0, out, NULL), 0, "QUERY_FW");
	/*
	 * mthca_QUERY_FW() with the model's values: 16 FW pages; version 5.3.0 as
	 * major@0x02, subminor@0x04, minor@0x06; log max cmds 3; no command
	 * doorbells; clr_int 0xf00d8, catas buffer 0x80000 x 16 words,
	 * EQ arm 0xa0000, EQ set-CI 0xa0800: BAR0 offsets in the low 20
	 * bits under high bits 0xfe000000 a driver must mask (Linux
	 * mthca_map_eq_regs masks with BAR0 length - 1).
	 */
	memset(exp, 0, sizeof(exp));
	exp[0x01] = 16;
	exp[0x03] = 5;
	exp[0x07] = 3;
	exp[0x0f] = 3;
	exp[0x24] = 0xfe; exp[0x25] = 0x0f; exp[0x26] = 0x00; exp[0x27] = 0xd8;
	exp[0x34] = 0xfe; exp[0x35] = 0x08;
	exp[0x3b] = 16;
	exp[0x44] = 0xfe; exp[0x45] = 0x0a;
	exp[0x4c] = 0xfe; exp[0x4d] = 0x0a; exp[0x4e] = 0x08;
	TEST_ASSERT_BUFFERS_EQUAL(hp(out), exp, sizeof(exp), "QUERY_FW mailbox");
	return TEST_SUCCESS;
}

static int
test_state_machine(void)
{
	uint64_t out = host_alloc(4096), aux;

	/* Before RUN_FW: INIT_HCA, QUERY_DEV_LIM, SET_ICM_SIZE are bad state (0x04). */
	TEST_ASSERT_EQUAL(cmd(MT_OP_INIT_HCA, 0, init_hca_mbox(), 0, 0, NULL),
			  MT_STAT_BAD_SYS_STATE, "INIT_HCA before RUN_FW");
	TEST_ASSERT_EQUAL(cmd(MT_OP_QUERY_DEV_LIM, 0, 0, 0, out, NULL),
			  MT_STAT_BAD_SYS_STATE, "QUERY_DEV_LIM on boot firmware");
	/* RUN_FW without the FW area mapped. */
	TEST_ASSERT_EQUAL(cmd(MT_OP_RUN_FW, 0, 0, 0, 0, NULL), MT_STAT_BAD_SYS_STATE,
			  "RUN_FW before MAP_FA");
	/* MAP_FA with an unaligned block (64 KiB block at a 4 KiB address). */
	TEST_ASSERT_EQUAL(cmd(MT_OP_MAP_FA, 0, page_list1(0, HOST_IOVA + 0x1000, 16), 1, 0,
			      NULL), MT_STAT_BAD_PARAM, "MAP_FA unaligned");
	TEST_ASSERT_EQUAL(cmd(MT_OP_MAP_FA, 0, page_list1(0, HOST_IOVA, 12), 0, 0, NULL),
			  MT_STAT_BAD_PARAM, "MAP_FA with 0 entries");
	TEST_ASSERT_EQUAL(bring_up_to_run(), 0, "boot to RUN_FW");
	TEST_ASSERT_EQUAL(cmd(MT_OP_RUN_FW, 0, 0, 0, 0, NULL), MT_STAT_BAD_SYS_STATE,
			  "RUN_FW twice");
	TEST_ASSERT_EQUAL(cmd(MT_OP_MAP_ICM, 0, page_list1(0, icm_mem, 12), 1, 0, NULL),
			  MT_STAT_BAD_SYS_STATE, "MAP_ICM before SET_ICM_SIZE");
	TEST_ASSERT_EQUAL(cmd(MT_OP_SET_ICM_SIZE, 0, 0x1234, 0, 0, NULL), MT_STAT_BAD_PARAM,
			  "SET_ICM_SIZE not page multiple");
	TEST_ASSERT_EQUAL(cmd(MT_OP_SET_ICM_SIZE, 0, 1ull << 40, 0, 0, NULL),
			  MT_STAT_EXCEED_LIM, "SET_ICM_SIZE above max ICM");
	/* 1 MiB of ICM = 256 pages -> 1 aux page; 256 MiB -> 256 aux pages. */
	TEST_ASSERT_EQUAL(cmd(MT_OP_SET_ICM_SIZE, 0, 256ull << 20, 0, 0, &aux), 0, "size");
	TEST_ASSERT_EQUAL(aux, 256, "aux pages for 256 MiB");
	TEST_ASSERT_EQUAL(cmd(MT_OP_SET_ICM_SIZE, 0, ICM_SIZE, 0, 0, &aux), 0, "size");
	TEST_ASSERT_EQUAL(aux, 1, "aux pages for 64 KiB");
	TEST_ASSERT_EQUAL(cmd(MT_OP_INIT_HCA, 0, init_hca_mbox(), 0, 0, NULL),
			  MT_STAT_BAD_SYS_STATE, "INIT_HCA before MAP_ICM_AUX");
	TEST_ASSERT_EQUAL(cmd(MT_OP_MAP_ICM_AUX, 0, page_list1(0, host_alloc(4096), 12), 1, 0,
			      NULL), 0, "MAP_ICM_AUX");
	/* ICM page outside the ICM size. */
	TEST_ASSERT_EQUAL(cmd(MT_OP_MAP_ICM, 0, page_list1(ICM_SIZE, host_alloc(4096), 12), 1,
			      0, NULL), MT_STAT_BAD_PARAM, "MAP_ICM outside ICM");
	/* Resource commands before INIT_HCA. */
	TEST_ASSERT_EQUAL(cmd(MT_OP_SW2HW_MPT, 0, host_alloc(4096), 16, 0, NULL),
			  MT_STAT_BAD_SYS_STATE, "SW2HW_MPT before INIT_HCA");
	/* Unknown opcode. */
	TEST_ASSERT_EQUAL(cmd(0x0ff, 0, 0, 0, 0, NULL), MT_STAT_BAD_OP, "opcode 0x0ff");
	return TEST_SUCCESS;
}

static int
test_query_dev_lim(void)
{
	uint64_t out = host_alloc(4096);
	uint8_t exp[0x100];

	TEST_ASSERT_EQUAL(bring_up_to_run(), 0, "RUN_FW");
	memset(hp(out), 0xee, 0x100);
	TEST_ASSERT_EQUAL(cmd(MT_OP_QUERY_DEV_LIM, 0, 0, 0, out, NULL), 0, "QUERY_DEV_LIM");
	/*
	 * mthca_QUERY_DEV_LIM() offsets, filled with the values of mthca_hw.rst "Values
	 * the model's firmware reports"; every other byte is zero.
	 */
	memset(exp, 0, sizeof(exp));
	exp[0x10] = 14;		/* log max SRQ WQEs */
	exp[0x11] = 14;		/* log max WQEs per QP: 4-bit QPC field, 2^14 as firmware */
	exp[0x12] = 4;		/* log reserved QPs: 16 */
	exp[0x13] = 18;		/* log max QPs */
	exp[0x19] = 17;		/* log max CQEs */
	exp[0x1a] = 4;		/* log reserved CQs */
	exp[0x1b] = 18;		/* log max CQs */
	exp[0x1d] = 20;		/* log max MPTs */
	exp[0x1e] = 2;		/* log reserved EQs: 4 */
	exp[0x1f] = 5;		/* log max EQs: 32 */
	exp[0x20] = 4 << 4;	/* log reserved MTT entries in [7:4] */
	exp[0x21] = 32;		/* log max MR size */
	exp[0x22] = 4;		/* log reserved MPTs */
	exp[0x23] = 21;		/* log max MTT segments */
	exp[0x35] = 15;		/* local CA ACK delay */
	exp[0x36] = 0x43;	/* max MTU 2048 (4) / width 1x+4x (3) */
	exp[0x37] = 0x42;	/* VL cap VL0..7 (4) / 2 ports */
	exp[0x3b] = 5;		/* log GIDs: 32 */
	exp[0x3d] = 0x0f;	/* static rates: full, 1/4, 1/8, 1/2 */
	exp[0x3f] = 6;		/* log P_Keys: 64 */
	/* flags BE32 0x00300307: UD multicast (21), UD AV port check (20), */
	exp[0x45] = 0x30;	/* bad Q_Key (9) and P_Key (8) counters, */
	exp[0x46] = 0x03;	/* UD (2), UC (1), RC (0) */
	exp[0x47] = 0x07;
	exp[0x48] = 1 << 4;	/* 1 reserved UAR */
	exp[0x49] = 3;		/* log UAR area in MB: 8 MiB */
	exp[0x4b] = 12;		/* log min page size */
	exp[0x51] = 16;		/* max S/G SQ */
	exp[0x52] = 0x02;	/* max SQ WQE 512 */
	exp[0x55] = 16;		/* max S/G RQ */
	exp[0x56] = 0x02;	/* max RQ WQE 512 */
	exp[0x61] = 5;		/* log QPs per MCG */
	exp[0x63] = 13;		/* log max MCGs */
	exp[0x65] = 15;		/* log max PDs */
	exp[0x80] = 0x01;	/* EEC 256 */
	exp[0x82] = 0x01;	/* QPC 256 */
	exp[0x85] = 32;		/* EEEC */
	exp[0x87] = 32;		/* EQPC */
	exp[0x89] = 64;		/* EQC */
	exp[0x8b] = 64;		/* CQC */
	exp[0x8d] = 32;		/* SRQC */
	exp[0x8f] = 32;		/* UAR scratch */
	exp[0x91] = 8;		/* MTT entry */
	exp[0x93] = 64;		/* MPT */
	exp[0x9a] = 0x01;	/* reserved L_Key 0x100 */
	exp[0xa4] = 0x80;	/* max ICM 2^31 */
	TEST_ASSERT_BUFFERS_EQUAL(hp(out), exp, sizeof(exp), "QUERY_DEV_LIM mailbox");
	return TEST_SUCCESS;
}

static int
test_more_errors(void)
{
	uint64_t out = host_alloc(4096), aux;

	/* Boot firmware: QUERY_ADAPTER, SYS_DIS, UNMAP_ICM_AUX are bad state. */
	TEST_ASSERT_EQUAL(cmd(MT_OP_QUERY_ADAPTER, 0, 0, 0, out, NULL), MT_STAT_BAD_SYS_STATE,
			  "QUERY_ADAPTER on boot firmware");
	TEST_ASSERT_EQUAL(cmd(MT_OP_SYS_DIS, 0, 0, 0, 0, NULL), MT_STAT_BAD_SYS_STATE,
			  "SYS_DIS on boot firmware");
	TEST_ASSERT_EQUAL(cmd(MT_OP_QUERY_FW, 0, 0, 0, 0x3000, NULL), MT_STAT_INTERNAL_ERR,
			  "QUERY_FW output mailbox outside the windows");
	TEST_ASSERT_EQUAL(bring_up_to_run(), 0, "RUN_FW");
	TEST_ASSERT_EQUAL(cmd(MT_OP_MAP_ICM_AUX, 0, page_list1(0, host_alloc(4096), 12), 1, 0,
			      NULL), MT_STAT_BAD_SYS_STATE, "MAP_ICM_AUX before SET_ICM_SIZE");
	TEST_ASSERT_EQUAL(cmd(MT_OP_SET_ICM_SIZE, 0, ICM_SIZE, 0, 0, &aux), 0, "size");
	/* A page list entry whose block is not DMA-reachable: a DMA fault. */
	TEST_ASSERT_EQUAL(cmd(MT_OP_MAP_ICM_AUX, 0, page_list1(0, 0x7000, 12), 1, 0, NULL),
			  MT_STAT_INTERNAL_ERR, "MAP_ICM_AUX of an unregistered page");
	TEST_ASSERT_EQUAL(cmd(MT_OP_MAP_ICM, 0, page_list1(0, host_alloc(4096), 12), 300, 0,
			      NULL), MT_STAT_BAD_PARAM, "MAP_ICM with 300 entries");
	/* SYS_DIS from RUN: back to boot firmware. */
	TEST_ASSERT_EQUAL(cmd(MT_OP_SYS_DIS, 0, 0, 0, 0, NULL), 0, "SYS_DIS");
	TEST_ASSERT_EQUAL(dev->fw_state, MT25208_FW_BOOT, "boot firmware");
	return TEST_SUCCESS;
}

static int
test_more_errors_hca(void)
{
	uint64_t out = host_alloc(4096);

	TEST_ASSERT_EQUAL(cmd(MT_OP_UNMAP_ICM_AUX, 0, 0, 0, 0, NULL), MT_STAT_BAD_SYS_STATE,
			  "UNMAP_ICM_AUX while the HCA runs");
	TEST_ASSERT_EQUAL(cmd(MT_OP_MAP_ICM, 0, page_list1(0, host_alloc(4096), 12), 1, 0, NULL),
			  MT_STAT_BAD_RES_STATE, "MAP_ICM of a mapped ICM page");
	TEST_ASSERT_EQUAL(cmd(MT_OP_QUERY_QP, 0, 0, 3, out, NULL), MT_STAT_BAD_RESOURCE,
			  "QUERY_QP of reserved QP 3");
	TEST_ASSERT_EQUAL(cmd(MT_OP_QUERY_QP, 0, 0, 0x28 | MT_QP_INMOD_EE, out, NULL),
			  MT_STAT_BAD_PARAM, "QUERY_QP of an EE");
	TEST_ASSERT_EQUAL(cmd(MT_OP_MGID_HASH, 0, 0x5000, 0, 0, NULL), MT_STAT_INTERNAL_ERR,
			  "MGID_HASH mailbox outside the windows");
	TEST_ASSERT_EQUAL(cmd(MT_OP_HW2SW_MPT, 1, 0, 99, 0, NULL), MT_STAT_BAD_INDEX,
			  "HW2SW_MPT 99 of 64");
	TEST_ASSERT_EQUAL(cmd(MT_OP_QUERY_EQ, 0, 0, 5, out, NULL), MT_STAT_BAD_RES_STATE,
			  "QUERY_EQ of a software-owned EQ");
	TEST_ASSERT_EQUAL(cmd(MT_OP_SUSPEND_T, 0, 0, 0x28, 0, NULL), MT_STAT_BAD_OP,
			  "SUSPEND not implemented");
	return TEST_SUCCESS;
}

static int
test_init_hca_errors(void)
{
	uint64_t mb, aux;

	TEST_ASSERT_EQUAL(bring_up_to_run(), 0, "RUN_FW");
	TEST_ASSERT_EQUAL(cmd(MT_OP_SET_ICM_SIZE, 0, ICM_SIZE, 0, 0, &aux), 0, "size");
	TEST_ASSERT_EQUAL(cmd(MT_OP_MAP_ICM_AUX, 0, page_list1(0, host_alloc(4096), 12), 1, 0,
			      NULL), 0, "aux");
	mb = init_hca_mbox();
	mt_put8(hp(mb), 0x037, 19);	/* 2^19 QPs > 2^18 */
	TEST_ASSERT_EQUAL(cmd(MT_OP_INIT_HCA, 0, mb, 0, 0, NULL), MT_STAT_EXCEED_LIM,
			  "too many QPs");
	mb = init_hca_mbox();
	mt_put64(hp(mb), 0x0f0, ICM_SIZE);	/* MPT table beyond the ICM */
	mt_put8(hp(mb), 0x0fb, 6);
	TEST_ASSERT_EQUAL(cmd(MT_OP_INIT_HCA, 0, mb, 0, 0, NULL), MT_STAT_BAD_PARAM,
			  "MPT table outside ICM");
	/* Bad mailbox address: a DMA fault, reported as internal error (0x01). */
	TEST_ASSERT_EQUAL(cmd(MT_OP_INIT_HCA, 0, 0x1000, 0, 0, NULL), MT_STAT_INTERNAL_ERR,
			  "INIT_HCA mailbox outside the DMA windows");
	TEST_ASSERT(dev->stats.dma_faults >= 1, "DMA fault counted");
	TEST_ASSERT_EQUAL(cmd(MT_OP_INIT_HCA, 0, init_hca_mbox(), 0, 0, NULL), 0, "INIT_HCA");
	TEST_ASSERT_EQUAL(cmd(MT_OP_INIT_HCA, 0, init_hca_mbox(), 0, 0, NULL),
			  MT_STAT_BAD_SYS_STATE, "INIT_HCA twice");
	return TEST_SUCCESS;
}

/*
 * INIT_HCA's parameter checks, one row per field (mthca_INIT_HCA() lays
 * the mailbox out; Linux's mthca_init_hca() and the MT25208 model's rules
 * in doc/guides/nics/mthca_hw.rst): a good mailbox with one field wrong
 * must fail with exactly the status given, and leave the HCA able to take
 * a good INIT_HCA afterwards.
 */
struct ihca_row {
	const char *what;
	uint16_t off;
	uint8_t width;
	uint64_t val;
	uint8_t status;
};

static const struct ihca_row ihca_rows[] = {
	/* flags2 bit 1: a big-endian host; the model serves little-endian ones */
	{ "flags2 big-endian host", 0x014, 4, 0x3, MT_STAT_BAD_PARAM },
	{ "flags2 big-endian only", 0x014, 4, 0x2, MT_STAT_BAD_PARAM },
	/* log table sizes above QUERY_DEV_LIM's limits: EXCEED_LIM */
	{ "log QPs 19 > 18", 0x037, 1, 19, MT_STAT_EXCEED_LIM },
	{ "log SRQs 1 > 0 (no SRQs)", 0x04f, 1, 1, MT_STAT_EXCEED_LIM },
	{ "log CQs 19 > 18", 0x057, 1, 19, MT_STAT_EXCEED_LIM },
	{ "log EQs 6 > 5", 0x087, 1, 6, MT_STAT_EXCEED_LIM },
	{ "log MGMs 14 > 13", 0x0db, 1, 14, MT_STAT_EXCEED_LIM },
	{ "log MPTs 21 > 20", 0x0fb, 1, 21, MT_STAT_EXCEED_LIM },
	{ "log UARs 12 > 11 (8 MiB of UARs)", 0x12a, 1, 12, MT_STAT_EXCEED_LIM },
	/* multicast, UAR and UARC parameters */
	{ "log MGM entry size 7 (must be 8)", 0x0d2, 2, 7, MT_STAT_BAD_PARAM },
	{ "log MGM entry size 9 (must be 8)", 0x0d2, 2, 9, MT_STAT_BAD_PARAM },
	{ "MGM hash size 0", 0x0d6, 2, 0, MT_STAT_BAD_PARAM },
	{ "MGM hash size 17 > 2^4 MGMs", 0x0d6, 2, 17, MT_STAT_BAD_PARAM },
	{ "UAR page size 1 (must be 0: 4 KiB)", 0x12b, 1, 1, MT_STAT_BAD_PARAM },
	{ "log UARC pages 9 > 8", 0x129, 1, 9, MT_STAT_BAD_PARAM },
	/* every table inside the ICM and page aligned */
	{ "QPC table beyond the ICM", 0x030, 8, ICM_SIZE, MT_STAT_BAD_PARAM },
	{ "QPC table not page aligned", 0x030, 8, 0x806, MT_STAT_BAD_PARAM },
	{ "EQPC table beyond the ICM", 0x060, 8, ICM_SIZE, MT_STAT_BAD_PARAM },
	{ "CQC table beyond the ICM", 0x050, 8, ICM_SIZE | 6, MT_STAT_BAD_PARAM },
	{ "EQC table beyond the ICM", 0x080, 8, ICM_SIZE | 5, MT_STAT_BAD_PARAM },
	{ "RDB table beyond the ICM", 0x090, 8, ICM_SIZE, MT_STAT_BAD_PARAM },
	{ "MGM table beyond the ICM", 0x0c0, 8, ICM_SIZE, MT_STAT_BAD_PARAM },
	{ "MPT table beyond the ICM", 0x0f0, 8, ICM_SIZE | 6, MT_STAT_BAD_PARAM },
	{ "MTT table beyond the ICM", 0x100, 8, ICM_SIZE, MT_STAT_BAD_PARAM },
	{ "UARC table beyond the ICM", 0x138, 8, ICM_SIZE, MT_STAT_BAD_PARAM },
};

static int
test_init_hca_fields(void)
{
	uint64_t mb, aux;
	unsigned int i;

	TEST_ASSERT_EQUAL(bring_up_to_run(), 0, "RUN_FW");
	TEST_ASSERT_EQUAL(cmd(MT_OP_SET_ICM_SIZE, 0, ICM_SIZE, 0, 0, &aux), 0, "size");
	TEST_ASSERT_EQUAL(cmd(MT_OP_MAP_ICM_AUX, 0, page_list1(0, host_alloc(4096), 12), 1, 0,
			      NULL), 0, "aux");
	for (i = 0; i < sizeof(ihca_rows) / sizeof(ihca_rows[0]); i++) {
		const struct ihca_row *r = &ihca_rows[i];
		uint8_t *m;

		mb = init_hca_mbox();
		m = hp(mb);
		if (r->width == 1)
			mt_put8(m, r->off, (uint8_t)r->val);
		else if (r->width == 2)
			mt_put16(m, r->off, (uint16_t)r->val);
		else if (r->width == 4)
			mt_put32(m, r->off, (uint32_t)r->val);
		else
			mt_put64(m, r->off, r->val);
		TEST_ASSERT_EQUAL(cmd(MT_OP_INIT_HCA, 0, mb, 0, 0, NULL), r->status,
				  "INIT_HCA with %s", r->what);
	}
	TEST_ASSERT_EQUAL(cmd(MT_OP_INIT_HCA, 0, init_hca_mbox(), 0, 0, NULL), 0,
			  "a good INIT_HCA after every refusal");
	return TEST_SUCCESS;
}

/*
 * UARC pages per UAR: at most 2^8 (mthca_INIT_HCA's log_uarc_sz). The
 * other tests' 64 KiB ICM cannot hold the 2 MiB UARC table of 2^9 pages,
 * so this case sets an 8 MiB ICM: the table fits at 4 MiB and only the
 * page-count rule refuses it; 2^8 pages is accepted there.
 */
static int
test_init_hca_uarc_pages(void)
{
	uint64_t mb, aux;

	TEST_ASSERT_EQUAL(bring_up_to_run(), 0, "RUN_FW");
	TEST_ASSERT_EQUAL(cmd(MT_OP_SET_ICM_SIZE, 0, 8u << 20, 0, 0, &aux), 0, "8 MiB ICM");
	TEST_ASSERT_EQUAL(aux, 8, "eight aux pages");
	host_next = (host_next + 0x7fff) & ~0x7fffull;	/* one 32 KiB block, aligned */
	TEST_ASSERT_EQUAL(cmd(MT_OP_MAP_ICM_AUX, 0, page_list1(0, host_alloc(8 * 4096), 15), 1, 0,
			      NULL), 0, "aux");
	mb = init_hca_mbox();
	mt_put8(hp(mb), 0x12a, 0);		/* one UAR */
	mt_put64(hp(mb), 0x138, 4u << 20);	/* UARC table at 4 MiB */
	mt_put8(hp(mb), 0x129, 9);
	TEST_ASSERT_EQUAL(cmd(MT_OP_INIT_HCA, 0, mb, 0, 0, NULL), MT_STAT_BAD_PARAM,
			  "INIT_HCA with 2^9 UARC pages (2 MiB table inside the ICM)");
	mt_put8(hp(mb), 0x129, 8);
	TEST_ASSERT_EQUAL(cmd(MT_OP_INIT_HCA, 0, mb, 0, 0, NULL), 0, "INIT_HCA with 2^8 UARC pages");
	return TEST_SUCCESS;
}

static int
test_query_adapter(void)
{
	uint64_t out = host_alloc(4096);
	const uint8_t *m = hp(out);

	TEST_ASSERT_EQUAL(cmd(MT_OP_QUERY_ADAPTER, 0, 0, 0, out, NULL), 0, "QUERY_ADAPTER");
	TEST_ASSERT_EQUAL(mt_get32(m, 0x00), 0x15b3, "vendor");
	TEST_ASSERT_EQUAL(mt_get32(m, 0x04), 0x6282, "device");
	TEST_ASSERT_EQUAL(m[0x10], 0, "INTA pin");
	/* mthca_QUERY_ADAPTER(): "MT_0150000001" byte-reversed per 4: "0_TM" "0051" ... */
	TEST_ASSERT_BUFFERS_EQUAL(m + 0xf0, "0_TM00510000\0\0\0" "1", 16, "board ID");
	return TEST_SUCCESS;
}

static int
test_teardown_sequence(void)
{
	/* __mthca_remove_one(): CLOSE_HCA, then UNMAP_ICM, UNMAP_ICM_AUX, UNMAP_FA. */
	TEST_ASSERT_EQUAL(cmd(MT_OP_UNMAP_FA, 0, 0, 0, 0, NULL), MT_STAT_BAD_SYS_STATE,
			  "UNMAP_FA while the HCA runs");
	TEST_ASSERT_EQUAL(cmd(MT_OP_CLOSE_HCA, 0, 0, 0, 0, NULL), 0, "CLOSE_HCA");
	TEST_ASSERT_EQUAL(cmd(MT_OP_CLOSE_HCA, 0, 0, 0, 0, NULL), MT_STAT_BAD_SYS_STATE,
			  "CLOSE_HCA twice");
	/* Linux says 64 pages per chunk even if fewer are mapped. */
	TEST_ASSERT_EQUAL(cmd(MT_OP_UNMAP_ICM, 0, 0, 64, 0, NULL), 0, "UNMAP_ICM");
	TEST_ASSERT(mt25208_icm_ptr(dev, 0, 8) == NULL, "ICM page 0 unmapped");
	TEST_ASSERT_EQUAL(cmd(MT_OP_UNMAP_ICM, 0, 0x123, 1, 0, NULL), MT_STAT_BAD_PARAM,
			  "UNMAP_ICM unaligned");
	TEST_ASSERT_EQUAL(cmd(MT_OP_UNMAP_ICM_AUX, 0, 0, 0, 0, NULL), 0, "UNMAP_ICM_AUX");
	TEST_ASSERT_EQUAL(cmd(MT_OP_UNMAP_FA, 0, 0, 0, 0, NULL), 0, "UNMAP_FA");
	TEST_ASSERT_EQUAL(dev->fw_state, MT25208_FW_BOOT, "back to boot firmware");
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* MPT / MTT                                                           */

/* MPT mailbox (struct mthca_mpt_entry). */
static uint64_t
mpt_mbox(uint32_t flags, uint32_t key, uint32_t pd, uint64_t start, uint64_t len,
	 uint64_t mtt)
{
	uint64_t mb = host_alloc(4096);
	uint8_t *m = hp(mb);

	mt_put32(m, 0x00, 0xf0000000u | MT_MPT_FLAG_MIO | MT_MPT_FLAG_REGION | flags);
	mt_put32(m, 0x04, 0);
	mt_put32(m, 0x08, key);
	mt_put32(m, 0x0c, pd);
	mt_put64(m, 0x10, start);
	mt_put64(m, 0x18, len);
	mt_put64(m, 0x2c, mtt);
	return mb;
}

static int
test_mpt(void)
{
	uint64_t buf = host_alloc(3 * 4096), mb, out = host_alloc(4096), mtt_mb;
	uint8_t data[64], back[64];
	uint32_t key = 0x01000020, lkey;	/* tag 1, slot 32 */
	uint8_t *p;
	unsigned int i;

	/* Physical MR (the driver's ntmr shape): slot 16, key = 16. */
	mb = mpt_mbox(MT_MPT_FLAG_PHYSICAL | MT_MPT_FLAG_LOCAL_READ | MT_MPT_FLAG_LOCAL_WRITE,
		      16, 1, 0, ~0ull, 0);
	TEST_ASSERT_EQUAL(cmd(MT_OP_SW2HW_MPT, 0, mb, 16, 0, NULL), 0, "SW2HW_MPT ntmr");
	TEST_ASSERT_EQUAL(cmd(MT_OP_SW2HW_MPT, 0, mb, 16, 0, NULL), MT_STAT_BAD_RES_STATE,
			  "SW2HW_MPT twice");
	/* In ICM: status nibble hardware (0), the rest as written. */
	p = hp(icm_mem + ICM_MPT + 16 * 64);
	TEST_ASSERT_EQUAL(mt_get32(p, 0) >> 28, 0, "ICM MPT owned by HW");
	TEST_ASSERT_EQUAL(mt_get32(p, 8), 16, "ICM MPT key");
	/* lkey = rotl8(16) = 0x1000 (arbel_key_to_hw_index()): a bus address reads the host. */
	host[0x123] = 0x5a;
	p = mt25208_mr_translate(dev, 0x1000, MT25208_PD_ANY, HOST_IOVA + 0x123, 1, false);
	TEST_ASSERT(p == host + 0x123, "physical translation");
	TEST_ASSERT(mt25208_mr_translate(dev, 0x1001, MT25208_PD_ANY, HOST_IOVA, 1, false) == NULL,
		    "lkey with the wrong tag");
	/* a CQ's or EQ's context PD must be the PD of its L_Key (PRM cqc.pd, eqc.pd) */
	TEST_ASSERT(mt25208_mr_translate(dev, 0x1000, 1, HOST_IOVA, 1, true) == host,
		    "the region's own PD translates");
	TEST_ASSERT(mt25208_mr_translate(dev, 0x1000, 2, HOST_IOVA, 1, true) == NULL,
		    "another PD is refused");
	TEST_ASSERT_EQUAL(cmd(MT_OP_SW2HW_MPT, 0, mb, 0, 0, NULL), MT_STAT_BAD_RESOURCE,
			  "reserved MPT 0");
	TEST_ASSERT_EQUAL(cmd(MT_OP_SW2HW_MPT, 0, mb, 64, 0, NULL), MT_STAT_BAD_INDEX,
			  "MPT 64 of 64");
	TEST_ASSERT_EQUAL(cmd(MT_OP_SW2HW_MPT, 0, mb, 17, 0, NULL), MT_STAT_BAD_PARAM,
			  "key 16 written at index 17");

	/* MTT MR over 3 pages at IOVA 0, read-only, key tag 1 slot 32. */
	mtt_mb = host_alloc(4096);
	mt_put64(hp(mtt_mb), 0x00, ICM_MTT + 64);	/* segment 1 */
	for (i = 0; i < 4; i++)
		mt_put64(hp(mtt_mb), 0x10 + 8 * i, i < 3 ? (buf + 4096 * (2 - i)) | 1 : 0);
	TEST_ASSERT_EQUAL(cmd(MT_OP_WRITE_MTT, 0, mtt_mb, 4, 0, NULL), 0, "WRITE_MTT");
	TEST_ASSERT_EQUAL(mt_get64(hp(icm_mem + ICM_MTT + 64), 0), (buf + 8192) | 1,
			  "MTT entry 0 in ICM");
	TEST_ASSERT_EQUAL(cmd(MT_OP_WRITE_MTT, 0, mtt_mb, 0, 0, NULL), MT_STAT_BAD_PARAM,
			  "WRITE_MTT with 0 entries");
	/* the MTT table ends where the next table (MCG at 0x9000) starts: nothing written */
	{
		uint64_t over = host_alloc(4096);
		uint8_t mcg0[16];

		memcpy(mcg0, hp(icm_mem + ICM_MCG), sizeof(mcg0));
		mt_put64(hp(over), 0x00, ICM_MCG - 8);
		mt_put64(hp(over), 0x10, buf | 1);
		mt_put64(hp(over), 0x18, buf | 1);
		TEST_ASSERT_EQUAL(cmd(MT_OP_WRITE_MTT, 0, over, 2, 0, NULL), MT_STAT_BAD_PARAM,
				  "WRITE_MTT across the MTT table's end");
		TEST_ASSERT_BUFFERS_EQUAL(hp(icm_mem + ICM_MCG), mcg0, sizeof(mcg0),
					  "MCG table untouched");
	}
	mb = mpt_mbox(MT_MPT_FLAG_LOCAL_READ, key, 3, 0, 3 * 4096, ICM_MTT + 64);
	TEST_ASSERT_EQUAL(cmd(MT_OP_SW2HW_MPT, 0, mb, 32, 0, NULL), 0, "SW2HW_MPT MTT");
	lkey = mt_index_to_key(key);
	TEST_ASSERT_EQUAL(lkey, 0x00002001, "lkey = rotl8(0x01000020)");
	/* VA 0x0ff0..0x1030 spans MTT pages 0 and 1 = host pages 2 and 1. */
	for (i = 0; i < 64; i++)
		data[i] = (uint8_t)i;
	memcpy(hp(buf + 8192) + 0xff0, data, 16);
	memcpy(hp(buf + 4096), data + 16, 48);
	TEST_ASSERT_EQUAL(mt25208_mr_access(dev, lkey, 3, 0xff0, back, 64, false), 0,
			  "read across MTT pages");
	TEST_ASSERT_BUFFERS_EQUAL(back, data, 64, "gathered bytes");
	TEST_ASSERT_EQUAL(mt25208_mr_access(dev, lkey, 3, 0xff0, back, 64, true), -EACCES,
			  "write to a read-only MR");
	TEST_ASSERT_EQUAL(mt25208_mr_access(dev, lkey, 4, 0xff0, back, 64, false), -EACCES,
			  "PD mismatch");
	TEST_ASSERT_EQUAL(mt25208_mr_access(dev, lkey, 3, 3 * 4096 - 8, back, 16, false),
			  -EACCES, "beyond the MR length");
	TEST_ASSERT(mt25208_mr_translate(dev, lkey, MT25208_PD_ANY, 0xff0, 64, false) == NULL,
		    "not contiguous: translate refuses");
	TEST_ASSERT(mt25208_mr_translate(dev, lkey, MT25208_PD_ANY, 0x1000, 64, false) == hp(buf + 4096),
		    "contiguous piece");
	/*
	 * The translation cache (struct mt25208_tc) holds this MPT now. A
	 * hit still reads the live entry's status and key: a driver that
	 * rewrites the key in ICM (an FMR remap, no command) is not served
	 * from the cache; the old key works again once the key is back.
	 */
	p = mt25208_mpt(dev, 32);
	mt_put32(p, 8, key + 0x01000000);
	TEST_ASSERT(mt25208_mr_translate(dev, lkey, MT25208_PD_ANY, 0x1000, 8, false) == NULL,
		    "cached L_Key refused after the key changed in ICM");
	TEST_ASSERT(mt25208_mr_translate(dev, mt_index_to_key(key + 0x01000000), MT25208_PD_ANY, 0x1000, 8,
					 false) == hp(buf + 4096), "the new key translates");
	mt_put32(p, 8, key);
	TEST_ASSERT(mt25208_mr_translate(dev, lkey, MT25208_PD_ANY, 0x1000, 8, false) == hp(buf + 4096),
		    "the old key again");
	/* an MTT entry rewritten in ICM is seen after a command (SYNC_TPT flushes) */
	mt_put64(mt25208_icm_ptr(dev, ICM_MTT + 64 + 8, 8), 0, (buf + 8192) | 1);
	TEST_ASSERT_EQUAL(cmd(MT_OP_SYNC_TPT, 0, 0, 0, 0, NULL), 0, "SYNC_TPT");
	TEST_ASSERT(mt25208_mr_translate(dev, lkey, MT25208_PD_ANY, 0x1000, 8, false) == hp(buf + 8192),
		    "new MTT entry after SYNC_TPT");

	/* HW2SW_MPT with an output mailbox (op_mod 0) returns the entry, SW-owned. */
	TEST_ASSERT_EQUAL(cmd(MT_OP_HW2SW_MPT, 0, 0, 32, out, NULL), 0, "HW2SW_MPT");
	TEST_ASSERT_EQUAL(mt_get32(hp(out), 0) >> 28, 0xf, "returned SW-owned");
	TEST_ASSERT_EQUAL(mt_get32(hp(out), 8), key, "returned key");
	TEST_ASSERT(mt25208_mr_translate(dev, lkey, MT25208_PD_ANY, 0x1000, 8, false) == NULL,
		    "no access after HW2SW");
	TEST_ASSERT_EQUAL(cmd(MT_OP_HW2SW_MPT, 1, 0, 32, 0, NULL), MT_STAT_BAD_RES_STATE,
			  "HW2SW_MPT twice");
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* EQ / CQ and event-mode commands                                      */

static uint64_t eq_buf;
static uint32_t eq_pd = 1;	/* the EQC pd make_eq_sz() writes; MR slot 20 is in PD 1 */

/* EQ 4 with 8 EQEs at IOVA 0 of MR slot 20 (physical: IOVA = bus address). */
static int
make_eq_sz(uint8_t eqn, uint8_t intr, uint8_t log_size)
{
	uint64_t mb;
	uint8_t *c;
	unsigned int i;
	int st;

	eq_buf = host_alloc(4096);
	for (i = 0; i < 8; i++)
		hp(eq_buf)[32 * i + 31] = 0x80;
	mb = mpt_mbox(MT_MPT_FLAG_PHYSICAL | MT_MPT_FLAG_LOCAL_READ | MT_MPT_FLAG_LOCAL_WRITE,
		      20, 1, 0, ~0ull, 0);
	/* The first EQ creates the MR; later ones find it in place (0x09). */
	st = cmd(MT_OP_SW2HW_MPT, 0, mb, 20, 0, NULL);
	if (st != 0 && st != MT_STAT_BAD_RES_STATE)
		return -1;
	mb = host_alloc(4096);
	c = hp(mb);
	/* struct mthca_eq_context: status OK, owner HW, TR, armed + Arbel marker = 0x01040900. */
	mt_put32(c, 0x00, 0x01040900);
	mt_put64(c, 0x04, eq_buf);
	mt_put32(c, 0x0c, (uint32_t)log_size << 24);
	c[0x17] = intr;
	mt_put32(c, 0x18, eq_pd);
	mt_put32(c, 0x1c, mt_index_to_key(20));
	return cmd(MT_OP_SW2HW_EQ, 0, mb, eqn, 0, NULL);
}

static int
make_eq(uint8_t eqn, uint8_t intr)
{
	return make_eq_sz(eqn, intr, 3);
}

static int
test_eq_and_event_mode(void)
{
	uint64_t out = host_alloc(4096), cnt, buf6;
	const uint8_t *e;
	uint8_t exp[32];
	int efd;

	efd = eventfd(0, EFD_NONBLOCK);
	TEST_ASSERT(efd >= 0, "eventfd");
	dev->vec_fd[2] = efd;	/* MSI-X vector 2 = intr 0x82 */
	/* the model's EQ limit is 2^20 entries (QUERY_DEV_LIM log_max_eq_sz) */
	TEST_ASSERT_EQUAL(make_eq_sz(6, 0x82, 21), MT_STAT_EXCEED_LIM, "SW2HW_EQ of 2^21 EQEs");
	TEST_ASSERT_EQUAL(make_eq(6, 0x82), 0, "SW2HW_EQ 6");
	buf6 = eq_buf;
	TEST_ASSERT_EQUAL(make_eq(6, 0x82), MT_STAT_BAD_RES_STATE, "SW2HW_EQ 6 twice");
	TEST_ASSERT_EQUAL(make_eq(2, 0x82), MT_STAT_BAD_RESOURCE, "reserved EQ 2");
	TEST_ASSERT_EQUAL(make_eq(32, 0x82), MT_STAT_BAD_INDEX, "EQ 32 of 32");
	TEST_ASSERT_EQUAL(cmd(MT_OP_MAP_EQ, 0, 0x400, 7, 0, NULL), MT_STAT_BAD_RES_STATE,
			  "MAP_EQ on a software-owned EQ");
	TEST_ASSERT_EQUAL(cmd(MT_OP_MAP_EQ, 0, 0x400, 6, 0, NULL), 0, "MAP_EQ command events");

	/* Event-driven NOP (mthca_cmd_event()): GO clears, then an EQE with the token. */
	TEST_ASSERT_EQUAL(cmd_ev(MT_OP_NOP, 0, 0, 0x1f, 0, NULL, true, 0x1235), 0, "NOP");
	e = hp(buf6);
	memset(exp, 0, sizeof(exp));
	exp[0x01] = 0x0a;		/* command completion */
	exp[0x06] = 0x12;
	exp[0x07] = 0x35;		/* token */
	exp[0x0f] = 0;			/* status */
	exp[0x1f] = 0x00;		/* software owns */
	TEST_ASSERT_BUFFERS_EQUAL(e, exp, 32, "command EQE");
	TEST_ASSERT_EQUAL(read(efd, &cnt, sizeof(cnt)), sizeof(cnt), "interrupt raised");
	TEST_ASSERT_EQUAL(cnt, 1, "one interrupt");

	/* Event-driven SET_ICM_SIZE after INIT_HCA: error status 0x04 and no output. */
	TEST_ASSERT_EQUAL(cmd_ev(MT_OP_SET_ICM_SIZE, 0, 0x10000, 0, 0, NULL, true, 0x0001),
			  MT_STAT_BAD_SYS_STATE, "HCR status also written");
	e = hp(buf6) + 32;
	TEST_ASSERT_EQUAL(e[0x01], 0x0a, "second EQE type");
	TEST_ASSERT_EQUAL(mt_get16(e, 0x06), 1, "second token");
	TEST_ASSERT_EQUAL(e[0x0f], MT_STAT_BAD_SYS_STATE, "status in the EQE");
	/* Fired: no interrupt until re-armed (arbel_eq_req_not()). */
	TEST_ASSERT(read(efd, &cnt, sizeof(cnt)) < 0, "no second interrupt while not armed");
	/* Set CI = 2, arm EQ 6 at EQ_ARM + 4. */
	mt_put32(bar0 + MT_BAR0_EQ_SET_CI + 8 * 6, 0, 2);
	mt_put32(bar0 + MT_BAR0_EQ_ARM + 4, 0, 1u << 6);
	TEST_ASSERT(mt25208_poll(dev), "arm write seen");
	TEST_ASSERT_EQUAL(cmd_ev(MT_OP_NOP, 0, 0, 0x1f, 0, NULL, true, 0x0002), 0, "NOP");
	TEST_ASSERT_EQUAL(read(efd, &cnt, sizeof(cnt)), sizeof(cnt), "interrupt after arm");

	/* HW2SW_EQ returns the context with the live producer index (3). */
	TEST_ASSERT_EQUAL(cmd(MT_OP_HW2SW_EQ, 0, 0, 6, out, NULL), 0, "HW2SW_EQ");
	TEST_ASSERT_EQUAL(mt_get32(hp(out), 0x2c), 3, "producer index");
	TEST_ASSERT_EQUAL(mt_get32(hp(out), 0x28), 2, "consumer index from set-CI");
	TEST_ASSERT_EQUAL(mt_get32(hp(out), 0x1c), mt_index_to_key(20), "lkey");
	TEST_ASSERT_EQUAL(cmd(MT_OP_HW2SW_EQ, 0, 0, 6, out, NULL), MT_STAT_BAD_RES_STATE,
			  "HW2SW_EQ twice");
	dev->vec_fd[2] = -1;
	close(efd);
	return TEST_SUCCESS;
}

/*
 * An EQ of 2^n entries holds 2^n - 1 EQEs (the CQ's rule, the model's
 * choice for the EQ: mthca_hw.rst, "Completions and events"): with the
 * consumer index left at 0, the 8th event of an 8-entry EQ overflows it.
 * An EQ whose context PD is not its region's gets no EQE at all and
 * counts check eq_pd (PRM eqc.pd).
 */
static int
test_eq_bound_and_pd(void)
{
	uint64_t out = host_alloc(4096), chk = dev->checks[MT25208_CHK_EQ_PD];
	unsigned int i;

	TEST_ASSERT_EQUAL(make_eq(7, 0x83), 0, "EQ 7 of 8 entries");
	for (i = 0; i < 7; i++)
		TEST_ASSERT_EQUAL(mt25208_eq_post(dev, 7, 0x0a, 0, NULL), 0, "EQE %u", i);
	TEST_ASSERT_EQUAL(hp(eq_buf)[6 * 32 + 31], 0x00, "EQE 6 written");
	TEST_ASSERT_EQUAL(mt25208_eq_post(dev, 7, 0x0a, 0, NULL), -ENOSPC,
			  "the 8th EQE overflows");
	TEST_ASSERT_EQUAL(hp(eq_buf)[7 * 32 + 31], 0x80, "slot 7 still the HCA's");
	TEST_ASSERT_EQUAL(cmd(MT_OP_HW2SW_EQ, 0, 0, 7, out, NULL), 0, "HW2SW_EQ 7");
	TEST_ASSERT_EQUAL(mt_get32(hp(out), 0x00) >> 28, MT_EQ_STATUS_OVERFLOW, "overflow status");
	/* a new EQ on the number starts from its context's consumer index, not the register's */
	mt_put32(bar0 + MT_BAR0_EQ_SET_CI + 8 * 7, 0, 5);
	TEST_ASSERT_EQUAL(make_eq(7, 0x83), 0, "EQ 7 again");
	TEST_ASSERT_EQUAL(mt25208_eq_post(dev, 7, 0x0a, 0, NULL), 0, "EQE 0 of the new EQ");
	TEST_ASSERT_EQUAL(cmd(MT_OP_HW2SW_EQ, 0, 0, 7, out, NULL), 0, "HW2SW_EQ 7");

	eq_pd = 2;
	TEST_ASSERT_EQUAL(make_eq(7, 0x83), 0, "EQ 7 in PD 2, its MR in PD 1");
	eq_pd = 1;
	TEST_ASSERT_EQUAL(mt25208_eq_post(dev, 7, 0x0a, 0, NULL), -EFAULT, "no EQE");
	TEST_ASSERT_EQUAL(hp(eq_buf)[31], 0x80, "slot 0 untouched");
	TEST_ASSERT_EQUAL(dev->checks[MT25208_CHK_EQ_PD], chk + 1, "counted as eq_pd");
	TEST_ASSERT_EQUAL(cmd(MT_OP_HW2SW_EQ, 0, 0, 7, out, NULL), 0, "HW2SW_EQ 7");
	TEST_ASSERT_EQUAL(mt_get32(hp(out), 0x00) >> 28, MT_EQ_STATUS_WRITE_FAIL,
			  "write failure status");
	return TEST_SUCCESS;
}

static uint64_t
cq_mbox(uint32_t eqn)
{
	uint64_t mb = host_alloc(4096);
	uint8_t *c = hp(mb);

	mt_put32(c, 0x00, 0x00040000);
	mt_put32(c, 0x0c, (4u << 24) | 1);	/* 16 CQEs, UAR 1 */
	mt_put32(c, 0x10, eqn);
	mt_put32(c, 0x14, eqn);
	mt_put32(c, 0x18, 1);
	mt_put32(c, 0x1c, 0x1000);
	mt_put32(c, 0x30, 0x20);
	mt_put32(c, 0x34, 511);
	mt_put32(c, 0x38, 0);
	return mb;
}

static int
test_cq(void)
{
	uint64_t out = host_alloc(4096), mb, rmb = host_alloc(4096);

	TEST_ASSERT_EQUAL(make_eq(4, 0x80), 0, "EQ 4");
	TEST_ASSERT_EQUAL(cmd(MT_OP_SW2HW_CQ, 0, cq_mbox(9), 0x20, 0, NULL), MT_STAT_BAD_PARAM,
			  "completion EQ 9 not live");
	TEST_ASSERT_EQUAL(cmd(MT_OP_SW2HW_CQ, 0, cq_mbox(4), 3, 0, NULL), MT_STAT_BAD_RESOURCE,
			  "reserved CQ 3");
	/* c_eqn outside 0..63 is legal: a CQ without completion events (PRM c_eqn) */
	TEST_ASSERT_EQUAL(cmd(MT_OP_SW2HW_CQ, 0, cq_mbox(64), 0x21, 0, NULL), 0,
			  "c_eqn 64: a poll-only CQ");
	TEST_ASSERT_EQUAL(cmd(MT_OP_HW2SW_CQ, 0, 0, 0x21, out, NULL), 0, "HW2SW_CQ 0x21");
	TEST_ASSERT_EQUAL(cmd(MT_OP_SW2HW_CQ, 0, cq_mbox(0xff), 0x21, 0, NULL), 0,
			  "c_eqn 255: a poll-only CQ");
	TEST_ASSERT_EQUAL(cmd(MT_OP_HW2SW_CQ, 0, 0, 0x21, out, NULL), 0, "HW2SW_CQ 0x21");
	mb = cq_mbox(4);
	mt_put32(hp(mb), 0x0c, (18u << 24) | 1);	/* log_max_cq_sz is 17 */
	TEST_ASSERT_EQUAL(cmd(MT_OP_SW2HW_CQ, 0, mb, 0x20, 0, NULL), MT_STAT_EXCEED_LIM,
			  "SW2HW_CQ of 2^18 CQEs");
	mt_put32(hp(mb), 0x0c, (4u << 24) | 2);		/* INIT_HCA made 2 UARs */
	TEST_ASSERT_EQUAL(cmd(MT_OP_SW2HW_CQ, 0, mb, 0x20, 0, NULL), MT_STAT_BAD_PARAM,
			  "SW2HW_CQ on UAR 2 of 2");
	mb = cq_mbox(4);
	TEST_ASSERT_EQUAL(cmd(MT_OP_SW2HW_CQ, 0, mb, 0x20, 0, NULL), 0, "SW2HW_CQ 0x20");
	TEST_ASSERT(mt25208_cq_get(dev, 0x20) == hp(icm_mem + ICM_CQC + 0x20 * 64),
		    "CQC in ICM at base + 0x20 * 64");
	TEST_ASSERT_BUFFERS_EQUAL(mt25208_cq_get(dev, 0x20), hp(mb), 64, "CQC bytes");
	TEST_ASSERT_EQUAL(cmd(MT_OP_SW2HW_CQ, 0, mb, 0x20, 0, NULL), MT_STAT_BAD_RES_STATE,
			  "SW2HW_CQ twice");
	/* RESIZE_CQ (mthca_RESIZE_CQ()): log size 6, new lkey. */
	mt_put8(hp(rmb), 0x0c, 6);
	mt_put32(hp(rmb), 0x1c, 0x2000);
	TEST_ASSERT_EQUAL(cmd(MT_OP_RESIZE_CQ, 0, rmb, 0x20, 0, NULL), MT_STAT_BAD_PARAM,
			  "RESIZE_CQ op_mod 0");
	mt_put8(hp(rmb), 0x0c, 18);
	TEST_ASSERT_EQUAL(cmd(MT_OP_RESIZE_CQ, 1, rmb, 0x20, 0, NULL), MT_STAT_EXCEED_LIM,
			  "RESIZE_CQ to 2^18 CQEs");
	mt_put8(hp(rmb), 0x0c, 6);
	TEST_ASSERT_EQUAL(cmd(MT_OP_RESIZE_CQ, 1, rmb, 0x20, 0, NULL), 0, "RESIZE_CQ");
	TEST_ASSERT_EQUAL(cmd(MT_OP_QUERY_CQ, 0, 0, 0x20, out, NULL), 0, "QUERY_CQ");
	TEST_ASSERT_EQUAL(mt_get32(hp(out), 0x0c), (6u << 24) | 1, "new log size, same UAR");
	TEST_ASSERT_EQUAL(mt_get32(hp(out), 0x1c), 0x2000, "new lkey");
	TEST_ASSERT_EQUAL(cmd(MT_OP_HW2SW_CQ, 0, 0, 0x20, out, NULL), 0, "HW2SW_CQ");
	TEST_ASSERT(mt25208_cq_get(dev, 0x20) == NULL, "not hardware-owned any more");
	TEST_ASSERT_EQUAL(cmd(MT_OP_HW2SW_CQ, 0, 0, 0x20, out, NULL), MT_STAT_BAD_RES_STATE,
			  "HW2SW_CQ twice");
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* QPs                                                                 */

static uint64_t
qp_mbox(uint32_t optmask, uint8_t state, uint8_t st, uint32_t qpn, uint8_t port,
	uint8_t pkey_ix, uint32_t qkey)
{
	uint64_t mb = host_alloc(4096);
	uint8_t *m = hp(mb), *q = m + 8;

	mt_put32(m, 0, optmask);
	/* struct mthca_qp_context: state, ST, PM migrated (3 << 11), DE (bit 8). */
	mt_put32(q, 0x00, (uint32_t)state << 28 | (uint32_t)st << 16 | 3u << 11 | 1u << 8);
	q[0x08] = 0x8b;				/* MTU 2048, msg max 2 KiB */
	q[0x09] = (4 << 3) | 2;			/* 16 RQ WQEs of 64 bytes */
	q[0x0a] = (4 << 3) | 2;
	mt_put32(q, 0x0c, 1);
	mt_put32(q, 0x10, qpn);
	mt_put32(q, 0x20, (uint32_t)port << 24 | pkey_ix);
	mt_put32(q, 0x64, 1);
	mt_put32(q, 0x6c, 0x1000);
	mt_put32(q, 0x7c, 0x20);
	mt_put32(q, 0x9c, 0x20);
	mt_put32(q, 0xa8, qkey);
	return mb;
}

static int
test_qp_transitions(void)
{
	uint64_t out = host_alloc(4096), mb;
	uint8_t *q;

	TEST_ASSERT_EQUAL(cmd(MT_OP_CONF_SPECIAL_QP, 0, 0, 16, 0, NULL), 0, "QP0 at 16");
	TEST_ASSERT_EQUAL(cmd(MT_OP_CONF_SPECIAL_QP, 1, 0, 17, 0, NULL), MT_STAT_BAD_PARAM,
			  "QP1 pair overlapping QP0's");
	TEST_ASSERT_EQUAL(cmd(MT_OP_CONF_SPECIAL_QP, 1, 0, 18, 0, NULL), 0, "QP1 at 18");
	TEST_ASSERT_EQUAL(cmd(MT_OP_CONF_SPECIAL_QP, 2, 0, 20, 0, NULL), MT_STAT_BAD_PARAM,
			  "raw IPv6 QPs not supported");
	TEST_ASSERT_EQUAL(mt25208_sqp_qpn(dev, MT_SQP_GSI, 2), 19, "QP1 of port 2");

	/* UD QP 0x28: RESET->INIT with PKEY_INDEX|Q_KEY|PORT (optmask 0x830, MTHCA_QP_OPTPAR_*). */
	TEST_ASSERT_EQUAL(cmd(MT_OP_RST2INIT, 0, qp_mbox(0x830, 1, 3, 0x28, 3, 0, 0x11111111),
			      0x28, 0, NULL), MT_STAT_BAD_PARAM, "port 3 of 2");
	TEST_ASSERT_EQUAL(cmd(MT_OP_RST2INIT, 0, qp_mbox(0x830, 1, 7, 0x28, 1, 0, 0), 0x28, 0,
			      NULL), MT_STAT_BAD_PARAM, "MLX on a normal QP");
	TEST_ASSERT_EQUAL(cmd(MT_OP_RST2INIT, 0, qp_mbox(0x830, 1, 3, 0x28, 1, 64, 0x11111111),
			      0x28, 0, NULL), MT_STAT_BAD_PARAM, "P_Key index 64 of a 64-entry table");
	TEST_ASSERT_EQUAL(cmd(MT_OP_RST2INIT, 0, qp_mbox(0x830, 1, 3, 0x28, 1, 2, 0x11111111),
			      0x28, 0, NULL), 0, "RST2INIT");
	TEST_ASSERT_EQUAL(cmd(MT_OP_RTR2RTS, 0, qp_mbox(0, 3, 3, 0x28, 1, 0, 0), 0x28, 0, NULL),
			  MT_STAT_BAD_QP_STATE, "RTR2RTS from INIT");
	/*
	 * INIT->RTR with optmask 0 and Q_Key 0 in the mailbox: Q_Key, P_Key
	 * index, port stay. The service type is set at RST2INIT: a later
	 * mailbox's (here 0, RC, as in iPXE's near-empty INIT2RTR) is not
	 * read (mthca_hw.rst, "QP transitions"); the QP stays UD.
	 */
	TEST_ASSERT_EQUAL(cmd(MT_OP_INIT2RTR, 0, qp_mbox(0, 2, 0, 0x28, 0, 0, 0), 0x28, 0, NULL),
			  0, "INIT2RTR, mailbox service type RC");
	TEST_ASSERT_EQUAL(mt_qpc_st(mt25208_qpc(dev, 0x28)), MT_QP_ST_UD, "still UD");
	mb = qp_mbox(0, 3, 3, 0x28, 0, 0, 0);
	mt_put32(hp(mb) + 8, 0x78, 0x123456);	/* next send PSN */
	TEST_ASSERT_EQUAL(cmd(MT_OP_RTR2RTS, 0, mb, 0x28, 0, NULL), 0, "RTR2RTS");
	TEST_ASSERT_EQUAL(cmd(MT_OP_QUERY_QP, 0, 0, 0x28, out, NULL), 0, "QUERY_QP");
	q = hp(out) + 8;
	TEST_ASSERT_EQUAL(mt_get32(q, 0x00), 0x30031900, "RTS, UD, PM migrated, DE");
	TEST_ASSERT_EQUAL(mt_get32(q, 0xa8), 0x11111111, "Q_Key kept from RST2INIT");
	TEST_ASSERT_EQUAL(mt_get32(q, 0x20), 0x01000002, "port 1, P_Key index 2 kept");
	TEST_ASSERT_EQUAL(mt_get32(q, 0x78), 0x123456, "SQ PSN");
	TEST_ASSERT_EQUAL(mt_get32(hp(out), 0), 0, "optmask word zero");
	/* RTS->RTS with Q_KEY optpar changes the Q_Key. */
	TEST_ASSERT_EQUAL(cmd(MT_OP_RTS2RTS, 0, qp_mbox(0x20, 3, 3, 0x28, 0, 0, 0x22222222),
			      0x28, 0, NULL), 0, "RTS2RTS");
	TEST_ASSERT_EQUAL(mt_qpc_qkey(mt25208_qpc(dev, 0x28)), 0x22222222, "new Q_Key");
	/* 2ERR, then ERR2RST writing the context (op_mod 2). */
	TEST_ASSERT_EQUAL(cmd(MT_OP_2ERR, 0, qp_mbox(0, 6, 3, 0x28, 0, 0, 0), 0x28, 0, NULL), 0,
			  "2ERR");
	TEST_ASSERT_EQUAL(mt_qpc_state(mt25208_qpc(dev, 0x28)), MT_QPS_ERR, "ERR");
	TEST_ASSERT_EQUAL(cmd(MT_OP_ERR2RST, 5, 0, 0x28, out, NULL), MT_STAT_BAD_PARAM,
			  "ERR2RST op_mod 5");
	memset(hp(out), 0xee, 0x200);
	TEST_ASSERT_EQUAL(cmd(MT_OP_ERR2RST, 2, 0, 0x28, out, NULL), 0, "ERR2RST");
	TEST_ASSERT_EQUAL(mt_get32(hp(out) + 8, 0x00) >> 28, MT_QPS_RESET, "RESET in mbox");
	TEST_ASSERT_EQUAL(mt_get32(hp(out) + 8, 0xa8), 0x22222222, "context written out");
	TEST_ASSERT_EQUAL(cmd(MT_OP_INIT2RTR, 0, qp_mbox(0, 2, 3, 0x28, 0, 0, 0), 0x28, 0, NULL),
			  MT_STAT_BAD_QP_STATE, "INIT2RTR from RESET");
	/* Special QP 16 (QP0 of port 1): MLX, its own port only. */
	TEST_ASSERT_EQUAL(cmd(MT_OP_RST2INIT, 0, qp_mbox(0x30, 1, 7, 16, 2, 0, 0), 16, 0, NULL),
			  MT_STAT_BAD_PARAM, "QP0 of port 1 on port 2");
	TEST_ASSERT_EQUAL(cmd(MT_OP_RST2INIT, 0, qp_mbox(0x30, 1, 7, 16, 1, 0, 0), 16, 0, NULL),
			  0, "QP0 RST2INIT");
	TEST_ASSERT_EQUAL(cmd(MT_OP_RST2INIT, 0, qp_mbox(0x830, 1, 3, 5, 1, 0, 0), 5, 0, NULL),
			  MT_STAT_BAD_RESOURCE, "reserved QP 5");
	return TEST_SUCCESS;
}

/*
 * mthca_hw.rst "QP transitions": RST2INIT takes the whole context
 * but local_qpn, which is "valid for QUERY and ERR2RST only" (PRM
 * arbelprm_queue_pair_ee_context_entry_st): a mailbox with 0 there is
 * taken, the QPN is the input modifier's. A later transition takes only
 * what the IBA requires (UD RTR2RTS: the SQ PSN) and what optparam names:
 * a mailbox of 0xff bytes changes nothing else. log_sq_size is 4
 * bits, so a size byte 0x80 | stride (2^16 entries) decodes as one entry.
 */
static int
test_qp_strict_transitions(void)
{
	uint64_t out = host_alloc(4096), mb;
	uint8_t before[MT_QPC_SIZE], *q;

	mb = qp_mbox(0x830, 1, 3, 0, 1, 2, 0x11111111);
	TEST_ASSERT_EQUAL(cmd(MT_OP_RST2INIT, 0, mb, 0x2a, 0, NULL), 0, "RST2INIT, local_qpn 0");
	TEST_ASSERT_EQUAL(cmd(MT_OP_QUERY_QP, 0, 0, 0x2a, out, NULL), 0, "QUERY_QP");
	TEST_ASSERT_EQUAL(mt_get32(hp(out) + 8, 0x10) & 0xffffff, 0x2a, "local_qpn from in_mod");
	memcpy(before, mt25208_qpc(dev, 0x2a), MT_QPC_SIZE);
	mb = host_alloc(4096);
	memset(hp(mb), 0xff, 0x200);
	mt_put32(hp(mb), 0, 0);			/* no optional parameter */
	TEST_ASSERT_EQUAL(cmd(MT_OP_INIT2RTR, 0, mb, 0x2a, 0, NULL), 0, "INIT2RTR, 0xff mailbox");
	q = mt25208_qpc(dev, 0x2a);
	TEST_ASSERT_EQUAL(mt_qpc_state(q), MT_QPS_RTR, "RTR");
	TEST_ASSERT_BUFFERS_EQUAL(q + 4, before + 4, MT_QPC_SIZE - 4,
				  "UD INIT2RTR takes nothing from the mailbox");
	mt_put32(hp(mb) + 8, 0x78, 0xab000042);
	TEST_ASSERT_EQUAL(cmd(MT_OP_RTR2RTS, 0, mb, 0x2a, 0, NULL), 0, "RTR2RTS, 0xff mailbox");
	TEST_ASSERT_EQUAL(mt_get32(q, 0x78), 0x00000042, "next_send_psn taken, 24 bits");
	mt_put32(q, 0x78, 0);
	TEST_ASSERT_BUFFERS_EQUAL(q + 4, before + 4, MT_QPC_SIZE - 4, "nothing else taken");
	TEST_ASSERT_EQUAL(mt_qpc_cqn_snd(q), 0x20, "send CQN of RST2INIT");
	TEST_ASSERT_EQUAL(mt_qpc_sq_log_size(q), 4, "16 WQEs");
	q[0x0a] = 0x80 | 2;
	TEST_ASSERT_EQUAL(mt_qpc_sq_log_size(q), 0, "log 16 does not fit 4 bits");
	/* RST2INIT of a 2^16-entry SQ (reserved bit 23 set), or 2^15 > DEV_LIM's 2^14: 0x03 */
	mb = qp_mbox(0x830, 1, 3, 0x2c, 1, 0, 0x11111111);
	hp(mb)[8 + 0x0a] = (16 << 3) | 2;
	TEST_ASSERT_EQUAL(cmd(MT_OP_RST2INIT, 0, mb, 0x2c, 0, NULL), MT_STAT_BAD_PARAM,
			  "2^16 SQ WQEs");
	hp(mb)[8 + 0x0a] = (15 << 3) | 2;
	TEST_ASSERT_EQUAL(cmd(MT_OP_RST2INIT, 0, mb, 0x2c, 0, NULL), MT_STAT_BAD_PARAM,
			  "2^15 SQ WQEs, DEV_LIM says 2^14");
	hp(mb)[8 + 0x0a] = (0 << 3) | 2;
	TEST_ASSERT_EQUAL(cmd(MT_OP_RST2INIT, 0, mb, 0x2c, 0, NULL), 0, "a one-entry SQ is legal");
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* MAD_IFC, INIT_IB / CLOSE_IB / SET_IB                                  */

static uint64_t
smp_get(uint16_t attr, uint32_t mod)
{
	uint64_t mb = host_alloc(4096);
	uint8_t *m = hp(mb);

	/* LID-routed SMP Get (IBA 13.4.2, 14.2.1.1). */
	m[0] = 1;
	m[1] = MAD_CLASS_SMI;
	m[2] = 1;
	m[3] = 0x01;
	mt_put64(m, 8, 0x1122334455667788ull);
	mt_put16(m, 16, attr);
	mt_put32(m, 20, mod);
	return mb;
}

static int
test_mad_ifc(void)
{
	uint64_t out = host_alloc(4096), in;
	const uint8_t *r = hp(out), *d = r + 64;

	/* NodeInfo (0x0011) as Linux's mthca_init_node_data asks for it: op_mod 3. */
	TEST_ASSERT_EQUAL(cmd(MT_OP_MAD_IFC, 3, smp_get(0x0011, 0), 1, out, NULL), 0, "NodeInfo");
	TEST_ASSERT_EQUAL(r[3], 0x81, "GetResp");
	TEST_ASSERT_EQUAL(mt_get16(r, 4), 0, "status 0");
	TEST_ASSERT_EQUAL(mt_get64(r, 8), 0x1122334455667788ull, "TID kept");
	TEST_ASSERT_EQUAL(d[2], 1, "NodeType CA");
	TEST_ASSERT_EQUAL(d[3], 2, "NumPorts 2");
	TEST_ASSERT_EQUAL(mt_get64(d, 12), ca->node_guid, "NodeGUID of the fab_node");
	TEST_ASSERT_EQUAL(mt_get16(d, 30), 0x6282, "DeviceID");
	TEST_ASSERT_EQUAL(mt_get32(d, 36) & 0xffffff, 0x0002c9, "VendorID");
	/* PortInfo port 1 before INIT_IB: link disabled, logical Down (__mthca_modify_qp()). */
	/*
	 * mthca_hw.rst "Driver rules": a directed-route Get answered by
	 * MAD_IFC comes back without the D bit (status bit 15): the driver
	 * sets it (Linux mthca_process_mad). The request has hop count 0,
	 * hop pointer 0.
	 */
	in = smp_get(0x0011, 0);
	hp(in)[1] = MAD_CLASS_SMI_DR;
	mt_put16(hp(in), 32, 0xffff);
	mt_put16(hp(in), 34, 0xffff);
	TEST_ASSERT_EQUAL(cmd(MT_OP_MAD_IFC, 3, in, 1, out, NULL), 0, "DR NodeInfo");
	TEST_ASSERT_EQUAL(r[3], 0x81, "DR GetResp");
	TEST_ASSERT_EQUAL(mt_get16(r, 4) & 0x8000, 0, "no D bit from firmware");
	TEST_ASSERT_EQUAL(d[2], 1, "DR NodeType CA");
	TEST_ASSERT_EQUAL(cmd(MT_OP_MAD_IFC, 3, smp_get(0x0015, 1), 1, out, NULL), 0, "PortInfo");
	TEST_ASSERT_EQUAL(d[32] & 0xf, FAB_PORT_DOWN, "PortState Down");
	TEST_ASSERT_EQUAL(d[33] >> 4, FAB_PHYS_DISABLED, "PortPhysicalState Disabled");
	/* Unsupported class (SA, 0x03) from the host: firmware drops it (0x30). */
	in = smp_get(0x0011, 0);
	hp(in)[1] = MAD_CLASS_SA;
	TEST_ASSERT_EQUAL(cmd(MT_OP_MAD_IFC, 3, in, 1, out, NULL), MT_STAT_BAD_PKT, "SA class");
	TEST_ASSERT_EQUAL(cmd(MT_OP_MAD_IFC, 3, smp_get(0x0011, 0), 3, out, NULL),
			  MT_STAT_BAD_PARAM, "port 3");
	TEST_ASSERT_EQUAL(cmd(MT_OP_MAD_IFC, 3, smp_get(0x0011, 0), 1, 0x2000, NULL),
			  MT_STAT_INTERNAL_ERR, "output mailbox outside the windows");
	return TEST_SUCCESS;
}

static int
test_init_close_ib(void)
{
	uint64_t mb = host_alloc(4096), out = host_alloc(4096), sib = host_alloc(4096);
	struct fab_port *p = &ca->ports[1];

	TEST_ASSERT_EQUAL(p->phys_state, FAB_PHYS_DISABLED, "disabled before INIT_IB");
	TEST_ASSERT_EQUAL(sw->ports[1].phys_state, FAB_PHYS_POLLING, "switch side polling");
	/* mthca_INIT_IB(): MTU cap 4 << 12, width 3 << 8, VL cap 4 << 4; 32 GIDs, 64 P_Keys. */
	mt_put32(hp(mb), 0, 4u << 12 | 3u << 8 | 4u << 4);
	mt_put16(hp(mb), 6, 32);
	mt_put16(hp(mb), 10, 64);
	TEST_ASSERT_EQUAL(cmd(MT_OP_INIT_IB, 0, mb, 0, 0, NULL), MT_STAT_BAD_PARAM, "port 0");
	mt_put32(hp(mb), 0, 5u << 12 | 3u << 8 | 4u << 4);
	TEST_ASSERT_EQUAL(cmd(MT_OP_INIT_IB, 0, mb, 1, 0, NULL), MT_STAT_BAD_PARAM,
			  "MTU cap 4096 above DEV_LIM");
	mt_put32(hp(mb), 0, 4u << 12 | 3u << 8 | 4u << 4);
	TEST_ASSERT_EQUAL(cmd(MT_OP_INIT_IB, 0, mb, 1, 0, NULL), 0, "INIT_IB 1");
	TEST_ASSERT_EQUAL(p->phys_state, FAB_PHYS_LINKUP, "LinkUp after INIT_IB");
	TEST_ASSERT_EQUAL(p->state, FAB_PORT_INIT, "logical Init, waiting for the SM");
	TEST_ASSERT_EQUAL(sw->ports[1].state, FAB_PORT_INIT, "switch side Init");
	TEST_ASSERT_EQUAL(cmd(MT_OP_INIT_IB, 0, mb, 1, 0, NULL), 0, "INIT_IB again");
	TEST_ASSERT_EQUAL(cmd(MT_OP_MAD_IFC, 3, smp_get(0x0015, 1), 1, out, NULL), 0, "PortInfo");
	TEST_ASSERT_EQUAL(hp(out)[64 + 32] & 0xf, FAB_PORT_INIT, "PortInfo says Init");
	/* SET_IB (mthca_SET_IB()): capability mask; bad port. */
	mt_put32(hp(sib), 4, 0x02010048);
	TEST_ASSERT_EQUAL(cmd(MT_OP_SET_IB, 0, sib, 3, 0, NULL), MT_STAT_BAD_PARAM, "SET_IB port 3");
	TEST_ASSERT_EQUAL(cmd(MT_OP_SET_IB, 0, sib, 1, 0, NULL), 0, "SET_IB");
	TEST_ASSERT_EQUAL(p->cap_mask, 0x02010048, "CapabilityMask set");
	TEST_ASSERT_EQUAL(cmd(MT_OP_CLOSE_IB, 0, 0, 1, 0, NULL), 0, "CLOSE_IB");
	TEST_ASSERT_EQUAL(p->phys_state, FAB_PHYS_DISABLED, "disabled after CLOSE_IB");
	TEST_ASSERT_EQUAL(sw->ports[1].state, FAB_PORT_DOWN, "switch side Down");
	TEST_ASSERT_EQUAL(cmd(MT_OP_CLOSE_IB, 0, 0, 2, 0, NULL), 0, "CLOSE_IB of a closed port");
	TEST_ASSERT_EQUAL(cmd(MT_OP_CLOSE_IB, 0, 0, 9, 0, NULL), MT_STAT_BAD_PARAM, "port 9");
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Multicast                                                           */

static int
test_mgm(void)
{
	static const uint8_t mgid[16] = {
		0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff,
	};
	uint64_t in = host_alloc(4096), out = host_alloc(4096), imm, h;

	memcpy(hp(in), mgid, 16);
	TEST_ASSERT_EQUAL(cmd(MT_OP_MGID_HASH, 0, in, 0, 0, &imm), 0, "MGID_HASH");
	TEST_ASSERT(imm < 8, "hash below the INIT_HCA hash size 8");
	h = imm;
	/* MGM entry (struct mthca_mgm): no next, the MGID, QPs 0x28 and 0x29. */
	memset(hp(in), 0, 256);
	memcpy(hp(in) + 0x10, mgid, 16);
	mt_put32(hp(in), 0x20, 0x80000028);
	mt_put32(hp(in), 0x24, 0x80000029);
	TEST_ASSERT_EQUAL(cmd(MT_OP_WRITE_MGM, 0, in, (uint32_t)h, 0, NULL), 0, "WRITE_MGM");
	TEST_ASSERT_EQUAL(cmd(MT_OP_READ_MGM, 0, 0, (uint32_t)h, out, NULL), 0, "READ_MGM");
	TEST_ASSERT_BUFFERS_EQUAL(hp(out), hp(in), 256, "MGM round trip");
	TEST_ASSERT(mt25208_mgm_find(dev, mgid) == hp(icm_mem + ICM_MCG + h * 256),
		    "received-multicast lookup finds the bucket");
	TEST_ASSERT_EQUAL(cmd(MT_OP_READ_MGM, 0, 0, 16, out, NULL), MT_STAT_BAD_INDEX,
			  "MGM 16 of 16");
	mt_put32(hp(in), 0x00, 3u << 6);	/* next = 3: a hash bucket, not an AMGM */
	TEST_ASSERT_EQUAL(cmd(MT_OP_WRITE_MGM, 0, in, 9, 0, NULL), MT_STAT_BAD_PARAM,
			  "next pointing into the hash area");
	mt_put32(hp(in), 0x00, 0);
	mt_put32(hp(in), 0x28, 0x01000030);
	TEST_ASSERT_EQUAL(cmd(MT_OP_WRITE_MGM, 0, in, 9, 0, NULL), MT_STAT_BAD_PARAM,
			  "QP slot with reserved bits");
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Reset, catastrophic error, host gone                                 */

static int
test_reset_register(void)
{
	TEST_ASSERT_EQUAL(dev->fw_state, MT25208_FW_HCA, "running");
	/* mthca_reset(): BE32 1 at BAR0 + 0xf0010. */
	mt_put32(bar0 + MT_BAR0_RESET, 0, 1);
	TEST_ASSERT(mt25208_poll(dev), "reset seen");
	TEST_ASSERT_EQUAL(dev->fw_state, MT25208_FW_BOOT, "boot firmware after reset");
	TEST_ASSERT_EQUAL(mt_get32(bar0 + MT_BAR0_RESET, 0), 0, "register reads 0");
	TEST_ASSERT(mt25208_icm_ptr(dev, 0, 8) == NULL, "ICM map gone");
	TEST_ASSERT_EQUAL(dev->nwins, 1, "DMA window kept (IOMMU, not HCA)");
	TEST_ASSERT_EQUAL(bring_up(), 0, "bring-up again after reset");
	return TEST_SUCCESS;
}

static int
test_catas_and_host_gone(void)
{
	uint64_t out = host_alloc(4096);

	TEST_ASSERT_EQUAL(mt_get32(bar0 + MT_BAR0_CATAS, 0), 0, "healthy: buffer reads 0");
	mt25208_catas(dev, MT_CATAS_INTERNAL, "test", 0x1234);
	TEST_ASSERT(mt_get32(bar0 + MT_BAR0_CATAS, 0) != 0, "catastrophic buffer non-zero");
	TEST_ASSERT_EQUAL(cmd(MT_OP_QUERY_ADAPTER, 0, 0, 0, out, NULL), MT_STAT_INTERNAL_ERR,
			  "commands fail after a catastrophic error");
	mt25208_host_gone(dev);
	TEST_ASSERT_EQUAL(dev->nwins, 0, "windows dropped");
	TEST_ASSERT_EQUAL(dev->fw_state, MT25208_FW_BOOT, "power-on state");
	TEST_ASSERT_EQUAL(mt_get32(bar0 + MT_BAR0_CATAS, 0), 0, "buffer cleared");
	TEST_ASSERT_EQUAL(ca->ports[1].phys_state, FAB_PHYS_DISABLED, "port off the fabric");
	return TEST_SUCCESS;
}

static struct unit_test_suite mt25208_cmd_suite = {
	.suite_name = "ibfabric MT25208 firmware commands",
	.unit_test_cases = {
		TEST_CASE_ST(setup, teardown, test_query_fw),
		TEST_CASE_ST(setup, teardown, test_state_machine),
		TEST_CASE_ST(setup, teardown, test_query_dev_lim),
		TEST_CASE_ST(setup, teardown, test_init_hca_errors),
		TEST_CASE_ST(setup, teardown, test_init_hca_fields),
		TEST_CASE_ST(setup, teardown, test_init_hca_uarc_pages),
		TEST_CASE_ST(setup, teardown, test_more_errors),
		TEST_CASE_ST(setup_up, teardown, test_more_errors_hca),
		TEST_CASE_ST(setup_up, teardown, test_query_adapter),
		TEST_CASE_ST(setup_up, teardown, test_teardown_sequence),
		TEST_CASE_ST(setup_up, teardown, test_mpt),
		TEST_CASE_ST(setup_up, teardown, test_eq_and_event_mode),
		TEST_CASE_ST(setup_up, teardown, test_cq),
		TEST_CASE_ST(setup_up, teardown, test_eq_bound_and_pd),
		TEST_CASE_ST(setup_up, teardown, test_qp_transitions),
		TEST_CASE_ST(setup_up, teardown, test_mad_ifc),
		TEST_CASE_ST(setup_up, teardown, test_init_close_ib),
		TEST_CASE_ST(setup_up, teardown, test_mgm),
		TEST_CASE_ST(setup_up, teardown, test_qp_strict_transitions),
		TEST_CASE_ST(setup_up, teardown, test_reset_register),
		TEST_CASE_ST(setup_up, teardown, test_catas_and_host_gone),
		TEST_CASES_END(),
	},
};

int
main(void)
{
	/* The model logs every refused command; the cases check the statuses. */
	fab_log_level = -1;
	return unit_test_suite_runner(&mt25208_cmd_suite);
}
