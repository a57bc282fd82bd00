import { endpoint, json } from '../lib/http/index.js';
import { openApiDocument } from '../lib/openapi/index.js';

export default endpoint({
  GET() {
    return json(openApiDocument);
  },
});
