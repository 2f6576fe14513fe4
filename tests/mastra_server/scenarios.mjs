// The recorder's scenarios (tests/fixtures/mastra/recorder/src/scenarios/) this server also
// serves, each with the setup the recorder builds its run from.
//
// The recorder's modules import `@mastra/core`, `ai/test` and `zod` by bare name. Before they
// load, their bare imports are made to resolve from this folder's node_modules (with the
// recorder's hooks for recording another release), so the server, the scenarios and the
// in-process recordings all use this folder's one copy of @mastra/core.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useRelease } from '../fixtures/mastra/recorder/src/release.mjs';

useRelease(dirname(fileURLToPath(import.meta.url)));

const shared = await import('../fixtures/mastra/recorder/src/scenarios/shared.mjs');
const basics = await import('../fixtures/mastra/recorder/src/scenarios/agent-basics.mjs');
const suspension = await import('../fixtures/mastra/recorder/src/scenarios/agent-suspension.mjs');
const delegation = await import('../fixtures/mastra/recorder/src/scenarios/agent-delegation.mjs');
const network = await import('../fixtures/mastra/recorder/src/scenarios/network.mjs');
const workflows = await import('../fixtures/mastra/recorder/src/scenarios/workflows.mjs');

/**
 * The recorder's `app` (a Mastra app as the recorder registers a setup on) and `starter`. A
 * module of this folder imports the recorder's modules only through this one: a static import
 * would load them before the hooks above are registered.
 */
export const { app, starter } = shared;

/**
 * Recording name → the recorder's setup of that recording's run: it builds the agents and
 * workflows afresh and says how the run is started (see `starter` in the recorder's
 * shared.mjs). In the recorder's order; README.md says which recordings are not served, and why.
 */
export const SERVED = {
  'plain-text': basics.plainTextSetup,
  reasoning: basics.reasoningSetup,
  'tool-streamed-input': basics.toolTwoStepsSetup,
  'tool-writer': basics.toolWriterSetup,
  'tool-throws': basics.toolThrowsSetup,
  'tripwire-input': basics.tripwireInputSetup,
  'tripwire-output': basics.tripwireOutputSetup,
  'sources-and-files': basics.sourcesAndFilesSetup,
  'file-bytes': basics.fileBytesSetup,
  'model-error-in-stream': basics.modelErrorInStreamSetup,
  'model-error-thrown': basics.modelErrorThrownSetup,
  'parallel-tool-calls': basics.parallelToolsSetup,
  'raw-chunks': basics.rawChunksSetup,
  'tool-approval': suspension.approveSetup,
  'tool-approval-decline': suspension.declineSetup,
  'tool-suspend': suspension.toolSuspendSetup,
  'sub-agent': delegation.subAgentSetup,
  'workflow-tool': delegation.workflowToolSetup,
  'agent-network': network.agentNetworkSetup,
  'network-workflow': network.networkWorkflowSetup,
  'network-tool': network.networkToolSetup,
  'workflow-writer': workflows.plainWithWriterSetup,
  'workflow-agent-step': workflows.agentStepSetup,
  'workflow-step-error': workflows.stepErrorSetup,
  'workflow-invalid-input': workflows.invalidInputSetup,
  'workflow-suspend': workflows.suspendSetup,
  'workflow-foreach': workflows.foreachSetup,
  'workflow-parallel': workflows.parallelSetup,
  'workflow-sleep': workflows.sleepSetup,
  'workflow-nested': workflows.nestedSetup,
};
