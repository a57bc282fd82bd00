import { chatHandlers } from '../lib/chat/handlers';
import { endpoint } from '../lib/http';
import { defaultServices } from '../lib/services';

export default endpoint(chatHandlers(defaultServices));
