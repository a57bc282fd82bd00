import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import {
  pageSecurityHeaders,
  securityHeaders,
  WIDGET_SCRIPT_PATH,
  widgetScriptHeaders,
} from '../http/index.js';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/** Serves a file of `publicDir` for a GET, as Vercel serves public/ at the root; undefined when none. */
export async function serveStatic(publicDir: string, pathname: string): Promise<Response | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  const relativePath = normalize(decoded.endsWith('/') ? `${decoded}index.html` : decoded).replace(
    /^([/\\])+/,
    '',
  );
  const file = join(publicDir, relativePath);
  if (!file.startsWith(publicDir + sep) && file !== publicDir) return undefined;
  try {
    const info = await stat(file);
    if (!info.isFile()) return undefined;
    const body = await readFile(file);
    const extension = extname(file).toLowerCase();
    return new Response(body, {
      headers: {
        'Content-Type': contentTypes[extension] ?? 'application/octet-stream',
        'Cache-Control': 'no-cache',
        ...securityHeaders,
        ...(extension === '.html' ? pageSecurityHeaders : {}),
        ...(`/${relativePath}` === WIDGET_SCRIPT_PATH ? widgetScriptHeaders : {}),
      },
    });
  } catch {
    return undefined;
  }
}
