import { endpoint } from '../lib/http';
import { defaultServices } from '../lib/services';
import { uploadHandlers } from '../lib/upload/handlers';

export default endpoint(uploadHandlers(defaultServices));
