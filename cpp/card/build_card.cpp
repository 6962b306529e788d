// The card builder: each part comes from its own file; this one decides the kind and family.
#include "card/build_card.h"

#include <charconv>
#include <string>

#include "adapter/adapter_detect.h"
#include "analysis/embedded_hashes.h"
#include "card/card_civitai.h"
#include "card/card_images.h"
#include "card/card_metadata.h"
#include "card/detect_family.h"
#include "card/key_index.h"
#include "card/memory.h"
#include "card/metadata_view.h"
#include "card/parameters.h"
#include "card/quantized_weights.h"
#include "tree/name_compare.h"

namespace safetensors {
namespace {

// Models with more tensors than this are matched by names as written only.
constexpr std::size_t kPatternScanLimit = 4096;

// Layer count, width, vocabulary and experts of a language model, from its keys.
Architecture text_architecture(const Family& family, const KeyIndex& keys, std::span<const TensorView> tensors) {
  Architecture a;
  const std::string prefix = layer_prefix(family);
  if (!prefix.empty()) {
    std::uint64_t layers = 0;
    for (const TensorView& t : tensors) {
      if (!name_starts_with(t.name, prefix)) continue;
      std::uint64_t n = 0;
      const char* begin = t.name.data() + prefix.size();
      const auto [end, ec] = std::from_chars(begin, t.name.data() + t.name.size(), n);
      if (ec == std::errc() && end != begin && n < (1u << 20)) layers = std::max(layers, n + 1);
    }
    if (layers) a.layers = static_cast<double>(layers);
  }
  for (std::string_view root : kTextRoots) {
    for (std::string_view embed : kEmbeddingKeys) {
      const IndexedKey* k = keys.find(std::string(root) + std::string(embed));
      if (k && k->shape.size() == 2) {
        a.vocab_size = static_cast<double>(k->shape[0]);
        a.hidden_size = static_cast<double>(k->shape[1]);
        break;
      }
    }
    if (a.vocab_size) break;
  }
  for (std::string_view root : kTextRoots) {
    for (std::string_view gate : kRouterKeys) {
      const IndexedKey* k = keys.find(std::string(root) + std::string(gate));
      if (k && k->shape.size() == 2) {
        a.experts = static_cast<double>(k->shape[0]);
        return a;
      }
    }
  }
  return a;
}

// An adapter's family: the adapted weights' names as written first (a rule may say which
// blocks are absent), then by pattern (an adapter may leave out the block a rule names); else
// the width of its text-encoder part (lora_diffusion). No variant: a variant is told by keys an
// adapter does not have.
std::optional<Family> adapter_family(const AdapterScan& scan, std::span<const TensorView> tensors) {
  std::optional<Family> family;
  for (const bool exact : {true, false}) {
    KeyIndex base = exact ? KeyIndex(exact_rule_keys(), scan.base_weights.size()) : KeyIndex();
    for (const TensorEntry& w : scan.base_weights) base.add(w.name, w.shape);
    family = scan.kohya_names ? match_family(base, Domain::Kohya, true) : std::nullopt;
    if (!family) family = match_family(base, Domain::Diffusion, true);
    if (!family) family = match_family(base, Domain::Text, true);
    if (family) break;
  }
  if (!family) family = family_from_encoder(tensors, scan.encoder_clues);
  if (family) family->variant.clear();
  return family;
}

// A textual inversion's vectors, from the tensors its scan found telling the text encoder (one
// per token tensor; SDXL's clip_g and clip_l as one, clip_g first): their rows and first width.
std::optional<EmbeddingVectors> embedding_vectors(const AdapterScan& scan, std::span<const TensorView> tensors) {
  EmbeddingVectors out;
  for (const EncoderClue& clue : scan.encoder_clues) {
    if (clue.tensors.empty()) continue;
    const TensorView& t = tensors[clue.tensors.front()];
    if (t.shape.empty()) continue;
    if (out.vectors == 0) out.width = static_cast<double>(t.shape.back());
    out.vectors += t.shape.size() >= 2 ? static_cast<double>(t.shape.front()) : 1;
  }
  if (out.vectors == 0) return std::nullopt;
  return out;
}

// A model's family: names as written first (cheap); by pattern when that finds nothing and the
// file is small enough for the rewrite of every name not to matter. A GPTQ/AWQ file's packed
// weights are also read as the weights they stand for. A language model's architecture too.
std::optional<Family> model_family(std::span<const TensorView> tensors, Architecture& architecture) {
  const std::vector<TensorEntry> unpacked = unpacked_weights(tensors);
  for (const bool exact : {true, false}) {
    if (!exact && tensors.size() > kPatternScanLimit) break;
    KeyIndex keys = exact ? KeyIndex(exact_rule_keys(), tensors.size() + unpacked.size()) : KeyIndex();
    for (const TensorView& t : tensors) keys.add(t.name, t.shape);
    for (const TensorEntry& w : unpacked) keys.add(w.name, w.shape);
    // Diffusion rules first: a checkpoint's text encoder must not make it a language model.
    if (std::optional<Family> family = match_family(keys, Domain::Diffusion)) return family;
    if (std::optional<Family> family = match_family(keys, Domain::Text)) {
      architecture = text_architecture(*family, keys, tensors);
      return family;
    }
  }
  return std::nullopt;
}

}  // namespace

// One straight path: the adapters (and embeddings) found once; then the families, from keys
// and text-encoder widths, then the metadata's; then counts, memory and metadata.
ModelCard build_card(std::span<const TensorView> tensors, const Metadata& metadata) {
  ModelCard card;
  const MetadataView meta(metadata);

  AdapterScan scan = scan_adapter(tensors, meta);

  std::optional<Family> from_keys;
  if (scan.adapter) {
    card.kind = CardKind::Adapter;
    from_keys = adapter_family(scan, tensors);
  } else if (scan.embedding) {
    card.kind = CardKind::Embedding;
    from_keys = family_from_encoder(tensors, scan.encoder_clues);
    card.embedding = embedding_vectors(scan, tensors);
  } else {
    from_keys = model_family(tensors, card.architecture);
    if (from_keys) card.kind = CardKind::Model;
  }
  card.family = combine_families(std::move(from_keys), family_from_metadata(meta));
  if (card.family && card.kind == CardKind::Unknown) card.kind = CardKind::Model;
  card.adapter = std::move(scan.adapter);
  card.kohya_module_names = scan.kohya_names;

  card.parameters = count_parameters(tensors);
  card.memory = memory_estimate(tensors, card.parameters);
  read_descriptive_fields(meta, card);
  card.tags = summed_tags(meta);
  card.trigger_words = trigger_words(meta, card.tags, scan.embedded_tokens);
  card.base_model = base_model(meta);
  card.training = training_values(meta);
  card.images = card_images(meta);
  card.embedded_hashes = embedded_hashes(metadata);  // the analysis' own reading of them
  card.civitai = civitai_ref(metadata, card.embedded_hashes);
  return card;
}

}  // namespace safetensors
