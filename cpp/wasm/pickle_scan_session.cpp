// The scan in rounds (pickle_scan_session.h).
#include "wasm/pickle_scan_session.h"

#include <algorithm>

#include "card/json_writer.h"
#include "scan/scan_json.h"

namespace safetensors {

PickleScanSession::PickleScanSession(std::uint64_t size, std::string file_name)
    : cache_(size), file_name_(std::move(file_name)) {}

std::uintptr_t PickleScanSession::reserve(std::size_t length) {
  pending_ = {};
  pending_.resize(length);
  return reinterpret_cast<std::uintptr_t>(pending_.data());
}

void PickleScanSession::add(std::uint64_t offset) { cache_.add(offset, std::move(pending_)); }

std::string PickleScanSession::round() {
  scan::ReadOptions options;
  options.locate_storages = contents_;  // a scan reads the pickles and the directory only
  options.file_name = file_name_;
  options.inflate = [this](std::span<const std::uint8_t> input, std::uint64_t size) {
    std::vector<std::uint8_t> key(input.begin(), input.end());
    if (const auto found = inflated_.find(key); found != inflated_.end()) return found->second;
    const bool asked = std::any_of(waiting_.begin(), waiting_.end(), [&](const Waiting& w) { return w.input == key; });
    if (!asked) waiting_.push_back({std::move(key), size});
    return std::optional<std::vector<std::uint8_t>>();
  };
  scan::RangeRun run = scan::read_checkpoint_round(cache_, options);
  std::string json;
  if (run.complete && waiting_.empty()) {
    if (contents_)
      scan::write_checkpoint_json(run.checkpoint, file_name_, json);
    else
      scan::write_scan_json(run.checkpoint.report, file_name_, json);
    return json;
  }
  Json out(json);
  out.begin_object();
  out.key("misses");
  out.begin_array();
  for (const scan::ByteRange& miss : run.misses) {
    out.begin_array();
    out.number(static_cast<double>(miss.offset));
    out.number(static_cast<double>(miss.length));
    out.end_array();
  }
  out.end_array();
  out.key("inflate");
  out.number(static_cast<double>(waiting_.size()));
  out.end_object();
  return json;
}

const std::vector<std::uint8_t>* PickleScanSession::inflate_input() const {
  return waiting_.empty() ? nullptr : &waiting_.front().input;
}

std::uint64_t PickleScanSession::inflate_size() const { return waiting_.empty() ? 0 : waiting_.front().size; }

void PickleScanSession::inflated(bool ok) {
  if (waiting_.empty()) return;
  std::optional<std::vector<std::uint8_t>> result;
  if (ok) result = std::move(pending_);
  inflated_[std::move(waiting_.front().input)] = std::move(result);
  waiting_.erase(waiting_.begin());
  pending_ = {};
}

}  // namespace safetensors
