import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Request } from 'express';
import type { Principal } from './principal.js';
import { PrincipalResolverProvider, type PrincipalResolver } from './principal-resolver.js';

const isResolver = (instance: unknown): instance is PrincipalResolver =>
  typeof instance === 'object' &&
  instance !== null &&
  typeof (instance as Partial<PrincipalResolver>).resolve === 'function';

/** Every provider marked @PrincipalResolverProvider, in any module, asked in order. */
@Injectable()
export class PrincipalResolvers implements OnModuleInit {
  private resolvers: PrincipalResolver[] = [];

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    this.resolvers = this.discovery
      .getProviders({ metadataKey: PrincipalResolverProvider.KEY })
      .map((wrapper) => ({
        order: this.discovery.getMetadataByDecorator(PrincipalResolverProvider, wrapper)?.order ?? 0,
        instance: wrapper.instance as unknown,
      }))
      .filter((entry): entry is { order: number; instance: PrincipalResolver } => isResolver(entry.instance))
      .sort((a, b) => a.order - b.order)
      .map((entry) => entry.instance);
  }

  /** The first principal a resolver recognises; a resolver may also refuse the request (401). */
  async resolve(request: Request): Promise<Principal | undefined> {
    for (const resolver of this.resolvers) {
      const principal = await resolver.resolve(request);
      if (principal !== undefined) return principal;
    }
    return undefined;
  }
}
