import type { Response } from "express";
import { Deadline } from "../graph/deadline.js";

/** The budget named by a request's time-out (504). */
export const REQUEST_BUDGET = "the analysis (SERVICE_REQUEST_TIMEOUT_MS)";

/**
 * The request's one Deadline (graph/deadline.ts), made by the first step that needs it (the body read) and kept
 * in `res.locals`. When the connection closes it is aborted if no answer was sent (the client went away) and
 * disposed, which clears every timer the request still holds.
 */
export function requestDeadline(res: Response): Deadline {
  const existing = res.locals.deadline as Deadline | undefined;
  if (existing) return existing;
  const deadline = new Deadline();
  res.locals.deadline = deadline;
  res.on("close", () => {
    if (!res.writableFinished) deadline.abort(new Error("client disconnected"));
    deadline.dispose();
  });
  return deadline;
}
