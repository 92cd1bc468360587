#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""A unit test that fails with work in flight reports the failure and
tears down cleanly (test/lib/test.h test_defer()): run a test binary
with the variable that selects its failing suite, and check that it
exits with 1 (not a signal), names the failing case, passes the case
after it (which finds nothing of the failed case left) and prints the
summary.

usage: check_fail_report.py <test binary> <variable> <failing case> <next case>
"""

import os
import subprocess
import sys


def main():
    exe, var, failing, after = sys.argv[1:5]
    env = dict(os.environ, **{var: '1'})
    p = subprocess.run([exe], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=60)
    out = p.stdout.decode(errors='replace')
    ok = True
    if p.returncode != 1:
        print('exit status %d, not 1 (a negative status is a signal)' % p.returncode)
        ok = False
    for want in ('%s failed' % failing, '%s succeeded' % after,
                 'Tests Total :   2, Passed :   1, Failed :   1'):
        if want not in out:
            print('missing from the output: %r' % want)
            ok = False
    if not ok:
        print(out)
        sys.exit(1)
    print('%s: the failure was reported, the next case found nothing left' % exe)


if __name__ == '__main__':
    main()
