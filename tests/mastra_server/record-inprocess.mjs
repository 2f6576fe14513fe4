// Records, in process, the same runs server.mjs serves over HTTP: the agent's fullStream and
// the workflow's run.stream() for the same messages/input, into expected/*.jsonl
// ({"t": ms since the stream was requested, "chunk": <chunk>} per line). A client test
// compares what it reads over HTTP with these (ids and timestamps differ per run).
process.env.MASTRA_TELEMETRY_DISABLED = '1';

import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { AGENT_ID, AGENT_MESSAGES, WORKFLOW_ID, WORKFLOW_INPUT, createApp } from './app.mjs';

const OUT_DIR = join(dirname(fileURLToPath(import.meta.url)), 'expected');

async function record(start) {
  const t0 = performance.now();
  const stream = await start();
  const lines = [];
  for await (const chunk of stream) {
    lines.push(JSON.stringify({ t: Math.round((performance.now() - t0) * 1000) / 1000, chunk }));
  }
  return lines.join('\n') + '\n';
}

const mastra = createApp();
await mkdir(OUT_DIR, { recursive: true });

const agentOutput = await record(async () => (await mastra.getAgent(AGENT_ID).stream(AGENT_MESSAGES)).fullStream);
await writeFile(join(OUT_DIR, `agent-${AGENT_ID}.jsonl`), agentOutput);

const run = await mastra.getWorkflow(WORKFLOW_ID).createRun();
const workflowOutput = await record(async () => run.stream({ inputData: WORKFLOW_INPUT }).fullStream);
await writeFile(join(OUT_DIR, `workflow-${WORKFLOW_ID}.jsonl`), workflowOutput);

console.log(`wrote ${OUT_DIR}/agent-${AGENT_ID}.jsonl and workflow-${WORKFLOW_ID}.jsonl`);
process.exit(0);
