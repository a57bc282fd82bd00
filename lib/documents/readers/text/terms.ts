import type { SourceLine } from './lines.js';

/** A term and the description beside or beneath it (an option, a variable, a file). */
export interface TermEntry {
  name: string;
  /** The description's lines, first to last. */
  description: string[];
  /** Column where the description is written. */
  descriptionIndent: number;
  /** Lines the entry takes. */
  lines: number;
}

const OPTION = /^[-+]{1,2}[\w?#@]/;
const CONSTANT = /^[A-Z][A-Z0-9_]*[A-Z0-9_]=?$/;
const CAPABILITY = /^[a-z]{1,4}=$/;
const TWO_COLUMNS = /^(\S+(?: \S+){0,2})\s{2,}(\S.*)$/;
/** Longest term of a command listing with its arguments: a command and a few of them, not a clause. */
const LISTING_TERM_LENGTH = 32;
const OPTION_THEN_TEXT = /^([-+]{1,2}[\w][\w-]*)\s(\p{Lu}.*)$/u;

function isNamed(term: string): boolean {
  return (OPTION.test(term) && term.split(/\s+/).length <= 6) || CONSTANT.test(term) || CAPABILITY.test(term);
}

/** A term alone on its line, described beneath it: short, not a sentence. */
function isHangingTerm(term: string): boolean {
  if (isNamed(term)) return true;
  return (
    term.length <= 40 && term.split(/\s+/).length <= 4 && !/[.,;:!?]$/.test(term) && !/^[-*•]\s/.test(term)
  );
}

/**
 * The term entry at line `i`, as manual pages and FAQs write them: the term alone with its
 * description indented beneath (`-e PATTERNS, --regexp=PATTERNS` / `   Use PATTERNS as ...`), or
 * term and description in two columns (`-4      Forces ssh to use IPv4 ...`,
 * `HOME                  Set to the path ...`), the description's later lines under its start.
 */
export function termAt(lines: readonly SourceLine[], i: number): TermEntry | undefined {
  const line = lines[i];
  const stacked = stackedTerms(lines, i);
  if (stacked) return stacked;
  const next = lines[i + 1];
  const hasBody = next !== undefined && next.text !== '';
  if (hasBody && next.indent >= line.indent + 2 && isHangingTerm(line.text)) {
    // Lines less indented than the first, yet under the term, still describe it: a synopsis set
    // deeper than the text that follows it (`break` / `      break [n]` / `   Exit from ...`).
    const description = descriptionLines(lines, i + 1, Math.min(next.indent, line.indent + 2));
    let descriptionIndent = next.indent;
    for (let k = 1; k < description.length; k++) {
      descriptionIndent = Math.min(descriptionIndent, lines[i + 1 + k].indent);
    }
    return { name: line.text, description, descriptionIndent, lines: 1 + description.length };
  }
  const spaced = lines[i + 2];
  if (
    !hasBody &&
    line.indent > 0 &&
    spaced !== undefined &&
    spaced.text !== '' &&
    spaced.indent >= line.indent + 2 &&
    (lines[i - 1] === undefined || lines[i - 1].text === '') &&
    isHangingTerm(line.text) &&
    !/\s/.test(line.text.replace(/^[-+]{1,2}\S+/, 'x'))
  ) {
    // DocBook's term lists in text: the term alone, a blank line, its description indented under
    // it ("    prerm" / "" / "        This script typically stops any daemons ..."). One word only
    // (an option may carry its value), so a short title over an indented paragraph stays a title.
    const description = descriptionLines(lines, i + 2, spaced.indent);
    return { name: line.text, description, descriptionIndent: spaced.indent, lines: 2 + description.length };
  }
  const columns = TWO_COLUMNS.exec(line.text) ?? OPTION_THEN_TEXT.exec(line.text);
  if (!columns) return undefined;
  const column = line.indent + line.text.indexOf(columns[2], columns[1].length);
  if (!isNamed(columns[1]) && !inTable(lines, i, columns[1], column)) return undefined;
  const continues = hasBody && Math.abs(next.indent - column) <= 1;
  if (hasBody && !continues && next.indent > line.indent) return undefined;
  const rest = continues ? descriptionLines(lines, i + 1, next.indent) : [];
  return {
    name: columns[1],
    description: [columns[2], ...rest],
    descriptionIndent: column,
    lines: 1 + rest.length,
  };
}

/** The column of a line's two-column description, when it has one. */
function descriptionColumn(line: SourceLine | undefined): number | undefined {
  if (!line || line.text === '') return undefined;
  const columns = TWO_COLUMNS.exec(line.text);
  return columns ? line.indent + line.text.indexOf(columns[2], columns[1].length) : undefined;
}

/**
 * A short term in a two-column table (`~.      Disconnect.`, `gnu      GNU tar 1.13.x format`):
 * a neighbouring line, next to it or past a blank line, has its description in the same column.
 */
function inTable(lines: readonly SourceLine[], i: number, term: string, column: number): boolean {
  if (/\s/.test(term) || term.length > 12) return inListing(lines, i, column);
  // Justified prose has runs of two spaces that can line up; a table's columns are further apart.
  if (column - lines[i].indent - term.length < 3) return false;
  for (const j of [i - 1, i + 1, i - 2, i + 2]) {
    const neighbour = lines[j];
    if (!neighbour || neighbour.text === '') continue;
    if (Math.abs(j - i) === 2 && lines[(i + j) / 2].text !== '') continue;
    // A neighbour entry's description: beside its term in the same column, or beneath it
    // indented to the column (a list mixing both forms, as a PDF's term list sets them).
    if (neighbour.indent === lines[i].indent && descriptionColumn(neighbour) === column) return true;
    if (neighbour.indent > lines[i].indent && Math.abs(neighbour.indent - column) <= 1) return true;
  }
  return false;
}

/**
 * A term with its arguments in a command listing (`.backup ?DB? FILE   Backup DB to FILE`,
 * `add <path>   Add a file`): the term has words of its own, so one aligned neighbour could be
 * chance; three lines in a row at the same indent with their descriptions in one column are a
 * listing. Justified prose lines up a run of two spaces by chance on two lines, hardly on three.
 */
function inListing(lines: readonly SourceLine[], i: number, column: number): boolean {
  if ((TWO_COLUMNS.exec(lines[i].text)?.[1].length ?? Infinity) > LISTING_TERM_LENGTH) return false;
  const aligned = (j: number) =>
    lines[j] !== undefined && lines[j].indent === lines[i].indent && descriptionColumn(lines[j]) === column;
  return (
    (aligned(i - 1) && aligned(i + 1)) ||
    (aligned(i - 2) && aligned(i - 1)) ||
    (aligned(i + 1) && aligned(i + 2))
  );
}

/**
 * Several forms of one option, a line each, described once beneath them
 * (`-L [bind_address:]port:host:hostport` / `-L local_socket:remote_socket` / `   Specifies ...`).
 */
function stackedTerms(lines: readonly SourceLine[], i: number): TermEntry | undefined {
  const line = lines[i];
  if (!OPTION.test(line.text) || !isNamed(line.text)) return undefined;
  let last = i;
  while (
    lines[last + 1] !== undefined &&
    lines[last + 1].indent === line.indent &&
    OPTION.test(lines[last + 1].text) &&
    isNamed(lines[last + 1].text) &&
    !TWO_COLUMNS.test(lines[last + 1].text)
  ) {
    last++;
  }
  const body = lines[last + 1];
  if (last === i || body === undefined || body.text === '' || body.indent < line.indent + 2) return undefined;
  const names = lines.slice(i, last + 1).map((term) => term.text);
  const description = descriptionLines(lines, last + 1, body.indent);
  return {
    name: names.join(', '),
    description,
    descriptionIndent: body.indent,
    lines: names.length + description.length,
  };
}

function descriptionLines(lines: readonly SourceLine[], from: number, indent: number): string[] {
  const out: string[] = [];
  for (let j = from; j < lines.length; j++) {
    const line = lines[j];
    if (line.text === '' || line.indent < indent - 1) break;
    out.push(line.text);
  }
  return out;
}
