#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Every manual page renders without a groff warning and names itself.

usage: check_man.py PAGE.1 ...

For each page: "groff -man -ww -z" prints nothing, the .TH line names the
file's command in capitals, and the NAME, SYNOPSIS and DESCRIPTION
sections are there (man-pages(7)).
"""

import os
import subprocess
import sys


def check(path):
    errors = []
    r = subprocess.run(['groff', '-man', '-ww', '-z', path],
                       capture_output=True, text=True)
    if r.returncode != 0 or r.stderr.strip():
        errors.append('groff: rc %d: %s' % (r.returncode, r.stderr.strip()))
    text = open(path).read()
    name = os.path.basename(path)[:-2]
    th = [l for l in text.splitlines() if l.startswith('.TH ')]
    if not th or th[0].split()[1] != name.upper():
        errors.append('.TH does not name %s' % name.upper())
    for sec in ('NAME', 'SYNOPSIS', 'DESCRIPTION'):
        if '.SH %s' % sec not in text:
            errors.append('no %s section' % sec)
    return ['%s: %s' % (path, e) for e in errors]


def main():
    errors = []
    for p in sys.argv[1:]:
        errors += check(p)
    for e in errors:
        print(e)
    print('%d pages, %d problems' % (len(sys.argv) - 1, len(errors)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
