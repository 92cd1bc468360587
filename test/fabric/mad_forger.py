#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""A hostile node for test_mad_trust.py and test_mad_trust_report.py, in
its own process: attaches to ibfabric as an ibsim-protocol client of
@node (test/lib/u2sclient.py), then, from its own LID, for each line on
stdin:

  "<dlid> <request MAD hex> <tid> [<tid> ...]"
        sends the GetResp answer of the request (byte 64 = 0xee) once
        per TID;
  "SEND <dlid> <MAD hex> <tid> [<tid> ...]"
        sends the MAD as it is (a Report, say) once per TID, to QP1;

and prints "FORGED <n>".

usage: mad_forger.py <ibfabric socket name> <node>
"""

import struct
import sys

from u2sclient import U2SClient


def main():
    sock, node = sys.argv[1:3]
    c = U2SClient(sock)
    if not c.connect(node, issm=1):
        print('ERR CONNECT to %s refused' % node, flush=True)
        sys.exit(1)
    print('ATTACHED %s slot %d' % (node, c.slot), flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] == 'QUIT':
            break
        raw = words[0] == 'SEND'
        if raw:
            words = words[1:]
        dlid, req = int(words[0]), bytes.fromhex(words[1])
        n = 0
        for t in words[2:]:
            forged = bytearray(req)
            forged[8:16] = struct.pack('>Q', int(t, 16))
            if not raw:
                forged[3] = 0x81                   # GetResp
                forged[64] = 0xee
            c.send_mad(bytes(forged), dlid=dlid, dqp=1, sqp=1)
            n += 1
        print('FORGED %d' % n, flush=True)
    c.close()


if __name__ == '__main__':
    main()
