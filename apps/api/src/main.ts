import 'reflect-metadata';
import { Module, Controller, Get } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { PLACEHOLDER } from '#domain';

@Controller()
class HealthController {
  @Get('health') health() { return { live: true, p: PLACEHOLDER }; }
}
@Module({ controllers: [HealthController] })
class AppModule {}

const app = await NestFactory.create(AppModule);
await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
console.log('listening');
