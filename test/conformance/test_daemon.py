#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Daemon behaviour (issue 3): idle CPU after SUBNET UP, refusal of a
second instance on the same socket name, clean shutdown on SIGTERM.

usage: test_daemon.py <ibfabric> <netfile>

ibsim 0.10 spins a core at 100 % with its console at EOF; ibfabric must
stay under 2 % over 3 s with OpenSM attached and the console at EOF.
"""

import os
import re
import signal
import sys
import time

from simlib import (Fabric, Harness, find_umad2sim, first_ca, proc_cpu_seconds,
                    start_opensm)


def server_names(base):
    """ibfabric's abstract names "<base>:ctl" and "<base>:out<i>" bound now
    (/proc/net/unix shows the NULs as '@'); clients' ctl<pid>/in<pid> are not ours."""
    rx = re.compile(r'^@%s:(ctl|out\d+)@$' % re.escape(base))
    out = []
    with open('/proc/net/unix') as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 8 and rx.match(parts[7]):
                out.append(parts[7])
    return out


def main():
    ibfabric, netfile = os.path.abspath(sys.argv[1]), sys.argv[2]
    with Harness('daemon', timeout=100) as h:
        lib = find_umad2sim(h)
        h.need_file(netfile)
        # Console on a pipe that we close: stdin at EOF must not spin.
        fab = Fabric(h, ibfabric, netfile, extra=())
        host = first_ca(fab.nodes())
        osm, _ = start_opensm(h, fab, lib, host)

        # 0. An SM killed with SIGKILL never sends DISCONNECT: its slot is
        # freed within the 1 s liveness check, and a new OpenSM on the same
        # node reaches SUBNET UP (and so do the diags).
        h.stop(osm, signal.SIGKILL)
        h.wait_for(lambda: not fab.ctl.records('show clients', 'client'), timeout=5,
                   what='dead OpenSM reaped')
        osm, _ = start_opensm(h, fab, lib, host, name='opensm-again')

        # 1. Idle CPU, after the sweep settled.
        time.sleep(1.0)
        c0 = proc_cpu_seconds(fab.proc.pid)
        time.sleep(3.0)
        used = proc_cpu_seconds(fab.proc.pid) - c0
        h.info('ibfabric used %.3f s CPU in 3 s idle' % used)
        h.check(used < 0.06, 'idle CPU %.1f %% over 3 s (limit 2 %%)' % (used / 3 * 100))

        # 2. A second instance on the same name: clear message, exit 1.
        r = h.run([ibfabric, '--sock-name', fab.sock, '--no-console', netfile],
                  check=False, timeout=20)
        h.check_eq(r.returncode, 1, 'second instance exit code')
        h.check('in use' in r.stderr and fab.sock in r.stderr,
                'second instance message: %r' % r.stderr)
        h.check(fab.proc.alive(), 'first instance died')

        # 3. SIGTERM: exit 0, control socket file gone, abstract names gone.
        h.check(len(server_names(fab.sock)) > 1, 'ibfabric abstract sockets not seen')
        fab.ctl.close()
        rc = h.stop(fab.proc, signal.SIGTERM, timeout=10)
        h.check_eq(rc, 0, 'exit code after SIGTERM')
        h.check(not os.path.exists(fab.ctl_path), 'control socket %s left behind' % fab.ctl_path)
        left = server_names(fab.sock)
        h.check(not left, 'abstract sockets left: %s' % left)
        h.stop(osm)


if __name__ == '__main__':
    main()
