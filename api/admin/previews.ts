import { adminPreviewsHandlers } from '../../lib/admin/previews.js';
import { endpoint } from '../../lib/http/index.js';
import { defaultServices } from '../../lib/services/index.js';

export default endpoint(adminPreviewsHandlers(defaultServices));
