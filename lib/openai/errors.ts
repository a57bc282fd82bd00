import { type HttpError, json } from '../http/index.js';

/** The `error` object of OpenAI's wire format. */
export interface OpenAIErrorBody {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

/** OpenAI's names for some of our codes; the rest keep ours. */
const openAICodes: Partial<Record<HttpError['code'], string>> = {
  invalid_api_key: 'invalid_api_key',
  invalid_token: 'invalid_api_key',
  unauthorized: 'invalid_api_key',
  model_not_found: 'model_not_found',
  rate_limited: 'rate_limit_exceeded',
};

/** Our error in OpenAI's shape: `type` from the status, `param` from the field at fault. */
export function openAIError(error: HttpError): OpenAIErrorBody {
  const param = error.extra.param ?? error.extra.field;
  return {
    message: error.message,
    type: errorType(error),
    param: typeof param === 'string' ? param : null,
    code: openAICodes[error.code] ?? error.code,
  };
}

/** The response of an error on /api/v1: `{ "error": { message, type, param, code } }`, same status and headers. */
export function openAIErrorResponse(error: HttpError): Response {
  return json({ error: openAIError(error) }, error.status, error.headers);
}

function errorType(error: HttpError): string {
  if (error.code === 'session_limit') return 'insufficient_quota';
  if (error.status === 429) return 'requests';
  if (error.status >= 500) return 'server_error';
  return 'invalid_request_error';
}
