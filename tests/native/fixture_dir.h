// The real fixtures (../shared/fixtures/real beside the project, read in place) and what a test
// does where they are absent: skip saying so, or fail under CI=true (.ci/run in CI), so that CI
// cannot pass without them.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string_view>

namespace safetensors::testing {

/// @brief Where the real fixtures are (CMakeLists.txt gives the path).
inline std::filesystem::path real_fixtures_dir() { return SAFETENSORS_REAL_FIXTURES; }

/// @brief Where the files from the wild are (../shared/fixtures/wild; CMakeLists.txt gives the path).
inline std::filesystem::path wild_fixtures_dir() { return SAFETENSORS_WILD_FIXTURES; }

/// @brief Whether the environment says CI=true.
inline bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string_view(ci) == "true";
}

}  // namespace safetensors::testing

/// @brief Ends the test where the folder `dir` is absent: a skip naming it, or a failure under
/// CI=true. A macro, as GTEST_SKIP and FAIL return from the function they are in.
#define REQUIRE_FIXTURE_DIR(dir)                                                                                      \
  do {                                                                                                                \
    if (std::filesystem::is_directory(dir)) break;                                                                    \
    if (::safetensors::testing::in_ci()) FAIL() << (dir) << " is absent, and CI=true: CI must run the fixture tests"; \
    GTEST_SKIP() << "skipped: " << (dir) << " is absent";                                                             \
  } while (false)
