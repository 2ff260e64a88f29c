import ArgumentParser
import Foundation
import GatehouseCore
import GatehouseServer

/// `gatehouse audit`: the audit log, newest first.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Print the audit log, newest first: time, event, user, actor, detail, address, request id."
    )
    @OptionGroup var common: CommonOptions
    @Option(help: "Only rows about this user (sub or email address).") var user: String?
    @Option(help: "Only rows of this event (sign_in, sign_in_failed, user_disabled, ...).") var event: String?
    @Option(help: "Only rows at or after this RFC 3339 time or date.") var since: String?
    @Option(help: "At most this many rows (1-500).") var limit = 100
    @Option(help: "The cursor a previous page printed.") var cursor: String?

    func run() async throws {
        let (user, event, since, limit, cursor) = (user, event, since, limit, cursor)
        try await runOperatorAction(common) { administration in
            var query = AuditQuery(before: cursor, limit: limit)
            if let user { query.userID = user.contains("@") ? try await resolveUser(user, with: administration) : user }
            if let event {
                guard let known = AuditEvent(rawValue: event) else {
                    throw GatehouseError.invalidRequest("--event must be one of \(AuditEvent.allCases.map(\.rawValue).joined(separator: ", ")).")
                }
                query.event = known
            }
            if let since {
                guard let date = ContractTimestamp.date(since) else { throw GatehouseError.invalidRequest("--since is not a time.") }
                query.since = date
            }
            let entries = try await administration.auditLog(query)
            var lines = entries.map { entry in
                [
                    ContractTimestamp.milliseconds(entry.at), entry.event.rawValue, entry.userID ?? "-", entry.actor, entry.detail ?? "-",
                    entry.clientAddress ?? "-", entry.requestID ?? "-",
                ].joined(separator: "\t")
            }
            if entries.count == query.limit, let last = entries.last { lines.append("next page: --cursor \(last.id)") }
            return lines.isEmpty ? "No audit rows." : lines.joined(separator: "\n")
        }
    }
}
