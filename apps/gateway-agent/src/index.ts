export { AGENT_VERSION, type AgentHandle, type AgentOptions, startAgent } from './agent.ts';
export { parseEdgeConfig, parseEndpoint } from './config.ts';
