import { relatedWords } from '../lib/lexicon/index.js';
for (const w of process.argv.slice(2)) { const t = performance.now(); console.log(w, JSON.stringify(relatedWords(w)), (performance.now() - t).toFixed(1), 'ms'); }
