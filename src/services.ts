/** The services this code base runs; each brings its projectors and its HTTP app. */
import { createFeedbackService } from './feedback/service.js';
import { notesService } from './notes/service.js';
import type { ServiceModule } from './platform/service.js';

export function serviceModules(): ServiceModule[] {
  return [createFeedbackService(), notesService()];
}
