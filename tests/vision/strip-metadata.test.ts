import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { stripMetadata } from '../../lib/vision/index.js';
import { exifHasGps, jpegWithGps, solidImage } from './images.js';

describe('stripMetadata', () => {
  it('removes EXIF GPS from a JPEG and turns the pixels upright first', async () => {
    const original = await jpegWithGps(64, 48);
    const before = await sharp(original).metadata();
    expect(exifHasGps(before.exif)).toBe(true);
    expect(before.orientation).toBe(6);

    const stripped = await stripMetadata(original, 'image/jpeg');
    const after = await sharp(stripped.bytes).metadata();
    expect(stripped).toMatchObject({ mimeType: 'image/jpeg', reencoded: true });
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.iptc).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    expect({ width: after.width, height: after.height }).toEqual({ width: 48, height: 64 });
  });

  it('removes EXIF and XMP from PNG and WebP', async () => {
    for (const format of ['png', 'webp'] as const) {
      const original = await sharp({ create: { width: 12, height: 12, channels: 3, background: '#102030' } })
        .toFormat(format)
        .withExif({ IFD0: { Artist: 'Someone' } })
        .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/></x:xmpmeta>')
        .toBuffer();
      const before = await sharp(original).metadata();
      expect(before.exif ?? before.xmp).toBeDefined();
      const stripped = await stripMetadata(original, `image/${format}`);
      const after = await sharp(stripped.bytes).metadata();
      expect(stripped.reencoded).toBe(true);
      expect(after.format).toBe(format);
      expect(after.exif).toBeUndefined();
      expect(after.xmp).toBeUndefined();
    }
  });

  it('returns an image without metadata byte for byte, without re-encoding', async () => {
    const original = await solidImage('jpeg', 30, 20, '#336699');
    const stripped = await stripMetadata(original, 'image/jpeg');
    expect(stripped.reencoded).toBe(false);
    expect(Buffer.from(stripped.bytes).equals(original)).toBe(true);
  });
});
