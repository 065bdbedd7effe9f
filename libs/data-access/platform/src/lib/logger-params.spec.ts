import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../../../..');

/**
 * Runs `body` in a child Node.js process that has `loggerParams` (through tsx) and pino, with its stdout a pipe (as
 * a pod's is), and returns what reached that pipe and how the child ended.
 */
function inChild(body: string): { stdout: string; signal: NodeJS.Signals | null } {
  const script = `
    const { pino } = require('pino');
    const { loggerParams } = require('./libs/data-access/platform/src/lib/logger-params.ts');
    ${body}`;
  const { stdout, signal, stderr } = spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  if (signal === null && stderr) throw new Error(stderr);
  return { stdout, signal };
}

describe('loggerParams: the services log to standard output', () => {
  it('writes each line before the logging call returns, so a process killed right after it loses none', () => {
    const { stdout, signal } = inChild(`
      const [options, destination] = loggerParams('svc', 'info').pinoHttp;
      const logger = pino(options, destination);
      for (let i = 1; i <= 3; i++) logger.info({ msg: 'line ' + i });
      process.kill(process.pid, 'SIGKILL');`);

    expect(signal).toBe('SIGKILL');
    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((l) => [l.service, l.msg])).toEqual([['svc', 'line 1'], ['svc', 'line 2'], ['svc', 'line 3']]);
  });

  it('goes to the destination given instead, when one is', () => {
    const { stdout } = inChild(`
      const lines = [];
      const [options, destination] = loggerParams('svc', 'info', { write: (line) => lines.push(line) }).pinoHttp;
      pino(options, destination).info({ msg: 'kept' });
      console.log(JSON.stringify(lines.map((l) => JSON.parse(l).msg)));`);

    expect(JSON.parse(stdout)).toEqual(['kept']);
  });
});
