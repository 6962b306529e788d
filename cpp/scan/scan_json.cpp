// The scan report as JSON (scan_json.h). Names and strings come from strangers' pickles: the
// writer escapes them, so the text is always valid JSON.
#include "scan/scan_json.h"

#include "card/json_writer.h"

namespace safetensors::scan {

void write_scan_json(const ScanReport& report, std::string_view file, std::string& out) {
  Json json(out);
  json.begin_object();
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
  json.end_object();
}

}  // namespace safetensors::scan
