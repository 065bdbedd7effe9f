import { Controller, Get, Header } from '@nestjs/common';
import { register } from 'prom-client';

/** Prometheus text exposition of the default process metrics and the service's own. */
@Controller('metrics')
export class MetricsController {
  @Get()
  @Header('Content-Type', register.contentType)
  metrics(): Promise<string> {
    return register.metrics();
  }
}
