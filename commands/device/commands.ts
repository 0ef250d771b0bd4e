export type RegisterDevice = {
  type: 'RegisterDevice';
  data: { deviceId: string; userId: string; name: string; platform: string };
};

/** Absent fields keep their value (a rename sends only `name`). */
export type UpdateDevice = {
  type: 'UpdateDevice';
  data: { name?: string; platform?: string; expectedRevision?: number };
};

export type DeviceCommand = RegisterDevice | UpdateDevice;
