import type { ChildProcess } from 'node:child_process';

/** Collects a child's stdout and stderr and waits until they contain `ready`. */
export function waitForOutput(
  child: ChildProcess,
  ready: string,
  { name, timeoutMs }: { name: string; timeoutMs: number },
): { output: () => string; started: Promise<void> } {
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk;
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const started = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => finish(new Error(`${name} did not start in ${timeoutMs / 1000} s:\n${output}`)),
      timeoutMs,
    );
    const check = setInterval(() => {
      if (output.includes(ready)) finish();
    }, 20);
    // 'close' comes after the last output: a child that printed `ready` and exited at once
    // (within one poll) has started, not failed.
    const onClose = (code: number | null) =>
      output.includes(ready) ? finish() : finish(new Error(`${name} exited with code ${code}:\n${output}`));
    child.once('close', onClose);
    function finish(error?: Error) {
      clearInterval(check);
      clearTimeout(timer);
      child.off('close', onClose);
      if (error) reject(error);
      else resolve();
    }
  });
  return { output: () => output, started };
}
