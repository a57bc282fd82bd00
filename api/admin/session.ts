import { adminSessionHandlers } from '../../lib/admin/handlers';
import { endpoint } from '../../lib/http';
import { defaultServices } from '../../lib/services';

export default endpoint(adminSessionHandlers(defaultServices));
