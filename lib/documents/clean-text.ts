/**
 * C0 controls other than tab and line feed, DEL and the C1 controls: never text a person wrote,
 * and a NUL learned comes back in replies. A form feed is kept where the service writes it itself
 * (between a PDF's pages).
 */
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const CONTROLS_BUT_FORM_FEED = /[\u0000-\u0008\u000B\u000E-\u001F\u007F-\u009F]/g;

/** Text as it is learned: line ends made `\n`, control characters other than tab and newline removed. */
export function cleanTrainingText(text: string, { keepFormFeed = false } = {}): string {
  return text.replace(/\r\n?/g, '\n').replace(keepFormFeed ? CONTROLS_BUT_FORM_FEED : CONTROLS, '');
}

/** A name (a file's, a document's) without control characters or surrounding space. */
export function cleanName(name: string): string {
  return name.replace(/[\u0000-\u001F\u007F-\u009F]/g, '').trim();
}
