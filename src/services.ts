/** The services this code base runs; each brings its projectors and its HTTP app. */
import express from 'express';
import { notesService } from './notes/service.js';
import { healthRouter } from './platform/health.js';
import type { ServiceModule } from './platform/service.js';

function statusOnly(
  name: string,
  port: (c: import('./config/schema.js').Config) => number,
): ServiceModule {
  return {
    name,
    port,
    projectors: () => [],
    async createApp(ctx) {
      const app = express();
      app.use(healthRouter(ctx.health));
      return app;
    },
  };
}

export function serviceModules(): ServiceModule[] {
  return [statusOnly('feedback', (c) => c.FEEDBACK_PORT), notesService()];
}
