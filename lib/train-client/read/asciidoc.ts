import { dirname } from 'node:path';
import { convert, LoggerManager, MemoryLogger } from '@asciidoctor/core';

const HEADER = /^= \S/;
const ATTRIBUTE_ENTRY = /^:!?[\w][\w-]*!?:(\s|$)/;
const BLOCK_SYNTAX = [
  /^={2,6} \S/, // section title
  /^(-{4,}|={4,}|\*{4,}|\.{4,}|_{4,}|\+{4,}|\/{4,})$/, // delimited block
  /^\[(source|quote|verse|NOTE|TIP|IMPORTANT|WARNING|CAUTION|listing|literal|cols=|%|#|\.)[^\]]*\]$/, // block attributes
  /^[a-z]+::\S*\[.*\]$/, // block macro: include::, image::, toc::
  /^(NOTE|TIP|IMPORTANT|WARNING|CAUTION): \S/, // admonition paragraph
];

/**
 * Whether a text is AsciiDoc: a document header (`= Title` as its first line, after comments)
 * followed by attribute entries or AsciiDoc block syntax. A `.txt` file that merely starts with
 * `= ` is not enough, so plain notes stay plain text.
 */
export function looksLikeAsciiDoc(text: string): boolean {
  const lines = text.split(/\r?\n/);
  let index = 0;
  while (index < lines.length && (lines[index]!.trim() === '' || lines[index]!.startsWith('//'))) index++;
  if (!HEADER.test(lines[index] ?? '')) return false;
  const rest = lines.slice(index + 1, index + 2000);
  return rest.some(
    (line) => ATTRIBUTE_ENTRY.test(line) || BLOCK_SYNTAX.some((pattern) => pattern.test(line)),
  );
}

/** What converting AsciiDoc gave: its HTML, and the converter's warnings (unresolved includes ...). */
export interface ConvertedAsciiDoc {
  html: string;
  warnings: string[];
}

/**
 * AsciiDoc to HTML with @asciidoctor/core, the body only (title shown, no table of contents).
 * Includes resolve in the file's own folder and never outside it (safe mode).
 */
export async function asciidocToHtml(text: string, path: string): Promise<ConvertedAsciiDoc> {
  const logger = MemoryLogger.create();
  const previous = LoggerManager.getLogger();
  LoggerManager.setLogger(logger);
  try {
    const html = (await convert(text, {
      safe: 'safe',
      base_dir: dirname(path),
      standalone: false,
      attributes: { showtitle: '', toc: null, 'allow-uri-read': null },
    })) as string;
    const warnings = logger.getMessages().map((message) => `${message.getSeverity()}: ${message.getText()}`);
    return { html, warnings };
  } finally {
    LoggerManager.setLogger(previous);
  }
}
