#!/usr/bin/env node
// safetensors-wasm validate | inspect | hash | edit | convert | verify-signature: one file per verb beside this
// one (usage.js says what each takes). Text for people goes to stdout; --json prints one JSON
// document.
import { validate } from './validate.js';
import { inspect } from './inspect.js';
import { hash } from './hash.js';
import { edit } from './edit.js';
import { convert } from './convert.js';
import { verifySignature } from './verify_signature.js';
import { usage } from './usage.js';

const [command, ...rest] = process.argv.slice(2);
/** @type {Record<string, (args: string[]) => Promise<number>>} */
const commands = { validate, inspect, hash, edit, convert, 'verify-signature': verifySignature };
const run = Object.hasOwn(commands, command) ? commands[command] : usage;
process.exitCode = await run(rest);
