#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Fetch the DPDK driver SDK headers that Debian's libdpdk-dev does not ship,
# plus the pmdinfo generator scripts and the features matrix reference,
# from Debian's source package of the *installed* DPDK version.
#
# usage: dpdk-sdk-fetch.sh OUTDIR
#
# The machine's apt configuration is not touched: a private sources list
# (the system's own Debian entries, as deb-src) and a private state and
# cache directory are used. Results are cached per version in
# ${DPDK_IPOIB_CACHE:-$HOME/.cache/dpdk-ipoib}/dpdk-sdk-<version>.
set -eu

die() {
	echo "dpdk-sdk-fetch: error: $*" >&2
	exit 1
}

[ $# -eq 1 ] || die "usage: $0 OUTDIR"
out=$1

# Exactly the files we need, relative to the DPDK source root.
FILES="
lib/ethdev/ethdev_driver.h
lib/ethdev/ethdev_pci.h
lib/ethdev/ethdev_vdev.h
drivers/bus/pci/bus_pci_driver.h
drivers/bus/vdev/bus_vdev_driver.h
lib/eal/include/dev_driver.h
lib/eal/include/bus_driver.h
buildtools/pmdinfogen.py
buildtools/gen-pmdinfo-cfile.py
buildtools/coff.py
doc/guides/nics/features/default.ini
"

command -v dpkg-query >/dev/null || die "dpkg-query not found: a Debian system is required"
srcpkg=$(dpkg-query -W -f='${source:Package}' libdpdk-dev 2>/dev/null) ||
	die "libdpdk-dev is not installed (apt-get install libdpdk-dev)"
srcver=$(dpkg-query -W -f='${source:Version}' libdpdk-dev)
modver=$(pkg-config --modversion libdpdk 2>/dev/null) ||
	die "pkg-config cannot find libdpdk"
case "$srcver" in
"$modver"-*|"$modver") ;;
*) die "libdpdk-dev source version $srcver does not match pkg-config libdpdk $modver" ;;
esac

cache=${DPDK_IPOIB_CACHE:-${HOME:-/tmp}/.cache/dpdk-ipoib}/dpdk-sdk-$srcver
if [ ! -f "$cache/.complete" ]; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	mkdir -p "$work/state/lists/partial" "$work/cache/archives/partial" \
		"$work/parts" "$work/dl"

	# Derive deb-src entries from the system's own Debian sources:
	# deb822 files (*.sources) and one-line lists (*.list, sources.list).
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk 'BEGIN { RS = ""; FS = "\n" }
		{
			types = uris = suites = comps = signed = "";
			for (i = 1; i <= NF; i++) {
				line = $i;
				if (line ~ /^#/) continue;
				split(line, kv, ":[ \t]*");
				key = kv[1]; val = substr(line, length(key) + 2);
				sub(/^[ \t]+/, "", val);
				if (key == "Types") types = val;
				else if (key == "URIs") uris = val;
				else if (key == "Suites") suites = val;
				else if (key == "Components") comps = val;
				else if (key == "Signed-By") signed = val;
				else if (key == "Enabled" && val == "no") types = "";
			}
			if (types !~ /deb/ || uris !~ /debian/) next;
			printf "Types: deb-src\nURIs: %s\nSuites: %s\nComponents: %s\n", uris, suites, comps;
			if (signed != "") printf "Signed-By: %s\n", signed;
			printf "\n";
		}' "$f" >>"$work/parts/src.sources"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		sed -n 's/^[ \t]*deb\([ \t].*debian.*\)$/deb-src\1/p' "$f" \
			>>"$work/src.list"
	done
	touch "$work/src.list"
	[ -s "$work/parts/src.sources" ] || [ -s "$work/src.list" ] ||
		die "no Debian entries found in /etc/apt to derive deb-src from"

	set -- -o Dir::Etc::SourceList="$work/src.list" \
		-o Dir::Etc::SourceParts="$work/parts" \
		-o Dir::State="$work/state" \
		-o Dir::State::status=/var/lib/dpkg/status \
		-o Dir::Cache="$work/cache" \
		-o Debug::NoLocking=1 \
		-o APT::Get::List-Cleanup=0
	echo "dpdk-sdk-fetch: fetching $srcpkg $srcver source (private apt state in $work)" >&2
	apt-get -q "$@" update >"$work/update.log" 2>&1 ||
		{ cat "$work/update.log" >&2; die "apt-get update of the private deb-src list failed"; }
	(cd "$work/dl" && apt-get -q "$@" source --download-only "$srcpkg=$srcver") \
		>"$work/source.log" 2>&1 ||
		{ cat "$work/source.log" >&2; die "cannot download source of $srcpkg $srcver (is this exact version still in the archive?)"; }
	orig=$(ls "$work"/dl/"${srcpkg}"_*.orig.tar.* 2>/dev/null | head -n 1)
	[ -n "$orig" ] || die "no orig tarball in the downloaded source of $srcpkg $srcver"

	top=$(tar -tf "$orig" | head -n 1 | cut -d/ -f1)
	members=""
	for m in $FILES; do
		members="$members $top/$m"
	done
	mkdir -p "$work/x"
	# shellcheck disable=SC2086
	tar -xf "$orig" -C "$work/x" $members ||
		die "$orig lacks one of the SDK files"
	mkdir -p "$cache.tmp"
	for m in $FILES; do
		install -D -m 0644 "$work/x/$top/$m" "$cache.tmp/$m"
	done
	echo "$srcpkg $srcver $(basename "$orig")" >"$cache.tmp/.complete"
	rm -rf "$cache"
	mv "$cache.tmp" "$cache"
fi

# Headers flat into OUTDIR/include, scripts and data below it.
mkdir -p "$out/include" "$out/buildtools" "$out/doc"
for m in $FILES; do
	case "$m" in
	*.h) cp -f "$cache/$m" "$out/include/" ;;
	buildtools/*) cp -f "$cache/$m" "$out/buildtools/" ;;
	*) cp -f "$cache/$m" "$out/doc/" ;;
	esac
done
cp -f "$cache/.complete" "$out/VERSION"
echo "$out"
