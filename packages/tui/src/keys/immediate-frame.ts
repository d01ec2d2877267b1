/**
 * Draws the next frame now instead of at ink's next frame-rate tick, for what the user typed.
 *
 * ink draws at most `maxFps` (30) frames a second: a key pressed while other parts of the screen
 * are changing (an answer streaming, eight subagents working) waits up to 33 ms for its echo. ink
 * draws a frame at once, outside that limit, when its `<Static>` re-renders; so after each key
 * the transcript's `<Static>` (which subscribes here) re-renders with nothing new, and ink draws
 * the whole screen, the typed character included, at once. Background updates keep the limit.
 */
let generation = 0;
const listeners = new Set<() => void>();

export function requestImmediateFrame(): void {
  generation += 1;
  for (const listener of listeners) listener();
}

export function subscribeImmediateFrame(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function immediateFrameGeneration(): number {
  return generation;
}
