/**
 * Notices a MongoDB client whose server monitor has stopped for good, so the read store can
 * replace the client instead of failing every operation until the process is restarted.
 *
 * Why it happens (mongodb 7.9.0, seen in the engines suite's MongoDB-restart case, about one run
 * in three): when the server goes away, the monitor's socket can be destroyed a moment before its
 * 'close' event is delivered. A check started in that moment still finds the connection open,
 * writes its `hello`, gets `false` from `socket.write` and waits for a 'drain' that a destroyed
 * socket never emits; a destroyed socket emits no 'error' and no 'timeout' either, so none of the
 * driver's timeouts end the wait. The monitor then never checks the server again, the server
 * stays "Unknown" and every operation fails server selection, while the server itself is back.
 *
 * The signal is the driver's own heartbeat events: every check emits `serverHeartbeatStarted`
 * and then `serverHeartbeatSucceeded` or `serverHeartbeatFailed`. The longest a healthy check can
 * take is bounded by the client's timeouts (`longestCheckMs`), so a check pending longer than
 * that is wedged. The watchdog reports it once per check.
 */
import type { EventEmitter } from 'node:events';

export interface HeartbeatWatchdogOptions {
  /** the longest a check can last while the driver's timeouts still work */
  longestCheckMs: number;
  /** how often pending checks are looked at */
  everyMs: number;
  /** a check (on the server at `address`) has been pending for `pendingMs` */
  onWedged(address: string, pendingMs: number): void;
  now?: () => number;
}

export interface HeartbeatWatchdog {
  /** look at the pending checks now (the timer calls it every `everyMs`) */
  inspect(): void;
  stop(): void;
}

interface HeartbeatEvent {
  /** the server's address, e.g. `127.0.0.1:27017` */
  connectionId: string;
}

export function watchHeartbeats(
  client: EventEmitter,
  options: HeartbeatWatchdogOptions,
): HeartbeatWatchdog {
  const now = options.now ?? Date.now;
  /** per server: when its pending check started; reported checks are removed */
  const pending = new Map<string, number>();
  const started = (event: HeartbeatEvent) => pending.set(event.connectionId, now());
  const ended = (event: HeartbeatEvent) => pending.delete(event.connectionId);
  client.on('serverHeartbeatStarted', started);
  client.on('serverHeartbeatSucceeded', ended);
  client.on('serverHeartbeatFailed', ended);
  const inspect = () => {
    const at = now();
    for (const [address, since] of pending) {
      if (at - since <= options.longestCheckMs) continue;
      pending.delete(address);
      options.onWedged(address, at - since);
    }
  };
  const timer = setInterval(inspect, options.everyMs);
  timer.unref();
  return {
    inspect,
    stop() {
      clearInterval(timer);
      client.off('serverHeartbeatStarted', started);
      client.off('serverHeartbeatSucceeded', ended);
      client.off('serverHeartbeatFailed', ended);
    },
  };
}
