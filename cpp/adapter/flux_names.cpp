// The FLUX name table (see flux_names.h).
#include "adapter/flux_names.h"

#include <charconv>
#include <utility>

namespace safetensors {
namespace {

// How a BFL weight holds diffusers' modules: whole, as three equal row parts (q, k, v), or as
// single blocks' linear1: q, k, v of `in` rows each, then the MLP's input projection.
enum class Fused : std::uint8_t { Whole, Thirds, QkvMlp };

struct Entry {
  std::string_view bfl;
  Fused fused;
  std::string_view diffusers[4];
};

// Inside a double block: {BFL, how, diffusers}. The image stream keeps diffusers' plain names,
// the text stream its `add_`/`_context` ones.
constexpr Entry kDouble[] = {
    {"img_mod.lin", Fused::Whole, {"norm1.linear"}},
    {"txt_mod.lin", Fused::Whole, {"norm1_context.linear"}},
    {"img_attn.qkv", Fused::Thirds, {"attn.to_q", "attn.to_k", "attn.to_v"}},
    {"txt_attn.qkv", Fused::Thirds, {"attn.add_q_proj", "attn.add_k_proj", "attn.add_v_proj"}},
    {"img_attn.proj", Fused::Whole, {"attn.to_out.0"}},
    {"txt_attn.proj", Fused::Whole, {"attn.to_add_out"}},
    {"img_mlp.0", Fused::Whole, {"ff.net.0.proj"}},
    {"img_mlp.2", Fused::Whole, {"ff.net.2"}},
    {"txt_mlp.0", Fused::Whole, {"ff_context.net.0.proj"}},
    {"txt_mlp.2", Fused::Whole, {"ff_context.net.2"}},
};

// Inside a single block. linear2 reads the attention's output and the MLP's, concatenated
// (hidden + mlp inputs): it is diffusers' proj_out whole.
constexpr Entry kSingle[] = {
    {"modulation.lin", Fused::Whole, {"norm.linear"}},
    {"linear1", Fused::QkvMlp, {"attn.to_q", "attn.to_k", "attn.to_v", "proj_mlp"}},
    {"linear2", Fused::Whole, {"proj_out"}},
};

// Outside the blocks. final_layer.adaLN_modulation.1 is norm_out.linear with its two halves of
// rows (shift, scale) swapped: the same shape, and loaders swap a LoRA's rows likewise.
constexpr Entry kTop[] = {
    {"img_in", Fused::Whole, {"x_embedder"}},
    {"txt_in", Fused::Whole, {"context_embedder"}},
    {"time_in.in_layer", Fused::Whole, {"time_text_embed.timestep_embedder.linear_1"}},
    {"time_in.out_layer", Fused::Whole, {"time_text_embed.timestep_embedder.linear_2"}},
    {"vector_in.in_layer", Fused::Whole, {"time_text_embed.text_embedder.linear_1"}},
    {"vector_in.out_layer", Fused::Whole, {"time_text_embed.text_embedder.linear_2"}},
    {"guidance_in.in_layer", Fused::Whole, {"time_text_embed.guidance_embedder.linear_1"}},
    {"guidance_in.out_layer", Fused::Whole, {"time_text_embed.guidance_embedder.linear_2"}},
    {"final_layer.linear", Fused::Whole, {"proj_out"}},
    {"final_layer.adaLN_modulation.1", Fused::Whole, {"norm_out.linear"}},
};

struct Block {
  std::string_view bfl, diffusers;
  std::span<const Entry> entries;
};
constexpr Block kBlocks[] = {
    {"double_blocks.", "transformer_blocks.", kDouble},
    {"single_blocks.", "single_transformer_blocks.", kSingle},
    {"", "", kTop},
};

int parts_of(Fused f) { return f == Fused::Whole ? 1 : f == Fused::Thirds ? 3 : 4; }

// `name` = prefix + digits + "." + rest: the block's number text and the rest.
std::optional<std::pair<std::string_view, std::string_view>> numbered(std::string_view name, std::string_view prefix) {
  if (!name.starts_with(prefix)) return std::nullopt;
  name.remove_prefix(prefix.size());
  const std::size_t dot = name.find('.');
  if (dot == 0 || dot == std::string_view::npos) return std::nullopt;
  unsigned n = 0;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + dot, n);
  if (ec != std::errc() || end != name.data() + dot) return std::nullopt;
  return std::pair(name.substr(0, dot), name.substr(dot + 1));
}

// The block a name is in and the name inside it ("" number for the top level).
struct Located {
  const Block* block = nullptr;
  std::string_view number, rest;
};

template <class Name>
std::optional<Located> locate(std::string_view name, Name name_in) {
  for (const Block& b : kBlocks) {
    if (name_in(b).empty()) return Located{&b, {}, name};
    if (const auto found = numbered(name, name_in(b))) return Located{&b, found->first, found->second};
  }
  return std::nullopt;
}

std::string in_block(std::string_view prefix, std::string_view number, std::string_view rest) {
  std::string s(prefix);
  if (!number.empty()) (s += number) += '.';
  return s += rest;
}

}  // namespace

std::vector<FluxRows> flux_bfl_to_diffusers(std::string_view bfl, std::span<const std::uint64_t> shape) {
  std::vector<FluxRows> out;
  const auto at = locate(bfl, [](const Block& b) { return b.bfl; });
  if (!at || shape.size() != 2) return out;
  for (const Entry& e : at->block->entries) {
    if (e.bfl != at->rest) continue;
    const std::uint64_t rows = shape[0], in = shape[1];
    const auto name = [&](int i) { return in_block(at->block->diffusers, at->number, e.diffusers[i]); };
    switch (e.fused) {
      case Fused::Whole: out.push_back({name(0), 0, 0}); break;
      case Fused::Thirds:
        if (rows % 3 != 0) break;
        for (int i = 0; i < 3; ++i) out.push_back({name(i), i * (rows / 3), rows / 3});
        break;
      case Fused::QkvMlp:  // q, k, v as wide as the block's input, the MLP the rest
        if (rows <= 3 * in) break;
        for (int i = 0; i < 3; ++i) out.push_back({name(i), i * in, in});
        out.push_back({name(3), 3 * in, rows - 3 * in});
        break;
    }
  }
  return out;
}

std::optional<FluxPart> flux_diffusers_to_bfl(std::string_view diffusers) {
  const auto at = locate(diffusers, [](const Block& b) { return b.diffusers; });
  if (!at) return std::nullopt;
  for (const Entry& e : at->block->entries) {
    for (int i = 0; i < parts_of(e.fused); ++i) {
      if (e.diffusers[i] == at->rest)
        return FluxPart{in_block(at->block->bfl, at->number, e.bfl), i, parts_of(e.fused)};
    }
  }
  return std::nullopt;
}

}  // namespace safetensors
