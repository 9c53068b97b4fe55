// The yardstick for the read benchmarks: a bare Fastify hello-world, run as its own
// process exactly like the real server (node --import tsx), so the ratio compares what a
// route does and not how the process was started. It prints the port PORT=0 picked.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));

const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`hello-world on ${address}`);

const stop = () => {
  void app.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
