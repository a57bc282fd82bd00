export { asciidocToHtml, looksLikeAsciiDoc } from './asciidoc.js';
export { mdxAsMarkdown } from './mdx.js';
export { type PreparedDocument, prepareSource, type SentFormat } from './prepare.js';
export { PartPacker, partsOf, splitForTraining, splitMarkdownForTraining, utf8Bytes } from './split.js';
