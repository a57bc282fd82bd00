import { endpoint } from '../lib/http/index.js';
import { defaultServices } from '../lib/services/index.js';
import { uploadHandlers } from '../lib/upload/handlers.js';

export default endpoint(uploadHandlers(defaultServices));
