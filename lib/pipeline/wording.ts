/**
 * How documentation words the kinds of thing a question can want, shared by ranking (which unit
 * is of the kind asked) and extraction (which sentence of it states it).
 */

/** A sentence that gives a reason: a word of cause. */
export const REASON = /\b(?:because|since|so that|in order to|due to|therefore|the reason)\b/i;

/** A sentence about a default. */
export const DEFAULT = /\bdefault(?:s|ed)?\b/i;
