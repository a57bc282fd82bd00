/**
 * `npm run bench -- --stages DIR [--top N]`: where a server's CPU time went, from the profiles
 * `node --cpu-prof` wrote to DIR (`npm run bench -- --against C --profile DIR` writes DIR/ours and
 * DIR/theirs). Reads the largest profile (the server's main thread; the others are npm, tsx and
 * the page build) and charges every sample to the innermost frame of the project's own code
 * (lib/, api/, scripts/) on its stack, so a library or Node function counts for the project code
 * that called it; samples with no project frame count as Node's (the HTTP server, the event loop,
 * the collector). Prints the share per stage (a folder of lib/, or a file where a folder holds
 * several stages) and the top project functions.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface StageFigures {
  file: string;
  totalMs: number;
  /** Milliseconds per stage, largest first. */
  stages: [string, number][];
  /** Milliseconds per project function (`name file:line`), largest first. */
  functions: [string, number][];
}

/** The project path of a frame's script (`lib/answer/compose.ts`), or undefined for Node's and libraries'. */
function projectPath(url: string): string | undefined {
  if (!url || url.includes('/node_modules/')) return undefined;
  const match = /\/((?:lib|api|scripts)\/[^?#]+)/.exec(url);
  return match?.[1];
}

/** The stage a project file belongs to: its folder under lib/, with the reply path's folders split by file. */
export function stageOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] !== 'lib') return parts[0];
  const folder = parts[1];
  const file = (parts[2] ?? '').replace(/\.[jt]s$/, '');
  if (parts.length === 2) return `lib/${folder.replace(/\.[jt]s$/, '')}`;
  // The folders that hold several stages of the reply path, by file.
  if (['answer', 'conversation', 'reply', 'retrieval', 'lm', 'chat', 'dialogue'].includes(folder))
    return `lib/${folder}/${file}`;
  return `lib/${folder}`;
}

function stageOfNode(node: ProfileNode): string | undefined {
  const path = projectPath(node.callFrame.url);
  return path ? stageOf(path) : undefined;
}

/** Charges the samples of the profile in `dir` that served the most chat messages to stages. */
export function stagesOf(dir: string): StageFigures {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => join(dir, name));
  if (files.length === 0) throw new Error(`no .cpuprofile in ${dir}`);
  return files.map(stagesOfFile).sort((a, b) => b.totalMs - a.totalMs)[0];
}

function stagesOfFile(file: string): StageFigures {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  // The innermost project frame of each node, found once per node.
  const owner = new Map<number, ProfileNode | null>();
  const ownerOf = (id: number): ProfileNode | null => {
    const known = owner.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id)!;
    const found = projectPath(node.callFrame.url) ? node : parent.has(id) ? ownerOf(parent.get(id)!) : null;
    owner.set(id, found);
    return found;
  };
  const stages = new Map<string, number>();
  const functions = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
  let totalMs = 0;
  // Training comes first in a bench run: count from the first sample that answers a chat message.
  const chatNodes = new Set<number>();
  const servesChat = (id: number): boolean => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      if (chatNodes.has(at)) return true;
      if (byId.get(at)!.callFrame.functionName === 'respondToChat') {
        chatNodes.add(at);
        return true;
      }
    }
    return false;
  };
  let serving = false;
  for (let i = 0; i < profile.samples.length; i++) {
    if (!serving) serving = servesChat(profile.samples[i]);
    if (!serving) continue;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const node = byId.get(profile.samples[i])!;
    const name = node.callFrame.functionName;
    if (name === '(idle)') continue;
    totalMs += ms;
    if (name === '(garbage collector)' || name === '(program)') {
      add(stages, name, ms);
      continue;
    }
    const projectFrame = ownerOf(node.id);
    if (!projectFrame) {
      add(stages, 'Node and libraries, no project frame (HTTP server, event loop)', ms);
      continue;
    }
    add(stages, stageOfNode(projectFrame)!, ms);
    const frame = projectFrame.callFrame;
    add(
      functions,
      `${frame.functionName || '(anonymous)'} ${projectPath(frame.url)}:${frame.lineNumber + 1}`,
      ms,
    );
  }
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  return { file, totalMs, stages: sorted(stages), functions: sorted(functions) };
}

/** Prints one or two profiles' stages side by side (`--stages DIR [DIR2]`). */
export function printStages(dirs: string[], top: number): void {
  const figures = dirs.map(stagesOf);
  const keys = [...new Set(figures.flatMap((f) => f.stages.map(([stage]) => stage)))];
  const msOf = (f: StageFigures, key: string) => f.stages.find(([stage]) => stage === key)?.[1] ?? 0;
  keys.sort((a, b) => msOf(figures[0], b) - msOf(figures[0], a));
  const pct = (f: StageFigures, ms: number) =>
    `${ms.toFixed(0)} ms (${((100 * ms) / f.totalMs).toFixed(1)}%)`;
  process.stdout.write(`| stage | ${dirs.join(' | ')} |\n|---|${dirs.map(() => '---|').join('')}\n`);
  for (const key of keys) {
    if (figures.every((f) => msOf(f, key) < f.totalMs * 0.002)) continue;
    process.stdout.write(`| ${key} | ${figures.map((f) => pct(f, msOf(f, key))).join(' | ')} |\n`);
  }
  process.stdout.write(`| total CPU | ${figures.map((f) => `${f.totalMs.toFixed(0)} ms`).join(' | ')} |\n`);
  for (const f of figures) {
    process.stdout.write(
      `\n${f.file}: top ${top} project functions (self, with the library and Node code they call)\n`,
    );
    for (const [name, ms] of f.functions.slice(0, top))
      process.stdout.write(`  ${pct(f, ms).padEnd(18)} ${name}\n`);
  }
}
