// NotSafetensors: files of other formats, made by tools/foreign_files.py with Python's own
// zipfile, pickle, gzip and json (and from the specs for GGUF, PNG and JPEG), the Git LFS
// pointers from the wild, and the files it must never fire on.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>

#include "analysis/foreign_format.h"
#include "file_builder.h"
#include "findings/message_text.h"
#include "fixture_dir.h"
#include "format/utf8.h"

// `text` holds `part` (the message is printed when it does not).
#define EXPECT_CONTAINS(text, part) EXPECT_NE(std::string(text).find(part), std::string::npos) << (text)

namespace safetensors::testing {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::span<const std::uint8_t> bytes_of(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// The NotSafetensors finding of a whole file, or null.
const Finding* not_safetensors(const Report& r) {
  for (const Finding& f : r.findings) {
    if (f.code == FindingCode::NotSafetensors) return &f;
  }
  return nullptr;
}

std::string format_name(const Finding* f) {
  return f && f->format ? std::string(foreign_format_info(*f->format).name) : "(none)";
}

// The generated files and the format each must be named as (expected.tsv).
std::vector<std::pair<std::string, std::string>> generated() {
  std::ifstream in(fs::path(SAFETENSORS_FOREIGN_FILES) / "expected.tsv");
  std::vector<std::pair<std::string, std::string>> rows;
  std::string file, format;
  while (std::getline(in, file, '\t') && std::getline(in, format)) rows.emplace_back(file, format);
  return rows;
}

TEST(ForeignFormat, EveryGeneratedFileIsRejectedAndNamedAsItsFormat) {
  const auto rows = generated();
  ASSERT_GE(rows.size(), 20u) << "tools/foreign_files.py wrote " << SAFETENSORS_FOREIGN_FILES;
  std::set<std::string> seen;
  for (const auto& [file, format] : rows) {
    const std::string bytes = read_file(fs::path(SAFETENSORS_FOREIGN_FILES) / file);
    const Report r = analyze(bytes);
    EXPECT_NE(r.error, ReferenceError::None) << file;
    const Finding* f = not_safetensors(r);
    EXPECT_EQ(format_name(f), format) << file;
    if (f == nullptr || !f->format) continue;
    seen.insert(format);
    EXPECT_EQ(f, &r.findings.front()) << file << ": NotSafetensors comes first";
    EXPECT_EQ(f->severity(), Severity::Error);
    const std::string label(foreign_format_info(*f->format).label);
    EXPECT_EQ(f->message.rfind("this is " + label, 0), 0u) << file << ": " << f->message;
  }
  for (const ForeignFormatInfo& info : kForeignFormats) EXPECT_TRUE(seen.contains(std::string(info.name))) << info.name;
}

// What each message says beyond the format: the facts its first bytes give and what to do.
TEST(ForeignFormat, MessagesSayWhatTheFirstBytesTellAndWhatToDo) {
  const auto message = [](const std::string& file) {
    const Report r = analyze(read_file(fs::path(SAFETENSORS_FOREIGN_FILES) / file));
    const Finding* f = not_safetensors(r);
    return f ? f->message : std::string("(no NotSafetensors finding)");
  };
  EXPECT_CONTAINS(message("lfs_pointer.safetensors"), "git lfs pull");
  EXPECT_CONTAINS(message("torch_save.pt"), "'archive/data.pkl'");
  EXPECT_CONTAINS(message("torch_save.pt"), "do not load it");
  EXPECT_CONTAINS(message("torch_save.pt"), "safetensors-wasm convert FILE -o OUT.safetensors");
  EXPECT_CONTAINS(message("torch_save_named.bin"), "'pytorch_model/data.pkl'");
  EXPECT_CONTAINS(message("legacy_torch_save.bin"), "torch.save's format before 1.6");
  EXPECT_CONTAINS(message("pickle_protocol4.pkl"), "(protocol 4)");
  EXPECT_CONTAINS(message("model.gguf"), "version 3, 1 tensors, architecture 'llama'");
  EXPECT_CONTAINS(message("hub_blob_page.safetensors"), "titled 'model.safetensors");
  EXPECT_CONTAINS(message("error_page.safetensors"), "titled '404 Not Found'");
  EXPECT_CONTAINS(message("model.safetensors.index.json"), "openSafetensorsIndex");
  EXPECT_CONTAINS(message("model_index.json"), "openSafetensorsPipeline");
  EXPECT_CONTAINS(message("config.json"), "beside it");
  EXPECT_CONTAINS(message("preview.png"), "(3 x 2 pixels)");
  EXPECT_CONTAINS(message("model.safetensors.gz"), "it holds 'model.safetensors'");
  EXPECT_CONTAINS(message("model.zip"), "its first entry is 'model.safetensors'");
  EXPECT_CONTAINS(message("empty.safetensors"), "0 bytes");
}

// A Git LFS pointer names the size and oid of the file it stands for.
void expect_pointer_message(const std::string& bytes, const std::string& where) {
  std::smatch oid, size;
  ASSERT_TRUE(std::regex_search(bytes, oid, std::regex("oid sha256:([0-9a-f]{64})"))) << where;
  ASSERT_TRUE(std::regex_search(bytes, size, std::regex("size ([0-9]+)"))) << where;
  const Report r = analyze(bytes);
  EXPECT_EQ(r.error, ReferenceError::HeaderTooLarge) << where << ": the reference's own verdict";
  const Finding* f = not_safetensors(r);
  ASSERT_NE(f, nullptr) << where;
  EXPECT_EQ(format_name(f), "git-lfs-pointer");
  EXPECT_CONTAINS(f->message, oid[1].str());
  EXPECT_CONTAINS(f->message, count_bytes(std::stoull(size[1].str())));
  EXPECT_CONTAINS(f->message, "never downloaded");
}

TEST(ForeignFormat, GeneratedLfsPointersNameTheirSizeAndOid) {
  expect_pointer_message(read_file(fs::path(SAFETENSORS_FOREIGN_FILES) / "lfs_pointer.safetensors"), "LF");
  expect_pointer_message(read_file(fs::path(SAFETENSORS_FOREIGN_FILES) / "lfs_pointer_crlf.safetensors"), "CRLF");
}

class WildFixtures : public ::testing::Test {
 protected:
  void SetUp() override { REQUIRE_FIXTURE_DIR(dir_); }
  const fs::path dir_ = wild_fixtures_dir();
};

// Three pointers committed under .safetensors names (invoke-ai/InvokeAI, hydrixer/ID2223-lab2,
// cocopo11/ink-and-wash-textual-inversion; paths and commits in the fixtures' README).
TEST_F(WildFixtures, TheThreeLfsPointersAreDetected) {
  int pointers = 0;
  for (const auto& entry : fs::directory_iterator(dir_)) {
    if (!entry.path().filename().string().starts_with("lfs_pointer_")) continue;
    expect_pointer_message(read_file(entry.path()), entry.path().filename().string());
    ++pointers;
  }
  EXPECT_EQ(pointers, 3);
}

// Detection never fires on a safetensors file, loadable or not: every real and wild file
// (the wild ones include a file cut short), each also cut short and with a header cut.
void expect_never_foreign(const fs::path& dir) {
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.path().extension() != ".safetensors" || entry.path().filename().string().starts_with("lfs_pointer_"))
      continue;
    const std::string bytes = read_file(entry.path());
    const std::string name = entry.path().filename().string();
    EXPECT_FALSE(detect_foreign_format(bytes_of(bytes), bytes.size())) << name;
    EXPECT_EQ(not_safetensors(analyze(bytes)), nullptr) << name;
    const std::string cut = bytes.substr(0, bytes.size() - 1);
    EXPECT_EQ(not_safetensors(analyze(cut)), nullptr) << name << " cut short";
    const std::string header_cut = bytes.substr(0, 12);
    EXPECT_EQ(not_safetensors(analyze(header_cut)), nullptr) << name << " with its header cut";
    ++files;
  }
  EXPECT_GT(files, 10);
}

TEST_F(WildFixtures, NeverFiresOnTheSafetensorsFilesFromTheWild) { expect_never_foreign(dir_); }

TEST(ForeignFormat, NeverFiresOnTheRealFixtures) {
  REQUIRE_FIXTURE_DIR(real_fixtures_dir());
  expect_never_foreign(real_fixtures_dir());
}

// A header length whose first bytes look like a pickle's PROTO 2 (0x80 0x02: n = 640) is still a
// safetensors file when a '{' follows: cut short, it is not called a pickle.
TEST(ForeignFormat, ASafetensorsPrefixThatLooksLikeAPickleIsNotOne) {
  std::string header = "{\"w\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4]}}";
  header += std::string(640 - header.size(), ' ');
  const std::string file = make_file(header, 4);
  ASSERT_EQ(file.substr(0, 2), "\x80\x02");
  EXPECT_EQ(verdict(file), ReferenceError::None);
  const Report cut = analyze(file.substr(0, 300));
  EXPECT_EQ(cut.error, ReferenceError::InvalidHeaderLength);
  EXPECT_EQ(not_safetensors(cut), nullptr);
}

// Detection reads the first 64 KiB and nothing after: what decides the format just inside the
// window is seen, just outside it is not (the span given is longer in both cases).
TEST(ForeignFormat, ReadsOnlyTheFirst64KiB) {
  const fs::path dir = SAFETENSORS_FOREIGN_FILES;
  const std::string inside = read_file(dir / "torch_save_data_pkl_inside_window.bin");
  const std::string outside = read_file(dir / "torch_save_data_pkl_past_window.bin");
  ASSERT_GT(outside.size(), kForeignSniffBytes);
  EXPECT_EQ(detect_foreign_format(bytes_of(inside), inside.size())->format, ForeignFormat::PytorchZip);
  EXPECT_EQ(detect_foreign_format(bytes_of(outside), outside.size())->format, ForeignFormat::Zip);

  const std::string filler(kForeignSniffBytes - 20, ' ');
  const std::string near = "<!-- saved -->" + filler.substr(14) + "<html>";
  const std::string far = "<!-- saved -->" + filler + "          <html>";
  ASSERT_LE(near.find("<html>") + 6, kForeignSniffBytes);
  ASSERT_GT(far.find("<html>"), kForeignSniffBytes);
  EXPECT_EQ(detect_foreign_format(bytes_of(near), near.size())->format, ForeignFormat::Html);
  EXPECT_FALSE(detect_foreign_format(bytes_of(far), far.size()));
}

// Names and titles come from anyone's bytes; messages cross to JavaScript as UTF-8 text, so
// each is cut at its first byte that is not UTF-8.
TEST(ForeignFormat, NamesThatAreNotUtf8AreCutWhereTheyStopBeingUtf8) {
  const auto le = [](std::uint64_t v, int bytes) {
    std::string out;
    for (int i = 0; i < bytes; ++i) out += static_cast<char>(v >> (8 * i) & 0xFF);
    return out;
  };
  const std::string zip_name = "ab\xff\xfe.bin";
  const std::string zip = "PK\x03\x04" + std::string(22, '\0') + le(zip_name.size(), 2) + le(0, 2) + zip_name;
  const std::string html = "<html><title>ab\xff\xfecd</title></html>";
  const std::string gzip = std::string("\x1f\x8b\x08\x08", 4) + std::string(6, '\0') + "ab\xc3(.st" + '\0';
  const std::string gguf =
      "GGUF" + le(3, 4) + le(0, 8) + le(1, 8) + le(20, 8) + "general.architecture" + le(8, 4) + le(4, 8) + "ab\xe2\x82";
  for (const auto& [file, format] : {std::pair{zip, ForeignFormat::Zip}, std::pair{html, ForeignFormat::Html},
                                     std::pair{gzip, ForeignFormat::Gzip}, std::pair{gguf, ForeignFormat::Gguf}}) {
    const Report r = analyze(file);
    const Finding* f = not_safetensors(r);
    ASSERT_NE(f, nullptr) << foreign_format_info(format).name;
    EXPECT_EQ(f->format, format);
    EXPECT_FALSE(find_invalid_utf8(bytes_of(f->message))) << f->message;
    EXPECT_CONTAINS(f->message, "'ab'");
  }
}

}  // namespace
}  // namespace safetensors::testing
