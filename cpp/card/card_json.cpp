// JSON writer of the card (see card_json.h). Field names are those of index.d.ts' ModelCard.
#include "card/card_json.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <string_view>

namespace safetensors {
namespace {

constexpr std::string_view kKindNames[] = {"model", "adapter", "embedding", "unknown"};

class Json {
 public:
  explicit Json(std::string& out) : out_(out) {}

  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }

  void key(std::string_view k) {
    comma();
    write_json_string(k, out_);
    out_ += ':';
    after_key_ = true;
  }

  void string(std::string_view s) {
    comma();
    write_json_string(s, out_);
  }

  void number(double v) {
    comma();
    if (!std::isfinite(v)) {
      out_ += "null";
      return;
    }
    char buf[32];
    // Integers (counts, sizes) exactly; other values with round-trip precision.
    if (v == std::floor(v) && std::fabs(v) < 9e15) {
      const auto r = std::to_chars(buf, buf + sizeof buf, static_cast<long long>(v));
      out_.append(buf, r.ptr);
      return;
    }
    const int n = std::snprintf(buf, sizeof buf, "%.17g", v);
    out_.append(buf, static_cast<std::size_t>(n));
  }

  void boolean(bool v) {
    comma();
    out_ += v ? "true" : "false";
  }

  void null() {
    comma();
    out_ += "null";
  }

  void optional_string(const std::optional<std::string>& s) { s ? string(*s) : null(); }
  void optional_number(const std::optional<double>& v) { v ? number(*v) : null(); }

  void string_array(const std::vector<std::string>& items) {
    begin_array();
    for (const std::string& s : items) string(s);
    end_array();
  }

 private:
  void comma() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (need_comma_) out_ += ',';
    need_comma_ = true;
  }
  void open(char c) {
    comma();
    out_ += c;
    need_comma_ = false;
  }
  void close(char c) {
    out_ += c;
    need_comma_ = true;
  }

  std::string& out_;
  bool need_comma_ = false;
  bool after_key_ = false;
};

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

void write_parameters(Json& j, const Parameters& p) {
  j.begin_object();
  j.key("total");
  j.number(p.total);
  j.key("byDtype");
  j.begin_object();
  for (const auto& [dtype, n] : p.by_dtype) {
    j.key(dtype);
    j.number(n);
  }
  j.end_object();
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

void write_json_string(std::string_view s, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  std::size_t run = 0;  // start of the run of characters that need no escape
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.substr(run, i - run));
    run = i + 1;
    out += '\\';
    switch (c) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '\n': out += 'n'; break;
      case '\r': out += 'r'; break;
      case '\t': out += 't'; break;
      default:
        out += "u00";
        out += kHex[c >> 4];
        out += kHex[c & 15];
    }
  }
  out.append(s.substr(run));
  out += '"';
}

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
  j.end_object();
}

}  // namespace safetensors
