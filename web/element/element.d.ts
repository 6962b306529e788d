// Types of safetensors-wasm/element: <safetensors-card> (hand-written; checked by tsc in tests/types).
/**
 * `<safetensors-card>`: a model file's verdict and card as one element (docs/element.md).
 * @module safetensors-wasm/element
 */
import type {
  Checkpoint,
  ModelCard,
  PickleScan,
  SafetensorsError,
  SafetensorsFile,
  SafetensorsPipeline,
  ShardedModel,
  ValidationReport,
} from '../index.js';

/** What `<safetensors-card>` opens: a picked or dropped file, a handle, picked files (a sharded model, a pipeline folder, a file with its config.json), bytes, or an http(s) URL. */
export type CardSource =
  File | Blob | FileSystemFileHandle | File[] | FileList | ArrayBuffer | Uint8Array | string | URL | null | undefined;

/** What a source opened as. */
export type CardKind = 'file' | 'model' | 'pipeline' | 'checkpoint' | 'files';

/** The `load` event's detail. */
export interface CardLoadDetail {
  kind: CardKind;
  /** What is shown: a file's path in its folder or its name, the URL, a pipeline's or folder's part as `folder › part`. */
  name: string;
  /** The verdict: a file's ValidationReport; a model's, pipeline's or folder's summarised as one (loadable when no finding is an error); a checkpoint's scan. */
  report: ValidationReport | PickleScan;
  /** The card shown (a pipeline's: the component shown; a folder's: the file shown), or null (a header that could not be read). */
  card: ModelCard | null;
  /** What the source opened as: a SafetensorsFile (null when the reference rejects it), a ShardedModel, a SafetensorsPipeline or a Checkpoint; null for a folder of separate files. */
  opened: SafetensorsFile | ShardedModel | SafetensorsPipeline | Checkpoint | null;
}

/** The `progress` event's detail: `open` counts shards, components or files (`unit`); the others bytes. */
export interface CardProgressDetail {
  phase: 'open' | 'hash' | 'scan' | 'civitai' | 'convert';
  done: number;
  total: number;
  unit?: 'shards' | 'components' | 'files';
}

/** The element's events, and the other events of an HTMLElement. */
export type SafetensorsCardEventMap = Omit<HTMLElementEventMap, 'load' | 'error' | 'progress'> & {
  load: CustomEvent<CardLoadDetail>;
  error: CustomEvent<SafetensorsError>;
  progress: CustomEvent<CardProgressDetail>;
};

/**
 * `<safetensors-card>`. Give it `source` (or the `src` attribute, a URL read by Range): it shows
 * the verdict first, then the card, metadata and tensors; a new source aborts the reads of the
 * previous one. Events: `load`, `error`, `progress`.
 */
export class SafetensorsCard extends HTMLElement {
  /** What to show; setting it (null: nothing) aborts whatever was being read. */
  source: CardSource;
  /** A URL to show, read by Range (the `src` attribute). */
  src: string | undefined;
  /** `light`, `dark`, or `auto` (the default: the page's prefers-color-scheme). */
  theme: 'auto' | 'light' | 'dark' | undefined;
  /** Takes a dropped file or folder (the `droppable` attribute). */
  droppable: boolean;
  /** Shows its own buttons to pick files or a folder (the `picker` attribute). */
  picker: boolean;
  /** `loading` while a source is read, then `done` or `error`; '' before any source (also the reflected `state` attribute). */
  readonly state: '' | 'loading' | 'done' | 'error';
  /** The verdict shown (as `load`'s detail has it), or null. */
  readonly report: ValidationReport | PickleScan | null;
  /** The card shown, or null. */
  readonly card: ModelCard | null;
  /** What the source opened as, or null. */
  readonly opened: SafetensorsFile | ShardedModel | SafetensorsPipeline | Checkpoint | null;
  addEventListener<K extends keyof SafetensorsCardEventMap>(
    type: K,
    listener: (this: SafetensorsCard, event: SafetensorsCardEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends keyof SafetensorsCardEventMap>(
    type: K,
    listener: (this: SafetensorsCard, event: SafetensorsCardEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
}

/** The tag name the import defines (unless a page defined it first: then define SafetensorsCard under another name). */
export const TAG_NAME: 'safetensors-card';

declare global {
  interface HTMLElementTagNameMap {
    'safetensors-card': SafetensorsCard;
  }
}
