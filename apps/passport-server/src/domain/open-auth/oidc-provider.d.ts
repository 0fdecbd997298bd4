/**
 * oidc-provider ships no types; these are the few members the server uses (the provider's own
 * documentation is the reference: https://github.com/panva/node-oidc-provider/tree/main/docs).
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface AdapterPayload {
    [key: string]: unknown;
    grantId?: string;
    uid?: string;
    accountId?: string;
    clientId?: string;
    client_id?: string;
    consumed?: number;
  }

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface GrantInstance {
    accountId: string;
    clientId: string;
    jti: string;
    addOIDCScope(scope: string): void;
    rejectOIDCScope(scope: string): void;
    getOIDCScope(): string;
    save(ttl?: number): Promise<string>;
  }

  export interface InteractionInstance {
    uid: string;
    exp: number;
    returnTo: string;
    grantId?: string;
    params: Record<string, unknown>;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    session?: { accountId?: string };
    result?: Record<string, unknown>;
    lastSubmission?: Record<string, unknown>;
    save(ttl: number): Promise<string>;
  }

  export interface ClientInstance {
    clientId: string;
    clientName?: string;
    logoUri?: string;
    backchannelLogoutUri?: string;
    /** POSTs a logout token for the person (`sub`) and session (`sid`) to backchannel_logout_uri. */
    backchannelLogout(sub: string, sid: string): Promise<void>;
    redirectUris: string[];
    scope?: string;
    metadata(): Record<string, unknown>;
  }

  export interface AccessTokenInstance {
    accountId: string;
    clientId: string;
    grantId: string;
    scope?: string;
    /** Seconds since the epoch. */
    exp: number;
  }

  export interface SessionInstance {
    accountId?: string;
    authorizations?: Record<string, { sid?: string; grantId?: string }>;
    sidFor(clientId: string): string;
    destroy(): Promise<void>;
  }

  /** The Koa context the provider's middleware sees; only what the server reads. */
  export interface ProviderContext {
    req: IncomingMessage;
    status: number;
    body: unknown;
    append(header: string, value: string | string[]): void;
    oidc?: { route?: string; params?: Record<string, unknown>; session?: { accountId?: string } };
  }

  // biome-ignore lint/suspicious/noExplicitAny: the provider's configuration is documented, not typed
  export type Configuration = Record<string, any>;

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    issuer: string;
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    on(event: string, listener: (...args: unknown[]) => void): this;
    /** A Koa middleware around the provider's own (runs before its routes; after them past `next`). */
    use(middleware: (ctx: ProviderContext, next: () => Promise<void>) => Promise<void>): this;
    Grant: {
      new (properties: { accountId: string; clientId: string }): GrantInstance;
      find(id: string): Promise<GrantInstance | undefined>;
    };
    Interaction: { find(uid: string): Promise<InteractionInstance | undefined> };
    /** Undefined for an unknown, expired or revoked token. */
    AccessToken: { find(value: string): Promise<AccessTokenInstance | undefined> };
    Session: { find(id: string): Promise<SessionInstance | undefined> };
    Client: {
      find(id: string): Promise<ClientInstance | undefined>;
      /** Throws the provider's InvalidClientMetadata when `metadata` is not a client it would accept. */
      validate(metadata: Record<string, unknown>): Promise<void>;
      /** The storage adapter of the Client model. */
      adapter: Adapter;
    };
  }

  export interface Prompt {
    checks: { add(check: unknown, index?: number): void };
  }
  export const interactionPolicy: {
    base(): { get(name: string): Prompt | undefined };
    Check: {
      new (reason: string, description: string, check: (ctx: unknown) => boolean | Promise<boolean>): unknown;
      REQUEST_PROMPT: true;
      NO_NEED_TO_PROMPT: false;
    };
  };

  export const errors: {
    InvalidGrant: new (detail?: string) => Error;
    InvalidRedirectUri: new (description?: string) => Error;
    InvalidClientMetadata: new (description?: string) => Error;
    [name: string]: new (description?: string) => Error;
  };
}
