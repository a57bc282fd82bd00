import { endpoint } from '../../lib/http/index.js';
import { defaultServices } from '../../lib/services/index.js';
import { variantBHealthHandlers } from '../../lib/variant-b/handlers.js';

export default endpoint(variantBHealthHandlers(defaultServices));
