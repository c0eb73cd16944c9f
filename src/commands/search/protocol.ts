/**
 * The control words a search job shares with its workers (an Int32Array on a SharedArrayBuffer):
 * a cancel flag, the next unit to claim, the last unit still needed, and each unit's hit count
 * (-1 until it is done). Threads claim units in order, so no unit runs twice.
 */
import type { MatchRecord, UnitResult } from './engine.js';

export const CANCEL = 0;
export const NEXT = 1;
export const STOP_AFTER = 2;
export const HITS = 3;

export function controlWords(units: number): Int32Array {
  const control = new Int32Array(new SharedArrayBuffer(4 * (HITS + units)));
  control.fill(-1, HITS);
  control[STOP_AFTER] = units - 1;
  return control;
}

/** The next unit this thread should run, or -1 when there is none left (or the job stopped). */
export function claimNext(control: Int32Array, units: number): number {
  if (Atomics.load(control, CANCEL) !== 0) return -1;
  const index = Atomics.add(control, NEXT, 1);
  return index < units && index <= Atomics.load(control, STOP_AFTER) ? index : -1;
}

/** True when a thread running unit `index` should stop: the job was cancelled, or no longer needs it. */
export function unitStopped(control: Int32Array, index: number): boolean {
  return Atomics.load(control, CANCEL) !== 0 || index > Atomics.load(control, STOP_AFTER);
}

export type WorkerMessage =
  /** Matches of a unit still running, ahead of its result (in order). */
  | { id: number; index: number; matches: MatchRecord[] }
  | { id: number; index: number; result: UnitResult }
  | { id: number; done: true }
  | { id: number; error: string };
