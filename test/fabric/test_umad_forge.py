#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""One user-MAD client never completes another's request (issue 29,
doc/guides/prog_guide/ibmad_lib.rst "Trust"): three raw clients
(umad_client.py), separate processes on one DPDK host next to OpenSM:

- C serves vendor class 0x09 Get and answers 1.5 s after each request;
- A asks C: a Get to the host's own LID, so its answer comes from that
  LID whoever of the host's clients sends it;
- B, once C has printed the TID of A's request (B saw it), sends a
  GetResp with that TID and "FAKE" to the same LID, then replays A's
  request with A's TID.

A gets exactly one answer, C's ("REAL"); B's forged response is refused
and never reaches A; the replay carries B's own TID high part, so B gets
its own answer (not A's), and A does not get B's.

Then A2 asks C again and B2, told nothing, guesses: the high TID parts of
one process's agents are consecutive, so it learns its own (a request
that times out) and forges "FAKE" answers under the eight below it. A2
still gets C's answer only.

usage: test_umad_forge.py <ibfabric> <netfile> <sa_host> <preload> <dpdk-ib-ns>
"""

import os
import re

from simlib import Harness
from umad_host import UmadHost


def gots(p):
    return [m.groupdict() for m in re.finditer(
        r'GOT status=(?P<status>\d+) method=(?P<method>0x[0-9a-f]+) '
        r'tid=(?P<tid>0x[0-9a-f]+) data=(?P<data>.{4})', p.log())]


def main():
    with Harness('umad_forge', timeout=240) as h:
        for prog in ('opensm', 'unshare'):
            h.need_program(prog)
        u = UmadHost(h, 'ufg')
        osm = u.opensm()
        lid = int(u.port('hosta')['lid'], 0)
        h.info('hosta LID %d' % lid)

        server = u.spawn_client('server-C', 'serve', '1500')
        h.wait_log(server, 'SERVING', timeout=20)
        asker = u.spawn_client('asker-A', 'ask', str(lid), '10000')
        h.wait_log(asker, 'ASKED', timeout=20)
        h.wait_log(server, 'REQUEST tid=', timeout=10)
        tid = re.search(r'REQUEST tid=(0x[0-9a-f]+)', server.log()).group(1)
        h.info("A's request, as C saw it: TID %s" % tid)

        bad0 = u.stats().get('chan_bad_writes', 0)
        forger = u.spawn_client('forger-B', 'forge', str(lid), tid)
        h.wait_log(forger, 'DONE', timeout=30)
        h.wait_log(asker, 'DONE', timeout=30)
        h.info('A: %r' % gots(asker))
        h.info('B: %s' % forger.log().strip().replace('\n', ' | '))

        a = gots(asker)
        h.check(all(g['data'] != 'FAKE' for g in a),
                "A took B's forged response: %r" % a)
        h.check_eq(len(a), 1, "answers A read")
        h.check(a[0]['data'] == 'REAL' and a[0]['status'] == '0' and
                a[0]['tid'] == tid, "A's answer is C's, with A's TID: %r" % a[0])
        # The forged response is refused: write() fails with EPERM on
        # FUSE; on the channel (ibumad_lib.rst) a refused response, which
        # waits for nothing, is counted as a bad write.
        if os.environ.get('DPDK_IB_UMAD_CHANNEL', '1') != '0':
            h.check('FORGE sent' in forger.log(), 'B wrote on the channel')
            u.stats_are({'chan_bad_writes': bad0 + 1},
                        'the forged response refused on the channel')
        else:
            h.check('FORGE refused EPERM' in forger.log(),
                    'B told its forged response is refused (EPERM): %r' % forger.log())
        b = [g for g in gots(forger) if g['data'] == 'REAL']
        h.check_eq(len(b), 1, "C's answers B read")
        hi = int(tid, 16) >> 32
        h.check(int(b[0]['tid'], 16) >> 32 != hi and
                int(b[0]['tid'], 16) & 0xffffffff == int(tid, 16) & 0xffffffff,
                "B's replay answered under B's own TID high part: %r" % b[0])
        h.check_eq(server.log().count('ANSWERED'), 2, "C's answers (A's, B's replay)")

        # the guessed TID: B2 knows only its own high part
        bad0 = u.stats().get('chan_bad_writes', 0)
        asker2 = u.spawn_client('asker-A2', 'ask', str(lid), '10000')
        h.wait_log(asker2, 'ASKED', timeout=20)
        h.wait_for(lambda: server.log().count('REQUEST tid=') == 3, timeout=10,
                   what="C got A2's request")
        tid2 = re.findall(r'REQUEST tid=(0x[0-9a-f]+)', server.log())[2]
        guesser = u.spawn_client('guesser-B2', 'forge', str(lid), 'guess')
        h.wait_log(guesser, 'DONE', timeout=30)
        h.wait_log(asker2, 'DONE', timeout=30)
        h.info("A2's TID %s; B2: %s" % (tid2, guesser.log().strip().replace('\n', ' | ')))
        hi2 = '0x%08x' % (int(tid2, 16) >> 32)
        h.check(('hi=%s' % hi2) in guesser.log(),
                "B2's guesses include A2's high part %s: %r" % (hi2, guesser.log()))
        a2 = gots(asker2)
        h.check(all(g['data'] != 'FAKE' for g in a2),
                "A2 took B2's guessed response: %r" % a2)
        h.check(len(a2) == 1 and a2[0]['data'] == 'REAL' and a2[0]['tid'] == tid2,
                "A2's one answer is C's: %r" % a2)
        if os.environ.get('DPDK_IB_UMAD_CHANNEL', '1') != '0':
            u.stats_are({'chan_bad_writes': bad0 + 1},
                        'the guess that hit refused on the channel')
        else:
            h.check_eq(guesser.log().count('FORGE refused EPERM hi=%s' % hi2), 1,
                       'the guess that hit refused (EPERM)')
        h.stop(server)
        u.quit(osm)


if __name__ == '__main__':
    main()
