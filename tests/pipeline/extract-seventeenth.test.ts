import { describe, expect, it } from 'vitest';
import { pipelineSession } from '../support/pipeline.js';

/** A release history whose names come in one long sentence, the one asked about near its end. */
const HISTORY = `# Lantern release history

## Code names

Each release of Lantern has had a code name taken from a lighthouse: the first public release,
Eddystone, was followed by Bell Rock for release 1.1, Skerryvore for release 1.2,
Fastnet for release 1.3, Hook Head for release 2.0, Pharos for release 2.1, Longships for
release 2.2, Wolf Rock for release 3.0, Bishop Rock for release 3.1, Smeaton for release 4.0,
Tarbat Ness for release 4.1, Cordouan for release 5.0, Kish Bank for release 5.1, Heligoland
for release 6.0, Portland for release 6.1, Anvil Point for release 7.0, Start Point for release
7.1, Lizard for release 8.0, Pendeen for release 8.1 and Trevose for release 9.0, the latest.

## Support

Every release is supported for two years after the next one comes out.
`;

describe('a clause longer than a quote (a long list)', () => {
  it('is quoted from just before the words the question asks about, so they come first', async () => {
    const { ask } = await pipelineSession('history.md', HISTORY);
    const reply = ask('Which release was Cordouan?');
    const lead = reply.text.split(/\s+/).slice(0, 15).join(' ');
    expect(lead).toContain('Cordouan for release 5.0');
    expect(reply.text).toMatch(/^…/);
  });

  it('is quoted from its start when the words asked about are there', async () => {
    const { ask } = await pipelineSession('history.md', HISTORY);
    const reply = ask('Which lighthouse was the first public release named after?');
    expect(reply.text).toContain('Eddystone');
  });
});
