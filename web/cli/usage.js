// What the CLI takes: its usage text, and the split of a verb's arguments into flags and files.

const USAGE = `usage: safetensors-wasm validate [--json] [--scan-data] [--hash] FILE...
       safetensors-wasm inspect [--json] FILE
       safetensors-wasm hash [--json] [--tensors] FILE...
       safetensors-wasm edit FILE [--set KEY=VALUE]... [--delete KEY]... [--clear] -o OUT
       safetensors-wasm convert FILE --to f16|bf16 -o OUT
       safetensors-wasm verify-signature MODEL --signature SIG
                        (--public-key PEM | --certificate-chain PEM [--certificate-chain PEM]... |
                         --identity ID --issuer URL)
                        [--ignore-paths PATH]... [--trusted-root JSON] [--allow-symlinks] [--json]

validate  says whether the reference safetensors loader accepts each file
          (exit 0 when all are loadable, 1 otherwise); --json prints one JSON array;
          --scan-data also reads every tensor, counting NaN, infinities and all-zero tensors;
          --hash also hashes each file in the same read
inspect   prints the model card (what the file is), then the verdict, findings, metadata and
          the tensor table; --json prints { file, report, card, metadata, tensors }
hash      prints each file's SHA-256 as sha256sum does, then AutoV2, AutoV3, AutoV1, the data
          section's SHA-256 and the check of every hash the metadata claims (exit 0 when all
          files were read and no claim failed, 1 otherwise); --tensors adds each tensor's SHA-256
edit      writes FILE with its metadata changed (--clear starts from none) to OUT, the tensor
          data copied byte for byte (its hashes stay); OUT may be FILE: it is replaced only
          once the new file is whole
convert   writes FILE with its F32, F64 and other 16-bit float tensors as F16 or BF16
          (rounded to nearest even; NaN stays NaN) to OUT; other tensors are copied
verify-signature  checks an OpenSSF model signature (sigstore/model-transparency's
          model_signing v1.x bundle) and then every file of MODEL (a folder or one file):
          exit 0 when verified, 1 when not (the reason and each file's status: ok, modified,
          missing, unexpected), 2 for a usage error; --ignore-paths are resolved from the
          current directory; .git* paths and the signature file are always left out

A FILE may be an http:// or https:// URL: it is read with Range requests (the header in
one request when it fits in 256 KiB, tensors as needed), never downloaded whole.
For validate and inspect, a FILE may also be a sharded model: its *.safetensors.index.json
(path or URL) or a folder (its index, or without one every .safetensors file in it); the
shards are checked one by one and against the index (--scan-data and --hash read each
shard in turn). A diffusers pipeline (a folder holding
model_index.json, or its path or URL) is checked component by component.`;

/** Prints the usage; the exit status of a misused command. */
export function usage() {
  console.error(USAGE);
  return 2;
}

/**
 * Splits flags (all of them known) from file arguments; null when the usage is wrong.
 * @param {string[]} args
 * @param {string[]} known the flags the verb takes
 * @param {{ single?: boolean }} [options] single: exactly one file
 * @returns {{ has: (flag: string) => boolean, files: string[] } | null}
 */
export function parseArgs(args, known, { single = false } = {}) {
  const flags = new Set(args.filter((a) => a.startsWith('--')));
  const files = args.filter((a) => !a.startsWith('--'));
  if ([...flags].some((f) => !known.includes(f)) || files.length === 0 || (single && files.length !== 1)) return null;
  return { has: (flag) => flags.has(flag), files };
}
