#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""A Report (Notice) is taken only from the SA's LID, where the
subscription was made (issue 29). A DPDK host (sa_host on hosta, the SA
client of librte_ibmad) subscribes to traps 64 and 65 (GID in and out of
service) at OpenSM's SA (under libumad2sim, on ca-sm); ca-evil's client
(test/fabric/mad_forger.py, a process of its own) sends it SubnAdmReport
(method 0x06, attribute Notice, IBA 13.4.8.2 and 15.2.5.12) MADs from
its own LID. A Report is a request the SA makes: its TID is the SA's
choice (OpenSM counts from 0x02dab001, one counter for all its Reports)
and the subscriber's ReportResp echoes it, so a TID is no secret here;
the source LID is what the host goes by.

What a forger can put on the wire: ibfabric, as ibsim (find_client()),
writes the sending client's slot into bits 63..48 of the TID of every
request a client sends (the tag answers come back by; Linux user_mad
likewise writes its agent's into bits 63..32), so bits 47..0 are the
forger's and bits 63..48 its slot. OpenSM is slot 0, the forger another
one: no other client can send OpenSM's exact TID. The unit test
test_sa_report_source (test_ibmad.c) sends one MAD, TID and all, from
another LID and from the SA's.

  guessed   64 forged Reports "GID out of service" for ca-peer's GID,
            issuer the SA's LID, before any real Report, with the TIDs
            OpenSM hands out first (low part 0x02dab001..0x02dab004)
            under high parts 0..7 (send_report() sets the low 32 bits,
            the layers below the rest: on this fabric OpenSM's first
            Report is 0x0000000202dab001),
            and a counter's (high part 1..4, low part 1..8);
  real      ca-peer's cable pulled and plugged (ibfabric's "link down"
            and "link up"): OpenSM's Reports of traps 65 and 64 for
            ca-peer's GID are delivered (NOTICE lines) and answered;
  observed  the two real Reports as a capture of hosta's link shows them,
            replayed by ca-evil byte for byte (TID bits 47..0 the real
            ones'), and the second one again with the TID OpenSM uses
            next;
  real      the cable pulled again: OpenSM's next Report, whose TID
            bits 47..0 a forgery used a moment before, is delivered.

The host prints no NOTICE for a forged Report, sends no ReportResp to
ca-evil (a capture of hosta's port), names each one in its debug log
("Report from LID <evil> dropped") and counts it in reports_dropped; it
counts the real ones in reports (sa_host's SASTATS).

usage: test_mad_trust_report.py <ibfabric> <netfile> <sa_host>
"""

import ipaddress
import os
import struct
import sys

from pcaplib import read_pcap
from simlib import Harness, sa_host_answer
from test_mad_trust import FORGER, kv_line, start_bed

CLASS_SUBN_ADM = 0x03
METHOD_REPORT, METHOD_REPORT_RESP = 0x06, 0x86
ATTR_NOTICE = 0x0002
SA_DATA = 56               # MAD, RMPP and SA headers (IBA 15.2.1.1)
TRAP_IN, TRAP_OUT = 64, 65
OSM_FIRST_TID = 0x02dab001  # OpenSM osm_inform.c send_report()
LOW48 = (1 << 48) - 1       # the TID bits a client of ibfabric chooses


def kv(line):
    return dict(w.split('=', 1) for w in line.split() if '=' in w)


def gid_of(port):
    """The port's GID: the default prefix and its port GUID."""
    return ipaddress.IPv6Address((0xfe80 << 112) | int(port['guid'], 16))


def forged_report(trap, issuer_lid, gid, issuer_gid):
    """A SubnAdmReport(Notice) of generic trap @trap (64..67: the GID in
    DataDetails bytes 6..21) as OpenSM builds one; TID 0."""
    mad = bytearray(256)
    mad[0:4] = bytes([1, CLASS_SUBN_ADM, 2, METHOD_REPORT])
    struct.pack_into('>H', mad, 16, ATTR_NOTICE)
    n = SA_DATA
    mad[n] = 0x80 | 4                              # IsGeneric, Type informational
    mad[n + 1:n + 4] = (4).to_bytes(3, 'big')      # ProducerType: class manager
    struct.pack_into('>HH', mad, n + 4, trap, issuer_lid)
    mad[n + 16:n + 32] = gid.packed
    mad[n + 64:n + 80] = issuer_gid.packed
    return bytes(mad)


def sa_mads(path, lid):
    """(SLID, DLID, method, TID, MAD) of every SubnAdm MAD of attribute
    Notice to or from @lid in a capture (LRH, BTH, DETH, then the MAD;
    IBA 7.7, 9.2, 9.3, 13.4.2)."""
    _, pkts = read_pcap(path)
    out = []
    for pkt, _ in pkts:
        if len(pkt) < 8 + 12 + 8 + 256 or (pkt[1] & 3) != 2:   # LNH: IBA local
            continue
        dlid, slid = struct.unpack('>H', pkt[2:4])[0], struct.unpack('>H', pkt[6:8])[0]
        mad = pkt[28:28 + 256]
        if lid not in (slid, dlid) or mad[1] != CLASS_SUBN_ADM or \
                struct.unpack('>H', mad[16:18])[0] != ATTR_NOTICE:
            continue
        out.append((slid, dlid, mad[3], struct.unpack('>Q', mad[8:16])[0], bytes(mad)))
    return out


def main():
    ibfabric, netfile, sa_host = (os.path.abspath(a) for a in sys.argv[1:4])
    with Harness('mad_trust_report', timeout=120) as h:
        fab, host = start_bed(h, ibfabric, netfile, sa_host, 'trrep')
        ready = kv_line(host.log(), 'READY')
        host_lid, sm_lid = int(ready['lid']), int(ready['sm_lid'])

        def port1(node):
            return [p for p in fab.ports(node) if p['num'] == '1'][0]
        sm, peer, evil = port1('ca-sm'), port1('ca-peer'), port1('ca-evil')
        h.check_eq(int(sm['lid']), sm_lid, 'the SA is OpenSM on ca-sm')
        evil_lid, peer_gid, sm_gid = int(evil['lid']), gid_of(peer), gid_of(sm)

        def notices():
            return [kv(ln) for ln in host.log().splitlines() if ln.startswith('NOTICE ')]

        def drops():
            return host.log().count('Report from LID %d dropped: the SA is at LID %d'
                                    % (evil_lid, sm_lid))

        def sastats():
            return {k: int(v) for k, v in
                    kv(sa_host_answer(h, host, 'SASTATS')[-1]).items()}

        cap = [h.path('hosta-1.pcap'), h.path('hosta-2.pcap')]
        fab.ctl.cmd('capture start "hosta" 1 %s' % cap[0])
        for trap in (TRAP_IN, TRAP_OUT):
            sa_host_answer(h, host, 'SUB %d' % trap)
        evil_proc = h.spawn([sys.executable, FORGER, fab.sock, 'ca-evil'], name='forger',
                            stdin=True)
        h.wait_log(evil_proc, 'ATTACHED', timeout=10)
        slot = int(evil_proc.log().split()[-1])

        def on_wire(tids):
            """The TIDs of the forger's requests as ibfabric sends them."""
            return [slot << 48 | t & LOW48 for t in tids]
        h.info('host LID %d subscribed to traps 64, 65 at the SA, LID %d; ca-evil LID %d'
               % (host_lid, sm_lid, evil_lid))

        def forge(mad, tids):
            """ca-evil sends @mad with each TID; wait until the host took or
            dropped them all (never by time alone)."""
            before = len(notices()) + drops()
            mark = evil_proc.log().count('FORGED')
            evil_proc.write('SEND %d %s %s\n' % (host_lid, mad.hex(),
                                                 ' '.join('%x' % t for t in tids)))
            h.wait_for(lambda: evil_proc.log().count('FORGED') > mark,
                       timeout=10, what='ca-evil sending its Reports')
            h.check(evil_proc.log().splitlines()[-1] == 'FORGED %d' % len(tids),
                    'ca-evil: %s' % evil_proc.log().splitlines()[-1])
            h.wait_for(lambda: len(notices()) + drops() >= before + len(tids), timeout=10,
                       what='the host judging %d forged Reports (NOTICE or dropped)'
                       % len(tids))

        def real(cmd, trap, count):
            """@cmd on ca-peer's cable; wait for the @count-th NOTICE, of @trap."""
            fab.ctl.cmd('link %s "ca-peer" 1' % cmd)
            h.wait_for(lambda: len(notices()) >= count, timeout=20,
                       what="OpenSM's Report of trap %d delivered" % trap)
            n = notices()[count - 1]
            h.check(int(n['trap']) == trap and ipaddress.IPv6Address(n['gid']) == peer_gid
                    and int(n['issuer_lid']) == sm_lid,
                    'NOTICE %d: trap %s GID %s issuer %s, not trap %d of ca-peer %s by the SA'
                    % (count, n['trap'], n['gid'], n['issuer_lid'], trap, peer_gid))
            return n

        # 1. guessed: OpenSM's first TIDs and a counter's, before any real Report
        guessed = [hi << 32 | OSM_FIRST_TID + lo for hi in range(8) for lo in range(4)] + \
            [hi << 32 | lo for hi in range(1, 5) for lo in range(1, 9)]
        forge(forged_report(TRAP_OUT, sm_lid, peer_gid, sm_gid), guessed)
        h.check(not notices(), 'the host took %d forged Reports: %s'
                % (len(notices()), notices()[:3]))
        h.check_eq(drops(), 64, 'forged Reports dropped by name in the debug log')
        st = sastats()
        h.check_eq((st['reports'], st['reports_dropped']), (0, 64),
                   '(reports, reports_dropped) after 64 guessed Reports')
        h.info('guessed: 64 forged Reports (TIDs <0..7>:0x%x..0x%x, <1..4>:1..8) dropped, '
               'no NOTICE' % (OSM_FIRST_TID, OSM_FIRST_TID + 3))

        # 2. real Reports from the SA, after the forgeries, once the SA
        # answered both Sets (the subscriptions are in place there)
        h.wait_for(lambda: sastats()['answers'] >= 2, timeout=10, interval=0.2,
                   what='the SA answering the two InformInfo Sets')
        n65 = real('down', TRAP_OUT, 1)
        n64 = real('up', TRAP_IN, 2)
        h.info('real: NOTICE trap %s then %s for ca-peer %s, issuer the SA'
               % (n65['trap'], n64['trap'], peer_gid))
        fab.ctl.cmd('capture stop "hosta" 1')
        fab.ctl.cmd('capture start "hosta" 1 %s' % cap[1])
        wire = sa_mads(cap[0], host_lid)
        reps = [w for w in wire if w[0] == sm_lid and w[2] == METHOD_REPORT]
        resps = [w for w in wire if w[0] == host_lid and w[2] == METHOD_REPORT_RESP]
        h.check_eq(len(reps), 2, 'Reports from the SA on the wire')
        h.check_eq([w[3] for w in resps if w[1] == sm_lid], [w[3] for w in reps],
                   'TIDs of the ReportResps to the SA (the Reports\' own)')
        h.check_eq([w[3] for w in wire if w[0] == evil_lid and w[2] == METHOD_REPORT],
                   on_wire(guessed), 'TIDs of the forged Reports on the wire')
        h.check_eq([w for w in resps if w[1] != sm_lid], [],
                   'ReportResps to another LID than the SA\'s')
        h.check(reps[0][3] in guessed and reps[1][3] in guessed,
                'the SA\'s Report TIDs 0x%x, 0x%x among the guessed ones'
                % (reps[0][3], reps[1][3]))
        st = sastats()
        h.check_eq((st['reports'], st['reports_dropped']), (2, 64),
                   '(reports, reports_dropped) after two real Reports')
        h.info('the SA\'s Reports had TIDs 0x%x, 0x%x (both guessed before), answered'
               % (reps[0][3], reps[1][3]))

        # 3. observed: the real Reports replayed, and the next TID
        reps_1 = reps
        t65, t64 = reps[0][3], reps[1][3]
        forge(reps[0][4], [t65])
        forge(reps[1][4], [t64, t64 + 1])
        h.check_eq(len(notices()), 2, 'NOTICE lines after 3 replayed Reports')
        h.check_eq(drops(), 67, 'forged Reports dropped by name in the debug log')
        st = sastats()
        h.check_eq((st['reports'], st['reports_dropped']), (2, 67),
                   '(reports, reports_dropped) after 3 observed Reports')

        # 4. the SA's next Report, with the TID a forgery just used
        real('down', TRAP_OUT, 3)
        fab.ctl.cmd('capture stop "hosta" 1')
        wire = sa_mads(cap[1], host_lid)
        reps = [w for w in wire if w[0] == sm_lid and w[2] == METHOD_REPORT]
        resps = [w for w in wire if w[0] == host_lid and w[2] == METHOD_REPORT_RESP]
        h.check_eq([w[3] for w in wire if w[0] == evil_lid], on_wire([t65, t64, t64 + 1]),
                   'TIDs of the replayed Reports on the wire')
        h.check_eq([w[4][16:] for w in wire if w[0] == evil_lid],
                   [reps_1[0][4][16:], reps_1[1][4][16:], reps_1[1][4][16:]],
                   'the replays as the real Reports from their attribute on')
        h.check_eq([w[3] for w in reps], [t64 + 1], 'TID of the SA\'s next Report')
        h.check_eq([(w[1], w[3]) for w in resps], [(sm_lid, t64 + 1)],
                   'ReportResps after the replay (to the SA only)')
        st = sastats()
        h.check_eq((st['reports'], st['reports_dropped']), (3, 67),
                   '(reports, reports_dropped) at the end')
        h.info('observed: Reports with TID bits 47..0 0x%x, 0x%x, 0x%x (slot %d above) '
               'from LID %d dropped; the SA\'s Report 0x%x delivered; reports=3 '
               'reports_dropped=67' % (t65, t64, t64 + 1, slot, evil_lid, t64 + 1))
        evil_proc.write('QUIT\n')
        host.write('QUIT\n')
        h.wait_for(lambda: not host.alive(), timeout=30, what='sa_host exits')


if __name__ == '__main__':
    main()
