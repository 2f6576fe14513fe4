/**
 * One animation-frame task for all views: jobs that change the DOM run first, then jobs
 * that read layout, so a frame forces at most one layout however many views redraw.
 * A job scheduled several times before the frame runs once.
 *
 * A frame whose jobs took long (a stream adding thousands of parts a second) is followed by
 * a pause of `PACE_FACTOR` times its length before the next one: the page then spends at
 * most about a third of its time drawing, and the rest stays free for input, for decoding
 * the next messages and for the garbage collector, which otherwise finishes its work in the
 * middle of a frame. Frames that take less than `PACE_FROM_MS` follow each other at once,
 * and the pause never puts more than `MAX_FRAME_PERIOD_MS` between the starts of two
 * frames, so what streams still moves at least about twelve times a second on a machine
 * where every frame is long.
 */
type Job = () => void;
export type Phase = "write" | "read";

/** Frames shorter than this (ms) are not followed by a pause. */
export const PACE_FROM_MS = 16;
/** The pause after a longer frame, as a multiple of the frame's length. */
export const PACE_FACTOR = 2;
/** The longest time (ms) a pause may put from the start of one frame to the next: with
 * frames of 35 ms (a board of 100 streaming runs on a busy two-core machine), pauses of
 * twice that let its rows move only 9 times a second. */
export const MAX_FRAME_PERIOD_MS = 80;

const queues: Record<Phase, Set<Job>> = { write: new Set(), read: new Set() };
let pending = false;
/** performance.now() when the frame being run began; null outside a frame. */
let frameStart: number | null = null;
/** The phase whose jobs an animation frame is running; null outside a frame's jobs (a first
 * draw's and an `afterFrame` task's included). */
let running: Phase | null = null;
/** Time (performance.now) before which no frame is asked for. */
let restUntil = 0;

function requestFrame(fn: () => void): void {
  if (typeof requestAnimationFrame === "function") requestAnimationFrame(fn);
  else setTimeout(fn, 16);
}

function runAll(queue: Set<Job>): void {
  const jobs = [...queue];
  queue.clear();
  for (const job of jobs) {
    try {
      job();
    } catch (error) {
      // One broken view must not stop the others from drawing.
      console.error("chunkscope: a view failed to draw", error);
    }
  }
}

function flush(): void {
  pending = false;
  const start = performance.now();
  frameStart = start;
  try {
    running = "write";
    runAll(queues.write);
    running = "read";
    runAll(queues.read);
  } finally {
    frameStart = null;
    running = null;
  }
  const end = performance.now();
  const took = end - start;
  const rest = Math.min(PACE_FACTOR * took, MAX_FRAME_PERIOD_MS - took);
  restUntil = took >= PACE_FROM_MS && rest > 0 ? end + rest : 0;
}

/** Run `job` in the next frame's `phase` (once, however often it is scheduled). */
export function schedule(job: Job, phase: Phase = "write"): void {
  queues[phase].add(job);
  // A read asked for by a frame's write runs in that frame's reads: no frame of its own.
  if (pending || (running === "write" && phase === "read")) return;
  pending = true;
  const wait = restUntil - performance.now();
  if (wait > 0) setTimeout(() => requestFrame(flush), wait);
  else requestFrame(flush);
}

/**
 * Run `job` now, as a frame's job would run: its time counts as a frame's (`frameTime`) and
 * it keeps a frame's limits (markdown only once the parser is warm). For a view's first
 * draw, which runs in the task that mounts the view rather than in a frame.
 */
export function runAsFrame(job: Job): void {
  if (frameStart !== null) {
    job();
    return;
  }
  frameStart = performance.now();
  try {
    job();
  } finally {
    frameStart = null;
  }
}

const afterQueue = new Set<Job>();
let afterPending = false;
/** Tells the page to run the jobs that wait for a frame's rendering (see `afterFrame`). */
const afterChannel = typeof MessageChannel === "function" ? new MessageChannel() : null;

function runAfter(): void {
  afterPending = false;
  runAsFrame(() => runAll(afterQueue));
}

if (afterChannel !== null) afterChannel.port1.onmessage = runAfter;

function postAfter(): void {
  if (afterChannel !== null) afterChannel.port2.postMessage(0);
  else setTimeout(runAfter, 0);
}

/**
 * Run `job` in a task of its own once the next frame has been drawn (once, however often it
 * is scheduled), with a frame's limits (`frameTime` counts from the task's start). For work
 * that can wait a frame, such as rendering a backlog of text as markdown: the frame that
 * shows new text then does not also carry it, and neither task is long. From inside an
 * animation frame, the job follows that frame's drawing; from anywhere else (an `afterFrame`
 * job scheduling itself again included), the next frame's.
 */
export function afterFrame(job: Job): void {
  afterQueue.add(job);
  if (afterPending) return;
  afterPending = true;
  if (running !== null) postAfter();
  else requestFrame(postAfter);
}

/** The longest (ms) a job given to `whenIdle` waits for the page to have time. */
export const IDLE_WAIT_MS = 1_000;

const idleQueue = new Set<Job>();
let idlePending = false;

function runIdle(): void {
  idlePending = false;
  runAsFrame(() => runAll(idleQueue));
}

/**
 * Run `job` in a task of its own when the page has nothing else to do (once, however often
 * it is scheduled), with a frame's limits; at the latest after `IDLE_WAIT_MS`. For work that
 * prepares and changes nothing on screen, such as warming the markdown parser up: while a
 * stream pours in and the page draws every frame, it waits, and leaves the machine's cores to
 * drawing and to the kernel that folds the stream. (Work that draws follows the frames, with
 * `schedule` and `afterFrame`: idle tasks can run back to back, and one frame would then lay
 * out what several of them built.) Where the browser cannot tell idle time, it runs as
 * `afterFrame` would.
 */
export function whenIdle(job: Job): void {
  idleQueue.add(job);
  if (idlePending) return;
  idlePending = true;
  if (typeof requestIdleCallback === "function") {
    requestIdleCallback(runIdle, { timeout: IDLE_WAIT_MS });
  } else {
    afterFrame(runIdle);
  }
}

/** Run `job` at the start of the next animation frame, ahead of that frame's views: the
 * browser has laid out and drawn what this frame built by then, so a job that reads layout
 * (scrolling an element into view) finds it clean instead of forcing it mid-frame. */
export function atNextFrame(job: Job): void {
  requestFrame(() => {
    try {
      job();
    } catch (error) {
      console.error("chunkscope: a view failed to draw", error);
    }
  });
}

/** Milliseconds the frame being run has taken so far; 0 outside a frame (work done there,
 * as in a direct call, is not the frame's to budget). */
export function frameTime(): number {
  return frameStart === null ? 0 : performance.now() - frameStart;
}

/** Whether a frame's jobs are running now. */
export function inFrame(): boolean {
  return frameStart !== null;
}

/** Drop `job` from the next frame, as when its view goes away. */
export function unschedule(job: Job): void {
  queues.write.delete(job);
  queues.read.delete(job);
  afterQueue.delete(job);
  idleQueue.delete(job);
}
