// The Mastra app served by server.mjs and recorded by record-inprocess.mjs: one agent with a
// tool and one workflow, driven by scripted mock models. The scripts are stateless (they
// look at the prompt, not at a call counter) so every HTTP request replays the same run.
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { InMemoryStore } from '@mastra/core/storage';
import { createTool } from '@mastra/core/tools';
import { createStep, createWorkflow } from '@mastra/core/workflows';
import { MockLanguageModelV2, simulateReadableStream } from 'ai/test';
import { z } from 'zod';

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

/** A fresh Mastra app; `server` is passed through to Mastra's server config. */
export function createApp(server = {}) {
  const weatherAgent = new Agent({
    id: 'weather-agent',
    name: 'Weather agent',
    instructions: 'You answer weather questions with the get-weather tool.',
    model: weatherModel(),
    tools: { 'get-weather': weatherTool },
  });
  return new Mastra({
    agents: { [AGENT_ID]: weatherAgent },
    workflows: { [WORKFLOW_ID]: greetingWorkflow() },
    storage: new InMemoryStore(),
    logger: false,
    server,
  });
}
