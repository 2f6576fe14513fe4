import { afterEach, describe, expect, it, vi } from "vitest";
import {
  afterFrame,
  frameTime,
  inFrame,
  MAX_FRAME_PERIOD_MS,
  PACE_FACTOR,
  PACE_FROM_MS,
  schedule,
  unschedule,
  whenIdle,
} from "../../src/views/frame";

const realTimeout = globalThis.setTimeout;
const nextFrame = () => new Promise((resolve) => realTimeout(resolve, 40));

describe("schedule", () => {
  it("runs each job once per frame, writes before reads, and survives a failing job", async () => {
    const order: string[] = [];
    const read = () => order.push("read");
    const write = () => order.push("write");
    const broken = () => {
      throw new Error("boom");
    };
    const dropped = () => order.push("dropped");
    const originalError = console.error;
    console.error = () => {};
    try {
      schedule(read, "read");
      schedule(broken);
      schedule(write);
      schedule(write);
      schedule(dropped);
      unschedule(dropped);
      await nextFrame();
    } finally {
      console.error = originalError;
    }
    expect(order).toEqual(["write", "read"]);
    schedule(write);
    await nextFrame();
    expect(order).toEqual(["write", "read", "write"]);
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("runs a read that a frame's write asks for in that frame, without asking for another", async () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal("requestAnimationFrame", (callback: FrameRequestCallback) => {
      frames.push(callback);
      return frames.length;
    });
    try {
      const order: string[] = [];
      const follow = () => order.push("follow");
      const draw = () => {
        order.push("draw");
        schedule(follow, "read");
      };
      schedule(draw);
      expect(frames).toHaveLength(1);
      (frames.shift() as FrameRequestCallback)(0);
      expect(order).toEqual(["draw", "follow"]);
      expect(frames).toHaveLength(0);
      // A read asked for by a read still waits for the next frame.
      const again = () => order.push("again");
      schedule(() => schedule(again, "read"), "read");
      (frames.shift() as FrameRequestCallback)(0);
      expect(frames).toHaveLength(1);
      (frames.shift() as FrameRequestCallback)(0);
      expect(order.at(-1)).toBe("again");
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("rests after a long frame, for twice its length, but draws at least every MAX_FRAME_PERIOD_MS", async () => {
    let now = 1_000;
    vi.spyOn(performance, "now").mockImplementation(() => now);
    const ran: number[] = [];
    let length = 20;
    const slow = () => {
      ran.push(now);
      now += length;
    };
    schedule(slow);
    await nextFrame();
    expect(ran).toEqual([1_000]);
    // Scheduled again at once: the next frame waits until 20 * PACE_FACTOR ms after the end.
    const waits: number[] = [];
    vi.spyOn(globalThis, "setTimeout").mockImplementation(((fn: () => void, ms?: number) => {
      waits.push(ms ?? 0);
      return realTimeout(fn, 0);
    }) as typeof setTimeout);
    // The pause asked for when the job is scheduled (the frame itself may be asked for with
    // a timer too, where the page has no requestAnimationFrame).
    const pauseOf = (): number | undefined => {
      const before = waits.length;
      schedule(slow);
      return waits.length > before ? waits[before] : undefined;
    };
    length = 50;
    expect(pauseOf()).toBe(20 * PACE_FACTOR);
    await nextFrame();
    expect(ran).toHaveLength(2);
    // After a 50 ms frame, the pause ends MAX_FRAME_PERIOD_MS after that frame began.
    expect(pauseOf()).toBe(MAX_FRAME_PERIOD_MS - 50);
    await nextFrame();
    // A frame longer than that is followed by no pause: the next frame is asked for at once
    // (here, with no requestAnimationFrame, as a 16 ms timer).
    length = MAX_FRAME_PERIOD_MS + 10;
    schedule(slow);
    await nextFrame();
    expect(pauseOf()).toBe(16);
    await nextFrame();
    expect(ran).toHaveLength(5);
    // A short frame is followed by no rest.
    vi.mocked(globalThis.setTimeout).mockRestore();
    now += 1_000;
    const quick = () => {
      now += PACE_FROM_MS / 2;
    };
    schedule(quick);
    await nextFrame();
    const before = now;
    schedule(() => ran.push(now));
    await nextFrame();
    expect(ran.at(-1)).toBe(before);
  });
});

describe("afterFrame", () => {
  it("runs a job once, in a task of its own after the frame that asked for it", async () => {
    const order: string[] = [];
    const after = () => order.push(`after (in a frame's limits: ${inFrame()})`);
    schedule(() => {
      order.push("frame");
      afterFrame(after);
      afterFrame(after);
    });
    schedule(() => order.push("frame, later job"));
    await nextFrame();
    expect(order).toEqual(["frame", "frame, later job", "after (in a frame's limits: true)"]);
  });

  it("gives a job that schedules itself again one turn per frame, each with its own time", async () => {
    let frames = 0;
    const counting = () => {
      frames += 1;
      schedule(counting);
    };
    schedule(counting);
    const turns: { frame: number; spent: number }[] = [];
    const again = () => {
      turns.push({ frame: frames, spent: frameTime() });
      if (turns.length < 3) afterFrame(again);
    };
    afterFrame(again);
    for (let k = 0; k < 8 && turns.length < 3; k++) await nextFrame();
    unschedule(counting);
    expect(turns).toHaveLength(3);
    const seen = turns.map((turn) => turn.frame);
    expect(new Set(seen).size).toBe(3);
    for (const turn of turns) expect(turn.spent).toBeLessThan(5);
  });
});

describe("whenIdle", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("waits for the page to be idle, runs a job once, with a frame's limits and a latest time", async () => {
    const idle: { run: () => void; timeout: number | undefined }[] = [];
    vi.stubGlobal("requestIdleCallback", (run: () => void, options?: { timeout?: number }) =>
      idle.push({ run, timeout: options?.timeout }),
    );
    const order: string[] = [];
    const job = () => order.push(`idle (in a frame's limits: ${inFrame()})`);
    const dropped = () => order.push("dropped");
    whenIdle(job);
    whenIdle(job);
    whenIdle(dropped);
    unschedule(dropped);
    // Frames come and go while the page is busy: the job waits.
    schedule(() => order.push("frame"));
    await nextFrame();
    expect(order).toEqual(["frame"]);
    expect(idle).toHaveLength(1);
    expect(idle[0]?.timeout).toBeGreaterThan(0);
    idle.shift()?.run();
    expect(order).toEqual(["frame", "idle (in a frame's limits: true)"]);
    // A job that asks again gets a new idle task.
    whenIdle(job);
    expect(idle).toHaveLength(1);
    idle.shift()?.run();
    expect(order).toHaveLength(3);
  });

  it("runs after the next frame where the browser cannot tell idle time", async () => {
    vi.stubGlobal("requestIdleCallback", undefined);
    const order: string[] = [];
    schedule(() => {
      order.push("frame");
      whenIdle(() => order.push("idle"));
    });
    await nextFrame();
    expect(order).toEqual(["frame", "idle"]);
  });
});
