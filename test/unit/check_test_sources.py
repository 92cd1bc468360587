#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Tests reach code through libraries (issue 28): no meson.build under
test/ compiles a source file of lib/, drivers/ or app/ itself
('../../lib/ibmad/mad_rmpp.c', source_root / 'drivers/.../x.c'). A
white-box test links the component's internal static library
(<component>_internal_dep, ibfabric_core_dep) instead.

usage: check_test_sources.py <test dir>
"""

import os
import re
import sys

# a quoted path into lib/, drivers/ or app/ that names a C file, reached by
# ../ or joined to a root with meson's / operator
PATTERNS = (
    re.compile(r"""['"](?:\.\./)+(?:lib|drivers|app)/[^'"]*\.c['"]"""),
    re.compile(r"""/\s*['"](?:lib|drivers|app)/[^'"]*\.c['"]"""),
)


def main():
    top = sys.argv[1]
    bad = []
    for d, _, names in os.walk(top):
        if 'meson.build' not in names:
            continue
        path = os.path.join(d, 'meson.build')
        with open(path) as f:
            for n, line in enumerate(f, 1):
                code = line.split('#', 1)[0]
                if any(p.search(code) for p in PATTERNS):
                    bad.append('%s:%d: %s' % (path, n, line.strip()))
    for b in bad:
        print(b)
    if bad:
        sys.exit('%d line(s) compile a library\'s or app\'s sources into a test; '
                 'link its internal library instead' % len(bad))
    print('ok: no test compiles lib/, drivers/ or app/ sources')


if __name__ == '__main__':
    main()
