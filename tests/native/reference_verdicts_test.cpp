// The reference crate's own verdicts on hard files (45 boundary cases and 2,394 seeded
// mutants: nesting at serde_json's recursion limit, numbers at the edge of f64, ties on
// data_offsets), read in place from the fixtures beside the project. Every file must get
// the reference's verdict; `AMBIGUOUS:A,B` accepts either (the crate checks tied tensors
// in HashMap order, which varies per process).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "file_builder.h"
#include "fixture_dir.h"

namespace safetensors::testing {
namespace {

namespace fs = std::filesystem;

std::string verdict_name(ReferenceError e) {
  return e == ReferenceError::None ? "OK" : std::string(reference_error_name(e));
}

bool matches(const std::string& expected, const std::string& ours) {
  constexpr std::string_view kAmbiguous = "AMBIGUOUS:";
  if (!expected.starts_with(kAmbiguous)) return expected == ours;
  std::stringstream choices(expected.substr(kAmbiguous.size()));
  for (std::string choice; std::getline(choices, choice, ',');)
    if (choice == ours) return true;
  return false;
}

TEST(ReferenceVerdicts, EveryHardFileGetsTheCratesVerdict) {
  const fs::path dir = real_fixtures_dir().parent_path() / "reference";
  REQUIRE_FIXTURE_DIR(dir);
  std::ifstream table(dir / "verdicts.tsv");
  ASSERT_TRUE(table) << "no verdicts.tsv in " << dir;
  std::string line;
  std::getline(table, line);  // the column names
  int checked = 0, disagreements = 0;
  while (std::getline(table, line)) {
    const auto tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << line;
    const std::string file = line.substr(0, tab), expected = line.substr(tab + 1);
    std::ifstream in(dir / file, std::ios::binary);
    ASSERT_TRUE(in) << file;
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string ours = verdict_name(verdict(bytes));
    ++checked;
    if (!matches(expected, ours)) {
      ++disagreements;
      ADD_FAILURE() << file << ": the reference says " << expected << ", we say " << ours;
    }
  }
  EXPECT_GE(checked, 2439);
  EXPECT_EQ(disagreements, 0) << "of " << checked << " files";
}

}  // namespace
}  // namespace safetensors::testing
