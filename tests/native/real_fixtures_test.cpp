// Real files written by other tools (../shared/fixtures/real), read in place.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "file_builder.h"
#include "fixture_dir.h"

namespace safetensors::testing {
namespace {

namespace fs = std::filesystem;

struct Expected {
  const char* file;
  std::size_t tensors;
};

// Tensor counts from the fixtures' README.
constexpr Expected kLoadable[] = {
    {"fluxml_torch_all_dtypes_with_metadata.safetensors", 36},
    {"sharded/model-00001-of-00006.safetensors", 19},
    {"sharded/model-00002-of-00006.safetensors", 1},
    {"sharded/model-00003-of-00006.safetensors", 2},
    {"sharded/model-00004-of-00006.safetensors", 4},
    {"sharded/model-00005-of-00006.safetensors", 7},
    {"sharded/model-00006-of-00006.safetensors", 3},
    {"candle_encodec_jfk_codes_i64.safetensors", 1},
    {"candle_empty_zero_tensors.safetensors", 0},
    {"kohya_lycoris_lokr_dim4_f16.safetensors", 1750},
    {"transformers_gpt2_tiny_f32.safetensors", 52},
    {"burn_pytorch_batchnorm2d_scalar_i64.safetensors", 5},
    {"burn_pytorch_bool_buffer.safetensors", 1},
    {"torchtune_gemma_hf_layout_f16.safetensors", 11},
    {"fluxml_numpy_writer_bool_ints.safetensors", 27},
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class RealFixtures : public ::testing::Test {
 protected:
  void SetUp() override { REQUIRE_FIXTURE_DIR(dir_); }
  const fs::path dir_ = real_fixtures_dir();
};

TEST_F(RealFixtures, EveryLoadableFileIsLoadableWithItsTensorCount) {
  for (const Expected& e : kLoadable) {
    const std::string bytes = read_file(dir_ / e.file);
    ASSERT_FALSE(bytes.empty()) << e.file;
    const Report r = analyze(bytes);
    EXPECT_EQ(r.error, ReferenceError::None) << e.file << ": " << r.error_message;
    EXPECT_EQ(r.tensors.size(), e.tensors) << e.file;
    for (std::size_t i = 1; i < r.tensors.size(); ++i) EXPECT_EQ(r.tensors[i].begin, r.tensors[i - 1].end);
  }
}

TEST_F(RealFixtures, HeaderLengthPastTheEndIsInvalidHeaderLength) {
  const Report r = analyze(read_file(dir_ / "invalid_header_len_exceeds_file.safetensors"));
  EXPECT_EQ(r.error, ReferenceError::InvalidHeaderLength);
  EXPECT_EQ(r.header_length, 1000u);
}

TEST_F(RealFixtures, MetadataAndScalarsAreRead) {
  const Report kohya = analyze(read_file(dir_ / "kohya_lycoris_lokr_dim4_f16.safetensors"));
  ASSERT_TRUE(kohya.has_metadata);
  std::size_t scalars = 0;
  for (const auto& t : kohya.tensors) scalars += t.shape.empty();
  EXPECT_EQ(scalars, 350u);
  EXPECT_EQ(kohya.data_start, 244270u);
  bool has_ss_key = false;
  for (const auto& [k, v] : kohya.metadata) has_ss_key |= k.rfind("ss_", 0) == 0;
  EXPECT_TRUE(has_ss_key);
}

}  // namespace
}  // namespace safetensors::testing
