// Compiled by tsc (make test) against safetensors-wasm/element's types (web/element/element.d.ts,
// through the package's exports as an app resolves them): the usage docs/element.md shows must
// type-check, and misuse must not (each @ts-expect-error fails the build if the error disappears).
import {
  SafetensorsCard,
  TAG_NAME,
  type CardKind,
  type CardLoadDetail,
  type CardProgressDetail,
  type CardSource,
} from 'safetensors-wasm/element';
import type { ModelCard, PickleScan, SafetensorsError, ValidationReport } from 'safetensors-wasm';

export function elementUsage(file: File, input: HTMLInputElement): string {
  // The tag is in HTMLElementTagNameMap: the query is typed without a cast.
  const el = document.querySelector('safetensors-card');
  if (!el) return '';
  const typed: SafetensorsCard = el;
  const made: SafetensorsCard = document.createElement('safetensors-card');
  const tag: 'safetensors-card' = TAG_NAME;

  el.source = file;
  el.source = input.files;
  el.source = Array.from(input.files ?? []);
  el.source = 'https://example.com/model.safetensors';
  el.source = new URL('https://example.com/model.safetensors');
  el.source = new Uint8Array(8);
  el.source = null;
  const source: CardSource = el.source;
  // @ts-expect-error a number is not a source
  el.source = 42;

  el.src = 'https://example.com/model.safetensors';
  el.theme = 'dark';
  // @ts-expect-error themes are light, dark or auto
  el.theme = 'sepia';
  el.droppable = true;
  el.picker = true;
  // @ts-expect-error state is read-only
  el.state = 'done';
  const state: '' | 'loading' | 'done' | 'error' = el.state;

  el.addEventListener('load', (e) => {
    const report: ValidationReport | PickleScan = e.detail.report;
    const loadable = 'loadable' in report ? report.loadable : report.verdict === 'safe';
    const card: ModelCard | null = e.detail.card;
    const kind: CardKind = e.detail.kind;
    console.log(loadable, card?.family?.name, kind);
    // @ts-expect-error the detail has no such field
    console.log(e.detail.verdict);
  });
  el.addEventListener('error', (e) => {
    const error: SafetensorsError = e.detail;
    console.error(error.code, error.message);
  });
  el.addEventListener('progress', (e) => {
    const detail: CardProgressDetail = e.detail;
    console.log(detail.phase, detail.done / detail.total, detail.unit);
  });
  // Other events keep their own types.
  el.addEventListener('click', (e: MouseEvent) => console.log(e.button));
  const onLoad = (e: CustomEvent<CardLoadDetail>) => console.log(e.detail.opened);
  el.addEventListener('load', onLoad);
  el.removeEventListener('load', onLoad);

  const current: ValidationReport | PickleScan | null = el.report;
  const shown: ModelCard | null = el.card;
  // @ts-expect-error report is read-only
  el.report = null;
  // A page that defined the name first defines the class under another.
  if (customElements.get(TAG_NAME) !== SafetensorsCard) customElements.define('model-card', SafetensorsCard);
  return `${typed.tagName} ${made.tagName} ${tag} ${source === null} ${state} ${current === null} ${shown?.kind}`;
}
