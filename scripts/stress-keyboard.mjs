// Runs the keyboard e2e specs 20 times in a row while two busy loops keep both cores
// loaded (issue 14: "every key press counts, however fast"). Needs `npx vite build` first;
// honours PW_PORT like the other e2e runs.
import { spawn } from 'node:child_process';

const hogs = [0, 1].map(() => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
const stop = () => hogs.forEach((h) => h.kill('SIGKILL'));
process.on('exit', stop);
process.on('SIGINT', () => process.exit(130));
const repeat = process.env.STRESS_REPEAT ?? '20';
const pw = spawn(
  'npx',
  ['playwright', 'test', 'e2e/keyboard.spec.ts', `--repeat-each=${repeat}`, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
pw.on('exit', (code) => {
  stop();
  process.exit(code ?? 1);
});
