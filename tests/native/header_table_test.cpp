// The header table read back (decode_header_table): what the card module builds the card
// from. It must give the tensors and metadata the analysis gave, exactly, whatever the names.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "card/build_card.h"
#include "file_builder.h"
#include "fixture_dir.h"
#include "wasm/card_table.h"
#include "wasm/header_table.h"

namespace safetensors::testing {
namespace {

namespace fs = std::filesystem;

std::vector<std::uint8_t> table_of(const Report& report) {
  std::vector<std::uint8_t> table;
  encode_header_table(report, table);
  return table;
}

// The report read back from its table equals it in everything the card reads, and gives the
// same card table byte for byte.
void expect_round_trip(const Report& report) {
  ASSERT_EQ(report.error, ReferenceError::None);
  const std::vector<std::uint8_t> table = table_of(report);
  TableHeader back;
  ASSERT_TRUE(decode_header_table(table, back));
  ASSERT_EQ(back.tensors.size(), report.tensors.size());
  for (std::size_t i = 0; i < report.tensors.size(); ++i) {
    const TensorEntry& a = report.tensors[i];
    const TensorView& b = back.tensors[i];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.dtype, b.dtype);
    EXPECT_EQ(a.shape, std::vector<std::uint64_t>(b.shape.begin(), b.shape.end()));
    EXPECT_EQ(a.begin, b.begin);
    EXPECT_EQ(a.end, b.end);
  }
  EXPECT_EQ(back.has_metadata, report.has_metadata);
  EXPECT_EQ(back.metadata, report.metadata);
  std::vector<std::uint8_t> direct, via_table;
  encode_card_table(build_card(report), direct);
  encode_card_table(build_card(back.tensors, back.metadata), via_table);
  EXPECT_EQ(direct, via_table);
}

TEST(HeaderTableReader, GivesBackNamesOfEveryWidthMetadataAndExactDims) {
  // 1-, 2-, 3- and 4-byte UTF-8 (the last a surrogate pair in the table's UTF-16 ranges),
  // an empty name, findings before the tensors (padding), and a dim past 2^53.
  const std::string header = "{\"__metadata__\":{\"ss_output_name\":\"caf\xC3\xA9 \xF0\x9F\x98\x80\",\"k\":\"\"}," +
                             entry("", "F32", "[1]", 0, 4) + "," + entry("\xE6\x97\xA5.weight", "F16", "[2]", 4, 8) +
                             "," + entry("\xF0\x9F\x98\x80.bias", "BF16", "[3,1]", 8, 14) + "," +
                             entry("huge.empty", "U8", "[9007199254740993,0]", 14, 14) + "}";
  const Report report = analyze(make_file(header, 14));
  ASSERT_FALSE(report.findings.empty());  // the header is not padded: a finding precedes the tensors
  expect_round_trip(report);
  const std::vector<std::uint8_t> table = table_of(report);
  TableHeader back;
  ASSERT_TRUE(decode_header_table(table, back));
  EXPECT_EQ(back.tensors[3].shape[0], 9007199254740993ull);  // exact, not the nearest double
  EXPECT_EQ(back.metadata[0].second, "caf\xC3\xA9 \xF0\x9F\x98\x80");
}

TEST(HeaderTableReader, NoMetadataIsNotEmptyMetadata) {
  expect_round_trip(analyze(make_file("{" + entry("a", "U8", "[1]", 0, 1) + "}", 1)));
  expect_round_trip(analyze(make_file("{\"__metadata__\":{}," + entry("a", "U8", "[1]", 0, 1) + "}", 1)));
}

TEST(HeaderTableReader, ARejectedFileGivesTheTensorsItsHeaderListed) {
  TableHeader back;
  // Cut short: 4 of the tensor's 8 bytes are there; the header is whole (a card can be had).
  // The table outlives `back`'s views into it.
  const std::vector<std::uint8_t> cut = table_of(analyze(make_file("{" + entry("a.b", "F32", "[2]", 0, 8) + "}", 4)));
  ASSERT_TRUE(decode_header_table(cut, back));
  ASSERT_EQ(back.tensors.size(), 1u);
  EXPECT_EQ(back.tensors[0].name, "a.b");
  // A header that is no header: no tensors.
  const std::vector<std::uint8_t> none = table_of(analyze(make_file("{\"a\":1}")));
  ASSERT_TRUE(decode_header_table(none, back));
  EXPECT_TRUE(back.tensors.empty());
}

// A rejected file's offsets that are no byte range (end before begin; past 2^53) are read, not
// refused: the card is built from names, dtypes and shapes, each tensor sized by its shape.
TEST(HeaderTableReader, InvalidOffsetsAreSizedFromShapes) {
  const std::vector<std::uint8_t> backwards = table_of(
      analyze(make_file("{" + entry("a", "F32", "[2]", 0, 8) + "," + entry("b", "F16", "[3]", 16, 8) + "}", 8)));
  TableHeader back;
  ASSERT_TRUE(decode_header_table(backwards, back));
  ASSERT_EQ(back.tensors.size(), 2u);
  EXPECT_EQ(back.sized_from_shapes, 2u);  // InvalidOffset: no tensor's offsets were checked
  EXPECT_EQ(back.tensors[1].name, "b");
  EXPECT_EQ(back.tensors[1].end - back.tensors[1].begin, 6u);
  // Offsets near 2^64 in a file cut short (MetadataIncompleteBuffer): that one tensor only.
  const std::string far = "{" + entry("a", "U8", "[1]", 0, 1) + "," +
                          entry("z", "U8", "[2]", 18446744073709551613ull, 18446744073709551615ull) + "}";
  const Report cut = analyze(make_file(far, 1));
  ASSERT_NE(cut.error, ReferenceError::None);
  const std::vector<std::uint8_t> table = table_of(cut);
  ASSERT_TRUE(decode_header_table(table, back));
  EXPECT_EQ(back.sized_from_shapes, cut.error == ReferenceError::InvalidOffset ? 2u : 1u);
  EXPECT_EQ(back.tensors[1].end - back.tensors[1].begin, 2u);
  EXPECT_EQ(back.tensors[0].end - back.tensors[0].begin, 1u);
  // A dim of 2^64-1 (a double rounds it to 2^64) comes back exactly in a rejected file's table.
  const std::vector<std::uint8_t> widest =
      table_of(analyze(make_file("{" + entry("w", "U8", "[18446744073709551615]", 0, 1) + "}", 1)));
  ASSERT_TRUE(decode_header_table(widest, back));
  EXPECT_EQ(back.tensors[0].shape[0], 18446744073709551615ull);
  std::vector<std::uint8_t> card;
  encode_card_table(build_card(back.tensors, back.metadata), card, back.sized_from_shapes);
  EXPECT_FALSE(card.empty());
}

TEST(HeaderTableReader, RefusesWhatIsNotAFilesTable) {
  TableHeader back;
  const std::vector<std::uint8_t> good = table_of(analyze(make_file("{" + entry("a.b", "F32", "[2]", 0, 8) + "}", 8)));
  ASSERT_TRUE(decode_header_table(good, back));
  // Every shorter prefix, and the table with a byte more.
  for (std::size_t n = 0; n < good.size(); ++n) {
    EXPECT_FALSE(decode_header_table(std::span(good.data(), n), back)) << n;
  }
  std::vector<std::uint8_t> longer = good;
  longer.push_back(' ');
  EXPECT_FALSE(decode_header_table(longer, back));
  // Any single number changed to something out of its range (NaN, negative, fractional, huge).
  const std::uint32_t count = good[0] | good[1] << 8 | good[2] << 16 | good[3] << 24;
  for (const double bad : {std::nan(""), -1.0, 0.5, 1e300}) {
    for (std::uint32_t i = 0; i < count; ++i) {
      std::vector<std::uint8_t> changed = good;
      std::memcpy(changed.data() + 8 + 8 * i, &bad, 8);
      TableHeader h;
      decode_header_table(changed, h);  // must not crash; may still decode (a size, say)
    }
  }
}

// Every real loadable file's card is the same from its table as from its analysis.
TEST(HeaderTableReader, RealFilesGiveTheSameCard) {
  const fs::path dir = real_fixtures_dir();
  REQUIRE_FIXTURE_DIR(dir);
  int files = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.path().extension() != ".safetensors") continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::string start(8, '\0');
    in.read(start.data(), 8);
    std::uint64_t n = 0;
    std::memcpy(&n, start.data(), 8);
    start.resize(8 + n);
    in.read(start.data() + 8, static_cast<std::streamsize>(n));
    const Report report =
        analyze_header({reinterpret_cast<const std::uint8_t*>(start.data()), start.size()}, fs::file_size(e.path()));
    SCOPED_TRACE(e.path().string());
    if (report.error != ReferenceError::None) continue;  // the fixture that is rejected on purpose
    expect_round_trip(report);
    ++files;
  }
  EXPECT_GE(files, 8);
}

}  // namespace
}  // namespace safetensors::testing
