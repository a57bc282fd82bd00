import { describe, expect, it } from 'vitest';
import { resolveFollowUp } from '../../lib/pipeline/understand/follow-up.js';
import { NEAREST_PREFACE } from '../../lib/pipeline/wording.js';
import { askPipeline, historyOf, pipelineSession } from '../support/pipeline.js';

const MANUAL = `# Lamp manual

## Dimming

If the light of the lamp is too bright for reading at night, set the lamp to dim mode with the dim command.

To get full brightness back, turn dim mode off with the bright command.

## Clock display

The clock shows the time of day on its face. To switch this off again, run the noclock command.

## Timer

The timer turns the lamp off after the number of minutes it is given.

## Batteries

The batteries last about forty hours and charge from any USB port.

## Colours

Eight colours can be chosen with the hue dial on the base.

## Mounting

The base screws onto a wall bracket or stands on a desk.

## Cleaning

Wipe the shade with a dry cloth; water harms the sensor.

## Sound

A speaker in the base plays a chime every hour when asked.

## Alarm

The alarm sounds at the hour that the alarm dial shows.

## Travel

Fold the arm flat before packing it in a suitcase.

## Warranty

Repairs are free for two years from the date of purchase.

## Sensor

The motion sensor wakes the display when someone walks past.

## Pairing

Hold the pair button for five seconds to pair a phone.
`;

describe('a follow-up whose words alone find only a unit off the earlier topic', () => {
  it('is answered from the earlier topic, even from a unit the earlier reply quoted', async () => {
    const { ask } = await pipelineSession('lamp.md', MANUAL);
    const first = ask('How do I make the light of the lamp less bright for reading at night?');
    expect(first.text).toMatch(/dim mode/);
    const reply = ask('How do I switch that off again?');
    // As written, "switch ... off again" is found only in the clock's section, which shares
    // nothing with the earlier question; the earlier topic's units were quoted already.
    expect(reply.text).not.toMatch(/noclock/);
    expect(reply.readAs).toBeDefined();
    // The earlier reply held the answer; the reader passed over it, and it is shown again.
    expect(reply.text).toMatch(/bright command/);
  });
});

describe('"what about X?" with a name for X', () => {
  it('never puts X in the place of "I", which names the asker', () => {
    const read = resolveFollowUp('What about PDF?', historyOf('What file types can I train you on?'));
    expect(read.kind).toBe('ellipsis');
    expect(read.question).not.toMatch(/can PDF/);
    expect(`${read.question} ${read.carried}`).toMatch(/file types/);
    expect(
      resolveFollowUp('What about Windows?', historyOf('Which shells can I use it with on Linux?')).question,
    ).toBe('Which shells can I use it with on Windows?');
  });
});

describe('"why?", "an example" or "more" after a closest-passage reply', () => {
  const REASONS = `# Lamp care

## Dimming

Set the lamp to dim mode with the dim command. Dim mode is kept low because a bright bulb wears out the battery in an hour.

## Colours

Eight colours can be chosen with the hue dial on the base.
`;

  it('is no surer than the passage it is about', async () => {
    const { knowledge } = await pipelineSession('lamp.md', REASONS);
    const said = 'Set the lamp to dim mode with the dim command. [1]';
    const asked = { role: 'user' as const, content: 'How do I keep the lamp from draining?' };
    const hedged = askPipeline(knowledge, 'why?', [
      asked,
      { role: 'assistant', content: `${NEAREST_PREFACE}${said}` },
    ]);
    expect(hedged.text).toMatch(/battery/);
    expect(hedged.confidence.level).toBe('nearest');
    expect(hedged.text.startsWith(NEAREST_PREFACE)).toBe(true);
    const plain = askPipeline(knowledge, 'why?', [asked, { role: 'assistant', content: said }]);
    expect(plain.text).toMatch(/battery/);
    expect(plain.confidence.level).toBe('answer');
  });
});

describe('an "it" that continues the "it" of a question that pointed at nothing said', () => {
  const GUIDE = `# Kettle service guide

## Running locally

The kettle service runs on a laptop with no database server: it keeps its data in a local file.

## Price

The kettle service is free to use, and hosting it costs nothing on the free plans.

## Formats

The kettle service reads plain text and Markdown files.
${Array.from({ length: 12 }, (_, i) => `\n## Note ${i + 1}\n\nKettle note number ${i + 1} is about section ${i + 1} of the manual.\n`).join('')}`;

  it('asks about the same thing, the product, and stands alone', async () => {
    expect(
      resolveFollowUp('Does it cost anything?', historyOf('Can I run it without a database server?')).kind,
    ).toBe('none');
    const { ask } = await pipelineSession('kettle.md', GUIDE);
    ask('Can I run it without a database server?');
    const reply = ask('Does it cost anything?');
    expect(reply.text).toMatch(/free to use/);
    expect(reply.confidence.level).toBe('answer');
    expect(reply.readAs).toBeUndefined();
  });

  it('still leans on a question that named its topic, or that it resolved', () => {
    expect(resolveFollowUp('Is it thread-safe?', historyOf('What is zlib?')).kind).toBe('pronoun');
    const tagged = resolveFollowUp(
      'Does git push send it automatically?',
      historyOf('How do I make a tag that records who tagged it and a message?'),
    );
    expect(tagged.kind).toBe('pronoun');
    const chained = resolveFollowUp('Is it fast?', historyOf('What is zlib?', 'How do I install it?'));
    expect(chained.kind).toBe('pronoun');
    expect(chained.carried).toMatch(/zlib/);
    // "undo it" takes the earlier action.
    expect(resolveFollowUp('And how do I undo it?', historyOf('How do I configure it?')).kind).toBe(
      'pronoun',
    );
  });
});
