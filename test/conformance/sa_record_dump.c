/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * sa_record_dump: unpack one SA record with lib/ib's tables and print it
 * with rte_ib_record_dump(), for test_sa_records.py, which compares the
 * result with what saquery decoded from the same bytes.
 *
 * usage: sa_record_dump <attribute id> <record bytes in hex>
 * The attribute ID is an SA AttributeID (0x11 NodeRecord, 0x12
 * PortInfoRecord, 0x1 ClassPortInfo, ...). Exit 0 on success, 1 on a
 * record the tables refuse, 2 on a usage error.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>

#include <rte_ib_pack.h>
#include <rte_ib_records.h>

static int
hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
main(int argc, char **argv)
{
	const struct rte_ib_record_layout *layout;
	uint8_t wire[512];
	uint8_t host[1024];
	unsigned long attr;
	size_t i, len;
	char *end;

	if (argc != 3) {
		fprintf(stderr, "usage: %s <attribute id> <hex bytes>\n", argv[0]);
		return 2;
	}
	errno = 0;
	attr = strtoul(argv[1], &end, 0);
	if (errno != 0 || *end != '\0' || attr > UINT16_MAX) {
		fprintf(stderr, "%s: bad attribute id '%s'\n", argv[0], argv[1]);
		return 2;
	}
	len = strlen(argv[2]);
	if (len % 2 != 0 || len / 2 > sizeof(wire)) {
		fprintf(stderr, "%s: %zu hex digits: want an even number, at most %zu\n",
			argv[0], len, 2 * sizeof(wire));
		return 2;
	}
	for (i = 0; i < len / 2; i++) {
		int hi = hex_value(argv[2][2 * i]), lo = hex_value(argv[2][2 * i + 1]);

		if (hi < 0 || lo < 0) {
			fprintf(stderr, "%s: not hex at digit %zu\n", argv[0], 2 * i);
			return 2;
		}
		wire[i] = (uint8_t)(hi << 4 | lo);
	}
	layout = rte_ib_sa_layout_by_attr((uint16_t)attr);
	if (layout == NULL) {
		fprintf(stderr, "%s: no table for attribute 0x%lx\n", argv[0], attr);
		return 1;
	}
	if (layout->host_size > sizeof(host) ||
	    rte_ib_unpack(layout, wire, len / 2, host) != 0 ||
	    rte_ib_record_dump(stdout, layout, host) != 0) {
		fprintf(stderr, "%s: %s: %s\n", argv[0], layout->name,
			rte_strerror(rte_errno));
		return 1;
	}
	return 0;
}
