/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * libFuzzer target: what a DPDK host does with SA answers and RMPP
 * segments it did not choose.
 *
 * Input: one selector byte, then data.
 *  - selector 0-15: the data is a sequence of 256-byte MADs fed to one
 *    RMPP reassembly (lib/ibmad/mad_rmpp.c), the first through
 *    ibmad_rmpp_recv_start(), the rest through ibmad_rmpp_recv_seg(),
 *    with a window of selector + 1; every ACK and ABORT the receiver asks
 *    for is built. Invariants: the message never exceeds what the
 *    segments carried, and a finished message starts with the first
 *    segment's MAD header.
 *  - selector 16-255: the data is an SA response's records; each is
 *    unpacked with every SA record layout of lib/ib (rte_ib_records.h)
 *    and dumped, and a packed copy must unpack to the same host struct.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ib_pack.h>
#include <rte_ib_records.h>
#include <rte_ib_types.h>

#include "mad_rmpp.h"

static void
fuzz_rmpp(uint32_t window, const uint8_t *data, size_t size)
{
	struct ibmad_rmpp_recv r;
	uint8_t mad[RMPP_MAD_SIZE], out[RMPP_MAD_SIZE], status = 0;
	enum ibmad_rmpp_rx rx;
	size_t off, carried = 0;
	bool started = false;

	memset(&r, 0, sizeof(r));
	for (off = 0; off < size; off += RMPP_MAD_SIZE) {
		memset(mad, 0, sizeof(mad));
		memcpy(mad, data + off, RTE_MIN((size_t)RMPP_MAD_SIZE, size - off));
		carried += RMPP_MAD_SIZE;
		rx = started ? ibmad_rmpp_recv_seg(&r, mad, &status) :
			ibmad_rmpp_recv_start(&r, mad, window, &status);
		if (!started && rx == IBMAD_RMPP_RX_ABORT) {
			ibmad_rmpp_abort(mad, status, out);
			ibmad_rmpp_recv_free(&r);
			return;
		}
		started = true;
		if (rx == IBMAD_RMPP_RX_ACK || rx == IBMAD_RMPP_RX_DONE)
			ibmad_rmpp_ack(&r, mad, out);
		if (rx == IBMAD_RMPP_RX_ABORT)
			ibmad_rmpp_abort(mad, status, out);
		if (r.len > carried)
			abort();
		if (rx == IBMAD_RMPP_RX_DONE || rx == IBMAD_RMPP_RX_ABORT)
			break;
	}
	if (r.done && (r.msg == NULL || memcmp(r.msg, data, 24) != 0))
		abort();
	ibmad_rmpp_recv_free(&r);
}

static void
fuzz_records(const uint8_t *data, size_t size)
{
	static const uint16_t attrs[] = {
		RTE_IB_SA_ATTR_NODE_REC, RTE_IB_SA_ATTR_PORT_INFO_REC,
		RTE_IB_SA_ATTR_SERVICE_REC, RTE_IB_SA_ATTR_PATH_REC,
		RTE_IB_SA_ATTR_MCMEMBER_REC, RTE_IB_SA_ATTR_INFORM_INFO_REC,
		RTE_IB_ATTR_NOTICE, RTE_IB_ATTR_INFORM_INFO,
		RTE_IB_ATTR_CLASS_PORT_INFO,
	};
	uint8_t host[1024], again[1024], wire[512];
	const struct rte_ib_record_layout *l;
	FILE *devnull = fopen("/dev/null", "w");
	unsigned int i;

	for (i = 0; i < RTE_DIM(attrs); i++) {
		l = rte_ib_sa_layout_by_attr(attrs[i]);
		if (l == NULL || l->host_size > sizeof(host) ||
		    l->wire_size > sizeof(wire))
			abort();
		memset(host, 0, sizeof(host));
		/* Short input: refused, never read past the end. */
		if (rte_ib_unpack(l, data, size, host) != 0)
			continue;
		if (devnull != NULL)
			rte_ib_record_dump(devnull, l, host);
		/* What was unpacked packs and unpacks to itself. */
		if (rte_ib_pack(l, host, wire, sizeof(wire)) != 0)
			abort();
		memset(again, 0, sizeof(again));
		if (rte_ib_unpack(l, wire, l->wire_size, again) != 0 ||
		    memcmp(host, again, l->host_size) != 0)
			abort();
	}
	if (devnull != NULL)
		fclose(devnull);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	if (data[0] < 16)
		fuzz_rmpp(data[0] + 1u, data + 1, size - 1);
	else
		fuzz_records(data + 1, size - 1);
	return 0;
}
