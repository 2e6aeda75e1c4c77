/**
 * Secrets (passwords, tokens, client secrets) for the CLI without putting them on the
 * command line, where other users see them in `ps`: from a file, an environment variable,
 * or a prompt that does not echo. A value given as an option still works, for scripts.
 */
import { readFile } from 'node:fs/promises';
import { UsageError } from './command.ts';

export interface SecretSources {
  /** What is asked for, e.g. "password". */
  label: string;
  /** --password VALUE */
  value?: string;
  /** --password-file FILE: the first line is the secret. */
  file?: string;
  /** Name of the environment variable, e.g. SKIPTRACE_PASSWORD. */
  envName: string;
  env?: NodeJS.ProcessEnv;
  /** Where the prompt reads from; prompts only on a terminal. */
  stdin?: NodeJS.ReadStream;
  stderr?: NodeJS.WriteStream;
}

export async function readSecretFile(file: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const first = text.split(/\r?\n/)[0] ?? '';
  if (!first) throw new UsageError(`${file} is empty`);
  return first;
}

/** The secret from the first source that has one; undefined when none has and no prompt is possible. */
export async function findSecret(s: SecretSources): Promise<string | undefined> {
  if (s.file !== undefined) return readSecretFile(s.file);
  const fromEnv = (s.env ?? process.env)[s.envName];
  if (fromEnv) return fromEnv;
  if (s.value !== undefined) return s.value;
  const stdin = s.stdin ?? process.stdin;
  if (!stdin.isTTY) return undefined;
  return prompt(`${s.label}: `, stdin, s.stderr ?? process.stderr);
}

export async function requireSecret(s: SecretSources & { option: string }): Promise<string> {
  const secret = await findSecret(s);
  if (secret === undefined || secret === '') {
    throw new UsageError(`${s.label} is required: --${s.option}-file FILE, ${s.envName}, or a terminal to prompt on`);
  }
  return secret;
}

/** Reads one line from the terminal without echoing it. */
function prompt(question: string, stdin: NodeJS.ReadStream, stderr: NodeJS.WriteStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    stderr.write(question);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    const finish = (error?: Error) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write('\n');
      if (error) reject(error);
      else resolve(answer);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return finish();
        if (ch === '\u0003') return finish(new UsageError('cancelled'));
        if (ch === '\u007f' || ch === '\b') answer = answer.slice(0, -1);
        else answer += ch;
      }
    };
    stdin.on('data', onData);
  });
}
