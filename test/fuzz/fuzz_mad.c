/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * libFuzzer target: arbitrary MADs into the firmware agents of ibfabric's
 * node models, sma_process() and pma_process(), on a CA and on a switch.
 *
 * Input: a sequence of records, each one selector byte and up to 256 MAD
 * bytes (a short last record is zero-padded, as the wire would pad a
 * short MAD). Selector bit 0: the switch (1) or the CA (0); bit 1: the
 * PMA (1) or the SMA (0); bits 7:2: the arrival port (any value: the
 * agents must cope with ports the node does not have; 63 = NULL).
 * Records apply in order to one small fabric, so Sets change the state
 * later records see (LIDs, SM LID, port states, tables). Afterwards the
 * fabric runs until quiet, delivering any trap the agents sent.
 *
 * Beyond "no crash, no out-of-bounds access" (ASan/UBSan in the clang
 * build), it checks two invariants of the agents' contract: the result
 * is one of enum fab_mad_result, and a reply is a GetResp.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fab_link.h"
#include "fab_node.h"
#include "fabric.h"
#include "fw_agents.h"
#include "ib_proto.h"
#include "mad.h"

#define FUZZ_RECORD	(1 + IB_MAD_SIZE)
#define FUZZ_MAX_RECORDS 16

static void
fuzz_one(struct fabric *f, struct fab_node *n, uint8_t sel, uint8_t *mad)
{
	unsigned int in_num = sel >> 2;
	struct fab_port *in = NULL;
	enum fab_mad_result r;

	if (in_num != 63)
		in = &n->ports[in_num % (n->nports + 1u)];
	if (sel & 2)
		r = pma_process(f, n, in, mad);
	else
		r = sma_process(f, n, in, mad);
	if (r != FAB_MAD_IGNORE && r != FAB_MAD_REPLY && r != FAB_MAD_CONSUMED)
		abort();
	if (r == FAB_MAD_REPLY && mad[MAD_METHOD] != MAD_METHOD_GET_RESP)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fab_node *ca, *sw;
	struct fabric *f;
	uint8_t mad[IB_MAD_SIZE];
	size_t off, len;
	unsigned int i;

	f = fabric_new();
	if (f == NULL)
		return 0;
	ca = fabric_add_node(f, FAB_NODE_CA, "fuzz-hca", 2);
	sw = fabric_add_node(f, FAB_NODE_SWITCH, "fuzz-sw", 4);
	if (ca == NULL || sw == NULL)
		goto out;
	/* CA port 1 to switch port 1, and a loop on the switch (3 <-> 4). */
	if (fabric_connect(f, &ca->ports[1], &sw->ports[1]) != 0 ||
	    fabric_connect(f, &sw->ports[3], &sw->ports[4]) != 0)
		goto out;

	for (i = 0, off = 0; i < FUZZ_MAX_RECORDS && off < size; i++) {
		len = size - off - 1;
		if (len > IB_MAD_SIZE)
			len = IB_MAD_SIZE;
		memset(mad, 0, sizeof(mad));
		memcpy(mad, data + off + 1, len);
		fuzz_one(f, (data[off] & 1) ? sw : ca, data[off], mad);
		off += FUZZ_RECORD;
	}
	/* Deliver traps and whatever else the agents queued. */
	fabric_run(f, 100000);
out:
	fabric_free(f);
	return 0;
}
