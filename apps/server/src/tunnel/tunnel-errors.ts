/** Why a stream could not be opened: `offline` (no tunnel), `refused` (the agent's reason), `timeout`, `closed`. */
export class TunnelOpenError extends Error {
  readonly kind: 'offline' | 'refused' | 'timeout' | 'closed';

  constructor(kind: TunnelOpenError['kind'], message: string) {
    super(message);
    this.kind = kind;
  }
}
