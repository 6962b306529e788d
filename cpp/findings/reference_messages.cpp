// Messages for rejected files, built with the formatting helpers of message_text.h.
#include "findings/reference_messages.h"

#include "findings/message_text.h"
#include "format/header_prefix.h"

namespace safetensors {

namespace {

// "the file has N bytes, the header needs M".
std::string cut_short_counts(std::uint64_t file_size, std::uint64_t needed) {
  return "the file has " + count_bytes(file_size) + ", the header needs " + group_digits(needed);
}

}  // namespace

std::string prefix_message(ReferenceError error, std::uint64_t n, std::uint64_t file_size, bool header_starts) {
  switch (error) {
    case ReferenceError::HeaderTooSmall:
      return "the file is only " + count_bytes(file_size) +
             " long, shorter than the 8-byte header length that starts every safetensors file; "
             "it is empty or cut off";
    case ReferenceError::HeaderTooLarge:
      return "the first 8 bytes give a header length of " + count_bytes(n) +
             ", above the reference loader's limit of 100,000,000; this is not a safetensors file, "
             "or its first bytes are damaged";
    default: {
      // 8 + n > file_size here, so file_size >= 8 and 8 + n cannot overflow (n <= 100,000,000).
      const std::string counts = cut_short_counts(file_size, kLengthPrefixSize + n);
      return header_starts ? counts + ": the download looks cut short; download or copy it again"
                           : counts +
                                 " (a header length read from its first 8 bytes): the download looks cut short, "
                                 "or this is not a safetensors file";
    }
  }
}

std::string invalid_utf8_message(std::size_t offset) {
  return "the header is not valid UTF-8 (first bad byte at offset " + group_digits(offset) +
         " of the header); the file is damaged or is not a safetensors file";
}

std::string json_message(std::string_view reason) {
  return "the header is not valid safetensors JSON: " + std::string(reason);
}

std::string layout_message(const LayoutResult& r, const TensorEntry& t) {
  const std::string name = "tensor " + quote_name(t.name);
  const std::string offsets = "[" + std::to_string(t.begin) + ", " + std::to_string(t.end) + "]";
  const std::string what = std::string(dtype_name(t.dtype)) + ", shape " + format_shape(t.shape);
  switch (r.error) {
    case ReferenceError::InvalidOffset:
      if (t.begin == r.expected_begin) return name + " has data_offsets " + offsets + " that end before they begin";
      return name + " has data_offsets " + offsets + " but must start at byte " + std::to_string(r.expected_begin) +
             (r.expected_begin == 0 ? " (the start of the data)" : " (where the previous tensor ends)") +
             ": tensors must tile the data section from byte 0 with no gaps or overlaps";
    case ReferenceError::ValidationOverflow:
      return name + " (" + what + ") has " + (r.bits_overflowed ? "a size in bits" : "an element count") +
             " too large for 64 bits; the header is corrupt or hostile";
    case ReferenceError::MisalignedSlice:
      return name + " (" + what + ") has " + group_digits(r.elements) + " elements of " +
             std::to_string(dtype_bits(t.dtype)) + " bits, not a whole number of bytes";
    default: {
      const std::uint64_t need = r.elements * dtype_bits(t.dtype) / 8;
      return name + " (" + what + ") needs " + count_bytes(need) + ", but its data_offsets " + offsets + " span " +
             count_bytes(t.end - t.begin);
    }
  }
}

std::string size_message(std::optional<std::uint64_t> expected, std::uint64_t file_size) {
  if (!expected) {
    return "the tensors claim more data than any file can hold (offsets near 2^64); the header is corrupt";
  }
  if (file_size > *expected) {
    const std::uint64_t extra = file_size - *expected;
    return "file is longer than its tensors: " + group_digits(extra) + (extra == 1 ? " extra byte" : " extra bytes") +
           " after the last tensor; it may be truncated or appended to";
  }
  return cut_short_counts(file_size, *expected) + ": the download looks cut short (" +
         count_bytes(*expected - file_size) + " missing at the end); download or copy it again";
}

}  // namespace safetensors
