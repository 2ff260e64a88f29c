import ArgumentParser
import Foundation
import GatehouseCore
import GatehouseServer

/// `gatehouse admin-keys …`: the admin API's keys.
struct AdminKeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin-keys",
        abstract: "Create, list and revoke admin API keys (only a key's hash is stored).",
        subcommands: [Create.self, List.self, Revoke.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a key and print it once.")
        @OptionGroup var common: CommonOptions
        @Option(help: "The key's name (1-64 of letters, digits, '.', '-', '_'), unique among live keys.") var name: String

        func run() async throws {
            let name = name
            try await runOperatorAction(common) { administration in
                let key = try await administration.createKey(name: name)
                return key + "\n(admin key \(name): shown once, store it now; send it as Authorization: Bearer <key>)"
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List keys: name, created, last used, revoked.")
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await runOperatorAction(common) { administration in
                let keys = try await administration.keys()
                guard !keys.isEmpty else { return "No admin keys." }
                return keys.map { key in
                    [
                        key.name, "created " + ContractTimestamp.string(key.createdAt),
                        "last used " + (key.lastUsedAt.map(ContractTimestamp.string) ?? "never"),
                        key.revokedAt.map { "revoked " + ContractTimestamp.string($0) } ?? "live",
                    ].joined(separator: "\t")
                }.joined(separator: "\n")
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke the live key with this name; calls with it fail at once.")
        @OptionGroup var common: CommonOptions
        @Option(help: "The key's name.") var name: String

        func run() async throws {
            let name = name
            try await runOperatorAction(common) { administration in
                try await administration.revokeKey(name: name)
                return "Admin key \(name) revoked."
            }
        }
    }
}
