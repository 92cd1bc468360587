#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Telemetry of the IB libraries (issue 27): Debian's dpdk-testpmd drives
ibfabric's simulated MT25208 through net_mthca, OpenSM (through umad2sim
on a passive CA) brings its port ACTIVE, and Debian's dpdk-telemetry.py,
connected to testpmd's telemetry socket, reads /ib/devices,
/ib/port,<dev>,1 and /ibmad/stats. The port's state, LID, SM LID, GID
and P_Key are those OpenSM gave it, as the fabric's own record of the
port shows them (ibfabric's "show ports"); the MAD core has counted the
SM's MADs. A bad device or port answers null, and testpmd lives on.

usage: test_telemetry.py <ibfabric> <netfile> <librte_net_mthca.so>
"""

import json
import os
import sys

from simlib import Harness, find_umad2sim, start_opensm, testpmd_fabric

BDF = '0000:10:00.0'
IBDEV = 'mthca_' + BDF


def telemetry(h, prefix, cmds, env):
    """The answers of dpdk-telemetry.py to @cmds, one dict per command."""
    r = h.run(['dpdk-telemetry.py', '-f', prefix], input=''.join(c + '\n' for c in cmds),
              env=env, timeout=30)
    answers = []
    for line in r.stdout.splitlines():
        line = line.strip()
        if line.startswith('{'):
            answers.append(json.loads(line))
    h.check_eq(len(answers), len(cmds), 'answers of dpdk-telemetry.py (%r)' % r.stdout[-2000:])
    return [a.get(c.split(',')[0]) for a, c in zip(answers, cmds)]


def main():
    ibfabric, netfile, so = (os.path.abspath(a) for a in sys.argv[1:4])
    with Harness('telemetry', timeout=240) as h:
        for prog in ('dpdk-testpmd', 'dpdk-telemetry.py', 'opensm'):
            h.need_program(prog)
        fab, plugin, env = testpmd_fabric(h, ibfabric, netfile, so, 'tel', BDF)
        prefix = 'ibtel%d' % os.getpid()
        tp = h.spawn(['stdbuf', '-oL', 'dpdk-testpmd', '-d', plugin, '--no-huge', '-m', '128',
                      '--file-prefix', prefix, '-a', BDF + ',node_desc=telemetry-host',
                      '--', '-i', '--total-num-mbufs=4096'],
                     name='testpmd', stdin=True, env=env)
        h.wait_log(tp, 'testpmd>', timeout=60, line=False)
        start_opensm(h, fab, find_umad2sim(h), 'ca-sm')
        h.wait_log(tp, 'Port 0: link state change event', timeout=60)

        port = [p for p in fab.ports('hosta') if p['num'] == '1'][0]
        sm = [p for p in fab.ports('ca-sm') if p['num'] == '1'][0]
        h.info('fabric: hosta port 1 %r; SM port %r' % (port, sm))
        # no Python env of the sanitizer build in the client
        cenv = {'LD_PRELOAD': None}
        (devs, attr, mad_all, mad_one, bad_dev, bad_port, no_port,
         bad_mad) = telemetry(h, prefix, [
            '/ib/devices', '/ib/port,%s,1' % IBDEV, '/ibmad/stats', '/ibmad/stats,' + IBDEV,
            '/ib/port,nosuch,1', '/ib/port,%s,9' % IBDEV, '/ib/port,' + IBDEV,
            '/ibmad/stats,nosuch'], cenv)
        h.info('/ib/devices %r\n/ib/port %r\n/ibmad/stats %r' % (devs, attr, mad_all))
        h.check_eq(devs, [IBDEV], '/ib/devices')
        h.check_eq(attr['state'], 'ACTIVE', '/ib/port state')
        h.check_eq(port['state'], 'ACTIVE', 'the fabric\'s record of the port')
        h.check_eq(attr['lid'], int(port['lid']), '/ib/port lid (what OpenSM assigned)')
        h.check_eq(attr['sm_lid'], int(sm['lid']), '/ib/port sm_lid (OpenSM\'s port)')
        h.check_eq(attr['sm_lid'], int(port['sm_lid']), '/ib/port sm_lid (the port\'s PortInfo)')
        guid = int(port['guid'], 16)
        node = [n for n in fab.nodes() if n['name'] == 'hosta'][0]
        h.check_eq(int(attr['node_guid'], 16), int(node['guid'], 16), '/ib/port node_guid')
        gid = 'fe80:0000:0000:0000:' + ':'.join('%04x' % ((guid >> s) & 0xffff)
                                                for s in (48, 32, 16, 0))
        h.check_eq(attr['gids'], [gid], '/ib/port gids (default prefix + port GUID)')
        h.check('0xffff' in attr['pkeys'], '/ib/port pkeys lack the default partition: %r' %
                attr['pkeys'])
        h.check_eq(attr['eth_port'], 0, '/ib/port eth_port')
        h.check_eq(attr['rate_mbps'], 20000, '/ib/port rate_mbps (4x DDR)')
        h.check_eq(mad_all['devices'], 1, '/ibmad/stats devices')
        h.check_eq(mad_one['devices'], 1, '/ibmad/stats,%s devices' % IBDEV)
        h.check(mad_one['rx'] > 0 and mad_one['tx'] > 0 and mad_one['rx_local'] > 0,
                '/ibmad/stats: the SM\'s MADs not counted: %r' % mad_one)
        h.check(mad_all['rx'] <= mad_one['rx'], '/ibmad/stats counters went back')
        for what, got in (('/ib/port of an unknown device', bad_dev),
                          ('/ib/port of port 9', bad_port), ('/ib/port without a port', no_port),
                          ('/ibmad/stats of an unknown device', bad_mad)):
            h.check(got is None, '%s answered %r, not null' % (what, got))
        h.check(tp.alive(), 'testpmd died under telemetry')
        tp.write('quit\n')
        h.wait_for(lambda: not tp.alive(), timeout=30, what='testpmd to quit')
        h.check_eq(tp.popen.returncode, 0, 'testpmd exit status')


if __name__ == '__main__':
    main()
