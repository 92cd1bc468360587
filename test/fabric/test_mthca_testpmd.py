#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""net_mthca in Debian's dpdk-testpmd (issue 13): loaded with -d from a
directory that is not world-writable, it probes ibfabric's simulated
MT25208, brings the HCA up (mem-free bring-up, doc/guides/nics/mthca.rst),
gives one ethdev per IB port, starts them, reports the firmware version
and the IB port counters (PMA PortCounters) among its xstats, and closes
cleanly: the model logs no DMA fault and no refused command. With OpenSM
on the fabric (through umad2sim on a passive CA), the MAD core that the
PMD loads answers the SM on the port's QP0: the port goes ACTIVE, testpmd
sees a link state change event and the link up at 20 Gb/s (4x DDR), and
ibnetdiscover shows the node with the NodeDescription given as devarg.
Bad devargs are refused with a message naming the key.

usage: test_mthca_testpmd.py <ibfabric> <netfile> <librte_net_mthca.so>
"""

import os
import re
import sys

from simlib import Harness, find_umad2sim, start_opensm, testpmd_fabric

BDF = '0000:10:00.0'


def testpmd(h, env, plugin, allow, cmds, tag):
    return h.run(['dpdk-testpmd', '-d', plugin, '--no-huge', '-m', '128',
                  '--file-prefix', 'mthcatp%s%d' % (tag, os.getpid()), '-a', allow,
                  '--log-level=pmd.net.mthca:info', '--', '-i', '--total-num-mbufs=4096'],
                 env=env, input=cmds, timeout=90, check=False)


def main():
    ibfabric, netfile, so = (os.path.abspath(a) for a in sys.argv[1:4])
    with Harness('mthca_testpmd', timeout=240) as h:
        h.need_program('dpdk-testpmd')
        # in the sanitizer build: the runtimes the PMD links, preloaded; the
        # PMD finds the project's libraries by itself (its RUNPATH)
        fab, plugin, env = testpmd_fabric(h, ibfabric, netfile, so, 'mtp', BDF)

        r = testpmd(h, env, plugin, BDF,
                    'show port info 0\nshow port xstats 0\nport stop all\nport start all\n'
                    'quit\n', 'a')
        out = r.stdout + r.stderr
        h.info('testpmd:\n' + out[-6000:])
        h.check_eq(r.returncode, 0, 'testpmd exit status')
        h.check('Probe PCI driver: net_mthca (15b3:6282) device: %s' % BDF in out,
                'net_mthca did not probe %s' % BDF)
        h.check('MT25208 (mem-free), firmware 5.3.0' in out, 'no bring-up line')
        h.check('Firmware-version: 5.3.0' in out, 'fw_version_get not shown')
        for name in ('rx_q0_packets', 'tx_q0_errors', 'tx_port_bytes', 'rx_port_packets',
                     'rx_port_symbol_errors', 'rx_port_vl15_dropped'):
            h.check(name + ':' in out, 'show port xstats lacks %s' % name)
        # every xstat named the DPDK way: snake_case, rx_/tx_ (or port_ for
        # the two IB link counters that watch neither direction)
        # the listing: 'name: value' lines after testpmd's header
        m = re.search(r'NIC extended statistics for port 0 *\n((?:\w+: \d+\n)+)', out)
        names = re.findall(r'^(\w+): ', m.group(1) if m else '', re.M)
        bad = [n for n in names if not re.match(r'^(rx|tx|port)_[a-z0-9_]+$', n)]
        h.check(len(names) > 40 and not bad, 'xstats not named the DPDK way: %r' % bad)
        h.check('Port 1 is closed' in out, 'the second IB port was not an ethdev')
        log = fab.proc.log()
        for bad in ('DMA fault', 'refused', 'error:'):
            h.check(bad not in log, 'ibfabric logged "%s":\n%s' % (bad, log[-3000:]))

        # bad devargs: a clear error naming the key, no probe
        r = testpmd(h, env, plugin, BDF + ',colour=blue', 'quit\n', 'b')
        out = r.stdout + r.stderr
        h.check('bad devargs "colour=blue"' in out, 'bad devargs not reported:\n' + out[-2000:])
        h.check('Probe PCI driver: net_mthca' not in out or 'Requested device' in out or
                'No probed ethernet devices' in out, 'probe went on with bad devargs')
        long_desc = 'x' * 65
        r = testpmd(h, env, plugin, BDF + ',node_desc=' + long_desc, 'quit\n', 'c')
        out = r.stdout + r.stderr
        h.check('node_desc=%s: a NodeDescription is 1 to 64 characters' % long_desc in out,
                'a 65-byte node_desc was not refused:\n' + out[-2000:])
        r = testpmd(h, env, plugin, BDF + ',node_desc=host\x1b[2Jb', 'quit\n', 'e')
        out = r.stdout + r.stderr
        h.check('node_desc=host\\x1b[2Jb: control character 0x1b at byte 4' in out,
                'a node_desc with an escape character was not refused:\n' + out[-2000:])

        # with an SM (testpmd's stdout line-buffered: the test reads it as it goes)
        # the port comes up through the PMD's special QPs and the MAD core
        lib = find_umad2sim(h)
        h.need_program('opensm')
        h.need_program('ibnetdiscover')
        tp = h.spawn(['stdbuf', '-oL', 'dpdk-testpmd', '-d', plugin, '--no-huge', '-m', '128',
                      '--file-prefix', 'mthcatpd%d' % os.getpid(),
                      '-a', BDF + ',node_desc=dpdk-testpmd-hosta',
                      '--log-level=pmd.net.mthca:info', '--', '-i', '--total-num-mbufs=4096'],
                     name='testpmd', stdin=True, env=env)
        h.wait_log(tp, 'testpmd>', timeout=60, line=False)
        start_opensm(h, fab, lib, 'ca-sm')
        h.wait_log(tp, 'Port 0: link state change event', timeout=60)
        tp.write('show port info 0\n')
        h.wait_log(tp, 'Link speed: 20 Gbps', timeout=10)
        r = h.run(['ibnetdiscover'], env=fab.env(lib, 'ca-sm'), timeout=60)
        h.write_file('ibnetdiscover.txt', r.stdout)
        h.check('"dpdk-testpmd-hosta"' in r.stdout,
                'ibnetdiscover does not show the NodeDescription:\n' + r.stdout)
        # OpenSM made the port ACTIVE, and testpmd's MAD core answers SMPs
        # from the wire: directed-route (ca-sm[1] -> sw[2] -> hosta) and by LID
        port = [p for p in fab.ports('hosta') if p['num'] == '1'][0]
        h.check_eq(port['state'], 'ACTIVE', 'the testpmd host\'s port under OpenSM')
        for argv in (['-D', 'portinfo', '0,1,2', '1'], ['portinfo', port['lid'], '1']):
            r = h.run(['smpquery'] + argv, env=fab.env(lib, 'ca-sm'), timeout=60)
            h.check(re.search(r'^LinkState:\.+Active$', r.stdout, re.M) and
                    re.search(r'^Lid:\.+%s$' % port['lid'], r.stdout, re.M),
                    'smpquery %s: %r' % (' '.join(argv), r.stdout))
        # a second process on the function in use is told so
        r = testpmd(h, env, plugin, BDF, 'quit\n', 'f')
        out = r.stdout + r.stderr
        h.check('PCI function in use: another process is its host' in out and
                'Broken pipe' not in out,
                'a second host of the function was not told it is in use:\n' + out[-2000:])
        h.check(tp.alive(), 'the first testpmd survived the second')
        tp.write('show port xstats 0\nquit\n')
        h.wait_for(lambda: not tp.alive(), timeout=30, what='testpmd to quit')
        h.check_eq(tp.popen.returncode, 0, 'testpmd exit status')
        out = tp.log()
        h.check('Link status: up' in out, 'port 0 link not up')
        h.check('rx_mad_packets: 0\n' not in out, 'the MAD core received no MAD')
        h.check_eq(h.stop(fab.proc), 0, 'ibfabric exit status')


if __name__ == '__main__':
    main()
