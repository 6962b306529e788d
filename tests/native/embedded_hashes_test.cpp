// The hashes the metadata claims (cpp/analysis/embedded_hashes.h): which keys, how values are
// read, and that the analysis and the card give the same list (one definition for both).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "analysis/embedded_hashes.h"
#include "card/build_card.h"
#include "file_builder.h"

namespace safetensors {
inline bool operator==(const EmbeddedHash& a, const EmbeddedHash& b) {
  return a.key == b.key && a.value == b.value && a.covers == b.covers;
}
inline void PrintTo(const EmbeddedHash& h, std::ostream* os) {
  *os << h.key << "=" << h.value << " (" << hash_cover_name(h.covers) << ")";
}
}  // namespace safetensors

namespace safetensors::testing {
namespace {

namespace fs = std::filesystem;

TEST(EmbeddedHashes, KnownKeysInAFixedOrderLowercaseWithoutPrefixOrSpaces) {
  const Metadata metadata = {{"ss_vae_hash", "00ff"},
                             {"modelspec.hash_sha256", "0xABCDEF"},
                             {"format", "pt"},
                             {"sshs_model_hash", " abc123\n"},
                             {"sshs_legacy_hash", "E3B0C442"},
                             {"ss_sd_model_hash", "not hex!"},
                             {"ss_new_sd_model_hash", ""},
                             {"ss_new_vae_hash", "0x"}};
  const std::vector<EmbeddedHash> expected = {{"sshs_model_hash", "abc123", HashCover::Data},
                                              {"modelspec.hash_sha256", "abcdef", HashCover::Data},
                                              {"sshs_legacy_hash", "e3b0c442", HashCover::AutoV1},
                                              {"ss_vae_hash", "00ff", HashCover::BaseModel}};
  EXPECT_EQ(embedded_hashes(metadata), expected);
}

TEST(EmbeddedHashes, OtherKeysAndOverlongValuesAreNotClaims) {
  EXPECT_TRUE(
      embedded_hashes({{"sshs_model_hash_x", "abcd"}, {"hash_sha256", "abcd"}, {"SSHS_MODEL_HASH", "ab"}}).empty());
  EXPECT_EQ(embedded_hashes({{"sshs_model_hash", std::string(128, 'a')}}).size(), 1u);
  EXPECT_TRUE(embedded_hashes({{"sshs_model_hash", std::string(129, 'a')}}).empty());
  EXPECT_TRUE(embedded_hashes({}).empty());
}

TEST(EmbeddedHashes, CoverNamesAreThoseOfIndexDts) {
  EXPECT_EQ(hash_cover_name(HashCover::File), "file");
  EXPECT_EQ(hash_cover_name(HashCover::Data), "data");
  EXPECT_EQ(hash_cover_name(HashCover::AutoV1), "autov1");
  EXPECT_EQ(hash_cover_name(HashCover::BaseModel), "base-model");
}

TEST(EmbeddedHashes, TheAnalysisFindsThemAndTheCardListsTheSame) {
  const std::string header = "{\"__metadata__\":{\"sshs_model_hash\":\"0xCAFE\",\"sshs_model_hash\":\"BEEF\"," +
                             std::string("\"ss_sd_model_hash\":\"1234\"},") + entry("w", "F16", "[2]", 0, 4) + "}";
  const Report report = analyze(make_file(header, 4));
  ASSERT_EQ(report.error, ReferenceError::None);
  // The repeated key resolved as the reference does: the last value.
  const std::vector<EmbeddedHash> expected = {{"sshs_model_hash", "beef", HashCover::Data},
                                              {"ss_sd_model_hash", "1234", HashCover::BaseModel}};
  EXPECT_EQ(report.embedded_hashes, expected);
  EXPECT_EQ(build_card(report).embedded_hashes, expected);
}

TEST(EmbeddedHashes, NoneWithoutMetadataOrWhenTheHeaderIsNotRead) {
  EXPECT_TRUE(analyze(make_file("{" + entry("w", "U8", "[1]", 0, 1) + "}", 1)).embedded_hashes.empty());
  const Report rejected = analyze(make_file("{\"__metadata__\":{\"sshs_model_hash\":\"ab\"}", 0));
  EXPECT_NE(rejected.error, ReferenceError::None);
  EXPECT_TRUE(rejected.embedded_hashes.empty());
}

// Every real loadable file: the analysis' claims are the card's; the kohya file claims its own.
TEST(EmbeddedHashes, RealFilesGiveTheCardTheAnalysisClaims) {
  const fs::path dir = SAFETENSORS_REAL_FIXTURES;
  if (!fs::is_directory(dir)) GTEST_SKIP() << "skipped: " << dir << " is absent (real fixtures live in ../shared)";
  int files = 0, claims = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.path().extension() != ".safetensors") continue;
    std::ifstream in(e.path(), std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const Report report = analyze(bytes);
    SCOPED_TRACE(e.path().string());
    if (report.error != ReferenceError::None) continue;  // the fixture that is rejected on purpose
    EXPECT_EQ(build_card(report).embedded_hashes, report.embedded_hashes);
    claims += static_cast<int>(report.embedded_hashes.size());
    ++files;
  }
  EXPECT_GE(files, 8);
  EXPECT_GE(claims, 2);  // the kohya LoKr: sshs_model_hash, sshs_legacy_hash, its base model's
}

}  // namespace
}  // namespace safetensors::testing
