import { describe, expect, it } from 'vitest';
import { sniffImageType } from '../../lib/vision/index.js';
import { pdfFile, solidImage, svgWithScript, textFile, writableFormats } from './images.js';

function isoFile(...brands: string[]): Uint8Array {
  const box = Buffer.alloc(8 + brands.length * 4 + 4);
  box.writeUInt32BE(box.length, 0);
  box.write('ftyp', 4, 'latin1');
  box.write(brands[0]!, 8, 'latin1');
  for (const [index, brand] of brands.slice(1).entries()) box.write(brand, 16 + index * 4, 'latin1');
  return box;
}

describe('sniffImageType', () => {
  it.each(writableFormats)('recognises %s from its bytes', async (format) => {
    const bytes = await solidImage(format, 8, 8, '#808080');
    expect(sniffImageType(bytes)).toBe(format === 'jpeg' ? 'image/jpeg' : `image/${format}`);
  });

  it('tells HEIC from AVIF by the ftyp brands', () => {
    expect(sniffImageType(isoFile('heic', 'mif1', 'heic'))).toBe('image/heic');
    expect(sniffImageType(isoFile('mif1', 'mif1', 'avif'))).toBe('image/avif');
    expect(sniffImageType(isoFile('isom', 'mp41'))).toBeUndefined();
  });

  it('returns undefined for SVG, text, PDF and empty input', () => {
    expect(sniffImageType(svgWithScript)).toBeUndefined();
    expect(sniffImageType(textFile)).toBeUndefined();
    expect(sniffImageType(pdfFile)).toBeUndefined();
    expect(sniffImageType(new Uint8Array(0))).toBeUndefined();
  });
});
