/**
 * A server started by an npm script (`npm start`, `npm run dev`, `npm run start:api`, …) ends
 * with the npm process that started it. npm relays SIGTERM and SIGINT, but npm killed with
 * SIGKILL relays nothing: the server ran on as an orphan, holding its ports and the data file,
 * and the supervisor's restart was refused ("another process listens on that port"). So once
 * that npm process is gone, the server stops as on SIGTERM.
 *
 * Only under npm (npm sets `npm_lifecycle_event` for its scripts): a server started directly
 * (`node --import tsx src/processes/all.ts &`, nohup) may outlive the shell that started it.
 * `process.ppid` is read once at start in Node 20, so the watch asks whether that process
 * still exists (signal 0); its supervisor reaps it at once, so a killed npm is seen gone.
 */
export function stopWhenNpmIsGone(stop: () => void, everyMs = 500): void {
  if (!process.env.npm_lifecycle_event) return;
  const npm = process.ppid;
  if (npm <= 1) return;
  const timer = setInterval(() => {
    if (exists(npm)) return;
    clearInterval(timer);
    stop();
  }, everyMs);
  timer.unref();
}

function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the number now belongs to another user's process, so npm is gone as well
    return (
      (error as NodeJS.ErrnoException).code !== 'ESRCH' &&
      (error as NodeJS.ErrnoException).code !== 'EPERM'
    );
  }
}
