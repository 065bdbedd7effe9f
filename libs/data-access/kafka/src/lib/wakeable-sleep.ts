/**
 * The idle wait of a polling loop that work written in this process can cut short: `wake()` ends the
 * current sleep, or makes the next one return at once if the loop is busy, so no kick is lost.
 */
export class WakeableSleep {
  private wakeCurrent?: () => void;
  private pending = false;

  sleep(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakeCurrent = undefined;
        this.pending = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeCurrent = done;
    });
  }

  wake = (): void => {
    this.pending = true;
    this.wakeCurrent?.();
  };
}
