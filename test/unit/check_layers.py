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
through). It prints the graph, then the first circle found.

usage: check_layers.py <archive> <prefix> <min files> [shared symbol...]
"""

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
    archive, prefix, least = sys.argv[1], sys.argv[2], int(sys.argv[3])
    g = graph(archive, prefix, set(sys.argv[4:]))
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
