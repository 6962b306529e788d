// Messages of the data scan's findings.
#include "findings/scan_findings.h"

#include "findings/message_text.h"

namespace safetensors {

void ScanTally::add(std::size_t index, Dtype dtype, const ValueCounts& counts) {
  if (counts.nan + counts.pos_inf + counts.neg_inf != 0 && nonfinite_tensors_++ == 0) {
    first_nonfinite_ = index;
    first_nonfinite_counts_ = counts;
  }
  // A mask of all false is a normal value, not a weight that was not saved.
  if (dtype != Dtype::BOOL && counts.all_zero() && zero_tensors_++ == 0) first_zero_ = index;
}

std::vector<Finding> ScanTally::findings(std::string_view first_nonfinite_name,
                                         std::string_view first_zero_name) const {
  std::vector<Finding> out;
  if (nonfinite_tensors_ != 0) {
    const ValueCounts& c = first_nonfinite_counts_;
    out.push_back({FindingCode::NonFiniteValues,
                   tensors_verb(nonfinite_tensors_, "holds", "hold") +
                       " NaN or infinite values (first: " + quote_name(first_nonfinite_name) + ", " +
                       group_digits(c.nan) + " NaN, " + group_digits(c.pos_inf) + " +inf, " + group_digits(c.neg_inf) +
                       " -inf); computations with them give NaN. The weights are damaged or training diverged: "
                       "check the source of the file",
                   std::string(first_nonfinite_name)});
  }
  if (zero_tensors_ != 0) {
    out.push_back({FindingCode::AllZeroTensor,
                   tensors_verb(zero_tensors_, "is", "are") + " all zeros (first: " + quote_name(first_zero_name) +
                       "); normal for some biases and buffers, but a weight matrix of zeros was probably not "
                       "saved properly",
                   std::string(first_zero_name)});
  }
  return out;
}

}  // namespace safetensors
