import { context, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';

/**
 * A tracer provider that keeps finished spans in memory, for one test file: `start()` registers it with the
 * W3C propagator, `reset()` forgets the spans (between tests), `stop()` shuts it down and unregisters the
 * global tracer, context manager and propagator so later files start from the no-op API again.
 */
export function inMemoryTracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return {
    exporter,
    start: (): void => void provider.register({ propagator: new W3CTraceContextPropagator() }),
    reset: (): void => exporter.reset(),
    async stop(): Promise<void> {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
