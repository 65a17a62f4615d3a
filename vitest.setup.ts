import { afterAll, beforeAll } from 'vitest';

// vitest.config.ts lets each worker process run many test files one after another (isolate: false), so
// an environment variable a test file sets would change the files after it: DATABASE_URL, say, would
// quietly move the PGlite pass onto the PostgreSQL server. A file that leaves process.env changed fails.
let before: Record<string, string | undefined> = {};

beforeAll(() => {
  before = { ...process.env };
});

afterAll(() => {
  const names = new Set([...Object.keys(before), ...Object.keys(process.env)]);
  const changed = [...names].filter((name) => before[name] !== process.env[name]);
  if (changed.length > 0)
    throw new Error(`this test file left process.env changed (${changed.join(', ')}): pass values to the code under test instead`);
});
