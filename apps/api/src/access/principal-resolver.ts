import { DiscoveryService } from '@nestjs/core';
import type { Request } from 'express';
import type { Principal } from './principal.js';

/**
 * Recognises one kind of credential on a request. Answers undefined when the request does not carry
 * that kind; throws ProblemError 401 UNAUTHENTICATED when it carries one that is wrong.
 */
export interface PrincipalResolver {
  resolve(request: Request): Promise<Principal | undefined>;
}

/**
 * Marks a provider as a PrincipalResolver: the access guard asks every marked provider of every module,
 * lowest `order` first, and takes the first principal answered. Usage:
 * `@PrincipalResolverProvider({ order: 20 }) @Injectable() class SessionResolver implements PrincipalResolver`.
 */
export const PrincipalResolverProvider = DiscoveryService.createDecorator<{ order: number }>();
