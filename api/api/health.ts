import { endpoint } from '../../lib/http';
import { defaultServices } from '../../lib/services';
import { variantBHealthHandlers } from '../../lib/variant-b/handlers';

export default endpoint(variantBHealthHandlers(defaultServices));
