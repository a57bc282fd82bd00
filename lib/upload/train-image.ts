import { cleanTrainingText } from '../documents/index.js';
import { validate } from '../http/validate.js';
import type { ModelKeeper } from '../training/index.js';
import { TRAIN_FIELD_YES, type UploadedImage, uploadFieldsSchema } from './schema.js';

/** The name an image's text is trained under, which its passages' sources carry. */
export const imageSourceName = (id: string): string => `image:${id}`;

/** Whether the upload's `train` field asks to train: true/1/yes, false/0/no or absent; anything else is a 400. */
export function wantsTraining(fields: Record<string, string>): boolean {
  const { train } = validate(uploadFieldsSchema, fields);
  return (TRAIN_FIELD_YES as readonly string[]).includes(train ?? '');
}

/**
 * Trains the text read in an uploaded image into the model, one line of the image a line of the
 * chunk, under the name `image:<id>` (the `file` of the sources it gives). An image without text
 * trains nothing (`no_text`).
 */
export async function trainImageText(
  keeper: ModelKeeper,
  id: string,
  lines: readonly string[],
): Promise<NonNullable<UploadedImage['training']>> {
  if (lines.length === 0) return { status: 'no_text' };
  const source = imageSourceName(id);
  const result = await keeper.train({
    format: 'text',
    name: source,
    text: cleanTrainingText(lines.join('\n')),
  });
  return {
    status: 'trained',
    source,
    chunk: result.chunk,
    tokens: result.tokens,
    vocabSize: result.vocabSize,
  };
}
