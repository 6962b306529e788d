// Shape checks of adapted modules (see adapter_shapes.h).
#include "adapter/adapter_shapes.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>
#include <vector>

#include "adapter/part_dims.h"

namespace safetensors {
namespace {

std::string shape_text(std::span<const std::uint64_t> shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

std::uint64_t product(std::span<const std::uint64_t> dims) {
  return std::accumulate(dims.begin(), dims.end(), std::uint64_t{1}, std::multiplies<>());
}

std::uint64_t dim(std::span<const std::uint64_t> s, std::size_t i) { return i < s.size() ? s[i] : 0; }

// The name of a part for messages: its suffix without the leading separator.
std::string_view part_label(const ModulePart& p) {
  std::string_view s = p.part->suffix;
  return s.substr(1);
}

class Checker {
 public:
  explicit Checker(const WeightShape& w) : w_(w) {
    out_ = w.rows ? w.rows : dim(w.shape, 0);
    in_ = dim(w.shape, 1);
    in_total_ = w.shape.size() >= 2 ? product(w.shape.subspan(1)) : 0;
    if (conv1d_name(w.name) && w.shape.size() == 2 && w.rows == 0)
      std::swap(out_, in_), in_total_ = in_, conv1d_ = true;
  }

  std::string check(std::span<const ModulePart> parts) {
    transpose_if_conv1d(parts);
    std::optional<std::uint64_t> rank;
    for (const ModulePart& p : parts) {
      const RoleDims& r = role_dims(p.part->role);
      const PartDims d = part_dims(r, p.shape, InputSpan::Whole);
      if (r.slot == DimSlot::Module) {
        if (r.rank != kNoDim && !rank_agrees(rank, d.rank, p)) return reason_;
        if (r.out != kNoDim && r.in != kNoDim) {
          if (d.out != out_ || d.in != in_total_) return fail(p, "it is not the base weight's shape");
        } else if (r.in != kNoDim && d.in != in_) {
          return bad_in(p, d.in);
        } else if (r.out != kNoDim && d.out != out_) {
          return bad_out(p, d.out);
        }
        if (const std::string_view why = kernel_mismatch(r, p.shape); !why.empty()) return fail(p, why);
      } else {
        std::uint64_t& out = r.slot == DimSlot::First ? out1_ : out2_;
        std::uint64_t& in = r.slot == DimSlot::First ? in1_ : in2_;
        if (r.out != kNoDim) out = d.out;
        if (r.in != kNoDim) in = d.in;
      }
      if (p.part->role == PartRole::Scale && product(p.shape) != out_ && product(p.shape) != in_)
        return fail(p, "its size is neither the weight's out nor in");
      if (p.part->role == PartRole::Other)
        tucker_ = tucker_ || p.part->suffix.ends_with("t1") || p.part->suffix.ends_with("t2");
    }
    return factors(parts);
  }

 private:
  // LoHa: each pair's product has the weight's shape; LoKr: the Kronecker product does.
  std::string factors(std::span<const ModulePart> parts) {
    if (out1_ == 0 && out2_ == 0) return {};
    const bool lokr =
        std::any_of(parts.begin(), parts.end(), [](const ModulePart& p) { return p.part->type == "lokr"; });
    const std::uint64_t out = lokr ? out1_ * out2_ : out1_;
    if (out != out_ || (!lokr && out2_ != out_)) {
      return "its factors give " + std::to_string(lokr ? out : (out1_ != out_ ? out1_ : out2_)) +
             " outputs; the base's " + std::string(w_.name) + " " + shape_text(w_.shape) + " has " +
             std::to_string(out_);
    }
    if (tucker_) return {};  // a Tucker core holds the kernel: inputs not read from the factors alone
    const std::uint64_t in = lokr ? in1_ * in2_ : in1_;
    if ((in1_ || in2_) && (in != in_total_ || (!lokr && in2_ != in_total_))) {
      return "its factors read " + std::to_string(lokr ? in : (in1_ != in_total_ ? in1_ : in2_)) +
             " inputs; the base's " + std::string(w_.name) + " " + shape_text(w_.shape) + " takes " +
             std::to_string(in_total_);
    }
    return {};
  }

  // GPT-2's Conv1D stores its weight [in, out] (transformers' pytorch_utils.Conv1D); PEFT's
  // fan_in_fan_out adapts it as a linear [out, in]: a pair that fits the weight only transposed.
  // Weights named as GPT-2's Conv1D modules are read [in, out] from the start (so that a
  // mismatch names their real inputs); any other 2-D weight is when only that fits.
  static bool conv1d_name(std::string_view name) {
    for (std::string_view module : {".c_attn.weight", ".c_proj.weight", ".c_fc.weight", ".q_attn.weight"})
      if (name.ends_with(module)) return true;
    return false;
  }
  void transpose_if_conv1d(std::span<const ModulePart> parts) {
    if (conv1d_ || w_.shape.size() != 2 || w_.rows != 0 || out_ == in_) return;
    std::uint64_t in = 0, out = 0;
    for (const ModulePart& p : parts) {
      const PartDims d = part_dims(role_dims(p.part->role), p.shape, InputSpan::Channels);
      if (p.part->role == PartRole::Down) in = d.in;
      if (p.part->role == PartRole::Up) out = d.out;
    }
    if (in == out_ && out == in_) std::swap(out_, in_), in_total_ = in_;
  }

  // A part with a kernel (a LoCon down) must have the base's; without one, the base may not.
  std::string_view kernel_mismatch(const RoleDims& r, std::span<const std::uint64_t> s) const {
    if (r.kernel == kNoDim) return {};
    if (wide_kernel(r, s) && (w_.shape.size() != 4 || s[r.kernel] != w_.shape[2] || s[r.kernel + 1] != w_.shape[3]))
      return "its kernel does not match the base weight's";
    if (s.size() < r.kernel + 2u && w_.shape.size() == 4 && (w_.shape[2] > 1 || w_.shape[3] > 1))
      return "the base weight is a convolution with a kernel larger than 1x1";
    return {};
  }

  bool rank_agrees(std::optional<std::uint64_t>& rank, std::uint64_t r, const ModulePart& p) {
    if (rank && *rank != r) {
      reason_ =
          std::string(part_label(p)) + " has rank " + std::to_string(r) + ", its pair rank " + std::to_string(*rank);
      return false;
    }
    rank = r;
    return true;
  }

  std::string base_text() const {
    std::string s = "the base's " + std::string(w_.name) + " " + shape_text(w_.shape);
    if (conv1d_) s += " (a Conv1D weight, [in, out])";
    if (w_.rows)
      s += " (its rows " + std::to_string(w_.row_offset) + " to " + std::to_string(w_.row_offset + w_.rows - 1) +
           ", a part of a fused weight: " + std::to_string(out_) + " rows)";
    return s;
  }

  std::string bad_in(const ModulePart& p, std::uint64_t in) {
    return std::string(part_label(p)) + " " + shape_text(p.shape) + " reads " + std::to_string(in) + " inputs; " +
           base_text() + " takes " + std::to_string(in_);
  }
  std::string bad_out(const ModulePart& p, std::uint64_t out) {
    return std::string(part_label(p)) + " " + shape_text(p.shape) + " gives " + std::to_string(out) + " outputs; " +
           base_text() + " has " + std::to_string(out_);
  }
  std::string fail(const ModulePart& p, std::string_view why) {
    return std::string(part_label(p)) + " " + shape_text(p.shape) + ": " + std::string(why) + " (" + base_text() + ")";
  }

  const WeightShape& w_;
  std::uint64_t out_ = 0, in_ = 0, in_total_ = 0;
  std::uint64_t out1_ = 0, in1_ = 0, out2_ = 0, in2_ = 0;
  bool tucker_ = false;
  bool conv1d_ = false;  // the weight is read [in, out]
  std::string reason_;
};

}  // namespace

std::string shape_mismatch(std::span<const ModulePart> parts, const WeightShape& weight) {
  if (weight.shape.size() < 2)
    return "the base's " + std::string(weight.name) + " " + shape_text(weight.shape) + " is not a matrix";
  return Checker(weight).check(parts);
}

}  // namespace safetensors
