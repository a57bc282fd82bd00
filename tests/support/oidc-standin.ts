import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

/** How `mintToken` deviates from a valid token. */
export interface MintOptions {
  /** Seconds from now until `exp`; negative for an expired token. Default 600. */
  expiresIn?: number;
  /** Seconds from now until `nbf`; unset means no `nbf`. */
  notBefore?: number;
  audience?: string;
  issuer?: string;
  /** Sign with a key the stand-in does not publish, under the published `kid` (a bad signature). */
  signWithOtherKey?: boolean;
  /** Override the `kid` header, e.g. one the JWKS does not contain. */
  kid?: string;
}

export interface OidcStandin {
  /** `http://127.0.0.1:<port>`, also the `iss` of minted tokens. */
  issuer: string;
  jwksUrl: string;
  /** The audience minted tokens carry unless told otherwise. */
  audience: string;
  /** Paths requested so far, to see what was fetched (and cached). */
  requests: string[];
  /** A signed RS256 ID token; default claims: sub, email, email_verified true. */
  mintToken(claims?: JWTPayload, options?: MintOptions): Promise<string>;
  close(): Promise<void>;
}

const kid = 'standin-key-1';

/** An OpenID provider on 127.0.0.1: a discovery document, a JWKS and a token mint. */
export async function startOidcStandin(options: { audience?: string } = {}): Promise<OidcStandin> {
  const audience = options.audience ?? 'standin-client';
  const signing = await generateKeyPair('RS256', { extractable: true });
  const other = await generateKeyPair('RS256');
  const publicJwk = { ...(await exportJWK(signing.publicKey)), kid, alg: 'RS256', use: 'sig' };
  const requests: string[] = [];

  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === '/.well-known/openid-configuration') {
      return sendJson(res, 200, {
        issuer,
        jwks_uri: `${issuer}/jwks`,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        response_types_supported: ['id_token'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      });
    }
    if (req.url === '/jwks') return sendJson(res, 200, { keys: [publicJwk] });
    sendJson(res, 404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    audience,
    requests,
    async mintToken(claims = {}, mint = {}) {
      const now = Math.floor(Date.now() / 1000);
      const jwt = new SignJWT({ email: 'user@example.com', email_verified: true, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: mint.kid ?? kid, typ: 'JWT' })
        .setIssuer(mint.issuer ?? issuer)
        .setAudience(mint.audience ?? audience)
        .setSubject(typeof claims.sub === 'string' ? claims.sub : 'user-1')
        .setIssuedAt(now + Math.min(0, mint.expiresIn ?? 0) - 60)
        .setExpirationTime(now + (mint.expiresIn ?? 600));
      if (mint.notBefore !== undefined) jwt.setNotBefore(now + mint.notBefore);
      return jwt.sign(mint.signWithOtherKey ? other.privateKey : signing.privateKey);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
