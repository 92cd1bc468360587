#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Bad input at the CLI and on the sockets (issue 3):

- every topology error exits 2 (never a signal) with "<file>:<line>: <what>"
  on stderr, the message checked word for word;
- garbage datagrams on the ibsim ctl and out<i> sockets are counted
  ("show stats") and ibfabric keeps serving (a CONNECT still works, and
  smpquery through libumad2sim answers);
- a bad console/control command prints "error: ..." and changes nothing.

usage: test_bad_input.py <ibfabric> <netfile>
"""

import os
import socket
import struct
import sys

from simlib import Fabric, Harness, find_umad2sim, parse_record

GOOD_SW = 'Switch 4 "S1"\n[1] "H1"[1]\n[2] "H2"[1]\n'
GOOD_H1 = 'Hca 1 "H1"\n[1] "S1"[1]\n'
GOOD_H2 = 'Hca 1 "H2"\n[1] "S1"[2]\n'

# (what, net file text, line of the error, what the message must say after
# "<file>:<line>: ")
CASES = [
    ('unknown peer', GOOD_SW + '[3] "Nobody"[1]\n\n' + GOOD_H1 + '\n' + GOOD_H2, 4,
     '"S1"[3]: unknown peer node "Nobody"'),
    ('port out of range', GOOD_SW + '[9] "H1"[1]\n\n' + GOOD_H1 + '\n' + GOOD_H2, 4,
     'port [9] out of range for "S1" (NumPorts 4)'),
    ('duplicate name',
     GOOD_SW + '\n' + GOOD_H1 + '\n' + GOOD_H2 + '\nHca 1 "H1"\n[1] "S1"[3]\n', 11,
     'duplicate node name "H1" (first at %(path)s:5)'),
    ('unknown node type', GOOD_SW + '\nFrobnicator 1 "X"\n', 5,
     'unknown statement "Frobnicator"'),
    # S1 says [1] -> H1[1], H1 says [1] -> S1[2]
    ('asymmetric link', 'Switch 4 "S1"\n[1] "H1"[1]\n\nHca 1 "H1"\n[1] "S1"[2]\n', 2,
     'asymmetric link: "S1"[1] -> "H1"[1], but "H1"[1] -> "S1"[2] (%(path)s:5)'),
]

# ibfabric's exit status for bad input (main.c): 2, never a signal (a crash
# must not pass for a refusal)
EXIT_BAD_INPUT = 2


def check_refusal(h, what, r, message):
    h.check_eq(r.returncode, EXIT_BAD_INPUT, '%s: exit status' % what)
    h.check(message + '\n' in r.stderr, '%s: no %r in stderr %r' % (what, message, r.stderr))


def abstract_addr(name):
    # "\0<name>\0": the trailing NUL is part of ibsim's names (ibsim.c sim_init_conn()).
    return b'\0' + name.encode() + b'\0'


def main():
    ibfabric, netfile = os.path.abspath(sys.argv[1]), sys.argv[2]
    with Harness('bad_input', timeout=90) as h:
        for what, text, line, message in CASES:
            path = h.write_file('bad-%s.net' % what.replace(' ', '-'), text)
            r = h.run([ibfabric, '--no-console', path], check=False, timeout=20)
            check_refusal(h, what, r, '%s:%d: %s' % (path, line, message % {'path': path}))
            h.info('%s: rc %d: %s' % (what, r.returncode, r.stderr.strip().splitlines()[-1]))

        missing = h.path('missing.net')
        r = h.run([ibfabric, '--no-console', missing], check=False, timeout=20)
        check_refusal(h, 'missing net file', r, '%s: No such file or directory' % missing)

        # Garbage on the sockets.
        lib = find_umad2sim(h)
        fab = Fabric(h, ibfabric, h.need_file(netfile))
        s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        s.bind(abstract_addr(fab.sock + ':garbage'))
        ctl = abstract_addr(fab.sock + ':ctl')
        s.sendto(b'x' * 79, ctl)
        s.sendto(struct.pack('<IIII', 0xdeadbeee, 0, 1, 44) + b'\0' * 64, ctl)
        s.sendto(b'\xff' * 4096, ctl)
        for i in range(3):
            s.sendto(b'\x01' * (288 if i == 0 else 7), abstract_addr('%s:out%d' % (fab.sock, i)))
        s.close()
        h.wait_for(lambda: int(parse_record(fab.ctl.cmd('show stats')[0])[1]['bad_mads']) >= 3,
                   timeout=10, what='bad MADs counted')
        st = parse_record(fab.ctl.cmd('show stats')[0])[1]
        h.check(int(st['bad_ctl_msgs']) >= 3, 'bad ctl messages counted: %s' % st)
        h.check(fab.proc.alive(), 'ibfabric died on garbage')

        # Still serving: a libumad2sim client attaches (ibstat only needs the ctl exchange).
        host = [n['name'] for n in fab.nodes() if n['type'] == 'ca'][0]
        r = h.run(['ibstat'], env=fab.env(lib, host), timeout=30)
        h.check('ibsim0' in r.stdout or 'CA' in r.stdout, 'ibstat after garbage: %r' % r.stdout)

        # Bad commands: one error line, nothing changed.
        before = fab.ctl.cmd('show ports "%s"' % host)
        for bad in ['frobnicate', 'show', 'show ports', 'show ports NoSuchNode',
                    'link sideways "%s" 1' % host, 'link down "%s" 99' % host,
                    'fault "%s" 1 drop=2000000' % host, 'fault "%s" 1 loss=5' % host,
                    'capture start', 'source /nonexistent/file', 'show "unterminated']:
            out = fab.ctl.cmd(bad, ok=False)
            h.check(len(out) == 1 and out[0].startswith('error: '),
                    '%r: expected one error line, got %r' % (bad, out))
        h.check_eq(fab.ctl.cmd('show ports "%s"' % host), before, 'ports after bad commands')
        h.check(len(fab.ctl.cmd('help')) > 5, 'help text')


if __name__ == '__main__':
    main()
