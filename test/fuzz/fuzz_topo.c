/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * libFuzzer target for the net-file parser (topo_parse_buf). Any input
 * must be accepted or rejected with a message, never crash, hang or
 * leak; a rejected input must leave a "file:line: what" message. The
 * fabric is freed after each input, partial or not.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fabric.h"
#include "topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fabric *f;
	char err[256];
	int rc;

	f = fabric_new();
	if (f == NULL)
		return 0;
	err[0] = '\0';
	rc = topo_parse_buf(f, "fuzz.net", (const char *)data, size, err, sizeof(err));
	/*
	 * A failure always says where: "fuzz.net:<line>: what", or the
	 * name of a file the input included.
	 */
	if (rc != 0 && strstr(err, ": ") == NULL)
		abort();
	fabric_free(f);
	return 0;
}
