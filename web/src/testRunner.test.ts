// scripts/test.mjs (`npm test`) runs two lanes, one after the other or (`--lanes`) at once: a
// failure in one lane must fail the whole run (non-zero exit, the failed command named) while
// the other lane still runs to its end, and a lane must stop at its first failing command. FTL_TEST_LANES replaces the real suite
// with tiny node commands.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const node = (code: string) => ['node', ['-e', code]];

function runLanes(lanes: Record<string, unknown[]>, args: string[]) {
  const r = spawnSync('node', ['scripts/test.mjs', ...args], {
    cwd: ROOT,
    env: { ...process.env, FTL_TEST_LANES: JSON.stringify(lanes) },
    encoding: 'utf8',
  });
  return { status: r.status, out: r.stdout + r.stderr };
}

describe.each([[[]], [['--lanes']]])('scripts/test.mjs %j', (args: string[]) => {
  it('exits 0 when every command of both lanes passes', () => {
    const r = runLanes(
      {
        rust: [node('console.log("r1")'), node('console.log("r2")')],
        web: [node('console.log("w1")')],
      },
      args,
    );
    expect(r.status).toBe(0);
    expect(r.out).toContain('[rust] r2');
    expect(r.out).toContain('[web] w1');
    expect(r.out).toContain('every check passed');
  });

  it('fails the run when one lane fails, names the command, and lets the other lane finish', () => {
    const r = runLanes(
      {
        rust: [node('process.exit(3)'), node('console.log("after the failure")')],
        web: [node('setTimeout(() => console.log("web slow"), 300)')],
      },
      args,
    );
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/\[rust\] FAILED: node -e process\.exit\(3\) \(exit 3\)/);
    expect(r.out).not.toContain('after the failure');
    expect(r.out).toContain('[web] web slow');
    expect(r.out).toContain('[web] lane done');
  });
});
