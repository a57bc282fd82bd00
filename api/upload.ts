import { endpoint, HttpError } from '../lib/http';

export default endpoint({
  POST() {
    throw new HttpError('not_implemented', 'This endpoint is not available yet.');
  },
});
