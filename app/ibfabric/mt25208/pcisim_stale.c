/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * BAR files left in /dev/shm by an ibfabric that was killed (SIGKILL, a
 * crash): pcisim_destroy() removes a run's own files on every exit it
 * sees, this removes those of runs that saw none. The files are named
 * "ibfabric-<pid>-<bus>-<resource>" (pcisim.c make_bar()); a file whose
 * process is gone is stale.
 */

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fab_log.h"
#include "pcisim.h"

#define SHM_DIR		"/dev/shm"
#define BAR_PREFIX	"ibfabric-"

/*
 * Whether @p pid still runs. Any live process counts (unit tests and fuzz
 * targets publish BARs too, under their own names): a reused pid only
 * delays the clean-up to a later start.
 */
static bool
pid_alive(long pid)
{
	return !(kill((pid_t)pid, 0) < 0 && errno == ESRCH);
}

unsigned int
pcisim_clean_stale_bars(void)
{
	struct dirent *de;
	unsigned int n = 0;
	char path[PATH_MAX];
	char *end;
	long pid;
	DIR *d;

	d = opendir(SHM_DIR);
	if (d == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, BAR_PREFIX, sizeof(BAR_PREFIX) - 1) != 0)
			continue;
		pid = strtol(de->d_name + sizeof(BAR_PREFIX) - 1, &end, 10);
		if (pid <= 0 || *end != '-' || pid == (long)getpid() || pid_alive(pid))
			continue;
		if (snprintf(path, sizeof(path), SHM_DIR "/%s", de->d_name) >= (int)sizeof(path))
			continue;
		if (unlink(path) == 0) {
			FAB_INFO("removed %s, left by pid %ld (gone)", path, pid);
			n++;
		}
	}
	closedir(d);
	return n;
}
