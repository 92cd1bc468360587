#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""One user-MAD client never ACKs, stops or aborts another's RMPP
transfer (issue 29, doc/guides/prog_guide/ibmad_lib.rst and
ibumad_lib.rst "Trust"). Raw clients (umad_client.py), separate
processes on one DPDK host (test/data/loop.net: both ports of hosta on
one switch), next to OpenSM:

- S serves vendor class 0x30 with host-side RMPP (rmpp_version 1, as
  OpenSM's SA agent): it answers a Get with a GetResp of BYTES payload
  bytes, which the MAD core segments (SEGS segments of 216 bytes);
- R asks S from an agent with host-side RMPP: the MAD core reassembles
  the answer and ACKs each window;
- B, once S has printed the TID of R's request, writes for 3 s, every
  2 ms, what R's side would send for that transfer: an ACK opening a
  window far beyond what was sent, the final ACK, a STOP and an ABORT
  (R bit set, so the TID stays R's), an ABORT from an agent with
  host-side RMPP, and an ABORT with the R bit clear (the MAD core gives
  it B's own TID high part). S starts answering once B is writing.

Two placements: "same LID" (S on port 1, R asks port 1's LID, B writes
to it: the answer, the ACKs and B's writes all come from one LID), and
"port 2" (S on port 2, R and B on port 1 write to port 2's LID: S's MAD
core sees B's writes come from the LID its transfer goes to).

Each time R gets S's whole answer (every byte, by its SHA-256) under its
own TID, and every write of B that names R's transfer is refused:
EINVAL on FUSE, counted in the service's rmpp_refused (and, on the
channel, chan_bad_writes).

usage: test_umad_rmpp_forge.py <ibfabric> <netfile> <sa_host> <preload> <dpdk-ib-ns>
"""

import os
import re

from simlib import Harness
from umad_host import UmadHost

BYTES = 3000000
SEGS = (BYTES + 215) // 216
REFUSED = ('ack-window', 'ack-final', 'stop', 'abort', 'abort-rmpp-agent')


def forged(p):
    return {m.group(1): (int(m.group(2)), int(m.group(3)), m.group(4)) for m in
            re.finditer(r'^(\S+) sent=(\d+) refused=(\d+) errno=(\S+)$', p.log(), re.M)}


def phase(h, u, what, umad_s, lid):
    chan = os.environ.get('DPDK_IB_UMAD_CHANNEL', '1') != '0'
    server = u.spawn_client('server-S-' + what, 'rmpp-serve', str(BYTES), 'stdin',
                            umad=umad_s, stdin=True)
    h.wait_log(server, 'SERVING', timeout=20)
    st0 = u.stats()
    asker = u.spawn_client('asker-R-' + what, 'rmpp-ask', str(lid), '8000')
    h.wait_log(asker, 'ASKED', timeout=20)
    h.wait_log(server, 'REQUEST tid=', timeout=10)
    tid = re.search(r'REQUEST tid=(0x[0-9a-f]+)', server.log()).group(1)
    h.info("%s: R's request, as S saw it: TID %s" % (what, tid))
    forger = u.spawn_client('forger-B-' + what, 'rmpp-forge', str(lid), tid,
                            str(SEGS), '3')
    h.wait_log(forger, 'FORGING', timeout=20)
    server.write('GO\n')
    h.wait_log(forger, 'DONE', timeout=30)
    h.wait_log(asker, 'DONE', timeout=30)
    h.info('%s: R: %s' % (what, asker.log().strip().replace('\n', ' | ')))
    h.info('%s: B: %s' % (what, forger.log().strip().replace('\n', ' | ')))

    sha = re.search(r'ANSWERING sha=(\w+)', server.log()).group(1)
    got = re.findall(r'GOT status=(\d+) tid=(0x[0-9a-f]+) bytes=(\d+) sha=(\w+)',
                     asker.log())
    h.check_eq(len(got), 1, '%s: answers R read' % what)
    h.check_eq(got[0], ('0', tid, str(BYTES), sha),
               "%s: R's answer (status, TID, bytes, SHA-256) is S's, whole" % what)

    f = forged(forger)
    h.check(set(REFUSED) | {'abort-request-kind'} <= set(f), 'B reported: %r' % f)
    n = 0
    for k in REFUSED:
        sent, refused, why = f[k]
        if chan:
            # On the channel a write returns before the service judges it
            # (ibumad_lib.rst "The channel"): refused there, counted.
            n += sent
        else:
            h.check(sent == 0 and refused > 0 and why == 'EINVAL',
                    '%s: B\'s %s refused with EINVAL on FUSE: %r' % (what, k, f[k]))
            n += refused
    # The ABORT of the request's kind names B's own TID: sent, harmless.
    h.check(f['abort-request-kind'][0] > 0, '%s: B\'s own-TID ABORT sent: %r'
            % (what, f['abort-request-kind']))
    h.info('%s: %d writes of B named R\'s transfer' % (what, n))
    want = {'rmpp_refused': st0.get('rmpp_refused', 0) + n}
    if chan:
        want['chan_bad_writes'] = st0.get('chan_bad_writes', 0) + n
    u.stats_are(want, '%s: B\'s writes refused and counted' % what)
    h.stop(server)


def main():
    with Harness('umad_rmpp_forge', timeout=240) as h:
        for prog in ('opensm', 'unshare'):
            h.need_program(prog)
        u = UmadHost(h, 'urf', ['--log-level=lib.ibmad:info'])
        osm = u.opensm()
        lid1 = int(u.port('hosta', '1')['lid'], 0)
        h.wait_for(lambda: int(u.port('hosta', '2')['lid'], 0) != 0, timeout=30,
                   what="a LID on hosta's port 2")
        lid2 = int(u.port('hosta', '2')['lid'], 0)
        h.info('hosta port 1 LID %d, port 2 LID %d; %d bytes = %d segments'
               % (lid1, lid2, BYTES, SEGS))
        phase(h, u, 'same-lid', 'umad0', lid1)
        phase(h, u, 'port2', 'umad1', lid2)
        u.quit(osm)


if __name__ == '__main__':
    main()
