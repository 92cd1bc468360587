#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""The guides work when followed (issue 27): the command blocks of the
guides that tell a user what to type are run as written, in order, one
bash session per guide (so a block may use what an earlier one started),
from a directory that looks like the top of the source tree with the
build under test as build/ (symbolic links; under /run or ~/.cache,
since EAL refuses plugins below a world-writable /tmp).

What runs, in the guide's rst:

* every ``.. code-block:: sh`` block (``::`` blocks and other languages
  are examples or output, not commands);
* unless the comment ``.. howto: skip <reason>`` stands before it: the
  test prints the reason. Used where a command needs what a test must
  not do (install into the system);
* ``.. howto: expect <regex>`` after a block: the block's output (stdout
  and stderr) must match it (Python re, multi-line).

A block that fails (bash -e; no pipefail: a user's shell has none, and
``| head`` ends a pipe early) fails the test, naming the
guide and the block's first line. The harness kills the session's
process group at the end, with whatever a guide left running.

In the sanitizer build, Debian's uninstrumented dpdk-testpmd and
dpdk-proc-info load sanitized PMDs: the session finds them first on its
PATH as wrappers that preload the runtimes (sanitizer_preload()) and
exec the program, so the commands still read as in the guide and a
background one's $! is the program's. dpdk-ib-ns finds the build's
libibumad_preload.so (built without sanitizers) through
DPDK_IB_UMAD_PRELOAD.

usage: test_howto.py <source root> <build root> <librte_net_mthca.so> <guide.rst>...
"""

import os
import re
import shlex
import shutil
import subprocess
import sys

from simlib import Harness, eal_private_dir, sanitizer_preload

BLOCK = re.compile(r'^\.\. code-block:: *(\S+)\s*$')
SKIP = re.compile(r'^\.\. howto: skip (.+)$')
EXPECT = re.compile(r'^\.\. howto: expect (.+)$')


def blocks(path):
    """[(first line no, lang, text, skip reason or None, [expect regexes])]"""
    lines = open(path).read().splitlines()
    out = []
    skip = None
    i = 0
    while i < len(lines):
        line = lines[i]
        m = SKIP.match(line)
        if m:
            skip = m.group(1)
        m = EXPECT.match(line)
        if m:
            if not out:
                raise ValueError('%s:%d: expect before any block' % (path, i + 1))
            out[-1][4].append(m.group(1))
        m = BLOCK.match(line)
        if m:
            start = i + 1
            i += 1
            while i < len(lines) and lines[i].strip() == '':
                i += 1
            body = []
            while i < len(lines) and (lines[i].startswith('    ') or lines[i].strip() == ''):
                body.append(lines[i][4:])
                i += 1
            while body and body[-1] == '':
                body.pop()
            out.append((start, m.group(1), '\n'.join(body), skip, []))
            skip = None
            continue
        i += 1
    return out


def tree(h, src, build):
    """A directory whose entries are those of @src, build/ being @build."""
    top = eal_private_dir(h, 'dpdk-ipoib-howto.')
    for name in os.listdir(src):
        if name.startswith('.') or name.startswith('build'):
            continue
        os.symlink(os.path.join(src, name), os.path.join(top, name))
    os.symlink(build, os.path.join(top, 'build'))
    return top


def fuse_mounts():
    """Mount points of FUSE file systems (a user-MAD service's dev/)."""
    with open('/proc/self/mounts') as f:
        return {ln.split()[1] for ln in f if ln.split()[2].startswith('fuse')}


def run_guide(h, src, build, plugin, guide):
    rel = os.path.relpath(guide, src)
    todo = [b for b in blocks(guide) if b[1] == 'sh']
    h.check(todo, '%s has no sh block' % rel)
    pre = ['set -e', 'cd %s' % shlex.quote(tree(h, src, build))]
    path = os.environ['PATH']
    env = sanitizer_preload(h, plugin)
    if env:
        # Wrappers that exec the program: a guide's "prog & pid=$!" then
        # names the program itself, which its "kill $pid" stops (a shell
        # function run in the background is a subshell: the kill missed
        # the program, which died at teardown without unmounting).
        bindir = h.path('sanitizer-bin')
        os.makedirs(bindir, exist_ok=True)
        for prog in ('dpdk-testpmd', 'dpdk-proc-info'):
            real = shutil.which(prog)
            if real is None:
                continue
            w = os.path.join(bindir, prog)
            with open(w, 'w') as f:
                f.write('#!/bin/sh\nLD_PRELOAD=%s exec %s "$@"\n' %
                        (shlex.quote(env['LD_PRELOAD']), shlex.quote(real)))
            os.chmod(w, 0o755)
        path = bindir + ':' + path
    script = pre[:]
    mounts = fuse_mounts()
    ran = []
    for n, (line, _, text, skip, expects) in enumerate(todo):
        if skip:
            h.info('%s:%d: skipped: %s' % (rel, line, skip))
            continue
        ran.append((n, line, text, expects))
        script += ['echo "@@howto %d@@"' % n, text]
    script.append('echo "@@howto end@@"')
    h.write_file(os.path.basename(guide) + '.sh', '\n'.join(script) + '\n')
    p = h.spawn(['bash', h.path(os.path.basename(guide) + '.sh')],
                name=os.path.basename(guide).replace('.rst', ''),
                env={'DPDK_IB_UMAD_PRELOAD':
                     os.path.join(build, 'lib', 'ibumad', 'libibumad_preload.so'),
                     'LD_LIBRARY_PATH': None, 'LD_PRELOAD': None, 'PATH': path})
    h.wait_for(lambda: not p.alive(), timeout=240, what='%s to run' % rel, interval=0.2)
    log = p.log()
    parts = re.split(r'^@@howto (\d+|end)@@$', log, flags=re.M)
    seen = dict(zip(parts[1::2], parts[2::2]))
    for n, line, text, expects in ran:
        if str(n) not in seen:
            h.fail('%s:%d: the block before it failed; output:\n%s' % (rel, line, log[-4000:]))
        out = seen[str(n)]
        for e in expects:
            h.check(re.search(e, out, re.M),
                    '%s:%d: output of\n%s\ndoes not match %r:\n%s' %
                    (rel, line, text, e, out[-3000:]))
    if p.popen.returncode != 0 or 'end' not in seen:
        last = max((n for n, *_ in ran if str(n) in seen), default=None)
        where = [r for r in ran if r[0] == last]
        h.fail('%s: exit status %s in the block at line %s:\n%s\noutput:\n%s' %
               (rel, p.popen.returncode, where[0][1] if where else '?',
                where[0][2] if where else '', log[-4000:]))
    left = fuse_mounts() - mounts
    for m in left:
        subprocess.run(['umount', '-l', m], check=False)
    h.check(not left, '%s: its commands left FUSE mounts behind: %s' % (rel, sorted(left)))
    h.info('%s: %d blocks run, %d skipped' % (rel, len(ran), len(todo) - len(ran)))


def main():
    src, build, plugin = (os.path.abspath(a) for a in sys.argv[1:4])
    guides = [os.path.join(src, g) for g in sys.argv[4:]]
    with Harness('howto', timeout=900) as h:
        if os.geteuid() != 0:
            h.fail('the guides are written for root (namespaces, hugepages)')
        for prog in ('bash', 'dpdk-testpmd', 'opensm', 'tshark'):
            h.need_program(prog)
        for g in guides:
            run_guide(h, src, build, plugin, g)


if __name__ == '__main__':
    main()
