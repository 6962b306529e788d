"""The zip torch 2.x's torch.save writes, byte for byte (pytorch/pytorch: torch/serialization.py
`_save` at main 31d1cf19; caffe2/serialize/inline_container.cc at 3834689c):
- after data.pkl the records `.format_version` ("1": storages written in the numeric order of
  their keys, 0, 1, ..., 10, not sorted as strings), `.storage_alignment` ("64") and `byteorder`
  (sys.byteorder: "little", or "big" on s390x, whose storages then hold big-endian elements that
  torch.load byte-swaps per element, each half of a complex on its own: torch/serialization.py
  `_load`, torch/storage.py `byteswap`), then data/<key> for each storage;
- PyTorchStreamWriter::writeEndOfFile: `version` ("3\\n"), then `.data/serialization_id` (40
  digits) last;
- every record's data starts on a 64-byte boundary: `detail::getPadding` puts an extra field
  "FB" + le16 length + 'Z' * length in the local header;
- miniz writes every record STORED with flag bits 3 and 11 (a data descriptor after the data,
  CRC and sizes zero in the local header), DOS time zero, ZIP64 end records always; with
  torch.serialization.config.save.compute_crc32 = False (a later 2.x option) the CRCs are zero;
- the archive's folder is the file's name without folder and extension (`basename`), or
  "archive" when torch.save is given a file object (PyTorchStreamWriter's writer_func
  constructor).
Earlier 2.x releases wrote fewer of these: the byteorder record came first, then the others."""

import os
import struct
import zlib

from torch2_pickle import pickle_checkpoint


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


def torch_save(obj, path, layout='2.9', byteorder='little', crc=True, protocol=2, stream=False):
    """torch.save(obj, path) as torch `layout` writes it: '2.9' (every record above) or
    'early-2.x' (byteorder only, before .format_version, .storage_alignment and serialization_id).
    stream: saved to a file object (the folder is "archive")."""
    data_pkl, storages = pickle_checkpoint(obj, protocol)
    folder = 'archive' if stream else os.path.splitext(os.path.basename(path))[0]
    records = [('data.pkl', data_pkl)]
    if layout == '2.9':
        records += [('.format_version', b'1'), ('.storage_alignment', b'64')]
    records.append(('byteorder', byteorder.encode()))
    for s in storages:
        records.append((f'data/{s.key}', swap(s.data, s.dtype) if byteorder == 'big' else s.data))
    records.append(('version', b'3\n'))
    if layout == '2.9':
        records.append(('.data/serialization_id', serialization_id(records)))
    with open(path, 'wb') as f:
        f.write(zip_records([(f'{folder}/{name}', data) for name, data in records], crc))


def swap(data, dtype):
    """Big-endian elements: torch/storage.py byteswap (a complex's halves each on its own)."""
    size = dtype.size // 2 if dtype.fmt in ('ff', 'dd', 'ee') else dtype.size
    return b''.join(data[i:i + size][::-1] for i in range(0, len(data), size))
