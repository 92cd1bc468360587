#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""lib/ipoib encapsulation and decapsulation cycles per packet (issue 17),
run twice: on the EAL's 2 MiB hugepages, as a DPDK data plane is deployed
and where the goal of 20 cycles is judged, then on 4 KiB pages
(--no-huge), as the unit tests run, for the TLB's share.

usage: bench_ipoib.py <bench_ipoib> [bursts per figure [one table size]]

The hugepages: when fewer than PAGES 2 MiB pages are free, this reserves
the difference (/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages,
root only) and gives the count back as it found it when done, also on
failure; the EAL takes them as a hugetlbfs memfd (--in-memory), so that
nothing is mounted and no file is left. Where they cannot be had (not
root, no memory), that run is reported as not made, with the reason, and
the 4 KiB run is still made. Exit status: 1 when a run that was made
failed, else 0.
"""

import os
import subprocess
import sys

HP_DIR = '/sys/kernel/mm/hugepages/hugepages-2048kB'
# bench_ipoib --hugepages takes -m 64: 32 pages, and the EAL's own.
PAGES = 48


def hp_read(name):
    with open(os.path.join(HP_DIR, name)) as f:
        return int(f.read())


def hp_write_total(n):
    with open(os.path.join(HP_DIR, 'nr_hugepages'), 'w') as f:
        f.write(str(n))


def reserve():
    """(count to restore or None, reason when the pages cannot be had)."""
    try:
        free = hp_read('free_hugepages')
        total = hp_read('nr_hugepages')
    except OSError as e:
        return None, 'no 2 MiB hugepages on this kernel (%s)' % e
    if free >= PAGES:
        return None, None
    try:
        hp_write_total(total + PAGES - free)
    except OSError as e:
        return None, 'cannot reserve %d hugepages: %s' % (PAGES - free, e)
    if hp_read('free_hugepages') < PAGES:
        hp_write_total(total)
        return None, 'the kernel gave fewer than %d free hugepages' % PAGES
    return total, None


def run(cmd):
    print('$ ' + ' '.join(cmd), flush=True)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=900)
    for line in p.stdout.splitlines():
        if not line.startswith(('EAL:', 'TELEMETRY:')):
            print(line)
    if p.returncode != 0:
        print('bench_ipoib.py: %s exited with %d' % (cmd[0], p.returncode))
    return p.returncode == 0


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    bench, rest = os.path.abspath(sys.argv[1]), sys.argv[2:]
    ok = True
    restore, why = reserve()
    try:
        if why is None:
            print('== 2 MiB hugepages (the goal is judged here)')
            ok = run([bench, '--hugepages'] + rest) and ok
        else:
            print('== 2 MiB hugepages: not measured: %s' % why)
    finally:
        if restore is not None:
            hp_write_total(restore)
    print('== 4 KiB pages (--no-huge)')
    ok = run([bench] + rest) and ok
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
