#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""net_ipoib through EAL's real vdev probe, in Debian's dpdk-testpmd on
an ibfabric HCA (no SM needed: nothing here sends):

1. bad devargs and impossible ports fail their probe with a message
   naming the key and value (an unknown key, the invalid P_Key, a bad
   mode, an ethdev that does not exist, one that is not an IB port's,
   an IB port another net_ipoib already owns); testpmd runs on with the
   one good port, and the sanitizer build finds no leak at exit;
2. that port is closed and detached (rte_dev_remove()) and attached
   again (rte_dev_probe()) with testpmd's commands: the IB port's
   ethdev is given back and taken again, the new port works as the
   old one did;
3. the MAC cannot be changed (a clear error), the MTU is checked
   against the UD MTU;
4. what the control flush adds to an idle rx_burst (ipoib_flush_cost,
   a port made with rte_vdev_init() on the second HCA, its interface
   from rte_pmd_ipoib_get_if()): measured and printed, not judged
   (cycles move with load and sanitizers).

usage: test_ipoib_probe.py <ibfabric> <netfile> <librte_net_mthca.so>
                           <librte_net_ipoib.so> <ipoib_flush_cost>
"""

import os
import re
import sys

from simlib import Fabric, Harness, pmd_plugin_dir, sanitizer_preload

BDF = '0000:11:00.0'


def main():
    ibfabric, netfile, mthca_so, ipoib_so, flush_cost = (os.path.abspath(a)
                                                          for a in sys.argv[1:6])
    with Harness('ipoib_probe', timeout=200) as h:
        h.need_program('dpdk-testpmd')
        root = h.path('pci')
        Fabric(h, ibfabric, netfile, tag='ipprobe', extra=['--pci-root', root])
        h.wait_for(lambda: os.path.exists(os.path.join(root, BDF, 'iommu.sock')),
                   timeout=10, what='the simulated PCI function')
        plugdir = pmd_plugin_dir(h, (mthca_so, ipoib_so))
        env = dict(sanitizer_preload(h, ipoib_so), SYSFS_PCI_DEVICES=root,
                   LD_LIBRARY_PATH=None)
        prefix = 'ipprobe%d' % os.getpid()
        # (vdev, the message its failed probe must print)
        bad = [
            ('net_ipoib1,dev=%s,colour=blue' % BDF,
             'net_ipoib1: bad devargs: colour=blue: unknown key'),
            ('net_ipoib2,dev=%s,pkey=0x8000' % BDF,
             'net_ipoib2: bad devargs: pkey=0x8000: the invalid P_Key'),
            ('net_ipoib3,dev=%s,mode=ib' % BDF,
             'net_ipoib3: bad devargs: mode=ib: not eth or l3'),
            ('net_ipoib4,dev=0000:99:00.0',
             'net_ipoib4: dev=0000:99:00.0: no such ethdev'),
            ('net_ipoib5,dev=net_null0',
             'net_ipoib5: dev=net_null0: ethdev 2 is not an IB port\'s'),
            ('net_ipoib6,dev=%s' % BDF,
             'net_ipoib6: dev=%s: ethdev 0 is already owned by "net_ipoib0"' % BDF),
        ]
        vdevs = ['--vdev=net_null0', '--vdev=net_ipoib0,dev=%s,txq=2' % BDF]
        vdevs += ['--vdev=' + v for v, _ in bad]
        tp = h.spawn(['stdbuf', '-oL', 'dpdk-testpmd', '-d', plugdir, '--no-huge', '-m', '256',
                      '-l', '0,1', '--file-prefix', prefix, '-a', BDF] + vdevs +
                     ['--log-level=pmd.net.ipoib:info', '--', '-i', '--total-num-mbufs=2048'],
                     name='testpmd', stdin=True, env=env)
        h.wait_log(tp, 'testpmd>', timeout=90, line=False)

        def cmd(line, until=r'testpmd> $'):
            start = len(tp.log())
            tp.write(line + '\n')
            got = []

            def seen():
                text = tp.log()[start:]
                if re.search(until, text):
                    got.append(text)
                    return True
                return False
            h.wait_for(seen, timeout=20, what='%r answered' % line)
            return got[0]

        log = tp.log()
        for _, msg in bad:
            h.check(msg in log, 'probe failure not reported as %r:\n%s' % (msg, log[-4000:]))
        ipoib = [int(p) for p in re.findall(r'net_ipoib0: port (\d+) on ', log)]
        h.check_eq(len(ipoib), 1, 'one net_ipoib port probed')
        port = ipoib[0]
        out = cmd('show port summary all')
        h.check(re.search(r'^%d\s' % port, out, re.M) and not re.search(r'^0\s', out, re.M),
                'net_ipoib0 listed, the IB port\'s ethdev 0 not:\n%s' % out)
        h.check(not re.search(r'net_ipoib[1-6]', out), 'no port for a bad vdev:\n%s' % out)

        # 3. what the port refuses
        out = cmd('mac_addr set %d 02:00:00:00:00:01' % port)
        h.check('refused: a net_ipoib port\'s MAC is' in out, 'MAC change refused:\n' + out)
        out = cmd('port config mtu %d 5000' % port)
        # before the broadcast join the UD MTU is not known: dev_info's max_mtu is 4092
        h.check('device max MTU (4092)' in out, 'MTU 5000 refused (max_mtu 4092):\n' + out)
        out = cmd('mcast_addr add %d 02:00:00:00:00:02' % port)
        h.info('mcast_addr of a unicast MAC: ' + out.strip())
        out = cmd('mcast_addr add %d 01:00:5e:01:02:03' % port)
        h.check('Invalid' not in out and 'error' not in out.lower(),
                'a multicast MAC accepted:\n' + out)

        # 2. detach and attach again
        cmd('port stop %d' % port)
        cmd('port close %d' % port)
        # closing released the port (rte_eth_dev_close()); the vdev remains
        out = cmd('device detach net_ipoib0')
        h.check('is detached' in out, 'rte_dev_remove() of net_ipoib0:\n' + out)
        out = cmd('show port summary all')
        h.check(re.search(r'^0\s', out, re.M) is not None,
                'the IB port\'s ethdev 0 given back, visible again:\n' + out)
        out = cmd('port attach net_ipoib0,dev=%s,mode=l3,ipv4=10.9.0.1' % BDF,
                  r'(Port \d+ is attached|Failed)[\s\S]*testpmd> $')
        h.check(re.search(r'Port \d+ is attached', out), 'attach again:\n' + out)
        port = int(re.search(r'net_ipoib0: port (\d+) on ', out).group(1))
        out = cmd('show port summary all')
        h.check(re.search(r'^%d\s' % port, out, re.M) and not re.search(r'^0\s', out, re.M),
                'the new port listed, the IB port\'s ethdev taken again:\n%s' % out)
        out = cmd('show port info %d' % port, r'Driver name[\s\S]*testpmd> $')
        h.check('Driver name: net_ipoib' in out, 'the new port is net_ipoib:\n' + out)
        tp.write('quit\n')
        h.wait_for(lambda: not tp.alive(), timeout=60, what='testpmd quits')
        h.check_eq(tp.popen.returncode, 0, 'testpmd exit status')

        # 4. the flush's cost, on the other HCA
        other = '0000:10:00.0'
        fprefix = 'ipflush%d' % os.getpid()
        r = h.run([flush_cost, '--no-huge', '-m', '256', '-l', '1', '--file-prefix', fprefix,
                   '-a', other, '--', 'dev=' + other], env=env, timeout=120, check=False)
        out = r.stdout + r.stderr
        m = re.search(r'COST port_rx=(\d+) if_rx=(\d+) flush=(\d+)', out)
        h.check(r.returncode == 0 and m, 'ipoib_flush_cost:\n' + out[-3000:])
        port_rx, if_rx, flush = (int(x) for x in m.groups())
        h.info('idle rx_burst, cycles per call (median of 101 x 1000): net_ipoib port %d, '
               'interface alone %d, control flush alone %d' % (port_rx, if_rx, flush))
        # a figure, not a verdict: cycles move with the load and the
        # sanitizers (one CI pass: flush 112, idle receive 68); speed is
        # judged in test/bench, against a peer in the same run
        h.check(flush > 0 and if_rx > 0 and port_rx > 0, 'cycles measured: %s' % m.group(0))


if __name__ == '__main__':
    main()
