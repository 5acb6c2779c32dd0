// Passwords typed without echo or read from standard input: never in shell history or `ps`.
import type { ReadStream } from 'node:tty';
import { ProblemError } from '#api';

/** Ctrl-C: the shell's convention for a command ended by SIGINT. */
export class PromptInterrupted extends Error {
  readonly exitCode = 130;
  constructor() {
    super('interrupted');
    this.name = 'PromptInterrupted';
  }
}

const ENTER = new Set(['\r', '\n']);
const ERASE = new Set(['\u007f', '\b']);
const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const CTRL_U = '\u0015';

/**
 * Raw mode, so the line discipline echoes nothing; escape sequences (arrow keys) are ignored, not taken as the secret.
 */
export function promptHidden(prompt: string, input: ReadStream, output: NodeJS.WritableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let typed: string[] = [];
    const finish = (outcome: () => void): void => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      output.write('\n');
      outcome();
    };
    const onData = (chunk: Buffer | string): void => {
      const text = chunk.toString();
      if (text.startsWith('\u001b')) return;
      for (const character of text) {
        if (ENTER.has(character) || character === CTRL_D) return finish(() => resolve(typed.join('')));
        if (character === CTRL_C) return finish(() => reject(new PromptInterrupted()));
        if (ERASE.has(character)) typed = typed.slice(0, -1);
        else if (character === CTRL_U) typed = [];
        else if (character >= ' ') typed.push(character);
      }
    };
    // Raw before the prompt shows: a key typed as soon as it appears must not be echoed.
    input.setRawMode(true);
    output.write(prompt);
    input.setEncoding('utf8');
    input.on('data', onData);
    input.resume();
  });
}

export async function firstLine(input: NodeJS.ReadableStream): Promise<string | undefined> {
  let text = '';
  for await (const chunk of input) {
    text += chunk.toString();
    if (text.includes('\n')) break;
  }
  if (text === '') return undefined;
  return text.split('\n')[0]?.replace(/\r$/, '');
}

const refused = (detail: string): ProblemError =>
  new ProblemError(400, 'VALIDATION_FAILED', 'The request is not valid', detail);

export async function readNewPassword(
  label: string,
  input: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WritableStream = process.stderr,
): Promise<string> {
  if (input.isTTY) {
    const terminal = input as ReadStream;
    const password = await promptHidden(`Password for ${label}: `, terminal, output);
    if (password === '') throw refused('--password: no password was typed');
    if ((await promptHidden('The same password again: ', terminal, output)) !== password)
      throw refused('--password: the two passwords typed differ');
    return password;
  }
  const password = await firstLine(input);
  if (password === undefined || password === '') {
    throw refused(
      '--password: no password on standard input (give it on its first line, type it at the prompt on a terminal, or use --password)',
    );
  }
  return password;
}
