# Cross-compiling for 64-bit ARM Linux with Debian's cross toolchain and multiarch packages:
#   g++-aarch64-linux-gnu           the compiler (aarch64-linux-gnu-g++)
#   libhwy-dev:arm64                Highway's headers (/usr/include) and the aarch64 libraries and
#                                   CMake package (/usr/lib/aarch64-linux-gnu)
#   catch2                          header-only, architecture-independent (/usr/lib/cmake/Catch2)
#   qemu-user                       runs the tests (qemu-aarch64), e.g. through ctest
# (scripts/bootstrap.sh aarch64 installs them). Usage:
#   cmake -S . -B build/aarch64 -G Ninja \
#     -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DCMAKE_BUILD_TYPE=Release
# Multiarch puts the target's libraries beside the host's under /usr, so there is no sysroot:
# CMAKE_LIBRARY_ARCHITECTURE makes find_package and find_library look in the aarch64 folders.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# Test discovery (catch_discover_tests) and ctest run the binaries through qemu. No `-L`: with
# the cross glibc of /usr/aarch64-linux-gnu the loader mixes two glibc builds and every
# pthread_create spins forever; without it qemu finds the multiarch glibc (libc6:arm64).
# QEMU_CPU in the environment picks the emulated CPU (e.g. max,sve=off for NEON alone).
find_program(GRIDSAMPLE_QEMU_AARCH64 qemu-aarch64)
if(GRIDSAMPLE_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${GRIDSAMPLE_QEMU_AARCH64})
endif()
