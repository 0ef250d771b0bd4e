/** The device operations (spec "Devices"): list, register, read, update. */
import type { NotesHttpDeps, NotesOperation } from '../types.js';
import { registerDeviceOperation, updateDeviceOperation } from './device-writes.js';
import { getDeviceOperation, listDevicesOperation } from './read-devices.js';

export function deviceOperations(deps: NotesHttpDeps): NotesOperation[] {
  return [
    listDevicesOperation(deps),
    registerDeviceOperation(deps),
    getDeviceOperation(deps),
    updateDeviceOperation(deps),
  ];
}
