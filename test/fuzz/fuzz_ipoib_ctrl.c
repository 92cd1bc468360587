/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * libFuzzer target: the IPoIB control side's input checks
 * (lib/ipoib/ipoib_ctrl_check.h) on arbitrary bytes.
 *
 * Input: byte 0 selects (mod 4): 0 an ARP message of the L3 view
 * (ipoib_ctrl_arp_decode()), 1 an ND message (ipoib_ctrl_nd_decode()),
 * 2 a PathRecord answer: the rest cut into host-form records
 * (ipoib_ctrl_path_pick() against the DGID of the first 16 bytes),
 * 3 an IPv4/IPv6 packet sent to a group (ipoib_ctrl_mc_report()).
 * Invariants: what is accepted satisfies the rules it was checked for;
 * nothing reads outside the input (ASan in the libFuzzer build).
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ipoib_ctrl_check.h"

#define FUZZ_CHECK(cond) do { if (!(cond)) abort(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fuzz_path(const uint8_t *p, size_t n)
{
	struct rte_ib_sa_path_rec recs[8];
	struct rte_ib_gid dgid;
	unsigned int nb;
	const char *why;
	int k;

	if (n < 16)
		return;
	memcpy(dgid.raw, p, 16);
	p += 16;
	n -= 16;
	nb = (unsigned int)RTE_MIN(n / sizeof(recs[0]), RTE_DIM(recs));
	memcpy(recs, p, nb * sizeof(recs[0]));
	k = ipoib_ctrl_path_pick(recs, nb, &dgid, 0xffff, &why);
	FUZZ_CHECK(k >= -1 && k < (int)nb);
	if (k >= 0) {
		const struct rte_ib_sa_path_rec *r = &recs[k];

		FUZZ_CHECK(memcmp(r->dgid.raw, dgid.raw, 16) == 0);
		FUZZ_CHECK(r->mtu >= 1 && r->mtu <= 5 && r->rate >= 2 && r->rate <= 10);
		FUZZ_CHECK(r->dlid != 0 && r->dlid < 0xc000 && r->sl <= 15);
		FUZZ_CHECK((r->pkey & 0x7fff) == 0x7fff);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ipoib_ctrl_arp arp;
	struct ipoib_ctrl_nd nd;
	uint8_t groups[4][16];
	bool join[4];
	const char *why;
	unsigned int n, i;
	uint8_t *buf;

	if (size < 1)
		return 0;
	/* An exact copy (one byte kept for malloc(0)): ASan sees a read past the input. */
	buf = malloc(size);
	if (buf == NULL)
		return 0;
	memcpy(buf, data + 1, size - 1);
	switch (data[0] & 3) {
	case 0:
		if (ipoib_ctrl_arp_decode(buf, size - 1, &arp, &why) == 0) {
			FUZZ_CHECK(arp.oper == 1 || arp.oper == 2);
			FUZZ_CHECK(arp.sip[10] == 0xff && arp.tip[11] == 0xff);
			FUZZ_CHECK((arp.tip[12] & 0xf0) != 0xe0);
			FUZZ_CHECK(rte_ipoib_hwaddr_qpn(&arp.sha) != RTE_IPOIB_QPN_MCAST);
		}
		break;
	case 1:
		if (ipoib_ctrl_nd_decode(buf, size - 1, &nd, &why) == 0) {
			FUZZ_CHECK(nd.type == 135 || nd.type == 136);
			FUZZ_CHECK(nd.target[0] != 0xff);
			FUZZ_CHECK(!(nd.type == 136 && nd.solicited && nd.dst[0] == 0xff));
		}
		break;
	case 2:
		fuzz_path(buf, size - 1);
		break;
	default:
		n = ipoib_ctrl_mc_report(buf, size - 1, groups, join, RTE_DIM(join));
		FUZZ_CHECK(n <= RTE_DIM(join));
		for (i = 0; i < n; i++)
			FUZZ_CHECK(groups[i][0] == 0xff ||
				   (groups[i][10] == 0xff && (groups[i][12] & 0xf0) == 0xe0));
		break;
	}
	free(buf);
	return 0;
}
