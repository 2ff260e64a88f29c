import Foundation
import GatehouseCore
import GatehouseServer

/// Runs one operator action on the configured deployment's use cases (``GatehouseApplication/administer(_:)``),
/// printing what it returns.
func runOperatorAction(_ common: CommonOptions, _ action: @escaping @Sendable (Administration) async throws -> String) async throws {
    try await reportingConfigurationErrors {
        let configuration = try common.configuration()
        let logger = common.logger(configuration)
        let app = try await buildApplication(configuration: configuration, logger: logger)
        print(try await app.administer(action))
    }
}

/// The sub of `user`: a sub as it is, or the sub of the one user with that email address.
func resolveUser(_ user: String, with administration: Administration) async throws -> String {
    guard user.contains("@") else { return user }
    guard let address = try? EmailAddress(user) else { throw GatehouseError.invalidRequest("\(user) is not an email address.") }
    guard let found = try await administration.users(UserQuery(emailKey: address.key, limit: 1)).first else {
        throw GatehouseError(.notFound, "No user has the address \(user).")
    }
    return found.id
}

/// One user on one line: sub, address, state, creation time.
func userLine(_ user: UserRecord) -> String {
    let state = user.disabledAt != nil ? "disabled" : user.confirmed ? "confirmed" : "unconfirmed"
    return [user.id, user.email ?? user.phone ?? "-", state, ContractTimestamp.string(user.createdAt)].joined(separator: "\t")
}
