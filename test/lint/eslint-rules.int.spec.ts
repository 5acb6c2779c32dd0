// The repository's own ESLint configuration, attacked with the imports and shapes it must refuse: every folder of
// web/src/features is fenced from the others and from app/, and the shape rules hold.
import { describe, expect, it } from '@jest/globals';
import { ESLint } from 'eslint';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });
const features = readdirSync(join(root, 'web/src/features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** The rules that refuse a probe file's text, as if it were at `path`. */
async function refusals(path: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: join(root, path) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

describe('the SPA fences', () => {
  it.each(features)('the %s feature imports no other feature and nothing from app/', async (feature) => {
    const probe = `web/src/features/${feature}/components/probe.tsx`;
    for (const other of features.filter((name) => name !== feature)) {
      expect(await refusals(probe, `import '../../${other}/index';\n`)).toEqual(['no-restricted-imports']);
    }
    expect(
      await refusals(
        probe,
        "import { useAppDispatch } from '../../../app/hooks';\nexport const use = useAppDispatch;\n",
      ),
    ).toEqual(['no-restricted-imports']);
    expect(
      await refusals(
        probe,
        "import { useAppDispatch } from '../../../lib/store-hooks';\nexport const use = useAppDispatch;\n",
      ),
    ).toEqual([]);
  });

  it('the data layer and shared code below the features import nothing from app/', async () => {
    expect(
      await refusals(
        'web/src/api/probe.ts',
        "import { rootReducer } from '../app/store';\nexport const reducer = rootReducer;\n",
      ),
    ).toEqual(['no-restricted-imports']);
    expect(await refusals('web/src/components/console/probe.tsx', "import '../../app/hooks';\n")).toEqual([
      'no-restricted-imports',
    ]);
  });

  it('a feature spec may render the whole app', async () => {
    expect(
      await refusals(`web/src/features/${features[0]}/probe.int.spec.tsx`, "import '../../app/router';\n"),
    ).toEqual([]);
  });
});

describe('the shape rules', () => {
  const longComment = `// ${'why '.repeat(40)}\nexport const a = 1;\n`;
  const lines = (count: number) => 'export const a = 1;\n'.repeat(count);

  it('refuses a comment over 120 characters, where Prettier leaves it as written', async () => {
    expect(await refusals('libs/config/src/probe.ts', longComment)).toEqual(['max-len']);
    expect(await refusals('libs/config/src/probe.unit.spec.ts', longComment)).toEqual(['max-len']);
  });

  it('refuses a production file of over 500 lines of code, blank and comment lines aside; tests are exempt', async () => {
    expect(await refusals('libs/config/src/probe.ts', lines(501))).toEqual(['max-lines']);
    expect(await refusals('libs/config/src/probe.ts', `${'// why\n\n'.repeat(100)}${lines(500)}`)).toEqual([]);
    expect(await refusals('libs/config/src/probe.unit.spec.ts', lines(501))).toEqual([]);
  });
});

describe('the plumbing rules', () => {
  it("refuses a feature's refusal code named in plumbing, as a string or as a key, and not in the feature", async () => {
    expect(await refusals('apps/api/src/http/probe.ts', "export const code = 'LAST_OWNER';\n")).toEqual([
      'no-restricted-syntax',
    ]);
    expect(
      await refusals('apps/api/src/http/probe.ts', 'export const answers = { SSO_DOMAIN_TAKEN: { status: 409 } };\n'),
    ).toEqual(['no-restricted-syntax']);
    expect(await refusals('apps/api/src/http/probe.ts', "export const code = 'NOT_FOUND';\n")).toEqual([]);
    expect(await refusals('apps/api/src/organizations/probe.ts', "export const code = 'LAST_OWNER';\n")).toEqual([]);
  });
});
