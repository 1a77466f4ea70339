#!/usr/bin/env bash
# Installs the Debian packages the native build and its tests need, and nothing when they are
# all there already (one dpkg-query, no network). Extra package names given as arguments are
# installed too (e.g. `scripts/bootstrap.sh libbenchmark-dev` for the benchmarks).
#
# The sanitizer build needs no package of its own: g++ pulls in libgcc-12-dev, which depends on
# libasan8 and libubsan1.
#
# A name with an architecture (`libhwy-dev:arm64`, for the aarch64 cross build) adds that
# architecture to dpkg first when it lacks it (`dpkg --add-architecture`), before apt-get update.
set -euo pipefail

packages=(cmake ninja-build g++ libhwy-dev catch2 "$@")

# Whether $1 is installed for its architecture: the one it names (name:arch), else the native
# one or `all` (libhwy-dev must be the native one, even when libhwy-dev:arm64 is there too).
native=$(dpkg --print-architecture)
installed() {
  local arch=$native
  case "$1" in *:*) arch=${1##*:} ;; esac
  dpkg-query -W -f='${Architecture} ${db:Status-Status}\n' "$1" 2>/dev/null |
    grep -qE "^($arch|all) installed$"
}

missing=()
for package in "${packages[@]}"; do
  installed "$package" || missing+=("$package")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "bootstrap: all ${#packages[@]} packages already installed"
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    echo "bootstrap: need root or sudo to install: ${missing[*]}" >&2
    exit 1
  fi
fi

for package in "${missing[@]}"; do
  case "$package" in
    *:*)
      arch=${package##*:}
      if [ "$arch" != "$native" ] && ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
        "${sudo[@]}" dpkg --add-architecture "$arch"
        echo "bootstrap: added the $arch architecture to dpkg"
      fi ;;
  esac
done

export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "bootstrap: installed ${missing[*]}"
