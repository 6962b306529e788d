// The plain Node script the CLI's cold start is measured against (tests/bench/cold_cli.bench.js):
// opens FILE, reads the 8-byte little-endian length and the header, JSON.parses it and prints how
// many tensors it lists (every key but __metadata__). The least any reader of a header does.
import { open } from 'node:fs/promises';

const handle = await open(process.argv[2], 'r');
try {
  const prefix = Buffer.alloc(8);
  await handle.read(prefix, 0, 8, 0);
  const length = Number(prefix.readBigUInt64LE(0));
  const header = Buffer.alloc(length);
  await handle.read(header, 0, length, 8);
  const parsed = JSON.parse(header.toString('utf8'));
  console.log(`${Object.keys(parsed).filter((k) => k !== '__metadata__').length} tensors`);
} finally {
  await handle.close();
}
