import { parseArgs } from 'node:util';
import { gather } from '../lib/pipeline/gather.js';
import { RANK_WEIGHTS, type RankFeatures, rank, rankOf } from '../lib/pipeline/rank.js';
import { evidenceBudgets } from '../lib/pipeline/types.js';
import { understand } from '../lib/pipeline/understand/index.js';
import { benchClient, corporaDir, mentions } from './bench-chat.js';
import { benchServices } from './bench-services.js';
import { type Half, loadSets, setDocuments, setQuestions, trainSet } from './bench-sets.js';

/**
 * `npm run bench:rank [-- --set NAME] [--fit] [--corpora DIR]`: the rank stage alone, on the sets
 * of bench/qa/sets.json that have a held-out half. Each question is understood, gathered and
 * ranked in process (no reply is composed), and each of its best 40 units is marked when its text
 * or innermost heading holds an acceptable answer word. Prints, per set and half, how often the
 * top unit holds one and how often one of the top five does: the room a better ranking has.
 * `--fit` searches the weights of the rank's parts (`RANK_WEIGHTS`) one at a time over a grid, on
 * the tuning halves only, and prints the held-out counts of the weights it ends with, as counts.
 * The units' words are a stand-in for the reply's (a unit may hold the word and the reply cut
 * it), so a fit is a lead to measure with `npm run bench:qa`, never a result in itself.
 */

const { values } = parseArgs({
  options: {
    set: { type: 'string' },
    fit: { type: 'boolean', default: false },
    corpora: { type: 'string' },
  },
});

interface Candidate {
  features: RankFeatures;
  id: number;
  holdsAnswer: boolean;
}

interface Ranked {
  set: string;
  half: Half;
  candidates: Candidate[];
}

const CANDIDATES = 40;
const corpora = corporaDir(values.corpora);
const sets = loadSets().filter(
  (set) =>
    (!values.set || set.name.toLowerCase().includes(values.set.toLowerCase())) &&
    setQuestions(set, corpora).some((question) => question.half === 'heldout'),
);

const questions: Ranked[] = [];
for (const set of sets) {
  const services = await benchServices();
  const { documents } = await setDocuments(set, corpora);
  await trainSet(benchClient(services), documents);
  const knowledge = await services.model.knowledge();
  const { passages } = knowledge;
  for (const question of setQuestions(set, corpora)) {
    if (!question.a) continue;
    const understood = understand(knowledge, question.q, []);
    if (understood.kind !== 'question') continue;
    const searches = gather(passages, understood.readings, evidenceBudgets.expert, false);
    const ranked = rank(passages, searches, question.q).filter((item) => item.reading === 0 && item.features);
    questions.push({
      set: set.name,
      half: question.half ?? 'tuning',
      candidates: ranked.slice(0, CANDIDATES).map((item) => {
        const heading = passages.section(item.hit.id).path.at(-1) ?? '';
        return {
          features: item.features!,
          id: item.hit.id,
          holdsAnswer: mentions(
            `${heading}\n${passages.text(item.hit.id)}`,
            question.a!,
            Number.MAX_SAFE_INTEGER,
          ),
        };
      }),
    });
  }
}

/** The unit ranked first under these weights (ties to the earlier unit, as rank breaks them). */
function top(question: Ranked, weights: Readonly<RankFeatures>): Candidate | undefined {
  let best: Candidate | undefined;
  let bestRank = Number.NEGATIVE_INFINITY;
  for (const candidate of question.candidates) {
    const rank = rankOf(candidate.features, weights);
    if (rank > bestRank || (rank === bestRank && best && candidate.id < best.id)) {
      best = candidate;
      bestRank = rank;
    }
  }
  return best;
}

function topHolds(weights: Readonly<RankFeatures>, half: Half, set?: string): number {
  return questions.filter(
    (question) =>
      question.half === half && (!set || question.set === set) && top(question, weights)?.holdsAnswer,
  ).length;
}

console.log('| set | half | questions | top unit holds an answer word | one of the top five does |');
console.log('|---|---|---|---|---|');
for (const set of sets) {
  for (const half of ['tuning', 'heldout'] as const) {
    const those = questions.filter((question) => question.set === set.name && question.half === half);
    const inFive = those.filter((question) =>
      [...question.candidates]
        .sort((a, b) => rankOf(b.features) - rankOf(a.features) || a.id - b.id)
        .slice(0, 5)
        .some((candidate) => candidate.holdsAnswer),
    ).length;
    console.log(
      `| ${set.name} | ${half} | ${those.length} | ${topHolds(RANK_WEIGHTS, half, set.name)} | ${inFive} |`,
    );
  }
}

if (values.fit) {
  // Coverage stays at 1: it sets the scale the other weights are read against.
  const GRID = [
    -1, -0.6, -0.4, -0.3, -0.2, -0.1, -0.05, 0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1, 1.5, 2,
  ];
  let weights: RankFeatures = { ...RANK_WEIGHTS };
  let best = topHolds(weights, 'tuning');
  const start = best;
  for (let pass = 0; pass < 3; pass++) {
    let moved = false;
    for (const key of Object.keys(weights) as (keyof RankFeatures)[]) {
      if (key === 'coverage') continue;
      for (const value of GRID) {
        const trial = { ...weights, [key]: value };
        const held = topHolds(trial, 'tuning');
        if (held > best) {
          best = held;
          weights = trial;
          moved = true;
          console.log(`${key} ${RANK_WEIGHTS[key]} -> ${value}: tuning ${held}`);
        }
      }
    }
    if (!moved) break;
  }
  console.log(`\ntuning: top unit holds an answer word ${start} -> ${best}`);
  console.log(
    `held out (counts only): ${topHolds(RANK_WEIGHTS, 'heldout')} -> ${topHolds(weights, 'heldout')}`,
  );
  console.log(JSON.stringify(weights));
}
process.exit(0);
