#!/usr/bin/env bash
# Installs the Debian packages the native build and its tests need, and nothing when they are
# all there already (one dpkg-query, no network). Extra package names given as arguments are
# installed too (e.g. `scripts/bootstrap.sh libbenchmark-dev` for the benchmarks).
#
# The sanitizer build needs no package of its own: g++ pulls in libgcc-12-dev, which depends on
# libasan8 and libubsan1.
set -euo pipefail

packages=(cmake ninja-build g++ libhwy-dev catch2 "$@")

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)
  [ "$status" = installed ] || missing+=("$package")
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

export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "bootstrap: installed ${missing[*]}"
