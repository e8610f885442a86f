import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { complianceMarkdown } from '../../src/compliance';

describe('docs/compliance.md', () => {
  it('is what libs/analysis/src/compliance generates (npx nx run analysis:compliance-docs rewrites it)', () => {
    const docs = readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', 'compliance.md'), 'utf8');
    expect(docs).toBe(complianceMarkdown());
  });
});
