import { adminDocumentsHandlers } from '../../lib/admin/index.js';
import { endpoint } from '../../lib/http/index.js';
import { defaultServices } from '../../lib/services/index.js';

export default endpoint(adminDocumentsHandlers(defaultServices));
