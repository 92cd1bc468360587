/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Private to ibfabric's main program: the event loop (main_loop.c), as
 * main.c starts, runs and ends it.
 */

#ifndef _IBFABRIC_MAIN_LOOP_H_
#define _IBFABRIC_MAIN_LOOP_H_

#include "main_ctx.h"

int main_setup_fds(struct main_ctx *m);
int main_loop(struct main_ctx *m);
/* fabric.run_for: ibsim's "Wait <sec>", without stopping the fabric. */
int main_run_for(struct fabric *f, unsigned int ms);
void main_teardown(struct main_ctx *m);

#endif /* _IBFABRIC_MAIN_LOOP_H_ */
