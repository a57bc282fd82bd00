import { endpoint } from '../lib/http/index.js';
import { defaultServices } from '../lib/services/index.js';
import { suggestionsHandlers } from '../lib/suggestions/handlers.js';

export default endpoint(suggestionsHandlers(defaultServices));
