// validateSafetensors as the package exports it (./validate.js does the work), with the card's
// and the scan's code imported here (a cold CLI run loads them only when asked for instead:
// web/cli/validate.js).
import { buildCard } from '../card/model_card.js';
import { cardObject } from '../card/card_table.js';
import { scanData } from '../tensors/data_scan.js';
import { hashSource } from '../hashing/hash_source.js';
import { validateWith } from './validate.js';

/** @type {import('./validate.js').ValidateParts} */
const PARTS = {
  card: async () => ({ buildCard, cardObject }),
  scan: async () => ({ scanData, hashSource }),
};

/**
 * Says whether the reference loader accepts the file and what else is worth knowing about
 * it (./validate.js, validateWith).
 * @param {import('../index.js').SafetensorsSource} input
 * @param {import('../index.js').ValidateOptions} [options]
 * @returns {Promise<import('../index.js').ValidationReport>}
 */
export function validateSafetensors(input, options = {}) {
  return validateWith(input, options, PARTS);
}
