#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""net_mthca's counters from a secondary process (issue 27): Debian's
dpdk-testpmd, the primary, drives ibfabric's simulated MT25208 from
hugepages (a hugetlbfs this test mounts and reserves pages for, both
given back at teardown), OpenSM brings the port up, and testpmd's
txonly runs: every datagram is dropped for want of an address handle
(tx_q0_no_ah, oerrors; doc/guides/nics/mthca.rst). Debian's
dpdk-proc-info, a secondary process with the PMD loaded, then shows the
same basic stats and xstats as testpmd itself (the queue counters from
shared memory, the IB port's PMA and MAD counters read by the primary
on the secondary's request), and its --xstats-reset clears every
counter, as testpmd then shows.

usage: test_proc_info.py <ibfabric> <netfile> <librte_net_mthca.so>
"""

import os
import platform
import re
import sys
import time

from simlib import Harness, find_umad2sim, start_opensm, testpmd_fabric

BDF = '0000:10:00.0'
PAGES = 96          # 2 MiB pages: testpmd's -m 128 and its mbufs
# A secondary maps what the primary mapped at the same addresses, also
# the areas the kernel placed (EAL's fbarrays): with address space layout
# randomisation one run in a few finds one taken by its own libraries
# (seen under ASan). Both processes without it, as DPDK's multi-process
# guide advises.
NO_ASLR = ['setarch', platform.machine(), '-R']


def xstats(text):
    """name -> value of the 'name: value' lines of an xstats listing."""
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r'^\s*([a-z][a-z0-9_]*): (\d+)\s*$', text, re.M)}


def main():
    ibfabric, netfile, so = (os.path.abspath(a) for a in sys.argv[1:4])
    with Harness('proc_info', timeout=240) as h:
        for prog in ('dpdk-testpmd', 'dpdk-proc-info', 'opensm', 'mount', 'umount', 'setarch'):
            h.need_program(prog)
        if os.geteuid() != 0:
            h.fail('hugepages and hugetlbfs need root')
        fab, plugin, env = testpmd_fabric(h, ibfabric, netfile, so, 'pinf', BDF)
        mnt = h.hugetlbfs(PAGES)
        prefix = 'ibpinf%d' % os.getpid()
        # DPDK's memory at an address both processes leave free, also under
        # ASan: its default (4 GiB up) is ASan's shadow gap, 0x6000_0000_0000
        # its allocator's, and the primary's fallback (below the libraries)
        # is where the secondary's are. IOVA as VA: with 2 MiB pages in PA
        # mode the PMD's 2 MiB + 4 KiB queue buffers need two physically
        # adjacent pages (doc/guides/nics/mthca.rst, Prerequisites).
        eal = ['-d', plugin, '--huge-dir', mnt, '--file-prefix', prefix, '-a', BDF,
               '--base-virtaddr', '0x200000000000', '--iova-mode=va']
        tp = h.spawn(NO_ASLR + ['stdbuf', '-oL', 'dpdk-testpmd', '-m', '128'] + eal +
                     ['--', '-i', '--total-num-mbufs=4096'], name='testpmd', stdin=True,
                     env=env)
        # cleanups run before the harness stops its processes, newest
        # first: testpmd goes before its hugetlbfs is unmounted
        h.on_teardown(lambda: tp.alive() and h.stop(tp, timeout=10))
        h.wait_log(tp, 'testpmd>', timeout=60, line=False)
        start_opensm(h, fab, find_umad2sim(h), 'ca-sm')
        h.wait_log(tp, 'Port 0: link state change event', timeout=60)

        # txonly on net_mthca: no address handle, every datagram counted and dropped
        tp.write('set fwd txonly\nstart\n')
        time.sleep(1)
        tp.write('stop\n')
        h.wait_log(tp, 'Done.', timeout=30)
        mark = len(tp.log())
        tp.write('show port xstats 0\nshow port stats 0\n')
        h.wait_for(lambda: 'Tx-pps' in tp.log()[mark:], timeout=10, what='testpmd\'s stats')
        mine = tp.log()[mark:]
        x_tp = xstats(mine)
        h.check(x_tp.get('tx_q0_no_ah', 0) > 0, 'txonly counted no tx_q0_no_ah: %r' % x_tp)

        def proc_info(args, tag):
            r = h.run(NO_ASLR + ['dpdk-proc-info'] + eal + ['--log-level=pmd.net.mthca:info', '--',
                                                   '-p', '1'] + args,
                      env=env, timeout=60, check=False)
            out = r.stdout + r.stderr
            h.write_file('proc-info-%s.txt' % tag, out)
            h.check_eq(r.returncode, 0, 'dpdk-proc-info %s exit status (%s)' %
                       (' '.join(args), out[-2000:]))
            return out

        # one listing per run: proc-info shows --stats or else --xstats
        out = proc_info(['--stats'], 'stats')
        x_pi = xstats(proc_info(['--xstats'], 'xstats'))
        h.info('proc-info: %d xstats, testpmd: %d' % (len(x_pi), len(x_tp)))
        for k, v in x_tp.items():
            if k.startswith(('rx_port_', 'tx_port_', 'rx_mad_', 'tx_mad_', 'port_link_')):
                # the IB port's counters move with the SM's MADs: never back
                h.check(x_pi.get(k, -1) >= v, 'proc-info %s %s < testpmd\'s %d' %
                        (k, x_pi.get(k), v))
            else:
                h.check_eq(x_pi.get(k), v, 'proc-info\'s xstat %s (testpmd\'s)' % k)
        h.check(x_pi['rx_port_packets'] > 0 and x_pi['rx_mad_packets'] > 0,
                'the IB counters the primary read for proc-info are zero: %r' % x_pi)
        m = re.search(r'TX-packets:\s*(\d+)\s+TX-errors:\s*(\d+)', out)
        h.check(m is not None, 'proc-info --stats printed no TX line:\n' + out[-2000:])
        h.check_eq(int(m.group(2)), x_tp['tx_q0_no_ah'], 'proc-info TX-errors (oerrors)')

        # a reset from the secondary clears every counter the primary shows
        proc_info(['--xstats-reset'], 'reset')
        mark = len(tp.log())
        tp.write('show port xstats 0\nshow port stats 0\n')
        h.wait_for(lambda: 'Tx-pps' in tp.log()[mark:], timeout=10, what='testpmd\'s stats')
        after = xstats(tp.log()[mark:])
        for k in ('tx_q0_no_ah', 'tx_q0_errors', 'tx_q0_packets', 'rx_port_packets',
                  'tx_port_packets', 'rx_mad_packets'):
            h.check(after.get(k, -1) <= 2 if k.endswith(('_packets',)) and 'q0' not in k
                    else after.get(k) == 0,
                    'after proc-info --xstats-reset, testpmd shows %s = %s' % (k, after.get(k)))
        h.check(tp.alive(), 'testpmd died beside proc-info')
        tp.write('quit\n')
        h.wait_for(lambda: not tp.alive(), timeout=30, what='testpmd to quit')
        h.check_eq(tp.popen.returncode, 0, 'testpmd exit status')
        log = fab.proc.log()
        h.check('DMA fault' not in log, 'ibfabric logged a DMA fault:\n' + log[-3000:])


if __name__ == '__main__':
    main()
