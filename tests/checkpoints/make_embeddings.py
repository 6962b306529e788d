"""Writes two A1111 textual inversions at the text encoders' real widths, with torch.save itself
(Debian's python3-torch: run with /usr/bin/python3): embedding_sd1.pt (3 vectors of 768, SD 1.x's
CLIP ViT-L) and embedding_sd2.pt (1 vector of 1024, SD 2.x's OpenCLIP ViT-H). The dict is the one
A1111 saves (AUTOMATIC1111/stable-diffusion-webui, modules/textual_inversion/textual_inversion.py,
Embedding.save). The files are committed beside this script, so CI needs no torch."""

import os

import torch

OUT = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(1)


def a1111(name, vectors, width, step, checkpoint, checkpoint_name):
    return {'string_to_token': {'*': 265}, 'string_to_param': {'*': torch.nn.Parameter(torch.randn(vectors, width))},
            'name': name, 'step': step, 'sd_checkpoint': checkpoint, 'sd_checkpoint_name': checkpoint_name}


if __name__ == '__main__':
    torch.save(a1111('sd1-style', 3, 768, 1500, 'e1441589', 'v1-5-pruned'), os.path.join(OUT, 'embedding_sd1.pt'))
    torch.save(a1111('sd2-style', 1, 1024, 0, None, None), os.path.join(OUT, 'embedding_sd2.pt'))
