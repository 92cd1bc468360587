#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""ibfabric's command line (issue 15): --version, one-line usage errors
that name what was wrong, ibsim's options accepted or refused with the
reason, "ibfabric ctl" exit statuses, the man page renders.

usage: test_cli.py <ibfabric> <netfile> <man page>
"""

import os
import subprocess
import sys

from simlib import Fabric, Harness


def run(argv, **kw):
    return subprocess.run(argv, capture_output=True, text=True, timeout=30, **kw)


def main():
    ibfabric, netfile, manpage = (os.path.abspath(a) for a in sys.argv[1:4])
    with Harness('cli', timeout=120) as h:
        r = run([ibfabric, '--version'])
        h.check(r.returncode == 0 and r.stdout.startswith('ibfabric '), '--version: %r' % r)

        # Each usage error: status 2, one line on stderr saying what was wrong.
        for argv, says in (([], 'no net file given'),
                           (['--bogus', netfile], 'unknown option --bogus'),
                           (['-z', netfile], 'unknown option -z'),
                           (['-N'], 'option -N needs a value'),
                           (['-N', 'x', netfile], '-N x: not a number'),
                           ([netfile, netfile], 'one net file expected'),
                           (['-I', netfile], 'duplicate node name is an error here'),
                           (['-r', netfile], "inet mode"),
                           (['ctl'], 'no socket given')):
            r = run([ibfabric] + argv)
            lines = r.stderr.strip().splitlines()
            h.check(r.returncode == 2 and len(lines) == 1 and says in lines[0],
                    '%s: rc %d, stderr %r (want one line with %r)' %
                    (argv, r.returncode, r.stderr, says))

        # ibsim's command line runs: -s -n and the table sizes are accepted.
        sock = 'cf%dcli' % os.getpid()
        out = h.path('console.out')
        script = h.path('quit.cmd')
        with open(script, 'w') as f:
            f.write('Dump "Switch1"\nQuit\n')
        r = run([ibfabric, '-s', '-n', '-N', '4096', '-S', '512', '-f', out, '--sock-name',
                 sock, '--script', script, netfile])
        h.check(r.returncode == 0, 'ibsim options: rc %d %s' % (r.returncode, r.stderr))
        with open(out) as f:
            text = f.read()
        h.check('Switch 8 "Switch1"' in text and 'Exiting network simulator.' in text,
                '-f: console output %r' % text)

        # ibfabric ctl: 0 ok, 1 the command failed (error on stderr), 2 no connection.
        fab = Fabric(h, ibfabric, netfile)
        r = run([ibfabric, 'ctl', fab.ctl_path, 'show', 'nodes'])
        h.check(r.returncode == 0 and 'node name="Switch1"' in r.stdout, 'ctl: %r' % r)
        r = run([ibfabric, 'ctl', fab.ctl_path, 'no-such-command'])
        h.check(r.returncode == 1 and r.stderr.startswith('error: '), 'ctl error: %r' % r)
        r = run([ibfabric, 'ctl', fab.ctl_path], input='show stats\nVerbose\n')
        h.check(r.returncode == 0 and 'stats nodes=6' in r.stdout and
                'verbose level' in r.stdout, 'ctl from stdin: %r' % r)
        r = run([ibfabric, 'ctl', h.path('nothing.ctl'), 'help'])
        h.check(r.returncode == 2 and 'is ibfabric running' in r.stderr, 'ctl no socket: %r' % r)

        # The man page is valid roff (man(1) renders it without a warning).
        if os.path.exists('/usr/bin/man'):
            r = run(['man', '--warnings', '-l', manpage],
                    env=dict(os.environ, MANPAGER='cat', MANWIDTH='80'))
            h.check(r.returncode == 0 and 'ibfabric ctl' in r.stdout and not r.stderr.strip(),
                    'man page: rc %d, stderr %r' % (r.returncode, r.stderr))
        h.info('command line checked')


if __name__ == '__main__':
    main()
