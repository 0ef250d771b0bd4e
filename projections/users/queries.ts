import type { ReadStore } from '../../src/readstore/types.js';
import { type UserDoc, usersOf } from './projector.js';
import { emailKey } from '../../commands/shared/email.js';

export function userById(store: ReadStore, userId: string): Promise<UserDoc | null> {
  return usersOf(store).findOne({ _id: userId });
}

export function userByEmail(store: ReadStore, email: string): Promise<UserDoc | null> {
  return usersOf(store).findOne({ email: emailKey(email) });
}
