"""The bytes safetensors.torch.save_file(state_dict, metadata={"format": "pt"}) writes, rebuilt
from the reference's public rules (no safetensors package needed), and a parser of .safetensors
bytes of its own: the checks of our convert (check_conversions.py) use both.

The rules, from huggingface/safetensors (commit 24b0b28, May 2026):
- bindings/python/py_src/safetensors/torch.py: save_file passes each tensor's dtype as
  str(v.dtype).split(".")[-1], its shape and its bytes (_to_ndarray: the contiguous buffer, little
  endian); _flatten_as_ptr refuses tensors that are not contiguous, and
  _evaluate_tensors_for_save refuses tensors sharing a storage (save_model keeps one name).
- bindings/python/src/lib.rs: those names become Dtype values ("bool" -> BOOL, "bfloat16" ->
  BF16, "complex64" -> C64, "float8_e4m3fn" -> F8_E4M3, ...); complex128 has none.
- safetensors/src/tensor.rs, prepare: tensors sorted by Dtype descending (the enum's order,
  below), then by name (Rust String order: bytes); offsets packed from 0; the header is
  serde_json::to_string of Metadata: "__metadata__" first (a HashMap: key order is the hash's,
  so one key is the only order that is fixed), then each name -> {"dtype","shape","data_offsets"}
  (TensorInfo's field order), compact; padded with b' ' to a multiple of 8 (N_LEN); serialize
  writes the padded length as u64 little endian, the header, then the tensors' bytes.
- serde_json (src/ser.rs, ESCAPE table): strings escape '"', '\\' and control characters only,
  as \\b \\t \\n \\f \\r or \\u00xx (lowercase hex); other characters are written as UTF-8.
"""

import json
import struct

# safetensors/src/tensor.rs, enum Dtype: "MUST be in increasing alignment order".
DTYPE_ORDER = ['BOOL', 'F4', 'F6_E2M3', 'F6_E3M2', 'U8', 'I8', 'F8_E5M2', 'F8_E4M3', 'F8_E8M0',
               'F8_E4M3FNUZ', 'F8_E5M2FNUZ', 'I16', 'U16', 'F16', 'BF16', 'I32', 'U32', 'F32', 'C64',
               'F64', 'I64', 'U64']
# bindings/python/src/lib.rs: torch's dtype name -> Dtype.
TORCH_TO_DTYPE = {'bool': 'BOOL', 'int8': 'I8', 'uint8': 'U8', 'int16': 'I16', 'uint16': 'U16', 'int32': 'I32',
                  'uint32': 'U32', 'int64': 'I64', 'uint64': 'U64', 'float16': 'F16', 'float32': 'F32',
                  'float64': 'F64', 'bfloat16': 'BF16', 'float8_e4m3fn': 'F8_E4M3', 'float8_e4m3fnuz': 'F8_E4M3FNUZ',
                  'float8_e5m2': 'F8_E5M2', 'float8_e5m2fnuz': 'F8_E5M2FNUZ', 'float8_e8m0fnu': 'F8_E8M0',
                  'float4_e2m1fn_x2': 'F4', 'complex64': 'C64'}
SHORT_ESCAPES = {0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0c: '\\f', 0x0d: '\\r', 0x22: '\\"', 0x5c: '\\\\'}


def json_string(text):
    """A string as serde_json writes it."""
    out = []
    for ch in text:
        code = ord(ch)
        if code in SHORT_ESCAPES:
            out.append(SHORT_ESCAPES[code])
        elif code < 0x20:
            out.append('\\u%04x' % code)
        else:
            out.append(ch)
    return '"' + ''.join(out) + '"'


def tensor_bytes(tensor):
    """A tensor's elements in row-major order, little endian (this machine's order is checked)."""
    import sys
    import torch
    assert sys.byteorder == 'little'
    if tensor.numel() == 0:
        return b''
    flat = torch.empty(tensor.numel(), dtype=tensor.dtype)  # a fresh buffer: strides 1, whatever the view's
    flat.copy_(tensor.detach().reshape(-1))
    return flat.view(torch.uint8).numpy().tobytes()


def reference_parts(tensors, metadata):
    """save_file's bytes for {name: tensor} (each made contiguous, as a copy: see the module's
    notes), as the header and then a function per tensor giving its bytes."""
    entries = []
    for name, tensor in tensors.items():
        dtype = TORCH_TO_DTYPE[str(tensor.dtype).split('.')[-1]]
        size = tensor.numel() * tensor.element_size()
        entries.append((name, dtype, list(tensor.shape), size, lambda t=tensor: tensor_bytes(t)))
    entries.sort(key=lambda e: (-DTYPE_ORDER.index(e[1]), e[0].encode('utf-8')))
    parts = []
    if metadata is not None:
        inner = ','.join(json_string(k) + ':' + json_string(v) for k, v in metadata.items())
        parts.append('"__metadata__":{' + inner + '}')
    offset = 0
    for name, dtype, shape, size, _ in entries:
        end = offset + size
        parts.append('%s:{"dtype":"%s","shape":[%s],"data_offsets":[%d,%d]}'
                     % (json_string(name), dtype, ','.join(str(d) for d in shape), offset, end))
        offset = end
    header = ('{' + ','.join(parts) + '}').encode('utf-8')
    header += b' ' * (-len(header) % 8)
    return struct.pack('<Q', len(header)) + header, [e[4] for e in entries]


def reference_bytes(tensors, metadata):
    """save_file's bytes for {name: tensor}, whole."""
    head, datas = reference_parts(tensors, metadata)
    return head + b''.join(data() for data in datas)


def parse(data):
    """A .safetensors file's (metadata, {name: (dtype, shape, bytes)}), checked as it is read."""
    (length,) = struct.unpack_from('<Q', data, 0)
    header = json.loads(data[8:8 + length].decode('utf-8'))
    metadata = header.pop('__metadata__', None)
    body = data[8 + length:]
    tensors = {}
    covered = 0
    for name, info in sorted(header.items(), key=lambda kv: kv[1]['data_offsets']):
        begin, end = info['data_offsets']
        assert begin == covered, f'{name}: data starts at {begin}, expected {covered}'
        tensors[name] = (info['dtype'], info['shape'], body[begin:end])
        covered = end
    assert covered == len(body), f'the data section is {len(body)} bytes, the tensors cover {covered}'
    return metadata, tensors
