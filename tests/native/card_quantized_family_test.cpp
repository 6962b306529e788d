// Families of GPTQ and AWQ files: their packed weights read as the weights they stand for
// (cpp/card/quantized_weights.h). Shapes as AutoGPTQ and AutoAWQ write them: GPTQ qweight
// [in * bits / 32, out], AWQ qweight [in, out * bits / 32]; scales [groups, out], qzeros
// [groups, out * bits / 32] in both.
#include <gtest/gtest.h>

#include "card/quantized_weights.h"
#include "card_test_support.h"

namespace safetensors::testing {
namespace {

// A Llama layer as GPTQ or AWQ store it (Llama-2-7B: 4096 wide, 11008 in the MLP).
std::vector<T> quantized_llama(bool awq) {
  std::vector<T> t = {{"model.embed_tokens.weight", {32000, 4096}}, {"model.norm.weight", {4096}}};
  for (const auto& [m, in, out] : std::vector<std::tuple<std::string, std::uint64_t, std::uint64_t>>{
           {"self_attn.q_proj", 4096, 4096}, {"mlp.gate_proj", 4096, 11008}, {"mlp.down_proj", 11008, 4096}}) {
    for (T& p : packed_linear("model.layers.0." + m, in, out, awq)) t.push_back(std::move(p));
  }
  return t;
}

TEST(CardQuantizedFamily, GptqAndAwqWeightsUnpackToTheirShapes) {
  for (const bool awq : {false, true}) {
    const std::vector<TensorEntry> entries = report_of(quantized_llama(awq)).tensors;
    const std::vector<TensorEntry> w = unpacked_weights(views_of(entries));
    ASSERT_EQ(w.size(), 3u) << awq;
    EXPECT_EQ(w[0].name, "model.layers.0.self_attn.q_proj.weight");
    EXPECT_EQ(w[1].shape, (std::vector<std::uint64_t>{11008, 4096})) << awq;
    EXPECT_EQ(w[2].shape, (std::vector<std::uint64_t>{4096, 11008})) << awq;
  }
}

TEST(CardQuantizedFamily, AQuantizedLlamaIsALlama) {
  for (const bool awq : {false, true}) {
    const ModelCard card = card_of(quantized_llama(awq));
    EXPECT_EQ(family_id(card), "llama") << awq;
    EXPECT_EQ(card.kind, CardKind::Model);
    ASSERT_TRUE(card.parameters.quantized);
    EXPECT_EQ(card.parameters.quantized->scheme, awq ? "awq" : "gptq");
  }
}

TEST(CardQuantizedFamily, AutoGptqBiasesDoNotMakeALlamaAQwen2) {
  // AutoGPTQ 0.4 (TheBloke/MythoMax-L2-13B-GPTQ) keeps a bias for every linear layer, zeros
  // where Llama has none; Qwen2 has biases on q, k and v only.
  std::vector<T> llama = quantized_llama(false);
  for (const char* m : {"self_attn.q_proj", "self_attn.o_proj", "mlp.gate_proj"})
    llama.push_back({std::string("model.layers.0.") + m + ".bias", {4096}, Dtype::F16});
  EXPECT_EQ(family_id(card_of(llama)), "llama");
  const ModelCard qwen2 = card_of({{"model.embed_tokens.weight", {151936, 896}},
                                   {"model.layers.0.self_attn.q_proj.weight", {896, 896}},
                                   {"model.layers.0.self_attn.q_proj.bias", {896}},
                                   {"model.layers.0.self_attn.o_proj.weight", {896, 896}},
                                   {"model.layers.0.mlp.gate_proj.weight", {4864, 896}}});
  EXPECT_EQ(family_id(qwen2), "qwen2");
}

TEST(CardQuantizedFamily, AGptqStarCoderIsGptBigCodeAndGpt2StaysGpt2) {
  // AutoGPTQ of bigcode/starcoder (n_embd 6144, c_fc 6144 -> 24576).
  std::vector<T> coder = {{"transformer.wte.weight", {49153, 6144}}, {"transformer.wpe.weight", {8192, 6144}}};
  for (T& p : packed_linear("transformer.h.0.attn.c_attn", 6144, 6400, false)) coder.push_back(std::move(p));
  for (T& p : packed_linear("transformer.h.0.mlp.c_fc", 6144, 24576, false)) coder.push_back(std::move(p));
  EXPECT_EQ(family_id(card_of(coder)), "gpt-bigcode");
  // GPT-2's Conv1D weights are [in, out]: c_fc [768, 3072] is not a 4:1 Linear.
  const ModelCard gpt2 = card_of({{"transformer.wte.weight", {50257, 768}},
                                  {"transformer.wpe.weight", {1024, 768}},
                                  {"transformer.h.0.attn.c_attn.weight", {768, 2304}},
                                  {"transformer.h.0.mlp.c_fc.weight", {768, 3072}}});
  EXPECT_EQ(family_id(gpt2), "gpt2");
}

TEST(CardQuantizedFamily, PartsThatDoNotFitGiveNoWeight) {
  const std::vector<std::vector<T>> bad = {
      // no scales
      {{"m.qweight", {512, 4096}, Dtype::I32}, {"m.qzeros", {32, 512}, Dtype::I32}},
      // qzeros not a whole number of bits per value
      {{"m.qweight", {512, 4096}, Dtype::I32}, {"m.qzeros", {32, 3}, Dtype::I32}, {"m.scales", {32, 4096}}},
      // qweight's columns are neither out nor packed out
      {{"m.qweight", {512, 77}, Dtype::I32}, {"m.qzeros", {32, 512}, Dtype::I32}, {"m.scales", {32, 4096}}},
      // zero-sized and one-dimensional parts
      {{"m.qweight", {512, 0}, Dtype::I32}, {"m.qzeros", {32, 0}, Dtype::I32}, {"m.scales", {32, 0}}},
      {{"m.qweight", {512}, Dtype::I32}, {"m.qzeros", {512}, Dtype::I32}, {"m.scales", {4096}}},
  };
  for (const std::vector<T>& t : bad) {
    const std::vector<TensorEntry> entries = report_of(t).tensors;
    EXPECT_TRUE(unpacked_weights(views_of(entries)).empty()) << t.front().name;
    EXPECT_EQ(family_id(card_of(t)), "none");
  }
}

}  // namespace
}  // namespace safetensors::testing
