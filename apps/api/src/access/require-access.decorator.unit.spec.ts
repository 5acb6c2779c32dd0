import { describe, expect, it } from '@jest/globals';
import { GUARDS_METADATA } from '@nestjs/common/constants.js';
import { AccessGuard } from './access.guard.js';
import { AccessRuleMetadata } from './access-rule.js';
import { OWNERS_AND_ADMINS, RequireAccess } from './require-access.decorator.js';

class Routes {
  @RequireAccess({ scope: 'organizations:write', members: OWNERS_AND_ADMINS })
  guarded(): void {}

  open(): void {}
}

@RequireAccess({ scope: 'audit:read' })
class GuardedRoutes {
  any(): void {}
}

describe('@RequireAccess', () => {
  it('records the rule and puts AccessGuard on the route it marks, and nothing on the others', () => {
    expect(Reflect.getMetadata(AccessRuleMetadata.KEY, Routes.prototype.guarded)).toEqual({
      scope: 'organizations:write',
      members: OWNERS_AND_ADMINS,
    });
    expect(Reflect.getMetadata(GUARDS_METADATA, Routes.prototype.guarded)).toEqual([AccessGuard]);
    expect(Reflect.getMetadata(AccessRuleMetadata.KEY, Routes.prototype.open)).toBeUndefined();
    expect(Reflect.getMetadata(GUARDS_METADATA, Routes.prototype.open)).toBeUndefined();
    expect(RequireAccess.KEY).toBe(AccessRuleMetadata.KEY);
  });

  it('on a controller class, guards all of its routes', () => {
    expect(Reflect.getMetadata(AccessRuleMetadata.KEY, GuardedRoutes)).toEqual({ scope: 'audit:read' });
    expect(Reflect.getMetadata(GUARDS_METADATA, GuardedRoutes)).toEqual([AccessGuard]);
  });
});
