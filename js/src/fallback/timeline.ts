/** Used by the build only while src/timeline/view.ts does not exist. */
import { unavailablePanel } from "./unavailable";

export const mountTimeline = unavailablePanel("Timeline");
