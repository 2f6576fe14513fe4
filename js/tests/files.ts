/** Reading the project's files from a test, through Node (this project's types do not
 * include Node's). Paths are relative to `js/`, where the tests run. */
export async function readText(path: string): Promise<string> {
  const fs = (await import("node:fs/promises" as string)) as {
    readFile(path: string, encoding: "utf8"): Promise<string>;
  };
  return fs.readFile(path, "utf8");
}
