import { describe, it, expect } from '@jest/globals';
import { PLACEHOLDER } from '#domain';
describe('server jest', () => { it('imports', () => { expect(PLACEHOLDER).toBe(1); }); });
