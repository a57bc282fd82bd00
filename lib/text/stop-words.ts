/**
 * Words too common to steer a reply (MegaHAL's "banned" list, trimmed and extended with the
 * archaic forms of the KJV). Pronouns are not here: they are swapped and kept as auxiliary
 * keywords (see keywords.ts).
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are as at be because been before being
  below between both but by can could did do does doing done down during each either else even ever
  every few for from further get got had has hast hath have having he her here hers herself him
  himself his how however if in into is it its itself just let like may might more most much must
  neither no nor not now o of off oh on once one only or other ought our ours ourselves out over own
  please quite rather really said same say says shall shalt she should so some still such than that
  the their theirs them themselves then there therefore these they thing things this those though
  through thus to too under unto until up upon us very was we well were what whatsoever when whence
  where whether which while who whom whose why will wilt with within without would yea yes yet
  lets don't doesn't didn't isn't aren't wasn't weren't can't cannot won't wouldn't shouldn't
  couldn't haven't hasn't hadn't`
    .split(/\s+/)
    .filter((word) => word !== ''),
);

/** MegaHAL's swaps: what the user says about themselves is what the reply says about itself. */
export const PRONOUN_SWAPS: ReadonlyMap<string, readonly string[]> = new Map([
  ['i', ['you']],
  ['me', ['you']],
  ['my', ['your']],
  ['mine', ['yours']],
  ['myself', ['yourself']],
  ['you', ['i', 'me']],
  ['your', ['my']],
  ['yours', ['mine']],
  ['yourself', ['myself']],
  ["i'm", ["you're"]],
  ["you're", ["i'm"]],
  ['thee', ['me']],
  ['thou', ['i']],
  ['thy', ['my']],
  ['thine', ['mine']],
]);
