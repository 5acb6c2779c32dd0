// The baseline of bench/http: NestJS's own starter (one controller, `GET /` answering "Hello World!")
// on the same platform as Chorus (Express), without Chorus's middleware, guard, logging or store.
//   PORT=3000 node bench/http/hello-world.mjs
// Plain JavaScript, so the decorators are applied as functions (what TypeScript compiles them to).
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

class AppController {
  getHello() {
    return 'Hello World!';
  }
}
Controller()(AppController);
Get()(AppController.prototype, 'getHello', Object.getOwnPropertyDescriptor(AppController.prototype, 'getHello'));

class AppModule {}
Module({ controllers: [AppController] })(AppModule);

const app = await NestFactory.create(AppModule, { logger: false });
await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
console.log('listening');
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => void app.close().then(() => process.exit(0)));
