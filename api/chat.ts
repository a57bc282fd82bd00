import { chatHandlers } from '../lib/chat/handlers.js';
import { endpoint } from '../lib/http/index.js';
import { defaultServices } from '../lib/services/index.js';

export default endpoint(chatHandlers(defaultServices));
