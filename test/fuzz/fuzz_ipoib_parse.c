/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * libFuzzer target: the lib/ipoib parsers on arbitrary bytes.
 *
 * Input: byte 0 selects (mod 4): 0 rte_ipoib_arp_parse(), 1 and 2
 * rte_ipoib_nd_find_lla() for the source and target options, 3
 * rte_ipoib_hwaddr_parse() on the rest as a string. The rest is the
 * input. Invariants: an accepted ARP has the fixed fields of RFC 4391
 * 9.1.1; a found ND option returns its address; a parsed address formats
 * back to text that parses to the same address. No EAL needed.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ipoib.h>

#define FUZZ_CHECK(cond) do { if (!(cond)) abort(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rte_ipoib_hwaddr hw, back;
	const struct rte_ipoib_arp *arp;
	char text[RTE_IPOIB_HWADDR_FMT_SIZE];
	uint8_t *buf;
	int rc;

	if (size < 1)
		return 0;
	/* malloc: aligned for the ARP struct, and ASan sees the exact size. */
	buf = malloc(size);
	if (buf == NULL)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';
	switch (data[0] & 3) {
	case 0:
		arp = rte_ipoib_arp_parse(buf, size - 1);
		if (arp != NULL)
			FUZZ_CHECK(arp->htype == RTE_BE16(32) && arp->hlen == 20 &&
				   arp->plen == 4 && arp->ptype == RTE_BE16(0x0800));
		break;
	case 1:
	case 2:
		memset(&hw, 0xa5, sizeof(hw));
		rc = rte_ipoib_nd_find_lla(buf, size - 1, data[0] & 3, &hw);
		FUZZ_CHECK(rc >= -1 && rc <= 1);
		break;
	default:
		if (rte_ipoib_hwaddr_parse((const char *)buf, &hw) == 0) {
			FUZZ_CHECK(rte_ipoib_hwaddr_format(&hw, text, sizeof(text)) == 59);
			FUZZ_CHECK(rte_ipoib_hwaddr_parse(text, &back) == 0);
			FUZZ_CHECK(memcmp(&hw, &back, sizeof(hw)) == 0);
		}
		break;
	}
	free(buf);
	return 0;
}
