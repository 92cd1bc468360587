/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * libFuzzer target: arbitrary bytes arriving on a cable of ibfabric, the
 * receive path every packet takes: pkt_parse(), the directed-route rules
 * (dr.c), the switch's LFT/MFT forwarding (switch.c), the CA's QP0/QP1
 * dispatch and the replies the firmware sends back (node_io.c).
 *
 * Input: records of one selector byte, a 16-bit big-endian length and
 * that many packet bytes (cut at the input's end and at FAB_PKT_MAX).
 * Selector bit 0: the packet arrives at the switch's port 1 (1) or at
 * the CA's port 1 (0); bit 1: recompute ICRC and VCRC first (1), so that
 * mutations reach past the CRC checks. After each record the fabric runs
 * for a bounded number of packets (an LFT Set may well build a loop
 * through the switch's looped ports 3 and 4, as on real hardware).
 *
 * Fabric: CA "fuzz-hca" port 1 (LID 2) -- switch "fuzz-sw" port 1 (LID 1),
 * switch ports 3 <-> 4 cabled to each other, every port Active, LFT
 * routes LIDs 1 and 2.
 */

#include <stdint.h>
#include <string.h>

#include "fab_link.h"
#include "fab_node.h"
#include "fab_pkt.h"
#include "fabric.h"

#define FUZZ_MAX_RECORDS	16
#define FUZZ_RUN_BUDGET		4096

static void
port_up(struct fab_port *p)
{
	p->phys_state = FAB_PHYS_LINKUP;
	p->state = FAB_PORT_ACTIVE;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fab_node *ca, *sw;
	struct fabric *f;
	size_t off = 0;
	unsigned int i;

	f = fabric_new();
	if (f == NULL)
		return 0;
	ca = fabric_add_node(f, FAB_NODE_CA, "fuzz-hca", 1);
	sw = fabric_add_node(f, FAB_NODE_SWITCH, "fuzz-sw", 4);
	if (ca == NULL || sw == NULL || sw->sw == NULL)
		goto out;
	if (fabric_connect(f, &ca->ports[1], &sw->ports[1]) != 0 ||
	    fabric_connect(f, &sw->ports[3], &sw->ports[4]) != 0)
		goto out;
	port_up(&ca->ports[1]);
	for (i = 0; i <= sw->nports; i++)
		port_up(&sw->ports[i]);
	ca->ports[1].lid = 2;
	sw->ports[0].lid = 1;
	sw->sw->lft[1] = 0;
	sw->sw->lft[2] = 1;
	sw->sw->lft_top = 2;

	for (i = 0; i < FUZZ_MAX_RECORDS && off + 3 <= size; i++) {
		uint8_t sel = data[off];
		size_t len = (size_t)data[off + 1] << 8 | data[off + 2];
		struct fab_pkt *p;

		off += 3;
		if (len > size - off)
			len = size - off;
		p = fab_pkt_alloc(f);
		if (p == NULL)
			break;
		if (len > FAB_PKT_MAX)
			len = FAB_PKT_MAX;
		memcpy(p->data, data + off, len);
		p->len = (uint32_t)len;
		off += len;
		if (sel & 2)
			pkt_update_crcs(p);
		fab_pkt_enqueue(f, (sel & 1) ? &sw->ports[1] : &ca->ports[1], p);
		fabric_run(f, FUZZ_RUN_BUDGET);
	}
out:
	fabric_free(f);		/* also frees what a loop left queued */
	return 0;
}
