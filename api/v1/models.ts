import { endpoint } from '../../lib/http/index.js';
import { modelsHandlers, openAIErrorResponse } from '../../lib/openai/index.js';
import { defaultServices } from '../../lib/services/index.js';

export default endpoint(modelsHandlers(defaultServices), {
  renderError: openAIErrorResponse,
  allowRequestedHeaders: true,
});
