/**
 * The language-model CLI (`npm run --silent lm -- <command>`): perplexity evaluation in KenLM's
 * conventions and ARPA export. Prints one JSON object (eval) or the ARPA text (export-arpa).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createModel, evaluatePerplexity, type LanguageModel, loadArpa } from '../lib/lm/index.js';

const USAGE = `usage:
  lm eval --order N --train FILE --test FILE [--pretokenized]
  lm eval --arpa FILE --test FILE [--pretokenized]
  lm export-arpa --order N --train FILE [--pretokenized] [--out FILE]

  --pretokenized  split on whitespace only (as KenLM), no case folding
`;

class UsageError extends Error {}

function main(argv: string[]): void {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      order: { type: 'string' },
      train: { type: 'string' },
      test: { type: 'string' },
      arpa: { type: 'string' },
      out: { type: 'string' },
      pretokenized: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const [command, ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(`unexpected argument ${rest[0]}`);
  const tokenizer = values.pretokenized ? 'whitespace' : 'natural';
  if (command === 'eval') {
    const test = required(values.test, '--test');
    let model: LanguageModel;
    let trainSeconds = 0;
    const started = performance.now();
    if (values.arpa !== undefined) {
      if (values.train !== undefined || values.order !== undefined) {
        throw new UsageError('--arpa excludes --train and --order');
      }
      model = loadArpa(readFileSync(values.arpa, 'utf8'), { tokenizer });
    } else {
      const trained = createModel({ order: order(values.order), tokenizer, directions: 'forward' });
      trained.addText(readFileSync(required(values.train, '--train'), 'utf8'));
      model = trained;
    }
    trainSeconds = (performance.now() - started) / 1000;
    const bytes = readFileSync(test);
    const evalStarted = performance.now();
    const report = evaluatePerplexity(model, bytes);
    const evalSeconds = (performance.now() - evalStarted) / 1000;
    const result = {
      order: model.order,
      perplexity: round(report.perplexity, 4),
      perplexityExcludingOOV: round(report.perplexityExcludingOOV, 4),
      tokens: report.tokens,
      oov: report.oov,
      lines: report.lines,
      vocabulary: model.vocabulary.size,
      trainTokens: model.tokenCount,
      [values.arpa !== undefined ? 'loadSeconds' : 'trainSeconds']: round(trainSeconds, 3),
      evalSeconds: round(evalSeconds, 3),
      evalTokensPerSecond: Math.round(report.tokens / evalSeconds),
    };
    process.stdout.write(JSON.stringify(result) + '\n');
    return;
  }
  if (command === 'export-arpa') {
    if (values.arpa !== undefined || values.test !== undefined)
      throw new UsageError('export-arpa takes --train');
    const model = createModel({ order: order(values.order), tokenizer, directions: 'forward' });
    model.addText(readFileSync(required(values.train, '--train'), 'utf8'));
    const arpa = model.toArpa();
    if (values.out !== undefined) writeFileSync(values.out, arpa);
    else process.stdout.write(arpa);
    return;
  }
  throw new UsageError(command === undefined ? 'missing command' : `unknown command ${command}`);
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new UsageError(`${flag} is required`);
  return value;
}

function order(value: string | undefined): number {
  const n = Number(required(value, '--order'));
  if (!Number.isInteger(n) || n < 1 || n > 10)
    throw new UsageError('--order must be an integer from 1 to 10');
  return n;
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

try {
  main(process.argv.slice(2));
} catch (error) {
  const usage =
    error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  process.stderr.write(`lm: ${(error as Error).message}\n`);
  if (usage) process.stderr.write(USAGE);
  process.exit(usage ? 2 : 1);
}
