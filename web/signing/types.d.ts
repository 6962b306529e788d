// Types of verifying OpenSSF model signatures (model_signing v1.x). Re-exported by web/index.d.ts.
import type { SafetensorsSource } from '../source/types.js';

/** How the signature is checked: a public key, an X.509 chain, or Sigstore keyless. */
export type SignatureMethod = 'key' | 'certificate' | 'sigstore';

/** Why a signature was not verified. */
export type NotVerifiedCode =
  | 'MalformedBundle'
  | 'UnsupportedBundle'
  | 'UnsupportedPredicate'
  | 'InconsistentManifest'
  | 'UnsupportedHash'
  | 'KeyMismatch'
  | 'BadSignature'
  | 'UntrustedCertificate'
  | 'IdentityMismatch'
  | 'ModelMismatch'
  | 'ReadError';

/** ok: signed and the same; modified: signed, other bytes; missing: signed, absent; unexpected: present, not signed. */
export type FileStatus = 'ok' | 'modified' | 'missing' | 'unexpected';

/** A model's files: a folder, or one file. */
export type ModelSource =
  | string
  | Map<string, SafetensorsSource>
  | File[]
  | FileList
  | FileSystemDirectoryHandle
  | FileSystemFileHandle
  | SafetensorsSource;

export interface VerifySignatureOptions {
  /**
   * The Sigstore bundle: JSON text, its parsed value, its bytes, a Blob/File, or (Node, with a
   * model path) its path. Default: `model.sig` in the model folder.
   */
  signature?: string | object | Uint8Array | ArrayBuffer | Blob;
  /** The key method: an EC public key (P-256, P-384 or P-521), PEM text or SubjectPublicKeyInfo DER. */
  publicKey?: string | Uint8Array | ArrayBuffer;
  /** The certificate method: trusted certificates (PEM text, or DER), root and intermediates. */
  certificateChain?: (string | Uint8Array)[];
  /** The keyless method: the signer's identity (the certificate's SAN: an email or URI). */
  identity?: string;
  /** The keyless method: the OIDC issuer that vouched for the identity. */
  issuer?: string;
  /** Keyless: a Sigstore trusted_root.json (object or text) instead of the public-good one shipped. */
  trustedRoot?: string | object;
  /** Paths relative to the model left out (with what is under them). */
  ignorePaths?: string[];
  /** Leave out .git, .gitattributes, .github, .gitignore (default true, as model_signing). */
  ignoreGitPaths?: boolean;
  /** Follow symbolic links (Node paths); default false: a model holding one is not verified. */
  allowSymlinks?: boolean;
  signal?: AbortSignal;
  /** Bytes hashed so far and the total, after each chunk. */
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
}

/** Who signed: the key, the signing certificate, or the keyless identity. */
export interface Signer {
  /** The key's curve. */
  curve: 'P-256' | 'P-384' | 'P-521';
  /** Hex SHA-256 of the key as PEM SubjectPublicKeyInfo (model_signing's key hint). */
  keyHint: string;
  /** The signing certificate (certificate and keyless methods). */
  certificate?: { subject: string; issuer: string; serialNumber: string; notBefore: string; notAfter: string };
  /** Keyless: the identity and issuer the certificate names. */
  identity?: string;
  issuer?: string;
  /** Keyless: when the transparency log recorded the signature (ISO 8601). */
  signedAt?: string;
}

export interface SignatureVerification {
  /** The signature is good and every signed file is there, unchanged, with nothing else. */
  verified: boolean;
  method: SignatureMethod;
  /** The signed manifest's serialization, once the signature checked out. */
  serialization: 'files' | 'shards' | null;
  hashType: string | null;
  /** Signed files in the manifest's order, then unexpected ones by name ("." for a single-file model). */
  files: { name: string; status: FileStatus }[];
  signer: Signer | null;
  /** Why it is not verified; null when verified. */
  error: { code: NotVerifiedCode; message: string } | null;
}
