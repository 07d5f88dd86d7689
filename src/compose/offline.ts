import type { OfflineSender } from '../core/offline/offline-sender.js';
import { GetLocation } from '../core/services/location/get-location.js';
import { UpdateLocation } from '../core/services/location/update-location.js';
import type { OfflineDeps } from '../core/services/offline/offline-deps.js';
import { OfflineReport } from '../core/services/offline/offline-report.js';
import { RepairDocument } from '../core/services/offline/repair-document.js';
import { RepairLocation } from '../core/services/offline/repair-location.js';
import { SendOfflineNow } from '../core/services/offline/send-offline-now.js';
import { SetAside } from '../core/services/offline/set-aside.js';
import type { RoutePlugin } from '../http/app.js';
import { locationRoutes } from '../http/routes/location.js';
import { offlineRoutes } from '../http/routes/offline.js';
import { repairRoutes } from '../http/routes/repair.js';
import { setAsideRoutes } from '../http/routes/set-aside.js';

/** The offline, repair and location use cases and their routes (capability 10). */
export function composeOffline(deps: OfflineDeps, sender: OfflineSender): RoutePlugin[] {
  return [
    offlineRoutes({ report: new OfflineReport(deps), sendNow: new SendOfflineNow(deps, sender) }),
    repairRoutes({ repair: new RepairDocument(deps) }),
    setAsideRoutes({ setAside: new SetAside(deps) }),
    locationRoutes({
      update: new UpdateLocation(deps),
      repair: new RepairLocation(deps),
      get: new GetLocation(deps),
    }),
  ];
}
