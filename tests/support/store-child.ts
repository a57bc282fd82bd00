import { createEmbeddedStore } from '../../lib/store/index.js';

/**
 * A separate process on a shared DATA_DIR, for the multi-process tests:
 * `store-child.ts <dataDir> <name> <count>` increments `counter`, pushes `<name>:<i>` onto `pushed`
 * and adds `<name>:<i>` to the set `members`, `count` times, printing `ack <i>` after each
 * acknowledged write, then `done`.
 */
const [dataDir, name, countText] = process.argv.slice(2);
const store = createEmbeddedStore({ dataDir: dataDir! });
const count = Number(countText);
for (let index = 0; index < count; index++) {
  await store.incr('counter');
  await store
    .batch()
    .rpush('pushed', `${name}:${index}`)
    .sadd('members', `${name}:${index}`)
    .hincrby('totals', 'n', 1)
    .exec();
  process.stdout.write(`ack ${index + 1}\n`);
}
await store.close();
process.stdout.write('done\n');
