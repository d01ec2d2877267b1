import { describe, expect, it } from "vitest";
import { SlotLimiter } from "./slot-limiter.js";

const limits = { threadsPerParent: 2, tasksPerParent: 8, maxRunning: 3, maxQueued: 10 };

describe("SlotLimiter", () => {
  it("counts children per parent and queues past the parent's limit", async () => {
    const slots = new SlotLimiter(limits);
    await slots.acquire("a1", "lead", "threads");
    await slots.acquire("a2", "lead", "threads");
    expect(slots.blockedBy("lead", "threads")).toBe("parent");
    // Another parent's children are not held back by the lead's limit.
    expect(slots.blockedBy("a1", "threads")).toBeUndefined();
    const reasons: string[] = [];
    let started = false;
    const third = slots.acquire("a3", "lead", "threads", { onQueued: (reason) => reasons.push(reason) });
    void third.then(() => (started = true));
    await Promise.resolve();
    expect(started).toBe(false);
    expect(reasons).toEqual(["parent"]);
    slots.release("a1", "lead", "threads");
    await third;
    expect(slots.runningCount()).toBe(2);
  });

  it("lends a waiting parent's session slot to its children, so a nested fan-out under a cap of 1 finishes", async () => {
    const slots = new SlotLimiter({ ...limits, maxRunning: 1 });
    await slots.acquire("parent", "lead", "threads");
    expect(slots.blockedBy("parent", "threads")).toBe("session");
    // The parent waits for its child: its slot goes to the child.
    const unpark = slots.park("parent");
    await slots.acquire("child", "parent", "threads");
    expect(slots.runningCount()).toBe(1);
    let back = false;
    const returned = unpark().then(() => (back = true));
    await Promise.resolve();
    expect(back).toBe(false);
    slots.release("child", "parent", "threads");
    await returned;
    expect(slots.runningCount()).toBe(1);
  });

  it("gives a parent coming back from its wait the next slot before new spawns", async () => {
    const slots = new SlotLimiter({ ...limits, maxRunning: 1 });
    await slots.acquire("p", "lead", "threads");
    const unpark = slots.park("p");
    await slots.acquire("c", "p", "threads");
    const order: string[] = [];
    const spawn = slots.acquire("other", "lead", "threads").then(() => order.push("spawn"));
    const back = unpark().then(() => order.push("parent"));
    slots.release("c", "p", "threads");
    await back;
    slots.release("p", "lead", "threads");
    await spawn;
    expect(order).toEqual(["parent", "spawn"]);
  });

  it("refuses past maxQueued, and a closed waiter leaves the line", async () => {
    const slots = new SlotLimiter({ ...limits, threadsPerParent: 1, maxQueued: 1 });
    await slots.acquire("a", "lead", "threads");
    const controller = new AbortController();
    const waiting = slots.acquire("b", "lead", "threads", { signal: controller.signal });
    expect(() => slots.assertRoomInLine()).toThrow(/Agent queue full.*max_queued/);
    controller.abort();
    await expect(waiting).rejects.toThrow(/cancelled/);
    expect(slots.queuedCount()).toBe(0);
  });

  it("releases a parked agent's parent slot without counting a session slot twice", async () => {
    const slots = new SlotLimiter(limits);
    await slots.acquire("p", "lead", "threads");
    slots.park("p");
    expect(slots.runningCount()).toBe(0);
    slots.release("p", "lead", "threads");
    expect(slots.runningCount()).toBe(0);
    expect(slots.blockedBy("lead", "threads")).toBeUndefined();
  });
});
