// Layout and metadata findings on crafted files: each is reported where it
// applies, absent where it does not, and never changes the verdict.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "file_builder.h"
#include "findings/header_findings.h"
#include "findings/layout_findings.h"
#include "findings/metadata_findings.h"
#include "fixture_dir.h"

namespace safetensors::testing {
namespace {

const Finding* find(const Report& r, FindingCode code) {
  for (const Finding& f : r.findings) {
    if (f.code == code) return &f;
  }
  return nullptr;
}

// prefix + header padded with spaces so that the data starts at a multiple of 8.
std::string padded_file(std::string header, std::size_t data_size) {
  while ((8 + header.size()) % 8 != 0) header += ' ';
  return make_file(header, data_size);
}

// Analyses only prefix + header, claiming `data_size` bytes of data after it.
Report analyze_claimed(const std::string& header, std::uint64_t data_size) {
  const std::string start = make_file(header);
  return analyze_header({reinterpret_cast<const std::uint8_t*>(start.data()), start.size()}, start.size() + data_size);
}

Report loadable(const std::string& file) {
  Report r = analyze(file);
  EXPECT_EQ(r.error, ReferenceError::None) << r.error_message;
  return r;
}

std::string metadata_file(const std::string& members) { return padded_file("{\"__metadata__\":{" + members + "}}", 0); }

TEST(LayoutFindings, AnUnpaddedHeaderIsInfoOnlyWhenThereIsData) {
  const std::string header = "{" + entry("a", "U8", "[2]", 0, 2) + "}";
  ASSERT_NE((8 + header.size()) % 8, 0u);
  const Report r = loadable(make_file(header, 2));
  const Finding* f = find(r, FindingCode::HeaderNotPadded);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity(), Severity::Info);
  EXPECT_NE(f->message.find("byte " + std::to_string(8 + header.size())), std::string::npos) << f->message;
  EXPECT_EQ(find(loadable(padded_file(header, 2)), FindingCode::HeaderNotPadded), nullptr);
  EXPECT_EQ(find(loadable(make_file("{}  ")), FindingCode::HeaderNotPadded), nullptr);  // N = 4, no data
}

TEST(LayoutFindings, ATensorOffTheGridOfItsElementSizeIsMisaligned) {
  const std::string header = "{" + entry("byte", "U8", "[1]", 0, 1) + "," + entry("w", "F32", "[2]", 1, 9) + "," +
                             entry("h", "F16", "[1]", 9, 11) + "}";
  const Report r = loadable(padded_file(header, 11));
  const Finding* f = find(r, FindingCode::MisalignedTensor);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->tensor, "w");
  EXPECT_NE(f->message.find("2 tensors"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("byte " + std::to_string(r.data_start + 1)), std::string::npos) << f->message;
  // Aligned relative offsets, but an unpadded header shifts the F32 off its grid.
  const std::string shifted = "{" + entry("w", "F32", "[1]", 0, 4) + "}";
  ASSERT_NE((8 + shifted.size()) % 4, 0u);
  EXPECT_NE(find(loadable(make_file(shifted, 4)), FindingCode::MisalignedTensor), nullptr);
  EXPECT_EQ(find(loadable(padded_file(shifted, 4)), FindingCode::MisalignedTensor), nullptr);
  // Sub-byte kinds and empty tensors have nothing to align.
  EXPECT_EQ(find(loadable(padded_file("{" + entry("b", "U8", "[1]", 0, 1) + "," + entry("f4", "F4", "[2]", 1, 2) + "," +
                                          entry("e", "F64", "[0]", 2, 2) + "}",
                                      2)),
                 FindingCode::MisalignedTensor),
            nullptr);
}

TEST(LayoutFindings, TensorsOver2GiBAreHuge) {
  const std::uint64_t big = (std::uint64_t{1} << 31) + 2;
  const std::string header = "{" + entry("small", "F16", "[1]", 0, 2) + "," +
                             entry("big", "F16", "[" + std::to_string(big / 2) + "]", 2, 2 + big) + "}";
  const Report r = analyze_claimed(header, 2 + big);
  ASSERT_EQ(r.error, ReferenceError::None);
  const Finding* f = find(r, FindingCode::HugeTensor);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->tensor, "big");
  EXPECT_NE(f->message.find("2,147,483,650 bytes"), std::string::npos) << f->message;
  const std::string exact = "{" + entry("edge", "U8", "[2147483648]", 0, 2147483648ull) + "}";
  EXPECT_EQ(find(analyze_claimed(exact, 2147483648ull), FindingCode::HugeTensor), nullptr);
}

TEST(LayoutFindings, ZeroElementTensorsAreEmpty) {
  const Report r = loadable(padded_file("{" + entry("a", "F32", "[1]", 0, 4) + "," + entry("z", "F32", "[3,0]", 4, 4) +
                                            "," + entry("y", "I64", "[0]", 4, 4) + "}",
                                        4));
  const Finding* f = find(r, FindingCode::EmptyTensor);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->message.find("2 tensors"), std::string::npos) << f->message;
  EXPECT_EQ(find(loadable(padded_file("{" + entry("s", "F32", "[]", 0, 4) + "}", 4)), FindingCode::EmptyTensor),
            nullptr);
}

TEST(LayoutFindings, ScalarsAreReportedFromAThousandOn) {
  for (std::size_t count : {kManyScalars - 1, kManyScalars}) {
    std::string header = "{";
    for (std::size_t i = 0; i < count; ++i)
      header += (i ? "," : "") + entry("s" + std::to_string(i), "U8", "[]", i, i + 1);
    const Report r = loadable(padded_file(header + "}", count));
    EXPECT_EQ(find(r, FindingCode::ManyScalarTensors) != nullptr, count >= kManyScalars) << count;
  }
}

TEST(LayoutFindings, LayoutFindingsWaitForAValidLayout) {
  // An unpadded header with a broken offset: the error alone, no guesses from bad offsets.
  const Report r = analyze(make_file("{" + entry("w", "F32", "[1]", 1, 5) + "}", 5));
  EXPECT_EQ(r.error, ReferenceError::InvalidOffset);
  EXPECT_EQ(find(r, FindingCode::HeaderNotPadded), nullptr);
  // A truncated file still gets them: its layout is sound, only bytes are missing.
  const Report cut = analyze(make_file("{" + entry("w", "F32", "[2]", 0, 8) + "}", 5));
  EXPECT_EQ(cut.error, ReferenceError::MetadataIncompleteBuffer);
  EXPECT_NE(find(cut, FindingCode::HeaderNotPadded), nullptr);
}

TEST(SpacingFindings, LeadingWhitespaceAndOversizedPadding) {
  const Report spaced = loadable(make_file(" \t\n{}"));
  const Finding* lead = find(spaced, FindingCode::LeadingWhitespace);
  ASSERT_NE(lead, nullptr);
  EXPECT_NE(lead->message.find("3 bytes"), std::string::npos) << lead->message;
  EXPECT_EQ(find(loadable(make_file("{}" + std::string(kOversizedPadding, ' '))), FindingCode::OversizedHeader),
            nullptr);
  const Report r = loadable(make_file("{}" + std::string(kOversizedPadding + 1, ' ')));
  const Finding* big = find(r, FindingCode::OversizedHeader);
  ASSERT_NE(big, nullptr);
  EXPECT_NE(big->message.find("4,097 bytes"), std::string::npos) << big->message;
  EXPECT_EQ(find(r, FindingCode::LeadingWhitespace), nullptr);
}

TEST(MetadataFindings, KeysOutsideKnownFamiliesAreListed) {
  const Report r = loadable(metadata_file(
      R"("format":"pt","ss_network_dim":"4","sshs_model_hash":"x","modelspec.title":"t","ssmd_cover_images":"[]",)"
      R"("sd_merge_recipe":"{}","lora_adapter_metadata":"{}","framework":"pt","version":"2")"));
  const Finding* f = find(r, FindingCode::UnknownMetadataKey);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity(), Severity::Info);
  EXPECT_NE(f->message.find("2 metadata keys"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("'framework', 'version'"), std::string::npos) << f->message;
  EXPECT_EQ(find(loadable(metadata_file(R"("format":"pt","ss_a":"1")")), FindingCode::UnknownMetadataKey), nullptr);
}

TEST(MetadataFindings, FormatValuesOtherThanTheKnownFiveWarn) {
  for (const char* ok : {"pt", "tf", "flax", "mlx", "np"}) {
    EXPECT_EQ(find(loadable(metadata_file(std::string(R"("format":")") + ok + "\"")), FindingCode::UnusualFormat),
              nullptr)
        << ok;
  }
  const Report r = loadable(metadata_file(R"("format":"pytorch")"));
  const Finding* f = find(r, FindingCode::UnusualFormat);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity(), Severity::Warning);
  EXPECT_NE(f->message.find("'pytorch'"), std::string::npos) << f->message;
}

TEST(MetadataFindings, LargeValuesAreNotedAndImagesRecognised) {
  const std::string edge(kLargeMetadataValue, 'a');
  EXPECT_EQ(find(loadable(metadata_file("\"k\":\"" + edge + "\"")), FindingCode::LargeMetadataValue), nullptr);
  const std::string image = "[\"iVBORw0KGgo" + std::string(kLargeMetadataValue, 'A') + "\"]";
  std::string escaped;
  for (char c : image) escaped += c == '"' ? std::string("\\\"") : std::string(1, c);
  const Report r = loadable(metadata_file("\"ssmd_cover_images\":\"" + escaped + "\",\"notes\":\"" + edge + "b\""));
  const Finding* f = find(r, FindingCode::LargeMetadataValue);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->message.find("2 metadata values"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("'ssmd_cover_images'"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("embedded image"), std::string::npos) << f->message;
}

// A file with an integer `name` tensor plus `others` (each U8 [1]) and optional metadata.
std::string integer_weight_file(const std::string& dtype, const std::string& name, std::vector<std::string> others = {},
                                const std::string& metadata = "") {
  std::string header = "{" + (metadata.empty() ? "" : "\"__metadata__\":{" + metadata + "},") +
                       entry(name, dtype, dtype == "I32" ? "[1]" : "[4]", 0, 4);
  std::uint64_t at = 4;
  for (const std::string& other : others) header += "," + entry(other, "U8", "[1]", at, at + 1), ++at;
  return padded_file(header + "}", at);
}

TEST(MetadataFindings, IntegerWeightsWithoutQuantizationHintsWarn) {
  for (const char* dtype : {"U8", "I8"}) {
    for (const char* name : {"layer.0.weight", "proj.bias", "weight"}) {
      const Report r = loadable(integer_weight_file(dtype, name));
      const Finding* f = find(r, FindingCode::UnlabeledIntegerWeights);
      ASSERT_NE(f, nullptr) << dtype << " " << name;
      EXPECT_EQ(f->severity(), Severity::Warning);
      EXPECT_EQ(f->tensor, name);
    }
  }
  // Not weights by name, or not integers.
  EXPECT_EQ(find(loadable(integer_weight_file("U8", "tokens")), FindingCode::UnlabeledIntegerWeights), nullptr);
  EXPECT_EQ(find(loadable(integer_weight_file("U8", "layer.overweight")), FindingCode::UnlabeledIntegerWeights),
            nullptr);
  EXPECT_EQ(find(loadable(integer_weight_file("I32", "layer.weight")), FindingCode::UnlabeledIntegerWeights), nullptr);
}

TEST(MetadataFindings, CompanionTensorsOrMetadataExplainIntegerWeights) {
  const std::vector<std::vector<std::string>> companions = {{"m.weight_scale"},
                                                            {"m.weight_zero_point"},
                                                            {"m.SCB"},
                                                            {"m.weight.absmax", "m.weight.quant_map"},
                                                            {"m.weight.quant_state.bitsandbytes__nf4"},
                                                            {"m.scales"}};
  for (const auto& others : companions) {
    EXPECT_EQ(find(loadable(integer_weight_file("I8", "m.weight", others)), FindingCode::UnlabeledIntegerWeights),
              nullptr)
        << others[0];
  }
  // A companion of another module does not count.
  EXPECT_NE(find(loadable(integer_weight_file("I8", "m.weight", {"other.weight_scale"})),
                 FindingCode::UnlabeledIntegerWeights),
            nullptr);
  for (const char* metadata :
       {R"("quantization_config":"{}")", R"("format":"pt","method":"GPTQ")", R"("ss_dtype":"bnb 8bit")"}) {
    EXPECT_EQ(find(loadable(integer_weight_file("U8", "m.weight", {}, metadata)), FindingCode::UnlabeledIntegerWeights),
              nullptr)
        << metadata;
  }
}

TEST(FileFindings, RealFilesGetTheFindingsTheirLayoutCallsFor) {
  const std::filesystem::path dir = real_fixtures_dir();
  REQUIRE_FIXTURE_DIR(dir);
  auto read = [&](const char* name) {
    std::ifstream in(dir / name, std::ios::binary);
    return analyze(std::string{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()});
  };
  const Report kohya = read("kohya_lycoris_lokr_dim4_f16.safetensors");  // pre-0.3 writer: no padding
  EXPECT_EQ(kohya.error, ReferenceError::None);
  EXPECT_NE(find(kohya, FindingCode::HeaderNotPadded), nullptr);
  EXPECT_EQ(find(kohya, FindingCode::MisalignedTensor), nullptr);                 // F16 at an even byte is aligned
  EXPECT_EQ(find(kohya, FindingCode::UnknownMetadataKey), nullptr);               // all ss_* / sshs_*
  const Report flux = read("fluxml_torch_all_dtypes_with_metadata.safetensors");  // {"test", "version"}
  const Finding* keys = find(flux, FindingCode::UnknownMetadataKey);
  ASSERT_NE(keys, nullptr);
  EXPECT_NE(keys->message.find("'test', 'version'"), std::string::npos) << keys->message;
  const Report gpt2 = read("transformers_gpt2_tiny_f32.safetensors");  // format pt, padded, F32
  EXPECT_TRUE(gpt2.findings.empty()) << gpt2.findings[0].message;
}

}  // namespace
}  // namespace safetensors::testing
