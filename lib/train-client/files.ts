import { readdir, stat } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import picomatch from 'picomatch';

/**
 * How a file is read before it is sent. `asciidoc` is converted to HTML by the client; a `.txt`
 * file may still turn out to be AsciiDoc when its text is read.
 */
export type SourceKind = 'text' | 'markdown' | 'html' | 'pdf' | 'asciidoc';

const KIND_BY_EXTENSION: Record<string, SourceKind> = {
  txt: 'text',
  text: 'text',
  md: 'markdown',
  markdown: 'markdown',
  // MDX is Markdown with JSX; the JSX lines read as text, which is what a reader sees anyway.
  mdx: 'markdown',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  pdf: 'pdf',
  adoc: 'asciidoc',
  asciidoc: 'asciidoc',
};

/** One file to train on and the document it becomes. */
export interface TrainSource {
  path: string;
  /** `PREFIX/path/in/folder` for a folder's file, the file's name for a file given alone. */
  documentId: string;
  /** The path inside its folder (`guide/intro.md`), or the name of a file given alone. */
  relative: string;
  kind: SourceKind;
  bytes: number;
}

/** A folder of the run and the prefix its documents' ids start with (`PREFIX/`). */
export interface SourceFolder {
  path: string;
  prefix: string;
}

export interface SourceSelection {
  folders: SourceFolder[];
  sources: TrainSource[];
}

export interface SelectOptions {
  /** One per folder, in the order the folders are given; else each folder's base name. */
  prefixes?: readonly string[];
  /** Globs (picomatch) on the path inside the folder; a pattern without `/` matches the name. */
  include?: readonly string[];
  exclude?: readonly string[];
}

/** A mistake in what the user asked for (exit code 2 with the usage). */
export class SelectionError extends Error {}

/**
 * The files the paths name: a file as given (of unknown kind: plain text), a folder as every
 * file of a known kind under it that passes --include/--exclude, in name order (hidden entries
 * and node_modules skipped).
 */
export async function selectSources(
  paths: readonly string[],
  options: SelectOptions = {},
): Promise<SourceSelection> {
  const folders: SourceFolder[] = [];
  const sources: TrainSource[] = [];
  const included = options.include?.length ? globMatcher(options.include) : () => true;
  const excluded = options.exclude?.length ? globMatcher(options.exclude) : () => false;
  const infos = await Promise.all(paths.map(statOrExplain));
  const folderCount = infos.filter((info) => info.isDirectory()).length;
  if (options.prefixes?.length && options.prefixes.length !== folderCount) {
    throw new SelectionError(
      `--prefix was given ${options.prefixes.length} times for ${folderCount} folder${folderCount === 1 ? '' : 's'}; give one per folder, in the folders' order`,
    );
  }
  for (const [index, path] of paths.entries()) {
    const info = infos[index]!;
    if (!info.isDirectory()) {
      const name = basename(path);
      sources.push({
        path,
        documentId: name,
        relative: name,
        kind: kindOfFile(name) ?? 'text',
        bytes: info.size,
      });
      continue;
    }
    const prefix = cleanPrefix(options.prefixes?.[folders.length] ?? basename(resolve(path)));
    const twin = folders.find((folder) => folder.prefix === prefix);
    if (twin) {
      throw new SelectionError(
        `${twin.path} and ${path} would share the prefix "${prefix}"; give each folder its own --prefix`,
      );
    }
    folders.push({ path, prefix });
    for (const found of await walk(path)) {
      const inFolder = relative(path, found.path).split('\\').join('/');
      const kind = kindOfFile(found.path);
      if (!kind || !included(inFolder) || excluded(inFolder)) continue;
      sources.push({
        path: found.path,
        documentId: `${prefix}/${inFolder}`,
        relative: inFolder,
        kind,
        bytes: found.bytes,
      });
    }
  }
  return { folders, sources };
}

/**
 * A test of a path inside a folder against globs: a glob with a `/` against the whole path, one
 * without against the file's name (so `*.pdf` means any PDF, `drafts/**` one folder).
 */
function globMatcher(globs: readonly string[]): (path: string) => boolean {
  const matcherOf = (some: string[]) => (some.length ? picomatch(some, { dot: true }) : () => false);
  const onPath = matcherOf(globs.filter((glob) => glob.includes('/')));
  const onName = matcherOf(globs.filter((glob) => !glob.includes('/')));
  return (path) => onPath(path) || onName(path.split('/').pop()!);
}

/** The kind a file name says, undefined for a kind the CLI does not read. */
export function kindOfFile(name: string): SourceKind | undefined {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return extension ? KIND_BY_EXTENSION[extension] : undefined;
}

function cleanPrefix(prefix: string): string {
  const clean = prefix.replace(/^\/+|\/+$/g, '');
  if (clean === '' || /[\u0000-\u001f\u007f]/.test(clean)) {
    throw new SelectionError(`--prefix "${prefix}" must hold printable characters other than /`);
  }
  return clean;
}

async function statOrExplain(path: string) {
  try {
    return await stat(path);
  } catch (error) {
    throw new Error(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

async function walk(folder: string): Promise<{ path: string; bytes: number }[]> {
  const entries = (await readdir(folder, { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  const out: { path: string; bytes: number }[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(path)));
    else if (entry.isFile() && kindOfFile(entry.name)) out.push({ path, bytes: (await stat(path)).size });
  }
  return out;
}

/**
 * A document's citation URL from --source-url: `{path}` is the path inside the folder without its
 * extension, `{file}` with it, each segment URL-encoded.
 */
export function sourceUrlOf(template: string, relativePath: string): string {
  const encode = (path: string) => path.split('/').map(encodeURIComponent).join('/');
  const withoutExtension = relativePath.replace(/\.[^./]+$/, '');
  return template.replaceAll('{path}', encode(withoutExtension)).replaceAll('{file}', encode(relativePath));
}
