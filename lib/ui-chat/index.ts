export { readUIConversation, type UIConversation } from './conversation.js';
export { conversationSessionId } from './conversation-session.js';
export { uiChatHandlers } from './handlers.js';
export { MAX_CONVERSATION_ID_CHARS, type UIChatRequest, uiChatRequestSchema } from './schema.js';
export { type SourceDocument, sourceDocument, sourceTitle } from './sources.js';
export { streamUIMessage, UI_MESSAGE_STREAM_HEADERS, type UIStreamEnding } from './stream.js';
