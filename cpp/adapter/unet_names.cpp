// The UNet and OpenCLIP name tables (see unet_names.h).
#include "adapter/unet_names.h"

#include <charconv>
#include <utility>
#include <vector>

namespace safetensors {
namespace {

// SD 1.x, 2.x and XL all have two resnets per UNet level (diffusers' layers_per_block = 2), so
// level x's resnets i = 0, 1 are LDM input block 1 + 3x + i and its downsampler block 3 + 3x;
// on the way up, three resnets per level: output block 3x + i.
constexpr int kPerLevel = 3;

// Modules outside the blocks: {LDM, diffusers}.
constexpr std::pair<std::string_view, std::string_view> kBasic[] = {
    {"input_blocks.0.0", "conv_in"},
    {"time_embed.0", "time_embedding.linear_1"},
    {"time_embed.2", "time_embedding.linear_2"},
    {"label_emb.0.0", "add_embedding.linear_1"},
    {"label_emb.0.2", "add_embedding.linear_2"},
    {"out.0", "conv_norm_out"},
    {"out.2", "conv_out"},
};

// Inside a resnet: {LDM, diffusers}.
constexpr std::pair<std::string_view, std::string_view> kResnet[] = {
    {"in_layers.0", "norm1"},  {"in_layers.2", "conv1"},  {"emb_layers.1", "time_emb_proj"},
    {"out_layers.0", "norm2"}, {"out_layers.3", "conv2"}, {"skip_connection", "conv_shortcut"},
};

// Inside an open_clip residual block: {open_clip, CLIPTextModel}.
constexpr std::pair<std::string_view, std::string_view> kClipBlock[] = {
    {"ln_1", "layer_norm1"},
    {"ln_2", "layer_norm2"},
    {"mlp.c_fc", "mlp.fc1"},
    {"mlp.c_proj", "mlp.fc2"},
    {"attn.out_proj", "self_attn.out_proj"},
};
constexpr std::string_view kClipFused[] = {"self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj"};

// A name cut at its first `count` dots: the parts, and the rest ("" when none).
struct Split {
  std::vector<std::string_view> parts;
  std::string_view rest;
};

Split split(std::string_view name, std::size_t count) {
  Split s;
  while (s.parts.size() < count) {
    const std::size_t dot = name.find('.');
    s.parts.push_back(name.substr(0, dot));
    if (dot == std::string_view::npos) return s;
    name.remove_prefix(dot + 1);
  }
  s.rest = name;
  return s;
}

std::optional<int> number(std::string_view s) {
  int v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size() || v < 0 || v > 1000) return std::nullopt;
  return v;
}

// `rest` inside a resnet, renamed by `table` (first to second when `forward`), after a dot.
std::optional<std::string> resnet_part(std::string_view rest, bool forward) {
  for (const auto& [ldm, diffusers] : kResnet) {
    if (rest == (forward ? ldm : diffusers)) {
      std::string out(1, '.');
      out += forward ? diffusers : ldm;
      return out;
    }
  }
  return std::nullopt;
}

std::string dotted(std::string_view rest) {
  std::string out;
  if (!rest.empty()) (out += '.') += rest;
  return out;
}

std::string join(std::string_view head, int a, std::string_view mid, int b) {
  return std::string(head) + "." + std::to_string(a) + "." + std::string(mid) + "." + std::to_string(b);
}

}  // namespace

std::optional<std::string> unet_ldm_to_diffusers(std::string_view ldm) {
  for (const auto& [from, to] : kBasic) {
    if (ldm == from) return std::string(to);
  }
  const bool middle = ldm.starts_with("middle_block.");
  const Split s = split(ldm, middle ? 2 : 3);
  if (s.parts.size() < (middle ? 2u : 3u)) return std::nullopt;
  const auto n = number(s.parts[1]);
  if (!n) return std::nullopt;
  if (middle) {
    if (*n == 1) return "mid_block.attentions.0" + dotted(s.rest);
    if (*n != 0 && *n != 2) return std::nullopt;
    const auto inner = resnet_part(s.rest, true);
    return inner ? std::optional("mid_block.resnets." + std::to_string(*n / 2) + *inner) : std::nullopt;
  }
  const auto j = number(s.parts[2]);
  if (!j) return std::nullopt;
  if (s.parts[0] == "input_blocks" && *n >= 1) {
    const int level = (*n - 1) / kPerLevel, i = (*n - 1) % kPerLevel;
    if (i == 2) {
      return *j == 0 && s.rest == "op" ? std::optional(join("down_blocks", level, "downsamplers", 0) + ".conv")
                                       : std::nullopt;
    }
    if (*j == 1) return join("down_blocks", level, "attentions", i) + dotted(s.rest);
    const auto inner = resnet_part(s.rest, true);
    return *j == 0 && inner ? std::optional(join("down_blocks", level, "resnets", i) + *inner) : std::nullopt;
  }
  if (s.parts[0] != "output_blocks") return std::nullopt;
  const int level = *n / kPerLevel, i = *n % kPerLevel;
  if (*j >= 1 && s.rest == "conv") return join("up_blocks", level, "upsamplers", 0) + ".conv";
  if (*j == 1) return join("up_blocks", level, "attentions", i) + dotted(s.rest);
  const auto inner = resnet_part(s.rest, true);
  return *j == 0 && inner ? std::optional(join("up_blocks", level, "resnets", i) + *inner) : std::nullopt;
}

std::optional<std::string> unet_diffusers_to_ldm(std::string_view diffusers) {
  for (const auto& [ldm, from] : kBasic) {
    if (diffusers == from) return std::string(ldm);
  }
  const bool middle = diffusers.starts_with("mid_block.");
  const Split s = split(diffusers, middle ? 3 : 4);
  if (s.parts.size() < (middle ? 3u : 4u)) return std::nullopt;
  const std::string_view kind = s.parts[middle ? 1 : 2];
  const auto i = number(s.parts[middle ? 2 : 3]);
  const auto level = middle ? std::optional(0) : number(s.parts[1]);
  if (!i || !level) return std::nullopt;
  const bool down = s.parts[0] == "down_blocks";
  if (!middle && !down && s.parts[0] != "up_blocks") return std::nullopt;
  const std::string block = middle ? std::string("middle_block")
                            : down ? "input_blocks." + std::to_string(1 + *level * kPerLevel + *i)
                                   : "output_blocks." + std::to_string(*level * kPerLevel + *i);
  if (kind == "attentions") return block + ".1" + dotted(s.rest);
  if (kind == "resnets") {
    const auto inner = resnet_part(s.rest, false);
    if (!inner) return std::nullopt;
    return middle ? "middle_block." + std::to_string(*i * 2) + *inner : block + ".0" + *inner;
  }
  if ((kind == "downsamplers" || kind == "upsamplers") && *i == 0 && s.rest == "conv" && !middle) {
    // The sampler closes the level: LDM block 3 + 3x (down, as `op`) or 2 + 3x (up, after the
    // resnet and, where the level has one, the attention: then at index 2, given here as 1).
    return down ? "input_blocks." + std::to_string(kPerLevel + *level * kPerLevel) + ".0.op"
                : "output_blocks." + std::to_string(2 + *level * kPerLevel) + ".1.conv";
  }
  return std::nullopt;
}

std::optional<std::string> open_clip_to_transformers(std::string_view module) {
  const Split s = split(module, 3);
  if (s.parts.size() < 3 || s.parts[0] != "transformer" || s.parts[1] != "resblocks" || !number(s.parts[2])) {
    return std::nullopt;
  }
  for (const auto& [from, to] : kClipBlock) {
    if (s.rest == from) return "text_model.encoder.layers." + std::string(s.parts[2]) + "." + std::string(to);
  }
  return std::nullopt;
}

std::optional<std::string> clip_fused_part(std::string_view module, int part) {
  const Split s = split(module, 3);
  if (s.parts.size() < 3 || s.parts[0] != "transformer" || s.parts[1] != "resblocks" || !number(s.parts[2]) ||
      s.rest != "attn.in_proj" || part < 0 || part > 2) {
    return std::nullopt;
  }
  return "text_model.encoder.layers." + std::string(s.parts[2]) + "." + std::string(kClipFused[part]);
}

}  // namespace safetensors
