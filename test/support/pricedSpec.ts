/**
 * A GPU spec the emulator's catalog prices, shared by the inlay hint tests over LSP and in the editor:
 * AMPERE_24 and ADA_24 without the L4, workers 2 to 5, and `gpu.count`, `workers.idleTimeout`, `flashboot`
 * and `timeout` left out, so each gets its default's hint. One GPU per worker costs $0.36–$0.69 an hour there.
 */
export const PRICED_SPEC = `name: hinted
type: QUEUE
image: myorg/worker:1.0
gpu:
  pools: [AMPERE_24, ADA_24]
  excludedTypes: ["NVIDIA L4"]
workers:
  min: 2
  max: 5
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;
