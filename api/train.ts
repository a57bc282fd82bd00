import { endpoint } from '../lib/http/index.js';
import { defaultServices } from '../lib/services/index.js';
import { trainHandlers } from '../lib/training/handlers.js';

export default endpoint(trainHandlers(defaultServices));
