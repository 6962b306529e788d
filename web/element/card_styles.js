// How <safetensors-card> looks: every colour, font and size comes from a documented custom
// property (docs/element.md), each default a light-dark() pair: the page's prefers-color-scheme
// by default, or the scheme the theme attribute forces (color-scheme). Each block is a ::part.
// The layout follows the element's own width (container queries), from a 320 px phone column to
// a wide panel. No web fonts, nothing global. One rule a line: this text ships as it is.
import { css } from 'lit';

export const cardStyles = css`
  :host { display: block; color-scheme: light dark; font: var(--st-card-font, 15px/1.45 system-ui, sans-serif); color: var(--_fg);
    --_bg: var(--st-card-background, light-dark(#ffffff, #161a22)); --_fg: var(--st-card-color, light-dark(#1d2330, #e6e9ef));
    --_muted: var(--st-card-muted-color, light-dark(#4a5468, #aab2c2)); --_border: var(--st-card-border-color, light-dark(#c9d1df, #3a4252));
    --_surface: var(--st-card-surface, light-dark(#f3f5f9, #1f2430)); --_accent: var(--st-card-accent, light-dark(#2f55d4, #9db4ff));
    --_ok: var(--st-card-ok-color, light-dark(#17762b, #6fd68a)); --_bad: var(--st-card-bad-color, light-dark(#b3261e, #ff9a91));
    --_warn: var(--st-card-warn-color, light-dark(#8a4b00, #f2b766)); --_badge-fg: var(--st-card-badge-color, light-dark(#ffffff, #10131a)); }
  :host([theme='light']) { color-scheme: light; }
  :host([theme='dark']) { color-scheme: dark; }
  :host([hidden]) { display: none; }
  .frame { container: card / inline-size; background: var(--_bg); border: 1px solid var(--_border); border-radius: var(--st-card-radius, 10px); padding: var(--st-card-padding, 0.9rem 1.1rem); min-width: 0; }
  :host([drop-target]) .frame { outline: 3px dashed var(--_accent); outline-offset: -6px; }
  h2, h3 { margin: 0; line-height: 1.25; }
  h2 { font-size: 1.3em; overflow-wrap: anywhere; }
  h3 { font-size: 1em; margin: 1rem 0 0.4rem; }
  section + section, details { margin-top: 0.8rem; }
  p { margin: 0.3rem 0; overflow-wrap: anywhere; }
  button, input, select { font: inherit; color: inherit; }
  button { background: var(--_surface); border: 1px solid var(--_border); border-radius: 6px; padding: 0.2rem 0.7rem; cursor: pointer; }
  button:hover:not(:disabled) { border-color: var(--_accent); }
  button:disabled { cursor: default; opacity: 0.6; }
  :focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
  .muted, .what { color: var(--_muted); }
  .mono, code, .digest, pre, td button.name { font-family: var(--st-card-mono-font, ui-monospace, monospace); }
  .mono, code { font-size: 0.92em; }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  .head { display: flex; gap: 1rem; align-items: center; }
  .cover { width: 96px; height: 96px; object-fit: cover; border-radius: 8px; flex: none; }
  .verdict, .actions, .tools, .pager, .pick { display: flex; flex-wrap: wrap; gap: 0.5rem 0.8rem; align-items: center; }
  .verdict { align-items: baseline; margin-top: 0.6rem; }
  .pick { margin-bottom: 0.6rem; }
  .badge { display: inline-block; padding: 0.1rem 0.6rem; border-radius: 6px; font-weight: 700; color: var(--_badge-fg); background: var(--_muted); }
  .badge.ok { background: var(--_ok); }
  .badge.bad { background: var(--_bad); }
  .badge.warn { background: var(--_warn); }
  .badge.ok:not(.upper)::before { content: '✓ '; }
  .badge.bad:not(.upper)::before { content: '✗ '; }
  .badge.upper { text-transform: uppercase; letter-spacing: 0.05em; }
  .findings { list-style: none; padding: 0; margin: 0.4rem 0 0; }
  .findings li { margin: 0.25rem 0; overflow-wrap: anywhere; }
  .severity { display: inline-block; margin-inline-end: 0.4rem; font-size: 0.8em; font-weight: 700; text-transform: uppercase; }
  .error .severity, .bad:not(.badge) { color: var(--_bad); }
  .warning .severity, .zero, .caution { color: var(--_warn); }
  .info .severity { color: var(--_accent); }
  .good { color: var(--_ok); }
  dl { display: grid; grid-template-columns: 1fr; gap: 0.1rem 1rem; margin: 0.6rem 0 0; }
  dt { font-weight: 600; }
  dd { margin: 0 0 0.35rem 0.8rem; min-width: 0; overflow-wrap: anywhere; white-space: pre-wrap; }
  .trigger { margin: 0 0.3rem 0.3rem 0; border-color: var(--_accent); border-radius: 1rem; padding: 0.05rem 0.6rem; cursor: copy; overflow-wrap: anywhere; text-align: start; }
  .status { overflow-wrap: anywhere; }
  .status:empty { margin: 0; }
  .digest { overflow-wrap: anywhere; }
  .table-wrap { overflow-x: auto; }
  table { border-collapse: collapse; width: 100%; font-size: 0.9em; }
  th, td { text-align: start; padding: 0.2rem 0.5rem; border-bottom: 1px solid var(--_border); vertical-align: top; }
  td { overflow-wrap: anywhere; }
  th[scope='row'] { overflow-wrap: anywhere; min-width: min(14em, 40cqi); }
  td.num, th.num { text-align: end; white-space: nowrap; }
  th button, td button.name { border: none; background: none; padding: 0; }
  th button { font-weight: 700; }
  th button:hover { text-decoration: underline; }
  tr.selected { background: var(--_surface); }
  td button.name { text-align: start; font-size: 1em; overflow-wrap: anywhere; color: var(--_accent); }
  .tools { margin: 0.3rem 0; }
  input[type='search'] { flex: 1 1 12rem; min-width: 0; padding: 0.25rem 0.4rem; background: var(--_bg); border: 1px solid var(--_border); border-radius: 6px; }
  .pager { margin-top: 0.4rem; }
  pre { background: var(--_surface); padding: 0.6rem; white-space: pre-wrap; overflow-wrap: anywhere; margin: 0.4rem 0; max-height: 16rem; overflow: auto; }
  details > summary { cursor: pointer; }
  details > summary h3 { display: inline; }
  progress { accent-color: var(--_accent); }
  /* A narrow card (a phone's column) leaves out the columns a glance does not need. */
  .wide-only, .mid-up { display: none; }
  .narrow-only { font-size: 0.9em; }
  @container card (min-width: 30rem) {
    .mid-up { display: table-cell; }
    .narrow-only { display: none; }
    dl { grid-template-columns: minmax(6rem, max-content) 1fr; }
    dd { margin: 0; }
  }
  @container card (min-width: 40rem) {
    .wide-only { display: table-cell; }
    .cover { width: 128px; height: 128px; }
  }
`;
