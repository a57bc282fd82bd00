import { createRequire } from 'node:module';
import { renderBenchImages } from './images.js';

const require = createRequire(import.meta.url);
const Tesseract = require('tesseract.js');
const langPath = require('node:path').join(
  require.resolve('@tesseract.js-data/eng/package.json'),
  '..',
  '4.0.0_best_int',
);
const t0 = performance.now();
const images = await renderBenchImages();
console.log('rendered', Math.round(performance.now() - t0));
const t1 = performance.now();
const worker = await Tesseract.createWorker('eng', 1, { langPath, cacheMethod: 'none', gzip: true });
console.log('worker', Math.round(performance.now() - t1));
for (const image of images) {
  const s = performance.now();
  const { data } = await worker.recognize(image.bytes, {}, { text: true, blocks: true });
  const words = data.blocks.flatMap((b: any) =>
    b.paragraphs.flatMap((p: any) => p.lines.flatMap((l: any) => l.words)),
  );
  console.log(
    `${image.kind} ${image.name} ${Math.round(performance.now() - s)}ms blocks=${data.blocks.length}`,
  );
  console.log('   ', words.map((w: any) => `${w.text}:${Math.round(w.confidence)}`).join(' '));
}
console.log('rss', Math.round(process.memoryUsage().rss / 1e6));
await worker.terminate();
