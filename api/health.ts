import { healthHandlers } from '../lib/health/handlers';
import { endpoint } from '../lib/http';
import { defaultServices } from '../lib/services';

export default endpoint(healthHandlers(defaultServices));
