"""A big checkpoint for the convert benchmark (tests/bench/checkpoint_convert.bench.js), written
by torch.save, and the bytes safetensors.torch.save_file would write for it (safetensors_layout.py).

usage: python3 big_checkpoint.py OUT.pt MIB EXPECTED.safetensors
Mostly contiguous float32/float16/bfloat16 weights (slices of the source once converted), plus
a transposed view, a tied name and a few small tensors (copies)."""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_conversions  # noqa: E402
import safetensors_layout  # noqa: E402


def main():
    out, mib, expected = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    torch.manual_seed(512)
    layers = 8
    per_layer = (mib << 20) // layers
    state = {}
    for i in range(layers):
        dtype = [torch.float32, torch.float16, torch.bfloat16][i % 3]
        count = per_layer // torch.tensor([], dtype=dtype).element_size()
        state[f'model.layers.{i}.weight'] = torch.empty(count // 1024, 1024, dtype=dtype).uniform_(-1, 1)
        state[f'model.layers.{i}.bias'] = torch.zeros(1024, dtype=dtype)
    square = torch.randn(256, 256)
    state['model.proj.weight'] = square
    state['model.proj.weight_t'] = square.t()
    state['lm_head.weight'] = state['model.layers.0.weight']
    torch.save({'state_dict': state, 'epoch': 1}, out)
    del state, square
    head, datas = safetensors_layout.reference_parts(check_conversions.state_dict(out), {'format': 'pt'})
    with open(expected, 'wb') as f:
        f.write(head)
        for data in datas:
            f.write(data())


if __name__ == '__main__':
    main()
