// Every route of the Nest controllers, read from the metadata Nest itself routes by.
import { RequestMethod, type Type } from '@nestjs/common';
import {
  GUARDS_METADATA,
  HTTP_CODE_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants.js';
import type { ModulesContainer } from '@nestjs/core';
import type { z } from 'zod';
import { RequireAccess, type AccessRule } from '../access/require-access.decorator.js';
import { CheckedArgument } from '../http/checked-arguments.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { CREDENTIALS, OPERATION_TEXT, type Credential, type OperationText } from '../http/operation.decorator.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export type ControllerRoute = {
  method: HttpMethod;
  path: string;
  handler: string;
  controller: Type;
  body?: z.ZodType;
  query?: z.ZodType;
  parameters: { name: string; schema?: z.ZodType }[];
  status: number;
  access?: AccessRule;
  /** What a route without `access` checks itself (`@Credentials`). */
  credentials?: readonly Credential[];
  /** The guards Nest runs before it (`@UseGuards`), the controller's first: one may be what authenticates. */
  guards: readonly unknown[];
  /** undefined for a route nobody described. */
  text?: OperationText;
};

const httpMethods: Partial<Record<RequestMethod, HttpMethod>> = {
  [RequestMethod.GET]: 'get',
  [RequestMethod.POST]: 'post',
  [RequestMethod.PUT]: 'put',
  [RequestMethod.PATCH]: 'patch',
  [RequestMethod.DELETE]: 'delete',
};

// Nest's RouteParamtypes (@nestjs/common/enums/route-paramtypes.enum).
const BODY = 3;
const QUERY = 4;
const PARAM = 5;

type RouteArgument = { index: number; data?: unknown; pipes?: unknown[] };

function paths(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return [typeof value === 'string' ? value : ''];
}

function joinPath(...segments: string[]): string {
  const joined = segments
    .flatMap((segment) => segment.split('/'))
    .filter((segment) => segment !== '')
    .join('/');
  return `/${joined}`;
}

function schemaOf(argument: RouteArgument): z.ZodType | undefined {
  return argument.pipes?.find((pipe): pipe is ZodValidationPipe<z.ZodType> => pipe instanceof ZodValidationPipe)
    ?.schema;
}

function asNestArgument(checked: CheckedArgument, index: number): [string, RouteArgument] {
  return [`${checked.type === 'param' ? PARAM : QUERY}:${index}`, { index, data: checked.name, pipes: [checked.pipe] }];
}

function controllersOf(modules: ModulesContainer): Type[] {
  const controllers = new Set<Type>();
  for (const module of modules.values()) {
    for (const wrapper of module.controllers.values())
      if (wrapper.metatype !== null) controllers.add(wrapper.metatype as Type);
  }
  return [...controllers];
}

export function controllerRoutes(modules: ModulesContainer): ControllerRoute[] {
  const routes: ControllerRoute[] = [];
  for (const controller of controllersOf(modules)) {
    const prototype = controller.prototype as Record<string, unknown>;
    const controllerAccess = Reflect.getMetadata(RequireAccess.KEY, controller) as AccessRule | undefined;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const requestMethod = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      const methodPaths = Reflect.getMetadata(PATH_METADATA, handler) as unknown;
      if (requestMethod === undefined || methodPaths === undefined) continue;
      const method = httpMethods[requestMethod];
      if (method === undefined)
        throw new Error(
          `${controller.name}.${name}: method ${RequestMethod[requestMethod]} is not described by the OpenAPI generator`,
        );
      // Keyed `${paramtype}:${index}` by Nest's parameter decorators.
      const args = Object.entries(
        (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, RouteArgument>,
      ).map(([key, argument]): [string, RouteArgument] =>
        argument.data instanceof CheckedArgument ? asNestArgument(argument.data, argument.index) : [key, argument],
      );
      const argumentsOf = (type: number) =>
        args.filter(([key]) => key.startsWith(`${type}:`)).map(([, argument]) => argument);
      const body = argumentsOf(BODY)
        .map(schemaOf)
        .find((schema) => schema !== undefined);
      const query = argumentsOf(QUERY)
        .filter((argument) => argument.data === undefined)
        .map(schemaOf)
        .find((schema) => schema !== undefined);
      const parameterSchemas = new Map(
        argumentsOf(PARAM).map((argument) => [String(argument.data), schemaOf(argument)]),
      );
      const status =
        (Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ?? (method === 'post' ? 201 : 200);
      const access = (Reflect.getMetadata(RequireAccess.KEY, handler) as AccessRule | undefined) ?? controllerAccess;
      const credentials =
        (Reflect.getMetadata(CREDENTIALS, handler) as Credential[] | undefined) ??
        (Reflect.getMetadata(CREDENTIALS, controller) as Credential[] | undefined);
      const guards = [
        ...((Reflect.getMetadata(GUARDS_METADATA, controller) as unknown[] | undefined) ?? []),
        ...((Reflect.getMetadata(GUARDS_METADATA, handler) as unknown[] | undefined) ?? []),
      ];
      const text = Reflect.getMetadata(OPERATION_TEXT, handler) as OperationText | undefined;
      for (const controllerPath of paths(Reflect.getMetadata(PATH_METADATA, controller))) {
        for (const methodPath of paths(methodPaths)) {
          const path = joinPath(controllerPath, methodPath);
          const parameters = [...path.matchAll(/:(\w+)/g)].map(([, parameter = '']) => ({
            name: parameter,
            schema: parameterSchemas.get(parameter),
          }));
          routes.push({
            method,
            path,
            handler: `${controller.name}.${name}`,
            controller,
            body,
            query,
            parameters,
            status,
            access,
            credentials,
            guards,
            text,
          });
        }
      }
    }
  }
  return routes;
}
