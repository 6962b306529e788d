// JSON writer of the card (see card_json.h). Field names are those of index.d.ts' ModelCard.
#include "card/card_json.h"

#include <string_view>

#include "card/json_writer.h"

namespace safetensors {
namespace {

constexpr std::string_view kKindNames[] = {"model", "adapter", "embedding", "unknown"};

void write_family(Json& j, const Family& f) {
  j.begin_object();
  j.key("id");
  j.string(f.id);
  j.key("name");
  j.string(f.name);
  if (!f.variant.empty()) {
    j.key("variant");
    j.string(f.variant);
  }
  j.key("evidence");
  j.string_array(f.evidence);
  j.end_object();
}

void write_adapter(Json& j, const Adapter& a) {
  j.begin_object();
  j.key("type");
  j.string(a.type);
  j.key("format");
  j.string(a.format);
  j.key("rank");
  j.optional_number(a.rank);
  j.key("alpha");
  j.optional_number(a.alpha);
  j.key("targets");
  j.string_array(a.targets);
  if (!a.network_module.empty()) {
    j.key("networkModule");
    j.string(a.network_module);
  }
  if (!a.alpha_tensor.empty()) {
    j.key("alphaTensor");
    j.string(a.alpha_tensor);
  }
  j.end_object();
}

// { "F16": n, ... } in dtype table order.
void write_by_dtype(Json& j, const std::vector<std::pair<std::string, double>>& by_dtype) {
  j.begin_object();
  for (const auto& [dtype, n] : by_dtype) {
    j.key(dtype);
    j.number(n);
  }
  j.end_object();
}

void write_parameters(Json& j, const Parameters& p) {
  j.begin_object();
  j.key("total");
  j.number(p.total);
  j.key("byDtype");
  write_by_dtype(j, p.by_dtype);
  if (p.quantized) {
    j.key("quantized");
    j.begin_object();
    j.key("scheme");
    j.string(p.quantized->scheme);
    j.key("estimatedTotal");
    j.optional_number(p.quantized->estimated_total);
    j.key("note");
    j.string(p.quantized->note);
    j.end_object();
  }
  j.end_object();
}

void write_memory(Json& j, const Memory& m) {
  j.begin_object();
  j.key("bytes");
  j.number(m.bytes);
  j.key("byDtype");
  write_by_dtype(j, m.by_dtype);
  const std::pair<std::string_view, const std::optional<double>*> sizes[] = {
      {"at16Bit", &m.at_16_bit}, {"at8Bit", &m.at_8_bit}, {"at4Bit", &m.at_4_bit}};
  for (const auto& [name, value] : sizes) {
    j.key(name);
    j.optional_number(*value);
  }
  j.end_object();
}

void write_architecture(Json& j, const Architecture& a) {
  j.begin_object();
  const std::pair<std::string_view, const std::optional<double>*> fields[] = {
      {"layers", &a.layers}, {"hiddenSize", &a.hidden_size}, {"vocabSize", &a.vocab_size}, {"experts", &a.experts}};
  for (const auto& [name, value] : fields) {
    if (!*value) continue;
    j.key(name);
    j.number(**value);
  }
  j.end_object();
}

void write_embedding(Json& j, const EmbeddingVectors& e) {
  j.begin_object();
  j.key("vectors");
  j.number(e.vectors);
  j.key("width");
  j.number(e.width);
  j.end_object();
}

void write_civitai(Json& j, const CivitaiRef& c) {
  j.begin_object();
  j.key("air");
  j.optional_string(c.air);
  j.key("modelId");
  c.model_id ? j.number(*c.model_id) : j.null();
  j.key("versionId");
  c.version_id ? j.number(*c.version_id) : j.null();
  j.key("pageUrl");
  j.optional_string(c.page_url);
  j.key("byHashUrl");
  j.optional_string(c.by_hash_url);
  j.end_object();
}

void write_training(Json& j, const std::vector<std::pair<std::string, TrainingValue>>& values) {
  j.begin_object();
  for (const auto& [key, v] : values) {
    j.key(key);
    switch (v.type) {
      case TrainingValue::Type::Null: j.null(); break;
      case TrainingValue::Type::Bool: j.boolean(v.flag); break;
      case TrainingValue::Type::Number: j.number(v.number); break;
      case TrainingValue::Type::Text: j.string(v.text); break;
    }
  }
  j.end_object();
}

}  // namespace

void write_card_json(const ModelCard& card, std::string& out) {
  Json j(out);
  j.begin_object();
  j.key("kind");
  j.string(kKindNames[static_cast<int>(card.kind)]);
  j.key("family");
  card.family ? write_family(j, *card.family) : j.null();
  j.key("adapter");
  card.adapter ? write_adapter(j, *card.adapter) : j.null();
  j.key("parameters");
  write_parameters(j, card.parameters);
  j.key("memory");
  write_memory(j, card.memory);
  j.key("architecture");
  write_architecture(j, card.architecture);
  const std::pair<std::string_view, const std::optional<std::string>*> texts[] = {
      {"title", &card.title},   {"description", &card.description},
      {"author", &card.author}, {"license", &card.license},
      {"date", &card.date},     {"source", &card.source}};
  for (const auto& [name, value] : texts) {
    j.key(name);
    j.optional_string(*value);
  }
  j.key("triggerWords");
  j.begin_array();
  for (const TriggerWord& w : card.trigger_words) {
    j.begin_object();
    j.key("text");
    j.string(w.text);
    j.key("source");
    j.string(w.source);
    if (w.count) {
      j.key("count");
      j.number(*w.count);
    }
    j.end_object();
  }
  j.end_array();
  j.key("tags");
  j.begin_array();
  for (const Tag& t : card.tags) {
    j.begin_object();
    j.key("tag");
    j.string(t.tag);
    j.key("count");
    j.number(t.count);
    j.end_object();
  }
  j.end_array();
  j.key("baseModel");
  if (card.base_model) {
    j.begin_object();
    j.key("name");
    j.optional_string(card.base_model->name);
    j.key("hash");
    j.optional_string(card.base_model->hash);
    j.key("version");
    j.optional_string(card.base_model->version);
    j.end_object();
  } else {
    j.null();
  }
  j.key("training");
  card.training ? write_training(j, *card.training) : j.null();
  j.key("images");
  j.begin_array();
  for (const CardImage& im : card.images) {
    j.begin_object();
    j.key("mime");
    j.string(im.mime);
    j.key("source");
    j.string(im.source);
    j.key("bytes");
    j.number(im.bytes);
    j.key("dataUrl");
    j.string(im.data_url);
    j.end_object();
  }
  j.end_array();
  j.key("embeddedHashes");
  j.begin_array();
  for (const EmbeddedHash& h : card.embedded_hashes) {
    j.begin_object();
    j.key("key");
    j.string(h.key);
    j.key("value");
    j.string(h.value);
    j.key("covers");
    j.string(hash_cover_name(h.covers));
    j.end_object();
  }
  j.end_array();
  j.key("civitai");
  card.civitai ? write_civitai(j, *card.civitai) : j.null();
  j.key("embedding");
  card.embedding ? write_embedding(j, *card.embedding) : j.null();
  j.end_object();
}

}  // namespace safetensors
