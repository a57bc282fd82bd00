import { endpoint } from '../../lib/http/index.js';
import { defaultServices } from '../../lib/services/index.js';
import { variantBChatHandlers } from '../../lib/variant-b/handlers.js';

export default endpoint(variantBChatHandlers(defaultServices));
