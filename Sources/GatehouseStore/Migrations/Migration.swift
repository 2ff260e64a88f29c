import Foundation

/// One schema change. The statements use types both engines accept (`TEXT`, `BIGINT`, `INTEGER`,
/// `BOOLEAN`); where the engines differ a migration gives each its own list.
struct Migration: Sendable {
    var version: Int
    var name: String
    var sqlite: [String]
    var postgres: [String]

    init(version: Int, name: String, statements: [String]) {
        self.init(version: version, name: name, sqlite: statements, postgres: statements)
    }

    init(version: Int, name: String, sqlite: [String], postgres: [String]) {
        self.version = version
        self.name = name
        self.sqlite = sqlite
        self.postgres = postgres
    }

    /// Every migration, in order. Add new ones at the end; never edit one that has shipped.
    static let all: [Migration] = [
        .initialSchema,
        .socialSignIn,
        .externalSubjects,
        .cognitoPasswords,
        .mailQueue,
        .phoneNumbers,
        .operatorFlags,
        .throttleMilliseconds,
        .srpVerifiers,
        .passkeys,
        .secondFactor,
        .sessionDevices,
        .emailChange,
        .administration,
        .webhooks,
        .appleNotifications,
        .appleEmailRelay,
        .messages,
        .signingKeyAlgorithm,
    ]
}
