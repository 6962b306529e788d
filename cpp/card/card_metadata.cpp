// Metadata conventions for the card (see card_metadata.h).
#include "card/card_metadata.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>
#include <unordered_map>

#include "simdjson.h"

namespace safetensors {
namespace {

std::optional<std::string> first_text(const MetadataView& meta, std::initializer_list<std::string_view> keys) {
  for (std::string_view key : keys) {
    if (const auto v = meta.text(key)) return std::string(*v);
  }
  return std::nullopt;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// Values of ss_* keys that are JSON documents: shown elsewhere in the card, not as training values.
constexpr std::array<std::string_view, 5> kJsonValued{"ss_tag_frequency", "ss_dataset_dirs", "ss_reg_dataset_dirs",
                                                      "ss_bucket_info", "ss_datasets"};

// Phrases that introduce a trigger word in a training comment, lowercase.
constexpr std::array<std::string_view, 8> kTriggerIntros{"trigger words are", "trigger words:", "trigger word is",
                                                         "trigger word:",     "trigger:",       "activation words:",
                                                         "activation word:",  "keyword:"};

// The phrase after an intro, up to the end of its line or sentence.
std::optional<std::string> comment_trigger(std::string_view comment) {
  const std::string low = lower(comment);
  for (std::string_view intro : kTriggerIntros) {
    const std::size_t at = low.find(intro);
    if (at == std::string::npos) continue;
    std::string_view rest = trim(comment.substr(at + intro.size()));
    if (!rest.empty() && (rest.front() == '"' || rest.front() == '\'')) {
      // A quoted phrase: up to the closing quote.
      const std::size_t close = rest.find(rest.front(), 1);
      rest = close == std::string_view::npos ? std::string_view() : rest.substr(1, close - 1);
    } else {
      // Up to the end of the line or sentence.
      rest = rest.substr(0, std::min(rest.find_first_of("\n;|"), rest.find(". ")));
      if (rest.ends_with('.')) rest.remove_suffix(1);
    }
    rest = trim(rest);
    if (!rest.empty() && rest.size() <= 200) return std::string(rest);
  }
  return std::nullopt;
}

class TriggerList {
 public:
  void add(std::string_view text, std::string_view source, std::optional<double> count = std::nullopt) {
    text = trim(text);
    if (text.empty() || text.size() > 200) return;
    std::string key = lower(text);
    for (TriggerWord& w : words_) {
      if (lower(w.text) == key) {
        if (!w.count) w.count = count;
        return;
      }
    }
    words_.push_back({std::string(text), std::string(source), count});
  }

  // Comma-separated items.
  void add_list(std::string_view list, std::string_view source) {
    while (!list.empty()) {
      const std::size_t comma = list.find(',');
      add(list.substr(0, comma), source);
      if (comma == std::string_view::npos) break;
      list.remove_prefix(comma + 1);
    }
  }

  std::vector<TriggerWord> take() { return std::move(words_); }
  std::vector<TriggerWord>& words() { return words_; }

 private:
  std::vector<TriggerWord> words_;
};

// How many images carry a tag, from the summed tags.
std::optional<double> tag_count(std::span<const Tag> tags, std::string_view text) {
  const std::string key = lower(text);
  for (const Tag& t : tags) {
    if (lower(t.tag) == key) return t.count;
  }
  return std::nullopt;
}

// kohya folder names "<repeats>_<class tokens>" (DreamBooth-style datasets).
std::optional<std::string_view> folder_class(std::string_view folder) {
  const std::size_t underscore = folder.find('_');
  if (underscore == std::string_view::npos || underscore == 0) return std::nullopt;
  for (std::size_t i = 0; i < underscore; ++i) {
    if (folder[i] < '0' || folder[i] > '9') return std::nullopt;
  }
  return folder.substr(underscore + 1);
}

}  // namespace

void read_descriptive_fields(const MetadataView& meta, ModelCard& card) {
  card.title = first_text(meta, {"modelspec.title", "ssmd_display_name", "ss_output_name"});
  card.description = first_text(meta, {"modelspec.description", "ssmd_description"});
  card.author = first_text(meta, {"modelspec.author", "ssmd_author"});
  card.license = first_text(meta, {"modelspec.license"});
  card.source = first_text(meta, {"ssmd_source"});
  card.date = first_text(meta, {"modelspec.date"});
  if (!card.date) {
    if (const auto finished = meta.get("ss_training_finished_at")) {
      if (const auto t = parse_number(*finished); t && *t > 0 && *t < 253402300800.0) card.date = iso_date(*t);
    }
  }
}

std::vector<Tag> summed_tags(const MetadataView& meta) {
  std::vector<Tag> tags;
  const auto json = meta.get("ss_tag_frequency");
  if (!json) return tags;
  simdjson::dom::parser parser;
  simdjson::dom::object folders;
  if (parser.parse(json->data(), json->size()).get(folders) != simdjson::SUCCESS) return tags;
  std::unordered_map<std::string_view, std::size_t> at;
  for (auto folder : folders) {
    simdjson::dom::object counts;
    if (folder.value.get(counts) != simdjson::SUCCESS) continue;
    for (auto tag : counts) {
      double n = 0;
      if (tag.value.get(n) != simdjson::SUCCESS || !std::isfinite(n)) continue;
      const std::string_view text = trim(tag.key);
      if (text.empty()) continue;
      const auto [it, added] = at.try_emplace(text, tags.size());
      if (added) tags.push_back({std::string(text), 0});
      tags[it->second].count += n;
    }
  }
  std::stable_sort(tags.begin(), tags.end(), [](const Tag& a, const Tag& b) { return a.count > b.count; });
  if (tags.size() > kMaxTags) tags.resize(kMaxTags);
  return tags;
}

std::vector<TriggerWord> trigger_words(const MetadataView& meta, std::span<const Tag> tags,
                                       std::span<const std::string> tokens) {
  TriggerList list;
  if (const auto phrase = meta.text("modelspec.trigger_phrase")) list.add(*phrase, "modelspec.trigger_phrase");
  if (const auto keywords = meta.text("ssmd_keywords")) list.add_list(*keywords, "ssmd_keywords");
  for (const std::string& token : tokens) list.add(token, "embedded token");
  if (const auto comment = meta.text("ss_training_comment")) {
    if (const auto phrase = comment_trigger(*comment)) list.add(*phrase, "ss_training_comment");
  }
  // Tags: those within 10% of the most frequent, at most five (a trigger word is usually in
  // every caption, so it leads the counts).
  for (std::size_t i = 0; i < tags.size() && i < 5 && tags[i].count >= 0.9 * tags[0].count; ++i) {
    list.add(tags[i].tag, "ss_tag_frequency", tags[i].count);
  }
  // Class tokens: ss_datasets[].subsets[].class_tokens, or the old folder names.
  if (const auto datasets = meta.get("ss_datasets")) {
    simdjson::dom::parser parser;
    simdjson::dom::array array;
    if (parser.parse(datasets->data(), datasets->size()).get(array) == simdjson::SUCCESS) {
      for (auto dataset : array) {
        simdjson::dom::array subsets;
        if (dataset["subsets"].get(subsets) != simdjson::SUCCESS) continue;
        for (auto subset : subsets) {
          std::string_view tokens_text;
          if (subset["class_tokens"].get(tokens_text) == simdjson::SUCCESS) list.add(tokens_text, "ss_datasets");
        }
      }
    }
  }
  if (const auto dirs = meta.get("ss_dataset_dirs")) {
    simdjson::dom::parser parser;
    simdjson::dom::object folders;
    if (parser.parse(dirs->data(), dirs->size()).get(folders) == simdjson::SUCCESS) {
      for (auto folder : folders) {
        if (const auto cls = folder_class(folder.key)) list.add(*cls, "ss_dataset_dirs");
      }
    }
  }
  for (TriggerWord& w : list.words()) {
    if (!w.count) w.count = tag_count(tags, w.text);
  }
  return list.take();
}

std::optional<BaseModel> base_model(const MetadataView& meta) {
  BaseModel b;
  b.name = first_text(meta, {"ss_sd_model_name"});
  b.hash = first_text(meta, {"ss_new_sd_model_hash", "ss_sd_model_hash"});
  b.version = first_text(meta, {"ss_base_model_version", "modelspec.architecture"});
  if (!b.version) {
    if (const auto v2 = meta.text("ss_v2")) b.version = *v2 == "True" ? "sd_v2" : "sd_v1";
  }
  if (!b.name && !b.hash && !b.version) return std::nullopt;
  return b;
}

std::optional<std::vector<std::pair<std::string, TrainingValue>>> training_values(const MetadataView& meta) {
  std::vector<std::pair<std::string, TrainingValue>> out;
  for (const auto& [key, value] : meta.entries()) {
    if (!key.starts_with("ss_")) continue;
    if (std::find(kJsonValued.begin(), kJsonValued.end(), key) != kJsonValued.end()) continue;
    TrainingValue v;
    const std::string_view t = trim(value);
    if (t == "True" || t == "False") {
      v.type = TrainingValue::Type::Bool;
      v.flag = t == "True";
    } else if (t == "None") {
      v.type = TrainingValue::Type::Null;
    } else if (const auto n = key.find("hash") == std::string::npos ? parse_number(t) : std::nullopt) {
      v.type = TrainingValue::Type::Number;
      v.number = *n;
    } else {
      v.type = TrainingValue::Type::Text;
      v.text = value;
    }
    out.emplace_back(key.substr(3), std::move(v));
  }
  if (out.empty()) return std::nullopt;
  return out;
}

}  // namespace safetensors
