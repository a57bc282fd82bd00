import sharp from 'sharp';

/** One request of the plan, sent both to a built function and to `npm start`. */
export interface PlannedCall {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Uint8Array<ArrayBuffer>;
  /** The status the service must answer with its embedded store. */
  status: number;
  /** The error code it must carry, when it is an error. */
  code?: string;
  /** Text the body must contain (the words read in an image: recognition works in the function). */
  bodyIncludes?: string;
}

/** The calls of one function, run in one fresh process (one cold start) in this order. */
export interface FunctionPlan {
  route: string;
  calls: PlannedCall[];
}

const jsonHeaders = { 'Content-Type': 'application/json' };
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

const trainingText =
  'The lighthouse keeper climbed the stairs every evening. He lit the great lamp and watched the ships. ' +
  'The ships passed the rocks safely because the lamp was bright. The keeper wrote the names of the ships in a book.';

function post(path: string, body: unknown, status: number, code?: string): PlannedCall {
  return {
    method: 'POST',
    path,
    headers: jsonHeaders,
    body: encode(body),
    status,
    ...(code ? { code } : {}),
  };
}

function call(method: string, path: string, status: number, code?: string): PlannedCall {
  return { method, path, headers: {}, status, ...(code ? { code } : {}) };
}

/** A small real PNG (a 16x16 two-colour image) as a multipart/form-data body. */
async function pngUpload(): Promise<{ body: Uint8Array<ArrayBuffer>; contentType: string }> {
  const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#3366cc' } })
    .composite([
      {
        input: await sharp({ create: { width: 8, height: 8, channels: 3, background: '#ffcc00' } })
          .png()
          .toBuffer(),
        top: 0,
        left: 0,
      },
    ])
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'square.png');
  const encoded = new Response(form);
  return {
    body: new Uint8Array(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type') ?? '',
  };
}

/** The words of the image the upload and chat calls send: the function must read them back. */
const SIGN_TEXT = 'Lighthouse tours start at noon';

/** A PNG of one line of text, rendered with a font on the machine. */
async function signPng(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="90"><rect width="100%" height="100%" fill="#fff"/><text x="24" y="58" font-family="Liberation Sans, DejaVu Sans, sans-serif" font-size="32" fill="#111">${SIGN_TEXT}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function formBody(png: Buffer): Promise<{ body: Uint8Array<ArrayBuffer>; contentType: string }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'sign.png');
  const encoded = new Response(form);
  return {
    body: new Uint8Array(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type') ?? '',
  };
}

/**
 * What every function is asked, in the order a first visitor would: health, training, chat in
 * each mode, Variant B, an upload, and the errors (405, 400, 415, 403) and preflights around them.
 */
export async function requestPlan(): Promise<FunctionPlan[]> {
  const upload = await pngUpload();
  const sign = await signPng();
  const signUpload = await formBody(sign);
  return [
    {
      route: '/api/health',
      calls: [
        call('GET', '/api/health', 200),
        call('HEAD', '/api/health', 200),
        call('OPTIONS', '/api/health', 204),
      ],
    },
    {
      route: '/api/train',
      calls: [
        post('/api/train', { text: trainingText }, 200),
        {
          method: 'POST',
          path: '/api/train',
          headers: jsonHeaders,
          body: new TextEncoder().encode('{"text": '),
          status: 400,
          code: 'invalid_json',
        },
        call('GET', '/api/train', 405, 'method_not_allowed'),
      ],
    },
    {
      route: '/api/chat',
      calls: [
        post('/api/chat', { message: 'What did the keeper light?', modelMode: 'instant' }, 200),
        post('/api/chat', { message: 'Why were the ships safe?', modelMode: 'expert' }, 200),
        post('/api/chat', { message: 'Tell me about the lighthouse.', modelMode: 'apex' }, 200),
        {
          ...post(
            '/api/chat',
            {
              message: 'What does this image say?',
              imageBase64: sign.toString('base64'),
              modelMode: 'instant',
            },
            200,
          ),
          bodyIncludes: SIGN_TEXT,
        },
        post('/api/chat', { modelMode: 'instant' }, 400, 'validation_failed'),
        call('GET', '/api/chat', 405, 'method_not_allowed'),
        call('OPTIONS', '/api/chat', 204),
      ],
    },
    {
      route: '/api/api/chat',
      calls: [
        post('/api/api/chat', { message: 'Who wrote in the book?', mode: 'standard' }, 200),
        post(
          '/api/api/chat',
          {
            message: 'And what did he watch?',
            mode: 'think',
            history: [
              { role: 'user', content: 'Who wrote in the book?' },
              { role: 'assistant', content: 'The keeper wrote the names of the ships.' },
            ],
          },
          200,
        ),
        post('/api/api/chat', { message: 'hello', mode: 'shout' }, 400, 'validation_failed'),
      ],
    },
    { route: '/api/api/health', calls: [call('GET', '/api/api/health', 200)] },
    {
      route: '/api/ui/chat',
      calls: [
        post(
          '/api/ui/chat',
          {
            id: 'verify-ui',
            messages: [
              { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'What did the keeper light?' }] },
            ],
            trigger: 'submit-message',
          },
          200,
        ),
        post('/api/ui/chat', { message: 'not a UI chat body' }, 400, 'validation_failed'),
        call('OPTIONS', '/api/ui/chat', 204),
      ],
    },
    {
      route: '/api/upload',
      calls: [
        {
          method: 'POST',
          path: '/api/upload',
          headers: { 'Content-Type': upload.contentType },
          body: upload.body,
          status: 200,
        },
        {
          method: 'POST',
          path: '/api/upload',
          headers: { 'Content-Type': signUpload.contentType },
          body: signUpload.body,
          status: 200,
          bodyIncludes: SIGN_TEXT,
        },
        post('/api/upload', { image: 'not multipart' }, 415, 'unsupported_media_type'),
      ],
    },
    { route: '/api/openapi.json', calls: [call('GET', '/api/openapi.json', 200)] },
    { route: '/api/v1/models', calls: [call('GET', '/api/v1/models', 200)] },
    {
      route: '/api/v1/chat/completions',
      calls: [
        post(
          '/api/v1/chat/completions',
          { model: 'local-instant', messages: [{ role: 'user', content: 'What did the keeper light?' }] },
          200,
        ),
        post(
          '/api/v1/chat/completions',
          { model: 'gpt-none', messages: [{ role: 'user', content: 'hi' }] },
          404,
          'model_not_found',
        ),
      ],
    },
    { route: '/api/admin/stats', calls: [call('GET', '/api/admin/stats', 403, 'admin_disabled')] },
    { route: '/api/admin/export', calls: [call('GET', '/api/admin/export', 403, 'admin_disabled')] },
    {
      route: '/api/admin/reset-model',
      calls: [call('POST', '/api/admin/reset-model', 403, 'admin_disabled')],
    },
    {
      route: '/api/admin/previews',
      calls: [call('GET', '/api/admin/previews', 403, 'admin_disabled')],
    },
    {
      route: '/api/admin/session',
      calls: [call('DELETE', '/api/admin/session?id=abc', 403, 'admin_disabled')],
    },
    {
      route: '/api/admin/documents',
      calls: [
        call('GET', '/api/admin/documents', 403, 'admin_disabled'),
        call('DELETE', '/api/admin/documents?id=guide.md', 403, 'admin_disabled'),
      ],
    },
    {
      route: '/api/admin/questions',
      calls: [call('GET', '/api/admin/questions?kind=unanswered', 403, 'admin_disabled')],
    },
    { route: '/api/suggestions', calls: [call('GET', '/api/suggestions', 200)] },
    {
      route: '/api/feedback',
      calls: [
        post(
          '/api/feedback',
          { replyId: 'reply-00000000000000000000000000000000', rating: 'sideways' },
          400,
          'validation_failed',
        ),
        post(
          '/api/feedback',
          { replyId: 'reply-00000000000000000000000000000000', rating: 'up' },
          404,
          'reply_not_found',
        ),
      ],
    },
  ];
}
