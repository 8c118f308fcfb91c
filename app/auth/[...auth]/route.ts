// Auth.js routes: provider callbacks (/auth/callback/github, /auth/callback/oidc), session, csrf.
import { handleAuth } from '@/lib/auth/authjs';
import { route } from '@/lib/http/methods';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: handleAuth, POST: handleAuth }, { pattern: '/auth/[...auth]' });
