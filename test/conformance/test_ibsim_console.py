#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""ibsim's console commands on ibfabric (issue 15).

usage: test_ibsim_console.py <ibfabric> <netfile> <script>

<script> has one line of each ibsim command in the syntax of ibsim's
own "help" (test/data/ibsim/console-help.cmd). It runs unchanged on the
real ibsim (its console, "!<file>") without one of ibsim's error lines,
and on ibfabric through "ibfabric ctl" with status 0. Then each command's
effect is checked as a user would see it: perfquery reads the counters
PerformanceSet wrote (the PMA serves them), the cables Unlink/Clear took
come back with ReLink and OpenSM brings them to ACTIVE, Guid and Baselid
show, Route follows the LFTs, Error with an AttributeID loses NodeInfo but
not PortInfo, X frees a client's slot, and "Wait" pauses commands
but not the fabric (a MAD is answered during it).
"""

import os
import re
import subprocess
import sys
import threading
import time

from simlib import Fabric, Harness, find_umad2sim, start_opensm

IBSIM_ERRORS = re.compile(r"# (nodeid|can't|bad|port \d|error rate|change baselid|command does not"
                          r"|attribute|field|value|no previous|set_guid|unlink:|set error|no local"
                          r"|no remote)|unknown - skipped|wait: bad")


def main():
    ibfabric, netfile, script = (os.path.abspath(a) for a in sys.argv[1:4])
    with Harness('ibsim_console', timeout=240) as h:
        lib = find_umad2sim(h)
        h.need_file(netfile)
        for prog in ('ibsim', 'perfquery', 'smpquery'):
            h.need_program(prog)

        # 1. The real ibsim takes the script without an error line.
        r = subprocess.run(['ibsim', '-s', netfile], input='!%s\nQuit\n' % script,
                           capture_output=True, text=True, timeout=60, cwd=h.dir,
                           env=dict(os.environ, IBSIM_SOCKNAME='cf%dibs' % os.getpid()))
        h.write_file('ibsim-console.txt', r.stdout + r.stderr)
        bad = [ln for ln in r.stdout.splitlines() if IBSIM_ERRORS.search(ln)]
        h.check('has been set to 250' in r.stdout, 'ibsim did not run the script:\n%s'
                % r.stdout[-2000:])
        h.check(not bad, 'ibsim refused lines of the script: %s' % bad)

        # 2. ibfabric, with OpenSM, through "ibfabric ctl".
        fab = Fabric(h, ibfabric, netfile)
        start_opensm(h, fab, lib, 'Hca1')

        def ctl(*cmd, check=True):
            return h.run([ibfabric, 'ctl', fab.ctl_path] + list(cmd), check=check)

        out = ctl('!' + script).stdout
        h.write_file('ibfabric-console.txt', out)
        for want in ('Switch1[3] PortCounters.SymbolErrorCounter has been set to 250',
                     'baselid node="Hca4" port=1 lid=40', 'guid node="Hca4" port=-1',
                     'relinked node="Hca2" ports=1', 'simulator verbose level is'):
            h.check(want in out, 'script output lacks %r:\n%s' % (want, out))
        nodes = {n['name']: n for n in fab.nodes()}
        h.check(nodes['Hca4']['guid'] == '0x0000000000077000', 'Guid: %s' % nodes['Hca4'])

        # Every cable is back and OpenSM (trap 128) has made it ACTIVE again.
        def all_active():
            return all(p['state'] == 'ACTIVE' for n, p in fab.all_ports() if 'peer' in p)
        h.wait_for(all_active, timeout=60, what='every cabled port ACTIVE after ReLink')
        ports = {(n['name'], p['num']): p for n, p in fab.all_ports()}
        h.check(ports[('Hca2', '1')].get('peer') == 'Switch2', 'Clear + ReLink: %s'
                % ports[('Hca2', '1')])
        h.check('peer' not in ports[('Switch1', '4')], 'Link + Unlink left a cable')

        # PerformanceSet wrote what the PMA serves.
        env = fab.env(lib, 'Hca1')
        sw1 = int(nodes['Switch1']['lid'])
        pq = h.run(['perfquery', str(sw1), '3'], env=env).stdout
        h.check(re.search(r'SymbolErrorCounter:\.*250\b', pq) and
                re.search(r'LinkDownedCounter:\.*3\b', pq), 'perfquery:\n%s' % pq)

        # Route follows the LFTs OpenSM programmed.
        lid1, lid4 = ports[('Hca1', '1')]['lid'], ports[('Hca4', '1')]['lid']
        rt = ctl('Route', lid1, lid4).stdout
        h.check(rt.startswith('From node "Hca1" port 1') and 'To node "Hca4" port 1' in rt,
                'Route:\n%s' % rt)

        # Error with an AttributeID: NodeInfo (0x11) is lost, PortInfo is not.
        sw2 = nodes['Switch2']['lid']
        ctl('Error "Switch2" 100 17')
        r = h.run(['smpquery', '-t', '200', 'nodeinfo', sw2], env=env, check=False)
        h.check(r.returncode != 0, 'NodeInfo answered through Error 100 17:\n%s' % r.stdout)
        h.run(['smpquery', '-t', '500', 'portinfo', sw2, '0'], env=env)
        ctl('Error "Switch2" 0')
        h.run(['smpquery', '-t', '500', 'nodeinfo', sw2], env=env)

        # Wait pauses the commands only: a MAD is answered meanwhile.
        took = {}

        def wait_cmd():
            t0 = time.monotonic()
            ctl('Wait', '2')
            took['wait'] = time.monotonic() - t0
        t = threading.Thread(target=wait_cmd)
        t.start()
        time.sleep(0.3)
        t0 = time.monotonic()
        h.run(['smpquery', '-t', '500', 'nodedesc', sw2], env=env)
        during = time.monotonic() - t0
        t.join()
        h.check(took.get('wait', 0) >= 2.0, 'Wait 2 took %s s' % took.get('wait'))
        h.check(during < 1.5, 'a MAD took %.2f s during Wait: the fabric stopped' % during)

        # X frees the slot of an attached client (OpenSM's here).
        slots = [c['slot'] for c in fab.ctl.records('show clients', 'client')]
        h.check(len(slots) >= 1, 'no attached client to kick')
        ctl('X', slots[0])
        left = [c['slot'] for c in fab.ctl.records('show clients', 'client')]
        h.check(slots[0] not in left, 'X %s: still attached (%s)' % (slots[0], left))
        r = ctl('X', '63', check=False)
        h.check(r.returncode == 1 and 'bad clientid' in r.stderr, 'X on a free slot: %s'
                % r.stderr)
        h.info('ibsim script ran on ibsim and ibfabric; effects checked')


if __name__ == '__main__':
    main()
