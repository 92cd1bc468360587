#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ipoib authors
#
# One-stop set-up for dpdk-ipoib on Debian 12:
#   usertools/ipoib-setup.sh [build]   install what is missing, configure, build
#   usertools/ipoib-setup.sh test      ... then run the default test suites
#   usertools/ipoib-setup.sh demo      ... then run the demo (usertools/ipoib-demo.sh)
#   usertools/ipoib-setup.sh bench     ... then run the benchmarks (suite bench)
#
# Environment: BUILD_DIR (default: build), MESON_ARGS (extra meson setup
# arguments), CI (set: build with werror=true, as CI does), IPOIB_SANITIZE
# (0: "test" skips its second pass under ASan and UBSan in BUILD_DIR-sanitize).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
action=${1:-build}

# Every Debian package the project needs to build, run and test.
PACKAGES="
build-essential
clang
dpdk
dpdk-dev
dpkg-dev
fuse3
gcc
ibsim-utils
infiniband-diags
iperf3
iputils-ping
iproute2
libdpdk-dev
libfuse3-dev
libibmad-dev
libibumad-dev
libnuma-dev
libpcap-dev
meson
ninja-build
opensm
pkg-config
python3
python3-pyelftools
python3-sphinx
strace
tshark
xz-utils
"

say() {
	echo "ipoib-setup: $*"
}

die() {
	echo "ipoib-setup: error: $*" >&2
	exit 1
}

install_missing() {
	missing=""
	for p in $PACKAGES; do
		if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		     grep -q "install ok installed"; then
			missing="$missing $p"
		fi
	done
	if [ -z "$missing" ]; then
		say "all required packages are installed"
		return
	fi
	[ "$(id -u)" -eq 0 ] || die "packages missing ($missing); run as root or install them"
	say "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	# tshark asks whether non-root users may capture; the default (no) is fine.
	echo "wireshark-common wireshark-common/install-setuid boolean false" |
		debconf-set-selections 2>/dev/null || true
	apt-get update -q >/dev/null
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing >/dev/null ||
		die "apt-get install failed for:$missing"
}

configure_build() {
	werror=false
	[ -n "${CI:-}" ] && werror=true
	[ "$action" = test ] && werror=true
	if [ ! -f "$build/build.ninja" ]; then
		say "configuring $build"
		# shellcheck disable=SC2086
		meson setup "$build" "$top" -Dwerror=$werror ${MESON_ARGS:-} >/dev/null ||
			die "meson setup failed (see $build/meson-logs/meson-log.txt)"
	else
		meson configure "$build" -Dwerror=$werror >/dev/null
	fi
	say "building"
	ninja -C "$build"
}

# The only skips the test command accepts, as PASS:TEST separated by spaces
# (doc/guides/testing.rst, no silent skips); any other skip fails the run.
# None today: the two tests whose point is Debian's dpdk-testpmd itself
# (hca_probe, mthca_testpmd) used to skip in the sanitizer pass, since an
# uninstrumented program cannot dlopen() an ASan-instrumented plugin; they
# now run there with the plugin's sanitizer runtimes preloaded
# (sanitizer_preload() in test/lib/simlib.py).
# ipoib_link_virtio needs /dev/vhost-net (the vhost_net module), which
# the test machines lack: it skips there, saying so.
DECLARED_SKIPS="normal:ipoib_link_virtio sanitize:ipoib_link_virtio"

# One closing line any CI reader understands: "N passed, N failed, N skipped",
# one line per skip, and exit 1 when a skip is not declared.
# Arguments: PASS=testlog.json ...
summarize() {
	DECLARED_SKIPS="$DECLARED_SKIPS" python3 - "$@" <<'PYEOF'
import json, os, sys
declared = set(os.environ.get('DECLARED_SKIPS', '').split())
res = {}
undeclared = 0
for arg in sys.argv[1:]:
    pas, path = arg.split('=', 1)
    if not os.path.exists(path):
        continue
    for line in open(path):
        line = line.strip()
        if not line:
            continue
        r = json.loads(line)
        res[r['result']] = res.get(r['result'], 0) + 1
        if r['result'] == 'SKIP':
            name = r['name'].rsplit(' / ', 1)[-1]
            ok = '%s:%s' % (pas, name) in declared
            undeclared += not ok
            print('skipped (%s pass): %s: %s' % (pas, r['name'],
                  'declared' if ok else 'NOT DECLARED, fails the run'))
passed = res.get('OK', 0) + res.get('EXPECTEDFAIL', 0)
skipped = res.get('SKIP', 0)
failed = sum(v for k, v in res.items() if k not in ('OK', 'EXPECTEDFAIL', 'SKIP'))
print('tests: %d passed, %d failed, %d skipped' % (passed, failed, skipped))
sys.exit(1 if undeclared else 0)
PYEOF
}

install_missing
configure_build

case "$action" in
build)
	;;
test)
	say "running the default test suites (unit, fabric, conformance)"
	rc=0
	(cd "$build" && meson test --print-errorlogs --num-processes 2) || rc=$?
	logs="normal=$build/meson-logs/testlog.json"
	if [ "${IPOIB_SANITIZE:-1}" != 0 ]; then
		# The same suites once more under ASan and UBSan (any report
		# fails the test): bad input must never corrupt memory.
		san=$build-sanitize
		if [ ! -f "$san/build.ninja" ]; then
			say "configuring $san (address,undefined sanitizers)"
			meson setup "$san" "$top" -Dwerror=true \
				-Db_sanitize=address,undefined -Db_lundef=false \
				-Dc_args=-fno-sanitize-recover=all \
				-Ddpdk_sdk_dir="$build/dpdk-sdk" >/dev/null ||
				die "meson setup of $san failed"
		fi
		say "building $san"
		ninja -C "$san" >/dev/null || die "sanitizer build failed"
		say "running the default test suites under ASan and UBSan"
		# LeakSanitizer's tracer follows __tls_get_addr's ranges by
		# default; after DPDK's exit it sometimes reads one that is gone
		# and crashes ("Tracer caught signal 11", no leak report) in
		# dpdk-testpmd and the kernel link. Leak checking stays on.
		(cd "$san" && LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}intercept_tls_get_addr=0" \
			meson test --print-errorlogs --num-processes 2) || rc=$?
		logs="$logs sanitize=$san/meson-logs/testlog.json"
	fi
	# shellcheck disable=SC2086
	summarize $logs || rc=1
	exit $rc
	;;
demo)
	exec "$top/usertools/ipoib-demo.sh" "$build"
	;;
bench)
	cd "$build"
	meson test --setup bench --suite bench --print-errorlogs --num-processes 1 --verbose
	;;
*)
	die "unknown action '$action' (build, test, demo, bench)"
	;;
esac
