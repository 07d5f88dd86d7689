import { afterEach, describe, expect, it } from 'vitest';
import type { ImageIo, ImageIoOpener } from '../../src/adapters/chdu/image-io.js';
import { openImageIo } from '../../src/adapters/chdu/image-io.js';
import { type Harness, pd, startHarness } from '../support/kasa-harness.js';
import { LiveClock } from '../support/merchant-register.js';
import { checkResendRules, storeSettings } from '../support/offline-helpers.js';

/**
 * ADR 1105/1107 as composed for `kasa serve`: the journal the sender writes through (events and
 * index in front of the CHDÚ) keeps a window's records in one CHDÚ write. The unit tests use the
 * bare journal; the wrapper once dropped `appendMany` and every record went down alone.
 */
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('the offline sender in a composed register', () => {
  it('writes a window of resends in a few CHDÚ writes, not one per record', async () => {
    let writes = 0;
    const opener = (async (path, writable, durable) => {
      const io = await openImageIo(path, writable, durable);
      const counted: ImageIo = {
        ...io,
        durableWrites: io.durableWrites,
        async write(buf, position) {
          writes += 1;
          return io.write(buf, position);
        },
      };
      return counted;
    }) as ImageIoOpener;
    h = await startHarness({ clock: new LiveClock(), imageIo: opener });
    // Only the API call sends in this test.
    await storeSettings(h, { resendIntervalMs: 3_600_000, resendMaxIntervalMs: 3_600_000 });
    await h.sim.goOffline();
    const documents = 40;
    for (let i = 0; i < documents; i++)
      expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    await h.sim.goOnline();
    const recordsBefore = h.kasa.parts.index.highWaterMark();
    const writesBefore = writes;
    const sent = await h.post('/api/document/send/offline', { limit: documents });
    expect(sent.body.resultCode).toBe(0);
    expect(sent.body.documents).toHaveLength(documents);
    const records = h.kasa.parts.index.highWaterMark() - recordsBefore;
    // A start and an outcome for each document; a probe, then windows of 32 in shared writes.
    expect(records).toBe(2 * documents);
    expect(writes - writesBefore).toBeLessThanOrEqual(8);
    await checkResendRules(
      h,
      Array.from({ length: documents }, (_, i) => i + 1),
    );
  });
});
