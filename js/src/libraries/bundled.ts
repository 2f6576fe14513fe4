/**
 * The libraries bundled with the code that imports this module, and given to the views at
 * once: RunBoard's module and the exported page, which draw no view before their first
 * frame's worth of messages anyway, take them this way (StreamView's module receives them
 * later, see host/libraries.ts).
 */
import { provideLibraries } from "../views/libraries";
import { libraries } from "./bundle";

provideLibraries(libraries);
