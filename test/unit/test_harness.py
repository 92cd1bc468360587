#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Self-test of test/lib/harness.py: what every fabric and conformance
test relies on. Each scenario runs a small test script in a child python
and checks its exit code and that nothing it started survives:

- pass: exit 0, scratch directory removed;
- failure (h.fail): exit 1, process group killed, namespace deleted,
  scratch directory kept and named;
- harness timeout (SIGALRM): exit 1, same teardown;
- SIGTERM from meson's own timeout: exit 1, same teardown;
- skip: exit 77;
- a tool or file the test needs is missing: exit 1 (no silent skips);
- a sanitizer report in a spawned process's output: exit 1;
- a command line with --file-prefix: its DPDK runtime directory
  (/var/run/dpdk/<prefix>, left by EAL at exit) removed, pass or fail.

usage: test_harness.py (test/lib on PYTHONPATH, as meson sets it)
"""

import os
import signal
import subprocess
import sys
import tempfile
import time


SCRIPT = '''
import time
from harness import Harness
with Harness('selftest', timeout=%(timeout)d) as h:
    p = h.spawn(['sleep', '1000'], name='sleeper')
    open(%(pidfile)r, 'w').write('%%d %%s' %% (p.pid, h.dir))
    ns = h.netns('st') if %(netns)r else ''
    open(%(pidfile)r, 'a').write(' ' + ns)
    %(body)s
'''


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is gone for our purposes
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().rsplit(')', 1)[1].split()[0] != 'Z'
    except OSError:
        return False


def scenario(name, body, want_rc, timeout=20, netns=False, kill_after=None):
    work = tempfile.mkdtemp(prefix='harness-selftest.')
    pidfile = os.path.join(work, 'pid')
    env = dict(os.environ, IPOIB_TEST_SCRATCH=os.path.join(work, 'scratch'))
    code = SCRIPT % dict(timeout=timeout, pidfile=pidfile, netns=netns, body=body)
    child = subprocess.Popen([sys.executable, '-c', code], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if kill_after is not None:
        deadline = time.monotonic() + 10
        while not os.path.exists(pidfile) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(kill_after)
        child.send_signal(signal.SIGTERM)
    out, _ = child.communicate(timeout=60)
    errors = []
    if child.returncode != want_rc:
        errors.append('exit %d, expected %d' % (child.returncode, want_rc))
    try:
        fields = open(pidfile).read().split()
    except OSError:
        fields = []
    if len(fields) < 2:
        errors.append('the test script did not start its process')
    else:
        pid, scratch = int(fields[0]), fields[1]
        time.sleep(0.1)
        if alive(pid):
            errors.append('spawned process %d survived' % pid)
            os.kill(pid, signal.SIGKILL)
        kept = os.path.isdir(scratch)
        if want_rc in (0, 77) and kept:
            errors.append('scratch dir kept after a pass/skip')
        if want_rc == 1 and not kept:
            errors.append('scratch dir removed after a failure')
        if len(fields) > 2:
            ns = fields[2]
            r = subprocess.run(['ip', 'netns', 'list'], capture_output=True, text=True)
            if ns in r.stdout:
                errors.append('namespace %s left behind' % ns)
                subprocess.run(['ip', 'netns', 'del', ns])
    subprocess.run(['rm', '-rf', work])
    print('%-10s %s' % (name, 'ok' if not errors else 'FAILED: ' + '; '.join(errors)))
    if errors:
        print('  output:\n    ' + '\n    '.join(out.splitlines()[-15:]))
    return not errors


def runtime_dir():
    """An EAL command line's --file-prefix: its /var/run/dpdk/<prefix>
    (what EAL leaves at exit) is gone after teardown, pass or fail."""
    ok = True
    for how, body, rc in (('pass', 'pass', 0), ('fail', 'h.fail("deliberate")', 1)):
        prefix = 'harness-selftest-%s-%d' % (how, os.getpid())
        d = os.path.join('/var/run/dpdk', prefix)
        # a process that makes the directory as EAL would, then lives on
        mk = ('q = h.spawn(["sh", "-c", "mkdir -p %s && touch %s/config && sleep 1000", '
              '"--file-prefix", %r])\n    h.wait_for(lambda: os.path.exists(%r))\n    %s'
              % (d, d, prefix, d + '/config', body))
        ok &= scenario('rtdir_' + how, 'import os\n    ' + mk, rc)
        if os.path.exists(d):
            print('rtdir_%s  FAILED: %s left behind' % (how, d))
            subprocess.run(['rm', '-rf', d])
            ok = False
    return ok


def main():
    can_netns = subprocess.run(['ip', 'netns', 'list'], capture_output=True).returncode == 0 \
        and os.geteuid() == 0
    results = [
        scenario('pass', 'pass', 0),
        scenario('fail', 'h.fail("deliberate")', 1, netns=can_netns),
        scenario('timeout', 'time.sleep(30)', 1, timeout=1, netns=can_netns),
        scenario('sigterm', 'time.sleep(30)', 1, kill_after=0.5),
        scenario('skip', 'h.skip("not here")', 77),
        # a missing tool is a failure, never a silent skip
        scenario('no_tool', 'h.need_program("no-such-tool-ipoib")', 1),
        scenario('no_file', 'h.need_file("/no/such/file/ipoib")', 1),
        scenario('sanitizer', 'q = h.spawn(["sh", "-c", "echo ==1==ERROR: AddressSanitizer: x"])\n'
                 '    h.wait_log(q, "AddressSanitizer")', 1),
        runtime_dir(),
    ]
    passed = sum(results)
    print('%d passed, %d failed' % (passed, len(results) - passed))
    return 0 if all(results) else 1


if __name__ == '__main__':
    sys.exit(main())
