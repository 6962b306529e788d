// Parses a .npy header (npy_header.h). The dict literal is read for its three keys only, as
// numpy/lib/format.py writes them; anything else there is ignored.
#include "container/npy_header.h"

#include <algorithm>
#include <charconv>
#include <string_view>

#include "container/zip_directory.h"

namespace safetensors::container {
namespace {

// The text after `'key':` with leading spaces gone, or empty.
std::string_view value_of(std::string_view dict, std::string_view key) {
  const std::string quoted = "'" + std::string(key) + "'";
  std::size_t at = dict.find(quoted);
  if (at == std::string_view::npos) return {};
  at = dict.find(':', at + quoted.size());
  if (at == std::string_view::npos) return {};
  std::string_view rest = dict.substr(at + 1);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  return rest;
}

}  // namespace

bool is_npy(std::span<const std::uint8_t> bytes) {
  static constexpr std::uint8_t kMagic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
  return bytes.size() >= 6 && std::equal(std::begin(kMagic), std::end(kMagic), bytes.begin());
}

std::optional<NpyHeader> read_npy_header(std::span<const std::uint8_t> bytes) {
  if (!is_npy(bytes) || bytes.size() < 10) return std::nullopt;
  const int major = bytes[6];
  const int width = major == 1 ? 2 : 4;
  if (major < 1 || major > 3 || bytes.size() < 8u + width) return std::nullopt;
  const std::uint64_t length = read_le(bytes, 8, width);
  NpyHeader h;
  h.data_offset = 8 + width + length;
  if (h.data_offset > bytes.size()) return std::nullopt;
  const std::string_view dict(reinterpret_cast<const char*>(bytes.data() + 8 + width), length);
  std::string_view descr = value_of(dict, "descr");
  if (descr.size() < 2 || descr.front() != '\'') return std::nullopt;
  const std::size_t close = descr.find('\'', 1);
  if (close == std::string_view::npos) return std::nullopt;
  h.descr = std::string(descr.substr(1, close - 1));
  h.object = h.descr == "|O" || h.descr == "O" || h.descr == "<O" || h.descr == ">O";
  const std::string_view order = value_of(dict, "fortran_order");
  if (!order.starts_with("True") && !order.starts_with("False")) return std::nullopt;
  h.fortran_order = order.starts_with("True");
  std::string_view shape = value_of(dict, "shape");
  if (shape.empty() || shape.front() != '(') return std::nullopt;
  shape.remove_prefix(1);
  while (!shape.empty() && shape.front() != ')') {
    while (!shape.empty() && (shape.front() == ' ' || shape.front() == ',')) shape.remove_prefix(1);
    if (!shape.empty() && shape.front() == ')') break;
    std::uint64_t dim = 0;
    auto [end, ec] = std::from_chars(shape.data(), shape.data() + shape.size(), dim);
    if (ec != std::errc()) return std::nullopt;
    h.shape.push_back(dim);
    shape.remove_prefix(static_cast<std::size_t>(end - shape.data()));
  }
  if (shape.empty()) return std::nullopt;
  return h;
}

}  // namespace safetensors::container
