// Shared by the BOM tests: the CycloneDX 1.6 strict schema check, a component's properties as an
// object, a fixed serial number and time, and the CLI's path.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Spec, Validation } from '@cyclonedx/cyclonedx-library';

export const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
export const CLI = fileURLToPath(new URL('../../web/cli/main.js', import.meta.url));
const validator = new Validation.JsonStrictValidator(Spec.Version.v1dot6);

/** Schema errors of a BOM (null when valid). */
export const schemaErrors = (bom) => validator.validate(JSON.stringify(bom));
export const props = (list) => Object.fromEntries((list ?? []).map((p) => [p.name, p.value]));
export const FIXED = {
  timestamp: new Date('2026-01-02T03:04:05.678Z'),
  serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
};
