"""Checks our convert against torch itself on checkpoints it has never seen: seeded random
checkpoints (random_checkpoints.py) and the committed ones, converted by our code
(convert_checkpoints.mjs), each compared
- byte for byte with the file safetensors.torch.save_file(state_dict, metadata={"format": "pt"})
  writes, rebuilt from the reference's rules (safetensors_layout.py), where state_dict is
  torch.load's tensors under dotted names (a "state_dict" entry unwrapped), each made contiguous
  and tied ones as copies (save_file refuses shared tensors; we write both names);
- tensor by tensor (name, dtype, shape, bytes) with torch.load's, through our own parser.
A checkpoint holding complex128 (no safetensors dtype), or a quantized or sparse tensor
(other_tensors.pt), must be refused: UnsupportedConversion, naming it.

usage: python3 check_conversions.py [--seed N] [--count N]   (exit 1 on any failure)"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import torch

import random_checkpoints
import safetensors_layout

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# views.pt re-zipped (make_checkpoints.py); torch 1.13 reads neither the ZIP64 nor the prefixed one,
# so their tensors are taken from views.pt.
SAME_AS = {'views_zip64.pt': 'views.pt', 'views_prefix.pt': 'views.pt'}
COMMITTED = ['views.pt', 'views_deflated.pt', 'views_zip64.pt', 'views_descriptor.pt', 'views_prefix.pt',
             'legacy.pt', 'tied.pt', 'lightning.ckpt', 'parameters.pt', 'embedding.pt', 'dtypes.pt',
             'other_tensors.pt']
# The committed files convert must refuse, and a word the refusal must hold.
REFUSED = {'dtypes.pt': 'complex128', 'other_tensors.pt': 'quantized'}


def flatten(obj, prefix=''):
    """Every tensor under its dotted name (dicts by key, lists and tuples by index), as our
    openCheckpoint names them."""
    if isinstance(obj, torch.Tensor):
        return {prefix: obj}
    children = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, (list, tuple)) else ()
    out = {}
    for key, value in children:
        out.update(flatten(value, f'{prefix}.{key}' if prefix else str(key)))
    return out


def state_dict(path):
    name = os.path.basename(path)
    tensors = flatten(torch.load(os.path.join(os.path.dirname(path), SAME_AS.get(name, name))))
    inner = {k[len('state_dict.'):]: v for k, v in tensors.items() if k.startswith('state_dict.')}
    return inner or tensors


def check(path, out, result, refuse, failures):
    """The checks of one file: how many passed."""
    name = os.path.basename(path)
    if refuse:
        if result.get('code') == 'UnsupportedConversion' and refuse in result['message']:
            return 1
        failures.append(f'{name}: expected UnsupportedConversion naming {refuse}, got {result}')
        return 0
    if not result.get('ok'):
        failures.append(f'{name}: not converted: {result}')
        return 0
    tensors = state_dict(path)
    with open(out, 'rb') as f:
        ours = f.read()
    passed = 0
    if ours == safetensors_layout.reference_bytes(tensors, {'format': 'pt'}):
        passed += 1
    else:
        failures.append(f'{name}: the bytes differ from save_file\'s')
    metadata, parsed = safetensors_layout.parse(ours)
    passed += metadata == {'format': 'pt'}
    if set(parsed) != set(tensors):
        failures.append(f'{name}: tensors {sorted(parsed)} != torch\'s {sorted(tensors)}')
    for key, tensor in tensors.items():
        dtype, shape, data = parsed.get(key, (None, None, None))
        want = safetensors_layout.TORCH_TO_DTYPE[str(tensor.dtype).split('.')[-1]]
        if (dtype, shape, data) == (want, list(tensor.shape), safetensors_layout.tensor_bytes(tensor)):
            passed += 1
        else:
            failures.append(f'{name}: tensor {key} differs ({dtype} {shape} vs {want} {list(tensor.shape)})')
    return passed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--seed', type=int, default=35)
    parser.add_argument('--count', type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix='stw-random-ckpt-') as scratch:
        files = random_checkpoints.write(scratch, args.seed, args.count)
        files += [(os.path.join(HERE, f), REFUSED.get(f, False)) for f in COMMITTED]
        pairs = [(path, os.path.join(scratch, f'{i}.safetensors')) for i, (path, _) in enumerate(files)]
        run = subprocess.run(['node', os.path.join(HERE, 'convert_checkpoints.mjs')] + [x for p in pairs for x in p],
                             capture_output=True, text=True, cwd=ROOT)
        if run.returncode != 0:
            sys.exit(f'convert_checkpoints.mjs failed: {run.stderr}')
        results = [json.loads(line) for line in run.stdout.splitlines()]
        failures = []
        passed = 0
        for (path, refuse), (_, out), result in zip(files, pairs, results):
            passed += check(path, out, result, refuse, failures)
        good = len(files) - len({f.split(':')[0] for f in failures})
        refused = sum(1 for _, refuse in files if refuse)
    for failure in failures:
        print('FAIL', failure)
    print(f'check_conversions: {passed} checks passed, {len(failures)} failed; {good} of {len(files)} files '
          f'right ({len(files) - refused} to convert exactly, {refused} to refuse; seed {args.seed}: '
          f'{args.count} random, {len(COMMITTED)} committed)')
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
