// The one main() of the Catch2 suite; the suites are the *_test.cc files beside it.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
