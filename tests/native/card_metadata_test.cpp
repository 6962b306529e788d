// The metadata conventions of the card: titles, trigger words, tags, training values,
// base model, embedded hashes, images, dates, numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "card/card_images.h"
#include "card/card_metadata.h"
#include "card_test_support.h"

namespace safetensors::testing {
namespace {

const std::vector<T> kOne = {{"w", {2, 2}}};

TEST(CardMetadata, TitleByPrecedence) {
  EXPECT_EQ(
      card_of(kOne, {{"ss_output_name", "out"}, {"ssmd_display_name", "shown"}, {"modelspec.title", "Spec"}}).title,
      "Spec");
  EXPECT_EQ(card_of(kOne, {{"ss_output_name", "out"}, {"ssmd_display_name", "shown"}}).title, "shown");
  EXPECT_EQ(card_of(kOne, {{"ss_output_name", "out"}}).title, "out");
  EXPECT_FALSE(card_of(kOne, {{"ss_output_name", "  "}}).title);
  EXPECT_FALSE(card_of(kOne).title);
}

TEST(CardMetadata, DescriptiveFields) {
  const ModelCard card = card_of(kOne, {{"modelspec.description", "d"},
                                        {"ssmd_author", "me"},
                                        {"modelspec.license", "MIT"},
                                        {"ssmd_source", "https://example.com/m"},
                                        {"ss_training_finished_at", "1680721307.2415755"}});
  EXPECT_EQ(card.description, "d");
  EXPECT_EQ(card.author, "me");
  EXPECT_EQ(card.license, "MIT");
  EXPECT_EQ(card.source, "https://example.com/m");
  EXPECT_EQ(card.date, "2023-04-05T19:01:47Z");  // date -u -d @1680721307
  EXPECT_EQ(card_of(kOne, {{"modelspec.date", "2024-01-02"}, {"ss_training_finished_at", "1"}}).date, "2024-01-02");
}

TEST(CardMetadata, IsoDates) {
  EXPECT_EQ(iso_date(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(iso_date(951782400), "2000-02-29T00:00:00Z");
  EXPECT_EQ(iso_date(-1), "1969-12-31T23:59:59Z");
  EXPECT_EQ(iso_date(1.5), "1970-01-01T00:00:01Z");
  EXPECT_EQ(iso_date(253402300799), "9999-12-31T23:59:59Z");
  EXPECT_EQ(iso_date(-62135596800), "0001-01-01T00:00:00Z");
}

// Metadata numbers are read as strtod reads them (glibc's is correctly rounded): the same
// double for every JSON number, the hard cases of rounding included; nothing else is a number.
TEST(CardMetadata, NumbersAsStrtodReadsThem) {
  std::vector<std::string> texts = {"0",
                                    "-0",
                                    "0.0003",
                                    "4.0",
                                    "1e23",
                                    "9007199254740993",
                                    "2.2250738585072011e-308",
                                    "2.2250738585072012e-308",
                                    "4.9406564584124654e-324",
                                    "2.4703282292062327e-324",
                                    "2.4703282292062328e-324",
                                    "1.7976931348623157e308",
                                    "1e-400",
                                    "0.000e5",
                                    "3.14159265358979323846264338327950288419716939937510582097494459"};
  std::mt19937_64 random(37);
  for (int i = 0; i < 20000; ++i) {
    std::string t = random() % 2 ? "-" : "";
    t += std::to_string(random() % 10);
    if (t.back() != '0') t += std::to_string(random() % 100000000000000000ull);
    t += "." + std::to_string(random() >> (random() % 64));
    if (random() % 2) t += "e" + std::to_string(static_cast<int>(random() % 700) - 350);
    texts.push_back(t);
  }
  for (const std::string& t : texts) {
    const double expected = std::strtod(t.c_str(), nullptr);
    const std::optional<double> got = parse_number(t);
    if (!std::isfinite(expected)) {
      EXPECT_FALSE(got) << t;
      continue;
    }
    ASSERT_TRUE(got) << t;
    EXPECT_EQ(std::memcmp(&*got, &expected, sizeof expected), 0) << t;
  }
  for (const char* t : {"1e309", "inf", "0x10", "01", "1.", ".5", "+1", "1e", " 1", "nan"})
    EXPECT_FALSE(parse_number(t)) << t;
}

TEST(CardMetadata, TriggerWordsInOrderWithoutRepeats) {
  const ModelCard card = card_of(
      kOne,
      {{"ss_tag_frequency", R"({"10_sks dog": {"sks dog": 10, "grass": 4}, "5_sks dog": {"sks dog": 5, "ball": 5}})"},
       {"ss_training_comment", "Trigger word is \"Sks Dog\". Trained on 15 images"},
       {"ssmd_keywords", "alpha, beta ,, "},
       {"modelspec.trigger_phrase", "a photo of sks"},
       {"ss_datasets",
        R"([{"subsets": [{"class_tokens": "sks dog"}, {"class_tokens": "pet"}, {"class_tokens": null}]}])"}});
  std::vector<std::pair<std::string, std::string>> got;
  for (const TriggerWord& w : card.trigger_words) got.emplace_back(w.text, w.source);
  const std::vector<std::pair<std::string, std::string>> want = {{"a photo of sks", "modelspec.trigger_phrase"},
                                                                 {"alpha", "ssmd_keywords"},
                                                                 {"beta", "ssmd_keywords"},
                                                                 {"Sks Dog", "ss_training_comment"},
                                                                 {"pet", "ss_datasets"}};
  EXPECT_EQ(got, want);
  EXPECT_EQ(card.trigger_words[3].count, 15);  // the comment's phrase is also the top tag
  ASSERT_EQ(card.tags.size(), 3u);
  EXPECT_EQ(card.tags[0].tag, "sks dog");
  EXPECT_EQ(card.tags[0].count, 15);
  EXPECT_EQ(card.tags[1].tag, "ball");  // 5 before grass's 4
}

TEST(CardMetadata, FolderClassTokensWhenNoDatasets) {
  const ModelCard card = card_of(kOne, {{"ss_dataset_dirs", R"({"16_smf girl": {"n_repeats": 16}, "reg": {}})"}});
  ASSERT_EQ(card.trigger_words.size(), 1u);
  EXPECT_EQ(card.trigger_words[0].text, "smf girl");
  EXPECT_EQ(card.trigger_words[0].source, "ss_dataset_dirs");
}

TEST(CardMetadata, MalformedJsonValuesAreIgnored) {
  const ModelCard card = card_of(kOne, {{"ss_tag_frequency", "{not json"},
                                        {"ss_datasets", "[1, 2"},
                                        {"ssmd_cover_images", "\"x\""},
                                        {"lora_adapter_metadata", "[]"}});
  EXPECT_TRUE(card.tags.empty());
  EXPECT_TRUE(card.trigger_words.empty());
  EXPECT_TRUE(card.images.empty());
}

TEST(CardMetadata, TrainingValuesNormalised) {
  const ModelCard card = card_of(kOne, {{"ss_learning_rate", "0.0003"},
                                        {"ss_v2", "False"},
                                        {"ss_clip_skip", "None"},
                                        {"ss_resolution", "(768, 768)"},
                                        {"ss_sd_model_hash", "12345678"},
                                        {"ss_tag_frequency", "{}"},
                                        {"other", "1"}});
  ASSERT_TRUE(card.training);
  const auto& t = *card.training;
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[0].first, "learning_rate");
  EXPECT_EQ(t[0].second.type, TrainingValue::Type::Number);
  EXPECT_DOUBLE_EQ(t[0].second.number, 0.0003);
  EXPECT_EQ(t[1].second.type, TrainingValue::Type::Bool);
  EXPECT_FALSE(t[1].second.flag);
  EXPECT_EQ(t[2].second.type, TrainingValue::Type::Null);
  EXPECT_EQ(t[3].second.text, "(768, 768)");
  EXPECT_EQ(t[4].second.type, TrainingValue::Type::Text);  // hashes stay text even when all digits
  EXPECT_FALSE(card_of(kOne, {{"format", "pt"}}).training);
}

TEST(CardMetadata, BaseModel) {
  const ModelCard card = card_of(kOne, {{"ss_sd_model_name", "v1-5.safetensors"},
                                        {"ss_sd_model_hash", "e1441589"},
                                        {"ss_new_sd_model_hash", "CAFE"},
                                        {"ss_v2", "False"}});
  ASSERT_TRUE(card.base_model);
  EXPECT_EQ(card.base_model->name, "v1-5.safetensors");
  EXPECT_EQ(card.base_model->hash, "CAFE");
  EXPECT_EQ(card.base_model->version, "sd_v1");
  EXPECT_FALSE(card_of(kOne).base_model);
}

TEST(CardMetadata, EmbeddedHashesNormalised) {
  const ModelCard card = card_of(kOne, {{"modelspec.hash_sha256", "0xABCDEF"},
                                        {"sshs_model_hash", "abc123"},
                                        {"sshs_legacy_hash", "e3b0c442"},
                                        {"ss_sd_model_hash", "not hex!"}});
  ASSERT_EQ(card.embedded_hashes.size(), 3u);
  EXPECT_EQ(card.embedded_hashes[0].key, "sshs_model_hash");
  EXPECT_EQ(card.embedded_hashes[1].value, "abcdef");
  EXPECT_EQ(card.embedded_hashes[1].covers, HashCover::Data);
  EXPECT_EQ(card.embedded_hashes[2].covers, HashCover::AutoV1);
}

// 1x1 images, base64 (PNG signature + IHDR; JPEG SOI; GIF89a; RIFF....WEBP).
constexpr const char* kPng =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
constexpr const char* kGif = "R0lGODlhAQABAAAAACw=";
constexpr const char* kWebp = "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==";
constexpr const char* kJpeg = "/9j/4AAQSkZJRg==";

TEST(CardMetadata, ImagesOnlyWithTheirMagicNumbers) {
  const std::string covers = std::string("[\"") + kPng + "\", \"" + kGif + "\", \"" + kWebp + "\", \"" + kJpeg +
                             "\", \"PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==\", \"not base64 at all\", 7]";
  const ModelCard card = card_of(
      kOne, {{"modelspec.thumbnail", std::string("data:image/png;base64,") + kPng}, {"ssmd_cover_images", covers}});
  ASSERT_EQ(card.images.size(), 5u);
  EXPECT_EQ(card.images[0].source, "modelspec.thumbnail");
  EXPECT_EQ(card.images[0].mime, "image/png");
  EXPECT_EQ(card.images[0].data_url, std::string("data:image/png;base64,") + kPng);
  EXPECT_EQ(card.images[1].mime, "image/png");
  EXPECT_EQ(card.images[2].mime, "image/gif");
  EXPECT_EQ(card.images[3].mime, "image/webp");
  EXPECT_EQ(card.images[4].mime, "image/jpeg");
  EXPECT_EQ(card.images[2].bytes, 14);
}

TEST(CardMetadata, ImagesWithAWrongClaimOrScriptAreDropped) {
  EXPECT_TRUE(card_of(kOne, {{"modelspec.thumbnail", std::string("data:image/gif;base64,") + kPng}}).images.empty());
  EXPECT_TRUE(card_of(kOne, {{"modelspec.thumbnail", std::string("data:text/html;base64,") + kPng}}).images.empty());
  EXPECT_TRUE(
      card_of(kOne, {{"modelspec.thumbnail", std::string("javascript:alert(1)//;base64,") + kPng}}).images.empty());
  EXPECT_TRUE(card_of(kOne, {{"modelspec.thumbnail", std::string("data:image/png;base64,") + kPng + "\"onerror=x"}})
                  .images.empty());
}

TEST(CardMetadata, ImageSizeLimits) {
  // A PNG signature followed by 5 MiB: over the per-image limit.
  std::string big = kPng;
  big.pop_back();
  big.pop_back();
  big += "AA";
  big += std::string((kMaxImageBytes / 3 + 1) * 4, 'A');
  EXPECT_TRUE(card_of(kOne, {{"ssmd_cover_images", "[\"" + big + "\"]"}}).images.empty());
  // Many small ones: at most kMaxImages.
  std::string many = "[";
  for (int i = 0; i < 20; ++i) many += std::string(i ? "," : "") + "\"" + kGif + "\"";
  EXPECT_EQ(card_of(kOne, {{"ssmd_cover_images", many + "]"}}).images.size(), kMaxImages);
}

}  // namespace
}  // namespace safetensors::testing
