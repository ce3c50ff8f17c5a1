// The calls a phone app makes first, written against the types `make clients` generates from
// docs/openapi.yaml (openapi-typescript). `make lint` type-checks this file with
// `tsc --strict`: a schema change that breaks these calls fails there, and
// tests/clients/test_typescript_example.py compiles it and runs `firstMove` with node against a
// live server. See docs/mobile.md.
import type { components, paths } from "../../../clients/typescript/schema";

type Schemas = components["schemas"];
type Json<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: { 200: { content: { "application/json": infer T } } };
}
  ? T
  : never;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Schemas["ApiError"],
  ) {
    super(body.message);
  }
}

export class Api {
  private access = "";
  private refresh = "";

  constructor(private readonly base: string) {}

  private async call<T>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T> {
    const answer = await fetch(this.base + path, {
      method,
      headers: {
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        ...(this.access ? { Authorization: `Bearer ${this.access}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (answer.status === 401 && this.refresh && path !== "/api/v1/auth/token/refresh/") {
      await this.refreshToken();
      return this.call<T>(method, path, body, headers);
    }
    if (!answer.ok) {
      throw new ApiError(answer.status, (await answer.json()) as Schemas["ApiError"]);
    }
    return (await answer.json()) as T;
  }

  /** Sign in: keep the access token (30 minutes) and the refresh token (14 days, one use). */
  async signIn(username: string, password: string): Promise<void> {
    const body: Schemas["TokenObtainPairRequest"] = { username, password };
    const pair = await this.call<Schemas["TokenObtainPair"]>("POST", "/api/v1/auth/token/", body);
    this.access = pair.access;
    this.refresh = pair.refresh;
  }

  async refreshToken(): Promise<void> {
    const body: Schemas["TokenRefreshRequest"] = { refresh: this.refresh };
    this.access = "";
    const fresh = await this.call<Schemas["TokenRefresh"]>("POST", "/api/v1/auth/token/refresh/", body);
    this.access = fresh.access;
    this.refresh = fresh.refresh; // each refresh token works once: keep the new one
  }

  /** Sign out: this device's refresh token stops working; forget both tokens. */
  async signOut(): Promise<void> {
    const body: Schemas["RefreshTokenRequest"] = { refresh: this.refresh };
    await fetch(this.base + "/api/v1/auth/token/revoke/", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    this.access = "";
    this.refresh = "";
  }

  /** My next club evening (the list is soonest first), or null. */
  async nextEvening(): Promise<Schemas["MyEvening"] | null> {
    const page = await this.call<Json<"/api/v1/me/evenings/", "get">>("GET", "/api/v1/me/evenings/?page_size=1");
    return page.results[0] ?? null;
  }

  /** The open tables I sit at, with my seat. */
  async myTables(): Promise<Schemas["MyTable"][]> {
    const page = await this.call<Json<"/api/v1/me/tables/", "get">>("GET", "/api/v1/me/tables/");
    return page.results;
  }

  /** A table I may read: its mode and `hands_count`, the number of its latest hand. */
  async table(tableId: number): Promise<Schemas["Table"]> {
    return this.call<Schemas["Table"]>("GET", `/api/v1/tables/${tableId}/`);
  }

  /**
   * The hand in play at one of my tables, or null: follow my tables to each hosted one, read
   * its latest hand (numbered 1, 2, … in order, so the latest is `hands_count`) and keep it if
   * it is still being played.
   */
  async handInPlay(): Promise<{ table: Schemas["MyTable"]; view: Schemas["HandView"] } | null> {
    for (const table of await this.myTables()) {
      if (table.mode !== "hosted") continue; // recorded hands are entered, not played here
      const { hands_count } = await this.table(table.table_id);
      if (hands_count === 0) continue;
      const view = await this.handView(table.table_id, hands_count);
      if (view.status === "playing") return { table, view };
    }
    return null;
  }

  /** My seat's view of a hosted hand: my cards, the public actions, my legal actions. */
  async handView(tableId: number, number: number): Promise<Schemas["HandView"]> {
    return this.call<Schemas["HandView"]>("GET", `/api/v1/tables/${tableId}/hands/${number}/view/`);
  }

  /** One action, safe to retry: the version I saw, and a key that makes a repeat harmless. */
  async act(
    tableId: number,
    number: number,
    action: Schemas["ActionInputRequest"]["action"],
    seen: Schemas["HandView"],
  ): Promise<Schemas["HandView"]> {
    const body: Schemas["ActionInputRequest"] = { action, expected_version: seen.version };
    const key = `${tableId}-${number}-${seen.version}`;
    return this.call<Schemas["HandView"]>("POST", `/api/v1/tables/${tableId}/hands/${number}/actions/`, body, {
      "Idempotency-Key": key,
    });
  }
}

/** Sign in, follow my tables to the hand in play, and play my first legal action there when
 * it is my turn. */
export async function firstMove(api: Api, username: string, password: string): Promise<string> {
  await api.signIn(username, password);
  const found = await api.handInPlay();
  if (found === null) {
    const evening = await api.nextEvening();
    return `no hand in play; next evening: ${evening?.title ?? "none"}`;
  }
  const { table, view } = found;
  const where = `hand ${view.number} at table ${table.table_id}, seat ${table.seat}`;
  const legal = view.legal ?? [];
  if (legal.length === 0) return `${where}: waiting, ${view.to_act ?? "nobody"} is to act`;
  const after = await api.act(table.table_id, view.number, legal[0], view);
  return `${where}: played ${JSON.stringify(legal[0])}, now version ${after.version}`;
}
