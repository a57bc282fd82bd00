import { readdir, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { DOCUMENT_EXTENSIONS, type DocumentFormat, formatOfFile } from '../documents/index.js';

/** A file to train on: where it is, the name it is cited by, and how it is written. */
export interface DocumentFile {
  path: string;
  name: string;
  format: DocumentFormat;
  bytes: number;
}

/**
 * The files the paths name: a file as given (of unknown kind: plain text), a folder as every
 * .txt, .md, .html and .pdf under it, in name order (hidden folders and node_modules skipped).
 * A folder's files are named by their path inside it, prefixed by the folder's own name.
 */
export async function documentFilesOf(paths: readonly string[]): Promise<DocumentFile[]> {
  const files: DocumentFile[] = [];
  for (const path of paths) {
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(path);
    } catch (error) {
      throw new Error(
        `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    if (info.isDirectory()) {
      for (const found of await walk(path)) {
        const format = formatOfFile(found.path);
        if (!format) continue;
        const name = join(basename(path), relative(path, found.path)).split('\\').join('/');
        files.push({ path: found.path, name, format, bytes: found.bytes });
      }
    } else {
      files.push({ path, name: basename(path), format: formatOfFile(path) ?? 'text', bytes: info.size });
    }
  }
  return files;
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
    else if (entry.isFile() && DOCUMENT_EXTENSIONS.some((ext) => entry.name.toLowerCase().endsWith(ext))) {
      out.push({ path, bytes: (await stat(path)).size });
    }
  }
  return out;
}
