#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Every complete topology of the parser corpus (test/data/ibnetdiscover,
real ibnetdiscover dumps) comes up under OpenSM, and the real
ibnetdiscover finds in ibfabric what the dump says (issue 15).

usage: test_corpus.py <ibfabric> <corpus dir>

A dump is complete when every cable it lists is listed at both ends.
The comparison is of structure, read from both texts by this file's own
parser (not ibfabric's): node ids ("S-<GUID>", "H-<GUID>", or ibsim's
names), NumPorts where the dump gives it, and each cable end-to-end.
Where both ends of a cable in the dump show the same active rate
("4xEDR"), ibnetdiscover must print that rate on ibfabric too.
"""

import os
import re
import sys

from simlib import Fabric, Harness, find_umad2sim, first_ca, start_opensm

HEAD = re.compile(r'^\s*(Switch|Hca|Ca|Rt)\s+(\d+)\s+"([^"]+)"')
PORT = re.compile(r'^\s*\[(\d+)\](?:\[ext \d+\])?(?:\([0-9a-fA-F]+\))?\s+"([^"]+)"\[(\d+)\]')
RATE = re.compile(r'lid \d+ (\d+x[A-Z0-9]+)\s*(?:s=\d+ w=\d+ v=\d+)?\s*$')
REPORT = re.compile(r'^(SW|CA|RT)\s+(\d+)\s+(\d+)\s+0x([0-9a-f]+)\s+(\S+)\s+(\S+)'
                    r'(?:\s+-\s+(SW|CA|RT)\s+\d+\s+(\d+)\s+0x([0-9a-f]+))?')
PREFIX = {'SW': 'S', 'CA': 'H', 'RT': 'R'}


def read_dump(text):
    """{id: nports or None}, {(id, port): (peer id, peer port)}, {(id, port): rate}."""
    nodes, ends, rates = {}, {}, {}
    cur = None
    for line in text.splitlines():
        m = HEAD.match(line)
        if m:
            cur = m.group(3)
            nodes[cur] = int(m.group(2))
            continue
        m = PORT.match(line)
        if m and cur is not None:
            ends[(cur, int(m.group(1)))] = (m.group(2), int(m.group(3)))
            r = RATE.search(line.split('#', 1)[1]) if '#' in line else None
            if r:
                rates[(cur, int(m.group(1)))] = r.group(1)
            continue
        m = REPORT.match(line)
        if m:
            a = '%s-%016x' % (PREFIX[m.group(1)], int(m.group(4), 16))
            nodes.setdefault(a, None)
            if m.group(7):
                b = '%s-%016x' % (PREFIX[m.group(7)], int(m.group(9), 16))
                nodes.setdefault(b, None)
                ends[(a, int(m.group(3)))] = (b, int(m.group(8)))
                if m.group(5) != '?' and m.group(6) != '?':
                    rates[(a, int(m.group(3)))] = m.group(5) + m.group(6)
        elif line.strip() and not line.lstrip().startswith('['):
            cur = None if not line.startswith(('vendid', 'devid', 'sysimg', 'switchguid',
                                               'caguid', 'rtguid')) else cur
    return nodes, ends, rates


def diags_know_xdr():
    """Whether the installed libibmad can print XDR (212.5 Gb/s lanes)."""
    for d in ('/usr/lib/x86_64-linux-gnu', '/usr/lib64', '/usr/lib'):
        p = os.path.join(d, 'libibmad.so.5')
        if os.path.exists(p):
            with open(p, 'rb') as f:
                return b'212.5 Gbps' in f.read()
    return False


def complete(ends):
    return bool(ends) and all(ends.get(peer) == mine for mine, peer in ends.items())


def main():
    ibfabric, corpus = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    with Harness('corpus', timeout=600) as h:
        lib = find_umad2sim(h)
        h.need_program('ibnetdiscover')
        files = sorted(f for f in os.listdir(corpus) if f.endswith('.net'))
        h.check(len(files) > 0, 'no corpus in %s' % corpus)
        ran = 0
        for i, name in enumerate(files):
            path = os.path.join(corpus, name)
            with open(path) as fh:
                want_nodes, want_ends, want_rates = read_dump(fh.read())
            if not complete(want_ends):
                h.info('%s: not a complete topology, parse-only (unit test topo_corpus)' % name)
                continue
            fab = Fabric(h, ibfabric, path, tag='c%d' % i)
            # An SM on a CA, or on switch port 0 where there is none.
            host = first_ca(fab.nodes()) or next(
                n['name'] for n in fab.nodes() if n['type'] == 'switch')
            osm, secs = start_opensm(h, fab, lib, host, name='opensm-%d' % i)
            r = h.run(['ibnetdiscover'], env=fab.env(lib, host), timeout=60)
            h.write_file('ibnetdiscover-%s.txt' % name, r.stdout)
            got_nodes, got_ends, got_rates = read_dump(r.stdout)
            # ibnetdiscover names nodes by GUID; ibsim-format files by name.
            by_guid = all(re.match(r'^[SHR]-[0-9a-f]{16}$', n) for n in want_nodes)
            if not by_guid:
                names = {n['guid'][2:]: n['name'] for n in fab.nodes()}
                ren = {g: names.get(g[2:], g) for g in got_nodes}
                got_nodes = {ren[k]: v for k, v in got_nodes.items()}
                got_ends = {(ren[a], p): (ren[b], q) for (a, p), (b, q) in got_ends.items()}
                got_rates = {(ren[a], p): v for (a, p), v in got_rates.items()}
            h.check(set(got_nodes) == set(want_nodes),
                    '%s: nodes differ: only ibfabric %s, only dump %s' %
                    (name, sorted(set(got_nodes) - set(want_nodes)),
                     sorted(set(want_nodes) - set(got_nodes))))
            for n, np in want_nodes.items():
                h.check(np is None or got_nodes[n] == np,
                        '%s: %s NumPorts %s, dump %s' % (name, n, got_nodes[n], np))
            h.check(got_ends == want_ends, '%s: cables differ: only ibfabric %s, only dump %s' %
                    (name, sorted(set(got_ends.items()) - set(want_ends.items())),
                     sorted(set(want_ends.items()) - set(got_ends.items()))))
            nrates = 0
            for end, rate in want_rates.items():
                if want_rates.get(want_ends[end]) != rate:
                    continue    # the dump's two ends disagree: nothing to hold to
                got = got_rates.get(end)
                if rate.endswith('XDR') and got == rate[:-3] + 'NDR' and not diags_know_xdr():
                    h.info('%s: %s[%d]: %s shown as %s: the installed diags predate '
                           'LinkSpeedExtActive2 (rdma-core < v50)' % (name, end[0], end[1],
                                                                     rate, got))
                    continue
                h.check(got == rate, '%s: %s[%d] rate %s, dump %s' %
                        (name, end[0], end[1], got, rate))
                nrates += 1
            # iblinkinfo reads PortInfo itself: an EDR link shows its lane rate.
            if any(r.endswith('EDR') for r in want_rates.values()):
                r = h.run(['iblinkinfo'], env=fab.env(lib, host), timeout=60)
                h.check('25.78125 Gbps' in r.stdout, '%s: iblinkinfo shows no EDR lane rate:\n%s'
                        % (name, r.stdout[-2000:]))
            h.info('%s: SUBNET UP in %.1f s; %d nodes, %d cables, %d rates as in the dump'
                   % (name, secs, len(want_nodes), len(want_ends) // 2, nrates))
            h.stop(osm)
            fab.ctl.close()
            h.stop(fab.proc)
            ran += 1
        h.check(ran > 0, 'no complete topology in the corpus')


if __name__ == '__main__':
    main()
