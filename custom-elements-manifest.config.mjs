// The Custom Elements Manifest (custom-elements.json, written by make build): what IDEs,
// Storybook and linters read to know <safetensors-card>'s attributes, properties, events, parts
// and custom properties, from the element's JSDoc (web/element/element.js).
export default {
  globs: ['web/element/element.js'],
  litelement: true,
  outdir: '.',
};
