/**
 * Keeps node in its event loop until the answer is called: a referenced timer that never fires.
 *
 * When nothing referenced is left in the loop (as while PGlite's WebAssembly compiles: V8 answers through a task of
 * its own, not a libuv handle), node leaves the loop and waits in NodePlatform::DrainTasks for every queued
 * background task before it looks at the loop again: with V8 recompiling PGlite's hot functions in the
 * background, that is a second or more in which no file read, timer or connection is served (a started server
 * accepted its first connection 0.7-1.5 s after listening). Inside the loop, V8's tasks arrive as they finish.
 */
export function holdEventLoop(): () => void {
  const timer = setInterval(() => undefined, 2 ** 30);
  return () => clearInterval(timer);
}
