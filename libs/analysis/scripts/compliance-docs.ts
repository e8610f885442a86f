import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { complianceMarkdown } from '../src/compliance/docs';

/** Writes docs/compliance.md (the compliance docs test fails while it differs from complianceMarkdown()). */
writeFileSync(join(__dirname, '..', '..', '..', 'docs', 'compliance.md'), complianceMarkdown());
