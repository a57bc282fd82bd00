import { endpoint } from '../../lib/http';
import { defaultServices } from '../../lib/services';
import { variantBChatHandlers } from '../../lib/variant-b/handlers';

export default endpoint(variantBChatHandlers(defaultServices));
