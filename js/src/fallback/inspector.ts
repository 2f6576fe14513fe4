/** Used by the build only while src/inspector/view.ts does not exist. */
import { unavailablePanel } from "./unavailable";

export const mountInspector = unavailablePanel("Chunks");
