#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""The demo, usertools/ipoib-demo.sh (issue 27), as a user runs it:

1. on default.net it runs its eight steps, each with its time, and ends
   with exit status 0 and a report: iperf3 throughput, ping RTTs, the
   packets of every cable, the drops, a capture file tshark reads with
   ARP and ICMP over IPoIB in it; nothing it started is left (processes,
   namespaces);
2. on a fabric without the two MT25208 hosts it names the failing step
   and exits non-zero.

Its iperf3 step runs IPERF_S seconds (IPOIB_DEMO_IPERF_S) instead of the
demo's 10: the report's checks need a stream, not its length.

usage: test_demo.py <ipoib-demo.sh> <build dir> <top dir>
"""

import os
import re
import subprocess
import sys

from harness import Harness

IPERF_S = 3

def namespaces():
    r = subprocess.run(['ip', 'netns', 'list'], capture_output=True, text=True)
    return {ln.split()[0] for ln in r.stdout.splitlines() if ln.startswith('ipoib-demo-')}


def main():
    demo, build, top = (os.path.abspath(a) for a in sys.argv[1:4])
    with Harness('demo', timeout=280) as h:
        h.need_program('tshark')
        before = namespaces()
        capture = h.path('demo.pcapng')
        p = h.spawn([demo, build], name='demo', env={'IPOIB_DEMO_CAPTURE': capture,
                                                    'IPOIB_DEMO_IPERF_S': str(IPERF_S)})
        h.wait_for(lambda: not p.alive(), timeout=240, interval=0.5, what='the demo ends')
        out = p.log()
        h.check_eq(p.popen.returncode, 0, 'demo exit status (%s)' % out[-3000:])
        steps = re.findall(r'^\[(\d)/8\] (.*)$', out, re.M)
        h.check_eq([int(n) for n, _ in steps], list(range(1, 9)), 'the eight steps')
        h.check_eq(steps[6][1], 'iperf3 TCP host1 -> host2, %d s' % IPERF_S,
                   'step 7 runs IPOIB_DEMO_IPERF_S seconds')
        h.check_eq(len(re.findall(r'^      done in \d+\.\d s$', out, re.M)), 8,
                   'a time for each step')
        for what in (r'host1 port 1: LID \d+, ACTIVE', r'host2 port 1: LID \d+, ACTIVE',
                     r'# "host1"', r'# "host2"', r'SUBNET UP'):
            h.check(re.search(what, out), 'the bring-up shows %r' % what)
        m = re.search(r'throughput +iperf3 TCP host1 -> host2: ([\d.]+) Mbit/s', out)
        h.check(m and float(m.group(1)) > 0, 'the report\'s throughput')
        rtt = re.search(r'RTT \(avg\) +IPv4 ([\d.]+) ms, IPv6 ([\d.]+) ms, '
                        r'IPv6 link-local ([\d.]+) ms', out)
        h.check(rtt, 'the report\'s RTTs')
        cables = re.findall(r'^    (\S+\[\d\]) +-> (\S+\[\d\]) +(\d+) +<- +(\d+)$', out, re.M)
        h.check_eq(len(cables), 6, 'six cables in default.net, each once: %s' % cables)
        h.check(any(a == 'host1[1]' and int(x) > 10000 for a, _, x, _ in cables),
                'host1\'s cable carried the stream: %s' % cables)
        for host in ('host1', 'host2'):
            h.check(re.search(r'^    %s kernel link: ib->kernel rx=\d+' % host, out, re.M),
                    'drops of %s\'s kernel link' % host)
            h.check(re.search(r'^    %s net_ipoib0: ' % host, out, re.M),
                    'drops of %s\'s net_ipoib0' % host)
        m = re.search(r'^ipoib-demo: done in (\d+) s$', out, re.M)
        h.check(m, 'the total time')
        h.info('demo: %s s (goal: under 60 once built), %s Mbit/s, RTT %s ms' %
               (m.group(1), re.search(r'host2: ([\d.]+) Mbit', out).group(1), rtt.group(1)))
        m = re.search(r'^  capture +%s: (\d+) packets of the ping step on every link '
                      r'\((\d+) ARP, (\d+) ICMP, (\d+) ICMPv6\)$' % re.escape(capture), out, re.M)
        h.check(m, 'the report names the capture and what it holds')
        # 6 pings of 3 + 1 each way, each crossing 3 cables, seen at both
        # ends of each: ICMP echo and reply counted per crossing
        h.check(int(m.group(3)) >= 2 * 4 * 3 and int(m.group(4)) >= 4 * 4 * 3 and
                int(m.group(2)) >= 2, 'the capture holds ARP, ICMP and ICMPv6: %s' % m.group(0))
        copy = capture[:-len('.pcapng')] + '.user0.pcapng'
        r = h.run(['tshark', '-r', copy, '-o',
                   'uat:user_dlts:"User 0 (DLT=147)","infiniband","0","","0",""',
                   '-Y', '_ws.malformed'], timeout=120)
        h.check_eq(r.stdout.strip(), '', 'malformed packets in the capture')
        h.check_eq(namespaces() - before, set(), 'namespaces left by the demo')
        h.check('ipoib-demo: kept' not in out, 'the scratch directory is removed')

        # a fabric without host1 and host2: step 1 fails, named
        bad = os.path.join(top, 'config', 'fabrics', 'ibnetdiscover-sample.net')
        r = h.run([demo, build, bad], timeout=60, check=False,
                  env={'IPOIB_DEMO_CAPTURE': h.path('bad.pcapng')})
        out = r.stdout + r.stderr
        h.check(r.returncode != 0, 'exit status %d on a fabric without the hosts' % r.returncode)
        h.check(re.search(r'ipoib-demo: step 1 \(ibfabric on ibnetdiscover-sample.net\) failed '
                          r'after [\d.]+ s', out), 'the failing step named:\n%s' % out[-2000:])
        h.check_eq(namespaces() - before, set(), 'namespaces left by the failed demo')


if __name__ == '__main__':
    main()
