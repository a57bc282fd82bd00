import type { DominantColour, ImageAnalysis } from './types.js';

/**
 * One or two plain sentences about the image for a chat reply, e.g.
 * "A bright landscape PNG, 640×480, mostly sky blue and white, with transparent areas."
 */
export function describeImage(analysis: ImageAnalysis): string {
  const kind = analysis.animated
    ? `animated ${analysis.format.toUpperCase()} of ${analysis.pages} frames`
    : analysis.format.toUpperCase();
  const parts = [
    `A ${analysis.brightness.word} ${analysis.orientation} ${kind}`,
    `${analysis.width}×${analysis.height}`,
    colourPhrase(analysis.dominantColours),
  ];
  if (analysis.transparent && analysis.dominantColours.length > 0) parts.push('with transparent areas');
  return `${parts.join(', ')}.`;
}

/** The analysis as one compact line for the `thought` of a chat reply. */
export function formatAnalysis(analysis: ImageAnalysis): string {
  const colours =
    analysis.dominantColours
      .map((colour) => `${colour.name} ${Math.round(colour.share * 100)}%`)
      .join(', ') || 'none visible';
  return [
    `image: ${analysis.format} ${analysis.width}×${analysis.height} (${analysis.megapixels} MP, ${analysis.orientation})`,
    `brightness ${analysis.brightness.value} (${analysis.brightness.word})`,
    `colours: ${colours}`,
    `alpha: ${analysis.hasAlpha ? 'yes' : 'no'}, transparent pixels: ${analysis.transparent ? 'yes' : 'no'}`,
    `animated: ${analysis.animated ? `yes, ${analysis.pages} frames` : 'no'}`,
    textSummary(analysis),
  ].join(' · ');
}

function textSummary(analysis: ImageAnalysis): string {
  switch (analysis.textStatus) {
    case 'read': {
      const count = analysis.text.length;
      return `text: ${count} line${count === 1 ? '' : 's'} (confidence ${analysis.textConfidence})`;
    }
    case 'none':
      return 'text: none found';
    case 'timed_out':
      return 'text: reading timed out';
    default:
      return 'text: not read';
  }
}

function colourPhrase(colours: DominantColour[]): string {
  if (colours.length === 0) return 'fully transparent';
  const names = colours.slice(0, 3).map((colour) => colour.name);
  if (names.length === 1)
    return colours[0]!.share >= 0.9 ? `almost entirely ${names[0]}` : `mostly ${names[0]}`;
  return `mostly ${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
