// The character-level steps of reading JSON text in place (index_scan.js): character codes,
// skipping whitespace, and where a plain string or a value ends. Positions are UTF-16 indices
// into the text; nothing here builds a value.

export const QUOTE = 34;
export const BACKSLASH = 92;
export const COMMA = 44;
export const COLON = 58;
export const OPEN_BRACE = 123;
export const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/** JSON's whitespace: space, tab, line feed, carriage return. */
const isSpace = (/** @type {number} */ c) => c === 32 || c === 10 || c === 13 || c === 9;

/**
 * Position of the first non-space character at or after `at`.
 * @param {string} text
 * @param {number} at
 */
export function skipSpace(text, at) {
  while (isSpace(text.charCodeAt(at))) at++;
  return at;
}

/**
 * End (the closing quote) of a string whose content starts at `start`, or -1 when it holds an
 * escape or a control character, or never ends. charCodeAt past the end is NaN and ends the
 * loop through the `!(c >= 32)` test.
 * @param {string} text
 * @param {number} start
 */
export function plainStringEnd(text, start) {
  for (let i = start; ; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i;
    if (c === BACKSLASH || !(c >= 32)) return -1;
  }
}

/**
 * End of the JSON value that starts at `at` (not validated: JSON.parse of the slice does
 * that), or -1 when it is cut short.
 * @param {string} text
 * @param {number} at
 */
export function valueEnd(text, at) {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < text.length && text.charCodeAt(i) !== QUOTE; i++) if (text.charCodeAt(i) === BACKSLASH) i++;
      if (i >= text.length) return -1;
      if (depth === 0) return i + 1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (depth === 0) return i; // a scalar's end at its container's close
      if (--depth === 0) return i + 1;
    } else if (depth === 0 && (c === COMMA || isSpace(c))) {
      return i;
    }
  }
  return depth === 0 ? text.length : -1;
}
