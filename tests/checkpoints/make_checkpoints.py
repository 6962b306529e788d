"""Writes the checkpoints the pickle reader is tested on, with torch.save itself (Debian's
python3-torch: run with /usr/bin/python3), and expected.json: what torch says about each tensor
(dtype, shape, stride, storage offset, storage key), read back from the saved file with
torch.load. The files are committed beside this script, so CI needs no torch.

os_system*.pkl hold a call of os.system: written with pickle's own dumps, never loaded."""

import collections
import io
import json
import os
import pickle
import sys
import zipfile

import numpy as np
import torch

OUT = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(0)


def dtypes():
    """Every dtype this torch saves as a typed storage, one small tensor each."""
    out = {}
    for dt in [torch.float64, torch.float32, torch.float16, torch.bfloat16, torch.int64, torch.int32,
               torch.int16, torch.int8, torch.uint8, torch.bool, torch.complex64, torch.complex128]:
        name = str(dt).split('.')[1]
        out[name] = (torch.arange(6).reshape(2, 3) - 2).to(dt)
    return out


def views():
    base = torch.arange(64, dtype=torch.float32).reshape(8, 8)
    return {'base': base, 'row': base[3], 'column': base[:, 2], 'transposed': base.t(),
            'strided': base[2:5, 1:7:2], 'scalar': base[5, 5]}


def tied():
    lin = torch.nn.Linear(4, 3)
    return {'encoder.weight': lin.weight.data, 'decoder.weight': lin.weight.data, 'bias': lin.bias.data}


def lightning():
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
    opt = torch.optim.Adam(model.parameters())
    model(torch.randn(3, 4)).sum().backward()
    opt.step()
    return {'epoch': 3, 'global_step': 120, 'pytorch-lightning_version': '1.9.0',
            'state_dict': model.state_dict(), 'optimizer_states': [opt.state_dict()],
            'lr_schedulers': [], 'hyper_parameters': {'lr': 0.001, 'hidden': 8}}


def embedding():
    """An A1111 textual inversion (modules/textual_inversion/textual_inversion.py's save)."""
    return {'string_to_token': {'*': 265}, 'string_to_param': {'*': torch.nn.Parameter(torch.randn(2, 16))},
            'name': 'tiny-embedding', 'step': 100, 'sd_checkpoint': '7460a6fa',
            'sd_checkpoint_name': 'v1-5-pruned-emaonly'}


def parameters():
    return {'weight': torch.nn.Parameter(torch.randn(3, 2)), 'frozen': torch.nn.Parameter(torch.ones(2), requires_grad=False)}


class SystemCall:
    """Pickles as a call of os.system: the payload every scanner's tests use. Never unpickled."""

    def __reduce__(self):
        return (os.system, ('echo this file ran a command',))


def describe(obj, prefix=''):
    """name -> facts, for every tensor in obj, from torch itself."""
    out = {}
    if isinstance(obj, torch.Tensor):
        out[prefix] = {'dtype': str(obj.dtype).split('.')[1], 'shape': list(obj.shape), 'stride': list(obj.stride()),
                       'storage_offset': obj.storage_offset(), 'parameter': isinstance(obj, torch.nn.Parameter)}
        if obj.dtype == torch.float32 and obj.numel() <= 64:  # the values, to check reads by offset and stride
            out[prefix]['values'] = obj.detach().flatten().tolist()
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out.update(describe(v, f'{prefix}.{k}' if prefix else str(k)))
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            out.update(describe(v, f'{prefix}.{i}' if prefix else str(i)))
    return out


class Unseekable(io.RawIOBase):
    """A write-only stream without seek: zipfile then writes data descriptors (flag bit 3)."""

    def __init__(self):
        self.data = bytearray()

    def writable(self):
        return True

    def write(self, b):
        self.data += b
        return len(b)


def zip_variants(source):
    """views.pt's records re-zipped by Python's zipfile in the layouts a reader must handle."""
    with zipfile.ZipFile(source) as z:
        records = [(i.filename, z.read(i.filename)) for i in z.infolist()]

    def write(target, zip64=False):
        with zipfile.ZipFile(target, 'w') as z:
            for filename, data in records:
                with z.open(filename, 'w', force_zip64=zip64) as f:
                    f.write(data)

    with zipfile.ZipFile(os.path.join(OUT, 'views_deflated.pt'), 'w', compression=zipfile.ZIP_DEFLATED) as z:
        for filename, data in records:
            z.writestr(filename, data)
    # ZIP64 everywhere: zipfile switches to ZIP64 records past these limits, so lower them.
    limits = zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT
    zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT = 100, 1
    try:
        write(os.path.join(OUT, 'views_zip64.pt'), zip64=True)
    finally:
        zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT = limits
    stream = Unseekable()
    write(stream)
    with open(os.path.join(OUT, 'views_descriptor.pt'), 'wb') as f:
        f.write(stream.data)
    with open(source, 'rb') as f:
        original = f.read()
    with open(os.path.join(OUT, 'views_prefix.pt'), 'wb') as f:  # bytes in front: offsets shift
        f.write(b'\x80\x02K\x07.' + original)
    # The local header of data.pkl names another record than the directory does.
    first_name = records[0][0].encode()
    patched = original[:30] + first_name[:-1] + b'X' + original[30 + len(first_name):]
    with open(os.path.join(OUT, 'views_disagree.pt'), 'wb') as f:
        f.write(patched)


def main():
    expected = {}
    cases = {'dtypes.pt': dtypes(), 'views.pt': views(), 'tied.pt': tied(), 'lightning.ckpt': lightning(),
             'embedding.pt': embedding(), 'parameters.pt': parameters()}
    for name, obj in cases.items():
        path = os.path.join(OUT, name)
        torch.save(obj, path)
        expected[name] = {'format': 'pytorch-zip', 'tensors': describe(torch.load(path))}
    legacy = {'weight': torch.arange(12, dtype=torch.float16).reshape(3, 4), 'view': torch.arange(10.0)[2:7]}
    torch.save(legacy, os.path.join(OUT, 'legacy.pt'), _use_new_zipfile_serialization=False)
    expected['legacy.pt'] = {'format': 'pytorch-legacy', 'tensors': describe(torch.load(os.path.join(OUT, 'legacy.pt')))}
    # A checkpoint whose pickle also calls os.system (torch.save pickles it; nothing runs).
    torch.save({'weight': torch.ones(2), 'payload': SystemCall()}, os.path.join(OUT, 'os_system.pt'))
    expected['os_system.pt'] = {'format': 'pytorch-zip', 'unsafe': ['posix.system']}
    for protocol in (0, 2, 4):
        with open(os.path.join(OUT, f'os_system_p{protocol}.pkl'), 'wb') as f:
            f.write(pickle.dumps({'payload': SystemCall()}, protocol=protocol))
    # Plain data under every protocol: the machine's values against Python's own.
    data = {'int': 7, 'negative': -300, 'big': 2**100, 'negative_big': -(2**70), 'float': 1.5, 'text': 'héllo',
            'bytes': b'\x00\x01', 'list': [1, 2, [3]], 'tuple': (1, 'a', None), 'set': {4}, 'frozen': frozenset({5}),
            'flags': [True, False], 'ordered': collections.OrderedDict([('a', 1), ('b', 2)])}
    for protocol in range(0, 6):
        with open(os.path.join(OUT, f'data_p{protocol}.pkl'), 'wb') as f:
            pickle.dump(data, f, protocol=protocol)
    # NumPy: a plain array, an object array (a pickle inside), and an .npz of both.
    np.save(os.path.join(OUT, 'array.npy'), np.arange(6, dtype='<f4').reshape(2, 3))
    np.save(os.path.join(OUT, 'objects.npy'), np.array([{'a': 1}, None], dtype=object), allow_pickle=True)
    np.savez(os.path.join(OUT, 'arrays.npz'), x=np.arange(3, dtype='<i8'), y=np.ones((2, 2), dtype='<f8'))
    zip_variants(os.path.join(OUT, 'views.pt'))
    with open(os.path.join(OUT, 'expected.json'), 'w') as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write('\n')


if __name__ == '__main__':
    main()
