// openSafetensorsIndex: a sharded checkpoint opened as one model, each shard through the file
// opener (web/file/open_file.js). Its own module so that what needs it (the entry point, the
// bill of materials) imports it without going through web/index.js.
import { openFile } from '../file/open_file.js';
import { checkOptions } from '../file/options.js';
import { openShardedModel } from './sharded_model.js';

/**
 * Opens a sharded checkpoint (an index.json and its shards) as one model: every shard's
 * header is read (all at once, within the in-flight limits), the index checked against them, tensors routed to
 * their shards. Throws only when the index itself cannot be read; a broken model gets findings.
 * @param {unknown} source an index URL, picked files, a path (Node) or { index, resolve }
 * @param {import('../index.js').IndexOptions} [options]
 * @returns {Promise<import('../index.js').ShardedModel>}
 */
export async function openSafetensorsIndex(source, options = {}) {
  // openShardedModel gives each shard its options.
  return openShardedModel(source, checkOptions(options), (shard, shardOptions, admitHeader) =>
    openFile(shard, shardOptions, false, admitHeader),
  );
}
