// The development outbox renders and writes in a worker thread, off the main thread; a send resolves once
// its files are written, so whoever records a mail as sent does it after.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export type OutboxMessage = { from: string; to: string; subject: string; text: string };

export type OutboxFiles = { file: string; textFile: string };

// CommonJS, evaluated: it runs the same from the TypeScript sources and from dist. Nodemailer's own composer
// without its stream pipeline, giving the same .eml as its stream transport.
const workerSource = `
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { parentPort, workerData } = require('node:worker_threads');
const MailComposer = require(workerData.modules.mailComposer);
const qp = require(workerData.modules.qp);
const base64 = require(workerData.modules.base64);
const render = (message) => {
  const node = new MailComposer(message).compile();
  const encoding = node.getTransferEncoding();
  const body = encoding === 'quoted-printable' ? qp.wrap(qp.encode(message.text), 76) : encoding === 'base64' ? base64.wrap(base64.encode(message.text), 76) : message.text;
  // As its stream transport's newline 'unix' leaves it: every CR dropped, and one line break at the end.
  const eml = (node.buildHeaders() + '\\r\\n\\r\\n' + body).replace(/\\r/g, '');
  return { messageId: node.messageId(), eml: eml.endsWith('\\n') ? eml : eml + '\\n' };
};
const readableCopy = (message) => 'To: ' + message.to + '\\nSubject: ' + message.subject + '\\n\\n' + message.text + '\\n';
parentPort.on('message', ({ id, message }) => {
  try {
    const { messageId, eml } = render(message);
    mkdirSync(workerData.outbox, { recursive: true, mode: 0o700 });
    const name = new Date().toISOString().replace(/[:.]/g, '-') + '-' + messageId.replace(/[^A-Za-z0-9]/g, '').slice(0, 12);
    const file = join(workerData.outbox, name + '.eml');
    const textFile = join(workerData.outbox, name + '.txt');
    writeFileSync(file, eml, { mode: 0o600 });
    writeFileSync(textFile, readableCopy(message), { mode: 0o600 });
    parentPort.postMessage({ id, file, textFile });
  } catch (failure) {
    parentPort.postMessage({ id, error: String((failure && failure.message) || failure) });
  }
});
`;

type Reply = { id: number; file: string; textFile: string } | { id: number; error: string };

type Pending = { resolve: (files: OutboxFiles) => void; reject: (error: Error) => void };

/** The worker keeps the process alive only while a message is being written; one that dies is started afresh. */
export class OutboxWriter {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(private readonly outbox: string) {}

  write(message: OutboxMessage): Promise<OutboxFiles> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<OutboxFiles>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) worker.ref();
      worker.postMessage({ id, message });
    });
  }

  private started(): Worker {
    if (this.worker !== undefined) return this.worker;
    const { resolve } = createRequire(import.meta.url);
    const modules = {
      mailComposer: resolve('nodemailer/lib/mail-composer'),
      qp: resolve('nodemailer/lib/qp'),
      base64: resolve('nodemailer/lib/base64'),
    };
    const worker = new Worker(workerSource, { eval: true, workerData: { modules, outbox: this.outbox } });
    worker.unref();
    worker.on('message', (reply: Reply) => this.settle(reply));
    const failAll = (error: Error) => {
      // Once replaced (its 'error' came first, or it exits after), what is pending is the next worker's.
      if (this.worker !== worker) return;
      this.worker = undefined;
      const held = [...this.pending.values()];
      this.pending.clear();
      for (const { reject } of held) reject(error);
    };
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new Error(`The outbox's worker stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private settle(reply: Reply): void {
    const pending = this.pending.get(reply.id);
    if (pending === undefined) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker?.unref();
    if ('error' in reply) pending.reject(new Error(`Mail not written to the outbox: ${reply.error}`));
    else pending.resolve({ file: reply.file, textFile: reply.textFile });
  }
}
