import { describe, expect, it } from "vitest";
import { loadServiceSettings } from "../../../config/env.js";

describe("Redis and job settings", () => {
  it("default to one process: no Redis, and the documented job bounds", () => {
    const settings = loadServiceSettings({});
    expect(settings.SERVICE_REDIS_URL).toBeUndefined();
    expect(settings).toMatchObject({
      SERVICE_MAX_QUEUED_JOBS: 100,
      SERVICE_JOB_WORKERS: 2,
      SERVICE_JOB_RETENTION_MS: 3_600_000,
      SERVICE_JOB_ATTEMPTS: 3,
      SERVICE_JOB_LOCK_MS: 30_000,
    });
  });

  it("take redis:// and rediss:// URLs and refuse anything else at start-up, naming the variable", () => {
    expect(loadServiceSettings({ SERVICE_REDIS_URL: "rediss://:pw@cache:6380/2" }).SERVICE_REDIS_URL).toBe("rediss://:pw@cache:6380/2");
    expect(() => loadServiceSettings({ SERVICE_REDIS_URL: "http://cache:6379" })).toThrow(/SERVICE_REDIS_URL.*redis:\/\/ or rediss:\/\//);
    expect(() => loadServiceSettings({ SERVICE_JOB_WORKERS: "0" })).toThrow(/SERVICE_JOB_WORKERS/);
    expect(() => loadServiceSettings({ SERVICE_JOB_LOCK_MS: "10" })).toThrow(/SERVICE_JOB_LOCK_MS/);
  });
});
