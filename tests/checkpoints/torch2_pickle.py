"""Stand-ins for torch's objects, registered under torch's module names so that Python's own
Pickler writes the pickle torch 2.x's torch.save writes (protocol 2 by default:
torch.serialization.DEFAULT_PROTOCOL). Nothing of torch is imported or run. Facts from
pytorch/pytorch main at 31d1cf19 (torch/serialization.py; the others at the same time):
- torch/serialization.py `_save`, persistent_id: ('storage', storage class, key, location,
  numel), keys "0", "1", ... in the order met; a TypedStorage's class is its legacy one
  (torch.FloatStorage, ...) and numel counts elements; an UntypedStorage's counts bytes.
- torch/_tensor.py `_reduce_ex_internal`: dtypes in torch/storage.py `_new_dtypes()` (float8_*,
  float4_e2m1fn_x2, bits*, complex32, uint16/32/64) pickle as `torch._utils._rebuild_tensor_v3(
  storage, offset, size, stride, requires_grad, backward_hooks, dtype)` over an UntypedStorage,
  the others as `_rebuild_tensor_v2(...)` without the dtype over a typed storage
  (`_dtype_to_storage_type_map`). backward_hooks is an empty collections.OrderedDict. A tensor
  with Python attributes is wrapped: `torch._tensor._rebuild_from_type_v2(func, type, args,
  state)` (Tensor.__reduce_ex__).
- torch/nn/parameter.py `__reduce_ex__`: `_rebuild_parameter(data, requires_grad, OrderedDict())`,
  or `_rebuild_parameter_with_state(data, requires_grad, hooks, state)` when it has attributes.
- torch/serialization.py registers torch.layout with copyreg as `_get_layout(str(layout))`;
  torch.device pickles as torch.device("cpu"); a dtype as the global torch.<name>."""

import collections
import io
import pickle
import struct
import sys
import types

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
REBUILD_QTENSOR = _function(UTILS, '_rebuild_qtensor')
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
    ('complex32', 4, 'ee', None), ('uint16', 2, 'H', None), ('uint32', 4, 'I', None), ('uint64', 8, 'Q', None),
    # quantized: only ever the storage of a _rebuild_qtensor (its integer representation)
    ('qint8', 1, 'b', 'QInt8Storage'), ('quint8', 1, 'B', 'QUInt8Storage'), ('qint32', 4, 'i', 'QInt32Storage')]}


class QScheme:
    """torch.per_tensor_affine and friends: pickle as the global, as dtypes do."""
    __module__ = 'torch'

    def __init__(self, name):
        self.name = name
        setattr(TORCH, name, self)

    def __reduce__(self):
        return self.name


PER_TENSOR_AFFINE = QScheme('per_tensor_affine')
PER_CHANNEL_AFFINE = QScheme('per_channel_affine')


class Storage:
    """One storage: its bytes (little-endian elements), the dtype torch saved it with, and its
    location_tag ("cpu", "cuda:0": the device it was saved from)."""

    def __init__(self, dtype, data, location='cpu'):
        self.dtype, self.data, self.key, self.location = dtype, data, None, location


class Tensor:
    """A tensor over a Storage: pickles as torch 2.x's Tensor._reduce_ex_internal does."""

    def __init__(self, storage, offset, size, stride, requires_grad=False, attrs=None, quantizer=None):
        self.storage, self.offset, self.size, self.stride = storage, offset, tuple(size), tuple(stride)
        self.requires_grad, self.attrs, self.quantizer = requires_grad, attrs, quantizer

    def reduce_internal(self):
        dtype = self.storage.dtype
        if self.quantizer:  # (qscheme, scale, zero_point) or (qscheme, scales, zero_points, axis)
            return REBUILD_QTENSOR, (self.storage, self.offset, self.size, self.stride, self.quantizer,
                                     self.requires_grad, collections.OrderedDict())
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


def pickle_checkpoint(obj, protocol=2, legacy_keys=None):
    """The main pickle and its storages in the order met. With legacy_keys (_legacy_save: keys
    are str(storage._cdata), a pointer), each id carries a sixth item, view_metadata None."""
    storages = []

    class TorchPickler(pickle.Pickler):
        def persistent_id(self, o):
            if not isinstance(o, Storage):
                return None
            if o.key is None:
                o.key = legacy_keys[len(storages)] if legacy_keys else str(len(storages))
                storages.append(o)
            view = (None,) if legacy_keys else ()
            if o.dtype.storage is None:  # an UntypedStorage: its length in bytes
                return ('storage', UNTYPED, o.key, o.location, len(o.data)) + view
            return ('storage', o.dtype.storage, o.key, o.location, len(o.data) // o.dtype.size) + view

    buf = io.BytesIO()
    TorchPickler(buf, protocol=protocol).dump(obj)
    return buf.getvalue(), storages


def torch_save_legacy(obj, path, keys):
    """torch.save(obj, path, _use_new_zipfile_serialization=False) as torch 2.x writes it
    (torch/serialization.py `_legacy_save`): pickles of the magic number, the protocol version
    1001 and sys_info, the object, the storage keys sorted as strings; then each storage as
    `_write_file` writes it, an int64 count of elements of `_element_size(dtype)` bytes
    (an UntypedStorage's dtype is uint8: its count is its bytes) and the bytes, little-endian."""
    sys_info = {'protocol_version': 1001, 'little_endian': True, 'type_sizes': {'short': 2, 'int': 4, 'long': 4}}
    data, storages = pickle_checkpoint(obj, 2, keys)
    out = b''.join(pickle.dumps(v, protocol=2) for v in (0x1950a86a20f9469cfc6c, 1001, sys_info)) + data
    out += pickle.dumps(sorted(s.key for s in storages), protocol=2)
    for s in sorted(storages, key=lambda s: s.key):
        size = 1 if s.dtype.storage is None else s.dtype.size
        out += struct.pack('<q', len(s.data) // size) + s.data
    with open(path, 'wb') as f:
        f.write(out)
