#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""No circles among net_mthca's files (issue 28): from the driver's
static archive, an edge A -> B for every function or object of B that A
uses (nm: undefined in A, defined in B); the graph must have no cycle, so
that a lower layer (EQ drain, simulated function) reports upward only
through the callback table set at probe (struct mthca_event_ops). The
log type variable, which every file logs through, is not an edge.

usage: test_layers.py <librte_net_mthca archive>
"""

import re
import subprocess
import sys

SHARED = {'mthca_logtype'}


def graph(archive):
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
    return {m: sorted({defined[s] for s in syms if s in defined and s not in SHARED} - {m})
            for m, syms in used.items()}


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
    g = graph(sys.argv[1])
    for n in sorted(g):
        print('%s -> %s' % (n, ' '.join(g[n])))
    if len(g) < 10:
        print('FAIL: only %d files in %s' % (len(g), sys.argv[1]))
        return 1
    c = find_cycle(g)
    if c:
        print('FAIL: circle among the PMD files: %s' % ' -> '.join(c))
        return 1
    print('OK: %d files, no circle' % len(g))
    return 0


if __name__ == '__main__':
    sys.exit(main())
