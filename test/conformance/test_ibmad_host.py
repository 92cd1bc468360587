# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""The MAD core (lib/ibmad) serving an MT25208 model under a real OpenSM.

usage: test_ibmad_host.py IBFABRIC IBMAD_HOST NETFILE

ibmad_host (test/conformance/ibmad_host.c) brings the HCA of "hosta" up
with the driver-less host library and registers it with lib/ib; from then
on only the MAD core answers its QP0/QP1, on its control thread. OpenSM on
the passive CA "ca-sm" sweeps it with directed-route SMPs through the
switch; the checks:

- the port goes ACTIVE, and the MAD core raised LID_CHANGE and SM_CHANGE
  (snooped Set(PortInfo), Linux smp_snoop()) with the LID the fabric shows
  and OpenSM's LID;
- the NodeDescription OpenSM's SA, ibnetdiscover and smpquery see is the
  one the device was registered with (Linux node_desc_override()), not the
  firmware's;
- smpquery over directed route (IBA 14.2.2) and perfquery (PMA through
  MAD_IFC) answer; PortXmitPkts grows;
- at exit no MAD was dropped as invalid or by the SMI rules.
"""

import os
import re
import sys

from simlib import Fabric, Harness, find_umad2sim, start_opensm

NODE_DESC = 'ibmad-host hosta'


def main():
    ibfabric, ibmad_host, net = (os.path.abspath(x) for x in sys.argv[1:4])
    with Harness('ibmad_host', timeout=170) as h:
        root = h.path('pci')
        fab = Fabric(h, ibfabric, net, extra=['--pci-root', root])
        h.wait_for(lambda: os.path.isdir(root) and
                   len([d for d in os.listdir(root) if d.startswith('0000:')]) == 2,
                   timeout=10, what='two PCI functions under ' + root)
        a = sorted(os.path.join(root, d) for d in os.listdir(root) if d.startswith('0000:'))[0]
        lib = find_umad2sim(h)
        sm, _ = start_opensm(h, fab, lib, 'ca-sm', sweep=1)
        host = h.spawn([ibmad_host, 'serve', a, NODE_DESC], name='ibmad_host')
        h.wait_log(host, 'ibmad_host: up', timeout=30)
        h.wait_log(host, 'ibmad_host: port ACTIVE', timeout=90)
        port = [p for p in fab.ports('hosta') if p['num'] == '1'][0]
        h.check_eq(port['state'], 'ACTIVE', 'hosta port 1 on the fabric')
        lid = int(port['lid'])
        sm_lid = int([p for p in fab.ports('ca-sm') if p['num'] == '1'][0]['lid'])

        # Snooped Set(PortInfo): the events carry the cache lib/ib refreshed.
        h.wait_log(host, 'event LID_CHANGE port 1 lid %d ' % lid, timeout=10)
        h.wait_log(host, 'event SM_CHANGE port 1 lid %d sm_lid %d' % (lid, sm_lid),
                   timeout=10)
        h.info('hosta LID %d, SM LID %d: LID_CHANGE and SM_CHANGE seen' % (lid, sm_lid))

        h.need_program('saquery')
        h.need_program('smpquery')
        h.need_program('perfquery')
        h.need_program('ibnetdiscover')
        env = fab.env(lib, 'ca-sm')
        r = h.run(['saquery', 'NR', str(lid)], env=env, timeout=30)
        h.check(NODE_DESC in r.stdout, "OpenSM's NodeRecord of LID %d: %r" % (lid, r.stdout))
        r = h.run(['smpquery', 'nodedesc', str(lid)], env=env, timeout=30)
        h.check(NODE_DESC in r.stdout, 'smpquery nodedesc %d: %r' % (lid, r.stdout))
        # Directed route, two hops: out of ca-sm port 1, switch port 2.
        r = h.run(['smpquery', '-D', 'nodedesc', '0,1,2'], env=env, timeout=30)
        h.check(NODE_DESC in r.stdout, 'smpquery -D nodedesc 0,1,2: %r' % r.stdout)
        r = h.run(['smpquery', '-D', 'portinfo', '0,1,2'], env=env, timeout=30)
        m = re.search(r'^Lid:\.+(\d+)', r.stdout, re.M)
        h.check(m is not None and int(m.group(1)) == lid,
                'smpquery -D portinfo 0,1,2: LID %d in %r' % (lid, r.stdout))
        r = h.run(['ibnetdiscover'], env=env, timeout=60)
        h.check(NODE_DESC in r.stdout, 'ibnetdiscover does not list %r:\n%s'
                % (NODE_DESC, r.stdout))

        def xmit_pkts():
            r = h.run(['perfquery', str(lid), '1'], env=env, timeout=30)
            m = re.search(r'^PortXmitPkts:\.+(\d+)', r.stdout, re.M)
            h.check(m is not None, 'perfquery %d 1: %r' % (lid, r.stdout))
            return int(m.group(1))
        first = xmit_pkts()
        second = xmit_pkts()
        h.check(second > first > 0, 'PortXmitPkts %d then %d' % (first, second))
        h.info('smpquery (LID and DR), saquery, ibnetdiscover, perfquery answered; '
               'PortXmitPkts %d -> %d' % (first, second))

        h.stop(host)
        m = re.search(r'ibmad_host: stats rx (\d+) rx_local (\d+) rx_smi_discard (\d+) '
                      r'rx_invalid (\d+) rx_no_agent (\d+) tx (\d+) tx_error (\d+)', host.log())
        h.check(m is not None, 'no stats line at exit:\n' + host.log()[-2000:])
        rx, local, smi, invalid, no_agent, tx, tx_error = (int(x) for x in m.groups())
        h.check(rx > 0 and local > 0 and tx > 0, 'stats: %s' % m.group(0))
        h.check_eq(smi, 0, 'MADs the SMI rules dropped')
        h.check_eq(invalid, 0, 'MADs dropped as invalid')
        h.check_eq(tx_error, 0, 'sends the device refused')
        h.info(m.group(0))
        h.stop(sm)


if __name__ == '__main__':
    main()
