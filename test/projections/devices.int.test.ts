import { expect } from 'chai';
import { deviceStreamId } from '../../commands/device/index.js';
import { devicesProjector } from '../../projections/devices/projector.js';
import { findDeviceByName, getDevice, listDevices } from '../../projections/devices/queries.js';
import { eventLog } from '../support/notes-events.js';
import { openTestStores, type TestStores } from '../support/stores.js';

describe('Devices projection', () => {
  let stores: TestStores;
  beforeEach(async () => {
    stores = await openTestStores();
  });
  afterEach(async () => {
    await stores.cleanup();
  });

  describe('When devices are registered and renamed', () => {
    it('lists each user their own devices, and running the events twice changes nothing', async () => {
      const projector = devicesProjector();
      await projector.setup?.(stores.readStore);
      const { log, add } = eventLog();
      add(
        deviceStreamId('u1', 'd1'),
        'DeviceRegistered',
        { deviceId: 'd1', userId: 'u1', name: 'Pixel', platform: 'android' },
        1,
      );
      add(
        deviceStreamId('u2', 'd2'),
        'DeviceRegistered',
        { deviceId: 'd2', userId: 'u2', name: 'iPad', platform: 'ios' },
        2,
      );
      add(
        deviceStreamId('u1', 'd1'),
        'DeviceUpdated',
        { name: 'Work phone', platform: 'android' },
        3,
      );
      for (const e of log) await projector.apply(e, stores.readStore);
      const once = await listDevices(stores.readStore, 'u1');
      for (const e of log) await projector.apply(e, stores.readStore);
      expect(await listDevices(stores.readStore, 'u1')).to.deep.equal(once);

      expect(once).to.have.length(1);
      expect(once[0]).to.deep.include({
        id: 'd1',
        name: 'Work phone',
        platform: 'android',
        createdAt: 1,
        updatedAt: 3,
        revision: 1,
      });
      expect(await getDevice(stores.readStore, 'u1', 'd2')).to.equal(null);
      expect(await findDeviceByName(stores.readStore, 'u1', 'work PHONE')).to.include({ id: 'd1' });
      expect(await findDeviceByName(stores.readStore, 'u1', 'iPad')).to.equal(null);
    });
  });
});
