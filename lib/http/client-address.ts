/**
 * The caller's address: x-real-ip (set by Vercel and by the local server), else the first
 * x-forwarded-for entry, else "unknown".
 */
export function clientAddress(request: Request): string {
  const real = request.headers.get('x-real-ip')?.trim();
  if (real) return real;
  const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  if (forwarded) return forwarded;
  return 'unknown';
}
