"""Writes torch2_*.pt: checkpoints laid out byte for byte as torch 2.x's torch.save writes them,
without torch 2 (only torch 1.13 installs here), and torch2_expected.json: each tensor's dtype,
shape, stride, storage offset, its bytes in row-major order and, where plain, its values.
Standard library only: python3 make_torch2_checkpoints.py. The files are committed beside it.

What torch 2.x writes that 1.13 does not (pytorch/pytorch, read at tag v2.9.0 and main
31d1cf19 of torch/serialization.py, 3834689c of caffe2/serialize/inline_container.cc):
- torch/serialization.py `_save`: after data.pkl the records `.format_version` ("1": storages
  written in the numeric order of their keys, 0, 1, ..., 10, not sorted as strings),
  `.storage_alignment` ("64") and `byteorder` (sys.byteorder: "little", or "big" on s390x, whose
  storages then hold big-endian elements that torch.load byte-swaps per element, each half of a
  complex on its own: torch/serialization.py `_load`, torch/storage.py `byteswap`), then
  data/<key> for each storage.
- caffe2/serialize/inline_container.cc `writeEndOfFile`: `version` ("3\\n"), and
  `.data/serialization_id` (40 digits) last. Every record's data starts on a 64-byte boundary:
  `detail::getPadding` puts an extra field "FB" + le16 length + 'Z' * length in the local header.
  miniz writes every record STORED with flag bits 3 and 11 (a data descriptor after the data, CRC
  and sizes zero in the local header), DOS time zero, ZIP64 end records always. With
  torch.serialization.config.save.compute_crc32 = False (2.6+) the CRCs are zero.
- The archive's folder is the file's name without folder and extension (`basename`), "archive"
  for a stream.
- torch/_tensor.py `_reduce_ex_internal`: dtypes in torch/storage.py `_new_dtypes()` (float8_*,
  float4_e2m1fn_x2, bits*, complex32, uint16/32/64) pickle as `torch._utils._rebuild_tensor_v3(
  storage, offset, size, stride, requires_grad, backward_hooks, dtype)` over an UntypedStorage
  whose persistent id ('storage', torch.UntypedStorage, key, location, nbytes) counts bytes; the
  others as `_rebuild_tensor_v2` over a typed storage class (`_dtype_to_storage_type_map`) whose
  id counts elements. backward_hooks is an empty collections.OrderedDict. A tensor with Python
  attributes is wrapped in `torch._tensor._rebuild_from_type_v2(func, type, args, state)`.
- torch/nn/parameter.py `__reduce_ex__`: `_rebuild_parameter(data, requires_grad, OrderedDict())`,
  or `_rebuild_parameter_with_state(data, requires_grad, hooks, state)` when it has attributes.
- torch/serialization.py registers torch.layout with copyreg as `_get_layout(str(layout))`;
  torch.device pickles as torch.device("cpu").
The pickle is protocol 2 (torch.serialization.DEFAULT_PROTOCOL) from Python's own Pickler, over
stand-in objects named as torch names them (nothing of torch is imported or run)."""

import collections
import json
import os
import pickle
import struct
import sys
import types
import zlib

OUT = os.path.dirname(os.path.abspath(__file__))

# ---- stand-ins, registered under torch's module names so that pickle writes torch's globals


def _module(name):
    mod = types.ModuleType(name)
    sys.modules[name] = mod
    return mod


TORCH = _module('torch')
UTILS = _module('torch._utils')
TENSOR_MOD = _module('torch._tensor')
SERIALIZATION = _module('torch.serialization')


def _function(mod, name):
    def f(*args):
        raise RuntimeError('never called')
    f.__module__, f.__name__, f.__qualname__ = mod.__name__, name, name
    setattr(mod, name, f)
    return f


REBUILD_V2 = _function(UTILS, '_rebuild_tensor_v2')
REBUILD_V3 = _function(UTILS, '_rebuild_tensor_v3')
REBUILD_PARAMETER = _function(UTILS, '_rebuild_parameter')
REBUILD_PARAMETER_STATE = _function(UTILS, '_rebuild_parameter_with_state')
REBUILD_FROM_TYPE = _function(TENSOR_MOD, '_rebuild_from_type_v2')
GET_LAYOUT = _function(SERIALIZATION, '_get_layout')
DEVICE = type('device', (), {'__module__': 'torch'})
TENSOR_CLASS = type('Tensor', (), {'__module__': 'torch'})
TORCH.device, TORCH.Tensor = DEVICE, TENSOR_CLASS


class Dtype:
    """torch.<name>: pickles as the global (torch.dtype's __reduce__ returns its name)."""
    __module__ = 'torch'

    def __init__(self, name, size, fmt, storage):
        self.name, self.size, self.fmt, self.storage = name, size, fmt, storage
        setattr(TORCH, name, self)

    def __reduce__(self):
        return self.name


def _storage_class(name):
    cls = type(name, (), {'__module__': 'torch'})
    setattr(TORCH, name, cls)
    return cls


UNTYPED = _storage_class('UntypedStorage')
# name, element size, struct format (None: raw bytes), legacy storage class (None: _new_dtypes)
DTYPES = {name: Dtype(name, size, fmt, storage and _storage_class(storage)) for name, size, fmt, storage in [
    ('float64', 8, 'd', 'DoubleStorage'), ('float32', 4, 'f', 'FloatStorage'), ('float16', 2, 'e', 'HalfStorage'),
    ('bfloat16', 2, 'bf16', 'BFloat16Storage'), ('int64', 8, 'q', 'LongStorage'), ('int32', 4, 'i', 'IntStorage'),
    ('int16', 2, 'h', 'ShortStorage'), ('int8', 1, 'b', 'CharStorage'), ('uint8', 1, 'B', 'ByteStorage'),
    ('bool', 1, '?', 'BoolStorage'), ('complex64', 8, 'ff', 'ComplexFloatStorage'),
    ('complex128', 16, 'dd', 'ComplexDoubleStorage'),
    ('float8_e5m2', 1, 'e5m2', None), ('float8_e4m3fn', 1, 'e4m3fn', None), ('float8_e5m2fnuz', 1, 'e5m2fnuz', None),
    ('float8_e4m3fnuz', 1, 'e4m3fnuz', None), ('float8_e8m0fnu', 1, 'e8m0', None),
    ('float4_e2m1fn_x2', 1, None, None), ('bits8', 1, None, None), ('bits16', 2, None, None),
    ('complex32', 4, 'ee', None), ('uint16', 2, 'H', None), ('uint32', 4, 'I', None), ('uint64', 8, 'Q', None)]}


class Storage:
    """One storage: its bytes (little-endian elements) and the dtype torch saved it with."""

    def __init__(self, dtype, data):
        self.dtype, self.data, self.key = dtype, data, None


class Tensor:
    """A tensor over a Storage: pickles as torch 2.x's Tensor._reduce_ex_internal does."""

    def __init__(self, storage, offset, size, stride, requires_grad=False, attrs=None):
        self.storage, self.offset, self.size, self.stride = storage, offset, tuple(size), tuple(stride)
        self.requires_grad, self.attrs = requires_grad, attrs

    def reduce_internal(self):
        dtype = self.storage.dtype
        args = (self.storage, self.offset, self.size, self.stride, self.requires_grad, collections.OrderedDict())
        if dtype.storage is None:
            return REBUILD_V3, args + (dtype,)
        return REBUILD_V2, args

    def __reduce_ex__(self, protocol):
        func, args = self.reduce_internal()
        if self.attrs:
            return REBUILD_FROM_TYPE, (func, TENSOR_CLASS, args, self.attrs)
        return func, args


class Parameter:
    """torch.nn.Parameter as torch/nn/parameter.py's __reduce_ex__ pickles it."""

    def __init__(self, data, requires_grad=True, state=None):
        self.data, self.requires_grad, self.state = data, requires_grad, state

    def __reduce_ex__(self, protocol):
        if self.state:
            return REBUILD_PARAMETER_STATE, (self.data, self.requires_grad, collections.OrderedDict(), self.state)
        return REBUILD_PARAMETER, (self.data, self.requires_grad, collections.OrderedDict())


class Layout:
    """torch.strided and friends: copyreg gives (_get_layout, (str(layout),))."""

    def __init__(self, name):
        self.name = name

    def __reduce__(self):
        return GET_LAYOUT, (self.name,)


class Device:
    def __init__(self, name):
        self.name = name

    def __reduce__(self):
        return DEVICE, (self.name,)


# ---- the pickle, as torch/serialization.py _save's persistent_id names storages


def pickle_checkpoint(obj, protocol=2):
    storages = []

    class TorchPickler(pickle.Pickler):
        def persistent_id(self, o):
            if not isinstance(o, Storage):
                return None
            if o.key is None:
                o.key = str(len(storages))
                storages.append(o)
            if o.dtype.storage is None:  # an UntypedStorage: its length in bytes
                return ('storage', UNTYPED, o.key, 'cpu', len(o.data))
            return ('storage', o.dtype.storage, o.key, 'cpu', len(o.data) // o.dtype.size)

    import io
    buf = io.BytesIO()
    TorchPickler(buf, protocol=protocol).dump(obj)
    return buf.getvalue(), storages


# ---- the zip, as miniz writes it for caffe2/serialize/inline_container.cc


def zip_records(records, crc=True):
    out, central = bytearray(), bytearray()
    for name, data in records:
        name_b = name.encode()
        start = len(out) + 30 + len(name_b) + 4  # getPadding: the header, the name, "FB" + length
        pad = -start % 64
        extra = b'FB' + struct.pack('<H', pad) + b'Z' * pad
        checksum = zlib.crc32(data) if crc else 0
        offset = len(out)
        out += struct.pack('<IHHHHHIIIHH', 0x04034b50, 0, 0x808, 0, 0, 0, 0, 0, 0, len(name_b), len(extra))
        out += name_b + extra
        assert len(out) % 64 == 0
        out += data
        out += struct.pack('<IIII', 0x08074b50, checksum, len(data), len(data))
        central += struct.pack('<IHHHHHHIIIHHHHHII', 0x02014b50, 0, 0, 0x808, 0, 0, 0, checksum, len(data),
                               len(data), len(name_b), 0, 0, 0, 0, 0, offset)
        central += name_b
    cd_offset, n = len(out), len(records)
    out += central
    zip64_end = len(out)
    out += struct.pack('<IQHHIIQQQQ', 0x06064b50, 44, 0x031e, 0x2d, 0, 0, n, n, len(central), cd_offset)
    out += struct.pack('<IIQI', 0x07064b50, 0, zip64_end, 1)
    out += struct.pack('<IHHHHIIH', 0x06054b50, 0, 0, n, n, len(central), cd_offset, 0)
    return bytes(out)


def serialization_id(records):
    """40 digits, as writeSerializationId lays them out (its hash is c10's; any digits do here)."""
    h = zlib.crc32(''.join(name for name, _ in records).encode())
    c = 0
    for _, data in records:
        c = zlib.crc32(data, c)
    return f'{h:020d}{c:020d}'.encode()


def torch_save(obj, file_name, layout='2.9', byteorder='little', crc=True, protocol=2):
    """torch.save(obj, file_name) as torch `layout` writes it: '2.9' (every record above) or
    '2.1' (byteorder only, before .format_version, .storage_alignment and serialization_id)."""
    data_pkl, storages = pickle_checkpoint(obj, protocol)
    folder = os.path.splitext(os.path.basename(file_name))[0]
    records = [('data.pkl', data_pkl)]
    if layout == '2.9':
        records += [('.format_version', b'1'), ('.storage_alignment', b'64')]
    records.append(('byteorder', byteorder.encode()))
    for s in storages:
        records.append((f'data/{s.key}', swap(s.data, s.dtype) if byteorder == 'big' else s.data))
    records.append(('version', b'3\n'))
    if layout == '2.9':
        records.append(('.data/serialization_id', serialization_id(records)))
    with open(os.path.join(OUT, file_name), 'wb') as f:
        f.write(zip_records([(f'{folder}/{name}', data) for name, data in records], crc))


def swap(data, dtype):
    """Big-endian elements: torch/storage.py byteswap (a complex's halves each on its own)."""
    size = dtype.size // 2 if dtype.fmt in ('ff', 'dd', 'ee') else dtype.size
    return b''.join(data[i:i + size][::-1] for i in range(0, len(data), size))


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
                 'bytes': data.hex()}
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


def storage_of(name, values):
    dtype = DTYPES[name]
    if name in F8_CODES or dtype.fmt is None:
        return Storage(dtype, bytes(values))
    if dtype.fmt == 'bf16':
        return Storage(dtype, b''.join(struct.pack('<f', v)[2:] for v in values))
    fmt = dtype.fmt
    flat = [x for v in values for x in ((v.real, v.imag) if len(fmt) == 2 else (v,))]
    return Storage(dtype, struct.pack('<' + fmt[0] * len(flat), *flat))


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
    for name in DTYPES:
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


def parameters():
    """Parameters and tensors carrying what torch 2.x adds: requires_grad, hooks, Python state."""
    return {
        'model': {
            'weight': Parameter(Tensor(storage_of('float32', [1.0, 2.0, 3.0, 4.0]), 0, (2, 2), (2, 1))),
            'frozen': Parameter(Tensor(storage_of('float8_e5m2', [0x3C, 0x40]), 0, (2,), (1,)), requires_grad=False),
            'lora_A': Parameter(Tensor(storage_of('bfloat16', [0.5, -0.5, 1.5]), 0, (3,), (1,)),
                                state={'adapter': 'default', 'rank': 4}),
            'grad': Tensor(storage_of('float32', [0.25, 0.5]), 0, (2,), (1,), requires_grad=True),
            'tagged': Tensor(storage_of('uint32', [9, 10, 11]), 0, (3,), (1,), attrs={'quant': 'none'}),
        },
        'layout': Layout('torch.strided'),
        'device': Device('cpu'),
        'step': 12,
    }


def main():
    written = {}

    def save(obj, file_name, **kw):
        torch_save(obj, file_name, **kw)
        written[file_name] = {'format': 'pytorch-zip', 'verdict': 'safe', 'tensors': describe(obj), **{
            'layout': kw.get('layout', '2.9'), 'byteorder': kw.get('byteorder', 'little')}}
        for s in list(_all_storages(obj)):
            s.key = None  # keys are the next file's own

    save(every_dtype(), 'torch2_dtypes.pt')
    save(every_dtype(), 'torch2_dtypes_big.pt', byteorder='big')
    save(views(), 'torch2_views.pt')
    save(state_dict(), 'torch2_model.v2.pt')
    save(state_dict(), 'torch2_model_big.pt', byteorder='big')
    save(state_dict(), 'torch2_layout21.pt', layout='2.1', crc=False)
    save(parameters(), 'torch2_parameters.pt', protocol=4)
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
