import { parse, protocol, type ExecProtocolResult, type PGlite, type Results } from "@electric-sql/pglite";
import { isPlannedWithValues } from "./planned-with-values";

type BackendMessage = ExecProtocolResult["messages"][number];

/**
 * PGlite's own `query` parses, describes and plans a statement anew on every call, in five passes through its
 * WebAssembly: most of a simple read's cost. This keeps one named prepared statement per SQL text (Postgres then
 * plans it once, as a generic plan when that is as good) and runs it in one pass: Bind, Execute and Sync.
 * Serialisation and parsing are PGlite's own, by the types Postgres reported when the statement was prepared.
 * A statement planned with its values (planned-with-values.ts) is the unnamed statement instead, parsed again in the
 * same pass: Postgres plans the unnamed statement with the values it is bound to.
 *
 * Callers must hold PGlite's query lock (and, outside a transaction, its transaction lock).
 */
export class PgliteStatements {
  readonly #db: PGlite;
  readonly #capacity: number;
  /** SQL text → statement, least recently used first. */
  readonly #statements = new Map<string, PreparedStatement>();
  #nextId = 0;

  constructor(db: PGlite, capacity = 200) {
    this.#db = db;
    this.#capacity = capacity;
  }

  /** How many statements are prepared now (for tests). */
  get size(): number {
    return this.#statements.size;
  }

  async run<T>(sql: string, params: readonly unknown[] = []): Promise<Results<T>> {
    try {
      return await this.#run<T>(sql, params);
    } catch (error) {
      // A table changed under a prepared statement so that its rows change shape (ALTER TABLE under SELECT *):
      // Postgres refuses to run the old one. Prepared again, it answers the new shape.
      if (!isStaleResultType(error)) throw withStatement(error, sql, params);
      await this.#forget(sql);
      try {
        return await this.#run<T>(sql, params);
      } catch (retryError) {
        throw withStatement(retryError, sql, params);
      }
    }
  }

  async #run<T>(sql: string, params: readonly unknown[]): Promise<Results<T>> {
    if (!this.#db.ready) throw new Error("PGlite is closed");
    const statement = this.#statements.get(sql) ?? (await this.#prepare(sql));
    // Most recently used last: the first entry is the one to evict.
    this.#statements.delete(sql);
    this.#statements.set(sql, statement);
    const values = params.map((value, index) => this.#serialize(value, statement.paramTypes[index]));
    const unnamed = statement.name === UNNAMED;
    const bind = protocol.serialize.bind({ statement: statement.name, values });
    // The unnamed statement is parsed again and describes its rows afresh: no older shape is kept for it.
    const parts = unnamed
      ? [
          protocol.serialize.parse({ name: UNNAMED, text: sql, types: statement.paramTypes }),
          bind,
          protocol.serialize.describe({ type: "P" }),
        ]
      : [bind];
    // Written through to the data directory before the answer, as PGlite's `query` does.
    const { messages } = await this.#db.execProtocol(concat([...parts, protocol.serialize.execute({}), protocol.serialize.sync()]));
    const described: BackendMessage[] = statement.rowDescription && !unnamed ? [statement.rowDescription, ...messages] : messages;
    return parse.parseResults(described, this.#db.parsers)[0] as Results<T>;
  }

  async #prepare(sql: string): Promise<PreparedStatement> {
    const name = isPlannedWithValues(sql) ? UNNAMED : `vitrine_${++this.#nextId}`;
    const parts = [protocol.serialize.parse({ name, text: sql }), protocol.serialize.describe({ type: "S", name })];
    const evicted = this.#statements.size >= this.#capacity ? this.#statements.keys().next().value : undefined;
    const evictedStatement = evicted === undefined ? undefined : this.#statements.get(evicted);
    if (evicted !== undefined && evictedStatement) {
      this.#statements.delete(evicted);
      if (evictedStatement.name !== UNNAMED) parts.unshift(protocol.serialize.close({ type: "S", name: evictedStatement.name }));
    }
    const { messages } = await this.#db.execProtocol(concat([...parts, protocol.serialize.sync()]), { syncToFs: false });
    const paramTypes = messages.find((message) => message.name === "parameterDescription") as { dataTypeIDs: number[] } | undefined;
    const rowDescription = messages.find((message) => message.name === "rowDescription");
    const statement: PreparedStatement = { name, paramTypes: paramTypes?.dataTypeIDs ?? [], rowDescription };
    this.#statements.set(sql, statement);
    return statement;
  }

  async #forget(sql: string): Promise<void> {
    const statement = this.#statements.get(sql);
    if (!statement) return;
    this.#statements.delete(sql);
    if (statement.name === UNNAMED) return;
    await this.#db.execProtocol(concat([protocol.serialize.close({ type: "S", name: statement.name }), protocol.serialize.sync()]), {
      syncToFs: false,
    });
  }

  /** As PGlite's `query` does: its serializer for the parameter's type, else the value's text. */
  #serialize(value: unknown, type: number | undefined): string | null {
    if (value === null || value === undefined) return null;
    const serializer = type === undefined ? undefined : this.#db.serializers[type];
    return serializer ? serializer(value) : (value as { toString(): string }).toString();
  }
}

/** Postgres's unnamed statement: planned when bound, with the values it is bound to. */
const UNNAMED = "";

interface PreparedStatement {
  /** UNNAMED for a statement planned with its values: only its parameters' types are kept. */
  name: string;
  paramTypes: number[];
  /** Absent for statements that answer no rows. */
  rowDescription: BackendMessage | undefined;
}

function isStaleResultType(error: unknown): boolean {
  return (
    error instanceof Error && (error as { code?: string }).code === "0A000" && /cached plan must not change result type/.test(error.message)
  );
}

/** As PGlite's `query` does, so that a logged database error says which statement failed. */
function withStatement(error: unknown, sql: string, params: readonly unknown[]): unknown {
  if (error instanceof Error && typeof (error as { code?: unknown }).code === "string") {
    Object.assign(error, { query: sql, params });
  }
  return error;
}

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}
