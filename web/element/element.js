// safetensors-wasm/element: <safetensors-card>, a model file's card as one element. Importing
// this module defines the element (unless the name is taken: then define the exported class
// under another name) and, once the page is idle, loads the core and the model card's module and
// warms them up (preload()), so that a first card after a pick does not wait for them. Where
// there is no DOM (Node, a server-side render) importing it defines nothing and loads nothing.
import { SafetensorsCard } from './safetensors_card.js';
import { preload } from '../file/preload.js';

export { SafetensorsCard };

/** The element's tag name. */
export const TAG_NAME = 'safetensors-card';

const browser = typeof window !== 'undefined' && typeof document !== 'undefined';

if (browser && typeof customElements !== 'undefined' && !customElements.get(TAG_NAME))
  customElements.define('safetensors-card', SafetensorsCard);

if (browser) {
  // A failure here shows at the first open instead (preload() rejects; that open tries again).
  const warm = () => preload().catch(() => {});
  if (typeof requestIdleCallback === 'function') requestIdleCallback(warm, { timeout: 2000 });
  else setTimeout(warm, 200);
}
