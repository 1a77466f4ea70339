#!/usr/bin/env bash
# Builds the npm package's Node.js addon for one platform into dist/native/PLATFORM/:
# gridsample.node (the C++ core over Node-API, bindings/node/, Release, Highway's dynamic
# dispatch over every target of the architecture) and libhwy.so.1 beside it, both stripped. The
# package's Node.js entries load it where it fits (bindings/js/native.js) and take the
# WebAssembly build elsewhere.
#
# Usage: scripts/build_addon.sh [PLATFORM]
#   PLATFORM     Node.js's process.platform-process.arch: this machine's (the default), or
#                linux-arm64 from another Linux machine, cross-built with
#                cmake/aarch64-linux-gnu.cmake (Debian's g++-aarch64-linux-gnu and
#                libhwy-dev:arm64; scripts/node_arm64.sh runs it under qemu-aarch64)
#
#   $BUILD_ROOT/addon        the CMake build folder of this machine's platform (reused; default
#                            BUILD_ROOT: build/)
#   $BUILD_ROOT/addon-arm64  that of the linux-arm64 cross build
#
# Needs node-addon-api and node-api-headers (npm devDependencies: their headers only, so
# nothing is downloaded from nodejs.org; Node-API's headers are the same for every platform)
# and Debian's libhwy-dev (of the target architecture).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
build_root=${BUILD_ROOT:-$repo/build}
mkdir -p "$build_root"
build_root=$(cd "$build_root" && pwd)

headers=$(node -e "
  const path = require('node:path');
  console.log([require('node-api-headers').include_dir,
               path.resolve(require('node-addon-api').include_dir)].join(';'));
" 2>/dev/null) || {
  echo "build_addon.sh: node-addon-api or node-api-headers is missing: run npm install" >&2
  exit 1
}
host=$(node -p "process.platform + '-' + process.arch")
platform=${1:-$host}

# What differs between platforms: the build folder, the toolchain, and the binutils that read
# and strip the result (a cross binary's own: ldd cannot load it, and the host's strip may not
# know its machine).
toolchain=()
binutils=""
if [ "$platform" = "$host" ]; then
  dir=$build_root/addon
else
  case "$platform" in
    linux-arm64)
      dir=$build_root/addon-arm64
      toolchain=(-DCMAKE_TOOLCHAIN_FILE="$repo/cmake/aarch64-linux-gnu.cmake")
      binutils=aarch64-linux-gnu- ;;
    *)
      echo "build_addon.sh: cannot build for $platform on $host (linux-arm64 only)" >&2
      exit 2 ;;
  esac
fi

generator=()
[ -f "$dir/CMakeCache.txt" ] || generator=(-G Ninja)
mkdir -p "$dir"
cmake -S "$repo" -B "$dir" "${generator[@]}" "${toolchain[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DGRIDSAMPLE_NODE_API_INCLUDE_DIRS="$headers" \
  -DGRIDSAMPLE_SANITIZE=OFF -DGRIDSAMPLE_BUILD_TESTS=OFF -DGRIDSAMPLE_BUILD_EXAMPLES=OFF \
  -DGRIDSAMPLE_BUILD_BENCHMARKS=OFF -DGRIDSAMPLE_INSTALL=OFF >"$dir.configure.log" 2>&1 || {
  cat "$dir.configure.log" >&2
  exit 1
}
cmake --build "$dir" --target gridsample_node
addon=$dir/bindings/gridsample.node

# Highway's shared library: the file the build linked (bindings/CMakeLists.txt names it), which
# must be what the addon asks for (its soname, DT_NEEDED).
hwy=$(cat "$dir/bindings/gridsample_node_hwy.txt")
soname=$("${binutils}readelf" -d "$addon" | sed -n 's/.*(NEEDED).*\[\(libhwy\.so[^]]*\)\]/\1/p')
[ -n "$soname" ] || { echo "build_addon.sh: the addon does not link libhwy" >&2; exit 1; }
[ "$(basename "$hwy")" = "$soname" ] && [ -f "$hwy" ] || {
  echo "build_addon.sh: the addon asks for $soname, the build linked $hwy" >&2
  exit 1
}
# Nothing else but the C library and libgcc_s (libstdc++ is linked in: bindings/CMakeLists.txt).
others=$("${binutils}readelf" -d "$addon" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
         grep -vxE "$soname|libc\.so\.6|libm\.so\.6|libgcc_s\.so\.1|ld-linux.*\.so\.[0-9]+" ||
         true)
[ -z "$others" ] || { echo "build_addon.sh: the addon needs $others" >&2; exit 1; }
# And of glibc, neither asks for a symbol newer than GLIBC_FLOOR: the oldest glibc the addon
# loads with (Ubuntu 22.04, RHEL 9), which the docs promise.
GLIBC_FLOOR=2.34
for file in "$addon" "$hwy"; do
  newest=$("${binutils}objdump" -T "$file" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' |
           sort -V | tail -n 1)
  [ "$(printf '%s\n' "$newest" "$GLIBC_FLOOR" | sort -V | tail -n 1)" = "$GLIBC_FLOOR" ] || {
    echo "build_addon.sh: $file asks for glibc $newest, past the floor $GLIBC_FLOOR:" >&2
    "${binutils}objdump" -T "$file" | grep -F "GLIBC_$newest" >&2
    exit 1
  }
done

out=$repo/dist/native/$platform
mkdir -p "$out"
install -m 0755 "$addon" "$out/gridsample.node"
install -m 0644 "$hwy" "$out/$soname"
"${binutils}strip" --strip-unneeded "$out/gridsample.node" "$out/$soname"
ls -l "$out" | awk 'NR > 1 { printf "%s: %s bytes\n", $9, $5 }' | sed "s|^|dist/native/$platform/|"
