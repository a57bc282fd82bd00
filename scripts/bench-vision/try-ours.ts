import { createTextRecognizer } from '../../lib/vision/text-recognition/index.js';
import { renderBenchImages } from './images.js';

const images = await renderBenchImages();
const r = createTextRecognizer({ languages: ['eng'], timeoutMs: 15000, maxWaiting: 4, minConfidence: 60 });
for (const image of images) {
  const s = performance.now();
  const t = await r.recognize(image.bytes);
  console.log(
    `${image.kind} ${image.name} ${Math.round(performance.now() - s)}ms ${t.status} ${t.confidence} size=${image.bytes.length}`,
  );
  for (const l of t.lines) console.log(`   [${l.block}] ${l.text}  (${l.confidence}, h${l.box.height})`);
}
console.log('rss', Math.round(process.memoryUsage().rss / 1e6));
await r.close();
