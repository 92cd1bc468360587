/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * libFuzzer target: a frame from the application, encapsulated by
 * rte_ipoib_encap_burst() in either view (Ethernet-to-IPoIB rewriting of
 * ARP and ND, multicast MAC mapping, neighbour lookups included).
 *
 * Input: byte 0 flags (bit 0: L3 view, bit 1: mark the packet as ARP,
 * for the L3 view), then the frame.
 *
 * Invariants on what leaves: the 4-byte header with IPv4, ARP or IPv6
 * and reserved bits zero, at most 4 + MTU bytes, an address handle, the
 * Q_Key; ARP that rte_ipoib_arp_parse() accepts; ND with its checksum
 * right and options in the IPoIB form. What is queued or dropped is the
 * library's.
 */

#include "fuzz_ipoib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rte_ib_mbuf_addr *a;
	struct rte_mbuf *m;
	const uint8_t *p;
	uint8_t arp[56] __rte_aligned(4);
	uint16_t type;

	fuzz_ipoib_init();
	if (size < 1 || size - 1 > 4096)
		return 0;
	m = rte_pktmbuf_alloc(fz.pool);
	FUZZ_CHECK(m != NULL);
	if (size > 1)
		memcpy(rte_pktmbuf_append(m, size - 1), data + 1, size - 1);
	if (data[0] & 2)
		m->packet_type = RTE_PTYPE_L2_ETHER_ARP;
	if (rte_ipoib_encap_burst(fz.dp[data[0] & 1], &m, 1) == 0)
		return 0;
	p = rte_pktmbuf_mtod(m, const uint8_t *);
	a = rte_ib_mbuf_addr(m);
	FUZZ_CHECK(a->tx.ah != NULL && a->tx.qkey == 0x0b1b);
	FUZZ_CHECK(m->pkt_len >= 4 && m->pkt_len <= 4 + 2044 && p[2] == 0 && p[3] == 0);
	type = (uint16_t)(p[0] << 8 | p[1]);
	FUZZ_CHECK(type == 0x0800 || type == 0x0806 || type == 0x86dd);
	if (type == 0x0806) {
		FUZZ_CHECK(m->data_len >= 60);
		memcpy(arp, p + 4, 56);
		FUZZ_CHECK(rte_ipoib_arp_parse(arp, 56) != NULL);
	}
	if (type == 0x86dd && m->nb_segs == 1 && fuzz_is_nd(p + 4, m->data_len - 4))
		fuzz_check_nd(p + 4, m->data_len - 4, 3);
	rte_pktmbuf_free(m);
	return 0;
}
