#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Mutation check: do the tests catch the bugs they exist for?

usage: test/mutation/mutate.py [--list FILE] [--only NAME ...] [--all-tests]
                               [--keep] [--scratch DIR] [--lock FILE]

Copies the tracked files of this work tree (uncommitted edits included) to
a scratch directory, configures and builds it once, checks that the tests
the list names pass there unmutated, then for each mutation of the list
(test/mutation/mutations.txt by default):

  1. replaces the one occurrence of its "find" text in its file by its
     "replace" text (a mutation whose text is not found exactly once is
     STALE: the code moved, update the list); a mutation may give several
     find/replace pairs, applied in order, when one rule lives in two
     places of one file;
  2. rebuilds (a mutation that does not build is INVALID);
  3. runs its "tests" (meson test names; "default" or --all-tests: the
     unit and conformance suites);
  4. restores the file.

A mutation is CAUGHT when a test fails, SURVIVED when all pass. The last
line reads "planted N, caught C, survived S, stale T, invalid I"; the exit
status is 0 only when every mutation was caught. Not part of any default
suite: a full run rebuilds once per mutation (doc/guides/testing.rst).
"""

import argparse
import filecmp
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
KEYS = ('name', 'file', 'find', 'replace', 'why', 'tests')
PAIRED = ('find', 'replace')	# may repeat: find/replace pairs, in order


def parse_list(path):
    """Blocks of "key: value" lines separated by blank lines; '#' comments.

    A value may continue on lines that start with whitespace. "\\t" in
    find/replace stands for a tab (the code is indented with tabs). find
    and replace may be given several times: pairs, in order.
    """
    muts, cur, last, errors = [], {}, None, []

    def close(lineno):
        if not cur:
            return
        missing = [k for k in ('name', 'file', 'find', 'replace', 'why', 'tests')
                   if k not in cur]
        if missing:
            errors.append('%s:%d: mutation %r lacks %s' %
                          (path, lineno, cur.get('name', '?'), ', '.join(missing)))
        elif len(cur['find']) != len(cur['replace']):
            errors.append('%s:%d: mutation %r has %d find and %d replace lines' %
                          (path, lineno, cur['name'], len(cur['find']), len(cur['replace'])))
        else:
            for k in ('find', 'replace'):
                cur[k] = [v.replace('\\t', '\t').replace('\\n', '\n') for v in cur[k]]
            muts.append(dict(cur))
        cur.clear()

    with open(path) as f:
        lines = f.read().splitlines()
    for n, line in enumerate(lines, 1):
        if line.startswith('#'):
            continue
        if not line.strip():
            close(n)
            last = None
            continue
        if line[0] in ' \t' and last is not None:
            if last in PAIRED:
                cur[last][-1] += ' ' + line.strip()
            else:
                cur[last] += ' ' + line.strip()
            continue
        key, sep, value = line.partition(':')
        if not sep or key not in KEYS:
            errors.append('%s:%d: expected "key: value" with key in %s, got %r' %
                          (path, n, ', '.join(KEYS), line))
            continue
        value = value[1:] if value.startswith(' ') else value
        if key in PAIRED:
            cur.setdefault(key, []).append(value)
        elif key in cur:
            errors.append('%s:%d: %s given twice in mutation %r' %
                          (path, n, key, cur.get('name', '?')))
        else:
            cur[key] = value
        last = key
    close(len(lines))
    names = [m['name'] for m in muts]
    for name in set(names):
        if names.count(name) > 1:
            errors.append('%s: mutation name %r used twice' % (path, name))
    return muts, errors


def mutated(text, m):
    """(text with @m's pairs applied, None) or (None, why it is stale)."""
    for find, replace in zip(m['find'], m['replace']):
        n = text.count(find)
        if n != 1:
            return None, 'find text %r occurs %d times' % (find[:40], n)
        text = text.replace(find, replace)
    return text, None


# ninja's jobs: the machine's CPUs (ninja's own default, CPUs + 2, makes
# a 2-core machine's tests of the mutation before wait on four compilers)
JOBS = os.cpu_count() or 1


def ninja(build):
    return ['ninja', '-j', str(JOBS), '-C', build]


def sh(argv, cwd, timeout=None):
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def copy_tree(dst):
    """The tracked files of the work tree, as they are now, into @dst."""
    r = sh(['git', 'ls-files', '-z', '--cached'], TOP)
    if r.returncode != 0:
        sys.exit('git ls-files: %s' % r.stderr.strip())
    for rel in r.stdout.split('\0'):
        if not rel:
            continue
        src = os.path.join(TOP, rel)
        if not os.path.lexists(src):
            continue	# deleted in the work tree, not yet committed
        out = os.path.join(dst, rel)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        if os.path.islink(src):
            shutil.copy2(src, out, follow_symlinks=False)
            continue
        # A --scratch copy: only what changed, stamped now, so that its
        # build sees it even when the source's own time is older than an
        # object a mutation rebuilt there (copy2's times hid such edits).
        if os.path.isfile(out) and filecmp.cmp(src, out, shallow=False):
            continue
        shutil.copy2(src, out)
        os.utime(out)


def setup_build(scratch, build):
    if os.path.isdir(os.path.join(build, 'meson-private')):
        # a --scratch copy built before: rebuild it (the copy above refreshed its sources)
        r = sh(ninja(build), scratch)
        if r.returncode != 0:
            sys.exit('the unmutated scratch copy does not build:\n' + r.stdout[-3000:])
        return
    args = ['meson', 'setup', build, scratch, '-Dwerror=true']
    for cand in (os.path.join(TOP, 'build', 'dpdk-sdk'),):
        if os.path.isdir(cand):
            args.append('-Ddpdk_sdk_dir=' + cand)	# no second SDK download
    r = sh(args, scratch)
    if r.returncode != 0:
        sys.exit('meson setup of the scratch copy failed:\n' + r.stdout[-3000:])
    r = sh(ninja(build), scratch)
    if r.returncode != 0:
        sys.exit('the unmutated scratch copy does not build:\n' + r.stdout[-3000:])


def test_args(tests, all_tests):
    if all_tests or tests.split() == ['default']:
        return ['--suite', 'unit', '--suite', 'conformance']
    return tests.split()


def run_tests(build, tests, all_tests, lock, test_scratch):
    """(passed, [names of failed tests]); the tests' scratch under @test_scratch."""
    argv = ['meson', 'test', '-C', build, '--no-rebuild', '--num-processes', '2']
    if lock:
        # the fabric lock (doc/guides/testing.rst), held for the tests only
        argv = ['flock', lock] + argv
    argv += test_args(tests, all_tests)
    # A failing test keeps its scratch directory (test/lib/harness.py):
    # here that is every caught mutation's, so they go to one directory
    # that holds the last mutation's only. It is short: a test's UNIX
    # socket paths live under it (sun_path holds 107 bytes), and under
    # the scratch copy's build they did not fit.
    shutil.rmtree(test_scratch, ignore_errors=True)
    os.makedirs(test_scratch)
    r = subprocess.run(argv, cwd=build, capture_output=True, text=True, timeout=3600,
                       env=dict(os.environ, IPOIB_TEST_SCRATCH=test_scratch))
    failed = []
    log = os.path.join(build, 'meson-logs', 'testlog.json')
    if os.path.exists(log):
        for line in open(log):
            if line.strip():
                t = json.loads(line)
                if t['result'] not in ('OK', 'EXPECTEDFAIL'):
                    failed.append('%s(%s)' % (t['name'].rsplit(' / ', 1)[-1], t['result']))
    if r.returncode != 0 and not failed:
        failed.append('meson test rc %d: %s' % (r.returncode, (r.stdout + r.stderr)[-300:]))
    return r.returncode == 0, failed


def main():
    global JOBS
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--list', default=os.path.join(HERE, 'mutations.txt'))
    ap.add_argument('--only', action='append', default=[],
                    help='run only this mutation (repeatable)')
    ap.add_argument('--all-tests', action='store_true',
                    help='run the unit and conformance suites for every mutation')
    ap.add_argument('--keep', action='store_true', help='keep the scratch copy')
    ap.add_argument('--scratch', help='scratch directory (default: a new temporary one); one built by an '
                    'earlier run is rebuilt, not configured again')
    ap.add_argument('--lock', help='run each mutation\'s tests under flock(1) of this file '
                    '(the fabric lock, for fabric and conformance tests), not its rebuild')
    ap.add_argument('--jobs', type=int, default=JOBS,
                    help='ninja jobs for each rebuild (default: the number of CPUs, %d here)' % JOBS)
    ap.add_argument('--check-list', action='store_true',
                    help='only check that the list parses and every find text occurs once')
    a = ap.parse_args()
    JOBS = max(1, a.jobs)

    muts, errors = parse_list(a.list)
    for e in errors:
        print('error: ' + e)
    if errors:
        return 2
    if a.only:
        unknown = set(a.only) - {m['name'] for m in muts}
        if unknown:
            print('error: no mutation named %s in %s' % (', '.join(sorted(unknown)), a.list))
            return 2
        muts = [m for m in muts if m['name'] in a.only]

    if a.check_list:
        bad = 0
        for m in muts:
            with open(os.path.join(TOP, m['file'])) as f:
                _, why = mutated(f.read(), m)
            if why is not None:
                bad += 1
                print('STALE    %-32s %s: %s' % (m['name'], m['file'], why))
        print('%d mutations, %d stale' % (len(muts), bad))
        return 1 if bad else 0

    scratch = a.scratch or tempfile.mkdtemp(prefix='dpdk-ipoib-mutation.')
    os.makedirs(scratch, exist_ok=True)
    build = os.path.join(scratch, 'build')
    t0 = time.monotonic()
    print('scratch copy: %s' % scratch)
    test_scratch = tempfile.mkdtemp(prefix='dim.')
    copy_tree(scratch)
    setup_build(scratch, build)

    # the tests must pass unmutated, or nothing below means anything
    base = set()
    for m in muts:
        base.add(' '.join(test_args(m['tests'], a.all_tests)))
    for tests in sorted(base):
        ok, failed = run_tests(build, tests, False, a.lock, test_scratch)
        if not ok:
            print('error: unmutated copy fails %s: %s (their scratch directories: %s)' %
                  (tests, ', '.join(failed), test_scratch))
            return 2
    print('baseline: %d test set(s) pass unmutated (%.0fs)' % (len(base), time.monotonic() - t0))

    counts = {'CAUGHT': 0, 'SURVIVED': 0, 'STALE': 0, 'INVALID': 0}
    survivors = []
    for m in muts:
        path = os.path.join(scratch, m['file'])
        with open(path) as f:
            orig = f.read()
        text, why = mutated(orig, m)
        t1 = time.monotonic()
        if why is not None:
            verdict, detail = 'STALE', '%s in %s' % (why, m['file'])
        else:
            with open(path, 'w') as f:
                f.write(text)
            try:
                r = sh(ninja(build), scratch)
                if r.returncode != 0:
                    verdict, detail = 'INVALID', 'does not build'
                else:
                    ok, failed = run_tests(build, m['tests'], a.all_tests, a.lock,
                                           test_scratch)
                    if ok:
                        verdict, detail = 'SURVIVED', 'tests %s pass' % m['tests']
                    else:
                        verdict, detail = 'CAUGHT', 'by ' + ', '.join(failed)
            finally:
                with open(path, 'w') as f:
                    f.write(orig)
        counts[verdict] += 1
        if verdict != 'CAUGHT':
            survivors.append(m)
        print('%-8s %-34s %s (%.0fs)' % (verdict, m['name'], detail, time.monotonic() - t1))
        sys.stdout.flush()
    # leave the scratch build matching its sources
    sh(ninja(build), scratch)
    for m in survivors:
        print('  not caught: %s (%s): %s' % (m['name'], m['file'], m['why']))
    print('planted %d, caught %d, survived %d, stale %d, invalid %d (%.0fs)' %
          (len(muts), counts['CAUGHT'], counts['SURVIVED'], counts['STALE'],
           counts['INVALID'], time.monotonic() - t0))
    if not a.keep and not a.scratch:
        shutil.rmtree(scratch, ignore_errors=True)
    if not a.keep:
        shutil.rmtree(test_scratch, ignore_errors=True)
    return 0 if len(survivors) == 0 else 1


if __name__ == '__main__':
    sys.exit(main())
