#!/usr/bin/env python3
"""Files that are not safetensors, made with each format's own tools where Python has them
(zipfile, pickle, gzip, json, zlib) and from the format's specification otherwise, for the
NotSafetensors tests (tests/native/foreign_format_test.cpp, tests/js/foreign_format.test.js).

    python3 tools/foreign_files.py OUTDIR

writes the files and OUTDIR/expected.tsv: one "file<TAB>format" line per file (the format a
NotSafetensors finding must name). Deterministic: the same bytes on every run.
"""

import gzip
import hashlib
import io
import json
import pickle
import random
import struct
import sys
import types
import zipfile
import zlib
from collections import OrderedDict
from pathlib import Path


def tiny_safetensors():
    """A loadable safetensors file: one F32 tensor of 4 values, header padded to 8."""
    header = json.dumps({"w": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]}}, separators=(",", ":"))
    header += " " * (-len(header) % 8)
    return struct.pack("<Q", len(header)) + header.encode() + struct.pack("<4f", 1, 2, 3, 4)


def lfs_pointer(content):
    """The pointer `git lfs pointer --file` writes for `content` (git-lfs docs/spec.md)."""
    oid = hashlib.sha256(content).hexdigest()
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{oid}\nsize {len(content)}\n".encode()


# torch.save pickles a state dict with persistent ids for storages and a GLOBAL for
# torch._utils._rebuild_tensor_v2 (pytorch/pytorch torch/serialization.py, torch/_tensor.py).
# Stand-in modules named as torch's let pickle write those GLOBALs without torch installed.
def _make_torch_stand_ins():
    torch = types.ModuleType("torch")
    utils = types.ModuleType("torch._utils")

    class FloatStorage:
        pass

    def _rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks):
        raise NotImplementedError

    FloatStorage.__module__, FloatStorage.__qualname__ = "torch", "FloatStorage"
    _rebuild_tensor_v2.__module__, _rebuild_tensor_v2.__qualname__ = "torch._utils", "_rebuild_tensor_v2"
    torch.FloatStorage = FloatStorage
    torch._utils = utils
    utils._rebuild_tensor_v2 = _rebuild_tensor_v2
    sys.modules["torch"] = torch
    sys.modules["torch._utils"] = utils
    return FloatStorage, _rebuild_tensor_v2


_FLOAT_STORAGE, _REBUILD_TENSOR_V2 = _make_torch_stand_ins()


class _Storage:
    def __init__(self, key, numel):
        self.key, self.numel = key, numel


class _Tensor:
    def __init__(self, storage, shape):
        self.storage, self.shape = storage, shape

    def __reduce__(self):
        stride = (self.shape[1], 1)
        return (_REBUILD_TENSOR_V2, (self.storage, 0, self.shape, stride, False, OrderedDict()))


def state_dict_pickle(protocol=2):
    """data.pkl as torch.save writes it for {'weight': a 2x2 float tensor}."""
    buffer = io.BytesIO()

    class TorchPickler(pickle.Pickler):
        def persistent_id(self, obj):
            if isinstance(obj, _Storage):
                return ("storage", _FLOAT_STORAGE, obj.key, "cpu", obj.numel)
            return None

    TorchPickler(buffer, protocol=protocol).dump(OrderedDict(weight=_Tensor(_Storage("0", 4), (2, 2))))
    return buffer.getvalue()


def torch_zip(folder, first_entry_bytes=0):
    """torch.save's zip layout: records under one folder, stored (not compressed), data.pkl first.
    With `first_entry_bytes`, an entry of that size comes before data.pkl (for the 64 KiB window)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
        if first_entry_bytes:
            z.writestr(f"{folder}/.filler", bytes(first_entry_bytes))
        z.writestr(f"{folder}/data.pkl", state_dict_pickle())
        z.writestr(f"{folder}/.format_version", "1")
        z.writestr(f"{folder}/.storage_alignment", "64")
        z.writestr(f"{folder}/byteorder", "little")
        z.writestr(f"{folder}/data/0", struct.pack("<4f", 1, 2, 3, 4))
        z.writestr(f"{folder}/version", "3\n")
        z.writestr(f"{folder}/.data/serialization_id", "1234567890")
    return out.getvalue()


def legacy_torch_save():
    """torch.save before 1.6 (_legacy_save): magic number, protocol version, sys info, the
    object, the storage keys, then the storages' bytes, each pickled with protocol 2."""
    parts = [
        pickle.dumps(0x1950A86A20F9469CFC6C, protocol=2),
        pickle.dumps(1001, protocol=2),
        pickle.dumps({"protocol_version": 1001, "little_endian": True, "type_sizes": {"short": 2, "int": 4}}, 2),
        state_dict_pickle(),
        pickle.dumps(["0"], protocol=2),
        struct.pack("<q4f", 4, 1, 2, 3, 4),
    ]
    return b"".join(parts)


def gguf_file():
    """A GGUF v3 file (ggml-org/ggml docs/gguf.md): header, two key-value pairs (architecture
    first, as llama.cpp writes it), one F32 tensor's info, padding to 32, its data."""

    def string(s):
        return struct.pack("<Q", len(s)) + s.encode()

    out = b"GGUF" + struct.pack("<IQQ", 3, 1, 2)
    out += string("general.architecture") + struct.pack("<I", 8) + string("llama")
    out += string("general.alignment") + struct.pack("<II", 4, 32)
    out += string("token_embd.weight") + struct.pack("<I", 2) + struct.pack("<QQ", 2, 2) + struct.pack("<IQ", 0, 0)
    out += bytes(-len(out) % 32)
    return out + struct.pack("<4f", 1, 2, 3, 4)


def png_file(width=3, height=2):
    """A real PNG (ISO/IEC 15948): signature, IHDR, one IDAT of RGB rows, IEND."""

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\0" + bytes(c for x in range(width) for c in (40 * x, 90, 200 - 60 * y)) for y in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def jpeg_file():
    """The start of a JFIF file (ITU T.81 markers, JFIF 1.02 APP0): SOI, APP0, a comment, EOI."""
    app0 = b"JFIF\0" + struct.pack(">BBBHHBB", 1, 2, 1, 72, 72, 0, 0)
    comment = b"saved preview"
    return (b"\xff\xd8" + b"\xff\xe0" + struct.pack(">H", len(app0) + 2) + app0 + b"\xff\xfe" +
            struct.pack(">H", len(comment) + 2) + comment + b"\xff\xd9")


def main(out_dir):
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    model = tiny_safetensors()
    noise = random.Random(1).randbytes(600_000)
    html_page = ("<!DOCTYPE html>\n<html class=\"\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\" />\n"
                 "<title>model.safetensors · someone/some-model at main</title>\n</head>\n<body>\n"
                 "<a href=\"/someone/some-model/resolve/main/model.safetensors\">download</a>\n</body>\n</html>\n")
    files = {
        "lfs_pointer.safetensors": ("git-lfs-pointer", lfs_pointer(model)),
        "lfs_pointer_crlf.safetensors": ("git-lfs-pointer", lfs_pointer(noise).replace(b"\n", b"\r\n")),
        "torch_save.pt": ("pytorch-zip", torch_zip("archive")),
        "torch_save_named.bin": ("pytorch-zip", torch_zip("pytorch_model")),
        "torch_save_data_pkl_inside_window.bin": ("pytorch-zip", torch_zip("archive", 60_000)),
        "torch_save_data_pkl_past_window.bin": ("zip", torch_zip("archive", 70_000)),
        "legacy_torch_save.bin": ("pickle", legacy_torch_save()),
        "pickle_protocol4.pkl": ("pickle", pickle.dumps({"weight": [1.0, 2.0]}, protocol=4)),
        "pickle_protocol5.pkl": ("pickle", pickle.dumps(OrderedDict(a=1), protocol=5)),
        "model.gguf": ("gguf", gguf_file()),
        "hub_blob_page.safetensors": ("html", html_page.encode()),
        "error_page.safetensors": ("html", b"<html>\r\n<head><title>404 Not Found</title></head>\r\n</html>\r\n"),
        "bom_comment_page.html": ("html", "\ufeff<!-- saved -->\n<HTML><BODY>x</BODY></HTML>".encode()),
        "model.safetensors.index.json": ("json", json.dumps(
            {"metadata": {"total_size": 16}, "weight_map": {"w": "model-00001-of-00001.safetensors"}},
            indent=2).encode()),
        "model_index.json": ("json", json.dumps(
            {"_class_name": "StableDiffusionPipeline", "_diffusers_version": "0.21.0",
             "unet": ["diffusers", "UNet2DConditionModel"]}, indent=2).encode()),
        "config.json": ("json", json.dumps({"architectures": ["GPT2LMHeadModel"], "n_layer": 4}).encode()),
        "preview.png": ("png", png_file()),
        "preview.jpg": ("jpeg", jpeg_file()),
        "model.safetensors.gz": ("gzip", gzip_named(model, "model.safetensors")),
        "plain.gz": ("gzip", gzip.compress(model, mtime=0)),
        "large_plain.gz": ("gzip", gzip.compress(noise, compresslevel=1, mtime=0)),
        "model.zip": ("zip", zipped("model.safetensors", model)),
        "empty_archive.zip": ("zip", zipped(None, None)),
        "empty.safetensors": ("empty", b""),
    }
    for name, (_, data) in files.items():
        (out / name).write_bytes(data)
    (out / "expected.tsv").write_text("".join(f"{name}\t{fmt}\n" for name, (fmt, _) in files.items()))


def gzip_named(data, name):
    """gzip with the original name stored (FNAME), as `gzip model.safetensors` writes it."""
    out = io.BytesIO()
    with gzip.GzipFile(filename=name, mode="wb", fileobj=out, mtime=0) as g:
        g.write(data)
    return out.getvalue()


def zipped(name, data):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        if name is not None:
            z.writestr(name, data)
    return out.getvalue()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
