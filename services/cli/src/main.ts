#!/usr/bin/env node
// The `skiptrace` executable (package.json "bin"; `./run skiptrace …` in the repo).
import { runCli } from './cli.ts';
import { commands } from './commands/index.ts';

process.exitCode = await runCli(process.argv.slice(2), commands, {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
