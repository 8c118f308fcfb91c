// Auth.js routes: provider callbacks (/auth/callback/github, /auth/callback/oidc), session, csrf.
import { handleAuth } from '@/lib/auth/authjs';

export const dynamic = 'force-dynamic';
export const GET = handleAuth;
export const POST = handleAuth;
