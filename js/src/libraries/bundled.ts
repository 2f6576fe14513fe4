/**
 * The libraries bundled with the code that imports this module, and given to the views at
 * once: the exported page, which has no kernel to ask, takes them this way, and so do the
 * tests (StreamView's and RunBoard's modules receive them later, see host/libraries.ts).
 */
import { provideLibraries } from "../views/libraries";
import { libraries } from "./bundle";

provideLibraries(libraries);
