import cliProgress from 'cli-progress';

/** A progress bar on a terminal; plain periodic lines when output is a file or CI log. */
export function createProgress(label: string, total: number, unit: string) {
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | {detail}`,
        stream: process.stderr,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { detail: '' });
    return {
      update: (value: number, detail = '', newTotal?: number) => {
        if (newTotal !== undefined && newTotal !== total) bar.setTotal((total = newTotal));
        bar.update(value, { detail });
      },
      stop: () => bar.stop(),
    };
  }
  let lastPrinted = 0;
  return {
    update: (value: number, detail = '', newTotal?: number) => {
      if (newTotal !== undefined) total = newTotal;
      const now = Date.now();
      if (now - lastPrinted < 2000 && value < total) return;
      lastPrinted = now;
      process.stderr.write(`${label}: ${value}/${total} ${unit}${detail ? ` (${detail})` : ''}\n`);
    },
    stop: () => {},
  };
}
