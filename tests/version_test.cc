// The version is package.json's: the header's macros (gridsample/version.h, which CMake writes
// from it) and Version() (the library's, as compiled) say the same as the file does now, so the
// C++ library and the npm package of one tree carry one version.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "gridsample/gridsample.h"

namespace gridsample {
namespace {

// package.json's "version" (the first "version" key: the top-level one, as no field before it
// holds an object with one), or "" when the file cannot be read.
std::string PackageVersion() {
  std::ifstream file(GRIDSAMPLE_TEST_DATA_DIR "/../../package.json");
  std::ostringstream text;
  text << file.rdbuf();
  std::smatch match;
  const std::string json = text.str();
  if (!std::regex_search(json, match, std::regex(R"re("version"\s*:\s*"([^"]*)")re"))) return "";
  return match[1].str();
}

TEST_CASE("the header's macros and Version() are package.json's version", "[version]") {
  const std::string version = PackageVersion();
  INFO("package.json: \"" << version << "\"");
  REQUIRE_FALSE(version.empty());

  CHECK(std::string(GRIDSAMPLE_VERSION_STRING) == version);
  CHECK(std::string(Version()) == version);

  // MAJOR.MINOR.PATCH, then an optional pre-release suffix.
  std::smatch parts;
  REQUIRE(std::regex_match(version, parts, std::regex(R"((\d+)\.(\d+)\.(\d+)(-.+)?)")));
  CHECK(GRIDSAMPLE_VERSION_MAJOR == std::stoi(parts[1].str()));
  CHECK(GRIDSAMPLE_VERSION_MINOR == std::stoi(parts[2].str()));
  CHECK(GRIDSAMPLE_VERSION_PATCH == std::stoi(parts[3].str()));
}

}  // namespace
}  // namespace gridsample
