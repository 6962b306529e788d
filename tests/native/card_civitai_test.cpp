// The card's Civitai reference: AIRs (https://developer.civitai.com/site/guide/air), civitai.com
// URLs and the by-hash URL of a claimed data hash.
#include <gtest/gtest.h>

#include "card/card_civitai.h"
#include "card_test_support.h"

namespace safetensors::testing {
namespace {

const std::vector<T> kOne = {{"w", {2, 2}}};

TEST(CardCivitai, ParsesAirs) {
  const auto full = parse_air("urn:air:sdxl:lora:civitai:328553@368189");
  ASSERT_TRUE(full);
  EXPECT_EQ(full->source, "civitai");
  EXPECT_EQ(full->id, "328553");
  EXPECT_EQ(full->version, "368189");
  EXPECT_EQ(full->text, "urn:air:sdxl:lora:civitai:328553@368189");
  // A file id and a format after the version; a sentence's full stop after it.
  const auto file = parse_air("URN:AIR:flux1:checkpoint:civitai:618692@691639+12345.safetensors. Enjoy");
  ASSERT_TRUE(file);
  EXPECT_EQ(file->version, "691639");
  EXPECT_EQ(file->text, "URN:AIR:flux1:checkpoint:civitai:618692@691639+12345.safetensors");
  // No ecosystem, another source, no version.
  const auto hf = parse_air("urn:air:model:huggingface:stabilityai/sdxl-vae");
  ASSERT_TRUE(hf);
  EXPECT_EQ(hf->source, "huggingface");
  EXPECT_EQ(hf->id, "stabilityai/sdxl-vae");
  EXPECT_EQ(hf->version, "");
  EXPECT_FALSE(parse_air("urn:air:civitai"));
  EXPECT_FALSE(parse_air("urn:air::"));
  EXPECT_FALSE(parse_air("urn:ai:sdxl:lora:civitai:1@2"));
}

TEST(CardCivitai, AirInAnyValueGivesModelVersionAndPage) {
  const ModelCard card =
      card_of(kOne, {{"ss_output_name", "x"},
                     {"modelspec.description",
                      "Made with urn:air:sd1:model:huggingface:a/b and "
                      "urn:air:sdxl:lora:civitai:328553@368189, then urn:air:sdxl:lora:civitai:1@2"}});
  ASSERT_TRUE(card.civitai);
  EXPECT_EQ(card.civitai->air, "urn:air:sdxl:lora:civitai:328553@368189");
  EXPECT_EQ(card.civitai->model_id, 328553);
  EXPECT_EQ(card.civitai->version_id, 368189);
  EXPECT_EQ(card.civitai->page_url, "https://civitai.com/models/328553?modelVersionId=368189");
  EXPECT_FALSE(card.civitai->by_hash_url);
}

TEST(CardCivitai, UrlsFillWhatTheAirLacks) {
  const ModelCard card =
      card_of(kOne, {{"ssmd_source", "https://civitai.com/models/4201/some-name?modelVersionId=130072"}});
  ASSERT_TRUE(card.civitai);
  EXPECT_FALSE(card.civitai->air);
  EXPECT_EQ(card.civitai->model_id, 4201);
  EXPECT_EQ(card.civitai->version_id, 130072);
  // A download URL names the version only; an AIR without version takes it.
  const ModelCard both = card_of(kOne, {{"a", "urn:air:sd1:lora:civitai:77"},
                                        {"b", "see https://www.civitai.com/models/99 (another model)"},
                                        {"c", "\"https://civitai.com/api/download/models/555\""}});
  ASSERT_TRUE(both.civitai);
  EXPECT_EQ(both.civitai->model_id, 77);
  EXPECT_EQ(both.civitai->version_id, 555);
  EXPECT_EQ(both.civitai->page_url, "https://civitai.com/models/77?modelVersionId=555");
  // Another host, a path that is not a model, ids that are not numbers.
  EXPECT_FALSE(card_of(kOne, {{"a",
                               "https://notcivitai.com/models/5 https://civitai.com/images/6 "
                               "https://civitai.com/models/12ab urn:air:sdxl:lora:civitai:x@1"}})
                   .civitai);
}

TEST(CardCivitai, ByHashUrlFromClaimedDataHash) {
  const std::string sha = "ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef0123456789";
  const ModelCard kohya = card_of(kOne, {{"sshs_model_hash", sha}});
  ASSERT_TRUE(kohya.civitai);
  EXPECT_EQ(kohya.civitai->by_hash_url, "https://civitai.com/api/v1/model-versions/by-hash/abcdef012345");
  EXPECT_FALSE(kohya.civitai->model_id);
  const ModelCard spec = card_of(kOne, {{"modelspec.hash_sha256", "0x" + sha}});
  ASSERT_TRUE(spec.civitai);
  EXPECT_EQ(spec.civitai->by_hash_url, "https://civitai.com/api/v1/model-versions/by-hash/abcdef012345");
  // A base model's hash names another file; a hash of 8 digits is too short for AutoV3.
  EXPECT_FALSE(card_of(kOne, {{"ss_sd_model_hash", sha}, {"sshs_model_hash", "abcdef01"}}).civitai);
}

TEST(CardCivitai, NothingToSay) {
  EXPECT_FALSE(card_of(kOne).civitai);
  EXPECT_FALSE(card_of(kOne, {{"modelspec.title", "civitai.com"}}).civitai);
}

}  // namespace
}  // namespace safetensors::testing
