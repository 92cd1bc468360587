/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * libFuzzer target: a datagram received by an IB PMD, decapsulated by
 * rte_ipoib_decap_burst() in either view (IPoIB-to-Ethernet rewriting of
 * ARP and ND included).
 *
 * Input: byte 0 flags (bit 0: L3 view, bit 1: a GRH precedes the
 * payload, bit 2: P_Key index 1 instead of 0), bytes 1-2 SLID, bytes 3-5
 * source QPN (big-endian), then 40 GRH bytes when bit 1 is set, then the
 * IPoIB frame (header and payload).
 *
 * Invariants on what is delivered: Ethernet view: a 14-byte header with
 * IPv4, ARP or IPv6; ARP in the Ethernet form (RFC 826); ND with its
 * checksum right and options in the Ethernet form. L3 view: the packet
 * type names what follows; ND with its checksum right and options in the
 * IPoIB form.
 */

#include "fuzz_ipoib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rte_ib_mbuf_addr *a;
	struct rte_mbuf *m;
	const uint8_t *p;
	size_t hdr;
	uint16_t type;
	int l3;

	fuzz_ipoib_init();
	if (size < 6)
		return 0;
	hdr = 6 + ((data[0] & 2) ? 40 : 0);
	if (size < hdr || size - hdr > 4096)
		return 0;
	m = rte_pktmbuf_alloc(fz.pool);
	FUZZ_CHECK(m != NULL);
	if (size > hdr)
		memcpy(rte_pktmbuf_append(m, size - hdr), data + hdr, size - hdr);
	a = rte_ib_mbuf_addr(m);
	memset(a, 0, sizeof(*a));
	a->rx.pkey_index = (data[0] & 4) ? 1 : 0;
	a->rx.slid = (uint16_t)(data[1] << 8 | data[2]);
	a->rx.src_qpn = (uint32_t)data[3] << 16 | data[4] << 8 | data[5];
	if (data[0] & 2) {
		a->rx.flags = RTE_IB_MBUF_F_GRH;
		memcpy(rte_pktmbuf_mtod(m, uint8_t *) - 40, data + 6, 40);
	}
	l3 = data[0] & 1;
	if (rte_ipoib_decap_burst(fz.dp[l3], &m, 1) == 0)
		return 0;
	p = rte_pktmbuf_mtod(m, const uint8_t *);
	if (l3) {
		FUZZ_CHECK(m->packet_type == RTE_PTYPE_L3_IPV4 ||
			   m->packet_type == RTE_PTYPE_L3_IPV6 ||
			   m->packet_type == RTE_PTYPE_L2_ETHER_ARP);
		if (m->packet_type == RTE_PTYPE_L2_ETHER_ARP)
			FUZZ_CHECK(m->data_len >= 56 && p[1] == 32 && p[4] == 20);
		if (m->packet_type == RTE_PTYPE_L3_IPV6 && fuzz_is_nd(p, m->data_len))
			fuzz_check_nd(p, m->data_len, 3);
	} else {
		FUZZ_CHECK(m->data_len >= 14);
		type = (uint16_t)(p[12] << 8 | p[13]);
		FUZZ_CHECK(type == 0x0800 || type == 0x0806 || type == 0x86dd);
		if (type == 0x0806)
			FUZZ_CHECK(m->data_len == 42 && p[15] == 1 && p[18] == 6 && p[19] == 4);
		if (type == 0x86dd && fuzz_is_nd(p + 14, m->data_len - 14))
			fuzz_check_nd(p + 14, m->data_len - 14, 1);
	}
	rte_pktmbuf_free(m);
	return 0;
}
