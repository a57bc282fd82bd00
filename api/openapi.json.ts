import { endpoint, json } from '../lib/http';
import { openApiDocument } from '../lib/openapi';

export default endpoint({
  GET() {
    return json(openApiDocument);
  },
});
