// A minimal test harness for the TypeScript SDK tests: no dependency, runs in node 20.
declare const process: { exitCode?: number };

type Case = { name: string; fn: () => Promise<void> | void };
const cases: Case[] = [];

export function test(name: string, fn: () => Promise<void> | void): void {
  cases.push({ name, fn });
}

export class AssertionError extends Error {}

export function ok(cond: unknown, what: string): asserts cond {
  if (!cond) throw new AssertionError(what);
}

export function eq<T>(got: T, want: T, what: string): void {
  const g = JSON.stringify(got);
  const w = JSON.stringify(want);
  if (g !== w) throw new AssertionError(`${what}: got ${g}, want ${w}`);
}

/** The rejection of p (fails when p resolves). */
export async function rejects(p: Promise<unknown>, what: string): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new AssertionError(`${what}: resolved, expected a rejection`);
}

export async function run(suite: string): Promise<void> {
  let failed = 0;
  for (const c of cases) {
    try {
      await c.fn();
      console.log(`PASS ${suite}: ${c.name}`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${suite}: ${c.name}: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
    }
  }
  console.log(`${suite}: ${cases.length - failed} passed, ${failed} failed`);
  if (failed) process.exitCode = 1;
}
