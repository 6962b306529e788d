//! Reads one safetensors header JSON per line on stdin and prints, per line,
//! `1<TAB>header` when the reference crate's serde parse accepts it and
//! `0<TAB>header` when it refuses it.
//!
//! The structs follow the header type of huggingface/safetensors
//! (safetensors/src/tensor.rs at commit 24b0b28): an optional `__metadata__` map of
//! strings and, through serde's `flatten`, every other key as a tensor entry. The
//! `flatten` is what matters here: serde buffers every value before it picks the
//! fields, so every number and every nesting level is parsed even in fields the
//! entry ignores. `dtype` is a String: the generator that feeds this tool writes
//! only valid dtypes, and the dtype rule is tested elsewhere.
use std::collections::HashMap;
use std::io::{self, BufRead, BufWriter, Write};

use serde::Deserialize;

#[allow(dead_code)]
#[derive(Deserialize)]
struct TensorInfo {
    dtype: String,
    shape: Vec<usize>,
    data_offsets: (usize, usize),
}

#[allow(dead_code)]
#[derive(Deserialize)]
struct HashMetadata {
    #[serde(rename = "__metadata__")]
    metadata: Option<HashMap<String, String>>,
    #[serde(flatten)]
    tensors: HashMap<String, TensorInfo>,
}

fn main() -> io::Result<()> {
    let stdin = io::stdin();
    let mut out = BufWriter::new(io::stdout().lock());
    for line in stdin.lock().split(b'\n') {
        let line = line?;
        let accepted = std::str::from_utf8(&line)
            .map(|text| serde_json::from_str::<HashMetadata>(text).is_ok())
            .unwrap_or(false);
        out.write_all(if accepted { b"1\t" } else { b"0\t" })?;
        out.write_all(&line)?;
        out.write_all(b"\n")?;
    }
    out.flush()
}
