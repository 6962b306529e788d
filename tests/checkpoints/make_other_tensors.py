"""Writes other_tensors.pt with torch.save (Debian's python3-torch 1.13: run with /usr/bin/python3):
a state dict with a quantized and a sparse tensor beside a plain one. safetensors has no layout
for either (save_file refuses them), so our convert must refuse the file, naming them, rather
than leave them out. Committed beside this script, so CI needs no torch to read it."""

import os

import torch

OUT = os.path.dirname(os.path.abspath(__file__))

if __name__ == '__main__':
    state = {'weight': torch.arange(4, dtype=torch.float32),
             'quantized': torch.quantize_per_tensor(torch.arange(4, dtype=torch.float32), 0.5, 0, torch.quint8),
             'sparse': torch.eye(3).to_sparse()}
    torch.save(state, os.path.join(OUT, 'other_tensors.pt'))
