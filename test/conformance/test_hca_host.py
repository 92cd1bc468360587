# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Conformance of ibfabric's MT25208 model against a driver-less host.

usage: test_hca_host.py SCENARIO IBFABRIC HCA_HOST NETFILE [STYLE]

STYLE is the host style hca_host plays (linux, the default, or ipxe):
Linux mthca's or iPXE arbel.c's way of driving the same silicon
(doc/guides/nics/mthca_hw.rst, "Host styles"). Every scenario must pass
in both.

Scenarios (the host side is test/lib/hca_host/hca_host.c):
  commands    every implemented firmware command, byte checks, an error
              status each, reset (no SM)
  faults      DMA fault, bad L_Key, bounds, flush in error (no SM)
  ud          OpenSM on the passive CA configures both hosts through their
              QP0 agents (MAD_IFC + MLX sends); one UD datagram each way,
              CQ arming, a P_Key violation (trap 257 to the SM), Q_Key drop,
              local length error
  pkey        OpenSM with a partition file (0x0123: hosta full and limited,
              hostb limited; 0x0456: both limited; the default one): every
              IBA 10.9.3 membership row both ways, each refusal's trap 257
              decoded from the capture
  disappear   a host brought up to ACTIVE is killed: its HCA resets and its
              port goes down on the fabric (the SM sees it); a new host
              attaches and comes back to ACTIVE
  matrix      the buggy-driver matrix: host A commits one driver bug per row
              and the HCA must answer as silicon does; then the row without
              the bug must work (rows: MATRIX_ROWS, space-separated, in the
              environment; all of them if unset)
  matrix_dr   the matrix row OpenSM sees: a host whose QP0 agent answers
              directed-route SMPs without the D bit (IBA 14.2.2.3; Linux
              mthca_process_mad() sets it, MAD_IFC does not) never gets its
              port configured; the same host with the bit set does
"""

import os
import re
import sys
import time

from pcaplib import check_pcap, read_pcap
from simlib import Fabric, Harness, TestFailure, find_umad2sim, start_opensm


def pci_dirs(root):
    """Device directories under the PCI root, in bus order (hosta, hostb)."""
    return sorted(os.path.join(root, d) for d in os.listdir(root) if d.startswith('0000:'))


def port_state(fab, node):
    for p in fab.ports(node):
        if p['num'] == '1':
            return p['state'], p['phys']
    return None, None


def be(b):
    return int.from_bytes(b, 'big')


def check_trap_257(h, pkts, slid, sqp, dlid, dqp):
    """The Bad P_Key trap B sent OpenSM, decoded field by field against the
    refused datagram as it was on the wire (both from the capture).

    The datagram: LRH SLID @slid -> DLID @dlid, BTH DestQP @dqp, DETH
    SrcQP @sqp. Its trap: a LID-routed SubnTrap(Notice) (IBA 13.4.8.2,
    class 0x01, method 0x05, attribute 0x0002), generic, type 2
    (Security), producer CA, trap number 257, IssuerLID @dlid; DataDetails
    (IBA 14.2.5.1 table 147): LID1 the SLID, LID2 the DLID, Key the P_Key
    (32 bits), SL and QP1 the source QP, QP2 the destination QP, GID1 and
    GID2 zero (no GRH). OpenSM answers a trap it took with a TrapRepress
    (method 0x07) of the same TID (IBA 13.4.9).
    """
    def ud(p):
        return len(p) >= 28 and p[1] & 3 == 2 and p[8] == 0x64

    data = [p for p in pkts if ud(p) and be(p[6:8]) == slid and be(p[2:4]) == dlid and
            be(p[13:16]) == dqp and be(p[25:28]) == sqp]
    h.check(data, 'the refused datagram (LID %d QP 0x%x -> LID %d QP 0x%x) is not in the '
            'capture' % (slid, sqp, dlid, dqp))
    d = data[0]
    pkey, sl = be(d[10:12]), d[1] >> 4
    # this row's trap: from the receiver, about this source and destination QP
    traps = [p for p in pkts if ud(p) and len(p) >= 28 + 256 and be(p[13:16]) == 0 and
             p[29] == 0x01 and p[31] == 0x05 and be(p[44:46]) == 0x0002 and
             be(p[28 + 64 + 4:28 + 64 + 6]) == 257 and be(p[6:8]) == dlid and
             be(p[28 + 64 + 10 + 11:28 + 64 + 10 + 14]) == sqp and
             be(p[28 + 64 + 10 + 15:28 + 64 + 10 + 18]) == dqp]
    h.check(traps, 'no SubnTrap(Notice 257) from LID %d about QP 0x%x -> QP 0x%x in the '
            'capture' % (dlid, sqp, dqp))
    for t in traps:
        mad = t[28:28 + 256]
        n = mad[64:]
        dd = n[10:60]
        h.check_eq(be(t[6:8]), dlid, 'trap 257 LRH SLID (the port that refused)')
        h.check_eq(n[0], 0x82, 'trap 257 IsGeneric 1, Type 2 (Security)')
        h.check_eq(be(n[1:4]), 1, 'trap 257 ProducerType (CA)')
        h.check_eq(be(n[6:8]), dlid, 'trap 257 IssuerLID')
        h.check_eq(be(dd[0:2]), 0, 'trap 257 DataDetails reserved')
        h.check_eq(be(dd[2:4]), slid, 'trap 257 LID1 (the datagram\'s SLID)')
        h.check_eq(be(dd[4:6]), dlid, 'trap 257 LID2 (the datagram\'s DLID)')
        h.check_eq(be(dd[6:10]), pkey, 'trap 257 Key (the datagram\'s P_Key 0x%04x)' % pkey)
        h.check_eq(dd[10] >> 4, sl, 'trap 257 SL')
        h.check_eq(be(dd[11:14]), sqp, 'trap 257 QP1 (source QP)')
        h.check_eq(be(dd[14:18]), dqp, 'trap 257 QP2 (destination QP)')
        h.check_eq(bytes(dd[18:50]), bytes(32), 'trap 257 GID1, GID2 (no GRH)')
    sm_lid, tid = be(traps[0][2:4]), be(traps[0][28 + 8:28 + 16])
    # OpenSM's umad layer answers with the low 32 bits of the TID only (the
    # high half names a umad agent, Linux ib_mad): compare those
    rep = [p for p in pkts if ud(p) and len(p) >= 28 + 256 and p[29] == 0x01 and
           p[31] == 0x07 and be(p[6:8]) == sm_lid and be(p[2:4]) == dlid and
           be(p[40:44]) == tid & 0xffffffff]
    h.check(rep, 'no TrapRepress from OpenSM (LID %d) for trap TID 0x%x' % (sm_lid, tid))
    h.info('trap 257 from LID %d to OpenSM at LID %d: LID1 %d LID2 %d P_Key 0x%04x SL %d '
           'QP1 0x%x QP2 0x%x, repressed' % (dlid, sm_lid, slid, dlid, pkey, sl, sqp, dqp))


def run_pkey(h, fab, lib, host, a, b, pcap):
    """Partitions under OpenSM (opensm(8) PARTITION CONFIGURATION; -W lets
    hosta hold both the full and the limited member of 0x0123)."""
    guid = {n: [p for p in fab.ports(n) if p['num'] == '1'][0]['guid']
            for n in ('hosta', 'hostb')}
    conf = h.write_file('partitions.conf',
                        'Default=0x7fff : ALL=full ;\n'
                        'P1=0x0123 : %s=both, %s=limited ;\n'
                        'P2=0x0456 : %s=limited, %s=limited ;\n'
                        % (guid['hosta'], guid['hostb'], guid['hosta'], guid['hostb']))
    sm, _ = start_opensm(h, fab, lib, 'ca-sm', sweep=1, extra=['-P', conf, '-W'])
    r = h.run(host + ['pkey', a, b], timeout=150, check=False)
    print(r.stdout[-6000:])
    h.check(r.returncode == 0, 'hca_host pkey failed:\n%s' % r.stderr[-3000:])
    rows = [(int(m.group(1)), int(m.group(2), 16), int(m.group(3)), int(m.group(4), 16))
            for m in re.finditer(r'refused: LID (\d+) QP 0x([0-9a-f]+) -> '
                                 r'LID (\d+) QP 0x([0-9a-f]+)', r.stdout)]
    h.check_eq(len(rows), 8, 'refused rows reported by hca_host pkey')
    h.wait_for(lambda: sm.log().count('num:257') >= len(rows), timeout=10,
               what='OpenSM: %d "Received Generic Notice ... num:257"' % len(rows))
    h.stop(sm)
    h.stop(fab.proc)
    check_pcap(h, pcap, 40)
    _, pkts = read_pcap(pcap)
    for row in rows:
        check_trap_257(h, [p for p, _ in pkts], *row)


def matrix_dr(h, fab, lib, sm, host, a):
    """Row dr_no_d: the D bit of directed-route replies (MAD status bit 15).

    The replies the buggy host sends are lost on their way back (a switch
    routes a reply without D as an outbound SMP). On silicon OpenSM's MADs
    time out and it gives up on the port; under umad2sim a MAD lost in the
    fabric never times out and OpenSM's sweep waits for it for good, so the
    row without the bug starts a fresh OpenSM.
    """
    buggy = h.spawn(host + ['-b', 'dr_no_d', 'serve', a], name='hca_host-dr-no-d')
    h.wait_log(buggy, 'hca_host: up', timeout=30)
    # OpenSM sweeps every second: ten sweeps that cannot reach the port
    time.sleep(10)
    state = port_state(fab, 'hosta')[0]
    h.check(state != 'ACTIVE', 'hosta ACTIVE although its replies lack the D bit')
    h.info('row dr_no_d: without the D bit hosta stays %s (OpenSM never configures it)'
           % state)
    h.stop(buggy, sig=9)
    h.wait_for(lambda: port_state(fab, 'hosta')[0] == 'DOWN', timeout=10,
               what='hosta port down after the buggy host went')
    h.stop(sm)
    start_opensm(h, fab, lib, 'ca-sm', sweep=1)
    good = h.spawn(host + ['serve', a], name='hca_host')
    h.wait_log(good, 'port ACTIVE', timeout=90)
    h.check_eq(port_state(fab, 'hosta')[0], 'ACTIVE', 'hosta with the D bit set')
    h.info('row dr_no_d: with the D bit hosta is ACTIVE')
    h.stop(good)


def main():
    scenario = sys.argv[1]
    ibfabric, hca_host, net = (os.path.abspath(x) for x in sys.argv[2:5])
    style = sys.argv[5] if len(sys.argv) > 5 else 'linux'
    host = [hca_host, '-s', style]
    name = 'hca_host_' + scenario + ('' if style == 'linux' else '_' + style)
    with Harness(name, timeout=170) as h:
        root = h.path('pci')
        pcap = h.path('all.pcap')
        extra = ['--pci-root', root]
        if scenario in ('ud', 'pkey'):
            extra += ['--capture', pcap]
        fab = Fabric(h, ibfabric, net, extra=extra)
        h.wait_for(lambda: os.path.isdir(root) and len(pci_dirs(root)) == 2, timeout=10,
                   what='two PCI functions under ' + root)
        a, b = pci_dirs(root)
        if scenario in ('commands', 'faults'):
            r = h.run(host + [scenario, a], timeout=120, check=False)
            print(r.stdout[-4000:])
            h.check(r.returncode == 0, 'hca_host %s failed:\n%s' % (scenario, r.stderr[-2000:]))
            return
        lib = find_umad2sim(h)
        if scenario == 'pkey':
            run_pkey(h, fab, lib, host, a, b, pcap)
            return
        sm, _ = start_opensm(h, fab, lib, 'ca-sm', sweep=1)
        if scenario == 'matrix':
            rows = os.environ.get('MATRIX_ROWS', '').split()
            r = h.run(host + ['-c', fab.ctl_path, 'matrix', a, b] + rows, timeout=150,
                      check=False)
            print(r.stdout[-8000:])
            h.check(r.returncode == 0, 'hca_host matrix failed:\n%s' % r.stderr[-3000:])
            return
        if scenario == 'matrix_dr':
            matrix_dr(h, fab, lib, sm, host, a)
            return
        if scenario == 'ud':
            r = h.run(host + ['ud', a, b], timeout=150, check=False)
            print(r.stdout[-6000:])
            h.check(r.returncode == 0, 'hca_host ud failed:\n%s' % r.stderr[-3000:])
            # a Linux-style driver breaks none of the model's checks
            # (mthca_hw.rst, "What the model checks"; console "hca <node> errors")
            for node in ('hosta', 'hostb'):
                rows = fab.ctl.records('hca %s errors' % node, 'hca_error')
                h.check(len(rows) >= 14, 'hca %s errors: %d rows' % (node, len(rows)))
                broken = ['%s=%s' % (r['check'], r['count']) for r in rows if r['count'] != '0']
                h.check(not broken, 'hca %s errors: %s' % (node, ', '.join(broken)))
            err = fab.ctl.cmd('hca "sw" errors', ok=False)
            h.check(err and err[0].startswith('error: '), 'hca of a switch: %r' % err)
            # the data path's counters (console "hca <node> resources", hca_dp line):
            # datagrams and MADs both ways, the P_Key and Q_Key drops, the
            # local length error's CQE
            dp = {}
            for node in ('hosta', 'hostb'):
                line = [x for x in fab.ctl.cmd('hca "%s" resources' % node)
                        if x.startswith('hca_dp ')]
                h.check(len(line) == 1, 'hca %s resources: no hca_dp line' % node)
                c = dict((k, int(v)) for k, v in re.findall(r'(\w+)=(\d+)', line[0]))
                h.check(all(c[k] > 0 for k in ('doorbells', 'polls', 'sends', 'recvs', 'cqes')),
                        'hca %s: %s' % (node, line[0]))
                for k, v in c.items():
                    dp[k] = dp.get(k, 0) + v
            h.check(dp['drops'] >= 2 and dp['err_cqes'] >= 1,
                    'hca_dp: P_Key and Q_Key drops, a length error CQE: %s' % dp)
            m = re.search(r'bad P_Key datagram: LID (\d+) QP 0x([0-9a-f]+) -> '
                          r'LID (\d+) QP 0x([0-9a-f]+)', r.stdout)
            h.check(m is not None, 'hca_host ud did not name its bad P_Key datagram')
            bad = (int(m.group(1)), int(m.group(2), 16), int(m.group(3)), int(m.group(4), 16))
            # the P_Key violation reached the SM as trap 257 (IBA 14.2.5.1)
            h.wait_for(lambda: 'num:257' in sm.log(), timeout=10,
                       what='OpenSM: "Received Generic Notice ... num:257" (Bad P_Key trap)')
            # ARCHITECTURE rule 3: what the model put on the wire (UD packets it
            # built, MLX packets whose CRCs it computed) are real IB packets
            h.stop(sm)
            h.stop(fab.proc)
            n = check_pcap(h, pcap, 40)
            _, pkts = read_pcap(pcap)
            check_trap_257(h, [p for p, _ in pkts], *bad)
            grh = [p for p, _ in pkts if p[1] & 3 == 3]
            h.check(grh, 'no GRH packet in the capture: the ICRC of a global packet '
                    '(IBA 7.8.1 masks) went unchecked')
            ud = [p for p, _ in pkts if len(p) > 28 and p[8] == 0x64 and p[1] & 3 == 2 and
                  int.from_bytes(p[13:16], 'big') > 1 and len(p) - 28 - 6 >= 2044]
            h.check(ud, 'no 2044-byte UD datagram in the capture')
            h.info('capture: %d packets, CRCs right, tshark clean; %d 2044-byte datagrams'
                   % (n, len(ud)))
            return
        if scenario == 'disappear':
            served = h.spawn(host + ['serve', a], name='hca_host')
            h.wait_log(served, 'port ACTIVE', timeout=90)
            h.check_eq(port_state(fab, 'hosta')[0], 'ACTIVE', 'hosta port 1 with a host')
            h.need_program('saquery')
            env = fab.env(lib, 'ca-sm')
            lid = [p for p in fab.ports('hosta') if p['num'] == '1'][0]['lid']

            def sa_has_hosta():
                # h.run checks the exit status: a failing saquery (SA gone,
                # timeout) fails the test instead of reading as "hosta gone";
                # an SA without the record answers with no record, exit 0
                r = h.run(['saquery', 'NR', lid], env=env, timeout=30)
                return 'hosta' in r.stdout
            h.wait_for(sa_has_hosta, timeout=30, interval=1,
                       what="hosta's NodeRecord (LID %s) in OpenSM's SA" % lid)
            # Firmware agents behind the host's special QPs (issue 4): an
            # SMP reaches QP0 and a PMA GMP reaches QP1; the host hands
            # each to MAD_IFC and sends the firmware's answer back.
            r = h.run(['smpquery', 'nodedesc', lid], env=env, timeout=30)
            h.check('hosta' in r.stdout, 'smpquery nodedesc %s: %r' % (lid, r.stdout))

            def xmit_pkts():
                r = h.run(['perfquery', lid, '1'], env=env, timeout=30)
                for line in r.stdout.splitlines():
                    if line.startswith('PortXmitPkts:'):
                        return int(line.rsplit('.', 1)[1])
                raise TestFailure('perfquery %s 1: no PortXmitPkts in %r' % (lid, r.stdout))
            first = xmit_pkts()
            h.check(first > 0, 'hosta PortXmitPkts %d: the host answered MADs' % first)
            second = xmit_pkts()
            h.check(second > first, 'hosta PortXmitPkts did not grow (%d, %d)' % (first, second))
            h.info('perfquery via MAD_IFC: PortXmitPkts %d -> %d' % (first, second))
            h.stop(served, sig=9)
            h.wait_for(lambda: port_state(fab, 'hosta')[0] == 'DOWN', timeout=10,
                       what='hosta port 1 down after its host was killed')
            h.info('hosta after kill: state/phys %s/%s' % port_state(fab, 'hosta'))
            # the SM sees the port go: hosta's NodeRecord leaves the SA
            h.wait_for(lambda: not sa_has_hosta(), timeout=30, interval=1,
                       what="hosta's NodeRecord gone from OpenSM's SA")
            host2 = h.spawn(host + ['serve', a], name='hca_host')
            h.wait_log(host2, 'port ACTIVE', timeout=90)
            h.check_eq(port_state(fab, 'hosta')[0], 'ACTIVE', 'hosta port 1 with a new host')
            h.stop(host2)
            return
        raise TestFailure('unknown scenario ' + scenario)


if __name__ == '__main__':
    main()
