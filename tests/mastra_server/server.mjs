// Starts a real Mastra HTTP server (createNodeServer from @mastra/deployer) on 127.0.0.1.
// Port: first argument, else $PORT, else 0 (an ephemeral port). Once listening it prints one
// JSON line, {"port": <port>}, on stdout; SIGTERM/SIGINT stop it.
process.env.MASTRA_TELEMETRY_DISABLED = '1';

const { createNodeServer } = await import('@mastra/deployer/server');
const { createApp } = await import('./app.mjs');

const HOST = '127.0.0.1';

function requestedPort() {
  const raw = process.argv[2] ?? process.env.PORT ?? '0';
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`server.mjs: port must be an integer 0-65535, got ${JSON.stringify(raw)}`);
    process.exit(2);
  }
  return port;
}

// A short drain keeps test teardown quick; streams here last well under a second.
const mastra = createApp({ host: HOST, port: requestedPort(), drainTimeout: 500 });
const server = await createNodeServer(mastra, { tools: {} });
if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
