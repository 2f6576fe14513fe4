// The Mastra app served by server.mjs and recorded by record-inprocess.mjs: one agent with a
// tool and one workflow of its own, driven by a scripted mock model that is stateless (it
// looks at the prompt, not at a call counter), and the recorder's scenarios of
// scenarios.mjs, each registered under its recording name. The recorder's mock models count
// their calls and its network routers keep memory, so a scenario's agents and workflows are
// built afresh before every request that starts one of its runs: every HTTP request replays
// the same run, as the recorder's one run of it.
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { InMemoryStore } from '@mastra/core/storage';
import { createTool } from '@mastra/core/tools';
import { createStep, createWorkflow } from '@mastra/core/workflows';
import { MockLanguageModelV2, simulateReadableStream } from 'ai/test';
import { z } from 'zod';
import { SERVED } from './scenarios.mjs';

/** Fixed so response timestamps match between the server and the in-process recording. */
const FIXED_TIMESTAMP = new Date('2025-01-01T00:00:00.000Z');

/** Provider stream parts for one model step; `text` is streamed word by word. */
function stepParts({ text, toolCall, finishReason }) {
  const parts = [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', id: 'resp', modelId: 'scripted-model', timestamp: FIXED_TIMESTAMP },
  ];
  if (text) {
    parts.push({ type: 'text-start', id: 'txt-0' });
    for (const word of text.match(/\S+\s*/g)) parts.push({ type: 'text-delta', id: 'txt-0', delta: word });
    parts.push({ type: 'text-end', id: 'txt-0' });
  }
  if (toolCall) {
    const json = JSON.stringify(toolCall.input);
    parts.push({ type: 'tool-input-start', id: toolCall.id, toolName: toolCall.name });
    for (let i = 0; i < json.length; i += 6) parts.push({ type: 'tool-input-delta', id: toolCall.id, delta: json.slice(i, i + 6) });
    parts.push({ type: 'tool-input-end', id: toolCall.id });
    parts.push({ type: 'tool-call', toolCallId: toolCall.id, toolName: toolCall.name, input: json });
  }
  parts.push({ type: 'finish', finishReason, usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } });
  return parts;
}

/** A model that calls get-weather first and answers in text once the prompt holds a tool result. */
function weatherModel() {
  return new MockLanguageModelV2({
    provider: 'chunkscope-mock',
    modelId: 'scripted-model',
    doStream: async ({ prompt }) => {
      const answered = prompt.some((message) => message.role === 'tool');
      const step = answered
        ? { text: 'It is 21 °C and sunny in Seoul.', finishReason: 'stop' }
        : {
            text: 'Let me check.',
            toolCall: { id: 'call-weather-1', name: 'get-weather', input: { city: 'Seoul' } },
            finishReason: 'tool-calls',
          };
      return {
        stream: simulateReadableStream({ chunks: stepParts(step), initialDelayInMs: 2, chunkDelayInMs: 2 }),
        rawCall: { rawPrompt: null, rawSettings: {} },
      };
    },
  });
}

const weatherTool = createTool({
  id: 'get-weather',
  description: 'Current weather for a city.',
  inputSchema: z.object({ city: z.string() }),
  outputSchema: z.object({ city: z.string(), temperature: z.number(), sky: z.string() }),
  execute: async ({ city }, context) => {
    await context.writer?.write({ status: 'looking up', city });
    await context.writer?.custom({ type: 'data-progress', data: { percent: 50 }, transient: true });
    return { city, temperature: 21, sky: 'sunny' };
  },
});

/** Agent id as registered (the HTTP route uses the registration key). */
export const AGENT_ID = 'weatherAgent';
/** Workflow id as registered (the HTTP route uses the registration key). */
export const WORKFLOW_ID = 'greetingWorkflow';

/** The messages both the HTTP test and the in-process recording send to the agent. */
export const AGENT_MESSAGES = [{ role: 'user', content: 'What is the weather in Seoul?' }];
/** The input both send to the workflow. */
export const WORKFLOW_INPUT = { name: 'Ada' };

function greetingWorkflow() {
  const greet = createStep({
    id: 'greet',
    inputSchema: z.object({ name: z.string() }),
    outputSchema: z.object({ greeting: z.string() }),
    execute: async ({ inputData, writer }) => {
      await writer.write({ stage: 'greeting', name: inputData.name });
      return { greeting: `Hello, ${inputData.name}!` };
    },
  });
  const measure = createStep({
    id: 'measure',
    inputSchema: z.object({ greeting: z.string() }),
    outputSchema: z.object({ greeting: z.string(), length: z.number() }),
    execute: async ({ inputData }) => ({ greeting: inputData.greeting, length: inputData.greeting.length }),
  });
  return createWorkflow({
    id: 'greeting-workflow',
    inputSchema: z.object({ name: z.string() }),
    outputSchema: z.object({ greeting: z.string(), length: z.number() }),
  })
    .then(greet)
    .then(measure)
    .commit();
}

/**
 * The registration keys of a served scenario's setup: the agent or workflow its call starts
 * is registered under the recording name (the key its route takes), the others under
 * `<recording name>.<the recorder's key>`.
 */
function scenarioEntries(name, setup) {
  const key = (own) => (own === setup.call.key ? name : `${name}.${own}`);
  return {
    agents: Object.entries(setup.agents ?? {}).map(([own, agent]) => [key(own), agent]),
    workflows: Object.entries(setup.workflows ?? {}).map(([own, workflow]) => [key(own), workflow]),
  };
}

/** Replaces a served scenario's agents and workflows on `mastra` with freshly built ones. */
function rebuild(mastra, name) {
  const { agents, workflows } = scenarioEntries(name, SERVED[name]());
  for (const [key, agent] of agents) {
    mastra.removeAgent(key);
    mastra.addAgent(agent, key);
  }
  for (const [key, workflow] of workflows) {
    mastra.removeWorkflow(key);
    mastra.addWorkflow(workflow, key);
  }
}

/**
 * The served scenario a request starts a run of (`/api/agents/<name>/...` or
 * `/api/workflows/<name>/create-run`), else null. A workflow's stream request continues the
 * run its `create-run` request made, so it keeps what that request built.
 */
function scenarioOf(path) {
  const match = /^\/api\/(agents|workflows)\/([^/]+)\/([^/]+)$/.exec(path);
  if (!match) return null;
  const name = decodeURIComponent(match[2]);
  if (!Object.hasOwn(SERVED, name)) return null;
  return match[1] === 'agents' || match[3] === 'create-run' ? name : null;
}

/**
 * What a client sends to the route of a served scenario's call: `kind` (`agent`: POST
 * `/api/agents/<name>/stream`; `network`: POST `/api/agents/<name>/network`; `workflow`: POST
 * `/api/workflows/<name>/create-run`, then `/stream?runId=`) and the body's values.
 */
export function servedCalls() {
  return Object.fromEntries(
    Object.entries(SERVED).map(([name, setup]) => {
      const { kind, messages, inputData, options } = setup().call;
      return [name, { kind, messages, inputData, options }];
    }),
  );
}

/** A fresh Mastra app; `server` is passed through to Mastra's server config. */
export function createApp(server = {}) {
  const weatherAgent = new Agent({
    id: 'weather-agent',
    name: 'Weather agent',
    instructions: 'You answer weather questions with the get-weather tool.',
    model: weatherModel(),
    tools: { 'get-weather': weatherTool },
  });
  const agents = { [AGENT_ID]: weatherAgent };
  const workflows = { [WORKFLOW_ID]: greetingWorkflow() };
  for (const [name, setup] of Object.entries(SERVED)) {
    const entries = scenarioEntries(name, setup());
    Object.assign(agents, Object.fromEntries(entries.agents));
    Object.assign(workflows, Object.fromEntries(entries.workflows));
  }
  let mastra;
  const rebuildScenario = async (c, next) => {
    const name = scenarioOf(c.req.path);
    if (name !== null) rebuild(mastra, name);
    await next();
  };
  mastra = new Mastra({
    agents,
    workflows,
    storage: new InMemoryStore(),
    logger: false,
    server: { ...server, middleware: [rebuildScenario] },
  });
  return mastra;
}
