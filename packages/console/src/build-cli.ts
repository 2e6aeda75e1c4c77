// `pnpm --filter @skiptrace/console build`: builds the console now unless the build is current
// (the Docker image runs this, because its sources are read-only at run time).
import { ensureConsoleBuilt } from './build.ts';

const result = await ensureConsoleBuilt({ log: (msg) => console.log(msg) });
console.log(
  result.built ? `console built into ${result.dir} in ${result.ms} ms` : `console build is current (${result.dir})`,
);
