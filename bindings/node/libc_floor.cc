// The addon loads with glibc 2.34 or later (scripts/build_addon.sh checks every symbol version
// it asks for). Debian 12 builds it against glibc 2.36, whose arc4random the static libstdc++
// of GCC 12 refers to from std::random_device, which the addon links (libstdc++'s exception
// classes pull in its string instantiations, and those random_device) but never calls. This
// definition, local to the addon, answers that reference, so that the dynamic linker never
// asks the system's C library for arc4random, which glibc 2.34 and 2.35 (Ubuntu 22.04, RHEL 9)
// lack.
#include <sys/random.h>

#include <cerrno>
#include <cstdint>

extern "C" __attribute__((visibility("hidden"))) uint32_t arc4random() noexcept {
  uint32_t value = 0;
  // getrandom (glibc 2.25) blocks only until the kernel's pool is first seeded.
  while (getrandom(&value, sizeof(value), 0) < 0 && errno == EINTR) {
  }
  return value;
}
