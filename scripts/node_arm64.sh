#!/usr/bin/env bash
# Runs Node.js for linux-arm64 with the given arguments under qemu-aarch64, so that the
# package's linux-arm64 addon (scripts/build_addon.sh linux-arm64) is tested on an x64 machine,
# and on the emulated CPU QEMU_CPU names (on an arm64 machine too). Usage:
#   scripts/node_arm64.sh [node arguments]     e.g. scripts/node_arm64.sh -p process.arch
#   QEMU_CPU=max,sve=off scripts/node_arm64.sh ...   the emulated CPU: NEON without SVE (qemu's
#                                                    default, max, has SVE at 512 bits)
#
# The node is Debian 12's nodejs 18 for arm64, unpacked, not installed: installing nodejs:arm64
# would remove the host's nodejs, and its arm64 libraries, being multiarch, must have the very
# versions of the host's, so apt would upgrade those (libssl3, ...). The .debs of nodejs,
# libnode108 and the arm64 libraries libnode108 needs are downloaded (apt-get download) into
# $BUILD_ROOT/node-arm64/debs and unpacked (dpkg -x) into $BUILD_ROOT/node-arm64/root once;
# later runs reuse them (default BUILD_ROOT: build/; delete the folder to fetch them again).
# The rest is installed on the host, through scripts/bootstrap.sh (SKIP_BOOTSTRAP=1 skips it):
#   qemu-user                     qemu-aarch64
#   libc6:arm64 libstdc++6:arm64  the C and C++ runtimes (multiarch), /lib/ld-linux-aarch64.so.1
#   node-acorn node-cjs-module-lexer node-undici
#                                 JavaScript (arch all) that Debian's libnode reads at startup
#                                 from /usr/share/nodejs, a path built into it
# qemu runs without -L: its path prefix would mix a second glibc build into the process
# (cmake/aarch64-linux-gnu.cmake says what that does); LD_LIBRARY_PATH, set for the emulated
# process only, finds the root's libraries.
#
# The emulated node cannot start a node of its own (process.execPath): the host's kernel runs
# no aarch64 binary without a binfmt_misc handler for it. GRIDSAMPLE_TEST_NODE names this script
# for the package's tests, which start their scenario processes with it (tests/js/helpers.mjs);
# `node --test` starts one per file, so test files are run directly, one per node.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export GRIDSAMPLE_TEST_NODE=$repo/scripts/node_arm64.sh

build_root=${BUILD_ROOT:-$repo/build}
cache=$build_root/node-arm64
root=$cache/root
if [ ! -f "$root/.unpacked" ]; then
  [ "${SKIP_BOOTSTRAP:-0}" = 1 ] || bash "$repo/scripts/bootstrap.sh" qemu-user libc6:arm64 \
    libstdc++6:arm64 node-acorn node-cjs-module-lexer node-undici >&2
  rm -rf "$cache/debs"
  mkdir -p "$cache/debs"
  # The libraries of libnode108's Depends that are not multiarch-installed on the host.
  packages=(nodejs libnode108 libbrotli1 libc-ares2 libicu72 libnghttp2-14 libssl3 libuv1
            zlib1g)
  # apt-get download writes into the current folder; as root it warns that its sandbox user
  # cannot (the log keeps that).
  (cd "$cache/debs" && apt-get download "${packages[@]/%/:arm64}") \
    >"$cache/download.log" 2>&1 || {
    cat "$cache/download.log" >&2
    echo "node_arm64.sh: apt-get download failed (an out-of-date package index: apt-get update)" >&2
    exit 1
  }
  rm -rf "$root"
  mkdir -p "$root"
  for deb in "$cache"/debs/*.deb; do dpkg -x "$deb" "$root"; done
  touch "$root/.unpacked"
fi

exec qemu-aarch64 \
  -E LD_LIBRARY_PATH="$root/usr/lib/aarch64-linux-gnu:$root/lib/aarch64-linux-gnu" \
  "$root/usr/bin/node" "$@"
