// Parameter counts, quantized layouts and the module tree.
#include <gtest/gtest.h>

#include "card/parameters.h"
#include "card_test_support.h"
#include "tree/module_tree.h"

namespace safetensors::testing {
namespace {

TEST(CardParameters, ProductOfShapesAScalarCountsOne) {
  const Parameters p = count_parameters(
      report_of({{"a", {2, 3}, Dtype::F16}, {"b", {}, Dtype::F32}, {"c", {0, 5}, Dtype::F16}, {"d", {4}, Dtype::I64}})
          .tensors);
  EXPECT_EQ(p.total, 11);
  ASSERT_EQ(p.by_dtype.size(), 3u);  // in dtype table order
  EXPECT_EQ(p.by_dtype[0], (std::pair<std::string, double>{"F16", 6}));
  EXPECT_EQ(p.by_dtype[1], (std::pair<std::string, double>{"F32", 1}));
  EXPECT_EQ(p.by_dtype[2], (std::pair<std::string, double>{"I64", 4}));
  EXPECT_FALSE(p.quantized);
}

TEST(CardParameters, GptqAndAwqUnpackedByTheirBitWidth) {
  // GPTQ 4-bit, in 4096, out 1024, group 128: qweight [4096/8, 1024], qzeros [32, 1024/8], scales [32, 1024].
  const std::string m = "model.layers.0.self_attn.k_proj.";
  const Parameters gptq = count_parameters(report_of({{m + "qweight", {512, 1024}, Dtype::I32},
                                                      {m + "qzeros", {32, 128}, Dtype::I32},
                                                      {m + "scales", {32, 1024}, Dtype::F16},
                                                      {m + "g_idx", {4096}, Dtype::I32},
                                                      {"model.norm.weight", {4096}, Dtype::F16}})
                                               .tensors);
  ASSERT_TRUE(gptq.quantized);
  EXPECT_EQ(gptq.quantized->scheme, "gptq");
  EXPECT_EQ(gptq.quantized->estimated_total, 4096.0 * 1024 + 4096);
  EXPECT_NE(gptq.quantized->note.find("4-bit"), std::string::npos);
  // AWQ packs along the output: qweight [4096, 1024/8].
  const Parameters awq = count_parameters(report_of({{m + "qweight", {4096, 128}, Dtype::I32},
                                                     {m + "qzeros", {32, 128}, Dtype::I32},
                                                     {m + "scales", {32, 1024}, Dtype::F16}})
                                              .tensors);
  EXPECT_EQ(awq.quantized->scheme, "awq");
  EXPECT_EQ(awq.quantized->estimated_total, 4096.0 * 1024);
}

TEST(CardParameters, BitsandbytesMxfp4AndMlx) {
  const std::string w = "model.layers.0.mlp.up_proj.weight";
  const Parameters nf4 = count_parameters(report_of({{w, {2048 * 512, 1}, Dtype::U8},
                                                     {w + ".absmax", {16384}, Dtype::F32},
                                                     {w + ".quant_map", {16}, Dtype::F32},
                                                     {w + ".quant_state.bitsandbytes__nf4", {100}, Dtype::U8}})
                                              .tensors);
  ASSERT_TRUE(nf4.quantized);
  EXPECT_EQ(nf4.quantized->scheme, "bitsandbytes-4bit");
  EXPECT_EQ(nf4.quantized->estimated_total, 2048.0 * 1024);
  const Parameters mx =
      count_parameters(report_of({{"model.layers.0.mlp.experts.gate_up_proj_blocks", {32, 5760, 90, 16}, Dtype::U8},
                                  {"model.layers.0.mlp.experts.gate_up_proj_scales", {32, 5760, 90}, Dtype::U8}})
                           .tensors);
  EXPECT_EQ(mx.quantized->scheme, "mxfp4");
  EXPECT_EQ(mx.quantized->estimated_total, 32.0 * 5760 * 90 * 32);
  const std::string q = "model.layers.0.self_attn.q_proj.";
  const Parameters mlx = count_parameters(report_of({{q + "weight", {4096, 512}, Dtype::U32},
                                                     {q + "scales", {4096, 64}, Dtype::F16},
                                                     {q + "biases", {4096, 64}, Dtype::F16}})
                                              .tensors);
  EXPECT_EQ(mlx.quantized->scheme, "mlx");
  EXPECT_FALSE(mlx.quantized->estimated_total);
  EXPECT_NE(mlx.quantized->note.find("config.json"), std::string::npos);
}

// The nodes' paths, and each tensor's node path, for comparing trees.
std::vector<std::string> paths(const ModuleTree& tree) {
  std::vector<std::string> out;
  for (std::uint32_t i = 0; i < tree.nodes.size(); ++i) out.push_back(module_path(tree, i));
  return out;
}
std::vector<std::string> tensor_paths(const ModuleTree& tree) {
  std::vector<std::string> out;
  for (std::uint32_t n : tree.node_of) out.push_back(module_path(tree, n));
  return out;
}

TEST(CardModules, TreeFoldsSingleTensorModulesAndChains) {
  const Report r = report_of({{"model.diffusion_model.a.0.weight", {2, 2}},
                              {"model.diffusion_model.a.0.bias", {2}},
                              {"model.diffusion_model.a.1.weight", {3}},
                              {"model.diffusion_model.out.weight", {5}},
                              {"top", {}}});
  const ModuleTree tree = module_tree(r.tensors, false);
  // "model" and "diffusion_model" chain into one node; "a.1" and "out" hold one tensor each: folded.
  EXPECT_EQ(paths(tree), (std::vector<std::string>{"", "model.diffusion_model", "model.diffusion_model.a",
                                                   "model.diffusion_model.a.0"}));
  EXPECT_EQ(tensor_paths(tree), (std::vector<std::string>{"model.diffusion_model.a.0", "model.diffusion_model.a.0",
                                                          "model.diffusion_model.a", "model.diffusion_model", ""}));
  EXPECT_EQ(tree.nodes[1].name, "model.diffusion_model");
  EXPECT_EQ(tree.nodes[1].separator, '\0');
  EXPECT_EQ(tree.nodes[2].name, "a");
  EXPECT_EQ(tree.nodes[2].separator, '.');
  EXPECT_EQ(tree.nodes[0].tensors, 5);
  EXPECT_EQ(tree.nodes[0].parameters, 4 + 2 + 3 + 5 + 1);
  EXPECT_EQ(tree.nodes[2].bytes, (4 + 2 + 3) * 2);
  EXPECT_EQ(tree.nodes[3].tensors, 2);
}

TEST(CardModules, TensorsOutOfOrderFindTheirModule) {
  // The reference writer sorts by dtype first, so a layer's F32 norms come after all BF16 weights.
  const Report r = report_of({{"m.layers.0.attn.q.weight", {2}},
                              {"m.layers.0.attn.k.weight", {2}},
                              {"m.layers.1.attn.q.weight", {2}},
                              {"m.layers.1.attn.k.weight", {2}},
                              {"m.layers.0.norm.weight", {2}},
                              {"m.layers.0.attn.bias", {2}}});
  const ModuleTree tree = module_tree(r.tensors, false);
  EXPECT_EQ(tensor_paths(tree), (std::vector<std::string>{"m.layers.0.attn", "m.layers.0.attn", "m.layers.1.attn",
                                                          "m.layers.1.attn", "m.layers.0", "m.layers.0.attn"}));
  EXPECT_EQ(paths(tree),
            (std::vector<std::string>{"", "m.layers", "m.layers.0", "m.layers.0.attn", "m.layers.1.attn"}));
}

TEST(CardModules, LevelsSharedOnlyUpToASeparator) {
  // "a.bc" shares the bytes "a.b" with "a.b" but not the level; "a.b" is found again later.
  const Report r =
      report_of({{"a.b.x", {1}}, {"a.b.y", {1}}, {"a.bc.x", {1}}, {"a.bc.y", {1}}, {"a.b.z", {1}}, {"a.b", {1}}});
  const ModuleTree tree = module_tree(r.tensors, false);
  EXPECT_EQ(paths(tree), (std::vector<std::string>{"", "a", "a.b", "a.bc"}));
  EXPECT_EQ(tensor_paths(tree), (std::vector<std::string>{"a.b", "a.b", "a.bc", "a.bc", "a.b", "a"}));
}

TEST(CardModules, ModulesWithManyChildrenAreFoundAgain) {
  // Past eight children a module's children are found through a hash table.
  std::vector<T> t;
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < 50; ++i) t.push_back({"m.layers." + std::to_string(i) + (pass ? ".norm" : ".w"), {2}});
  }
  const ModuleTree tree = module_tree(report_of(t).tensors, false);
  EXPECT_EQ(tree.nodes.size(), 2u + 50u);  // root, m.layers, and one node per layer (two tensors each)
  for (int i = 0; i < 50; ++i) {
    EXPECT_EQ(module_path(tree, tree.node_of[i]), "m.layers." + std::to_string(i));
    EXPECT_EQ(tree.node_of[i], tree.node_of[50 + i]);
  }
}

TEST(CardModules, KohyaNamesSplitAtBlockNumbers) {
  const std::string m = "lora_unet_down_blocks_0_attentions_1_proj_in";
  const Report r = report_of({{m + ".lora_down.weight", {4, 320}},
                              {m + ".lora_up.weight", {320, 4}},
                              {m + ".alpha", {}},
                              {"lora_unet_down_blocks_0_attentions_2_proj_in.alpha", {}},
                              {"lora_unet_down_blocks_0_attentions_2_proj_in.lora_down.weight", {4, 320}}});
  const ModuleTree tree = module_tree(r.tensors, true);
  EXPECT_EQ(paths(tree),
            (std::vector<std::string>{"", "lora_unet_down_blocks_0", "lora_unet_down_blocks_0_attentions_1_proj_in",
                                      "lora_unet_down_blocks_0_attentions_2_proj_in"}));
  EXPECT_EQ(tree.nodes[2].name, "attentions_1_proj_in");
  EXPECT_EQ(tree.nodes[2].separator, '_');
}

TEST(CardModules, DeepNamesAreBounded) {
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += "a.";
  deep += "w";
  const Report r = report_of({{deep, {1}}, {deep + "x", {1}}});
  const ModuleTree tree = module_tree(r.tensors, false);
  EXPECT_EQ(tree.nodes[0].tensors, 2);
  EXPECT_LE(tree.nodes.size(), 34u);
}

}  // namespace
}  // namespace safetensors::testing
