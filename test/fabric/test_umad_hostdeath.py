#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""When the DPDK host dies, its user-MAD clients stop
(doc/guides/prog_guide/ibmad_umad.rst, "When the host dies"): OpenSM runs
on the host through dpdk-ib-ns (on the channel, or on FUSE with
DPDK_IB_UMAD_CHANNEL=0 in the environment), the host is killed
(SIGKILL), and OpenSM must wait, not spin: its receiver thread's read()
waits instead of failing at once, so that in 4 s OpenSM logs its
receive error ("ERR 5404") a few times at most, not thousands, and uses
little CPU; a raw client's write() fails with EIO on both transports.
OpenSM still ends on SIGTERM."""

import os
import signal
import sys
import time

from simlib import Harness
from umad_host import UmadHost

WRITER = ('import errno, os, sys, time\n'
          'sys.path.insert(0, sys.argv[2])\n'
          'from umad_client import Umad\n'
          'u = Umad(sys.argv[1])\n'
          'a = u.register(0)\n'
          'print("READY", flush=True)\n'
          'while not os.path.exists(sys.argv[3]):\n'
          '    time.sleep(0.05)\n'
          'try:\n'
          '    u.send(a, 1, 4, 0x12)\n'
          '    print("WROTE", flush=True)\n'
          'except OSError as e:\n'
          '    print("WRITE " + errno.errorcode.get(e.errno, str(e.errno)), flush=True)\n')


def cpu_s(pid):
    with open('/proc/%d/stat' % pid) as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def main():
    mode = 'FUSE' if os.environ.get('DPDK_IB_UMAD_CHANNEL') == '0' else 'channel'
    with Harness('umad_hostdeath', timeout=200) as h:
        for prog in ('opensm', 'unshare'):
            h.need_program(prog)
        u = UmadHost(h, 'uhd')
        osm = u.opensm()
        here = os.path.dirname(os.path.abspath(__file__))
        go = h.path('go')
        w = u.spawn([sys.executable, h.write_file('writer.py', WRITER),
                     '/dev/infiniband/umad0', here, go], 'writer')
        h.wait_log(w, 'READY', timeout=30)
        u.stats_are({'files': 2}, 'OpenSM and the writer hold a umad file each')

        os.kill(u.host.pid, signal.SIGKILL)
        h.wait_for(lambda: not u.host.alive(), timeout=10, what='the DPDK host dies')
        time.sleep(1)
        errs0 = osm.log().count('ERR 5404')
        t0 = cpu_s(osm.pid)
        time.sleep(4)
        used = cpu_s(osm.pid) - t0
        errs = osm.log().count('ERR 5404') - errs0
        h.info('%s: in 4 s after the host died OpenSM used %.2f s of CPU and logged '
               'ERR 5404 %d times' % (mode, used, errs))
        h.check(osm.alive(), 'OpenSM waits (it has not crashed)')
        h.check(errs <= 10, '%s: OpenSM spins on its receive error: %d ERR 5404 in 4 s'
                % (mode, errs))
        h.check(used < 1.0, '%s: OpenSM used %.2f s of CPU in 4 s' % (mode, used))
        open(go, 'w').close()
        h.wait_log(w, 'WRITE', timeout=10)
        h.check('WRITE EIO' in w.log(), '%s: a write after the host died: %r'
                % (mode, w.log()))
        h.check_eq(h.stop(osm, timeout=20) is not None, True, 'OpenSM ends on SIGTERM')


if __name__ == '__main__':
    main()
