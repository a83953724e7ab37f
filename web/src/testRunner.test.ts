// scripts/test.mjs (`npm test`) runs pre (bootstrap, wasm build) and two lanes: by default
// overlapped (the rust lane's first step beside pre, Playwright after the rust lane), or
// (`--serial`) one after the other, or (`--lanes`) at once after pre. A failure in one lane must
// fail the whole run (non-zero exit, the failed command named) while the other lane still runs to
// its end, and a lane must stop at its first failing command. FTL_TEST_LANES replaces the real
// suite with tiny node commands.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

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

/** The order of the printed marks (`[lane] mark`), by where each first appears. */
const order = (out: string, marks: string[]) =>
  marks
    .map((m) => [m, out.indexOf(m)] as const)
    .sort((a, b) => a[1] - b[1])
    .map(([m]) => m);

describe.each([[[]], [['--lanes']], [['--serial']]])('scripts/test.mjs %j', (args: string[]) => {
  it('exits 0 when every command of both lanes passes', () => {
    const r = runLanes(
      {
        pre: [node('console.log("p1")')],
        rust: [node('console.log("r1")'), 'after pre', node('console.log("r2")')],
        web: ['after pre', node('console.log("w1")'), 'after rust', node('console.log("w2")')],
      },
      args,
    );
    expect(r.status).toBe(0);
    for (const m of ['[pre] p1', '[rust] r2', '[web] w1', '[web] w2']) expect(r.out).toContain(m);
    expect(r.out).toContain('every check passed');
    // Every mode waits for pre where a lane says so.
    expect(r.out.indexOf('[pre] p1')).toBeLessThan(r.out.indexOf('[rust] r2'));
    expect(r.out.indexOf('[pre] p1')).toBeLessThan(r.out.indexOf('[web] w1'));
  });

  it('fails the run when one lane fails, names the command, and lets the other lane finish', () => {
    const r = runLanes(
      {
        rust: [node('process.exit(3)'), node('console.log("after the failure")')],
        web: [node('setTimeout(() => console.log("web slow"), 300)'), 'after rust', node('console.log("w2")')],
      },
      args,
    );
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/\[rust\] FAILED: node -e process\.exit\(3\) \(exit 3\)/);
    expect(r.out).not.toContain('after the failure');
    expect(r.out).toContain('[web] web slow');
    expect(r.out).toContain('[web] w2');
    expect(r.out).toContain('[web] lane done');
  });

  it('a failed pre fails the run and stops only the steps after "after pre"', () => {
    const r = runLanes(
      {
        pre: [node('process.exit(4)'), node('console.log("pre after the failure")')],
        rust: [node('console.log("r1")'), 'after pre', node('console.log("r2")')],
        web: ['after pre', node('console.log("w1")')],
      },
      args,
    );
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/\[pre\] FAILED: node -e process\.exit\(4\) \(exit 4\)/);
    expect(r.out).toContain('[rust] r1');
    for (const m of ['pre after the failure', '[rust] r2', '[web] w1']) expect(r.out).not.toContain(m);
    expect(r.out).toMatch(/\[web\] FAILED: the pre-steps failed/);
  });
});

describe('scripts/test.mjs orders', () => {
  // Steps meet through files in a fresh directory: `touch` makes one, `await` waits for it (and
  // fails after a minute, a hang detector only), so a run passes only if the two steps overlap.
  const dir = mkdtempSync(join(tmpdir(), 'ftl-test-mjs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const touch = (name: string) => node(`require('fs').writeFileSync(${JSON.stringify(join(dir, name))}, '')`);
  const awaitFile = (name: string) =>
    node(
      `const f = ${JSON.stringify(join(dir, name))}, t = Date.now();` +
        `(function poll() { if (require('fs').existsSync(f)) console.log('saw ${name}');` +
        ` else if (Date.now() - t > 60000) process.exit(9); else setTimeout(poll, 20); })();`,
    );
  const log = (m: string) => node(`console.log(${JSON.stringify(m)})`);

  it('by default: the rust lane starts beside pre, the web lane after pre, its last step after the rust lane', () => {
    // The rust lane ends only after the web lane's first step: without the wait, the web lane's
    // last step would start first.
    const r = runLanes(
      {
        pre: [awaitFile('rust-started'), log('pre end')],
        rust: [touch('rust-started'), 'after pre', awaitFile('web-first'), log('rust end')],
        web: ['after pre', touch('web-first'), 'after rust', log('web last')],
      },
      [],
    );
    expect(r.status).toBe(0);
    expect(r.out).toContain('[pre] saw rust-started');
    expect(order(r.out, ['[pre] lane done', '[web] $'])).toEqual(['[pre] lane done', '[web] $']);
    expect(order(r.out, ['[rust] lane done', 'web last'])).toEqual(['[rust] lane done', 'web last']);
  });

  it('--serial: pre, the rust lane, then the web lane', () => {
    const marks = ['pre end', 'rust first', 'rust end', 'web first', 'web last'];
    const r = runLanes(
      {
        pre: [log('pre end')],
        rust: [log('rust first'), 'after pre', log('rust end')],
        web: ['after pre', log('web first'), 'after rust', log('web last')],
      },
      ['--serial'],
    );
    expect(r.status).toBe(0);
    expect(order(r.out, marks)).toEqual(marks);
  });

  it('--lanes: the web lane does not wait for the rust lane', () => {
    const r = runLanes(
      { rust: ['after pre', awaitFile('web-done')], web: ['after pre', 'after rust', touch('web-done')] },
      ['--lanes'],
    );
    expect(r.status).toBe(0);
    expect(r.out).toContain('[rust] saw web-done');
  });
});
