#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""No circles among a component's files (issue 28): from its static
archive, an edge A -> B for every function or object of B that A uses
(nm: undefined in A, defined in B), among the members whose object name
starts with PREFIX (meson names them <source dir>_<file>.c.o); the graph
must have no cycle, so that a lower layer reports upward only through a
callback it was given (net_mthca: struct mthca_event_ops set at probe;
the MT25208 model: the data path's hooks in struct mt25208). SHARED
symbols are not edges (net_mthca's log type, which every file logs
through).

With --src DIR (the component's source folder, whose files the archive's
members are named after), an #include "X" of a file of DIR is an edge
too: a macro, a static inline or a struct of a header leaves no trace in
nm. A header belongs to the source file of its stem (X.h and X_priv.h to
X.c); one with no such source file is a node of its own, a layer below
whoever includes it. It prints the graph, then the first circle found.

usage: check_layers.py [--src DIR] <archive> <prefix> <min files> [shared symbol...]
"""

import os

import re
import subprocess
import sys


def graph(archive, prefix, shared):
    out = subprocess.run(['nm', '-A', archive], check=True, capture_output=True,
                         text=True).stdout
    defined, used = {}, {}
    for line in out.splitlines():
        # "<archive>:<path>/<file>.c.o:<value> <type> <name>" (thin archives name paths)
        m = re.search(r'([^/:]+)\.c\.o:(.*)$', line)
        if m is None:
            continue
        member, f = m.group(1), m.group(2).split()
        if len(f) == 3 and f[1] in 'TDBR':
            defined[f[2]] = member
        elif len(f) == 2 and f[0] == 'U':
            used.setdefault(member, set()).add(f[1])
        used.setdefault(member, set())
    return {m: sorted({defined[s] for s in syms
                       if s in defined and s not in shared and defined[s].startswith(prefix)}
                      - {m})
            for m, syms in used.items() if m.startswith(prefix)}


def includes(src, prefix, g):
    """Add DIR's #include "..." edges to @g (node names as in the archive)."""
    files = sorted(f for f in os.listdir(src) if f.endswith(('.c', '.h')))
    stems = {f[:-2] for f in files if f.endswith('.c')}
    folder = os.path.basename(os.path.normpath(src)) + '_'

    def node(f):
        stem = f[:-2]
        if f.endswith('.h'):
            if stem.endswith('_priv') and stem[:-5] in stems:
                stem = stem[:-5]
            elif stem not in stems:
                return folder + f
        return folder + stem

    for f in files:
        with open(os.path.join(src, f)) as fh:
            inc = re.findall(r'^\s*#\s*include\s+"([^"]+)"', fh.read(), re.M)
        a = node(f)
        edges = set(g.get(a, ()))
        edges |= {node(h) for h in inc if h in files} - {a}
        g[a] = sorted(edges)


def find_cycle(g):
    state, stack = {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in g.get(n, ()):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                c = visit(m)
                if c:
                    return c
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(g):
        if n not in state:
            c = visit(n)
            if c:
                return c
    return None


def main():
    args = sys.argv[1:]
    src = None
    if args[:1] == ['--src']:
        src, args = args[1], args[2:]
    archive, prefix, least = args[0], args[1], int(args[2])
    g = graph(archive, prefix, set(args[3:]))
    if src is not None:
        includes(src, prefix, g)
    for n in sorted(g):
        print('%s -> %s' % (n, ' '.join(g[n])))
    if len(g) < least:
        print('FAIL: only %d files named %s* in %s' % (len(g), prefix, archive))
        return 1
    c = find_cycle(g)
    if c:
        print('FAIL: circle among the files: %s' % ' -> '.join(c))
        return 1
    print('OK: %d files, no circle' % len(g))
    return 0


if __name__ == '__main__':
    sys.exit(main())
