#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""infiniband-diags against ibfabric under OpenSM (issue 3, "Show" item 3):
smpquery nodeinfo|portinfo|nodedesc|pkeys, ibroute against the LFTs
ibfabric holds, ibtracert between two CAs, perfquery counters growing
with traffic, saquery NodeRecord and PathRecord (answered by OpenSM's
SA through an issm client), and ibportstate disable/enable of a switch
port with OpenSM sweeping the port back to ACTIVE.

usage: test_diags.py <ibfabric> <netfile>   (net.2sw2path4hca or alike)

Expected values come from ibfabric's control socket, not from the tool
under test, and the output formats from infiniband-diags 44 (what the tools print).
"""

import os
import re
import sys
import time

from simlib import Fabric, Harness, find_umad2sim, start_opensm


def field(text, name):
    """Value of 'Name:.....value' in smpquery/perfquery output."""
    m = re.search(r'^%s:\.*(.*)$' % re.escape(name), text, re.M)
    return m.group(1).strip() if m else None


def main():
    ibfabric, netfile = os.path.abspath(sys.argv[1]), sys.argv[2]
    with Harness('diags', timeout=170) as h:
        lib = find_umad2sim(h)
        h.need_file(netfile)
        for prog in ('smpquery', 'ibroute', 'ibtracert', 'perfquery', 'saquery', 'ibportstate'):
            h.need_program(prog)
        fab = Fabric(h, ibfabric, netfile)
        nodes = {n['name']: n for n in fab.nodes()}
        cas = [n for n in nodes.values() if n['type'] == 'ca']
        h.check(len(cas) >= 2, 'need two CAs in %s' % netfile)
        sm_host = cas[0]['name']
        # -s 1: sweep every second, so a re-enabled port is brought back soon.
        osm, _ = start_opensm(h, fab, lib, sm_host, sweep=1)
        env = fab.env(lib, sm_host)

        ports = {name: fab.ports(name) for name in nodes}

        def lid_of(name):
            n = nodes[name]
            num = '0' if n['type'] == 'switch' else '1'
            return int([p for p in ports[name] if p['num'] == num][0]['lid'])

        a, b = cas[0]['name'], cas[1]['name']
        lid_a, lid_b = lid_of(a), lid_of(b)

        # smpquery
        r = h.run(['smpquery', 'nodeinfo', str(lid_b)], env=env)
        h.check_eq(field(r.stdout, 'NodeType'), 'Channel Adapter', 'NodeType')
        h.check_eq(int(field(r.stdout, 'NumPorts')), int(nodes[b]['nports']), 'NumPorts')
        h.check_eq(int(field(r.stdout, 'Guid'), 16), int(nodes[b]['guid'], 16), 'node GUID')
        r = h.run(['smpquery', 'portinfo', str(lid_b), '1'], env=env)
        h.check_eq(int(field(r.stdout, 'Lid')), lid_b, 'PortInfo LID')
        h.check_eq(field(r.stdout, 'LinkState'), 'Active', 'LinkState')
        h.check_eq(field(r.stdout, 'PhysLinkState'), 'LinkUp', 'PhysLinkState')
        sm_lid = int(field(r.stdout, 'SMLid'))
        h.check_eq(sm_lid, lid_a, 'SMLid is the OpenSM port')
        r = h.run(['smpquery', 'nodedesc', str(lid_b)], env=env)
        h.check(nodes[b]['desc'] in r.stdout, 'nodedesc: %r' % r.stdout)
        r = h.run(['smpquery', 'pkeys', str(lid_b), '1'], env=env)
        h.check('0xffff' in r.stdout, 'default P_Key 0xffff: %r' % r.stdout)

        # ibroute on every switch: the LFT OpenSM programmed, as ibfabric holds it.
        lfts = {}
        for sw in [n for n in nodes.values() if n['type'] == 'switch']:
            lines = fab.ctl.cmd('show routes "%s"' % sw['name'])
            want = {}
            for ln in lines[1:]:
                m = re.match(r'route lid=(\d+) port=(\d+)', ln)
                want[int(m.group(1))] = int(m.group(2))
            r = h.run(['ibroute', str(lid_of(sw['name']))], env=env)
            got = {int(m.group(1), 16): int(m.group(2))
                   for m in re.finditer(r'^(0x[0-9a-fA-F]+) (\d+) :', r.stdout, re.M)}
            h.check(got and got == want, 'ibroute %s: %s, ibfabric: %s' % (sw['name'], got, want))
            lfts[sw['name']] = want

        # ibtracert between two CAs
        r = h.run(['ibtracert', str(lid_a), str(lid_b)], env=env)
        h.check('From ca' in r.stdout and 'To ca' in r.stdout and b in r.stdout,
                'ibtracert: %r' % r.stdout)
        # every hop: "[out] -> switch|ca port {guid}[in] lid L-L "desc"". The
        # first leaves a's port 1; each later one leaves a switch by the
        # port its LFT gives for lid_b; the last lands on b.
        hops = re.findall(r'^\[(\d+)\] -> (switch|ca) port \{0x[0-9a-fA-F]+\}\[(\d+)\] '
                          r'lid \d+-\d+ "([^"]*)"', r.stdout, re.M)
        h.check(len(hops) >= 2, 'ibtracert: no hops in %r' % r.stdout)
        by_desc = {n['desc']: n['name'] for n in nodes.values()}
        here = a
        for out, kind, _inport, desc in hops:
            if nodes[here]['type'] == 'switch':
                h.check_eq(int(out), lfts[here].get(lid_b), 'ibtracert: %s egress for LID %d'
                           % (here, lid_b))
            else:
                h.check_eq(int(out), 1, 'ibtracert: %s egress port' % here)
            h.check(desc in by_desc, 'ibtracert hop to unknown node %r' % desc)
            here = by_desc[desc]
            h.check_eq(nodes[here]['type'], 'switch' if kind == 'switch' else 'ca',
                       'ibtracert: type of %s' % here)
        h.check_eq(here, b, 'ibtracert: last hop')
        h.info('ibtracert %d -> %d: %d hops, each by the LFTs' % (lid_a, lid_b, len(hops)))

        # perfquery: counters grow with traffic
        def xmit_pkts():
            r = h.run(['perfquery', str(lid_b), '1'], env=env)
            return int(field(r.stdout, 'PortXmitPkts')), int(field(r.stdout, 'PortRcvPkts'))
        x0, r0 = xmit_pkts()
        for _ in range(5):
            h.run(['smpquery', 'nodedesc', str(lid_b)], env=env)
        x1, r1 = xmit_pkts()
        h.check(x1 >= x0 + 5 and r1 >= r0 + 5, 'perfquery: xmit %d -> %d, rcv %d -> %d' %
                (x0, x1, r0, r1))

        # saquery: records from OpenSM's SA
        r = h.run(['saquery', 'NR', str(lid_b)], env=env)
        h.check(nodes[b]['desc'] in r.stdout and 'NodeRecord' in r.stdout, 'saquery NR: %r' % r.stdout)
        r = h.run(['saquery', 'PR', '--slid', str(lid_a), '--dlid', str(lid_b)], env=env)
        h.check('PathRecord' in r.stdout and re.search(r'dlid\.+%d\b' % lid_b, r.stdout),
                'saquery PR: %r' % r.stdout)

        # ibping: vendor class 0x32 to a server that must be issm to get
        # unsolicited requests (ibsim.c sim_ctl_set_issm()); OpenSM keeps sweeping meanwhile
        # and must not knock it over with SMInfo polls (ibsim 0.10's libumad2sim crashes on those).
        if len(cas) >= 3 and h.need_program('ibping'):
            srv = cas[2]['name']
            ping_srv = h.spawn(['ibping', '-S'], name='ibping-server',
                               env=fab.env(lib, srv, issm=True), cwd=h.dir)
            h.wait_for(lambda: any(r['node'] == srv for r in
                                   fab.ctl.records('show clients', 'client')),
                       timeout=10, what='ibping server attached')
            time.sleep(1.5)
            r = h.run(['ibping', '-c', '3', str(lid_of(srv))], env=fab.env(lib, b), timeout=30)
            h.check('3 received' in r.stdout, 'ibping: %r' % r.stdout)
            h.check(ping_srv.alive(), 'ibping server died')
            h.stop(ping_srv)

        # sminfo: SMInfo is not answered by firmware; it reaches OpenSM (issm client).
        r = h.run(['sminfo'], env=fab.env(lib, b))
        h.check('sm lid %d' % lid_a in r.stdout and 'SMINFO_MASTER' in r.stdout, 'sminfo: %r' % r.stdout)

        # An undeliverable MAD is echoed at once with status 110 (ibsim.c find_client(),
        # sim_mad.c): three libibmad attempts fail in well under their 3 x 1 s.
        for argv in (['smpquery', 'nodeinfo', '999'], ['smpquery', '-D', 'nodeinfo', '0,7,7']):
            t0 = time.monotonic()
            r = h.run(argv, env=env, check=False, timeout=30)
            secs = time.monotonic() - t0
            # a refusal, not a crash: libibmad's own error, exit status > 0
            h.check(r.returncode > 0 and 'failed' in r.stderr,
                    '%s: rc %d, stderr %r' % (' '.join(argv), r.returncode, r.stderr))
            h.check(secs < 2.5, '%s: failed after %.2f s, not at once (libibmad alone '
                    'waits 3 x 1 s)' % (' '.join(argv), secs))

        # ibportstate disable/enable of the switch port facing CA b
        pb = [p for p in ports[b] if p['num'] == '1'][0]
        sw, swport = pb['peer'], pb['peer_port']
        sw_lid = lid_of(sw)
        traps_before = osm.log().count('num:128')
        h.run(['ibportstate', str(sw_lid), swport, 'disable'], env=env, timeout=60)
        # IBA 14.2.5.1: the switch reports the port change with trap 128 to
        # its SM, LID-routed now that the LFTs are set; OpenSM logs it.
        h.wait_for(lambda: osm.log().count('num:128') > traps_before, timeout=15,
                   what='OpenSM: a Generic Notice num:128 (port state change) from %s' % sw)

        def state(node, num):
            return [p for p in fab.ports(node) if p['num'] == str(num)][0]
        h.wait_for(lambda: state(b, 1)['state'] == 'DOWN', timeout=15, what='%s port 1 DOWN' % b)
        h.check_eq(state(sw, swport)['phys'], 'DISABLED', 'switch port physical state')
        h.run(['ibportstate', str(sw_lid), swport, 'enable'], env=env, timeout=60)
        h.wait_for(lambda: state(b, 1)['state'] == 'ACTIVE', timeout=30,
                   what='%s port 1 ACTIVE again after enable' % b)
        r = h.run(['smpquery', 'nodedesc', str(lid_of(b))], env=env)
        h.check(nodes[b]['desc'] in r.stdout, 'reachable after enable: %r' % r.stdout)


if __name__ == '__main__':
    main()
