export { type Focus, type FocusEntity, namesIn } from './focus.js';
export { type FollowUp, type FollowUpKind, resolveFollowUp } from './rewrite.js';
