import { adminResetModelHandlers } from '../../lib/admin/handlers.js';
import { endpoint } from '../../lib/http/index.js';
import { defaultServices } from '../../lib/services/index.js';

export default endpoint(adminResetModelHandlers(defaultServices));
