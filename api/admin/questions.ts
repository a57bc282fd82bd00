import { endpoint } from '../../lib/http/index.js';
import { adminQuestionsHandlers } from '../../lib/questions/index.js';
import { defaultServices } from '../../lib/services/index.js';

export default endpoint(adminQuestionsHandlers(defaultServices));
