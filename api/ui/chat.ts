import { endpoint } from '../../lib/http/index.js';
import { defaultServices } from '../../lib/services/index.js';
import { uiChatHandlers } from '../../lib/ui-chat/index.js';

export default endpoint(uiChatHandlers(defaultServices), { allowRequestedHeaders: true });
