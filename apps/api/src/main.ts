import 'reflect-metadata';
import { Module, Controller, Get } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

@Controller()
class HealthController {
  @Get('health') health() { return { live: true }; }
}
@Module({ controllers: [HealthController] })
class AppModule {}

const app = await NestFactory.create(AppModule);
await app.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1');
console.log(`Chorus listening on http://localhost:${process.env.PORT ?? 3000}`);
