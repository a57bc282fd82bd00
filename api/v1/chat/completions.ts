import { endpoint } from '../../../lib/http/index.js';
import { chatCompletionsHandlers, openAIErrorResponse } from '../../../lib/openai/index.js';
import { defaultServices } from '../../../lib/services/index.js';

export default endpoint(chatCompletionsHandlers(defaultServices), {
  renderError: openAIErrorResponse,
  allowRequestedHeaders: true,
});
