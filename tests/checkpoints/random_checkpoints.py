"""Seeded random state dicts written by torch.save (Debian's python3-torch 1.13): checkpoints our
convert has never seen, for check_conversions.py. Every dtype torch 1.13 saves, 0-d, empty and
larger shapes, views at storage offsets, transposed, strided, expanded (stride 0) and
overlapping views, tied weights, Parameters, nested dicts, OrderedDicts and lists, Lightning
wrapping, and the legacy (pre-1.6) format. complex128 (which safetensors has no dtype for)
goes in files of its own, which convert must refuse, as do files holding a quantized or sparse
tensor. Names include escapes and non-ASCII."""

import collections
import os
import random

import torch

DTYPES = [torch.float16, torch.float32, torch.float64, torch.bfloat16, torch.int8, torch.int16, torch.int32,
          torch.int64, torch.uint8, torch.bool, torch.complex64]


# Name stems: ASCII, and the characters a header must escape or sort by their UTF-8 bytes (past
# U+FFFF, UTF-16 order differs).
NAMES = ['layer', 'w', 'blocks', 'norm', 'emb', 'caf\u00e9', '\U0001f600', '\uffffz', 'q"uote', 'back\\slash',
         'tab\t', 'nul\x00', 'del\x7f']


def random_tensor(rng, dtype, shape):
    """Random values of `dtype`: full-range bits for floats (NaNs and infinities included)."""
    n = 1
    for d in shape:
        n *= d
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, dtype=torch.uint8).to(torch.bool)
    if dtype.is_floating_point or dtype.is_complex:
        # Any bit pattern: the conversion must copy bytes, not values.
        size = torch.tensor([], dtype=dtype).element_size()
        raw = torch.randint(0, 256, (n * size,), dtype=torch.uint8)
        return raw.view(dtype).reshape(shape) if n else torch.empty(shape, dtype=dtype)
    info = torch.iinfo(dtype)
    return torch.randint(info.min, info.max, shape, dtype=torch.int64).to(dtype)


def random_shape(rng):
    kind = rng.random()
    if kind < 0.1:
        return ()
    if kind < 0.2:
        dims = [rng.randint(0, 4) for _ in range(rng.randint(1, 3))]
        dims[rng.randrange(len(dims))] = 0
        return tuple(dims)
    if kind < 0.25:
        return (rng.randint(64, 256), rng.randint(256, 1024))
    return tuple(rng.randint(1, 9) for _ in range(rng.randint(1, 4)))


def random_view(rng, base):
    """A view of `base` sharing its storage: at an offset, transposed, strided, expanded or overlapping."""
    if base.dim() == 0 or base.numel() == 0:
        return base
    kind = rng.randrange(6)
    if kind == 0:
        return base[rng.randrange(base.shape[0])]
    if kind == 1 and base.dim() >= 2:
        return base.transpose(0, base.dim() - 1)
    if kind == 2:
        start = rng.randrange(base.shape[0])
        return base[start::rng.randint(1, 3)]
    if kind == 3:
        flat = base.reshape(-1) if base.is_contiguous() else base
        if flat.dim() == 1:
            return flat[rng.randrange(flat.shape[0])].expand(rng.randint(1, 4), 3)
    if kind == 4 and base.is_contiguous():
        n = base.numel()
        rows = max(1, n // 2)
        return torch.as_strided(base, (rows, min(2, n)), (1, 1), 0) if n >= 2 else base
    return base.reshape(-1)[rng.randrange(base.numel()):] if base.is_contiguous() else base


def random_state(rng, depth=0):
    """A random (nested) dict of tensors, views, tied names and plain values."""
    out = collections.OrderedDict() if rng.random() < 0.3 else {}
    for i in range(rng.randint(2, 7)):
        name = f'{rng.choice(NAMES)}{i}'
        roll = rng.random()
        if roll < 0.12 and depth < 2:
            out[name] = random_state(rng, depth + 1)
        elif roll < 0.18 and depth < 2:
            out[name] = [random_tensor(rng, rng.choice(DTYPES), random_shape(rng)) for _ in range(rng.randint(1, 3))]
        elif roll < 0.22:
            out[name] = rng.choice([3, 2.5, 'text', None, True])
        else:
            base = random_tensor(rng, rng.choice(DTYPES), random_shape(rng))
            if rng.random() < 0.2:
                base = torch.nn.Parameter(base, requires_grad=False)
            out[name] = base
            if rng.random() < 0.35:
                out[name + '_view'] = random_view(rng, base.data if isinstance(base, torch.nn.Parameter) else base)
            if rng.random() < 0.15:
                out[name + '_tied'] = base
    return out


def write(directory, seed, count):
    """`count` checkpoints from `seed`, as (path, refusal) pairs: refusal is the word convert's
    refusal must hold (complex128, qint8 for a quantized tensor, other-tensor for a sparse one), or
    False."""
    rng = random.Random(seed)
    torch.manual_seed(seed)
    files = []
    for i in range(count):
        state = random_state(rng)
        roll = rng.random()
        refuse = 'complex128' if roll < 0.06 else 'other-tensor' if roll < 0.1 else False
        if refuse == 'complex128':
            state['complex128'] = torch.zeros(2, dtype=torch.complex128)
        elif refuse and roll < 0.08:  # listed as a tensor of torch dtype qint8, which safetensors lacks
            state['other'] = torch.quantize_per_tensor(torch.randn(3), 0.1, 0, torch.qint8)
            refuse = 'qint8'
        elif refuse:  # not a strided view of one storage: not read
            state['other'] = torch.randn(2, 2).to_sparse()
        if rng.random() < 0.25:
            state = {'epoch': rng.randint(0, 9), 'global_step': rng.randint(0, 9999), 'state_dict': state,
                     'optimizer_states': [{'state': {0: {'exp_avg': torch.zeros(3)}}}]}
        legacy = rng.random() < 0.25
        path = os.path.join(directory, f'random_{seed}_{i}{"_legacy" if legacy else ""}.pt')
        torch.save(state, path, _use_new_zipfile_serialization=not legacy)
        files.append((path, refuse))
    return files
