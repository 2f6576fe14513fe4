import { describe, expect, it } from "vitest";
import { schedule, unschedule } from "../src/frame";

const nextFrame = () => new Promise((resolve) => setTimeout(resolve, 40));

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
});
