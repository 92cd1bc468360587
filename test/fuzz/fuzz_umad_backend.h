/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _FUZZ_UMAD_BACKEND_H_
#define _FUZZ_UMAD_BACKEND_H_

/*
 * The MAD layer under a fuzzed umad file (fuzz_umad.c, fuzz_umad_long.c):
 * it accepts registrations and sends and counts them; a send shorter than
 * the MAD and RMPP headers or longer than the longest RMPP message, or a
 * slot past the file's agents, aborts. The target checks regs == unregs
 * after closing the file.
 */

#include <stdlib.h>

#include "umad_file.h"

static int regs, unregs;

static int
be_register(void *port, struct umad_file *f, unsigned int id,
	    const struct umad_reg *reg, void **handle)
{
	(void)port;
	(void)f;
	(void)reg;
	if (id >= UMAD_MAX_AGENTS)
		abort();
	regs++;
	*handle = &regs;
	return 0;
}

static void
be_unregister(void *port, void *handle)
{
	(void)port;
	(void)handle;
	unregs++;
}

static int
be_send(void *port, void *handle, const struct ib_user_mad_hdr *hdr,
	const void *mad, size_t len)
{
	(void)port;
	(void)handle;
	(void)hdr;
	(void)mad;
	if (len < 36 || len > (4u << 20))
		abort();
	return 0;
}

static const struct umad_backend_ops ops = {
	.agent_register = be_register,
	.agent_unregister = be_unregister,
	.send = be_send,
};

#endif /* _FUZZ_UMAD_BACKEND_H_ */
