/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * libFuzzer target: arbitrary firmware commands into ibfabric's MT25208
 * model through its HCR, the way a buggy or hostile host driver would
 * post them, plus lkey accesses and events on whatever contexts those
 * commands left in ICM.
 *
 * Input: byte 0 bit 0 = first run the mem-free bring-up (boot -> RUN_FW
 * -> ICM -> INIT_HCA, the small profile of test_mt25208_cmd.c) so that
 * later records reach the resource commands. Then records:
 *   u8 kind; kind % 4 == 0..2: a command:
 *     u16 opcode (12 bits used), u8 op_mod and E bit, u32 in_modifier,
 *     u8 in_sel, u8 out_sel, u16 mailbox length, mailbox bytes
 *     (in_sel/out_sel 0: the mailbox page, 1: an unmapped bus address,
 *     2: raw 64 bits from the record, else 0)
 *   kind % 4 == 3: u32 lkey, u32 va, u16 len, u8 write: mt25208_mr_access
 *     on the host window, then an async event of type (lkey & 63).
 * A record cut short by the end of input is dropped.
 *
 * The model must never crash, read or write outside the registered window
 * and its BARs, and always clear GO (checked: a command that leaves GO set
 * aborts).
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fab_log.h"
#include "fab_node.h"
#include "fabric.h"
#include "mt25208.h"
#include "port_state.h"

#define HOST_IOVA	0x100000000ull
#define HOST_SIZE	(1u << 20)
#define MBOX_OFF	0x0000		/* input mailbox page in the window */
#define OUT_OFF		0x1000		/* output mailbox page */
#define ICM_OFF		0x10000		/* 64 KiB of ICM backing */
#define AUX_OFF		0x20000
#define FA_OFF		0x30000		/* 64 KiB, 64 KiB aligned */
#define LIST_OFF	0x40000

static struct fabric *fab;
static struct mt25208 *dev;
static uint8_t *bar0, *host;

static int
post(uint16_t op, uint8_t opmod, uint64_t in, uint32_t mod, uint64_t out, bool ev)
{
	uint8_t *h = bar0 + MT_BAR0_HCR;
	uint32_t w6;

	mt_put32(h, MT_HCR_IN_HI, (uint32_t)(in >> 32));
	mt_put32(h, MT_HCR_IN_LO, (uint32_t)in);
	mt_put32(h, MT_HCR_IN_MOD, mod);
	mt_put32(h, MT_HCR_OUT_HI, (uint32_t)(out >> 32));
	mt_put32(h, MT_HCR_OUT_LO, (uint32_t)out);
	mt_put32(h, MT_HCR_TOKEN, 0x1234u << 16);
	mt_put32(h, MT_HCR_CMD, MT_HCR_GO | (ev ? MT_HCR_E : 0) |
		 ((uint32_t)(opmod & 0xf) << 12) | (op & 0xfff));
	mt25208_poll(dev);
	w6 = mt_get32(h, MT_HCR_CMD);
	if (w6 & MT_HCR_GO)
		abort();
	return (int)(w6 >> 24);
}

static void
list1(uint64_t virt, uint64_t off, unsigned int log_size)
{
	mt_put64(host + LIST_OFF, 0, virt);
	mt_put64(host + LIST_OFF, 8, (HOST_IOVA + off) | (log_size - 12));
}

static void
bring_up(void)
{
	uint8_t *m = host + MBOX_OFF;

	post(MT_OP_QUERY_FW, 0, 0, 0, HOST_IOVA + OUT_OFF, false);
	list1(0, FA_OFF, 16);
	post(MT_OP_MAP_FA, 0, HOST_IOVA + LIST_OFF, 1, 0, false);
	post(MT_OP_RUN_FW, 0, 0, 0, 0, false);
	post(MT_OP_SET_ICM_SIZE, 0, 0x10000, 0, 0, false);
	list1(0, AUX_OFF, 12);
	post(MT_OP_MAP_ICM_AUX, 0, HOST_IOVA + LIST_OFF, 1, 0, false);
	list1(0, ICM_OFF, 16);
	post(MT_OP_MAP_ICM, 0, HOST_IOVA + LIST_OFF, 1, 0, false);
	memset(m, 0, 0x200);
	mt_put64(m, 0x030, 0x0000); mt_put8(m, 0x037, 6);
	mt_put64(m, 0x050, 0x5000); mt_put8(m, 0x057, 6);
	mt_put64(m, 0x060, 0x4000);
	mt_put64(m, 0x080, 0x6000); mt_put8(m, 0x087, 5);
	mt_put64(m, 0x090, 0xa000);
	mt_put64(m, 0x0c0, 0x9000);
	mt_put16(m, 0x0d2, 8); mt_put16(m, 0x0d6, 8); mt_put8(m, 0x0db, 4);
	mt_put64(m, 0x0f0, 0x7000); mt_put8(m, 0x0fb, 6);
	mt_put64(m, 0x100, 0x8000);
	mt_put8(m, 0x12a, 1);
	mt_put64(m, 0x138, 0xb000);
	post(MT_OP_INIT_HCA, 0, HOST_IOVA + MBOX_OFF, 0, 0, false);
}

static int
init_once(void)
{
	struct fab_node *ca, *sw;

	if (dev != NULL)
		return 0;
	fab_log_level = -1;
	fab = fabric_new();
	if (fab == NULL)
		return -1;
	ca = fabric_add_node(fab, FAB_NODE_CA, "H1", 2);
	sw = fabric_add_node(fab, FAB_NODE_SWITCH, "S1", 4);
	if (ca == NULL || sw == NULL || fabric_connect(fab, &ca->ports[1], &sw->ports[1]) != 0)
		return -1;
	port_state_link_update(fab, &ca->ports[1]);
	ca->active_hca = true;
	bar0 = aligned_alloc(4096, MT_BAR0_SIZE);
	host = aligned_alloc(65536, HOST_SIZE);
	if (bar0 == NULL || host == NULL)
		return -1;
	memset(bar0, 0, MT_BAR0_SIZE);
	dev = mt25208_new(fab, ca, bar0, NULL, 0);
	if (dev == NULL || mt25208_dma_map(dev, HOST_IOVA, HOST_SIZE, host, NULL, 0) != 0)
		return -1;
	return 0;
}

static uint64_t
sel_addr(uint8_t sel, uint64_t base_off, const uint8_t *raw)
{
	uint64_t v;

	switch (sel % 4) {
	case 0:
		return HOST_IOVA + base_off;
	case 1:
		return 0x7000;		/* no window there: a DMA fault */
	case 2:
		memcpy(&v, raw, sizeof(v));
		return v;
	default:
		return 0;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t pos = 1;
	unsigned int n = 0;

	if (size == 0 || init_once() != 0)
		return 0;
	mt25208_reset(dev);
	memset(host, 0, 0x50000);
	if (data[0] & 1)
		bring_up();
	while (pos < size && n++ < 64) {
		uint8_t kind = data[pos++];

		if (kind % 4 != 3) {
			uint16_t op, mlen;
			uint32_t mod;
			uint8_t opm, isel, osel;

			if (size - pos < 11 + 8)
				break;
			op = (uint16_t)(data[pos] | data[pos + 1] << 8);
			opm = data[pos + 2];
			memcpy(&mod, data + pos + 3, 4);
			isel = data[pos + 7];
			osel = data[pos + 8];
			mlen = (uint16_t)((data[pos + 9] | data[pos + 10] << 8) % 0x400);
			pos += 11;
			if (size - pos < 8u + mlen)
				break;
			memset(host + MBOX_OFF, 0, 0x400);
			memcpy(host + MBOX_OFF, data + pos + 8, mlen);
			post(op, opm, sel_addr(isel, MBOX_OFF, data + pos), mod,
			     sel_addr(osel, OUT_OFF, data + pos), (opm & 0x80) != 0);
			pos += 8u + mlen;
		} else {
			uint32_t lkey, va;
			uint16_t len;
			uint8_t buf[4096];

			if (size - pos < 11)
				break;
			memcpy(&lkey, data + pos, 4);
			memcpy(&va, data + pos + 4, 4);
			len = (uint16_t)((data[pos + 8] | data[pos + 9] << 8) % sizeof(buf));
			mt25208_mr_access(dev, lkey, MT25208_PD_ANY, va, buf, len,
					  (data[pos + 10] & 1) != 0);
			mt25208_event(dev, lkey & 63, 0, NULL);
			pos += 11;
		}
	}
	return 0;
}
