/**
 * marked, DOMPurify and highlight.js, as the views reach them: given once for the page
 * (`provideLibraries`), by whichever module carries them (libraries/bundle.ts). Until then
 * markdown is drawn as plain text, and whoever can fetch them is asked to (`onWanted`).
 */
import type { Config, DOMPurify } from "dompurify";
import type * as MarkedLibrary from "marked";
import type { Libraries } from "../libraries/bundle";

/** The page's libraries, the views waiting for them and who can fetch them. */
interface Registry {
  provided: Libraries | null;
  waiting: (() => void)[];
  fetchers: Set<() => void>;
}

/** Where the page keeps its registry: one for every chunkscope module in the page (the
 * libraries a board's model brought serve the run views beside it). The name carries
 * the version of the `Libraries` interface, so modules that disagree on it keep apart. */
export const REGISTRY_KEY = "__chunkscopeLibraries1";

function registry(): Registry {
  const page = globalThis as unknown as Record<string, Registry | undefined>;
  page[REGISTRY_KEY] ??= { provided: null, waiting: [], fetchers: new Set() };
  return page[REGISTRY_KEY];
}

/** Give the views the libraries (the first module given is kept). */
export function provideLibraries(libraries: Libraries): void {
  const page = registry();
  if (page.provided !== null) return;
  page.provided = libraries;
  for (const resume of page.waiting.splice(0)) resume();
}

/** Whether the libraries have been given. */
export function librariesReady(): boolean {
  return registry().provided !== null;
}

/**
 * Call `fetch` whenever the libraries are wanted and not given yet (a view's model that can
 * load them, or ask its kernel for them); returns what stops it.
 */
export function onWanted(fetch: () => void): () => void {
  const page = registry();
  page.fetchers.add(fetch);
  if (page.waiting.length > 0 && page.provided === null) fetch();
  return () => page.fetchers.delete(fetch);
}

/** The libraries once given; asks every fetcher for them meanwhile. */
export function whenLibraries(): Promise<Libraries> {
  const page = registry();
  if (page.provided !== null) return Promise.resolve(page.provided);
  const given = new Promise<Libraries>((resolve) => {
    page.waiting.push(() => resolve(page.provided as Libraries));
  });
  for (const fetch of [...page.fetchers]) fetch();
  return given;
}

function given(): Libraries {
  const { provided } = registry();
  if (provided === null) throw new Error("chunkscope: the markdown libraries are not loaded yet");
  return provided;
}

/** The marked module (evaluated at the first call); throws before the libraries are given. */
export function markedLibrary(): typeof MarkedLibrary {
  return given().marked();
}

/** DOMPurify's default instance; throws before the libraries are given. */
export function purifyLibrary(): DOMPurify {
  return given().purify();
}

/** Sanitized nodes for an HTML string. */
export type FragmentSanitizer = (html: string) => DocumentFragment;

/**
 * A DOMPurify instance of our own with `config` set once, as a function from HTML to
 * sanitized nodes, made at the first call of the getter returned once the libraries are
 * given; null before that, where this DOM does not let it sanitize, or where `accept`
 * refuses it. Options passed with each call would be read again on every call: DOMPurify
 * then rebuilds its allow-lists (hundreds of lower-cased names), a fifth of what a page
 * allocates while a long text becomes markdown. `setUp` adds hooks before the config is set.
 */
export function fragmentSanitizer(
  config: Omit<Config, "RETURN_DOM_FRAGMENT" | "RETURN_DOM">,
  setUp?: (instance: DOMPurify) => void,
  accept?: (sanitize: FragmentSanitizer) => boolean,
): () => FragmentSanitizer | null {
  let made: FragmentSanitizer | null | undefined;
  const make = (): FragmentSanitizer | null => {
    const instance = purifyLibrary()(window);
    if (!instance.isSupported) return null;
    setUp?.(instance);
    instance.setConfig({ ...config, RETURN_DOM_FRAGMENT: true });
    // The config set above makes every call return a fragment; the library's types follow
    // only the options passed with the call. The fragment belongs to the document the
    // library parsed into, one per call: adopted into the page's at once, what is done to it
    // next (finding code blocks, adding their toolbar) happens in the document that shows it.
    const sanitize: FragmentSanitizer = (html) =>
      document.adoptNode(instance.sanitize(html) as unknown as DocumentFragment);
    return accept === undefined || accept(sanitize) ? sanitize : null;
  };
  return () => {
    if (made === undefined) {
      if (!librariesReady()) return null;
      made = make();
    }
    return made;
  };
}
