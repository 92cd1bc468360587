# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
"""Test harness for fabric and conformance tests.

A test is a plain python3 script run by meson. It opens a Harness, which
gives it a private scratch directory and owns every process and network
namespace the test starts. Whatever happens (assertion, exception,
SIGTERM from meson's timeout, the harness' own timeout), teardown kills
every process group it spawned and deletes every namespace it created.

Exit codes follow meson: 0 pass, 1 fail, 77 skip.

No silent skips (doc/guides/testing.rst): every tool a test uses is
installed by usertools/ipoib-setup.sh, so need_program() and need_file()
fail when theirs is missing. Only skip() skips, with its reason, and the
test command accepts a skip only from the tests it declares by name.

    from harness import Harness
    with Harness('opensm_sweep', timeout=120) as h:
        fab = h.spawn([ibfabric, net], name='ibfabric')
        h.wait_log(fab, 'ready', timeout=10)
        r = h.run(['smpquery', 'nodeinfo', '1'], env=sim_env)
        h.check('NodeType' in r.stdout, 'nodeinfo printed no NodeType')
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SKIP = 77


class TestFailure(Exception):
    """A check failed; the message says what and where."""


class TestSkip(Exception):
    """The test cannot run here, for a reason it states (see skip())."""


# A socket's path holds 107 bytes (sun_path). The longest the tests make
# below a test's scratch directory, <root>/<name>.XXXXXXXX, is a simulated
# function's IOMMU socket, /pci/<BDF>/iommu.sock; a root that leaves no
# room for it (a deep checkout) is not used.
SUN_PATH_MAX = 107
SOCKET_TAIL = '/pci/0000:00:00.0/iommu.sock'


def _scratch_root(name):
    root = os.environ.get('IPOIB_TEST_SCRATCH')
    if root:
        return root
    build = os.environ.get('MESON_BUILD_ROOT')
    if build:
        root = os.path.join(os.path.abspath(build), 'test-scratch')
        if len('%s/%s.XXXXXXXX%s' % (root, name, SOCKET_TAIL)) <= SUN_PATH_MAX:
            return root
    return os.path.join(tempfile.gettempdir(), 'dpdk-ipoib-tests')


class Proc:
    """A process started by Harness.spawn()."""

    def __init__(self, name, popen, log_path):
        self.name = name
        self.popen = popen
        self.log_path = log_path

    @property
    def pid(self):
        return self.popen.pid

    def alive(self):
        return self.popen.poll() is None

    def log(self):
        try:
            with open(self.log_path, 'r', errors='replace') as f:
                return f.read()
        except OSError:
            return ''

    def write(self, text):
        """Write to the process's stdin (spawned with stdin=True)."""
        self.popen.stdin.write(text.encode())
        self.popen.stdin.flush()


class Harness:
    """Owns a test's scratch directory, processes and namespaces."""

    def __init__(self, name, timeout=120, keep=None):
        self.name = name
        self.timeout = timeout
        self.keep = keep if keep is not None else bool(os.environ.get('IPOIB_TEST_KEEP'))
        self.procs = []
        self.namespaces = []
        self.cleanups = []
        self.runtime_dirs = []
        self.dir = None
        self._old_handlers = {}
        self._failed = False

    # -- lifetime ---------------------------------------------------------

    def __enter__(self):
        root = _scratch_root(self.name)
        os.makedirs(root, exist_ok=True)
        self.dir = tempfile.mkdtemp(prefix=self.name + '.', dir=root)
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            self._old_handlers[sig] = signal.signal(sig, self._on_signal)
        signal.signal(signal.SIGALRM, self._on_alarm)
        signal.alarm(int(self.timeout))
        self.info('scratch dir %s' % self.dir)
        return self

    def __exit__(self, etype, exc, tb):
        signal.alarm(0)
        code = 0
        if etype is None:
            pass
        elif issubclass(etype, TestSkip):
            print('SKIP: %s' % exc)
            code = SKIP
        elif issubclass(etype, TestFailure):
            print('FAIL: %s' % exc)
            code = 1
        elif issubclass(etype, SystemExit):
            code = exc.code if isinstance(exc.code, int) else 1
        else:
            import traceback
            # on stdout, beside the test's other lines: CI shows stdout
            traceback.print_exception(etype, exc, tb, file=sys.stdout)
            print('FAIL: unexpected %s' % etype.__name__)
            code = 1
        if code not in (0, SKIP):
            self._failed = True
            self._dump_logs()
        if self.teardown() and code in (0, SKIP):
            code = 1
            print('FAIL: a sanitizer reported an error in a process of the test')
        for sig, h in self._old_handlers.items():
            signal.signal(sig, h)
        if code == 0:
            print('PASS: %s' % self.name)
        sys.stdout.flush()
        os._exit(code)

    def _on_signal(self, signum, frame):
        raise TestFailure('killed by signal %d' % signum)

    def _on_alarm(self, signum, frame):
        raise TestFailure('harness timeout after %ds' % self.timeout)

    def _dump_logs(self):
        for p in self.procs:
            text = p.log()
            if not text:
                continue
            lines = text.splitlines()[-40:]
            print('---- last %d lines of %s (%s) ----' % (len(lines), p.name, p.log_path))
            for line in lines:
                print('  ' + line)

    # What ASan, LeakSanitizer and UBSan print; in a sanitizer build any
    # of these in a spawned process's output fails the test.
    SANITIZER_MARKS = ('ERROR: AddressSanitizer', 'ERROR: LeakSanitizer',
                       'runtime error:')

    def _sanitizer_reports(self):
        found = False
        for p in self.procs:
            text = p.log()
            for mark in self.SANITIZER_MARKS:
                at = text.find(mark)
                if at >= 0:
                    found = True
                    print('---- %s: %s (%s) ----' % (p.name, mark, p.log_path))
                    for line in text[max(0, at - 200):at + 3000].splitlines()[:40]:
                        print('  ' + line)
                    break
        return found

    def teardown(self):
        """Kill every spawned process group, delete namespaces, run cleanups.

        Returns True when a spawned process's output holds a sanitizer
        report (checked after the processes stopped, so that reports
        printed at exit, such as leaks, are seen).
        """
        for fn in reversed(self.cleanups):
            try:
                fn()
            except Exception as e:  # teardown must go on
                print('cleanup failed: %s' % e)
        for p in reversed(self.procs):
            self._stop(p)
        reported = self._sanitizer_reports()
        if reported:
            self._failed = True
        for ns in reversed(self.namespaces):
            subprocess.run(['ip', 'netns', 'del', ns], stderr=subprocess.DEVNULL)
        # EAL leaves its runtime directory (config, fbarrays) at exit
        for d in self.runtime_dirs:
            shutil.rmtree(d, ignore_errors=True)
        self.runtime_dirs = []
        self.procs = []
        self.namespaces = []
        if self.dir and not self._failed and not self.keep:
            shutil.rmtree(self.dir, ignore_errors=True)
        elif self.dir:
            print('kept scratch dir %s' % self.dir)
        return reported

    def _stop(self, p, grace=2.0):
        if p.popen.poll() is None:
            try:
                os.killpg(p.popen.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            deadline = time.monotonic() + grace
            while time.monotonic() < deadline and p.popen.poll() is None:
                time.sleep(0.02)
        # the group may hold children even when the leader is gone
        try:
            os.killpg(p.popen.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            p.popen.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        if p.popen.stdin:
            try:
                p.popen.stdin.close()
            except OSError:
                pass

    def note_runtime_dir(self, argv):
        """The DPDK runtime directory (/var/run/dpdk/<prefix>) of an EAL
        command line with --file-prefix, removed at teardown once every
        process has stopped."""
        argv = [str(a) for a in argv]
        for i, a in enumerate(argv):
            prefix = None
            if a == '--file-prefix' and i + 1 < len(argv):
                prefix = argv[i + 1]
            elif a.startswith('--file-prefix='):
                prefix = a.split('=', 1)[1]
            if prefix and '/' not in prefix and prefix not in ('.', '..'):
                d = os.path.join('/var/run/dpdk', prefix)
                if d not in self.runtime_dirs:
                    self.runtime_dirs.append(d)

    def on_teardown(self, fn):
        """Register a callable run (newest first) at teardown."""
        self.cleanups.append(fn)

    # -- messages and checks ----------------------------------------------

    def info(self, msg):
        print('[%s] %s' % (self.name, msg))
        sys.stdout.flush()

    def fail(self, msg):
        raise TestFailure(msg)

    def skip(self, msg):
        """Skip (exit 77) for the reason @msg; usertools/ipoib-setup.sh test
        fails the run unless the test's name is in its declared skips."""
        raise TestSkip(msg)

    def check(self, cond, msg):
        if not cond:
            raise TestFailure(msg)

    def check_eq(self, got, expected, what):
        if got != expected:
            raise TestFailure('%s: got %r, expected %r' % (what, got, expected))

    def need_program(self, prog):
        """Path of @prog; fail when it is not on PATH (the set-up script
        installs every tool a test uses: missing is a failure, not a skip)."""
        path = shutil.which(prog)
        if path is None:
            self.fail('%s not installed (usertools/ipoib-setup.sh installs it)' % prog)
        return path

    def need_file(self, path):
        """@path; fail when it does not exist."""
        if not os.path.exists(path):
            self.fail('%s not present' % path)
        return path

    # -- processes --------------------------------------------------------

    def _env(self, env):
        e = dict(os.environ)
        if env:
            for k, v in env.items():
                if v is None:
                    e.pop(k, None)
                else:
                    e[k] = str(v)
        return e

    def spawn(self, argv, name=None, env=None, cwd=None, stdin=False, netns=None):
        """Start @argv in its own process group, output to <dir>/<name>.log."""
        name = name or os.path.basename(argv[0])
        self.note_runtime_dir(argv)
        n = sum(1 for p in self.procs if p.name.split('#')[0] == name)
        if n:
            name = '%s#%d' % (name, n)
        log_path = os.path.join(self.dir, name.replace('#', '.') + '.log')
        if netns:
            argv = ['ip', 'netns', 'exec', netns] + list(argv)
        log = open(log_path, 'wb')
        popen = subprocess.Popen(
            [str(a) for a in argv], stdout=log, stderr=subprocess.STDOUT,
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            cwd=cwd or self.dir, env=self._env(env), start_new_session=True)
        log.close()
        p = Proc(name, popen, log_path)
        self.procs.append(p)
        self.info('started %s (pid %d): %s' % (name, popen.pid, ' '.join(str(a) for a in argv)))
        return p

    def stop(self, p, sig=signal.SIGTERM, timeout=5):
        """Signal @p's group and wait; return its exit code (None if it hung)."""
        try:
            os.killpg(p.popen.pid, sig)
        except ProcessLookupError:
            pass
        try:
            return p.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def run(self, argv, env=None, cwd=None, timeout=60, check=True, input=None, netns=None):
        """Run a command to completion; fail the test on timeout or (check) rc != 0."""
        if netns:
            argv = ['ip', 'netns', 'exec', netns] + list(argv)
        argv = [str(a) for a in argv]
        self.note_runtime_dir(argv)
        try:
            r = subprocess.run(argv, env=self._env(env), cwd=cwd or self.dir,
                               timeout=timeout, capture_output=True, text=True,
                               input=input, start_new_session=True)
        except subprocess.TimeoutExpired as e:
            raise TestFailure('%s: timed out after %ss\n%s' %
                              (' '.join(argv), timeout, (e.stdout or b'')[-2000:]))
        for mark in self.SANITIZER_MARKS:
            for text in (r.stdout, r.stderr):
                if mark in text:
                    at = text.find(mark)
                    raise TestFailure('%s: sanitizer report:\n%s' %
                                      (' '.join(argv), text[max(0, at - 200):at + 3000]))
        if check and r.returncode != 0:
            raise TestFailure('%s: exit %d\nstdout:\n%s\nstderr:\n%s' %
                              (' '.join(argv), r.returncode, r.stdout[-3000:], r.stderr[-3000:]))
        return r

    def wait_for(self, cond, timeout=10, what='condition', interval=0.02):
        """Poll @cond until true; fail naming @what after @timeout seconds."""
        deadline = time.monotonic() + timeout
        while True:
            v = cond()
            if v:
                return v
            if time.monotonic() >= deadline:
                raise TestFailure('timed out after %ss waiting for %s' % (timeout, what))
            time.sleep(interval)

    def wait_log(self, p, text, timeout=10, line=True):
        """Wait until @text appears in @p's output; fail if @p exits first.
        With @line (the default) the line holding @text must be complete
        (a newline after it), so that a caller parsing that line never
        reads half of it while @p is still writing; a prompt, which no
        newline follows, is waited for with line=False."""
        def seen():
            out = p.log()
            at = out.find(text)
            if at >= 0 and (not line or '\n' in out[at + len(text):]):
                return True
            if not p.alive():
                raise TestFailure('%s exited (rc %s) before printing %r' %
                                  (p.name, p.popen.returncode, text))
            return False
        self.wait_for(seen, timeout=timeout, what='%r from %s' % (text, p.name))

    # -- hugepages --------------------------------------------------------

    def hugetlbfs(self, pages):
        """A private hugetlbfs of 2 MiB pages with @pages more pages
        reserved; both given back at teardown. Returns its mount point."""
        nr = '/proc/sys/vm/nr_hugepages'
        with open(nr) as f:
            before = int(f.read())
        mnt = self.path('huge')
        os.makedirs(mnt, exist_ok=True)

        def release():
            subprocess.run(['umount', mnt], check=False)
            with open(nr, 'w') as f:
                f.write('%d\n' % before)
        self.on_teardown(release)
        with open(nr, 'w') as f:
            f.write('%d\n' % (before + pages))
        with open('/proc/meminfo') as f:
            free = int(re.search(r'HugePages_Free:\s+(\d+)', f.read()).group(1))
        self.check(free >= pages, 'only %d hugepages free after reserving %d' % (free, pages))
        self.run(['mount', '-t', 'hugetlbfs', '-o', 'pagesize=2M', 'nodev', mnt])
        return mnt

    # -- namespaces -------------------------------------------------------

    def netns(self, name):
        """Create a network namespace (unique per test run) with loopback up."""
        full = 'ipoibt-%s-%d' % (name, os.getpid())
        r = subprocess.run(['ip', 'netns', 'add', full], capture_output=True, text=True)
        if r.returncode != 0:
            raise TestFailure('ip netns add %s: %s' % (full, r.stderr.strip()))
        self.namespaces.append(full)
        subprocess.run(['ip', '-n', full, 'link', 'set', 'lo', 'up'], check=False)
        return full

    # -- misc -------------------------------------------------------------

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def write_file(self, name, text):
        path = self.path(name)
        with open(path, 'w') as f:
            f.write(text)
        return path


def proc_cpu_seconds(pid):
    """utime + stime of @pid in seconds (from /proc/<pid>/stat)."""
    with open('/proc/%d/stat' % pid) as f:
        fields = f.read().rsplit(')', 1)[1].split()
    ticks = os.sysconf(os.sysconf_names['SC_CLK_TCK'])
    return (int(fields[11]) + int(fields[12])) / ticks


def proc_peak_rss_kib(pid):
    """VmHWM of @pid in KiB."""
    with open('/proc/%d/status' % pid) as f:
        for line in f:
            if line.startswith('VmHWM:'):
                return int(line.split()[1])
    return 0
