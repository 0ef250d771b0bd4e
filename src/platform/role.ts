/** The roles a process boots in; runtime.ts says what each runs. */
export type Role = 'all' | 'api' | 'projector' | 'webhooks';
