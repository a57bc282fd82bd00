import { endpoint } from '../lib/http';
import { defaultServices } from '../lib/services';
import { trainHandlers } from '../lib/training/handlers';

export default endpoint(trainHandlers(defaultServices));
