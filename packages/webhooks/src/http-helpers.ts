import type { Request } from 'express';
import { ApiError, type AuthContext } from '@skiptrace/runtime';

export function auth(req: Request): AuthContext {
  if (!req.auth) throw new ApiError('unauthorized', 'a bearer access token is required');
  return req.auth;
}
