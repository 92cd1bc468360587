/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Private to ibfabric's main program: where commands come from
 * (main_ctl.c), the control socket and the console. main.c opens them;
 * main_loop.c hands them their events.
 */

#ifndef _IBFABRIC_MAIN_CTL_H_
#define _IBFABRIC_MAIN_CTL_H_

#include <stdbool.h>

#include "main_ctx.h"

int main_ctl_listen(struct main_ctx *m, const char *path);
void main_conn_close(struct main_ctx *m, struct main_conn *c);
void main_ctl_accept(struct main_ctx *m);
bool main_conn_flush(struct main_ctx *m, struct main_conn *c);
void main_conn_ready(struct main_ctx *m, struct main_conn *c);
bool main_stdin_read(struct main_ctx *m);
void main_stdin_eof(struct main_ctx *m);
int main_console_start(struct main_ctx *m);

#endif /* _IBFABRIC_MAIN_CTL_H_ */
