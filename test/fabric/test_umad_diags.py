#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""The infiniband-diags not shown by test_umad_service.py, through
usertools/dpdk-ib-ns on DPDK hosts (issue 14,
doc/guides/prog_guide/ibumad_lib.rst), and saquery's tables on a fat
tree of 128 CAs, each checked against what ibfabric says the fabric is.

Fabric: "ibfabric gen fattree --hosts 128" (8 leaves, 6 spines, 14
switches, 126 passive CAs), with H0001 (first leaf) and H0128 (last
leaf) MT25208 models: DPDK host A (test/fabric/sa_host, idle) runs
OpenSM through the wrapper; DPDK host B (sa_host, answering commands)
has its own user-MAD service. Then, through the wrapper:

1. ibstatus on B: default GID (from B's port GUID), base LID, SM LID
   (A's), state ACTIVE, LinkUp;
2. ibaddr on A: A's own GID and LID; ibaddr <B's LID> from A: B's GID;
3. ibroute <first leaf> from A: one LFT entry per LID of the fabric,
   each naming the port GUID that owns the LID; the leaf's CAs leave by
   the port they are cabled to, the rest by a spine uplink, the leaf's
   own LID by port 0;
4. ibtracert A -> B: every hop is a cable of the net file (out port to
   the peer's in port), the first leaf's out port is its LFT entry for
   B, the path ends at B's port;
5. ibping: the server (ibping -S) on B, the client on A, by LID: every
   ping answered by B's LID;
6. saquery from B (OpenSM's RMPP segments sent by A's MAD core,
   reassembled by B's): NodeRecord table: every node of the fabric,
   GUIDs and LIDs as ibfabric has them; PathRecord from B: one record to
   every LID, DGID = the GID of the LID's port; the whole PathRecord
   table (142 x 142 records, 1.29 MB: longer than one FUSE request,
   written by OpenSM and read by saquery in several pieces, see
   doc/guides/prog_guide/ibumad_lib.rst), with saquery's default
   time-out: exactly one record per pair of LID-bearing ports (CA
   ports, switch port 0), SLID/DLID/SGID/DGID as ibfabric has them; the
   same again over a link that drops 1 packet in 1,000 leaving A (windows
   resent after their time-out, retries counted per window; saquery -t);
   MCMemberRecord after B joined 16 groups (SA client of librte_ibmad):
   every joined group, with the MLID the join got, and the broadcast
   group.

usage: test_umad_diags.py <ibfabric> <sa_host> <libibumad_preload.so> <dpdk-ib-ns>
"""

import collections
import ipaddress
import os
import re
import subprocess
import sys
import time

from simlib import Fabric, Harness, sa_host_answer as answer

BDF = {'a': '0000:10:00.0', 'b': '0000:11:00.0'}
NODE = {'a': 'H0001', 'b': 'H0128'}
GROUPS = 16


def gid_of(guid):
    """The link-local GID of a port GUID (IBA 4.1.1), compressed."""
    return str(ipaddress.IPv6Address((0xfe80 << 112) | guid))


def dump_fields(text, head):
    """saquery's '<head> dump:' blocks as dicts of their dotted fields."""
    recs = []
    for block in text.split(head + ' dump:')[1:]:
        recs.append({m.group(1): m.group(2).strip()
                     for m in re.finditer(r'^\s*(\w+)\.+(.*)$', block, re.M)})
    return recs


def main():
    ibfabric, sa_host, preload, ns = (os.path.abspath(a) for a in sys.argv[1:5])
    with Harness('umad_diags', timeout=280) as h:
        for prog in ('opensm', 'ibstatus', 'ibaddr', 'ibroute', 'ibtracert', 'ibping',
                     'saquery', 'unshare'):
            h.need_program(prog)
        net = h.path('fattree.net')
        h.run([ibfabric, 'gen', 'fattree', '--hosts', '128', '--active', '1', '-o', net])
        with open(net) as f:
            text = f.read()
        with open(net, 'w') as f:
            f.write(text.replace('Ca\t1 "H0128"', 'Ca\t1 "H0128" active=mt25208'))
        root = h.path('pci')
        fab = Fabric(h, ibfabric, net, tag='udg', extra=['--pci-root', root])
        env = {'DPDK_IB_UMAD_PRELOAD': preload}
        runs, hosts = {}, {}
        for t in ('a', 'b'):
            h.wait_for(lambda: os.path.exists(os.path.join(root, BDF[t], 'iommu.sock')),
                       timeout=10, what='the simulated PCI function %s' % BDF[t])
            runs[t] = h.path('umad-' + t)
            os.makedirs(runs[t])
            h.on_teardown(lambda d=runs[t]: subprocess.run(
                ['umount', '-l', os.path.join(d, 'dev')], stderr=subprocess.DEVNULL))
            hosts[t] = h.spawn([sa_host, '--no-huge', '-m', '256', '--file-prefix',
                                'udg%s%d' % (t, os.getpid()), '-a', BDF[t],
                                '--log-level=lib.ibmad:info', '--'] +
                               (['idle'] if t == 'a' else []), name='host-' + t, stdin=True,
                               env={'SYSFS_PCI_DEVICES': root, 'DPDK_IB_UMAD_DIR': runs[t]})
        for t in ('a', 'b'):
            h.wait_for(lambda: os.path.exists(os.path.join(
                runs[t], 'sys/class/infiniband_mad/umad0/port')) and os.path.exists(
                os.path.join(runs[t], 'dev', 'umad0')), timeout=90,
                what='the user-MAD service of host %s' % t)

        def tool(t, argv, timeout=60, check=True):
            r = h.run([ns, runs[t]] + argv, env=env, timeout=timeout, check=check)
            h.write_file('%s-%s.txt' % (t, '_'.join(argv)[:60].replace('/', '_')), r.stdout)
            return r

        osm = h.spawn([ns, runs['a'], 'opensm', '-F', '/dev/null', '-f', '-', '-d2', '-s', '0'],
                      name='opensm', env=env)
        h.wait_log(osm, 'SUBNET UP', timeout=150)
        h.wait_log(hosts['b'], 'READY', timeout=60)

        # The fabric as ibfabric has it: LID -> (node, port GUID), cables.
        nodes = {n['name']: n for n in fab.nodes()}
        ports = {name: {int(p['num']): p for p in fab.ports(name)} for name in nodes}
        by_lid, node_guid = {}, {}
        for name, n in nodes.items():
            node_guid[name] = int(n['guid'], 16)
            base = ports[name][0 if n['type'] == 'switch' else 1]
            h.check_eq(base['state'], 'ACTIVE', '%s after SUBNET UP' % name)
            by_lid[int(base['lid'])] = (name, int(base['guid'], 16))
        h.check_eq(len(by_lid), len(nodes), 'one LID per node')
        h.check_eq(sum(1 for n in nodes.values() if n['type'] == 'ca'), 128, 'CAs')
        lid = {t: int(ports[NODE[t]][1]['lid']) for t in NODE}
        pguid = {t: int(ports[NODE[t]][1]['guid'], 16) for t in NODE}
        ready = hosts['b'].log().split('READY ', 1)[1].split('\n', 1)[0]
        h.check('lid=%d sm_lid=%d ' % (lid['b'], lid['a']) in ready + ' ',
                'host B: %r, fabric: LID %d, SM %d' % (ready, lid['b'], lid['a']))

        # 1. ibstatus (sysfs only); the attributes follow the port within 1 s
        def ibstatus_active():
            out = tool('b', ['ibstatus']).stdout
            return out if 'base lid:\t 0x%x\n' % lid['b'] in out else None
        out = h.wait_for(ibstatus_active, timeout=10, what='ibstatus with the LID')
        want_gid = 'fe80:0000:0000:0000:%04x:%04x:%04x:%04x' % tuple(
            (pguid['b'] >> s) & 0xffff for s in (48, 32, 16, 0))
        for key, val in (('default gid', want_gid), ('base lid', '0x%x' % lid['b']),
                         ('sm lid', '0x%x' % lid['a']), ('state', '4: ACTIVE'),
                         ('phys state', '5: LinkUp')):
            m = re.search(r'^\s*%s:\s+(.*)$' % key, out, re.M)
            h.check(m is not None and m.group(1).strip() == val,
                    'ibstatus %s: %r, expected %r' % (key, m and m.group(1), val))

        # 2. ibaddr: local, and a remote port by LID
        for t, argv in (('a', []), ('a', [str(lid['b'])])):
            who = 'b' if argv else 'a'
            out = tool(t, ['ibaddr'] + argv).stdout
            m = re.match(r'GID (\S+) LID start 0x([0-9a-f]+) end 0x([0-9a-f]+)', out)
            h.check(m is not None, 'ibaddr %s: %r' % (argv, out))
            h.check_eq(m.group(1), gid_of(pguid[who]), 'ibaddr %s GID' % argv)
            h.check_eq(int(m.group(2), 16), lid[who], 'ibaddr %s LID' % argv)

        # 3. ibroute: the first leaf's LFT
        leaf = [p['peer'] for p in ports[NODE['a']].values() if p.get('peer')][0]
        leaf_lid = int(ports[leaf][0]['lid'])
        out = tool('a', ['ibroute', str(leaf_lid)]).stdout
        h.check('guid 0x%016x (%s)' % (node_guid[leaf], leaf) in out.splitlines()[0],
                'ibroute header: %r' % out.splitlines()[0])
        lft = {}
        for m in re.finditer(r'^0x([0-9a-f]{4}) (\d{3}) : \((Channel Adapter|Switch) '
                             r'portguid 0x([0-9a-f]+):', out, re.M):
            lft[int(m.group(1), 16)] = (int(m.group(2)), int(m.group(4), 16))
        h.check_eq(sorted(lft), sorted(by_lid), 'ibroute: the LIDs routed')
        down = {}
        for num, p in ports[leaf].items():
            peer = p.get('peer')
            if peer and nodes[peer]['type'] == 'ca':
                down[int(ports[peer][1]['lid'])] = num
        for dlid, (out_port, guid) in lft.items():
            name, owner = by_lid[dlid]
            h.check_eq(guid, owner, 'ibroute: port GUID of LID %d' % dlid)
            if dlid == leaf_lid:
                h.check_eq(out_port, 0, 'ibroute: the leaf\'s own LID')
            elif dlid in down:
                h.check_eq(out_port, down[dlid], 'ibroute: LID %d (%s)' % (dlid, name))
            else:
                up = ports[leaf][out_port].get('peer')
                h.check(up is not None and nodes[up]['type'] == 'switch' and
                        up.startswith('S'), 'ibroute: LID %d leaves by port %d to %r'
                        % (dlid, out_port, up))
        h.info('ibroute %s: %d LIDs, %d down to its CAs' % (leaf, len(lft), len(down)))

        # 4. ibtracert A -> B
        out = tool('a', ['ibtracert', str(lid['a']), str(lid['b'])]).stdout
        lines = out.strip().splitlines()
        h.check(lines[0].startswith('From ca {0x%016x} portnum 1 lid %d-%d' %
                                    (node_guid[NODE['a']], lid['a'], lid['a'])),
                'ibtracert start: %r' % lines[0])
        h.check(lines[-1].startswith('To ca {0x%016x} portnum 1 lid %d-%d' %
                                     (node_guid[NODE['b']], lid['b'], lid['b'])),
                'ibtracert end: %r' % lines[-1])
        guid_node = {g: name for name, g in node_guid.items()}
        for name, g in ((n, int(p[1]['guid'], 16)) for n, p in ports.items()
                        if nodes[n]['type'] == 'ca'):
            guid_node[g] = name
        at, hops = NODE['a'], []
        for ln in lines[1:-1]:
            m = re.match(r'\[(\d+)\] -> (?:switch|ca) port \{0x([0-9a-f]+)\}\[(\d+)\]', ln)
            h.check(m is not None, 'ibtracert hop: %r' % ln)
            out_port, guid, in_port = int(m.group(1)), int(m.group(2), 16), int(m.group(3))
            nxt = guid_node.get(guid)
            cable = ports[at][out_port]
            h.check(cable.get('peer') == nxt and int(cable['peer_port']) == in_port,
                    'ibtracert: %s[%d] -> %s[%d] is not a cable (%r)' %
                    (at, out_port, nxt, in_port, cable))
            hops.append(nxt)
            at = nxt
        h.check_eq(at, NODE['b'], 'ibtracert ends at')
        h.check_eq(hops[0], leaf, 'ibtracert first switch')
        first_out = int(re.match(r'\[(\d+)\]', lines[2]).group(1))
        h.check_eq(first_out, lft[lid['b']][0], 'the first leaf forwards B as its LFT says')
        h.info('ibtracert: %s' % ' -> '.join([NODE['a']] + hops))

        # 5. ibping: server on B, client on A
        srv = h.spawn([ns, runs['b'], 'ibping', '-S'], name='ibping-server', env=env)
        out = ''
        # the server registers its agent after it starts: a first ping may go unanswered
        for attempt in range(3):
            r = tool('a', ['ibping', '-c', '5', '-L', str(lid['b'])], check=False)
            out = r.stdout
            if r.returncode == 0 and '5 received' in out:
                break
            h.check(srv.alive(), 'ibping -S exited: %r' % srv.log())
        h.check('5 packets transmitted, 5 received, 0% packet loss' in out,
                'ibping A -> B: %r' % out)
        h.check_eq(len(re.findall(r'Pong from .* \(Lid %d\): time [\d.]+ ms' % lid['b'], out)),
                   5, 'pongs from B\'s LID')
        h.stop(srv)

        # 6. saquery from B
        recs = dump_fields(tool('b', ['saquery', '-N']).stdout, 'NodeRecord')
        got = {int(r['lid'], 0): int(r['node_guid'], 16) for r in recs}
        h.check_eq(len(recs), len(nodes), 'saquery -N: records')
        h.check_eq(got, {lid_: node_guid[name] for lid_, (name, _) in by_lid.items()},
                   'saquery -N: every node GUID at its LID')
        h.check(len(recs) * 108 > 200 * 8, 'the NodeRecord table spans many RMPP segments')

        recs = dump_fields(tool('b', ['saquery', 'PR', '--slid', str(lid['b'])]).stdout,
                           'PathRecord')
        h.check_eq(len(recs), len(by_lid), 'saquery PR --slid B: records')
        h.check_eq({int(r['dlid'], 0): r['dgid'] for r in recs},
                   {lid_: gid_of(g) for lid_, (_, g) in by_lid.items()},
                   'saquery PR --slid B: one path to every LID, DGID of its port')
        h.check(all(int(r['slid'], 0) == lid['b'] and r['sgid'] == gid_of(pguid['b'])
                    for r in recs), 'saquery PR: every path from B')

        # The whole table: every (source, destination) pair once, and each
        # MAD core's line for its transfer (doc/guides/prog_guide/ibmad_lib.rst).
        size = 56 + 64 * len(by_lid) ** 2
        segs = (size - 56 + 199) // 200
        want = {(s_, d_) for s_ in by_lid for d_ in by_lid}

        def whole_table(argv, nth, what):
            t0 = time.monotonic()
            out = tool('b', ['saquery'] + argv + ['PR'], timeout=90).stdout
            took = time.monotonic() - t0
            pairs = collections.Counter()
            bad = []
            for r in dump_fields(out, 'PathRecord'):
                slid, dlid = int(r['slid'], 0), int(r['dlid'], 0)
                pairs[slid, dlid] += 1
                if slid not in by_lid or dlid not in by_lid or (r['sgid'], r['dgid']) != \
                        (gid_of(by_lid[slid][1]), gid_of(by_lid[dlid][1])):
                    bad.append(r)
            h.check_eq(sum(pairs.values()), len(by_lid) ** 2, '%s: records' % what)
            h.check_eq(sorted(p for p, n in pairs.items() if n > 1), [],
                       '%s: pairs given more than once' % what)
            h.check_eq(sorted(want - set(pairs)), [], '%s: pairs missing' % what)
            h.check_eq(sorted(set(pairs) - want), [], '%s: pairs of no two ports' % what)
            h.check_eq(bad[:3], [], '%s: records whose GIDs are not their LIDs\' ports' % what)
            fig = {}
            for t, side in (('a', 'send'), ('b', 'receive')):
                pat = re.compile(r'RMPP %s TID \S+ \w+: %d segments, %d bytes in (\d+) us '
                                 r'\((\d+) segments/s\), (\d+) ACKs, (\d+) windows resent, '
                                 r'(\d+) segments dropped' % (side, segs, size))
                fig[t] = h.wait_for(lambda: (pat.findall(hosts[t].log()) + [None] * nth)[nth],
                                    timeout=10, what='host %s\'s RMPP %s line for %s'
                                    % (t, side, what))
            h.info('%s: %d records (a %d-byte RMPP message) in %.2f s; the transfer: sent '
                   'in %.1f ms, received in %.1f ms (%s segments/s), %s ACKs, %s windows '
                   'resent, %s segments dropped' % (
                       what, sum(pairs.values()), size, took, int(fig['a'][0]) / 1e3,
                       int(fig['b'][0]) / 1e3, fig['b'][1], fig['b'][2], fig['a'][3],
                       fig['b'][4]))
            return fig

        whole_table([], 0, 'saquery PR')
        # Again over a link that loses 1 packet in 1,000 leaving A: windows
        # time out (1 s each: OpenSM sends responses without a time-out of
        # their own) and are resent; the table is as whole. saquery's
        # time-out must cover the resends.
        stats = dict(kv.split('=') for kv in fab.ctl.cmd('show stats')[0].split()[1:])
        fab.ctl.cmd('fault "%s" 1 drop=1000 corrupt=0' % NODE['a'])
        fig = whole_table(['-t', '60000'], 1, 'saquery PR, lossy link')
        fab.ctl.cmd('fault "%s" 1 drop=0 corrupt=0' % NODE['a'])
        lost = int(dict(kv.split('=') for kv in fab.ctl.cmd('show stats')[0].split()[1:])[
            'pkts_dropped']) - int(stats['pkts_dropped'])
        h.info('lossy link: %d packets dropped by the fabric' % lost)
        if lost > 0:
            h.check(int(fig['a'][3]) > 0, 'packets lost, no window resent: %r' % (fig,))

        mlids = {}
        for i in range(GROUPS):
            mgid = 'ff12:601b:ffff::1:ff00:%x' % (0x100 + i)
            ok = answer(h, hosts['b'], 'JOIN %s' % mgid)[-1]
            mlids[mgid] = int(ok.split('mlid=')[1].split()[0], 16)
        mlids['ff12:401b:ffff::ffff:ffff'] = None
        recs = dump_fields(tool('b', ['saquery', 'MCMR']).stdout, 'MCMember Record')
        # to a requester without the SM_Key, OpenSM blanks PortGid and JoinState
        h.check_eq(sorted(r['MGID'] for r in recs), sorted(mlids),
                   'saquery MCMR: the groups B joined and the broadcast group, once each')
        for r in recs:
            if mlids[r['MGID']] is not None:
                h.check_eq(int(r['mlid'], 16), mlids[r['MGID']], 'MLID of %s' % r['MGID'])
        h.check(len(recs) * 56 > 200 * 4, 'the MCMemberRecord table spans RMPP segments')
        h.info('saquery: %d NodeRecords, %d PathRecords from B, %d in all, '
               '%d MCMemberRecords' % (len(by_lid), len(by_lid), len(by_lid) ** 2, len(recs)))

        answer(h, hosts['b'], 'QUIT')
        h.wait_for(lambda: not hosts['b'].alive(), timeout=30, what='host B exits')


if __name__ == '__main__':
    main()
