// The scan report as JSON (scan_json.h). Names and strings come from strangers' pickles: the
// writer escapes them, and bytes that are not UTF-8 (a protocol 0 GLOBAL's or STRING's raw
// bytes) become U+FFFD, so the text is always valid JSON in UTF-8.
#include "scan/scan_json.h"

#include <cstdint>
#include <optional>
#include <span>

#include "card/json_writer.h"
#include "format/utf8.h"

namespace safetensors::scan {

namespace {

/// Replaces each byte of `out` from `from` on that starts no well-formed UTF-8 sequence with
/// U+FFFD (JSON's own characters are ASCII, so only strings' contents change).
void replace_invalid_utf8(std::string& out, std::size_t from) {
  const auto invalid_from = [&out](std::size_t at) {
    return find_invalid_utf8(std::span(reinterpret_cast<const std::uint8_t*>(out.data()) + at, out.size() - at));
  };
  std::optional<std::size_t> bad = invalid_from(from);
  if (!bad) return;  // the common case: nothing to replace
  std::string fixed(out, 0, from);
  std::size_t at = from;
  for (; bad; bad = invalid_from(at)) {
    fixed.append(out, at, *bad);
    fixed += "\xEF\xBF\xBD";
    at += *bad + 1;
  }
  fixed.append(out, at);
  out = std::move(fixed);
}

// The report's fields, inside an object the caller opened.
void write_report_fields(const ScanReport& report, std::string_view file, Json& json) {
  json.key("file");
  json.string(file);
  json.key("format");
  json.string(format_name(report.format));
  json.key("verdict");
  json.string(verdict_name(report.verdict));
  json.key("globals");
  json.begin_array();
  for (const GlobalUse& use : report.globals) {
    json.begin_object();
    json.key("module");
    json.string(use.module);
    json.key("name");
    json.string(use.name);
    json.key("safety");
    json.string(safety_name(use.safety));
    json.key("count");
    json.number(static_cast<double>(use.count));
    json.end_object();
  }
  json.end_array();
  json.key("findings");
  json.begin_array();
  for (const ScanFinding& finding : report.findings) {
    json.begin_object();
    json.key("code");
    json.string(finding.code);
    json.key("message");
    json.string(finding.message);
    json.key("where");
    json.string(finding.where);
    json.end_object();
  }
  json.end_array();
}

void write_int_array(const std::vector<std::int64_t>& values, Json& json) {
  json.begin_array();
  for (const std::int64_t v : values) json.number(static_cast<double>(v));
  json.end_array();
}

void write_tensor(const pickle::TensorRecord& t, Json& json) {
  const pickle::TorchDtypeInfo& dtype = pickle::kTorchDtypes[t.dtype];
  json.begin_object();
  json.key("name");
  json.string(t.name);
  json.key("storage");
  json.string(t.storage_key);
  json.key("torchDtype");
  json.string(dtype.name);
  json.key("dtype");
  if (dtype.safetensors)
    json.string(dtype_name(*dtype.safetensors));
  else
    json.null();
  json.key("elementSize");
  json.number(dtype.element_size);
  json.key("storageOffset");
  json.number(static_cast<double>(t.storage_offset));
  json.key("shape");
  write_int_array(t.size, json);
  json.key("stride");
  write_int_array(t.stride, json);
  json.key("parameter");
  json.boolean(t.parameter);
  json.end_object();
}

// { name, value }: a plain value as JSON (an int beyond 2^53 loses precision, as in JavaScript).
void write_object(const pickle::PickleResult& p, const pickle::ObjectRecord& o, Json& json) {
  const pickle::Value& v = p.at(o.value);
  json.begin_object();
  json.key("name");
  json.string(o.name);
  json.key("value");
  switch (v.kind) {
    case pickle::Kind::Bool: json.boolean(v.integer != 0); break;
    case pickle::Kind::Int: json.number(static_cast<double>(v.integer)); break;
    case pickle::Kind::Float: json.number(v.real); break;
    case pickle::Kind::Str: json.string(v.text); break;
    default: json.null(); break;
  }
  json.end_object();
}

}  // namespace

void write_scan_json(const ScanReport& report, std::string_view file, std::string& out) {
  const std::size_t from = out.size();
  Json json(out);
  json.begin_object();
  write_report_fields(report, file, json);
  json.end_object();
  replace_invalid_utf8(out, from);
}

void write_checkpoint_json(const Checkpoint& checkpoint, std::string_view file, std::string& out) {
  const std::size_t from = out.size();
  Json json(out);
  json.begin_object();
  write_report_fields(checkpoint.report, file, json);
  json.key("tensors");
  json.begin_array();
  for (const pickle::TensorRecord& t : checkpoint.contents.tensors) write_tensor(t, json);
  json.end_array();
  json.key("objects");
  json.begin_array();
  for (const pickle::ObjectRecord& o : checkpoint.contents.objects) write_object(checkpoint.data, o, json);
  json.end_array();
  json.key("objectsLeftOut");
  json.number(static_cast<double>(checkpoint.contents.objects_left_out));
  json.key("unreadTensors");
  json.begin_array();
  for (const pickle::TensorFinding& f : checkpoint.contents.findings) {
    const auto& info = pickle::kTensorIssues[static_cast<std::size_t>(f.issue)];
    json.begin_object();
    json.key("name");
    json.string(f.name);
    json.key("code");
    json.string(info.name);
    json.key("message");
    json.string(info.message);
    json.end_object();
  }
  json.end_array();
  json.key("storages");
  json.begin_array();
  for (const StorageLocation& s : checkpoint.storages) {
    json.begin_object();
    json.key("key");
    json.string(s.key);
    json.key("offset");
    json.number(static_cast<double>(s.offset));
    json.key("bytes");
    json.number(static_cast<double>(s.bytes));
    json.key("stored");
    json.boolean(s.stored);
    json.key("size");
    json.number(static_cast<double>(s.size));
    json.key("crc32");
    json.number(static_cast<double>(s.crc32));
    json.end_object();
  }
  json.end_array();
  json.key("byteorder");
  json.string(checkpoint.byteorder);
  json.end_object();
  replace_invalid_utf8(out, from);
}

}  // namespace safetensors::scan
