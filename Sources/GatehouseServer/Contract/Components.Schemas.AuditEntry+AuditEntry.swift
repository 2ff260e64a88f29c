import GatehouseAPI
import GatehouseCore

/// One row of the audit log (`GET /admin/audit`); its `at` has milliseconds (the schema's pattern says so).
extension Components.Schemas.AuditEntry {
    /// The admin API's view of an audit entry.
    /// - Parameter entry: The entry.
    /// - Throws: `EncodingError` for an event the document does not list (`ContractBodyTests` checks that it lists every one).
    init(_ entry: GatehouseCore.AuditEntry) throws {
        guard let event = Components.Schemas.AuditEvent(rawValue: entry.event.rawValue) else {
            throw EncodingError.invalidValue(
                entry.event.rawValue,
                .init(codingPath: [], debugDescription: "an audit event openapi.yaml does not list")
            )
        }
        self.init(
            id: entry.id,
            at: entry.at,
            event: event,
            userId: entry.userID,
            actor: entry.actor,
            detail: entry.detail,
            clientAddress: entry.clientAddress,
            userAgent: entry.userAgent,
            requestId: entry.requestID
        )
    }
}
