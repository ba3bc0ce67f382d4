export * from './control.ts';
export * from './frames.ts';
export * from './join.ts';
export * from './multiplexer.ts';
export * from './network.ts';
export * from './websocket.ts';
