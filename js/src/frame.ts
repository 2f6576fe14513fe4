/**
 * One animation-frame task for all views: jobs that change the DOM run first, then jobs
 * that read layout, so a frame forces at most one layout however many views redraw.
 * A job scheduled several times before the frame runs once.
 */
type Job = () => void;
export type Phase = "write" | "read";

const queues: Record<Phase, Set<Job>> = { write: new Set(), read: new Set() };
let pending = false;

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
  runAll(queues.write);
  runAll(queues.read);
}

/** Run `job` in the next frame's `phase` (once, however often it is scheduled). */
export function schedule(job: Job, phase: Phase = "write"): void {
  queues[phase].add(job);
  if (!pending) {
    pending = true;
    requestFrame(flush);
  }
}

/** Drop `job` from the next frame, as when its view goes away. */
export function unschedule(job: Job): void {
  queues.write.delete(job);
  queues.read.delete(job);
}
