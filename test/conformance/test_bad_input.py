#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Bad input at the CLI and on the sockets (issue 3):

- every topology error exits 2 (never a signal) with "<file>:<line>: <what>"
  on stderr, the message checked word for word: syntax, GUID ranges that
  would wrap past 0xffffffffffffffff, the documented limits (64 MiB files,
  4096-byte lines, 8 include levels, 240 active HCAs), includes that are
  FIFOs, directories or missing, a failing "do" line, an empty file;
- "ibfabric gen --active" beyond the active-HCA limit exits 2;
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
    # GUID ranges (doc/guides/tools/ibfabric_topology.rst, Errors): a CA's
    # port GUIDs are NodeGUID + port; none may wrap to 0 and the bottom.
    ('CA port GUIDs wrap', 'caguid=0xfffffffffffffffe\nCa 2 "H1"\n[1] "S"[1]\n\n'
     'Switch 4 "S"\n[1] "H1"[1]\n', 2,
     'GUIDs of "H1" wrap: NodeGUID 0xfffffffffffffffe + NumPorts 2 runs past '
     '0xffffffffffffffff'),
    ('caguid numbering wraps', 'caguid=0xfffffffffffffffc\nCa 2 "H1"\n\nCa 1 "H2"\n', 4,
     'GUIDs of "H2" wrap: NodeGUID 0xffffffffffffffff + NumPorts 1 runs past '
     '0xffffffffffffffff'),
    ('switchguid numbering runs out', 'switchguid=0xffffffffffffffff\nSwitch 2 "A"\n\n'
     'Switch 2 "B"\n', 4,
     'switchguid numbering ran out: "B" would get a GUID past 0xffffffffffffffff'),
    ('caguid+ past the end', 'caguid=0xfffffffffffffff0\ncaguid+0x10\nCa 1 "H1"\n', 2,
     'caguid+0x10: base 0xfffffffffffffff0 + 0x10 runs past 0xffffffffffffffff'),
    ('ibnetdiscover id GUID wraps', 'Ca 2 "H-ffffffffffffffff"\n', 1,
     'GUIDs of "H-ffffffffffffffff" wrap: NodeGUID 0xffffffffffffffff + NumPorts 2 runs '
     'past 0xffffffffffffffff'),
    # Documented limits (ibfabric_topology.rst, Syntax and Limits).
    ('line too long', GOOD_SW + '# ' + 'x' * 4095 + '\n', 4, 'line longer than 4096 bytes'),
    ('NUL byte', GOOD_SW + '[3] "H\0"[1]\n', 4, 'NUL byte in line'),
    ('241 active HCAs',
     'Switch 250 "S"\n' + ''.join('[%d] "H%d"[1]\n' % (i + 1, i) for i in range(241)) +
     ''.join('\nCa 1 "H%d" active=mt25208\n[1] "S"[%d]\n' % (i, i + 1) for i in range(241)),
     243 + 240 * 3 + 1,
     'active=mt25208: more than 240 active HCAs (one PCI bus each, 0x10..0xff)'),
]

# The documented limits of a net file (ibfabric_topology.rst, Limits).
FILE_MAX = 64 << 20
INCLUDE_MAX = 8

# ibfabric's exit status for bad input (main.c): 2, never a signal (a crash
# must not pass for a refusal)
EXIT_BAD_INPUT = 2


def check_refusal(h, what, r, message):
    h.check_eq(r.returncode, EXIT_BAD_INPUT, '%s: exit status' % what)
    h.check(message + '\n' in r.stderr, '%s: no %r in stderr %r' % (what, message, r.stderr))


def refuse(h, ibfabric, path):
    # An accepted file would run until "quit": the script ends it at once.
    quit_script = h.write_file('quit.cmd', 'quit\n')
    return h.run([ibfabric, '--no-console', '--sock-name', 'badin%d' % os.getpid(),
                  '--pci-root', h.path('pci'), '--script', quit_script, path],
                 check=False, timeout=30)


def check_file_problems(h, ibfabric):
    """Whole-file problems: size, includes, "do" lines, emptiness."""
    good = GOOD_SW + '\n' + GOOD_H1 + '\n' + GOOD_H2

    # One byte over 64 MiB (sparse: nothing is written): refused before reading.
    big = h.path('big.net')
    with open(big, 'wb') as f:
        f.truncate(FILE_MAX + 1)
    r = refuse(h, ibfabric, big)
    check_refusal(h, 'file over the limit', r,
                  '%s: %d bytes, more than the net-file limit of 64 MiB' % (big, FILE_MAX + 1))
    inc = h.write_file('inc-big.net', good + '\ninclude big.net\n')
    r = refuse(h, ibfabric, inc)
    check_refusal(h, 'include over the limit', r,
                  '%s:11: cannot read "%s": %d bytes, more than the net-file limit of 64 MiB'
                  % (inc, big, FILE_MAX + 1))

    # Includes that are not regular files, or not there: the including line.
    os.mkfifo(h.path('fifo.net'))
    os.mkdir(h.path('dir.net'))
    for what, name, why in [('FIFO', 'fifo.net', 'a FIFO, not a regular file'),
                            ('directory', 'dir.net', 'a directory, not a regular file'),
                            ('missing include', 'none.net', 'No such file or directory')]:
        inc = h.write_file('inc-%s.net' % what.replace(' ', '-'), good + '\ninclude "%s"\n' % name)
        r = refuse(h, ibfabric, inc)
        check_refusal(h, 'include of a %s' % what, r,
                      '%s:11: cannot read "%s": %s' % (inc, h.path(name), why))

    # Nine files deep: the ninth include line is refused, in the eighth file.
    for i in range(1, INCLUDE_MAX + 1):
        h.write_file('deep%d.net' % i, '# level %d\ninclude deep%d.net\n' % (i, i + 1))
    h.write_file('deep%d.net' % (INCLUDE_MAX + 1), good)
    r = refuse(h, ibfabric, h.path('deep1.net'))
    check_refusal(h, 'include nesting', r,
                  '%s:2: include "deep%d.net": nesting deeper than %d files'
                  % (h.path('deep%d.net' % INCLUDE_MAX), INCLUDE_MAX + 1, INCLUDE_MAX))
    loop = h.write_file('loop.net', good + '\ninclude loop.net\n')
    r = refuse(h, ibfabric, loop)
    check_refusal(h, 'include loop', r,
                  '%s:11: include loop: "%s" is already being read' % (loop, loop))

    # A failing "do" line in an included file: that file and line, exit 2.
    h.write_file('do-inc.net', '# commands\ndo link sideways "H1" 1\n')
    top = h.write_file('do-top.net', good + '\ninclude do-inc.net\n')
    r = refuse(h, ibfabric, top)
    h.check_eq(r.returncode, EXIT_BAD_INPUT, 'failing do line: exit status')
    h.check('error: %s:2: "do link sideways "H1" 1" failed\n' % h.path('do-inc.net')
            in r.stdout, 'failing do line: file:line not named in %r' % r.stdout)

    # Nothing to simulate.
    empty = h.write_file('empty.net', '# nothing here\n')
    r = refuse(h, ibfabric, empty)
    check_refusal(h, 'empty net file', r, '%s: no nodes in the net file' % empty)

    # The generator does not write a file the parser would refuse.
    r = h.run([ibfabric, 'gen', 'switch', '--hosts', '250', '--active', '241'],
              check=False, timeout=20)
    check_refusal(h, 'gen --active 241', r,
                  'ibfabric gen: --active 241: at most 240 active HCAs (one PCI bus each)')


def abstract_addr(name):
    # "\0<name>\0": the trailing NUL is part of ibsim's names (ibsim.c sim_init_conn()).
    return b'\0' + name.encode() + b'\0'


def main():
    ibfabric, netfile = os.path.abspath(sys.argv[1]), sys.argv[2]
    with Harness('bad_input', timeout=90) as h:
        for what, text, line, message in CASES:
            path = h.write_file('bad-%s.net' % what.replace(' ', '-'), text)
            r = refuse(h, ibfabric, path)
            check_refusal(h, what, r, '%s:%d: %s' % (path, line, message % {'path': path}))
            h.info('%s: rc %d: %s' % (what, r.returncode, r.stderr.strip().splitlines()[-1]))

        missing = h.path('missing.net')
        r = h.run([ibfabric, '--no-console', missing], check=False, timeout=20)
        check_refusal(h, 'missing net file', r, '%s: No such file or directory' % missing)
        check_file_problems(h, ibfabric)

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
