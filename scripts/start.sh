#!/usr/bin/env bash
# `npm start`: installs what the build needs, builds the release example and runs it (the
# spec's first GridSample example, computed through the public API).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
export BUILD_ROOT=${BUILD_ROOT:-$repo/build}

bash scripts/bootstrap.sh
bash scripts/build.sh release --target gridsample_example
echo
"$BUILD_ROOT/release/gridsample_example"
