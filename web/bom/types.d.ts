// Types of the ML bill of materials (createModelBom). Re-exported by web/index.d.ts.

/** What a model is read from: a folder or one file. */
export type BomModelSource =
  /** Node: a path to a folder (walked) or a file. */
  | string
  /** Picked files; a folder pick's webkitRelativePath gives the names (the folder's own name dropped). */
  | FileList
  | File[]
  /** Browsers: a folder handle (showDirectoryPicker, a dropped folder's getAsFileSystemHandle). */
  | FileSystemDirectoryHandle
  /** Relative name ("a/b.safetensors") -> any openSafetensors source. */
  | Map<string, unknown>
  /** One file: any openSafetensors source. */
  | Blob
  | Uint8Array;

/** The part of a signature check's result (verifyModelSignature) the BOM records. */
export interface BomSignatureResult {
  verified: boolean;
  method?: string | null;
  serialization?: string | null;
  hashType?: string | null;
  signer?: unknown;
  error?: unknown;
  files?: { name: string; status: string }[];
}

export interface ModelBomOptions {
  /** A signature check's result: recorded on the model (verified, method, signer) and each file (status). */
  signature?: BomSignatureResult;
  /** Default: a random one. */
  serialNumber?: string;
  /** Default: now. */
  timestamp?: Date;
  signal?: AbortSignal;
  /** Bytes hashed so far, of all files. */
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
}

/** A CycloneDX 1.6 BOM as JSON (https://cyclonedx.org/docs/1.6/json/); the fields this package writes. */
export interface CycloneDxBom {
  $schema: string;
  bomFormat: 'CycloneDX';
  specVersion: '1.6';
  serialNumber: string;
  version: number;
  metadata: { timestamp: string; tools: { components: CycloneDxComponent[] }; component: CycloneDxComponent };
  components: CycloneDxComponent[];
  dependencies: { ref: string; dependsOn?: string[] }[];
}

export interface CycloneDxComponent {
  type: string;
  'bom-ref'?: string;
  name: string;
  version?: string;
  description?: string;
  hashes?: { alg: string; content: string }[];
  properties?: { name: string; value: string }[];
  modelCard?: {
    modelParameters?: { architectureFamily?: string; modelArchitecture?: string };
    properties?: { name: string; value: string }[];
  };
  [field: string]: unknown;
}
