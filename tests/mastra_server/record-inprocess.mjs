// Records, in process, the runs server.mjs serves over HTTP, one `{"t": ms since the stream was
// requested, "chunk": <chunk>}` line per chunk, as in tests/fixtures/mastra/. A client test
// compares what it reads over HTTP with these (ids and timestamps differ per run).
//
//   node record-inprocess.mjs        the app's own agent and workflow runs, into expected/
//   node record-inprocess.mjs DIR    every run the server serves, into DIR: the app's own two,
//                                    each served scenario of the recorder as `<name>.jsonl`,
//                                    and calls.json, what a client sends to start each of them
//
// A served scenario runs as the recorder runs it (its setup registered on the recorder's kind
// of app, started by the recorder's `starter`), but each chunk is turned into JSON the moment
// it is emitted, as the server does when it sends it. The recorder turns its chunks into JSON
// once the stream has ended, and Mastra changes some chunk objects after emitting them (see
// README.md).
process.env.MASTRA_TELEMETRY_DISABLED = '1';

import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { AGENT_ID, AGENT_MESSAGES, WORKFLOW_ID, WORKFLOW_INPUT, createApp, servedCalls } from './app.mjs';
import { SERVED, app, starter } from './scenarios.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));

/** The JSONL of the stream `start` returns, each line written when its chunk arrives. */
async function record(start) {
  const t0 = performance.now();
  const stream = await start();
  const lines = [];
  for await (const chunk of stream) {
    lines.push(JSON.stringify({ t: Math.round((performance.now() - t0) * 1000) / 1000, chunk }));
  }
  return lines.join('\n') + '\n';
}

async function recordApp(outDir) {
  const mastra = createApp();
  const agentOutput = await record(async () => (await mastra.getAgent(AGENT_ID).stream(AGENT_MESSAGES)).fullStream);
  await writeFile(join(outDir, `agent-${AGENT_ID}.jsonl`), agentOutput);
  const run = await mastra.getWorkflow(WORKFLOW_ID).createRun();
  const workflowOutput = await record(async () => run.stream({ inputData: WORKFLOW_INPUT }).fullStream);
  await writeFile(join(outDir, `workflow-${WORKFLOW_ID}.jsonl`), workflowOutput);
  return [`agent-${AGENT_ID}.jsonl`, `workflow-${WORKFLOW_ID}.jsonl`];
}

/** The chunk stream of what `starter` started: an agent's and a workflow's fullStream, a network's own stream. */
function chunksOf(kind, output) {
  return kind === 'network' ? output : output.fullStream;
}

async function recordServed(outDir) {
  const written = [];
  for (const [name, setup] of Object.entries(SERVED)) {
    const { agents, workflows, call } = setup();
    const start = await starter(app({ agents, workflows }), call);
    await writeFile(join(outDir, `${name}.jsonl`), await record(async () => chunksOf(call.kind, await start())));
    written.push(`${name}.jsonl`);
  }
  await writeFile(join(outDir, 'calls.json'), JSON.stringify(servedCalls(), null, 2) + '\n');
  return [...written, 'calls.json'];
}

const requested = process.argv[2];
const outDir = requested ? resolve(requested) : join(HERE, 'expected');
await mkdir(outDir, { recursive: true });
const written = await recordApp(outDir);
if (requested) written.push(...(await recordServed(outDir)));
console.log(`wrote ${written.length} files into ${outDir}: ${written.join(', ')}`);
// Mastra's background timers would keep node alive after the runs.
process.exit(0);
