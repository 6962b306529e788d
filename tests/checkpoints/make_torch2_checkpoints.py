"""Writes torch2_*.pt: checkpoints laid out byte for byte as torch 2.x's torch.save writes them,
without torch 2 (only torch 1.13 installs here), and torch2_expected.json: each tensor's dtype,
shape, stride, storage offset, storage key, flags, its bytes in row-major order and, where
plain, its values. Standard library only: python3 make_torch2_checkpoints.py. The files are
committed beside it. torch2_pickle.py writes the pickle, torch2_zip.py the zip around it; each
says which of torch 2.x's facts it follows."""

import collections
import json
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch2_pickle import (DTYPES, PER_CHANNEL_AFFINE, PER_TENSOR_AFFINE, Device, Layout, Parameter,  # noqa: E402
                           Storage, Tensor, torch_save_legacy)
from torch2_zip import torch_save  # noqa: E402

OUT = os.path.dirname(os.path.abspath(__file__))

# ---- values


def f8(byte, exp_bits, man_bits, bias):
    """A finite float8's value (the codes written here avoid NaN and infinity)."""
    sign = -1.0 if byte & 0x80 else 1.0
    e, m = (byte >> man_bits) & ((1 << exp_bits) - 1), byte & ((1 << man_bits) - 1)
    if e == 0:
        return sign * m / (1 << man_bits) * 2.0 ** (1 - bias)
    return sign * (1 + m / (1 << man_bits)) * 2.0 ** (e - bias)


def element_values(data, dtype):
    fmt = dtype.fmt
    if fmt is None:
        return None
    if fmt == 'bf16':
        return [struct.unpack('<f', b'\0\0' + data[i:i + 2])[0] for i in range(0, len(data), 2)]
    small = {'e5m2': (5, 2, 15), 'e4m3fn': (4, 3, 7), 'e5m2fnuz': (5, 2, 16), 'e4m3fnuz': (4, 3, 8)}
    if fmt in small:
        return [f8(b, *small[fmt]) for b in data]
    if fmt == 'e8m0':
        return [2.0 ** (b - 127) for b in data]
    values = list(struct.unpack('<' + fmt * (len(data) // dtype.size), data))
    # 64-bit integers as text: JSON readers hold numbers as doubles.
    return [int(v) if fmt == '?' else str(v) if fmt in 'qQ' else v for v in values]


def row_major(t):
    """The tensor's bytes in row-major order, gathered through its strides."""
    size, out = t.storage.dtype.size, bytearray()
    count = 1
    for n in t.size:
        count *= n
    for index in range(count):
        at, rest = t.offset, index
        for d in reversed(range(len(t.size))):
            at += (rest % t.size[d]) * t.stride[d]
            rest //= t.size[d]
        out += t.storage.data[at * size:(at + 1) * size]
    return bytes(out)


def describe(obj, prefix=''):
    """name -> facts, for every tensor in obj (Parameters and attributes unwrapped)."""
    out = {}
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.update(describe(v, f'{prefix}{k}.'))
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            out.update(describe(v, f'{prefix}{i}.'))
    elif isinstance(obj, (Tensor, Parameter)):
        t = obj.data if isinstance(obj, Parameter) else obj
        data = row_major(t)
        facts = {'dtype': t.storage.dtype.name, 'shape': list(t.size), 'stride': list(t.stride),
                 'storage_offset': t.offset, 'storage': t.storage.key, 'parameter': isinstance(obj, Parameter),
                 'requires_grad': obj.requires_grad if isinstance(obj, Parameter) else t.requires_grad,
                 'location': t.storage.location, 'storage_nbytes': len(t.storage.data), 'bytes': data.hex()}
        values = element_values(data, t.storage.dtype)
        if values is not None:
            facts['values'] = values
        out[prefix[:-1]] = facts
    return out


# ---- the checkpoints

# Codes of each small float chosen finite and varied: zero, one, two, minus one, a subnormal, the
# largest finite value.
F8_CODES = {
    'float8_e4m3fn': [0x00, 0x38, 0x40, 0xB8, 0x01, 0x7E],
    'float8_e5m2': [0x00, 0x3C, 0x40, 0xBC, 0x01, 0x7B],
    'float8_e4m3fnuz': [0x00, 0x40, 0x48, 0xC0, 0x01, 0x7F],
    'float8_e5m2fnuz': [0x00, 0x40, 0x44, 0xC0, 0x01, 0x7F],
    'float8_e8m0fnu': [0x7F, 0x80, 0x7E, 0x00, 0x01, 0xFE],
}


def storage_of(name, values, location='cpu'):
    dtype = DTYPES[name]
    if name in F8_CODES or dtype.fmt is None:
        return Storage(dtype, bytes(values), location)
    if dtype.fmt == 'bf16':
        return Storage(dtype, b''.join(struct.pack('<f', v)[2:] for v in values), location)
    fmt = dtype.fmt
    flat = [x for v in values for x in ((v.real, v.imag) if len(fmt) == 2 else (v,))]
    return Storage(dtype, struct.pack('<' + fmt[0] * len(flat), *flat), location)


def every_dtype():
    """One 2x3 tensor per dtype torch 2.9 saves, in that dtype's own values."""
    ints = [-2, -1, 0, 1, 2, 3]
    values = {
        'float64': [-2.5, -1.0, 0.0, 1.0, 2.0, 3.25], 'float32': [-2.5, -1.0, 0.0, 1.0, 2.0, 3.25],
        'float16': [-2.5, -1.0, 0.0, 1.0, 2.0, 65504.0], 'bfloat16': [-2.5, -1.0, 0.0, 1.0, 2.0, 3.25],
        'int64': [-2**40, -1, 0, 1, 2, 2**40], 'int32': [-2**30, -1, 0, 1, 2, 2**30], 'int16': ints, 'int8': ints,
        'uint8': [0, 1, 2, 127, 128, 255], 'bool': [1, 0, 1, 1, 0, 0],
        'complex64': [complex(i, -i) for i in ints], 'complex128': [complex(i, 0.5) for i in ints],
        'complex32': [complex(i, 1) for i in ints],
        'uint16': [0, 1, 2, 0x7FFF, 0x8000, 0xFFFF], 'uint32': [0, 1, 2, 2**31 - 1, 2**31, 2**32 - 1],
        'uint64': [0, 1, 2, 2**53, 2**63, 2**64 - 1],
        'float4_e2m1fn_x2': [0x00, 0x12, 0x34, 0x56, 0x78, 0x9A], 'bits8': [0, 1, 2, 3, 0x80, 0xFF],
        'bits16': [0, 1, 0x12, 0x34, 0x80, 0xFF, 0, 0, 0, 0, 0, 0],
    }
    values.update(F8_CODES)
    out = {}
    for name in [n for n in DTYPES if not n.startswith('q')]:  # quantized ones: quantized()
        s = storage_of(name, values[name])  # bits16: six 16-bit elements given as twelve bytes
        out[name] = Tensor(s, 0, (2, 3), (3, 1))
    return out


def views():
    """Views of new-dtype storages: offsets, transposes, strides, one storage under two names."""
    e4m3 = Storage(DTYPES['float8_e4m3fn'], bytes((i * 7 + 0x30) & 0x7F for i in range(24)))
    u16 = Storage(DTYPES['uint16'], struct.pack('<24H', *[i * 2731 for i in range(24)]))
    f32 = storage_of('float32', [float(i) - 11.5 for i in range(24)])
    return {
        'e4m3.base': Tensor(e4m3, 0, (4, 6), (6, 1)),
        'e4m3.row': Tensor(e4m3, 12, (6,), (1,)),
        'e4m3.column': Tensor(e4m3, 2, (4,), (6,)),
        'e4m3.transposed': Tensor(e4m3, 0, (6, 4), (1, 6)),
        'e4m3.strided': Tensor(e4m3, 7, (2, 3), (12, 2)),
        'e4m3.tied': Tensor(e4m3, 0, (4, 6), (6, 1)),
        'u16.transposed': Tensor(u16, 0, (3, 8), (1, 3)),
        'u16.tail': Tensor(u16, 20, (2, 2), (2, 1)),
        'f32.transposed': Tensor(f32, 1, (3, 7), (1, 3)),
        'scalar': Tensor(storage_of('uint32', [4000000000]), 0, (), ()),
    }


def state_dict():
    """A module's state_dict(): an OrderedDict with _metadata, detached tensors, a buffer."""
    sd = collections.OrderedDict()
    sd['embed.weight'] = Tensor(storage_of('bfloat16', [i / 4 - 2 for i in range(12)]), 0, (4, 3), (3, 1))
    sd['proj.weight'] = Tensor(storage_of('float8_e4m3fn', [0x38, 0x40, 0x30, 0xB0, 0x44, 0x3C]), 0, (2, 3), (3, 1))
    sd['proj.weight_scale'] = Tensor(storage_of('float32', [0.5]), 0, (), ())
    sd['proj.bias'] = Tensor(storage_of('float16', [0.25, -0.25]), 0, (2,), (1,))
    sd['norm.num_batches_tracked'] = Tensor(storage_of('int64', [7]), 0, (), ())
    sd['tokens.ids'] = Tensor(storage_of('uint16', [1, 500, 65535]), 0, (3,), (1,))
    sd._metadata = collections.OrderedDict(
        [('', {'version': 1}), ('embed', {'version': 1}), ('proj', {'version': 1}), ('norm', {'version': 2})])
    return sd


def quantized():
    """Quantized tensors (_rebuild_qtensor): per tensor in each quantized dtype, and per channel,
    whose scales and zero points are tensors inside the quantizer parameters."""
    out = {name: Tensor(storage_of(name, [1, 3, 5, 7]), 0, (2, 2), (2, 1), quantizer=(PER_TENSOR_AFFINE, 0.5, 3))
           for name in ('qint8', 'quint8', 'qint32')}
    scales = Tensor(storage_of('float64', [0.5, 0.25]), 0, (2,), (1,))
    zero_points = Tensor(storage_of('int64', [0, 1]), 0, (2,), (1,))
    out['per_channel'] = Tensor(storage_of('qint8', [-1, 2, 3, -4]), 0, (2, 2), (2, 1),
                                quantizer=(PER_CHANNEL_AFFINE, scales, zero_points, 0))
    return out


def parameters():
    """Parameters and tensors carrying what torch 2.x adds: requires_grad, hooks, Python state."""
    return {
        'model': {
            'weight': Parameter(Tensor(storage_of('float32', [1.0, 2.0, 3.0, 4.0]), 0, (2, 2), (2, 1))),
            'frozen': Parameter(Tensor(storage_of('float8_e5m2', [0x3C, 0x40]), 0, (2,), (1,)), requires_grad=False),
            'lora_A': Parameter(Tensor(storage_of('bfloat16', [0.5, -0.5, 1.5]), 0, (3,), (1,)),
                                state={'adapter': 'default', 'rank': 4}),
            'grad': Tensor(storage_of('float32', [0.25, 0.5], 'cuda:0'), 0, (2,), (1,), requires_grad=True),
            'tagged': Tensor(storage_of('uint32', [9, 10, 11]), 0, (3,), (1,), attrs={'quant': 'none'}),
        },
        'layout': Layout('torch.strided'),
        'device': Device('cpu'),
        'step': 12,
    }


def main():
    written = {}

    def save(obj, file_name, **kw):
        torch_save(obj, os.path.join(OUT, file_name), **kw)
        folder = 'archive' if kw.get('stream') else os.path.splitext(file_name)[0]
        written[file_name] = {'format': 'pytorch-zip', 'verdict': 'safe', 'tensors': describe(obj), **{
            'layout': kw.get('layout', '2.9'), 'byteorder': kw.get('byteorder', 'little'), 'folder': folder}}
        for s in list(_all_storages(obj)):
            s.key = None  # keys are the next file's own

    save(every_dtype(), 'torch2_dtypes.pt')
    save(every_dtype(), 'torch2_dtypes_big.pt', byteorder='big')
    save(views(), 'torch2_views.pt')
    save(state_dict(), 'torch2_model.v2.pt')
    save(state_dict(), 'torch2_model_big.pt', byteorder='big')
    save(state_dict(), 'torch2_layout_early.pt', layout='early-2.x', crc=False, stream=True)
    save(parameters(), 'torch2_parameters.pt', protocol=4)
    save(quantized(), 'torch2_quantized.pt')
    legacy = {**views(), **state_dict()}  # keys of 8 and 9 digits: sorted as text, not as numbers
    keys = [str(99_999_000 + 500_000 * i * i) for i in range(len(list(_all_storages(legacy))))]
    torch_save_legacy(legacy, os.path.join(OUT, 'torch2_legacy.pt'), keys)
    written['torch2_legacy.pt'] = {'format': 'pytorch-legacy', 'verdict': 'safe', 'tensors': describe(legacy),
                                   'layout': 'legacy', 'byteorder': '', 'folder': ''}
    with open(os.path.join(OUT, 'torch2_expected.json'), 'w') as f:
        json.dump(written, f, indent=1, sort_keys=True)
        f.write('\n')


def _all_storages(obj):
    if isinstance(obj, dict):
        for v in obj.values():
            yield from _all_storages(v)
    elif isinstance(obj, Parameter):
        yield obj.data.storage
    elif isinstance(obj, Tensor):
        yield obj.storage


if __name__ == '__main__':
    main()
