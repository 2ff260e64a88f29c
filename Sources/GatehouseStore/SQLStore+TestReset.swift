import SQLKit

extension SQLStore {
    /// The tables start-up fills and a reset keeps: the migrations applied, the settings (the master
    /// key's check, the client and pool ids, the refresh successor key) and the signing keys.
    static let keptByReset: Set<String> = ["gh_schema_migrations", "gh_settings", "gh_signing_keys"]

    /// Deletes every row a request can write (users, sessions, codes, queued messages, rate limits,
    /// the audit log, …) in one transaction and keeps what start-up wrote (``keptByReset``), so a
    /// running app answers as a new one would. For tests that share one app between tests; the server
    /// never calls it.
    /// - Throws: The database's error (nothing is deleted then).
    package func deleteRequestDataForTests() async throws {
        let sqlite = backendName == "sqlite"
        try await writeSQL { db in
            let listing: SQLQueryString =
                sqlite
                ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'gh%'"
                : "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE 'gh%'"
            let tables = try await db.raw(listing).all().map { try $0.string("name") }.filter { !Self.keptByReset.contains($0) }.sorted()
            guard !tables.isEmpty else { return }
            if sqlite {
                // Rows refer to each other (sessions to users, …): the checks wait for the commit.
                try await db.raw("PRAGMA defer_foreign_keys = ON").run()
                for table in tables { try await db.raw("DELETE FROM \(unsafeRaw: "\"\(table)\"")").run() }
            } else {
                let list = tables.map { "\"\($0)\"" }.joined(separator: ", ")
                try await db.raw("TRUNCATE \(unsafeRaw: list)").run()
            }
        }
    }
}
