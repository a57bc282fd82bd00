import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Endpoint } from '../http/index.js';

/**
 * Vercel's file routing: api/<path>.ts answers /api/<path> (api/api/chat.ts -> /api/api/chat).
 * Returns the URL path of every function file under `apiDir`.
 */
export function discoverRoutes(apiDir: string): Map<string, string> {
  const routes = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const file = join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (/\.(ts|js|mjs)$/.test(name) && !name.endsWith('.d.ts') && !name.startsWith('_')) {
        const route = relative(apiDir, file)
          .split(sep)
          .join('/')
          .replace(/\.(ts|js|mjs)$/, '');
        routes.set(`/api/${route.replace(/\/index$|^index$/, '')}`.replace(/\/$/, ''), file);
      }
    }
  };
  walk(apiDir);
  return routes;
}

/** Imports every function module and returns its Web handler (`export default { fetch }`). */
export async function loadRoutes(apiDir: string): Promise<Map<string, Endpoint>> {
  const loaded = new Map<string, Endpoint>();
  for (const [route, file] of discoverRoutes(apiDir)) {
    const module = (await import(pathToFileURL(file).href)) as { default?: Endpoint };
    if (typeof module.default?.fetch !== 'function')
      throw new Error(`${file} has no default export with fetch()`);
    loaded.set(route, module.default);
  }
  return loaded;
}
